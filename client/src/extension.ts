/**
 * The extension's entry point: starts the language client and wires views and commands.
 * Nothing here parses digests; the server does.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { FIX_ALL_COMMAND, LANGUAGE_ID } from '../../server/src/protocol';
import { DETECTION_LINES, looksLikeDigest } from './detection';
import { registerOpenLocation } from './openLocation';
import { PapersView, registerPapersView } from './papersView';
import { ReadingApi, registerReading } from './reading';
import { registerStatistics, StatisticsDashboard } from './statisticsPanel';

let client: LanguageClient | undefined;

/** What the extension hands its tests: the running client and the Papers view's provider. */
export interface PaperDigestApi {
  readonly client: LanguageClient;
  readonly papersView: PapersView;
  readonly reading: ReadingApi;
  readonly statistics: StatisticsDashboard;
}

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
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    synchronize: {
      configurationSection: 'paperDigest',
      // The workspace index follows digest files on disk; deletions of anything else may be
      // folders holding digests.
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/*.{digest,digest.txt}'),
        // The reading state and interests beside the digests, changed by other windows or git.
        vscode.workspace.createFileSystemWatcher('**/.paper-digest/*.json'),
        vscode.workspace.createFileSystemWatcher('**/*', true, true, false),
      ],
    },
    middleware: {
      // `paperDigest.fixAll` is the server's command; from the palette it comes without
      // arguments, so it fixes the digest in the active editor.
      executeCommand: (command, args, next) => {
        if (command !== FIX_ALL_COMMAND || args.length > 0) {
          return next(command, args);
        }
        const document = vscode.window.activeTextEditor?.document;
        if (!document || document.languageId !== LANGUAGE_ID) {
          void vscode.window.showInformationMessage('Paper Digest: open a digest to fix its problems.');
          return undefined;
        }
        return next(command, [document.uri.toString(), document.version]);
      },
    },
  };
  client = new LanguageClient('paperDigest', 'Paper Digest', serverOptions, clientOptions);
  context.subscriptions.push(client);

  registerContentDetection(context);
  registerOpenLocation(context);

  await client.start();
  const papersView = registerPapersView(context, client);
  const reading = registerReading(context, client, papersView);
  const statistics = registerStatistics(context, client, papersView);
  return { client, papersView, reading, statistics };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

/** Switches plain-text documents that read like digests to the digest language. */
function registerContentDetection(context: vscode.ExtensionContext): void {
  const detect = (document: vscode.TextDocument): void => {
    if (document.languageId !== 'plaintext' || !vscode.workspace.getConfiguration('paperDigest').get<boolean>('detectContent', true)) {
      return;
    }
    const head = document.getText(new vscode.Range(0, 0, Math.min(document.lineCount, DETECTION_LINES), 0));
    if (looksLikeDigest(head)) {
      void vscode.languages.setTextDocumentLanguage(document, LANGUAGE_ID);
    }
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(detect));
  vscode.workspace.textDocuments.forEach(detect);
}
