/**
 * The language status of digests (the `{}` next to the language in the status bar): the papers
 * and problems of the active digest, linking to the Papers view, and the state of the workspace
 * index (indexing, or N digests with M papers), linking to the server's output.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DocumentStatsRequest, DocumentStatsResult, IndexChangedParams, LANGUAGE_ID } from '../../server/src/protocol';

export const SHOW_OUTPUT_COMMAND = 'paperDigest.showServerOutput';

/** The `source` of the server's diagnostics (server/src/service/features/diagnostics.ts). */
const DIAGNOSTIC_SOURCE = 'paper-digest';

/** The user-visible strings of the status items, in one place (through vscode.l10n). */
const TEXT = {
  get documentName(): string { return vscode.l10n.t('Paper Digest: this digest'); },
  get indexName(): string { return vscode.l10n.t('Paper Digest: workspace index'); },
  get papersViewTitle(): string { return vscode.l10n.t('Papers View'); },
  get papersViewTooltip(): string { return vscode.l10n.t('Show the Papers view'); },
  get outputTitle(): string { return vscode.l10n.t('Server Output'); },
  get outputTooltip(): string { return vscode.l10n.t("Show the Paper Digest server's output"); },
  get indexing(): string { return vscode.l10n.t('Indexing digests…'); },
  papers: (n: string, one: boolean): string => (one ? vscode.l10n.t('{0} paper', n) : vscode.l10n.t('{0} papers', n)),
  problems: (n: string, one: boolean): string => (one ? vscode.l10n.t('{0} problem', n) : vscode.l10n.t('{0} problems', n)),
  digests: (n: string, one: boolean): string => (one ? vscode.l10n.t('{0} digest', n) : vscode.l10n.t('{0} digests', n)),
  both: (first: string, second: string): string => vscode.l10n.t('{0}, {1}', first, second),
};

function count(n: number, text: (n: string, one: boolean) => string): string {
  return text(n.toLocaleString('en-US'), n === 1);
}

/**
 * The texts of the two items, from what is known.
 *
 * @example
 * statusTexts({ papers: 3, problems: 1, index: { fileCount: 2, paperCount: 10 } })
 * // { document: '3 papers, 1 problem', index: '2 digests, 10 papers' }
 */
export function statusTexts(state: { papers: number | null | undefined; problems: number; index: DocumentStatsResult['index'] | undefined }): { document: string; index: string } {
  const problems = count(state.problems, TEXT.problems);
  return {
    document: state.papers === undefined || state.papers === null ? problems : TEXT.both(count(state.papers, TEXT.papers), problems),
    index: state.index ? TEXT.both(count(state.index.fileCount, TEXT.digests), count(state.index.paperCount, TEXT.papers)) : TEXT.indexing,
  };
}

/**
 * The two language status items, kept current on editor, diagnostics and index changes.
 *
 * @example
 * const status = new DigestLanguageStatus(client, papersView.onDidChangeIndex);
 * status.documentItem.text; // '12 papers, 3 problems'
 */
export class DigestLanguageStatus implements vscode.Disposable {
  readonly documentItem: vscode.LanguageStatusItem;
  readonly indexItem: vscode.LanguageStatusItem;
  private readonly disposables: vscode.Disposable[] = [];
  private index: DocumentStatsResult['index'] | undefined;
  private papers: number | null | undefined;
  private updating: Promise<void> | undefined;
  private again = false;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires after the items were updated. */
  readonly onDidUpdate = this.changeEmitter.event;

  constructor(
    private readonly client: LanguageClient,
    onDidChangeIndex: vscode.Event<IndexChangedParams>,
  ) {
    const selector: vscode.DocumentSelector = { language: LANGUAGE_ID };
    this.documentItem = vscode.languages.createLanguageStatusItem('paperDigest.document', selector);
    this.documentItem.name = TEXT.documentName;
    this.documentItem.command = { title: TEXT.papersViewTitle, command: 'paperDigest.papers.focus', tooltip: TEXT.papersViewTooltip };
    this.indexItem = vscode.languages.createLanguageStatusItem('paperDigest.index', selector);
    this.indexItem.name = TEXT.indexName;
    this.indexItem.command = { title: TEXT.outputTitle, command: SHOW_OUTPUT_COMMAND, tooltip: TEXT.outputTooltip };
    this.indexItem.busy = true;
    this.disposables.push(
      this.documentItem,
      this.indexItem,
      this.changeEmitter,
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeTextDocument((event) => event.document === vscode.window.activeTextEditor?.document && this.update()),
      vscode.languages.onDidChangeDiagnostics((event) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (event.uris.some((uri) => uri.toString() === active)) {
          this.render();
        }
      }),
      // The notification counts every copy of a paper; the server's statistics count papers.
      onDidChangeIndex(() => this.update()),
    );
    this.render();
    this.update();
  }

  /** Asks the server again (one request at a time; changes meanwhile ask once more). */
  update(): void {
    if (this.updating) {
      this.again = true;
      return;
    }
    const document = vscode.window.activeTextEditor?.document;
    const uri = document?.languageId === LANGUAGE_ID ? document.uri.toString() : '';
    this.updating = this.client
      .sendRequest(DocumentStatsRequest, { uri })
      .then(
        (stats) => {
          this.index = stats.index;
          this.papers = uri && uri === vscode.window.activeTextEditor?.document.uri.toString() ? stats.paperCount : undefined;
        },
        () => undefined,
      )
      .then(() => {
        this.updating = undefined;
        this.render();
        if (this.again) {
          this.again = false;
          this.update();
        }
      });
  }

  private render(): void {
    const document = vscode.window.activeTextEditor?.document;
    const problems = document ? vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === DIAGNOSTIC_SOURCE).length : 0;
    const texts = statusTexts({ papers: this.papers, problems, index: this.index });
    this.documentItem.text = texts.document;
    this.indexItem.text = texts.index;
    this.indexItem.busy = this.index === undefined;
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}

/**
 * Registers the language status and the command that shows the server's output.
 *
 * @example
 * const status = registerLanguageStatus(context, client, papersView.onDidChangeIndex);
 */
export function registerLanguageStatus(context: vscode.ExtensionContext, client: LanguageClient, onDidChangeIndex: vscode.Event<IndexChangedParams>): DigestLanguageStatus {
  const status = new DigestLanguageStatus(client, onDidChangeIndex);
  context.subscriptions.push(status, vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => client.outputChannel.show(true)));
  return status;
}
