/**
 * *Export Papers…*, *Copy BibTeX* and *Open on arXiv*. The server writes the exported text
 * (`paperDigest/exportPapers`) and builds the arXiv URL; the client asks what to export and
 * where to, and writes the file atomically (a temporary file in the same folder, then a rename).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { EXPORT_FORMATS, ExportPapersRequest, LANGUAGE_ID } from '../../../server/src/protocol';
import type { DocumentPaper, ExportFormat, PaperScope } from '../../../server/src/protocol';
import { groupingName, PapersElement, PapersView } from '../papersView';
import { groupScope, shownQuery } from './stateCommands';
import type { ReadingState } from './readingState';
import { paperTargets } from './targets';
import type { TitleDecorations } from './titleDecorations';
import { pickText } from '../tooltip';
import { showError, showInformation, showWarning } from '../notifications';
import { randomHex } from '../randomHex';

export const EXPORT_COMMANDS = {
  exportPapers: 'paperDigest.exportPapers',
  copyBibtex: 'paperDigest.copyBibtex',
  openOnArxiv: 'paperDigest.openOnArxiv',
} as const;

const FORMATS: Record<ExportFormat, { label: string; detail: () => string; extension: string; language: string }> = {
  bibtex: { label: 'BibTeX', detail: () => vscode.l10n.t('@misc entries with unique keys'), extension: 'bib', language: 'bibtex' },
  csljson: { label: 'CSL-JSON', detail: () => vscode.l10n.t('for Zotero, Pandoc and citeproc'), extension: 'json', language: 'json' },
  ris: { label: 'RIS', detail: () => vscode.l10n.t('for EndNote, Mendeley and Zotero'), extension: 'ris', language: 'plaintext' },
  csv: { label: 'CSV', detail: () => vscode.l10n.t('one row per paper'), extension: 'csv', language: 'plaintext' },
  markdown: { label: 'Markdown', detail: () => vscode.l10n.t('a reading list: English and Chinese titles, authors, institutions, summary'), extension: 'md', language: 'markdown' },
};

/**
 * What the export command can be told, to skip its questions (the palette asks them all):
 * `to` is `'untitled'` or a file URI.
 */
export interface ExportRequest {
  readonly scope?: PaperScope;
  readonly format?: ExportFormat;
  readonly to?: 'untitled' | vscode.Uri | string;
}

/** What an export did: the document opened or the file written, and how many papers. */
export interface ExportOutcome {
  readonly count: number;
  readonly document?: vscode.TextDocument;
  readonly file?: vscode.Uri;
}

function isElement(value: unknown): value is PapersElement {
  return typeof value === 'object' && value !== null && 'node' in value && typeof (value as PapersElement).id === 'string';
}

function isExportRequest(value: unknown): value is ExportRequest {
  return typeof value === 'object' && value !== null && !isElement(value) && !(value instanceof vscode.Uri) && ('scope' in value || 'format' in value || 'to' in value);
}

/**
 * The keys of the papers an editor selection touches: each entry runs from its title line to
 * the line before the next paper's title.
 *
 * @example
 * keysInSelection(papers, new vscode.Range(3, 0, 20, 0))
 */
export function keysInSelection(papers: readonly DocumentPaper[], range: vscode.Range): string[] {
  const keys: string[] = [];
  papers.forEach((paper, index) => {
    const end = index + 1 < papers.length ? papers[index + 1].line - 1 : Number.MAX_SAFE_INTEGER;
    if (paper.line <= range.end.line && end >= range.start.line && !keys.includes(paper.paperKey)) {
      keys.push(paper.paperKey);
    }
  });
  return keys;
}

/** Registers Export Papers…, Copy BibTeX and Open on arXiv. */
export function registerExporting(context: vscode.ExtensionContext, client: LanguageClient, view: PapersView, state: ReadingState, decorations: TitleDecorations): void {
  const scopeFromArguments = async (args: unknown[]): Promise<{ scope: PaperScope; what: string } | undefined> => {
    const [first, second] = args;
    if (isElement(first) && first.node.kind === 'group') {
      return { scope: groupScope(view, first), what: first.node.label };
    }
    if (isElement(first) || (typeof first === 'object' && first !== null && 'paperKey' in first)) {
      const targets = await paperTargets(client, view, [first, second]);
      return targets ? { scope: { keys: targets.keys }, what: targets.keys.length === 1 ? vscode.l10n.t('the paper') : vscode.l10n.t('{0} papers', targets.keys.length) } : undefined;
    }
    if (first instanceof vscode.Uri) {
      return { scope: { uri: first.toString() }, what: vscode.workspace.asRelativePath(first) };
    }
    return pickScope(client, view, state, decorations);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(EXPORT_COMMANDS.exportPapers, async (...args: unknown[]): Promise<ExportOutcome | undefined> => {
      const request = isExportRequest(args[0]) ? args[0] : {};
      const chosen = request.scope ? { scope: request.scope, what: vscode.l10n.t('the papers') } : await scopeFromArguments(args);
      if (!chosen) {
        return undefined;
      }
      const format = request.format ?? (await pickFormat());
      if (!format) {
        return undefined;
      }
      const result = await client.sendRequest(ExportPapersRequest, { format, scope: chosen.scope });
      if (result.tooMany) {
        void showWarning(tooManyToExport(result.tooMany, format));
        return { count: 0 };
      }
      if (result.wrongScope && result.wrongScope.length > 0) {
        // A scope given by a program (`{ scope, format, to }`) with parts no scope has.
        void showWarning(
          result.wrongScope.length === 1 && result.wrongScope[0] === 'scope'
            ? vscode.l10n.t('Paper Digest: nothing was exported: the scope is not an object.')
            : vscode.l10n.t('Paper Digest: nothing was exported: the scope\'s {0} is not what a scope takes (a part of another type or value, or no part of a scope).', result.wrongScope.map((part) => `"${part}"`).join(', ')),
        );
        return { count: 0 };
      }
      if (result.count === 0) {
        void showInformation(vscode.l10n.t('Paper Digest: no papers to export in {0}.', chosen.what));
        return { count: 0 };
      }
      const to = request.to ?? (await pickDestination(format));
      if (to === undefined) {
        return undefined;
      }
      if (to === 'untitled') {
        const document = await openUntitled(result.text, FORMATS[format].language);
        await vscode.window.showTextDocument(document);
        return { count: result.count, document };
      }
      const file = typeof to === 'string' ? vscode.Uri.parse(to) : to;
      try {
        // A CSV file starts with a byte order mark: Excel reads one without it in the system's
        // code page, every Chinese cell garbled.
        await writeAtomically(file, format === 'csv' ? '\ufeff' + result.text : result.text);
      } catch (error) {
        void showError(vscode.l10n.t('Paper Digest: could not export to {0}: {1}', vscode.workspace.asRelativePath(file), error instanceof Error ? error.message : String(error)));
        return undefined;
      }
      const open = vscode.l10n.t('Open');
      void showInformation(result.count === 1 ? vscode.l10n.t('Paper Digest: exported 1 paper to {0}.', vscode.workspace.asRelativePath(file)) : vscode.l10n.t('Paper Digest: exported {0} papers to {1}.', result.count, vscode.workspace.asRelativePath(file)), open).then((choice) => {
        if (choice === open) {
          void vscode.window.showTextDocument(file);
        }
      });
      return { count: result.count, file };
    }),
    vscode.commands.registerCommand(EXPORT_COMMANDS.copyBibtex, async (...args: unknown[]): Promise<string | undefined> => {
      const targets = await paperTargets(client, view, args);
      if (!targets || targets.keys.length === 0) {
        void showInformation(vscode.l10n.t('Paper Digest: put the cursor on a paper of a digest, or select papers in the Papers view.'));
        return undefined;
      }
      const result = await client.sendRequest(ExportPapersRequest, { format: 'bibtex', scope: { keys: targets.keys } });
      if (result.tooMany) {
        void showWarning(tooManyToExport(result.tooMany, 'bibtex'));
        return undefined;
      }
      try {
        await vscode.env.clipboard.writeText(result.text);
        vscode.window.setStatusBarMessage(result.count === 1 ? vscode.l10n.t('Paper Digest: copied the BibTeX of 1 paper') : vscode.l10n.t('Paper Digest: copied the BibTeX of {0} papers', result.count), 4000);
      } catch {
        // A browser that refuses the clipboard: show the text instead.
        void showWarning(vscode.l10n.t('Paper Digest: the clipboard cannot be written here; the BibTeX is in a new editor.'));
        await vscode.window.showTextDocument(await openUntitled(result.text, 'bibtex'));
      }
      return result.text;
    }),
    vscode.commands.registerCommand(EXPORT_COMMANDS.openOnArxiv, async (...args: unknown[]): Promise<boolean> => {
      const targets = await paperTargets(client, view, args);
      const url = targets?.url ?? targets?.nodes[0]?.arxivSearchUrl;
      if (!url) {
        void showInformation(vscode.l10n.t('Paper Digest: put the cursor on a paper of a digest, or select a paper in the Papers view.'));
        return false;
      }
      // The server builds and encodes the URL; open nothing but arXiv over https all the same.
      const uri = vscode.Uri.parse(url, true);
      if (uri.scheme !== 'https' || uri.authority !== 'arxiv.org') {
        void showWarning(vscode.l10n.t('Paper Digest: not an arXiv link; nothing opened.'));
        return false;
      }
      return vscode.env.openExternal(uri);
    }),
  );
}

async function pickScope(client: LanguageClient, view: PapersView, state: ReadingState, decorations: TitleDecorations): Promise<{ scope: PaperScope; what: string } | undefined> {
  type Choice = vscode.QuickPickItem & { scope?: PaperScope; what: string; askTag?: boolean };
  const editor = vscode.window.activeTextEditor;
  const digest = editor && editor.document.languageId === LANGUAGE_ID ? editor : undefined;
  const items: Choice[] = [{ label: `$(star-full) ${vscode.l10n.t('Starred papers')}`, scope: { starredOnly: true }, what: vscode.l10n.t('the starred papers') }, { label: `$(tag) ${vscode.l10n.t('Papers with a tag…')}`, what: vscode.l10n.t('the tag'), askTag: true }];
  if (digest) {
    const uri = digest.document.uri.toString();
    items.push({ label: `$(file) ${vscode.l10n.t('This digest')}`, description: pickText(vscode.workspace.asRelativePath(digest.document.uri)), scope: { uri }, what: vscode.workspace.asRelativePath(digest.document.uri) });
    if (!digest.selection.isEmpty) {
      await decorations.refresh();
      const keys = keysInSelection(decorations.papersOf(uri), digest.selection);
      if (keys.length > 0) {
        items.push({ label: `$(selection) ${vscode.l10n.t('The selected papers')}`, description: vscode.l10n.t('{0} in the editor', keys.length), scope: { keys }, what: vscode.l10n.t('the selection') });
      }
    }
  }
  const selected = view.treeView.selection;
  const group = selected.find((element) => element.node.kind === 'group');
  if (group && group.node.kind === 'group') {
    items.push({ label: `$(list-tree) ${vscode.l10n.t('The selected group')}`, description: pickText(group.node.label), scope: groupScope(view, group), what: group.node.label });
  }
  const papers = selected.filter((element) => element.node.kind === 'paper');
  if (papers.length > 0) {
    const targets = await paperTargets(client, view, [papers[0], papers]);
    if (targets) {
      items.push({ label: `$(book) ${vscode.l10n.t('The papers selected in the view')}`, description: `${targets.keys.length}`, scope: { keys: targets.keys }, what: vscode.l10n.t('the selected papers') });
    }
  }
  items.push({ label: `$(filter) ${vscode.l10n.t('What the Papers view shows')}`, description: view.filter ? vscode.l10n.t('filter “{0}”', pickText(view.filter)) : groupingName(view.grouping), scope: shownQuery(view), what: vscode.l10n.t('the papers shown') });
  const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Export Papers'), placeHolder: vscode.l10n.t('Which papers?') });
  if (!choice) {
    return undefined;
  }
  if (choice.askTag) {
    const tags = (await state.info())?.tags ?? [];
    if (tags.length === 0) {
      void showInformation(vscode.l10n.t('Paper Digest: no paper has a tag yet.'));
      return undefined;
    }
    const tag = await vscode.window.showQuickPick(tags, { title: vscode.l10n.t('Export Papers'), placeHolder: vscode.l10n.t('Which tag?') });
    return tag === undefined ? undefined : { scope: { tag }, what: vscode.l10n.t('tag {0}', tag) };
  }
  return choice.scope ? { scope: choice.scope, what: choice.what } : undefined;
}

async function pickFormat(): Promise<ExportFormat | undefined> {
  const choice = await vscode.window.showQuickPick(
    EXPORT_FORMATS.map((format) => ({ label: FORMATS[format].label, detail: FORMATS[format].detail(), format })),
    { title: vscode.l10n.t('Export Papers'), placeHolder: vscode.l10n.t('Which format?') },
  );
  return choice?.format;
}

async function pickDestination(format: ExportFormat): Promise<'untitled' | vscode.Uri | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      { label: `$(new-file) ${vscode.l10n.t('Open in a new editor')}`, to: 'untitled' as const },
      { label: `$(save) ${vscode.l10n.t('Save to a file…')}`, to: 'file' as const },
    ],
    { title: vscode.l10n.t('Export Papers'), placeHolder: vscode.l10n.t('Where to?') },
  );
  if (!choice) {
    return undefined;
  }
  if (choice.to === 'untitled') {
    return 'untitled';
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const extension = FORMATS[format].extension;
  return vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Papers'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, `papers.${extension}`) : undefined,
    filters: { [FORMATS[format].label]: [extension], [vscode.l10n.t('All files')]: ['*'] },
  });
}

async function openUntitled(content: string, language: string): Promise<vscode.TextDocument> {
  try {
    return await vscode.workspace.openTextDocument({ content, language });
  } catch {
    // No such language installed (bibtex): plain text.
    return vscode.workspace.openTextDocument({ content, language: 'plaintext' });
  }
}

/**
 * Writes a file of this machine's disk atomically, keeping an existing file's mode and owner and
 * refusing a link (`localFiles.ts`, the desktop extension's); undefined in the browser.
 */
let localWriter: ((file: string, text: string) => Promise<void>) | undefined;

/** Sets the writer of `file:` exports (the desktop extension, at activation). */
export function useLocalFileWriter(writer: (file: string, text: string) => Promise<void>): void {
  localWriter = writer;
}

/**
 * Writes `text` to `file` atomically: into a temporary file beside it, then renamed over it, so
 * a reader never sees half a file and a crash leaves the old one. A file of this machine is
 * written by `localWriter`: VS Code's rename over an existing file deletes it first and then
 * renames (a failure between the two loses both), and gives the new file the default mode.
 */
export async function writeAtomically(file: vscode.Uri, text: string): Promise<void> {
  if (file.scheme === 'file' && localWriter) {
    return localWriter(file.fsPath, text);
  }
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  // A name no one can guess and no file has (the web extension host has no process id).
  let temporary: vscode.Uri;
  do {
    temporary = vscode.Uri.joinPath(file, '..', `.${name}.${randomHex(8)}.tmp`);
  } while (await exists(temporary));
  try {
    await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
    await vscode.workspace.fs.rename(temporary, file, { overwrite: true });
  } catch (error) {
    // A part written (a full disk) is not left beside the file either.
    await vscode.workspace.fs.delete(temporary).then(undefined, () => undefined);
    throw error;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** What an export of more papers than one takes says: how many, the most, and what to do. */
function tooManyToExport(tooMany: { papers: number; max: number }, format: string): string {
  return vscode.l10n.t(
    'Paper Digest: {0} papers are more than one export takes ({1}); narrow them with a filter or a group, or export them with the command line: paper-digest papers --format {2}.',
    tooMany.papers.toLocaleString('en'),
    tooMany.max.toLocaleString('en'),
    format,
  );
}
