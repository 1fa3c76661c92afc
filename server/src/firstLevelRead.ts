/**
 * A first start with nothing kept between starts (or a start after many digests changed): the
 * digest files that must be read are read first for the Papers tree's first level only
 * (service/keptIndex.ts `firstLevelSummary`: parsed, without the rest of each paper's content),
 * by this thread and a worker thread side by side, each taking the next file not taken. The
 * scan then reads them in full (workspace.ts `readEarly`).
 *
 * The worker (firstLevelWorker.ts, bundled next to the server) sends each file as it reads it, as
 * the text of a kept index, which this thread reads back (as the kept index of a start is read)
 * between its own files. A file the worker or this thread could not read so (a link, not UTF-8,
 * written while it was read, the worker gone before it sent it) has no summary here: the caller
 * reads it in full.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readFileSnapshot, readFileSnapshotSync, ReadResult } from './fs/safeFile';
import { decodeKeptIndex, firstLevelSummary, KeptFile } from './service/keptIndex';
import { parseWithinLimits } from './service/limits';
import type { FirstLevelPart } from './service/workspaceIndex';
import { Log, message, detailOf } from './service/cliMessages';

/** A digest file to read: its URI, and its path. */
export interface FirstLevelTask {
  readonly uri: string;
  readonly file: string;
}

/**
 * What the worker is sent once it runs; its `workerData` is two counters (`NEXT`, `WORKER_TOOK`,
 * in a `SharedArrayBuffer`) shared with the thread that started it.
 */
export interface FirstLevelWork {
  readonly tasks: readonly FirstLevelTask[];
  readonly maxBytes: number;
  /** What of each paper is read (`FirstLevelPart`). */
  readonly part: FirstLevelPart;
}

/** The number of the next file not taken (`Atomics.add` takes it). */
export const NEXT = 0;
/** Raised by the worker before it takes a file: while 0, it has taken none, and its answer is not awaited. */
export const WORKER_TOOK = 1;

/** The build named in the text the worker sends (it is read back by the same code). */
export const FIRST_LEVEL_BUILD = 'first-level';

/** What the worker sends once it has taken its last file, after the files it read. */
export const FIRST_LEVEL_DONE = 0;

/**
 * Below this many bytes to read in all, and this many files, a worker thread (about 50 ms to
 * start) is not worth it: many small files cost by the file (opened, read, parsed) more than by
 * the byte.
 */
const WORKER_FROM_BYTES = 4 * 1024 * 1024;
const WORKER_FROM_FILES = 256;

/** The first-level summary (of `part`) of a file as read: undefined when it was written while it was read, or is not text. */
export function firstLevelOfRead(uri: string, read: ReadResult, decode: (bytes: Buffer) => string | undefined, part: FirstLevelPart): KeptFile | undefined {
  if (!read.steady) {
    return undefined;
  }
  const text = decode(read.bytes);
  return text === undefined ? undefined : { summary: firstLevelSummary(uri, parseWithinLimits(text), part), fingerprint: read.snapshot };
}

/** `firstLevelOfRead` of a file read now, synchronously (the worker's), or undefined when it cannot be read. */
export function readFirstLevelSync(task: FirstLevelTask, maxBytes: number, decode: (bytes: Buffer) => string | undefined, part: FirstLevelPart): KeptFile | undefined {
  try {
    return firstLevelOfRead(task.uri, readFileSnapshotSync(task.file, { maxBytes, followSymlinks: false, hash: false }), decode, part);
  } catch {
    return undefined;
  }
}

/**
 * Reads digest files for the first level, with a worker thread when they are many: one reader
 * a start. The worker may be started before the files are known (`prepare`); it is stopped
 * once they are read (`stop`, also when they never are).
 */
export class FirstLevelReader {
  private readonly counters = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  private worker: FirstLevelWorker | undefined;
  private used = false;
  private stopped = false;

  /**
   * @param options.decode how the bytes are made text on this thread (`undefined`: not text); the
   *   worker decodes as the server does (`decodeUtf8Text`)
   * @param options.part what of each paper is read: what the grouping to be asked first needs
   *   (`FirstLevelPart`), or `all`
   * @param options.cancelled whether to stop taking files (the server goes)
   * @param options.workerScript the worker's script (tests: one that fails); firstLevelWorker.js
   *   next to this module by default
   */
  constructor(
    private readonly options: {
      readonly maxBytes: number;
      readonly decode: (bytes: Buffer) => string | undefined;
      readonly part: FirstLevelPart;
      readonly log?: Log;
      readonly cancelled?: () => boolean;
      readonly workerScript?: string;
    },
  ) {}

  /** Starts the worker thread now (it takes some 50 ms to start), when many files are to be read. */
  prepare(): void {
    if (!this.stopped) this.worker ??= startWorker(this.counters, this.options.workerScript ?? path.join(__dirname, 'firstLevelWorker.js'), this.options.log);
  }

  /** Starts the worker once the files known to be read so far are worth it (`count` files, `bytes` in all). */
  expect(count: number, bytes: number): void {
    if (worthAWorker(count, bytes)) this.prepare();
  }

  /** How many times the worker has gone for a file (0: it has taken none yet). */
  workerTook(): number {
    return Atomics.load(this.counters, WORKER_TOOK);
  }

  /**
   * Reads the files for the first level: their summaries by URI (those that could be read so),
   * and how many of them the worker read. Once.
   *
   * @param bytes how many bytes the files have in all (a worker helps from 4 MB, or 256 files, on)
   */
  async read(tasks: readonly FirstLevelTask[], bytes: number): Promise<{ files: Map<string, KeptFile>; byWorker: number }> {
    if (this.used) throw new Error('a FirstLevelReader reads once');
    this.used = true;
    if (this.options.cancelled?.()) {
      this.stop();
      return { files: new Map(), byWorker: 0 };
    }
    if (worthAWorker(tasks.length, bytes)) {
      this.prepare();
    } else {
      this.stop();
    }
    const worker = this.worker;
    worker?.start({ tasks, maxBytes: this.options.maxBytes, part: this.options.part });
    const read = new Map<string, KeptFile>();
    const counters = this.counters;
    const readOptions = { maxBytes: this.options.maxBytes, followSymlinks: false, hash: false } as const;
    /** The next file not taken, read (or why not: the caller reads it in full, and says why it cannot be). */
    const next = (): Promise<{ task: FirstLevelTask; result: ReadResult | undefined }> | undefined => {
      const at = Atomics.add(counters, NEXT, 1);
      const task = tasks[at];
      return at < tasks.length ? readFileSnapshot(task.file, readOptions).then((result) => ({ task, result }), () => ({ task, result: undefined })) : undefined;
    };
    // Each file is read while the one before is parsed.
    for (let reading = next(); reading; ) {
      const { task, result } = await reading;
      if (this.options.cancelled?.()) {
        // What is left is taken by no one: the worker stops at its next file.
        Atomics.store(counters, NEXT, tasks.length);
        break;
      }
      reading = next();
      const kept = result && firstLevelOfRead(task.uri, result, this.options.decode, this.options.part);
      if (kept) read.set(task.uri, kept);
    }
    let byWorker = 0;
    // Still starting when every file was taken: not waited for.
    if (worker && Atomics.load(counters, WORKER_TOOK) > 0) {
      for (const [uri, kept] of await worker.files) {
        read.set(uri, kept);
        byWorker++;
      }
    }
    this.stop();
    return { files: read, byWorker };
  }

  /** Stops the worker, if any (it may be reading a file: what it read is not waited for); none starts after. */
  stop(): void {
    this.stopped = true;
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

function worthAWorker(count: number, bytes: number): boolean {
  return count > 1 && (bytes >= WORKER_FROM_BYTES || count >= WORKER_FROM_FILES);
}

/**
 * The files a worker sends, each as it reads it (the text of a kept index), read back as they
 * come; resolves with them once it says it is done, or once it is gone (failed, or stopped): those
 * sent before are kept, each came whole; the others it took are not read here. An 'error' may come
 * before the messages sent just before it: only 'exit' comes after them all.
 */
export function workerFiles(worker: Pick<Worker, 'on' | 'once'>, log?: Log): Promise<ReadonlyMap<string, KeptFile>> {
  return new Promise((resolve) => {
    const read = new Map<string, KeptFile>();
    let done = false;
    const finish = (): void => {
      // What comes after is not read (the answer is given).
      done = true;
      resolve(read);
    };
    worker.on('message', (message: unknown) => {
      if (done) {
        return;
      }
      if (message === FIRST_LEVEL_DONE) {
        finish();
        return;
      }
      const kept = typeof message === 'string' ? decodeKeptIndex(message, FIRST_LEVEL_BUILD) : undefined;
      if (kept && 'files' in kept) {
        for (const [uri, file] of kept.files) read.set(uri, file);
      }
    });
    worker.once('error', (error: unknown) => {
      log?.(message('logWorkerFailed', { reason: detailOf(error) }));
    });
    worker.once('exit', finish);
  });
}

/** A worker thread reading files for the first level. */
interface FirstLevelWorker {
  /** Gives it the files to read. */
  start(work: FirstLevelWork): void;
  /** The files it sent, once it is done, failed or was stopped (`workerFiles`). */
  readonly files: Promise<ReadonlyMap<string, KeptFile>>;
  terminate(): Promise<number>;
}

/** A worker thread waiting for its files, or undefined when there can be none. */
function startWorker(counters: Int32Array, script: string, log?: Log): FirstLevelWorker | undefined {
  let worker: Worker;
  try {
    if (!fs.existsSync(script)) {
      return undefined;
    }
    worker = new Worker(script, { workerData: counters.buffer });
  } catch (error) {
    log?.(message('logNoWorker', { reason: detailOf(error) }));
    return undefined;
  }
  const files = workerFiles(worker, log);
  // Not what keeps the process running while it waits for its files (after the listeners: a
  // 'message' listener refs it again).
  worker.unref();
  return {
    start: (work) => {
      // Its answer is awaited from now on: until it comes, the worker keeps the process running.
      worker.ref();
      worker.postMessage(work);
    },
    files,
    terminate: () => worker.terminate(),
  };
}
