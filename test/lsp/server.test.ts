/**
 * The bundled server over stdio, as any LSP client sees it: capabilities, outline, folding and
 * semantic tokens of a fixture.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { FIXTURES, readFixture } from '../support/fixtures';
import { LspClient } from '../support/lspClient';

describe('dist/server.js over stdio', () => {
  let client: LspClient;
  const uri = pathToFileURL(path.join(FIXTURES, 'parser', 'well-formed.digest')).toString();

  before(async () => {
    client = await LspClient.start({ rootUri: null, args: ['--debug-requests'] });
    client.openDocument(uri, readFixture('parser/well-formed.digest'));
  });

  after(async () => {
    await client.shutdown();
  });

  test('Should announce the outline, folding and semantic tokens', () => {
    const capabilities = client.initializeResult.capabilities;
    assert.ok(capabilities.documentSymbolProvider);
    assert.ok(capabilities.foldingRangeProvider);
    assert.deepEqual(capabilities.semanticTokensProvider.legend.tokenTypes, ['digestHeading', 'paperTitle', 'translatedTitle', 'author']);
    assert.equal(client.initializeResult.serverInfo.name, 'paper-digest-server');
  });

  test('Should answer the outline with the heading on top and every paper below it, named by both titles', async () => {
    const symbols = (await client.request('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string; detail: string; children: { name: string; detail?: string; children?: unknown[] }[] }[];
    assert.equal(symbols.length, 1);
    assert.equal(symbols[0].name, '大模型推理能力');
    // Go to Symbol filters on names: the Chinese title must be in the name to be found.
    assert.deepEqual(symbols[0].children.map((c) => c.name), [
      'Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针',
      'Chain-of-Thought Distillation with Verifier Feedback · 基于验证器反馈的思维链蒸馏',
      'Multi-Agent Debate for Theorem Proving · 用于定理证明的多智能体辩论',
      'Scaling Laws for Collaborative Reasoning · 协作推理的缩放定律',
    ]);
    // The fields do not flood the outline.
    assert.ok(symbols[0].children.every((paper) => paper.children === undefined), JSON.stringify(symbols[0].children[0]));
  });

  test('Should answer a repeated outline of an unchanged version from its cache, identically', async () => {
    const textDocument = { uri };
    const first = await client.request('textDocument/documentSymbol', { textDocument });
    const before = await client.request<Record<string, number>>('paperDigest/debug/counters');
    const again = await client.request('textDocument/documentSymbol', { textDocument });
    const after = await client.request<Record<string, number>>('paperDigest/debug/counters');
    assert.deepEqual(again, first);
    assert.equal(after['outline.computed'], before['outline.computed'], `the outline was computed again: ${JSON.stringify({ before, after })}`);
    assert.equal(after['outline.cached'], (before['outline.cached'] ?? 0) + 1, JSON.stringify({ before, after }));
  });

  test('Should tell when the first byte of an answer arrived: after the request was sent, before it was decoded', async () => {
    // The support client's hook behind the benchmark row of what the server spends on an answer.
    const textDocument = { uri };
    const sent = Number(process.hrtime.bigint()) / 1e6;
    const { result, firstByteAt } = await client.timedRequest('textDocument/documentSymbol', { textDocument });
    const resolved = Number(process.hrtime.bigint()) / 1e6;
    assert.deepEqual(result, await client.request('textDocument/documentSymbol', { textDocument }));
    assert.ok(sent <= firstByteAt && firstByteAt <= resolved, JSON.stringify({ sent, firstByteAt, resolved }));
  });

  test('Should answer folding ranges, one per entry', async () => {
    const ranges = (await client.request('textDocument/foldingRange', { textDocument: { uri } })) as { startLine: number; endLine: number }[];
    assert.deepEqual(ranges.map((r) => r.startLine), [2, 18, 30, 44]);
  });

  test('Should answer semantic tokens for the heading, titles and authors', async () => {
    const tokens = (await client.request('textDocument/semanticTokens/full', { textDocument: { uri } })) as { data: number[] };
    assert.equal(tokens.data.length % 5, 0);
    const types = tokens.data.filter((_, i) => i % 5 === 3);
    assert.equal(types[0], 0);
    assert.equal(types.filter((t) => t === 1).length, 4);
    assert.equal(types.filter((t) => t === 2).length, 4);
    assert.ok(types.filter((t) => t === 3).length > 64);
  });

  test('Should follow edits: a changed title is in the next outline', async () => {
    const text = readFixture('parser/well-formed.digest').replace('Multi-Agent Debate for Theorem Proving', 'Multi-Agent Debate for Proof Search');
    client.changeDocument(uri, text, 2);
    const before = await client.request<Record<string, number>>('paperDigest/debug/counters');
    const symbols = (await client.request('textDocument/documentSymbol', { textDocument: { uri } })) as { children: { name: string }[] }[];
    assert.equal(symbols[0].children[2].name, 'Multi-Agent Debate for Proof Search · 用于定理证明的多智能体辩论');
    const after = await client.request<Record<string, number>>('paperDigest/debug/counters');
    assert.equal(after['outline.computed'], before['outline.computed'] + 1, 'a new version has its own outline');
  });

  test('Should answer from the new text when a document is opened again without a close, at the same version', async () => {
    const again = 'file:///reopened.digest';
    const text = readFixture('parser/well-formed.digest');
    client.openDocument(again, text, 'paper-digest');
    const first = (await client.request('textDocument/documentSymbol', { textDocument: { uri: again } })) as { children: { name: string }[] }[];
    assert.match(first[0].children[2].name, /^Multi-Agent Debate for Theorem Proving/);
    client.openDocument(again, text.replace('Multi-Agent Debate for Theorem Proving', 'Reopened Title'), 'paper-digest');
    const second = (await client.request('textDocument/documentSymbol', { textDocument: { uri: again } })) as { children: { name: string }[] }[];
    assert.match(second[0].children[2].name, /^Reopened Title/);
    client.closeDocument(again);
  });

  test('Should answer from the new text when a client sends a version number twice, never from the other text’s', async () => {
    const twice = 'file:///twice.digest';
    const text = readFixture('parser/well-formed.digest');
    client.openDocument(twice, text, 'paper-digest', 1);
    const edited = text.replace('Multi-Agent Debate for Theorem Proving', 'Edited Once');
    client.changeDocument(twice, edited, 2);
    const foldsBefore = await client.request('textDocument/foldingRange', { textDocument: { uri: twice } });
    const tokensBefore = await client.request('textDocument/semanticTokens/full', { textDocument: { uri: twice } });
    const pulled = (await client.request('textDocument/diagnostic', { textDocument: { uri: twice } })) as { resultId: string };
    // Version 2 again, another text: two lines fewer at the top of the second entry.
    const lines = edited.split('\n');
    const shorter = [...lines.slice(0, 18), ...lines.slice(20)].join('\n');
    client.changeDocument(twice, shorter, 2);
    const fresh = 'file:///twice-fresh.digest';
    client.openDocument(fresh, shorter, 'paper-digest', 2);
    for (const method of ['textDocument/foldingRange', 'textDocument/semanticTokens/full', 'textDocument/documentSymbol']) {
      const answer = JSON.stringify(await client.request(method, { textDocument: { uri: twice } }));
      const expected = JSON.stringify(await client.request(method, { textDocument: { uri: fresh } })).replaceAll(fresh, twice);
      assert.equal(answer, expected, method);
    }
    assert.notEqual(JSON.stringify(await client.request('textDocument/foldingRange', { textDocument: { uri: twice } })), JSON.stringify(foldsBefore));
    assert.notEqual(JSON.stringify(await client.request('textDocument/semanticTokens/full', { textDocument: { uri: twice } })), JSON.stringify(tokensBefore));
    const again = (await client.request('textDocument/diagnostic', { textDocument: { uri: twice }, previousResultId: pulled.resultId })) as { kind: string };
    assert.equal(again.kind, 'full', 'the problems of the other text are not said to be unchanged');
    client.closeDocument(twice);
    client.closeDocument(fresh);
  });
});
