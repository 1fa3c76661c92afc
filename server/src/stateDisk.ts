/**
 * The Node implementation of `StateDisk`: the state file `<folder>/.paper-digest/state.json`,
 * read and replaced with the safe file functions of fs/safeFile.ts (one implementation of the
 * atomic write: a temporary file in the same folder, flushed, given the old file's mode, then
 * renamed over it, and only when the file is still what the store last read). The file is
 * never written through a link: when `.paper-digest` or `state.json` is a symbolic link, or
 * the state folder resolves outside the workspace folder, reading and writing are refused
 * (the store goes read-only). A change holds `state.json.lock` (fs/lockFile.ts) from its read
 * to its rename, so that concurrent writers queue and merge instead of replacing each other's
 * change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, realPathSync } from './fs/contained';
import type { LockOptions } from './fs/lockFile';
import { assertLockHeld, withFileLock, withFileLockSync } from './fs/lockFile';
import type { FileSnapshot } from './fs/safeFile';
import { readFileSnapshotSync, SafeFileError, unreplaceable, writeFileAtomicSync } from './fs/safeFile';
import { message, MessageError, reasonOf } from './service/cliMessages';
import type { MessageRef } from './service/cliMessages';
import type { StateDisk } from './service/reading/stateStore';
import { EMPTY_SETTLE_MS, emptyJustNow, MAX_STATE_BYTES, parseState } from './service/reading/stateFile';
import { emptyOrWhiteSpace } from './service/text';

export { EMPTY_SETTLE_MS } from './service/reading/stateFile';

export const STATE_FOLDER = '.paper-digest';
export const STATE_FILE = 'state.json';
export const INTERESTS_FILE = 'interests.json';

export { MAX_STATE_BYTES };

/** How many times a state file replaced while it was being opened is read (stateDisk's readSnapshot). */
const READ_ATTEMPTS = 5;

/** The decoder of the state folder's files: the BOM kept (their readers read past it), bytes that are not UTF-8 refused. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Points where tests step in. */
export interface StateDiskHooks {
  /** Called after the new text is in the temporary file, just before the check and the rename. */
  beforeCommit?(): void;
  /** Called after the final check, just before the rename. */
  beforeRename?(): void;
  /** How long a write waits for another writer's lock, and when a lock is stale. */
  lock?: LockOptions;
}

/**
 * @example
 * const disk = new NodeStateDisk('/home/me/papers');
 * disk.read();                 // the text of /home/me/papers/.paper-digest/state.json, or undefined
 * disk.write(text, previous);  // false if someone changed it since `previous` was read
 */
export class NodeStateDisk implements StateDisk {
  readonly folder: string;
  readonly file: string;
  /** The last text read and what the file was then, so that a write checks against it. */
  private last: { readonly text: string; readonly snapshot: FileSnapshot } | undefined;
  /** Whether this disk holds the lock now (inside `exclusive`). */
  private locked = false;

  constructor(
    readonly root: string,
    private readonly hooks: StateDiskHooks = {},
    /** The time now, in milliseconds (tests give another). */
    private readonly now: () => number = Date.now,
  ) {
    this.folder = path.join(root, STATE_FOLDER);
    this.file = path.join(this.folder, STATE_FILE);
  }

  get location(): string {
    return this.file;
  }

  /** `StateDisk.settlesAt`, by this machine's clock: the server reads the file again then. */
  settlesAt: number | undefined;

  read(): string | undefined {
    this.settlesAt = undefined;
    this.checkFolder();
    const read = this.readSnapshot();
    this.last = read;
    // A program that rewrites the file in place empties it first: an empty file changed a moment
    // ago is not yet an empty state, which a write would then put over what it writes.
    const justNow = read && emptyJustNow(read.text, read.snapshot.mtimeMs, this.now());
    if (read && justNow) {
      this.settlesAt = read.snapshot.mtimeMs + EMPTY_SETTLE_MS;
      throw new MessageError(justNow);
    }
    return read?.text;
  }

  write(text: string, expected: string | undefined): boolean {
    this.checkFolder();
    let created = false;
    if (expected === undefined) {
      created = !fs.existsSync(this.folder);
      if (created && !fs.existsSync(this.root)) {
        // The workspace folder is gone (moved, deleted, unmounted): not made again at its old
        // place for this one file, where no one would look for it.
        throw new SafeFileError('missing', message('workspaceFolderGone', { root: this.root }));
      }
      try {
        // The state folder only, in the workspace folder that is there.
        fs.mkdirSync(this.folder);
      } catch (error) {
        // Made by another writer meanwhile; anything else is the system's failure.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (created) ownedLikeWorkspace(this.folder, this.root);
      this.checkFolder();
    } else if (!fs.existsSync(this.folder)) {
      // The file was read, and its folder is gone since: it changed.
      return false;
    }
    try {
      // Held from the check against `expected` to the rename, so that two writers (two windows,
      // several CLI runs) never both find the file unchanged and both replace it.
      return this.exclusive(() => this.writeLocked(text, expected));
    } catch (error) {
      // Nothing written (a full disk): the folder this write made goes again, if still empty.
      if (created) {
        try {
          fs.rmdirSync(this.folder);
        } catch {
          // Not empty (another writer's file) or gone: left as it is.
        }
      }
      throw error;
    }
  }

  writeProblem(): MessageRef | undefined {
    // A folder no one may write in, as a file no one may write (`unreplaceable`): refused for
    // every user, whom the system lets write there or not (root may).
    const folder = lstatOrUndefined(this.folder);
    // Not there yet: made in the workspace folder, which must be writable so too.
    const maker = folder ? folder : lstatOrUndefined(this.root);
    if (maker?.isDirectory() && (maker.mode & 0o222) === 0) {
      return message('readOnlyFolder');
    }
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(this.file);
    } catch {
      return undefined; // No file: created when first written.
    }
    if (!stat.isFile()) {
      return undefined; // A link or not a file: the read refuses it.
    }
    const problem = unreplaceable(stat);
    if (problem) {
      return problem;
    }
    try {
      fs.accessSync(this.file, fs.constants.W_OK);
      // The rename replaces the file in its folder: the folder must be writable too.
      fs.accessSync(this.folder, fs.constants.W_OK);
    } catch (error) {
      return reasonOf(error);
    }
    return undefined;
  }

  /** Holds `state.json.lock` while `work` runs (again inside: already held). */
  exclusive<T>(work: () => T): T {
    return this.lockNeeded() ? withFileLockSync(this.file, () => this.holding(work), this.lockOptions()) : work();
  }

  /** `exclusive`, waiting for another holder with timers (the server goes on answering meanwhile); with `once`, not waiting. */
  exclusiveAsync<T>(work: () => T, once = false): Promise<T> {
    return this.lockNeeded() ? withFileLock(this.file, () => this.holding(work), { ...this.lockOptions(), ...(once ? { waitMs: 0 } : {}) }) : Promise.resolve().then(work);
  }

  /** The lock's options: the hooks', and the state folder checked again before each attempt (a link made meanwhile is never written through). */
  private lockOptions(): LockOptions {
    return { ...this.hooks.lock, beforeAttempt: () => this.checkFolder() };
  }

  /**
   * Whether `work` must take the lock: not when this disk holds it already, nor when there is no
   * state folder yet (nothing to lock; the write creates it and locks then), nor when the folder
   * is refused (a link, not a folder, outside the root): the lock is a file in it, and nothing
   * is created, moved or removed there. The read in `work` refuses it and says why.
   */
  private lockNeeded(): boolean {
    if (this.locked || !fs.existsSync(this.folder)) {
      return false;
    }
    try {
      this.checkFolder();
      return true;
    } catch {
      return false;
    }
  }

  private holding<T>(work: () => T): T {
    this.locked = true;
    try {
      return work();
    } finally {
      this.locked = false;
    }
  }

  private writeLocked(text: string, expected: string | undefined): boolean {
    let snapshot: FileSnapshot | null;
    if (expected === undefined) {
      snapshot = null;
    } else if (this.last && this.last.text === expected) {
      snapshot = this.last.snapshot;
    } else {
      // Not what was read last: compare with the file as it is now.
      const now = this.readSnapshot();
      if (now?.text !== expected) {
        return false;
      }
      snapshot = now.snapshot;
    }
    try {
      // Still in the workspace folder at the last moment: no folder on the way turned into a link meanwhile.
      const beforeRename = (): void => {
        this.hooks.beforeRename?.();
        // Still this writer's lock: one broken as stale while this writer stood still (Ctrl-Z) may
        // have let another write the file since the check.
        assertLockHeld(this.file);
      };
      const written = writeFileAtomicSync(this.file, text, { expected: snapshot, beforeCommit: this.hooks.beforeCommit, beforeRename, within: this.pinnedRoot?.path ?? realPathSync(this.root), restorable: wholeStateFile });
      this.last = { text, snapshot: written };
      return true;
    } catch (error) {
      if (error instanceof SafeFileError && error.code === 'changed') {
        this.last = undefined;
        return false;
      }
      throw error;
    }
  }

  /**
   * The file's text and what the file was, undefined when there is none. A file replaced while
   * it was being opened (another writer's rename) is read again, a few times. A file that is not
   * UTF-8 is refused (`SafeFileError`), never decoded with replacement characters, which the next
   * write would put in the place of what it held.
   */
  private readSnapshot(): { text: string; snapshot: FileSnapshot } | undefined {
    for (let attempt = 1; ; attempt++) {
      try {
        const { bytes, snapshot } = readFileSnapshotSync(this.file, { maxBytes: MAX_STATE_BYTES, followSymlinks: false });
        const known = this.last;
        if (known && snapshot.sha256 !== '' && known.snapshot.sha256 === snapshot.sha256 && known.snapshot.size === snapshot.size) {
          // The bytes last read or written (the same SHA-256): their text, not decoded again (some
          // 50 ms a change on a 40 MB state file, and as much garbage).
          return { text: known.text, snapshot };
        }
        let text: string;
        try {
          text = UTF8.decode(bytes);
        } catch {
          throw new SafeFileError('io', message('notUtf8'));
        }
        return { text, snapshot };
      } catch (error) {
        if (error instanceof SafeFileError && error.code === 'missing') {
          return undefined;
        }
        if (error instanceof SafeFileError && error.code === 'changed' && attempt < READ_ATTEMPTS) {
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Refuses a state folder that is a link, is not a folder, or lies outside the workspace
   * folder (a link higher up could lead out of it). The file itself is refused by safeFile.
   */
  private checkFolder(): void {
    this.checkRoot();
    checkStateFolder(this.root, this.folder);
  }

  /**
   * The workspace folder is the one this disk first found, by its identity (device and inode): a
   * folder moved away with a link to another folder, or another folder, put at its path is
   * refused (the state would go to the other folder, the link checked afresh at each write), as
   * a folder gone is. The same folder reached by another real path (a parent moved, a link
   * following it) is still it.
   */
  private checkRoot(): void {
    const real = realPathSync(this.root);
    let stat: fs.Stats | undefined;
    try {
      stat = real === undefined ? undefined : fs.statSync(real);
    } catch {
      stat = undefined;
    }
    if (real === undefined || stat === undefined) {
      // Gone: a read finds no state file, a write refuses (`workspaceFolderGone`).
      return;
    }
    if (this.pinnedRoot && (stat.dev !== this.pinnedRoot.dev || stat.ino !== this.pinnedRoot.ino)) {
      throw new SafeFileError('missing', message('workspaceFolderReplaced', { root: this.root }));
    }
    // The same folder, wherever its path now leads through links (a parent moved and a link
    // following it): its real path as it is now.
    this.pinnedRoot = { path: real, dev: stat.dev, ino: stat.ino };
  }

  /** The workspace folder as first found: its real path and identity (`checkRoot`). */
  private pinnedRoot: { readonly path: string; readonly dev: number; readonly ino: number } | undefined;
}

/**
 * Throws a `SafeFileError` when the state folder `<root>/.paper-digest` is a link, not a folder,
 * or lies outside the root; nothing when it is there as it should be or is not there at all.
 */
export function checkStateFolder(root: string, folder: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(folder);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) {
    throw new SafeFileError('symlink', message('linkNotFollowed', { path: folder }));
  }
  if (!stat.isDirectory()) {
    throw new SafeFileError('not-regular', message('notAFolderPath', { path: folder }));
  }
  const realRoot = realPathSync(root);
  const realFolder = realPathSync(folder);
  if (!realRoot || !realFolder || !isInside(realRoot, realFolder)) {
    throw new SafeFileError('symlink', message('liesOutside', { path: folder, root }));
  }
}

/**
 * The text of `<root>/.paper-digest/interests.json`, undefined when there is none, or why it
 * cannot be used: a link, not a regular file, over 1 MB, unreadable or not UTF-8, or in a state
 * folder that is a link or lies outside the root (`checkStateFolder`, as for the state file).
 */
export function readInterestsFile(root: string): { readonly text: string } | { readonly problem: MessageRef } | undefined {
  const folder = path.join(root, STATE_FOLDER);
  const file = path.join(folder, INTERESTS_FILE);
  try {
    checkStateFolder(root, folder);
    const bytes = readFileSnapshotSync(file, { maxBytes: 1024 * 1024, followSymlinks: false, hash: false }).bytes;
    return { text: UTF8.decode(bytes) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof SafeFileError ? error.code === 'missing' : code === 'ENOENT' || code === 'ENOTDIR') {
      return undefined;
    }
    return { problem: message('interestsCannotRead', { path: file, reason: error instanceof TypeError ? message('notUtf8') : reasonOf(error) }) };
  }
}

/**
 * Whether bytes are a whole state file that can be used (safeFile.ts `restorable`): not empty (a
 * writer rewriting the file in place empties it first) and read as a state. A part of one, being
 * written, is not put back over this writer's whole file; it is kept beside it.
 */
export function wholeStateFile(bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes.length > MAX_STATE_BYTES) return false;
  const text = bytes.toString('utf8');
  // White space alone (a line end, a BOM) is as empty: what such a writer has written first.
  return !emptyOrWhiteSpace(text) && 'state' in parseState(text);
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * A state folder made by root in someone's workspace folder: given the workspace folder's owner
 * and group, so that its owner may write it later (its files get the folder's, safeFile.ts).
 * Nothing for any other user (who cannot give files away, and makes them its own).
 */
function ownedLikeWorkspace(folder: string, root: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  try {
    const workspace = fs.statSync(root);
    if (workspace.uid !== 0 || workspace.gid !== 0) fs.chownSync(folder, workspace.uid, workspace.gid);
  } catch {
    // Kept as made.
  }
}
