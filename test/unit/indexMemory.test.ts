/**
 * The workspace index keeps copies of the strings it needs, not slices of the file texts
 * (keptStrings.ts), and what it keeps equals what the plain summary of the parsed papers is.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { parseDigest } from '../../server/src/service/parser';
import { paperName, titleKey } from '../../server/src/service/features/entries';
import type { Entry } from '../../server/src/service/model';
import { foldForSearch, PaperSummary, searchIncludes, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { keep, KeptNames } from '../../server/src/service/keptStrings';
import { generatedEntry } from '../bench/generate';
import { digest, entryLines } from '../support/fixtures';
import { heapAfterCollection } from '../support/heap';
import { noisyDigests } from '../support/noisyDigests';
import { notAnInstitutionKind } from '../../server/src/service/institutionNames';


/** A digest whose papers each carry a long stray line (a line of no field), which the index does not keep. */
function paddedDigest(papers: number, padding: number): string {
  const paragraphs = ['大模型推理能力'];
  for (let i = 0; i < papers; i++) {
    const entry = generatedEntry(i);
    entry.splice(5, 0, '杂'.repeat(padding) + i);
    paragraphs.push(...entry);
  }
  return paragraphs.join('\n\n') + '\n';
}

function indexPadded(index: WorkspaceIndex, papers: number, padding: number): void {
  index.update('file:///w/a.digest', paddedDigest(papers, padding));
}

/** Keeps a part of a big text, made and dropped in this function's frame. */
function keptPart(): string {
  const big = '甲乙丙丁'.repeat(1_000_000) + String(Math.random());
  return keep(big.slice(1000, 1100));
}

describe('keptStrings: copies that do not keep their text alive', () => {
  test('Should equal the text it keeps, long or short, and share equal names', () => {
    const text = '中文 and English, '.repeat(50);
    for (const [start, end] of [[0, 5], [3, 40], [10, 500], [0, text.length]]) {
      assert.equal(keep(text.slice(start, end)), text.slice(start, end));
    }
    const surrogates = 'a lone \ud800 high and \udc00 low surrogate, a pair 😀, 中文';
    assert.equal(keep(surrogates.slice(1)), surrogates.slice(1));
    const names = new KeptNames();
    assert.equal(names.keep(text.slice(2, 30)), text.slice(2, 30));
    assert.equal(names.shared('k', () => ['a']), names.shared('k', () => ['b']), 'the first value made for a key is shared');
    const list = (parts: string[]): string[] => names.sharedBy('list', parts, () => parts.slice());
    assert.equal(list(['a', 'b']), list(['a', 'b']), 'equal parts share one value');
    const distinct = [['a'], ['a', 'b'], ['a', 'b', ''], ['ab'], ['b', 'a'], [''], []].map(list);
    assert.equal(new Set(distinct).size, distinct.length, 'parts that differ, in length or order, do not');
    assert.notEqual(names.sharedBy('other', ['a', 'b'], () => ['a', 'b']), list(['a', 'b']), 'nor do kinds');
  });

  test('Should let a big text go once only a kept part of it is referenced', () => {
    const before = heapAfterCollection();
    const kept = keptPart();
    const grown = heapAfterCollection() - before;
    assert.equal(kept.length, 100);
    assert.ok(grown < 2_000_000, `the 8 MB text is gone, the heap grew by ${grown} bytes`);
  });

  test('Should keep English cut from a text with Chinese one byte a character', () => {
    const text = '中' + 'English title of a paper, '.repeat(400_000);
    assert.equal(text.slice(1, 20).length, 19); // made flat (two bytes a character) before the heap is measured
    const before = heapAfterCollection();
    const kept: string[] = [];
    for (let at = 1; at + 1_000 < text.length; at += 1_000) {
      kept.push(keep(text.slice(at, at + 1_000)));
    }
    const grown = heapAfterCollection() - before;
    assert.equal(kept.join(''), text.slice(1, 1 + kept.length * 1_000));
    // 10.4 million characters: two bytes each would be 20.8 MB.
    assert.ok(grown < 13_000_000, `the copies take ${grown} bytes`);
  });
});

describe('workspaceIndex: memory', () => {
  test('Should not keep the text of an indexed file alive', () => {
    const index = new WorkspaceIndex();
    const before = heapAfterCollection();
    // 200 papers with 20,000 Chinese characters of stray text each: 8 MB of text. (Indexed in a
    // function of its own: a temporary of this frame would keep the text alive.)
    indexPadded(index, 200, 20_000);
    const grown = heapAfterCollection() - before;
    assert.equal(index.paperCount, 200);
    assert.ok(grown < 3_000_000, `the index of 200 papers holds ${grown} bytes (the text was 8 MB)`);
  });
});

/** The texts a filter looks in: titles, authors, institutions and their translations, Chinese author names. */
function searchParts(entry: Entry): string[] {
  const englishTitle = entry.englishTitle?.value.text ?? '';
  const chineseTitle = entry.chineseTitle?.value.text ?? '';
  const authors = entry.authors?.names.map((name) => name.text).filter((name) => name.length > 0) ?? [];
  const institutions =
    entry.institutions && !entry.institutions.authorPairs
      ? entry.institutions.items.filter((item) => item.name.text.length > 0 && !notAnInstitutionKind(item.name.text)).map((item) => (item.translation?.text ? [item.name.text, item.translation.text] : [item.name.text]))
      : [];
  const pairs = entry.institutions?.authorPairs ?? [];
  return [englishTitle, chineseTitle, ...authors, ...institutions.flat(), ...pairs.flatMap((pair) => (pair.chinese ? [pair.english.text, pair.chinese.text] : [pair.english.text]))];
}

/** What the index kept of an entry before it kept copies (the plain summary of the model). */
function plainSummary(entry: Entry): Record<string, unknown> {
  const englishTitle = entry.englishTitle?.value.text ?? '';
  const chineseTitle = entry.chineseTitle?.value.text ?? '';
  const authors = entry.authors?.names.map((name) => name.text).filter((name) => name.length > 0) ?? [];
  const institutions =
    entry.institutions && !entry.institutions.authorPairs
      ? entry.institutions.items.filter((item) => item.name.text.length > 0 && !notAnInstitutionKind(item.name.text)).map((item) => (item.translation?.text ? { name: item.name.text, translation: item.translation.text } : { name: item.name.text }))
      : [];
  const hits = entry.topicHits;
  const pairs = entry.institutions?.authorPairs ?? [];
  const search = searchParts(entry);
  return {
    entryIndex: entry.index,
    range: entry.range,
    englishTitle,
    title: paperName(entry),
    chineseTitle,
    titleKey: titleKey(englishTitle),
    authors,
    institutions,
    topic: hits?.topic.text ?? '',
    keywords: hits ? hits.hits.map((hit) => hit.keyword.text).filter((keyword) => keyword.length > 0) : [],
    categories: hits ? hits.categories.map((category) => category.text).filter((code) => code.length > 0) : [],
    summary: entry.summary?.value.text ?? '',
    hits: hits ? hits.hits.filter((hit) => hit.keyword.text.length > 0).map((hit) => ({ keyword: hit.keyword.text, field: hit.field?.text ?? '' })) : [],
    authorsZh: pairs.filter((pair) => pair.chinese?.text).map((pair) => ({ name: pair.english.text, nameZh: pair.chinese!.text })),
    comments: entry.comments?.value.text ?? '',
    journalRef: entry.journalRef?.value.text ?? '',
    searchNarrow: search.map(foldForSearch).filter((part) => !/[^\u0000-\u00ff]/.test(part)).join('\u0000'),
    searchWide: search.map(foldForSearch).filter((part) => /[^\u0000-\u00ff]/.test(part)).join('\u0000'),
  };
}

const PIECES = ['Kyoto University（京都大学）', 'Lab (X)', ' ； ', '；', '、', ', ', '（', '）', '(abstract)', 'reasoning', '专题命中 数学推理 ：', '分类 cs.LG', '机构 * ', '纠错', 'AI总结 ', 'Comments ', 'Journal ref ', 'Mei Tanaka', '\u0000', 'Ａ', ' ', '\n', '\n\n'];

describe('workspaceIndex: the kept summaries equal the plain ones', () => {
  test('Should keep, for random digests, exactly what the papers say', () => {
    fc.assert(
      fc.property(
        noisyDigests(PIECES),
        (text) => {
          const index = new WorkspaceIndex();
          index.update('file:///w/r.digest', text);
          const kept = index.file('file:///w/r.digest')!.papers;
          const parsed = parseDigest(text).entries;
          const plain = parsed.map(plainSummary);
          assert.equal(kept.length, plain.length);
          kept.forEach((paper, i) => {
            const { uri, key, selectionRange } = paper;
            assert.equal(uri, 'file:///w/r.digest');
            assert.ok(key.length > 0 && selectionRange !== undefined);
            // Every other member of a summary, read as its readers read it (the index reads some through).
            const rest = Object.fromEntries(Object.keys(plain[i]).map((member) => [member, paper[member as keyof PaperSummary]]));
            assert.deepEqual(rest, plain[i]);
            // A filter is found as in the folded texts joined, when it lies within one of them.
            const joined = foldForSearch(searchParts(parsed[i]).join('\u0000'));
            for (const part of joined.split('\u0000')) {
              for (const needle of [part, part.slice(1, 4), part.slice(-3), 'zz' + part]) {
                assert.equal(searchIncludes(paper, needle), joined.includes(needle), JSON.stringify(needle));
              }
            }
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('workspaceIndex: copies of a title across and within files', () => {
  const uris = ['file:///w/a.digest', 'file:///w/b.digest', 'file:///w/sub/c.digest', 'file:///w/d.digest'];
  const tags = ['A', 'B', 'C'];
  const operation = fc.oneof(
    fc.record({ kind: fc.constantFrom('update', 'updateOpen'), uri: fc.constantFrom(...uris), tags: fc.array(fc.constantFrom(...tags), { maxLength: 6 }) }),
    fc.record({ kind: fc.constantFrom('closeOpen', 'remove', 'removeAll'), uri: fc.constantFrom(...uris, 'file:///w/sub') }),
    fc.record({ kind: fc.constant('rename'), uri: fc.constantFrom(...uris), to: fc.constantFrom(...uris) }),
  );

  test('Should give the same copies, repeated keys and affected files as a count over every paper', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 25 }), (operations) => {
        const index = new WorkspaceIndex();
        const changes: { uris: readonly string[]; affectedUris: readonly string[] }[] = [];
        index.onDidChange((change) => changes.push(change));
        for (const op of operations) {
          const keysBefore = (uriList: readonly string[]): Set<string> => new Set(uriList.flatMap((uri) => index.file(uri)?.papers.map((paper) => paper.titleKey) ?? []));
          const before = new Map(index.files().map((file) => [file.uri, file.papers.map((paper) => paper.titleKey)]));
          changes.length = 0;
          if (op.kind === 'update' || op.kind === 'updateOpen') {
            const text = digest(...op.tags.map((tag) => entryLines(tag)));
            index[op.kind](op.uri, text);
          } else if (op.kind === 'rename') {
            index.rename(op.uri, op.to);
          } else {
            index[op.kind](op.uri);
          }
          // Counted over every paper of every file.
          const all = index.files().flatMap((file) => file.papers);
          const byKey = new Map<string, number>();
          for (const paper of all) {
            if (paper.titleKey) byKey.set(paper.titleKey, (byKey.get(paper.titleKey) ?? 0) + 1);
          }
          for (const tag of tags) {
            const key = titleKey(`${tag} Sparse Probes for Arithmetic Circuits`);
            const copies = index.papersWithTitle(key);
            assert.equal(copies.length, byKey.get(key) ?? 0, `copies of ${tag}`);
            assert.deepEqual(new Set(copies), new Set(all.filter((paper) => paper.titleKey === key)));
            assert.equal(index.repeatedTitleKeys().has(key), (byKey.get(key) ?? 0) > 1);
          }
          assert.equal(index.paperCount, all.length);
          for (const change of changes) {
            const changed = new Set(change.uris);
            const keys = new Set([...change.uris.flatMap((uri) => before.get(uri) ?? []), ...keysBefore(change.uris)]);
            keys.delete('');
            const expected = index
              .files()
              .filter((file) => !changed.has(file.uri) && file.papers.some((paper) => keys.has(paper.titleKey)))
              .map((file) => file.uri)
              .sort();
            assert.deepEqual(change.affectedUris, expected);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
