/**
 * The one owner of a state file: it loads and validates it, answers what the state of a paper
 * is, and is the only writer. Before every write it reads the file again and merges what
 * changed there (`mergeStates`); the write replaces the file only if nobody changed it since
 * that read. A corrupt or unknown-version file is reported and never written: the store goes
 * read-only until the file is fixed (the next `reload` sees it).
 *
 * Disk access goes through `StateDisk`, so the store stays pure; the server and the CLI give it
 * the Node implementation (stateDisk.ts), tests an in-memory one. Where the file can only be
 * reached asynchronously (the web extension's server, through the client's `workspace.fs`:
 * clientStateDisk.ts), an `AsyncStateDisk` takes its place and `loadAsync` / `changeAsync` do
 * the same steps: both ways run one sequence of reads and writes (`loadSteps`, `changeSteps`).
 */
import { message, MessageError, MessageRef, messageText, reasonOf } from '../cliMessages';
import type { ParsedState, PaperState, ReadingState, StateChange, StateProblem } from './stateFile';
import { applyChange, changeProblem, EMPTY_STATE, holdsTooManyContainers, MAX_STATE_BYTES, MAX_STATE_CONTAINERS, isEmptyPaperState, mergeStates, parseState, serialiseState } from './stateFile';

/** What the store needs of the file system: read the file, and replace it if unchanged. */
export interface StateDisk {
  /** Where the file is, for messages (a path or URI). */
  readonly location: string;
  /** The file's text, or undefined when it does not exist. Throws when it cannot be read. */
  read(): string | undefined;
  /**
   * Replaces the file atomically with `text`, but only if its content is still `expected`
   * (undefined: the file must not exist). Returns false, writing nothing, when it changed.
   * Throws when it cannot be written.
   */
  write(text: string, expected: string | undefined): boolean;
  /**
   * Runs `work` (a read, a merge and a write) while no other writer that takes the same lock
   * can write the file, so that concurrent changes queue instead of retrying. Optional: a disk
   * without it leaves the retries of `StateStore.change` to merge. Throws when the lock cannot
   * be had.
   */
  exclusive?<T>(work: () => T): T;
  /**
   * Why the file as it is now could not be replaced (no one may write it, it has other names,
   * this process may not write it), undefined when it could or there is no file. Optional: the
   * store then learns it when a write fails.
   */
  writeProblem?(): MessageRef | undefined;
  /**
   * `exclusive`, waiting for the lock without blocking (a server answers other requests
   * meanwhile); with `once`, the lock is tried once and not waited for.
   */
  exclusiveAsync?<T>(work: () => T, once?: boolean): Promise<T>;
  /**
   * When the file the last read refused as being written (empty, changed a moment ago) will be
   * old enough to be read as an empty state (ms since the epoch); undefined otherwise. Optional.
   */
  readonly settlesAt?: number;
}

/** `StateDisk` where the file is reached asynchronously (through the client). Same contract, no lock. */
export interface AsyncStateDisk {
  readonly location: string;
  readonly asynchronous: true;
  read(): Promise<string | undefined>;
  write(text: string, expected: string | undefined): Promise<boolean>;
}

/** One disk operation the store's steps ask for. */
type DiskStep = { readonly op: 'read' } | { readonly op: 'write'; readonly text: string; readonly expected: string | undefined };
type Steps<T> = Generator<DiskStep, T, string | undefined | boolean>;

/** Runs steps against a synchronous disk; what the disk throws is thrown into the steps. */
function runSync<T>(steps: Steps<T>, disk: StateDisk): T {
  let next = steps.next();
  while (!next.done) {
    let value: string | undefined | boolean;
    try {
      const step = next.value;
      value = step.op === 'read' ? disk.read() : disk.write(step.text, step.expected);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}

async function runAsync<T>(steps: Steps<T>, disk: AsyncStateDisk): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let value: string | undefined | boolean;
    try {
      const step = next.value;
      value = step.op === 'read' ? await disk.read() : await disk.write(step.text, step.expected);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}

/** The store's health. */
export interface StoreStatus {
  readonly readOnly: boolean;
  /** One line for the user when something is wrong, in English. */
  readonly problem?: string;
  /** The same as a message of the table, to be shown in the language asked for. */
  readonly problemRef?: MessageRef;
  /** The problem is that the file cannot be written: its state was read and is in use. */
  readonly stateInUse?: boolean;
}

/** Result of `StateStore.change`. */
export interface StoreChangeResult {
  /** The keys whose state changed. */
  readonly changed: readonly string[];
  readonly readOnly: boolean;
  /** Why nothing was changed, in English. */
  readonly message?: string;
  /** The same as a message of the table. */
  readonly messageRef?: MessageRef;
}

/** How many times a write is retried when the file keeps changing under it. */
const WRITE_ATTEMPTS = 5;

/**
 * @example
 * const store = new StateStore(disk);
 * store.load();
 * store.change(['sparse probes ...'], { starred: true });
 * store.get('sparse probes ...')?.starred // true
 */
export class StateStore {
  /** The version last read from or written to disk (what `current` started from). */
  private base: ReadingState = EMPTY_STATE;
  /** The version in use. */
  private current: ReadingState = EMPTY_STATE;
  /** The disk text `base` came from (undefined: no file). */
  private baseText: string | undefined;
  private problem: MessageRef | undefined;
  /** The English of `problem`, to tell a new problem from the same one again. */
  private problemEnglish: string | undefined;
  private generationValue = 0;
  /** The asynchronous operation under way: the next waits for it, so that they never interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  /** How many changes `changeAsync` has queued: each change's number. */
  private changesQueued = 0;
  /**
   * The last wait for another writer's lock that ran out, and the number of the last change
   * queued by then: those changes waited behind it already, and try the lock once instead of
   * each waiting its own ten seconds (five stars made while another process held the file were
   * refused one by one over fifty seconds).
   */
  private lockWaitRanOut: { readonly through: number } | undefined;

  constructor(
    private readonly disk: StateDisk | AsyncStateDisk,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Grows with every change of the state in use. */
  get generation(): number {
    return this.generationValue;
  }

  get status(): StoreStatus {
    if (!this.problem) {
      return { readOnly: false };
    }
    return { readOnly: true, problem: this.problemEnglish, problemRef: this.problem, ...(this.problem.key === 'stateCannotWrite' ? { stateInUse: true } : {}) };
  }

  get location(): string {
    return this.disk.location;
  }

  /** The state of a paper, if it has one. */
  get(key: string): PaperState | undefined {
    return this.current.papers.get(key);
  }

  /** Every paper with a state. */
  entries(): ReadonlyMap<string, PaperState> {
    return this.current.papers;
  }

  /** When the file the last read refused as being written may be read again as an empty state (`StateDisk.settlesAt`). */
  get settlesAt(): number | undefined {
    return 'asynchronous' in this.disk ? undefined : this.disk.settlesAt;
  }

  /** Whether the file is reached asynchronously: then only `loadAsync` and `changeAsync` work. */
  get asynchronous(): boolean {
    return 'asynchronous' in this.disk;
  }

  /** Reads the file (at start, or after a file event): merges what changed there. Returns whether the state in use changed. */
  load(): boolean {
    return runSync(this.loadSteps(), this.syncDisk());
  }

  /**
   * Changes papers and writes the file: reads it again, merges, writes if unchanged since
   * that read (else reads and merges again). Nothing is written when the file is corrupt, of
   * an unknown version or unwritable; the change is then refused.
   */
  change(keys: readonly string[], change: StateChange, titles?: ReadonlyMap<string, string>): StoreChangeResult {
    const disk = this.syncDisk();
    if (!disk.exclusive) {
      return runSync(this.changeSteps(keys, change, titles), disk);
    }
    try {
      return disk.exclusive(() => runSync(this.changeSteps(keys, change, titles), disk));
    } catch (error) {
      return refused(message('stateNotWritten', { location: this.disk.location, reason: reasonOf(error) }), false);
    }
  }

  /** `load` for either kind of disk; operations on one store run one after the other. */
  loadAsync(): Promise<boolean> {
    return this.queued(() => ('asynchronous' in this.disk ? runAsync(this.loadSteps(), this.disk) : this.load()));
  }

  /**
   * `change` for either kind of disk; operations on one store run one after the other. Through
   * the client there is no lock: a write the client refuses (the file changed) is read, merged
   * and tried again.
   */
  changeAsync(keys: readonly string[], change: StateChange, titles?: ReadonlyMap<string, string>): Promise<StoreChangeResult> {
    const number = ++this.changesQueued;
    return this.queued(() => {
      if ('asynchronous' in this.disk) {
        return runAsync(this.changeSteps(keys, change, titles), this.disk);
      }
      const disk = this.disk;
      if (!disk.exclusiveAsync) {
        return this.change(keys, change, titles);
      }
      // Queued while a wait for the lock ran out: one try, no wait of its own.
      const once = this.lockWaitRanOut !== undefined && number <= this.lockWaitRanOut.through;
      // The lock waited for with timers; the read, merge and write under it as `change` does them.
      return disk.exclusiveAsync(() => runSync(this.changeSteps(keys, change, titles), disk), once).catch((error: unknown) => {
        if (!once && isLockHeld(error)) {
          this.lockWaitRanOut = { through: this.changesQueued };
        }
        return refused(message('stateNotWritten', { location: this.disk.location, reason: reasonOf(error) }), false);
      });
    });
  }

  private queued<T>(operation: () => T | Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private syncDisk(): StateDisk {
    if ('asynchronous' in this.disk) {
      throw new Error(`${this.disk.location} is reached asynchronously: use loadAsync and changeAsync`);
    }
    return this.disk;
  }

  private *loadSteps(): Steps<boolean> {
    const read = yield* this.readDisk();
    if ('problem' in read) {
      return this.setProblem(read.problem);
    }
    // A file that can be read but not written: its state is used, and changes are refused.
    const before = this.problemEnglish;
    this.setOrClearProblem(this.writeBlocked());
    const problemChanged = this.problemEnglish !== before;
    if (read.text === this.baseText && !problemChanged) {
      return false;
    }
    const merged = mergeStates(this.base, this.current, read.state);
    this.base = read.state;
    this.baseText = read.text;
    return this.use(merged) || problemChanged;
  }

  private *changeSteps(keys: readonly string[], change: StateChange, titles?: ReadonlyMap<string, string>): Steps<StoreChangeResult> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const read = yield* this.readDisk();
      if ('problem' in read) {
        this.setProblem(read.problem);
        return refused(read.problem, true);
      }
      const blocked = this.writeBlocked();
      this.setOrClearProblem(blocked);
      if (blocked) {
        return refused(blocked, true);
      }
      // What is on disk now, with what this store has and the file lacks merged in.
      const onDisk = read.state === this.base ? this.current : mergeStates(this.base, this.current, read.state);
      const problem = changeProblem(onDisk, keys, change);
      if (problem) {
        return refused(problem, false);
      }
      const { state: next, changed } = applyChange(onDisk, keys, change, this.now(), titles);
      if (changed.length === 0) {
        this.base = read.state;
        this.baseText = read.text;
        this.use(onDisk);
        return { changed: [], readOnly: false };
      }
      const text = serialiseState(next);
      if (text.length > MAX_STATE_BYTES / 3 && utf8Length(text) > MAX_STATE_BYTES) {
        // A file this store could not read back: refused, as a read of it would be.
        return refused(message('stateWouldBeTooBig', { location: this.disk.location, max: `${MAX_STATE_BYTES / 1024 / 1024} MB` }), false);
      }
      if (holdsTooManyContainers(text)) {
        // Nor one whose arrays and objects a read refuses to parse (the fields of other tools).
        return refused(message('stateWouldBeTooComplex', { location: this.disk.location, max: MAX_STATE_CONTAINERS.toLocaleString('en') }), false);
      }
      let replaced: boolean;
      try {
        replaced = (yield { op: 'write', text, expected: read.text }) as boolean;
      } catch (error) {
        return refused(message('stateNotWritten', { location: this.disk.location, reason: reasonOf(error) }), false);
      }
      if (replaced) {
        // What was written, as a later read of the file will see it (cleared papers gone).
        const written = withoutEmptyPapers(next);
        this.base = written;
        this.baseText = text;
        this.current = written;
        this.generationValue++;
        return { changed, readOnly: false };
      }
    }
    return refused(message('stateKeptChanging', { location: this.disk.location }), false);
  }

  private *readDisk(): Steps<{ text: string | undefined; state: ReadingState } | { problem: MessageRef }> {
    let text: string | undefined;
    try {
      text = (yield { op: 'read' }) as string | undefined;
    } catch (error) {
      return { problem: message('stateCannotRead', { location: this.disk.location, reason: reasonOf(error) }) };
    }
    if (text === undefined) {
      return { text, state: EMPTY_STATE };
    }
    if (text === this.baseText && this.problem === undefined) {
      // The text last read or written: it parses to `base` (a big file is not parsed again).
      return { text, state: this.base };
    }
    const parsed: ParsedState = parseState(text);
    if ('problem' in parsed) {
      return { problem: problemMessage(this.disk.location, parsed.problem) };
    }
    return { text, state: parsed.state };
  }

  /** Why the file cannot be written (`StateDisk.writeProblem`), as the store's problem; undefined when it can. */
  private writeBlocked(): MessageRef | undefined {
    const reason = 'asynchronous' in this.disk ? undefined : this.disk.writeProblem?.();
    return reason && message('stateCannotWrite', { location: this.disk.location, reason });
  }

  private setOrClearProblem(problem: MessageRef | undefined): void {
    if (problem) {
      this.setProblem(problem);
    } else {
      this.clearProblem();
    }
  }

  private setProblem(problem: MessageRef): boolean {
    const english = messageText(problem).en;
    const changed = this.problemEnglish !== english;
    this.problem = problem;
    this.problemEnglish = english;
    if (changed) {
      this.generationValue++;
    }
    return changed;
  }

  private clearProblem(): void {
    this.problem = undefined;
    this.problemEnglish = undefined;
  }

  private use(state: ReadingState): boolean {
    if (state === this.current || serialiseState(state) === serialiseState(this.current)) {
      this.current = state;
      return false;
    }
    this.current = state;
    this.generationValue++;
    return true;
  }
}

/** Whether an error is a wait for another writer's lock that ran out (lockFile.ts). */
function isLockHeld(error: unknown): boolean {
  return error instanceof MessageError && error.ref.key === 'lockHeld';
}

/** A refused change: nothing changed, and why, in English and as a message of the table. */
function refused(reason: MessageRef, readOnly: boolean): StoreChangeResult {
  return { changed: [], readOnly, message: messageText(reason).en, messageRef: reason };
}

/**
 * The message of a problem, e.g. `/w/.paper-digest/state.json is corrupt: not valid JSON (...);
 * it is left untouched and reading state is read-only until it is fixed`.
 */
export function problemMessage(location: string, problem: StateProblem): MessageRef {
  return message(problem.kind === 'corrupt' ? 'stateCorrupt' : 'stateUnusable', { location, reason: problem.reason });
}

/** `problemMessage` in English. */
export function describeProblem(location: string, problem: StateProblem): string {
  return messageText(problemMessage(location, problem)).en;
}

function withoutEmptyPapers(state: ReadingState): ReadingState {
  let empty = false;
  for (const paper of state.papers.values()) {
    if (isEmptyPaperState(paper)) {
      empty = true;
      break;
    }
  }
  if (!empty) {
    return state;
  }
  const papers = new Map([...state.papers].filter(([, paper]) => !isEmptyPaperState(paper)));
  return { ...state, papers };
}

/** The length of a text in UTF-8 bytes. */
function utf8Length(text: string): number {
  if (NodeBuffer) {
    // The engine's count: the loop below took some 90 ms a change on a 40 MB state file. The
    // same number: the state's text has no lone surrogate (JSON.stringify escapes them).
    return NodeBuffer.byteLength(text, 'utf8');
  }
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      // Two bytes to U+07FF, three above; a surrogate pair (two units) is four.
      bytes += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdbff ? 1 : c >= 0xdc00 && c <= 0xdfff ? 1 : 2;
    }
  }
  return bytes;
}

/** Node's Buffer, where there is one (the web worker's server has none). */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
