import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SymbolKind } from 'vscode-languageserver-types';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { MAX_WORKSPACE_SYMBOLS, workspaceSymbols } from '../../server/src/service/features/workspaceSymbols';
import { digest, entryLines } from '../support/fixtures';

const A = 'file:///w/a.digest';
const B = 'file:///w/b.digest';

/** Two files: three papers in A, one in B. */
function sampleIndex(): WorkspaceIndex {
  const index = new WorkspaceIndex();
  index.update(
    A,
    digest(
      entryLines('A', { englishTitle: 'Sparse Probes for Arithmetic Circuits', chineseTitle: '算术电路的稀疏探针' }),
      entryLines('B', { englishTitle: 'Probing Sparse Autoencoders at Scale', chineseTitle: '大规模探测稀疏自编码器' }),
      entryLines('C', { englishTitle: 'Negotiating Agents under Partial Observability', chineseTitle: '部分可观测条件下的协商智能体' }),
    ),
  );
  index.update(B, digest(entryLines('D', { englishTitle: 'Tool-Augmented Program Synthesis', chineseTitle: '工具增强的程序合成' })));
  return index;
}

describe('workspaceSymbols', () => {
  test('Should find papers in every file by English title, ignoring case, best match first', () => {
    const symbols = workspaceSymbols(sampleIndex(), 'sparse');
    assert.deepEqual(symbols.map((s) => s.name), ['Sparse Probes for Arithmetic Circuits', 'Probing Sparse Autoencoders at Scale']);
    assert.equal(symbols[0].kind, SymbolKind.Class);
    assert.equal(symbols[0].containerName, '算术电路的稀疏探针');
    assert.equal(symbols[0].location.uri, A);
    assert.deepEqual(symbols[0].location.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 37 } });
    assert.equal(workspaceSymbols(sampleIndex(), 'PROGRAM synthesis')[0].location.uri, B);
  });

  test('Should find papers by Chinese title and name them by it, the English title as container', () => {
    const [symbol, ...rest] = workspaceSymbols(sampleIndex(), '稀疏探针');
    assert.equal(symbol.name, '算术电路的稀疏探针');
    assert.equal(symbol.containerName, 'Sparse Probes for Arithmetic Circuits');
    assert.deepEqual(rest, []);
  });

  test('Should match the query letters in order at word starts or close together, and not spread over a long title', () => {
    const symbols = workspaceSymbols(sampleIndex(), 'ngtag');
    assert.deepEqual(symbols.map((s) => s.name), ['Negotiating Agents under Partial Observability']);
    assert.deepEqual(workspaceSymbols(sampleIndex(), 'tps').map((s) => s.name), ['Tool-Augmented Program Synthesis']);
    assert.deepEqual(workspaceSymbols(sampleIndex(), 'tool prog').map((s) => s.name), ['Tool-Augmented Program Synthesis']);
    assert.deepEqual(workspaceSymbols(sampleIndex(), 'zzz'), []);
  });

  test('Should rank a title starting with the query above one containing it', () => {
    const symbols = workspaceSymbols(sampleIndex(), 'prob');
    assert.equal(symbols[0].name, 'Probing Sparse Autoencoders at Scale');
    assert.equal(symbols[1].name, 'Sparse Probes for Arithmetic Circuits');
  });

  test('Should list papers for an empty query and never more than the cap', () => {
    assert.equal(workspaceSymbols(sampleIndex(), '').length, 4);
    const index = new WorkspaceIndex();
    const model = parseDigest(digest(...Array.from({ length: 60 }, (_, i) => entryLines(`P${i}`))));
    for (let i = 0; i < 10; i++) {
      index.update(`file:///w/${i}.digest`, model);
    }
    assert.equal(workspaceSymbols(index, 'sparse').length, MAX_WORKSPACE_SYMBOLS);
    assert.equal(workspaceSymbols(index, '').length, MAX_WORKSPACE_SYMBOLS);
    assert.equal(workspaceSymbols(index, 'sparse', undefined, 7).length, 7);
  });

  test('Should name a paper as a label: no bidirectional or control characters, cut at 500 characters', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('E', { englishTitle: `Evil\u202Egnp.exe ${'long '.repeat(2_000)}`, chineseTitle: '恶意\u202E标题' })));
    const [symbol] = workspaceSymbols(index, 'evil');
    assert.equal(symbol.name.length, 500);
    assert.ok(symbol.name.startsWith('Evil\ufffdgnp.exe long'), symbol.name.slice(0, 30));
    assert.equal(symbol.containerName, '恶意\ufffd标题');
  });

  test('Should return nothing when cancelled', () => {
    const index = new WorkspaceIndex();
    const model = parseDigest(digest(...Array.from({ length: 50 }, (_, i) => entryLines(`P${i}`))));
    for (let i = 0; i < 30; i++) {
      index.update(`file:///w/${i}.digest`, model);
    }
    assert.deepEqual(workspaceSymbols(index, 'sparse', { isCancellationRequested: true }), []);
  });
});
