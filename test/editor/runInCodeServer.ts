/**
 * Runs a Mocha suite inside the extension host of a real VS Code (code-server) on this machine.
 *
 *   node out/test/editor/runInCodeServer.js --vsix <file.vsix> --workspace <dir> \
 *        --suite <compiled suite index.js> [--screenshots <dir>] [--results <file.json>] \
 *        [--timeout <seconds>] [--keep-temp]
 *
 * The suite is the same module @vscode/test-electron runs: it exports `run(): Promise<void>` (or
 * the old `run(testsRoot, callback)`), creates a Mocha instance, and uses the `vscode` API.
 *
 * How: the vsix is installed into a fresh extensions dir; code-server is started; chromium opens
 * the workbench with the payload `extensionDevelopmentPath` = the installed extension's folder and
 * `extensionTestsPath` = a generated entry module, both as vscode-remote:// URIs. The VS Code web
 * workbench passes them to the remote (Node) extension host, which loads the entry once the
 * extensions are activated and calls its `run()`, then reports the exit code to the page through
 * `window.codeAutomationExit`, which Playwright exposes. The entry (createExtensionHostEntry below,
 * running in the extension host) records every Mocha test event of the suite into a JSON file and
 * tees the suite's console output into a log file, which this process prints as it grows.
 *
 * Exits 0 only when the suite ran to its end with at least one test and no failure; 1 when a test
 * failed or the suite did not finish; 2 when it could not be started at all. Never skips.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as os from 'os';
import {
  CodeServer,
  BrowserSession,
  launchBrowser,
  loadEnv,
  openWorkbench,
  screenshot,
  startCodeServer,
} from './codeServer';
import { printResults, TestRecord, watchSuite } from './suiteResults';
import { copyWorkspace } from './workspaceCopy';

// ------------------------------------------------------------------------------------------------
// Shared between the two sides
// ------------------------------------------------------------------------------------------------

export type { TestRecord };

export interface SuiteResults {
  /** loaded: the entry module ran in the extension host; running: the suite's run() was called. */
  state: 'loaded' | 'running' | 'done';
  pid: number;
  /** process.versions.node of the extension host. */
  node: string;
  /** Mocha runs started / ended (a suite normally makes one). */
  runsStarted: number;
  runsEnded: number;
  tests: TestRecord[];
  /** The test that has started and not ended yet (tells which test hung). */
  current?: string;
  /** Set when run() threw / rejected or the module could not be loaded. */
  error?: string;
}

interface EntryConfig {
  suite: string;
  resultsFile: string;
  logFile: string;
}

// ------------------------------------------------------------------------------------------------
// Extension host side
// ------------------------------------------------------------------------------------------------

let currentSink: ((event: string, test?: any, err?: any) => void) | undefined;
const PATCHED = Symbol.for('paper-digest.mocha-runner-patched');

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack || `${err.name}: ${err.message}`;
  return String(err);
}

/** Makes every Mocha Runner (of whatever copy of mocha the suite loads) report to currentSink. */
function patchRunner(Runner: any): void {
  const proto = Runner?.prototype;
  if (!proto || typeof proto.run !== 'function' || proto[PATCHED]) return;
  const original = proto.run;
  proto[PATCHED] = true;
  proto.run = function (this: any, ...args: unknown[]) {
    const sink = currentSink;
    if (sink) {
      this.on('start', () => sink('start'));
      this.on('test', (t: any) => sink('test', t));
      this.on('test end', (t: any) => sink('test end', t));
      this.on('pass', (t: any) => sink('pass', t));
      this.on('fail', (t: any, e: any) => sink('fail', t, e));
      this.on('pending', (t: any) => sink('pending', t));
      this.on('end', () => sink('end'));
    }
    return original.apply(this, args);
  };
}

function hookMocha(): () => void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('module') as { _load: (request: string, parent: unknown, isMain: boolean) => any };
  for (const [file, mod] of Object.entries(require.cache)) {
    if (/[\\/]mocha[\\/]lib[\\/]runner\.js$/.test(file) && mod) patchRunner(mod.exports);
  }
  const previous = Module._load;
  Module._load = function (this: unknown, request: string, ...rest: [unknown, boolean]) {
    const exported = previous.call(this, request, ...rest);
    try {
      if (request === 'mocha' || /[\\/]mocha([\\/]index(\.js)?|[\\/]lib[\\/]mocha(\.js)?)?$/.test(request)) {
        patchRunner(exported?.Runner);
      } else if (/[\\/]mocha[\\/]lib[\\/]runner(\.js)?$/.test(request) || (request === './runner' && exported?.constants?.EVENT_RUN_BEGIN)) {
        patchRunner(exported);
      }
    } catch {
      /* never break the suite's own require */
    }
    return exported;
  };
  return () => {
    Module._load = previous;
  };
}

/**
 * Copies everything the suite prints (console.* and process.stdout/stderr) into logFile.
 * VS Code's extension host forwards console output to the workbench by redefining these as
 * getter properties that ignore assignment, so they are redefined here the same way, wrapping
 * whatever they were, and put back afterwards.
 */
function teeOutput(logFile: string): () => void {
  const append = (s: string) => {
    try {
      fs.appendFileSync(logFile, s);
    } catch {
      /* the runner will report what it has */
    }
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const util = require('util') as typeof import('util');
  let depth = 0;
  const restores: Array<() => void> = [];
  const wrap = (target: object, key: string, toText: (args: unknown[]) => string) => {
    const t = target as Record<string, unknown>;
    const own = Object.getOwnPropertyDescriptor(target, key);
    const current = t[key] as (...args: unknown[]) => unknown;
    if (typeof current !== 'function') return;
    const wrapper = function (this: unknown, ...args: unknown[]) {
      if (depth === 0) append(toText(args));
      depth++;
      try {
        return current.apply(this === t || this === undefined ? target : this, args);
      } finally {
        depth--;
      }
    };
    try {
      Object.defineProperty(target, key, { configurable: true, enumerable: own?.enumerable ?? false, get: () => wrapper, set: () => undefined });
    } catch {
      return; // not redefinable: the structured results still come through
    }
    restores.push(() => {
      if (own) Object.defineProperty(target, key, own);
      else delete t[key];
    });
  };
  for (const m of ['log', 'info', 'warn', 'error', 'debug']) wrap(console, m, (args) => util.format(...args) + '\n');
  for (const stream of [process.stdout, process.stderr]) {
    wrap(stream, 'write', ([chunk]) => (typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString() : String(chunk)));
  }
  return () => {
    for (const r of restores.reverse()) {
      try {
        r();
      } catch {
        /* leave it wrapped */
      }
    }
  };
}

async function runSuiteInExtensionHost(cfg: EntryConfig): Promise<void> {
  const results: SuiteResults = { state: 'loaded', pid: process.pid, node: process.versions.node, runsStarted: 0, runsEnded: 0, tests: [] };
  const write = () => {
    const tmp = `${cfg.resultsFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(results, null, 2));
    fs.renameSync(tmp, cfg.resultsFile);
  };
  fs.writeFileSync(cfg.logFile, '');
  write();
  currentSink = (event, test, err) => {
    const title = test && typeof test.fullTitle === 'function' ? test.fullTitle() : String(test?.title ?? '');
    switch (event) {
      case 'start':
        results.runsStarted++;
        break;
      case 'end':
        results.runsEnded++;
        break;
      case 'test':
        results.current = title;
        break;
      case 'test end':
        results.current = undefined;
        break;
      case 'pass':
        results.tests.push({ title, state: 'passed', durationMs: test.duration });
        break;
      case 'pending':
        results.tests.push({ title, state: 'pending' });
        break;
      case 'fail':
        results.tests.push({ title, state: 'failed', durationMs: test?.duration, hook: test?.type === 'hook' || undefined, error: errorText(err) });
        break;
    }
    write();
  };
  const restoreOutput = teeOutput(cfg.logFile);
  const restoreMocha = hookMocha();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const suite = require(cfg.suite) as { run?: (...args: unknown[]) => unknown };
    if (!suite || typeof suite.run !== 'function') throw new Error(`${cfg.suite} does not export a run() function`);
    results.state = 'running';
    write();
    await new Promise<void>((resolve, reject) => {
      // Same contract as VS Code's own test-runner loading: run(testsRoot, callback) or a promise.
      const callback = (error: unknown, failures?: number) => {
        if (error) reject(error);
        else if (typeof failures === 'number' && failures > 0) reject(new Error(`${failures} tests failed.`));
        else resolve();
      };
      const returned = suite.run!(path.dirname(cfg.suite), callback) as Promise<unknown> | undefined;
      if (returned && typeof returned.then === 'function') returned.then(() => resolve(), reject);
    });
    results.state = 'done';
    write();
  } catch (e) {
    results.state = 'done';
    results.error = errorText(e);
    write();
    throw e;
  } finally {
    currentSink = undefined;
    restoreMocha();
    restoreOutput();
  }
}

/** Used by the generated entry module that the extension host loads as extensionTestsPath. */
export function createExtensionHostEntry(cfg: EntryConfig): { run(): Promise<void> } {
  return { run: () => runSuiteInExtensionHost(cfg) };
}

// ------------------------------------------------------------------------------------------------
// Runner side (CLI)
// ------------------------------------------------------------------------------------------------

interface CliOptions {
  vsix: string[];
  workspace: string;
  suite: string;
  screenshots?: string;
  results?: string;
  timeoutSec: number;
  loadTimeoutSec: number;
  keepTemp: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): CliOptions {
  const opts: Partial<CliOptions> & { vsix: string[] } = { vsix: [], timeoutSec: 600, loadTimeoutSec: 180, keepTemp: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '--vsix': opts.vsix.push(path.resolve(value())); break;
      case '--workspace': opts.workspace = path.resolve(value()); break;
      case '--suite': opts.suite = path.resolve(value()); break;
      case '--screenshots': opts.screenshots = path.resolve(value()); break;
      case '--results': opts.results = path.resolve(value()); break;
      case '--timeout': opts.timeoutSec = Number(value()); break;
      case '--load-timeout': opts.loadTimeoutSec = Number(value()); break;
      case '--keep-temp': opts.keepTemp = true; break;
      default: throw new UsageError(`unknown argument ${a}`);
    }
  }
  if (!opts.vsix.length) throw new UsageError('--vsix <file.vsix> is required');
  if (!opts.workspace) throw new UsageError('--workspace <dir> is required');
  if (!opts.suite) throw new UsageError('--suite <compiled suite index.js> is required');
  for (const v of opts.vsix) if (!fs.existsSync(v)) throw new UsageError(`vsix not found: ${v}`);
  if (!fs.statSync(opts.workspace, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`workspace folder not found: ${opts.workspace}`);
  if (!fs.existsSync(opts.suite)) throw new UsageError(`suite not found: ${opts.suite} (compile it first: npx tsc -b)`);
  if (!(opts.timeoutSec! > 0) || !(opts.loadTimeoutSec! > 0)) throw new UsageError('--timeout and --load-timeout take a positive number of seconds');
  return opts as CliOptions;
}

const since = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

async function main(argv: string[]): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    console.error(`runInCodeServer: ${(e as Error).message}`);
    console.error('usage: node out/test/editor/runInCodeServer.js --vsix <file> --workspace <dir> --suite <index.js> [--screenshots <dir>] [--results <file.json>] [--timeout <s>] [--load-timeout <s>] [--keep-temp]');
    return 2;
  }

  const t0 = Date.now();
  const log = (msg: string) => console.log(`[runInCodeServer ${since(t0)}] ${msg}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-editor-tests-'));
  const cfg: EntryConfig = {
    suite: opts.suite,
    resultsFile: path.join(work, 'results.json'),
    logFile: path.join(work, 'suite-output.log'),
  };
  const removeWork = () => {
    if (!opts.keepTemp) fs.rmSync(work, { recursive: true, force: true });
  };
  process.on('exit', removeWork);
  // The suite changes its workspace (edits, the reading state in .paper-digest/): it runs on a
  // fresh copy, so every run starts from the fixtures as committed.
  const workspace = path.join(work, path.basename(opts.workspace));
  copyWorkspace(opts.workspace, workspace);
  const entry = path.join(work, 'suite-entry.js');
  fs.writeFileSync(
    entry,
    `// generated by runInCodeServer: loaded by the extension host as extensionTestsPath\n` +
      `module.exports = require(${JSON.stringify(__filename)}).createExtensionHostEntry(${JSON.stringify(cfg)});\n`,
  );

  let server: CodeServer | undefined;
  let session: BrowserSession | undefined;
  let fatal: string | undefined;
  let results: SuiteResults | undefined;
  const browserLog: string[] = [];
  let codeServerVersion = '?';
  try {
    const env = loadEnv();
    codeServerVersion = env.codeServerVersion;
    log(`code-server ${env.codeServerVersion}; installing ${opts.vsix.map((v) => path.basename(v)).join(', ')}`);
    server = await startCodeServer({
      workspace,
      vsix: opts.vsix,
      cache: env,
      keepTemp: opts.keepTemp,
      // A built VS Code web workbench honours the extensionDevelopmentPath/extensionTestsPath
      // payload only when the smoke-test driver is enabled (BrowserWorkbenchEnvironmentService).
      args: ['--vscode-option', 'enable-smoke-test-driver'],
    });
    log(`code-server answers on ${server.origin} (extensions: ${server.extensions.map((e) => `${e.id}@${e.packageJson.version}`).join(', ')})`);

    session = await launchBrowser({ env });
    const page = session.page;
    let exitCode: number | undefined;
    let pageGone: string | undefined;
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      exitCode = code;
    });
    page.on('console', (m) => {
      browserLog.push(`[${m.type()}] ${m.text()}`);
      if (browserLog.length > 200) browserLog.shift();
    });
    page.on('pageerror', (e) => browserLog.push(`[pageerror] ${e.message}`));
    page.on('crash', () => (pageGone = 'the workbench page crashed'));
    page.on('close', () => (pageGone ??= 'the workbench page closed'));

    const payload: Array<[string, string]> = [
      ...server.extensions.map((e): [string, string] => ['extensionDevelopmentPath', server!.remoteUri(e.location)]),
      ['extensionTestsPath', server.remoteUri(entry)],
    ];
    await openWorkbench(page, server, { payload, timeoutMs: 90_000 });
    log('workbench ready; waiting for the extension host to run the suite');
    if (opts.screenshots) log(`screenshot: ${await screenshot(page, path.join(opts.screenshots, 'workbench-ready.png'))}`);

    // Wait for the suite: bounded by --load-timeout until the entry reports in, then --timeout.
    let printed = 0;
    const flushLog = () => {
      try {
        const text = fs.readFileSync(cfg.logFile, 'utf8');
        if (text.length > printed) {
          process.stdout.write(text.slice(printed));
          printed = text.length;
        }
      } catch {
        /* not yet written */
      }
    };
    const running = server;
    ({ results, fatal } = await watchSuite<SuiteResults>({
      resultsFile: cfg.resultsFile,
      exitCode: () => exitCode,
      gone: () => running.exited() ?? pageGone,
      loadTimeoutMs: opts.loadTimeoutSec * 1000,
      timeoutMs: opts.timeoutSec * 1000,
      what: `the suite entry (${running.remoteUri(entry)}); see the extension host / browser log below`,
      awaitExitCode: true,
      onLook: flushLog,
      log,
    }));
    flushLog();
    log(`suite ${fatal ? 'stopped' : 'finished'}${exitCode !== undefined ? ` (extension host exit code ${exitCode})` : ''}`);
    if (opts.screenshots) {
      try {
        log(`screenshot: ${await screenshot(page, path.join(opts.screenshots, 'after-suite.png'))}`);
      } catch (e) {
        log(`could not take the final screenshot: ${(e as Error).message}`);
      }
    }
    if (!fatal && results?.error && !results.tests.some((t) => t.state === 'failed')) {
      fatal = `the suite's run() failed:\n${results.error}`;
    }
    if (!fatal && results && results.runsStarted === 0) {
      fatal = 'the suite ran no Mocha run that this runner could observe (does it create a Mocha instance and call run()?)';
    } else if (!fatal && results && results.runsEnded < results.runsStarted) {
      fatal = 'a Mocha run did not reach its end';
    }
    if (!fatal && exitCode !== undefined && exitCode !== 0 && !results?.tests.some((t) => t.state === 'failed')) {
      fatal = `the extension host reported exit code ${exitCode} although no test failed`;
    }
  } catch (e) {
    fatal = (e as Error).message;
  } finally {
    if (session) await session.close().catch(() => undefined);
    if (server) {
      if (fatal) {
        console.log('--- code-server output (last 60 lines) ---');
        console.log(server.output().split('\n').slice(-60).join('\n'));
        console.log('--- browser console (last 60 lines) ---');
        console.log(browserLog.slice(-60).join('\n'));
      }
      await server.stop().catch(() => undefined);
    }
  }

  if (opts.results && results) {
    fs.mkdirSync(path.dirname(opts.results), { recursive: true });
    fs.writeFileSync(opts.results, JSON.stringify(results, null, 2));
  }
  if (opts.keepTemp) log(`kept ${work}${server ? ` and ${server.tmpDir}` : ''}`);
  removeWork();

  const counts = results
    ? printResults(`Results (Mocha in the extension host of code-server ${codeServerVersion}, Node ${results.node}):`, results)
    : { passed: 0, failed: 0, pending: 0 };
  if (counts.pending) console.log(`${counts.pending} pending`);
  if (fatal) {
    console.log(`ERROR: ${fatal}`);
    if (!results) {
      console.log('The suite could not run.');
      console.log(`runInCodeServer: total ${since(t0)}`);
      return 2;
    }
    counts.failed++;
  } else if (counts.passed + counts.failed === 0) {
    console.log('ERROR: the suite ran no test');
    counts.failed++;
  }
  console.log(`runInCodeServer: total ${since(t0)}`);
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  // Turn SIGINT/SIGTERM into an exit, so that the code-server process group is taken down
  // (codeServer.ts kills it on 'exit'; Playwright closes chromium on its own).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.log(`runInCodeServer: ${signal}, stopping`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`runInCodeServer: ${errorText(e)}`);
      process.exit(2);
    },
  );
}
