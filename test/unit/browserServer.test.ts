/**
 * The web extension's server bundle (dist/browser/server.js, built by `node esbuild.mjs`) run as
 * a web worker runs it: in a fresh V8 context whose only globals are a worker's (no require,
 * process, Buffer or setImmediate), talking LSP by posted messages. The workspace's files live
 * on a virtual file system that only this test's client can read, as the web extension's client
 * reads vscode-vfs or vscode-remote files for the server.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as vm from 'node:vm';
import { digest, entryLines, REPO_ROOT } from '../support/fixtures';

const BUNDLE = path.join(REPO_ROOT, 'dist', 'browser', 'server.js');
const FOLDER = 'vscode-test-web://mount/papers';

interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A web worker's global scope in a V8 context, with the server bundle loaded into it. */
class WorkerServer {
  private nextId = 1;
  private readonly waiting = new Map<number | string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly scope: Record<string, unknown>;
  readonly notifications: Message[] = [];
  readonly requestsSeen: string[] = [];
  readonly errors: string[] = [];

  constructor(private readonly files: Map<string, string>) {
    const listeners = new Map<string, ((event: unknown) => void)[]>();
    this.scope = {
      console: { log: () => undefined, info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => this.errors.push(args.join(' ')), debug: () => undefined },
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      structuredClone,
      TextEncoder,
      TextDecoder,
      URL,
      performance,
      // The server posts to its client: a structured clone, as between a worker and its page.
      postMessage: (message: unknown) => setTimeout(() => this.receive(structuredClone(message) as Message), 0),
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      removeEventListener: () => undefined,
    };
    this.scope.self = this.scope;
    this.scope.globalThis = this.scope;
    const context = vm.createContext(this.scope);
    vm.runInContext(fs.readFileSync(BUNDLE, 'utf8'), context, { filename: BUNDLE });
  }

  /** What a worker global that Node has would be (there must be none of them). */
  global(name: string): unknown {
    return vm.runInContext(`typeof ${name}`, vm.createContext(this.scope));
  }

  private post(message: Message): void {
    const onmessage = this.scope.onmessage as ((event: { data: unknown }) => void) | undefined;
    assert.ok(onmessage, 'the server listens for messages (self.onmessage)');
    onmessage({ data: structuredClone(message) });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.post({ jsonrpc: '2.0', method, params });
  }

  /** Waits for a notification that satisfies `match`, saying what came instead when it times out. */
  async notification(method: string, match: (params: unknown) => boolean, timeoutMs = 20_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.notifications.find((each) => each.method === method && match(each.params));
      if (found) {
        return found.params;
      }
      if (Date.now() > deadline) {
        throw new Error(`no ${method} as wanted; got ${JSON.stringify(this.notifications.filter((each) => each.method === method))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private receive(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) {
      this.requestsSeen.push(message.method);
      this.post({ jsonrpc: '2.0', id: message.id, result: this.answer(message.method, message.params) });
    } else if (message.method !== undefined) {
      this.notifications.push(message);
    } else if (message.id !== undefined) {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error) {
        waiting?.reject(new Error(message.error.message));
      } else {
        waiting?.resolve(message.result);
      }
    }
  }

  /** The client's side of the server's requests: the virtual file system's files. */
  private answer(method: string, params: unknown): unknown {
    switch (method) {
      case 'paperDigest/workspace/findDigestFiles': {
        const { folder } = params as { folder: string };
        return { uris: [...this.files.keys()].filter((uri) => uri.startsWith(folder + '/') && /\.digest(\.txt)?$/.test(uri)) };
      }
      case 'paperDigest/workspace/readDigestFiles': {
        const { uris } = params as { uris: string[] };
        return {
          files: uris.map((uri) => {
            const text = this.files.get(uri);
            return text === undefined ? { uri, problem: 'missing' } : { uri, text, mtime: 1_700_000_000_000 };
          }),
        };
      }
      case 'workspace/configuration':
        return (params as { items: unknown[] }).items.map(() => null);
      default:
        return null;
    }
  }
}

async function startServer(files: Map<string, string>, pull = false): Promise<WorkerServer> {
  const server = new WorkerServer(files);
  await server.request('initialize', {
    processId: null,
    rootUri: FOLDER,
    workspaceFolders: [{ uri: FOLDER, name: 'papers' }],
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true },
      textDocument: { publishDiagnostics: { versionSupport: true }, ...(pull ? { diagnostic: { dynamicRegistration: false } } : {}) },
    },
  });
  server.notify('initialized', {});
  return server;
}

describe('The web worker server (dist/browser/server.js)', () => {
  test('Should run with a web worker\'s globals only', () => {
    assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is built (node esbuild.mjs)`);
    const server = new WorkerServer(new Map());
    for (const name of ['require', 'process', 'Buffer', 'setImmediate', '__dirname']) {
      assert.equal(server.global(name), 'undefined', `${name} is no global of the worker`);
    }
  });

  test('Should index the workspace through the client and answer the outline, diagnostics and the Papers tree', async () => {
    const files = new Map([
      [`${FOLDER}/2026/may.digest`, digest(entryLines('A'), entryLines('B'))],
      [`${FOLDER}/june.digest.txt`, digest(entryLines('C'))],
      [`${FOLDER}/notes.txt`, 'not a digest'],
    ]);
    const server = await startServer(files);
    const tree = await server.request<{ paperCount: number; nodes: { label?: string; kind?: string }[] }>('paperDigest/papersTree', { grouping: 'file', filter: '' });
    assert.equal(tree.paperCount, 3, JSON.stringify(tree));
    assert.ok(server.requestsSeen.includes('paperDigest/workspace/findDigestFiles'), server.requestsSeen.join(', '));
    assert.ok(server.requestsSeen.includes('paperDigest/workspace/readDigestFiles'), server.requestsSeen.join(', '));

    const uri = `${FOLDER}/open.digest`;
    const text = digest(entryLines('D', { chineseTitle: null }));
    server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'paper-digest', version: 1, text } });
    const symbols = await server.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(symbols.length > 0 && JSON.stringify(symbols).includes('D Sparse Probes'), JSON.stringify(symbols));
    const published = (await server.notification('textDocument/publishDiagnostics', (params) => (params as { uri: string }).uri === uri)) as {
      diagnostics: { code?: string; codeDescription?: { href: string } }[];
    };
    const missing = published.diagnostics.find((each) => each.code === 'missing-field');
    assert.ok(missing, JSON.stringify(published));
    // The rule pages are the repository's: a web extension has no file: folder to link to.
    assert.match(missing.codeDescription?.href ?? '', /^https:\/\/github\.com\/.+\/docs\/rules\/missing-field\.md$/);

    // A file created on the virtual file system comes in by its file event.
    files.set(`${FOLDER}/july.digest`, digest(entryLines('E'), entryLines('F')));
    server.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: `${FOLDER}/july.digest`, type: 1 }] });
    await server.notification('paperDigest/indexChanged', (params) => (params as { paperCount: number }).paperCount === 6);
    files.delete(`${FOLDER}/2026/may.digest`);
    server.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: `${FOLDER}/2026`, type: 3 }] });
    await server.notification('paperDigest/indexChanged', (params) => (params as { paperCount: number }).paperCount === 4);
    assert.deepEqual(server.errors, []);
  });

  test('Should initialise from malformed initialize params with what is well formed, as the Node server does', async () => {
    for (const params of [
      { capabilities: null, workspaceFolders: [null, { uri: FOLDER, name: 'papers' }] },
      { capabilities: { workspace: null, textDocument: 5 }, workspaceFolders: [{ uri: 5 }, { uri: FOLDER }] },
      { capabilities: {}, rootUri: FOLDER, workspaceFolders: { uri: 'x' } },
    ]) {
      const server = new WorkerServer(new Map([[`${FOLDER}/a.digest`, digest(entryLines('A'))]]));
      const result = await server.request<{ capabilities: object }>('initialize', { processId: null, ...params });
      assert.ok(result.capabilities, JSON.stringify(params));
      server.notify('initialized', {});
      // The well-formed folder is read, and the server answers.
      const tree = await server.request<{ paperCount: number }>('paperDigest/papersTree', { grouping: 'file', filter: '' });
      assert.equal(tree.paperCount, 1, JSON.stringify(params));
      // A folder change of the wrong shape is shaped too.
      server.notify('workspace/didChangeWorkspaceFolders', null);
      assert.equal((await server.request<{ paperCount: number }>('paperDigest/papersTree', { grouping: 'file', filter: '' })).paperCount, 1);
      assert.doesNotMatch(server.errors.join('\n'), /TypeError|failed/, JSON.stringify(params));
    }
  });

  test('Should answer the workspace diagnostics of files that are not open, read through the client', async () => {
    const files = new Map([[`${FOLDER}/never-opened.digest`, digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.QQQ' }))]]);
    const server = await startServer(files, true);
    const report = await server.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    const item = report.items.find((each) => each.uri === `${FOLDER}/never-opened.digest`);
    assert.ok(item?.items?.some((each) => each.code === 'unknown-category'), JSON.stringify(report));
    assert.deepEqual(server.errors, []);
  });
});
