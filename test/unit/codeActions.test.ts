import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import type { TextEdit } from 'vscode-languageserver-types';
import { applyEdits, applyOffsetEdits, composeEdits, editsConflict, LineIndex, OffsetEdit, onCodePoints, splitsSurrogatePair, toOffsetEdits } from '../../server/src/service/edits';
import { codeActions, FIX_ALL_KIND, fixAll, fixesFor, MAX_FIXED_DIAGNOSTICS, PLACEHOLDER_HEADING, PLACEHOLDERS } from '../../server/src/service/features/codeActions';
import { newProblems, problemCounts } from '../../server/src/service/features/fixCheck';
import { ALL_CODES, computeDiagnostics, DiagnosticCode, DigestDiagnostic } from '../../server/src/service/features/diagnostics';
import type { Entry } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { titleKey } from '../../server/src/service/features/entries';
import { assertGolden, digest, entryLines, FIXTURES, paragraphs, readFixture } from '../support/fixtures';

/** Rules whose mistakes need a person: no fix at all. */
const WITHOUT_FIX = new Set<string>([DiagnosticCode.ChineseTitleWithoutChinese, DiagnosticCode.EnglishTitleInChinese, DiagnosticCode.EmptySummary, DiagnosticCode.DocumentTooLarge]);

function countCodes(diagnostics: readonly DigestDiagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  return counts;
}

/** Every digest fixture of the repository, to run fix-all over. */
function allFixtureTexts(): [string, string][] {
  const result: [string, string][] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.digest(\.txt)?$/.test(entry.name)) result.push([path.relative(FIXTURES, full), fs.readFileSync(full, 'utf8')]);
    }
  };
  walk(FIXTURES);
  return result.sort(([a], [b]) => (a < b ? -1 : 1));
}

describe('quick fixes: one per rule fixture', () => {
  for (const code of ALL_CODES) {
    if (WITHOUT_FIX.has(code)) {
      test(`Should offer no fix for ${code}: it needs text only a person can write`, () => {
        const doc = parseDigest(readFixture(`diagnostics/${code}.digest`));
        const diagnostic = computeDiagnostics(doc).find((d) => d.code === code)!;
        assert.deepEqual(fixesFor(doc, diagnostic), []);
      });
      continue;
    }
    test(`Should fix ${code} so that exactly its problem goes away, with the text its golden file gives`, () => {
      const text = readFixture(`diagnostics/${code}.digest`);
      const doc = parseDigest(text);
      const before = computeDiagnostics(doc);
      const diagnostic = before.find((d) => d.code === code)!;
      const fixes = fixesFor(doc, diagnostic);
      assert.ok(fixes.length > 0, `no fix for ${code}`);
      const fixed = applyEdits(text, fixes[0].edits);
      assertGolden(`fixes/${code}.fixed.digest`, fixed);
      const after = computeDiagnostics(parseDigest(fixed));
      const counts = countCodes(before);
      const afterCounts = countCodes(after);
      assert.equal(afterCounts.get(code) ?? 0, (counts.get(code) ?? 0) - 1, `${code} is still reported`);
      // Every other problem is still there, and no new one appeared.
      counts.delete(code);
      afterCounts.delete(code);
      assert.deepEqual(afterCounts, counts);
      // The text outside the edits is untouched: the fixed text is the original with the edited
      // ranges replaced, and each edit changes its first and last character.
      const edits = toOffsetEdits(text, fixes[0].edits);
      for (const edit of edits) {
        const old = text.slice(edit.start, edit.end);
        assert.ok(old !== edit.text, 'an edit that changes nothing');
      }
    });
  }

  test('Should mark the only fix of a diagnostic as preferred, and none when several are as good', () => {
    const doc = parseDigest(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.XX' })));
    const [diagnostic] = computeDiagnostics(doc);
    const fixes = fixesFor(doc, diagnostic);
    assert.ok(fixes.length > 1);
    assert.ok(fixes.every((f) => !f.isPreferred && !f.safe));
    const cased = parseDigest(readFixture('diagnostics/category-case.digest'));
    const [caseFix] = fixesFor(cased, computeDiagnostics(cased)[0]);
    assert.ok(caseFix.isPreferred && caseFix.safe);
  });
});

describe('quick fixes: placeholders for missing fields', () => {
  const cases: [string, Parameters<typeof entryLines>[1], string][] = [
    ['englishTitle', { englishTitle: null }, PLACEHOLDERS.englishTitle],
    ['chineseTitle', { chineseTitle: null }, PLACEHOLDERS.chineseTitle],
    ['authors', { authors: null }, PLACEHOLDERS.authors],
    ['topicHits', { topicHits: null }, '专题命中 数学推理 ：keyword(abstract)；分类 cs.LG'],
    ['summary', { summary: null }, 'AI总结 待补充。'],
  ];
  for (const [field, overrides, placeholder] of cases) {
    test(`Should insert a ${field} paragraph where it belongs, read as that field once parsed again`, () => {
      const broken = entryLines('B', overrides);
      const text = digest(entryLines('A'), broken, entryLines('C'));
      const doc = parseDigest(text);
      const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'missing-field')!;
      assert.equal(diagnostic.data.field, field);
      const [fix] = fixesFor(doc, diagnostic);
      assert.ok(fix.isPreferred && !fix.safe, 'a placeholder is offered, never applied by fix-all');
      const fixed = applyEdits(text, fix.edits);
      const expected = digest(entryLines('A'), entryLines('B', { ...overrides, [field]: placeholder }), entryLines('C'));
      assert.equal(fixed, expected);
      const reparsed = parseDigest(fixed);
      assert.equal(reparsed.entries.length, 3);
      assert.equal(reparsed.entries[1].fields.length, 8);
      assert.deepEqual(computeDiagnostics(reparsed).map((d) => d.code), [], 'the placeholder is a complete, valid paragraph');
    });
  }

  test('Should insert 专题命中 with a topic and 分类 even when no entry has a topic', () => {
    const text = digest(entryLines('A', { topicHits: null }), entryLines('B', { topicHits: null }));
    const doc = parseDigest(text);
    const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'missing-field')!;
    const [fix] = fixesFor(doc, diagnostic);
    const fixed = applyEdits(text, fix.edits);
    assert.match(fixed, /专题命中 待定专题 ：keyword\(abstract\)；分类 cs\.AI/);
    const after = computeDiagnostics(parseDigest(fixed)).map((d) => `${d.code}@${d.data.entry}`);
    assert.deepEqual(after, ['missing-field@1'], 'only the other entry still lacks its topic hits');
  });

  test('Should offer the placeholder as a snippet with tab stops when the client takes snippet edits', () => {
    const text = digest(entryLines('A'), entryLines('B', { topicHits: null }));
    const doc = parseDigest(text);
    const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'missing-field')!;
    const request = { range: diagnostic.range, diagnostics: [diagnostic] };
    const [withSnippets] = codeActions(doc, { uri: 'file:///a.digest', version: 3 }, request, {}, undefined, { snippets: true });
    const [edit] = (withSnippets.edit!.documentChanges![0] as { edits: unknown[] }).edits as { snippet?: { kind: string; value: string } }[];
    assert.equal(edit.snippet?.kind, 'snippet');
    assert.equal(edit.snippet?.value, '\n\n专题命中 ${1:数学推理} ：${2:keyword}(${3:abstract})；分类 ${4:cs.LG}$0');
    const [plain] = codeActions(doc, { uri: 'file:///a.digest', version: 3 }, request, {});
    const [plainEdit] = (plain.edit!.documentChanges![0] as { edits: TextEdit[] }).edits;
    assert.equal(plainEdit.newText, '\n\n专题命中 数学推理 ：keyword(abstract)；分类 cs.LG', 'plain text for clients without snippet edits');
  });

  test('Should find the nearest topic of every entry without one in linear work, not by a search per entry', () => {
    const n = 2_000;
    const text = digest(...Array.from({ length: n }, (_, i) => entryLines(`P${i}`, { topicHits: null })));
    const doc = parseDigest(text);
    let reads = 0;
    const entries = new Proxy(doc.entries as Entry[], {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    const counted = new Proxy(doc, { get: (target, property) => (property === 'entries' ? entries : Reflect.get(target, property)) });
    const missing = computeDiagnostics(doc).filter((d) => d.code === 'missing-field');
    assert.equal(missing.length, n);
    for (const diagnostic of missing) fixesFor(counted, diagnostic);
    assert.ok(reads < 20 * n, `${reads} reads of entries for ${n} fixes`);
  });

  test('Should fix the first problems of a selection over thousands, each checked around itself, and match the editor\'s by code and range', () => {
    const n = 1_000;
    const text = digest(...Array.from({ length: n }, (_, i) => entryLines(`P${i}`, { topicHits: null })));
    const doc = parseDigest(text);
    const missing = computeDiagnostics(doc).filter((d) => d.code === 'missing-field');
    const whole = { start: { line: 0, character: 0 }, end: { line: doc.lines.length, character: 0 } };
    for (const request of [{ range: whole, diagnostics: [] }, { range: whole, diagnostics: [...missing].reverse() }]) {
      const actions = codeActions(doc, { uri: 'file:///a.digest' }, request, { uri: 'file:///a.digest' });
      const fixed = new Set(actions.map((action) => JSON.stringify(action.diagnostics?.[0]?.range)));
      assert.equal(fixed.size, MAX_FIXED_DIAGNOSTICS, 'the first problems only');
      assert.deepEqual([...fixed], missing.slice(0, MAX_FIXED_DIAGNOSTICS).map((d) => JSON.stringify(d.range)), 'in document order');
      for (const action of actions) assert.match(action.title, /专题命中/);
    }
    // An editor's diagnostic matches a fresh one by code and range, whatever else it says.
    const [shown] = missing.slice(500, 501).map((d) => ({ ...d, message: 'stale text', data: undefined }));
    const actions = codeActions(doc, { uri: 'file:///a.digest' }, { range: shown.range, diagnostics: [shown] }, { uri: 'file:///a.digest' });
    assert.equal(actions.length, 1);
    assert.equal(actions[0].diagnostics?.[0], shown);
  });

  test('Should insert the placeholder heading after a BOM, keeping CRLF line ends', () => {
    const text = '\ufeff' + readFixture('diagnostics/missing-heading.digest').replace(/\n/g, '\r\n');
    const doc = parseDigest(text);
    const [fix] = fixesFor(doc, computeDiagnostics(doc)[0]);
    assert.equal(applyEdits(text, fix.edits), `\ufeff${PLACEHOLDER_HEADING}\r\n\r\n${text.slice(1)}`);
  });
});

describe('quick fixes: more cases', () => {
  test('Should remove the whole 机构 line when its only item is not an institution, keeping paragraphs apart', () => {
    const text = digest(entryLines('A', { institutions: '机构 * [cs.AI]（计算机科学与人工智能） 纠错' }), entryLines('B'));
    const doc = parseDigest(text);
    const [fix] = fixesFor(doc, computeDiagnostics(doc)[0]);
    assert.equal(applyEdits(text, fix.edits), digest(entryLines('A', { institutions: null }), entryLines('B')));
  });

  test('Should report a separator with no institution after it, and remove it in fix-all', () => {
    for (const [line, fixed] of [
      ['机构 * Fudan University（复旦大学） ； Peking University（北京大学） ； 纠错', '机构 * Fudan University（复旦大学） ； Peking University（北京大学） 纠错'],
      ['机构 * Fudan University（复旦大学）; Peking University（北京大学）;纠错', '机构 * Fudan University（复旦大学） ； Peking University（北京大学） 纠错'],
      ['机构 * Fudan University（复旦大学）；；纠错', '机构 * Fudan University（复旦大学） 纠错'],
      ['机构 * KTH（瑞典）；Toronto；纠错', '机构 * KTH（瑞典）；Toronto 纠错'],
      ['机构 * Toronto（多伦多）; 纠错', '机构 * Toronto（多伦多） 纠错'],
    ]) {
      const text = digest(entryLines('A', { institutions: line }));
      const doc = parseDigest(text);
      const found = computeDiagnostics(doc).filter((d) => d.code === 'not-an-institution');
      assert.equal(found.length, 1, line);
      const result = applyEdits(text, fixAll(doc));
      assert.ok(result.includes(`\n${fixed}\n`), result);
      assert.deepEqual(computeDiagnostics(parseDigest(result)), [], line);
    }
  });

  test('Should remove a stray line at the end of the file and the blank line before it', () => {
    const text = digest(entryLines('A')) + '\n纠错\n';
    const doc = parseDigest(text);
    const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'stray-line')!;
    assert.equal(applyEdits(text, fixesFor(doc, diagnostic)[0].edits), digest(entryLines('A')));
  });

  test('Should write a label written in another case as the format does, rather than remove its line', () => {
    for (const [line, fixed] of [
      ['comments 12 pages, accepted at ICML 2026', 'Comments 12 pages, accepted at ICML 2026'],
      ['JOURNAL REF Proc. ICML 2026', 'Journal ref Proc. ICML 2026'],
      ['Journal Ref: Proc. ICML 2026', 'Journal ref: Proc. ICML 2026'],
    ]) {
      const text = digest(entryLines('A', { comments: null, journalRef: line }));
      const doc = parseDigest(text);
      const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'stray-line');
      assert.ok(diagnostic, line);
      const offered = codeActions(doc, { uri: 'file:///a.digest' }, { range: diagnostic.range, diagnostics: [diagnostic] });
      const preferred = offered.filter((action) => action.isPreferred);
      assert.equal(preferred.length, 1, line);
      assert.match(preferred[0].title, /Write the label as/);
      const result = applyEdits(text, preferred[0].edit!.changes!['file:///a.digest']);
      assert.ok(result.includes(`\n${fixed}\n`), result);
      assert.deepEqual(computeDiagnostics(parseDigest(result)), [], 'the problem is gone and no other came');
      assert.ok(offered.some((action) => /Remove the stray line/.test(action.title) && !action.isPreferred), 'removing it is still offered, not preferred');
    }
    // Where the label would raise a problem (the paper has its Comments; the line comes after the
    // Journal ref; between two papers), it is not offered, and removing the line is preferred.
    for (const text of [
      digest([...entryLines('A'), 'comments 12 pages']),
      digest([...entryLines('A', { comments: null }), 'comments 12 pages']),
      digest(entryLines('A'), ['comments 12 pages'], entryLines('B')),
    ]) {
      const doc = parseDigest(text);
      const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'stray-line');
      assert.ok(diagnostic, text);
      const offered = codeActions(doc, { uri: 'file:///a.digest' }, { range: diagnostic.range, diagnostics: [diagnostic] });
      assert.deepEqual(offered.filter((action) => action.isPreferred).map((action) => action.title), offered.filter((action) => /Remove the stray/.test(action.title)).map((action) => action.title), text);
      assert.ok(!offered.some((action) => /Write the label/.test(action.title)), text);
    }
  });

  test('Should keep a label in another case in its paper (no paper of its own), and write it as the format does', () => {
    // Before the Journal ref, `comments 12 pages` read as the English title of a new paper.
    for (const comments of ['comments 12 pages', 'COMMENTS 12 pages']) {
      const text = digest(entryLines('A', { comments, journalRef: 'Journal ref Proc. 2026' }), entryLines('B'));
      const doc = parseDigest(text);
      assert.equal(doc.entries.length, 2, comments);
      const diagnostics = computeDiagnostics(doc);
      assert.deepEqual(codes(diagnostics), ['stray-line'], comments);
      const [preferred] = codeActions(doc, { uri: 'file:///a.digest' }, { range: diagnostics[0].range, diagnostics: [diagnostics[0]] }).filter((action) => action.isPreferred);
      assert.match(preferred.title, /Write the label as 'Comments'/);
      assert.deepEqual(computeDiagnostics(parseDigest(applyEdits(text, preferred.edit!.changes!['file:///a.digest']))), [], comments);
    }
    // Nor the English title of a paper that lacks one after it: a stray line of the paper before.
    for (const label of ['comments 12 pages', 'journal ref Proc. ICML 2024', 'COMMENTS Accepted at ICML', 'ai总结 本文提出']) {
      const doc = parseDigest(digest(entryLines('A'), [label], entryLines('B', { englishTitle: null })));
      assert.equal(doc.entries.length, 2, label);
      assert.equal(doc.entries[1].englishTitle, undefined, label);
      assert.deepEqual(computeDiagnostics(doc).map((d) => [d.code, d.data.entry]), [['stray-line', 0], ['missing-field', 1]], label);
    }
    // `ai总结`: written as `AI总结`, not removed with the summary.
    const text = digest(entryLines('A', { summary: 'ai总结 本文研究推理。' }), entryLines('B'));
    const doc = parseDigest(text);
    const stray = computeDiagnostics(doc).find((d) => d.code === 'stray-line')!;
    const [preferred] = codeActions(doc, { uri: 'file:///a.digest' }, { range: stray.range, diagnostics: [stray] }).filter((action) => action.isPreferred);
    assert.match(preferred.title, /Write the label as 'AI总结'/);
    const fixed = applyEdits(text, preferred.edit!.changes!['file:///a.digest']);
    assert.equal(fixed, digest(entryLines('A', { summary: 'AI总结 本文研究推理。' }), entryLines('B')));
    assert.deepEqual(computeDiagnostics(parseDigest(fixed)), []);
  });

  test('Should remove a stray line inside a paragraph with its line end only', () => {
    const lines = entryLines('A');
    const text = digest(lines).replace(lines[5], `${lines[5]}\n[cs.AI]`);
    const doc = parseDigest(text);
    const stray = computeDiagnostics(doc).find((d) => d.code === 'stray-line')!;
    assert.equal(applyEdits(text, fixesFor(doc, stray)[0].edits), digest(lines));
  });

  test('Should remove the later copy of a duplicate entry, the last of the file included', () => {
    const text = digest(entryLines('A'), entryLines('B'), entryLines('A', { summary: 'AI总结 重复。' }));
    const doc = parseDigest(text);
    const duplicate = computeDiagnostics(doc).find((d) => d.code === 'duplicate-paper')!;
    assert.equal(applyEdits(text, fixesFor(doc, duplicate)[0].edits), digest(entryLines('A'), entryLines('B')));
  });

  test('Should offer no fix for a paper that is only duplicated in another file', () => {
    const doc = parseDigest(digest(entryLines('A')));
    const diagnostics = computeDiagnostics(doc, { duplicatesElsewhere: () => [{ uri: 'file:///b.digest', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } } }] });
    assert.deepEqual(codes(diagnostics), ['duplicate-paper']);
    assert.deepEqual(fixesFor(doc, diagnostics[0]), []);
  });

  test('Should join a (field) split from its keyword whichever of the two diagnostics is fixed', () => {
    const text = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；math reasoning；(title)；分类 cs.LG' }));
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(codes(diagnostics), ['hit-missing-field', 'empty-keyword']);
    const expected = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 cs.LG' }));
    for (const diagnostic of diagnostics) {
      assert.equal(applyEdits(text, fixesFor(doc, diagnostic)[0].edits), expected);
    }
    assert.equal(applyEdits(text, fixAll(doc)), expected);
  });

  test('Should separate run-together hits with one fix each, and fix-all all of them', () => {
    const line = (hits: string) => digest(entryLines('A', { topicHits: `专题命中 数学推理 ：${hits}；分类 cs.LG` }));
    const cases: [string, string, string[]][] = [
      // As written, as the fix writes it, and what the problem is shown on.
      ['reasoning(abstract)math reasoning(title)', 'reasoning(abstract)；math reasoning(title)', ['(abstract)']],
      ['reasoning(abstract)  math reasoning(title)', 'reasoning(abstract)；math reasoning(title)', ['(abstract)  ']],
      ['reasoning(abstract)，math reasoning(title)', 'reasoning(abstract)；math reasoning(title)', ['(abstract)，']],
      ['reasoning(abstract) / math reasoning(title)', 'reasoning(abstract)；math reasoning(title)', ['(abstract) / ']],
      ['reasoning（Title）math reasoning(title)', 'reasoning(Title)；math reasoning(title)', ['（Title）']],
      ['a(abstract)b(title)c(comments)', 'a(abstract)；b(title)；c(comments)', ['(abstract)', '(title)']],
      ['a(abstract)、、b(title)', 'a(abstract)；b(title)', ['(abstract)、、']],
      ['a(abstract), ，b(title)', 'a(abstract)；b(title)', ['(abstract), ，']],
      // Two fields in a row end the first hit: the separator goes after the second.
      ['a(abstract)(title)b(abstract)', 'a(abstract)(title)；b(abstract)', ['(title)']],
    ];
    for (const [written, fixed, shown] of cases) {
      const text = line(written);
      const doc = parseDigest(text);
      const diagnostics = computeDiagnostics(doc);
      assert.deepEqual(codes(diagnostics), shown.map(() => 'run-together-hits'), written);
      const lines = text.split('\n');
      assert.deepEqual(
        diagnostics.map((d) => lines[d.range.start.line].slice(d.range.start.character, d.range.end.character)),
        shown,
        written,
      );
      const expected = line(fixed);
      if (diagnostics.length === 1) {
        const fixes = fixesFor(doc, diagnostics[0]);
        assert.equal(fixes.length, 1, written);
        assert.equal(applyEdits(text, fixes[0].edits), expected, written);
      }
      assert.equal(applyEdits(text, fixAll(doc)), expected, written);
      assert.deepEqual(computeDiagnostics(parseDigest(expected)), [], fixed);
    }
  });

  test('Should name the code a category in full-width characters stands for, and write it so', () => {
    const line = (codes: string) => digest(entryLines('A', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 ${codes}` }));
    const text = line('ｃｓ．ＬＧ、cs.ＣＬ、ｍａｔｈ．ＧＴx');
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.data.marks?.map((m) => m.expected) ?? d.data.suggestions]),
      [
        ['full-width-punctuation', ['cs.LG']],
        ['full-width-punctuation', ['cs.CL']],
        ['unknown-category', ['math.GT', 'math.AT', 'math.CT']],
      ],
    );
    assert.match(diagnostics[0].message, /^Category 'ｃｓ．ＬＧ' is written in full-width characters: use 'cs\.LG' — 分类代码使用了全角字符，应为“cs\.LG”$/);
    assert.equal(applyEdits(text, fixesFor(doc, diagnostics[0])[0].edits), line('cs.LG、cs.ＣＬ、ｍａｔｈ．ＧＴx'));
    assert.equal(applyEdits(text, fixAll(doc)), line('cs.LG、cs.CL、math.GT'));
  });

  test('Should close the bracket of a hit whose (field is never closed, not add another field', () => {
    const line = (hits: string) => digest(entryLines('A', { topicHits: `专题命中 数学推理 ：${hits}；分类 cs.LG` }));
    for (const [written, fixed] of [
      ['reasoning(abstract', 'reasoning(abstract)'],
      ['reasoning（title', 'reasoning(title)'],
      ['math(abstract)；reasoning(Title', 'math(abstract)；reasoning(Title)'],
    ]) {
      const text = line(written);
      const doc = parseDigest(text);
      const diagnostics = computeDiagnostics(doc);
      assert.deepEqual(codes(diagnostics), ['unbalanced-brackets'], written);
      assert.match(diagnostics[0].message, /^This bracket is never closed — 此括号没有对应的右括号$/);
      const lines = text.split('\n');
      assert.match(lines[diagnostics[0].range.start.line].slice(diagnostics[0].range.start.character, diagnostics[0].range.end.character), /^[(（]$/);
      assert.equal(applyEdits(text, fixesFor(doc, diagnostics[0])[0].edits), line(fixed), written);
      assert.equal(applyEdits(text, fixAll(doc)), line(fixed), written);
      assert.deepEqual(computeDiagnostics(parseDigest(line(fixed))), [], fixed);
    }
    // Not a field after the bracket: the hit lacks its field, as before.
    for (const written of ['GPT(4 reasoning', 'reasoning(abstract x']) {
      assert.deepEqual(codes(computeDiagnostics(parseDigest(line(written)))), ['hit-missing-field'], written);
    }
    // A bracket whose place is not clear (no keyword, another bracket before it, one left open in
    // a keyword that has its field, as the fix of a hit lacking its field once wrote): reported,
    // with no fix, and fix-all leaves it.
    for (const written of ['(abstract', 'reasoning((abstract', 'reasoning(abstract) (title', 'reasoning(abstract(abstract)', 'reasoning((abstract)', 'GPT(4 reasoning(abstract)']) {
      const text = line(written);
      const doc = parseDigest(text);
      const diagnostics = computeDiagnostics(doc);
      assert.deepEqual(codes(diagnostics), ['unbalanced-brackets'], written);
      assert.deepEqual(codeActions(doc, { uri: 'file:///a.digest' }, { range: diagnostics[0].range, diagnostics }), [], written);
      assert.equal(applyEdits(text, fixAll(doc)), text, written);
    }
  });

  test('Should leave brackets that name no field, or have no keyword before them, to the other rules', () => {
    // Brackets that are keyword, fields with no keyword before them (a field alone is no hit).
    for (const hits of ['GPT(4)o reasoning(abstract)', 'reasoning(abstract)(title)', 'chain (of) thought(title)', 'reasoning(body)math(title)', '(abstract)math reasoning(title)', '(abstract) (abstract) math(title)']) {
      const doc = parseDigest(digest(entryLines('A', { topicHits: `专题命中 数学推理 ：${hits}；分类 cs.LG` })));
      assert.ok(!computeDiagnostics(doc).some((d) => d.code === 'run-together-hits'), hits);
    }
    // Categories right after a field are the categories' problem (with its own fix), told once.
    for (const line of ['专题命中 数学推理 ：reasoning(abstract)分类 cs.LG', '专题命中 数学推理 ：reasoning(abstract) cs.LG、cs.CL']) {
      const doc = parseDigest(digest(entryLines('A', { topicHits: line })));
      const found = codes(computeDiagnostics(doc));
      assert.ok(found.length > 0 && !found.includes('run-together-hits'), `${line}: ${found.join(', ')}`);
    }
  });

  test('Should keep the other problem of a run-together hit without its own field, on the second hit', () => {
    const text = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)math reasoning；分类 cs.LG' }));
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(codes(diagnostics), ['hit-missing-field', 'run-together-hits']);
    const separated = applyEdits(text, fixesFor(doc, diagnostics[1])[0].edits);
    assert.equal(separated, digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；math reasoning；分类 cs.LG' })));
    const after = computeDiagnostics(parseDigest(separated));
    assert.deepEqual(after.map((d) => [d.code, d.data.item]), [['hit-missing-field', 1]]);
  });

  test('Should give each of two problems of one code at one place its own fix, one preferred each', () => {
    // The title lacks both its Chinese title and its authors: two missing-field problems on one range.
    const text = '大模型推理能力\n\nA Title Alone\n\n机构 * Kyoto University（京都大学） 纠错\n';
    const doc = parseDigest(text);
    const missing = computeDiagnostics(doc).filter((d) => d.code === 'missing-field' && d.range.start.line === 2);
    assert.deepEqual(missing.map((d) => d.message), ['This paper lacks its Chinese title — 此论文缺少中文标题', 'This paper lacks its authors — 此论文缺少作者']);
    assert.deepEqual(missing[0].range, missing[1].range);
    for (const shown of missing) {
      const actions = codeActions(doc, { uri: 'file:///a.digest' }, { range: shown.range, diagnostics: [shown] }, { uri: 'file:///a.digest' });
      assert.equal(actions.length, 1, actions.map((a) => a.title).join(' | '));
      assert.equal(actions[0].diagnostics?.[0], shown);
      // The fix makes that problem go away, and no other.
      const after = computeDiagnostics(parseDigest(applyEdits(text, actions[0].edit!.changes!['file:///a.digest'])));
      assert.ok(!after.some((d) => d.message === shown.message), `${shown.message} is gone`);
      assert.ok(after.some((d) => d.message === missing.find((m) => m !== shown)!.message), 'the other problem stays');
    }
  });

  test('Should replace a colon after 机构 by the star', () => {
    const text = digest(entryLines('A', { institutions: '机构：Kyoto University（京都大学） 纠错' }));
    const doc = parseDigest(text);
    assert.equal(applyEdits(text, fixAll(doc)), digest(entryLines('A', { institutions: '机构 * Kyoto University（京都大学） 纠错' })));
  });

  test('Should not offer a reordering that trades one missing field for another', () => {
    // No titles: put first, the author list would be read as the English title, and the paper would lack its authors.
    const text = '大模型推理能力\n\n机构 * Kyoto University（京都大学） 纠错\n\nMei Tanaka, Omar Haddad\n\n专题命中 数学推理 ：reasoning(abstract)；分类 cs.AI\n\nAI总结 本文。\n';
    const doc = parseDigest(text);
    const whole = { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } };
    const titles = codeActions(doc, { uri: 'file:///a.digest' }, { range: whole, diagnostics: [] }, { uri: 'file:///a.digest' }).map((action) => action.title);
    assert.ok(!titles.some((title) => /in order/.test(title)), titles.join(' | '));
    assert.equal(applyEdits(text, fixAll(doc)), text, 'fix-all leaves it for the titles to be written');
  });

  test('Should not offer a fix that makes another line of the paper stray in place of the stray one', () => {
    // Without the 机构 line, the old line above it is read as the authors, and the paper's
    // Chinese title becomes the stray line: one stray-line for another, the same count.
    const text = '数学推理\n\nTiny Reasoners\n\n微型推理器\n\n旧的一行\n\n机构 * [cs.AI]（计算机科学与人工智能） 纠错\n\nZed Q, Yu Z\n\n专题命中 数学推理 ：r(abstract)；分类 cs.AI\n\nAI总结 小模型推理。\n';
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    const notInstitution = diagnostics.find((d) => d.code === 'not-an-institution')!;
    assert.ok(notInstitution);
    const removed = applyEdits(text, fixesFor(doc, notInstitution)[0].edits);
    const strayAfter = computeDiagnostics(parseDigest(removed)).filter((d) => d.code === 'stray-line');
    assert.equal(strayAfter.length, 1, 'the fix the check must refuse: one stray line, another one');
    assert.equal(removed.split('\n')[strayAfter[0].range.start.line], '微型推理器');
    const actions = codeActions(doc, { uri: 'file:///a.digest' }, { range: notInstitution.range, diagnostics: [notInstitution] }, { uri: 'file:///a.digest' });
    assert.deepEqual(actions.filter((action) => action.kind === 'quickfix').map((action) => action.title), []);
    assert.ok(!applyEdits(text, fixAll(doc)).includes('微型推理器\n\nZed'), 'fix-all leaves the 机构 line too');
  });

  test('Should move an author list written out of its place to where the authors belong, before offering a placeholder', () => {
    // The authors after the English title, the Chinese title after them: read as a stray line
    // and a paper without authors.
    const text = '数学推理\n\nSparse Probes\n\nMei Tanaka, Omar Haddad\n\n稀疏探针\n\n专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG\n\nAI总结 本文。\n';
    const doc = parseDigest(text);
    const missing = computeDiagnostics(doc).find((d) => d.code === 'missing-field' && d.data?.field === 'authors')!;
    assert.ok(missing);
    const actions = codeActions(doc, { uri: 'file:///a.digest' }, { range: missing.range, diagnostics: [missing] }, { uri: 'file:///a.digest' });
    assert.deepEqual(actions.map((action) => action.title), ["Use 'Mei Tanaka, Omar Haddad' as the author list — 将“Mei Tanaka, Omar Haddad”用作作者列表", 'Insert a placeholder author list — 插入占位的作者列表']);
    assert.deepEqual(actions.map((action) => action.isPreferred === true), [true, false], 'the move alone preferred');
    const moved = applyEdits(text, actions[0].edit!.changes!['file:///a.digest']);
    assert.equal(moved, '数学推理\n\nSparse Probes\n\n稀疏探针\n\nMei Tanaka, Omar Haddad\n\n专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG\n\nAI总结 本文。\n');
    assert.deepEqual(computeDiagnostics(parseDigest(moved)), []);
    assert.equal(applyEdits(text, fixAll(doc)), text, 'fix-all moves no text');
    // Two stray lines that read as author lists: which is the paper's is not clear, no move.
    const two = text.replace('稀疏探针\n', '稀疏探针\n\nAda Lovelace, Alan Turing\n');
    const twoDoc = parseDigest(two);
    const twoMissing = computeDiagnostics(twoDoc).find((d) => d.code === 'missing-field' && d.data?.field === 'authors');
    if (twoMissing) {
      assert.ok(!fixesFor(twoDoc, twoMissing).some((fix) => fix.titles.en.startsWith('Use ')));
    }
  });

  test('Should tell the papers with new problems by their number, whatever the text the problems cover holds', () => {
    // A stray line with an address in it, an item with @ in it: keyed by the text they cover too.
    const text = digest(entryLines('A'), entryLines('B', { institutions: '机构 * [cs.AI]@2（计算机） 纠错' })) + '\n联系 tiny@reasoners.org\n';
    const doc = parseDigest(text);
    const counts = problemCounts(computeDiagnostics(doc), -1, doc);
    assert.ok([...counts.keys()].some((key) => key.includes('@reasoners')), [...counts.keys()].join(' | '));
    assert.deepEqual(newProblems(new Map(), counts).sort(), [...new Set(computeDiagnostics(doc).map((d) => d.data?.entry ?? -1))].sort());
    assert.ok(!newProblems(new Map(), counts).some((entry) => Number.isNaN(entry)));
  });

  test('Should end a bare 机构 line fixed by fix-all with its marker, no white space after it', () => {
    for (const line of ['机构', '机构   ', '机构 * ']) {
      const text = digest(entryLines('A', { institutions: line }));
      const fixed = applyEdits(text, fixAll(parseDigest(text)));
      assert.ok(fixed.includes('\n机构 * 纠错\n'), JSON.stringify(fixed));
    }
  });

  test('Should take the separators between two categories as one problem, fixed by one 、', () => {
    for (const categories of ['cs.CL、;cs.LG', 'cs.CL；；cs.LG', 'cs.CL;;cs.LG', 'cs.CL、、cs.LG', 'cs.CL ; 、 cs.LG']) {
      const text = digest(entryLines('A', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 ${categories}` }));
      const doc = parseDigest(text);
      const problems = computeDiagnostics(doc);
      assert.equal(problems.length, 1, `${categories}: ${problems.map((d) => d.message).join(' | ')}`);
      const [fix] = fixesFor(doc, problems[0]);
      const fixed = applyEdits(text, fix.edits);
      assert.match(fixed, /分类 cs\.CL、cs\.LG\n/, categories);
      assert.deepEqual(computeDiagnostics(parseDigest(fixed)), [], categories);
    }
  });

  test('Should not write a second 分类 or a field after the categories, and put the missing ； before 分类', () => {
    for (const [hits, fixed] of [
      // The label is there, read into the topic for want of ' ：': no fix doubles it.
      ['专题命中 数学推理reasoning(abstract)；分类 cs.CL', undefined],
      ['专题命中 推理(abstract)；分类 cs.CL', undefined],
      // The ； before 分类 is missing: it is what the fix puts in, not a (field) after the categories.
      ['专题命中 数学推理 ：reasoning(abstract)分类 cs.LG', '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG'],
      ['专题命中 数学推理 ：reasoning(abstract)分类 hep-th', '专题命中 数学推理 ：reasoning(abstract)；分类 hep-th'],
    ] as const) {
      const text = digest(entryLines('A', { topicHits: hits }));
      const doc = parseDigest(text);
      const fixes = computeDiagnostics(doc).flatMap((d) => fixesFor(doc, d).map((f) => applyEdits(text, f.edits)));
      assert.ok(fixes.every((after) => !/分类.*分类|cs\.\w+\((abstract|title)\)/.test(after)), `${hits}: ${fixes.join('\n')}`);
      const all = applyEdits(text, fixAll(doc));
      assert.equal(all, fixed === undefined ? text : digest(entryLines('A', { topicHits: fixed })), hits);
      if (fixed !== undefined) assert.deepEqual(computeDiagnostics(parseDigest(all)), [], hits);
    }
  });

  test('Should take a keyword with 分类 in it for a keyword, offering its field', () => {
    const text = digest(entryLines('A', { topicHits: '专题命中 文本分类 ：label noise、文本分类；分类 cs.CL' }));
    const doc = parseDigest(text);
    const titles = computeDiagnostics(doc).flatMap((d) => fixesFor(doc, d).map((f) => f.titles.en));
    assert.ok(!titles.some((title) => /before 分类/.test(title)), titles.join(' | '));
    assert.ok(titles.includes("Add '(abstract)'"), titles.join(' | '));
  });

  test('Should make a star after another separator the one star, not add a second', () => {
    for (const line of ['机构：* Kyoto University（京都大学） 纠错', '机构: * Kyoto University（京都大学） 纠错', '机构:*Kyoto University（京都大学） 纠错']) {
      const text = digest(entryLines('A', { institutions: line }));
      const doc = parseDigest(text);
      const missing = computeDiagnostics(doc).find((d) => d.code === 'institutions-missing-star');
      assert.ok(missing, line);
      const [fix] = fixesFor(doc, missing);
      const fixed = applyEdits(text, fix.edits);
      assert.equal(fixed, digest(entryLines('A', { institutions: '机构 * Kyoto University（京都大学） 纠错' })), line);
      assert.deepEqual(computeDiagnostics(parseDigest(fixed)), [], line);
    }
  });

  test('Should not close a bracket when others follow it', () => {
    const text = digest(entryLines('A', { institutions: '机构 * Lab (Montreal, Canada（蒙特利尔） 纠错' }));
    const doc = parseDigest(text);
    const unbalanced = computeDiagnostics(doc).find((d) => d.code === 'unbalanced-brackets')!;
    assert.deepEqual(fixesFor(doc, unbalanced), []);
  });
});

function codes(diagnostics: readonly DigestDiagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

describe('fix-all: names it changed itself', () => {
  test('Should close a bracket after a closer of another kind that has its own opener, keeping that pair', () => {
    for (const [name, closed] of [
      ['Shanghai AI Lab（上海人工智能实验室「书生」', 'Shanghai AI Lab（上海人工智能实验室「书生」）'],
      ['Kyoto University（京都大学《研究》', 'Kyoto University（京都大学《研究》）'],
    ] as const) {
      const text = digest(entryLines('A', { institutions: `机构 * ${name} 纠错` }));
      const after = applyEdits(text, fixAll(parseDigest(text)));
      assert.equal(after, digest(entryLines('A', { institutions: `机构 * ${closed} 纠错` })), name);
    }
  });

  test('Should close a bracket typed as another closer by replacing it, and never rewrite a line that had no problem', () => {
    const line = (translation: string) => `机构 * Kyoto University（${translation} 纠错`;
    for (const [closer, fixed] of [
      ['﹚', '京都大学）'],
      ['】', '京都大学）'],
      ['。', '京都大学。'],
    ] as const) {
      // B has a problem of its own too, unrelated to its names (a category's case).
      const text = digest(
        entryLines('A', { institutions: line(`京都大学${closer}`) }),
        entryLines('B', { institutions: line('京都大学）'), topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg' }),
        entryLines('C', { institutions: line(`京都大学${closer}`) }),
      );
      const after = applyEdits(text, fixAll(parseDigest(text)));
      const lines = after.split('\n').filter((each) => each.startsWith('机构'));
      // B's line, right from the start, stays as it was whatever the others become.
      assert.equal(lines[1], line('京都大学）'), closer);
      if (closer !== '。') {
        assert.deepEqual(lines, [line(fixed), line(fixed), line(fixed)], closer);
        assert.deepEqual(computeDiagnostics(parseDigest(after)), [], closer);
      }
    }
  });
});

describe('fix-all', () => {
  test('Should fix every safe problem of a digest full of mistakes, as its golden file gives', () => {
    const text = readFixture('fixes/all-mistakes.digest');
    const fixed = applyEdits(text, fixAll(parseDigest(text)));
    assertGolden('fixes/all-mistakes.fixed.digest', fixed);
    // What remains needs a person.
    assert.deepEqual(codes(computeDiagnostics(parseDigest(fixed))), ['unknown-category', 'not-an-institution', 'empty-summary', 'stray-line', 'duplicate-paper']);
  });

  for (const [name, text] of allFixtureTexts()) {
    test(`Should change nothing when run a second time on ${name}, leaving only problems without a safe fix`, () => {
      const doc = parseDigest(text);
      const edits = fixAll(doc);
      const offsets = toOffsetEdits(text, edits);
      for (let i = 1; i < offsets.length; i++) {
        assert.ok(offsets[i - 1].end <= offsets[i].start && !editsConflict(offsets[i - 1], offsets[i]), 'overlapping edits');
      }
      const fixed = parseDigest(applyEdits(text, edits));
      assert.deepEqual(fixAll(fixed), []);
      for (const diagnostic of computeDiagnostics(fixed)) {
        assert.ok(!fixesFor(fixed, diagnostic).some((f) => f.safe), `${diagnostic.code} at ${diagnostic.range.start.line} still has a safe fix`);
      }
    });
  }

  test('Should keep the BOM and CRLF line ends', () => {
    const lf = readFixture('fixes/all-mistakes.digest');
    const crlf = '\ufeff' + lf.replace(/\n/g, '\r\n');
    const fixed = applyEdits(crlf, fixAll(parseDigest(crlf)));
    assert.ok(fixed.startsWith('\ufeff'));
    assert.ok(!/[^\r]\n/.test(fixed), 'a line end without its CR');
    assert.equal(fixed, '\ufeff' + applyEdits(lf, fixAll(parseDigest(lf))).replace(/\n/g, '\r\n'));
  });

  test('Should not fix the rules that are off', () => {
    const text = readFixture('diagnostics/half-width-punctuation.digest');
    assert.deepEqual(fixAll(parseDigest(text), { rules: { 'half-width-punctuation': 'off' } }), []);
    assert.ok(fixAll(parseDigest(text)).length > 0);
  });

  test('Should return nothing once cancelled', () => {
    assert.deepEqual(fixAll(parseDigest(readFixture('fixes/all-mistakes.digest')), {}, { isCancellationRequested: true }), []);
  });

  test('Should give up at once when the fixes together take the text past a limit, not try again', () => {
    // 151,000 run-together lines: a blank line between each two makes 302,000, past the 300,000.
    const doc = parseDigest('大模型推理能力\n\n' + 'x\n'.repeat(151_000));
    const problems = computeDiagnostics(doc).length;
    // fix-all looks at its token once for each problem it fixes: each try again was another pass.
    let looks = 0;
    const token = {
      get isCancellationRequested(): boolean {
        looks++;
        return false;
      },
    };
    assert.deepEqual(fixAll(doc, {}, token), []);
    assert.ok(looks < 2 * problems, `${looks} looks at the token for ${problems} problems`);
  });
});

describe('codeActions', () => {
  const uri = 'file:///w/a.digest';
  const doc = parseDigest(readFixture('diagnostics/category-case.digest'));
  const [diagnostic] = computeDiagnostics(doc);

  test('Should answer a diagnostic the editor shows with its quick fixes', () => {
    const actions = codeActions(doc, { uri }, { range: diagnostic.range, diagnostics: [diagnostic] });
    assert.equal(actions.length, 1);
    const [action] = actions;
    assert.equal(action.kind, 'quickfix');
    assert.equal(action.isPreferred, true);
    assert.deepEqual(action.diagnostics, [diagnostic]);
    assert.deepEqual(action.edit?.changes?.[uri], [{ range: diagnostic.range, newText: 'cs.AI' }]);
  });

  test('Should give versioned edits when the version is known', () => {
    const [action] = codeActions(doc, { uri, version: 7 }, { range: diagnostic.range, diagnostics: [diagnostic] });
    const change = action.edit?.documentChanges?.[0] as { textDocument: { uri: string; version: number }; edits: TextEdit[] };
    assert.deepEqual(change.textDocument, { uri, version: 7 });
    assert.equal(change.edits[0].newText, 'cs.AI');
  });

  test('Should give nothing for a diagnostic the current text no longer has', () => {
    const stale = { ...diagnostic, range: { start: { line: 3, character: 0 }, end: { line: 3, character: 4 } } };
    assert.deepEqual(codeActions(doc, { uri }, { range: stale.range, diagnostics: [stale] }), []);
  });

  test('Should find the diagnostics under the range when the editor passes none', () => {
    const actions = codeActions(doc, { uri }, { range: { start: diagnostic.range.start, end: diagnostic.range.start }, diagnostics: [] });
    assert.equal(actions.length, 1);
  });

  test('Should give fix-all as source.fixAll.paperDigest when a source or fix-all kind is asked for, and no quick fix then', () => {
    for (const only of [['source'], ['source.fixAll'], [FIX_ALL_KIND]]) {
      const actions = codeActions(doc, { uri }, { range: diagnostic.range, diagnostics: [diagnostic], only });
      assert.deepEqual(actions.map((a) => a.kind), [FIX_ALL_KIND], only.join());
      assert.deepEqual(actions[0].edit?.changes?.[uri], fixAll(doc));
    }
    assert.deepEqual(codeActions(doc, { uri }, { range: diagnostic.range, diagnostics: [diagnostic], only: ['quickfix'] }).map((a) => a.kind), ['quickfix']);
    assert.deepEqual(codeActions(doc, { uri }, { range: diagnostic.range, diagnostics: [diagnostic] }).map((a) => a.kind), ['quickfix']);
  });

  test('Should give no fix-all action when there is nothing to fix', () => {
    const clean = parseDigest(readFixture('diagnostics/well-formed.digest'));
    assert.deepEqual(codeActions(clean, { uri }, { range: diagnostic.range, diagnostics: [], only: [FIX_ALL_KIND] }), []);
  });
});

describe('edits', () => {
  test('Should convert between positions and offsets over every kind of line end', () => {
    const index = new LineIndex('ab\r\ncd\ref\ngh');
    assert.deepEqual([0, 1, 2, 3, 4, 6, 7, 9, 10].map((o) => index.positionAt(o)), [
      { line: 0, character: 0 },
      { line: 0, character: 1 },
      { line: 0, character: 2 },
      { line: 0, character: 2 },
      { line: 1, character: 0 },
      { line: 1, character: 2 },
      { line: 2, character: 0 },
      { line: 2, character: 2 },
      { line: 3, character: 0 },
    ]);
    assert.equal(index.offsetAt({ line: 1, character: 99 }), 6);
    assert.equal(index.offsetAt({ line: 9, character: 0 }), 12);
  });

  test('Should refuse overlapping edits', () => {
    const range = (a: number, b: number) => ({ start: { line: 0, character: a }, end: { line: 0, character: b } });
    assert.throws(() => applyEdits('abcdef', [{ range: range(0, 3), newText: 'x' }, { range: range(2, 4), newText: 'y' }]));
    assert.equal(applyEdits('abcdef', [{ range: range(3, 4), newText: 'y' }, { range: range(0, 3), newText: 'x' }]), 'xyef');
  });

  test('Should tell conflicting edits from compatible ones', () => {
    const e = (start: number, end: number): OffsetEdit => ({ start, end, text: 'x' });
    assert.equal(editsConflict(e(0, 3), e(3, 5)), false);
    assert.equal(editsConflict(e(0, 3), e(2, 5)), true);
    assert.equal(editsConflict(e(3, 3), e(0, 3)), true);
    assert.equal(editsConflict(e(1, 1), e(0, 3)), true);
    assert.equal(editsConflict(e(4, 4), e(0, 3)), false);
  });

  test('Should compose two rounds of edits into one round that gives the same text', () => {
    const editsOf = (length: number) =>
      fc.array(fc.tuple(fc.nat(length), fc.nat(3), fc.string({ maxLength: 3 })), { maxLength: 6 }).map((raw) => {
        const sorted = raw.map(([start, span, text]) => ({ start: Math.min(start, length), end: Math.min(start + span, length), text })).sort((a, b) => a.start - b.start || a.end - b.end);
        const kept: OffsetEdit[] = [];
        for (const edit of sorted) {
          if (kept.every((other) => !editsConflict(other, edit))) kept.push(edit);
        }
        return kept;
      });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }).chain((text) => fc.tuple(fc.constant(text), editsOf(text.length))),
        fc.infiniteStream(fc.nat()),
        ([text, first], seeds) => {
          const middle = applyOffsetEdits(text, first);
          // A second round over the middle text, drawn from the seeds.
          const iterator = seeds[Symbol.iterator]();
          const second: OffsetEdit[] = [];
          let cursor = 0;
          for (let k = 0; k < 4 && cursor <= middle.length; k++) {
            const start = cursor + (iterator.next().value as number) % (middle.length - cursor + 1);
            const end = Math.min(middle.length, start + ((iterator.next().value as number) % 3));
            second.push({ start, end, text: String.fromCharCode(65 + k) });
            cursor = end + 1;
          }
          const composed = composeEdits(text, first, second);
          assert.equal(applyOffsetEdits(text, composed), applyOffsetEdits(middle, second));
          for (let i = 1; i < composed.length; i++) {
            assert.ok(composed[i - 1].end < composed[i].start || (composed[i - 1].end === composed[i].start && !editsConflict(composed[i - 1], composed[i])));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fix-all: code points', () => {
  test('Should never start or end an edit between the two halves of a surrogate pair', () => {
    // Swapping the titles and separating them composes two rounds whose edit, trimmed of what it
    // leaves unchanged, would start after the shared high half of '😀' and '😁'.
    const text = paragraphs('大模型推理能力', '😀中文标题\n😁 Sparse Probes For Circuits', 'Mei Tanaka, Lin Qiu', '专题命中 数学推理 ：x(title)；分类 cs.AI', 'AI总结 好。');
    const edits = fixAll(parseDigest(text));
    assert.ok(edits.length > 0);
    const index = new LineIndex(text);
    for (const edit of edits) {
      for (const position of [edit.range.start, edit.range.end]) {
        const offset = index.offsetAt(position);
        const high = text.charCodeAt(offset - 1);
        assert.ok(!(high >= 0xd800 && high <= 0xdbff), `an edit at ${JSON.stringify(position)} splits a surrogate pair: ${JSON.stringify(edit)}`);
      }
    }
    assert.equal(applyEdits(text, edits), paragraphs('大模型推理能力', '😁 Sparse Probes For Circuits\n\n😀中文标题', 'Mei Tanaka, Lin Qiu', '专题命中 数学推理 ：x(title)；分类 cs.AI', 'AI总结 好。'));
  });

  test('Should widen an offset edit to whole code points, keeping what it does', () => {
    const text = 'a😀b😁c';
    for (const edit of [{ start: 2, end: 3, text: 'X' }, { start: 1, end: 5, text: '' }, { start: 2, end: 5, text: '\ude02' }, { start: 5, end: 5, text: 'Y' }]) {
      const aligned = onCodePoints(text, edit);
      assert.equal(applyOffsetEdits(text, [aligned]), applyOffsetEdits(text, [edit]), JSON.stringify(edit));
      for (const offset of [aligned.start, aligned.end]) assert.ok(!splitsSurrogatePair(text, offset), `${JSON.stringify(edit)} → ${JSON.stringify(aligned)}`);
    }
  });
});

describe('quick fixes: notes after the last paper', () => {
  test('Should report the notes as one stray-line warning and remove them all with its fix, raising nothing new', () => {
    const text = digest(entryLines('A'), entryLines('B'), ['我的笔记：这两篇都值得细读。', 'TODO compare with last week']);
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(diagnostics.map((d) => d.code), [DiagnosticCode.StrayLine]);
    const fixes = fixesFor(doc, diagnostics[0]);
    assert.equal(fixes.length, 1);
    const fixed = applyEdits(text, fixes[0].edits);
    assert.deepEqual(computeDiagnostics(parseDigest(fixed)), []);
    assert.ok(fixed.startsWith(digest(entryLines('A'), entryLines('B')).trimEnd()), 'the papers are kept');
    assert.ok(!fixed.includes('TODO') && !fixed.includes('我的笔记'));
  });
});

describe('quick fixes: placeholders that stay unique', () => {
  test('Should number the placeholder English title when the file has it already, so that it is no duplicate', () => {
    const text = digest(entryLines('A', { englishTitle: null }), entryLines('B'), entryLines('C', { englishTitle: null }));
    let current = text;
    for (let round = 0; round < 2; round++) {
      const doc = parseDigest(current);
      const diagnostic = computeDiagnostics(doc).find((d) => d.code === 'missing-field')!;
      const [action] = codeActions(doc, { uri: 'file:///a.digest' }, { range: diagnostic.range, diagnostics: [diagnostic] });
      assert.ok(action, `a fix is offered in round ${round + 1}`);
      current = applyEdits(current, action.edit!.changes!['file:///a.digest']);
    }
    assert.match(current, /^English title$/m);
    assert.match(current, /^English title 2$/m);
    assert.deepEqual(computeDiagnostics(parseDigest(current)).map((d) => d.code), []);
  });
});

describe('code actions: the other copies of a duplicated paper', () => {
  test('Should offer a command that opens each copy in another file, and none for a copy in the same file', () => {
    const text = digest(entryLines('A'), entryLines('B'), entryLines('A'));
    const doc = parseDigest(text);
    const uri = 'file:///w/b.digest';
    const key = titleKey('A Sparse Probes for Arithmetic Circuits');
    const elsewhere = { uri: 'file:///w/a%20b.digest', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 39 } } };
    const diagnostics = computeDiagnostics(doc, { uri, duplicatesElsewhere: (k) => (k === key ? [elsewhere] : []) }).filter((d) => d.code === DiagnosticCode.DuplicatePaper);
    // The first A is a later copy of the one in a b.digest; the second A is also a copy of the first A here.
    assert.equal(diagnostics.length, 2);
    for (const diagnostic of diagnostics) {
      const actions = codeActions(doc, { uri, version: 1 }, { range: diagnostic.range, diagnostics: [diagnostic] }, { uri });
      const open = actions.filter((a) => a.command);
      assert.deepEqual(open.map((a) => [a.title, a.command?.command, a.command?.arguments]), [['Open the other copy in a b.digest, line 3 — 打开另一文件中的同一论文（a b.digest 第 3 行）', 'paperDigest.openLocation', [elsewhere.uri, elsewhere.range]]]);
      assert.ok(open.every((a) => a.edit === undefined && a.kind === 'quickfix'));
    }
    // From related information alone, as a client that drops `data` sends it back.
    const [first] = diagnostics;
    const { data: _data, ...bare } = first;
    const fromRelated = codeActions(doc, { uri }, { range: first.range, diagnostics: [bare] }, { uri }).filter((a) => a.command);
    assert.equal(fromRelated.length, 1);
  });
});

describe('code actions: titles two problems share', () => {
  test('Should name what each fix replaces when fixes of two problems would read alike, and not otherwise', () => {
    const uri = 'file:///w/a.digest';
    const text = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.ai、cs.XX' }), entryLines('B', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.ai' }));
    const doc = parseDigest(text);
    const lines = text.split('\n');
    const titlesOn = (line: number, language: 'en' | 'zh-cn'): string[] => {
      const options = { uri, language };
      const shown = computeDiagnostics(doc, options).filter((d) => d.range.start.line === line);
      return codeActions(doc, { uri }, { range: { start: { line, character: 0 }, end: { line, character: lines[line].length } }, diagnostics: shown }, options).map((action) => action.title);
    };
    const both = lines.indexOf('专题命中 数学推理 ：reasoning(abstract)；分类 CS.ai、cs.XX');
    const alone = lines.lastIndexOf('专题命中 数学推理 ：reasoning(abstract)；分类 CS.ai');
    const english = titlesOn(both, 'en');
    assert.deepEqual(english.slice(0, 2), ["Write 'cs.AI' (Artificial Intelligence) for 'CS.ai'", "Write 'cs.AI' (Artificial Intelligence) for 'cs.XX'"]);
    assert.equal(new Set(english).size, english.length, 'no title twice');
    assert.deepEqual(titlesOn(both, 'zh-cn').slice(0, 2), ['改为“cs.AI”（人工智能）（替换“CS.ai”）', '改为“cs.AI”（人工智能）（替换“cs.XX”）']);
    // A problem alone on its line: its fix as it reads.
    assert.deepEqual(titlesOn(alone, 'en'), ["Write 'cs.AI' (Artificial Intelligence)"]);
  });
});
