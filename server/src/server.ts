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
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DigestCache } from './service/cache';
import { documentSymbols } from './service/features/symbols';
import { foldingRanges } from './service/features/folding';
import { semanticTokens, SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from './service/features/semanticTokens';
import { hover } from './service/features/hover';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const cache = new DigestCache();

connection.onInitialize((): InitializeResult => ({
  capabilities: {
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
}));

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
});

documents.listen(connection);
connection.listen();
