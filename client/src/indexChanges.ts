/**
 * One listener list for the server's `paperDigest/indexChanged` notification. A language client
 * keeps one handler per notification method (a second `client.onNotification` for the same
 * method replaces the first), while the Papers view, the statistics panel and the title
 * decorations all follow the index: they listen here, and the client's one handler fans out.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { IndexChangedNotification, IndexChangedParams } from '../../server/src/protocol';

const emitters = new WeakMap<BaseLanguageClient, vscode.EventEmitter<IndexChangedParams>>();

/**
 * Calls `listener` on every index change the server reports to `client`.
 *
 * @example
 * context.subscriptions.push(onIndexChanged(client, (params) => view.refresh()));
 */
export function onIndexChanged(client: BaseLanguageClient, listener: (params: IndexChangedParams) => void): vscode.Disposable {
  let emitter = emitters.get(client);
  if (!emitter) {
    const created = new vscode.EventEmitter<IndexChangedParams>();
    emitters.set(client, created);
    client.onNotification(IndexChangedNotification, (params) => created.fire(params));
    emitter = created;
  }
  return emitter.event(listener);
}
