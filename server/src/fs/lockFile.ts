/**
 * An exclusive lock between processes, held for the moment of a read, a merge and a write:
 * `<file>.lock` is created with O_EXCL and holds the owner's process id (then a random token); it is removed when the
 * work is done. A lock whose owner is gone (killed in the middle of a write) or that is older
 * than `staleMs` is broken. Writers of the same file that all take the lock cannot both pass
 * "the file is still what I read" and then both rename over it, so no change is lost.
 *
 * Waiting is a few milliseconds between attempts, up to `waitMs`, then a `SafeFileError` (code
 * `io`) saying the file is locked: with `Atomics.wait` on the command line (`withFileLockSync`),
 * with timers in the server (`withFileLock`), which goes on answering meanwhile.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { message } from '../service/cliMessages';
import { processAlive, readFileSnapshotSync, SafeFileError } from './safeFile';

export interface LockOptions {
  /** How long to wait for another holder (default 10 s). */
  readonly waitMs?: number;
  /** A lock older than this is taken to be left over by a writer that died (default 60 s). */
  readonly staleMs?: number;
  /**
   * Called before each attempt to take the lock (or to break a stale one); throws to give up: the
   * lock's folder checked again after each wait, since it may have become a link meanwhile.
   */
  readonly beforeAttempt?: () => void;
}

/**
 * The locks this process holds, by the file they guard: what the lock file was when taken (`identity`).
 * A writer that stood still past `staleMs` (stopped with Ctrl-Z, a laptop asleep) may find its lock
 * broken and another writer's in its place: `assertLockHeld` tells it before it renames, and its
 * release leaves the other writer's lock alone.
 */
const held = new Map<string, string[]>();

/**
 * What a lock file is: its inode and its text, which holds the owner's pid and a random token (an
 * inode number alone is handed out again to the next file made after one is removed; its change
 * time moves when a writer that moved it aside by mistake puts it back).
 */
function identity(lock: string): string | undefined {
  try {
    const ino = fs.lstatSync(lock).ino;
    const text = readSmall(lock);
    return text === undefined ? undefined : `${ino}:${text}`;
  } catch {
    return undefined;
  }
}

/** The text of a lock this process takes: its pid (what other writers read), a random token, and where its pid means something (`machine`). */
function lockText(): string {
  return `${process.pid}\n${randomBytes(8).toString('hex')}\n${machine()}\n`;
}

let machineName: string | undefined;

/**
 * The machine a pid is of: the host's name, and on Linux the process-id namespace (a container
 * with the host's name still numbers its processes apart: a pid of one means nothing in another).
 */
export function machine(): string {
  if (machineName === undefined) {
    let namespace = '';
    try {
      namespace = ` ${fs.readlinkSync('/proc/self/ns/pid')}`;
    } catch {
      // Not Linux: the host's name alone.
    }
    machineName = `${os.hostname()}${namespace}`;
  }
  return machineName;
}

/**
 * Whether the owner of a lock, as its text names it, is a process still running on this machine
 * that was started before the lock was written (a process given the pid of a dead writer later is
 * not its owner; that is told on Linux, from /proc). A lock of another machine (another `machine()`
 * on its third line: a shared folder, or a container), or of this process, is never judged alive
 * here: its age tells. A lock without that line is taken to be of this machine.
 */
export function lockOwnerRunning(text: string | undefined, lockMtimeMs: number): 'running' | 'gone' | 'unknown' {
  const [pidLine, , host] = (text ?? '').split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || (host !== undefined && host !== '' && host !== machine())) {
    return 'unknown';
  }
  if (!processAlive(pid)) {
    return 'gone';
  }
  const started = processStartMs(pid);
  // Started well after the lock was written: not the writer that wrote it.
  return started !== undefined && started > lockMtimeMs + 2_000 ? 'gone' : 'running';
}

/** When a process started (ms since the epoch), on Linux; undefined elsewhere or when it cannot be read. */
function processStartMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The fields after the command's name (which may hold spaces and brackets): the 20th of them is the start, in clock ticks since boot.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const boot = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'))?.[1];
    // USER_HZ is 100 on Linux whatever the kernel's tick.
    return Number.isFinite(ticks) && boot !== undefined ? Number(boot) * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Throws a `SafeFileError` (code `io`) when the lock of `file` this process took is no longer its
 * own: another writer broke it as stale meanwhile, and may have written the file since. Nothing
 * when this process holds no lock of that file.
 *
 * @example
 * withFileLockSync(file, () => writeFileAtomicSync(file, text, { beforeRename: () => assertLockHeld(file) }));
 */
export function assertLockHeld(file: string): void {
  const taken = held.get(file);
  if (!taken || taken.length === 0) {
    return;
  }
  // Gone (broken, and maybe released by the writer that broke it), or another writer's.
  if (identity(`${file}.lock`) !== taken[taken.length - 1]) {
    throw new SafeFileError('io', message('lockLost', { path: file }));
  }
}

/** Made on the first wait: a browser worker (where this module is bundled but never waits) has no SharedArrayBuffer. */
let pauseCell: Int32Array | undefined;

function sleepSync(ms: number): void {
  pauseCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(pauseCell, 0, 0, ms);
}

/**
 * Runs `work` while holding `<file>.lock`, waiting synchronously for another holder (the
 * command line, which has nothing else to do meanwhile).
 *
 * @example
 * withFileLockSync('/w/.paper-digest/state.json', () => { check(); fs.renameSync(temporary, file); });
 */
export function withFileLockSync<T>(file: string, work: () => T, options: LockOptions = {}): T {
  const waits = acquire(file, options);
  for (let next = waits.next(); !next.done; next = waits.next()) {
    sleepSync(next.value);
  }
  return holding(file, work);
}

/**
 * `withFileLockSync`, waiting for another holder with timers: a server answers its other
 * requests meanwhile instead of stopping for as long as the lock is held (up to `waitMs`).
 *
 * @example
 * await withFileLock('/w/.paper-digest/state.json', () => store.changeNow());
 */
export async function withFileLock<T>(file: string, work: () => T, options: LockOptions = {}): Promise<T> {
  const waits = acquire(file, options);
  for (let next = waits.next(); !next.done; next = waits.next()) {
    await new Promise((resolve) => setTimeout(resolve, next.value as number));
  }
  return holding(file, work);
}

/**
 * Takes `<file>.lock`: each value yielded is how long to wait (ms) before the next attempt; done
 * once the lock is held. Throws a `SafeFileError` when the wait runs out.
 */
function* acquire(file: string, options: LockOptions): Generator<number, void> {
  const lock = `${file}.lock`;
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 60_000;
  const deadline = Date.now() + waitMs;
  let pause = 1;
  // Tries after the wait ran out, each right after breaking a stale lock (a lock whose writer
  // died is free, even for a writer that waits no time): a few (`MAX_TRIES_AFTER_BREAKING`),
  // never without end.
  let triesAfterBreaking = 0;
  for (;;) {
    options.beforeAttempt?.();
    if (tryCreate(lock)) {
      // A list: a writer of this process may take the lock another one of it lost (tests do).
      const taken = held.get(file) ?? [];
      // Undefined when broken at once: the write finds it so.
      taken.push(identity(lock) ?? '');
      held.set(file, taken);
      return;
    }
    const broken = breakIfStale(lock, staleMs, file);
    // Checked after every attempt, so that no lock, however odd, keeps a writer past its wait
    // (but for the few tries right after breaking one).
    if (Date.now() >= deadline && !(broken && triesAfterBreaking++ < MAX_TRIES_AFTER_BREAKING)) {
      throw new SafeFileError('io', message('lockHeld', { path: file, lock }));
    }
    if (!broken) {
      yield pause;
      pause = Math.min(pause * 2, 20);
    }
  }
}

/** How many times a writer whose wait ran out tries again right after breaking a stale lock. */
const MAX_TRIES_AFTER_BREAKING = 3;

/** Runs `work` with the lock held, and releases it (if it is still this writer's). */
function holding<T>(file: string, work: () => T): T {
  try {
    return work();
  } finally {
    const taken = held.get(file);
    const mine = taken?.pop();
    if (taken?.length === 0) held.delete(file);
    try {
      // Not another writer's lock, taken after this one was broken as stale.
      if (identity(`${file}.lock`) === mine) fs.unlinkSync(`${file}.lock`);
    } catch {
      // Already gone (broken as stale by someone else): nothing to release.
    }
  }
}

/**
 * Takes the lock with the owner's pid already in it: the pid is written to a file of this
 * writer's own, which is then hard-linked to the lock's name (atomic, and refused when the lock
 * exists), so that a writer killed while taking the lock never leaves an empty lock that others
 * could judge by its age alone. Where the file system has no hard links, the lock is created
 * exclusively and the pid written into it.
 */
function tryCreate(lock: string): boolean {
  const own = `${lock}.${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    fs.writeFileSync(own, lockText(), { flag: 'wx', mode: 0o600 });
  } catch {
    // Created but not written (a full disk): not left behind.
    fs.rmSync(own, { force: true });
    return tryCreateExclusive(lock);
  }
  try {
    fs.linkSync(own, lock);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      return false;
    }
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV') {
      return tryCreateExclusive(lock);
    }
    throw error;
  } finally {
    fs.rmSync(own, { force: true });
  }
}

function tryCreateExclusive(lock: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw error;
  }
  try {
    fs.writeSync(fd, lockText());
  } catch (error) {
    // Not written (a full disk): an empty lock would hold up every writer until it is stale.
    fs.closeSync(fd);
    fs.rmSync(lock, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return true;
}

/**
 * Removes the lock if its owner is gone or it is too old. The lock is first moved aside and
 * checked to be the one judged stale; a fresh lock taken meanwhile by another writer is put back.
 */
function breakIfStale(lock: string, staleMs: number, file: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(lock);
  } catch {
    // Released meanwhile: try again at once.
    return true;
  }
  if (!stat.isFile()) {
    // A folder, a link, a FIFO: never made by a writer, never released, and not to be read.
    throw new SafeFileError('not-regular', message('lockNotAFile', { lock, path: file }));
  }
  // The owner, when the lock can be read: else (another user's lock) it is judged by age. An
  // empty lock is one being created this instant: judged by age alone. A writer of this machine
  // that is still running holds its lock however long it stands still (stopped with Ctrl-Z): broken,
  // it would rename over the file of the writer that broke it, after its last check.
  const text = readSmall(lock);
  const owner = lockOwnerRunning(text, stat.mtimeMs);
  if (owner === 'running' || (owner === 'unknown' && Date.now() - stat.mtimeMs < staleMs)) {
    return false;
  }
  const aside = `${lock}.stale-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    fs.renameSync(lock, aside);
  } catch (error) {
    // Released meanwhile: try again at once; not to be moved (a folder this writer cannot
    // change): held, until the wait runs out.
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    // The lock judged, by its inode, its modification time and its text (pid and random token):
    // a file system hands a freed inode number to the next file made, which may be another
    // writer's fresh lock, made between the look at the lock and the read of its text too (and
    // another user's lock cannot be read: its time tells it).
    const moved = fs.lstatSync(aside);
    if (moved.ino !== stat.ino || moved.mtimeMs !== stat.mtimeMs || readSmall(aside) !== text) {
      // Not the stale lock: a writer's fresh one. Give it back unless the place is taken again.
      try {
        fs.linkSync(aside, lock);
      } catch {
        // Someone holds the lock now; the moved one's owner finds it gone when it releases.
      }
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
  return true;
}

/**
 * The text of a lock (its owner's pid), read as every file is (safeFile.ts): a regular file only,
 * never through a link, never waiting on a FIFO put in its place meanwhile, at most 4 KB;
 * undefined when it cannot be read so.
 */
function readSmall(lock: string): string | undefined {
  try {
    return readFileSnapshotSync(lock, { maxBytes: 4096, followSymlinks: false, hash: false }).bytes.toString('latin1');
  } catch {
    return undefined;
  }
}
