/**
 * The reading state in the editor: a gutter icon on each entry's title line (a star, a dot for
 * unread, a check for read), so that no text moves, from the server's `paperDigest/documentPapers`.
 * It also keeps the context keys of the paper under the cursor for the editor's context menu.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DocumentPapersRequest, LANGUAGE_ID } from '../../../server/src/protocol';
import type { DocumentPaper } from '../../../server/src/protocol';
import type { ReadingState } from './readingState';
import { onIndexChanged } from '../indexChanges';

/** Context keys of the paper under the cursor in a digest editor. */
export const CURSOR_CONTEXT = {
  onPaper: 'paperDigest.cursorOnPaper',
  read: 'paperDigest.cursorPaperRead',
  starred: 'paperDigest.cursorPaperStarred',
} as const;

export type TitleState = 'starred' | 'unread' | 'read';

/** The lines (zero-based) of each state that the decorations were last set to, per document. */
export type AppliedDecorations = Record<TitleState, number[]>;

/**
 * Draws the title-line icons of every visible digest editor and refreshes them when the state
 * or the index changes.
 *
 * @example
 * const decorations = new TitleDecorations(context, client, state);
 * decorations.applied.get(uri.toString())?.starred   // [2]
 */
export class TitleDecorations implements vscode.Disposable {
  private readonly types: Record<TitleState, vscode.TextEditorDecorationType>;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly papers = new Map<string, readonly DocumentPaper[]>();
  /** What was last drawn, by document URI, for the tests. */
  readonly applied = new Map<string, AppliedDecorations>();
  private readonly appliedEmitter = new vscode.EventEmitter<string>();
  /** Fires with a document's URI after its decorations were set. */
  readonly onDidApply = this.appliedEmitter.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    context: vscode.ExtensionContext,
    private readonly client: LanguageClient,
    state: ReadingState,
  ) {
    const gutter = (name: string, ruler?: string): vscode.TextEditorDecorationType =>
      vscode.window.createTextEditorDecorationType({
        gutterIconPath: vscode.Uri.joinPath(context.extensionUri, 'media', 'reading', `${name}.svg`),
        gutterIconSize: '80%',
        ...(ruler ? { overviewRulerColor: new vscode.ThemeColor(ruler), overviewRulerLane: vscode.OverviewRulerLane.Left } : {}),
      });
    this.types = { starred: gutter('star', 'charts.yellow'), unread: gutter('unread', 'charts.blue'), read: gutter('read') };
    this.disposables.push(
      ...Object.values(this.types),
      this.appliedEmitter,
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule(0)),
      vscode.window.onDidChangeTextEditorSelection((event) => this.updateCursor(event.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && this.updateCursor(editor)),
      state.onDidChange(() => this.schedule(0)),
      onIndexChanged(client, () => this.schedule(50)),
    );
    this.schedule(0);
  }

  /** Asks the server again for every visible digest editor and redraws. */
  async refresh(): Promise<void> {
    const editors = vscode.window.visibleTextEditors.filter((editor) => editor.document.languageId === LANGUAGE_ID);
    const uris = [...new Set(editors.map((editor) => editor.document.uri.toString()))];
    await Promise.all(
      uris.map(async (uri) => {
        try {
          const result = await this.client.sendRequest(DocumentPapersRequest, { uri });
          this.papers.set(uri, result.papers);
        } catch {
          this.papers.delete(uri);
        }
      }),
    );
    for (const editor of vscode.window.visibleTextEditors) {
      const uri = editor.document.uri.toString();
      const papers = editor.document.languageId === LANGUAGE_ID ? this.papers.get(uri) ?? [] : [];
      const lines: AppliedDecorations = { starred: [], unread: [], read: [] };
      for (const paper of papers) {
        lines[paper.starred ? 'starred' : paper.read ? 'read' : 'unread'].push(paper.line);
      }
      for (const state of Object.keys(lines) as TitleState[]) {
        editor.setDecorations(
          this.types[state],
          lines[state].map((line) => new vscode.Range(line, 0, line, 0)),
        );
      }
      if (editor.document.languageId === LANGUAGE_ID) {
        this.applied.set(uri, lines);
        this.appliedEmitter.fire(uri);
      }
    }
    const active = vscode.window.activeTextEditor;
    if (active) {
      this.updateCursor(active);
    }
  }

  /** The paper whose entry holds a line: the last one whose title is at or above it. */
  paperAtLine(uri: string, line: number): DocumentPaper | undefined {
    let found: DocumentPaper | undefined;
    for (const paper of this.papers.get(uri) ?? []) {
      if (paper.line > line) {
        break;
      }
      found = paper;
    }
    return found;
  }

  /** The papers of a document as last received, in document order. */
  papersOf(uri: string): readonly DocumentPaper[] {
    return this.papers.get(uri) ?? [];
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.disposables.forEach((disposable) => disposable.dispose());
  }

  private schedule(delayMs: number): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh().catch(() => undefined);
    }, delayMs);
  }

  private updateCursor(editor: vscode.TextEditor): void {
    if (editor !== vscode.window.activeTextEditor) {
      return;
    }
    const paper = editor.document.languageId === LANGUAGE_ID ? this.paperAtLine(editor.document.uri.toString(), editor.selection.active.line) : undefined;
    void vscode.commands.executeCommand('setContext', CURSOR_CONTEXT.onPaper, paper !== undefined);
    void vscode.commands.executeCommand('setContext', CURSOR_CONTEXT.read, paper?.read ?? false);
    void vscode.commands.executeCommand('setContext', CURSOR_CONTEXT.starred, paper?.starred ?? false);
  }
}
