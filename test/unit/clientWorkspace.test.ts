/**
 * The workspace index of the web worker server, fed through a `DigestFileSource` (the client's
 * findFiles and workspace.fs): scan, skipped files, file events, folder changes, reads overtaken
 * by newer events, open documents.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { ClientWorkspaceDigests, DigestFileSource } from '../../server/src/clientWorkspace';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import type { FileReadProblem, ReadDigestFile } from '../../server/src/workspaceFilesProtocol';
import { digest, entryLines } from '../support/fixtures';
import { logText } from '../../server/src/service/cliMessages';

const ROOT = 'vscode-vfs://github/me/papers';

/** A virtual file system: texts, or the problem a file has; reads can be held back. */
class FakeSource implements DigestFileSource {
  readonly files = new Map<string, string | FileReadProblem>();
  readonly reads: string[][] = [];
  readonly finds: string[] = [];
  private held: (() => void)[] | undefined;

  async findDigestFiles(folder: string, maxResults: number): Promise<readonly string[]> {
    this.finds.push(folder);
    return [...this.files.keys()].filter((uri) => uri.startsWith(folder + '/')).slice(0, maxResults);
  }

  async readDigestFiles(uris: readonly string[]): Promise<readonly ReadDigestFile[]> {
    this.reads.push([...uris]);
    const answer = uris.map((uri): ReadDigestFile => {
      const file = this.files.get(uri);
      return file === undefined ? { uri, problem: 'missing' } : file.startsWith('大') ? { uri, text: file, mtime: 5 } : { uri, problem: file as FileReadProblem };
    });
    if (this.held) {
      await new Promise<void>((resolve) => this.held!.push(resolve));
    }
    return answer;
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    held.forEach((resolve) => resolve());
  }
}

function setUp(): { source: FakeSource; index: WorkspaceIndex; files: ClientWorkspaceDigests; log: string[] } {
  const source = new FakeSource();
  const index = new WorkspaceIndex();
  const log: string[] = [];
  const files = new ClientWorkspaceDigests(index, source, { documentDelay: 0, log: (message) => log.push(logText(message, 'en')) });
  return { source, index, files, log };
}

const indexed = (index: WorkspaceIndex): string[] => index.files().map((file) => file.uri).sort();

describe('The client-backed workspace index', () => {
  test('Should index the digest files the client finds and read, and say which it skipped', async () => {
    const { source, index, files, log } = setUp();
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    source.files.set(`${ROOT}/deep/b.digest.txt`, digest(entryLines('B'), entryLines('C')));
    source.files.set(`${ROOT}/link.digest`, 'link');
    source.files.set(`${ROOT}/huge.digest`, 'too-big');
    source.files.set(`${ROOT}/notes.txt`, digest(entryLines('N')));
    await files.setFolders([ROOT + '/']);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`, `${ROOT}/deep/b.digest.txt`]);
    assert.equal(index.paperCount, 3);
    assert.equal(files.mtimeOf(`${ROOT}/a.digest`), 5);
    assert.match(log.at(-1) ?? '', /indexed 2 digest files \(3 papers\).*skipped 2: .*1 too big.*1 symbolic link \(never followed\)/);
    // The folder removed: nothing read, no line.
    const lines = log.length;
    await files.changeFolders([], [ROOT + '/']);
    assert.deepEqual(indexed(index), []);
    assert.equal(log.length, lines, log.slice(lines).join('\n'));
  });

  test('Should follow file events: created, changed, a deleted folder, a folder moved in', async () => {
    const { source, index, files } = setUp();
    source.files.set(`${ROOT}/old/a.digest`, digest(entryLines('A')));
    await files.setFolders([ROOT]);
    source.files.set(`${ROOT}/new.digest`, digest(entryLines('B'), entryLines('C')));
    await files.filesChanged([{ uri: `${ROOT}/new.digest`, type: FileChangeType.Created }]);
    assert.equal(index.paperCount, 3);
    source.files.delete(`${ROOT}/old/a.digest`);
    await files.filesChanged([{ uri: `${ROOT}/old`, type: FileChangeType.Deleted }]);
    assert.deepEqual(indexed(index), [`${ROOT}/new.digest`]);
    source.files.set(`${ROOT}/moved/in.digest`, digest(entryLines('D')));
    await files.filesChanged([{ uri: `${ROOT}/moved`, type: FileChangeType.Created }]);
    assert.deepEqual(indexed(index), [`${ROOT}/moved/in.digest`, `${ROOT}/new.digest`]);
    // Outside the workspace folders: nothing is asked.
    const reads = source.reads.length;
    await files.filesChanged([{ uri: 'vscode-vfs://github/other/x.digest', type: FileChangeType.Created }]);
    assert.equal(source.reads.length, reads);
    // A state or interests file made by the reading workflow: no folder to search.
    const finds = source.finds.length;
    await files.filesChanged([
      { uri: `${ROOT}/.paper-digest/state.json`, type: FileChangeType.Created },
      { uri: `${ROOT}/sub/.paper-digest/interests.json`, type: FileChangeType.Created },
    ]);
    assert.deepEqual(source.finds.slice(finds), []);
    await files.filesChanged([{ uri: `${ROOT}/moved`, type: FileChangeType.Created }]);
    assert.deepEqual(source.finds.slice(finds), [`${ROOT}/moved`], 'a folder moved in is searched');
  });

  test('Should index nothing an event tells in node_modules or .git, read each event once, and keep a folder given twice when removed once', async () => {
    const { source, index, files } = setUp();
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    await files.setFolders([ROOT, ROOT]);
    // Written after the scan (the client's search leaves node_modules out), told by an event.
    source.files.set(`${ROOT}/node_modules/p/b.digest`, digest(entryLines('B')));
    const reads = source.reads.length;
    await files.filesChanged([
      { uri: `${ROOT}/node_modules/p/b.digest`, type: FileChangeType.Created },
      { uri: `${ROOT}/.git/x`, type: FileChangeType.Created },
      { uri: `${ROOT}/a.digest`, type: FileChangeType.Changed },
      { uri: `${ROOT}/a.digest`, type: FileChangeType.Changed },
    ]);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`]);
    assert.deepEqual(source.reads.slice(reads), [[`${ROOT}/a.digest`]], 'read once');
    await files.changeFolders([], [ROOT]);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`]);
    // A tree created folder by folder, told in two batches: searched once, from its outermost folder.
    source.files.set(`${ROOT}/env/lib/d.digest`, digest(entryLines('D')));
    const finds = source.finds.length;
    await Promise.all([files.filesChanged([{ uri: `${ROOT}/env`, type: FileChangeType.Created }]), files.filesChanged([{ uri: `${ROOT}/env/lib`, type: FileChangeType.Created }])]);
    assert.deepEqual(source.finds.slice(finds), [`${ROOT}/env`]);
    assert.ok(indexed(index).includes(`${ROOT}/env/lib/d.digest`));
    // Created, deleted and created again: there.
    source.files.set(`${ROOT}/c.digest`, digest(entryLines('C')));
    await files.filesChanged([
      { uri: `${ROOT}/c.digest`, type: FileChangeType.Created },
      { uri: `${ROOT}/c.digest`, type: FileChangeType.Deleted },
      { uri: `${ROOT}/c.digest`, type: FileChangeType.Created },
    ]);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`, `${ROOT}/c.digest`, `${ROOT}/env/lib/d.digest`]);
  });

  test('Should drop the reads under way of a folder deleted meanwhile', async () => {
    const { source, index, files } = setUp();
    await files.setFolders([ROOT]);
    source.files.set(`${ROOT}/env/x.digest`, digest(entryLines('X')));
    source.hold();
    const created = files.filesChanged([{ uri: `${ROOT}/env`, type: FileChangeType.Created }]);
    // Until the folder's file is being read (held).
    while (!source.reads.some((batch) => batch.includes(`${ROOT}/env/x.digest`))) await new Promise((resolve) => setImmediate(resolve));
    source.files.delete(`${ROOT}/env/x.digest`);
    const deleted = files.filesChanged([{ uri: `${ROOT}/env`, type: FileChangeType.Deleted }]);
    source.release();
    await Promise.all([created, deleted]);
    assert.deepEqual(indexed(index), []);
  });

  test('Should keep what file events read while a rescan runs', async () => {
    const { source, index, files } = setUp();
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    await files.setFolders([ROOT]);
    // The rescan's read is held; a digest written meanwhile comes by its event.
    source.hold();
    const rescan = files.rescan();
    await new Promise((resolve) => setImmediate(resolve));
    source.files.set(`${ROOT}/b.digest`, digest(entryLines('B')));
    const event = files.filesChanged([{ uri: `${ROOT}/b.digest`, type: FileChangeType.Created }]);
    await new Promise((resolve) => setImmediate(resolve));
    source.release();
    await Promise.all([rescan, event]);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`, `${ROOT}/b.digest`]);
  });

  test('Should not read a folder removed before its scan, and read a folder an event finds with no folder open', async () => {
    const { source, index, files } = setUp();
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    await files.setFolders([]);
    const adding = files.changeFolders([ROOT], []);
    await files.changeFolders([], [ROOT]);
    await adding;
    await files.ready;
    assert.deepEqual(indexed(index), [], 'removed before its scan began');
    // With no workspace folder open, any file is in the workspace: a folder an event finds is read.
    source.files.set(`${ROOT}/moved/in.digest`, digest(entryLines('D')));
    await files.filesChanged([{ uri: `${ROOT}/moved`, type: FileChangeType.Created }]);
    assert.deepEqual(indexed(index), [`${ROOT}/moved/in.digest`]);
  });

  test('Should read nothing of the last folder removed while the client lists or reads its files', async () => {
    // Removed while the client lists the files.
    const listing = setUp();
    listing.source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    const find = listing.source.findDigestFiles.bind(listing.source);
    listing.source.findDigestFiles = async (folder, max) => {
      void listing.files.changeFolders([], [ROOT]);
      return find(folder, max);
    };
    await listing.files.setFolders([ROOT]);
    await listing.files.ready;
    assert.deepEqual(indexed(listing.index), []);
    // Removed while a batch is read: that batch is dropped, the next not asked.
    const reading = setUp();
    for (let i = 0; i < 40; i++) reading.source.files.set(`${ROOT}/d${String(i).padStart(2, '0')}.digest`, digest(entryLines(`P${i}`)));
    reading.source.hold();
    const scan = reading.files.setFolders([ROOT]);
    while (reading.source.reads.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    // (Its own scan, of no folder, waits behind the one under way.)
    const removal = reading.files.changeFolders([], [ROOT]);
    reading.source.release();
    await scan;
    await removal;
    await reading.files.ready;
    assert.deepEqual(indexed(reading.index), []);
    assert.equal(reading.source.reads.length, 1, 'the second batch is not asked');
  });

  test('Should drop a read that a deletion overtook', async () => {
    const { source, index, files } = setUp();
    await files.setFolders([ROOT]);
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    source.hold();
    const reading = files.filesChanged([{ uri: `${ROOT}/a.digest`, type: FileChangeType.Changed }]);
    await files.filesChanged([{ uri: `${ROOT}/a.digest`, type: FileChangeType.Deleted }]);
    source.release();
    await reading;
    assert.deepEqual(indexed(index), []);
  });

  test('Should forget the files of a removed folder, rescan and let open documents win', async () => {
    const { source, index, files } = setUp();
    const other = 'vscode-vfs://github/me/more';
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    source.files.set(`${other}/b.digest`, digest(entryLines('B')));
    await files.setFolders([ROOT, other]);
    assert.equal(index.paperCount, 2);
    await files.changeFolders([], [other]);
    assert.deepEqual(indexed(index), [`${ROOT}/a.digest`]);
    source.files.delete(`${ROOT}/a.digest`);
    source.files.set(`${ROOT}/c.digest`, digest(entryLines('C'), entryLines('D')));
    await files.rescan();
    assert.deepEqual(indexed(index), [`${ROOT}/c.digest`]);
    files.documentChanged(`${ROOT}/c.digest`, () => parseDigest(digest(entryLines('E'))));
    files.flush();
    assert.equal(index.paperCount, 1);
    files.documentClosed(`${ROOT}/c.digest`);
    assert.equal(index.paperCount, 2);
  });

  test('Should take a failed request as unreadable files and go on', async () => {
    const { source, index, files, log } = setUp();
    source.files.set(`${ROOT}/a.digest`, digest(entryLines('A')));
    source.readDigestFiles = async () => {
      throw new Error('the client went away');
    };
    await files.setFolders([ROOT]);
    assert.deepEqual(indexed(index), []);
    assert.ok(log.some((line) => /reading 1 digest files failed: the client went away/.test(line)), log.join('\n'));
  });
});
