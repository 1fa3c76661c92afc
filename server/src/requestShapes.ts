/**
 * What the server takes from a client before any handler reads it: the shape of the standard
 * requests' params (a `textDocument` with a string `uri`, integer positions, a range, a list of
 * positions, a string query or new name) and of the document notifications (`didOpen` with a
 * string URI, language, version and text; `didChange` with a version and text changes). A
 * request that does not have its shape gets the empty answer of its method, as for a document
 * the server does not know; a notification that does not have its shape is dropped. No handler
 * then meets an `undefined` where it reads a field, and no malformed document is ever kept (one
 * with a number for its URI broke every later update of the index).
 */
import type { Connection } from 'vscode-languageserver';
import { isPosition, isRange } from './service/edits';

/** The empty answer of each standard request the server handles, for params without their shape. */
const EMPTY_ANSWERS: Record<string, unknown> = {
  'textDocument/hover': null,
  'textDocument/completion': null,
  'textDocument/references': [],
  'textDocument/documentHighlight': [],
  'textDocument/documentSymbol': null,
  'textDocument/foldingRange': null,
  'textDocument/semanticTokens/full': { data: [] },
  'textDocument/selectionRange': [],
  'textDocument/codeAction': null,
  'textDocument/codeLens': null,
  'textDocument/documentLink': null,
  'textDocument/prepareRename': null,
  'textDocument/rename': null,
  'textDocument/diagnostic': { kind: 'full', items: [] },
  'workspace/symbol': [],
  'workspace/diagnostic': { items: [] },
  'completionItem/resolve': null,
  'workspace/executeCommand': null,
};

/** The requests whose params carry a `position`. */
const WITH_POSITION = new Set(['textDocument/hover', 'textDocument/completion', 'textDocument/references', 'textDocument/documentHighlight', 'textDocument/prepareRename', 'textDocument/rename']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasDocument(params: Record<string, unknown>): boolean {
  return isObject(params.textDocument) && typeof params.textDocument.uri === 'string';
}

/**
 * Whether the params of a standard request lack the shape its handler reads; false for a method
 * not listed here (the custom requests check their own).
 *
 * @example malformedParams('textDocument/hover', { textDocument: { uri: 'file:///a.digest' }, position: { line: 1.5, character: 0 } }) // true
 */
export function malformedParams(method: string, params: unknown): boolean {
  if (!(method in EMPTY_ANSWERS)) {
    return false;
  }
  if (!isObject(params)) {
    return true;
  }
  if (method.startsWith('textDocument/') && !hasDocument(params)) {
    return true;
  }
  if (WITH_POSITION.has(method) && !isPosition(params.position)) {
    return true;
  }
  switch (method) {
    case 'textDocument/rename':
      return typeof params.newName !== 'string';
    case 'textDocument/selectionRange':
      return !Array.isArray(params.positions) || !params.positions.every(isPosition);
    case 'textDocument/codeAction':
      return (
        !isRange(params.range) ||
        !isObject(params.context) ||
        !Array.isArray(params.context.diagnostics) ||
        !params.context.diagnostics.every((diagnostic) => isObject(diagnostic) && isRange(diagnostic.range)) ||
        (params.context.only !== undefined && !(Array.isArray(params.context.only) && params.context.only.every((kind) => typeof kind === 'string')))
      );
    case 'workspace/executeCommand':
      return typeof params.command !== 'string' || (params.arguments !== undefined && !Array.isArray(params.arguments));
    case 'workspace/symbol':
      return typeof params.query !== 'string';
    case 'completionItem/resolve':
      return typeof params.label !== 'string';
    default:
      return false;
  }
}

/** The empty answer of a method (for params without their shape). */
export function emptyAnswer(method: string): unknown {
  return EMPTY_ANSWERS[method] ?? null;
}

/** Whether the params of a document notification have the shape the document store reads. */
export function wellShapedNotification(method: 'open' | 'change' | 'other', params: unknown): boolean {
  if (!isObject(params) || !hasDocument(params)) {
    return false;
  }
  const document = params.textDocument as Record<string, unknown>;
  if (method === 'open') {
    return typeof document.languageId === 'string' && Number.isInteger(document.version) && typeof document.text === 'string';
  }
  if (method === 'change') {
    return (
      Number.isInteger(document.version) &&
      Array.isArray(params.contentChanges) &&
      params.contentChanges.every((change) => isObject(change) && typeof change.text === 'string' && (change.range === undefined || isRange(change.range)))
    );
  }
  return true;
}

/**
 * The connection as the document store (`TextDocuments.listen`) sees it: its document
 * notifications reach it only with their shape (`wellShapedNotification`).
 */
export function shapedDocumentConnection(connection: Connection): Connection {
  // The handlers are the document store's own, of each notification's params; only their shape is looked at here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Handler = (params: any) => any;
  const wrap = (kind: 'open' | 'change' | 'other', register: (handler: Handler) => unknown) => (handler: Handler) => register((params: unknown) => (wellShapedNotification(kind, params) ? handler(params) : undefined));
  const overrides: Record<string, unknown> = {
    onDidOpenTextDocument: wrap('open', (handler) => connection.onDidOpenTextDocument(handler)),
    onDidChangeTextDocument: wrap('change', (handler) => connection.onDidChangeTextDocument(handler)),
    onDidCloseTextDocument: wrap('other', (handler) => connection.onDidCloseTextDocument(handler)),
    onWillSaveTextDocument: wrap('other', (handler) => connection.onWillSaveTextDocument(handler)),
    onWillSaveTextDocumentWaitUntil: wrap('other', (handler) => connection.onWillSaveTextDocumentWaitUntil(handler)),
    onDidSaveTextDocument: wrap('other', (handler) => connection.onDidSaveTextDocument(handler)),
  };
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in overrides) {
        return overrides[property];
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value);
    },
  });
}
