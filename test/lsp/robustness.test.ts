/**
 * The bundled server (`node dist/server.js --stdio`, built by `node esbuild.mjs`) under hostile
 * and huge documents, failing requests, typing bursts and closes: it answers every request,
 * publishes diagnostics for the last version only, and lives on. Timeouts here are hang guards,
 * not speed assertions; speed is measured by `npm run bench`.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { DEFAULT_MAX_PAPERS, documentSymbols } from '../../server/src/service/features/symbols';
import { parseDigest } from '../../server/src/service/parser';
import { MAX_FOLDING_RANGES } from '../../server/src/service/features/folding';
import { DOCUMENT_LIMITS } from '../../server/src/service/limits';
import { generatedDigest, generatedEntry } from '../bench/generate';
import { digest, entryLines, paragraphs } from '../support/fixtures';
import { LspClient, ResponseError, SERVER_BUNDLE } from '../support/lspClient';

/** Generous bounds: the machine running the tests may be shared. */
const HANG_GUARD_MS = 120_000;
const INTERNAL_ERROR = -32603;

interface Published {
  uri: string;
  version?: number;
  diagnostics: { code: string; range: unknown }[];
}

/** Documents built to hurt: each is opened, queried, edited and closed. */
const HOSTILE: Record<string, () => string> = {
  'a 5 MB single line': () => '机构 * ' + 'Lab (X)（实验室（分部）、甲） ；  ；;（（ '.repeat(5_000_000 / 24),
  '300,000 lines': () => Array.from({ length: 300_000 }, (_, i) => (i % 3 === 0 ? 'Mei Tanaka, Lin Qiu' : i % 3 === 1 ? '标题' : `Title ${i}`)).join('\n'),
  'a 20 MB digest': () => generatedDigest(23_300),
  '100,000 （': () => paragraphs('大模型推理能力', '机构 * ' + '（'.repeat(100_000), '（\n'.repeat(1000)),
};

describe('lsp: robustness over stdio', () => {
  let client: LspClient;

  const publishedFor = (uri: string, predicate: (p: Published) => boolean): Promise<Published> =>
    client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && predicate(p), HANG_GUARD_MS, true);

  /** Asks every per-document request once; resolves with the outline. */
  async function askEverything(uri: string): Promise<DocumentSymbol[]> {
    const textDocument = { uri };
    const [symbols, folding, tokens] = await Promise.all([
      client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument }, HANG_GUARD_MS),
      client.request<unknown[]>('textDocument/foldingRange', { textDocument }, HANG_GUARD_MS),
      client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument }, HANG_GUARD_MS),
      client.request('textDocument/hover', { textDocument, position: { line: 0, character: 0 } }, HANG_GUARD_MS),
      client.request('textDocument/hover', { textDocument, position: { line: 2, character: 4 } }, HANG_GUARD_MS),
      client.request('textDocument/codeAction', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, context: { diagnostics: [] } }, HANG_GUARD_MS),
      // The editing help: completion, links, selection ranges, highlights, references, rename.
      ...[{ line: 0, character: 3 }, { line: 2, character: 4 }, { line: 9_999_999, character: 0 }].flatMap((position) => [
        client.request('textDocument/completion', { textDocument, position }, HANG_GUARD_MS),
        client.request('textDocument/documentHighlight', { textDocument, position }, HANG_GUARD_MS),
        client.request('textDocument/references', { textDocument, position, context: { includeDeclaration: true } }, HANG_GUARD_MS),
        client.request('textDocument/prepareRename', { textDocument, position }, HANG_GUARD_MS),
      ]),
      client.request('textDocument/documentLink', { textDocument }, HANG_GUARD_MS),
      client.request('textDocument/selectionRange', { textDocument, positions: [{ line: 0, character: 0 }, { line: 2, character: 4 }] }, HANG_GUARD_MS),
    ]);
    assert.ok(Array.isArray(symbols) && Array.isArray(folding) && Array.isArray(tokens.data));
    return symbols;
  }

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    client = await LspClient.start({ rootUri: null, timeoutMs: HANG_GUARD_MS, args: ['--debug-requests'] });
  });

  after(async () => {
    await client?.shutdown();
  });

  for (const [name, build] of Object.entries(HOSTILE)) {
    test(`Should serve ${name}: open, every request, an edit, close`, async () => {
      const uri = `file:///virtual/${name.replace(/\W+/g, '-')}.digest`;
      const text = build();
      client.openDocument(uri, text);
      const first = await publishedFor(uri, (p) => p.version === 1);
      assert.ok(first.diagnostics.length <= 10_000, `${first.diagnostics.length} diagnostics published`);
      await askEverything(uri);
      // A keystroke on the first line, as an editor sends it: a ranged change.
      client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: '字' }] });
      await publishedFor(uri, (p) => p.version === 2);
      await askEverything(uri);
      client.closeDocument(uri);
      const closed = await publishedFor(uri, (p) => p.version === undefined && p.diagnostics.length === 0);
      assert.deepEqual(closed.diagnostics, []);
    });
  }

  test('Should give a document with a line past the limit its capped outline and folding and one document-too-large diagnostic only', async () => {
    const uri = 'file:///virtual/too-long-line.digest';
    const line = '机构 * ' + '（ ； Lab '.repeat(DOCUMENT_LIMITS.maxLineLength / 7);
    client.openDocument(uri, digest(entryLines('A'), entryLines('B', { institutions: line }), entryLines('C')));
    const published = await publishedFor(uri, (p) => p.version === 1);
    assert.deepEqual(published.diagnostics.map((d) => [d.code, d.range]), [['document-too-large', { start: { line: 24, character: 0 }, end: { line: 24, character: 1 } }]]);
    const textDocument = { uri };
    const [root] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument }, HANG_GUARD_MS);
    assert.equal(root.children!.length, 3);
    assert.ok(root.children!.every((paper) => paper.children === undefined), 'papers without their fields');
    assert.deepEqual(await client.request('textDocument/semanticTokens/full', { textDocument }, HANG_GUARD_MS), { data: [] });
    assert.equal(await client.request('textDocument/hover', { textDocument, position: { line: 24, character: 10 } }, HANG_GUARD_MS), null);
    assert.equal(await client.request('textDocument/codeAction', { textDocument, range: { start: { line: 24, character: 0 }, end: { line: 24, character: 1 } }, context: { diagnostics: [] } }, HANG_GUARD_MS), null);
    assert.equal(await client.request('textDocument/documentLink', { textDocument }, HANG_GUARD_MS), null);
    assert.equal((await client.request<unknown[]>('textDocument/foldingRange', { textDocument }, HANG_GUARD_MS)).length, 3);
    client.closeDocument(uri);
  });

  test('Should flag a document of more lines than the limit, and cap its folding ranges', async () => {
    const uri = 'file:///virtual/many-lines.digest';
    const lines = Array.from({ length: DOCUMENT_LIMITS.maxLines + 3 }, (_, i) => (i % 3 === 0 ? 'Mei Tanaka, Lin Qiu' : i % 3 === 1 ? '标题' : `Title ${i}`));
    client.openDocument(uri, lines.join('\n'));
    const published = await publishedFor(uri, (p) => p.version === 1);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['document-too-large']);
    const folding = await client.request<unknown[]>('textDocument/foldingRange', { textDocument: { uri } }, HANG_GUARD_MS);
    assert.equal(folding.length, MAX_FOLDING_RANGES);
    const [first] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }, HANG_GUARD_MS);
    assert.ok(first.children === undefined || first.children.length <= DEFAULT_MAX_PAPERS + 1);
    client.closeDocument(uri);
  });

  test('Should cap the folding ranges of a big digest within the limits', async () => {
    const uri = 'file:///virtual/many-papers.digest';
    client.openDocument(uri, generatedDigest(MAX_FOLDING_RANGES + 500));
    const folding = await client.request<{ startLine: number }[]>('textDocument/foldingRange', { textDocument: { uri } }, HANG_GUARD_MS);
    assert.equal(folding.length, MAX_FOLDING_RANGES);
    assert.equal(folding[0].startLine, 2, 'the first ranges, in document order');
    client.closeDocument(uri);
  });

  test('Should give the memory of closed documents back', async () => {
    // A server of its own, with a collector the test can run (the extension starts it so too).
    const own = await LspClient.start({ rootUri: null, timeoutMs: HANG_GUARD_MS, execArgv: ['--expose-gc'] });
    try {
      const idle = await own.request<{ heapUsed: number }>('paperDigest/serverMemory', { collect: true });
      const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
      const withoutTopics = ['大模型推理能力', ...Array.from({ length: 12_000 }, (_, i) => generatedEntry(i).filter((line) => !line.startsWith('专题命中')))].flat().join('\n\n') + '\n';
      for (const [name, text] of [
        ['without-topics', withoutTopics],
        ['digest', generatedDigest(6_000)],
        ['line', '机构 * ' + '（ ； '.repeat(2_000_000)],
      ] as const) {
        // One document at a time: open, every request, close, and the memory once collected.
        const uri = `file:///virtual/memory-${name}.digest`;
        const textDocument = { uri };
        const position = { line: 0, character: 3 };
        own.openDocument(uri, text);
        await own.waitForNotification('textDocument/publishDiagnostics', (p: Published) => p.uri === uri, HANG_GUARD_MS, true);
        for (const method of ['documentSymbol', 'semanticTokens/full', 'documentLink', 'foldingRange']) {
          await own.request(`textDocument/${method}`, { textDocument }, HANG_GUARD_MS);
        }
        await own.request('textDocument/hover', { textDocument, position }, HANG_GUARD_MS);
        await own.request('textDocument/completion', { textDocument, position }, HANG_GUARD_MS);
        await own.request('textDocument/codeAction', { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } }, HANG_GUARD_MS);
        await own.request('textDocument/codeAction', { textDocument, range: { start: position, end: position }, context: { diagnostics: [], only: ['source.fixAll.paperDigest'] } }, HANG_GUARD_MS);
        const open = await own.request<{ heapUsed: number }>('paperDigest/serverMemory', {});
        assert.ok(open.heapUsed - idle.heapUsed > 10e6, `${name}: the document took memory while open: ${mb(open.heapUsed - idle.heapUsed)}`);
        own.closeDocument(uri);
        await own.waitForNotification('textDocument/publishDiagnostics', (p: Published) => p.uri === uri && p.version === undefined, HANG_GUARD_MS, true);
        // Nothing keeps a closed document (not even the subject of V8's last regular-expression
        // match): a full collection gives its memory back, once the work the close set off (the
        // index change and what follows it, late on a busy machine) has run.
        const seen: string[] = [];
        const deadline = Date.now() + 20_000;
        for (;;) {
          const closed = await own.request<{ heapUsed: number }>('paperDigest/serverMemory', { collect: true });
          seen.push(mb(closed.heapUsed));
          if (closed.heapUsed - idle.heapUsed < 8e6) {
            break;
          }
          assert.ok(Date.now() < deadline, `${name}: heap after close ${seen.join(', ')}, against ${mb(idle.heapUsed)} idle and ${mb(open.heapUsed)} open`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    } finally {
      await own.shutdown();
    }
  });

  test('Should cap the outline of 29,000 papers and summarise the rest', async () => {
    const uri = 'file:///virtual/many-papers-outline.digest';
    const entry = (i: number): string[] => [`Paper ${i}`, `论文${i}`, 'Mei Tanaka, Lin Qiu', '专题命中 推理 ：x(title)；分类 cs.LG', 'AI总结 好。'];
    const parts: string[] = ['大模型推理能力'];
    for (let i = 0; i < 29_000; i++) parts.push(...entry(i));
    client.openDocument(uri, parts.join('\n\n') + '\n');
    const [root] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }, HANG_GUARD_MS);
    assert.equal(root.detail, '29000 papers');
    assert.equal(root.children!.length, DEFAULT_MAX_PAPERS + 1);
    assert.match(root.children![DEFAULT_MAX_PAPERS].name, new RegExp(`${29_000 - DEFAULT_MAX_PAPERS} more papers`));
    client.closeDocument(uri);
  });

  test('Should outline the papers of the first 50,000 lines of 100,000 papers, and say the rest is not read', async () => {
    const uri = 'file:///virtual/hundred-thousand.digest';
    const entry = (i: number): string[] => [`Paper ${i}`, `论文${i}`, 'Mei Tanaka, Lin Qiu', '专题命中 推理 ：x(title)；分类 cs.LG', 'AI总结 好。'];
    const parts: string[] = ['大模型推理能力'];
    for (let i = 0; i < 100_000; i++) parts.push(...entry(i));
    client.openDocument(uri, parts.join('\n\n') + '\n');
    const [root] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }, HANG_GUARD_MS);
    assert.equal(root.detail, '5000 papers in the first 50000 lines, the rest not read: the document is too large');
    assert.equal(root.children!.length, 5_000);
    assert.equal(root.children![4_999].name, 'Paper 4999 · 论文4999');
    const published = await publishedFor(uri, (p) => p.version === 1);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['document-too-large']);
    client.closeDocument(uri);
  });

  test('Should answer a request that fails inside a feature with an InternalError, and keep serving', async () => {
    const uri = 'file:///virtual/failing.digest';
    const text = digest(entryLines('A'), entryLines('B'));
    client.openDocument(uri, text);
    for (const [method, params] of [
      ['textDocument/hover', { textDocument: { uri }, position: null }],
      ['textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }],
      ['textDocument/documentSymbol', { textDocument: { uri: 42 } }],
    ] as const) {
      const outcome = await client.request(method, params).then(
        () => 'answered',
        (error: unknown) => error,
      );
      if (outcome !== 'answered') {
        assert.ok(outcome instanceof ResponseError, `${method}: ${String(outcome)}`);
        assert.equal(outcome.code, INTERNAL_ERROR, method);
      }
    }
    // Params without their shape get the empty answer (requestShapes.ts)...
    assert.equal(await client.request('textDocument/hover', { textDocument: { uri }, position: null }), null);
    // ...and a failure inside a feature an InternalError, with the server serving on.
    const failure = await client.request('paperDigest/debug/fail').catch((error: unknown) => error);
    assert.ok(failure instanceof ResponseError && failure.code === INTERNAL_ERROR, String(failure));
    assert.match(failure.message, /^paperDigest\/debug\/fail failed: a failure inside a feature/);
    // Logged in one line, without its stack (that goes to standard error).
    const logged = client.notifications.filter((n) => n.method === 'window/logMessage' && String((n.params as { message: string }).message).startsWith('paperDigest/debug/fail failed'));
    assert.equal(logged.length, 1);
    assert.doesNotMatch((logged[0].params as { message: string }).message, /\n|\bat .*server\.js/);
    const [root] = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(root.children!.length, 2, 'the server still answers');
    client.closeDocument(uri);
  });

  test('Should publish and outline the last version after a burst of 50 keystrokes', async () => {
    const uri = 'file:///virtual/burst.digest';
    let document = TextDocument.create(uri, 'paper-digest', 1, digest(entryLines('A'), entryLines('B'), entryLines('C')));
    client.openDocument(uri, document.getText());
    await publishedFor(uri, (p) => p.version === 1);
    const typed = 'cs.XX、CS.lg (title)；\n\nNew Title\n\n';
    for (let version = 2; version <= 51; version++) {
      // Type into the second paper's topic hits, one character at a time, and delete some.
      const line = 2 + 16 + 8;
      const at = document.positionAt(document.offsetAt({ line, character: 0 }) + 20);
      const change = version % 7 === 0 ? { range: { start: document.positionAt(document.offsetAt(at) - 1), end: at }, text: '' } : { range: { start: at, end: at }, text: typed[version % typed.length] };
      document = TextDocument.update(document, [change], version);
      client.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    }
    const last = await publishedFor(uri, (p) => p.version === 51);
    const expected = computeDiagnostics(parseDigest(document.getText()));
    assert.deepEqual(last.diagnostics.map((d) => [d.code, d.range]), expected.map((d) => [d.code, d.range]));
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols, JSON.parse(JSON.stringify(documentSymbols(parseDigest(document.getText())))));
    // Nothing newer than the last version, and nothing after it for an older one.
    const sets = client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri).map((n) => n.params as Published);
    assert.equal(sets[sets.length - 1].version, 51);
    client.closeDocument(uri);
    const closed = await publishedFor(uri, (p) => p.version === undefined);
    assert.deepEqual(closed.diagnostics, []);
  });
});

describe('lsp: what the server is started with, and frames it cannot read', () => {
  /** Runs the server with `args`, writes `input` to it, and resolves with its exit code and stderr. */
  function run(args: readonly string[], input: Buffer | string, first?: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [SERVER_BUNDLE, ...args], { stdio: 'pipe' });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, stderr, stdout }));
      child.stdin.on('error', () => undefined);
      if (first === undefined) {
        child.stdin.end(input);
        return;
      }
      // `first`, and the rest once the first answer has come.
      child.stdin.write(first);
      const answered = (): void => {
        if (!stdout.includes('"result"')) return;
        child.stdout.off('data', answered);
        child.stdin.end(input);
      };
      child.stdout.on('data', answered);
    });
  }
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });

  test('Should say in one line how to start it, with no stack, when no transport or a bad one is named', async () => {
    for (const [args, code, said] of [
      [[], 2, /say how to talk to the client/],
      [['--socket=notaport'], 2, /port of --socket must be a number/],
      [['--node-ipc'], 2, /IPC channel/],
      [['--help'], 0, /^usage: /],
    ] as const) {
      const { code: exit, stderr } = await run(args, '');
      assert.equal(exit, code, args.join(' '));
      assert.match(stderr, said);
      assert.match(stderr, /usage: node dist\/server\.js --stdio/);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack');
    }
  });

  test('Should end quietly when the client stops reading its output, with no stack', async () => {
    // Writing to the closed output failed, the failure's log went to the same closed connection,
    // and that failure ended the process with node's code 7 and a stack on standard error.
    const frame = (message: object): string => {
      const body = JSON.stringify(message);
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: 'pipe' });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.stdin.on('error', () => undefined);
      child.on('error', reject);
      child.on('exit', (exit) => resolve({ code: exit, stderr: err }));
      child.stdin.write(frame({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      child.stdout.once('data', () => {
        child.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
        child.stdout.destroy();
        child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'workspace/symbol', params: { query: '' } }));
      });
    });
    assert.equal(code, 1);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack');
  });

  test('Should answer a request that is not valid JSON with a ParseError, and one whose method is not a string with InvalidRequest, by the id it names, and serve on', async () => {
    // The library dropped such a body without a word: the client waited for ever for its answer.
    const frameOf = (body: string): string => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const bad =
      frameOf('{"jsonrpc":"2.0","id":7,"method":"workspace/symbol","params":{"query":"x",}}') +
      frameOf('{"jsonrpc":"2.0","id":"s","method":"workspace/symbol","params":[') +
      frameOf('{"jsonrpc":"2.0","id":5,"method":5}') +
      frameOf('{"jsonrpc":"2.0","id":"m","method":{"a":1},"params":{}}');
    const good = frameOf(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///none.digest' }, position: { line: 0, character: 0 } } }));
    // Written after the answer to initialize, read until the answer to the last request has come
    // (standard input is left open: a server whose input ends may stop before it answers).
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: 'pipe' });
      let out = '';
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`no answer to id 8 in ${out}`));
      }, 20_000);
      child.on('error', reject);
      child.stdin.on('error', () => undefined);
      child.stdout.on('data', (chunk: Buffer) => {
        const first = !out.includes('"id":1,');
        out += chunk.toString('utf8');
        if (first && out.includes('"id":1,')) child.stdin.write(bad + good);
        if (out.includes('"id":8,')) {
          clearTimeout(timer);
          child.kill();
          resolve(out);
        }
      });
      child.stdin.write(frameOf(initialize));
    });
    assert.match(stdout, /\{"jsonrpc":"2\.0","id":7,"error":\{"code":-32700,"message":"the request is not valid JSON"\}\}/);
    assert.match(stdout, /"id":"s","error":\{"code":-32700/);
    assert.match(stdout, /\{"jsonrpc":"2\.0","id":5,"error":\{"code":-32600,"message":"the request has no method name \(a string\)"\}\}/);
    assert.match(stdout, /"id":"m","error":\{"code":-32600/);
    assert.match(stdout, /"id":8,"result":null/);
  });

  test('Should stop with a reason at a header without a Content-Length, not wait deaf for more', async () => {
    for (const header of ['Content-Length: abc\r\n\r\n', 'Content-Type: x\r\n\r\n', `${initialize}`.repeat(300)]) {
      // A well-formed initialize first, answered; then the bad frame, and another initialize.
      const frame = `Content-Length: ${initialize.length}\r\n\r\n${initialize}`;
      const { code, stderr, stdout } = await run(['--stdio'], `${header}${frame}`, frame);
      assert.equal(code, 2, header.slice(0, 30));
      assert.match(stderr, /the client sent a message header .*the server stops/);
      assert.equal(stdout.match(/"id":1,"result"/g)?.length ?? 0, 1, 'the first initialize answered');
    }
  });
});
