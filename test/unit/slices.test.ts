/**
 * Long work in slices (server/src/slices.ts) and the diagnostics in steps: the same result as
 * running everything at once, other work of the event loop in between, a stop once the work is
 * stale, and waits for the output to drain.
 */
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { computeDiagnostics, diagnosticSteps } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { decodeWait, idle, noteAnswerWritten, noteMessage, outputSent, resetDecoding, runInSlices, setOutput, setQuiet } from '../../server/src/slices';
import { digest, entryLines } from '../support/fixtures';

function* counting(log: string[], steps: number): Generator<void, number, void> {
  try {
    for (let i = 0; i < steps; i++) {
      log.push(`step ${i}`);
      yield;
    }
    return steps;
  } finally {
    log.push('closed');
  }
}

/** A document of `count` entries, every fourth with problems, one duplicated title. */
function bigDigest(count: number): string {
  const entries: string[][] = [];
  for (let i = 0; i < count; i++) {
    const tag = i === count - 1 ? 'P0' : `P${i}`;
    entries.push(i % 4 === 0 ? entryLines(tag, { authors: null, topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg、cs.XX' }) : entryLines(tag));
  }
  return digest(...entries);
}

describe('slices', () => {
  test('Should give the value of the steps, letting other work of the event loop run between slices', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('other work'));
    const value = await runInSlices(counting(log, 3), () => false, 0);
    assert.equal(value, 3);
    // The first slice starts after a turn of the event loop: work queued before it goes first.
    assert.equal(log[0], 'other work', log.join(', '));
    assert.deepEqual(log.slice(1), ['step 0', 'step 1', 'step 2', 'closed']);
  });

  test('Should stop at the next slice once the work is stale, closing the steps', async () => {
    const log: string[] = [];
    let stale = false;
    const result = runInSlices(counting(log, 1_000), () => stale, 0);
    setImmediate(() => {
      stale = true;
    });
    assert.equal(await result, undefined);
    assert.equal(log[log.length - 1], 'closed');
    assert.ok(log.length < 1_000, `stopped early: ${log.length} entries`);
  });

  test('Should let idle() wait for sliced work under way', async () => {
    const order: string[] = [];
    const work = runInSlices(counting([], 20), () => false, 0).then(() => order.push('work done'));
    await idle().then(() => order.push('idle'));
    await work;
    assert.deepEqual(order, ['work done', 'idle']);
  });

  test('Should let idle() wait until the answer of the finished work is written', async () => {
    // The connection writes an answer in a turn of the event loop queued once the handler's
    // promise settles (vscode-jsonrpc's write semaphore): lower-priority work waits for it.
    const order: string[] = [];
    const answered = runInSlices(counting([], 5), () => false, 0)
      .then(async (value) => value)
      .then(() => new Promise<void>((resolve) => setImmediate(() => (order.push('answer written'), resolve()))));
    await Promise.all([idle().then(() => order.push('idle')), answered]);
    assert.deepEqual(order, ['answer written', 'idle']);
  });

  test('Should let idle() wait until the messages have stopped for a moment, and no longer than its limit', async () => {
    setQuiet(40, 5_000);
    try {
      noteMessage();
      let start = performance.now();
      await idle();
      assert.ok(performance.now() - start >= 39, `idle after ${performance.now() - start} ms of quiet`);
      // Messages that never stop: idle() comes once its limit has passed.
      setQuiet(30, 80);
      const chatter = setInterval(noteMessage, 5);
      noteMessage();
      start = performance.now();
      try {
        await idle();
      } finally {
        clearInterval(chatter);
      }
      assert.ok(performance.now() - start >= 79, `idle after ${performance.now() - start} ms`);
    } finally {
      setQuiet(100, 1_000);
    }
  });

  test('Should let the client decode a big answer before the next slice, and not wait for a small one', async () => {
    resetDecoding();
    noteAnswerWritten(100_000);
    assert.equal(decodeWait(), 0, 'an answer of 100 kB is decoded in a moment');
    // Two outlines of 2.5 MB written one after the other: 20 ms each, added up.
    noteAnswerWritten(2_500_000);
    noteAnswerWritten(2_500_000);
    const until = performance.now() + decodeWait();
    assert.ok(decodeWait() > 20 && decodeWait() <= 40, `waits ${decodeWait()} ms`);
    let firstStepAt = -1;
    const value = await runInSlices(
      (function* (): Generator<void, string, void> {
        firstStepAt = performance.now();
        yield;
        return 'checked';
      })(),
      () => false,
      0,
    );
    assert.equal(value, 'checked');
    // A timer may fire up to a millisecond early.
    assert.ok(firstStepAt >= until - 1.5, `the first step ran ${until - firstStepAt} ms before the client was done`);
    assert.equal(decodeWait(), 0);
  });

  test('Should wait for the client to decode no longer than its limit in all, however much is written', async () => {
    resetDecoding();
    // One huge answer is taken to be decoded 100 ms ahead at most: no long wait is left behind.
    noteAnswerWritten(10_000_000_000);
    assert.ok(decodeWait() > 90 && decodeWait() <= 100, `waits ${decodeWait()} ms`);
    // A client that asks for a big answer again and again: the work still gets done.
    const flood = setInterval(() => noteAnswerWritten(4_000_000), 5);
    let slicesRun = 0;
    try {
      const value = await runInSlices(
        (function* (): Generator<void, string, void> {
          for (let i = 0; i < 5; i++) {
            slicesRun++;
            yield;
          }
          return 'checked';
        })(),
        () => false,
        0,
      );
      assert.equal(value, 'checked');
      assert.equal(slicesRun, 5);
      // Done while the answers still come (the limit is MAX_DECODE_WAIT_PER_RUN_MS in all).
      assert.ok(decodeWait() > 0, 'done before the client was');
    } finally {
      clearInterval(flood);
      resetDecoding();
    }
  });

  test('Should stop work that goes stale while it waits for the client, without waiting on', async () => {
    resetDecoding();
    noteAnswerWritten(10_000_000_000);
    let stale = false;
    let stepped = false;
    const result = runInSlices(
      (function* (): Generator<void, string, void> {
        stepped = true;
        return 'checked';
      })(),
      () => stale,
      0,
    );
    setImmediate(() => (stale = true));
    assert.equal(await result, undefined);
    assert.equal(stepped, false);
    // Stopped well before the 100 ms of decoding were over.
    assert.ok(decodeWait() > 50, `stopped with ${decodeWait()} ms of decoding still noted`);
    resetDecoding();
  });

  test('Should wait for an output over its high-water mark to drain, and not for one below it', async () => {
    const written: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 4,
      write: (_chunk, _encoding, callback) => {
        written.push(callback);
      },
    });
    setOutput(stream);
    try {
      let sent = false;
      await outputSent();
      stream.write('a whole outline');
      assert.equal(stream.writableNeedDrain, true);
      const waiting = outputSent().then(() => (sent = true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(sent, false, 'waits while the output is full');
      written.shift()!();
      await waiting;
      assert.equal(sent, true);
    } finally {
      setOutput(process.stdout);
    }
  });
});

describe('diagnostics in steps', () => {
  test('Should find in steps what computeDiagnostics finds at once, with or without a cap', () => {
    const text = bigDigest(300);
    for (const options of [{}, { maxDiagnostics: 50 }]) {
      const steps = diagnosticSteps(parseDigest(text), { uri: 'file:///w/a.digest', ...options });
      let count = 0;
      let step = steps.next();
      while (!step.done) {
        count++;
        step = steps.next();
      }
      // Uncapped, every 64 entries and the checks across entries are steps of their own.
      assert.ok(count >= (options.maxDiagnostics ? 1 : 6), `several steps: ${count}`);
      const atOnce = computeDiagnostics(parseDigest(text), { uri: 'file:///w/a.digest', ...options });
      assert.ok(atOnce.length > 0);
      assert.deepEqual(step.value, atOnce);
    }
  });

  test('Should answer nothing when cancelled between steps', () => {
    const token = { isCancellationRequested: false };
    const steps = diagnosticSteps(parseDigest(bigDigest(300)), {}, token);
    steps.next();
    token.isCancellationRequested = true;
    let step = steps.next();
    while (!step.done) step = steps.next();
    assert.deepEqual(step.value, []);
  });
});
