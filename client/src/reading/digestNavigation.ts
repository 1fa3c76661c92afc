/**
 * *Next Digest* / *Previous Digest*: move between the dated digests of the workspace in the
 * server's reading order (`paperDigest/digests`: by the date in the file name, else by
 * modification time).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DigestsRequest } from '../../../server/src/protocol';
import type { DigestInfo } from '../../../server/src/protocol';
import { showInformation } from '../notifications';
import { pickText } from '../tooltip';

export const NAVIGATION_COMMANDS = {
  next: 'paperDigest.nextDigest',
  previous: 'paperDigest.previousDigest',
} as const;

/**
 * The digest `step` places from `current` in `digests` (oldest first). From a document that is
 * not a digest, *next* goes to the oldest digest with unread papers (else the newest) and
 * *previous* to the newest. Undefined at either end.
 *
 * @example
 * neighbourDigest(digests, digests[0].uri, 1) // digests[1]
 */
export function neighbourDigest(digests: readonly DigestInfo[], current: string | undefined, step: 1 | -1): DigestInfo | undefined {
  const index = current === undefined ? -1 : digests.findIndex((digest) => digest.uri === current);
  if (index < 0) {
    return step === 1 ? digests.find((digest) => digest.unreadCount > 0) ?? digests[digests.length - 1] : digests[digests.length - 1];
  }
  return digests[index + step];
}

/** Opens the next or previous digest; resolves with the editor, or undefined at an end. */
export async function moveToDigest(client: LanguageClient, step: 1 | -1): Promise<vscode.TextEditor | undefined> {
  const { digests } = await client.sendRequest(DigestsRequest, {});
  if (digests.length === 0) {
    void showInformation(vscode.l10n.t('Paper Digest: no digest files in the workspace.'));
    return undefined;
  }
  const current = vscode.window.activeTextEditor?.document.uri.toString();
  const target = neighbourDigest(digests, current, step);
  if (!target) {
    void showInformation(step === 1 ? vscode.l10n.t('Paper Digest: this is the newest digest.') : vscode.l10n.t('Paper Digest: this is the oldest digest.'));
    return undefined;
  }
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(target.uri), { preview: false });
  // A file's name may hold `$(…)`, which the status bar draws as an icon; its date is said after
  // it unless the name says it (`2026-12-04.digest (2026-12-04)`).
  const name = pickText(vscode.workspace.asRelativePath(editor.document.uri));
  vscode.window.setStatusBarMessage(vscode.l10n.t('Paper Digest: {0} — {1} unread, {2} new of {3}', target.date && !name.includes(target.date) ? `${name} (${target.date})` : name, target.unreadCount, target.newCount, target.paperCount), 5000);
  return editor;
}

/** Registers *Next Digest* and *Previous Digest*. */
export function registerDigestNavigation(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(NAVIGATION_COMMANDS.next, () => moveToDigest(client, 1)),
    vscode.commands.registerCommand(NAVIGATION_COMMANDS.previous, () => moveToDigest(client, -1)),
  );
}
