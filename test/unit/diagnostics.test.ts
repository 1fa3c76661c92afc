import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Range } from 'vscode-languageserver-types';
import { titleKey } from '../../server/src/service/features/entries';
import { ALL_CODES, computeDiagnostics, DiagnosticCode, DigestDiagnostic, RULES } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { assertGolden, digest, entryLines, readFixture, REPO_ROOT } from '../support/fixtures';

const SEVERITY_NAMES = ['', 'error', 'warning', 'information', 'hint'];

/** The golden form of diagnostics: code, severity and range, one per line. */
export function describeDiagnostics(diagnostics: readonly DigestDiagnostic[]): string {
  const lines = diagnostics.map((d) => `  ${JSON.stringify({ code: d.code, severity: SEVERITY_NAMES[d.severity ?? 0], range: d.range })}`);
  return `[\n${lines.join(',\n')}\n]\n`;
}

function rangeText(text: string, range: Range): string {
  const lines = text.split(/\r\n|\r|\n/);
  assert.equal(range.start.line, range.end.line, 'a diagnostic within one line');
  return lines[range.start.line].slice(range.start.character, range.end.character);
}

function codes(diagnostics: readonly DigestDiagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

describe('diagnostics: one fixture per rule', () => {
  for (const code of ALL_CODES) {
    test(`Should report ${code} in its fixture at the places its golden file gives, within the broken entry only`, () => {
      const doc = parseDigest(readFixture(`diagnostics/${code}.digest`));
      const diagnostics = computeDiagnostics(doc);
      assert.ok(codes(diagnostics).includes(code), `no ${code} among ${codes(diagnostics).join(', ')}`);
      assertGolden(`diagnostics/${code}.expected.json`, describeDiagnostics(diagnostics));
      // The fixture is a canonical entry, the broken one, and another canonical entry: the
      // canonical ones keep all of their fields and get no diagnostic.
      const first = doc.entries[0];
      const last = doc.entries[doc.entries.length - 1];
      assert.equal(first.fields.length, 8, 'the first entry keeps its eight fields');
      assert.equal(last.fields.length, 7, 'the last entry keeps its seven fields');
      assert.equal(last.englishTitle?.value.text, 'Multi-Agent Debate for Theorem Proving');
      for (const diagnostic of diagnostics) {
        if (diagnostic.code === DiagnosticCode.MissingHeading) {
          continue;
        }
        assert.ok(diagnostic.range.start.line > first.range.end.line && diagnostic.range.end.line < last.range.start.line, `${diagnostic.code} at line ${diagnostic.range.start.line} is outside the broken entry`);
      }
    });
  }

  test('Should have a fixture and a golden file for every rule and no other', () => {
    const names = fs.readdirSync(path.join(REPO_ROOT, 'test', 'fixtures', 'diagnostics')).filter((name) => name.endsWith('.digest') && name !== 'well-formed.digest');
    assert.deepEqual(names.map((name) => name.replace(/\.digest$/, '')).sort(), [...ALL_CODES].sort());
  });
});

describe('diagnostics: well-formed digests', () => {
  test('Should give no diagnostic on a well-formed digest that uses every field and bracket form', () => {
    const text = readFixture('diagnostics/well-formed.digest');
    const doc = parseDigest(text);
    // The fixture really covers what it claims to.
    assert.ok(doc.entries.some((e) => e.comments && e.journalRef), 'comments and journal ref');
    assert.ok(doc.entries.some((e) => e.institutions?.authorPairs?.length === 3), 'authors listed on the institutions line');
    assert.ok(doc.entries.some((e) => e.institutions?.items.some((i) => i.translation?.text.includes('（'))), 'nested full-width brackets');
    assert.ok(doc.entries.some((e) => e.institutions?.items.some((i) => i.name.text.includes('(Montreal)') && !i.translation)), 'half-width brackets in an English name');
    assert.ok(doc.entries.some((e) => e.topicHits?.categories.some((c) => c.text === 'physics.comp-ph')), 'lower-case subject classes');
    assert.deepEqual(computeDiagnostics(doc), []);
  });

  test('Should give no diagnostic on the same digest with a BOM and CRLF line ends', () => {
    const text = '\ufeff' + readFixture('diagnostics/well-formed.digest').replace(/\n/g, '\r\n');
    assert.deepEqual(computeDiagnostics(parseDigest(text)), []);
  });

  test('Should find in the real sample only the [cs.AI] item, the one mistake it contains', { skip: !fs.existsSync(path.join(REPO_ROOT, '..', 'shared', 'samples')) && 'no sample beside the repository' }, () => {
    const folder = path.join(REPO_ROOT, '..', 'shared', 'samples');
    for (const name of fs.readdirSync(folder).filter((n) => n.endsWith('.digest.txt') || n.endsWith('.digest'))) {
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      const diagnostics = computeDiagnostics(parseDigest(text));
      const unexpected = diagnostics.filter((d) => !(d.code === DiagnosticCode.NotAnInstitution && rangeText(text, d.range).startsWith('[')));
      assert.deepEqual(unexpected, [], `${name}: ${unexpected.map((d) => `${d.range.start.line}:${d.code}`).join(', ')}`);
    }
  });
});

describe('diagnostics: never cascading', () => {
  const broken: Record<string, Parameters<typeof entryLines>[1]> = {
    'no Chinese title': { chineseTitle: null },
    'no authors': { authors: null },
    'no English title': { englishTitle: null },
    'no titles': { englishTitle: null, chineseTitle: null },
    'no topic hits': { topicHits: null },
    'no summary': { summary: null },
    'titles run together': { englishTitle: 'M Sparse Probes for Arithmetic Circuits\nM 算术电路的稀疏探针', chineseTitle: null },
    'a stray line': { summary: 'AI总结 本文用稀疏探针定位加法电路。\n\n[cs.AI]' },
    'institutions out of order': { institutions: null, summary: 'AI总结 本文用稀疏探针定位加法电路。\n\n机构 * Kyoto University（京都大学） 纠错' },
    'every punctuation mistake': {
      institutions: '机构 Kyoto University(京都大学); Tsinghua University（清华大学',
      topicHits: '专题命中 数学推理 :reasoning（abstract）;math reasoning;(title)；分类 cs.LG,CS.lg，cs.XX',
      summary: 'AI总结',
    },
  };
  for (const [name, overrides] of Object.entries(broken)) {
    test(`Should keep the problems of an entry with ${name} inside that entry, among twenty good ones`, () => {
      const tags = Array.from({ length: 21 }, (_, i) => `P${i}`);
      const entries = tags.map((tag, i) => (i === 10 ? entryLines('M', overrides) : entryLines(tag)));
      const doc = parseDigest(digest(...entries));
      const diagnostics = computeDiagnostics(doc);
      assert.ok(diagnostics.length > 0, 'the broken entry is reported');
      const brokenEntries = doc.entries.filter((entry) => diagnostics.some((d) => d.range.start.line >= entry.range.start.line && d.range.end.line <= entry.range.end.line));
      assert.equal(brokenEntries.length, 1, `diagnostics spread over ${brokenEntries.length} entries: ${diagnostics.map((d) => `${d.range.start.line}:${d.code}`).join(', ')}`);
      // The problems are the broken entry's, and the good entries around it are read whole.
      assert.equal(doc.entries.length, 21);
      assert.equal(doc.entries.indexOf(brokenEntries[0]), 10);
      const good = doc.entries.filter((_, i) => i !== 10);
      assert.ok(good.every((entry, i) => entry.fields.length === 8 && entry.englishTitle?.value.text.startsWith(`P${i < 10 ? i : i + 1} `)));
    });
  }
});

describe('diagnostics: a paper without its English title after a Comments line', () => {
  test('Should keep the Comments with the paper before and report the missing English title', () => {
    const text = digest(entryLines('A', { journalRef: null }), entryLines('B', { englishTitle: null }));
    const doc = parseDigest(text);
    assert.equal(doc.entries[0].comments?.value.text, '12 pages, 4 figures. Code: https://example.org/probes');
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.data.field, d.data.entry]), [['missing-field', 'englishTitle', 1]]);
  });

  test('Should still read a title that starts with Comments on as a title', () => {
    const text = digest(entryLines('A', { journalRef: null }), entryLines('B', { englishTitle: 'Comments on Attention Sinks in Reasoning Models' }));
    const doc = parseDigest(text);
    assert.equal(doc.entries[1].englishTitle?.value.text, 'Comments on Attention Sinks in Reasoning Models');
    assert.deepEqual(computeDiagnostics(doc), []);
  });
});

describe('diagnostics: what each carries', () => {
  const doc = parseDigest(readFixture('diagnostics/half-width-punctuation.digest'));

  test('Should give every diagnostic the source, a code, a link to its rule page and a message in English and Chinese', () => {
    const all = ALL_CODES.flatMap((code) => computeDiagnostics(parseDigest(readFixture(`diagnostics/${code}.digest`)), { docsBase: 'file:///ext/docs/rules/' }));
    assert.ok(all.length >= ALL_CODES.length);
    for (const d of all) {
      assert.equal(d.source, 'paper-digest');
      assert.equal(d.codeDescription?.href, `file:///ext/docs/rules/${d.code}.md`);
      const [english, chinese] = d.message.split(' — ');
      assert.match(english, /[A-Za-z]{3,} [a-z]{2,} /, d.message);
      assert.match(chinese ?? '', /[\u4e00-\u9fff]/, d.message);
      assert.ok(d.data !== undefined);
    }
  });

  test('Should have a rule page for every code, listed in the rules index', () => {
    const index = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'rules', 'README.md'), 'utf8');
    for (const code of ALL_CODES) {
      const page = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'rules', `${code}.md`), 'utf8');
      assert.match(page, new RegExp(`^# \`${code}\``));
      assert.match(page, new RegExp(`Default severity: \\*\\*${RULES[code].severity}\\*\\*`));
      assert.ok(index.includes(`[\`${code}\`](${code}.md)`), `${code} is not in docs/rules/README.md`);
    }
  });

  test('Should leave codeDescription out when no docs base is given', () => {
    assert.ok(computeDiagnostics(doc).every((d) => d.codeDescription === undefined));
  });

  test('Should use the severity set for a rule, drop rules set to off and keep the defaults of the others', () => {
    const defaults = computeDiagnostics(doc);
    const changed = computeDiagnostics(doc, { rules: { 'half-width-punctuation': 'hint', 'category-case': 'off' } });
    assert.ok(defaults.some((d) => d.code === 'half-width-punctuation' && d.severity === 2));
    assert.ok(changed.filter((d) => d.code === 'half-width-punctuation').every((d) => d.severity === 4));
    const unchanged = computeDiagnostics(parseDigest(readFixture('diagnostics/category-case.digest')), { rules: { 'category-case': 'off' } });
    assert.deepEqual(unchanged, []);
    const error = computeDiagnostics(parseDigest(readFixture('diagnostics/category-case.digest')), { rules: { 'category-case': 'error' } });
    assert.deepEqual(error.map((d) => [d.code, d.severity]), [['category-case', 1]]);
  });

  test('Should point the punctuation diagnostics at the wrong marks and carry the marks expected there', () => {
    const text = readFixture('diagnostics/half-width-punctuation.digest');
    const found = computeDiagnostics(parseDigest(text)).map((d) => [rangeText(text, d.range), d.data.marks?.map((m) => `${rangeText(text, m.range)}→${m.expected}`)]);
    assert.deepEqual(found, [
      ['; ', ['; → ； ']],
      ['(魁北克人工智能研究所)', ['(→（', ')→）']],
      [':', [':→：']],
      [';', [';→；']],
      [',', [',→、']],
    ]);
  });

  test('Should carry the missing field and where it belongs', () => {
    const missing = computeDiagnostics(parseDigest(readFixture('diagnostics/missing-field.digest')));
    assert.equal(missing.length, 1);
    assert.equal(missing[0].data.field, 'chineseTitle');
    assert.equal(missing[0].data.entry, 1);
    assert.equal(missing[0].data.insertAfterLine, 18);
  });

  test('Should suggest the known spelling of a miscased category and the nearest categories of an unknown one', () => {
    const text = readFixture('diagnostics/unknown-category.digest');
    const unknown = computeDiagnostics(parseDigest(text));
    assert.deepEqual(unknown.map((d) => [rangeText(text, d.range), d.data.suggestions?.[0], d.data.clearSuggestion ?? false]), [
      ['cs.AII', 'cs.AI', true],
      ['stat.MLL', 'stat.ML', true],
    ]);
    const vague = computeDiagnostics(parseDigest(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.XX' }))));
    assert.equal(vague[0].code, 'unknown-category');
    assert.ok((vague[0].data.suggestions?.length ?? 0) > 1);
    assert.equal(vague[0].data.clearSuggestion, undefined);
    const cased = computeDiagnostics(parseDigest(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 PHYSICS.COMP-PH' }))));
    assert.deepEqual(cased.map((d) => [d.code, d.data.suggestions]), [['category-case', ['physics.comp-ph']]]);
  });

  test('Should report a 专题命中 line without 分类, and 分类 without categories', () => {
    const none = computeDiagnostics(parseDigest(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)' }))));
    assert.deepEqual(none.map((d) => [d.code, d.data.unlabelled]), [['missing-categories', undefined]]);
    const empty = computeDiagnostics(parseDigest(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类' }))));
    assert.deepEqual(codes(empty), ['missing-categories']);
  });

  test('Should not read a keyword that looks like a word as unlabelled categories', () => {
    const text = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；CoT' }));
    assert.deepEqual(codes(computeDiagnostics(parseDigest(text))), ['hit-missing-field', 'missing-categories']);
  });

  test('Should report items of the 机构 line that are no institutions, but not author lists or names with brackets', () => {
    const check = (institutions: string): string[] => codes(computeDiagnostics(parseDigest(digest(entryLines('A', { institutions })))));
    assert.deepEqual(check('机构 * cs.AI（人工智能） ； Kyoto University（京都大学） 纠错'), ['not-an-institution']);
    assert.deepEqual(check('机构 * Kyoto University（京都大学） ；  ； Tsinghua University（清华大学） 纠错'), ['not-an-institution']);
    assert.deepEqual(check('机构 * 2026（二〇二六） 纠错'), ['not-an-institution']);
    assert.deepEqual(check('机构 * Mei Tanaka, Omar Haddad（田中芽衣、奥马尔） 纠错'), []);
    assert.deepEqual(check('机构 * Samsung AI Lab (Montreal), Canada（三星人工智能实验室） 纠错'), []);
    assert.deepEqual(check('机构 * 清华大学 纠错'), []);
  });

  test('Should report a closing bracket that closes nothing', () => {
    const text = digest(entryLines('A', { institutions: '机构 * Kyoto University京都大学） 纠错' }));
    const [d] = computeDiagnostics(parseDigest(text));
    assert.equal(d.code, 'unbalanced-brackets');
    assert.equal(rangeText(text, d.range), '）');
    assert.match(d.message, /closes nothing/);
  });

  test('Should report swapped titles once, not as two wrong-language titles', () => {
    const text = readFixture('diagnostics/swapped-titles.digest');
    const diagnostics = computeDiagnostics(parseDigest(text), { uri: 'file:///w/a.digest' });
    assert.deepEqual(codes(diagnostics), ['swapped-titles']);
    assert.equal(diagnostics[0].relatedInformation?.[0].location.range.start.line, 20);
  });

  test('Should quote document text in messages without control or bidirectional characters, and cut it short', () => {
    const text = digest(entryLines('A', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 cs.\u202eXX、${'q'.repeat(80)}` }));
    const diagnostics = computeDiagnostics(parseDigest(text));
    assert.deepEqual(codes(diagnostics), ['unknown-category', 'unknown-category']);
    assert.ok(diagnostics.every((d) => !/[\u202e]/.test(d.message)));
    assert.match(diagnostics[0].message, /'cs\.\ufffdXX'/);
    assert.ok(diagnostics[1].message.length < 200);
    assert.match(diagnostics[1].message, /q…'/);
  });

  test('Should return nothing once cancelled', () => {
    assert.deepEqual(computeDiagnostics(doc, {}, { isCancellationRequested: true }), []);
  });

  test('Should offset the ranges of line 0 by the BOM', () => {
    const text = '\ufeff' + readFixture('diagnostics/missing-heading.digest').replace(/\n/g, '\r\n');
    const [d] = computeDiagnostics(parseDigest(text));
    assert.equal(d.code, 'missing-heading');
    assert.deepEqual(d.range.start, { line: 0, character: 1 });
  });
});

describe('diagnostics: duplicate papers', () => {
  const text = readFixture('diagnostics/duplicate-paper.digest');
  const doc = parseDigest(text);

  test('Should report the later copy in the file, comparing titles ignoring case and white space, with a link to the first', () => {
    const diagnostics = computeDiagnostics(doc, { uri: 'file:///w/a.digest' });
    assert.deepEqual(codes(diagnostics), ['duplicate-paper']);
    const [d] = diagnostics;
    assert.equal(d.range.start.line, doc.entries[1].range.start.line);
    assert.deepEqual(d.data.firstOccurrence, doc.entries[0].englishTitle?.value.range);
    assert.deepEqual(d.relatedInformation?.map((info) => [info.location.uri, info.location.range.start.line]), [['file:///w/a.digest', 2]]);
  });

  test('Should report papers that another file also lists, with links to the other file, asking by title key', () => {
    const asked: string[] = [];
    const elsewhere = { uri: 'file:///w/a.digest', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 38 } } };
    const diagnostics = computeDiagnostics(doc, {
      uri: 'file:///w/b.digest',
      duplicatesElsewhere: (key) => {
        asked.push(key);
        return key === titleKey('Multi-Agent Debate for Theorem Proving') ? [elsewhere] : [];
      },
    });
    assert.ok(asked.includes('multi-agent debate for theorem proving'));
    const crossFile = diagnostics.filter((d) => d.data.firstOccurrence === undefined);
    assert.equal(crossFile.length, 1);
    assert.equal(crossFile[0].range.start.line, doc.entries[2].range.start.line);
    assert.deepEqual(crossFile[0].relatedInformation?.map((info) => info.location), [elsewhere]);
    assert.deepEqual(crossFile[0].data.otherCopies, [elsewhere]);
    assert.match(crossFile[0].message, /another file/);
    assert.equal(crossFile[0].severity, 3, 'information by default');
  });

  test('Should report a paper listed by two files once, on the copy in the later file, relating the earlier one', () => {
    const key = titleKey('Multi-Agent Debate for Theorem Proving');
    const at = (uri: string) => ({ uri, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 38 } } });
    const crossFile = (uri: string, others: string[]) =>
      computeDiagnostics(doc, { uri, duplicatesElsewhere: (k) => (k === key ? others.map(at) : []) }).filter((d) => d.data.firstOccurrence === undefined);
    // a.digest holds the first copy: nothing there; b.digest and c.digest each report theirs once.
    assert.deepEqual(crossFile('file:///w/a.digest', ['file:///w/b.digest', 'file:///w/c.digest']), []);
    const inB = crossFile('file:///w/b.digest', ['file:///w/a.digest', 'file:///w/c.digest']);
    assert.equal(inB.length, 1);
    assert.deepEqual(inB[0].relatedInformation?.map((info) => info.location.uri), ['file:///w/a.digest', 'file:///w/c.digest'], 'all the other copies are related');
    assert.equal(crossFile('file:///w/c.digest', ['file:///w/a.digest', 'file:///w/b.digest']).length, 1);
    // Dated digests in the order of their dates, whatever their names: the later one reports it,
    // as the Papers view calls the earlier copy new; an undated digest after the dated ones.
    const earlier = 'file:///w/z-2026-05-01.digest';
    const later = 'file:///w/a-2026-05-02.digest';
    assert.deepEqual(crossFile(earlier, [later]), []);
    assert.equal(crossFile(later, [earlier]).length, 1);
    assert.equal(crossFile('file:///w/a.digest', [earlier]).length, 1);
    assert.deepEqual(crossFile(earlier, ['file:///w/a.digest']), []);
    // An undated digest by its modification time, as the reading order has it.
    const notes = 'file:///w/notes.digest';
    const old = { mtimeOf: (uri: string) => (uri === notes ? Date.parse('2020-01-01') : undefined) };
    const withTimes = (uri: string, others: string[]) =>
      computeDiagnostics(doc, { uri, ...old, duplicatesElsewhere: (k) => (k === key ? others.map(at) : []) }).filter((d) => d.data.firstOccurrence === undefined);
    assert.deepEqual(withTimes(notes, [earlier]), []);
    assert.equal(withTimes(earlier, [notes]).length, 1);
    // More copies than are related (20): the first in digest order is among them, whatever the names.
    const many = Array.from({ length: 21 }, (_, i) => `file:///w/a${String(i).padStart(2, '0')}-2026-06-01.digest`);
    const first = 'file:///w/z-2026-05-01.digest';
    const inMiddle = crossFile('file:///w/m-2026-05-02.digest', [...many, first]);
    assert.equal(inMiddle.length, 1, 'a later copy than the first');
    assert.equal(inMiddle[0].relatedInformation?.[0].location.uri, first, 'the first copy related first');
  });

  test('Should merge a copy in the file and one in another file into one diagnostic', () => {
    const elsewhere = { uri: 'file:///w/a.digest', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 10 } } };
    const key = titleKey('Sparse Probes for Arithmetic Circuits in Small Transformers');
    const diagnostics = computeDiagnostics(doc, { uri: 'file:///w/b.digest', duplicatesElsewhere: (k) => (k === key ? [elsewhere] : []) });
    // Both copies in this file are also in the earlier a.digest: the first gets one related location, the second two.
    assert.deepEqual(
      diagnostics.map((d) => d.relatedInformation?.map((info) => info.location.uri)),
      [['file:///w/a.digest'], ['file:///w/b.digest', 'file:///w/a.digest']],
    );
    // In a file before the other, only the second copy in the file is reported, relating both others.
    const first = computeDiagnostics(doc, { uri: 'file:///w/0.digest', duplicatesElsewhere: (k) => (k === key ? [elsewhere] : []) });
    assert.deepEqual(
      first.map((d) => d.relatedInformation?.map((info) => info.location.uri)),
      [['file:///w/0.digest', 'file:///w/a.digest']],
    );
  });
});

describe('diagnostics: the missing 纠错', () => {
  test('Should put the missing-纠错 squiggle on the last character of the 机构 line, not on the last institution', () => {
    const text = digest(entryLines('A', { institutions: '机构 * Kyoto University（京都大学） ； Tsinghua University（清华大学）  ' }));
    const [d] = computeDiagnostics(parseDigest(text)).filter((x) => x.code === DiagnosticCode.InstitutionsMissingMarker);
    assert.ok(d, 'the missing marker is reported');
    assert.equal(rangeText(text, d.range), '）');
    const line = text.split('\n')[d.range.start.line];
    assert.equal(d.range.end.character, line.trimEnd().length, 'the range ends where the line’s text ends');
  });

  test('Should report a 机构 line with nothing after the label at its label’s last character', () => {
    const text = digest(entryLines('A', { institutions: '机构' }));
    const [d] = computeDiagnostics(parseDigest(text)).filter((x) => x.code === DiagnosticCode.InstitutionsMissingMarker);
    assert.equal(rangeText(text, d.range), '构');
  });
});
