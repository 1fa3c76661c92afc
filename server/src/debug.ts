/**
 * Debug-only custom requests, for the end-to-end benchmark and the LSP tests: the server's
 * memory and its cache counters. They are registered only when the server is started with
 * `--debug-requests` (`node --expose-gc dist/server.js --stdio --debug-requests`); an editor
 * never sees them.
 */
import { RequestType0 } from 'vscode-languageserver-protocol';
import type { Connection } from 'vscode-languageserver/node';

export interface DebugMemoryResult {
  /** V8 heap in use, in bytes; after two full collections when `collected` is true. */
  readonly heapUsed: number;
  /** The process's resident set size, in bytes. */
  readonly rss: number;
  /** Whether the heap was collected first (the server runs with `--expose-gc`). */
  readonly collected: boolean;
}

/**
 * `paperDigest/debug/memory` (client → server, no params): the server's memory, after full
 * garbage collections when node runs with `--expose-gc`.
 */
export const DebugMemoryRequest = new RequestType0<DebugMemoryResult, void>('paperDigest/debug/memory');

/**
 * `paperDigest/debug/counters` (client → server, no params): how often each cached answer was
 * computed and how often it was served from the cache, e.g.
 * `{ "outline.computed": 1, "outline.cached": 4, "parse": 1 }`.
 */
export const DebugCountersRequest = new RequestType0<Record<string, number>, void>('paperDigest/debug/counters');

/**
 * `paperDigest/debug/fail` (client → server, no params): a handler that fails, run as every
 * request handler is (`guarded` in server.ts), so that the tests see a failure inside a feature
 * answered with InternalError while the server goes on.
 */
export const DebugFailRequest = new RequestType0<never, void>('paperDigest/debug/fail');

/**
 * `paperDigest/debug/releaseScan` (client → server, no params): lets the first scan go on, which
 * `initializationOptions.debugHoldScan` held after its look at the index kept at the last start,
 * so that the tests see what is answered meanwhile.
 */
export const DebugReleaseScanRequest = new RequestType0<null, void>('paperDigest/debug/releaseScan');

/** Whether the server was asked for the debug requests. */
export function debugRequestsEnabled(argv: readonly string[] = process.argv): boolean {
  return argv.includes('--debug-requests');
}

/** Registers the debug requests on the connection, when enabled. */
export function registerDebugRequests(connection: Connection, counters: () => Record<string, number>, guard: <R>(method: string, handler: () => R) => () => Promise<R>, releaseScan: () => void): void {
  if (!debugRequestsEnabled()) {
    return;
  }
  connection.onRequest(DebugReleaseScanRequest, () => {
    releaseScan();
    return null;
  });
  connection.onRequest(DebugMemoryRequest, () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    return { heapUsed: usage.heapUsed, rss: usage.rss, collected: gc !== undefined };
  });
  connection.onRequest(DebugCountersRequest, () => counters());
  connection.onRequest(
    DebugFailRequest,
    guard(DebugFailRequest.method, () => {
      throw new TypeError('a failure inside a feature, asked for by paperDigest/debug/fail');
    }),
  );
}
