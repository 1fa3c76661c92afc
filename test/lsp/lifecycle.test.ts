/**
 * The server's lifecycle over stdio as LSP states it: nothing is answered before `initialize`
 * but with ServerNotInitialized, `initialize` is answered once, nothing after `shutdown`.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { LspClient, ResponseError, SERVER_BUNDLE } from '../support/lspClient';
import { digest, entryLines } from '../support/fixtures';

const SERVER_NOT_INITIALIZED = -32002;
const INVALID_REQUEST = -32600;

/** The error code a request was answered with; fails when it was answered with a result. */
async function errorCodeOf(answer: Promise<unknown>, what: string): Promise<number> {
  const outcome = await answer.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if ('result' in outcome) {
    assert.fail(`${what} was answered with a result: ${JSON.stringify(outcome.result)?.slice(0, 300)}`);
  }
  assert.ok(outcome.error instanceof ResponseError, `${what} failed without an error response: ${String(outcome.error)}`);
  return outcome.error.code;
}

describe('lsp: lifecycle over stdio', () => {
  const uri = 'file:///virtual/lifecycle.digest';
  const text = digest(entryLines('Sparse Probes'));

  test('Should answer every request before initialize with ServerNotInitialized, drop notifications, and initialize afterwards', async () => {
    const client = LspClient.spawn();
    try {
      // A notification before initialize is dropped: this document is never opened.
      client.openDocument(uri, text);
      const requests: [string, unknown][] = [
        ['textDocument/documentSymbol', { textDocument: { uri } }],
        ['textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 1 } }],
        ['workspace/symbol', { query: 'Sparse' }],
        ['paperDigest/papersTree', { filter: '' }],
        ['shutdown', undefined],
        ['no/suchMethod', {}],
      ];
      const codes = await Promise.all(requests.map(([method, params]) => errorCodeOf(client.request(method, params), method)));
      assert.deepEqual(codes, requests.map(() => SERVER_NOT_INITIALIZED), JSON.stringify(requests.map(([method], i) => [method, codes[i]])));
      // The server lives on and initializes as usual.
      const result = (await client.initialize()) as { capabilities?: { documentSymbolProvider?: unknown } };
      assert.ok(result.capabilities?.documentSymbolProvider, JSON.stringify(result));
      client.notify('initialized', {});
      const symbols = await client.request<unknown[] | null>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.ok(symbols === null || symbols.length === 0, `the document opened before initialize was kept: ${JSON.stringify(symbols)}`);
      client.openDocument(uri, text);
      const opened = await client.request<{ children?: { name: string }[] }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.match(opened[0]?.children?.[0]?.name ?? '', /^Sparse Probes/, JSON.stringify(opened));
    } finally {
      await client.shutdown();
    }
  });

  test('Should answer a request with no method name before initialize with InvalidRequest, not ServerNotInitialized', async () => {
    const frame = (body: string): string => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: 'pipe' });
      let text = '';
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`no answer in ${text}`));
      }, 20_000);
      child.on('error', reject);
      child.stdin.on('error', () => undefined);
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('"id":2,') && text.includes('"id":3,') && text.includes('"id":4,')) {
          clearTimeout(timer);
          child.kill();
          resolve(text);
        }
      });
      child.stdin.write(
        frame('{"jsonrpc":"2.0","id":1,"method":5}') +
          frame('{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":""}}') +
          frame('{"jsonrpc":"2.0","id":3,"params":{}}') +
          // A client's request named as the server's stand-ins are, but for their token: refused as any other.
          frame('{"jsonrpc":"2.0","id":4,"method":"paperDigest/$undecodable","params":{}}'),
      );
    });
    assert.match(out, /"id":1,"error":\{"code":-32600,/);
    assert.match(out, /"id":2,"error":\{"code":-32002,/);
    assert.match(out, /"id":3,"error":\{"code":-32600,/);
    assert.match(out, /"id":4,"error":\{"code":-32002,/);
    assert.doesNotMatch(out, /\$invalidRequest\/|\$undecodable\//, 'the stand-ins are never named');
  });

  test('Should answer a second initialize with an error, and go on serving', async () => {
    const client = await LspClient.start();
    try {
      const code = await errorCodeOf(client.request('initialize', { processId: null, rootUri: null, capabilities: {} }), 'the second initialize');
      assert.equal(code, INVALID_REQUEST);
      client.openDocument(uri, text);
      const symbols = await client.request<{ children?: { name: string }[] }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.match(symbols[0]?.children?.[0]?.name ?? '', /^Sparse Probes/, JSON.stringify(symbols));
    } finally {
      await client.shutdown();
    }
  });

  test('Should answer requests after shutdown with InvalidRequest, and exit with 0 on exit', async () => {
    const client = await LspClient.start();
    try {
      client.openDocument(uri, text);
      assert.equal(await client.request('shutdown'), null);
      const code = await errorCodeOf(client.request('textDocument/documentSymbol', { textDocument: { uri } }), 'documentSymbol after shutdown');
      assert.equal(code, INVALID_REQUEST);
      client.notify('exit');
      assert.equal(await client.waitForExit(), 0);
    } finally {
      client.kill();
    }
  });
});
