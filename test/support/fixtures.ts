/**
 * Helpers for tests: fixture paths, inline documents and golden files.
 *
 * Golden files are compared as text; run the tests with `UPDATE_GOLDEN=1` to rewrite them, then
 * review the diff.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root (tests run from out/test/...). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** test/fixtures in the source tree. */
export const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');

/** Reads a fixture as text, e.g. `readFixture('parser/well-formed.digest')`. */
export function readFixture(relative: string): string {
  return fs.readFileSync(path.join(FIXTURES, relative), 'utf8');
}

/** Joins lines into a document, each paragraph separated by a blank line. */
export function paragraphs(...lines: string[]): string {
  return lines.join('\n\n') + '\n';
}

/**
 * A complete, well-formed entry; `overrides` replaces fields by name, `null` drops a field.
 *
 * @example
 * entryLines('A', { authors: null }) // the entry without its authors paragraph
 */
export function entryLines(tag: string, overrides: Partial<Record<EntryFieldName, string | null>> = {}): string[] {
  const fields: Record<EntryFieldName, string> = {
    englishTitle: `${tag} Sparse Probes for Arithmetic Circuits`,
    chineseTitle: `${tag} 算术电路的稀疏探针`,
    authors: 'Mei Tanaka, Omar Haddad, Lin Qiu',
    institutions: '机构 * Kyoto University（京都大学） ； Tsinghua University（清华大学） ； ExampleLab 纠错',
    topicHits: '专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 cs.LG、cs.CL',
    summary: 'AI总结 本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。',
    comments: 'Comments 12 pages, 4 figures. Code: https://example.org/probes',
    journalRef: 'Journal ref Proceedings of an Example Conference, 2026, pp. 1-12',
  };
  const order: EntryFieldName[] = ['englishTitle', 'chineseTitle', 'authors', 'institutions', 'topicHits', 'summary', 'comments', 'journalRef'];
  const result: string[] = [];
  for (const name of order) {
    const value = name in overrides ? overrides[name] : fields[name];
    if (value !== null && value !== undefined) {
      result.push(value);
    }
  }
  return result;
}

export type EntryFieldName = 'englishTitle' | 'chineseTitle' | 'authors' | 'institutions' | 'topicHits' | 'summary' | 'comments' | 'journalRef';

/** A digest with the heading `大模型推理能力` and the given entries. */
export function digest(...entries: string[][]): string {
  return paragraphs('大模型推理能力', ...entries.flat());
}

/**
 * Compares `actual` with the golden file `relative` under test/fixtures, or rewrites the file
 * when `UPDATE_GOLDEN=1`.
 */
export function assertGolden(relative: string, actual: string): void {
  const file = path.join(FIXTURES, relative);
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  assert.ok(fs.existsSync(file), `golden file ${relative} is missing; run with UPDATE_GOLDEN=1 to create it`);
  assert.equal(actual, fs.readFileSync(file, 'utf8'), `output differs from ${relative}; run with UPDATE_GOLDEN=1 to update it and review the diff`);
}

/**
 * A digest of `papers` papers, each with a hits line of 3,000 half-width `;` (3,000 problems a
 * paper, about 2 KB of text each): more problems than fix-all works on, within every limit of
 * what is read.
 */
export function manyProblems(papers: number): string {
  const hits = '专题命中 数学推理 ：' + 'a;'.repeat(3000) + '；分类 cs.LG';
  const entry = (i: number): string => `Paper ${i}\n\n论文 ${i}\n\nA B\n\n${hits}\n\nAI总结 总结`;
  return ['主题', ...Array.from({ length: papers }, (_, i) => entry(i))].join('\n\n') + '\n';
}
