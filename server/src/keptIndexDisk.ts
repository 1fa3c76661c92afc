/**
 * The file of the index kept between starts (service/keptIndex.ts), in a folder the client
 * gives (`initializationOptions.keptIndexFolder`; VS Code's storage of the workspace): read once
 * at start, written after a scan and after files change. It holds nothing that is not in the
 * digests: one that cannot be used (another build's, or cut short) is said so in the log, not
 * used, and replaced by the next write; a file of that name that is not a kept index is never
 * replaced. Written as every file of the server is, atomically and never through a link.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFileSnapshot, SafeFileError, writeFileAtomic, writeFileAtomicSync } from './fs/safeFile';
import { decodeKeptIndex, KeptFile, KeptIndexWriter } from './service/keptIndex';
import { Log, message, MessageRef, reasonOf } from './service/cliMessages';

/** Where the kept index comes from and goes to (workspace.ts). */
export interface KeptIndexStore {
  /** The files kept at the last start, or undefined when there are none that can be used. */
  read(): Promise<ReadonlyMap<string, KeptFile> | undefined>;
  /** Whether the kept index can be written now (its file missing or a kept index): not worth making otherwise. */
  writable(): boolean;
  /** A writer of the kept index (`add` each file, then `write` it). */
  writer(): KeptIndexWriter;
  /** Keeps the files added to the writer (and only these) for the next start; false when it could not. */
  write(writer: KeptIndexWriter): boolean;
  /**
   * `write`, without blocking the event loop for long (7.9 MB took 35–40 ms to encode, write,
   * flush and hash at once; now 3–5 ms at most): encoded a megabyte at a time between turns,
   * written and flushed by the system's threads, renamed into place at once, unless `wanted`
   * then says no more (the server is stopping, and keeps the index at once meanwhile).
   */
  writeAsync(writer: KeptIndexWriter, wanted: () => boolean): Promise<boolean>;
  /** Removes the temporary file of a `writeAsync` under way (the server is going: it would stay behind). */
  abandon(): void;
}

/** The characters of the kept index encoded at a time by `writeAsync`, between turns of the event loop. */
const PIECE_CHARACTERS = 1 << 20;

/** The file's name in its folder. */
export const KEPT_INDEX_FILE = 'papers-index.json';

/**
 * A kept index bigger than this is neither read nor written (100,000 papers keep about 8 MB):
 * reading one back takes about 30 times its size in memory.
 */
const MAX_KEPT_INDEX_BYTES = 32 * 1024 * 1024;

/** How a kept index begins: a file that does not is not one, and is never replaced. */
const KEPT_INDEX_START = '{"format":"paper-digest-kept-index"';

/**
 * The kept index in `folder`, which is made when first written.
 *
 * @example
 * workspaceDigests.keepIndexWith(keptIndexStore('/home/me/.config/Code/User/workspaceStorage/1a2b/paper-digest', log));
 */
export function keptIndexStore(folder: string, log: Log): KeptIndexStore | undefined {
  if (!path.isAbsolute(folder)) {
    log(message('logKeptFolderNotAbsolute', { folder: JSON.stringify(folder) }));
    return undefined;
  }
  const file = path.join(folder, KEPT_INDEX_FILE);
  /** Whether the refusal to replace a file not a kept index was said (once, until it is gone). */
  let refusalSaid = false;
  /** The temporary file of the `writeAsync` under way, until it is renamed into place or removed. */
  let inFlight: string | undefined;
  return {
    writable() {
      const notAFolder = isNotAFolder(folder);
      const writable = !notAFolder && replaceable(file);
      if (!writable && !refusalSaid) {
        log(notAFolder ? message('logKeptFolderNotFolder', { folder }) : message('logKeptNotOurs', { file }));
      }
      refusalSaid = !writable;
      return writable;
    },
    async read() {
      let text: string;
      try {
        const { bytes } = await readFileSnapshot(file, { maxBytes: MAX_KEPT_INDEX_BYTES, followSymlinks: false, hash: false });
        text = bytes.toString('utf8');
      } catch (error) {
        if (!(error instanceof SafeFileError && error.code === 'missing')) {
          log(message('logKeptNotRead', { file, reason: reasonOf(error) }));
        }
        return undefined;
      }
      const kept = decodeKeptIndex(text, buildId());
      if ('problem' in kept) {
        if (!replaceable(file)) {
          log(message('logKeptForeign', { file }));
        } else {
          log(message(kept.problem === 'corrupt' ? 'logKeptNotWhole' : 'logKeptOtherVersion', { file }));
        }
        return undefined;
      }
      return kept.files;
    },
    writer: () => new KeptIndexWriter(buildId()),
    write(writer) {
      try {
        const text = writer.text();
        if (!withinSize(Buffer.byteLength(text, 'utf8')) || !folderReady()) {
          return false;
        }
        writeFileAtomicSync(file, text);
        return true;
      } catch (error) {
        log(message('logKeptNotWritten', { file, reason: reasonOf(error) }));
        return false;
      }
    },
    async writeAsync(writer, wanted) {
      let refused: 'not-ours' | 'unwanted' | undefined;
      try {
        const bytes: Buffer[] = [];
        let size = 0;
        let group: string[] = [];
        let characters = 0;
        const encode = (): void => {
          const piece = Buffer.from(group.join(''), 'utf8');
          bytes.push(piece);
          size += piece.length;
          group = [];
          characters = 0;
        };
        for (const text of writer.textPieces()) {
          group.push(text);
          characters += text.length;
          if (characters >= PIECE_CHARACTERS) {
            encode();
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
        encode();
        if (!withinSize(size) || !wanted() || !folderReady()) {
          return false;
        }
        await writeFileAtomic(file, bytes, {
          hash: false,
          temporary: (path) => {
            inFlight = path;
          },
          // Checked again as the file is renamed into place: what may have come meanwhile is kept.
          beforeCommit: () => {
            refused = !wanted() ? 'unwanted' : !replaceable(file) ? 'not-ours' : undefined;
            if (refused) throw new Error(refused);
          },
        });
        return true;
      } catch (error) {
        if (refused === 'not-ours') {
          log(notOursMessage());
        } else if (refused === undefined) {
          log(message('logKeptNotWritten', { file, reason: reasonOf(error) }));
        }
        return false;
      }
    },
    abandon() {
      if (inFlight !== undefined) {
        fs.rmSync(inFlight, { force: true });
        inFlight = undefined;
      }
    },
  };

  /** Whether an index of `size` bytes may be kept; says why not. */
  function withinSize(size: number): boolean {
    if (size > MAX_KEPT_INDEX_BYTES) {
      log(message('logKeptTooBig', { max: MAX_KEPT_INDEX_BYTES / 1024 / 1024 }));
      return false;
    }
    return true;
  }

  /** Makes the folder; whether the file there may be replaced (says why not). */
  function folderReady(): boolean {
    fs.mkdirSync(folder, { recursive: true });
    if (!replaceable(file)) {
      log(notOursMessage());
      return false;
    }
    return true;
  }

  function notOursMessage(): MessageRef {
    return message('logKeptNotOursWritten', { file });
  }
}

/** Whether something that is not a folder (a file, a link) has the folder's name. */
function isNotAFolder(folder: string): boolean {
  try {
    return !fs.lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the file is missing, empty or a kept index (of any build or version, whole or not): what may be replaced. */
function replaceable(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    if (!fs.fstatSync(fd).isFile()) return false;
    const start = Buffer.alloc(KEPT_INDEX_START.length);
    const read = fs.readSync(fd, start, 0, start.length, 0);
    return read === 0 || start.subarray(0, read).toString('utf8') === KEPT_INDEX_START;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

let build: string | undefined;

/**
 * What names this build of the server: the hash of its own code (the bundle, dist/server.js).
 * What a paper's topic or key is may change from one build to the next; an index kept by
 * another build is not read back.
 */
function buildId(): string {
  if (build === undefined) {
    try {
      build = createHash('sha256').update(fs.readFileSync(__filename)).digest('hex').slice(0, 32);
    } catch {
      build = 'unknown';
    }
  }
  return build;
}
