/**
 * The client's side of stateFilesProtocol.ts, over a small file system interface that the web
 * client fills with `vscode.workspace.fs` (client/src/stateFiles.ts) and the unit tests with an
 * in-memory one: only `.paper-digest/state.json` and `.paper-digest/interests.json` inside a
 * workspace folder are read or written, never through a symbolic link, and a write replaces the
 * file only while it is still the version the server read (time, size and text hash), by a
 * temporary file in the same folder renamed over it (a direct write of the whole file where the
 * file system cannot rename), checked again just before the rename.
 */
import type { ReadStateFileResult, StateFileProblemResult, StateFileVersion, WriteStateFileResult } from './stateFilesProtocol';
import { textHash } from './stateFilesProtocol';

export interface StateFsStat {
  readonly kind: 'file' | 'folder' | 'link' | 'other';
  readonly mtime: number;
  readonly size: number;
}

/** What the access needs of a file system (URIs as strings). */
export interface StateFs {
  /** Whether the URI lies in a workspace folder. */
  inWorkspace(uri: string): boolean;
  /** undefined when it does not exist. */
  stat(uri: string): Promise<StateFsStat | undefined>;
  readFile(uri: string): Promise<Uint8Array>;
  writeFile(uri: string, bytes: Uint8Array): Promise<void>;
  /** Renames over an existing file. */
  rename(from: string, to: string): Promise<void>;
  delete(uri: string): Promise<void>;
  createDirectory(uri: string): Promise<void>;
}

const NAMES = new Set(['state.json', 'interests.json']);
/** Fatal: a file that is not UTF-8 is refused, never read with replacement characters and written back so. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
const encoder = new TextEncoder();

/** The folder and name of a state file URI, when it is one. */
function stateFileParts(uri: unknown): { folder: string; name: string } | undefined {
  if (typeof uri !== 'string') {
    return undefined;
  }
  const match = /^(.+\/\.paper-digest)\/([^/]+)$/.exec(uri);
  return match && NAMES.has(match[2]) ? { folder: match[1], name: match[2] } : undefined;
}

type Current = { readonly missing: true } | { readonly text: string; readonly version: StateFileVersion } | StateFileProblemResult;

async function readCurrent(fs: StateFs, uri: string, maxBytes: number): Promise<Current> {
  const parts = stateFileParts(uri);
  if (!parts || !fs.inWorkspace(uri)) {
    return { problem: 'outside', message: `${String(uri)} is not a state file of a workspace folder`, at: String(uri) };
  }
  const folder = await fs.stat(parts.folder);
  if (folder?.kind === 'link') {
    return { problem: 'link', message: `${parts.folder} is a symbolic link, which Paper Digest does not follow`, at: parts.folder };
  }
  if (folder && folder.kind !== 'folder') {
    return { problem: 'not-file', message: `${parts.folder} is not a folder`, at: parts.folder };
  }
  const stat = folder ? await fs.stat(uri) : undefined;
  if (!stat) {
    return { missing: true };
  }
  if (stat.kind === 'link') {
    return { problem: 'link', message: `${uri} is a symbolic link, which Paper Digest does not follow`, at: uri };
  }
  if (stat.kind !== 'file') {
    return { problem: 'not-file', message: `${uri} is not a regular file`, at: uri };
  }
  if (stat.size > maxBytes) {
    return { problem: 'too-big', message: `${uri} is bigger than ${maxBytes} bytes`, at: uri };
  }
  const bytes = await fs.readFile(uri);
  if (bytes.byteLength > maxBytes) {
    return { problem: 'too-big', message: `${uri} is bigger than ${maxBytes} bytes`, at: uri };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { problem: 'not-utf8', message: `${uri} cannot be read (it is not UTF-8 text)`, at: uri };
  }
  return { text, version: { mtime: stat.mtime, size: stat.size, hash: textHash(text) } };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function readStateFile(fs: StateFs, uri: string, maxBytes: number): Promise<ReadStateFileResult> {
  try {
    return await readCurrent(fs, uri, maxBytes);
  } catch (error) {
    return { problem: 'unreadable', message: `${String(uri)} cannot be read (${describe(error)})`, at: String(uri), detail: describe(error) };
  }
}

function sameVersion(current: Current, expected: StateFileVersion | null): boolean {
  if (expected === null || typeof expected !== 'object') {
    return 'missing' in current;
  }
  return 'version' in current && current.version.mtime === expected.mtime && current.version.size === expected.size && current.version.hash === expected.hash;
}

/**
 * Whether the file is still as `current` saw it: read again, its time, size and the hash of its
 * text the same (a file system's times may be too coarse to tell a change of the same size);
 * missing stays missing.
 */
async function unchangedSince(fs: StateFs, uri: string, current: Current): Promise<boolean> {
  const now = await readCurrent(fs, uri, Number.MAX_SAFE_INTEGER);
  return sameVersion(now, 'version' in current ? current.version : null) && !('problem' in now) && ('missing' in current) === ('missing' in now);
}

/** Hooks for tests: called after the temporary file is written, before the last check. */
export interface StateWriteHooks {
  beforeCommit?(): Promise<void> | void;
}

let temporaryCount = 0;

export async function writeStateFile(fs: StateFs, uri: string, text: string, expected: StateFileVersion | null, hooks: StateWriteHooks = {}): Promise<WriteStateFileResult> {
  const parts = stateFileParts(uri);
  if (!parts || parts.name !== 'state.json' || typeof text !== 'string') {
    return { written: false, problem: 'outside', message: `${String(uri)} is not a state file Paper Digest writes`, at: String(uri) };
  }
  let current: Current;
  try {
    current = await readCurrent(fs, uri, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    return { written: false, problem: 'unreadable', message: `${uri} cannot be read (${describe(error)})`, at: uri, detail: describe(error) };
  }
  if ('problem' in current) {
    return { written: false, ...current };
  }
  if (!sameVersion(current, expected)) {
    return { written: false, changed: true };
  }
  const bytes = encoder.encode(text);
  const temporary = `${parts.folder}/.state.json.${Date.now().toString(36)}${(temporaryCount++).toString(36)}.tmp`;
  let created = false;
  try {
    if (!(await fs.stat(parts.folder))) {
      // In the workspace folder that is there: one gone (moved, deleted) is not made again for this file.
      const root = parts.folder.slice(0, parts.folder.lastIndexOf('/'));
      if (!(await fs.stat(root))) {
        return { written: false, problem: 'folder-gone', message: `${uri} could not be written (its workspace folder ${root} is gone)`, at: root };
      }
      await fs.createDirectory(parts.folder);
      created = true;
    }
    await fs.writeFile(temporary, bytes);
  } catch (error) {
    await fs.delete(temporary).catch(() => undefined);
    // Nothing written (a full disk): the folder this write made goes again (not when another
    // file is in it by now: a folder is deleted only when empty).
    if (created) await fs.delete(parts.folder).catch(() => undefined);
    return { written: false, problem: 'unwritable', message: `${uri} could not be written (${describe(error)})`, at: uri, detail: describe(error) };
  }
  try {
    await hooks.beforeCommit?.();
    if (!(await unchangedSince(fs, uri, current))) {
      await fs.delete(temporary).catch(() => undefined);
      return { written: false, changed: true };
    }
    try {
      await fs.rename(temporary, uri);
    } catch {
      // A file system that cannot rename over a file: the whole file written in one call instead.
      await fs.delete(temporary).catch(() => undefined);
      if (!(await unchangedSince(fs, uri, current))) {
        return { written: false, changed: true };
      }
      await fs.writeFile(uri, bytes);
    }
    const stat = await fs.stat(uri);
    return { written: true, version: { mtime: stat?.mtime ?? 0, size: stat?.size ?? bytes.byteLength, hash: textHash(text) } };
  } catch (error) {
    await fs.delete(temporary).catch(() => undefined);
    return { written: false, problem: 'unwritable', message: `${uri} could not be written (${describe(error)})`, at: uri, detail: describe(error) };
  }
}
