/**
 * The frames a client sends over stdio, checked before the protocol library reads them
 * (frameGuard.ts), and the server's transport arguments (transportArgs.ts).
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { contentLength, FrameGuard, MAX_HEADER_BYTES, MAX_MESSAGE_BYTES } from '../../server/src/frameGuard';
import { transportProblem } from '../../server/src/transportArgs';

/** What the guard passes on of `chunks`, and what it said. */
async function through(chunks: readonly Buffer[], maxMessageBytes?: number): Promise<{ out: Buffer; dropped: number[]; broken: string[] }> {
  const dropped: number[] = [];
  const broken: string[] = [];
  const guard = new FrameGuard({ onDropped: (bytes) => dropped.push(bytes), onBroken: (why) => broken.push(why) }, maxMessageBytes);
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) guard.write(chunk);
  guard.end();
  await ended;
  return { out: Buffer.concat(out), dropped, broken };
}

function frame(body: string, header = `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`): Buffer {
  return Buffer.from(header + body, 'utf8');
}

/** `bytes` cut at the given places. */
function cut(bytes: Buffer, at: readonly number[]): Buffer[] {
  const places = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const place of places) {
    chunks.push(bytes.subarray(from, place));
    from = place;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

describe('frame guard', () => {
  test('Should pass every byte of well-formed messages on, however they are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ body: fc.string({ unit: 'binary', maxLength: 200 }), type: fc.boolean(), lower: fc.boolean() }), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (messages, places) => {
          const bytes = Buffer.concat(
            messages.map(({ body, type, lower }) => frame(body, `${lower ? 'content-length' : 'Content-Length'}: ${Buffer.byteLength(body)}\r\n${type ? 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n' : ''}\r\n`)),
          );
          const { out, dropped, broken } = await through(cut(bytes, places));
          assert.deepEqual(broken, []);
          assert.deepEqual(dropped, []);
          assert.ok(out.equals(bytes));
        },
      ),
      { numRuns: 300, seed: 20261207 },
    );
  });

  test('Should pass over a message over the limit as it comes, and read the ones after it', async () => {
    const big = 'x'.repeat(5000);
    const bytes = Buffer.concat([frame('{"a":1}'), frame(big), frame('{"b":2}')]);
    for (const size of [1, 7, 64, 1000, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const { out, dropped, broken } = await through(chunks, 4096);
      assert.deepEqual(broken, []);
      assert.deepEqual(dropped, [5000]);
      assert.equal(out.toString(), frame('{"a":1}').toString() + frame('{"b":2}').toString());
    }
  });

  test('Should stop at a header it cannot read, passing nothing after it on', async () => {
    for (const [header, why] of [
      ['Content-Length: abc\r\n\r\n', /Content-Length of digits/],
      ['Content-Length: -5\r\n\r\n', /Content-Length of digits/],
      ['Content-Type: x\r\n\r\n', /Content-Length of digits/],
      ['Content-Length: 1e3\r\n\r\n', /Content-Length of digits/],
      ['{"jsonrpc":"2.0"}'.repeat(1000), /more than 8192 bytes/],
    ] as const) {
      const { out, broken } = await through([frame('{}'), Buffer.from(header + '{"jsonrpc":"2.0","id":1,"method":"initialize"}'), frame('{}')]);
      assert.equal(broken.length, 1, header.slice(0, 40));
      assert.match(broken[0], why);
      assert.equal(out.toString(), frame('{}').toString(), 'the message before it only');
    }
    // A header as long as allowed is read.
    const long = `Content-Length: 2\r\nX-Padding: ${'p'.repeat(MAX_HEADER_BYTES - 40)}\r\n\r\n`;
    assert.ok(Buffer.byteLength(long) <= MAX_HEADER_BYTES);
    assert.deepEqual((await through([frame('{}', long)])).broken, []);
  });

  test('Should read the Content-Length among the header lines, in any case, as digits only', () => {
    assert.equal(contentLength('Content-Type: a\r\ncontent-length:  12 \r\n\r\n'), 12);
    assert.equal(contentLength('CONTENT-LENGTH: 0\r\n\r\n'), 0);
    for (const bad of ['Content-Length: 12a', 'Content-Length: ', 'Content-Length: 0x10', 'Length: 3']) {
      assert.equal(contentLength(bad + '\r\n\r\n'), undefined, bad);
    }
    // Digits past what a number holds exactly are a length too big (it was "not digits").
    for (const huge of ['9999999999999999', '1000000000000000', '9'.repeat(400)]) {
      assert.ok((contentLength(`Content-Length: ${huge}\r\n\r\n`) ?? 0) > MAX_MESSAGE_BYTES, huge.slice(0, 20));
    }
  });

  test('Should pass over a message announced with a length of 16 digits, not stop at it', async () => {
    const { dropped, broken } = await through([frame('{"a":1}'), Buffer.from('Content-Length: 1000000000000000\r\n\r\n{}')], 4096);
    assert.deepEqual(broken, []);
    assert.deepEqual(dropped, [1e15]);
  });
});

describe('server transport arguments', () => {
  test('Should take each transport as the protocol library reads it, the first one named', () => {
    for (const argv of [['--stdio'], ['--socket=6009'], ['--socket', '6009'], ['--pipe=/tmp/x.sock'], ['--pipe', 'x'], ['--debug-requests', '--stdio'], ['--stdio', '--socket=x']]) {
      assert.equal(transportProblem(argv, false), undefined, argv.join(' '));
    }
    assert.equal(transportProblem(['--node-ipc'], true), undefined);
  });

  test('Should say what is wrong with none, a bad one, or --node-ipc without a channel, and give the usage for --help', () => {
    assert.match((transportProblem([], false) as { problem: string }).problem, /--stdio, --node-ipc, --socket=PORT or --pipe=NAME/);
    assert.match((transportProblem(['--version'], false) as { problem: string }).problem, /say how to talk/);
    for (const argv of [['--socket=x'], ['--socket=0'], ['--socket=70000'], ['--socket'], ['--socket=']]) {
      assert.match((transportProblem(argv, false) as { problem: string }).problem, /must be a number from 1 to 65535/, argv.join(' '));
    }
    assert.match((transportProblem(['--pipe='], false) as { problem: string }).problem, /needs the name of a pipe/);
    assert.match((transportProblem(['--node-ipc'], false) as { problem: string }).problem, /IPC channel/);
    assert.deepEqual(transportProblem(['--help'], false), { help: true });
  });
});
