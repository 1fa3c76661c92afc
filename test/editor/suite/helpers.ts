/**
 * What the editor suite's tests and the web extension's suite (test/web/suite, bundled for the
 * browser's web worker) both ask of VS Code: the extension, the workspace's files, diagnostics'
 * codes and hovers' text. Only `vscode` here: no Node module, so that the browser bundle can take it.
 */
import * as vscode from 'vscode';
import { waitUntil } from './waiting';

export const EXTENSION_ID = 'paper-digest.paper-digest';

/** Activates the extension and returns its API; fails if it is not installed. */
export async function activateExtension(): Promise<any> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) {
    throw new Error(`extension ${EXTENSION_ID} is not installed`);
  }
  return extension.activate();
}

/**
 * A file of the first workspace folder (test/editor/workspace or a copy of it).
 *
 * @example
 * workspaceFile('digests', '2026-05-01.digest') // <folder>/digests/2026-05-01.digest
 */
export function workspaceFile(...names: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new Error('the tests need the workspace test/editor/workspace open');
  }
  return vscode.Uri.joinPath(folder.uri, ...names);
}

/** A diagnostic's code, whether given alone or with a link. */
export function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

/** The text of hovers, their parts joined by line breaks. */
export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
}

/** A document's outline once the server gives one (asked again as its diagnostics come). */
export function documentSymbolsOf(uri: vscode.Uri): Promise<vscode.DocumentSymbol[]> {
  return waitUntil(
    async () => {
      const result = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
      return result && result.length > 0 ? result : undefined;
    },
    `document symbols of ${uri.toString()}`,
    [vscode.languages.onDidChangeDiagnostics],
  );
}

/** Whether a document of that URI is open (loaded) in the editor. */
export function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString());
}
