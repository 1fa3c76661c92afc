import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { foldingRanges } from '../../server/src/service/features/folding';
import { semanticTokens } from '../../server/src/service/features/semanticTokens';
import { documentSymbols } from '../../server/src/service/features/symbols';
import type { MessageLanguage } from '../../server/src/service/messages';
import { parseDigest } from '../../server/src/service/parser';
import { assertGolden, digest, entryLines, readFixture } from '../support/fixtures';

function describeSymbols(symbols: DocumentSymbol[], indent = ''): string {
  return symbols
    .map((symbol) => {
      const { start, end } = symbol.range;
      const sel = symbol.selectionRange;
      const line = `${indent}kind=${symbol.kind} ${JSON.stringify(symbol.name)} detail=${JSON.stringify(symbol.detail ?? '')} ${start.line}:${start.character}-${end.line}:${end.character} sel=${sel.start.line}:${sel.start.character}-${sel.end.line}:${sel.end.character}`;
      return [line, symbol.children ? describeSymbols(symbol.children, indent + '  ') : ''].filter((x) => x).join('\n');
    })
    .join('\n');
}

function contains(outer: DocumentSymbol['range'], inner: DocumentSymbol['range']): boolean {
  const before = (a: { line: number; character: number }, b: { line: number; character: number }): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

describe('outline', () => {
  test('Should put the heading on top and one symbol per paper named by both its titles, without fields', () => {
    const symbols = documentSymbols(parseDigest(digest(entryLines('A'), entryLines('B'))));
    assert.equal(symbols.length, 1);
    assert.equal(symbols[0].name, '大模型推理能力');
    assert.deepEqual(symbols[0].children?.map((c) => c.name), [
      'A Sparse Probes for Arithmetic Circuits · A 算术电路的稀疏探针',
      'B Sparse Probes for Arithmetic Circuits · B 算术电路的稀疏探针',
    ]);
    assert.equal(symbols[0].children?.[0].children, undefined);
  });

  test('Should name a paper without a Chinese title by its English title alone', () => {
    const [root] = documentSymbols(parseDigest(digest(entryLines('A', { chineseTitle: null }))));
    assert.equal(root.children?.[0].name, 'A Sparse Probes for Arithmetic Circuits');
  });

  test('Should match the golden outline of the well-formed fixture', () => {
    assertGolden('outline/well-formed.symbols.txt', describeSymbols(documentSymbols(parseDigest(readFixture('parser/well-formed.digest')))) + '\n');
  });

  test('Should match the golden outline of a digest with broken entries', () => {
    assertGolden('outline/missing-fields.symbols.txt', describeSymbols(documentSymbols(parseDigest(readFixture('parser/missing-fields.digest')))) + '\n');
  });

  test('Should give every symbol a non-empty name and a selection range inside its range', () => {
    for (const fixture of ['well-formed', 'missing-fields', 'titles-in-wrong-language', 'no-heading', 'stray-lines']) {
      const walk = (symbols: DocumentSymbol[], parent?: DocumentSymbol): void => {
        for (const symbol of symbols) {
          assert.ok(symbol.name.trim().length > 0, `${fixture}: empty name`);
          assert.ok(contains(symbol.range, symbol.selectionRange), `${fixture}: ${symbol.name} selection outside range`);
          if (parent) assert.ok(contains(parent.range, symbol.range), `${fixture}: ${symbol.name} outside its parent`);
          walk(symbol.children ?? [], symbol);
        }
      };
      walk(documentSymbols(parseDigest(readFixture(`parser/${fixture}.digest`))));
    }
  });

  test('Should name a paper without an English title by its Chinese title', () => {
    const [root] = documentSymbols(parseDigest(digest(entryLines('A', { englishTitle: null }))));
    assert.equal(root.children?.[0].name, 'A 算术电路的稀疏探针');
  });

  test('Should name a paper without either title by its place in the message language: Chinese for zh-cn, English for en and both', () => {
    const doc = parseDigest(digest(entryLines('A'), entryLines('B', { englishTitle: null, chineseTitle: null, authors: null })));
    const name = (language?: MessageLanguage): string | undefined => documentSymbols(doc, { language })[0].children?.[1].name;
    assert.deepEqual([name(), name('en'), name('both')], ['(untitled paper 2)', '(untitled paper 2)', '(untitled paper 2)']);
    assert.equal(name('zh-cn'), '（无题论文 2）');
    // Each symbol is kept with its entry: asked again in English, the answer is English again.
    assert.equal(name('en'), '(untitled paper 2)');
  });

  test('Should cap the outline and summarise the papers left out', () => {
    const entries = Array.from({ length: 12 }, (_, i) => entryLines(`P${i}`));
    const [root] = documentSymbols(parseDigest(digest(...entries)), { maxPapers: 10 });
    assert.equal(root.children?.length, 11);
    assert.equal(root.children?.[10].name, '… 2 more papers');
    const [one] = documentSymbols(parseDigest(digest(...entries.slice(0, 11))), { maxPapers: 10 });
    assert.deepEqual([one.detail, one.children?.[10].name], ['11 papers', '… 1 more paper']);
    assert.equal(documentSymbols(parseDigest(digest(entries[0])))[0].detail, '1 paper');
  });

  test('Should give the outline’s own words in the message language: English for en and both, Chinese for zh-cn', () => {
    const doc = parseDigest(digest(...Array.from({ length: 12 }, (_, i) => entryLines(`P${i}`))));
    for (const language of [undefined, 'both', 'en'] as const) {
      const [root] = documentSymbols(doc, { maxPapers: 10, language });
      assert.deepEqual([root.detail, root.children?.[10].name, root.children?.[10].detail], ['12 papers', '… 2 more papers', 'the outline shows the first 10'], String(language));
    }
    const [zh] = documentSymbols(doc, { maxPapers: 10, language: 'zh-cn' });
    assert.deepEqual([zh.name, zh.detail, zh.children?.[10].name, zh.children?.[10].detail], ['大模型推理能力', '12 篇论文', '… 另有 2 篇论文', '大纲只显示前 10 篇']);
    assert.equal(zh.children?.[0].name, 'P0 Sparse Probes for Arithmetic Circuits · P0 算术电路的稀疏探针', 'titles as written');
  });

  test('Should return no symbols once cancelled', () => {
    assert.deepEqual(documentSymbols(parseDigest(digest(entryLines('A'))), {}, { isCancellationRequested: true }), []);
  });
});

describe('folding', () => {
  test('Should fold each entry from its first to its last line', () => {
    const ranges = foldingRanges(parseDigest(digest(entryLines('A'), entryLines('B', { comments: null, journalRef: null }))));
    assert.deepEqual(ranges, [
      { startLine: 2, endLine: 16 },
      { startLine: 18, endLine: 28 },
    ]);
  });
});

describe('semantic tokens', () => {
  test('Should mark the heading, both titles and each author', () => {
    const { data } = semanticTokens(parseDigest('题目\n\nA Title\n\n一个标题\n\nMei Tanaka, Lin Qiu\n\n专题命中 推理 ：x(title)；分类 cs.CL\n\nAI总结 好。\n'));
    assert.deepEqual(data, [0, 0, 2, 0, 0, 2, 0, 7, 1, 0, 2, 0, 4, 2, 0, 2, 0, 10, 3, 0, 0, 12, 7, 3, 0]);
  });
});
