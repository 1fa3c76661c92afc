/**
 * The faster paths of the diagnostics and of the index of an open document give exactly what the
 * plain computations give.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { Range } from 'vscode-languageserver-types';
import { titleKey } from '../../server/src/service/features/entries';
import { computeDiagnostics, DiagnosticCode, DigestDiagnostic, notAnInstitutionName } from '../../server/src/service/features/diagnostics';
import { categoryIgnoringCase, isCategoryLike } from '../../server/src/service/taxonomy';
import type { Span } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { entryNames, termKey } from '../../server/src/service/terms';
import { digest, entryLines } from '../support/fixtures';

/** `titleKey` as the format defines it, with no shortcut. */
function plainTitleKey(title: string): string {
  return title.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

describe('titleKey: the shortcut for plain ASCII titles', () => {
  test('Should give the key of the full folding for any text, ASCII or not', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ 9-:.\t\r\n\u000b\u000c\u007f\u0000('), maxLength: 30 });
    const any = fc.string({ unit: fc.oneof(fc.constantFrom('Ａ', 'ß', 'İ', '\u00a0', '\u3000', 'Σ', 'ﬁ', ' '), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(ascii, any), (title) => {
        assert.equal(titleKey(title), plainTitleKey(title), JSON.stringify(title));
      }),
      { numRuns: 2000 },
    );
    for (const title of ['Sparse Probes', ' Sparse', 'Sparse ', 'Sparse  Probes', 'SPARSE\tProbes', '', ' ', 'a']) {
      assert.equal(titleKey(title), plainTitleKey(title), JSON.stringify(title));
    }
  });
});

/** The separators of a line with a mark of `marks` in them, each with the range its diagnostic has. */
function separatorsWithMark(separators: readonly Span[], marks: string): Range[] {
  const found: Range[] = [];
  for (const separator of separators) {
    const at = [...separator.text].findIndex((c) => marks.includes(c));
    if (at >= 0) found.push(separator.range);
  }
  return found;
}

function sorted(ranges: readonly Range[]): string[] {
  return ranges.map((r) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`).sort();
}

describe('diagnostics: the separators of a line without the mark are not split', () => {
  test('Should report exactly the separators that hold a wrong mark, on lines with and without one', () => {
    const name = fc.constantFrom('Mei Tanaka', 'Omar Haddad', 'Lin Qiu', '王伟', 'K. R. Rao', '');
    const nameSeparator = fc.constantFrom(', ', ',', '，', '、', '；', ';', ' ； ', ',  ');
    const institution = fc.constantFrom('Kyoto University（京都大学）', 'ExampleLab', 'Lab (X; Y)', 'Fudan University（复旦；大学）', '');
    const institutionSeparator = fc.constantFrom(' ； ', '；', ';', '; ', ' ;');
    const hit = fc.constantFrom('reasoning(abstract)', 'math reasoning(title)', 'x（title）', 'y', '');
    const hitSeparator = fc.constantFrom('；', ';', '; ', ' ； ');
    const joined = (part: fc.Arbitrary<string>, separator: fc.Arbitrary<string>) =>
      fc.array(fc.tuple(part, separator), { minLength: 1, maxLength: 5 }).map((pairs) => pairs.map(([p, s], i) => (i < pairs.length - 1 ? p + s : p)).join(''));
    const entry = fc.record({ authors: joined(name, nameSeparator), institutions: joined(institution, institutionSeparator), hits: joined(hit, hitSeparator) });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (entries) => {
        const text = digest(
          ...entries.map((e, i) =>
            entryLines(`P${i}`, { authors: e.authors || 'Mei Tanaka', institutions: `机构 * ${e.institutions} 纠错`, topicHits: `专题命中 数学推理 ：${e.hits}；分类 cs.LG` }),
          ),
        );
        const diagnostics = computeDiagnostics(parseDigest(text));
        const model = parseDigest(text);
        const fullWidth: Range[] = [];
        const halfWidth: Range[] = [];
        for (const each of model.entries) {
          if (each.authors) fullWidth.push(...separatorsWithMark(each.authors.separators, '，、；'));
          if (each.institutions) halfWidth.push(...separatorsWithMark(each.institutions.separators, ';'));
          if (each.topicHits) {
            // A topic hit's is reported at the mark itself.
            for (const separator of each.topicHits.separators) {
              const at = separator.text.indexOf(';');
              if (at >= 0) {
                const start = { line: separator.range.start.line, character: separator.range.start.character + at };
                halfWidth.push({ start, end: { line: start.line, character: start.character + 1 } });
              }
            }
          }
        }
        const lines = new Set(model.entries.flatMap((e) => [e.authors?.line, e.institutions?.line, e.topicHits?.line]));
        const onLines = (code: DiagnosticCode, separatorsOnly: (d: DigestDiagnostic) => boolean) =>
          sorted(diagnostics.filter((d) => d.code === code && lines.has(d.range.start.line) && separatorsOnly(d)).map((d) => d.range));
        // Separator diagnostics carry one mark whose range is the diagnostic's own.
        const isSeparator = (d: DigestDiagnostic) => d.data.marks?.length === 1 && sameRange(d.data.marks[0].range, d.range);
        assert.deepEqual(onLines(DiagnosticCode.FullWidthPunctuation, isSeparator), sorted(fullWidth), text);
        assert.deepEqual(onLines(DiagnosticCode.HalfWidthPunctuation, (d) => isSeparator(d) && !/[：:]/.test(d.data.marks![0].expected) && d.data.marks![0].expected.trim() !== '、'), sorted(halfWidth), text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('entryNames: the keys of names seen before', () => {
  test('Should key every name as termKey does, however the names repeat in case and spacing', () => {
    const institution = fc.constantFrom('Kyoto University', 'KYOTO University', 'kyoto  university', 'Ｋｙｏｔｏ University', 'Tsinghua University', 'ExampleLab', 'EXAMPLELAB');
    const keyword = fc.constantFrom('reasoning', 'Reasoning', 'REASONING', 'math  reasoning', 'Math Reasoning', 'ｍａｔｈ');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(institution, { minLength: 1, maxLength: 3 }), fc.array(keyword, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 6 }), (entries) => {
        const text = digest(
          ...entries.map(([names, keywords], i) =>
            entryLines(`P${i}`, { institutions: `机构 * ${names.map((n) => `${n}（京都大学）`).join(' ； ')} 纠错`, topicHits: `专题命中 数学推理 ：${keywords.map((k) => `${k}(abstract)`).join('；')}；分类 cs.LG` }),
          ),
        );
        for (const entry of parseDigest(text).entries) {
          const names = entryNames(entry);
          assert.deepEqual(
            names.institutions.map((n) => [n.name, n.key]),
            entry.institutions!.items.map((item) => [item.name.text, termKey(item.name.text)]),
          );
          assert.deepEqual(
            names.keywords.map((k) => [k.text, k.key]),
            // A keyword written again in a paper's hits is one of its keywords once.
            [...new Set(entry.topicHits!.hits.map((hit) => hit.keyword.text))].map((text) => [text, termKey(text)]),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Which of the three reasons `notAnInstitutionName` gives, tried in order with no shortcut. */
function plainReason(name: string): string | undefined {
  if (/^\[[^\]]*\]$/.test(name)) return 'tag';
  if (isCategoryLike(name) && categoryIgnoringCase(name)) return 'category';
  if (name.length > 0 && !/[\p{L}]/u.test(name)) return 'no letter';
  return undefined;
}

describe('diagnostics: the shortcuts for names and brackets', () => {
  test('Should find an institution name not one exactly when the plain patterns do', () => {
    const unit = fc.oneof(fc.constantFrom(...'[]csAIL.-09 _（）a中·'), fc.string({ minLength: 1, maxLength: 1 }));
    const names = fc.oneof(fc.string({ unit, minLength: 1, maxLength: 10 }), fc.constantFrom('cs.AI', 'CS.lg', 'math.CO', 'q-bio.NC', 'cs', '[cs.AI]', '[]', '123', '-', 'Kyoto University', 'A.B.C', 'cs.AI-'));
    fc.assert(
      fc.property(names, (name) => {
        const reason = notAnInstitutionName(name);
        const kind = reason === undefined ? undefined : reason[0].includes('bracketed') ? 'tag' : reason[0].includes('arXiv category') ? 'category' : 'no letter';
        assert.equal(kind, plainReason(name), JSON.stringify(name));
      }),
      { numRuns: 3000 },
    );
  });

  test('Should report the wrong brackets of items and hits as the plain comparison of each bracket does', () => {
    const bracket = fc.constantFrom('(', ')', '（', '）', '');
    const item = fc.tuple(fc.constantFrom('Kyoto University', 'Lab', ''), bracket, fc.constantFrom('京都大学', 'x', ''), bracket);
    const hit = fc.tuple(fc.constantFrom('reasoning', 'x', ''), bracket, fc.constantFrom('title', 'abstract', ''), bracket);
    const joined = (parts: [string, string, string, string][], separator: string) => parts.map((p) => p.join('')).join(separator);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(item, { minLength: 1, maxLength: 3 }), fc.array(hit, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 3 }), (entries) => {
        const text = digest(...entries.map(([items, hits], i) => entryLines(`P${i}`, { institutions: `机构 * ${joined(items, ' ； ')} 纠错`, topicHits: `专题命中 数学推理 ：${joined(hits, '；')}；分类 cs.LG` })));
        const model = parseDigest(text);
        const expected: string[] = [];
        for (const entry of model.entries) {
          for (const each of entry.institutions?.items ?? []) {
            if (each.unbalanced !== 0 && each.unbalancedAt) continue;
            if (each.open && each.close && (each.open.text === '(' || each.close.text === ')')) expected.push(`half ${sorted([{ start: each.open.range.start, end: each.close.range.end }])}`);
          }
          for (const each of entry.topicHits?.hits ?? []) {
            if (each.open && each.close && (each.open.text === '（' || each.close.text === '）')) expected.push(`full ${sorted([{ start: each.open.range.start, end: each.close.range.end }])}`);
          }
        }
        const found = computeDiagnostics(parseDigest(text))
          .filter((d) => (d.code === DiagnosticCode.HalfWidthPunctuation && /[（）]/.test(d.data.marks?.[0].expected ?? '')) || (d.code === DiagnosticCode.FullWidthPunctuation && /[()]/.test(d.data.marks?.[0].expected ?? '')))
          .map((d) => `${d.code === DiagnosticCode.HalfWidthPunctuation ? 'half' : 'full'} ${sorted([d.range])}`);
        assert.deepEqual(found.sort(), expected.sort(), text);
      }),
      { numRuns: 300 },
    );
  });
});

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
