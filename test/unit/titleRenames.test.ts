/**
 * A title corrected in a digest keeps the paper's reading state: the rename of a key between
 * two versions of a file (`titleRenames`) and the state carried by the reading service.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { titleRenames } from '../../server/src/service/reading/titleRenames';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import type { PaperSummary } from '../../server/src/service/workspaceIndex';
import { ReadingService } from '../../server/src/reading';
import { digest, entryLines } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';

const temp = temporaryFolders();

/** The papers of a digest of these entries, as the index has them. */
function papersOf(...entries: string[][]): readonly PaperSummary[] {
  const index = new WorkspaceIndex();
  index.update('file:///w/2026-05-01.digest', digest(...entries));
  return index.file('file:///w/2026-05-01.digest')!.papers;
}

/** The index of these digest files and the reading service of their folder, its state read. */
async function readingOf(folder: string, files: readonly string[]): Promise<{ index: WorkspaceIndex; service: ReadingService }> {
  const index = new WorkspaceIndex();
  for (const file of files) index.update(pathToFileURL(file).toString(), fs.readFileSync(file, 'utf8'));
  const service = new ReadingService(index, { folders: () => [pathToFileURL(folder).toString()], mtimeOf: () => undefined, configuration: async () => undefined, notify: () => undefined, log: () => undefined });
  await service.ready();
  return { index, service };
}

const TYPO = { englishTitle: 'Retrival-Augmented Theorem Provng', chineseTitle: '检索增强的定理证明', authors: 'Mei Tanaka, Lin Qiu', summary: 'AI总结 用检索增强定理证明。' };
const FIXED = { ...TYPO, englishTitle: 'Retrieval-Augmented Theorem Proving' };

describe('Titles corrected in a file', () => {
  test('Should pair a paper whose title changed with its old key when its authors and Chinese title or summary are the same', () => {
    assert.deepEqual(titleRenames(papersOf(entryLines('A'), entryLines('T', TYPO)), papersOf(entryLines('A'), entryLines('T', FIXED))), [
      { from: 'retrival-augmented theorem provng', to: 'retrieval-augmented theorem proving', title: 'Retrieval-Augmented Theorem Proving' },
    ]);
    // With a paper added and another removed in the same edit.
    assert.deepEqual(
      titleRenames(papersOf(entryLines('A'), entryLines('T', TYPO), entryLines('B')), papersOf(entryLines('T', { ...FIXED, summary: 'AI总结 改写过的总结。' }), entryLines('C'))).map((rename) => rename.to),
      ['retrieval-augmented theorem proving'],
    );
    // A Chinese-only paper given an English title.
    const zhOnly = { ...TYPO, englishTitle: null };
    assert.deepEqual(titleRenames(papersOf(entryLines('Z', zhOnly)), papersOf(entryLines('Z', FIXED))).map((rename) => [rename.from, rename.to]), [['zh:检索增强的定理证明', 'retrieval-augmented theorem proving']]);
  });

  test('Should not pair another paper of the same authors, papers that cannot be told apart, or an unchanged file', () => {
    // The next day's digest written over the file: the same authors, another paper.
    const other = { ...FIXED, englishTitle: 'Sparse Provers', chineseTitle: '稀疏证明器', summary: 'AI总结 另一篇论文。' };
    assert.deepEqual(titleRenames(papersOf(entryLines('T', TYPO)), papersOf(entryLines('T', other))), []);
    // Two papers gone and two come with the same authors and summary: which is which is unknown.
    const twin = { ...TYPO, englishTitle: 'Retrival Twin', chineseTitle: '' };
    const twinFixed = { ...twin, englishTitle: 'Retrieval Twin' };
    const noChinese = { ...TYPO, chineseTitle: '' };
    assert.deepEqual(titleRenames(papersOf(entryLines('T', noChinese), entryLines('U', twin)), papersOf(entryLines('T', { ...noChinese, englishTitle: FIXED.englishTitle }), entryLines('U', twinFixed))), []);
    // No authors: nothing to tell a paper by.
    assert.deepEqual(titleRenames(papersOf(entryLines('T', { ...TYPO, authors: null })), papersOf(entryLines('T', { ...FIXED, authors: null }))), []);
    const same = papersOf(entryLines('A'), entryLines('T', TYPO));
    assert.deepEqual(titleRenames(same, papersOf(entryLines('A'), entryLines('T', { ...TYPO, summary: 'AI总结 改了一个字。' }))), []);
  });

  test('Should carry the star, tags and note of a corrected title to it in the state file, and clear the old title', async () => {
    const folder = temp.make('paper-digest-renames-');
    const file = path.join(folder, '2026-05-01.digest');
    const other = path.join(folder, '2026-05-02.digest');
    fs.writeFileSync(file, digest(entryLines('A'), entryLines('T', TYPO)));
    fs.writeFileSync(other, digest(entryLines('B')));
    const uri = pathToFileURL(file).toString();
    const { index, service } = await readingOf(folder, [file, other]);
    const typoKey = 'retrival-augmented theorem provng';
    await service.setPaperState({ scope: { keys: [typoKey] }, change: { starred: true, addTags: ['prove'], note: 'important' } });
    const stateFile = (): { papers: Record<string, { starred?: boolean; tags?: string[]; note?: string; title?: string }> } => JSON.parse(fs.readFileSync(path.join(folder, '.paper-digest', 'state.json'), 'utf8'));
    assert.equal(stateFile().papers[typoKey]?.starred, true);
    // The title corrected in the file, as an editor's save or another program writes it.
    fs.writeFileSync(file, digest(entryLines('A'), entryLines('T', FIXED)));
    index.update(uri, fs.readFileSync(file, 'utf8'));
    await service.carried();
    const papers = stateFile().papers;
    assert.deepEqual(papers['retrieval-augmented theorem proving'] && { starred: papers['retrieval-augmented theorem proving'].starred, tags: papers['retrieval-augmented theorem proving'].tags, note: papers['retrieval-augmented theorem proving'].note, title: papers['retrieval-augmented theorem proving'].title }, { starred: true, tags: ['prove'], note: 'important', title: 'Retrieval-Augmented Theorem Proving' });
    assert.equal(papers[typoKey], undefined, 'the old title no paper has: cleared');
    // Written back the other way, in a digest that also keeps a copy of the corrected title: the
    // state goes back, and stays under the title a paper still has.
    fs.writeFileSync(other, digest(entryLines('B'), entryLines('T', FIXED)));
    index.update(pathToFileURL(other).toString(), fs.readFileSync(other, 'utf8'));
    fs.writeFileSync(file, digest(entryLines('A'), entryLines('T', TYPO)));
    index.update(uri, fs.readFileSync(file, 'utf8'));
    await service.carried();
    const after = stateFile().papers;
    assert.equal(after[typoKey]?.starred, true);
    assert.equal(after['retrieval-augmented theorem proving']?.starred, true, 'another digest still has the corrected title');
  });

  test('Should carry the state back to a title whose only other fields are another tool\u2019s, as a typo is undone', async () => {
    const folder = temp.make('paper-digest-renames-extra-');
    const file = path.join(folder, '2026-05-01.digest');
    fs.writeFileSync(file, digest(entryLines('T', FIXED)));
    const fixedKey = 'retrieval-augmented theorem proving';
    const typoKey = 'retrival-augmented theorem provng';
    fs.mkdirSync(path.join(folder, '.paper-digest'));
    fs.writeFileSync(path.join(folder, '.paper-digest', 'state.json'), JSON.stringify({ version: 1, papers: { [fixedKey]: { title: FIXED.englishTitle, starred: true, tags: ['keep'], note: 'important', zotero: 'ABC', updated: '2026-01-01T00:00:00.000Z' } } }));
    const uri = pathToFileURL(file).toString();
    const { index, service } = await readingOf(folder, [file]);
    const papers = (): Record<string, Record<string, unknown>> => JSON.parse(fs.readFileSync(path.join(folder, '.paper-digest', 'state.json'), 'utf8')).papers;
    // A typo typed into the title (an open editor's text), then undone.
    index.update(uri, digest(entryLines('T', TYPO)));
    await service.carried();
    assert.deepEqual([papers()[typoKey]?.starred, papers()[fixedKey]?.starred, papers()[fixedKey]?.zotero], [true, undefined, 'ABC']);
    index.update(uri, digest(entryLines('T', FIXED)));
    await service.carried();
    const after = papers();
    assert.deepEqual(
      { starred: after[fixedKey]?.starred, tags: after[fixedKey]?.tags, note: after[fixedKey]?.note, zotero: after[fixedKey]?.zotero },
      { starred: true, tags: ['keep'], note: 'important', zotero: 'ABC' },
    );
    assert.equal(after[typoKey], undefined);
  });

  test('Should leave a corrected title with a state of its own as it is', async () => {
    const folder = temp.make('paper-digest-renames-own-');
    const file = path.join(folder, '2026-05-01.digest');
    const other = path.join(folder, '2026-05-02.digest');
    fs.writeFileSync(file, digest(entryLines('T', TYPO)));
    // The corrected title is another digest's paper already, read there.
    fs.writeFileSync(other, digest(entryLines('T', { ...FIXED, summary: 'AI总结 另一份总结。' })));
    const uri = pathToFileURL(file).toString();
    const { index, service } = await readingOf(folder, [file, other]);
    await service.setPaperState({ scope: { keys: ['retrival-augmented theorem provng'] }, change: { starred: true } });
    await service.setPaperState({ scope: { keys: ['retrieval-augmented theorem proving'] }, change: { read: true } });
    index.update(uri, digest(entryLines('T', FIXED)));
    await service.carried();
    const papers = JSON.parse(fs.readFileSync(path.join(folder, '.paper-digest', 'state.json'), 'utf8')).papers;
    assert.deepEqual([papers['retrieval-augmented theorem proving'].read, papers['retrieval-augmented theorem proving'].starred], [true, undefined]);
    assert.equal(papers['retrival-augmented theorem provng'].starred, true);
  });
});
