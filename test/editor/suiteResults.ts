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

/** What a runner watches while the suite runs in the extension host. */
export interface SuiteWatch<T> {
  resultsFile: string;
  /** The exit code the workbench reported for the extension host's test run, once it has. */
  exitCode(): number | undefined;
  /** Why the suite can no longer finish (code-server exited, the page crashed), once it can't. */
  gone(): string | undefined;
  /** How long the suite may take to report in, and to finish, in milliseconds from now. */
  loadTimeoutMs: number;
  timeoutMs: number;
  /** What did not start, for the message when nothing reported within loadTimeoutMs. */
  what: string;
  /** Whether a done suite waits (up to 15 s) for the workbench's exit code too. */
  awaitExitCode: boolean;
  /** Called on every look at the results file, e.g. to print the tests reported since. */
  onLook?(results: T | undefined): void;
  log(message: string): void;
}

/**
 * Looks at the results file every 250 ms until the suite says it is done, and gives why not
 * otherwise: the extension host reported its exit code and the file did not say done within 5 s
 * after (the code may overtake the file's last write), the server or page went away, nothing
 * reported in within `loadTimeoutMs`, or the whole run took longer than `timeoutMs`.
 */
export async function watchSuite<T extends { readonly state: string; readonly tests: readonly TestRecord[] }>(
  watch: SuiteWatch<T>,
): Promise<{ results: T | undefined; fatal?: string }> {
  const loadDeadline = Date.now() + watch.loadTimeoutMs;
  const deadline = Date.now() + watch.timeoutMs;
  let doneAt: number | undefined;
  let exitedAt: number | undefined;
  for (;;) {
    const results = readResults<T>(watch.resultsFile);
    watch.onLook?.(results);
    const exitCode = watch.exitCode();
    if (results?.state === 'done') {
      if (!watch.awaitExitCode || exitCode !== undefined) return { results };
      doneAt ??= Date.now();
      if (Date.now() - doneAt > 15_000) {
        watch.log('the suite is done but the workbench reported no exit code within 15 s; going by the results file');
        return { results };
      }
    } else if (exitCode !== undefined) {
      exitedAt ??= Date.now();
      if (Date.now() - exitedAt > 5_000) {
        const seen = results ? `results: ${results.state}, ${results.tests.length} tests reported` : `it never loaded ${watch.what}`;
        return { results, fatal: `the extension host reported exit code ${exitCode} before the suite finished (${seen})` };
      }
    }
    const gone = watch.gone();
    if (gone) return { results, fatal: `${gone} before the suite finished` };
    if (!results && Date.now() > loadDeadline) {
      return { results, fatal: `the extension host did not load ${watch.what} within ${Math.round(watch.loadTimeoutMs / 1000)} s` };
    }
    if (Date.now() > deadline) return { results, fatal: `the suite did not finish within ${Math.round(watch.timeoutMs / 1000)} s` };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
