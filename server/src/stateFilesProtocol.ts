/**
 * The custom requests by which a server without disk access (the web extension's server in a
 * web worker) reads and writes the reading workflow's files, `.paper-digest/state.json` and
 * `.paper-digest/interests.json`, through the client's `vscode.workspace.fs`. Both are
 * server → client; the Node server uses the disk itself (stateDisk.ts) and never sends them.
 *
 * A read answers the text with its version (modification time, size and a hash of the text);
 * a write names the version it expects to replace and is refused (`changed`) when the file is
 * no longer that version, so that a change made meanwhile (another window, a sync, a pull) is
 * read and merged instead of overwritten.
 */
import { RequestType } from 'vscode-languageserver-protocol';

/** What a file was when it was read. */
export interface StateFileVersion {
  readonly mtime: number;
  readonly size: number;
  /** `textHash` of its text. */
  readonly hash: string;
}

/** Why a state file was not read or written; `folder-gone`: the workspace folder (`at`) is not there any more (moved, deleted, unmounted). */
export type StateFileProblem = 'link' | 'not-file' | 'too-big' | 'not-utf8' | 'outside' | 'folder-gone' | 'unreadable' | 'unwritable';

export interface ReadStateFileParams {
  /** `<workspace folder>/.paper-digest/state.json` or `.../interests.json`. */
  readonly uri: string;
  readonly maxBytes: number;
}

/**
 * Why a file was not read or written: the kind, one English line, and for the server to word it
 * in its message language, the URI that is the problem (the file or its `.paper-digest` folder)
 * and, for `unreadable` and `unwritable`, the file system's own error text.
 */
export interface StateFileProblemResult {
  readonly problem: StateFileProblem;
  readonly message: string;
  readonly at?: string;
  readonly detail?: string;
}

export type ReadStateFileResult = { readonly missing: true } | { readonly text: string; readonly version: StateFileVersion } | StateFileProblemResult;

/**
 * `paperDigest/workspace/readStateFile`, server → client.
 *
 * @example
 * { uri: 'vscode-vfs://github/me/papers/.paper-digest/state.json', maxBytes: 67108864 }
 * // → { text: '{"version":1,...}', version: { mtime: 1717000000000, size: 812, hash: '5d41…:812' } }
 */
export const ReadStateFileRequest = new RequestType<ReadStateFileParams, ReadStateFileResult, void>('paperDigest/workspace/readStateFile');

export interface WriteStateFileParams {
  readonly uri: string;
  readonly text: string;
  /** The version the write replaces; null: the file must not exist yet. */
  readonly expected: StateFileVersion | null;
}

export type WriteStateFileResult =
  | { readonly written: true; readonly version: StateFileVersion }
  | { readonly written: false; readonly changed: true }
  | ({ readonly written: false } & StateFileProblemResult);

/**
 * `paperDigest/workspace/writeStateFile`, server → client: replaces the whole file (by a
 * temporary file in the same folder renamed over it where the file system can rename), only
 * if it is still the `expected` version; creates `.paper-digest/` when needed.
 */
export const WriteStateFileRequest = new RequestType<WriteStateFileParams, WriteStateFileResult, void>('paperDigest/workspace/writeStateFile');

/**
 * A hash of a text (FNV-1a over its UTF-16 code units, two 32-bit lanes) with its length, to
 * tell whether a file changed when its time and size did not.
 */
export function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code ^ (a >>> 7), 0x5bd1e995) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}:${text.length}`;
}
