/**
 * The custom LSP messages of the reading workflow: read / starred / tags / notes kept in
 * `.paper-digest/state.json`, interest ranking, "new since the last digest", export and the
 * CodeLens commands. Re-exported by `protocol.ts`; the README lists them for other editors.
 *
 * Papers are identified by their *paper key*: the English title with case, width and white
 * space folded (`titleKey`, the same key as the `duplicate-paper` diagnostic), so that a paper
 * that comes again in a later digest keeps its state. A paper without an English title is keyed
 * `zh:` + its folded Chinese title.
 *
 * State lives per workspace folder, in `<folder>/.paper-digest/state.json`; a paper's state is
 * the one of the folder its file is in. The client should send file events
 * (`workspace/didChangeWatchedFiles`) for `**∕.paper-digest/*.json`, so that changes made
 * outside (another window, `git pull`) are merged in.
 *
 * Settings the server pulls (`workspace/configuration`, per workspace folder or document, and
 * again on `workspace/didChangeConfiguration`): `paperDigest.interests` (`InterestsSettings`)
 * and `paperDigest.codeLens.enable` (boolean, default true).
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Range } from 'vscode-languageserver-protocol';
import type { PapersGrouping, PaperNode } from './service/features/tree';

// ---------------------------------------------------------------------------------------------
// Which papers.

/** Filters shared by the tree, the ranked list, "mark all" and export. All given parts must hold. */
export interface PapersQuery {
  /** Keeps papers whose English or Chinese title, authors or institutions contain it, ignoring case. */
  readonly filter?: string;
  /** Only papers not marked read. */
  readonly unreadOnly?: boolean;
  /** Only starred papers. */
  readonly starredOnly?: boolean;
  /** Only papers new in their digest (first seen there), not repeats. */
  readonly newOnly?: boolean;
  /** Only papers with this tag (exact, case-sensitive). */
  readonly tag?: string;
}

/**
 * A set of papers: every paper that satisfies all the parts given (an empty scope is every
 * paper of the workspace).
 *
 * - `{ keys: [k] }` one paper (a selection: several keys);
 * - `{ uri }` the papers of one digest file ("mark all read" for a file);
 * - `{ groupId, grouping, filter, unreadOnly, ... }` the papers under a group of that tree;
 * - `{ filter, unreadOnly, ... }` what the view's filter shows;
 * - `{ starredOnly: true }`, `{ tag: 'to-read' }` for export.
 */
export interface PaperScope extends PapersQuery {
  readonly keys?: readonly string[];
  readonly uri?: string;
  /** A group id of `paperDigest/papersTree` in the tree of `grouping` with the query's filters. */
  readonly groupId?: string;
  /** With `groupId`, the tree it is of; without, what this grouping shows (For you: not what the interests hide). */
  readonly grouping?: PapersGrouping;
}

// ---------------------------------------------------------------------------------------------
// State.

/** A change to the state of papers; the parts left out stay as they are. */
export interface PaperStateChange {
  readonly read?: boolean;
  readonly starred?: boolean;
  /** Tags to add (trimmed; empty ones ignored; at most 64 characters each). */
  readonly addTags?: readonly string[];
  readonly removeTags?: readonly string[];
  /** The note (at most 4000 characters); `null` or '' removes it. */
  readonly note?: string | null;
}

/** Parameters of `paperDigest/setPaperState`. */
export interface SetPaperStateParams {
  readonly scope: PaperScope;
  readonly change: PaperStateChange;
}

/** Result of `paperDigest/setPaperState`. */
export interface SetPaperStateResult {
  /** How many papers (distinct keys per state file) changed. */
  readonly changed: number;
  /** Whether the state could not be written (corrupt or unknown-version file, no folder, ...). */
  readonly readOnly: boolean;
  /** Why nothing or not everything changed, for the user. */
  readonly message?: string;
}

/**
 * `paperDigest/setPaperState`, client → server: marks papers read / unread, starred / unstarred,
 * adds or removes tags, sets or clears the note, for every paper of the scope ("mark all read"
 * for a file, a group or the filter is the same request with that scope). The server re-reads
 * and merges the state file before it writes it atomically, then sends
 * `paperDigest/stateChanged`; trees asked for afterwards show the change. Cancelled before its
 * papers are found, it changes nothing (`changed: 0`, a message saying so); once the state files
 * are being written, it finishes.
 */
export const SetPaperStateRequest = new RequestType<SetPaperStateParams, SetPaperStateResult, void>('paperDigest/setPaperState');

/** A state file the server uses (one per workspace folder). */
export interface StateFileInfo {
  /** The workspace folder. */
  readonly folderUri: string;
  /** The state file, `<folder>/.paper-digest/state.json` (it may not exist yet). */
  readonly stateFile: string;
  /** Whether this file is read-only for the server (corrupt, unknown version, unwritable). */
  readonly readOnly: boolean;
  /** What is wrong with it, for the user; absent when all is well. */
  readonly problem?: string;
}

/** Parameters of `paperDigest/stateChanged`. */
export interface StateChangedParams {
  /** Grows with every change of the reading state (set by this server or merged from disk). */
  readonly generation: number;
  /** Distinct papers of the workspace not marked read (for the view's badge). */
  readonly unreadCount: number;
  /** Whether some state file is read-only (see `problem`). */
  readonly readOnly: boolean;
  /** The first problem of a state file, for the user, e.g. `.paper-digest/state.json is not valid JSON (line 3): left untouched; reading state is read-only`. */
  readonly problem?: string;
}

/**
 * `paperDigest/stateChanged`, server → client notification: the reading state or the papers'
 * ranking changed (a `setPaperState`, the state file changed on disk, the interests setting
 * changed, or the index changed the unread count). Sent at most every 100 ms. The client
 * refreshes its tree, badge and decorations.
 */
export const StateChangedNotification = new NotificationType<StateChangedParams>('paperDigest/stateChanged');

/** Result of `paperDigest/stateInfo`. */
export interface StateInfoResult {
  readonly generation: number;
  readonly stateFiles: readonly StateFileInfo[];
  /** Whether some state file is read-only. */
  readonly readOnly: boolean;
  /** The first problem, as in `stateChanged`. */
  readonly problem?: string;
  /** Every tag in use, sorted, for tag completion. */
  readonly tags: readonly string[];
  readonly unreadCount: number;
}

/** `paperDigest/stateInfo`, client → server, no parameters (send `{}`): the state files, tags and unread count. */
export const StateInfoRequest = new RequestType<Record<string, never>, StateInfoResult, void>('paperDigest/stateInfo');

// ---------------------------------------------------------------------------------------------
// Digests in order, ranking, document papers.

/** One digest file of the workspace. */
export interface DigestInfo {
  readonly uri: string;
  /** The date in the file name (`2026-05-01.digest.txt` → `2026-05-01`), when it has one. */
  readonly date?: string;
  /** Modification time on disk (ms since 1970), when known. */
  readonly mtime?: number;
  /** The digest's heading. */
  readonly heading?: string;
  /** The digest's distinct papers: copies of one paper in it count once (as its file group in the Papers view). */
  readonly paperCount: number;
  /** Of those, the papers not read. */
  readonly unreadCount: number;
  /** Of those, the papers first seen in this digest. */
  readonly newCount: number;
}

/** Result of `paperDigest/digests`. */
export interface DigestsResult {
  /** Oldest first: by date in the name, else mtime, else URI; dated files before undated ones of the same time. */
  readonly digests: readonly DigestInfo[];
}

/**
 * `paperDigest/digests`, client → server, no parameters (send `{}`): the digests of the
 * workspace in reading order, for *Next digest* / *Previous digest*. This order also decides
 * which papers are new: a paper is new in the first digest it appears in.
 */
export const DigestsRequest = new RequestType<Record<string, never>, DigestsResult, void>('paperDigest/digests');

/** Parameters of `paperDigest/rankedPapers`. */
export interface RankedPapersParams extends PapersQuery {
  /** At most this many papers (default 100, at most 10,000). */
  readonly limit?: number;
  /** Skip this many first (default 0). */
  readonly offset?: number;
}

/** A paper of the ranked list: a paper node with the authors and institutions triage shows. */
export interface RankedPaper extends PaperNode {
  /** The authors as written (at most 50). Document text: escape it wherever it is rendered. */
  readonly authors: readonly string[];
  /** The institutions, with the Chinese name the `机构` line gives (at most 20). */
  readonly institutions: readonly { readonly name: string; readonly nameZh?: string }[];
}

/** Result of `paperDigest/rankedPapers`. */
export interface RankedPapersResult {
  /** The reading-state generation the answer comes from. */
  readonly generation: number;
  /** How many papers match (before `offset` and `limit`). */
  readonly total: number;
  /**
   * The papers by score, highest first, then newest digest first, then file order; each
   * distinct paper key once (its newest place). Node ids start with `ranked|`.
   */
  readonly papers: readonly RankedPaper[];
}

/**
 * `paperDigest/rankedPapers`, client → server: papers in ranking order, for the triage mode
 * (`{ unreadOnly: true, limit: 1 }` is the next paper to triage). Papers hidden by the
 * interests (score at or below `hideBelow`) are left out.
 */
export const RankedPapersRequest = new RequestType<RankedPapersParams, RankedPapersResult, void>('paperDigest/rankedPapers');

/** Parameters of `paperDigest/documentPapers`. */
export interface DocumentPapersParams {
  readonly uri: string;
}

/** A paper of a document, for decorations on its title line. */
export interface DocumentPaper {
  readonly paperKey: string;
  /** Zero-based line of the English title (or of the entry's first field). */
  readonly line: number;
  /** The title's range. */
  readonly range: Range;
  readonly read: boolean;
  readonly starred: boolean;
  readonly tags: readonly string[];
  readonly isNew: boolean;
  readonly score: number;
}

/** Result of `paperDigest/documentPapers`. */
export interface DocumentPapersResult {
  readonly generation: number;
  readonly papers: readonly DocumentPaper[];
}

/**
 * `paperDigest/documentPapers`, client → server: the state of each paper of a document (open
 * or indexed), for a gutter / line-end decoration of its title line that moves no text. Empty
 * for unknown documents. Re-ask on `stateChanged` and `indexChanged`.
 */
export const DocumentPapersRequest = new RequestType<DocumentPapersParams, DocumentPapersResult, void>('paperDigest/documentPapers');

// ---------------------------------------------------------------------------------------------
// Export.

export type ExportFormat = 'bibtex' | 'csljson' | 'ris' | 'csv' | 'markdown';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['bibtex', 'csljson', 'ris', 'csv', 'markdown'];

/** Parameters of `paperDigest/exportPapers`. */
export interface ExportPapersParams {
  readonly format: ExportFormat;
  readonly scope: PaperScope;
}

/** Result of `paperDigest/exportPapers`. */
export interface ExportPapersResult {
  /** The exported text (UTF-8; for `csv` with CRLF line ends as RFC 4180 says). */
  readonly text: string;
  /** How many papers it holds (each paper key once). */
  readonly count: number;
  /**
   * Set, with no text, when the scope holds more papers than an export takes
   * (`MAX_EXPORT_PAPERS`): how many it holds, and the most.
   */
  readonly tooMany?: { readonly papers: number; readonly max: number };
  /**
   * Set, with no text, when the scope has parts of another type or value, or parts no scope has
   * (`{ paperKeys: [...] }`, `{ grouping: 'topics' }`): their names.
   */
  readonly wrongScope?: readonly string[];
}

/**
 * The most papers one export takes: a year of digests is some 150,000 papers, whose BibTeX is
 * well over 100 MB, which took the server seconds and gigabytes to write and send, and an editor
 * as long to open. More are refused, and the client says to narrow the scope (the command line,
 * which writes to a file, takes any number).
 */
export const MAX_EXPORT_PAPERS = 20_000;

/**
 * `paperDigest/exportPapers`, client → server: the papers of a scope as BibTeX, CSL-JSON, RIS,
 * CSV or a bilingual Markdown reading list. Nothing is invented: no year or id that the digest
 * does not give. *Copy BibTeX* of one paper is `{ format: 'bibtex', scope: { keys: [paperKey] } }`.
 */
export const ExportPapersRequest = new RequestType<ExportPapersParams, ExportPapersResult, void>('paperDigest/exportPapers');

// ---------------------------------------------------------------------------------------------
// CodeLens commands and settings.

/**
 * The client commands the server's CodeLenses (`textDocument/codeLens`, above each title:
 * *Star* or *Unstar* · *Mark read* or *Mark unread* · *Open on arXiv* · *Copy BibTeX*) run.
 * Each takes one argument, `PaperCommandArgument`. Turned off by `paperDigest.codeLens.enable`.
 */
export const PAPER_COMMANDS = {
  star: 'paperDigest.star',
  unstar: 'paperDigest.unstar',
  markRead: 'paperDigest.markRead',
  markUnread: 'paperDigest.markUnread',
  openOnArxiv: 'paperDigest.openOnArxiv',
  copyBibtex: 'paperDigest.copyBibtex',
} as const;

/** The argument of the CodeLens commands. */
export interface PaperCommandArgument {
  readonly uri: string;
  readonly paperKey: string;
  /** For `openOnArxiv`: the arXiv search URL of the paper's English title, built and encoded by the server. */
  readonly url?: string;
}

/** One interest: a term and its weight (negative pushes down; at or below `hideBelow` hides). */
export interface Interest {
  /** Matched ignoring case and width, as a word or phrase, in English or Chinese. */
  readonly term: string;
  /** Default 1. */
  readonly weight?: number;
}

/**
 * `paperDigest.interests` (and `.paper-digest/interests.json` beside the state file, which the
 * CLI reads and the server uses when the setting is empty). Each list holds strings (weight 1)
 * or `Interest`s.
 */
export interface InterestsSettings {
  /** Matched in the English and Chinese titles (×2) and the summary and hits (×1). */
  readonly keywords?: readonly (string | Interest)[];
  /** The digest's sub-topic of `专题命中`. */
  readonly topics?: readonly (string | Interest)[];
  /** arXiv category codes, e.g. `cs.CL`; `cs.*` for a whole archive. */
  readonly categories?: readonly (string | Interest)[];
  /** Author names, English or Chinese. */
  readonly authors?: readonly (string | Interest)[];
  /** Institutions, English or Chinese names. */
  readonly institutions?: readonly (string | Interest)[];
  /** Papers scoring at or below this are hidden from *For you* and the ranked list (default: none hidden). */
  readonly hideBelow?: number;
}
