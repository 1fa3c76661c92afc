/**
 * The extension's entry point: starts the language client and wires views and commands.
 * Nothing here parses digests; the server does.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { SERVER_NODE_OPTIONS } from '../../server/src/nodeOptions';
import { LANGUAGE_ID } from '../../server/src/protocol';
import { keptIndexFolderOf, PaperDigestApi, paperDigestClientOptions, startPaperDigest } from './clientSetup';
import { savedGrouping } from './papersView';
import { writeLocalFile } from './localFiles';
import { useLocalFileWriter } from './reading/exporting';

export type { PaperDigestApi } from './clientSetup';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<PaperDigestApi> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // The node options every start of the server gets (server/src/nodeOptions.ts). Over stdio:
  // the server sends the outline, folding ranges and semantic tokens of a version as the JSON
  // bytes it keeps and reads a big didOpen by transcoding it (serialised.ts); over node IPC,
  // node encodes and decodes every message itself, and the outline of 10,000 papers took about
  // twice as long to arrive.
  const execArgv = [...SERVER_NODE_OPTIONS];
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio, options: { execArgv } },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: [...execArgv, '--nolazy', '--inspect=6009'] } },
  };
  // The Papers view's first level comes from the index kept here while the workspace is read,
  // and the digests not kept are read first for the grouping the view starts in.
  const keptIndexFolder = keptIndexFolderOf(context);
  const clientOptions = paperDigestClientOptions(
    [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    keptIndexFolder,
    savedGrouping(context.workspaceState),
  );
  client = new LanguageClient('paperDigest', 'Paper Digest', serverOptions, clientOptions);
  // Exports saved to a file of this disk: written atomically by the server's writer, a failure's
  // reason in the display language, as the notification that shows it.
  useLocalFileWriter((file, text) => writeLocalFile(file, text, vscode.env.language.toLowerCase().startsWith('zh') ? 'zh-cn' : 'en'));
  return startPaperDigest(context, client);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
