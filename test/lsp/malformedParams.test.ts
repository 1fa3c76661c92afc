/**
 * Params without the shape LSP gives them, over stdio: every standard request gets its empty
 * answer (never an error), and a document notification without its shape is dropped (one
 * didOpen with a number for its URI broke every later update of the index).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { digest, entryLines, manyProblems } from '../support/fixtures';
import { LspClient } from '../support/lspClient';
import type { TextEdit } from 'vscode-languageserver-types';
import { fixAll as fixAllOf } from '../../server/src/service/features/codeActions';
import { parseDigest } from '../../server/src/service/parser';
import { MAX_FIX_ALL_PROBLEMS } from '../../server/src/service/features/codeActions';

const URI = 'file:///malformed/a.digest';

const BAD_DOCUMENTS: unknown[] = [undefined, null, 5, 'x', {}, { uri: 5 }, { uri: null }, []];
const BAD_POSITIONS: unknown[] = [undefined, null, {}, { line: 1.5, character: 2.5 }, { line: null, character: 0 }, { line: -1, character: 0 }, { line: '1', character: 0 }, [1, 2]];

describe('lsp: params without their shape', () => {
  let client: LspClient;

  before(async () => {
    client = await LspClient.start({ rootUri: null });
    client.openDocument(URI, digest(entryLines('A'), entryLines('B')));
  });

  after(async () => {
    await client?.shutdown();
  });

  test('Should answer every standard request with its empty answer, never an error', async () => {
    const document = { uri: URI };
    const position = { line: 2, character: 3 };
    const range = { start: position, end: position };
    const cases: [string, unknown][] = [];
    const byDocument = ['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/semanticTokens/full', 'textDocument/documentLink', 'textDocument/codeLens', 'textDocument/diagnostic'];
    const byPosition = ['textDocument/hover', 'textDocument/completion', 'textDocument/references', 'textDocument/documentHighlight', 'textDocument/prepareRename', 'textDocument/rename'];
    for (const method of [...byDocument, ...byPosition, 'textDocument/selectionRange', 'textDocument/codeAction']) {
      cases.push([method, undefined], [method, null], [method, 7]);
      for (const textDocument of BAD_DOCUMENTS) {
        cases.push([method, { textDocument, position, positions: [position], range, context: { diagnostics: [] }, newName: 'x' }]);
      }
    }
    for (const method of byPosition) {
      for (const bad of BAD_POSITIONS) {
        cases.push([method, { textDocument: document, position: bad, newName: 'x', context: { includeDeclaration: true } }]);
      }
    }
    cases.push(['textDocument/rename', { textDocument: document, position, newName: 5 }]);
    for (const positions of [undefined, null, {}, [null], [{ line: 0.5, character: 0 }]]) {
      cases.push(['textDocument/selectionRange', { textDocument: document, positions }]);
    }
    for (const [badRange, context] of [[{}, { diagnostics: [] }], [range, undefined], [range, { diagnostics: 'x' }], [range, { diagnostics: [], only: [5] }], [{ start: position }, { diagnostics: [] }]] as const) {
      cases.push(['textDocument/codeAction', { textDocument: document, range: badRange, context }]);
    }
    for (const params of [undefined, {}, { query: 5 }, { query: null }]) {
      cases.push(['workspace/symbol', params]);
    }
    for (const params of [undefined, null, {}, { label: 5 }]) {
      cases.push(['completionItem/resolve', params]);
    }
    for (const diagnostics of [[null], [{}], [{ range: 5 }], [{ range: { start: position } }]]) {
      cases.push(['textDocument/codeAction', { textDocument: document, range, context: { diagnostics } }]);
    }
    for (const params of [undefined, null, {}, { command: 5 }, { command: 'paperDigest.fixAll', arguments: 'x' }]) {
      cases.push(['workspace/executeCommand', params]);
    }
    for (const method of ['paperDigest/stateInfo', 'paperDigest/digests']) {
      cases.push([method, undefined]);
    }
    const failures: string[] = [];
    for (const [method, params] of cases) {
      try {
        await client.request(method, params);
      } catch (error) {
        failures.push(`${method} ${JSON.stringify(params)}: ${String(error)}`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${cases.length} failed`);
    // The same requests with their shape still answer.
    const hover = await client.request('textDocument/hover', { textDocument: document, position: { line: 2, character: 3 } });
    assert.ok(hover?.contents, JSON.stringify(hover));
    assert.deepEqual(await client.request('workspace/symbol', { query: 5 }), []);
  });

  test('Should answer every request of the server\'s own with params of any shape, by position too, never an error', async () => {
    const methods = [
      'paperDigest/papersTree',
      'paperDigest/paperAt',
      'paperDigest/documentStats',
      'paperDigest/serverMemory',
      'paperDigest/statistics',
      'paperDigest/rollup',
      'paperDigest/stateInfo',
      'paperDigest/digests',
      'paperDigest/rankedPapers',
      'paperDigest/documentPapers',
      'paperDigest/exportPapers',
      'paperDigest/setPaperState',
    ];
    const failures: string[] = [];
    for (const method of methods) {
      // No params, null, a number, params by position (empty, and of the wrong kind).
      for (const params of [undefined, null, 7, [], [1, 2], [{ uri: URI }]]) {
        try {
          await client.request(method, params);
        } catch (error) {
          failures.push(`${method} ${JSON.stringify(params)}: ${String(error).split('\n')[0]}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.doesNotMatch(client.stderr, /isCancellationRequested|TypeError/);
    // Nothing was changed by them, and the server answers as before.
    assert.equal((await client.request<{ paperCount: number }>('paperDigest/papersTree', { grouping: 'file', filter: '' })).paperCount, 2, 'the open document\'s two papers');
    assert.ok((await client.request<{ count: number }>('paperDigest/exportPapers', { format: 'csv', scope: { uri: URI } })).count >= 0);
  });

  test('Should drop a document notification without its shape, and go on as before', async () => {
    for (const textDocument of [{ uri: 5, languageId: 'paper-digest', version: 1, text: 'x' }, { uri: 'file:///malformed/b.digest', languageId: 'paper-digest', version: 'one', text: 'x' }, { uri: 'file:///malformed/c.digest', languageId: 'paper-digest', version: 1, text: 5 }, null]) {
      client.notify('textDocument/didOpen', { textDocument });
    }
    client.notify('textDocument/didChange', { textDocument: { uri: URI, version: 2 }, contentChanges: [{ range: { start: { line: 'x' } }, text: 'y' }] });
    client.notify('textDocument/didChange', { textDocument: { uri: 5, version: 2 }, contentChanges: [{ text: 'y' }] });
    client.notify('textDocument/didClose', { textDocument: { uri: 5 } });
    // A real edit after them: the index takes it, and hovers after it answer.
    for (let version = 2; version < 5; version++) {
      client.notify('textDocument/didChange', { textDocument: { uri: URI, version }, contentChanges: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: 'X' }] });
      const hover = await client.request('textDocument/hover', { textDocument: { uri: URI }, position: { line: 4, character: 2 } });
      assert.ok(hover?.contents, `after edit ${version}: ${JSON.stringify(hover)}`);
      const symbols = await client.request('workspace/symbol', { query: 'Sparse' });
      assert.ok(Array.isArray(symbols));
    }
    const outline = await client.request<{ children: { name: string }[] }[]>('textDocument/documentSymbol', { textDocument: { uri: URI } });
    assert.ok(outline[0].children[0].name.startsWith('XXXA Sparse'), outline[0].children[0].name);
    for (const uri of ['file:///malformed/b.digest', 'file:///malformed/c.digest']) {
      assert.equal(await client.request('textDocument/documentSymbol', { textDocument: { uri } }), null, `${uri} was not opened`);
    }
  });
});

describe('lsp: workspace notifications and initialize without their shape', () => {
  const roots: string[] = [];
  const folder = (name: string): string => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `paper-digest-${name}-`));
    roots.push(root);
    fs.writeFileSync(path.join(root, '2026-05-01.digest'), digest(entryLines('A')));
    return root;
  };
  /** The titles of the workspace's papers, as workspace symbols name them. */
  const titles = async (client: LspClient): Promise<string[]> => ((await client.request<{ name: string }[]>('workspace/symbol', { query: 'Sparse' })) ?? []).map((symbol) => symbol.name.split(' ')[0]).sort();

  after(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should take the well-formed file events of a batch and drop the others one by one, with nothing thrown', async () => {
    const root = folder('events');
    const client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    try {
      await client.request('paperDigest/rescanWorkspace');
      fs.writeFileSync(path.join(root, '2026-05-02.digest'), digest(entryLines('B')));
      fs.writeFileSync(path.join(root, '2026-05-03.digest'), digest(entryLines('C')));
      client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 5, type: 1 }, { uri: pathToFileURL(path.join(root, '2026-05-02.digest')).href, type: 1 }] });
      client.notify('workspace/didChangeWatchedFiles', { changes: [null, { uri: pathToFileURL(path.join(root, '2026-05-03.digest')).href, type: 1 }, { uri: 'file:///x.digest', type: 9 }] });
      client.notify('workspace/didChangeWatchedFiles', { changes: null });
      client.notify('workspace/didChangeWatchedFiles', null);
      client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: 5 }], removed: null } });
      client.notify('workspace/didChangeWorkspaceFolders', null);
      client.notify('workspace/didChangeWorkspaceFolders', { event: 5 });
      // Read by handlers as they come: a configuration change without params says the settings
      // changed; a trace or progress notification without its shape is dropped.
      client.notify('workspace/didChangeConfiguration', null);
      client.notify('workspace/didChangeConfiguration', 5);
      client.notify('$/setTrace', null);
      client.notify('$/setTrace', { value: 7 });
      client.notify('$/progress', null);
      client.notify('$/progress', { value: 1 });
      // The events are applied in order: once the last paper is listed, the others are too (asked
      // again until then, for at most 30 s on a busy machine).
      const deadline = Date.now() + 30_000;
      while (!(await titles(client)).includes('C') && Date.now() < deadline) await client.request('paperDigest/stateInfo');
      assert.deepEqual(await titles(client), ['A', 'B', 'C']);
      assert.doesNotMatch(client.stderr + JSON.stringify(client.notifications), /TypeError|Unhandled rejection|handler .* failed/);
    } finally {
      await client.shutdown();
    }
  });

  test('Should initialise from malformed initialize params with what is well formed, and once only', async () => {
    const root = folder('init');
    for (const params of [
      { capabilities: null, workspaceFolders: [null, { uri: pathToFileURL(root).href, name: 'w' }] },
      { capabilities: { workspace: null, textDocument: 5 }, workspaceFolders: [{ uri: 5 }, { uri: pathToFileURL(root).href }] },
      { capabilities: {}, rootUri: pathToFileURL(root).href, workspaceFolders: { uri: 'x' } },
    ]) {
      const client = LspClient.spawn({ rootUri: null });
      try {
        const result = await client.request<{ capabilities: object }>('initialize', { processId: null, ...params });
        assert.ok(result.capabilities, JSON.stringify(params));
        client.notify('initialized', {});
        const scan = await client.request<{ fileCount: number }>('paperDigest/rescanWorkspace');
        assert.equal(scan.fileCount, 1, `the well-formed folder is scanned: ${JSON.stringify(params)}`);
        assert.deepEqual(await titles(client), ['A']);
        assert.doesNotMatch(client.stderr + JSON.stringify(client.notifications), /TypeError|failed/);
      } finally {
        await client.shutdown();
      }
    }
    // Nothing to read at all: a server with no folder, initialised.
    const bare = LspClient.spawn({ rootUri: null });
    try {
      const result = await bare.request<{ capabilities: object }>('initialize', { rootUri: 5 });
      assert.ok(result.capabilities);
      bare.notify('initialized', {});
      assert.equal((await bare.request<{ fileCount: number }>('paperDigest/rescanWorkspace')).fileCount, 0);
    } finally {
      await bare.shutdown();
    }
  });
});

describe('lsp: fix-all of a document of many problems', () => {
  let client: LspClient;

  before(async () => {
    client = await LspClient.start({ rootUri: null, timeoutMs: 120_000 });
  });

  after(async () => {
    await client?.shutdown();
  });

  test('Should answer no fix-all for a version the document no longer has, never edits of one version stamped with another', async () => {
    const uri = 'file:///malformed/changing.digest';
    const text = '数学推理\n\n' + 'x\n'.repeat(60_000);
    client.openDocument(uri, text);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const fixAll = client.request<{ edit: { documentChanges: { textDocument: { version: number }; edits: TextEdit[] }[] } }[] | null>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [], only: ['source.fixAll'] } });
    // Typed while fix-all is worked out (two requests answered meanwhile: the server is at it).
    await client.request('textDocument/foldingRange', { textDocument: { uri } });
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range, text: 'typed\n\n' }] });
    const answer = await fixAll;
    if (answer !== null) {
      // Only if fix-all started after the change: then it is the second version's, and says so.
      const change = answer[0].edit.documentChanges[0];
      assert.equal(change.textDocument.version, 2);
      assert.deepEqual(change.edits, fixAllOf(parseDigest('typed\n\n' + text)));
    }
    client.closeDocument(uri);
  });

  test('Should work fix-all out in slices: a request sent after it is answered before it', async () => {
    // 60,000 stray lines: a problem and a fix each, seconds of fix-all.
    const uri = 'file:///malformed/many.digest';
    client.openDocument(uri, '数学推理\n\n' + 'x\n'.repeat(60_000));
    const order: string[] = [];
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const fixAll = client.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [], only: ['source.fixAll'] } }).then((actions: unknown) => {
      order.push('fix-all');
      return actions as { edit?: { documentChanges?: { edits: unknown[] }[] } }[] | null;
    });
    // The first request may come in while the server still reads its settings; the second is sent
    // once the first is answered, when the server is at the fix-all itself.
    const later = client
      .request('textDocument/foldingRange', { textDocument: { uri } })
      .then(() => order.push('folding'))
      .then(() => client.request('textDocument/documentSymbol', { textDocument: { uri } }))
      .then(() => order.push('outline'));
    const [actions] = await Promise.all([fixAll, later]);
    assert.deepEqual(order, ['folding', 'outline', 'fix-all']);
    assert.ok(actions && actions.length === 1 && actions[0].edit!.documentChanges![0].edits.length > 0, JSON.stringify(actions).slice(0, 300));
  });
  test('Should refuse fix-all of a digest of more problems than it works on, say so, and go on answering', async () => {
    const uri = 'file:///malformed/too-many.digest';
    client.openDocument(uri, manyProblems(Math.ceil(MAX_FIX_ALL_PROBLEMS / 3000) + 1));
    const result = await client.request<{ applied: boolean; edits: number; tooManyProblems?: number }>('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: [uri, 1] });
    assert.deepEqual(result, { applied: false, edits: 0, tooManyProblems: MAX_FIX_ALL_PROBLEMS });
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    assert.deepEqual(await client.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [], only: ['source.fixAll'] } }), []);
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 1 } });
    assert.ok(hover === null || typeof hover === 'object');
    client.closeDocument(uri);
  });
});
