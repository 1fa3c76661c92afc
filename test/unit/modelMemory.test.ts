/**
 * What an open document's model keeps per entry is compact and holds no text but the current
 * one, and it equals what the plain computation from the model gives.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as fc from 'fast-check';
import { parseDigest } from '../../server/src/service/parser';
import type { Entry } from '../../server/src/service/model';
import { entryNames, EntryNames, termKey } from '../../server/src/service/terms';
import { generatedEntry } from '../bench/generate';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

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
      if (key) institutions.push(translation ? { item: index, key, name: item.name.text, translation } : { item: index, key, name: item.name.text });
    });
  }
  const hits = entry.topicHits;
  const keywords = (hits?.hits ?? []).filter((hit) => termKey(hit.keyword.text)).map((hit) => ({ key: termKey(hit.keyword.text), text: hit.keyword.text }));
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
        fc.array(fc.tuple(fc.nat(40), fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 12 })), { minLength: 1, maxLength: 12 }),
        (entries) => {
          const paragraphs = ['大模型推理能力'];
          for (const [seed, noise] of entries) {
            const lines = generatedEntry(seed % 7);
            lines[seed % lines.length] += noise.join('');
            paragraphs.push(...lines);
          }
          const doc = parseDigest(paragraphs.join('\n\n') + '\n');
          for (const entry of doc.entries) {
            assert.deepEqual(entryNames(entry), plainNames(entry));
          }
        },
      ),
      { numRuns: 80 },
    );
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
