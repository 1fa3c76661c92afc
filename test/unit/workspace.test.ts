import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalUri, DEFAULT_SCAN_LIMITS, fileUri, isDigestFileName, WorkspaceDigests } from '../../server/src/workspace';
import { parseDigest } from '../../server/src/service/parser';
import { decodeUtf8Text } from '../../server/src/fs/utf8Text';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';
import { detailOf, logText, message } from '../../server/src/service/cliMessages';

const CREATED = 1 as const;
const DELETED = 3 as const;

const temp = temporaryFolders();

/** A temporary folder with the given files (relative path → text). */
function folder(files: Record<string, string>): string {
  const root = temp.make('paper-digest-scan-');
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  return root;
}

function indexedNames(index: WorkspaceIndex, root: string): string[] {
  return index.files().map((file) => file.uri.slice(fileUri(root).length + 1));
}


/** Once the scans asked so far are done: the index holds no file (then the digests are let go). */
async function nothingIndexed(files: WorkspaceDigests, index: WorkspaceIndex): Promise<void> {
  await files.ready;
  assert.deepEqual(index.files(), []);
  files.dispose();
}
describe('workspace: URIs and names', () => {
  test('Should encode file URIs as VS Code does', () => {
    assert.equal(fileUri('/home/me/May 1 (draft)!.digest'), 'file:///home/me/May%201%20%28draft%29%21.digest');
    assert.equal(fileUri('/home/me/论文.digest'), 'file:///home/me/%E8%AE%BA%E6%96%87.digest');
    assert.equal(fileUri('/a/b@c+d=e,f;g$h.digest'), 'file:///a/b%40c%2Bd%3De%2Cf%3Bg%24h.digest');
    assert.equal(fileUri('/a/x~y_z-1.digest'), 'file:///a/x~y_z-1.digest');
  });

  test('Should bring other encodings of the same file URI to one form', () => {
    assert.equal(canonicalUri('file:///home/me/May 1.digest'), 'file:///home/me/May%201.digest');
    assert.equal(canonicalUri('file:///home/me/%e8%ae%ba%e6%96%87.digest'), 'file:///home/me/%E8%AE%BA%E6%96%87.digest');
    assert.equal(canonicalUri('file:///home/me/folder/'), 'file:///home/me/folder');
    assert.equal(canonicalUri('untitled:Untitled-1'), 'untitled:Untitled-1');
  });

  test('Should recognise digest file names only', () => {
    assert.ok(isDigestFileName('2026-05-01.digest'));
    assert.ok(isDigestFileName('notes.DIGEST.txt'));
    assert.ok(!isDigestFileName('notes.txt'));
    assert.ok(!isDigestFileName('digest'));
    assert.ok(!isDigestFileName('a.digest.bak'));
  });
});

describe('workspace: scanning', () => {
  test('Should index digests in subfolders and skip node_modules, .git and other files', async () => {
    const root = folder({
      'a.digest': digest(entryLines('A')),
      'deep/er/b.digest.txt': digest(entryLines('B')),
      'node_modules/pkg/c.digest': digest(entryLines('C')),
      '.git/d.digest': digest(entryLines('D')),
      'notes.txt': 'not a digest',
    });
    const index = new WorkspaceIndex();
    await new WorkspaceDigests(index).setFolders([pathToUri(root)]);
    assert.deepEqual(indexedNames(index, root), ['a.digest', 'deep/er/b.digest.txt']);
    assert.equal(index.paperCount, 2);
  });

  test('Should stop at the file and depth limits', async () => {
    const root = folder({
      '1.digest': digest(entryLines('A')),
      '2.digest': digest(entryLines('B')),
      '3.digest': digest(entryLines('C')),
      'x/y/deep.digest': digest(entryLines('D')),
    });
    const index = new WorkspaceIndex();
    await new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxFiles: 2 } }).setFolders([pathToUri(root)]);
    assert.deepEqual(indexedNames(index, root), ['1.digest', '2.digest']);
    const shallow = new WorkspaceIndex();
    await new WorkspaceDigests(shallow, { limits: { ...DEFAULT_SCAN_LIMITS, maxDepth: 1 } }).setFolders([pathToUri(root)]);
    assert.deepEqual(indexedNames(shallow, root), ['1.digest', '2.digest', '3.digest']);
  });

  test('Should say when a limit left files or folders out, at a folder boundary too, and not when none were', async () => {
    const scan = async (files: Record<string, string>, limits: Partial<typeof DEFAULT_SCAN_LIMITS>, prepare?: (root: string) => void): Promise<{ names: string[]; log: string[] }> => {
      const root = folder(files);
      prepare?.(root);
      const index = new WorkspaceIndex();
      const log: string[] = [];
      const digests = new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, ...limits }, log: (line) => log.push(logText(line, 'en')) });
      await digests.setFolders([pathToUri(root)]);
      digests.dispose();
      return { names: indexedNames(index, root), log };
    };
    const one = digest(entryLines('A'));
    // The limit reached with the last file of a folder, more in the next one: said (it was not).
    // A link met past the limit, looking for one more file, is not counted as skipped.
    const boundary = await scan({ 'a/1.digest': one, 'a/2.digest': one, 'b/3.digest': one }, { maxFiles: 2 }, (root) => fs.symlinkSync(path.join(root, 'a/1.digest'), path.join(root, 'b/0.digest')));
    assert.deepEqual(boundary.names, ['a/1.digest', 'a/2.digest']);
    assert.match(boundary.log.join('\n'), /indexed the first 2 digest files only\./);
    assert.doesNotMatch(boundary.log.join('\n'), /symbolic link|skipped/);
    // Exactly as many files as the limit (other folders with no digest): nothing left out.
    const exact = await scan({ 'a/1.digest': one, 'a/2.digest': one, 'b/notes.txt': 'x', 'c/d/e.txt': 'x' }, { maxFiles: 2 });
    assert.deepEqual(exact.names, ['a/1.digest', 'a/2.digest']);
    assert.doesNotMatch(exact.log.join('\n'), /only/);
    // Folders past the depth limit, and past the folder limit, are said to be left out.
    const deep = await scan({ '1.digest': one, 'x/2.digest': one, 'x/y/3.digest': one, 'x/z/4.digest': one }, { maxDepth: 1 });
    assert.deepEqual(deep.names, ['1.digest', 'x/2.digest']);
    assert.match(deep.log.join('\n'), /did not search 2 folders more than 1 level below a workspace folder\./);
    // A folder too deep below one workspace folder that another, inside it, walks is not said to be left out.
    const nestedRoot = folder({ 'a/b/1.digest': one });
    for (const order of [['.', 'a'], ['a', '.']]) {
      const log: string[] = [];
      const nested = new WorkspaceIndex();
      const digests = new WorkspaceDigests(nested, { limits: { ...DEFAULT_SCAN_LIMITS, maxDepth: 1 }, log: (line) => log.push(logText(line, 'en')) });
      await digests.setFolders(order.map((name) => pathToUri(path.join(nestedRoot, name))));
      digests.dispose();
      assert.deepEqual(indexedNames(nested, nestedRoot), ['a/b/1.digest'], order.join());
      assert.doesNotMatch(log.join('\n'), /did not search/, order.join());
    }
    const many = await scan({ 'a/1.digest': one, 'b/2.digest': one, 'c/3.digest': one }, { maxDirectories: 3 });
    assert.deepEqual(many.names, ['a/1.digest', 'b/2.digest']);
    assert.match(many.log.join('\n'), /searched the first 3 folders only\./);
    assert.doesNotMatch((await scan({ 'a/1.digest': one }, { maxDirectories: 2 })).log.join('\n'), /only|did not search/);
  });

  test('Should not index from a file event what the scan leaves out for its depth', async () => {
    const one = digest(entryLines('A'));
    const root = folder({ '1.digest': one, 'x/2.digest': one });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxDepth: 1 } });
    await files.setFolders([pathToUri(root)]);
    fs.mkdirSync(path.join(root, 'x/y/z'), { recursive: true });
    fs.writeFileSync(path.join(root, 'x/y/3.digest'), one);
    fs.writeFileSync(path.join(root, 'x/y/z/4.digest'), one);
    fs.writeFileSync(path.join(root, 'x/5.digest'), one);
    // A digest created too deep, a folder created too deep (with one inside), and one within reach.
    await files.filesChanged([
      { uri: pathToUri(path.join(root, 'x/y/3.digest')), type: CREATED },
      { uri: pathToUri(path.join(root, 'x/y')), type: CREATED },
      { uri: pathToUri(path.join(root, 'x/y/z')), type: CREATED },
      { uri: pathToUri(path.join(root, 'x/5.digest')), type: CREATED },
    ]);
    assert.deepEqual(indexedNames(index, root), ['1.digest', 'x/2.digest', 'x/5.digest']);
    // What a rescan indexes is the same.
    const again = new WorkspaceIndex();
    await new WorkspaceDigests(again, { limits: { ...DEFAULT_SCAN_LIMITS, maxDepth: 1 } }).setFolders([pathToUri(root)]);
    assert.deepEqual(indexedNames(again, root), indexedNames(index, root));
    // A folder named like a digest, too deep, is not walked either.
    fs.mkdirSync(path.join(root, 'x/y.digest'), { recursive: true });
    fs.writeFileSync(path.join(root, 'x/y.digest/8.digest'), one);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'x/y.digest')), type: CREATED }]);
    assert.deepEqual(indexedNames(index, root), ['1.digest', 'x/2.digest', 'x/5.digest']);
    // A folder moved in within reach is walked as deep as it lies: its own subfolder is too deep.
    fs.mkdirSync(path.join(root, 'w/v'), { recursive: true });
    fs.writeFileSync(path.join(root, 'w/6.digest'), one);
    fs.writeFileSync(path.join(root, 'w/v/7.digest'), one);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'w')), type: CREATED }]);
    assert.deepEqual(indexedNames(index, root), ['1.digest', 'w/6.digest', 'x/2.digest', 'x/5.digest']);
    files.dispose();
  });

  test('Should skip files above the size limit', async () => {
    const root = folder({ 'small.digest': digest(entryLines('A')), 'big.digest': digest(entryLines('B'), entryLines('C'), entryLines('D')) });
    const index = new WorkspaceIndex();
    const limit = Buffer.byteLength(digest(entryLines('A'))) + 10;
    await new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxFileBytes: limit } }).setFolders([pathToUri(root)]);
    assert.deepEqual(indexedNames(index, root), ['small.digest']);
  });

  test('Should forget the files of a removed folder', async () => {
    const one = folder({ 'a.digest': digest(entryLines('A')) });
    const two = folder({ 'b.digest': digest(entryLines('B')) });
    const index = new WorkspaceIndex();
    const log: string[] = [];
    const files = new WorkspaceDigests(index, { log: (message) => log.push(logText(message, 'en')) });
    await files.setFolders([pathToUri(one), pathToUri(two)]);
    assert.equal(index.files().length, 2);
    assert.equal(log.filter((line) => line.includes('indexed')).length, 1);
    await files.changeFolders([], [pathToUri(one)]);
    assert.deepEqual(index.files().map((file) => file.uri), [fileUri(path.join(two, 'b.digest'))]);
    await files.changeFolders([], [pathToUri(two)]);
    assert.deepEqual(index.files(), [], 'no folder left: no file');
    // Nothing read: no line saying "indexed 0 digest files", of the files left or of none.
    await files.changeFolders([], [pathToUri(path.join(one, 'not-a-workspace-folder'))]);
    assert.equal(log.filter((line) => line.includes('indexed')).length, 1, log.join('\n'));
  });

  test('Should count in its log line the files and papers of the folders it read, and not read a folder removed before its scan', async () => {
    const one = folder({ 'a.digest': digest(entryLines('A'), entryLines('B'), entryLines('C')) });
    const two = folder({ 'b.digest': digest(entryLines('D')) });
    const index = new WorkspaceIndex();
    const log: string[] = [];
    const files = new WorkspaceDigests(index, { log: (message) => log.push(logText(message, 'en')) });
    await files.setFolders([pathToUri(one)]);
    await files.changeFolders([pathToUri(two)], []);
    assert.deepEqual(log.filter((line) => line.includes('indexed')).map((line) => /indexed .*\)/.exec(line)?.[0]), ['indexed 1 digest file (3 papers)', 'indexed 1 digest file (1 paper)']);
    // A folder added and removed before its scan runs (no folder left, where any file counts as in the workspace): not read.
    await files.setFolders([]);
    const adding = files.changeFolders([pathToUri(one)], []);
    await files.changeFolders([], [pathToUri(one)]);
    await adding;
    await nothingIndexed(files, index);
  });

  test('Should read a folder a file event finds when no workspace folder is open (any file is in the workspace then)', async () => {
    const root = folder({ 'moved/a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([]);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'moved')), type: CREATED }]);
    assert.deepEqual(indexedNames(index, root), ['moved/a.digest']);
    files.dispose();
  });

  test('Should drop the file it reads when the last folder is removed meanwhile, and walk no further', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
    const index = new WorkspaceIndex();
    let removing: Promise<void> | undefined;
    const files: WorkspaceDigests = new WorkspaceDigests(index, {
      decode: (bytes) => {
        // The folder is removed while its first file is read.
        removing ??= files.changeFolders([], [pathToUri(root)]);
        return decodeUtf8Text(bytes);
      },
    });
    await files.setFolders([pathToUri(root)]);
    await removing;
    await nothingIndexed(files, index);
  });

  test('Should not walk a folder an event found inside the last folder once that folder is removed', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'moved/x.digest': digest(entryLines('X')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    index.remove(fileUri(path.join(root, 'moved', 'x.digest')));
    // The event's scan waits behind the removal's (each scan after the one before).
    const event = files.filesChanged([{ uri: pathToUri(path.join(root, 'moved')), type: CREATED }]);
    await files.changeFolders([], [pathToUri(root)]);
    await event;
    await nothingIndexed(files, index);
  });

  test('Should keep the files another folder still holds when a nested folder, or the one holding it, is removed', async () => {
    const root = folder({ 'top.digest': digest(entryLines('Top')), 'sub/a.digest': digest(entryLines('Sub')) });
    const sub = path.join(root, 'sub');
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root), pathToUri(sub)]);
    assert.deepEqual(indexedNames(index, root).sort(), ['sub/a.digest', 'top.digest']);
    await files.changeFolders([], [pathToUri(sub)]);
    assert.deepEqual(indexedNames(index, root).sort(), ['sub/a.digest', 'top.digest'], 'the outer folder still holds sub/');
    await files.changeFolders([pathToUri(sub)], []);
    await files.changeFolders([], [pathToUri(root)]);
    assert.deepEqual(indexedNames(index, root), ['sub/a.digest'], 'sub/ is still a folder');
    // A folder the outer one's scan skips (node_modules): its files go with it.
    const pkg = path.join(root, 'node_modules', 'pkg');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'c.digest'), digest(entryLines('Pkg')));
    await files.changeFolders([pathToUri(root), pathToUri(pkg)], []);
    assert.deepEqual(indexedNames(index, root).sort(), ['node_modules/pkg/c.digest', 'sub/a.digest', 'top.digest']);
    await files.changeFolders([], [pathToUri(pkg)]);
    assert.deepEqual(indexedNames(index, root).sort(), ['sub/a.digest', 'top.digest']);
  });
});

describe('workspace: file events and documents', () => {
  test('Should drop a read that a later delete of the same file overtakes', async () => {
    const root = folder({});
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    const file = path.join(root, 'late.digest');
    fs.writeFileSync(file, digest(entryLines('A')));
    const uri = fileUri(file);
    const created = files.filesChanged([{ uri, type: CREATED }]);
    await files.filesChanged([{ uri, type: DELETED }]);
    await created;
    assert.equal(index.file(uri), undefined);
  });

  test('Should scan a folder created in the workspace and forget it when deleted', async () => {
    const root = folder({});
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    fs.mkdirSync(path.join(root, 'moved', 'in'), { recursive: true });
    fs.writeFileSync(path.join(root, 'moved', 'in', 'x.digest'), digest(entryLines('X')));
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'moved')), type: CREATED }]);
    assert.deepEqual(indexedNames(index, root), ['moved/in/x.digest']);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'moved')), type: DELETED }]);
    assert.deepEqual(index.files(), []);
  });

  test('Should not index from a file event a digest in node_modules or .git, which the scan does not walk', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    for (const relative of ['node_modules/pkg/2026-05-02.digest', '.git/x/2026-05-03.digest', 'sub/node_modules/y.digest']) {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), digest(entryLines('N')));
    }
    await files.filesChanged([
      { uri: pathToUri(path.join(root, 'node_modules/pkg/2026-05-02.digest')), type: CREATED },
      { uri: pathToUri(path.join(root, '.git/x')), type: CREATED },
      { uri: pathToUri(path.join(root, 'sub')), type: CREATED },
      { uri: pathToUri(path.join(root, 'node_modules')), type: CREATED },
    ]);
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    // A workspace folder named node_modules is walked as any other.
    const inside = path.join(root, 'node_modules');
    const nested = new WorkspaceIndex();
    const nestedFiles = new WorkspaceDigests(nested);
    await nestedFiles.setFolders([pathToUri(inside)]);
    await nestedFiles.filesChanged([{ uri: pathToUri(path.join(inside, 'pkg/2026-05-02.digest')), type: CREATED }]);
    assert.deepEqual(nested.files().map((file) => file.uri.slice(pathToUri(inside).length + 1)), ['pkg/2026-05-02.digest']);
    files.dispose();
    nestedFiles.dispose();
  });

  test('Should apply a file created, deleted and created again in one batch in that order, and read an event told twice in a row once', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    let reads = 0;
    const files = new WorkspaceDigests(index, {
      decode: (bytes) => {
        reads++;
        return decodeUtf8Text(bytes);
      },
    });
    await files.setFolders([pathToUri(root)]);
    fs.writeFileSync(path.join(root, 'b.digest'), digest(entryLines('B')));
    const b = pathToUri(path.join(root, 'b.digest'));
    await files.filesChanged([
      { uri: b, type: CREATED },
      { uri: b, type: DELETED },
      { uri: b, type: CREATED },
    ]);
    assert.deepEqual(indexedNames(index, root).sort(), ['a.digest', 'b.digest']);
    const before = reads;
    await files.filesChanged([
      { uri: pathToUri(path.join(root, 'a.digest')), type: 2 },
      { uri: pathToUri(path.join(root, 'a.digest')), type: 2 },
    ]);
    assert.equal(reads - before, 1);
    files.dispose();
  });

  test('Should keep a folder given twice when it is removed once', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root), pathToUri(root)]);
    await files.changeFolders([], [pathToUri(root)]);
    await files.ready;
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    await files.changeFolders([pathToUri(root) + '/'], []);
    await files.changeFolders([], [pathToUri(root) + '/']);
    await files.ready;
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    await files.changeFolders([], [pathToUri(root)]);
    await files.ready;
    assert.deepEqual(index.files(), []);
    files.dispose();
  });

  test('Should keep what file events read while a rescan runs', async () => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < 60; i++) texts[`f${String(i).padStart(2, '0')}/2026-01-01.digest`] = digest(entryLines(`P${i}`));
    const root = folder(texts);
    const index = new WorkspaceIndex();
    // The events come while the rescan reads P30's file: its read then gives way to theirs.
    let fire: (() => void) | undefined;
    const files = new WorkspaceDigests(index, {
      decode: (bytes) => {
        const text = decodeUtf8Text(bytes);
        if (fire && text?.includes('P30 ')) {
          const now = fire;
          fire = undefined;
          now();
        }
        return text;
      },
    });
    await files.setFolders([pathToUri(root)]);
    assert.equal(index.files().length, 60);
    let events: Promise<void> | undefined;
    fire = () => {
      // A digest written and P30's file changed while the rescan runs, each told by its event.
      fs.writeFileSync(path.join(root, 'f00', 'new.digest'), digest(entryLines('New')));
      fs.appendFileSync(path.join(root, 'f30/2026-01-01.digest'), '\n');
      events = files.filesChanged([
        { uri: pathToUri(path.join(root, 'f00', 'new.digest')), type: CREATED },
        { uri: pathToUri(path.join(root, 'f30/2026-01-01.digest')), type: 2 },
      ]);
    };
    await files.rescan();
    assert.ok(events, 'the events came during the rescan');
    await events;
    assert.equal(index.files().length, 61, indexedNames(index, root).join(' '));
    assert.ok(indexedNames(index, root).includes('f00/new.digest'));
    assert.ok(indexedNames(index, root).includes('f30/2026-01-01.digest'));
    files.dispose();
  });

  test('Should walk a tree created folder by folder once, from its outermost folder, whatever the events\u2019 batches', async () => {
    const root = folder({});
    const index = new WorkspaceIndex();
    const log: string[] = [];
    const files = new WorkspaceDigests(index, { log: (ref) => log.push(logText(ref, 'en')) });
    await files.setFolders([pathToUri(root)]);
    const scansBefore = log.filter((line) => /\bindexed \d/.test(line)).length;
    const parts = ['env', 'lib', 'python', 'site'];
    const events: { uri: string; type: typeof CREATED }[] = [];
    for (let depth = 1; depth <= parts.length; depth++) {
      const dir = path.join(root, ...parts.slice(0, depth));
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, `${depth}.digest`), digest(entryLines(`D${depth}`)));
      fs.writeFileSync(path.join(dir, 'module.py'), 'x = 1\n');
      events.push({ uri: pathToUri(dir), type: CREATED }, { uri: pathToUri(path.join(dir, 'module.py')), type: CREATED });
    }
    // Told in four batches, as a watcher tells them while they are written.
    await Promise.all([0, 2, 4, 6].map((at) => files.filesChanged(events.slice(at, at + 2))));
    assert.deepEqual(indexedNames(index, root).sort(), ['env/1.digest', 'env/lib/2.digest', 'env/lib/python/3.digest', 'env/lib/python/site/4.digest']);
    assert.equal(log.filter((line) => /\bindexed \d/.test(line)).length - scansBefore, 1, log.join('\n'));
    files.dispose();
  });

  test('Should ignore events outside the workspace folders', async () => {
    const root = folder({});
    const outside = folder({ 'o.digest': digest(entryLines('O')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    await files.filesChanged([{ uri: pathToUri(path.join(outside, 'o.digest')), type: CREATED }]);
    assert.deepEqual(index.files(), []);
  });

  test('Should index an edited open document after the delay, or at once on flush', () => {
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index, { documentDelay: 60_000 });
    let asked = 0;
    const model = parseDigest(digest(entryLines('Open')));
    files.documentChanged('file:///w/a.digest', () => {
      asked++;
      return model;
    });
    assert.equal(index.paperCount, 0);
    assert.equal(asked, 0);
    files.flush();
    assert.equal(asked, 1);
    assert.equal(index.file('file:///w/a.digest')?.source, 'open');
    files.documentClosed('file:///w/a.digest');
    assert.equal(index.paperCount, 0);
    files.dispose();
  });
});

function pathToUri(p: string): string {
  return fileUri(p);
}

describe('workspace: links, special files and replaced files', () => {
  const CHANGED = 2 as const;

  function mkfifo(file: string): void {
    const made = spawnSync('mkfifo', [file], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
  }

  /** A scan of the folder, with the log it wrote. */
  async function scanned(root: string, limits = DEFAULT_SCAN_LIMITS): Promise<{ index: WorkspaceIndex; files: WorkspaceDigests; log: string[]; chinese: string[] }> {
    const index = new WorkspaceIndex();
    const log: string[] = [];
    const chinese: string[] = [];
    const files = new WorkspaceDigests(index, {
      limits,
      log: (message) => {
        log.push(logText(message, 'en'));
        chinese.push(logText(message, 'zh-cn'));
      },
    });
    await files.setFolders([pathToUri(root)]);
    return { index, files, log, chinese };
  }

  test('Should count each file once when a workspace folder is inside another, also towards the file limit', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'sub/b.digest': digest(entryLines('B')), 'sub/c.digest': digest(entryLines('C')), 'zzz/d.digest': digest(entryLines('D')) });
    const index = new WorkspaceIndex();
    const log: string[] = [];
    const files = new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxFiles: 4 }, log: (message) => log.push(logText(message, 'en')) });
    // The inner folder first: its files are met again in the outer one.
    await files.setFolders([pathToUri(path.join(root, 'sub')), pathToUri(root)]);
    assert.deepEqual(indexedNames(index, root), ['a.digest', 'sub/b.digest', 'sub/c.digest', 'zzz/d.digest']);
    const summary = log.find((line) => line.includes('indexed')) ?? '';
    assert.match(summary, /indexed 4 digest files \(4 papers\)/, log.join('\n'));
    assert.doesNotMatch(log.join('\n'), /indexed the first 4 digest files only/);
    files.dispose();
  });

  test('Should count the papers of the files it read, not those of an unsaved document', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    index.updateOpen('untitled:Untitled-1', digest(entryLines('U1'), entryLines('U2')));
    const log: string[] = [];
    const files = new WorkspaceDigests(index, { log: (message) => log.push(logText(message, 'en')) });
    await files.setFolders([pathToUri(root)]);
    assert.equal(index.paperCount, 3);
    assert.match(log.find((line) => line.includes('indexed')) ?? '', /indexed 1 digest file \(1 paper\)/, log.join('\n'));
    files.dispose();
  });

  test('Should skip special files and links without opening them, and count only what it indexed', async () => {
    const outside = folder({ 'o.digest': digest(entryLines('Outside')) });
    const root = folder({ 'a.digest': digest(entryLines('A')), 'big.digest': digest(entryLines('B'), entryLines('C')) });
    mkfifo(path.join(root, 'pipe.digest'));
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.digest'));
    fs.symlinkSync(path.join(outside, 'o.digest'), path.join(root, 'out.digest'));
    const limit = Buffer.byteLength(digest(entryLines('A'))) + 10;
    const { index, log } = await scanned(root, { ...DEFAULT_SCAN_LIMITS, maxFileBytes: limit });
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    const summary = log.find((line) => line.includes('indexed'));
    assert.match(summary ?? '', /^Paper Digest: indexed 1 digest file \(1 paper\) in \d+ ms; skipped 4: /, log.join('\n'));
    assert.match(summary!, /1 too big/);
    assert.match(summary!, /1 not a regular file \(a FIFO, socket or device\)/);
    assert.match(summary!, /2 symbolic links \(never followed\)/);
  });

  test('Should say what it indexed and skipped in Chinese for a Chinese display, and in both languages for both', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B'), entryLines('C')) });
    fs.writeFileSync(path.join(root, 'latin1.digest'), Buffer.from([0x41, 0xe9, 0x0a]));
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.digest'));
    const { log, chinese } = await scanned(root);
    const english = log.find((line) => line.includes('indexed'));
    assert.match(english ?? '', /^Paper Digest: indexed 2 digest files \(3 papers\) in \d+ ms; skipped 2: /, log.join('\n'));
    const summary = chinese.find((line) => line.includes('已索引'));
    assert.match(summary ?? '', /^Paper Digest: 已索引 2 个摘要集文件（3 篇论文），用时 \d+ 毫秒；跳过 2 个：/, chinese.join('\n'));
    assert.match(summary!, /1 个符号链接（从不跟随）/);
    assert.match(summary!, /1 个不是 UTF-8 文本/);
    // Nothing left in English but the product's name and the names of encodings.
    assert.doesNotMatch(summary!.replace(/^Paper Digest: /, '').replace(/UTF-8/g, ''), /[A-Za-z]/, summary);
    const both = logText(message('logFirstFilesOnly', { max: 20_000 }), 'both');
    assert.equal(both, 'Paper Digest: indexed the first 20000 digest files only. — 只索引了前 20000 个摘要集文件。');
    // A failure keeps the system's own words, with the call and the path.
    const failure = Object.assign(new Error("ENOENT: no such file or directory, scandir '/w/x'"), { code: 'ENOENT' });
    assert.equal(logText(message('logScanFailed', { reason: detailOf(failure) }), 'en'), "Paper Digest: scanning the workspace failed: ENOENT: no such file or directory, scandir '/w/x'");
    assert.equal(logText(message('logScanFailed', { reason: detailOf(failure) }), 'zh-cn'), "Paper Digest: 扫描工作区失败：系统错误：ENOENT: no such file or directory, scandir '/w/x'");
  });

  test('Should count positions in a file with a byte order mark as an editor shows it, without the mark', async () => {
    const text = digest(entryLines('A')).replace(/^[^\n]*\n\n/, '');
    const root = folder({ 'bom.digest': '\ufeff' + text });
    for (const decode of [undefined, decodeUtf8Text]) {
      const index = new WorkspaceIndex();
      await new WorkspaceDigests(index, decode ? { decode } : {}).setFolders([pathToUri(root)]);
      const paper = index.files()[0]?.papers[0];
      assert.deepEqual(paper?.selectionRange.start, { line: 0, character: 0 });
    }
  });

  test('Should count a digest whose name is not UTF-8 as named so, not as gone, and index one whose name holds U+FFFD', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'ok-\ufffd.digest': digest(entryLines('B')) });
    fs.writeFileSync(Buffer.concat([Buffer.from(root + '/'), Buffer.from([0xff]), Buffer.from('-bad.digest')]), digest(entryLines('C')));
    // One the listing gives alike to `ok-` then U+FFFD itself.
    fs.writeFileSync(Buffer.concat([Buffer.from(root + '/ok-'), Buffer.from([0xff]), Buffer.from('.digest')]), digest(entryLines('D')));
    // A file and a folder whose names hold U+FFFD beside a folder listed alike whose name is not UTF-8.
    fs.writeFileSync(path.join(root, 'x\ufffd.digest'), digest(entryLines('E')));
    fs.mkdirSync(Buffer.concat([Buffer.from(root + '/x'), Buffer.from([0xff]), Buffer.from('.digest')]));
    fs.mkdirSync(path.join(root, 'd\ufffd'));
    fs.writeFileSync(path.join(root, 'd\ufffd', 'in.digest'), digest(entryLines('F')));
    fs.mkdirSync(Buffer.concat([Buffer.from(root + '/d'), Buffer.from([0xff])]));
    const { index, log } = await scanned(root);
    assert.deepEqual(indexedNames(index, root), ['a.digest', 'd%EF%BF%BD/in.digest', 'ok-%EF%BF%BD.digest', 'x%EF%BF%BD.digest']);
    assert.match(log.find((line) => line.includes('indexed')) ?? '', /indexed 4 digest files \(4 papers\).*skipped 2: 2 named in bytes that are not UTF-8 \(rename them to read them\)/);
  });

  test('Should skip a file that is not UTF-8 text, and drop it from the index when it becomes one', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const binary = Buffer.concat([Buffer.from(digest(entryLines('Z'))), Buffer.from([0xff, 0xfe, 0x00, 0x80])]);
    fs.writeFileSync(path.join(root, 'bin.digest'), binary);
    const { index, files, log } = await scanned(root);
    assert.deepEqual(indexedNames(index, root), ['a.digest', 'b.digest']);
    assert.match(log.find((line) => line.includes('indexed')) ?? '', /skipped 1: 1 not UTF-8 text/);
    fs.writeFileSync(path.join(root, 'b.digest'), binary);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'b.digest')), type: CHANGED }]);
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
  });

  test('Should index a file with two names (hard links) once, under the first, with no copy of its papers', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    fs.linkSync(path.join(root, 'a.digest'), path.join(root, 'b.digest'));
    const { index, files, log } = await scanned(root);
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    assert.deepEqual(index.repeatedTitleKeys().size, 0, 'no duplicate of itself');
    assert.match(log.find((line) => line.includes('indexed')) ?? '', /indexed 1 digest file \(1 paper\).*skipped 1: 1 other name \(a hard link\) of a file indexed/);
    // An event on the second name, and a rescan, leave it out too.
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'b.digest')), type: CHANGED }]);
    await files.rescan();
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    // Once the first name is gone, the second is the file's name.
    fs.unlinkSync(path.join(root, 'a.digest'));
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'a.digest')), type: 3 }]);
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'b.digest')), type: CHANGED }]);
    assert.deepEqual(indexedNames(index, root), ['b.digest']);
  });

  test('Should not follow a created link to a file or a folder out of the workspace, nor to /', async () => {
    const outside = folder({ 'o.digest': digest(entryLines('Outside')), 'sub/p.digest': digest(entryLines('P')) });
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const { index, files } = await scanned(root);
    fs.symlinkSync(path.join(outside, 'o.digest'), path.join(root, 'o.digest'));
    fs.symlinkSync(outside, path.join(root, 'outside'));
    fs.symlinkSync('/', path.join(root, 'disk'));
    fs.symlinkSync('/', path.join(root, 'disk.digest'));
    await files.filesChanged(['o.digest', 'outside', 'disk', 'disk.digest'].map((name) => ({ uri: pathToUri(path.join(root, name)), type: CREATED })));
    // A file below a linked folder, told about by its path through the link.
    await files.filesChanged([{ uri: pathToUri(path.join(root, 'outside', 'sub', 'p.digest')), type: CREATED }]);
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
    await files.rescan();
    assert.deepEqual(indexedNames(index, root), ['a.digest']);
  });

  test('Should never index one real file twice: a folder link back into the workspace adds nothing', async () => {
    const root = folder({ 'sub/a.digest': digest(entryLines('A')) });
    const { index, files } = await scanned(root);
    fs.symlinkSync(path.join(root, 'sub'), path.join(root, 'again'));
    fs.symlinkSync(path.join(root, 'sub', 'a.digest'), path.join(root, 'alias.digest'));
    await files.filesChanged([
      { uri: pathToUri(path.join(root, 'again')), type: CREATED },
      { uri: pathToUri(path.join(root, 'alias.digest')), type: CREATED },
      { uri: pathToUri(path.join(root, 'again', 'a.digest')), type: CREATED },
    ]);
    assert.deepEqual(indexedNames(index, root), ['sub/a.digest']);
    const key = index.files()[0].papers[0].titleKey;
    assert.equal(index.papersWithTitle(key).length, 1, 'no false duplicate-paper');
    await files.rescan();
    assert.deepEqual(indexedNames(index, root), ['sub/a.digest']);
  });

  test('Should index a file replaced by a folder of the same name, without a rescan', async () => {
    const root = folder({ 'x.digest': digest(entryLines('X')) });
    const { index, files } = await scanned(root);
    assert.deepEqual(indexedNames(index, root), ['x.digest']);
    const place = path.join(root, 'x.digest');
    fs.unlinkSync(place);
    fs.mkdirSync(place);
    fs.writeFileSync(path.join(place, 'inner.digest'), digest(entryLines('Inner')));
    await files.filesChanged([
      { uri: pathToUri(place), type: DELETED },
      { uri: pathToUri(place), type: CREATED },
    ]);
    assert.deepEqual(indexedNames(index, root), ['x.digest/inner.digest']);
    // Told only that it changed, the same.
    fs.writeFileSync(path.join(place, 'second.digest'), digest(entryLines('Second')));
    await files.filesChanged([{ uri: pathToUri(place), type: CHANGED }]);
    assert.deepEqual(indexedNames(index, root), ['x.digest/inner.digest', 'x.digest/second.digest']);
  });

  test('Should skip a FIFO or a link to a device told about by a file event, without blocking', async () => {
    const root = folder({});
    const { index, files } = await scanned(root);
    mkfifo(path.join(root, 'pipe.digest'));
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.digest'));
    await files.filesChanged(['pipe.digest', 'zero.digest'].map((name) => ({ uri: pathToUri(path.join(root, name)), type: CREATED })));
    assert.deepEqual(index.files(), []);
  });

  test('Should apply 20,000 deletions in one event as one change of the index', async () => {
    const count = 20_000;
    const index = new WorkspaceIndex();
    const root = folder({});
    const files = new WorkspaceDigests(index);
    await files.setFolders([pathToUri(root)]);
    // A paper of its own in each file: 20,000 copies of one paper would make the setup quadratic
    // (each copy changes the duplicates of every other), which is not what this test measures.
    for (let i = 0; i < count; i++) {
      index.update(fileUri(path.join(root, 'd' + (i % 50), `${i}.digest`)), parseDigest(digest(entryLines(`Paper ${i}`))));
    }
    index.update(fileUri(path.join(root, 'kept.digest')), parseDigest(digest(entryLines('Kept'))));
    let changes = 0;
    let changedUris = 0;
    index.onDidChange((change) => {
      changes++;
      changedUris += change.uris.length;
    });
    const deletions = [
      ...Array.from({ length: count / 2 }, (_, i) => ({ uri: fileUri(path.join(root, 'd' + (i % 50), `${i}.digest`)), type: DELETED })),
      // Folders, each taking its files along.
      ...Array.from({ length: 50 }, (_, d) => ({ uri: fileUri(path.join(root, 'd' + d)), type: DELETED })),
    ];
    await files.filesChanged(deletions);
    assert.equal(changes, 1);
    assert.equal(changedUris, count);
    assert.deepEqual(indexedNames(index, root), ['kept.digest']);
  });
});
