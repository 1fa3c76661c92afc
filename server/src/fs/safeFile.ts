/**
 * Reading and writing files so that nothing is lost and nothing hangs:
 *
 * - `readFileSnapshot` / `readFileSnapshotSync` read regular files only. The path is looked at
 *   (lstat, then stat) before anything is opened, so a FIFO, a socket, a device or a link to
 *   one is refused without blocking; the size is checked against a cap first; the file is
 *   opened non-blocking and checked again on the open descriptor. The result carries a
 *   snapshot of what was read (identity, size, time, mode, owner, a hash of the bytes).
 * - `writeFileAtomicSync` writes a temporary file in the same folder, flushes it, gives it the
 *   original's mode (and owner, where the process may), checks that the target still is what
 *   was read (`expected`) and still in its folder (`within`), then renames the temporary file
 *   over the target, holding the target open meanwhile so that a change written into it in
 *   that instant is put back, not lost. A write that fails midway leaves the target as it
 *   was; a target someone changed meanwhile is left alone; a target that is a symbolic link is
 *   never written through. `writeFileAtomic` does the same with the temporary file written
 *   and flushed without blocking the event loop (the server's kept index, megabytes at a time);
 *   the checks and the rename are the same code, run at once.
 *
 * Every failure is a `SafeFileError` with a `code` and a message of the message table
 * (`ref`, service/fileMessages.ts) that reads well after "cannot read 'x': " or "cannot write
 * 'x': " in English and in Chinese; its `message` is the English.
 *
 * @example
 * const { bytes, snapshot } = readFileSnapshotSync('/w/a.digest');
 * writeFileAtomicSync('/w/a.digest', fixed(bytes), { expected: snapshot }); // throws code 'changed' if edited meanwhile
 * writeFileAtomicSync('/w/.paper-digest/state.json', json, { expected: null }); // only if it does not exist yet
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { CliMessageKey, message, MessageError, MessageRef, reasonOf } from '../service/cliMessages';
import { emptyOrWhiteSpace } from '../service/text';
import { isInside, realPathSync } from './contained';

/** The size above which a digest is not read: 32 MB. */
export const MAX_DIGEST_BYTES = 32 * 1024 * 1024;

export type SafeFileErrorCode =
  /** The file (or a folder on its path) does not exist. */
  | 'missing'
  /** A folder, FIFO, socket, device or anything else that is not a regular file. */
  | 'not-regular'
  /** Bigger than the cap. */
  | 'too-big'
  /** A symbolic link where links are not followed (and never for writing). */
  | 'symlink'
  /** The file changed since it was read (or appeared, when it was expected not to exist). */
  | 'changed'
  /** Any other failure of the system: permissions, a full disk, a file-size limit. */
  | 'io';

export class SafeFileError extends MessageError {
  constructor(
    readonly code: SafeFileErrorCode,
    reason: MessageRef,
    /** The system error behind an `io` or `missing` failure. */
    readonly errno?: NodeJS.ErrnoException,
  ) {
    super(reason);
    this.name = 'SafeFileError';
  }
}

/** What a file was when it was read; `writeFileAtomicSync` compares the file with it. */
export interface FileSnapshot {
  /** The path as given to the read. */
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** The time of the inode's last change (a write, a rename, a change of mode). */
  readonly ctimeMs: number;
  /** The permission bits (`mode & 0o7777`). */
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  /** SHA-256 of the bytes read, hex. */
  readonly sha256: string;
}

export interface ReadOptions {
  /** Bigger files are refused with `too-big` (default `MAX_DIGEST_BYTES`). */
  readonly maxBytes?: number;
  /** Whether a symbolic link is followed (default true); false refuses it with `symlink`. */
  readonly followSymlinks?: boolean;
  /** Whether the snapshot's `sha256` is worked out (default true); false leaves it empty. */
  readonly hash?: boolean;
}

export interface ReadResult {
  readonly bytes: Buffer;
  /** The file after the read. */
  readonly snapshot: FileSnapshot;
  /**
   * Whether the file's size and times were the same when it was opened as after the read: if
   * not, it was written meanwhile, and the bytes may be of neither version.
   */
  readonly steady: boolean;
}

/** Whether two stats of one open file show no write between them. */
function sameStat(a: fs.Stats, b: fs.Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

export interface WriteOptions {
  /**
   * What the target must still be: the snapshot it was read as (a changed file is refused with
   * `changed`), `null` when it must not exist yet, or undefined to replace whatever is there.
   */
  readonly expected?: FileSnapshot | null;
  /** The mode of a new file (default 0o666 less the umask); an existing file keeps its own. */
  readonly mode?: number;
  /**
   * Called after the temporary file is written, just before the check and the rename (tests; the
   * kept index, to check that the file there is still one it may replace): throwing stops the write.
   */
  readonly beforeCommit?: () => void;
  /** Called after the final check, just before the rename; for tests. */
  readonly beforeRename?: () => void;
  /** Called just after the rename; for tests. */
  readonly afterRename?: () => void;
  /**
   * A real folder the file must still be in at the final check: a folder on its path turned into
   * a link out of it since the file was found (a rename and a link in its place) is refused.
   */
  readonly within?: string;
  /**
   * Whether a version another writer wrote into the target in the instant of the rename may be
   * put back in its place (by default any). A state file's must be whole: a writer that rewrites
   * it in place empties it first, and what was read of it then is a part; such a version is kept
   * beside the file instead, which keeps this write's whole one.
   */
  readonly restorable?: (bytes: Buffer) => boolean;
  /** Whether the returned snapshot's `sha256` is worked out (default true); false leaves it empty. */
  readonly hash?: boolean;
  /**
   * Whether another process has the target (its device and inode) open for writing: such a
   * target is refused (`changed`) at the final check. A program that writes a file in place over
   * seconds (empties it, writes a part, then the rest) would write the rest into the file this
   * write replaced, which no name leads to any more: its end lost. `check --fix` gives it
   * (`filesOpenForWriting`, read once a run).
   */
  readonly openForWriting?: (dev: number, ino: number) => boolean;
  /**
   * Told the temporary file's path as it is made, and undefined once it is renamed into place or
   * removed: who may have to remove it should the process stop meanwhile (`writeFileAtomic`).
   */
  readonly temporary?: (path: string | undefined) => void;
}

/** What a non-regular file is, as a message (`a FIFO`, `FIFO（命名管道）`). */
export function describeKind(stat: fs.Stats): MessageRef {
  let key: CliMessageKey = 'kindOther';
  if (stat.isDirectory()) key = 'kindFolder';
  else if (stat.isFIFO()) key = 'kindFifo';
  else if (stat.isSocket()) key = 'kindSocket';
  else if (stat.isCharacterDevice()) key = 'kindCharacterDevice';
  else if (stat.isBlockDevice()) key = 'kindBlockDevice';
  else if (stat.isSymbolicLink()) key = 'kindLink';
  return message(key);
}

function systemError(error: unknown): SafeFileError {
  if (error instanceof SafeFileError) {
    return error;
  }
  const errno = error as NodeJS.ErrnoException;
  const code = errno?.code === 'ENOENT' || errno?.code === 'ENOTDIR' ? 'missing' : 'io';
  return new SafeFileError(code, reasonOf(error), errno);
}

/**
 * A size in MB to one decimal, or, where that reads as the limit it is compared with, in bytes
 * (`33,554,433 B`, not a `32 MB` said to be bigger than 32 MB).
 *
 * @example megabytes(33554433, 33554432) // '33,554,433 B'
 */
function megabytes(bytes: number, limit?: number): string {
  const shown = `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return limit !== undefined && bytes !== limit && shown === megabytes(limit) ? `${bytes.toLocaleString('en-US')} B` : shown;
}

/** The checks made on the path before it is opened: regular, not too big, link allowed. */
function checkBeforeOpen(link: fs.Stats, target: fs.Stats | undefined, options: ReadOptions): fs.Stats {
  if (link.isSymbolicLink() && options.followSymlinks === false) {
    throw new SafeFileError('symlink', message('isLink'));
  }
  const stat = target ?? link;
  if (!stat.isFile()) {
    throw new SafeFileError('not-regular', link.isSymbolicLink() ? message('linkTo', { kind: describeKind(stat) }) : message('notRegular', { kind: describeKind(stat) }));
  }
  const max = options.maxBytes ?? MAX_DIGEST_BYTES;
  if (stat.size > max) {
    throw new SafeFileError('too-big', message('tooBig', { max: megabytes(max), size: megabytes(stat.size, max) }));
  }
  return stat;
}

/** The checks made on the open descriptor: still the same regular file. */
function checkOpened(stat: fs.Stats, opened: fs.Stats): void {
  if (!opened.isFile()) {
    throw new SafeFileError('not-regular', message('notRegular', { kind: describeKind(opened) }));
  }
  if (opened.dev !== stat.dev || opened.ino !== stat.ino) {
    throw new SafeFileError('changed', message('replacedWhileOpened'));
  }
}

const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function snapshotOf(file: string, stat: fs.Stats, bytes: Uint8Array | readonly Uint8Array[], hash = true): FileSnapshot {
  let sha256 = '';
  if (hash) {
    const digest = createHash('sha256');
    for (const piece of pieces(bytes)) digest.update(piece);
    sha256 = digest.digest('hex');
  }
  return {
    path: file,
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
    mode: stat.mode & 0o7777,
    uid: stat.uid,
    gid: stat.gid,
    sha256,
  };
}

/** Bytes given whole or in pieces, as pieces. */
function pieces(bytes: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  return bytes instanceof Uint8Array ? [bytes] : bytes;
}

/**
 * A file read whole into one buffer of the size it had when opened (and a byte more, where the
 * read that finds its end goes), grown only if the file grew meanwhile, never past `max` bytes (a
 * read past it throws): no buffer of each megabyte and then a copy of them all, twice the file's
 * size in memory for a moment (a state file of 40 MB is read three times at each change).
 *
 * @example
 * const reading = new WholeRead(stat.size, max);
 * for (let read; (read = fs.readSync(fd, reading.room())) > 0; ) reading.took(read);
 * reading.bytes();
 */
export class WholeRead {
  private buffer: Buffer;
  private total = 0;

  constructor(
    size: number,
    private readonly max: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(1, Math.min(Math.max(size, 0), max) + 1));
  }

  /** Where the next read goes: the room left, grown when there is none. */
  room(): Buffer {
    if (this.total === this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.max + 1));
      this.buffer.copy(grown, 0, 0, this.total);
      this.buffer = grown;
    }
    return this.buffer.subarray(this.total);
  }

  /** Counts the bytes a read put into `room()`; past `max` in all, the file is too big. */
  took(read: number): void {
    this.total += read;
    if (this.total > this.max) throw tooBigWhileReading(this.max);
  }

  /** The bytes read. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.total);
  }
}

function tooBigWhileReading(max: number): SafeFileError {
  return new SafeFileError('too-big', message('grewTooBig', { max: megabytes(max) }));
}

/**
 * Reads a regular file and a snapshot of it, or throws a `SafeFileError`. Never opens anything
 * but a regular file, never reads more than the cap.
 *
 * @example
 * readFileSnapshotSync('/w/fifo.digest') // throws SafeFileError { code: 'not-regular', message: 'it is a FIFO, not a regular file', ref: { key: 'notRegular', ... } }
 */
export function readFileSnapshotSync(file: string, options: ReadOptions = {}): ReadResult {
  const max = options.maxBytes ?? MAX_DIGEST_BYTES;
  let fd: number | undefined;
  try {
    const link = fs.lstatSync(file);
    const stat = checkBeforeOpen(link, link.isSymbolicLink() && options.followSymlinks !== false ? fs.statSync(file) : undefined, options);
    fd = fs.openSync(file, READ_FLAGS | (options.followSymlinks === false ? NOFOLLOW : 0));
    const opened = fs.fstatSync(fd);
    checkOpened(stat, opened);
    const reading = new WholeRead(opened.size, max);
    for (;;) {
      const into = reading.room();
      const read = fs.readSync(fd, into, 0, into.length, null);
      if (read === 0) break;
      reading.took(read);
    }
    const bytes = reading.bytes();
    const after = fs.fstatSync(fd);
    return { bytes, snapshot: snapshotOf(file, after, bytes, options.hash !== false), steady: sameStat(opened, after) };
  } catch (error) {
    throw systemError(error);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** `readFileSnapshotSync`, without blocking the event loop. */
export async function readFileSnapshot(file: string, options: ReadOptions = {}): Promise<ReadResult> {
  const max = options.maxBytes ?? MAX_DIGEST_BYTES;
  let handle: fsp.FileHandle | undefined;
  try {
    const link = await fsp.lstat(file);
    const stat = checkBeforeOpen(link, link.isSymbolicLink() && options.followSymlinks !== false ? await fsp.stat(file) : undefined, options);
    handle = await fsp.open(file, READ_FLAGS | (options.followSymlinks === false ? NOFOLLOW : 0));
    const opened = await handle.stat();
    checkOpened(stat, opened);
    const reading = new WholeRead(opened.size, max);
    for (;;) {
      const into = reading.room();
      const { bytesRead } = await handle.read(into, 0, into.length, null);
      if (bytesRead === 0) break;
      reading.took(bytesRead);
    }
    const bytes = reading.bytes();
    const after = await handle.stat();
    return { bytes, snapshot: snapshotOf(file, after, bytes, options.hash !== false), steady: sameStat(opened, after) };
  } catch (error) {
    throw systemError(error);
  } finally {
    await handle?.close();
  }
}

/**
 * The temporary file's name: hidden, next to the target, unique, and marked as this project's
 * (`.<name>.paper-digest-<pid>.<hex>.tmp`): the leftovers of a writer that was killed are removed
 * by that mark only, never another program's temporary file named alike.
 */
function temporaryPath(file: string): string {
  return path.join(path.dirname(file), `.${nameStem(path.basename(file))}.${TEMPORARY_MARK}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** What this project's temporary files have before the writer's process id. */
const TEMPORARY_MARK = 'paper-digest-';

/**
 * A file name as the start of the name of a file made beside it (its temporary file, a copy of
 * a conflicting version): at most 180 bytes of UTF-8, so that what is added stays within the
 * 255 bytes most file systems allow a name (a digest named with 80 Chinese characters is 247).
 */
function nameStem(name: string): string {
  if (Buffer.byteLength(name, 'utf8') <= 180) {
    return name;
  }
  let stem = '';
  let bytes = 0;
  for (const character of name) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > 180) break;
    stem += character;
  }
  return stem;
}

/** The folders whose left temporary files this process has looked for: once each. */
const SWEPT_FOLDERS = new Set<string>();

/** The largest process id a temporary file's name is taken to hold (Linux's highest `pid_max`). */
const MAX_PROCESS_ID = 4_194_304;

/** A temporary file younger than this may be another machine's write in progress (a shared folder). */
const LEFT_TEMPORARY_AGE_MS = 10 * 60_000;

/**
 * What a writer of `name` that was stopped midway may leave in its folder, with its process id: a
 * temporary file of a write of this project's (`.<any name>.paper-digest-<pid>.<hex>.tmp`; another
 * program's `.<name>.<pid>.<hex>.tmp` is not one), and the pieces of a lock of that file
 * (lockFile.ts): the writer's own file before it becomes the lock (`<name>.lock.<pid>-<random>`)
 * and a stale lock moved aside to be removed (`<name>.lock.stale-<pid>-<random>`). Another file
 * named like a lock piece (`yarn.lock.2024-backup`) is not one.
 */
function leftBehind(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:\\..+\\.${TEMPORARY_MARK}(\\d{1,7})\\.[0-9a-f]{8}\\.tmp|${escaped}\\.lock\\.(?:stale-)?(\\d{1,7})-[0-9a-z]{8,16})$`);
}

/**
 * Removes what writers stopped in the middle of a write left behind in a file's folder
 * (`leftBehind`, of a process that is gone, not written to for ten minutes): regular files only,
 * never through a link, and the folder read once per process (a `check --fix` of thousands of
 * files in one folder reads it once).
 */
function removeLeftTemporaries(file: string): void {
  const folder = path.dirname(file);
  if (SWEPT_FOLDERS.has(folder)) {
    return;
  }
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  SWEPT_FOLDERS.add(folder);
  const pattern = leftBehind(path.basename(file));
  for (const name of names) {
    const match = pattern.exec(name);
    const pid = match ? Number(match[1] ?? match[2]) : 0;
    // A process id as systems hand them out (Linux: up to 4,194,304), not a date or a count.
    if (!match || pid <= 1 || pid > MAX_PROCESS_ID || pid === process.pid || processAlive(pid)) continue;
    const leftover = path.join(folder, name);
    try {
      const stat = fs.lstatSync(leftover);
      if (stat.isFile() && Date.now() - stat.mtimeMs > LEFT_TEMPORARY_AGE_MS) fs.unlinkSync(leftover);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/**
 * The regular files other processes hold open for writing (`dev:ino`), as far as Linux's /proc
 * lets this process see (its own user's processes, everyone's for root; none where there is no
 * /proc, or it is hidden): each process's open files read through their /proc links, each link
 * stat'ed (the file it leads to) and, for a regular file, its flags read from `fdinfo` (O_WRONLY
 * or O_RDWR). About 3.5 µs an open file: read once for a run of writes, not once a file.
 */
export function filesOpenForWriting(): ReadonlySet<string> {
  const open = new Set<string>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return open;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = fs.statSync(`/proc/${pid}/fd/${fd}`);
        if (!target.isFile()) continue;
        const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
        if (flags && (parseInt(flags[1], 8) & 3) !== 0) open.add(`${target.dev}:${target.ino}`);
      } catch {
        // Closed meanwhile, or not this process's to see.
      }
    }
  }
  return open;
}

/** Whether a process with this id runs (one of another user counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Throws a `SafeFileError` (`symlink`) when the real folder of `file` is no longer inside `root` (a real path). */
function checkStillWithin(file: string, root: string): void {
  const folder = path.dirname(file);
  const real = realPathSync(folder);
  if (real === undefined || !isInside(root, real)) {
    throw new SafeFileError('symlink', message('liesOutside', { path: folder, root }));
  }
}

/** The target opened for its final check and kept open over the rename, with what it was then. */
interface HeldTarget {
  readonly fd: number;
  readonly stat: fs.Stats;
}

/**
 * Opens the target for the final check when a snapshot is expected; undefined when it cannot (the
 * check then says why), and on Windows, where a file open in any process cannot be renamed over.
 */
function holdTarget(file: string, expected: FileSnapshot | null | undefined): HeldTarget | undefined {
  if (!expected || process.platform === 'win32') {
    return undefined;
  }
  try {
    const fd = fs.openSync(file, READ_FLAGS | NOFOLLOW);
    return { fd, stat: fs.fstatSync(fd) };
  } catch {
    return undefined;
  }
}

/** All the bytes of an open file, from its start. */
function readHeld(held: HeldTarget): Buffer {
  const reading = new WholeRead(fs.fstatSync(held.fd).size, Infinity);
  for (let at = 0; ; ) {
    const into = reading.room();
    const read = fs.readSync(held.fd, into, 0, into.length, at);
    if (read === 0) break;
    reading.took(read);
    at += read;
  }
  return reading.bytes();
}

/**
 * After the rename: when the file that was replaced changed after its final check (another
 * process wrote into it in that instant: its bytes differ from those checked), that version is put
 * back in the target's place (with its mode and owner, flushed) and the write fails as
 * `changed`, as it would have a moment earlier, so that the caller merges and tries again (the
 * state file) or leaves the file as it is (a fix). It is put back only while the target is still
 * the file this write made; where it is not (another writer has replaced it since) or it cannot
 * be put back, that version is kept beside the target and the error says where. (A file put in
 * the target's place by another rename in that instant cannot be seen.)
 */
function restoreChangeMadeDuringRename(file: string, held: HeldTarget | undefined, checked: Buffer | undefined, written: number, restorable: (bytes: Buffer) => boolean = () => true): void {
  if (!held || !checked) {
    return;
  }
  const bytes = readHeld(held);
  // The bytes themselves: a clock too coarse to move between two writes hides a change from the time.
  if (bytes.equals(checked)) {
    return;
  }
  const mode = held.stat.mode & 0o7777;
  if (!restorable(bytes)) {
    // A part of a version another program is writing in place (what it writes after goes to the
    // file this rename replaced, which no name leads to): this write's whole file stays, and is
    // the write's result; what the other had written, when more than white space, is kept beside.
    if (!emptyOrWhiteSpace(bytes.toString('utf8'))) keepBeside(file, bytes, mode);
    return;
  }
  if (lstatOrUndefinedSync(file)?.ino === written) {
    const back = temporaryPath(file);
    try {
      writeTemporarySync(back, bytes, mode, held.stat);
      if (lstatOrUndefinedSync(file)?.ino === written) {
        fs.renameSync(back, file);
        throw new SafeFileError('changed', message('changedMeanwhile'));
      }
    } catch (error) {
      if (error instanceof SafeFileError) throw error;
    } finally {
      fs.rmSync(back, { force: true });
    }
  }
  const saved = keepBeside(file, bytes, mode);
  throw new SafeFileError('io', message('changedWhileReplaced', { saved: path.basename(saved) }));
}

/** Writes `bytes` beside `file` as `<name>.conflict-<pid>-<hex>`, with `mode`; returns its path. */
function keepBeside(file: string, bytes: Buffer, mode: number): string {
  const saved = path.join(path.dirname(file), `${nameStem(path.basename(file))}.conflict-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(saved, bytes, { flag: 'wx', mode });
  fs.chmodSync(saved, mode);
  return saved;
}

/**
 * Writes `bytes` to a new file (created exclusively; removed again if the write fails), flushed,
 * with `mode` and, where the process may, the owner and group of `owner` (the file it replaces);
 * returns its inode.
 */
function writeTemporarySync(temporary: string, bytes: Uint8Array | readonly Uint8Array[], mode: number, owner: fs.Stats | undefined): number {
  const fd = fs.openSync(temporary, TEMPORARY_FLAGS, 0o600);
  let written = false;
  try {
    for (const piece of pieces(bytes)) {
      for (let offset = 0; offset < piece.length; ) {
        offset += fs.writeSync(fd, piece, offset, piece.length - offset);
      }
    }
    fs.fsyncSync(fd);
    fs.fchmodSync(fd, mode);
    const change = ownerChange(owner);
    if (change) {
      try {
        fs.fchownSync(fd, change.uid, change.gid);
      } catch {
        try {
          fs.fchownSync(fd, change.fallbackUid, change.gid);
        } catch {
          // Keep the process's own.
        }
      }
    }
    const ino = fs.fstatSync(fd).ino;
    written = true;
    return ino;
  } finally {
    fs.closeSync(fd);
    if (!written) {
      fs.rmSync(temporary, { force: true });
    }
  }
}

/** `writeTemporarySync` with the writes, the flush and the rest done without blocking the event loop. */
async function writeTemporary(temporary: string, bytes: readonly Uint8Array[], mode: number, owner: fs.Stats | undefined): Promise<number> {
  const handle = await fsp.open(temporary, TEMPORARY_FLAGS, 0o600);
  let written = false;
  try {
    for (const piece of bytes) {
      for (let offset = 0; offset < piece.length; ) {
        offset += (await handle.write(piece, offset, piece.length - offset)).bytesWritten;
      }
    }
    await handle.sync();
    await handle.chmod(mode);
    const change = ownerChange(owner);
    if (change) {
      try {
        await handle.chown(change.uid, change.gid);
      } catch {
        try {
          await handle.chown(change.fallbackUid, change.gid);
        } catch {
          // Keep the process's own.
        }
      }
    }
    const ino = (await handle.stat()).ino;
    written = true;
    return ino;
  } finally {
    await handle.close();
    if (!written) {
      await fsp.rm(temporary, { force: true });
    }
  }
}

/** How a temporary file is created: for writing, and only if no file has its name. */
const TEMPORARY_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;

/**
 * The owner and group a file replacing `owner` is given, when they are not the process's own:
 * only root may give a file away, so the group alone (with the process's own user) is tried next.
 */
function ownerChange(owner: fs.Stats | undefined): { uid: number; gid: number; fallbackUid: number } | undefined {
  if (!owner || typeof process.getuid !== 'function' || (owner.uid === process.getuid() && owner.gid === process.getgid?.())) {
    return undefined;
  }
  return { uid: owner.uid, gid: owner.gid, fallbackUid: process.getuid() };
}

/** The cheap checks before anything is written: a regular file or none, as expected. */
function checkTarget(current: fs.Stats | undefined, expected: FileSnapshot | null | undefined): void {
  if (current?.isSymbolicLink()) {
    throw new SafeFileError('symlink', message('neverThroughLink'));
  }
  if (current && !current.isFile()) {
    throw new SafeFileError('not-regular', message('notRegular', { kind: describeKind(current) }));
  }
  if (expected === null && current) {
    throw new SafeFileError('changed', message('createdMeanwhile'));
  }
  if (expected && !current) {
    throw new SafeFileError('changed', message('deletedMeanwhile'));
  }
  const problem = current && unreplaceable(current);
  if (problem) {
    throw new SafeFileError('io', problem);
  }
}

/**
 * Why an existing file is not replaced whoever writes: it has other names (a rename would give
 * this name a new file and leave the other names with the old one), or nobody may write it
 * (`chmod a-w`: the rename would bypass its mode, which only guards writes into the file, so not
 * even its owner or root replaces it). Undefined when neither.
 */
export function unreplaceable(stat: fs.Stats): MessageRef | undefined {
  if (stat.nlink > 1) {
    return message('hasOtherNames', { count: stat.nlink - 1 });
  }
  if ((stat.mode & 0o222) === 0) {
    return message('readOnlyFile');
  }
  return undefined;
}

/** Throws when the process may not write the existing file (its mode, owner or ACL), which the rename would bypass. */
function checkWritableSync(file: string, current: fs.Stats | undefined): void {
  if (current) {
    fs.accessSync(file, fs.constants.W_OK);
  }
}

/** Whether the target still is what `expected` says; throws `changed` or `symlink` if not. */
function checkUnchanged(expected: FileSnapshot | null | undefined, current: fs.Stats | undefined, readAgain: () => Buffer): void {
  if (current?.isSymbolicLink()) {
    throw new SafeFileError('symlink', message('neverThroughLink'));
  }
  if (expected === undefined) {
    return;
  }
  if (expected === null) {
    if (current) throw new SafeFileError('changed', message('createdMeanwhile'));
    return;
  }
  if (!current) {
    throw new SafeFileError('changed', message('deletedMeanwhile'));
  }
  const same = current.dev === expected.dev && current.ino === expected.ino && current.size === expected.size && current.mtimeMs === expected.mtimeMs;
  if (!same || createHash('sha256').update(readAgain()).digest('hex') !== expected.sha256) {
    throw new SafeFileError('changed', message('changedMeanwhile'));
  }
}

function lstatOrUndefinedSync(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function newFileMode(options: WriteOptions): number {
  return (options.mode ?? 0o666 & ~currentUmask()) & 0o7777;
}

let cachedUmask: number | undefined;
function currentUmask(): number {
  if (cachedUmask === undefined) {
    // process.umask() without an argument is deprecated; read it by setting and restoring.
    const mask = process.umask(0o022);
    process.umask(mask);
    cachedUmask = mask;
  }
  return cachedUmask;
}

/**
 * Replaces a file's content atomically: the target holds either its old bytes or all the new
 * ones, never a part. Throws a `SafeFileError` and leaves the target untouched when the target
 * is a symbolic link, changed since `expected` was read, or the write fails.
 *
 * A change written into the target in the instant between the final check and the rename is
 * put back and refused as `changed` (`restoreChangeMadeDuringRename`), as a change before it is.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, options: WriteOptions = {}): FileSnapshot {
  const temporary = temporaryPath(file);
  const { owner, mode, bytes } = asSafeFileError(() => prepareWrite(file, data, options));
  const written = asSafeFileError(() => writeTemporarySync(temporary, bytes, mode, owner));
  return commitOrRemove(file, temporary, written, bytes, options);
}

/**
 * `writeFileAtomicSync`, with the temporary file written and flushed without blocking the event
 * loop (megabytes take tens of milliseconds): `data` may come in pieces, written one after the
 * other. The checks before the rename, and the rename, run at once when the file is written, as
 * in `writeFileAtomicSync`: the target as it is then is what is checked.
 *
 * @example await writeFileAtomic('/s/papers-index.json', [head, ...files, tail], { hash: false });
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | readonly Uint8Array[], options: WriteOptions = {}): Promise<FileSnapshot> {
  const temporary = temporaryPath(file);
  const { owner, mode, bytes } = asSafeFileError(() => prepareWrite(file, data, options));
  let written: number;
  options.temporary?.(temporary);
  try {
    written = await writeTemporary(temporary, pieces(bytes), mode, owner);
  } catch (error) {
    options.temporary?.(undefined);
    throw systemError(error);
  }
  try {
    return commitOrRemove(file, temporary, written, bytes, options);
  } finally {
    options.temporary?.(undefined);
  }
}

/** What `run` returns; what it throws as a `SafeFileError` (`systemError`). */
function asSafeFileError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw systemError(error);
  }
}

/** `commitWrite`, the temporary file removed when it was not renamed into place (a check refused it, or the rename failed). */
function commitOrRemove(file: string, temporary: string, written: number, bytes: Uint8Array | readonly Uint8Array[], options: WriteOptions): FileSnapshot {
  let renamed = false;
  try {
    return commitWrite(file, temporary, written, bytes, options, () => {
      renamed = true;
    });
  } catch (error) {
    throw systemError(error);
  } finally {
    if (!renamed) {
      try {
        fs.unlinkSync(temporary);
      } catch {
        // Nothing more can be done.
      }
    }
  }
}

/** The checks before a write (the target is no link, no other kind of file, what `expected` says, writable), and what is written. */
function prepareWrite<T extends Uint8Array | readonly Uint8Array[]>(file: string, data: string | T, options: WriteOptions): { owner: fs.Stats | undefined; mode: number; bytes: Uint8Array | T } {
  const before = lstatOrUndefinedSync(file);
  checkTarget(before, options.expected);
  checkWritableSync(file, before);
  const mode = before ? before.mode & 0o7777 : newFileMode(options);
  // The owner a new file gets, where the process may give it: its folder's (a file root makes in
  // someone's folder stays theirs to write), as a replaced file keeps its own.
  return { owner: before ?? lstatOrUndefinedSync(path.dirname(file)), mode, bytes: typeof data === 'string' ? Buffer.from(data, 'utf8') : data };
}

/**
 * The end of a write, once the temporary file is written: the target checked again (still in its
 * folder, still what `expected` says) while held open, the rename (`renamed` called just after
 * it), a change made in that instant put back, left temporaries swept; the snapshot of the file.
 */
function commitWrite(file: string, temporary: string, written: number, bytes: Uint8Array | readonly Uint8Array[], options: WriteOptions, renamed: () => void): FileSnapshot {
  options.beforeCommit?.();
  // The file checked is held open over the rename, so that a change written into it in that
  // instant is found afterwards (and kept) instead of lost.
  const held = holdTarget(file, options.expected);
  try {
    if (options.within !== undefined) {
      checkStillWithin(file, options.within);
    }
    const current = lstatOrUndefinedSync(file);
    let checked: Buffer | undefined;
    checkUnchanged(options.expected, current, () => {
      if (held && held.stat.ino !== current?.ino) throw new SafeFileError('changed', message('changedMeanwhile'));
      checked = held ? readHeld(held) : fs.readFileSync(file);
      return checked;
    });
    if (options.openForWriting && current && options.openForWriting(current.dev, current.ino)) {
      throw new SafeFileError('changed', message('openForWriting'));
    }
    options.beforeRename?.();
    fs.renameSync(temporary, file);
    renamed();
    syncFolderSync(path.dirname(file));
    options.afterRename?.();
    restoreChangeMadeDuringRename(file, held, checked, written, options.restorable);
  } finally {
    if (held) fs.closeSync(held.fd);
  }
  removeLeftTemporaries(file);
  return snapshotOf(file, fs.statSync(file), bytes, options.hash !== false);
}

/** Flushes a folder's entries (the rename) to disk, where the system allows it. */
function syncFolderSync(folder: string): void {
  try {
    const fd = fs.openSync(folder, fs.constants.O_RDONLY);
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not supported here (Windows): the rename is done all the same.
  }
}

