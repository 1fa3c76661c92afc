/**
 * The results file a suite in an extension host writes as it runs (test/editor/suite through
 * runInCodeServer.ts, test/web/suite in the web worker through runInWebWorker.ts), read and
 * printed by the runners on Node.
 */
import * as fs from 'fs';

/** One test as the suite reported it. */
export interface TestRecord {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  /** A before/after hook failed, not a test. */
  hook?: boolean;
  error?: string;
}

/** The results file as last written, or undefined while it is not there or not complete JSON. */
export function readResults<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Prints each test under `heading`, and the one that started and did not finish.
 *
 * @example
 * const counts = printResults('Results (Mocha in …):', results); // { passed: 7, failed: 0, pending: 0 }
 */
export function printResults(
  heading: string,
  results: { readonly tests: readonly TestRecord[]; readonly current?: string } | undefined,
): { passed: number; failed: number; pending: number } {
  const counts = { passed: 0, failed: 0, pending: 0 };
  console.log('');
  console.log(heading);
  for (const t of results?.tests ?? []) {
    const ms = t.durationMs !== undefined ? ` (${t.durationMs} ms)` : '';
    if (t.state === 'passed') {
      counts.passed++;
      console.log(`  ✓ ${t.title}${ms}`);
    } else if (t.state === 'pending') {
      counts.pending++;
      console.log(`  - ${t.title} (pending)`);
    } else {
      counts.failed++;
      console.log(`  ✗ ${t.hook ? '[hook] ' : ''}${t.title}${ms}`);
      for (const line of (t.error ?? '').split('\n')) console.log(`      ${line}`);
    }
  }
  if (results?.current) console.log(`  … ${results.current} (started, did not finish)`);
  if (!results?.tests.length && !results?.current) console.log('  (no test reported)');
  return counts;
}
