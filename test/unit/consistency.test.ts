import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { computeDiagnostics, DiagnosticCode, DiagnosticOptions, DigestDiagnostic } from '../../server/src/service/features/diagnostics';
import { fixAll, fixesFor } from '../../server/src/service/features/codeActions';
import { applyEdits } from '../../server/src/service/edits';
import { parseDigest } from '../../server/src/service/parser';
import type { Counts } from '../../server/src/service/terms';
import { digest, entryLines } from '../support/fixtures';

const TRANSLATION = DiagnosticCode.InconsistentTranslation;
const AUTHOR = DiagnosticCode.InconsistentAuthorName;

/** A digest with one entry per 机构 line. */
function withLines(...institutionLines: string[]): string {
  return digest(...institutionLines.map((line, i) => entryLines(`P${i}`, { institutions: line })));
}

/** Options whose other files use these translations of every institution. */
function elsewhere(translations: Record<string, Record<string, number>>, authors: Record<string, Record<string, number>> = {}): DiagnosticOptions {
  const lookup = (table: Record<string, Record<string, number>>) => (key: string): Counts | undefined => (table[key] ? new Map(Object.entries(table[key])) : undefined);
  return { translationsElsewhere: lookup(translations), authorFormsElsewhere: lookup(authors) };
}

function consistency(text: string, options: DiagnosticOptions = {}): DigestDiagnostic[] {
  return computeDiagnostics(parseDigest(text), options).filter((d) => d.code === TRANSLATION || d.code === AUTHOR);
}

function textAt(text: string, d: DigestDiagnostic): string {
  return text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character);
}

describe('consistency: inconsistent-translation', () => {
  test('Should report a translation that differs from the one the workspace uses most, at the translation', () => {
    const text = withLines('机构 * Fudan University（复旦） 纠错');
    const [d, ...rest] = consistency(text, elsewhere({ 'fudan university': { 复旦大学: 4 } }));
    assert.deepEqual(rest, []);
    assert.equal(d.code, TRANSLATION);
    assert.equal(textAt(text, d), '复旦');
    assert.deepEqual(d.data.suggestions, ['复旦大学']);
    assert.match(d.message, /'Fudan University' is translated '复旦' here and otherwise '复旦大学' \(4\)/);
  });

  test('Should compare names ignoring case and white space, and leave the most used translation alone', () => {
    const text = withLines('机构 * Fudan University（复旦大学） 纠错', '机构 * FUDAN  university（复旦） 纠错', '机构 * Fudan University（复旦大学） ； Kyoto University 纠错');
    const found = consistency(text);
    assert.deepEqual(found.map((d) => textAt(text, d)), ['复旦']);
  });

  test('Should report every place when two translations are used equally often', () => {
    const text = withLines('机构 * Fudan University（复旦大学） 纠错', '机构 * Fudan University（复旦） 纠错');
    assert.deepEqual(consistency(text).map((d) => textAt(text, d)), ['复旦大学', '复旦']);
  });

  test('Should offer the other translations that would be the most used, the most used first', () => {
    const text = withLines('机构 * Fudan University（复旦） 纠错');
    const [d] = consistency(text, elsewhere({ 'fudan university': { 复旦大学: 3, 复大: 1, 旦大: 3 } }));
    assert.deepEqual(d.data.suggestions, ['复旦大学', '旦大']);
    const fixes = fixesFor(parseDigest(text), d);
    assert.deepEqual(fixes.map((f) => f.title), ["Use '复旦大学' — 改为“复旦大学”", "Use '旦大' — 改为“旦大”"]);
    assert.ok(fixes.every((f) => !f.safe), 'no clear majority: fix-all leaves it');
  });

  test('Should let fix-all apply the translation of a clear majority only', () => {
    const text = withLines('机构 * Fudan University（复旦） 纠错', '机构 * Kyoto University（京大） 纠错');
    const options = elsewhere({ 'fudan university': { 复旦大学: 2 }, 'kyoto university': { 京都大学: 1 } });
    const fixed = applyEdits(text, fixAll(parseDigest(text), options));
    assert.match(fixed, /Fudan University（复旦大学）/);
    assert.match(fixed, /Kyoto University（京大）/);
    assert.deepEqual(consistency(fixed, options).map((d) => textAt(fixed, d)), ['京大']);
  });

  test('Should be switched off by its rule setting', () => {
    const text = withLines('机构 * Fudan University（复旦） 纠错');
    assert.deepEqual(consistency(text, { ...elsewhere({ 'fudan university': { 复旦大学: 4 } }), rules: { 'inconsistent-translation': 'off' } }), []);
  });
});

describe('consistency: inconsistent-author-name', () => {
  test('Should report an author\u2019s Chinese form that differs from the one used most, with its fix', () => {
    const text = withLines('机构 * Wei Zhang, Lin Qiu（张卫、邱林） 纠错');
    const [d] = consistency(text, elsewhere({}, { 'wei zhang': { 张伟: 2 } }));
    assert.equal(d.code, AUTHOR);
    assert.equal(textAt(text, d), '张卫');
    const [fix] = fixesFor(parseDigest(text), d);
    assert.ok(fix.safe);
    assert.match(applyEdits(text, fix.edits), /Wei Zhang, Lin Qiu（张伟、邱林）/);
  });
});

describe('consistency: a fix removes its problem and raises no new one', () => {
  const names = ['Fudan University', 'Kyoto University', 'Wei Zhang'];
  const forms = ['甲', '乙', '丙'];
  const place = fc.record({ name: fc.constantFrom(...names.slice(0, 2)), form: fc.constantFrom(...forms) });
  const line = fc.array(place, { minLength: 1, maxLength: 3 }).map((items) => `机构 * ${items.map((i) => `${i.name}（${i.form}）`).join(' ； ')} 纠错`);
  const authorLine = fc.array(fc.constantFrom(...forms), { minLength: 1, maxLength: 1 }).map(([form]) => `机构 * Wei Zhang, Lin Qiu（${form}、邱林） 纠错`);
  const counts = fc.dictionary(fc.constantFrom(...forms), fc.integer({ min: 0, max: 3 }));
  const workspace = fc.record({ fudan: counts, kyoto: counts, wei: counts });

  /** Where each consistency problem is: code, entry and item, as a multiset. */
  const places = (diagnostics: readonly DigestDiagnostic[]): string[] => diagnostics.map((d) => `${d.code}@${d.data.entry}:${d.data.item}`).sort();

  test('Should, for every fix of every consistency problem, leave the others and add none', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(line, authorLine), { minLength: 1, maxLength: 5 }), workspace, (lines, other) => {
        const text = withLines(...lines);
        const options = elsewhere({ 'fudan university': other.fudan, 'kyoto university': other.kyoto }, { 'wei zhang': other.wei });
        const doc = parseDigest(text);
        const before = consistency(text, options);
        for (const diagnostic of before) {
          for (const fix of fixesFor(doc, diagnostic)) {
            const after = places(consistency(applyEdits(text, fix.edits), options));
            const expected = places(before.filter((d) => d !== diagnostic));
            // Every remaining problem was there before (fixing one place may settle others too).
            for (const each of after) {
              const at = expected.indexOf(each);
              assert.ok(at >= 0, `${fix.title} on ${text} raised ${each}; before: ${expected.join(', ')}`);
              expected.splice(at, 1);
            }
            assert.ok(!after.includes(places([diagnostic])[0]) || places(before).filter((p) => p === places([diagnostic])[0]).length > 1, `${fix.title} left its problem`);
          }
        }
        const fixed = applyEdits(text, fixAll(doc, options));
        assert.ok(consistency(fixed, options).length <= before.length);
        assert.equal(applyEdits(fixed, fixAll(parseDigest(fixed), options)), fixed, 'fix-all twice changes nothing the second time');
      }),
      { numRuns: 300 },
    );
  });
});

describe('consistency: many forms of one name', () => {
  test('Should suggest what the plain rule does, the first five, for random counts here and elsewhere', () => {
    // Forms a..f used a random number of times in this digest and in the other files; the place's
    // suggestions are the forms (the most used first) that would be used more than every other
    // once the place used them, as the rule says it, cut to five; the message lists three.
    const form = fc.constantFrom('甲', '乙', '丙', '丁', '戊', '己', '庚');
    fc.assert(
      fc.property(fc.array(form, { minLength: 1, maxLength: 12 }), fc.dictionary(form, fc.integer({ min: 1, max: 4 })), (here, there) => {
        const text = withLines(...here.map((each) => `机构 * Fudan University（${each}） 纠错`));
        const counts = new Map<string, number>(Object.entries(there));
        for (const each of here) counts.set(each, (counts.get(each) ?? 0) + 1);
        // Most used first; equal counts in the order the rule ranks them (rankedCounts).
        const ranked = consistency(text, elsewhere({ 'fudan university': there }));
        for (const d of ranked) {
          const written = textAt(text, d);
          const expected = [...counts.keys()]
            .filter((candidate) => candidate !== written)
            .filter((candidate) => [...counts].every(([other, count]) => other === candidate || counts.get(candidate)! + 1 > (other === written ? count - 1 : count)));
          const top = expected.map((each) => counts.get(each)!).sort((a, b) => b - a).slice(0, 5);
          assert.deepEqual(d.data.suggestions!.map((each) => counts.get(each)!), top, 'the five most used of those that qualify');
          assert.ok(d.data.suggestions!.every((each) => expected.includes(each)), JSON.stringify({ here, there, written, got: d.data.suggestions, expected }));
          assert.equal(d.data.suggestions!.length, Math.min(5, expected.length));
          const counted = d.data.suggestions!.map((each) => counts.get(each)!);
          assert.deepEqual(counted, [...counted].sort((a, b) => b - a), 'the most used first');
        }
      }),
      { numRuns: 300 },
    );
  });

  test('Should give each place at most five fixes when a name is written in thousands of ways', () => {
    const forms = Array.from({ length: 2_000 }, (_, i) => `京都${String.fromCharCode(0x4e00 + i)}大学`);
    const text = withLines(...forms.map((each) => `机构 * Kyoto University（${each}） 纠错`));
    const found = consistency(text);
    // Every form used once: each place is reported, and each could be any other.
    assert.equal(found.length, forms.length);
    assert.ok(found.every((d) => d.data.suggestions!.length === 5), 'five suggestions a place');
    assert.equal(fixesFor(parseDigest(text), found[0]).length, 5);
    assert.match(found[0].message, /otherwise '京都丁大学' \(1\), '京都丂大学' \(1\), '京都七大学' \(1\) in the workspace \(2000 uses\)/);
  });
});
