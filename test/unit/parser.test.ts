import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseDigest, splitLines } from '../../server/src/service/parser';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { describeModel } from '../support/describeModel';
import { assertGolden, digest, entryLines, FIXTURES, paragraphs, readFixture } from '../support/fixtures';

const PARSER_FIXTURES = fs
  .readdirSync(path.join(FIXTURES, 'parser'))
  .filter((name) => name.endsWith('.digest'))
  .sort();

describe('parser golden files', () => {
  test('Should have parser fixtures to check', () => {
    assert.ok(PARSER_FIXTURES.length >= 10, `only ${PARSER_FIXTURES.length} fixtures`);
  });
  for (const name of PARSER_FIXTURES) {
    test(`Should parse ${name} as its golden file says`, () => {
      const doc = parseDigest(readFixture(`parser/${name}`));
      assertGolden(`parser/${name.replace(/\.digest$/, '.model.txt')}`, describeModel(doc));
    });
  }
});

describe('parseDigest', () => {
  test('Should split a canonical entry into all of its fields and parts', () => {
    const doc = parseDigest(digest(entryLines('A')));
    assert.equal(doc.heading?.text, '大模型推理能力');
    assert.equal(doc.entries.length, 1);
    const entry = doc.entries[0];
    assert.deepEqual(
      entry.fields.map((f) => f.kind),
      ['englishTitle', 'chineseTitle', 'authors', 'institutions', 'topicHits', 'summary', 'comments', 'journalRef'],
    );
    assert.deepEqual(entry.authors?.names.map((n) => n.text), ['Mei Tanaka', 'Omar Haddad', 'Lin Qiu']);
    assert.deepEqual(
      entry.institutions?.items.map((i) => [i.name.text, i.translation?.text]),
      [
        ['Kyoto University', '京都大学'],
        ['Tsinghua University', '清华大学'],
        ['ExampleLab', undefined],
      ],
    );
    assert.ok(entry.institutions?.star && entry.institutions.marker);
    const hits = entry.topicHits!;
    assert.equal(hits.topic.text, '数学推理');
    assert.deepEqual(hits.hits.map((h) => [h.keyword.text, h.field?.text]), [
      ['reasoning', 'abstract'],
      ['math reasoning', 'title'],
    ]);
    assert.deepEqual(hits.categories.map((c) => c.text), ['cs.LG', 'cs.CL']);
    assert.equal(entry.summary?.value.text, '本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。');
    assert.deepEqual(entry.comments?.links.map((l) => l.target), ['https://example.org/probes']);
    assert.equal(entry.journalRef?.value.text, 'Proceedings of an Example Conference, 2026, pp. 1-12');
    assert.deepEqual(doc.problems, []);
  });

  test('Should give every span the exact text its range covers', () => {
    const text = readFixture('parser/well-formed.digest');
    const doc = parseDigest(text);
    const lines = splitLines(text).lines;
    const check = (span: { text: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }): void => {
      assert.equal(span.range.start.line, span.range.end.line);
      assert.equal(lines[span.range.start.line].text.slice(span.range.start.character, span.range.end.character), span.text);
    };
    for (const entry of doc.entries) {
      for (const field of entry.fields) {
        if (field.kind === 'authors') field.names.forEach(check);
        if (field.kind === 'institutions') field.items.forEach((i) => [i.name, i.translation].forEach((s) => s && check(s)));
        if (field.kind === 'topicHits') [field.topic, ...field.categories, ...field.hits.map((h) => h.keyword)].forEach(check);
      }
    }
  });

  test('Should count characters in UTF-16 code units after a BOM and astral characters', () => {
    const doc = parseDigest('\uFEFF大模型\n\n𝔸 Title\n\n标题𝔸\n\nMei Tanaka\n\n专题命中 推理 ：x(title)；分类 cs.CL\n\nAI总结 好。\n');
    assert.deepEqual(doc.heading?.range, { start: { line: 0, character: 1 }, end: { line: 0, character: 4 } });
    assert.deepEqual(doc.entries[0].englishTitle?.value.range.end, { line: 2, character: 8 });
    assert.deepEqual(doc.entries[0].chineseTitle?.value.range.end, { line: 4, character: 4 });
  });

  test('Should read lines ended by CRLF, LF and a lone CR alike', () => {
    const lf = parseDigest(digest(entryLines('A')));
    const mixed = parseDigest(digest(entryLines('A')).replace(/\n\n/g, (m, offset: number) => (offset % 3 === 0 ? '\r\n\r\n' : offset % 3 === 1 ? '\r\r' : m)));
    assert.deepEqual(mixed.entries.map((e) => e.fields.map((f) => [f.kind, f.line])), lf.entries.map((e) => e.fields.map((f) => [f.kind, f.line])));
  });

  test('Should keep a broken entry from shifting the entries after it', () => {
    const text = digest(entryLines('A'), entryLines('B', { chineseTitle: null, authors: null }), entryLines('C'), entryLines('D'));
    const doc = parseDigest(text);
    assert.equal(doc.entries.length, 4);
    assert.deepEqual(doc.entries.map((e) => e.englishTitle?.value.text.slice(0, 1)), ['A', 'B', 'C', 'D']);
    assert.ok(doc.problems.every((p) => p.entryIndex === 1));
    assert.deepEqual(doc.problems.map((p) => p.field), ['chineseTitle', 'authors']);
  });

  test('Should read the authors on the institutions line as pairs of names', () => {
    const doc = parseDigest(digest(entryLines('A', { institutions: '机构 * Wei Zhang, Li Na（张伟、李娜） 纠错' })));
    assert.deepEqual(doc.entries[0].institutions?.authorPairs?.map((p) => [p.english.text, p.chinese?.text]), [
      ['Wei Zhang', '张伟'],
      ['Li Na', '李娜'],
    ]);
  });

  test('Should not take half-width brackets in an English name for a translation', () => {
    const doc = parseDigest(digest(entryLines('A', { institutions: '机构 * Noah Lab (Montreal)（诺亚实验室（蒙特利尔）） ； Lab (Paris) 纠错' })));
    const items = doc.entries[0].institutions!.items;
    assert.deepEqual(items.map((i) => [i.name.text, i.translation?.text, i.unbalanced]), [
      ['Noah Lab (Montreal)', '诺亚实验室（蒙特利尔）', 0],
      ['Lab (Paris)', undefined, 0],
    ]);
  });

  test('Should read a Chinese title that starts with 机构 as the title, and the label followed by its star, a space, a colon or a letter as the label', () => {
    // 机构投资者: institutional investors (a finance paper's title), with and without institutions.
    for (const institutions of ['机构 * Kyoto University（京都大学） 纠错', undefined]) {
      const text = digest(entryLines('A', { chineseTitle: '机构投资者与市场流动性', institutions: institutions ?? null }));
      const doc = parseDigest(text);
      assert.equal(doc.entries.length, 1);
      assert.equal(doc.entries[0].chineseTitle?.value.text, '机构投资者与市场流动性');
      assert.equal(doc.entries[0].institutions?.items[0]?.name.text, institutions ? 'Kyoto University' : undefined);
      assert.deepEqual(computeDiagnostics(doc).map((d) => d.code), [], text);
    }
    for (const line of ['机构 * Kyoto University 纠错', '机构* Kyoto University 纠错', '机构：Kyoto University 纠错', '机构Kyoto University 纠错']) {
      assert.equal(parseDigest(digest(entryLines('A', { institutions: line }))).entries[0].institutions?.items[0]?.name.text, 'Kyoto University', line);
    }
  });

  test('Should read a topic with brackets of its own, and a line without its colon as before', () => {
    const topicAndKeywords = (line: string): [string | undefined, string[] | undefined] => {
      const hits = parseDigest(digest(entryLines('A', { topicHits: line }))).entries[0].topicHits;
      return [hits?.topic.text, hits?.hits.map((hit) => hit.keyword.text)];
    };
    assert.deepEqual(topicAndKeywords('专题命中 数学推理（几何） ：reasoning(abstract)；math reasoning(title)；分类 cs.LG'), ['数学推理（几何）', ['reasoning', 'math reasoning']]);
    assert.deepEqual(topicAndKeywords('专题命中 LLM (agents) ：reasoning(abstract)；分类 cs.AI'), ['LLM (agents)', ['reasoning']]);
    assert.deepEqual(topicAndKeywords('专题命中 数学（几何（平面））：reasoning(abstract)'), ['数学（几何（平面））', ['reasoning']]);
    // Without a colon the topic is the first word; a bracket that closes belongs to a hit.
    assert.deepEqual(topicAndKeywords('专题命中 数学 reasoning(abstract)；x(title: y)；分类 cs.AI'), ['数学', ['reasoning', 'x']]);
    assert.deepEqual(topicAndKeywords('专题命中 数学 reasoning(abstract'), ['数学', ['reasoning(abstract']]);
  });

  test('Should never throw and always return a model, whatever the text', () => {
    for (const text of ['', '\n', '\r', '\uFEFF', '（（（（', '专题命中', '机构', 'AI总结', '分类', '\u2028', '\0\0', '\uD800', paragraphs('纠错', '纠错')]) {
      const doc = parseDigest(text);
      assert.ok(doc.lines.length >= 1);
    }
  });
});

describe('parseDigest: text that cannot start an entry', () => {
  const notes = ['我的笔记：这两篇都值得细读，尤其是第二篇的实验部分。', 'TODO compare with last week'];

  test('Should read personal notes after the last paper as stray lines, not as a paper', () => {
    const doc = parseDigest(digest(entryLines('A'), entryLines('B'), notes));
    assert.equal(doc.entries.length, 2);
    assert.deepEqual(doc.entries[1].strayLines.map((s) => s.text), notes);
    assert.deepEqual(doc.problems.map((p) => [p.kind, p.range.start.line, p.range.end.line]), [['strayLine', 34, 36]], 'one problem for the run of notes');
  });

  test('Should read a lone English line at the end, or a Chinese line and names, as stray lines', () => {
    for (const tail of [['TODO compare with last week'], ['再读一遍：周五', 'Mei Tanaka, Lin Qiu']]) {
      const doc = parseDigest(digest(entryLines('A'), tail));
      assert.equal(doc.entries.length, 1, tail.join(' / '));
      assert.deepEqual(doc.entries[0].strayLines.map((s) => s.text), tail);
    }
  });

  test('Should still open an entry for titles with nothing after them, and for a paper without its English title before its fields', () => {
    const truncated = parseDigest(digest(entryLines('A'), ['Chain-of-Thought Distillation with Verifier Feedback', '基于验证器反馈的思维链蒸馏']));
    assert.equal(truncated.entries.length, 2);
    assert.equal(truncated.entries[1].chineseTitle?.value.text, '基于验证器反馈的思维链蒸馏');
    const untitled = parseDigest(digest(entryLines('A'), entryLines('B', { englishTitle: null })));
    assert.equal(untitled.entries.length, 2);
    assert.ok(untitled.problems.some((p) => p.kind === 'missingField' && p.field === 'englishTitle'));
  });

  test('Should read notes between two papers as stray lines of the first', () => {
    const doc = parseDigest(digest(entryLines('A'), notes, entryLines('B')));
    assert.deepEqual(doc.entries.map((e) => e.englishTitle?.value.text), ['A Sparse Probes for Arithmetic Circuits', 'B Sparse Probes for Arithmetic Circuits']);
    assert.deepEqual(doc.entries[0].strayLines.map((s) => s.text), notes);
    assert.equal(doc.problems.length, 1);
  });
});
