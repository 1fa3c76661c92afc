import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { decodeKeptIndex, encodeKeptIndex, firstLevelSummary, KeptFile, KeptIndexWriter, KEPT_INDEX_VERSION, NotKeptError } from '../../server/src/service/keptIndex';
import { FIRST_LEVEL_BUILD, FIRST_LEVEL_DONE, FirstLevelReader, FirstLevelWork, NEXT, readFirstLevelSync, WORKER_TOOK, workerFiles } from '../../server/src/firstLevelRead';
import { parseWithinLimits } from '../../server/src/service/limits';
import { digestMutant } from '../support/mutants';
import { noisyDigests } from '../support/noisyDigests';
import { digestText, DIGEST_MATERIAL } from '../support/modelChecks';
import { generatedDigest, generatedEntry } from '../bench/generate';
import { KEPT_INDEX_FILE, KeptIndexStore, keptIndexStore } from '../../server/src/keptIndexDisk';
import { parseDigest } from '../../server/src/service/parser';
import { FileSummary, FirstLevelPart, firstLevelPartCovers, summariseDigest, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { firstLevelPartOf, papersTree, papersTreeFirstLevel, PapersGrouping, withoutChildren } from '../../server/src/service/features/tree';
import { DEFAULT_SCAN_LIMITS, fileUri, WorkspaceDigests } from '../../server/src/workspace';
import { EarlyFiles } from '../../server/src/earlyFiles';
import { digest, entryLines } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';
import { logText } from '../../server/src/service/cliMessages';

const temp = temporaryFolders();

/** The groupings whose first level the kept index answers. */
const KEPT_GROUPINGS: readonly PapersGrouping[] = ['topic', 'category', 'institution', 'file'];
/**
 * The groupings whose first level comes before the scan when the files not kept are read, as
 * the server reads them by default, for the grouping by topic (the random workspaces below read
 * them for each grouping in turn).
 */
const BY_TOPIC: readonly PapersGrouping[] = ['topic', 'file'];

/** A kept index in memory, through the real text (written, read back). */
function memoryStore(build = 'test-build'): KeptIndexStore & { text: string | undefined; writes: number; onWrite?: () => void; failing: boolean } {
  const store = {
    text: undefined as string | undefined,
    writes: 0,
    failing: false,
    onWrite: undefined as (() => void) | undefined,
    read: () => {
      if (store.text === undefined) return Promise.resolve(undefined);
      const kept = decodeKeptIndex(store.text, build);
      return Promise.resolve('files' in kept ? kept.files : undefined);
    },
    writable: () => true,
    writer: () => new KeptIndexWriter(build),
    write: (writer: KeptIndexWriter) => {
      if (store.failing) return false;
      store.text = writer.text();
      store.writes++;
      store.onWrite?.();
      return true;
    },
    writeAsync: (writer: KeptIndexWriter, wanted: () => boolean) => Promise.resolve(wanted() && store.write(writer)),
    abandon: () => undefined,
  };
  return store;
}

/** A folder of digests written an hour ago (a file written in the last two seconds is not kept). */
function folder(files: Record<string, string>): string {
  const root = temp.make('paper-digest-kept-');
  writeFiles(root, files, true);
  return root;
}

function writeFiles(root: string, files: Record<string, string>, anHourAgo = false): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    if (anHourAgo) {
      const then = new Date(Date.now() - 3_600_000);
      fs.utimesSync(file, then, then);
    }
  }
}

/** Holds a scan after its look at the kept index until `release` (`beforeFullScan`). */
function scanHold(): { beforeFullScan: () => Promise<void>; release: () => void; reached: Promise<void> } {
  let release = (): void => undefined;
  let reached = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  return {
    beforeFullScan: () => {
      reached();
      return held;
    },
    release: () => release(),
    reached: reachedPromise,
  };
}

/** Waits until the early index is no more (it is given up, or the scan is done), looking after each turn of the event loop, for at most ten seconds. */
async function waitForUndefinedEarlyIndex(files: WorkspaceDigests): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await files.earlyIndex('topic')) !== undefined) {
    assert.ok(Date.now() < deadline, 'the early index is still there after ten seconds');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A start with the kept index of `store`, its scan held after the look at it; resolves once held. */
async function heldStart(root: string, store: KeptIndexStore): Promise<{ index: WorkspaceIndex; files: WorkspaceDigests; scan: Promise<void>; release: () => void }> {
  const hold = scanHold();
  const index = new WorkspaceIndex();
  const files = new WorkspaceDigests(index, { beforeFullScan: hold.beforeFullScan });
  files.keepIndexWith(store);
  const scan = files.setFolders([fileUri(root)]);
  await hold.reached;
  return { index, files, scan, release: hold.release };
}

/** The first level of a scan of `root` without a kept index, with `open` documents over their files. */
async function freshFirstLevels(root: string, open: Record<string, string> = {}, groupings: readonly PapersGrouping[] = BY_TOPIC): Promise<unknown> {
  const index = new WorkspaceIndex();
  const files = new WorkspaceDigests(index);
  await files.setFolders([fileUri(root)]);
  for (const [uri, text] of Object.entries(open)) index.updateOpen(uri, text);
  files.dispose();
  return firstLevels(index, groupings);
}

/**
 * The first level of the tree of each grouping, with the counts: the whole tree's (as the server
 * answers it once the scan is done), which the first level alone (as it answers while the scan
 * runs, `papersTreeFirstLevel`) must equal.
 */
function firstLevels(index: WorkspaceIndex, groupings: readonly PapersGrouping[] = BY_TOPIC): unknown {
  return groupings.map((grouping) => {
    const tree = papersTree(index, grouping, '');
    const roots = tree.roots.map(withoutChildren);
    const alone = papersTreeFirstLevel(index, grouping);
    assert.deepEqual(alone && [alone.paperCount, alone.distinctPaperCount, alone.nodes], [tree.paperCount, tree.distinctPaperCount, roots], `the first level alone (${grouping})`);
    return { grouping, paperCount: tree.paperCount, distinct: tree.distinctPaperCount, indexed: index.paperCount, roots };
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

  test('Should refuse whole a kept index of other than file: URIs, of more than 20,000 files or a million papers', () => {
    const head = { format: 'paper-digest-kept-index', version: KEPT_INDEX_VERSION, build: 'b1', strings: [''], lists: [[], [-2]] };
    const file = (uri: string, papers = 0): unknown[] => [uri, 0, 0, 0, 0, 0, -1, new Array(papers).fill('k#0'), new Array(papers).fill([0, 0, 0, 0, 1]).flat()];
    assert.ok('files' in decodeKeptIndex(JSON.stringify({ ...head, files: [file('file:///w/a.digest', 2)] }), 'b1'));
    assert.deepEqual(decodeKeptIndex(JSON.stringify({ ...head, files: [file('https://example.org/a.digest')] }), 'b1'), { problem: 'corrupt' });
    const many = Array.from({ length: 20_001 }, (_, i) => file(`file:///w/${i}.digest`));
    assert.deepEqual(decodeKeptIndex(JSON.stringify({ ...head, files: many }), 'b1'), { problem: 'corrupt' });
    // Refused before a paper is made: the keys alone are counted.
    const keys = `"k#0"${',"k#0"'.repeat(1_000_000)}`;
    const text = `${JSON.stringify(head).slice(0, -1)},"files":[["file:///w/a.digest",0,0,0,0,0,-1,[${keys}],[]]]}`;
    assert.deepEqual(decodeKeptIndex(text, 'b1'), { problem: 'corrupt' });
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
    const early = await files.earlyIndex('topic');
    assert.ok(early, 'an early index while the scan runs');
    // Before the scan: the three files changed or new were read (for the first level), b.digest was not.
    assert.equal(decoded.length, 3);
    const answered = firstLevels(early);
    await scan;
    assert.equal(await files.earlyIndex('topic'), undefined, 'none once the scan is done');
    assert.deepEqual(answered, firstLevels(index));
    // The scan then read the four in full (those three read for the first level only before it).
    assert.equal(decoded.length, 7);
    files.dispose();
  });

  test('Should give the first level of random workspaces as a scan does, whatever changed since and meanwhile', async () => {
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
    const name = fc.constantFrom(...names);
    /** How a file changes: rewritten by a rename (a new inode), in place, or deleted. */
    const change = fc.record({ how: fc.constantFrom('rename', 'in place', 'delete'), text: digestText });
    const changes = fc.dictionary(name, change, { maxKeys: 4 });
    const samples = fc.sample(
      fc.record({
        before: fc.dictionary(name, digestText, { maxKeys: 5 }),
        since: changes,
        meanwhile: changes,
        deleteSub: fc.boolean(),
        open: fc.option(fc.tuple(name, digestText), { nil: undefined }),
        // Whether a start before kept the index (else this is the first start, with nothing kept).
        keptBefore: fc.boolean(),
        // What the files not kept are read for (the grouping the client shows).
        part: fc.constantFrom<FirstLevelPart>('all', 'topic', 'categories', 'institutions', 'none'),
      }),
      { numRuns: 40, seed: 4242 },
    );
    const apply = (root: string, what: Record<string, { how: string; text: string }>): { uri: string; type: 1 | 2 | 3 }[] =>
      Object.entries(what).map(([relative, { how, text }]) => {
        const file = path.join(root, relative);
        const existed = fs.existsSync(file);
        if (how === 'delete') {
          fs.rmSync(file, { force: true });
          return { uri: fileUri(file), type: 3 };
        }
        fs.mkdirSync(path.dirname(file), { recursive: true });
        if (how === 'rename') {
          fs.writeFileSync(file + '.next', text);
          fs.renameSync(file + '.next', file);
        } else {
          fs.writeFileSync(file, text);
        }
        return { uri: fileUri(file), type: existed ? 2 : 1 };
      });
    for (const { before, since, meanwhile, deleteSub, open, keptBefore, part } of samples) {
      const context = JSON.stringify({ before, since, meanwhile, deleteSub, open, keptBefore, part });
      const root = folder(before);
      const store = memoryStore();
      if (keptBefore) await scanAndKeep(root, store);
      apply(root, since);
      const openDocuments = open ? { [fileUri(path.join(root, open[0]))]: open[1] } : {};
      const expectedAtStart = await freshFirstLevels(root, openDocuments, KEPT_GROUPINGS);

      const hold = scanHold();
      const index = new WorkspaceIndex();
      const logs: string[] = [];
      const files = new WorkspaceDigests(index, { documentDelay: 60_000, beforeFullScan: hold.beforeFullScan, log: (message) => logs.push(logText(message, 'en')) });
      files.keepIndexWith(store, part);
      const scan = files.setFolders([fileUri(root)]);
      for (const [uri, text] of Object.entries(openDocuments)) {
        // A document open in the editor overrides its file.
        files.documentChanged(uri, () => parseDigest(text));
      }
      await hold.reached;
      // The files untouched since were taken from the kept index, the others read for the first level.
      const untouched = keptBefore ? Object.keys(before).filter((each) => !(each in since)).length : 0;
      const readAnew = /(?:; (\d+) others?|: (\d+) of the \d+ digest files?) (?:was|were) read/.exec(logs.join('\n'));
      // Nothing kept before: the line says so, not that none of the files was as kept, nor that
      // the files read were others than those kept.
      const keptPart = keptBefore ? `has ${untouched} of the \\d+ digest files? as (?:it is|they are); \\d+ others?` : `no index was kept at an earlier start \\(the first start, or one after an update\\): \\d+ of the \\d+ digest files?`;
      assert.match(logs.join('\n'), new RegExp(`${keptPart} (?:was|were) read for the Papers tree's first level \\(0 by a worker thread\\), 0 in full`), context);
      // The groupings the files read anew were read for (all, when none was).
      const covered = Number(readAnew?.[1] ?? readAnew?.[2]) === 0 ? KEPT_GROUPINGS : KEPT_GROUPINGS.filter((grouping) => firstLevelPartCovers(part, firstLevelPartOf(grouping)!));
      for (const grouping of KEPT_GROUPINGS.filter((each) => !covered.includes(each))) {
        assert.equal(await files.earlyIndex(firstLevelPartOf(grouping)), undefined, `${context}: no early index by ${grouping}`);
      }
      const wanted = part === 'all' || covered === KEPT_GROUPINGS ? 'all' : part;
      const early = await files.earlyIndex(wanted);
      assert.ok(early, context);
      const expected = (expectedAtStart as { grouping: PapersGrouping }[]).filter((each) => covered.includes(each.grouping));
      assert.deepEqual(firstLevels(early, covered), expected, context);
      // Files change while the scan is held, and their events come.
      const events = apply(root, meanwhile);
      if (deleteSub) {
        fs.rmSync(path.join(root, 'sub'), { recursive: true, force: true });
        events.push({ uri: fileUri(path.join(root, 'sub')), type: 3 });
      }
      await files.filesChanged(events);
      const later = await files.earlyIndex(wanted);
      assert.ok(later, context);
      const answered = firstLevels(later, covered);
      hold.release();
      await scan;
      files.flush();
      assert.deepEqual(answered, firstLevels(index, covered), context);
      assert.deepEqual(answered, (await freshFirstLevels(root, openDocuments, KEPT_GROUPINGS) as { grouping: PapersGrouping }[]).filter((each) => covered.includes(each.grouping)), context);
      files.dispose();
    }
  });

  test('Should not count a file twice that an event read under another name (a hard link) before the scan', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'c.digest': digest(entryLines('C')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    fs.linkSync(path.join(root, 'a.digest'), path.join(root, 'b.digest'));
    const { index, files, scan, release } = await heldStart(root, store);
    await files.filesChanged([{ uri: fileUri(path.join(root, 'b.digest')), type: 1 }]);
    const answered = firstLevels((await files.earlyIndex('topic'))!);
    release();
    await scan;
    assert.deepEqual(answered, firstLevels(index));
    assert.equal(index.paperCount, 2);
    files.dispose();
  });

  test('Should give up the early answer when the name a file was met under first goes or is saved anew, and it has another name', async () => {
    for (const [kept, change] of [
      [true, 'delete'],
      [false, 'delete'],
      [true, 'folder'],
      [true, 'replace'],
      [false, 'replace'],
    ] as const) {
      const context = `${kept ? 'kept' : 'nothing kept'}, ${change}`;
      const root = folder({ 'a/a.digest': digest(entryLines('A'), entryLines('B')), 'b/c.digest': digest(entryLines('C')) });
      const first = path.join(root, 'a/a.digest');
      // `b/z.digest`, met after `a/a.digest` by the walk (folder by folder), is another name of it.
      fs.linkSync(first, path.join(root, 'b/z.digest'));
      const store = memoryStore();
      if (kept) await scanAndKeep(root, store);
      const { index, files, scan, release } = await heldStart(root, store);
      assert.ok(await files.earlyIndex('topic'), context);
      if (change === 'delete') {
        fs.rmSync(first);
        await files.filesChanged([{ uri: fileUri(first), type: 3 }]);
      } else if (change === 'folder') {
        fs.rmSync(path.join(root, 'a'), { recursive: true });
        await files.filesChanged([{ uri: fileUri(path.join(root, 'a')), type: 3 }]);
      } else {
        // Saved anew (a new file under the name): the other name keeps the old one.
        fs.rmSync(first);
        fs.writeFileSync(first, digest(entryLines('D')));
        await files.filesChanged([{ uri: fileUri(first), type: 2 }]);
      }
      // The scan indexes the file under `z.digest` now: the first level waits for it.
      assert.equal(await files.earlyIndex('topic'), undefined, context);
      release();
      await scan;
      assert.ok(index.files().some((file) => file.uri.endsWith('/z.digest')), context);
      files.dispose();
    }
  });

  test('Should keep the early answer when a file of a workspace folder inside another is saved (met twice, not another name)', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'sub/b.digest': digest(entryLines('B')) });
    const hold = scanHold();
    const files = new WorkspaceDigests(new WorkspaceIndex(), { beforeFullScan: hold.beforeFullScan });
    files.keepIndexWith(memoryStore());
    const scan = files.setFolders([fileUri(root), fileUri(path.join(root, 'sub'))]);
    await hold.reached;
    const saved = path.join(root, 'sub/b.digest');
    fs.writeFileSync(saved, digest(entryLines('C')));
    await files.filesChanged([{ uri: fileUri(saved), type: 2 }]);
    assert.ok(await files.earlyIndex('topic'), 'an ordinary save keeps the early answer');
    hold.release();
    await scan;
    files.dispose();
  });

  test('Should give up the early answer when the first name of a hard-linked file went before the walk met the other', async () => {
    const root = folder({ 'a/a.digest': digest(entryLines('A')), 'b/c.digest': digest(entryLines('C')) });
    const first = path.join(root, 'a/a.digest');
    const other = path.join(root, 'b/z.digest');
    fs.linkSync(first, other);
    // Kept at the last start: the first name is taken from there, not read again at this one.
    const store = memoryStore();
    await scanAndKeep(root, store);
    // The walk's look at the other name waits until the first name is deleted and its event read.
    const promises = require('node:fs/promises') as typeof import('node:fs/promises');
    const lstat = promises.lstat;
    let reached = (): void => undefined;
    const atOther = new Promise<void>((resolve) => (reached = resolve));
    let go = (): void => undefined;
    const gone = new Promise<void>((resolve) => (go = resolve));
    promises.lstat = (async (file: string, ...rest: unknown[]) => {
      if (file === other) {
        reached();
        await gone;
      }
      return (lstat as (...args: unknown[]) => unknown)(file, ...rest);
    }) as typeof lstat;
    try {
      const hold = scanHold();
      const index = new WorkspaceIndex();
      const files = new WorkspaceDigests(index, { beforeFullScan: hold.beforeFullScan });
      files.keepIndexWith(store);
      const scan = files.setFolders([fileUri(root)]);
      await atOther;
      fs.rmSync(first);
      await files.filesChanged([{ uri: fileUri(first), type: 3 }]);
      go();
      await hold.reached;
      assert.equal(await files.earlyIndex('topic'), undefined);
      hold.release();
      await scan;
      assert.ok(index.files().some((file) => file.uri.endsWith('/z.digest')));
      files.dispose();
    } finally {
      promises.lstat = lstat;
    }
  });

  test('Should not take a kept file past the size limit, nor keep a file written in the last two seconds', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'big.digest': digest(entryLines('B'), entryLines('C')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    const index = new WorkspaceIndex();
    const limits = { ...DEFAULT_SCAN_LIMITS, maxFileBytes: fs.statSync(path.join(root, 'a.digest')).size + 1 };
    const files = new WorkspaceDigests(index, { limits });
    files.keepIndexWith(store);
    const scan = files.setFolders([fileUri(root)]);
    const answered = firstLevels((await files.earlyIndex('topic'))!);
    await scan;
    assert.deepEqual(answered, firstLevels(index));
    assert.equal(index.paperCount, 1);
    files.dispose();
    // Just written: read, not kept, so read again at the next start.
    writeFiles(root, { 'fresh.digest': digest(entryLines('F')) });
    const again = memoryStore();
    await scanAndKeep(root, again);
    const kept = decodeKeptIndex(again.text!, 'test-build');
    assert.ok('files' in kept);
    assert.deepEqual([...kept.files.keys()].map((uri) => path.basename(uri)), ['a.digest', 'big.digest']);
  });

  test('Should have no early index once the folders changed after the scan began', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const other = folder({ 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    const { files, scan, release } = await heldStart(root, store);
    assert.ok(await files.earlyIndex('topic'));
    const added = files.changeFolders([fileUri(other)], []);
    assert.equal(await files.earlyIndex('topic'), undefined);
    release();
    await Promise.all([scan, added]);
    files.dispose();
  });

  test('Should have no early index once a folder was moved in during the scan (it is read after it)', async () => {
    const root = folder({ 'sub/a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    const scanned = firstLevels(await scanAndKeep(root, store));
    const { index, files, scan, release } = await heldStart(root, store);
    fs.renameSync(path.join(root, 'sub'), path.join(root, 'moved'));
    const events = files.filesChanged([
      { uri: fileUri(path.join(root, 'sub')), type: 3 },
      { uri: fileUri(path.join(root, 'moved')), type: 1 },
    ]);
    // Its scan waits behind the first one; the first level waits for both.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await waitForUndefinedEarlyIndex(files);
    release();
    await Promise.all([scan, events]);
    assert.equal(index.paperCount, 2);
    assert.notDeepEqual(firstLevels(index), scanned, 'the file group is another');
    files.dispose();
  });

  test('Should not write the kept index again for another device number alone (a network mount)', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    const value = JSON.parse(store.text!) as { files: unknown[][] };
    for (const file of value.files) file[4] = (file[4] as number) + 1;
    store.text = JSON.stringify(value);
    const logs: string[] = [];
    const files = new WorkspaceDigests(new WorkspaceIndex(), { log: (message) => logs.push(logText(message, 'en')) });
    files.keepIndexWith(store);
    await files.setFolders([fileUri(root)]);
    files.dispose();
    assert.match(logs.join('\n'), /has 1 of the 1 digest file as it is/);
    assert.equal(store.writes, 1);
  });

  test('Should keep a file saved while the server runs, read again once its last write is two seconds old', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const store = memoryStore();
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    files.keepIndexWith(store);
    await files.setFolders([fileUri(root)]);
    const kept = new Promise<void>((resolve) => (store.onWrite = resolve));
    await kept;
    // Saved now: read at once, too soon (within two seconds of the write) to keep its fingerprint;
    // read again when the index is kept next (five seconds later).
    writeFiles(root, { 'saved.digest': digest(entryLines('S')), 'edited.digest': digest(entryLines('E')), 'touched.digest': digest(entryLines('T')) });
    const saved = fileUri(path.join(root, 'saved.digest'));
    const edited = fileUri(path.join(root, 'edited.digest'));
    const touched = fileUri(path.join(root, 'touched.digest'));
    const written = fs.statSync(path.join(root, 'edited.digest')).mtime;
    await files.filesChanged([saved, edited, touched].map((uri) => ({ uri, type: 1 })));
    const summaries = [saved, edited, touched].map((uri) => index.diskFile(uri));
    // Meanwhile, with no event yet: other bytes at the same time, and the same bytes at another
    // time (undated digests are ordered by it).
    writeFiles(root, { 'edited.digest': digest(entryLines('F')) });
    fs.utimesSync(path.join(root, 'edited.digest'), written, written);
    const older = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(root, 'touched.digest'), older, older);
    await new Promise<void>((resolve) => (store.onWrite = resolve));
    files.dispose();
    const decoded = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in decoded);
    assert.deepEqual([...decoded.files.keys()].map((uri) => path.basename(uri)), ['a.digest', 'edited.digest', 'saved.digest', 'touched.digest']);
    // Read again with the same bytes and time, the file is not indexed anew (what was made of it
    // stays); with other bytes, or another time, it is.
    assert.equal(index.diskFile(saved), summaries[0]);
    assert.notEqual(index.diskFile(edited), summaries[1]);
    assert.deepEqual(index.diskFile(edited)?.papers.map((paper) => paper.englishTitle.slice(0, 1)), ['F']);
    assert.notEqual(index.diskFile(touched), summaries[2]);
    assert.equal(files.mtimeOf(touched), fs.statSync(path.join(root, 'touched.digest')).mtimeMs);
  });

  test('Should write the kept index again when what it held of an unchanged file was wrong', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    const right = firstLevels(await scanAndKeep(root, store));
    // Another topic where the file says 数学推理, the fingerprints as they are.
    store.text = store.text!.replace('"数学推理"', '"另一个专题"');
    const logs: string[] = [];
    const files = new WorkspaceDigests(new WorkspaceIndex(), { log: (message) => logs.push(logText(message, 'en')) });
    files.keepIndexWith(store);
    const scan = files.setFolders([fileUri(root)]);
    assert.notDeepEqual(firstLevels((await files.earlyIndex('topic'))!), right, 'what was kept answers until the scan reads the files');
    await scan;
    files.dispose();
    assert.equal(store.writes, 2, 'written again');
    const again = new WorkspaceDigests(new WorkspaceIndex());
    again.keepIndexWith(store);
    const next = again.setFolders([fileUri(root)]);
    assert.deepEqual(firstLevels((await again.earlyIndex('topic'))!), right);
    await next;
    again.dispose();
  });

  test('Should write the kept index again at the next chance when a write failed', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')) });
    const store = memoryStore();
    store.failing = true;
    await scanAndKeep(root, store);
    assert.equal(store.writes, 0);
    store.failing = false;
    const files = new WorkspaceDigests(new WorkspaceIndex());
    files.keepIndexWith(store);
    await files.setFolders([fileUri(root)]);
    files.dispose();
    assert.equal(store.writes, 1);
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
    writeFiles(root, { 'c.digest': digest(entryLines('C')) }, true);
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
    // The write's promise settles, and the server notes what it kept, before the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(idleAsked, 1);
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept && kept.files.size === 2);
    files.dispose();
    assert.equal(store.writes, 1);
  });

  test('Should keep what a start read in full, and the files kept, when it ends before its scan is done (not those read for the first level)', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'fresh.digest': digest(entryLines('F')) });
    // Written now: read for the first level, but not kept (a write in the same tick may follow).
    fs.utimesSync(path.join(root, 'fresh.digest'), new Date(), new Date());
    const store = memoryStore();
    /** A start whose scan is held; an event reads `name` in full, and the server then goes. The names kept. */
    const goesAfterReading = async (name: string): Promise<string[]> => {
      const start = await heldStart(root, store);
      await start.files.filesChanged([{ uri: fileUri(path.join(root, name)), type: 2 }]);
      start.files.dispose();
      start.release();
      await start.scan;
      const kept = decodeKeptIndex(store.text!, 'test-build');
      assert.ok('files' in kept);
      return [...kept.files.keys()].map((uri) => path.basename(uri));
    };
    // The others were read for the first level by topic alone: read again at the next start.
    assert.deepEqual(await goesAfterReading('a.digest'), ['a.digest']);
    const keptA = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in keptA);
    assert.deepEqual(firstLevelFields(keptA.files.get(fileUri(path.join(root, 'a.digest')))!.summary), firstLevelFields((await scanAndKeep(root, memoryStore())).file(fileUri(path.join(root, 'a.digest')))!));
    // All kept by a whole scan; six new files since: the files kept, and one of the new ones read in full.
    fs.rmSync(path.join(root, 'fresh.digest'));
    await scanAndKeep(root, store);
    writeFiles(root, Object.fromEntries(['n1', 'n2', 'n3', 'n4', 'n5', 'n6'].map((name) => [`${name}.digest`, digest(entryLines(name.toUpperCase()))])), true);
    assert.deepEqual(await goesAfterReading('n3.digest'), ['a.digest', 'b.digest', 'n3.digest']);
    // Nothing new since (a file kept read in full as kept): the kept index stays as it is.
    const writes = store.writes;
    await goesAfterReading('b.digest');
    assert.equal(store.writes, writes);
  });

  test('Should keep none of the files read for one grouping when the start ends before its scan is done', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    writeFiles(root, { 'n1.digest': digest(entryLines('N1')), 'n2.digest': digest(entryLines('N2')) }, true);
    const expected = await freshFirstLevels(root);
    for (const part of ['topic', 'none'] as const) {
      const hold = scanHold();
      const logs: string[] = [];
      const files = new WorkspaceDigests(new WorkspaceIndex(), { beforeFullScan: hold.beforeFullScan, log: (message) => logs.push(logText(message, 'en')) });
      files.keepIndexWith(store, part);
      const scan = files.setFolders([fileUri(root)]);
      await hold.reached;
      assert.match(logs.join('\n'), /has 2 of the 4 digest files as they are; 2 others were read for the Papers tree's first level/);
      const early = await files.earlyIndex(part);
      assert.ok(early);
      assert.deepEqual(firstLevels(early, part === 'topic' ? ['topic', 'file'] : ['file']), (expected as { grouping: string }[]).filter((each) => (part === 'topic' ? ['topic', 'file'] : ['file']).includes(each.grouping)));
      assert.equal(await files.earlyIndex('institutions'), undefined);
      files.dispose();
      hold.release();
      await scan;
      const kept = decodeKeptIndex(store.text!, 'test-build');
      assert.ok('files' in kept);
      assert.deepEqual([...kept.files.keys()].map((uri) => path.basename(uri)), ['a.digest', 'b.digest'], 'not the files read for one grouping');
    }
  });

  test('Should not cut the kept index down when the server goes during the walk before the scan', async () => {
    const root = folder(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${String(i).padStart(2, '0')}.digest`, digest(entryLines(`P${i}`))])));
    const store = memoryStore();
    await scanAndKeep(root, store);
    const writes = store.writes;
    const index = new WorkspaceIndex();
    const files: WorkspaceDigests = new WorkspaceDigests(index);
    const read = store.read;
    // Goes at the first turn of the event loop after the kept index is read: the walk has begun.
    files.keepIndexWith({ ...store, read: () => read().then((kept) => (setImmediate(() => files.dispose()), kept)) });
    await files.setFolders([fileUri(root)]);
    assert.equal(store.writes, writes, 'nothing written (nothing new to keep)');
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept && kept.files.size === 30);
  });

  test('Should give up the early answer when a file changes or goes once the walk reached the file limit', async () => {
    for (const [how, keptBefore] of [['delete', false], ['delete', true], ['not text', false], ['create', false], ['create', true]] as const) {
      const context = `${how}, kept before: ${keptBefore}`;
      const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
      const store = memoryStore();
      if (keptBefore) await scanAndKeep(root, store);
      const index = new WorkspaceIndex();
      const hold = scanHold();
      const files = new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxFiles: 2 }, beforeFullScan: hold.beforeFullScan });
      files.keepIndexWith(store);
      const scan = files.setFolders([fileUri(root)]);
      await hold.reached;
      assert.ok(await files.earlyIndex('topic'), context);
      const a = path.join(root, 'a.digest');
      if (how === 'delete') {
        fs.rmSync(a);
        await files.filesChanged([{ uri: fileUri(a), type: 3 }]);
      } else if (how === 'not text') {
        fs.writeFileSync(a, Buffer.from([0xff, 0xfe, 0x41]));
        await files.filesChanged([{ uri: fileUri(a), type: 2 }]);
      } else {
        writeFiles(root, { '0.digest': digest(entryLines('Z')) });
        await files.filesChanged([{ uri: fileUri(path.join(root, '0.digest')), type: 1 }]);
      }
      const early = await files.earlyIndex('topic');
      hold.release();
      await scan;
      assert.equal(early, undefined, context);
      assert.equal(index.paperCount, 2, context);
      files.dispose();
    }
  });

  test('Should answer with the same early index while the scan only reads files as they were kept', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    const index = new WorkspaceIndex();
    const hold = scanHold();
    const files = new WorkspaceDigests(index, { beforeFullScan: hold.beforeFullScan });
    files.keepIndexWith(store);
    const scan = files.setFolders([fileUri(root)]);
    await hold.reached;
    const early = await files.earlyIndex('topic');
    assert.ok(early);
    const answered = firstLevels(early);
    const seen = new Set<WorkspaceIndex | undefined>();
    index.onDidChange(() => {
      // After each file the scan reads (before the next).
      void files.earlyIndex('topic').then((each) => seen.add(each));
    });
    hold.release();
    await scan;
    seen.delete(undefined);
    assert.deepEqual([...seen], [early], 'the one early index');
    // It has the files as read now (what was kept of them let go), with the same first level.
    assert.deepEqual(firstLevels(early), answered);
    assert.doesNotThrow(() => early.file(fileUri(path.join(root, 'a.digest')))!.papers[0].title);
    files.dispose();
  });

  test('Should stop reading when the server goes while it reads for the first level', async () => {
    const root = folder(Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((name) => [`${name}.digest`, digest(entryLines(name.toUpperCase()))])));
    let decoded = 0;
    const index = new WorkspaceIndex();
    const files: WorkspaceDigests = new WorkspaceDigests(index, {
      decode: (bytes) => {
        if (++decoded === 2) files.dispose();
        return bytes.toString('utf8');
      },
    });
    files.keepIndexWith(memoryStore());
    await files.setFolders([fileUri(root)]);
    // Not one more file once it went (the next was read while that one was parsed, not decoded).
    assert.equal(decoded, 2);
    assert.equal(index.paperCount, 0);
  });

  test('Should not answer early when a file the walk counted towards the file limit is one the scan skips', async () => {
    for (const keptBefore of [false, true]) {
      const root = folder({ 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
      const store = memoryStore();
      if (keptBefore) await scanAndKeep(root, store);
      // Not text: the scan skips it, and does not count it.
      fs.writeFileSync(path.join(root, 'a.digest'), Buffer.from([0xff, 0xfe, 0x41]));
      const index = new WorkspaceIndex();
      const files = new WorkspaceDigests(index, { limits: { ...DEFAULT_SCAN_LIMITS, maxFiles: 2 } });
      files.keepIndexWith(store);
      const scan = files.setFolders([fileUri(root)]);
      const early = await files.earlyIndex('topic');
      const answered = early && firstLevels(early);
      await scan;
      assert.equal(index.paperCount, 2, `kept before: ${keptBefore}`);
      assert.equal(answered, undefined, `kept before: ${keptBefore}: the scan alone tells`);
      files.dispose();
    }
  });

  test('Should keep the index of a workspace with no digest, so that the next start is not a first start', async () => {
    const root = folder({ 'notes.txt': 'no digest here' });
    const store = memoryStore();
    await scanAndKeep(root, store);
    assert.equal(store.writes, 1);
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept && kept.files.size === 0);
    const logs: string[] = [];
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index, { log: (m) => logs.push(logText(m, 'en')) });
    files.keepIndexWith(store);
    await files.setFolders([fileUri(root)]);
    files.dispose();
    assert.equal(store.writes, 1, 'nothing to write again');
    assert.match(logs.join('\n'), /has 0 of the 0 digest files as they are; 0 others/);
  });

  test('Should not replace the kept index with what an event read when the server goes before the kept index is read', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
    const store = memoryStore();
    await scanAndKeep(root, store);
    const writes = store.writes;
    let release = (): void => undefined;
    const heldRead = new Promise<void>((resolve) => (release = resolve));
    const read = store.read;
    const slow = { ...store, read: () => heldRead.then(read) };
    const index = new WorkspaceIndex();
    const files = new WorkspaceDigests(index);
    files.keepIndexWith(slow);
    const scan = files.setFolders([fileUri(root)]);
    await files.filesChanged([{ uri: fileUri(path.join(root, 'a.digest')), type: 2 }]);
    assert.equal(index.paperCount, 1);
    files.dispose();
    release();
    await scan;
    assert.equal(store.writes, writes);
    const kept = decodeKeptIndex(store.text!, 'test-build');
    assert.ok('files' in kept && kept.files.size === 3);
  });

  test('Should give the first level the scan comes to when files change and go while they are read for it', async () => {
    for (const at of [1, 2, 3]) {
      const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': digest(entryLines('C')) });
      const uri = (name: string): string => fileUri(path.join(root, name));
      let calls = 0;
      let events: Promise<void> = Promise.resolve();
      const hold = scanHold();
      const index = new WorkspaceIndex();
      const files: WorkspaceDigests = new WorkspaceDigests(index, {
        documentDelay: 60_000,
        beforeFullScan: hold.beforeFullScan,
        decode: (bytes) => {
          if (++calls === at) {
            // While the files are read for the first level: one rewritten (read before or after
            // this), one deleted, one new, with their events.
            fs.writeFileSync(path.join(root, 'a.digest'), digest(entryLines('A2', { topicHits: '专题命中 智能体 ：planning(title)' })));
            fs.rmSync(path.join(root, 'c.digest'));
            fs.writeFileSync(path.join(root, 'd.digest'), digest(entryLines('D')));
            events = files.filesChanged([
              { uri: uri('a.digest'), type: 2 },
              { uri: uri('c.digest'), type: 3 },
              { uri: uri('d.digest'), type: 1 },
            ]);
          }
          return bytes.toString('utf8');
        },
      });
      files.keepIndexWith(memoryStore());
      const scan = files.setFolders([fileUri(root)]);
      await hold.reached;
      // Once the events are read (the scan is held: it does not read the files meanwhile).
      await events;
      const early = await files.earlyIndex('topic');
      assert.ok(early, `at ${at}`);
      const answered = firstLevels(early);
      hold.release();
      await scan;
      files.flush();
      assert.deepEqual(answered, firstLevels(index), `at ${at}`);
      assert.deepEqual(answered, await freshFirstLevels(root), `at ${at}`);
      files.dispose();
    }
  });

  test('Should not count a digest file that is not text among the digest files the start line tells of', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')) });
    fs.writeFileSync(path.join(root, 'binary.digest'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const logs: string[] = [];
    const files = new WorkspaceDigests(new WorkspaceIndex(), { log: (message) => logs.push(logText(message, 'en')) });
    files.keepIndexWith(memoryStore());
    await files.setFolders([fileUri(root)]);
    files.dispose();
    assert.match(logs.join('\n'), /no index was kept at an earlier start \(the first start, or one after an update\): 2 of the 2 digest files were read for the Papers tree's first level \(0 by a worker thread\), 0 in full \(\d+ ms\); skipped 1: 1 not UTF-8 text\./);
    assert.match(logs.join('\n'), /indexed 2 digest files \(2 papers\) in \d+ ms; skipped 1: 1 not UTF-8 text\./);
  });

  test('Should read every file for the first level when nothing was kept, then in full', async () => {
    const root = folder({ 'a.digest': digest(entryLines('A'), entryLines('A')), 'sub/b.digest': digest(entryLines('B', { englishTitle: null })) });
    const expected = await freshFirstLevels(root);
    const store = memoryStore();
    const { index, files, scan, release } = await heldStart(root, store);
    const early = await files.earlyIndex('topic');
    assert.ok(early, 'an early index at the first start too');
    assert.equal(index.paperCount, 0, 'nothing read in full yet');
    assert.deepEqual(firstLevels(early), expected);
    // Its papers have what the first level needs, nothing else.
    assert.throws(() => early.file(fileUri(path.join(root, 'a.digest')))!.papers[0].title, NotKeptError);
    release();
    await scan;
    assert.equal(index.paperCount, 3);
    assert.equal(await files.earlyIndex('topic'), undefined);
    assert.deepEqual(firstLevels(index), expected);
    files.dispose();
    assert.equal(store.writes, 1, 'kept for the next start');
  });
});

/** A writer of the store with the files added. */
function writerOf(store: KeptIndexStore, files: readonly KeptFile[]): KeptIndexWriter {
  const writer = store.writer();
  files.forEach((file) => writer.add(file));
  return writer;
}

/** What the Papers tree's first level reads of a file's summary. */
function firstLevelFields(summary: FileSummary): unknown {
  return {
    heading: summary.heading,
    papers: summary.papers.map((paper) => ({
      entryIndex: paper.entryIndex,
      key: paper.key,
      titleKey: paper.titleKey,
      topic: paper.topic,
      keywords: [...paper.keywords],
      categories: [...paper.categories],
      institutions: paper.institutions.map((each) => ({ ...each })),
    })),
  };
}

describe('kept index: the files read for the first level only (a first start)', () => {
  test('Should give each paper the first level the whole summary gives it, for random digests', () => {
    fc.assert(
      fc.property(fc.oneof(digestMutant, noisyDigests(DIGEST_MATERIAL), digestText), (text) => {
        const uri = 'file:///w/a.digest';
        const doc = parseWithinLimits(text);
        assert.deepEqual(firstLevelFields(firstLevelSummary(uri, doc)), firstLevelFields(summariseDigest(uri, doc, 'disk')));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('Should give each paper what one grouping needs as the whole summary gives it, and nothing else, for random digests', () => {
    const parts: FirstLevelPart[] = ['topic', 'categories', 'institutions', 'none'];
    fc.assert(
      fc.property(fc.oneof(digestMutant, noisyDigests(DIGEST_MATERIAL), digestText), fc.constantFrom(...parts), (text, part) => {
        const uri = 'file:///w/a.digest';
        const doc = parseWithinLimits(text);
        const whole = firstLevelFields(summariseDigest(uri, doc, 'disk')) as { heading: string; papers: Record<string, unknown>[] };
        const expected = {
          heading: whole.heading,
          papers: whole.papers.map((paper) => ({
            ...paper,
            topic: part === 'topic' ? paper.topic : '',
            keywords: [],
            categories: part === 'categories' ? paper.categories : [],
            institutions: part === 'institutions' ? paper.institutions : [],
          })),
        };
        assert.deepEqual(firstLevelFields(firstLevelSummary(uri, doc, part)), expected);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  test('Should say which reads give which grouping its first level', () => {
    assert.deepEqual(
      KEPT_GROUPINGS.map((grouping) => firstLevelPartOf(grouping)),
      ['topic', 'categories', 'institutions', 'none'],
    );
    assert.deepEqual((['unread', 'starred', 'new', 'forYou'] as const).map((grouping) => firstLevelPartOf(grouping)), [undefined, undefined, undefined, undefined]);
    assert.ok(firstLevelPartCovers('all', 'institutions'));
    assert.ok(firstLevelPartCovers('topic', 'none'), 'any read gives the first level by file');
    assert.ok(!firstLevelPartCovers('topic', 'categories'));
    assert.ok(!firstLevelPartCovers('none', 'topic'));
  });

  /** Digest files of `papers` papers each, written an hour ago; their tasks. */
  function bigFiles(count: number, papers: number): { root: string; tasks: { uri: string; file: string }[] } {
    const root = folder(Object.fromEntries(Array.from({ length: count }, (_, i) => [`d${i}.digest`, generatedDigest(papers).replace(/^(\S+ \S+)/gm, `$1 ${i}`)])));
    const tasks = fs.readdirSync(root).sort().map((name) => ({ uri: fileUri(path.join(root, name)), file: path.join(root, name) }));
    return { root, tasks };
  }

  function expectedOf(tasks: readonly { uri: string; file: string }[], part: FirstLevelPart = 'all'): unknown[] {
    return tasks.map(({ uri, file }) => firstLevelFields(firstLevelSummary(uri, parseWithinLimits(fs.readFileSync(file, 'utf8')), part)));
  }

  // The compiled worker, next to the module that starts it, and the bundled one, next to the server.
  for (const [built, script] of [
    ['compiled', path.join(__dirname, '../../server/src/firstLevelWorker.js')],
    ['bundled', path.join(__dirname, '../../../dist/firstLevelWorker.js')],
  ]) {
  test(`Should have the worker thread (${built}) read every file it takes, and send each back whole, then say it is done`, async () => {
    assert.ok(fs.existsSync(script), `${script} is missing: build first`);
    const { tasks } = bigFiles(3, 50);
    const counters = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(script, { workerData: counters.buffer });
    const messages: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: unknown) => {
        messages.push(message);
        if (message === FIRST_LEVEL_DONE) resolve();
      });
      worker.once('error', reject);
    });
    const work: FirstLevelWork = { tasks: [...tasks, { uri: fileUri('/no/such.digest'), file: '/no/such.digest' }], maxBytes: 32 * 1024 * 1024, part: 'categories' };
    worker.postMessage(work);
    await done;
    await worker.terminate();
    assert.ok(Atomics.load(counters, WORKER_TOOK) > 0);
    assert.ok(Atomics.load(counters, NEXT) >= work.tasks.length, 'every file taken');
    // One message a file read, in the order taken, each a kept index of that file; then done, last.
    assert.equal(messages.length, tasks.length + 1);
    assert.equal(messages.at(-1), FIRST_LEVEL_DONE);
    const decoded = messages.slice(0, -1).map((message) => {
      assert.equal(typeof message, 'string');
      const kept = decodeKeptIndex(message as string, FIRST_LEVEL_BUILD);
      assert.ok('files' in kept);
      assert.equal(kept.files.size, 1);
      return [...kept.files][0];
    });
    // The missing file is not there: the workspace reads it in full, and says why it cannot.
    assert.deepEqual(decoded.map(([uri]) => uri), tasks.map((task) => task.uri));
    // Read for what it was asked (the categories).
    assert.deepEqual(decoded.map(([, file]) => firstLevelFields(file.summary)), expectedOf(tasks, 'categories'));
    assert.notDeepEqual(expectedOf(tasks, 'categories'), expectedOf(tasks));
  });
  }

  test('Should read many files with a worker thread beside this one, and leave out what cannot be read so', async () => {
    const { root, tasks } = bigFiles(8, 800);
    const bytes = tasks.reduce((sum, task) => sum + fs.statSync(task.file).size, 0);
    assert.ok(bytes > 4 * 1024 * 1024, 'enough for a worker');
    fs.writeFileSync(path.join(root, 'binary.digest'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    fs.symlinkSync(tasks[0].file, path.join(root, 'link.digest'));
    const odd = ['binary.digest', 'link.digest', 'gone.digest'].map((name) => ({ uri: fileUri(path.join(root, name)), file: path.join(root, name) }));
    const logs: string[] = [];
    let waited = false;
    const reader: FirstLevelReader = new FirstLevelReader({
      maxBytes: 32 * 1024 * 1024,
      part: 'all',
      decode: (b) => {
        if (!waited && b.length > 100) {
          // This thread's first digest waits until the worker has gone for one (of the six left).
          waited = true;
          const deadline = Date.now() + 20_000;
          while (reader.workerTook() === 0) assert.ok(Date.now() < deadline, 'the worker took no file');
        }
        return b.includes(0xff) ? undefined : b.toString('utf8');
      },
      log: (m) => logs.push(logText(m, 'en')),
    });
    const { files, byWorker } = await reader.read([...odd, ...tasks], bytes);
    assert.deepEqual([...files.keys()].sort(), tasks.map((task) => task.uri).sort());
    assert.deepEqual(tasks.map((task) => firstLevelFields(files.get(task.uri)!.summary)), expectedOf(tasks));
    assert.ok(byWorker >= 1 && byWorker < tasks.length, `the worker read ${byWorker}`);
    assert.deepEqual(logs, []);
    await assert.rejects(() => reader.read(tasks, bytes), /reads once/);
  });

  test('Should read many small files with a worker thread too (under 4 MB in all, from 256 files)', async () => {
    const { tasks } = bigFiles(300, 1);
    const bytes = tasks.reduce((sum, task) => sum + fs.statSync(task.file).size, 0);
    assert.ok(bytes < 4 * 1024 * 1024);
    const read = async (count: number): Promise<number> => {
      // No worker to wait for below 256 files.
      let waited = count < 256;
      const reader: FirstLevelReader = new FirstLevelReader({
        maxBytes: 32 * 1024 * 1024,
        part: 'all',
        decode: (b) => {
          if (!waited) {
            // This thread's first file waits for the worker to go for one.
            waited = true;
            const deadline = Date.now() + 20_000;
            while (reader.workerTook() === 0) assert.ok(Date.now() < deadline, 'the worker took no file');
          }
          return b.toString('utf8');
        },
      });
      const { files, byWorker } = await reader.read(tasks.slice(0, count), bytes);
      assert.equal(files.size, count);
      return byWorker;
    };
    assert.ok((await read(300)) > 0, 'a worker for 300 files');
    assert.equal(await read(255), 0, 'none for 255 small files');
  });

  test('Should keep the files a worker sent before it failed, and leave out the one it took and did not send', async () => {
    const { root, tasks } = bigFiles(8, 800);
    const bytes = tasks.reduce((sum, task) => sum + fs.statSync(task.file).size, 0);
    assert.ok(bytes > 4 * 1024 * 1024, 'enough for a worker');
    // A worker that reads and sends one file, takes another, and fails: its error may come
    // before the message sent just before it, which must not be lost.
    const modules = path.join(__dirname, '../../server/src');
    const script = path.join(root, 'failing-worker.js');
    fs.writeFileSync(
      script,
      `const { parentPort, workerData } = require('node:worker_threads');
      const { FIRST_LEVEL_BUILD, NEXT, WORKER_TOOK, readFirstLevelSync } = require(${JSON.stringify(path.join(modules, 'firstLevelRead.js'))});
      const { KeptIndexWriter } = require(${JSON.stringify(path.join(modules, 'service/keptIndex.js'))});
      const counters = new Int32Array(workerData);
      parentPort.once('message', (work) => {
        Atomics.add(counters, WORKER_TOOK, 1);
        const sent = work.tasks[Atomics.add(counters, NEXT, 1)];
        const lost = work.tasks[Atomics.add(counters, NEXT, 1)];
        const writer = new KeptIndexWriter(FIRST_LEVEL_BUILD);
        writer.add(readFirstLevelSync(sent, work.maxBytes, (b) => b.toString('utf8'), work.part));
        parentPort.postMessage(writer.text());
        throw new Error('failed after sending ' + sent.uri + ', with ' + lost.uri);
      });`,
    );
    const logs: string[] = [];
    let waited = false;
    const reader: FirstLevelReader = new FirstLevelReader({
      maxBytes: 32 * 1024 * 1024,
      part: 'all',
      workerScript: script,
      decode: (b) => {
        if (!waited) {
          // This thread's first file (the next one taken already, to be read meanwhile) waits
          // until the worker has taken its two.
          waited = true;
          const deadline = Date.now() + 20_000;
          while (Atomics.load(reader['counters'], NEXT) < 4) assert.ok(Date.now() < deadline, 'the worker took no file');
        }
        return b.toString('utf8');
      },
      log: (m) => logs.push(logText(m, 'en')),
    });
    const { files, byWorker } = await reader.read(tasks, bytes);
    assert.equal(logs.length, 1, logs.join('\n'));
    const [, sent, lost] = /after sending (\S+?\.digest), with (\S+?\.digest)/.exec(logs[0]) ?? [];
    assert.ok(sent && lost, logs[0]);
    assert.match(logs[0], /did not send are read in full/);
    assert.equal(byWorker, 1);
    assert.ok(files.has(sent), 'the file sent before the failure is kept');
    assert.deepEqual([...files.keys()].sort(), tasks.map((task) => task.uri).filter((uri) => uri !== lost).sort(), 'every file but the one lost');
    const read = tasks.filter((task) => task.uri !== lost);
    assert.deepEqual(read.map((task) => firstLevelFields(files.get(task.uri)!.summary)), expectedOf(read));
  });

  test('Should keep a file the worker sent when its error comes first, and be done at its exit or its done', async () => {
    const { tasks } = bigFiles(3, 20);
    const texts = tasks.map((task) => {
      const writer = new KeptIndexWriter(FIRST_LEVEL_BUILD);
      writer.add(readFirstLevelSync(task, 1e8, (b) => b.toString('utf8'), 'all')!);
      return writer.text();
    });
    // The error first, then the file sent before it, then the exit.
    const failing = new EventEmitter();
    const logs: string[] = [];
    const failed = workerFiles(failing as never, (m) => logs.push(logText(m, 'en')));
    failing.emit('message', texts[0]);
    failing.emit('error', new Error('boom'));
    failing.emit('message', texts[1]);
    let settled = false;
    void failed.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'not done before its exit');
    failing.emit('exit', 1);
    assert.deepEqual([...(await failed).keys()], [tasks[0].uri, tasks[1].uri]);
    assert.equal(logs.length, 1);
    assert.match(logs[0], /boom/);
    // Done: what came before, a message that is no kept index left out.
    const done = new EventEmitter();
    const files = workerFiles(done as never);
    done.emit('message', texts[2]);
    done.emit('message', 'not a kept index');
    done.emit('message', FIRST_LEVEL_DONE);
    done.emit('message', texts[0]);
    assert.deepEqual([...(await files).keys()], [tasks[2].uri]);
    assert.deepEqual(firstLevelFields((await files).get(tasks[2].uri)!.summary), expectedOf([tasks[2]])[0]);
  });

  test('Should never keep a process running with its worker (started, never given its files)', () => {
    const module = path.join(__dirname, '../../server/src/firstLevelRead.js');
    const script = `const { FirstLevelReader } = require(${JSON.stringify(module)}); new FirstLevelReader({ maxBytes: 1e6, decode: (b) => b.toString() }).prepare(); console.log('prepared');`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.signal, null, 'it ended on its own');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'prepared');
  });

  test('Should keep the process running while the worker reads a file this thread waits for', () => {
    // This thread reads the first file while it has taken the second (each file is read while the
    // one before is parsed), and waits in the first until the worker has gone for the next, a
    // big one; this thread then reads the small ones left, and waits for the worker's answer with
    // nothing else to keep the process running.
    const root = folder({ 'a.digest': digest(entryLines('A')), 'b.digest': digest(entryLines('B')), 'c.digest': generatedDigest(12_000), 'd.digest': digest(entryLines('D')) });
    const tasks = ['a', 'b', 'c', 'd'].map((name) => ({ uri: fileUri(path.join(root, `${name}.digest`)), file: path.join(root, `${name}.digest`) }));
    const module = path.join(__dirname, '../../server/src/firstLevelRead.js');
    const script = `
      const { FirstLevelReader } = require(${JSON.stringify(module)});
      let first = true;
      const reader = new FirstLevelReader({ maxBytes: 64e6, decode: (b) => { const deadline = Date.now() + 20000; while (first && reader.workerTook() === 0 && Date.now() < deadline); first = false; return b.toString(); } });
      reader.read(${JSON.stringify(tasks)}, 64e6).then(({ files, byWorker }) => console.log(files.size, byWorker >= 1));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), '4 true', 'every file read, some by the worker, before the process ended');
  });

  test('Should read a few small files on this thread alone', async () => {
    const { tasks } = bigFiles(2, 3);
    const reader = new FirstLevelReader({ maxBytes: 32 * 1024 * 1024, decode: (b) => b.toString('utf8'), part: 'all' });
    reader.prepare();
    const { files, byWorker } = await reader.read(tasks, 10_000);
    assert.equal(byWorker, 0);
    assert.deepEqual(tasks.map((task) => firstLevelFields(files.get(task.uri)!.summary)), expectedOf(tasks));
  });
});

describe('kept index: which version of a file stands while the scan runs', () => {
  const uri = 'file:///w/a.digest';
  const fingerprint = { size: 1, mtimeMs: 2, ctimeMs: 3, dev: 4, ino: 5 };
  const summaryOf = (text: string): FileSummary => {
    const index = new WorkspaceIndex();
    index.update(uri, text);
    return index.file(uri)!;
  };
  const topicsOf = (index: WorkspaceIndex): string[] => index.files().flatMap((file) => file.papers.map((paper) => paper.topic));
  const kept = summaryOf(digest(entryLines('A')));
  const changed = summaryOf(digest(entryLines('A', { topicHits: '专题命中 智能体 ：planning(title)' })));

  test('Should give the early index up at the file limit only for events that may change which files the scan comes to', () => {
    const counted = (): EarlyFiles => {
      const early = new EarlyFiles(['file:///w']);
      for (const name of ['a', 'b', 'sub/c']) early.counted(`file:///w/${name}.digest`);
      return early;
    };
    // Before the walk reached the limit: a counted file deleted, a digest changed or made.
    let early = counted();
    early.forget('file:///w/b.digest');
    early.reachedLimit();
    assert.ok(early.abandoned, 'a counted file gone during the walk');
    early = counted();
    early.touch('file:///w/0.digest');
    early.reachedLimit();
    assert.ok(early.abandoned, 'a digest made during the walk');
    // After: a folder of counted files deleted, a digest changed.
    early = counted();
    early.reachedLimit();
    early.forget('file:///w/sub');
    assert.ok(early.abandoned, 'a folder of counted files gone');
    early = counted();
    early.reachedLimit();
    early.touch('file:///w/a.digest');
    assert.ok(early.abandoned, 'a digest changed');
    // Not: files the walk did not count (another file, another name of a file, one too big), or any event below the limit.
    early = counted();
    early.forget('file:///w/notes.txt');
    early.reachedLimit();
    early.forget('file:///w/link-to-a.digest');
    early.forget('file:///w/su');
    assert.ok(!early.abandoned);
    early = counted();
    early.forget('file:///w/a.digest');
    early.touch('file:///w/b.digest');
    assert.ok(!early.abandoned, 'below the limit, the early index follows events');
  });

  function scene(): { early: EarlyFiles; index: WorkspaceIndex } {
    const early = new EarlyFiles(['file:///w']);
    early.keep(uri, { summary: kept, fingerprint }, '4:5');
    const index = new WorkspaceIndex();
    index.adopt(changed);
    return { early, index };
  }
  const early = (each: { early: EarlyFiles; index: WorkspaceIndex }): WorkspaceIndex => each.early.index(each.index, () => true, () => false);

  test('Should stand by the kept version until the file is read as another (changed with no event yet)', () => {
    const each = scene();
    assert.deepEqual(topicsOf(early(each)), ['数学推理']);
    assert.equal(each.early.read(uri, { ...fingerprint, mtimeMs: 9 }, changed), true);
    assert.deepEqual(topicsOf(early(each)), ['智能体']);
  });

  test('Should take the file as read, and say the kept index was wrong, when the same file reads otherwise', () => {
    const each = scene();
    assert.equal(each.early.read(uri, fingerprint, changed), false);
    assert.deepEqual(topicsOf(early(each)), ['智能体']);
    assert.equal(scene().early.read(uri, fingerprint, kept), true);
  });

  test('Should compare a file read for one grouping by what it was read for alone when the scan reads it', () => {
    const text = digest(entryLines('A'));
    const whole = summaryOf(text);
    const byTopic = firstLevelSummary(uri, parseWithinLimits(text), 'topic');
    assert.notDeepEqual(firstLevelFields(byTopic), firstLevelFields(whole), 'the categories and institutions are not read');
    const read = (part: FirstLevelPart, summary: FileSummary): { answer: boolean; index: WorkspaceIndex } => {
      const early = new EarlyFiles(['file:///w']);
      early.keep(uri, { summary: byTopic, fingerprint }, '4:5', true, part);
      const index = new WorkspaceIndex();
      index.adopt(whole);
      early.index(index, () => true, () => false);
      const answer = early.read(uri, fingerprint, summary);
      return { answer, index: early.index(index, () => true, () => false) };
    };
    // The same topic: as read for it; the early index takes the whole summary from then on.
    const same = read('topic', whole);
    assert.equal(same.answer, true);
    assert.equal(same.index.file(uri), whole);
    // Another topic: not what was read (the kept index is to be written again).
    assert.equal(read('topic', changed).answer, false);
  });

  test('Should leave out the files of a folder deleted, however many were', () => {
    const each = scene();
    for (let i = 0; i < 5_000; i++) each.early.forget(`file:///elsewhere/${i}.digest`);
    each.index.removeAll(uri);
    assert.equal(early(each).paperCount, 1);
    each.early.forget('file:///w');
    assert.equal(early(each).paperCount, 0);
  });
});

describe('kept index: its file', () => {
  function summaries(): KeptFile[] {
    const index = new WorkspaceIndex();
    index.update('file:///w/a.digest', digest(entryLines('A')));
    return [{ summary: index.file('file:///w/a.digest') as FileSummary, fingerprint: { size: 1, mtimeMs: 2, ctimeMs: 3, dev: 4, ino: 5 } }];
  }

  test('Should write it atomically in a folder it makes, and read it back', async () => {
    const storage = path.join(temp.make('paper-digest-storage-'), 'not', 'yet');
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(logText(message, 'en')))!;
    assert.equal(await store.read(), undefined);
    store.write(writerOf(store, summaries()));
    assert.deepEqual(fs.readdirSync(storage), [KEPT_INDEX_FILE]);
    const back = await store.read();
    assert.deepEqual([...(back?.keys() ?? [])], ['file:///w/a.digest']);
    assert.deepEqual(logs, []);
  });

  test('Should write the same file without blocking, and not at all once it is not wanted any more', async () => {
    const storage = temp.make('paper-digest-storage-');
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(logText(message, 'en')))!;
    const file = path.join(storage, KEPT_INDEX_FILE);
    // Several megabytes: encoded a piece at a time.
    const many: KeptFile[] = [];
    const index = new WorkspaceIndex();
    for (let f = 0; f < 60; f++) {
      const uri = `file:///w/day-${f}.digest`;
      index.update(uri, ['大模型推理能力', ...Array.from({ length: 400 }, (_, i) => generatedEntry(f * 400 + i)).flat()].join('\n\n') + '\n');
      many.push({ summary: index.file(uri) as FileSummary, fingerprint: { size: f, mtimeMs: 2, ctimeMs: 3, dev: 4, ino: f } });
    }
    assert.equal(await store.writeAsync(writerOf(store, many), () => true), true);
    const written = fs.readFileSync(file, 'utf8');
    assert.ok(written.length > 1 << 20, `${written.length} characters`);
    assert.equal(written, writerOf(store, many).text());
    assert.deepEqual([...((await store.read())?.keys() ?? [])], many.map((kept) => kept.summary.uri));
    // The server stopped meanwhile (and kept the index at once): this write gives way.
    assert.equal(await store.writeAsync(writerOf(store, summaries()), () => false), false);
    let wanted = true;
    const late = store.writeAsync(writerOf(store, summaries()), () => wanted);
    wanted = false;
    assert.equal(await late, false);
    assert.equal(fs.readFileSync(file, 'utf8'), written);
    // Someone else's file put there meanwhile is left as it is, and said so.
    const theirs = store.writeAsync(writerOf(store, summaries()), () => true);
    fs.writeFileSync(file, '{"theirs": true}');
    assert.equal(await theirs, false);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"theirs": true}');
    assert.match(logs.join('\n'), /is there and is not an index this server keeps; it is left as it is/);
    assert.deepEqual(fs.readdirSync(storage), [KEPT_INDEX_FILE]);
    // The server going while a write is under way: its temporary file is removed at once (the
    // process may end before the write), and the write gives way.
    fs.rmSync(file);
    let going = false;
    const abandoned = store.writeAsync(writerOf(store, many), () => !going);
    // Turns of the event loop until its temporary file is there (the write of megabytes and its
    // flush take many).
    const temporaries = (): string[] => fs.readdirSync(storage).filter((name) => name.endsWith('.tmp'));
    for (let turn = 0; turn < 100_000 && temporaries().length === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(temporaries().length, 1, 'a write under way');
    going = true;
    store.abandon();
    assert.deepEqual(fs.readdirSync(storage), [], 'the temporary file removed at once');
    assert.equal(await abandoned, false);
    assert.deepEqual(fs.readdirSync(storage), []);
  });

  /** A store in a new folder whose kept index file holds `text`; what it logs. */
  function storeOver(text: string): { file: string; logs: string[]; store: KeptIndexStore } {
    const storage = temp.make('paper-digest-storage-');
    const file = path.join(storage, KEPT_INDEX_FILE);
    fs.writeFileSync(file, text);
    const logs: string[] = [];
    return { file, logs, store: keptIndexStore(storage, (message) => logs.push(logText(message, 'en')))! };
  }

  test('Should say so of a kept index it cannot use, and replace it at the next write', async () => {
    // Cut short: the start of a kept index, not the rest.
    const { file, logs, store } = storeOver('{"format":"paper-digest-kept-index","version":1,"build":"x","strings":["a"');
    assert.equal(await store.read(), undefined);
    assert.match(logs.join('\n'), /is not used: it is not whole; it is made again/);
    assert.ok(store.write(writerOf(store, summaries())));
    assert.ok(await store.read());
    // Empty (a write cut short by a full disk): replaced too.
    fs.writeFileSync(file, '');
    assert.equal(await store.read(), undefined);
    assert.ok(store.write(writerOf(store, summaries())));
    assert.ok(await store.read());
  });

  test('Should never replace a file of its name that is not a kept index', async () => {
    const { file, logs, store } = storeOver('{"papers": ["someone else\'s"]}');
    assert.equal(await store.read(), undefined);
    assert.match(logs.join('\n'), /is not an index this server keeps: it is left as it is, and no index is kept/);
    // Not made at all while it is there, and said once.
    assert.equal(store.writable(), false);
    assert.equal(store.writable(), false);
    assert.equal(logs.filter((line) => /is not kept for the next start/.test(line)).length, 1);
    assert.equal(store.write(writerOf(store, summaries())), false);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"papers": ["someone else\'s"]}');
    assert.match(logs.join('\n'), /is not an index this server keeps; it is left as it is/);
    assert.equal(keptIndexStore('relative/folder', (message) => logs.push(logText(message, 'en'))), undefined);
    assert.match(logs.join('\n'), /must be an absolute path/);
  });

  test('Should say the folder given is not a folder when a file has its name, and write nothing', async () => {
    const storage = path.join(temp.make('paper-digest-storage-'), 'storage');
    fs.writeFileSync(storage, 'a file');
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(logText(message, 'en')))!;
    assert.equal(await store.read(), undefined);
    assert.equal(store.writable(), false);
    assert.equal(store.write(writerOf(store, summaries())), false);
    assert.match(logs.join('\n'), /keptIndexFolder .*storage is there and is not a folder/);
    assert.doesNotMatch(logs.join('\n'), /is not an index this server keeps/);
    assert.equal(fs.readFileSync(storage, 'utf8'), 'a file');
  });

  test('Should neither follow nor replace a link in its place: the index is then not kept, and says so', async () => {
    const storage = temp.make('paper-digest-storage-');
    const outside = path.join(temp.make('paper-digest-outside-'), 'precious.json');
    fs.writeFileSync(outside, 'precious');
    fs.symlinkSync(outside, path.join(storage, KEPT_INDEX_FILE));
    const logs: string[] = [];
    const store = keptIndexStore(storage, (message) => logs.push(logText(message, 'en')))!;
    assert.equal(await store.read(), undefined);
    assert.match(logs.join('\n'), /was not read/);
    store.write(writerOf(store, summaries()));
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious');
    assert.ok(fs.lstatSync(path.join(storage, KEPT_INDEX_FILE)).isSymbolicLink());
    assert.match(logs.join('\n'), /the index was not kept for the next start/);
    assert.deepEqual(fs.readdirSync(storage), [KEPT_INDEX_FILE]);
  });
});
