/**
 * `npm run bench`: speed and memory of the service on a 10,000-entry digest, measured side by
 * side in one run and reported as ratios to a plain line scan of the same text. Targets are
 * checked here, never in timed unit tests; a missed target makes the run exit non-zero.
 */
import { documentSymbols } from '../../server/src/service/features/symbols';
import { parseDigest } from '../../server/src/service/parser';
import { generatedDigest } from './generate';

interface Result {
  name: string;
  ms: number;
  target?: number;
}

/** The median of several runs, after warm-up runs. */
function measure(run: () => unknown, repeats = 9): number {
  for (let i = 0; i < 3; i++) run();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The baseline: split the text into lines and look at the first character of each. */
function plainLineScan(text: string): number {
  let count = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.length > 0 && line.charCodeAt(0) !== 0x20) count++;
  }
  return count;
}

export function runBenchmarks(): Result[] {
  const entries = Number(process.env.BENCH_ENTRIES ?? 10000);
  const text = generatedDigest(entries);
  const bytes = Buffer.byteLength(text, 'utf8');
  console.log(`digest: ${entries} entries, ${(bytes / 1e6).toFixed(2)} MB, ${text.split('\n').length} lines`);
  const results: Result[] = [];
  const scan = measure(() => plainLineScan(text));
  results.push({ name: 'plain line scan (baseline)', ms: scan });
  results.push({ name: 'parse', ms: measure(() => parseDigest(text)) });
  const doc = parseDigest(text);
  results.push({ name: 'outline', ms: measure(() => documentSymbols(doc)) });
  results.push({ name: 'parse + outline', ms: measure(() => documentSymbols(parseDigest(text))), target: 100 });
  return results;
}

function main(): void {
  const results = runBenchmarks();
  const baseline = results[0].ms;
  let failed = false;
  for (const result of results) {
    const ratio = (result.ms / baseline).toFixed(1);
    const verdict = result.target === undefined ? '' : result.ms <= result.target ? `  (target ≤ ${result.target} ms: met)` : `  (target ≤ ${result.target} ms: MISSED)`;
    failed ||= result.target !== undefined && result.ms > result.target;
    console.log(`${result.name.padEnd(32)} ${result.ms.toFixed(2).padStart(9)} ms  ${ratio.padStart(6)}× line scan${verdict}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main();
