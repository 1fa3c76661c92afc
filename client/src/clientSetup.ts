/**
 * What the Node extension (extension.ts) and the web extension (browser/extension.ts) share: the
 * language client's options and everything set up around the client. Each entry point only
 * makes its own client: a Node process for the server there, a web worker here.
 */
import * as vscode from 'vscode';
import type { DocumentSelector, LanguageClientOptions } from 'vscode-languageclient';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DIGEST_FILE_GLOB } from '../../server/src/digestFiles';
import { FIX_ALL_COMMAND, FixAllResult, LANGUAGE_ID, PapersGrouping } from '../../server/src/protocol';
import { DETECTION_LINES, looksLikeDigest, OpenTracker } from './detection';
import { DiagnosticsArrivals, fixAllWithFeedback, openADigestMessage } from './fixAllFeedback';
import { DigestLanguageStatus, registerLanguageStatus } from './languageStatus';
import { registerOpenLocation } from './openLocation';
import { registerPaperCommands } from './paperCommands';
import { PapersView, registerPapersView } from './papersView';
import { ReadingApi, registerReading } from './reading';
import { registerRulePages } from './rulePages';
import { registerStatistics, StatisticsDashboard } from './statisticsPanel';
import { showInformation } from './notifications';

/** What the extension hands its tests: the running client and the Papers view's provider. */
export interface PaperDigestApi {
  readonly client: LanguageClient;
  readonly papersView: PapersView;
  readonly reading: ReadingApi;
  readonly statistics: StatisticsDashboard;
  readonly languageStatus: DigestLanguageStatus;
  /** Where the server keeps its index between starts (the workspace's storage folder), if anywhere. */
  readonly keptIndexFolder?: string;
}

/**
 * Where the Node server keeps its index between starts: VS Code's storage folder for the
 * workspace, when there is a workspace and it is on disk.
 */
export function keptIndexFolderOf(context: vscode.ExtensionContext): string | undefined {
  return context.storageUri?.scheme === 'file' ? context.storageUri.fsPath : undefined;
}

/** Diagnostics as the server reports them, with their document versions, for Fix All's counts (one client per extension host). */
const arrivals = new DiagnosticsArrivals();

/**
 * The client's options; `documentSelector` says which documents' schemes the server gets,
 * `keptIndexFolder` where the server keeps its index between starts (the workspace's storage),
 * and `papersGrouping` the grouping the Papers view starts in (the server reads the digests for
 * its first level before the rest).
 */
export function paperDigestClientOptions(documentSelector: DocumentSelector, keptIndexFolder?: string, papersGrouping?: PapersGrouping): LanguageClientOptions {
  return {
    documentSelector,
    connectionOptions: { messageStrategy: arrivals.messageStrategy },
    // The file events come from the watchers below: the server need not register its own.
    initializationOptions: { watchesFiles: true, ...(keptIndexFolder ? { keptIndexFolder } : {}), ...(papersGrouping ? { papersGrouping } : {}) },
    synchronize: {
      configurationSection: 'paperDigest',
      // The workspace index follows digest files on disk; anything else created or deleted may
      // be a folder holding digests (a folder renamed is told as itself alone, not its files).
      fileEvents: [
        vscode.workspace.createFileSystemWatcher(DIGEST_FILE_GLOB),
        // The reading state and interests beside the digests, changed by other windows or git.
        vscode.workspace.createFileSystemWatcher('**/.paper-digest/*.json'),
        vscode.workspace.createFileSystemWatcher('**/*', false, true, false),
      ],
    },
    middleware: {
      ...arrivals.middleware,
      // `paperDigest.fixAll` is the server's command; from the palette it comes without
      // arguments, so it fixes the digest in the active editor and says what it did.
      executeCommand: (command, args, next) => {
        if (command !== FIX_ALL_COMMAND || args.length > 0) {
          return next(command, args);
        }
        const document = vscode.window.activeTextEditor?.document;
        if (!document || document.languageId !== LANGUAGE_ID) {
          void showInformation(openADigestMessage());
          return undefined;
        }
        return fixAllWithFeedback(document, arrivals, async (uri, version) => (await next(command, [uri, version])) as FixAllResult | undefined);
      },
    },
  };
}

/**
 * Starts the client and registers the views and commands around it. The shared modules use only
 * what every language client has (vscode-languageclient's BaseLanguageClient), so the web
 * extension's client goes in as well.
 */
export async function startPaperDigest(context: vscode.ExtensionContext, client: LanguageClient): Promise<PaperDigestApi> {
  context.subscriptions.push(client, arrivals);
  registerContentDetection(context);
  registerOpenLocation(context);
  context.subscriptions.push(...registerRulePages(context.extensionUri, context.extensionMode));

  await client.start();
  const papersView = registerPapersView(context, client);
  const reading = registerReading(context, client, papersView);
  const statistics = registerStatistics(context, client, papersView);
  context.subscriptions.push(...registerPaperCommands(papersView));
  const languageStatus = registerLanguageStatus(context, client, papersView.onDidChangeIndex);
  return { client, papersView, reading, statistics, languageStatus, keptIndexFolder: client.clientOptions.initializationOptions?.keptIndexFolder };
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
  // A language change is a close and an open of the same document: only genuine opens are
  // detected, so the user's choice of a language wins until the file is reopened.
  const opens = new OpenTracker<vscode.TextDocument>();
  context.subscriptions.push(
    vscode.workspace.onDidCloseTextDocument((document) => opens.closed(document)),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (opens.opened(document)) {
        detect(document);
      }
    }),
  );
  vscode.workspace.textDocuments.forEach(detect);
}
