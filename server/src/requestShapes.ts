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

/**
 * The file events of a `workspace/didChangeWatchedFiles` that have their shape (a string URI and
 * a known type); the others are dropped one by one, so that a bad event does not cost the good
 * ones of the same batch.
 *
 * @example wellShapedFileEvents({ changes: [{ uri: 5, type: 1 }, { uri: 'file:///a.digest', type: 1 }] }) // [{ uri: 'file:///a.digest', type: 1 }]
 */
export function wellShapedFileEvents(params: unknown): { uri: string; type: 1 | 2 | 3 }[] {
  if (!isObject(params) || !Array.isArray(params.changes)) {
    return [];
  }
  return params.changes.filter((change): change is { uri: string; type: 1 | 2 | 3 } => isObject(change) && typeof change.uri === 'string' && (change.type === 1 || change.type === 2 || change.type === 3));
}

/**
 * The workspace folders of a list (`{ uri, name }`) that have a string URI, named by their URI
 * when they have no string name; anything but a list gives none.
 */
function wellShapedFolders(folders: unknown): { uri: string; name: string }[] {
  return Array.isArray(folders)
    ? folders.filter((folder): folder is Record<string, unknown> & { uri: string } => isObject(folder) && typeof folder.uri === 'string').map((folder) => ({ uri: folder.uri, name: typeof folder.name === 'string' ? folder.name : folder.uri }))
    : [];
}

/** The URIs of a list of workspace folders (`{ uri, name }`) that have one; anything else gives none. */
export function folderUris(folders: unknown): string[] {
  return wellShapedFolders(folders).map((folder) => folder.uri);
}

/**
 * The `file:` URI of an absolute path (`/home/a b` → `file:///home/a%20b`, `C:\w` → `file:///C:/w`,
 * `\\server\share` → `file://server/share`; runs of slashes as one, `//tmp` as `/tmp`), undefined for any
 * other text, and for a path that is no text a URI can hold (a lone surrogate), a device path
 * (`\\?\C:\w`) or one with `.` or `..` in it: LSP's deprecated
 * `rootPath`, which some clients still send alone. (Written out here: the web extension's worker
 * has no `node:url`.)
 */
export function fileUriOfPath(given: string): string | undefined {
  // A UNC path as Windows writes it (`\\server\share`); `//tmp` is POSIX's `/tmp`.
  const unc = /^\\{2}([^\\/]+)[\\/]+([^\\/].*)$/.exec(given);
  const drive = /^([A-Za-z]):[\\/]/.exec(given);
  if (!unc && !drive && !given.startsWith('/')) {
    return undefined;
  }
  // A host a URI can name (not a device path's `?` or `.`).
  if (unc && !/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(unc[1])) {
    return undefined;
  }
  const rest = unc ? unc[2] : drive ? given.slice(3) : given;
  const segments = rest.split(unc || drive ? /[\\/]+/ : /\/+/).filter((segment, i, all) => segment !== '' || i === all.length - 1);
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    // Not a folder's one name; a path to make whole first.
    return undefined;
  }
  try {
    const path = segments.map(encodeURIComponent).join('/');
    return unc ? `file://${unc[1].toLowerCase()}/${path}` : 'file:///' + (drive ? `${drive[1]}:/` : '') + path;
  } catch {
    return undefined;
  }
}

/**
 * What the server reads of `initialize`, each part of its shape or left out: an object for the
 * capabilities (`{}` otherwise), the folders' string URIs (`workspaceFolders`, else a string
 * `rootUri`, else the URI of an absolute `rootPath`), a string locale, an object of options. A client that sends `capabilities: null`
 * gets a server that assumes it can do little, not an error that leaves it unable to initialise
 * again.
 */
export function wellShapedInitialize(params: unknown): { capabilities: Record<string, unknown>; folders: string[]; locale?: string; initializationOptions?: Record<string, unknown> } {
  const given = isObject(params) ? params : {};
  const rootPathUri = typeof given.rootPath === 'string' ? fileUriOfPath(given.rootPath) : undefined;
  const folders = Array.isArray(given.workspaceFolders) ? folderUris(given.workspaceFolders) : typeof given.rootUri === 'string' ? [given.rootUri] : rootPathUri ? [rootPathUri] : [];
  return {
    capabilities: isObject(given.capabilities) ? given.capabilities : {},
    folders,
    ...(typeof given.locale === 'string' ? { locale: given.locale } : {}),
    ...(isObject(given.initializationOptions) ? { initializationOptions: given.initializationOptions } : {}),
  };
}

/** The notifications whose params a handler reads as they come, and the shape it reads. */
const NOTIFICATION_SHAPES: Record<string, (params: unknown) => boolean> = {
  'workspace/didChangeConfiguration': isObject,
  '$/setTrace': (params) => isObject(params) && (params.value === 'off' || params.value === 'messages' || params.value === 'verbose'),
  '$/progress': (params) => isObject(params) && (typeof params.token === 'string' || Number.isInteger(params.token)),
};

/** The method a notification without its shape is given: no handler has it, and `$/` ones unhandled are ignored. */
export const DROPPED_NOTIFICATION = '$/paperDigest/dropped';

/**
 * The method a request whose `method` is not a string, or that has none, is read as
 * (`shapedIncoming`): the server answers it with InvalidRequest. Its name ends with a token of
 * this process, so that no client's request is taken for one (lifecycle.ts lets it through).
 */
export const INVALID_REQUEST_METHOD = `paperDigest/$invalidRequest/${Math.random().toString(36).slice(2, 12)}`;

/** The parts of the client's capabilities the protocol library reads itself: objects, or left out. */
const CAPABILITY_GROUPS = ['workspace', 'textDocument', 'notebookDocument', 'window', 'general', 'experimental'];

/**
 * A message as it comes from the client, with an `initialize` request's params given their
 * shape before the protocol library reads them (it reads `capabilities.workspace` and the
 * folders before the server's handler runs, and a `capabilities: null` failed the request with
 * a raw TypeError and left the server unable to be initialised again): capabilities an object
 * of objects, folders a list of `{ uri, name }` with string URIs, the root URI a string or null.
 * A `workspace/didChangeWorkspaceFolders` gets lists of such folders as well (`params: null`
 * threw in the library). A request by a number or string id whose `method` is not a string, or
 * that has none (and is no response, without `result` or `error`), becomes a request of `INVALID_REQUEST_METHOD`, which the server answers with InvalidRequest (the
 * library dropped it with a line in the log, and the client waited for ever). Every other
 * message is returned as it is.
 *
 * @example shapedIncoming({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: null } }).params.capabilities // {}
 * @example shapedIncoming({ jsonrpc: '2.0', id: 5, method: 5 }) // { jsonrpc: '2.0', id: 5, method: INVALID_REQUEST_METHOD }
 */
export function shapedIncoming(message: unknown): unknown {
  if (isObject(message) && typeof message.method !== 'string' && (typeof message.id === 'number' || typeof message.id === 'string') && !('result' in message) && !('error' in message)) {
    // No method name (of a string), and no response either: a request the client waits on.
    return { jsonrpc: '2.0', id: message.id, method: INVALID_REQUEST_METHOD };
  }
  if (isObject(message) && message.id === undefined && typeof message.method === 'string' && message.method in NOTIFICATION_SHAPES && !NOTIFICATION_SHAPES[message.method](message.params)) {
    // Read by the library's handlers or the server's as they come: without their shape, a
    // configuration change says only that the settings changed (as `settings: null` does, and the
    // server asks for them), and the others are dropped (no handler has the dropped method).
    return message.method === 'workspace/didChangeConfiguration' ? { ...message, params: { settings: null } } : { ...message, method: DROPPED_NOTIFICATION };
  }
  if (isObject(message) && message.method === 'workspace/didChangeWorkspaceFolders' && message.id === undefined) {
    // The library reads `params.event.added` and `.removed` itself: lists of folders with string URIs.
    const event = isObject(message.params) && isObject(message.params.event) ? message.params.event : {};
    return { ...message, params: { event: { added: wellShapedFolders(event.added), removed: wellShapedFolders(event.removed) } } };
  }
  if (!isObject(message) || message.method !== 'initialize' || message.id === undefined) {
    return message;
  }
  const given = isObject(message.params) ? message.params : {};
  const capabilities: Record<string, unknown> = {};
  if (isObject(given.capabilities)) {
    for (const [key, value] of Object.entries(given.capabilities)) {
      if (!CAPABILITY_GROUPS.includes(key) || isObject(value)) capabilities[key] = value;
    }
  }
  // Not a list: none (null, as LSP has it), not an empty list.
  const folders = Array.isArray(given.workspaceFolders) ? wellShapedFolders(given.workspaceFolders) : null;
  const params: Record<string, unknown> = {
    ...given,
    processId: Number.isInteger(given.processId) ? given.processId : null,
    rootUri: typeof given.rootUri === 'string' ? given.rootUri : null,
    capabilities,
    workspaceFolders: folders,
  };
  for (const key of ['rootPath', 'locale', 'trace']) {
    if (key in params && typeof params[key] !== 'string') delete params[key];
  }
  if ('clientInfo' in params && !(isObject(params.clientInfo) && typeof params.clientInfo.name === 'string')) delete params.clientInfo;
  return { ...message, params };
}
