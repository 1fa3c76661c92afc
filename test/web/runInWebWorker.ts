/**
 * Runs the web extension's suite (test/web/suite) in the browser's web worker extension host of
 * a real VS Code: code-server's workbench in Debian's chromium, driven by playwright-core, all
 * from the install cache of .ci/install-code-server.sh (nothing is downloaded).
 *
 *   node out/test/web/runInWebWorker.js --vsix paper-digest.vsix --workspace test/editor/workspace
 *        [--timeout <seconds>] [--keep-temp]
 *
 * How: the vsix is installed into code-server; the user setting `remote.extensionKind` makes it a
 * web extension (`["web"]`), so the workbench runs its `browser` entry in the web worker
 * extension host instead of its `main` on the server — as vscode.dev and github.dev run it, where
 * there is no Node at all. The suite is bundled for the browser (esbuild, Mocha's browser build)
 * into the installed extension's folder, so that the workbench runs it in the extension's own
 * extension host (extensionTestsPath inside extensionDevelopmentPath). The suite writes its
 * test events through `vscode.workspace.fs` to a results file that this process reads.
 *
 * Exits 0 only when the suite ran to its end in a web worker with at least one test and no
 * failure; 1 when a test failed or the suite did not finish; 2 when it could not start.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CodeServer, BrowserSession, launchBrowser, loadEnv, openWorkbench, screenshot, startCodeServer } from '../editor/codeServer';
import { printResults, TestRecord, watchSuite } from '../editor/suiteResults';
import { copyWorkspace } from '../editor/workspaceCopy';

interface WebResults {
  state: 'running' | 'done';
  /** Whether the suite saw a web worker's globals. */
  worker: boolean;
  runsStarted: number;
  runsEnded: number;
  tests: TestRecord[];
  current?: string;
  error?: string;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SUITE_ENTRY = path.join(REPO_ROOT, 'test', 'web', 'suite', 'index.ts');
const EXTENSION_ID = 'paper-digest.paper-digest';

function parseArgs(argv: string[]): { vsix: string; workspace: string; timeoutSec: number; keepTemp: boolean; screenshots?: string } {
  let vsix: string | undefined;
  let workspace: string | undefined;
  let screenshots: string | undefined;
  let timeoutSec = 600;
  let keepTemp = false;
  for (let i = 0; i < argv.length; i++) {
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case '--vsix': vsix = path.resolve(value()); break;
      case '--workspace': workspace = path.resolve(value()); break;
      case '--screenshots': screenshots = path.resolve(value()); break;
      case '--timeout': timeoutSec = Number(value()); break;
      case '--keep-temp': keepTemp = true; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!vsix || !fs.existsSync(vsix)) throw new Error(`--vsix <file.vsix> is required and must exist (${vsix ?? 'none'})`);
  if (!workspace || !fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--workspace <dir> is required and must exist (${workspace ?? 'none'})`);
  if (!(timeoutSec > 0)) throw new Error('--timeout takes a positive number of seconds');
  return { vsix, workspace, timeoutSec, keepTemp, screenshots };
}

/** The suite bundled for the web worker extension host, with the results file's URI in front. */
function bundleSuite(resultsUri: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const result = esbuild.buildSync({
    entryPoints: [SUITE_ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    write: false,
    logLevel: 'warning',
  });
  return `var __PAPER_DIGEST_WEB_TEST__ = ${JSON.stringify({ results: resultsUri })};\n${result.outputFiles[0].text}`;
}

async function main(argv: string[]): Promise<number> {
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    console.error(`runInWebWorker: ${(e as Error).message}`);
    console.error('usage: node out/test/web/runInWebWorker.js --vsix <file> --workspace <dir> [--screenshots <dir>] [--timeout <s>] [--keep-temp]');
    return 2;
  }
  const t0 = Date.now();
  const log = (message: string): void => console.log(`[runInWebWorker ${((Date.now() - t0) / 1000).toFixed(1)}s] ${message}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-web-tests-'));
  const removeWork = (): void => {
    if (!opts.keepTemp) fs.rmSync(work, { recursive: true, force: true });
  };
  process.on('exit', removeWork);
  // The suite writes into its workspace: it gets a fresh copy.
  const workspace = path.join(work, path.basename(opts.workspace));
  copyWorkspace(opts.workspace, workspace);
  const resultsFile = path.join(work, 'results.json');

  let server: CodeServer | undefined;
  let session: BrowserSession | undefined;
  let fatal: string | undefined;
  let results: WebResults | undefined;
  let exitCode: number | undefined;
  const browserLog: string[] = [];
  try {
    const env = loadEnv();
    log(`code-server ${env.codeServerVersion}; installing ${path.basename(opts.vsix)} as a web extension`);
    server = await startCodeServer({
      workspace,
      vsix: [opts.vsix],
      cache: env,
      keepTemp: opts.keepTemp,
      settings: { 'remote.extensionKind': { [EXTENSION_ID]: ['web'] } },
      args: ['--vscode-option', 'enable-smoke-test-driver'],
    });
    const extension = server.extensions.find((e) => e.id === EXTENSION_ID);
    if (!extension) throw new Error(`${EXTENSION_ID} was not installed (got ${server.extensions.map((e) => e.id).join(', ')})`);
    if (typeof extension.packageJson.browser !== 'string') throw new Error('the packaged extension has no browser entry');
    const entry = path.join(extension.location, 'web-test-suite.js');
    fs.writeFileSync(entry, bundleSuite(server.remoteUri(resultsFile)));
    log(`code-server answers on ${server.origin}; suite bundled into ${entry}`);

    session = await launchBrowser({ env });
    const page = session.page;
    let pageGone: string | undefined;
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      exitCode = code;
    });
    page.on('console', (m) => {
      const line = `[${m.type()}] ${m.text()}`;
      browserLog.push(line);
      if (browserLog.length > 300) browserLog.shift();
    });
    page.on('pageerror', (e) => browserLog.push(`[pageerror] ${e.message}`));
    page.on('crash', () => (pageGone = 'the workbench page crashed'));
    page.on('close', () => (pageGone ??= 'the workbench page closed'));
    await openWorkbench(page, server, {
      payload: [
        ['extensionDevelopmentPath', server.remoteUri(extension.location)],
        ['extensionTestsPath', server.remoteUri(entry)],
      ],
      timeoutMs: 90_000,
    });
    log('workbench ready; waiting for the web worker extension host to run the suite');

    let reported = 0;
    const running = server;
    ({ results, fatal } = await watchSuite<WebResults>({
      resultsFile,
      exitCode: () => exitCode,
      gone: () => running.exited() ?? pageGone,
      loadTimeoutMs: 180_000,
      timeoutMs: opts.timeoutSec * 1000,
      what: 'the suite in the web worker extension host',
      awaitExitCode: false,
      onLook: (seen) => {
        for (const test of seen?.tests.slice(reported) ?? []) {
          log(`${test.state === 'passed' ? '✓' : test.state === 'failed' ? '✗' : '-'} ${test.title}`);
        }
        reported = seen?.tests.length ?? reported;
      },
      log,
    }));
    if (opts.screenshots) {
      log(`screenshot: ${await screenshot(page, path.join(opts.screenshots, 'web-after-suite.png')).catch((e: Error) => e.message)}`);
    }
    if (!fatal && results && !results.worker) fatal = 'the suite did not run in a web worker';
    if (!fatal && results && results.runsEnded < results.runsStarted) fatal = 'the Mocha run did not reach its end';
  } catch (e) {
    fatal = (e as Error).message;
  } finally {
    if (session) await session.close().catch(() => undefined);
    if (server) {
      if (fatal || results?.tests.some((t) => t.state === 'failed')) {
        console.log('--- code-server output (last 40 lines) ---');
        console.log(server.output().split('\n').slice(-40).join('\n'));
        console.log('--- browser console (last 80 lines) ---');
        console.log(browserLog.slice(-80).join('\n'));
      }
      await server.stop().catch(() => undefined);
    }
  }

  const counts = printResults('Results (Mocha in the web worker extension host of code-server):', results);
  if (opts.keepTemp) log(`kept ${work}`);
  removeWork();
  if (fatal) {
    console.log(`ERROR: ${fatal}`);
    if (!results) {
      console.log('The web suite could not run.');
      return 2;
    }
    counts.failed++;
  } else if (counts.passed + counts.failed === 0) {
    console.log('ERROR: the web suite ran no test');
    counts.failed++;
  }
  console.log(`runInWebWorker: total ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
  }
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`runInWebWorker: ${(e as Error).stack ?? String(e)}`);
      process.exit(2);
    },
  );
}
