import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { decodeKeptIndex, encodeKeptIndex, KeptFile, KeptIndexWriter, KEPT_INDEX_VERSION, NotKeptError } from '../../server/src/service/keptIndex';
import { KEPT_INDEX_FILE, KeptIndexStore, keptIndexStore } from '../../server/src/keptIndexDisk';
import { parseDigest } from '../../server/src/service/parser';
import { FileSummary, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { papersTree, PapersGrouping, withoutChildren } from '../../server/src/service/features/tree';
import { fileUri, WorkspaceDigests } from '../../server/src/workspace';
import { digest, entryLines } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';

const temp = temporaryFolders();

/** The groupings whose first level the kept index answers. */
const KEPT_GROUPINGS: readonly PapersGrouping[] = ['topic', 'category', 'institution', 'file'];

/** A kept index in memory, through the real text (written, read back). */
function memoryStore(build = 'test-build'): KeptIndexStore & { text: string | undefined; writes: number; onWrite?: () => void } {
  const store = {
    text: undefined as string | undefined,
    writes: 0,
    onWrite: undefined as (() => void) | undefined,
    read: () => {
      if (store.text === undefined) return Promise.resolve(undefined);
      const kept = decodeKeptIndex(store.text, build);
      return Promise.resolve('files' in kept ? kept.files : undefined);
    },
    writer: () => new KeptIndexWriter(build),
    write: (writer: KeptIndexWriter) => {
      store.text = writer.text();
      store.writes++;
      store.onWrite?.();
    },
  };
  return store;
}

function folder(files: Record<string, string>): string {
  const root = temp.make('paper-digest-kept-');
  writeFiles(root, files);
  return root;
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
}

/** The first level of the tree of each grouping, with the counts, as the server answers it. */
function firstLevels(index: WorkspaceIndex): unknown {
  return KEPT_GROUPINGS.map((grouping) => {
    const tree = papersTree(index, grouping, '');
    return { grouping, paperCount: tree.paperCount, distinct: tree.distinctPaperCount, indexed: index.paperCount, roots: tree.roots.map(withoutChildren) };
  });
}

/** Scans `root` with the store, and keeps its index as the server does when it goes; the index. */
async function scanAndKeep(root: string, store: ReturnType<typeof memoryStore>): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  const files = new WorkspaceDigests(index);
  files.keepIndexWith(store);
  await files.setFolders([fileUri(root)]);
  files.dispose();
  return index;
}

describe('kept index: its text', () => {
  const text = digest(
    entryLines('A'),
    entryLines('B', { englishTitle: null }),
    entryLines('C', { institutions: '机构 * 清华大学 ； Dept. of CS, Fudan University（复旦大学）', topicHits: '专题命中 智能体 ：planning(title)' }),
    entryLines('A'),
  );

  function keptOf(uri: string, source: string): KeptFile {
    const index = new WorkspaceIndex();
    index.update(uri, source);
    return { summary: index.file(uri)!, fingerprint: { size: 10, mtimeMs: 1_700_000_000_123.456, ctimeMs: 1_700_000_000_124.5, dev: 2049, ino: 77 } };
  }

  test('Should give back the keys, topics, keywords, categories and institutions of every paper', () => {
    const kept = keptOf('file:///w/a.digest', text);
    const decoded = decodeKeptIndex(encodeKeptIndex('b1', [kept]), 'b1');
    assert.ok('files' in decoded);
    const back = decoded.files.get('file:///w/a.digest')!;
    assert.deepEqual(back.fingerprint, kept.fingerprint);
    assert.equal(back.summary.heading, kept.summary.heading);
    assert.equal(back.summary.papers.length, 4);
    for (const [i, paper] of kept.summary.papers.entries()) {
      const other = back.summary.papers[i];
      for (const field of ['uri', 'entryIndex', 'key', 'titleKey', 'topic'] as const) {
        assert.equal(other[field], paper[field], field);
      }
      assert.deepEqual([...other.keywords], [...paper.keywords]);
      assert.deepEqual([...other.categories], [...paper.categories]);
      assert.deepEqual(other.institutions.map((each) => ({ ...each })), paper.institutions.map((each) => ({ ...each })));
    }
    // The Chinese-only paper keeps its `zh:` key and no title key; the repeated one its `#1`.
    assert.equal(back.summary.papers[1].titleKey, '');
    assert.match(back.summary.papers[1].key, /^zh:/);
    assert.match(back.summary.papers[3].key, /#1$/);
  });

  test('Should throw NotKeptError for what is not kept of a paper', () => {
    const decoded = decodeKeptIndex(encodeKeptIndex('b1', [keptOf('file:///w/a.digest', text)]), 'b1');
    assert.ok('files' in decoded);
    const [file] = decoded.files.values();
    const paper = file.summary.papers[0];
    for (const read of [() => paper.title, () => paper.englishTitle, () => paper.range, () => paper.summary, () => paper.searchNarrow, () => paper.authors, () => file.summary.terms]) {
      assert.throws(read, NotKeptError);
    }
  });

  test('Should refuse a text of another build or version, and one not of its form, whole', () => {
    const good = encodeKeptIndex('b1', [keptOf('file:///w/a.digest', text)]);
    assert.deepEqual(decodeKeptIndex(good, 'b2'), { problem: 'other-build' });
    const value = JSON.parse(good) as Record<string, unknown>;
    assert.deepEqual(decodeKeptIndex(JSON.stringify({ ...value, version: KEPT_INDEX_VERSION + 1 }), 'b1'), { problem: 'other-version' });
    const files = value.files as unknown[][];
    const lists = value.lists as number[][];
    const [uri, size, mtime, ctime, dev, ino, heading, keys, columns] = files[0] as [string, number, number, number, number, number, number, string[], number[]];
    const withFile = (file: unknown[], more: Record<string, unknown> = {}): string => JSON.stringify({ ...value, ...more, files: [file] });
    const column = (at: number, to: number): number[] => columns.map((each, i) => (i === at ? to : each));
    const broken: unknown[] = [
      good.slice(0, good.length / 2),
      '[]',
      'null',
      JSON.stringify({ ...value, format: 'another' }),
      JSON.stringify({ ...value, strings: [1, 2] }),
      JSON.stringify({ ...value, lists: undefined }),
      JSON.stringify({ ...value, files: [files[0], files[0]] }),
      withFile(files[0].slice(0, 8)),
      withFile([uri, -1, mtime, ctime, dev, ino, heading, keys, columns]),
      withFile([uri, size, mtime, ctime, dev, ino, 10_000, keys, columns]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, ['no hash', ...keys.slice(1)], columns]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, columns.slice(1)]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(0, 2)]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(1, 10_000)]),
      // A list of institutions where a list of keywords goes, and the other way round.
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(2, columns[4])]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(4, columns[2])]),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(2, lists.length)], { lists: [...lists, [0.5]] }),
      withFile([uri, size, mtime, ctime, dev, ino, heading, keys, column(4, lists.length)], { lists: [...lists, [-2, 0]] }),
    ];
    for (const each of broken) {
      assert.deepEqual(decodeKeptIndex(each as string, 'b1'), { problem: 'corrupt' }, String(each).slice(0, 80));
    }
  });
});

describe('kept index: the first level of the Papers tree before the scan', () => {
  test('Should read only the files changed since, and give the first level the scan comes to', async () => {
    const root = folder({
      'a.digest': digest(entryLines('A'), entryLines('B')),
      'b.digest': digest(entryLines('B'), entryLines('C', { topicHits: '专题命中 智能体 ：planning(title)；分类 cs.AI' })),
      'sub/c.digest': digest(entryLines('D', { englishTitle: null })),
      'gone.digest': digest(entryLines('E')),
    });
    const store = memoryStore();
    await scanAndKeep(root, store);
    assert.equal(store.writes, 1);
    // Since: one file changed in place, one replaced by a rename, one deleted, one new.
    fs.appendFileSync(path.join(root, 'a.digest'), '\n' + entryLines('F', { topicHits: '专题命中 数学推理 ：proofs(abstract)' }).join('\n\n') + '\n');
    fs.writeFileSync(path.join(root, 'sub/c.next'), digest(entryLines('D', { englishTitle: null, institutions: '机构 * 北京大学' })));
    fs.renameSync(path.join(root, 'sub/c.next'), path.join(root, 'sub/c.digest'));
    fs.rmSync(path.join(root, 'gone.digest'));
    writeFiles(root, { 'new.digest': digest(entryLines('A'), entryLines('G', { topicHits: null })) });

    const decoded: string[] = [];
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index, {
      decode: (bytes) => {
        decoded.push(bytes.toString('utf8').slice(0, 40));
        return bytes.toString('utf8');
      },
    });
    files.keepIndexWith(store);
    const scan = files.setFolders([fileUri(root)]);
    const early = await files.earlyIndex();
    assert.ok(early, 'an early index while the scan runs');
    // Before the scan: the three files changed or new were read, b.digest was not.
    assert.equal(decoded.length, 3);
    const answered = firstLevels(early);
    await scan;
    assert.equal(await files.earlyIndex(), undefined, 'none once the scan is done');
    assert.deepEqual(answered, firstLevels(index));
    files.dispose();
  });

  test('Should give the first level of random workspaces as the scan does, whatever changed since', async () => {
    const title = fc.constantFrom('Sparse Probes', 'sparse  probes', 'Latent Agents', 'Verifier Feedback', 'Chain of Thought');
    const entry = fc.record({
      englishTitle: fc.option(title, { nil: null }),
      chineseTitle: fc.option(fc.constantFrom('稀疏探针', '潜在智能体', '验证器'), { nil: null }),
      topic: fc.option(fc.constantFrom('数学推理', '数学 推理', 'Agents', 'ａｇｅｎｔｓ'), { nil: null }),
      keywords: fc.subarray(['reasoning', 'Reasoning', 'math reasoning', 'planning']),
      categories: fc.subarray(['cs.LG', 'CS.lg', 'cs.CL', 'xx.YY']),
      institutions: fc.option(fc.subarray(['Kyoto University（京都大学）', '清华大学', 'Dept. of CS, Fudan University（复旦大学）', 'Fudan University', 'ExampleLab']), { nil: null }),
    });
    const entryText = (e: { englishTitle: string | null; chineseTitle: string | null; topic: string | null; keywords: string[]; categories: string[]; institutions: string[] | null }): string[] =>
      entryLines('', {
        englishTitle: e.englishTitle,
        chineseTitle: e.chineseTitle,
        institutions: e.institutions === null ? null : `机构 * ${e.institutions.join(' ； ')} 纠错`,
        topicHits: e.topic === null ? null : `专题命中 ${e.topic} ：${e.keywords.map((k) => `${k}(abstract)`).join('；')}${e.categories.length > 0 ? '；分类 ' + e.categories.join('、') : ''}`,
      });
    const digestText = fc.array(entry, { maxLength: 6 }).map((entries) => digest(...entries.map(entryText)));
    const names = ['a.digest', 'b.digest', 'sub/a.digest', 'sub/deep/c.digest.txt', 'd.digest'];
    const workspace = fc.dictionary(fc.constantFrom(...names), digestText, { maxKeys: 5 });
    const samples = fc.sample(fc.tuple(workspace, workspace, fc.subarray(names), fc.option(fc.tuple(fc.constantFrom(...names), digestText), { nil: undefined })), { numRuns: 25, seed: 4242 });
    for (const [before, after, removed, open] of samples) {
      const root = folder(before);
      const store = memoryStore();
      await scanAndKeep(root, store);
      // Since the last start: files rewritten (a new inode, as a generator writes), some deleted.
      for (const [name, text] of Object.entries(after)) {
        const file = path.join(root, name);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file + '.next', text);
        fs.renameSync(file + '.next', file);
      }
      for (const name of removed) {
        if (!(name in after)) fs.rmSync(path.join(root, name), { force: true });
      }
      const index = new WorkspaceIndex();
      const files = new WorkspaceDigests(index, { documentDelay: 60_000 });
      files.keepIndexWith(store);
      const scan = files.setFolders([fileUri(root)]);
      if (open) {
        // A document open in the editor overrides its file.
        files.documentChanged(fileUri(path.join(root, open[0])), () => parseDigest(open[1]));
      }
      const early = await files.earlyIndex();
      assert.ok(early);
      const answered = firstLevels(early);
      await scan;
      files.flush();
      assert.deepEqual(answered, firstLevels(index), JSON.stringify({ before, after, removed, open }));
      files.dispose();
    }
  });

  test('Should keep the index again only when the files changed, and write a pending change when disposed', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    assert.equal(store.writes, 1);
    const first = store.text;
    // Nothing changed since: not written again.
    await scanAndKeep(root, store);
    assert.equal(store.writes, 1);
    // A file changed while the server runs: kept again once the server goes, with it.
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    files.keepIndexWith(store);
    await files.setFolders([fileUri(root)]);
    writeFiles(root, { 'c.digest': digest(entryLines('C')) });
    await files.filesChanged([{ uri: fileUri(path.join(root, 'c.digest')), type: 1 }]);
    assert.equal(store.writes, 1);
    files.dispose();
    assert.equal(store.writes, 2);
    assert.notEqual(store.text, first);
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept);
    assert.deepEqual([...kept.files.keys()].map((uri) => uri.slice(fileUri(root).length + 1)), ['a.digest', 'b.digest', 'c.digest']);
  });

  test('Should keep the index by itself once the scan is done and the server idle', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    let idleAsked = 0;
    const files = new WorkspaceDigests(new WorkspaceIndex(), {
      idle: async () => {
        idleAsked++;
      },
    });
    files.keepIndexWith(store);
    const written = new Promise<void>((resolve) => (store.onWrite = resolve));
    await files.setFolders([fileUri(root)]);
    assert.equal(store.writes, 0, 'not while the answers the scan held up go');
    await written;
    assert.equal(idleAsked, 1);
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept && kept.files.size === 2);
    files.dispose();
    assert.equal(store.writes, 1);
  });

  test('Should read every file when nothing was kept, and have no early index', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    files.keepIndexWith(memoryStore());
    const scan = files.setFolders([fileUri(root)]);
    assert.equal(await files.earlyIndex(), undefined);
    await scan;
    assert.equal(index.paperCount, 1);
    files.dispose();
  });
});

/** A writer of the store with the files added. */
function writerOf(store: KeptIndexStore, files: readonly KeptFile[]): KeptIndexWriter {
  const writer = store.writer();
  files.forEach((file) => writer.add(file));
  return writer;
}

describe('kept index: its file', () => {
  function summaries(): KeptFile[] {
    const index = new WorkspaceIndex();
    index.update('file:///w/a.digest', digest(entryLines('A')));
    return [{ summary: index.file('file:///w/a.digest') as FileSummary, fingerprint: { size: 1, mtimeMs: 2, ctimeMs: 3, dev: 4, ino: 5 } }];
  }

  test('Should write it atomically in a folder it makes, and read it back', async () => {
    const storage = path.join(temp.make('paper-digest-storage-'), 'not', 'yet');
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(message));
    assert.equal(await store.read(), undefined);
    store.write(writerOf(store, summaries()));
    assert.deepEqual(fs.readdirSync(storage), [KEPT_INDEX_FILE]);
    const back = await store.read();
    assert.deepEqual([...(back?.keys() ?? [])], ['file:///w/a.digest']);
    assert.deepEqual(logs, []);
  });

  test('Should say so of a kept index it cannot use, and leave it until the next write', async () => {
    const storage = temp.make('paper-digest-storage-');
    const file = path.join(storage, KEPT_INDEX_FILE);
    fs.writeFileSync(file, '{"format": "something else"');
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(message));
    assert.equal(await store.read(), undefined);
    assert.match(logs.join('\n'), /is not used: it is not an index this server keeps/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"format": "something else"');
    store.write(writerOf(store, summaries()));
    assert.ok(await store.read());
  });

  test('Should neither follow nor replace a link in its place: the index is then not kept, and says so', async () => {
    const storage = temp.make('paper-digest-storage-');
    const outside = path.join(temp.make('paper-digest-outside-'), 'precious.json');
    fs.writeFileSync(outside, 'precious');
    fs.symlinkSync(outside, path.join(storage, KEPT_INDEX_FILE));
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(message));
    assert.equal(await store.read(), undefined);
    assert.match(logs.join('\n'), /was not read/);
    store.write(writerOf(store, summaries()));
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious');
    assert.ok(fs.lstatSync(path.join(storage, KEPT_INDEX_FILE)).isSymbolicLink());
    assert.match(logs.join('\n'), /the index was not kept for the next start/);
    assert.deepEqual(fs.readdirSync(storage), [KEPT_INDEX_FILE]);
  });
});
