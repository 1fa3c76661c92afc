/**
 * Fix-all on a digest of more problems than it works on at once (`MAX_FIX_ALL_PROBLEMS`): within
 * every limit of what is read, a 6 MB digest of 6,000 problems a paper took the language server
 * and `check --fix` past 4 GB. It refuses the document, says so, and changes nothing; below the
 * limit it fixes as before; the quick fixes that need no check of the whole document are still
 * offered.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { codeActions, fixAll, fixAllRefused, MAX_FIX_ALL_PROBLEMS } from '../../server/src/service/features/codeActions';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { run } from '../support/builtCli';
import { manyProblems } from '../support/fixtures';

const folders: string[] = [];
after(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe('fix-all on a digest of too many problems', () => {
  const over = Math.ceil(MAX_FIX_ALL_PROBLEMS / 3000) + 1;

  test('Should refuse a document of more problems than the limit, and fix one below it', () => {
    const big = parseDigest(manyProblems(over));
    assert.deepEqual(fixAll(big), []);
    assert.equal(fixAllRefused(big), true);
    const small = parseDigest(manyProblems(3));
    const edits = fixAll(small);
    assert.ok(edits.length >= 3 * 3000, `${edits.length} edits`);
    assert.equal(fixAllRefused(small), false);
  });

  test('Should fix a document again once rules turned off bring it under the limit', () => {
    const big = parseDigest(manyProblems(over));
    assert.deepEqual(fixAll(big), []);
    assert.equal(fixAllRefused(big), true);
    const fewer = { rules: { 'half-width-punctuation': 'off', 'hit-missing-field': 'off' } } as const;
    const edits = fixAll(big, fewer);
    assert.equal(fixAllRefused(big), false, 'the refusal was of the options before');
    assert.ok(edits.length > 0, `${edits.length} edits under the fewer rules`);
  });

  test('Should still offer the quick fixes of a problem that need no check of the whole document', () => {
    const offered = (papers: number, code: string): string[] => {
      const doc = parseDigest(manyProblems(papers));
      const diagnostic = computeDiagnostics(doc, { maxDiagnostics: 3 }).find((each) => each.code === code)!;
      return codeActions(doc, { uri: 'file:///w/a.digest', version: 1 }, { range: diagnostic.range, diagnostics: [diagnostic] }).map((action) => action.title);
    };
    // `;` for `；`: a fix of one character, offered as it is.
    assert.ok(offered(over, 'half-width-punctuation').length > 0);
    // A hit without its field: a fix that changes what the line reads as, offered once shown to
    // raise no new problem, which takes every problem of the document before.
    assert.ok(offered(3, 'hit-missing-field').length > 0);
    assert.deepEqual(offered(over, 'hit-missing-field'), []);
  });

  test('Should say so on the command line, exit 2 and leave the file as it is', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-fix-bounds-'));
    folders.push(folder);
    const text = manyProblems(over);
    fs.writeFileSync(path.join(folder, 'big.digest'), text);
    const result = run(['check', '--fix', 'big.digest'], folder);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /^paper-digest: not fixed 'big\.digest': it has more than 150,000 problems, more than fixing all at once works on; it was left as it is$/m);
    assert.equal(fs.readFileSync(path.join(folder, 'big.digest'), 'utf8'), text);
    const chinese = run(['check', '--fix', '--lang', 'zh-cn', 'big.digest'], folder);
    assert.match(chinese.stderr, /未修复“big\.digest”：其中问题超过 150,000 个/);
  });
});

describe('quick fixes of a document of many problems', () => {
  test('Should check a bounded number of structural fixes per request, and more in the next request on the same version', () => {
    // One paper whose hits line is 30,000 `；`: 30,000 empty keywords, each with a structural fix.
    const text = `主题\n\nA Title\n\n中文标题\n\nA B, C D\n\n专题命中 数学推理 ：${'；'.repeat(30_000)}；分类 cs.AI\n\nAI总结 总结\n`;
    const doc = parseDigest(text);
    const range = { start: { line: 0, character: 0 }, end: { line: 12, character: 0 } };
    const ask = (): number => codeActions(doc, { uri: 'file:///w/a.digest', version: 1 }, { range, diagnostics: [] }).length;
    const first = ask();
    assert.ok(first > 0 && first < 64, `${first} fixes offered by the first request`);
    const second = ask();
    assert.ok(second > first, `${second} fixes offered by the second (the checks of the first kept)`);
    // A small selection of the same kind of problems gets every fix.
    const small = parseDigest(text.replace('；'.repeat(30_000), '；'.repeat(20)));
    assert.equal(codeActions(small, { uri: 'file:///w/b.digest', version: 1 }, { range, diagnostics: [] }).length, 21);
  });
});

