/**
 * `check --fix` over several files: fix-all of one file raises no problem in another (a bracket
 * closed in one file makes its translation count, and the majority of the workspace can change
 * sides), and the result does not hang on the order of the files in the case a review found.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import * as fc from 'fast-check';
import { runCli } from '../../server/src/cli';
import { digest, entryLines } from '../support/fixtures';

const roots: string[] = [];

function workspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-fix-across-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return root;
}

/** The problems `check` finds in each file of a folder, by file name. */
function problems(root: string): Record<string, string[]> {
  let stdout = '';
  runCli(['check', '--format', 'json', '--lang', 'en', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined }, root);
  const report = JSON.parse(stdout) as { files: { path: string; diagnostics: { code: string; line: number }[] }[] };
  return Object.fromEntries(report.files.map((file) => [file.path, file.diagnostics.map((d) => `${d.code}@${d.line}`)]));
}

function fix(root: string): void {
  runCli(['check', '--fix', '--lang', 'en', '.'], { stdout: () => undefined, stderr: () => undefined }, root);
}

/** A digest of papers at Kyoto University, each translating it as given (`京大` without `）` leaves the bracket open). */
function kyoto(tag: string, forms: readonly string[]): string {
  return digest(...forms.map((form, i) => entryLines(`${tag}${i}`, { institutions: `机构 * Tsinghua University（清华大学） ； Kyoto University（${form} 纠错` })));
}

after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

describe('check --fix across files', () => {
  test('Should leave a clean file clean and come to the same files whichever file is fixed first', () => {
    const files = { a: kyoto('A', ['京大', '京大']), b: kyoto('B', ['京都大学）', '京都大学）']), c: kyoto('C', ['京大）']) };
    const results = [['a', 'b', 'c'], ['0c', 'a', 'b']].map(([first, second, third]) => {
      const root = workspace({ [`${first}.digest`]: files[first.slice(-1) as 'a'], [`${second}.digest`]: files[second.slice(-1) as 'b'], [`${third}.digest`]: files[third.slice(-1) as 'c'] });
      fix(root);
      const found = problems(root);
      assert.deepEqual(found[`${first.includes('b') ? first : second.includes('b') ? second : third}.digest`], [], 'b.digest stays clean');
      return ['a', 'b', 'c'].map((name) => fs.readFileSync(path.join(root, fs.readdirSync(root).find((file) => file.endsWith(`${name}.digest`))!), 'utf8'));
    });
    assert.deepEqual(results[0], results[1]);
  });

  test('Should hold back only the fixes that change a name\u2019s forms, and make the others in the same entries', () => {
    // a's brackets, closed, would make b's translation the minority: held back. The category
    // code of a paper naming Kyoto University without a translation changes no form: fixed.
    const root = workspace({
      'a.digest': digest(
        ...['A1', 'A2', 'A3'].map((tag) => entryLines(tag, { institutions: '机构 * Kyoto University（京大 纠错' })),
        entryLines('A4', { institutions: '机构 * Kyoto University ； Tsinghua University（清华大学） 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg' }),
      ),
      'b.digest': kyoto('B', ['京都大学）', '京都大学）']),
    });
    fix(root);
    const text = fs.readFileSync(path.join(root, 'a.digest'), 'utf8');
    assert.match(text, /分类 cs\.LG/);
    assert.equal((text.match(/（京大 纠错/g) ?? []).length, 3);
    assert.deepEqual(problems(root)['b.digest'], []);
  });

  test('Should not swap a paper\u2019s titles into the English title of another file\u2019s paper, which that file would then repeat', () => {
    // The earlier digest has the paper's titles in each other's place; the later one has it right.
    const swapped = entryLines('X', { englishTitle: '算术电路的稀疏探针', chineseTitle: 'Sparse Probes for Arithmetic Circuits' });
    const root = workspace({ '2026-01-01.digest': digest(swapped, entryLines('Y', { authors: 'Mei Tanaka，Omar Haddad' })), '2026-01-02.digest': digest(entryLines('', { englishTitle: 'Sparse Probes for Arithmetic Circuits', chineseTitle: '算术电路的稀疏探针' })) });
    const before = problems(root);
    fix(root);
    const afterFix = problems(root);
    assert.deepEqual(afterFix['2026-01-02.digest'], [], 'the later digest gets no duplicate-paper');
    assert.ok(afterFix['2026-01-01.digest'].length < before['2026-01-01.digest'].length, 'the other fixes of the file are made');
    assert.ok(afterFix['2026-01-01.digest'].every((problem) => problem.startsWith('swapped-titles')), JSON.stringify(afterFix));
  });

  test('Should end with no file holding more problems than it had, on random workspaces', () => {
    // Each file: papers translating it one way, the other way, or with the bracket left open
    // (closing it makes that translation count), one kind in a file or a mix; now and then a form
    // of another kind.
    const repeated = (form: string): fc.Arbitrary<string[]> => fc.integer({ min: 1, max: 3 }).map((count) => Array<string>(count).fill(form));
    const mixed = fc
      .record({ long: fc.nat(3), short: fc.nat(3), open: fc.nat(3), other: fc.constantFrom([], ['京都大学'], ['京都大学)'], ['京大） ；']) })
      .map(({ long, short, open, other }) => [...Array<string>(long).fill('京都大学）'), ...Array<string>(short).fill('京大）'), ...Array<string>(open).fill('京大'), ...other])
      .filter((forms) => forms.length > 0);
    const file = fc.oneof(repeated('京都大学）'), repeated('京大）'), repeated('京大'), mixed);
    fc.assert(
      fc.property(fc.array(file, { minLength: 2, maxLength: 4 }), (forms) => {
        const root = workspace(Object.fromEntries(forms.map((each, i) => [`${i}.digest`, kyoto(`F${i}x`, each)])));
        const before = problems(root);
        fix(root);
        const afterFix = problems(root);
        for (const [name, found] of Object.entries(before)) {
          assert.ok(afterFix[name].length <= found.length, `${name}: ${JSON.stringify(found)} → ${JSON.stringify(afterFix[name])}\n${forms.map((each) => each.join(' | ')).join('\n')}`);
        }
      }),
      { numRuns: Number(process.env.FIX_PROPERTY_RUNS ?? 150), seed: 20261207, includeErrorInReport: true },
    );
  });
});
