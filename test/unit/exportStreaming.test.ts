/**
 * Exports written as they are made: `paper-digest papers` makes each paper's record when its text
 * is written, and writes the text in batches, each before going on (blockingWrite.ts). A year of
 * papers exported held its 100,000 records and its 150 MB of text at once (0.7 to 1.2 GB); the
 * chunks join to exactly the text the whole export gives.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { generatedEntry } from '../bench/generate';
import { CLI } from '../support/builtCli';
import { runCli } from '../../server/src/cli';
import { temporaryFolders } from '../support/tempFolders';
import { jsonArrayChunks } from '../../server/src/service/reading/export/csljson';
import { Batched } from '../../server/src/fs/blockingWrite';

const temp = temporaryFolders();

/** A small random value of JSON: objects, arrays, texts with line breaks, quotes and CJK. */
function randomJson(random: () => number, depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
  const text = (): string => ['a', '\n', '"', '论文', ' ', '\\', '\u2028', '{'].filter(() => random() < 0.4).join('');
  switch (kind) {
    case 0:
      return text();
    case 1:
      return Math.floor(random() * 1000) - 500;
    case 2:
      return random() < 0.5 ? null : random() < 0.5;
    case 3:
      return [];
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [text() + i, randomJson(random, depth + 1)]));
  }
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('Exports written as they are made', () => {
  test('Should write a JSON array an item at a time exactly as JSON.stringify(items, null, 2) does', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const items = Array.from({ length: Math.floor(random() * 5) }, () => randomJson(random));
      assert.equal([...jsonArrayChunks(items, (item) => item)].join(''), JSON.stringify(items, null, 2) + '\n', `seed ${seed}`);
    }
  });

  test('Should gather pieces into writes of about the batch size, in order, and write the rest when flushed', () => {
    const writes: string[] = [];
    const out = new Batched((text) => writes.push(text), 10);
    for (const piece of ['abc', 'defg', 'hij', 'k', 'lmnopqrstu', 'v']) out.add(piece);
    assert.deepEqual(writes, ['abcdefghij', 'klmnopqrstu']);
    out.flush();
    out.flush();
    assert.deepEqual(writes, ['abcdefghij', 'klmnopqrstu', 'v']);
  });

  test('Should write all of a text to a full non-blocking pipe, waiting for the reader instead of failing', async () => {
    const folder = temp.make('paper-digest-fifo-');
    const fifo = path.join(folder, 'out');
    const made = spawnSync('mkfifo', [fifo]);
    assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
    // The reader's end first (a FIFO opened for writing alone waits for one), non-blocking.
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const text = Array.from({ length: 40_000 }, (_, i) => `line ${i} 论文\n`).join('');
    // The writer in a thread of its own: its write waits for the reader, who reads meanwhile.
    const writer = new Worker(
      `const fs = require('node:fs');
       const { writeAllSync } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'server', 'src', 'fs', 'blockingWrite.js'))});
       const { workerData } = require('node:worker_threads');
       const fd = fs.openSync(workerData.fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
       writeAllSync(fd, workerData.text);
       fs.closeSync(fd);`,
      { eval: true, workerData: { fifo, text } },
    );
    const exited = new Promise<number>((resolve, reject) => {
      writer.on('error', reject);
      writer.on('exit', resolve);
    });
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(65536);
    let done = false;
    // Done when the writer is, however it ended (a failed write ends it too).
    const ended = (): void => {
      done = true;
    };
    exited.then(ended, ended);
    for (;;) {
      let read = 0;
      try {
        read = fs.readSync(reader, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (read > 0) {
        chunks.push(Buffer.from(buffer.subarray(0, read)));
      } else if (done) {
        break;
      } else {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    fs.closeSync(reader);
    assert.equal(await exited, 0);
    assert.equal(Buffer.concat(chunks).toString('utf8'), text);
  });

  /** 80 digests of 300 papers, made once for the tests that need many papers. */
  let papers24k: string | undefined;
  const manyPapers = (): string => {
    if (papers24k) return papers24k;
    const folder = temp.make('paper-digest-export-');
    for (let day = 0; day < 80; day++) {
      const paragraphs = ['大模型推理能力'];
      for (let i = day * 300; i < day * 300 + 300; i++) paragraphs.push(...generatedEntry(i));
      fs.writeFileSync(path.join(folder, `2026-01-${String(day + 1).padStart(3, '0')}.digest`), paragraphs.join('\n\n') + '\n');
    }
    return (papers24k = folder);
  };

  test('Should stop making the output once its reader is gone, and end with the run\'s status', () => {
    const writes: number[] = [];
    let closed = false;
    const status = runCli(['papers', '--format', 'json', manyPapers()], {
      stdout: (text) => {
        writes.push(text.length);
        // The reader goes after the first write (`| head -c 1000000`).
        closed = true;
      },
      stderr: () => undefined,
      stdoutClosed: () => closed,
    });
    assert.equal(status, 0);
    assert.equal(writes.length, 1, `one write of about a megabyte, then nothing more made: ${writes.length} writes`);
    assert.ok(writes[0] >= 1 << 20, String(writes[0]));
  });

  test('Should export 24,000 papers within a heap that the whole export at once does not fit in', () => {
    const folder = manyPapers();
    // The index of the papers takes about 60 MB of it; the records and the text of the whole
    // export at once took more than 104 MB beside it (JSON: fails below 160 MB; CSV: below 128 MB).
    const heap = '--max-old-space-size=104';
    for (const format of ['json', 'csv']) {
      const result = spawnSync(process.execPath, [heap, CLI, 'papers', '.', '--sort', 'file', '--format', format], { cwd: folder, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      assert.equal(result.status, 0, `${format}: ${result.stderr.slice(0, 400)}`);
      if (format === 'json') {
        const papers = JSON.parse(result.stdout) as { title: string }[];
        assert.equal(papers.length, 24_000);
        assert.equal(papers[23_999].title, generatedEntry(23_999)[0]);
      } else {
        assert.equal(result.stdout.split('\r\n').length, 24_000 + 2, 'the header, the rows and the last line end');
      }
    }
  });
});
