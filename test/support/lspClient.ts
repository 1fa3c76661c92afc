/**
 * A small JSON-RPC client over stdio for testing the language server as an editor would drive
 * it: Content-Length framing, request ids, and waits on responses and notifications that are
 * bounded by timeouts (no fixed sleeps).
 *
 * @example
 * const client = await LspClient.start({ rootUri: 'file:///tmp/ws' });
 * const symbols = await client.request('workspace/symbol', { query: 'sparse' });
 * await client.shutdown();
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './fixtures';

/** The bundled server, built by `node esbuild.mjs`. */
export const SERVER_BUNDLE = path.join(REPO_ROOT, 'dist', 'server.js');

export interface StartOptions {
  /** The workspace root; also sent as the one workspace folder. */
  readonly rootUri?: string | null;
  /** Workspace folders; default: the root alone. */
  readonly workspaceFolders?: readonly { uri: string; name: string }[] | null;
  /** Client capabilities; a VS Code-like set by default. */
  readonly capabilities?: unknown;
  readonly initializationOptions?: unknown;
  /** The display language sent as `locale` in `initialize`, e.g. `zh-cn`. */
  readonly locale?: string;
  /** The server module to run; `dist/server.js` by default. */
  readonly serverModule?: string;
  /** Options for node before the module, e.g. `['--max-semi-space-size=64']`. */
  readonly execArgv?: readonly string[];
  /** Arguments after `--stdio`, e.g. `['--debug-requests']`. */
  readonly args?: readonly string[];
  /** How long a request or wait may take by default, in milliseconds. */
  readonly timeoutMs?: number;
  /**
   * Answers requests the server sends to the client (`workspace/configuration`,
   * `client/registerCapability`, ...); by default they are answered with null. A promise is
   * answered once it settles.
   */
  readonly onServerRequest?: (method: string, params: unknown) => unknown;
}

export interface Message {
  readonly jsonrpc: '2.0';
  readonly id?: number | string | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** The error of a request the server answered with an error. */
export class ResponseError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface NotificationWaiter {
  readonly method: string;
  readonly predicate: (params: any) => boolean;
  readonly resolve: (params: any) => void;
}

export const DEFAULT_CAPABILITIES = {
  workspace: {
    workspaceFolders: true,
    configuration: true,
    workspaceEdit: { documentChanges: true },
    symbol: { dynamicRegistration: false },
    didChangeWatchedFiles: { dynamicRegistration: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
  },
};

export class LspClient {
  /** The id the next request gets (to cancel it with `$/cancelRequest`). */
  nextId = 1;
  private buffer = Buffer.alloc(0);
  /** Chunks received since `buffer` was last joined, their total with it, and the size a message awaits. */
  private chunks: Buffer[] = [];
  private received = 0;
  private awaited = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown, firstByteAt: number, bytes: number) => void; reject: (error: Error) => void; method: string }>();
  /** When the first byte of the message at the head of `buffer` arrived (`process.hrtime`, ms). */
  private messageStartedAt = 0;
  private readonly waiters = new Set<NotificationWaiter>();
  /** Every notification received, in order, for tests that look back. */
  readonly notifications: { method: string; params: any }[] = [];
  /** What the server wrote to stderr. */
  stderr = '';
  /** The size in bytes of the body of the last response received. */
  lastResponseBytes = 0;
  private exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: StartOptions,
  ) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        for (const { reject, method } of this.pending.values()) {
          reject(new Error(`server exited (code ${code}) before answering ${method}\n${this.stderr}`));
        }
        this.pending.clear();
        resolve(code);
      });
    });
  }

  /**
   * Starts the server with `--stdio` and completes the `initialize` / `initialized` handshake.
   * Resolves with the client; `initializeResult` holds the server's answer.
   */
  static async start(options: StartOptions = {}): Promise<LspClient> {
    const client = LspClient.spawn(options);
    await client.initialize();
    client.notify('initialized', {});
    return client;
  }

  /** Starts the server with `--stdio` and sends nothing: for tests of what comes before `initialize`. */
  static spawn(options: StartOptions = {}): LspClient {
    const child = spawn(process.execPath, [...(options.execArgv ?? []), options.serverModule ?? SERVER_BUNDLE, '--stdio', ...(options.args ?? [])], { stdio: 'pipe' });
    return new LspClient(child, options);
  }

  /** Sends `initialize` with the start options and keeps the answer in `initializeResult`. */
  async initialize(): Promise<unknown> {
    const options = this.options;
    const rootUri = options.rootUri ?? null;
    const workspaceFolders = options.workspaceFolders !== undefined ? options.workspaceFolders : rootUri ? [{ uri: rootUri, name: path.basename(rootUri) }] : null;
    this.initializeResult = await this.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders,
      capabilities: options.capabilities ?? DEFAULT_CAPABILITIES,
      initializationOptions: options.initializationOptions,
      ...(options.locale !== undefined ? { locale: options.locale } : {}),
    });
    return this.initializeResult;
  }

  /** The server's process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The result of `initialize`. */
  initializeResult: any;

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 10_000;
  }

  /** Sends a request and resolves with its result; rejects on an error response or timeout. */
  async request<R = any>(method: string, params?: unknown, timeoutMs = this.timeoutMs): Promise<R> {
    return (await this.timedRequest<R>(method, params, timeoutMs)).result;
  }

  /**
   * Like `request`, and also tells when the first byte of the answer arrived (milliseconds of
   * `process.hrtime`): what the server spent, apart from this client's decoding of the answer;
   * and the answer's size as sent (its JSON's bytes, without the header).
   */
  timedRequest<R = any>(method: string, params?: unknown, timeoutMs = this.timeoutMs): Promise<{ result: R; firstByteAt: number; bytes: number }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${method} within ${timeoutMs} ms\n${this.stderr}`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (value, firstByteAt, bytes) => {
          clearTimeout(timer);
          resolve({ result: value as R, firstByteAt, bytes });
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /**
   * Resolves with the params of the first notification of `method` that satisfies the predicate,
   * received after this call (or before it, when `includePast` is set); rejects after the timeout.
   */
  waitForNotification<P = any>(method: string, predicate: (params: P) => boolean = () => true, timeoutMs = this.timeoutMs, includePast = false): Promise<P> {
    if (includePast) {
      const past = this.notifications.find((n) => n.method === method && predicate(n.params));
      if (past) {
        return Promise.resolve(past.params as P);
      }
    }
    return new Promise<P>((resolve, reject) => {
      const waiter: NotificationWaiter = {
        method,
        predicate,
        resolve: (params) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(params);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no ${method} notification matching within ${timeoutMs} ms\n${this.stderr}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Opens a document (`textDocument/didOpen`) with version 1. */
  openDocument(uri: string, text: string, languageId = 'paper-digest', version = 1): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  /** Replaces a document's whole text (`textDocument/didChange`). */
  changeDocument(uri: string, text: string, version: number): void {
    this.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  closeDocument(uri: string): void {
    this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** Resolves with the server's exit code once it exits; rejects after the timeout. */
  waitForExit(timeoutMs = this.timeoutMs): Promise<number | null> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not exit within ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      void this.exited.then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** Kills the server unless it has exited. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill();
    }
  }

  /** `shutdown`, then `exit`; kills the server if it does not exit within the timeout. */
  async shutdown(timeoutMs = this.timeoutMs): Promise<void> {
    if (this.child.exitCode !== null) {
      return;
    }
    try {
      await this.request('shutdown', undefined, timeoutMs);
      this.notify('exit');
    } catch {
      // Killed below.
    }
    const timer = setTimeout(() => this.child.kill(), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    // Chunks are joined only once the message they complete has fully arrived: joining each
    // chunk as it comes copies a 20 MB answer hundreds of times.
    const arrivedAt = Number(process.hrtime.bigint()) / 1e6;
    if (this.received === 0) {
      this.messageStartedAt = arrivedAt;
    }
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.received < this.awaited) {
      return;
    }
    this.buffer = Buffer.concat([this.buffer, ...this.chunks]);
    this.chunks = [];
    this.received = this.buffer.length;
    this.awaited = 0;
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        return;
      }
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /Content-Length: *(\d+)/i.exec(header);
      if (!match) {
        throw new Error(`bad header from the server: ${header}`);
      }
      const length = Number(match[1]);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) {
        this.awaited = start + length;
        return;
      }
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString('utf8')) as Message;
      if (message.method === undefined) {
        this.lastResponseBytes = length;
      }
      this.buffer = this.buffer.subarray(start + length);
      this.received = this.buffer.length;
      const startedAt = this.messageStartedAt;
      // The next message began in the last chunk at the latest.
      this.messageStartedAt = arrivedAt;
      this.dispatch(message, startedAt, length);
    }
  }

  private dispatch(message: Message, startedAt: number, bytes: number): void {
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      // A request from the server.
      let result: unknown = null;
      try {
        result = this.options.onServerRequest?.(message.method, message.params) ?? null;
      } catch (error) {
        this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: String(error) } });
        return;
      }
      const id = message.id;
      if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
        // An answer the test gives later (a client slow to answer).
        Promise.resolve(result).then(
          (value) => this.send({ jsonrpc: '2.0', id, result: value ?? null }),
          (error: unknown) => this.send({ jsonrpc: '2.0', id, error: { code: -32603, message: String(error) } }),
        );
        return;
      }
      this.send({ jsonrpc: '2.0', id, result });
      return;
    }
    if (message.method !== undefined) {
      this.notifications.push({ method: message.method, params: message.params });
      for (const waiter of [...this.waiters]) {
        if (waiter.method === message.method && waiter.predicate(message.params)) {
          waiter.resolve(message.params);
        }
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) {
      return;
    }
    this.pending.delete(message.id as number);
    if (message.error) {
      pending.reject(new ResponseError(message.error.code, message.error.message, message.error.data));
    } else {
      pending.resolve(message.result, startedAt, bytes);
    }
  }
}
