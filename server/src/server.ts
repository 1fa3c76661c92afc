/**
 * The language server: LSP wiring only. Each handler looks up the document, takes its model
 * from the cache and hands it to one feature of the service.
 *
 * Run it standalone with `node dist/server.js --stdio`.
 */
import {
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DocumentDiagnosticRequest,
  DocumentHighlightRequest,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  FoldingRangeRequest,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SelectionRangeRequest,
  SemanticTokensRequest,
  WorkspaceDiagnosticRequest,
  WorkspaceSymbolRequest,
  CancellationToken,
  RequestType,
  RequestType0,
  ErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  InitializeResult,
  ClientCapabilities,
  InitializeParams,
  DidChangeWatchedFilesNotification,
  WatchKind,
} from 'vscode-languageserver/node';
import { DIGEST_FILE_GLOB } from './digestFiles';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { OpenDocument } from './openDocument';
import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-types';
import { DigestCache } from './service/cache';
import { documentTooLarge, parseWithinLimits } from './service/limits';
import type { DigestDocument } from './service/model';
import { foldingRanges } from './service/features/folding';
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from './service/features/semanticTokens';
import { WorkspaceIndex } from './service/workspaceIndex';
import { isPosition } from './service/edits';
import { firstLevelPartOf, PAPERS_GROUPINGS, PapersGrouping, PapersTreeCache, PapersTreeOptions, paperAt, papersTreeFirstLevel } from './service/features/tree';
import { NotKeptError } from './service/keptIndex';
import type { PapersQuery, PapersTreeParams, PapersTreeResult } from './protocol';
import type { ReadingLookup } from './service/reading/paperInfo';
import { ReadingService } from './reading';
import {
  DigestsRequest,
  DocumentPapersRequest,
  ExportPapersRequest,
  RankedPapersRequest,
  SetPaperStateRequest,
  StateChangedNotification,
  StateInfoRequest,
} from './protocol';
import { workspaceSymbols } from './service/features/workspaceSymbols';
import { documentStats } from './service/features/documentStats';
import { DocumentStatsRequest, IndexChangedNotification, PaperAtRequest, PapersTreeRequest, RescanWorkspaceRequest } from './protocol';
import { indexUri } from './workspace';
import { createKeptIndexStore, createServerConnection, createStateFileSource, createTextReader, createWorkspaceFiles, readsFilesThroughClient, rulesPagesBase } from './host';
import { hover } from './service/features/hover';
import { diagnosticSteps, DiagnosticOptions, RuleSetting } from './service/features/diagnostics';
import { idle, outputSent, runInSlices } from './slices';
import { codeActionDiagnosticSteps, codeActions, CODE_ACTION_KINDS, FIX_ALL_TITLE, fixAllRefused, fixAllSteps, MAX_FIX_ALL_PROBLEMS } from './service/features/codeActions';
import { APPLY_FIX_COMMAND, DiagnosticsSettings, FIX_ALL_COMMAND, FixAllResult, ServerMemoryRequest, UNDECODABLE_METHOD } from './protocol';
import { DiagnosticsScope, PullDiagnostics } from './pullDiagnostics';
import { FileChangeType, MessageType, ShowMessageNotification, TextDocumentEdit } from 'vscode-languageserver/node';
import type { WorkspaceEdit } from 'vscode-languageserver/node';
import { documentSymbols } from './service/features/symbols';
import { debugRequestsEnabled, registerDebugRequests } from './debug';
import { WorkspaceTerms } from './service/workspaceTerms';
import { completions, COMPLETION_TRIGGER_CHARACTERS, CompletionWorkspace, resolveCompletion } from './service/features/completion';
import { documentLinks } from './service/features/links';
import { selectionRanges } from './service/features/selectionRanges';
import { documentHighlights, references } from './service/features/references';
import { prepareRename, renamableAt, renameEdits } from './service/features/rename';
import { nameAt } from './service/names';
import { sourcesNaming } from './workspaceNames';
import { registerStatisticsRequests } from './statisticsRequests';
import { AnswerCache } from './service/answers';
import { encodedAnswer, forgetOutline, installSerialisedAnswers, outlineAnswer, semanticTokensAnswer } from './serialised';
import { emptyAnswer, folderUris, INVALID_REQUEST_METHOD, malformedParams, shapedDocumentConnection, wellShapedFileEvents, wellShapedInitialize } from './requestShapes';
import { actionsAsCommands, ClientForms, clientForms, flatSymbols, plainDocumentation, plainHover, RICHEST_FORMS, withChanges } from './clientForms';
import { Lifecycle } from './lifecycle';
import { ServerMessageLanguage } from './messageLanguage';
import { logText, message, MessageRef, detailOf } from './service/cliMessages';
import { localizedLenses, localizedNode, withoutInterests } from './service/treeLabels';
import { MessageLanguage, rulesDocsFor, say } from './service/messages';

installSerialisedAnswers();

const lifecycle = new Lifecycle();
const connection = createServerConnection(lifecycle.options);
lifecycle.install(connection);

/**
 * A request handler that cannot take the server down: a failure is logged and answered with an
 * InternalError response, and the server goes on serving.
 */
function guarded<A extends unknown[], R>(method: string, handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    if (malformedParams(method, args[0])) {
      // Params without the shape the handler reads: the answer for a document it does not know.
      return emptyAnswer(method) as R;
    }
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ResponseError) {
        throw error;
      }
      const message = error instanceof Error ? error.message : String(error);
      logFailure(`${method} failed`, error);
      throw new ResponseError(ErrorCodes.InternalError, `${method} failed: ${message}`);
    }
  };
}

/**
 * Registers a request, standard or the server's own, by its method, its handler run as every
 * handler is (`guarded`) and called as `(params, token)` whatever the params are: the library's
 * own registration (`connection.onHover`, `connection.onRequest(type, …)`) answers a request
 * without params, or with null, with an error before the handler can give the empty answer
 * (`guarded` gives it for params without their shape, requestShapes.ts), and calls it with the
 * items of params given by position and no token.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function onRequestByMethod<P, R>(type: RequestType<P, R, any> | RequestType0<R, any>, handler: (params: P, token: CancellationToken) => R | Promise<R>): void {
  const run = guarded(type.method, handler);
  connection.onRequest(type.method, (...args: unknown[]) => {
    // The library calls a handler by method with the token last: `(token)` without params,
    // `(...params, token)` for params by position, else `(params, token)`.
    const token = args[args.length - 1] as CancellationToken;
    const params = args.length === 2 ? args[0] : args.length === 1 ? undefined : args.slice(0, -1);
    return run(params as P, token);
  });
}
// Whatever a document holds, the server lives on: a failure outside a request (a timer, a
// notification) is logged rather than ending the process.
process.on('uncaughtException', (error) => logFailure('Uncaught', error));
process.on('unhandledRejection', (reason) => logFailure('Unhandled rejection', reason));
/** Standard error, where there is one (the web worker's server has none). */
const standardError = (process as { stderr?: NodeJS.WriteStream }).stderr;
// A standard error no one reads any more is no failure to log.
standardError?.on('error', () => undefined);

/** Whether `logFailure` is logging: a failure while it logs is not logged again. */
let loggingFailure = false;

/**
 * Logs a failure: one line in the client's log (its message, not its stack), the stack on
 * standard error, for whoever reads the server's output. Never throws: when the connection is
 * closed (the client stopped reading, or went), the server ends quietly, as it would at `exit`.
 */
function logFailure(what: string, error: unknown): void {
  if (loggingFailure) return;
  loggingFailure = true;
  try {
    const message = error instanceof Error ? error.message : String(error);
    try {
      connection.console.error(`${what}: ${message.replace(/\s*[\r\n]+\s*/g, ' ')}`);
    } catch {
      process.exit?.(1);
    }
    if (error instanceof Error && error.stack) standardError?.write(`${what}: ${error.stack}\n`);
  } finally {
    loggingFailure = false;
  }
}

const cache = new DigestCache();
/** The outline, folding and semantic tokens of each open document's latest version. */
const answers = new AnswerCache();
// Each edit brings the document's cached model along incrementally.
const documents = new TextDocuments<OpenDocument>({
  create: (uri, languageId, version, content) => {
    // Opened again without a close (some clients on reload): nothing of the text before is
    // kept, whatever its version (the caches go by version).
    forgetDocument(uri);
    return OpenDocument.create(uri, languageId, version, content);
  },
  update: (document, changes, version) => {
    // The answers kept go by version; a client that sends a version number twice (LSP wants
    // them to increase) must not be answered from the other text's.
    answers.delete(document.uri);
    pull.filesChanged([document.uri]); // (made below, before any message is read)
    return cache.change(document, changes, () => OpenDocument.update(document, changes, version));
  },
});
/** Every paper of every digest file of the workspace folders; open documents override the disk. */
const workspaceIndex = new WorkspaceIndex();
/** With `--debug-requests` and `initializationOptions.debugHoldScan`, the first scan waits after the kept index for `paperDigest/debug/releaseScan` (tests). */
let scanHold: Promise<void> | undefined;
let releaseScan: (() => void) | undefined;
/** Writes a line of the log (the client's output channel of Paper Digest) in the language of the server's messages. */
function serverLog(ref: MessageRef): void {
  connection.console.log(logText(ref, messageLanguage.current()));
}
const workspaceDigests = createWorkspaceFiles(workspaceIndex, connection, { log: serverLog, idle, beforeFullScan: () => scanHold ?? Promise.resolve() });
const papersTrees = new PapersTreeCache();
/** The reading workflow: state files, interests, digest order, export (reading.ts). */
const reading = new ReadingService(workspaceIndex, {
  folders: () => workspaceDigests.folderUris,
  mtimeOf: (uri) => workspaceDigests.mtimeOf(uri),
  configuration: (scopeUri, section) => (configurationPull ? connection.workspace.getConfiguration({ scopeUri, section }) : Promise.resolve(pushedSection(section))),
  notify: (params) => {
    void connection.sendNotification(StateChangedNotification, params);
    // The CodeLenses say Star or Unstar, Mark read or Mark unread: the client asks them again.
    if (codeLensRefresh) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  },
  log: serverLog,
  settled: () => workspaceDigests.ready,
  stateFiles: createStateFileSource(connection),
  messageLanguage: () => messageLanguage.current(),
  // A notification, not the request `showWarningMessage` sends: nothing to answer, nothing pending.
  warn: (text) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: text }),
});
/** The reading state, scores and digest order of the papers. */
function readingLookup(): ReadingLookup {
  return reading.lookup();
}
/** The names the workspace uses, counted, for completion, references, rename and consistency. */
const workspaceTerms = new WorkspaceTerms(workspaceIndex);
const completionWorkspace: CompletionWorkspace = {
  terms: workspaceTerms,
  authorsOf: (uri, entryIndex) => workspaceIndex.file(uri)?.papers[entryIndex]?.authors,
  // Before the authors of indexed papers are read: cheap, only the changed papers get new title keys.
  indexEdits: () => workspaceDigests.flush(),
};
let initialFolders: string[] = [];
let folderChangeNotifications = false;
/** Whether the server registers its file watchers (the client can, and does not watch them itself). */
let registerWatchers = false;
/**
 * Whether the client tells no file events (it neither watches the files nor takes the server's
 * watchers): the server then reads a saved file again. A client that tells them reads each save
 * once, by its file event. The server asks for saves (`asksForSaves`) from every client that does
 * not watch the files itself: one that can register watchers may refuse them when asked.
 */
let readsSaves = false;
let asksForSaves = false;

/**
 * Where else in the workspace a paper with this English title key is, for the duplicate
 * diagnostics (`computeDiagnostics` option `duplicatesElsewhere`).
 */
export function duplicatesElsewhere(uri: string): (englishTitleKey: string) => { uri: string; range: Range }[] {
  return (key) => workspaceIndex.duplicatesOf(key, uri);
}

connection.onInitialize((raw: InitializeParams): InitializeResult => {
  // Each part of its shape, or left out (requestShapes.ts): a malformed initialize must not fail
  // half-way and leave the server unable to be initialised again.
  const params = wellShapedInitialize(raw);
  const capabilities = params.capabilities as ClientCapabilities;
  initialFolders = params.folders;
  folderChangeNotifications = capabilities.workspace?.workspaceFolders === true;
  configurationPull = capabilities.workspace?.configuration === true;
  messageLanguage.setLocale(params.locale);
  snippetEdits = capabilities.workspace?.workspaceEdit?.snippetEditSupport === true;
  forms = clientForms(capabilities);
  // Pull diagnostics where the client can pull them (LSP 3.17); pushed otherwise.
  pullMode = capabilities.textDocument?.diagnostic !== undefined && capabilities.textDocument?.diagnostic !== null;
  refreshSupport = capabilities.workspace?.diagnostics?.refreshSupport === true;
  codeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
  // Editors other than VS Code (Neovim, Helix, eglot) send file events only for the watchers a
  // server registers; VS Code's client here watches the files itself and says so.
  const options = params.initializationOptions as { watchesFiles?: unknown; keptIndexFolder?: unknown; papersGrouping?: unknown; debugHoldScan?: unknown } | undefined;
  if (options?.debugHoldScan === true && debugRequestsEnabled()) {
    scanHold = new Promise((resolve) => (releaseScan = resolve));
  }
  const watchesFiles = options?.watchesFiles === true;
  // Where the index is kept between starts (VS Code's storage of the workspace), when the client gives a place.
  const keptIndex = typeof options?.keptIndexFolder === 'string' && options.keptIndexFolder !== '' ? createKeptIndexStore(options.keptIndexFolder, serverLog) : undefined;
  if (keptIndex) {
    // The files not kept are read, before the scan, for the first level of the grouping the
    // Papers view shows (the client says which; by topic, the view's first, when it does not).
    workspaceDigests.keepIndexWith(keptIndex, firstLevelPartOf(isPapersGrouping(options?.papersGrouping) ? options.papersGrouping : 'topic') ?? 'topic');
  }
  registerWatchers = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true && !watchesFiles;
  readsSaves = !watchesFiles && !registerWatchers;
  asksForSaves = !watchesFiles;
  return {
    capabilities: {
      workspaceSymbolProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      // A save is told (the file read again: its corrected titles carry their reading state)
      // where no file event tells it.
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, ...(asksForSaves ? { save: { includeText: false } } : {}) },
      documentSymbolProvider: { label: 'Paper Digest' },
      foldingRangeProvider: true,
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [...CODE_ACTION_KINDS] },
      ...(pullMode ? { diagnosticProvider: { identifier: 'paper-digest', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
      executeCommandProvider: { commands: [FIX_ALL_COMMAND, APPLY_FIX_COMMAND] },
      completionProvider: { triggerCharacters: [...COMPLETION_TRIGGER_CHARACTERS], resolveProvider: true },
      documentLinkProvider: { resolveProvider: false },
      selectionRangeProvider: true,
      referencesProvider: true,
      documentHighlightProvider: true,
      renameProvider: { prepareProvider: true },
      semanticTokensProvider: {
        legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: SEMANTIC_TOKEN_MODIFIERS },
        full: true,
      },
    },
    serverInfo: { name: 'paper-digest-server', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  if (registerWatchers) {
    void connection.client
      .register(DidChangeWatchedFilesNotification.type, {
        watchers: [
          { globPattern: DIGEST_FILE_GLOB },
          // The reading state and interests beside the digests, changed by other tools or git.
          { globPattern: '**/.paper-digest/*.json' },
          // A folder deleted, moved or copied in may hold digests.
          { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete },
        ],
      })
      .catch((error: unknown) => {
        // Refused: no file event will tell a save, so the saves the client tells are read.
        readsSaves = true;
        serverLog(message('logNoWatchers', { reason: detailOf(error) }));
      });
  }
  if (folderChangeNotifications) {
    connection.workspace.onDidChangeWorkspaceFolders((event: unknown) => {
      // Folders without a string URI are left out, the others kept (requestShapes.ts).
      const given = event !== null && typeof event === 'object' ? (event as { added?: unknown; removed?: unknown }) : {};
      void workspaceDigests.changeFolders(folderUris(given.added), folderUris(given.removed));
    });
  }
  void workspaceDigests.setFolders(initialFolders).then(collectOnceIdle);
  // Read the message language now, so that the first hover already has it.
  void messageLanguage.ready();
});

// A change of the files not yet in the index kept between starts is written before the server goes.
connection.onShutdown(() => workspaceDigests.dispose());
// A request whose body is not valid JSON (serialised.ts): answered, so that the client waits no more.
connection.onRequest(UNDECODABLE_METHOD, () => {
  throw new ResponseError(ErrorCodes.ParseError, 'the request is not valid JSON');
});
// A request whose method is not a string (requestShapes.ts): answered by its id, as JSON-RPC has it.
connection.onRequest(INVALID_REQUEST_METHOD, () => {
  throw new ResponseError(ErrorCodes.InvalidRequest, 'the request has no method name (a string)');
});

// The workspace index: file events, open documents, and the Papers view's requests.
connection.onDidChangeWatchedFiles((params) => {
  // The events of their shape, each bad one dropped on its own (requestShapes.ts).
  const changes = wellShapedFileEvents(params);
  void workspaceDigests.filesChanged(changes);
  // Each file once (a state file created matches two of the client's watchers).
  for (const uri of new Set(changes.map((change) => indexUri(change.uri)))) {
    reading.fileChanged(uri);
  }
});

// A document saved, where no file event tells it: its file read again, as a file event has it read.
documents.onDidSave((event) => {
  if (readsSaves) void workspaceDigests.filesChanged([{ uri: event.document.uri, type: FileChangeType.Changed }]);
});

documents.onDidChangeContent((event) => {
  // A document past a limit is not indexed while it is open: the index keeps the file on disk.
  if (documentTooLarge(cache.get(event.document))) {
    workspaceDigests.documentClosed(event.document.uri);
  } else {
    workspaceDigests.documentChanged(event.document.uri, () => cache.get(event.document));
  }
});

/**
 * The model of an open document, when it is within the limits (limits.ts); undefined for one
 * past them, which gets the cheap features only: its outline without fields, its folding
 * ranges and the one document-too-large diagnostic.
 */
function checkedModel(document: TextDocument | undefined): DigestDocument | undefined {
  if (!document) {
    return undefined;
  }
  const model = cache.get(document);
  return documentTooLarge(model) ? undefined : model;
}

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

/** The tree options of a request's grouping filters, with the reading state. */
function treeOptions(params: PapersQuery & { filter: string }): PapersTreeOptions {
  return { filter: params.filter ?? '', unreadOnly: params.unreadOnly, starredOnly: params.starredOnly, newOnly: params.newOnly, tag: params.tag, reading: readingLookup() };
}

/**
 * Whether the params of `papersTree` or `paperAt` are of the declared types: anything else gets
 * an empty answer, not an error of the handler's own.
 */
function isPapersTreeQuery(params: unknown): params is PapersTreeParams {
  if (!params || typeof params !== 'object') return false;
  const p = params as Record<string, unknown>;
  const optional = (value: unknown, type: 'string' | 'boolean'): boolean => value === undefined || typeof value === type;
  return (
    isPapersGrouping(p.grouping) &&
    optional(p.filter, 'string') &&
    optional(p.parentId, 'string') &&
    optional(p.tag, 'string') &&
    optional(p.unreadOnly, 'boolean') &&
    optional(p.starredOnly, 'boolean') &&
    optional(p.newOnly, 'boolean')
  );
}

function isPapersGrouping(value: unknown): value is PapersGrouping {
  return (PAPERS_GROUPINGS as readonly unknown[]).includes(value);
}

onRequestByMethod(PapersTreeRequest, async (params, token) => {
  if (!isPapersTreeQuery(params)) {
    // A query of another shape (an unknown grouping) finds no group; the workspace's papers are still counted.
    return { generation: workspaceIndex.generation, paperCount: 0, distinctPaperCount: 0, indexedPaperCount: workspaceIndex.paperCount, nodes: [] };
  }
  const early = params.parentId === undefined ? await earlyRoots(params, token) : undefined;
  if (early) {
    return early;
  }
  await workspaceDigests.ready;
  await reading.ready();
  workspaceDigests.flush();
  // The scores For you bands the papers by, worked out in slices (a hover answered between them,
  // a cancellation heard) before the tree is built from them at once.
  if (params.grouping === 'forYou' && !(await reading.scoresReady(token))) {
    return { generation: workspaceIndex.generation, paperCount: 0, distinctPaperCount: 0, indexedPaperCount: workspaceIndex.paperCount, nodes: [] };
  }
  const lookup = papersTrees.get(workspaceIndex, params.grouping, treeOptions(params), token);
  await messageLanguage.ready();
  const language = messageLanguage.current();
  // With no interest set at all, the band every paper is in says how to set them.
  const guide = params.grouping === 'forYou' && params.parentId === undefined && !reading.anyInterests();
  const nodes = (lookup.childrenOf(params.parentId) ?? []).map((node) => (guide ? withoutInterests(localizedNode(node, language), language) : localizedNode(node, language)));
  return { generation: lookup.tree.generation, paperCount: lookup.tree.paperCount, distinctPaperCount: lookup.tree.distinctPaperCount, indexedPaperCount: workspaceIndex.paperCount, nodes };
});

/**
 * The tree's first level while the first scan of the workspace runs, from the index kept at the
 * last start and the files changed since (`earlyIndex`, workspace.ts): the same groups and counts
 * the scan comes to. Only for the groupings and filters that need no more than what is kept of a
 * paper (its topic, keywords, categories, institutions and title key), and, at a start that read
 * files anew, what they were read for (the grouping the client said it shows): undefined for the
 * others, which wait for the scan, as does every deeper level.
 */
async function earlyRoots(params: PapersTreeParams, token: CancellationToken): Promise<PapersTreeResult | undefined> {
  const plain = (params.filter ?? '') === '' && !params.unreadOnly && !params.starredOnly && !params.newOnly && params.tag === undefined;
  // Undefined for the groupings by reading state and For You.
  const wanted = firstLevelPartOf(params.grouping);
  if (!plain || !wanted) {
    return undefined;
  }
  const early = await workspaceDigests.earlyIndex(wanted);
  if (!early) {
    return undefined;
  }
  await messageLanguage.ready();
  // The same early index (nothing changed but the files the scan read as they were kept) answers as before.
  let answers = earlyAnswers.get(early);
  if (!answers) {
    answers = new Map();
    earlyAnswers.set(early, answers);
  }
  const language = messageLanguage.current();
  const key = `${params.grouping}|${language}`;
  let answer = answers.get(key);
  if (!answer) {
    try {
      const first = papersTreeFirstLevel(early, params.grouping, token);
      if (!first || token.isCancellationRequested) {
        return undefined;
      }
      const nodes = first.nodes.map((node) => localizedNode(node, language));
      answer = { paperCount: first.paperCount, distinctPaperCount: first.distinctPaperCount, indexedPaperCount: early.paperCount, nodes };
      answers.set(key, answer);
    } catch (error) {
      // Something of a paper not kept was read after all: the scan answers.
      if (error instanceof NotKeptError) {
        return undefined;
      }
      throw error;
    }
  }
  return { generation: workspaceIndex.generation, ...answer };
}

/** The early answers of each early index (`earlyRoots`), by grouping and language. */
const earlyAnswers = new WeakMap<WorkspaceIndex, Map<string, Omit<PapersTreeResult, 'generation'>>>();

onRequestByMethod(PaperAtRequest, async (params, token) => {
  if (!isPapersTreeQuery(params) || typeof params.uri !== 'string' || !isPosition(params.position)) {
    return null;
  }
  await workspaceDigests.ready;
  await reading.ready();
  workspaceDigests.flush();
  const paper = paperAt(workspaceIndex, indexUri(params.uri), params.position);
  const path = paper ? papersTrees.get(workspaceIndex, params.grouping, treeOptions(params), token).pathToPaper(paper) : undefined;
  const language = await settledLanguage();
  return path ? { path: path.map((node) => localizedNode(node, language)) } : null;
});

onRequestByMethod(RescanWorkspaceRequest, async () => {
  await workspaceDigests.rescan();
  return { fileCount: workspaceIndex.files().length, paperCount: workspaceIndex.paperCount };
});

registerStatisticsRequests({
  canonical: indexUri,
  documents,
  index: workspaceIndex,
  ready: async () => {
    await workspaceDigests.ready;
    workspaceDigests.flush();
  },
  onRequest: onRequestByMethod,
});

/**
 * Two full garbage collections (when node runs with `--expose-gc`): a collection asked for while
 * V8's incremental marking is under way only finishes that marking, which may have marked a
 * document live before it closed; the second starts afresh.
 */
function fullCollection(): void {
  const gc = exposedGc();
  gc?.();
  gc?.();
}

/** V8's `gc`, when node runs with `--expose-gc`. */
function exposedGc(): ((options?: { type: 'minor' | 'major' }) => void) | undefined {
  return (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
}

/** Closed documents of at least this many characters are followed by a full collection. */
const COLLECT_AFTER_CLOSE_CHARS = 1_000_000;
let collectTimer: NodeJS.Timeout | undefined;

/**
 * After a big document closes, a full garbage collection a moment later (when node runs with
 * `--expose-gc`, as the extension starts the server), so that its memory goes back to the system
 * rather than staying with an idle server until the next allocation burst.
 */
function collectAfterClose(characters: number): void {
  // V8 keeps the subject of the last regular-expression match (for RegExp.$1 and lastMatch): a
  // slice of a closed document would keep all its text alive. A match on a short string lets go.
  /x/.exec('x');
  if (!exposedGc() || characters < COLLECT_AFTER_CLOSE_CHARS) {
    return;
  }
  clearTimeout(collectTimer);
  collectTimer = setTimeout(() => {
    collectTimer = undefined;
    fullCollection();
  }, 1_000);
  collectTimer.unref();
}

/**
 * After fix-all of a big document, a full garbage collection once its answer is sent (when node
 * runs with `--expose-gc`): fix-all parses and checks the fixed text whole, a second model of the
 * document that is garbage once the edits are made, and the requests an editor sends next (the
 * quick fixes of a selection) would otherwise add to it before V8 collects.
 */
function collectAfterFixAll(model: DigestDocument): void {
  if (!exposedGc() || model.text.length < COLLECT_AFTER_CLOSE_CHARS) {
    return;
  }
  // A turn for the answer to be written, the time for it to leave, and then the collection.
  setImmediate(() => void outputSent().then(() => setImmediate(fullCollection)));
}

/** How long the server must have been idle, twice, after the workspace scan before it collects. */
const IDLE_COLLECT_MS = 6_000;
/** At most this many tries (one per `IDLE_COLLECT_MS`, two minutes) to find it idle. */
const IDLE_COLLECT_TRIES = 20;
/**
 * Below this share of the time busy, the server counts as idle: V8 shrinks the young generation
 * only when under about 1 MB a second was allocated, so even a short burst of work counts.
 */
const IDLE_UTILISATION = 0.02;

/**
 * After the first workspace scan, a full garbage collection once the server has been idle (when
 * node runs with `--expose-gc`, as the extension starts the server). The scan keeps what it
 * indexes, so V8 grows the young generation to its limit (8 MB a semi-space with the extension's
 * node options, nodeOptions.ts; 64 MB, about 130 MB of memory, with those of earlier rounds) and
 * keeps it so, and the old generation holds the scan's garbage. A full collection shrinks the young
 * generation only when V8 measured a low allocation rate since the collection before, so: once
 * idle for `IDLE_COLLECT_MS`, a young-generation collection (a few milliseconds) closes the busy
 * period; idle for as long again, the full collection. With 100,000 papers indexed, the server's
 * resident memory falls from about 264 to about 234 MB (from about 400 to 270 MB with 64 MB
 * semi-spaces). Busy meanwhile (the event loop more than `IDLE_UTILISATION` busy), or the young
 * generation still as big after the collection, it waits and tries again.
 */
function collectOnceIdle(): void {
  const gc = exposedGc();
  const performance = (globalThis as { performance?: { eventLoopUtilization?(since?: unknown): { utilization: number } } }).performance;
  if (!gc || !performance?.eventLoopUtilization || typeof process.memoryUsage !== 'function') {
    return;
  }
  let tries = 0;
  let closed = false;
  const wait = (): void => {
    const since = performance.eventLoopUtilization!();
    const timer = setTimeout(() => {
      const idle = performance.eventLoopUtilization!(since).utilization <= IDLE_UTILISATION;
      if (idle && closed) {
        fullCollection();
        const { heapTotal, heapUsed } = process.memoryUsage();
        if (heapTotal - heapUsed < SHRUNK_SLACK_BYTES) {
          return;
        }
        // V8 still saw too much allocation (its own collections, running meanwhile, count): again.
        closed = false;
      } else {
        if (idle) {
          gc({ type: 'minor' });
        }
        closed = idle;
      }
      if (++tries < IDLE_COLLECT_TRIES) {
        wait();
      }
    }, IDLE_COLLECT_MS);
    timer.unref();
  };
  wait();
}

/** Heap committed but not used after a full collection, below which the young generation has shrunk. */
const SHRUNK_SLACK_BYTES = 32 * 1024 * 1024;

onRequestByMethod(ServerMemoryRequest, (params) => {
  if (params?.collect === true) {
    fullCollection();
  }
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
});

onRequestByMethod(DocumentStatsRequest, async (params) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  // Any other parameters get the index alone.
  const uri: unknown = (params as { uri?: unknown } | null | undefined)?.uri;
  const document = typeof uri === 'string' ? documents.get(uri) : undefined;
  return documentStats(workspaceIndex, document ? cache.get(document) : undefined);
});

onRequestByMethod(WorkspaceSymbolRequest.type, async (params, token) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  return workspaceSymbols(workspaceIndex, params.query, token);
});

onRequestByMethod(DocumentSymbolRequest.type, async (params, token) => {
  const language = await settledLanguage();
  const document = documents.get(params.textDocument.uri);
  // One answer per language: the outline's own words (the heading's count of papers) follow the setting.
  const feature = (language === 'zh-cn' ? 'outline.zh-cn' : 'outline') + (forms.hierarchicalSymbols ? '' : '.flat');
  if (!document) {
    return null;
  }
  if (!forms.hierarchicalSymbols) {
    // A client without hierarchical symbols takes the same outline as flat symbols.
    return answers.get(document.uri, document.version, feature, () => encodedAnswer(flatSymbols(documentSymbols(cache.get(document), { language }, token), document.uri)), token);
  }
  return answers.get(document.uri, document.version, feature, () => outlineAnswer(document.uri, cache.get(document), { language }, token), token);
});

onRequestByMethod(FoldingRangeRequest.type, (params, token) => {
  const document = documents.get(params.textDocument.uri);
  return document ? answers.get(document.uri, document.version, 'folding', () => encodedAnswer(foldingRanges(cache.get(document), token)), token) : null;
});

onRequestByMethod(HoverRequest.type, async (params, token) => {
  const settled = await settledModel(params.textDocument.uri);
  if (!settled) {
    return null;
  }
  const { model, language } = settled;
  const base = hover(model, params.position, token, language);
  workspaceDigests.flush();
  const answer = reading.hover(indexUri(params.textDocument.uri), params.position, base, language);
  return forms.markdownHover ? answer : plainHover(answer);
});

// ---- The reading workflow: state, ranking, digests, export, CodeLens (reading.ts) ---------

/** Runs a reading request once the first scan is done and pending edits are indexed. */
async function readingReady(): Promise<void> {
  await workspaceDigests.ready;
  await reading.ready();
  workspaceDigests.flush();
}
onRequestByMethod(SetPaperStateRequest, async (params, token) => (await readingReady(), reading.setPaperState(withCanonicalScope(params), token)));
onRequestByMethod(StateInfoRequest, async () => (await readingReady(), reading.stateInfo()));
onRequestByMethod(DigestsRequest, async () => (await readingReady(), reading.digests()));
onRequestByMethod(RankedPapersRequest, async (params, token) => {
  await readingReady();
  await messageLanguage.ready();
  // Scored in slices first, as for the For you tree.
  if (!(await reading.scoresReady(token))) {
    return { generation: reading.lookup().generation, total: 0, papers: [] };
  }
  return reading.rankedPapers(params, token, messageLanguage.current());
});
onRequestByMethod(DocumentPapersRequest, async (params) => (await readingReady(), reading.documentPapers(typeof params?.uri === 'string' ? indexUri(params.uri) : '')));
onRequestByMethod(ExportPapersRequest, async (params, token) => {
  await readingReady();
  // In slices: the requests that come meanwhile are answered, and a cancellation is heard.
  return (await runInSlices(reading.exportPapersSteps(withCanonicalScope(params), token), () => token.isCancellationRequested)) ?? { text: '', count: 0 };
});

/**
 * Params whose scope names a file by a `file:` URI in another encoding than the index's (a client
 * may encode `(`, `'` or `[` or not): the scope with the index's form of it.
 */
function withCanonicalScope<T>(params: T): T {
  const scope = (params as { scope?: { uri?: unknown } } | undefined)?.scope;
  if (scope && typeof scope === 'object' && typeof scope.uri === 'string') {
    return { ...params, scope: { ...scope, uri: indexUri(scope.uri) } };
  }
  return params;
}
onRequestByMethod(CodeLensRequest.type, async (params, token) => {
  if (!documents.get(params.textDocument.uri)) {
    return null;
  }
  await readingReady();
  await messageLanguage.ready();
  return localizedLenses(await reading.codeLenses(indexUri(params.textDocument.uri), token), messageLanguage.current());
});

onRequestByMethod(SemanticTokensRequest.type, (params, token) => {
  const document = documents.get(params.textDocument.uri);
  const model = checkedModel(document);
  return document && model ? answers.get(document.uri, document.version, 'semanticTokens', () => semanticTokensAnswer(model, token), token) : { data: [] };
});

// ---- Editing help: completion, links, selection ranges -------------------------------------

onRequestByMethod(CompletionRequest.type, async (params, token) => {
  const settled = await settledModel(params.textDocument.uri);
  if (!settled) {
    return null;
  }
  const { model, language } = settled;
  // The names typed a moment ago (in this document or another open one) are offered too.
  workspaceDigests.flush();
  return completions(model, params.position, { ...completionWorkspace, uri: indexUri(params.textDocument.uri) }, token, language);
});

onRequestByMethod(CompletionResolveRequest.type, async (item, token) => {
  const resolved = resolveCompletion(item, completionWorkspace, token, await settledLanguage());
  return forms.markdownDocumentation ? resolved : plainDocumentation(resolved);
});

onRequestByMethod(DocumentLinkRequest.type, async (params, token) => {
  const settled = await settledModel(params.textDocument.uri);
  return settled ? documentLinks(settled.model, token, settled.language) : null;
});

onRequestByMethod(SelectionRangeRequest.type, (params, token) => {
  const model = checkedModel(documents.get(params.textDocument.uri));
  return model ? selectionRanges(model, params.positions, token) : null;
});

// ---- References, highlights and rename across the workspace's digests ----------------------

/** Where the files that are not open come through the client (the web extension), how they are read. */
const namesReader = readsFilesThroughClient ? createTextReader(connection) : undefined;

onRequestByMethod(ReferencesRequest.type, async (params, token) => {
  const document = documents.get(params.textDocument.uri);
  const model = checkedModel(document);
  const name = model && nameAt(model, params.position);
  if (!name) {
    return [];
  }
  await workspaceDigests.ready;
  const sources = await sourcesNaming({ documents, cache, index: workspaceIndex, terms: workspaceTerms, isCancelled: () => token.isCancellationRequested, readText: namesReader }, name);
  return references(sources, name, token);
});

onRequestByMethod(DocumentHighlightRequest.type, (params, token) => {
  const document = documents.get(params.textDocument.uri);
  const model = checkedModel(document);
  return model ? documentHighlights(model, params.position, token) : [];
});

onRequestByMethod(PrepareRenameRequest.type, (params, token) => {
  const document = documents.get(params.textDocument.uri);
  const model = checkedModel(document);
  return model ? prepareRename(model, params.position, token) : null;
});

onRequestByMethod(RenameRequest.type, async (params, token) => {
  const document = documents.get(params.textDocument.uri);
  const model = checkedModel(document);
  const name = model && renamableAt(model, params.position);
  if (!name) {
    return null;
  }
  await workspaceDigests.ready;
  const sources = await sourcesNaming({ documents, cache, index: workspaceIndex, terms: workspaceTerms, isCancelled: () => token.isCancellationRequested, readText: namesReader }, name);
  const result = renameEdits(sources, name, params.newName, token, await settledLanguage());
  if ('error' in result) {
    throw new ResponseError(ErrorCodes.InvalidParams, result.error);
  }
  return editForClient(result);
});

/** Forgets what was kept of a document's text: its model, its answers and its outline's bytes. */
function forgetDocument(uri: string): void {
  cache.delete(uri);
  answers.delete(uri);
  forgetOutline(uri);
}

documents.onDidClose((event) => {
  forgetDocument(event.document.uri);
  workspaceDigests.documentClosed(event.document.uri);
  collectAfterClose(event.document.getText().length);
});

// ---- Diagnostics, quick fixes and fix-all -------------------------------------------------

/** The rule pages shipped beside the bundle, linked from each diagnostic. */
const docsBase = rulesPagesBase();
/** Typing pauses this long before a document is checked. */
const DIAGNOSTICS_DELAY_MS = 150;
/** At most this many diagnostics are published for a document. */
const MAX_PUBLISHED_DIAGNOSTICS = 10_000;
let configurationPull = false;
/** The language of diagnostics, code actions and tree labels (`paperDigest.messageLanguage`). */
const messageLanguage = new ServerMessageLanguage((section) => (configurationPull ? connection.workspace.getConfiguration({ section }) : Promise.resolve(pushedSection(section))));

/**
 * The message language once the setting is read: an answer asked before the client answered
 * (the outline and hovers of a window just reloaded) waits for it, as the diagnostics and the
 * Papers tree do, rather than being worded, and kept per version, in the default language.
 */
async function settledLanguage(): Promise<MessageLanguage> {
  if (!messageLanguage.settled) {
    // A client that never answers is not waited for past a moment: the language it had then.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([messageLanguage.ready(), new Promise((resolve) => (timer = setTimeout(resolve, LANGUAGE_WAIT_MS)))]);
    clearTimeout(timer);
  }
  return messageLanguage.current();
}

/** How long an answer waits for the message language setting, in milliseconds. */
const LANGUAGE_WAIT_MS = 2000;

/**
 * The checked model of an open document a request is about (`checkedModel`), and the message
 * language, once the setting is read: undefined when the document changed meanwhile (or is not
 * open, or past the limits), as the request's positions are of the version it was asked on.
 * Without a wait (the setting read), at once.
 */
async function settledModel(uri: string): Promise<{ model: DigestDocument; language: MessageLanguage } | undefined> {
  const version = documents.get(uri)?.version;
  const language = await settledLanguage();
  const document = documents.get(uri);
  // A change updates the document in place: its version tells.
  const model = document && version !== undefined && document.version === version ? checkedModel(document) : undefined;
  return model ? { model, language } : undefined;
}
/** All `paperDigest` settings as last pushed, for clients that cannot be asked. */
let pushedAll: Record<string, unknown> = {};
/** A pushed section such as `paperDigest.interests` or `paperDigest.codeLens.enable`. */
function pushedSection(section: string): unknown {
  let value: unknown = { paperDigest: pushedAll };
  for (const part of section.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}
/** The client applies snippet edits: quick fixes insert placeholders as tab stops. */
let snippetEdits = false;
/** The forms of answers the client reads (clientForms.ts): VS Code's until it says otherwise. */
let forms: ClientForms = RICHEST_FORMS;
/** A workspace edit in the form the client reads. */
function editForClient(edit: WorkspaceEdit): WorkspaceEdit {
  return forms.documentChanges ? edit : withChanges(edit);
}
/** The settings pushed with `workspace/didChangeConfiguration`, for clients that cannot be asked. */
let pushedSettings: DiagnosticsSettings = {};
const settingsByUri = new Map<string, Promise<DiagnosticsSettings>>();
const diagnosticTimers = new Map<string, NodeJS.Timeout>();
/** The latest diagnostics run started for each document: an older one still going stops. */
const diagnosticRuns = new Map<string, number>();
let diagnosticRunCount = 0;

function diagnosticsSettings(uri: string): Promise<DiagnosticsSettings> {
  if (!configurationPull) {
    return messageLanguage.ready().then(() => pushedSettings);
  }
  let settings = settingsByUri.get(uri);
  if (!settings) {
    settings = connection.workspace.getConfiguration({ scopeUri: uri, section: 'paperDigest.diagnostics' }).then(
      (value: unknown) => (value && typeof value === 'object' ? (value as DiagnosticsSettings) : {}),
      () => ({}),
    );
    settings = Promise.all([settings, messageLanguage.ready()]).then(([value]) => value);
    settingsByUri.set(uri, settings);
  }
  return settings;
}

function diagnosticOptions(uri: string, settings: DiagnosticsSettings): DiagnosticOptions {
  const language = messageLanguage.current();
  return {
    uri,
    docsBase: rulesDocsFor(docsBase, language),
    language,
    rules: settings.rules as Record<string, RuleSetting> | undefined,
    // An untitled document (an export, a roll-up) holds the workspace's papers on purpose: not
    // reported as copies of them.
    duplicatesElsewhere: uri.startsWith('untitled:') ? undefined : duplicatesElsewhere(indexUri(uri)),
    // Undated digests in the order of their times, as the reading workflow has them.
    mtimeOf: (each) => workspaceDigests.mtimeOf(indexUri(each)),
    ...formsElsewhere(uri),
  };
}

function scheduleDiagnostics(uri: string, delay = DIAGNOSTICS_DELAY_MS): void {
  if (pullMode) {
    // The client pulls on its own after a change, and again after a refresh.
    return;
  }
  clearTimeout(diagnosticTimers.get(uri));
  diagnosticTimers.set(
    uri,
    setTimeout(() => {
      diagnosticTimers.delete(uri);
      publishDiagnostics(uri).catch((error: unknown) => logFailure(`Diagnostics of ${uri} failed`, error));
    }, delay),
  );
}

/** Publishes the diagnostics of a document's latest version; a result for an older version is dropped. */
async function publishDiagnostics(uri: string): Promise<void> {
  const document = documents.get(uri);
  if (!document) {
    return;
  }
  const version = document.version;
  const settings = await diagnosticsSettings(uri);
  const latest = documents.get(uri);
  if (!latest || latest.version !== version || diagnosticTimers.has(uri)) {
    // Closed or changed meanwhile: the close or the newer change publishes instead.
    return;
  }
  // In slices: the outline, folding and other requests asked meanwhile are answered first; a
  // newer version, a close or a newer run stops the work (it publishes instead).
  const run = ++diagnosticRunCount;
  diagnosticRuns.set(uri, run);
  const stale = (): boolean => documents.get(uri)?.version !== version || diagnosticRuns.get(uri) !== run;
  const diagnostics = await diagnosticsOfModel(uri, cache.get(latest), settings, stale);
  if (diagnostics && !stale()) {
    void connection.sendDiagnostics({ uri, version, diagnostics });
  }
}

/**
 * The diagnostics of a model under the settings: the first ones, in document order (a problems
 * view chokes on hundreds of thousands). They are computed in slices (slices.ts), so that the
 * requests that come meanwhile are answered first; undefined when `stale()` stopped them.
 */
async function diagnosticsOfModel(uri: string, model: DigestDocument, settings: DiagnosticsSettings, stale: () => boolean = () => false): Promise<Diagnostic[] | undefined> {
  if (settings.enable === false) {
    return [];
  }
  const options = { ...diagnosticOptions(uri, settings), maxDiagnostics: MAX_PUBLISHED_DIAGNOSTICS };
  const all = await runInSlices(diagnosticSteps(model, options, { get isCancellationRequested() { return stale(); } }), stale);
  return all && all.length > MAX_PUBLISHED_DIAGNOSTICS ? all.slice(0, MAX_PUBLISHED_DIAGNOSTICS) : all;
}

/** Documents just opened: their first diagnostics wait only for requests already on the way. */
const justOpened = new Set<string>();
/** An opened document is checked after this delay (the outline asked with it goes first). */
const OPEN_DIAGNOSTICS_DELAY_MS = 30;
documents.onDidOpen((event) => {
  justOpened.add(event.document.uri);
  pull.filesChanged([event.document.uri]);
});

documents.onDidChangeContent((event) => {
  const uri = event.document.uri;
  scheduleDiagnostics(uri, justOpened.delete(uri) ? OPEN_DIAGNOSTICS_DELAY_MS : DIAGNOSTICS_DELAY_MS);
});

documents.onDidClose((event) => {
  const uri = event.document.uri;
  clearTimeout(diagnosticTimers.get(uri));
  diagnosticTimers.delete(uri);
  settingsByUri.delete(uri);
  diagnosticRuns.delete(uri);
  pull.filesChanged([uri]);
  if (!pullMode) {
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  }
});

// Another file gained or lost a paper with the same title: refresh the duplicates of open files.
/**
 * How the other files of the workspace translate institutions and write authors' Chinese names,
 * for the consistency rules: the workspace's counts without what the index has for `uri`.
 */
function formsElsewhere(uri: string): Pick<DiagnosticOptions, 'translationsElsewhere' | 'authorFormsElsewhere' | 'formsGeneration' | 'countedElsewhere'> {
  const key = indexUri(uri);
  return {
    formsGeneration: workspaceTerms.translationsVersion,
    translationsElsewhere: (name) => workspaceTerms.translationsWith(name, key, undefined),
    authorFormsElsewhere: (name) => workspaceTerms.authorFormsWith(name, key, undefined),
    // For fix-all, which raises no problem in another file: whether the workspace counts this
    // file's forms (not an untitled document's, nor one outside its folders).
    countedElsewhere: workspaceTerms.file(key) !== undefined,
  };
}

// Another file changed a translation that is (or was) inconsistent: refresh every open file.
let checkedTranslations = workspaceTerms.translationsVersion;
workspaceIndex.onDidChange(() => {
  if (workspaceTerms.translationsVersion !== checkedTranslations) {
    checkedTranslations = workspaceTerms.translationsVersion;
    pull.allChanged();
    for (const document of documents.all()) {
      scheduleDiagnostics(document.uri, 300);
    }
  }
});

workspaceIndex.onDidChange((change) => {
  pull.filesChanged([...change.uris, ...change.affectedUris]);
  scheduleRefresh();
  const affected = new Set(change.affectedUris);
  for (const document of documents.all()) {
    if (affected.has(indexUri(document.uri))) {
      scheduleDiagnostics(document.uri, 300);
    }
  }
});

connection.onDidChangeConfiguration((change) => {
  const settings = (change.settings as { paperDigest?: { diagnostics?: DiagnosticsSettings } } | undefined)?.paperDigest?.diagnostics;
  pushedSettings = settings ?? {};
  pushedAll = (change.settings as { paperDigest?: Record<string, unknown> } | undefined)?.paperDigest ?? {};
  reading.configurationChanged();
  messageLanguage.configurationChanged();
  settingsByUri.clear();
  workspaceSettings = undefined;
  pull.allChanged();
  scheduleRefresh(0);
  for (const document of documents.all()) {
    scheduleDiagnostics(document.uri, 0);
  }
});

// ---- Pull diagnostics ----------------------------------------------------------------------

/** The client pulls diagnostics (`textDocument/diagnostic`, `workspace/diagnostic`). */
let pullMode = false;
/** The client takes `workspace/diagnostic/refresh`. */
let refreshSupport = false;
/** Whether the client takes `workspace/codeLens/refresh` (the CodeLenses follow the reading state). */
let codeLensRefresh = false;
/** The workspace-wide diagnostics settings (scope, enable, rules), asked once until they change. */
let workspaceSettings: Promise<DiagnosticsSettings & { scope?: DiagnosticsScope }> | undefined;
let refreshTimer: NodeJS.Timeout | undefined;

const pull = new PullDiagnostics({
  openDocument: (uri) => {
    const key = indexUri(uri);
    const document = documents.get(uri) ?? documents.all().find((d) => (indexUri(d.uri)) === key);
    return document && { uri: document.uri, version: document.version, model: () => cache.get(document) };
  },
  indexedFiles: () => workspaceIndex.files().map((file) => file.uri),
  canonical: indexUri,
  readFile: createTextReader(connection),
  // A file past the limits: its first part, as an open document's (it gets document-too-large only).
  parse: parseWithinLimits,
  diagnostics: async (uri, model) => {
    const settings = documents.get(uri) ? await diagnosticsSettings(uri) : await pulledWorkspaceSettings();
    if (settings.enable === false) {
      return undefined;
    }
    if (!documents.get(uri)) {
      // A file on disk, parsed for this pull alone.
      return diagnosticsOfModel(uri, model, settings);
    }
    // An open document: an edit between two slices takes its model over; then start again on
    // the model of the new version.
    for (let current = model; ; ) {
      const result = await diagnosticsOfModel(uri, current, settings, () => cache.peek(uri) !== current);
      const document = documents.get(uri);
      if (result || !document) {
        return result ?? [];
      }
      current = cache.get(document);
    }
  },
  scope: async () => {
    const settings = await pulledWorkspaceSettings();
    return { scope: settings.scope === 'openFiles' ? 'openFiles' : 'workspace', enabled: settings.enable !== false };
  },
});

function pulledWorkspaceSettings(): Promise<DiagnosticsSettings & { scope?: DiagnosticsScope }> {
  if (!configurationPull) {
    return messageLanguage.ready().then(() => pushedSettings);
  }
  workspaceSettings ??= Promise.all([
    connection.workspace.getConfiguration({ section: 'paperDigest.diagnostics' }).then(
      (value: unknown) => (value && typeof value === 'object' ? (value as DiagnosticsSettings) : {}),
      () => ({}),
    ),
    messageLanguage.ready(),
  ]).then(([value]) => value);
  return workspaceSettings;
}

/** Asks the client to pull again (at most every 300 ms): the index or the settings changed. */
function scheduleRefresh(delay = 300): void {
  if (!pullMode || !refreshSupport || refreshTimer) {
    return;
  }
  refreshTimer = setTimeout(() => {
    refreshTimer = undefined;
    connection.languages.diagnostics.refresh().catch(() => undefined);
  }, delay);
}

onRequestByMethod(DocumentDiagnosticRequest.type, async (params) => pull.document(params.textDocument.uri, params.previousResultId));

onRequestByMethod(WorkspaceDiagnosticRequest.type, async (params, token) => {
  await workspaceDigests.ready;
  workspaceDigests.flush();
  const previous = Array.isArray(params?.previousResultIds) ? params.previousResultIds.filter((each) => !!each && typeof each.uri === 'string' && typeof each.value === 'string') : [];
  return pull.workspace(previous, token);
});

onRequestByMethod(CodeActionRequest.type, async (params, token) => {
  const uri = params.textDocument.uri;
  if (!documents.get(uri)) {
    return null;
  }
  const settings = await diagnosticsSettings(uri);
  const document = documents.get(uri);
  const model = checkedModel(document);
  if (!document || !model || settings.enable === false) {
    return null;
  }
  const request = { range: params.range, diagnostics: params.context.diagnostics, only: params.context.only };
  // The other open documents' edits in the index first: fix-all weighs the other files' forms.
  workspaceDigests.flush();
  const options = diagnosticOptions(uri, settings);
  // The version the model is of: an edit updates the document object in place, so its version
  // is read now, before any wait.
  const version = document.version;
  const fixAllAsked = params.context.only?.some((kind) => FIX_ALL_KINDS_ASKED.test(kind)) === true;
  // Fix-all is worked out in slices: other requests go on meanwhile, and a newer version stops it
  // (its edits are of this version's text, and would garble the next).
  const fixAllEdits = fixAllAsked ? await runInSlices(fixAllSteps(model, options, token), () => token.isCancellationRequested || documents.get(uri)?.version !== version) : undefined;
  if (fixAllAsked && (fixAllEdits === undefined || documents.get(uri)?.version !== version)) {
    return null;
  }
  // The diagnostics the quick fixes come from, in slices too when they are not kept for the model
  // yet (kept, the first step ends them, with no turn of the event loop).
  const checking = codeActionDiagnosticSteps(model, options, token);
  const first = checking.next();
  const checked = first.done ? first.value : await runInSlices(checking, () => token.isCancellationRequested || documents.get(uri)?.version !== version);
  if (checked === undefined || token.isCancellationRequested || documents.get(uri)?.version !== version) {
    // Cancelled (the problems worked out so far are not kept, and none would be fixed), or of
    // a version edited since.
    return null;
  }
  const actions = codeActions(model, { uri, version }, request, options, token, { snippets: snippetEdits, fixAllEdits });
  if (fixAllAsked) {
    collectAfterFixAll(model);
  }
  if (!forms.codeActionLiterals) {
    return actionsAsCommands(actions, APPLY_FIX_COMMAND, uri, version);
  }
  return forms.documentChanges ? actions : actions.map((action) => ('edit' in action && action.edit ? { ...action, edit: withChanges(action.edit) } : action));
});

/** Code action kinds that ask for fix-all (`source.fixAll.paperDigest`, `source.fixAll`, `source`). */
const FIX_ALL_KINDS_ASKED = /^source(\.fixAll(\.paperDigest)?)?$/;

onRequestByMethod(ExecuteCommandRequest.type, async (params): Promise<FixAllResult | undefined> => {
  if (params.command === APPLY_FIX_COMMAND) {
    return applyFix(params.arguments ?? []);
  }
  if (params.command !== FIX_ALL_COMMAND) {
    return undefined;
  }
  const uri: unknown = params.arguments?.[0];
  // The version the client asks it for, when it says one: another (an edit came since) is not fixed.
  const asked: unknown = params.arguments?.[1];
  const stale = (): boolean => typeof asked === 'number' && documents.get(uri as string)?.version !== asked;
  // A version of another type (`"3"`) is a client's mistake, not no version: nothing is fixed.
  const wrongVersion = asked !== undefined && asked !== null && typeof asked !== 'number';
  if (typeof uri !== 'string' || wrongVersion || !documents.get(uri) || stale()) {
    return { applied: false, edits: 0 };
  }
  const settings = await diagnosticsSettings(uri);
  const document = documents.get(uri);
  if (!document || stale()) {
    return { applied: false, edits: 0 };
  }
  // The options code actions check with, so that the checks they (and the published diagnostics) made are reused.
  const model = cache.get(document);
  const version = document.version;
  workspaceDigests.flush();
  const edits = await runInSlices(fixAllSteps(model, diagnosticOptions(uri, settings)), () => documents.get(uri)?.version !== version);
  collectAfterFixAll(model);
  if (edits === undefined || edits.length === 0 || documents.get(uri)?.version !== version) {
    return fixAllRefused(model) ? { applied: false, edits: 0, tooManyProblems: MAX_FIX_ALL_PROBLEMS } : { applied: false, edits: 0 };
  }
  const result = await connection.workspace.applyEdit({
    label: say(FIX_ALL_TITLE, await settledLanguage()),
    // Of the version the edits were worked out for: a client refuses them for any other.
    edit: editForClient({ documentChanges: [TextDocumentEdit.create({ uri, version }, edits)] }),
  });
  // A client that answers anything but `{ applied }` applied nothing.
  return { applied: result?.applied === true, edits: edits.length };
});

/** `paperDigest.applyFix` (a code action of a client without literals): `[uri, version, edits]`, applied to that version only. */
async function applyFix([uri, version, edits]: unknown[]): Promise<FixAllResult> {
  const wellFormed =
    typeof uri === 'string' &&
    typeof version === 'number' &&
    Array.isArray(edits) &&
    edits.length > 0 &&
    edits.length <= MAX_FIX_EDITS &&
    edits.every((edit) => isRange((edit as TextEdit)?.range) && typeof (edit as TextEdit).newText === 'string');
  const document = wellFormed ? documents.get(uri) : undefined;
  if (!wellFormed || !document || document.version !== version || !editsFit(document, edits as TextEdit[])) {
    return { applied: false, edits: 0 };
  }
  const result = await connection.workspace.applyEdit({ edit: editForClient({ documentChanges: [TextDocumentEdit.create({ uri, version }, edits as TextEdit[])] }) });
  return { applied: result?.applied === true, edits: edits.length };
}

/**
 * Whether edits can be applied to a document as they are: each range in order (its start not
 * after its end) and within the document's lines, and no two overlapping (inserts at one place
 * may be several). A client would refuse others, or apply them otherwise than they read.
 */
function editsFit(document: TextDocument, edits: readonly TextEdit[]): boolean {
  const lines = document.lineCount;
  const spans: [number, number][] = [];
  for (const { range } of edits) {
    const { start, end } = range;
    if (start.line > end.line || (start.line === end.line && start.character > end.character) || end.line > lines) {
      return false;
    }
    spans.push([document.offsetAt(start), document.offsetAt(end)]);
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) return false;
  }
  return true;
}

/** The most edits `paperDigest.applyFix` takes (a fix-all of a big digest has thousands). */
const MAX_FIX_EDITS = 100_000;

function isRange(value: unknown): boolean {
  const position = (each: unknown): boolean => {
    const { line, character } = (each ?? {}) as { line?: unknown; character?: unknown };
    return Number.isInteger(line) && Number.isInteger(character) && (line as number) >= 0 && (character as number) >= 0;
  };
  return value !== null && typeof value === 'object' && position((value as { start?: unknown }).start) && position((value as { end?: unknown }).end);
}

registerDebugRequests(connection, () => ({ parse: cache.parseCount, update: cache.updateCount, ...answers.counters }), guarded, () => releaseScan?.());

documents.listen(shapedDocumentConnection(connection));
connection.listen();
