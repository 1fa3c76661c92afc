/**
 * The bundled server (`dist/server.js`, run as the extension runs it) on hostile and huge
 * documents of up to 32 MB, driven over stdio from this process: for each input, a fresh server
 * opens the document, publishes its diagnostics and answers every per-document request; then it is
 * asked the quick fixes of a selection of everything (with every diagnostic published), fix-all for
 * the digest without topic hits, and the document is closed. Reported: the time until everything
 * was answered, those of the fixes, the server's peak resident memory (VmHWM) above its idle size,
 * its heap after a collection, the size of the biggest answer, and the memory left after close.
 * The target: every input answered, and each of its fixes, within 2 s, with a peak under 10× its
 * size (for inputs of 1 MB and more). It reports; it never fails the run.
 *
 * HOSTILE_SCALE=0.1 runs the inputs at a tenth of their size; HOSTILE_ONLY=lines runs only the
 * inputs whose name contains `lines` (`growth`: the long lines of `runLineGrowth` alone);
 * `BENCH_SERVER=path/to/server.js` runs another build (an
 * older one, to compare); `BENCH_FLAGS='--max-semi-space-size=16'` starts it with other node flags
 * than the extension's (`--expose-gc` is always added).
 */
import * as fs from 'node:fs';
import type { ServerMemoryResult } from '../../server/src/protocol';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import { generatedDigest, generatedEntry, hostileLines } from './generate';
import { SERVER_NODE_OPTIONS } from '../../server/src/nodeOptions';

const SCALE = Number(process.env.HOSTILE_SCALE ?? 1);
const TARGET_MS = 2_000;
const TARGET_RATIO = 10;
/** Inputs from this size on are held to the memory ratio. */
const MEMORY_FROM_BYTES = 1_000_000;
const GUARD_MS = 600_000;
const ONLY = process.env.HOSTILE_ONLY || undefined;
const OUR_SERVER = process.env.BENCH_SERVER || undefined;
/** The node options the extension starts the server with (nodeOptions.ts), unless BENCH_FLAGS says others. */
const SERVER_FLAGS = process.env.BENCH_FLAGS !== undefined ? process.env.BENCH_FLAGS.split(' ').filter((f) => f.length > 0) : SERVER_NODE_OPTIONS.filter((f) => f !== '--expose-gc');

/** The inputs, built lazily: each is a few tens of MB. */
const INPUTS: Record<string, () => string> = {
  '1,000,000 lines': () => Array.from({ length: 1_000_000 * SCALE }, (_, i) => (i % 3 === 0 ? 'Mei Tanaka, Lin Qiu' : i % 3 === 1 ? '标题' : `Title ${i}`)).join('\n'),
  '20 MB line of （ and ；': () => '（；'.repeat(10_000_000 * SCALE / 2) + '（'.repeat(5_000_000 * SCALE),
  '20 MB 机构 line of （ and ；': () => '机构 * ' + '（ ； '.repeat(5_000_000 * SCALE),
  '20 MB 专题命中 line': () => '专题命中 x ：' + 'k(title)；（；'.repeat(1_500_000 * SCALE) + '分类 ' + 'cs.AI、'.repeat(500_000 * SCALE),
  '32 MB digest (37,000 entries)': () => generatedDigest(Math.round(37_000 * SCALE)),
  '30 MB of one summary line': () => 'AI总结 ' + 'https://example.org/a?b=c arXiv:2401.00001 '.repeat(700_000 * SCALE),
  // Digests within the limits get every feature: a year of daily digests, and twice as much.
  '10,000 papers (a year of digests)': () => generatedDigest(Math.round(10_000 * SCALE)),
  '20,000 papers': () => generatedDigest(Math.round(20_000 * SCALE)),
  // A line within the limits whose items all break the format: 4,000 problems on one line.
  '27,000-character 机构 line, 4,000 problems': () =>
    ['大模型推理能力', 'Sparse Probes', '稀疏探针', 'Mei Tanaka, Lin Qiu', '机构 * ' + 'Lab (X)（实验室（分部）、甲） ；  ；;（（ '.repeat(Math.max(1, Math.round(1_000 * SCALE))), '专题命中 推理 ：x(title)；分类 cs.AI', 'AI总结 好。'].join('\n\n') + '\n',
  // Lines within the limits whose fixes (a blank line between each two) would take the text past them.
  '290,000 run-together lines': () => '大模型推理能力\n\n' + 'x\n'.repeat(290_000 * SCALE),
  '16,000 entries without 专题命中': () =>
    ['大模型推理能力', ...Array.from({ length: 16_000 * SCALE }, (_, i) => generatedEntry(i).filter((line) => !line.startsWith('专题命中')))].flat().join('\n\n') + '\n',
};

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc; zeros where there is no /proc. */
function residentMemory(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

interface Outcome {
  readonly name: string;
  readonly size: number;
  readonly answeredMs: number;
  readonly fixAllMs?: number;
  /** Code actions asked over the whole document with every diagnostic published (a selection of everything). */
  readonly selectionMs: number;
  readonly peakAboveIdle: number;
  readonly heapOpen: number;
  readonly heapClosed: number;
  readonly rssClosed: number;
  readonly biggestAnswer: string;
  readonly diagnostics: string;
}

async function runOne(name: string, text: string): Promise<Outcome> {
  const client = await LspClient.start({ rootUri: null, execArgv: [...SERVER_FLAGS, '--expose-gc'], serverModule: OUR_SERVER, timeoutMs: GUARD_MS });
  try {
    const idle = await client.request<ServerMemoryResult>('paperDigest/serverMemory', { collect: true });
    const uri = `file:///virtual/${name.replace(/\W+/g, '-')}.digest`;
    const size = Buffer.byteLength(text, 'utf8');
    const start = performance.now();
    client.openDocument(uri, text);
    const textDocument = { uri };
    const position = { line: 0, character: 3 };
    const range = { start: position, end: position };
    const sizes: Record<string, number> = {};
    const ask = (method: string, params: unknown): Promise<void> =>
      client.request(method, params, GUARD_MS).then(
        (result) => {
          sizes[method.replace('textDocument/', '')] = JSON.stringify(result ?? null).length;
        },
        () => {
          sizes[method.replace('textDocument/', '')] = -1;
        },
      );
    const published = client.waitForNotification<{ uri: string; diagnostics: { code: string }[] }>('textDocument/publishDiagnostics', (p) => p.uri === uri, GUARD_MS, true);
    await Promise.all([
      published,
      ask('textDocument/documentSymbol', { textDocument }),
      ask('textDocument/foldingRange', { textDocument }),
      ask('textDocument/semanticTokens/full', { textDocument }),
      ask('textDocument/hover', { textDocument, position }),
      ask('textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } }),
      ask('textDocument/documentLink', { textDocument }),
      ask('textDocument/selectionRange', { textDocument, positions: [position] }),
      ask('textDocument/completion', { textDocument, position }),
    ]);
    const answeredMs = performance.now() - start;
    const diagnostics = (await published).diagnostics;
    let fixAllMs: number | undefined;
    if (name.includes('without')) {
      const fixStart = performance.now();
      await client.request('textDocument/codeAction', { textDocument, range, context: { diagnostics: [], only: ['source.fixAll.paperDigest'] } }, GUARD_MS);
      fixAllMs = performance.now() - fixStart;
    }
    // A selection over everything, the editor's diagnostics with it: the quick fixes of the first problems.
    const everything = { start: { line: 0, character: 0 }, end: { line: text.length, character: 0 } };
    const selectionStart = performance.now();
    await client.request('textDocument/codeAction', { textDocument, range: everything, context: { diagnostics } }, GUARD_MS);
    const selectionMs = performance.now() - selectionStart;
    const open = await client.request<ServerMemoryResult>('paperDigest/serverMemory', { collect: true });
    const { peak } = residentMemory(client.pid);
    client.closeDocument(uri);
    await client.waitForNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: unknown[] }) => p.uri === uri && p.diagnostics.length === 0, GUARD_MS, false).catch(() => undefined);
    const closed = await client.request<ServerMemoryResult>('paperDigest/serverMemory', { collect: true });
    const biggest = Object.entries(sizes).sort((a, b) => b[1] - a[1])[0];
    const tooLarge = diagnostics.some((d) => d.code === 'document-too-large');
    return {
      name,
      size,
      answeredMs,
      fixAllMs,
      selectionMs,
      peakAboveIdle: peak - idle.rss,
      heapOpen: open.heapUsed - idle.heapUsed,
      heapClosed: closed.heapUsed - idle.heapUsed,
      rssClosed: closed.rss - idle.rss,
      biggestAnswer: `${biggest[0]} ${mb(biggest[1])}`,
      diagnostics: `${diagnostics.length} diagnostics${tooLarge ? ', document-too-large' : ''}`,
    };
  } finally {
    await client.shutdown();
  }
}

/** Runs every hostile input and prints a row for each; never throws. */
export async function runHostile(): Promise<void> {
  if (!fs.existsSync(SERVER_BUNDLE)) {
    console.log('hostile inputs: dist/server.js is missing; run `node esbuild.mjs` first');
    return;
  }
  console.log(`\nhostile inputs over stdio (fresh node ${SERVER_FLAGS.join(' ')} ${(OUR_SERVER ?? SERVER_BUNDLE).split('/').slice(-2).join('/')} each; target: answered ≤ ${TARGET_MS} ms, peak memory < ${TARGET_RATIO}× the input)`);
  for (const [name, build] of Object.entries(INPUTS)) {
    if (ONLY !== undefined && !name.includes(ONLY)) {
      continue;
    }
    try {
      const outcome = await runOne(name, build());
      // The memory ratio is judged from 1 MB on: below, the server's fixed costs (its young
      // generation alone is 16 MB) are the most of any peak.
      const memoryMet = outcome.size < MEMORY_FROM_BYTES || outcome.peakAboveIdle < TARGET_RATIO * outcome.size;
      const met = outcome.answeredMs <= TARGET_MS && outcome.selectionMs <= TARGET_MS && (outcome.fixAllMs ?? 0) <= TARGET_MS && memoryMet;
      console.log(
        [
          name.padEnd(32),
          mb(outcome.size).padStart(8),
          `answered ${outcome.answeredMs.toFixed(0).padStart(6)} ms`,
          outcome.fixAllMs !== undefined ? `fix-all ${outcome.fixAllMs.toFixed(0)} ms` : '',
          `fixes of a selection of everything ${outcome.selectionMs.toFixed(0)} ms`,
          `peak RSS +${mb(outcome.peakAboveIdle)} (${outcome.size < MEMORY_FROM_BYTES ? 'under 1 MB: no ratio' : `${(outcome.peakAboveIdle / outcome.size).toFixed(1)}×`})`,
          `heap open +${mb(outcome.heapOpen)}`,
          `after close: heap +${mb(outcome.heapClosed)}, RSS +${mb(outcome.rssClosed)}`,
          `biggest answer ${outcome.biggestAnswer}`,
          outcome.diagnostics,
          met ? '(target: met)' : '(target: MISSED)',
        ]
          .filter((part) => part.length > 0)
          .join('  '),
      );
    } catch (error) {
      console.log(`${name.padEnd(32)}  failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
}

/** The lines' lengths compared: nine tenths of the longest a line may be (100,000 characters) and a tenth of that; a tenth of each for `--size small`. */
const LINE_LENGTHS = { full: [9_000, 90_000], small: [900, 9_000] };
/** Ten times the line may cost at most this many times as much (linear: about ten). */
const LINE_GROWTH_TARGET = 30;

/**
 * The cost of one line: for each kind of hostile line (generate.ts `hostileLines`), a digest
 * whose one paper has that line, of 9,000 and of 90,000 characters (the limit is 100,000; 900 and
 * 9,000 for `--size small`), opened
 * in one server; the time until its diagnostics are published and every per-document request
 * about the line is answered, its quick fixes over the whole line included. Ten times the line
 * must cost at most `LINE_GROWTH_TARGET` times the time: nothing quadratic in a line.
 */
export async function runLineGrowth(size: 'small' | 'full' = 'full'): Promise<void> {
  if (!fs.existsSync(SERVER_BUNDLE)) {
    return;
  }
  const lengths = LINE_LENGTHS[size];
  console.log(`\none long line over stdio: ${lengths.map((n) => n.toLocaleString('en')).join(' and ')} characters, every request about it (target: ten times the line ≤ ${LINE_GROWTH_TARGET}× the time)`);
  const client = await LspClient.start({ rootUri: null, execArgv: [...SERVER_FLAGS, '--expose-gc'], serverModule: OUR_SERVER, timeoutMs: GUARD_MS });
  try {
    let round = 0;
    const timeOf = async (line: string): Promise<number> => {
      const text = ['大模型推理能力', 'Sparse Probes', '稀疏探针', 'Mei Tanaka, Lin Qiu', line, 'AI总结 好。'].join('\n\n') + '\n';
      const uri = `file:///virtual/line-${round++}.digest`;
      const textDocument = { uri };
      const lineNumber = 8;
      const whole = { start: { line: lineNumber, character: 0 }, end: { line: lineNumber, character: line.length } };
      const at = { line: lineNumber, character: Math.floor(line.length / 2) };
      const start = performance.now();
      const published = client.waitForNotification<{ uri: string; diagnostics: unknown[] }>('textDocument/publishDiagnostics', (p) => p.uri === uri, GUARD_MS, true);
      client.openDocument(uri, text);
      await Promise.all([
        client.request('textDocument/documentSymbol', { textDocument }),
        client.request('textDocument/foldingRange', { textDocument }),
        client.request('textDocument/semanticTokens/full', { textDocument }),
        client.request('textDocument/hover', { textDocument, position: at }),
        client.request('textDocument/documentLink', { textDocument }),
        client.request('textDocument/selectionRange', { textDocument, positions: [at] }),
        client.request('textDocument/completion', { textDocument, position: at }),
        client.request('textDocument/documentHighlight', { textDocument, position: at }),
      ]);
      const { diagnostics } = await published;
      await client.request('textDocument/codeAction', { textDocument, range: whole, context: { diagnostics } });
      const time = performance.now() - start;
      client.closeDocument(uri);
      return time;
    };
    // Warm up, then the shorter and the longer line in turns, the median of three each.
    await timeOf(hostileLines(2_000).institutions);
    for (const [name] of Object.entries(hostileLines(100))) {
      const times: number[][] = lengths.map(() => []);
      for (let i = 0; i < 3; i++) {
        for (const [k, length] of lengths.entries()) times[k].push(await timeOf(hostileLines(length)[name as keyof ReturnType<typeof hostileLines>]));
      }
      const [short, long] = times.map((each) => each.sort((a, b) => a - b)[1]);
      const growth = long / Math.max(short, 0.5);
      console.log(`  ${name.padEnd(14)} ${short.toFixed(0).padStart(5)} → ${long.toFixed(0).padStart(6)} ms  ${growth.toFixed(1)}× the time for 10× the line  (target ≤ ${LINE_GROWTH_TARGET}×: ${growth <= LINE_GROWTH_TARGET ? 'met' : 'MISSED'})`);
    }
  } catch (error) {
    console.log(`  failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    await client.shutdown();
  }
}

if (require.main === module) {
  // HOSTILE_ONLY=growth: the long lines alone.
  void (ONLY === 'growth' ? runLineGrowth() : runHostile().then(() => (ONLY === undefined ? runLineGrowth() : undefined)));
}
