/**
 * The web extension's entry point (package.json `browser`), for VS Code in the browser
 * (vscode.dev, github.dev, code-server's web worker extension host): the same client as the
 * Node extension's, with the server in a web worker (dist/browser/server.js) that gets the
 * workspace's files through this client (workspaceFiles.ts).
 */
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import type { LanguageClient as NodeLanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID } from '../../../server/src/protocol';
import { PaperDigestApi, paperDigestClientOptions, startPaperDigest } from '../clientSetup';
import { registerStateFiles } from '../stateFiles';
import { registerWorkspaceFiles } from '../workspaceFiles';

/** The web worker the server runs in (the client's tsconfig has no DOM types). */
interface ServerWorker {
  terminate(): void;
}
declare const Worker: new (url: string) => ServerWorker;

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<PaperDigestApi> {
  const worker = await startServerWorker(vscode.Uri.joinPath(context.extensionUri, 'dist', 'browser', 'server.js'));
  // Every scheme: in a browser the workspace is a virtual file system (vscode-vfs, vscode-remote, ...).
  client = new LanguageClient('paperDigest', 'Paper Digest', worker as never, paperDigestClientOptions([{ language: LANGUAGE_ID }]));
  registerWorkspaceFiles(client);
  registerStateFiles(client);
  // The shared modules take the Node client's type but use only what both clients have.
  return startPaperDigest(context, client as unknown as NodeLanguageClient);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

/**
 * The server's web worker. An extension served from a URL the browser can load (vscode.dev,
 * github.dev) starts it from there; one installed on a remote (code-server) has a vscode-remote
 * location, from which VS Code does not start workers, so its script is read through the file
 * system and started from a blob.
 */
async function startServerWorker(script: vscode.Uri): Promise<ServerWorker> {
  if (script.scheme !== 'vscode-remote') {
    return new Worker(script.toString(true));
  }
  const bytes = await vscode.workspace.fs.readFile(script);
  return new Worker(URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' })));
}
