/**
 * The language server: LSP wiring only. Each handler looks up the document, takes its model
 * from the cache and hands it to one feature of the service.
 *
 * Run it standalone with `node dist/server.js --stdio`.
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  InitializeResult,
  InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import { DigestCache } from './service/cache';
import { documentSymbols } from './service/features/symbols';
import { foldingRanges } from './service/features/folding';
import { semanticTokens, SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from './service/features/semanticTokens';
import { WorkspaceIndex } from './service/workspaceIndex';
import { PapersTreeCache, paperAt } from './service/features/tree';
import { workspaceSymbols } from './service/features/workspaceSymbols';
import { IndexChangedNotification, PaperAtRequest, PapersTreeRequest } from './protocol';
import { canonicalUri, WorkspaceDigests } from './workspace';
import { hover } from './service/features/hover';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const cache = new DigestCache();
/** Every paper of every digest file of the workspace folders; open documents override the disk. */
const workspaceIndex = new WorkspaceIndex();
const workspaceDigests = new WorkspaceDigests(workspaceIndex, { log: (message) => connection.console.log(message) });
const papersTrees = new PapersTreeCache();
let initialFolders: string[] = [];
let folderChangeNotifications = false;

/**
 * Where else in the workspace a paper with this English title key is, for the duplicate
 * diagnostics (`computeDiagnostics` option `duplicatesElsewhere`).
 */
export function duplicatesElsewhere(uri: string): (englishTitleKey: string) => { uri: string; range: Range }[] {
  return (key) => workspaceIndex.duplicatesOf(key, uri);
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  initialFolders = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
  folderChangeNotifications = params.capabilities.workspace?.workspaceFolders === true;
  return {
    capabilities: {
      workspaceSymbolProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      textDocumentSync: TextDocumentSyncKind.Incremental,
      documentSymbolProvider: { label: 'Paper Digest' },
      foldingRangeProvider: true,
      hoverProvider: true,
      semanticTokensProvider: {
        legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: SEMANTIC_TOKEN_MODIFIERS },
        full: true,
      },
    },
    serverInfo: { name: 'paper-digest-server', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  if (folderChangeNotifications) {
    connection.workspace.onDidChangeWorkspaceFolders((event) => {
      void workspaceDigests.changeFolders(event.added.map((f) => f.uri), event.removed.map((f) => f.uri));
    });
  }
  void workspaceDigests.setFolders(initialFolders);
});

// The workspace index: file events, open documents, and the Papers view's requests.
connection.onDidChangeWatchedFiles((params) => {
  void workspaceDigests.filesChanged(params.changes);
});

documents.onDidChangeContent((event) => {
  workspaceDigests.documentChanged(event.document.uri, () => cache.get(event.document));
});

let indexChangedTimer: NodeJS.Timeout | undefined;
workspaceIndex.onDidChange(() => {
  indexChangedTimer ??= setTimeout(() => {
    indexChangedTimer = undefined;
    void connection.sendNotification(IndexChangedNotification, {
      generation: workspaceIndex.generation,
      paperCount: workspaceIndex.paperCount,
      fileCount: workspaceIndex.files().length,
    });
  }, 300);
});

connection.onRequest(PapersTreeRequest, async (params, token) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  const lookup = papersTrees.get(workspaceIndex, params.grouping, params.filter, token);
  return { generation: lookup.tree.generation, paperCount: lookup.tree.paperCount, nodes: lookup.childrenOf(params.parentId) ?? [] };
});

connection.onRequest(PaperAtRequest, async (params, token) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  const paper = paperAt(workspaceIndex, canonicalUri(params.uri) ?? params.uri, params.position);
  const path = paper ? papersTrees.get(workspaceIndex, params.grouping, params.filter, token).pathToPaper(paper) : undefined;
  return path ? { path } : null;
});

connection.onWorkspaceSymbol(async (params, token) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  return workspaceSymbols(workspaceIndex, params.query, token);
});

connection.onDocumentSymbol((params, token) => {
  const document = documents.get(params.textDocument.uri);
  return document ? documentSymbols(cache.get(document), {}, token) : null;
});

connection.onFoldingRanges((params, token) => {
  const document = documents.get(params.textDocument.uri);
  return document ? foldingRanges(cache.get(document), token) : null;
});

connection.onHover((params, token) => {
  const document = documents.get(params.textDocument.uri);
  return document ? hover(cache.get(document), params.position, token) : null;
});

connection.languages.semanticTokens.on((params, token) => {
  const document = documents.get(params.textDocument.uri);
  return document ? semanticTokens(cache.get(document), token) : { data: [] };
});

documents.onDidClose((event) => {
  cache.delete(event.document.uri);
  workspaceDigests.documentClosed(event.document.uri);
});

documents.listen(connection);
connection.listen();
