/**
 * `paper-digest check` over a folder finds the consistency problems across its files, and
 * `--fix` settles those with a clear majority.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { digest, entryLines, REPO_ROOT } from '../support/fixtures';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const fudan = (tag: string, translation: string) => entryLines(tag, { institutions: `机构 * Fudan University（${translation}） 纠错` });

describe('cli: consistency across the files of a folder', () => {
  let folder: string;

  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-cli-consistency-'));
    fs.writeFileSync(path.join(folder, 'a.digest'), digest(fudan('A', '复旦大学'), fudan('B', '复旦大学')));
    fs.writeFileSync(path.join(folder, 'b.digest'), digest(fudan('C', '复旦'), entryLines('D', { institutions: '机构 * Wei Zhang, Lin Qiu（张卫、邱林） 纠错' })));
    fs.writeFileSync(path.join(folder, 'c.digest'), digest(entryLines('E', { institutions: '机构 * Wei Zhang, Lin Qiu（张伟、邱林） 纠错' }), entryLines('F', { institutions: '机构 * Wei Zhang, Lin Qiu（张伟、邱林） 纠错' })));
  });

  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  test('Should report a translation and an author name that differ from the other files\u2019', () => {
    const result = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: folder, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stdout.split('\n').filter((line) => line.includes('inconsistent-'));
    assert.deepEqual(lines.map((line) => line.split(' ').slice(0, 3).join(' ')), ['b.digest:9:23: information inconsistent-translation', 'b.digest:25:25: information inconsistent-author-name']);
  });

  test('Should settle them with --fix where the other files agree by a clear majority', () => {
    const result = spawnSync(process.execPath, [CLI, 'check', '--fix', '.'], { cwd: folder, encoding: 'utf8' });
    assert.doesNotMatch(result.stdout, /inconsistent-/);
    const fixed = fs.readFileSync(path.join(folder, 'b.digest'), 'utf8');
    assert.match(fixed, /Fudan University（复旦大学）/);
    assert.match(fixed, /Wei Zhang, Lin Qiu（张伟、邱林）/);
  });

  test('Should not count the names of a file too large to check against the others', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-cli-consistency-big-'));
    try {
      // One line of 5,000 items, past the line length limit: the file gets document-too-large only.
      const line = '机构 * ' + 'X University（甲大学） ； '.repeat(5000) + '纠错';
      fs.writeFileSync(path.join(other, 'big.digest'), digest(entryLines('Big', { institutions: line })));
      const small = digest(entryLines('Small', { institutions: '机构 * X University（乙大学） 纠错' }));
      fs.writeFileSync(path.join(other, 'small.digest'), small);
      // And a paper of it is no duplicate of another file's.
      fs.writeFileSync(path.join(other, 'copy.digest'), digest(entryLines('Big')));
      const checked = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: other, encoding: 'utf8' });
      assert.match(checked.stdout, /document-too-large/);
      assert.doesNotMatch(checked.stdout, /inconsistent-translation/);
      assert.doesNotMatch(checked.stdout, /duplicate-paper/);
      spawnSync(process.execPath, [CLI, 'check', '--fix', '.'], { cwd: other, encoding: 'utf8' });
      assert.equal(fs.readFileSync(path.join(other, 'small.digest'), 'utf8'), small);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
