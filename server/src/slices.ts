/**
 * Long work of the server in slices: a step generator (such as `diagnosticSteps`) is run a few
 * milliseconds at a time, with a turn of the event loop between slices, so that the requests
 * and answers that arrive or wait meanwhile (an outline asked with the document's didOpen, its
 * answer still being written) go first. Work whose result is no longer wanted stops at the next
 * slice.
 */

/** How long one slice runs before the server looks at its messages again, in milliseconds. */
export const SLICE_MS = 8;

/** What the server writes its messages to; over stdio, its standard output. */
let output: (NodeJS.WritableStream & { readonly writableNeedDrain?: boolean; readonly closed?: boolean }) | undefined = process.stdout;

/** For tests: another output to wait on. */
export function setOutput(stream: NonNullable<typeof output>): void {
  output = stream;
}

/**
 * Resolves when the answers the server wrote are sent: at once when the output holds less than
 * its high-water mark, else when it drains (or closes). A big answer (the outline of a year of
 * digests is megabytes) leaves the process only while the event loop is free; work that waits
 * for this does not hold it up.
 */
export function outputSent(): Promise<void> {
  const stream = output;
  if (!stream?.writableNeedDrain || stream.closed) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * How long the client is given to decode a big answer, per megabyte, from when it was written.
 * Decoding the 3.8 MB outline of 10,000 papers takes a client about 20 ms on a 2-core machine
 * when it has a core to itself, and 35–70 ms while this server's checks run beside it: the two
 * processes and their collectors' threads then share the cores. So sliced work (the checks) lets
 * the client decode first; the checks are then quicker too, and came no later in the benchmark.
 */
const DECODE_MS_PER_MB = 8;
/** Answers smaller than this are decoded in a moment: no wait. */
const DECODE_WAIT_FROM_BYTES = 256 * 1024;
/**
 * How far ahead the decoding is ever taken to go, in milliseconds: answers written one after
 * another add up to this much at most (a client that asks again is mostly done with the answer
 * before), so that a burst of big answers leaves no long wait behind it.
 */
const MAX_DECODE_AHEAD_MS = 100;
/** Until when (`performance.now()`) the client is taken to be decoding the big answers written. */
let decodingUntil = -Infinity;

/**
 * Notes an answer of `bytes` written to the client: sliced work waits while a big one is being
 * decoded (`DECODE_MS_PER_MB`). Answers written one after another add up, to
 * `MAX_DECODE_AHEAD_MS` at most.
 */
export function noteAnswerWritten(bytes: number): void {
  if (bytes < DECODE_WAIT_FROM_BYTES) {
    return;
  }
  const now = performance.now();
  decodingUntil = Math.min(Math.max(decodingUntil, now) + (bytes / 1e6) * DECODE_MS_PER_MB, now + MAX_DECODE_AHEAD_MS);
}

/** For tests: the client taken to have decoded everything written. */
export function resetDecoding(): void {
  decodingUntil = -Infinity;
}

/** How long sliced work waits now for the client to decode, in milliseconds (0: none). */
export function decodeWait(): number {
  return Math.max(0, decodingUntil - performance.now());
}

/**
 * The most one run of sliced work waits in all for the client to decode: a client that asks for
 * big answers again and again (the outline of a big document at every keystroke) delays the
 * checks by this much at most, never for ever.
 */
export const MAX_DECODE_WAIT_PER_RUN_MS = 250;

/**
 * A turn of the event loop (incoming messages are read, queued work runs), then the output sent,
 * then the time the client is given to decode the big answers written (`noteAnswerWritten`), up
 * to `maxWait` ms and not once the work is stale; resolves with the time waited for that.
 */
async function turn(maxWait: number, stale: () => boolean): Promise<number> {
  // A web worker (the web extension's server) has no setImmediate and no standard output.
  await new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
  let waited = 0;
  for (;;) {
    await outputSent();
    const wait = stale() ? 0 : Math.min(decodeWait(), maxWait - waited);
    if (wait <= 0) {
      return waited;
    }
    // In short waits, so that work that went stale meanwhile stops at once.
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.ceil(wait), 10)));
    waited += performance.now() - start;
  }
}

/**
 * Runs `steps` to the end, in slices of about `sliceMs`, starting after a turn of the event loop.
 * Resolves with the generator's value, or undefined when `stale()` was true before a slice (the
 * generator is then closed).
 *
 * @example
 * const diagnostics = await runInSlices(diagnosticSteps(model, options), () => document.version !== version);
 * if (diagnostics) publish(diagnostics);
 */
export async function runInSlices<T>(steps: Generator<void, T, void>, stale: () => boolean, sliceMs = SLICE_MS): Promise<T | undefined> {
  running++;
  try {
    return await slices(steps, stale, sliceMs);
  } finally {
    if (--running === 0) {
      for (const resolve of waiting.splice(0)) resolve();
    }
  }
}

/** How many `runInSlices` are under way, and who waits for none to be. */
let running = 0;
const waiting: (() => void)[] = [];

/** How long the messages must have stopped, both ways, before `idle()` resolves, in milliseconds. */
let quietMs = 100;
/**
 * `idle()` waits at most this long for the messages to stop, once the sliced work is done: a
 * client that never stops asking does not starve the work.
 */
let maxQuietWaitMs = 1_000;
/** When the server last read or wrote a message (`noteMessage`). */
let lastMessage = -Infinity;

/**
 * A message was read or written: work waiting for `idle()` waits until the messages have
 * stopped for a moment. An editor answers an answer at once (it asks the outline again, pulls
 * the diagnostics of what it shows): that goes first.
 */
export function noteMessage(): void {
  lastMessage = performance.now();
}

/** For tests: the quiet `idle()` waits for, and at most how long. */
export function setQuiet(quiet: number, maxWait: number): void {
  quietMs = quiet;
  maxQuietWaitMs = maxWait;
}

/**
 * Resolves when no sliced work is under way, the answers are sent and the messages have stopped
 * for a moment (or waited for long enough): for work of lower priority than the answers and the
 * diagnostics (indexing an edited document for the workspace), which holds the event loop a
 * while.
 */
export async function idle(): Promise<void> {
  // When the wait for quiet began: once the work under way was done.
  let started = -1;
  for (;;) {
    while (running > 0) {
      started = -1;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    // Two turns of the event loop: the answer the work was for (the pulled diagnostics) is
    // written in a turn queued once the work's promise has settled, and goes first.
    await nextTurn();
    await nextTurn();
    if (running > 0) {
      continue;
    }
    const now = performance.now();
    if (started < 0) started = now;
    const wait = Math.min(lastMessage + quietMs - now, started + maxQuietWaitMs - now);
    if (wait <= 0) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await outputSent();
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

async function slices<T>(steps: Generator<void, T, void>, stale: () => boolean, sliceMs: number): Promise<T | undefined> {
  let decodeWaited = 0;
  for (;;) {
    decodeWaited += await turn(MAX_DECODE_WAIT_PER_RUN_MS - decodeWaited, stale);
    if (stale()) {
      steps.return(undefined as T);
      return undefined;
    }
    const until = performance.now() + sliceMs;
    let step = steps.next();
    while (!step.done && performance.now() < until) {
      step = steps.next();
    }
    if (step.done) {
      return step.value;
    }
  }
}
