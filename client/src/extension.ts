/**
 * The extension's entry point: starts the language client and wires views and commands.
 * Nothing here parses digests; the server does.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { LANGUAGE_ID } from '../../server/src/protocol';
import { PaperDigestApi, paperDigestClientOptions, startPaperDigest } from './clientSetup';

export type { PaperDigestApi } from './clientSetup';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<PaperDigestApi> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // A young generation of up to 64 MB per semi-space: the outline or the diagnostics of a
  // 10,000-paper digest are tens of MB that live for one request, and V8's default (16 MB)
  // copies them between generations (parse + outline: about 80 ms instead of 150 ms).
  // `--expose-gc`: the server collects its garbage after a big document closes, so that an idle
  // server gives the memory back.
  const execArgv = ['--max-semi-space-size=64', '--expose-gc'];
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...execArgv, '--nolazy', '--inspect=6009'] } },
  };
  const clientOptions = paperDigestClientOptions([
    { scheme: 'file', language: LANGUAGE_ID },
    { scheme: 'untitled', language: LANGUAGE_ID },
  ]);
  client = new LanguageClient('paperDigest', 'Paper Digest', serverOptions, clientOptions);
  return startPaperDigest(context, client);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
