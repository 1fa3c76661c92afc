import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { documentHighlights, MAX_REFERENCES, references } from '../../server/src/service/features/references';
import { nameAt } from '../../server/src/service/names';
import { parseDigest } from '../../server/src/service/parser';
import type { DigestDocument } from '../../server/src/service/model';
import { digest, entryLines } from '../support/fixtures';
import { cursor } from '../support/workspaceTerms';

const A = 'file:///w/a.digest';
const B = 'file:///w/b.digest';

const other = parseDigest(
  digest(
    entryLines('B1', { authors: 'Mei Tanaka, Wei Zhang', institutions: '机构 * KYOTO  university（京都大学） ； Fudan University（复旦） 纠错', topicHits: '专题命中 数学推理 ：Reasoning(abstract)；分类 CS.lg、cs.AI' }),
    entryLines('B2', { institutions: '机构 * Mei Tanaka, Lin Qiu（田中芽衣、邱林） 纠错' }),
  ),
);

/** The texts a list of locations covers, as `uri:text`. */
function texts(locations: { uri: string; range: { start: { line: number; character: number }; end: { character: number } } }[], docs: Record<string, DigestDocument>): string[] {
  return locations.map(({ uri, range }) => `${uri.slice(-8)}:${docs[uri].lines[range.start.line].text.slice(range.start.character, range.end.character)}`);
}

function referencesAt(textWithBar: string): string[] {
  const { text, position } = cursor(textWithBar);
  const doc = parseDigest(text);
  const name = nameAt(doc, position);
  if (!name) return [];
  return texts(references([{ uri: A, doc }, { uri: B, doc: other }], name), { [A]: doc, [B]: other });
}

describe('references: every place the workspace names it', () => {
  test('Should find an institution in every file, ignoring case and white space', () => {
    assert.deepEqual(referencesAt(digest(entryLines('X', { institutions: '机构 * Kyo|to University（京都大学） 纠错' }))), ['a.digest:Kyoto University', 'b.digest:KYOTO  university']);
  });

  test('Should find a translation, a topic, a keyword and a category', () => {
    assert.deepEqual(referencesAt(digest(entryLines('X', { institutions: '机构 * Kyoto University（京都|大学） 纠错' }))), ['a.digest:京都大学', 'b.digest:京都大学']);
    assert.deepEqual(referencesAt(digest(entryLines('X', { topicHits: '专题命中 数学|推理 ：x(title)；分类 cs.LG' }))), ['a.digest:数学推理', 'b.digest:数学推理', 'b.digest:数学推理']);
    assert.deepEqual(referencesAt(digest(entryLines('X', { topicHits: '专题命中 数学推理 ：reas|oning(title)；分类 cs.LG' }))), ['a.digest:reasoning', 'b.digest:Reasoning', 'b.digest:reasoning']);
    assert.deepEqual(referencesAt(digest(entryLines('X', { topicHits: '专题命中 数学推理 ：x(title)；分类 cs.L|G' }))), ['a.digest:cs.LG', 'b.digest:CS.lg', 'b.digest:cs.LG']);
  });

  test('Should find a topic whatever its case, width and white space, as the Papers view groups it', () => {
    const text = digest(
      entryLines('X', { topicHits: '专题命中 Math Rea|soning ：x(title)；分类 cs.LG' }),
      entryLines('Y', { topicHits: '专题命中 math  reasoning ：y(title)；分类 cs.LG' }),
      entryLines('Z', { topicHits: '专题命中 ＭＡＴＨ　Reasoning ：z(title)；分类 cs.LG' }),
      entryLines('W', { topicHits: '专题命中 Logic ：w(title)；分类 cs.LG' }),
    );
    assert.deepEqual(referencesAt(text), ['a.digest:Math Reasoning', 'a.digest:math  reasoning', 'a.digest:ＭＡＴＨ　Reasoning']);
  });

  test('Should find an author\u2019s other papers, on authors lines and on 机构 lines that list authors', () => {
    assert.deepEqual(referencesAt(digest(entryLines('X', { authors: 'Mei Tan|aka, Omar Haddad' }))), ['a.digest:Mei Tanaka', 'b.digest:Mei Tanaka', 'b.digest:Mei Tanaka', 'b.digest:Mei Tanaka']);
  });

  test('Should find nothing on a label, a summary or past the end', () => {
    assert.deepEqual(referencesAt(digest(entryLines('X', { summary: 'AI总结 本文|研究推理。' }))), []);
    assert.deepEqual(referencesAt(digest(entryLines('X')) + '\n\n\n|'), []);
    assert.equal(nameAt(other, { line: 999, character: 0 }), undefined);
  });
});

describe('documentHighlights: the other occurrences in the file', () => {
  test('Should highlight every occurrence of the name in the file only', () => {
    const { text, position } = cursor(digest(entryLines('A', { institutions: '机构 * Tsing|hua University（清华大学） 纠错' }), entryLines('B', { institutions: '机构 * tsinghua university（清华） 纠错' })));
    const doc = parseDigest(text);
    const highlights = documentHighlights(doc, position);
    assert.deepEqual(highlights.map((h) => doc.lines[h.range.start.line].text.slice(h.range.start.character, h.range.end.character)), ['Tsinghua University', 'tsinghua university']);
    assert.deepEqual(documentHighlights(doc, { line: 0, character: 1 }), []);
    assert.deepEqual(documentHighlights(doc, { line: 10_000, character: 1 }), []);
  });

  test('Should highlight and find at most 10,000 places, the first, on a name written 24,000 times', () => {
    // Lines of 6,000 institutions in 4 papers: 24,000 places.
    const line = `机构 * ${Array.from({ length: 6_000 }, () => 'Lab').join(' ； ')} 纠错`;
    const doc = parseDigest(digest(...Array.from({ length: 4 }, (_, i) => entryLines(`L${i}`, { institutions: line }))));
    const at = { line: doc.entries[0].institutions!.items[0].name.range.start.line, character: doc.entries[0].institutions!.items[0].name.range.start.character };
    const highlights = documentHighlights(doc, at);
    assert.equal(highlights.length, MAX_REFERENCES);
    assert.deepEqual(highlights[0].range, doc.entries[0].institutions!.items[0].name.range);
    assert.deepEqual(highlights[MAX_REFERENCES - 1].range, doc.entries[1].institutions!.items[MAX_REFERENCES - 6_001].name.range);
    const name = nameAt(doc, at)!;
    assert.equal(references([{ uri: 'file:///a.digest', doc }, { uri: 'file:///b.digest', doc }], name).length, MAX_REFERENCES);
  });

  test('Should highlight an author, a translation, a topic, a keyword and a category in the file', () => {
    const text = digest(
      entryLines('A', { authors: 'Mei Tanaka, Wei Zhang', institutions: '机构 * Kyoto University（京都大学） 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG、cs.AI' }),
      entryLines('B', { authors: 'Lin Qiu', institutions: '机构 * MEI  TANAKA, Lin Qiu（田中芽衣、邱林） 纠错', topicHits: '专题命中 智能体 ：agents(title)；分类 cs.AI' }),
      entryLines('C', { authors: 'Omar Haddad', institutions: '机构 * KYOTO university（京都大学） ； Fudan University（复旦大学） 纠错', topicHits: '专题命中 数学推理 ：Reasoning(title)；分类 CS.lg' }),
    );
    const doc = parseDigest(text);
    const highlighted = (line: number, typed: string): string[] => {
      const character = doc.lines[line].text.indexOf(typed) + 1;
      assert.ok(character > 0, `${typed} is not on line ${line}`);
      return documentHighlights(doc, { line, character }).map((h) => `${h.range.start.line}:${doc.lines[h.range.start.line].text.slice(h.range.start.character, h.range.end.character)}`);
    };
    assert.deepEqual(highlighted(6, 'Mei Tanaka'), ['6:Mei Tanaka', '24:MEI  TANAKA']);
    assert.deepEqual(highlighted(8, '京都大学'), ['8:京都大学', '40:京都大学']);
    assert.deepEqual(highlighted(10, '数学推理'), ['10:数学推理', '42:数学推理']);
    assert.deepEqual(highlighted(10, 'reasoning'), ['10:reasoning', '42:Reasoning']);
    assert.deepEqual(highlighted(10, 'cs.LG'), ['10:cs.LG', '42:CS.lg']);
    assert.deepEqual(highlighted(26, 'cs.AI'), ['10:cs.AI', '26:cs.AI']);
  });
});
