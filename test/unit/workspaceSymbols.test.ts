import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SymbolKind } from 'vscode-languageserver-types';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { MAX_IN_ORDER, MAX_WORKSPACE_SYMBOLS, workspaceSymbols } from '../../server/src/service/features/workspaceSymbols';
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

  test('Should match in order as the plain search over every start does, for queries and titles within the bounds', () => {
    // Random titles of a few letters, hyphens and spaces (where in-order matches abound), and
    // random queries: the order and names are those of the reference below, which follows the
    // query from every place its first character occurs through the whole title.
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const word = (): string => Array.from({ length: 1 + random(5) }, () => 'abcd-'[random(5)]).join('');
    for (let round = 0; round < 60; round++) {
      const titles = Array.from({ length: 12 }, (_, i) => `${'abcd'[random(4)]}${Array.from({ length: 2 + random(4) }, word).join(' ')} t${i}`);
      const index = new WorkspaceIndex();
      index.update(A, digest(...titles.map((englishTitle, i) => entryLines(`Q${i}`, { englishTitle, chineseTitle: '中文标题' }))));
      for (let q = 0; q < 8; q++) {
        const query = Array.from({ length: 1 + random(6) }, () => 'abcd- '[random(6)]).join('').trim();
        const expected = titles
          .map((title, order) => ({ title, order, score: referenceScore(title, query) }))
          .filter((match) => match.score >= 0)
          .sort((a, b) => b.score - a.score || a.order - b.order)
          .map((match) => match.title);
        assert.deepEqual(workspaceSymbols(index, query).map((symbol) => symbol.name), query ? expected : titles, `${JSON.stringify(query)} in ${JSON.stringify(titles)}`);
      }
    }
  });

  test('Should match in order only within its bounds: a query of at most 128 characters, the first 512 of a title', () => {
    const index = new WorkspaceIndex();
    // Words starting with each letter of the query, in order: an in-order match at word starts.
    const letters = Array.from({ length: MAX_IN_ORDER + 1 }, (_, i) => 'abcdefghij'[i % 10]);
    index.update(A, digest(entryLines('W', { englishTitle: letters.map((c) => c + 'x').join(' '), chineseTitle: '词首' })));
    assert.equal(workspaceSymbols(index, letters.slice(0, MAX_IN_ORDER).join('')).length, 1, '128 characters');
    assert.deepEqual(workspaceSymbols(index, letters.join('')), [], '129 characters');
    // The same title found as a whole by a query of any length.
    assert.equal(workspaceSymbols(index, letters.map((c) => c + 'x').join(' ')).length, 1);
    // A match in order after the first 512 characters of a title is not looked for; one before is.
    const late = new WorkspaceIndex();
    late.update(A, digest(entryLines('L', { englishTitle: `${'m'.repeat(600)} quantum zebra`, chineseTitle: '迟到' })));
    assert.deepEqual(workspaceSymbols(late, 'qzebra'), []);
    const early = new WorkspaceIndex();
    early.update(A, digest(entryLines('E', { englishTitle: `${'m'.repeat(400)} quantum zebra`, chineseTitle: '提前' })));
    assert.equal(workspaceSymbols(early, 'qzebra').length, 1);
    // Hostile sizes answer (a query of 20,000 characters over titles of 90 KB took seconds a title).
    const hostile = new WorkspaceIndex();
    hostile.update(A, digest(...Array.from({ length: 3 }, (_, i) => entryLines(`H${i}`, { englishTitle: `${'ab'.repeat(45_000)} ${i}`, chineseTitle: '敌意' }))));
    assert.deepEqual(workspaceSymbols(hostile, 'a'.repeat(20_000)), []);
    assert.equal(workspaceSymbols(hostile, 'a'.repeat(MAX_IN_ORDER)).length, 0);
    assert.equal(workspaceSymbols(hostile, 'ab'.repeat(60)).length, 3);
  });
});

/** The score of a title for a query before the in-order match was bounded (the reference of the test above). */
function referenceScore(title: string, query: string): number {
  const needle = query.replace(/\s+/g, ' ').trim();
  const compact = needle.replace(/ /g, '');
  const at = title.indexOf(needle);
  if (at >= 0) {
    const tightness = Math.max(0, 50 - (title.length - needle.length));
    const wordStart = !/[\p{L}\p{N}]/u.test(title.charAt(at - 1));
    return at === 0 ? 300 + tightness : (wordStart ? 200 : 100) + tightness;
  }
  if (compact.length === 0) return -1;
  let from = 0;
  let words = true;
  for (const c of compact) {
    let found = title.indexOf(c, from);
    while (found > 0 && /[\p{L}\p{N}]/u.test(title.charAt(found - 1))) found = title.indexOf(c, found + 1);
    if (found < 0) {
      words = false;
      break;
    }
    from = found + c.length;
  }
  if (words) return 90;
  let best = -1;
  for (let start = title.indexOf(compact.charAt(0)); start >= 0; start = title.indexOf(compact.charAt(0), start + 1)) {
    let end = start;
    for (let i = 1; i < compact.length && end >= 0; i++) end = title.indexOf(compact.charAt(i), end + 1);
    if (end < 0) break;
    const spread = end - start + 1 - compact.length;
    if (spread <= compact.length * 2) best = Math.max(best, 80 - spread);
  }
  return best;
}
