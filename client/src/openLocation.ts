/**
 * `paperDigest.openLocation`: the client command the server's code actions run to open a place
 * in another digest (the other copy of a duplicated paper). Arguments: `[uri: string, range]`
 * with an LSP range; anything else is ignored.
 */
import * as vscode from 'vscode';
import { OPEN_LOCATION_COMMAND } from '../../server/src/protocol';

interface LspRange {
  readonly start: { readonly line: number; readonly character: number };
  readonly end: { readonly line: number; readonly character: number };
}

function isLspRange(value: unknown): value is LspRange {
  const range = value as LspRange | undefined;
  return [range?.start?.line, range?.start?.character, range?.end?.line, range?.end?.character].every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0);
}

export function registerOpenLocation(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_LOCATION_COMMAND, async (uri: unknown, range: unknown): Promise<boolean> => {
      if (typeof uri !== 'string' || !isLspRange(range)) {
        return false;
      }
      let target: vscode.Uri;
      try {
        target = vscode.Uri.parse(uri, true);
      } catch {
        return false;
      }
      const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
      await vscode.window.showTextDocument(target, { selection, preview: true });
      return true;
    }),
  );
}
