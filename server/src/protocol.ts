/**
 * The custom LSP messages of Paper Digest, declared once and used by the client and the server.
 * Each states its direction, its parameters and its result; the README lists them for other
 * editors.
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { Position } from 'vscode-languageserver-protocol';
import type { PapersGrouping, PapersTreeItem } from './service/features/tree';
import type { PapersQuery } from './readingProtocol';

// The reading workflow's messages: state, ranking, digests, export, CodeLens commands.
export * from './readingProtocol';
import type { CountRow, DatePoint, DigestStatistics, PeriodRow, TrendRow } from './service/features/statistics';
import type { RollupFormat } from './service/features/rollup';

/** The language id of digest documents. */
export const LANGUAGE_ID = 'paper-digest';

// ---------------------------------------------------------------------------------------------
// The Papers view.

export type { PapersGrouping, PapersTreeItem };
export type { PapersGroupNode, PaperNode, PapersGroupKind } from './service/features/tree';

/** Parameters of `paperDigest/papersTree`. */
export interface PapersTreeParams extends PapersQuery {
  /**
   * `topic` (topic → keyword hit → paper), `category`, `institution`, `file`; the reading
   * groupings `unread`, `starred`, `new` (file → paper, newest digest first) and `forYou`
   * (score band → paper, highest score first).
   */
  readonly grouping: PapersGrouping;
  /** Keeps papers whose English or Chinese title, authors or institutions contain it, ignoring case. '' for all. */
  readonly filter: string;
  /** The id of the group whose children are wanted; omitted for the root groups. */
  readonly parentId?: string;
}

/** Result of `paperDigest/papersTree`. */
export interface PapersTreeResult {
  /** The index generation the nodes come from (it grows with every change of the index). */
  readonly generation: number;
  /** How many copies of papers match the filter in the whole tree (two copies of a paper count twice; a copy listed under two groups, once). */
  readonly paperCount: number;
  /** How many distinct papers match the filter: copies of one paper count once, as in a group's `count`. */
  readonly distinctPaperCount: number;
  /** How many papers the workspace's digests hold, whatever the grouping and filter keep (an empty Unread view is not an empty workspace). */
  readonly indexedPaperCount?: number;
  /** The children of `parentId` (or the roots), without their own children; empty when the parent is gone. */
  readonly nodes: readonly PapersTreeItem[];
}

/**
 * `paperDigest/papersTree`, client → server: one level of the Papers tree over every digest
 * file of the workspace. Groups carry `count` (distinct papers below) and are expanded by asking
 * again with their id as `parentId`; papers carry uri, range, selectionRange, title, chineseTitle,
 * summary, duplicate and duplicates, and their reading state (paperKey, read, starred, tags,
 * note, score, reasons, isNew, firstSeen, arxivSearchUrl). The optional `unreadOnly`,
 * `starredOnly`, `newOnly` and `tag` filter every grouping. Ids are stable across refreshes. The server answers once
 * its first scan of the workspace folders has finished.
 */
export const PapersTreeRequest = new RequestType<PapersTreeParams, PapersTreeResult, void>('paperDigest/papersTree');

/** Parameters of `paperDigest/paperAt`. */
export interface PaperAtParams extends PapersQuery {
  readonly uri: string;
  readonly position: Position;
  /** The grouping and filters of the tree the caller shows. */
  readonly grouping: PapersGrouping;
  readonly filter: string;
}

/** Result of `paperDigest/paperAt`: the nodes from a root group down to the paper. */
export interface PaperAtResult {
  /** Root group first, the paper node last; each without children. */
  readonly path: readonly PapersTreeItem[];
}

/**
 * `paperDigest/paperAt`, client → server: the Papers tree node of the paper under a position,
 * for following the cursor. The result is the path from a root group to the paper's first node
 * in the tree of that grouping and filter, or null when no paper is there or the filter hides it.
 */
export const PaperAtRequest = new RequestType<PaperAtParams, PaperAtResult | null, void>('paperDigest/paperAt');

/** Result of `paperDigest/rescanWorkspace`. */
export interface RescanWorkspaceResult {
  readonly fileCount: number;
  readonly paperCount: number;
}

/**
 * `paperDigest/rescanWorkspace`, client → server: reads every digest file of the workspace
 * folders again and forgets files that are gone, for changes the file events missed. No
 * parameters; the result tells how many files and papers the index holds afterwards.
 */
export const RescanWorkspaceRequest = new RequestType0<RescanWorkspaceResult, void>('paperDigest/rescanWorkspace');

/** Result of `paperDigest/serverMemory`: the server process's memory, in bytes. */
export interface ServerMemoryResult {
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** Parameters of `paperDigest/serverMemory`. */
export interface ServerMemoryParams {
  /** Run a full garbage collection first (when node runs with `--expose-gc`). */
  readonly collect?: boolean;
}

/**
 * `paperDigest/serverMemory`, client → server: the server's memory (`process.memoryUsage()`),
 * after a full garbage collection when asked and node runs with `--expose-gc`. For benchmarks
 * and tests that check memory comes back after documents close.
 */
export const ServerMemoryRequest = new RequestType<ServerMemoryParams | null, ServerMemoryResult, void>('paperDigest/serverMemory');

/** Parameters of `paperDigest/indexChanged`. */
export interface IndexChangedParams {
  /** The index generation after the change. */
  readonly generation: number;
  /** How many papers the workspace holds now. */
  readonly paperCount: number;
  /** How many digest files the workspace holds now. */
  readonly fileCount: number;
}

/**
 * `paperDigest/indexChanged`, server → client notification: the workspace index changed (a digest
 * was edited, created, deleted or renamed, or the first scan finished). Sent at most every 300 ms.
 * A client re-requests `paperDigest/papersTree` when its view is visible, and later otherwise.
 */
export const IndexChangedNotification = new NotificationType<IndexChangedParams>('paperDigest/indexChanged');

// ---------------------------------------------------------------------------------------------
// The language status.

/** Parameters of `paperDigest/documentStats`. */
export interface DocumentStatsParams {
  readonly uri: string;
}

/** Result of `paperDigest/documentStats`. */
export interface DocumentStatsResult {
  /** How many papers the open document holds; null when the server does not have it open. */
  readonly paperCount: number | null;
  /** The workspace index: how many digest files and distinct papers it holds (a paper in two digests counts once). */
  readonly index: { readonly fileCount: number; readonly paperCount: number };
}

/**
 * `paperDigest/documentStats`, client → server: the number of papers of an open digest and the
 * size of the workspace index, for a status item. Answered once the first scan of the workspace
 * folders has finished, so a pending request means the index is still being built.
 */
export const DocumentStatsRequest = new RequestType<DocumentStatsParams, DocumentStatsResult, void>('paperDigest/documentStats');

// ---------------------------------------------------------------------------------------------
// Diagnostics and fix-all.

/**
 * `paperDigest.fixAll`, a command run through `workspace/executeCommand`, client → server:
 * applies every safe fix to one digest. Arguments: `[uri: string, version?: number]`; the client
 * fills in the active editor's document when the command comes from the palette without them.
 * The server answers by sending `workspace/applyEdit` with a versioned edit of that document, so
 * an edit computed for an older version is refused by the client; the command's result is
 * `{ applied: boolean, edits: number }`.
 */
export const FIX_ALL_COMMAND = 'paperDigest.fixAll';

/**
 * `paperDigest.applyFix`, a command run through `workspace/executeCommand`, client → server: the
 * code actions of a client without code action literals (LSP before 3.8), which gets them as
 * `Command`s. Arguments: `[uri: string, version: number, edits: TextEdit[]]`; the server sends
 * them as a `workspace/applyEdit` of that version, and applies nothing when the document is no
 * longer at it. The result is `{ applied: boolean, edits: number }`.
 */
export const APPLY_FIX_COMMAND = 'paperDigest.applyFix';

/**
 * `paperDigest.openLocation`, a client command (server → client, through the `command` of a code
 * action): opens `uri` and selects `range`. Arguments: `[uri: string, range: Range]`. The
 * `duplicate-paper` actions use it to open the other copies of a paper.
 */
export { OPEN_LOCATION_COMMAND } from './service/features/duplicateActions';

/** Result of `paperDigest.fixAll`. */
export interface FixAllResult {
  /** Whether the client applied the edit (false when there was nothing to fix or it refused). */
  readonly applied: boolean;
  /** How many text edits the fix made. */
  readonly edits: number;
  /**
   * Set when fix-all refused the document for having more problems than it works on at once:
   * that number (`MAX_FIX_ALL_PROBLEMS`, 150,000).
   */
  readonly tooManyProblems?: number;
}

/**
 * The settings the server pulls with `workspace/configuration` (section `paperDigest.diagnostics`)
 * and pulls again on `workspace/didChangeConfiguration`.
 */
export interface DiagnosticsSettings {
  /** `paperDigest.diagnostics.enable`: false publishes no diagnostics. */
  readonly enable?: boolean;
  /** `paperDigest.diagnostics.rules`: rule code → `error` | `warning` | `information` | `hint` | `off`. */
  readonly rules?: Readonly<Record<string, string>>;
  /**
   * `paperDigest.diagnostics.scope`: `workspace` (the default) reports the problems of every
   * digest of the workspace through `workspace/diagnostic`, `openFiles` only those of open ones.
   */
  readonly scope?: 'workspace' | 'openFiles';
}

// ---------------------------------------------------------------------------------------------
// Statistics.

export type { CountRow, DatePoint, DigestStatistics, PeriodRow, TrendRow, RollupFormat };

/** Parameters of `paperDigest/statistics`. */
export interface StatisticsParams {
  /** A digest's URI for the statistics of that file; omitted for the whole workspace. */
  readonly uri?: string;
}

/**
 * `paperDigest/statistics`, client → server: the statistics of the workspace's digests (or of
 * one): papers per topic, keyword, category and institution (largest first, at most 50 each),
 * papers per digest date, the trends of the topics and keywords with most papers in the last two
 * weeks, and weekly and monthly roll-ups. Each row carries `filter`, the Papers filter (`topic:…`, `category:…`, `week:…`)
 * that shows the papers it counts. Answered once the first scan of the workspace is done.
 */
export const StatisticsRequest = new RequestType<StatisticsParams, DigestStatistics, void>('paperDigest/statistics');

/** Parameters of `paperDigest/rollup`. */
export interface RollupParams {
  /** An ISO week (`2026-W18`) or a month (`2026-05`). */
  readonly period: string;
  /** `digest`: one digest file of the period's entries, by topic; `markdown`: a bilingual reading list. */
  readonly format: RollupFormat;
  /** Only the papers of this digest (the dashboard on the active digest); every digest when absent. */
  readonly uri?: string;
}

/** Result of `paperDigest/rollup`. */
export interface RollupResult {
  readonly text: string;
  readonly paperCount: number;
}

/**
 * `paperDigest/rollup`, client → server: the papers of one week or month of dated digests, by
 * topic, each paper once, as a digest file (entries copied as they stand) or as Markdown.
 * An unknown period gives empty text.
 */
export const RollupRequest = new RequestType<RollupParams, RollupResult, void>('paperDigest/rollup');

/**
 * The method a request whose body is not valid JSON is read as, by the id it plainly names
 * (serialised.ts): the server answers it with a ParseError. Its name ends with a token of this
 * process, so that no client's request is taken for one (lifecycle.ts lets it through).
 */
export const UNDECODABLE_METHOD = `paperDigest/$undecodable/${Math.random().toString(36).slice(2, 12)}`;
