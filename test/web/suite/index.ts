/**
 * The web extension's editor suite, bundled for VS Code's web worker extension host
 * (runInWebWorker.ts builds it with esbuild and loads it as extensionTestsPath). Mocha is its
 * browser build; every test event is written, as it happens, to the results file the runner
 * named, through `vscode.workspace.fs` (a web worker has no other way to the disk).
 */
import 'mocha/mocha.js';
import * as vscode from 'vscode';
// Only a type: the Node module itself stays out of the browser bundle.
import type { TestRecord } from '../../editor/suiteResults';

/** Set by the runner in front of the bundle. */
declare const __PAPER_DIGEST_WEB_TEST__: { readonly results: string };

interface MochaRunnable {
  fullTitle(): string;
  duration?: number;
}
interface MochaRunner {
  on(event: string, listener: (test: MochaRunnable, error?: { stack?: string; message?: string }) => void): void;
}
declare const mocha: {
  setup(options: { ui: string; reporter: string; color: boolean; timeout: number }): void;
  run(done: (failures: number) => void): MochaRunner;
};


export function run(): Promise<void> {
  const results = {
    state: 'running' as 'running' | 'done',
    worker: typeof (globalThis as { importScripts?: unknown }).importScripts === 'function',
    runsStarted: 0,
    runsEnded: 0,
    tests: [] as TestRecord[],
    current: undefined as string | undefined,
    error: undefined as string | undefined,
  };
  const target = vscode.Uri.parse(__PAPER_DIGEST_WEB_TEST__.results);
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    const text = JSON.stringify(results);
    writing = writing.then(() => Promise.resolve(vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text))).catch((error: unknown) => console.error(`results not written: ${String(error)}`)));
    return writing;
  };
  mocha.setup({ ui: 'bdd', reporter: 'spec', color: false, timeout: 60_000 });
  // The test files define their suites on the globals that setup() made.
  require('./webExtension.test');
  return new Promise((resolve, reject) => {
    void write();
    const runner = mocha.run((failures) => {
      results.state = 'done';
      results.current = undefined;
      void write().then(() => (failures > 0 ? reject(new Error(`${failures} web extension tests failed`)) : resolve()));
    });
    runner.on('start', () => {
      results.runsStarted++;
      void write();
    });
    runner.on('test', (test) => {
      results.current = test.fullTitle();
      void write();
    });
    runner.on('pass', (test) => {
      results.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration });
      results.current = undefined;
      void write();
    });
    runner.on('fail', (test, error) => {
      results.tests.push({ title: test.fullTitle(), state: 'failed', durationMs: test.duration, error: error?.stack ?? error?.message ?? String(error) });
      results.current = undefined;
      void write();
    });
    runner.on('pending', (test) => {
      results.tests.push({ title: test.fullTitle(), state: 'pending' });
      void write();
    });
    runner.on('end', () => {
      results.runsEnded++;
      void write();
    });
  });
}
