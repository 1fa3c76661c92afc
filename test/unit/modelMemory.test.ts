/**
 * What an open document's model keeps per entry is compact and holds no text but the current
 * one, and it equals what the plain computation from the model gives.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { parseDigest } from '../../server/src/service/parser';
import type { Entry } from '../../server/src/service/model';
import { entryNames, EntryNames, termKey } from '../../server/src/service/terms';
import { generatedDigest, generatedEntry } from '../bench/generate';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { documentSymbols } from '../../server/src/service/features/symbols';
import { semanticTokens } from '../../server/src/service/features/semanticTokens';
import { EntryNode, partsKeptLimit, setPartsKeptLimit } from '../../server/src/service/nodes';
import { describeModel } from '../support/describeModel';
import { heapAfterCollection } from '../support/heap';
import { entryLines } from '../support/fixtures';
import { noisyDigests } from '../support/noisyDigests';
import { notAnInstitutionKind } from '../../server/src/service/institutionNames';


/** The names of an entry as terms.ts worked them out before it kept copies. */
function plainNames(entry: Entry): EntryNames {
  const institutions: { item: number; key: string; name: string; translation?: string }[] = [];
  const authors: { pair: number; key: string; name: string; form: string }[] = [];
  const field = entry.institutions;
  if (field?.authorPairs) {
    field.authorPairs.forEach((pair, index) => {
      const key = termKey(pair.english.text);
      if (key && pair.chinese?.text) authors.push({ pair: index, key, name: pair.english.text, form: pair.chinese.text });
    });
  } else if (field) {
    field.items.forEach((item, index) => {
      const key = termKey(item.name.text);
      const translation = item.translation?.text.trim();
      // A tag or a category code on the line is not an institution's name.
      if (key && !notAnInstitutionKind(item.name.text)) institutions.push(translation ? { item: index, key, name: item.name.text, translation } : { item: index, key, name: item.name.text });
    });
  }
  const hits = entry.topicHits;
  // A keyword written again in the paper's hits is one of its keywords once.
  const texts = new Set<string>();
  const keywords = (hits?.hits ?? []).filter((hit) => termKey(hit.keyword.text) && !texts.has(hit.keyword.text) && texts.add(hit.keyword.text)).map((hit) => ({ key: termKey(hit.keyword.text), text: hit.keyword.text }));
  const categories = (hits?.categories ?? []).map((category) => category.text).filter((code) => code.length > 0);
  return { institutions, authors, topic: hits?.topic.text ?? '', keywords, categories };
}

const PIECES = ['Kyoto University（京都大学）', 'A, B（甲、乙）', 'Lab (X)', ' ； ', '；', '、', ', ', '（', '）', 'reasoning', '专题命中 数学推理 ：', '分类 cs.LG', '机构 ', 'Mei Tanaka', 'Ａ', ' ', '\n', '\n\n'];

/** Names of the entries of a big text, the text and its model made and dropped in this frame. */
function namesOfBigText(): EntryNames[] {
  const paragraphs = ['大模型推理能力'];
  for (let i = 0; i < 200; i++) {
    const lines = generatedEntry(i);
    lines.splice(5, 0, '杂'.repeat(20_000) + i);
    paragraphs.push(...lines);
  }
  return parseDigest(paragraphs.join('\n\n') + '\n').entries.map(entryNames);
}

describe('terms: the names kept with an entry', () => {
  test('Should equal, for random digests, the names the entries give', () => {
    fc.assert(
      fc.property(
        noisyDigests(PIECES),
        (text) => {
          const doc = parseDigest(text);
          for (const entry of doc.entries) {
            assert.deepEqual(entryNames(entry), plainNames(entry));
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  test('Should count a keyword written again in a paper\u2019s hits once, its other spellings apart', () => {
    const [entry] = parseDigest(['大模型', ...entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；reasoning(title)；Reasoning(title)；math(abstract)；reasoning(comments)；分类 cs.LG' })].join('\n\n')).entries;
    assert.deepEqual(entryNames(entry).keywords.map((keyword) => keyword.text), ['reasoning', 'Reasoning', 'math']);
    assert.deepEqual(entryNames(entry), plainNames(entry));
  });

  test('Should not keep the text of the document alive', () => {
    const before = heapAfterCollection();
    // 200 papers with 20,000 Chinese characters of stray text each: 8 MB of text.
    const names = namesOfBigText();
    const grown = heapAfterCollection() - before;
    assert.equal(names.length, 200);
    assert.equal(names[7].institutions.length > 0 || names[7].keywords.length > 0, true, 'the generated papers have names');
    assert.ok(grown < 3_000_000, `the names of 200 papers hold ${grown} bytes (the text was 8 MB)`);
  });
});

/** How many entries of a model keep split parts now. */
function keeping(entries: readonly Entry[]): number {
  return entries.filter((entry) => (entry as EntryNode).partsKept).length;
}

describe('diagnostics: the messages kept for reuse', () => {
  test('Should not keep the text of a document whose problems quote it', () => {
    // A hit without its field quotes its keyword: the message, and the key it is kept under, must
    // be copies, not slices of the text (which would keep the whole text alive in the table).
    const keyword = 'a keyword long enough to be sliced';
    const diagnose = (i: number): number => {
      const text = `${generatedDigest(3_000)}\n${entryLines('A', { topicHits: `专题命中 推理 ：${keyword}${i}；分类 cs.AI` }).join('\n\n')}\n`;
      return computeDiagnostics(parseDigest(text), { uri: 'file:///a.digest' }).filter((d) => d.code === 'hit-missing-field').length;
    };
    diagnose(0);
    const before = heapAfterCollection();
    // Three documents of 3,000 papers (3.5 MB each as text), checked and dropped.
    for (let i = 1; i <= 3; i++) assert.equal(diagnose(i), 1);
    const grown = heapAfterCollection() - before;
    assert.ok(grown < 2_000_000, `the diagnostics of three dropped documents left ${grown} bytes (each text is 3.5 MB)`);
  });
});

describe('nodes: the entries that keep their split parts are bounded', () => {
  const options = { uri: 'file:///w/a.digest', docsBase: 'file:///docs/' };

  test('Should keep the parts of the last entries read only, and answer the same as with all parts kept', () => {
    const text = generatedDigest(2500);
    const limit = partsKeptLimit();
    const bounded = parseDigest(text);
    const diagnostics = computeDiagnostics(bounded, options);
    const tokens = semanticTokens(bounded);
    assert.ok(keeping(bounded.entries) <= limit, `${keeping(bounded.entries)} entries keep parts, at most ${limit} may`);
    assert.ok(keeping(bounded.entries) > 0);
    // The first entries let theirs go; asked again, they split again and give the same.
    assert.equal((bounded.entries[0] as EntryNode).partsKept, false);
    const before = setPartsKeptLimit(1_000_000);
    let unbounded;
    try {
      const model = parseDigest(text);
      unbounded = { diagnostics: computeDiagnostics(model, options), tokens: semanticTokens(model), described: describeModel(model), symbols: documentSymbols(model) };
      assert.equal(keeping(model.entries), 2500);
    } finally {
      setPartsKeptLimit(before);
    }
    assert.deepEqual(diagnostics, unbounded.diagnostics);
    assert.deepEqual(tokens, unbounded.tokens);
    assert.equal(describeModel(bounded), unbounded.described);
    assert.deepEqual(documentSymbols(bounded), unbounded.symbols);
    assert.ok(keeping(bounded.entries) <= limit, 'describing the whole model left the bound as it was');
  });

  test('Should keep the parts of entries spanning many characters a few at a time, and answer the same', () => {
    // Lines of 99,000 characters of one-letter hits, within every limit: 50,000 parts a line, 7 MB
    // of them, which a thousand entries keeping theirs held whole (1.2 GB for 155 such papers).
    const line = 'k;'.repeat(49_500);
    const text = '大模型\n\n' + Array.from({ length: 60 }, (_, i) => `Title ${i}\n\n中文\n\nA B\n\n专题命中 t ：${line}；分类 cs.LG\n\nAI总结 x\n\n`).join('');
    const model = parseDigest(text);
    const summary = (doc: typeof model): string[] => doc.entries.map((entry) => `${entry.topicHits?.hits.length}:${entry.topicHits?.hits[49_000]?.keyword.text}:${entry.topicHits?.categories.map((c) => c.text).join()}`);
    const first = summary(model);
    assert.equal(first[59], '49501:k:cs.LG');
    assert.ok(keeping(model.entries) <= 21 && keeping(model.entries) > 0, `${keeping(model.entries)} entries of 99,000 characters keep their parts`);
    assert.equal((model.entries[0] as EntryNode).partsKept, false);
    // Asked again, the first ones split again and give the same; the bound holds.
    assert.deepEqual(summary(model), first);
    assert.ok(keeping(model.entries) <= 21);
    // Entries of a real digest are not held to it: a thousand of them keep theirs.
    const real = parseDigest(generatedDigest(1_200));
    computeDiagnostics(real, options);
    assert.equal(keeping(real.entries), partsKeptLimit());
  });

  test('Should let the parts of 10,000 papers go but those of the last thousand', () => {
    const text = generatedDigest(10_000);
    const heapOf = (limit: number): number => {
      const before = setPartsKeptLimit(limit);
      try {
        const start = heapAfterCollection();
        const model = parseDigest(text);
        computeDiagnostics(model, options);
        const grown = heapAfterCollection() - start;
        assert.equal(model.entries.length, 10_000);
        return grown;
      } finally {
        setPartsKeptLimit(before);
      }
    };
    // Measured three times each, taking turns, and compared by their medians: one reading can be
    // off by a few megabytes (what a collection left, caches filled by the first parse), about the
    // margin between the two on a loaded machine.
    const all: number[] = [];
    const bounded: number[] = [];
    for (let round = 0; round < 3; round++) {
      all.push(heapOf(1_000_000));
      bounded.push(heapOf(partsKeptLimit()));
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1];
    assert.ok(median(bounded) < median(all) * 0.8, `with the bound the model and its diagnostics hold ${bounded.join(', ')} bytes, without it ${all.join(', ')}`);
  });
});
