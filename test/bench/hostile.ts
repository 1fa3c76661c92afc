/**
 * The bundled server (`dist/server.js`, run as the extension runs it) on hostile and huge
 * documents of up to 32 MB, driven over stdio from this process: for each input, a fresh server
 * opens the document, publishes its diagnostics and answers every per-document request; then the
 * document is closed. Reported: the time until everything was answered, the server's peak
 * resident memory (VmHWM) above its idle size, its heap after a collection, the size of the
 * biggest answer, and the memory left after close. The target: every input answered within 2 s,
 * with a peak under 10× its size. It reports; it never fails the run.
 *
 * HOSTILE_SCALE=0.1 runs the inputs at a tenth of their size; HOSTILE_ONLY=lines runs only the
 * inputs whose name contains `lines`; `BENCH_SERVER=path/to/server.js` runs another build (an
 * older one, to compare); `BENCH_FLAGS='--max-semi-space-size=16'` starts it with other node flags
 * than the extension's (`--expose-gc` is always added).
 */
import * as fs from 'node:fs';
import type { ServerMemoryResult } from '../../server/src/protocol';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import { generatedDigest, generatedEntry } from './generate';
import { SERVER_NODE_OPTIONS } from '../../server/src/nodeOptions';

const SCALE = Number(process.env.HOSTILE_SCALE ?? 1);
const TARGET_MS = 2_000;
const TARGET_RATIO = 10;
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
      const met = outcome.answeredMs <= TARGET_MS && outcome.peakAboveIdle < TARGET_RATIO * outcome.size;
      console.log(
        [
          name.padEnd(32),
          mb(outcome.size).padStart(8),
          `answered ${outcome.answeredMs.toFixed(0).padStart(6)} ms`,
          outcome.fixAllMs !== undefined ? `fix-all ${outcome.fixAllMs.toFixed(0)} ms` : '',
          `peak RSS +${mb(outcome.peakAboveIdle)} (${(outcome.peakAboveIdle / outcome.size).toFixed(1)}×)`,
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

if (require.main === module) {
  void runHostile();
}
