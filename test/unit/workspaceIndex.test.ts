import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseDigest } from '../../server/src/service/parser';
import { titleKey } from '../../server/src/service/features/entries';
import { IndexChange, PaperSummary, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';

const A = 'file:///w/a.digest';
const B = 'file:///w/b.digest';

/** The titles of a file's papers, in order. */
function titles(index: WorkspaceIndex, uri: string): string[] | undefined {
  return index.file(uri)?.papers.map((paper) => paper.title);
}

/** Every member of a paper's summary, as a plain object. */
function plainPaper(paper: PaperSummary): Record<string, unknown> & { range?: unknown; selectionRange?: unknown } {
  const keys: (keyof PaperSummary)[] = ['uri', 'entryIndex', 'key', 'range', 'selectionRange', 'englishTitle', 'title', 'chineseTitle', 'titleKey', 'authors', 'institutions', 'topic', 'keywords', 'categories', 'summary', 'hits', 'authorsZh', 'comments', 'journalRef', 'searchNarrow', 'searchWide'];
  return Object.fromEntries(keys.map((key) => [key, paper[key]]));
}

describe('workspaceIndex: what it keeps of a paper', () => {
  test('Should keep titles, authors, institutions, topic, keywords, categories and summary', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A')));
    const [paper] = index.file(A)!.papers;
    assert.equal(paper.uri, A);
    assert.equal(paper.entryIndex, 0);
    assert.equal(paper.title, 'A Sparse Probes for Arithmetic Circuits');
    assert.equal(paper.englishTitle, 'A Sparse Probes for Arithmetic Circuits');
    assert.equal(paper.chineseTitle, 'A 算术电路的稀疏探针');
    assert.deepEqual(paper.authors, ['Mei Tanaka', 'Omar Haddad', 'Lin Qiu']);
    assert.deepEqual(paper.institutions, [
      { name: 'Kyoto University', translation: '京都大学' },
      { name: 'Tsinghua University', translation: '清华大学' },
      { name: 'ExampleLab' },
    ]);
    assert.equal(paper.topic, '数学推理');
    assert.deepEqual(paper.keywords, ['reasoning', 'math reasoning']);
    assert.deepEqual(paper.categories, ['cs.LG', 'cs.CL']);
    assert.equal(paper.summary, '本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。');
    assert.equal(index.file(A)!.heading, '大模型推理能力');
  });

  test('Should give the entry range and the English title as selection range', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A'), entryLines('B')));
    const second = index.file(A)!.papers[1];
    // Heading on line 0, each full entry takes 8 paragraphs (16 lines with the blank ones).
    assert.deepEqual(second.selectionRange, { start: { line: 18, character: 0 }, end: { line: 18, character: 'B Sparse Probes for Arithmetic Circuits'.length } });
    assert.equal(second.range.start.line, 18);
    assert.equal(second.range.end.line, 32);
  });

  test('Should name a paper without English title by its Chinese title and leave its title key empty', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A', { englishTitle: null })));
    const [paper] = index.file(A)!.papers;
    assert.equal(paper.title, 'A 算术电路的稀疏探针');
    assert.equal(paper.englishTitle, '');
    assert.equal(paper.titleKey, '');
    assert.deepEqual(index.duplicatesOf(''), []);
  });

  test('Should leave institutions empty when the 机构 line lists authors', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A', { institutions: '机构 * Mei Tanaka, Omar Haddad（田中芽衣、奥马尔）' })));
    assert.deepEqual(index.file(A)!.papers[0].institutions, []);
  });

  test('Should accept a parsed model without parsing again', () => {
    let parses = 0;
    const index = new WorkspaceIndex((text) => {
      parses++;
      return parseDigest(text);
    });
    index.update(A, parseDigest(digest(entryLines('A'))));
    index.updateOpen(B, parseDigest(digest(entryLines('B'))));
    assert.equal(parses, 0);
    index.update(A, digest(entryLines('C')));
    assert.equal(parses, 1);
    assert.deepEqual(titles(index, A), ['C Sparse Probes for Arithmetic Circuits']);
  });
});

describe('workspaceIndex: file changes', () => {
  test('Should replace the papers of a file when it changes and count papers across files', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A'), entryLines('B')));
    index.update(B, digest(entryLines('C')));
    assert.equal(index.paperCount, 3);
    const before = index.generation;
    index.update(A, digest(entryLines('D')));
    assert.ok(index.generation > before);
    assert.equal(index.paperCount, 2);
    assert.deepEqual(titles(index, A), ['D Sparse Probes for Arithmetic Circuits']);
    assert.deepEqual(index.files().map((file) => file.uri), [A, B]);
  });

  test('Should forget a removed file, and every file under a removed folder but not its namesakes', () => {
    const index = new WorkspaceIndex();
    index.update('file:///w/sub/x.digest', digest(entryLines('X')));
    index.update('file:///w/sub/deeper/y.digest', digest(entryLines('Y')));
    index.update('file:///w/subway.digest', digest(entryLines('Z')));
    index.update(A, digest(entryLines('A')));
    index.remove(A);
    assert.equal(index.file(A), undefined);
    index.remove('file:///w/sub');
    assert.deepEqual(index.files().map((file) => file.uri), ['file:///w/subway.digest']);
    assert.equal(index.paperCount, 1);
  });

  test('Should move a renamed file with its paper keys, and every file of a renamed folder', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A')));
    index.update('file:///w/old/x.digest', digest(entryLines('X')));
    const key = index.file(A)!.papers[0].key;
    index.rename(A, B);
    assert.equal(index.file(A), undefined);
    assert.equal(index.file(B)!.papers[0].uri, B);
    assert.equal(index.file(B)!.papers[0].key, key);
    assert.deepEqual(index.duplicatesOf(titleKey('A Sparse Probes for Arithmetic Circuits')).map((l) => l.uri), [B]);
    index.rename('file:///w/old', 'file:///w/new');
    assert.deepEqual(index.files().map((file) => file.uri), [B, 'file:///w/new/x.digest']);
    assert.equal(index.paperCount, 2);
  });

  test('Should move a renamed file\'s papers with everything the index kept of them, ranges included', () => {
    const index = new WorkspaceIndex();
    const text = digest(entryLines('A'), entryLines('B'));
    index.update(A, text);
    const before = index.file(A)!.papers.map(plainPaper);
    index.rename(A, B);
    const after = index.file(B)!.papers.map(plainPaper);
    assert.deepEqual(
      after,
      before.map((paper) => ({ ...paper, uri: B })),
    );
    const second = parseDigest(text).entries[1];
    assert.deepEqual(after[1].range, second.range);
    assert.deepEqual(after[1].selectionRange, second.englishTitle!.value.range);
  });

  test('Should keep paper keys when a paper is inserted before them', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A'), entryLines('B')));
    const keyOfB = index.file(A)!.papers[1].key;
    index.update(A, digest(entryLines('N'), entryLines('A'), entryLines('B')));
    assert.equal(index.file(A)!.papers[2].key, keyOfB);
    assert.equal(index.file(A)!.papers[2].entryIndex, 2);
  });

  test('Should tell listeners the changed files and the other files whose duplicates changed', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A')));
    index.update('file:///w/c.digest', digest(entryLines('C')));
    const changes: IndexChange[] = [];
    const listener = index.onDidChange((change) => changes.push(change));
    index.update(B, digest(entryLines('A')));
    assert.equal(changes.length, 1);
    assert.deepEqual(changes[0].uris, [B]);
    assert.deepEqual(changes[0].affectedUris, [A]);
    assert.equal(changes[0].generation, index.generation);
    index.remove(B);
    assert.deepEqual(changes[1].affectedUris, [A]);
    listener.dispose();
    index.remove(A);
    assert.equal(changes.length, 2);
  });
});

describe('workspaceIndex: open documents', () => {
  test('Should let an open document override the disk until it is closed', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('Disk')));
    index.updateOpen(A, digest(entryLines('Open')));
    assert.deepEqual(titles(index, A), ['Open Sparse Probes for Arithmetic Circuits']);
    assert.equal(index.file(A)!.source, 'open');
    // The file saved by another program changes the disk content, not what is shown.
    index.update(A, digest(entryLines('Saved')));
    assert.deepEqual(titles(index, A), ['Open Sparse Probes for Arithmetic Circuits']);
    index.closeOpen(A);
    assert.deepEqual(titles(index, A), ['Saved Sparse Probes for Arithmetic Circuits']);
    assert.equal(index.file(A)!.source, 'disk');
    assert.equal(index.paperCount, 1);
  });

  test('Should keep an open document whose file is deleted until it is closed', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A')));
    index.updateOpen(A, digest(entryLines('A')));
    index.remove(A);
    assert.deepEqual(titles(index, A), ['A Sparse Probes for Arithmetic Circuits']);
    index.closeOpen(A);
    assert.equal(index.file(A), undefined);
    assert.equal(index.paperCount, 0);
  });

  test('Should index an open document that is not on disk only while it is open', () => {
    const index = new WorkspaceIndex();
    index.updateOpen('untitled:Untitled-1', digest(entryLines('U')));
    assert.equal(index.paperCount, 1);
    index.closeOpen('untitled:Untitled-1');
    assert.equal(index.paperCount, 0);
    assert.deepEqual(index.files(), []);
  });
});

describe('workspaceIndex: duplicates', () => {
  test('Should find the same title in other files, ignoring case and white space', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A'), entryLines('B')));
    index.update(B, digest(entryLines('X', { englishTitle: '  b  SPARSE probes for arithmetic\tcircuits ' })));
    const key = titleKey('B Sparse Probes for Arithmetic Circuits');
    const inB = index.duplicatesOf(key, A);
    assert.equal(inB.length, 1);
    assert.equal(inB[0].uri, B);
    assert.equal(inB[0].range.start.line, 2);
    assert.equal(inB[0].range.start.character, 2);
    assert.deepEqual(index.duplicatesOf(key, B).map((l) => [l.uri, l.range.start.line]), [[A, 18]]);
    assert.deepEqual(index.duplicatesOf(titleKey('A Sparse Probes for Arithmetic Circuits'), A), []);
  });

  test('Should list every occurrence, sorted by file and line, when no file is excepted', () => {
    const index = new WorkspaceIndex();
    index.update(B, digest(entryLines('A')));
    index.update(A, digest(entryLines('A'), entryLines('A')));
    const all = index.duplicatesOf(titleKey('A Sparse Probes for Arithmetic Circuits'));
    assert.deepEqual(all.map((l) => [l.uri, l.range.start.line]), [[A, 2], [A, 18], [B, 2]]);
  });

  test('Should stop reporting a duplicate once one copy is edited away', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A')));
    index.update(B, digest(entryLines('A')));
    index.updateOpen(B, digest(entryLines('Renamed')));
    assert.deepEqual(index.duplicatesOf(titleKey('A Sparse Probes for Arithmetic Circuits'), A), []);
    index.closeOpen(B);
    assert.equal(index.duplicatesOf(titleKey('A Sparse Probes for Arithmetic Circuits'), A).length, 1);
  });

  test('Should normalise titles with one shared function', () => {
    assert.equal(titleKey('  Sparse  Probes\u00a0for ARITHMETIC Circuits '), 'sparse probes for arithmetic circuits');
    assert.equal(titleKey('ＧＰＴ Probes'), 'gpt probes');
    assert.notEqual(titleKey('Sparse Probes'), titleKey('Sparse Probe'));
  });
});

describe('workspaceIndex: paperAt', () => {
  test('Should find the paper whose entry contains a position and nothing on the heading', () => {
    const index = new WorkspaceIndex();
    index.update(A, digest(entryLines('A'), entryLines('B'), entryLines('C')));
    assert.equal(index.paperAt(A, { line: 0, character: 0 }), undefined);
    assert.equal(index.paperAt(A, { line: 2, character: 5 })?.title, 'A Sparse Probes for Arithmetic Circuits');
    assert.equal(index.paperAt(A, { line: 25, character: 0 })?.title, 'B Sparse Probes for Arithmetic Circuits');
    assert.equal(index.paperAt(A, { line: 34, character: 0 })?.title, 'C Sparse Probes for Arithmetic Circuits');
    assert.equal(index.paperAt(B, { line: 2, character: 0 }), undefined);
  });
});

describe('workspaceIndex: repeated titles', () => {
  test('Should keep the title keys more than one paper has, as files change', () => {
    const index = new WorkspaceIndex();
    const key = titleKey('A Sparse Probes for Arithmetic Circuits');
    index.update('file:///w/a.digest', digest(entryLines('A'), entryLines('B')));
    assert.deepEqual([...index.repeatedTitleKeys()], []);
    index.update('file:///w/b.digest', digest(entryLines('A')));
    assert.deepEqual([...index.repeatedTitleKeys()], [key]);
    index.remove('file:///w/b.digest');
    assert.deepEqual([...index.repeatedTitleKeys()], []);
    // Twice in one file counts too.
    index.update('file:///w/a.digest', digest(entryLines('A'), entryLines('A')));
    assert.deepEqual([...index.repeatedTitleKeys()], [key]);
    index.update('file:///w/a.digest', digest(entryLines('A')));
    assert.deepEqual([...index.repeatedTitleKeys()], []);
  });
});
