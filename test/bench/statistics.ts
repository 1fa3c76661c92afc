/**
 * The statistics part of `npm run bench`: a year of daily digests (dated file names), the
 * statistics computed in this process and asked of the bundled server over stdio
 * (`paperDigest/statistics`, request to answer, with the answer's size), against a floor measured
 * in the same round: one pass over the same papers that only reads the fields the statistics
 * count. Then the dashboard's charts laid out from those numbers (the marks the page turns into
 * SVG elements: bounded by the rows shown and the dates, not by the papers). Target (from the
 * statistics issue): 100,000 papers under 200 ms. Reported, never an exit code.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DigestStatistics, digestStatistics } from '../../server/src/service/features/statistics';
import { dashboardCharts } from '../../server/src/service/charts';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type { BenchSize } from './e2e';
import { generatedEntry } from './generate';
import { SERVER_NODE_OPTIONS } from '../../server/src/nodeOptions';

const SIZES: Record<BenchSize, { files: number; papersPerFile: number; rounds: number }> = {
  small: { files: 20, papersPerFile: 100, rounds: 3 },
  full: { files: 365, papersPerFile: 274, rounds: 3 },
};
const TARGET_MS = 200;
const TOPICS = ['数学推理', '代码生成', '智能体规划', '多模态推理', '定理证明', '对齐与安全'];

/** Digest `f` of the year: dated, its papers spread over a few topics. */
function dayText(f: number, papers: number): string {
  const paragraphs = ['大模型推理能力'];
  for (let i = 0; i < papers; i++) {
    const entry = generatedEntry(f * papers + i);
    entry[4] = entry[4].replace('数学推理', TOPICS[(f + i) % TOPICS.length]);
    paragraphs.push(...entry);
  }
  return paragraphs.join('\n\n') + '\n';
}

function dayName(f: number): string {
  return new Date(Date.UTC(2026, 0, 1 + f)).toISOString().slice(0, 10) + '.digest';
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function minMedian(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(1)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms`;
}

/** The floor: one pass over the papers reading what the statistics count. */
function floorPass(index: WorkspaceIndex): number {
  let sum = 0;
  for (const file of index.files()) {
    for (const paper of file.papers) {
      sum += paper.topic.length + paper.keywords.length + paper.categories.length + paper.institutions.length + paper.titleKey.length;
    }
  }
  return sum;
}

export async function runStatisticsBench(size: BenchSize): Promise<void> {
  const { files, papersPerFile, rounds } = SIZES[size];
  const papers = files * papersPerFile;
  console.log(`\nstatistics of ${files} dated digests × ${papersPerFile} papers (${papers.toLocaleString('en')} papers), ${rounds} rounds, min / median`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-bench-'));
  try {
    const index = new WorkspaceIndex();
    for (let f = 0; f < files; f++) {
      const file = path.join(root, dayName(f));
      const text = dayText(f, papersPerFile);
      fs.writeFileSync(file, text);
      index.update(pathToFileURL(file).href, text);
    }
    const inProcess: number[] = [];
    const floor: number[] = [];
    const ratios: number[] = [];
    const layout: number[] = [];
    const cpu: number[] = [];
    let last: DigestStatistics | undefined;
    for (let round = 0; round < rounds + 1; round++) {
      let started = now();
      floorPass(index);
      const floorTime = now() - started;
      started = now();
      const cpuStart = process.cpuUsage();
      const stats = digestStatistics(index);
      const time = now() - started;
      const used = process.cpuUsage(cpuStart);
      if (stats.paperCount !== papers) {
        throw new Error(`statistics counted ${stats.paperCount} papers, not ${papers}`);
      }
      // What the dashboard does with them before it makes SVG elements: the charts' marks.
      started = now();
      dashboardCharts(stats, 1400);
      const layoutTime = now() - started;
      last = stats;
      if (round > 0) {
        layout.push(layoutTime);
        // The first round warms up.
        inProcess.push(time);
        cpu.push((used.user + used.system) / 1e3);
        floor.push(floorTime);
        ratios.push(time / Math.max(floorTime, 0.01));
      }
    }
    const median = [...inProcess].sort((a, b) => a - b)[Math.floor(inProcess.length / 2)];
    console.log(`  in process: statistics          ${minMedian(inProcess)}  (CPU ${minMedian(cpu)}; ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)].toFixed(1)}× the floor pass, ${minMedian(floor)})  target ≤ ${TARGET_MS} ms: ${median <= TARGET_MS ? 'met' : 'MISSED'}`);

    const marks = dashboardCharts(last!, 1400).reduce((sum, chart) => sum + chart.marks.length, 0);
    console.log(`  in process: the dashboard's charts ${minMedian(layout)}  (${marks} marks, the SVG elements the page makes, for ${last!.dates.length} dates)`);

    if (!fs.existsSync(SERVER_BUNDLE)) {
      console.log('  over stdio: skipped, dist/server.js is missing (run `npm run build`)');
      return;
    }
    const first: number[] = [];
    const repeat: number[] = [];
    let bytes = 0;
    for (let round = 0; round < rounds; round++) {
      const client = await LspClient.start({ rootUri: pathToFileURL(root).href, timeoutMs: 600_000, execArgv: SERVER_NODE_OPTIONS });
      try {
        // The first answer waits for the scan of the folder; take the time after it.
        await client.request('paperDigest/papersTree', { grouping: 'file', filter: '' });
        let started = now();
        const stats = await client.request<{ paperCount: number }>('paperDigest/statistics', {});
        first.push(now() - started);
        bytes = client.lastResponseBytes;
        if (stats.paperCount !== papers) {
          throw new Error(`the server counted ${stats.paperCount} papers, not ${papers}`);
        }
        started = now();
        await client.request('paperDigest/statistics', {});
        repeat.push(now() - started);
      } finally {
        await client.shutdown();
      }
    }
    const firstMedian = [...first].sort((a, b) => a - b)[Math.floor(first.length / 2)];
    console.log(`  over stdio: request → answer    ${minMedian(first)}  (answer ${(bytes / 1024).toFixed(0)} KB)  target ≤ ${TARGET_MS} ms: ${firstMedian <= TARGET_MS ? 'met' : 'MISSED'}`);
    console.log(`  over stdio: the same, unchanged ${minMedian(repeat)}  (kept per index generation)`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
