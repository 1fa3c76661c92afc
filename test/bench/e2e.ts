/**
 * The end-to-end part of `npm run bench`: the bundled server (`dist/server.js`) in a separate
 * process over stdio, driven the way an editor drives it, with the node options
 * the extension starts it with. Side by side in each round: the line-scan floor on the same
 * text (in this process) and vscode-markdown-languageserver on the same papers written as
 * Markdown (`## English title` per paper), asked the same requests. Ratios are taken within a
 * round and reported as their median over the rounds; times as min / median.
 *
 * Each round starts fresh servers, opens and closes a small digest to warm them up, then opens
 * the big one under a new URI. A keystroke is one character typed into (or deleted from) the
 * summary of the middle paper, followed by a pause of `TYPING_PAUSE_MS` (longer than the
 * server's diagnostics and index delays), as a user types a word and stops.
 *
 * The workspace half starts the server three times a round on one storage folder
 * (`initializationOptions.keptIndexFolder`, as the extension gives it): with nothing kept, then
 * with the index the start before kept and nothing changed, then with one new digest of as many
 * papers as the others (a morning's new digest), each timed from the start to the Papers tree's
 * first level.
 *
 * Memory: the server is started with `--expose-gc --debug-requests` and asked
 * `paperDigest/debug/memory` (heap after full collections, see server/src/debug.ts); RSS of
 * both servers is read from /proc. `--size small` (for CI) shrinks everything so that the run
 * proves the benchmark works in well under a minute. Missed targets are reported, never an exit
 * code. `node out/test/bench/e2e.js [--size small] [--part document|workspace]` runs this part
 * alone (or only its single-document or its workspace half); `BENCH_PEER=0` leaves the peer out;
 * `--documents 10000` only that document size, `--rounds N` that many rounds;
 * `BENCH_SERVER=path/to/server.js` runs another build of ours (an older one, to compare).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { REPO_ROOT } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import { generatedEntry } from './generate';
import { asciiJson } from '../../server/src/outlineBytes';
import { SERVER_NODE_OPTIONS } from '../../server/src/nodeOptions';

// markdown-it has no types in this project; the benchmark only calls parse().
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new () => { parse(text: string, env: object): unknown[] };

export type BenchSize = 'small' | 'full';

/** `--size small` or `--size full` (the default) from the command line. */
export function benchSize(argv: readonly string[] = process.argv): BenchSize {
  const at = argv.indexOf('--size');
  return at >= 0 && argv[at + 1] === 'small' ? 'small' : 'full';
}

/** `--part document` or `--part workspace` runs only that part; both run by default. */
export function benchPart(argv: readonly string[] = process.argv): 'document' | 'workspace' | 'all' {
  const at = argv.indexOf('--part');
  const value = at >= 0 ? argv[at + 1] : undefined;
  return value === 'document' || value === 'workspace' ? value : 'all';
}

/** `--documents 10000[,1000]`: only these document sizes; `--rounds N`: that many rounds. */
function documentsOption(argv: readonly string[] = process.argv): { documents?: number[]; rounds?: number } {
  const option: { documents?: number[]; rounds?: number } = {};
  const documents = argv.indexOf('--documents');
  if (documents >= 0) option.documents = (argv[documents + 1] ?? '').split(',').map(Number).filter((n) => n > 0);
  const rounds = argv.indexOf('--rounds');
  if (rounds >= 0 && Number(argv[rounds + 1]) > 0) option.rounds = Number(argv[rounds + 1]);
  return option;
}

const SIZES: Record<BenchSize, { documents: number[]; files: number; papersPerFile: number; rounds: number; keystrokes: number }> = {
  small: { documents: [300], files: 10, papersPerFile: 100, rounds: 3, keystrokes: 3 },
  full: { documents: [1000, 10000], files: 100, papersPerFile: 1000, rounds: 3, keystrokes: 5 },
};

/** The node options the extension starts the server with (nodeOptions.ts); `BENCH_FLAGS='--max-semi-space-size=16'` measures others. */
const SERVER_FLAGS = process.env.BENCH_FLAGS !== undefined ? process.env.BENCH_FLAGS.split(' ').filter((f) => f.length > 0) : SERVER_NODE_OPTIONS.filter((f) => f !== '--expose-gc');
const PEER_MODULE = path.join(REPO_ROOT, 'node_modules', 'vscode-markdown-languageserver', 'dist', 'node', 'workerMain.js');
/** The stand-in server of the transport floor, compiled beside this file. */
const TRANSPORT_FLOOR = path.join(__dirname, 'transportFloor.js');
const TYPING_PAUSE_MS = 400;
const PEER = process.env.BENCH_PEER !== '0';
/** `BENCH_SERVER=path/to/server.js`: another build of our server (an older one, to compare). */
const OUR_SERVER = process.env.BENCH_SERVER || undefined;
const TIMEOUT_MS = 600_000;

/** Targets from the performance issue, on 10,000 papers and a workspace of 100,000. */
const TARGETS: Record<string, { max: number; unit: string; at?: number }> = {
  firstOutline: { max: 150, unit: 'ms', at: 10000 },
  repeatOutline: { max: 5, unit: 'ms', at: 10000 },
  keystrokeOutline: { max: 40, unit: 'ms', at: 10000 },
  firstDiagnostics: { max: 300, unit: 'ms', at: 10000 },
  outlineMB: { max: 6, unit: 'MB', at: 10000 },
  heapRatio: { max: 3, unit: '×', at: 10000 },
  treeRoot: { max: 1000, unit: 'ms', at: 100000 },
  treeRootKept: { max: 1000, unit: 'ms', at: 100000 },
  treeRootKeptNew: { max: 1000, unit: 'ms', at: 100000 },
  repeatSymbol: { max: 20, unit: 'ms', at: 100000 },
  workspaceRssMB: { max: 300, unit: 'MB', at: 100000 },
  workspaceIdleRssMB: { max: 300, unit: 'MB', at: 100000 },
};

const LABELS: Record<string, string> = {
  floor: 'line scan of the text (floor)',
  firstOutline: 'didOpen → outline answered',
  repeatOutline: 'same outline again, unchanged',
  repeatOutlineFirstByte: '  of it, to the first byte',
  keystrokeOutline: 'one keystroke → outline',
  keystrokeOutlineFirstByte: '  of it, to the first byte',
  keystrokeDiagnostics: 'one keystroke → diagnostics',
  firstDiagnostics: 'didOpen → first diagnostics',
  keystrokeCpu: 'server CPU per keystroke',
  treeRootCpu: 'server CPU: start → tree root',
  outlineMB: 'outline answer size',
  outlineSymbols: 'outline symbols',
  heapRatio: 'heap after GC / text',
  rssRatio: 'RSS growth / text',
  treeRoot: 'start → tree root, nothing kept',
  treeRootKept: '  index kept, nothing changed',
  treeRootKeptNew: '  index kept, one new digest',
  firstSymbol: 'first workspace symbol',
  repeatSymbol: 'repeated workspace symbol',
  workspaceRssMB: 'RSS with the workspace indexed',
  workspaceIdleRssMB: 'RSS once idle (up to 30 s)',
  workspaceHeapMB: 'heap with the workspace indexed',
};

type Sample = Record<string, number | undefined>;

interface Side {
  readonly samples: Sample[];
  failure?: string;
}

/** Runs the end-to-end benchmark and prints its tables. */
export async function runEndToEnd(size: BenchSize = benchSize()): Promise<void> {
  if (!fs.existsSync(SERVER_BUNDLE)) {
    console.log(`\nend to end: skipped, ${path.relative(REPO_ROOT, SERVER_BUNDLE)} is missing (run \`npm run build\`)`);
    return;
  }
  const sizes = { ...SIZES[size], ...documentsOption() };
  console.log(`\nend to end over stdio (${size} size): ${sizes.rounds} rounds, min / median; ratios are medians of per-round ratios`);
  console.log(`node ${process.version} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const part = benchPart();
  if (part !== 'workspace') {
    for (const papers of sizes.documents) {
      await documentBenchmark(papers, sizes.rounds, sizes.keystrokes);
    }
  }
  if (part !== 'document') {
    await workspaceBenchmark(sizes.files, sizes.papersPerFile, sizes.rounds);
  }
  console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

// ---- Texts --------------------------------------------------------------------------------

function digestText(first: number, count: number): string {
  const paragraphs = ['大模型推理能力'];
  for (let i = first; i < first + count; i++) paragraphs.push(...generatedEntry(i));
  return Buffer.from(paragraphs.join('\n\n') + '\n', 'utf8').toString('utf8');
}

/** The same papers as Markdown: the heading as `#`, each English title as `##`, lines kept in place. */
function markdownText(first: number, count: number): string {
  const paragraphs = ['# 大模型推理能力'];
  for (let i = first; i < first + count; i++) {
    const [title, ...rest] = generatedEntry(i);
    paragraphs.push('## ' + title, ...rest);
  }
  return Buffer.from(paragraphs.join('\n\n') + '\n', 'utf8').toString('utf8');
}

/** The summary line of the middle paper (both texts put it on the same line). */
function keystrokePosition(count: number): { line: number; character: number } {
  return { line: 2 + 14 * Math.floor(count / 2) + 10, character: 10 };
}

function lineScan(text: string): number {
  let count = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.length > 0 && line.charCodeAt(0) !== 0x20) count++;
  }
  return count;
}

// ---- Servers --------------------------------------------------------------------------------

interface Server {
  readonly name: string;
  readonly languageId: string;
  readonly extension: string;
  readonly client: LspClient;
  readonly pullDiagnostics: boolean;
  /** Texts the server may ask the client for (the peer parses through its client). */
  readonly texts: Map<string, string>;
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Resident set size of a process, from /proc; undefined where there is none. */
function rssOf(pid: number | undefined): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time a process used so far (user + system), in ms, from /proc. */
function cpuOf(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function startOurs(rootUri: string | null, keptIndexFolder?: string): Promise<Server> {
  const client = await LspClient.start({
    rootUri,
    timeoutMs: TIMEOUT_MS,
    // Where the extension has the server keep its index between starts (VS Code's workspace
    // storage), and the grouping the Papers view starts in (by topic in a new workspace), which
    // the server reads the digests for before the rest.
    initializationOptions: keptIndexFolder ? { keptIndexFolder, papersGrouping: 'topic' } : undefined,
    serverModule: OUR_SERVER,
    execArgv: [...SERVER_FLAGS, '--expose-gc'],
    args: ['--debug-requests'],
    capabilities: {
      workspace: { workspaceFolders: true, configuration: false, symbol: {}, didChangeWatchedFiles: {} },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
        diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      },
    },
  });
  const pullDiagnostics = client.initializeResult?.capabilities?.diagnosticProvider !== undefined;
  return { name: 'paper-digest', languageId: 'paper-digest', extension: '.digest', client, pullDiagnostics, texts: new Map() };
}

/** The transport floor (transportFloor.ts): a stand-in server answering the outline with `answerFile`'s bytes. */
async function startTransportFloor(answerFile: string): Promise<Server> {
  const client = await LspClient.start({
    rootUri: null,
    timeoutMs: TIMEOUT_MS,
    serverModule: TRANSPORT_FLOOR,
    execArgv: SERVER_FLAGS,
    args: [answerFile],
    capabilities: { textDocument: { diagnostic: { dynamicRegistration: false }, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
  });
  return { name: 'transport floor', languageId: 'paper-digest', extension: '.digest', client, pullDiagnostics: true, texts: new Map() };
}

async function startPeer(rootUri: string | null, texts: Map<string, string> = new Map()): Promise<Server> {
  const markdown = new MarkdownIt();
  const client = await LspClient.start({
    rootUri,
    timeoutMs: TIMEOUT_MS,
    serverModule: PEER_MODULE,
    execArgv: SERVER_FLAGS,
    initializationOptions: { markdownFileExtensions: ['md'] },
    capabilities: {
      workspace: { workspaceFolders: true, configuration: true, symbol: {} },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        diagnostic: { dynamicRegistration: false },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      },
    },
    onServerRequest: (method, params) => {
      const uri = (params as { uri?: string } | undefined)?.uri ?? '';
      switch (method) {
        case 'markdown/parse':
          return markdown.parse((params as { text?: string }).text ?? texts.get(uri) ?? '', {});
        case 'markdown/findMarkdownFilesInWorkspace':
          return [...texts.keys()].filter((each) => !each.includes('/open/'));
        case 'markdown/fs/readFile':
          return Array.from(Buffer.from(texts.get(uri) ?? '', 'utf8'));
        case 'markdown/fs/stat':
          return texts.has(uri) ? { isDirectory: false } : null;
        case 'markdown/fs/readDirectory':
          return [];
        case 'workspace/configuration':
          return (params as { items: unknown[] }).items.map(() => ({ validate: { enabled: true }, suggest: { paths: { enabled: false } } }));
        default:
          return null;
      }
    },
  });
  const pullDiagnostics = client.initializeResult?.capabilities?.diagnosticProvider !== undefined;
  return { name: 'markdown server', languageId: 'markdown', extension: '.md', client, pullDiagnostics, texts };
}

/** Starts waiting for a document version's diagnostics; the returned promise resolves when they are in. */
function diagnosticsOf(server: Server, uri: string, version: number): () => Promise<void> {
  if (server.pullDiagnostics) {
    return () => server.client.request('textDocument/diagnostic', { textDocument: { uri } }).then(() => undefined);
  }
  const published = server.client.waitForNotification<{ uri: string; version?: number }>(
    'textDocument/publishDiagnostics',
    (p) => p.uri === uri && (p.version === undefined || p.version === version),
  );
  return () => published.then(() => undefined);
}

function countSymbols(symbols: unknown): number {
  if (!Array.isArray(symbols)) return 0;
  let count = 0;
  for (const symbol of symbols as { children?: unknown }[]) count += 1 + countSymbols(symbol.children);
  return count;
}

async function memoryOf(server: Server): Promise<{ heapUsed?: number; rss?: number }> {
  if (server.name === 'paper-digest') {
    const memory = await server.client.request<{ heapUsed: number; rss: number; collected: boolean }>('paperDigest/debug/memory');
    return { heapUsed: memory.collected ? memory.heapUsed : undefined, rss: rssOf(server.client.pid) };
  }
  return { rss: rssOf(server.client.pid) };
}

/** Opens a document, asks its outline and diagnostics, and closes it again. */
async function warmUp(server: Server, text: string): Promise<void> {
  const uri = `file:///bench/warm-up${server.extension}`;
  server.texts.set(uri, text);
  const diagnostics = diagnosticsOf(server, uri, 1);
  server.client.openDocument(uri, text, server.languageId);
  await server.client.request('textDocument/documentSymbol', { textDocument: { uri } });
  await diagnostics();
  server.client.closeDocument(uri);
  server.texts.delete(uri);
}

/** One round on one server: open, outline, diagnostics, the outline again, keystrokes, memory. */
async function documentRound(server: Server, text: string, count: number, round: number, keystrokes: number, onOutline?: (outline: unknown) => void): Promise<Sample> {
  const client = server.client;
  const textDocument = { uri: `file:///bench/open/papers-${count}-${round}${server.extension}` };
  const uri = textDocument.uri;
  const sample: Sample = {};
  const before = await memoryOf(server);
  server.texts.set(uri, text);
  let document = TextDocument.create(uri, server.languageId, 1, text);

  const diagnosticsWait = diagnosticsOf(server, uri, 1);
  const opened = now();
  client.openDocument(uri, text, server.languageId);
  const outline = client.timedRequest('textDocument/documentSymbol', { textDocument }).then(({ result: symbols, bytes }) => {
    sample.firstOutline = now() - opened;
    // The whole response message as sent (our server writes characters outside ASCII as escapes).
    sample.outlineMB = bytes / 1e6;
    sample.outlineSymbols = countSymbols(symbols);
    onOutline?.(symbols);
  });
  const diagnostics = diagnosticsWait().then(() => {
    sample.firstDiagnostics = now() - opened;
  });
  await Promise.all([outline, diagnostics]);

  // The first byte of an answer arrives once the server has done all its work for it; the rest
  // of the time is the pipe and this client decoding the answer.
  let start = now();
  const repeat = await client.timedRequest('textDocument/documentSymbol', { textDocument });
  sample.repeatOutline = now() - start;
  sample.repeatOutlineFirstByte = repeat.firstByteAt - start;

  const at = keystrokePosition(count);
  const outlineTimes: number[] = [];
  const outlineFirstBytes: number[] = [];
  const diagnosticTimes: number[] = [];
  const cpuBefore = cpuOf(client.pid);
  for (let i = 0; i < keystrokes; i++) {
    const change = i % 2 === 0 ? { range: { start: at, end: at }, text: '字' } : { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' };
    document = TextDocument.update(document, [change], document.version + 1);
    server.texts.set(uri, document.getText());
    const version = document.version;
    const waitDiagnostics = diagnosticsOf(server, uri, version);
    start = now();
    client.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    await Promise.all([
      client.timedRequest('textDocument/documentSymbol', { textDocument }).then(({ firstByteAt }) => {
        outlineTimes.push(now() - start);
        outlineFirstBytes.push(firstByteAt - start);
      }),
      waitDiagnostics().then(() => diagnosticTimes.push(now() - start)),
    ]);
    // A pause in typing: the server's delayed work (diagnostics, the workspace index) runs now.
    await new Promise((resolve) => setTimeout(resolve, TYPING_PAUSE_MS));
  }
  const cpuAfter = cpuOf(client.pid);
  sample.keystrokeOutline = median(outlineTimes);
  sample.keystrokeOutlineFirstByte = median(outlineFirstBytes);
  sample.keystrokeDiagnostics = median(diagnosticTimes);
  sample.keystrokeCpu = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / keystrokes : undefined;

  const after = await memoryOf(server);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (after.heapUsed !== undefined && before.heapUsed !== undefined) sample.heapRatio = (after.heapUsed - before.heapUsed) / bytes;
  if (after.rss !== undefined && before.rss !== undefined) sample.rssRatio = (after.rss - before.rss) / bytes;
  client.closeDocument(uri);
  server.texts.delete(uri);
  return sample;
}

async function documentBenchmark(count: number, rounds: number, keystrokes: number): Promise<void> {
  const text = digestText(0, count);
  const markdown = markdownText(0, count);
  const warmText = digestText(0, 100);
  const warmMarkdown = markdownText(0, 100);
  const floor: Side = { samples: [] };
  const ours: Side = { samples: [] };
  const peer: Side = { samples: [] };
  const transport: Side = { samples: [] };
  const answerFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-floor-'));
  const answerFile = path.join(answerFolder, 'outline.json');
  for (let round = 0; round < rounds; round++) {
    const scans: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = now();
      lineScan(text);
      scans.push(now() - start);
    }
    floor.samples.push({ floor: median(scans) });
    await onServer(ours, () => startOurs(null), async (server) => {
      await warmUp(server, warmText);
      // Our outline's JSON as our server writes it (ASCII), for the transport floor to answer with.
      return documentRound(server, text, count, round, keystrokes, (outline) => fs.writeFileSync(answerFile, asciiJson(JSON.stringify(outline))));
    });
    if (fs.existsSync(answerFile)) {
      await onServer(transport, () => startTransportFloor(answerFile), async (server) => {
        await warmUp(server, warmText);
        return documentRound(server, text, count, round, keystrokes);
      });
    }
    if (!peer.failure && PEER) {
      await onServer(peer, () => startPeer(null), async (server) => {
        await warmUp(server, warmMarkdown);
        return documentRound(server, markdown, count, round, keystrokes);
      });
    }
  }
  fs.rmSync(answerFolder, { recursive: true, force: true });
  const mb = (Buffer.byteLength(text, 'utf8') / 1e6).toFixed(2);
  printTable(`${count.toLocaleString('en')} papers in one digest (${mb} MB; as Markdown for the peer)`, count, floor, ours, peer, [
    'firstOutline',
    'repeatOutline',
    'repeatOutlineFirstByte',
    'keystrokeOutline',
    'keystrokeOutlineFirstByte',
    'firstDiagnostics',
    'keystrokeDiagnostics',
    'keystrokeCpu',
    'outlineMB',
    'outlineSymbols',
    'heapRatio',
    'rssRatio',
  ], transport);
}

async function workspaceBenchmark(files: number, papersPerFile: number, rounds: number): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-bench-'));
  try {
    const digestRoot = path.join(root, 'digests');
    fs.mkdirSync(digestRoot);
    const markdownTexts = new Map<string, string>();
    for (let f = 0; f < files; f++) {
      const name = `day-${String(f).padStart(3, '0')}`;
      const file = path.join(digestRoot, name + '.digest');
      fs.writeFileSync(file, digestText(f * papersPerFile, papersPerFile));
      // Digests of days before (the server keeps no file written in the last two seconds).
      const day = new Date(Date.now() - (files - f) * 86_400_000);
      fs.utimesSync(file, day, day);
      markdownTexts.set(pathToFileURL(path.join(root, 'markdown', name + '.md')).href, markdownText(f * papersPerFile, papersPerFile));
    }
    const query = generatedEntry(Math.floor((files * papersPerFile) / 2))[0];
    const ours: Side = { samples: [] };
    const peer: Side = { samples: [] };
    const newDigest = path.join(digestRoot, 'day-new.digest');
    for (let round = 0; round < rounds; round++) {
      // A new storage folder each round: the first start has nothing kept.
      const storage = fs.mkdtempSync(path.join(root, 'storage-'));
      const treeRoot = async (server: Server): Promise<number> => {
        const started = now();
        await server.client.request('paperDigest/papersTree', { grouping: 'topic', filter: '' });
        return now() - started;
      };
      const samplesBefore = ours.samples.length;
      await onServer(ours, () => startOurs(pathToFileURL(digestRoot).href, storage), async (server) => {
        const sample: Sample = {};
        sample.treeRoot = await treeRoot(server);
        // CPU time varies less than the wall clock on a loaded machine.
        sample.treeRootCpu = cpuOf(server.client.pid);
        await symbolTimes(server, query, sample);
        const memory = await memoryOf(server);
        sample.workspaceRssMB = memory.rss !== undefined ? memory.rss / 1e6 : undefined;
        sample.workspaceHeapMB = memory.heapUsed !== undefined ? memory.heapUsed / 1e6 : undefined;
        // (Not for the small size CI runs: waiting is all it would prove.)
        sample.workspaceIdleRssMB = files * papersPerFile >= 10_000 ? await idleRss(server) : undefined;
        return sample;
      });
      // The next starts, with the index kept by the one before: nothing changed since, then
      // the morning's case, one new digest of as many papers.
      // This round's sample (none when its first start failed).
      const sample = ours.samples.length > samplesBefore ? ours.samples[ours.samples.length - 1] : undefined;
      const restart = async (metric: string): Promise<void> => {
        const side: Side = { samples: [] };
        await onServer(side, () => startOurs(pathToFileURL(digestRoot).href, storage), async (server) => ({ [metric]: await treeRoot(server) }));
        if (sample) sample[metric] = side.samples[0]?.[metric];
        ours.failure ??= side.failure;
      };
      await restart('treeRootKept');
      fs.writeFileSync(newDigest, digestText(files * papersPerFile, papersPerFile));
      await restart('treeRootKeptNew');
      fs.rmSync(newDigest);
      if (!peer.failure && PEER) {
        await onServer(peer, () => startPeer(pathToFileURL(path.join(root, 'markdown')).href, markdownTexts), async (server) => {
          const sample: Sample = {};
          await symbolTimes(server, query, sample);
          const memory = await memoryOf(server);
          sample.workspaceRssMB = memory.rss !== undefined ? memory.rss / 1e6 : undefined;
          return sample;
        });
      }
    }
    printTable(`workspace of ${files} digests × ${papersPerFile.toLocaleString('en')} papers`, files * papersPerFile, { samples: [] }, ours, peer, [
      'treeRoot',
      'treeRootKept',
      'treeRootKeptNew',
      'treeRootCpu',
      'firstSymbol',
      'repeatSymbol',
      'workspaceRssMB',
      'workspaceIdleRssMB',
      'workspaceHeapMB',
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The server's RSS (from /proc, no collection asked) once it has stayed idle: read every half
 * second until it has fallen by a quarter (the server collects once idle after its scan) or for
 * `IDLE_RSS_MS`, in MB.
 */
async function idleRss(server: Server): Promise<number | undefined> {
  const first = rssOf(server.client.pid);
  if (first === undefined) return undefined;
  let last = first;
  for (const started = now(); now() - started < IDLE_RSS_MS && last > first * 0.75; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    last = rssOf(server.client.pid) ?? last;
  }
  return last / 1e6;
}

const IDLE_RSS_MS = 30_000;

async function symbolTimes(server: Server, query: string, sample: Sample): Promise<void> {
  let start = now();
  const first = await server.client.request<unknown[]>('workspace/symbol', { query });
  sample.firstSymbol = now() - start;
  if (!Array.isArray(first) || first.length === 0) {
    throw new Error(`workspace/symbol found nothing for "${query}"`);
  }
  const repeats: number[] = [];
  for (let i = 0; i < 5; i++) {
    start = now();
    await server.client.request('workspace/symbol', { query });
    repeats.push(now() - start);
  }
  sample.repeatSymbol = median(repeats);
}

/** Starts a server, runs one round on it and shuts it down; a failure is recorded, not thrown. */
async function onServer(side: Side, start: () => Promise<Server>, run: (server: Server) => Promise<Sample>): Promise<void> {
  let server: Server | undefined;
  try {
    server = await start();
    side.samples.push(await run(server));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    side.failure = message.split('\n').find((line) => /RangeError|Maximum call stack|heap out of memory|Error/.test(line))?.trim() ?? message.split('\n')[0];
  } finally {
    await server?.client.shutdown(30_000);
  }
}

// ---- Report ---------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function format(metric: string, value: number): string {
  if (metric === 'outlineSymbols') return Math.round(value).toLocaleString('en');
  if (metric.endsWith('Ratio')) return value.toFixed(1) + '×';
  if (metric.endsWith('MB')) return value.toFixed(metric === 'outlineMB' ? 2 : 0) + ' MB';
  return value < 10 ? value.toFixed(1) + ' ms' : Math.round(value).toLocaleString('en') + ' ms';
}

function minMedian(metric: string, samples: readonly Sample[]): string {
  const values = samples.map((s) => s[metric]).filter((v): v is number => v !== undefined);
  if (values.length === 0) return 'n/a';
  const min = Math.min(...values);
  const mid = median(values);
  const unitless = (text: string): string => text.replace(/ (ms|MB)$/, '').replace(/×$/, '');
  return min === mid ? format(metric, mid) : `${unitless(format(metric, min))} / ${format(metric, mid)}`;
}

/** The median over rounds of `a[metric] / b[other]`, each round against itself. */
function ratio(a: readonly Sample[], metric: string, b: readonly Sample[], other: string): string {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i][metric];
    const y = b[i][other];
    if (x !== undefined && y !== undefined && y > 0) ratios.push(x / y);
  }
  if (ratios.length === 0) return '';
  const r = median(ratios);
  return (r >= 10 ? Math.round(r).toLocaleString('en') : r.toFixed(r >= 1 ? 1 : 2)) + '×';
}

function printTable(title: string, papers: number, floor: Side, ours: Side, peer: Side, metrics: readonly string[], transport?: Side): void {
  console.log(`\n${title}`);
  const header = ['what'.padEnd(32), 'paper-digest'.padEnd(20), 'target'.padEnd(18), '× floor'.padEnd(9)];
  if (transport) header.push('transport floor'.padEnd(18), '× transport'.padEnd(12));
  header.push('markdown server'.padEnd(20), 'peer ÷ ours');
  console.log(header.join(' '));
  if (floor.samples.length > 0) {
    console.log([LABELS.floor.padEnd(32), minMedian('floor', floor.samples).padEnd(20)].join(' '));
  }
  if (ours.failure) console.log(`  paper-digest failed: ${ours.failure}`);
  for (const metric of metrics) {
    const target = TARGETS[metric];
    let targetText = '';
    if (target) {
      const values = ours.samples.map((s) => s[metric]).filter((v): v is number => v !== undefined);
      const applies = target.at === undefined || papers >= target.at;
      const met = values.length > 0 && median(values) < target.max;
      targetText = `< ${target.max} ${target.unit}`.replace(' ×', '×') + (applies ? (met ? ': met' : ': MISSED') : '');
    }
    const isTime = !/MB|Ratio|Symbols|Cpu/.test(metric) && floor.samples.length > 0;
    const row = [LABELS[metric].padEnd(32), minMedian(metric, ours.samples).padEnd(20), targetText.padEnd(18), (isTime ? ratio(ours.samples, metric, floor.samples, 'floor') : '').padEnd(9)];
    if (transport) {
      // The stand-in's own numbers where they say something (times, the answer's size).
      const shown = isTime || metric === 'outlineMB';
      row.push((transport.failure ? 'failed' : shown ? minMedian(metric, transport.samples) : '').padEnd(18), (shown && isTime ? ratio(ours.samples, metric, transport.samples, metric) : '').padEnd(12));
    }
    row.push((peer.failure ? 'failed' : minMedian(metric, peer.samples)).padEnd(20), peer.failure ? '' : ratio(peer.samples, metric, ours.samples, metric));
    console.log(row.join(' '));
  }
  if (transport?.failure) console.log(`  transport floor failed: ${transport.failure}`);
  if (peer.failure) console.log(`  markdown server failed: ${peer.failure}`);
}

if (require.main === module) {
  runEndToEnd().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  });
}
