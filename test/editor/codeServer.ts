/**
 * Runs a real VS Code (code-server, the VS Code server with its web workbench) on this machine and
 * drives it with Playwright + Debian's chromium.
 *
 * Everything it starts comes from the cache that `.ci/install-code-server.sh` fills (default
 * `~/.cache/paper-digest/code-server`, or `$PAPER_DIGEST_CACHE/code-server`); its `env.json`
 * names the Node 24 binary, code-server, playwright-core and chromium. Nothing is downloaded.
 *
 * playwright-core is loaded at run time from that cache, so the project compiles without it;
 * the few Playwright types used here are declared below (structurally compatible with the real
 * ones, so a caller with playwright-core installed can cast to its own `Page`).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

// ------------------------------------------------------------------------------------------------
// Cache / environment
// ------------------------------------------------------------------------------------------------

export interface CodeServerEnv {
  /** Node 24 binary (code-server 4.139 requires it). */
  node: string;
  /** code-server's `out/node/entry.js`. */
  codeServerEntry: string;
  codeServerVersion: string;
  /** Folder of the playwright-core package. */
  playwrightCore: string;
  /** Chromium binary (Debian's). */
  chromium: string;
}

export function cacheDir(): string {
  const root = process.env.PAPER_DIGEST_CACHE || path.join(os.homedir(), '.cache', 'paper-digest');
  return path.join(root, 'code-server');
}

/** Reads `env.json` from the cache; throws a clear error when the install has not been done. */
export function loadEnv(dir: string = cacheDir()): CodeServerEnv {
  const file = path.join(dir, 'env.json');
  const hint = 'run `bash .ci/install-code-server.sh` first';
  if (!fs.existsSync(file)) {
    throw new Error(`code-server is not installed: ${file} is missing (${hint})`);
  }
  const env = JSON.parse(fs.readFileSync(file, 'utf8')) as CodeServerEnv;
  for (const key of ['node', 'codeServerEntry', 'playwrightCore', 'chromium'] as const) {
    if (!env[key] || !fs.existsSync(env[key])) {
      throw new Error(`code-server cache is incomplete: ${key} = ${env[key]} does not exist (${hint})`);
    }
  }
  return env;
}

// ------------------------------------------------------------------------------------------------
// Small process / network helpers
// ------------------------------------------------------------------------------------------------

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** GET `url` once; resolves with the status code, or undefined when nothing answers. */
function httpStatus(url: string, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/**
 * Polls `url` until it answers with a status below 500, or throws after `timeoutMs`.
 * `abort` is checked between polls (e.g. the server process exited).
 */
export async function waitForHttp(url: string, timeoutMs: number, abort?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: number | undefined;
  while (Date.now() < deadline) {
    const why = abort?.();
    if (why) throw new Error(`${url} will not answer: ${why}`);
    last = await httpStatus(url, 2000);
    if (last !== undefined && last < 500) return;
    await delay(150);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (last status: ${last ?? 'no answer'})`);
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(cmd)} ${args.join(' ')} timed out after ${opts.timeoutMs} ms\n${output}`));
    }, opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

// ------------------------------------------------------------------------------------------------
// code-server
// ------------------------------------------------------------------------------------------------

export interface CodeServerOptions {
  /** Folder opened in the workbench. */
  workspace: string;
  /** .vsix files installed into the fresh extensions dir before the server starts. */
  vsix?: string[];
  /** User settings written to `<user-data-dir>/User/settings.json` (merged over quiet defaults). */
  settings?: Record<string, unknown>;
  /** Extra environment for the server (and so for the extension host it forks). */
  env?: NodeJS.ProcessEnv;
  /** Extra code-server arguments. */
  args?: string[];
  /**
   * The display language (code-server's `--locale`), e.g. `zh-cn`. VS Code takes it only when an
   * installed language pack declares it: pass one in `vsix` (see writeLanguagePacks).
   */
  locale?: string;
  /**
   * Ids of built-in extensions the server leaves out (VS Code's VSCODE_SKIP_BUILTIN_EXTENSIONS).
   * Default DEFAULT_SKIPPED_BUILTINS: those that activate at startup only to reach for git or the
   * network, and would delay every run (extension tests start after startup activation).
   * Pass [] to keep them all.
   */
  skipBuiltins?: string[];
  /** The port on 127.0.0.1 to serve on; a free one when omitted. */
  port?: number;
  /** Bound on the server's start (HTTP answering). Default 60 s. */
  startTimeoutMs?: number;
  /** Called with each line the server prints. */
  onOutput?: (line: string) => void;
  /** Keep the temp dir after stop() (for debugging). */
  keepTemp?: boolean;
  cache?: CodeServerEnv;
}

export interface InstalledExtension {
  id: string;
  /** Folder of the installed extension inside the extensions dir. */
  location: string;
  packageJson: { name: string; publisher: string; version: string; [k: string]: unknown };
}

export interface CodeServer {
  env: CodeServerEnv;
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Remote authority the workbench uses in vscode-remote:// URIs (`127.0.0.1:PORT`). */
  authority: string;
  workspace: string;
  tmpDir: string;
  userDataDir: string;
  extensionsDir: string;
  extensions: InstalledExtension[];
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Set once the server process has exited. */
  exited(): string | undefined;
  /** A `vscode-remote://` URI the workbench can use for a path on this machine. */
  remoteUri(fsPath: string): string;
  /** URL of the workbench opening the workspace, with an optional payload (e.g. extension tests). */
  workbenchUrl(payload?: Array<[string, string]>): string;
  stop(): Promise<void>;
}

export const DEFAULT_SKIPPED_BUILTINS = [
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.github-authentication',
  'GitHub.copilot-chat',
];

/** Settings that keep the workbench quiet and offline. */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'npm.autoDetect': 'off',
  'typescript.disableAutomaticTypeAcquisition': true,
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

function childEnv(tmpDir: string, extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // code-server keeps config/logs under XDG dirs; point them at the temp dir so that a run leaves
  // nothing in $HOME and never reads a developer's config (password auth, bind address...).
  env.XDG_CONFIG_HOME = path.join(tmpDir, 'xdg-config');
  env.XDG_DATA_HOME = path.join(tmpDir, 'xdg-data');
  env.XDG_CACHE_HOME = path.join(tmpDir, 'xdg-cache');
  // code-server reads these itself; never let a caller's environment change auth or port.
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  delete env.PORT;
  delete env.VSCODE_IPC_HOOK_CLI;
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

function commonArgs(dirs: { config: string; userDataDir: string; extensionsDir: string }): string[] {
  return [
    '--config', dirs.config,
    '--user-data-dir', dirs.userDataDir,
    '--extensions-dir', dirs.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
  ];
}

/**
 * Installs `vsix` with `code-server --install-extension` into `extensionsDir` and returns what got
 * installed (read from the extensions dir, so a vsix that did not install is an error).
 */
export async function installExtension(
  env: CodeServerEnv,
  vsix: string,
  dirs: { config: string; userDataDir: string; extensionsDir: string; tmpDir: string },
  timeoutMs = 120_000,
): Promise<InstalledExtension> {
  if (!fs.existsSync(vsix)) throw new Error(`vsix not found: ${vsix}`);
  const before = new Set(fs.existsSync(dirs.extensionsDir) ? fs.readdirSync(dirs.extensionsDir) : []);
  const args = [env.codeServerEntry, ...commonArgs(dirs), '--force', '--install-extension', path.resolve(vsix)];
  const res = await run(env.node, args, { env: childEnv(dirs.tmpDir), timeoutMs });
  if (res.code !== 0) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${res.code ?? res.signal}):\n${res.output}`);
  }
  const added = fs.readdirSync(dirs.extensionsDir).filter((d) => !before.has(d) && !d.startsWith('.') && d !== 'extensions.json');
  for (const dir of added) {
    const pj = path.join(dirs.extensionsDir, dir, 'package.json');
    if (fs.existsSync(pj)) {
      const packageJson = JSON.parse(fs.readFileSync(pj, 'utf8'));
      return { id: `${packageJson.publisher}.${packageJson.name}`, location: path.join(dirs.extensionsDir, dir), packageJson };
    }
  }
  throw new Error(`code-server --install-extension ${vsix} exited 0 but installed nothing in ${dirs.extensionsDir}:\n${res.output}`);
}

/**
 * Writes `<user-data-dir>/languagepacks.json`, the index of installed language packs that the VS
 * Code server reads to resolve `--locale` (without an entry for the locale it falls back to
 * English, and so do the extensions' own strings). The server writes it itself only when a pack
 * is installed from the workbench, so a pack installed with --install-extension is entered here.
 * Throws when no installed extension declares the locale.
 */
export function writeLanguagePacks(userDataDir: string, extensions: readonly InstalledExtension[], locale: string): void {
  type Localization = { languageId: string; languageName?: string; localizedLanguageName?: string; translations?: { id: string; path: string }[] };
  const packs: Record<string, { hash: string; extensions: { extensionIdentifier: { id: string }; version: string }[]; translations: Record<string, string>; label: string }> = {};
  for (const extension of extensions) {
    const localizations = ((extension.packageJson.contributes as { localizations?: Localization[] } | undefined)?.localizations ?? []).filter((l) => l.languageId && l.translations?.length);
    for (const localization of localizations) {
      const pack = (packs[localization.languageId.toLowerCase()] ??= { hash: '', extensions: [], translations: {}, label: localization.localizedLanguageName ?? localization.languageName ?? localization.languageId });
      pack.extensions.push({ extensionIdentifier: { id: extension.id }, version: extension.packageJson.version });
      for (const translation of localization.translations ?? []) pack.translations[translation.id] = path.join(extension.location, translation.path);
      pack.hash = pack.extensions.map((e) => `${e.extensionIdentifier.id}@${e.version}`).join(',').replace(/[^A-Za-z0-9]/g, '');
    }
  }
  if (!packs[locale.toLowerCase()]) throw new Error(`no installed extension is a language pack for ${locale}`);
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, null, 2));
}

/** Starts code-server on 127.0.0.1 (a free port unless `port` is given) with fresh user-data/extensions dirs. */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const env = opts.cache ?? loadEnv();
  const workspace = path.resolve(opts.workspace);
  if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`workspace folder not found: ${workspace}`);
  }
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-code-server-'));
  const dirs = {
    tmpDir,
    config: path.join(tmpDir, 'config.yaml'),
    userDataDir: path.join(tmpDir, 'user-data'),
    extensionsDir: path.join(tmpDir, 'extensions'),
  };
  const cleanup = () => {
    if (!opts.keepTemp) fs.rmSync(tmpDir, { recursive: true, force: true });
  };
  try {
    fs.mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(dirs.extensionsDir, { recursive: true });
    // An own, nearly empty config file: code-server otherwise reads/writes ~/.config/code-server.
    fs.writeFileSync(dirs.config, 'auth: none\ncert: false\n');
    fs.writeFileSync(
      path.join(dirs.userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...DEFAULT_SETTINGS, ...opts.settings }, null, 2),
    );

    const extensions: InstalledExtension[] = [];
    for (const vsix of opts.vsix ?? []) extensions.push(await installExtension(env, vsix, dirs));
    if (opts.locale) writeLanguagePacks(dirs.userDataDir, extensions, opts.locale);

    const port = opts.port ?? (await freePort());
    const origin = `http://127.0.0.1:${port}`;
    const args = [
      env.codeServerEntry,
      ...commonArgs(dirs),
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(opts.locale ? ['--locale', opts.locale] : []),
      ...(opts.args ?? []),
      workspace,
    ];
    const serverEnv = childEnv(tmpDir, opts.env);
    const skipped = opts.skipBuiltins ?? DEFAULT_SKIPPED_BUILTINS;
    if (skipped.length) serverEnv.VSCODE_SKIP_BUILTIN_EXTENSIONS = skipped.join(',');
    const child = spawn(env.node, args, { env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let exitReason: string | undefined;
    let partial = '';
    const onData = (d: Buffer) => {
      const s = d.toString();
      output += s;
      if (opts.onOutput) {
        const lines = (partial + s).split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) opts.onOutput(l);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    const exitedPromise = new Promise<void>((resolve) => {
      child.on('exit', (code, signal) => {
        exitReason = `code-server exited (${signal ?? `code ${code}`})`;
        resolve();
      });
      child.on('error', (e) => {
        exitReason = `code-server could not start: ${e.message}`;
        resolve();
      });
    });

    // If this process ends without stop() (an exception, a signal turned into exit), take the
    // server's whole process group down with it: it runs detached and would outlive us.
    const killGroup = () => {
      if (!exitReason && child.pid) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      }
      try { cleanup(); } catch { /* best effort */ }
    };
    process.on('exit', killGroup);

    let stopped = false;
    const server: CodeServer = {
      env,
      port,
      origin,
      authority: `127.0.0.1:${port}`,
      workspace,
      tmpDir,
      userDataDir: dirs.userDataDir,
      extensionsDir: dirs.extensionsDir,
      extensions,
      process: child,
      output: () => output,
      exited: () => exitReason,
      remoteUri: (fsPath: string) => `vscode-remote://127.0.0.1:${port}${encodeURI(path.resolve(fsPath))}`,
      workbenchUrl(payload?: Array<[string, string]>) {
        let url = `${origin}/?folder=${encodeURIComponent(workspace)}`;
        if (payload?.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
        return url;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        process.removeListener('exit', killGroup);
        if (!exitReason && child.pid) {
          // The server forks extension hosts, a pty host...: signal the whole process group.
          try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
          const timer = setTimeout(() => {
            try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
          }, 5000);
          await exitedPromise;
          clearTimeout(timer);
          // Children that ignored SIGTERM.
          try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none left */ }
        }
        cleanup();
      },
    };
    try {
      await waitForHttp(`${origin}/healthz`, opts.startTimeoutMs ?? 60_000, () => exitReason);
    } catch (e) {
      await server.stop();
      throw new Error(`${(e as Error).message}\n--- code-server output ---\n${output}`);
    }
    return server;
  } catch (e) {
    cleanup();
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------
// Playwright (the subset used here)
// ------------------------------------------------------------------------------------------------

export interface Locator {
  first(): Locator;
  last(): Locator;
  hover(options?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  click(options?: { timeout?: number }): Promise<void>;
  textContent(options?: { timeout?: number }): Promise<string | null>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  isVisible(): Promise<boolean>;
  count(): Promise<number>;
}

/** The frames of an iframe, for webviews (an outer iframe holding the page's own frame). */
export interface FrameLocator {
  frameLocator(selector: string): FrameLocator;
  locator(selector: string): Locator;
}

export interface Page {
  frameLocator(selector: string): FrameLocator;
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit'; timeout?: number }): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  waitForSelector(selector: string, options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<unknown>;
  waitForFunction(fn: string | ((arg: unknown) => unknown), arg?: unknown, options?: { timeout?: number; polling?: number | 'raf' }): Promise<unknown>;
  keyboard: {
    press(key: string, options?: { delay?: number }): Promise<void>;
    type(text: string, options?: { delay?: number }): Promise<void>;
    insertText(text: string): Promise<void>;
  };
  screenshot(options?: { path?: string; fullPage?: boolean; timeout?: number }): Promise<Buffer>;
  evaluate<R>(fn: string | ((arg: unknown) => R), arg?: unknown): Promise<R>;
  exposeFunction(name: string, fn: (...args: any[]) => unknown): Promise<void>;
  on(event: 'console', listener: (msg: { type(): string; text(): string }) => void): Page;
  on(event: 'pageerror', listener: (err: Error) => void): Page;
  on(event: 'crash' | 'close', listener: () => void): Page;
  title(): Promise<string>;
  close(): Promise<void>;
}

export interface Browser {
  close(): Promise<void>;
}

export interface BrowserSession {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
];

/**
 * Launches headless chromium (Debian's, through playwright-core) with a fresh profile and returns
 * a page of a fresh context. The page is not navigated yet, so that the caller can expose
 * functions first; `openWorkbench` navigates it.
 */
export async function launchBrowser(
  opts: { env?: CodeServerEnv; headless?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<BrowserSession> {
  const env = opts.env ?? loadEnv();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pw = require(env.playwrightCore) as {
    chromium: {
      launchPersistentContext(dir: string, options: Record<string, unknown>): Promise<{
        pages(): Page[];
        newPage(): Promise<Page>;
        close(): Promise<void>;
      }>;
    };
  };
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-chromium-'));
  let context;
  try {
    context = await pw.chromium.launchPersistentContext(profile, {
      executablePath: env.chromium,
      headless: opts.headless ?? true,
      args: CHROMIUM_ARGS,
      viewport: opts.viewport ?? { width: 1400, height: 900 },
      timeout: 60_000,
    });
  } catch (e) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw new Error(`could not launch ${env.chromium} through playwright-core: ${(e as Error).message}`);
  }
  const removeProfile = () => fs.rmSync(profile, { recursive: true, force: true });
  process.on('exit', removeProfile);
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.race([context.close().catch(() => undefined), delay(10_000)]);
    process.removeListener('exit', removeProfile);
    removeProfile();
  };
  return { browser: { close }, page, close };
}

/** Navigates `page` to the server's workbench (with an optional payload) and waits until it is ready. */
export async function openWorkbench(
  page: Page,
  server: CodeServer,
  opts: { payload?: Array<[string, string]>; timeoutMs?: number } = {},
): Promise<void> {
  await page.goto(server.workbenchUrl(opts.payload), { waitUntil: 'domcontentloaded', timeout: opts.timeoutMs ?? 60_000 });
  await waitForWorkbench(page, opts.timeoutMs);
}

/**
 * Waits until the workbench is rendered and connected: `.monaco-workbench` is visible and the
 * explorer or the status bar has appeared.
 */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  await page.locator('.monaco-workbench').first().waitFor({ state: 'visible', timeout: left() });
  await page.locator('.part.statusbar').first().waitFor({ state: 'visible', timeout: left() });
  await page.locator('.part.activitybar, .part.sidebar').first().waitFor({ state: 'visible', timeout: left() });
}

async function quickInput(page: Page, opener: string, text: string, timeoutMs: number, firstRowHas?: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input').first();
  await page.keyboard.press(opener);
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.insertText(text);
  // Wait for the list to show a match for what was typed before accepting it: Quick Open lists
  // the recently opened files until its search answers, so a file waits for its own row first.
  const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
  if (firstRowHas === undefined) {
    await page.locator(rows).first().waitFor({ state: 'visible', timeout: timeoutMs });
  } else {
    const first = `((row) => row !== null && (row.getAttribute('aria-label') ?? row.textContent ?? '').includes(${JSON.stringify(firstRowHas)}))(document.querySelector(${JSON.stringify(rows)}))`;
    await page.waitForFunction(first, undefined, { timeout: timeoutMs, polling: 100 });
  }
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Opens a workspace file by name through Quick Open (Ctrl+P) and waits for its editor tab. */
export async function openFile(page: Page, fileName: string, timeoutMs = 45_000): Promise<void> {
  const base = path.basename(fileName);
  await quickInput(page, 'Control+P', fileName, timeoutMs, base);
  await page.locator(`.tabs-container .tab[aria-label^="${base.replace(/"/g, '\\"')}"]`).first().waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Runs a command by its palette label (e.g. "View: Toggle Zen Mode") through F1. */
export async function runCommand(page: Page, label: string, timeoutMs = 45_000): Promise<void> {
  await quickInput(page, 'F1', label, timeoutMs);
}

/** Saves a PNG screenshot of the page at `file` (creating its folder). */
export async function screenshot(page: Page, file: string): Promise<string> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  await page.screenshot({ path: file, timeout: 30_000 });
  return path.resolve(file);
}
