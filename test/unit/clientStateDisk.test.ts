/**
 * The reading state kept through the client (the web extension): the store over
 * ClientStateDisk, whose requests are answered by the client's access (stateFileAccess.ts) over
 * an in-memory file system with the behaviour of `workspace.fs` (times, sizes, links, rename).
 * A write names the version it replaces; a change made meanwhile is refused, read and merged,
 * and never lost; a corrupt file or a link is reported and left untouched.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClientStateDisk, StateFileSource } from '../../server/src/clientStateDisk';
import { parseState, serialiseState, applyChange, EMPTY_STATE } from '../../server/src/service/reading/stateFile';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { stateProblemIn } from '../../server/src/service/reading/readingMessages';
import type { StateFs, StateFsStat, StateWriteHooks } from '../../server/src/stateFileAccess';
import { readStateFile, writeStateFile } from '../../server/src/stateFileAccess';
import { ReadingService } from '../../server/src/reading';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';
import { papersTreeFirstLevel } from '../../server/src/service/features/tree';

const FOLDER = 'vscode-vfs://github/me/papers';
const FILE = `${FOLDER}/.paper-digest/state.json`;

interface Entry {
  kind: StateFsStat['kind'];
  bytes: Uint8Array;
  mtime: number;
}

/** A file system in memory, as `workspace.fs` behaves; `time` is what the next change gets as mtime. */
class MemoryFs implements StateFs {
  /** The workspace folder is there. */
  readonly entries = new Map<string, Entry>([[FOLDER, { kind: 'folder', bytes: new Uint8Array(), mtime: 1000 }]]);
  time = 1000;
  renames = 0;
  canRename = true;
  inWorkspace(uri: string): boolean {
    return uri.startsWith(FOLDER + '/');
  }
  async stat(uri: string): Promise<StateFsStat | undefined> {
    const entry = this.entries.get(uri);
    return entry && { kind: entry.kind, mtime: entry.mtime, size: entry.bytes.byteLength };
  }
  async readFile(uri: string): Promise<Uint8Array> {
    const entry = this.entries.get(uri);
    if (!entry || entry.kind !== 'file') throw new Error(`no file ${uri}`);
    return entry.bytes;
  }
  /** Writes fail, as on a full disk. */
  full = false;
  async writeFile(uri: string, bytes: Uint8Array): Promise<void> {
    if (this.full) throw new Error('ENOSPC: no space left on device');
    const folder = uri.slice(0, uri.lastIndexOf('/'));
    if (this.entries.get(folder)?.kind !== 'folder') throw new Error(`no folder ${folder}`);
    this.entries.set(uri, { kind: 'file', bytes, mtime: this.time });
  }
  async rename(from: string, to: string): Promise<void> {
    if (!this.canRename) throw new Error('rename is not supported');
    const entry = this.entries.get(from);
    if (!entry) throw new Error(`no file ${from}`);
    this.entries.delete(from);
    this.entries.set(to, entry);
    this.renames++;
  }
  async delete(uri: string): Promise<void> {
    // As workspace.fs without `recursive`: a folder that holds something is not deleted.
    if (this.entries.get(uri)?.kind === 'folder' && [...this.entries.keys()].some((each) => each.startsWith(uri + '/'))) throw new Error(`${uri} is not empty`);
    this.entries.delete(uri);
  }
  async createDirectory(uri: string): Promise<void> {
    this.entries.set(uri, { kind: 'folder', bytes: new Uint8Array(), mtime: this.time });
  }
  /** Someone else writes the file (another window, a sync), at the given time. */
  put(uri: string, text: string, mtime = ++this.time): void {
    this.entries.set(`${FOLDER}/.paper-digest`, this.entries.get(`${FOLDER}/.paper-digest`) ?? { kind: 'folder', bytes: new Uint8Array(), mtime });
    this.entries.set(uri, { kind: 'file', bytes: new TextEncoder().encode(text), mtime });
  }
  text(uri: string): string | undefined {
    const entry = this.entries.get(uri);
    return entry && new TextDecoder().decode(entry.bytes);
  }
  temporaries(): string[] {
    return [...this.entries.keys()].filter((uri) => uri.endsWith('.tmp'));
  }
}

/** The requests as the client answers them, with a hook before each write's last check. */
function source(fs: MemoryFs, hooks: StateWriteHooks = {}): StateFileSource & { writes: number } {
  const result = {
    writes: 0,
    readStateFile: (uri: string, maxBytes: number) => readStateFile(fs, uri, maxBytes),
    writeStateFile: (uri: string, text: string, expected: Parameters<StateFileSource['writeStateFile']>[2]) => {
      result.writes++;
      return writeStateFile(fs, uri, text, expected, hooks);
    },
  };
  return result;
}

/** A clock that moves one second per call. */
function clock(start = '2026-05-01T00:00:00Z'): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

async function storeOn(files: StateFileSource, now = clock()): Promise<StateStore> {
  const store = new StateStore(new ClientStateDisk(FOLDER, files), now);
  await store.loadAsync();
  return store;
}

function papers(fs: MemoryFs): Record<string, Record<string, unknown>> {
  const text = fs.text(FILE);
  assert.ok(text !== undefined, 'the state file exists');
  return JSON.parse(text).papers;
}

/** A state file's text with the given papers changed, as another tool would write it. */
function stateText(...changes: [string, Parameters<typeof applyChange>[2]][]): string {
  let state = EMPTY_STATE;
  for (const [key, change] of changes) {
    state = applyChange(state, [key], change, new Date('2026-04-01T00:00:00Z')).state;
  }
  return serialiseState(state);
}

describe('client-backed state store', () => {
  test('Should create .paper-digest/state.json through the file system by a temporary file renamed over it', async () => {
    const fs = new MemoryFs();
    const store = await storeOn(source(fs));
    const result = await store.changeAsync(['paper a'], { read: true, starred: true }, new Map([['paper a', 'Paper A']]));
    assert.deepEqual(result.changed, ['paper a']);
    assert.deepEqual({ read: papers(fs)['paper a'].read, starred: papers(fs)['paper a'].starred }, { read: true, starred: true });
    assert.equal(fs.renames, 1);
    assert.deepEqual(fs.temporaries(), []);
    assert.equal(store.get('paper a')?.starred, true);
  });

  test('Should merge the changes of two windows, each keeping the other’s', async () => {
    const fs = new MemoryFs();
    const one = await storeOn(source(fs));
    const two = await storeOn(source(fs));
    fs.time++;
    assert.deepEqual((await one.changeAsync(['paper a'], { starred: true })).changed, ['paper a']);
    fs.time++;
    assert.deepEqual((await two.changeAsync(['paper b'], { read: true, addTags: ['x'] })).changed, ['paper b']);
    const onDisk = papers(fs);
    assert.equal(onDisk['paper a'].starred, true, JSON.stringify(onDisk));
    assert.equal(onDisk['paper b'].read, true, JSON.stringify(onDisk));
    assert.equal(await one.loadAsync(), true);
    assert.deepEqual(one.get('paper b')?.tags, ['x']);
  });

  test('Should refuse a write when the file changed between the read and the write, then merge and keep both changes', async () => {
    const fs = new MemoryFs();
    let interfere = true;
    const files = source(fs, {
      beforeCommit: () => {
        if (interfere) {
          interfere = false;
          fs.put(FILE, stateText(['theirs', { read: true, note: 'from the other window' }]));
        }
      },
    });
    const store = await storeOn(files);
    const result = await store.changeAsync(['mine'], { starred: true });
    assert.deepEqual(result.changed, ['mine'], JSON.stringify(result));
    assert.equal(files.writes, 2, 'refused once, written on the second try');
    const onDisk = papers(fs);
    assert.equal(onDisk.theirs?.note, 'from the other window', JSON.stringify(onDisk));
    assert.equal(onDisk.mine?.starred, true, JSON.stringify(onDisk));
    assert.deepEqual(fs.temporaries(), []);
  });

  test('Should see a change that kept the file’s time and size by the hash of its text', async () => {
    const fs = new MemoryFs();
    fs.put(FILE, stateText(['p', { addTags: ['aa'] }]), 5000);
    const files = source(fs);
    let reads = 0;
    const racing: StateFileSource = {
      readStateFile: async (uri, maxBytes) => {
        const result = await files.readStateFile(uri, maxBytes);
        // Right after the change's read: same size and modification time, other text (a coarse clock, a sync that keeps times).
        if (++reads === 2) fs.put(FILE, stateText(['p', { addTags: ['bb'] }]), 5000);
        return result;
      },
      writeStateFile: (uri, text, expected) => files.writeStateFile(uri, text, expected),
    };
    const store = await storeOn(racing);
    assert.equal((await store.changeAsync(['q'], { read: true })).changed.length, 1);
    assert.equal(files.writes, 2, 'the first write was refused');
    const onDisk = papers(fs);
    assert.deepEqual(onDisk.p.tags, ['bb'], JSON.stringify(onDisk));
    assert.equal(onDisk.q.read, true);
  });

  test('Should see a change of the same size and time made just before the rename by the hash of its text', async () => {
    const fs = new MemoryFs();
    fs.put(FILE, stateText(['p', { addTags: ['aa'] }]), 5000);
    let interfere = true;
    const files = source(fs, {
      beforeCommit: () => {
        // After the write's own check of the version: the same size and time, another text.
        if (interfere) {
          interfere = false;
          fs.put(FILE, stateText(['p', { addTags: ['bb'] }]), 5000);
        }
      },
    });
    const store = await storeOn(files);
    assert.deepEqual((await store.changeAsync(['q'], { read: true })).changed, ['q']);
    assert.equal(files.writes, 2, 'the first write was refused');
    const onDisk = papers(fs);
    assert.deepEqual(onDisk.p.tags, ['bb'], JSON.stringify(onDisk));
    assert.equal(onDisk.q.read, true);
  });

  test('Should refuse a stale expected version outright (the client never writes over a change it was not told of)', async () => {
    const fs = new MemoryFs();
    fs.put(FILE, stateText(['p', { read: true }]));
    const read = await readStateFile(fs, FILE, 1 << 20);
    assert.ok('version' in read);
    fs.put(FILE, stateText(['p', { starred: true }]));
    const before = fs.text(FILE);
    assert.deepEqual(await writeStateFile(fs, FILE, stateText(['x', { read: true }]), read.version), { written: false, changed: true });
    assert.deepEqual(await writeStateFile(fs, FILE, stateText(['x', { read: true }]), null), { written: false, changed: true });
    assert.equal(fs.text(FILE), before);
  });

  test('Should write the whole file in one call where the file system cannot rename, still checked first', async () => {
    const fs = new MemoryFs();
    fs.canRename = false;
    fs.put(FILE, stateText(['p', { read: true }]));
    const store = await storeOn(source(fs));
    assert.deepEqual((await store.changeAsync(['q'], { starred: true })).changed, ['q']);
    assert.equal(papers(fs).p.read, true);
    assert.equal(papers(fs).q.starred, true);
    assert.deepEqual(fs.temporaries(), []);
  });

  test('Should leave a corrupt file untouched, go read-only and say why', async () => {
    const fs = new MemoryFs();
    fs.put(FILE, '{"version": 1, "papers": ');
    const files = source(fs);
    const store = await storeOn(files);
    assert.equal(store.status.readOnly, true);
    assert.match(store.status.problem ?? '', /state\.json is corrupt/);
    assert.match(store.status.problemRef ? stateProblemIn(store.status.problemRef, 'zh-cn') : '', /state\.json 已损坏：不是有效的 JSON（.+）；文件保持原样，修复之前阅读状态为只读$/);
    const result = await store.changeAsync(['p'], { read: true });
    assert.deepEqual(result.changed, []);
    assert.equal(result.readOnly, true);
    assert.equal(files.writes, 0);
    assert.equal(fs.text(FILE), '{"version": 1, "papers": ');
    // Fixed by hand: the next load takes it and the store is writable again.
    fs.put(FILE, stateText(['p', { starred: true }]));
    assert.equal(await store.loadAsync(), true);
    assert.equal(store.status.readOnly, false);
    assert.equal(store.get('p')?.starred, true);
  });

  test('Should refuse a state folder or file that is a symbolic link, and files that are not state files', async () => {
    const fs = new MemoryFs();
    fs.entries.set(`${FOLDER}/.paper-digest`, { kind: 'link', bytes: new Uint8Array(), mtime: 1 });
    const store = await storeOn(source(fs));
    assert.equal(store.status.readOnly, true);
    assert.match(store.status.problem ?? '', /symbolic link/);
    // Worded by the server in its message language, from the kind and the URI the client names.
    assert.equal(store.status.problemRef && stateProblemIn(store.status.problemRef, 'zh-cn'), `${FILE} 无法读取（${FOLDER}/.paper-digest 是符号链接，Paper Digest 不跟随符号链接）；阅读状态为只读`);
    assert.equal(store.status.problem, `${FILE} cannot be read (${FOLDER}/.paper-digest is a symbolic link, which Paper Digest does not follow); reading state is read-only`);
    assert.deepEqual((await store.changeAsync(['p'], { read: true })).changed, []);

    const other = new MemoryFs();
    other.put(FILE, '{}');
    other.entries.set(FILE, { kind: 'link', bytes: new Uint8Array(), mtime: 1 });
    const linked = await readStateFile(other, FILE, 1 << 20);
    assert.equal('problem' in linked && linked.problem, 'link');
    const outside = await writeStateFile(other, `${FOLDER}/notes.json`, '{}', null);
    assert.equal('problem' in outside && outside.problem, 'outside');
    const elsewhere = await readStateFile(other, 'vscode-vfs://github/someone/else/.paper-digest/state.json', 1 << 20);
    assert.equal('problem' in elsewhere && elsewhere.problem, 'outside');
  });

  test('Should not take a file emptied a moment ago as an empty state to write over, as the Node disk', async () => {
    const fs = new MemoryFs();
    fs.put(FILE, '', 50_000);
    let now = 53_000;
    const store = new StateStore(new ClientStateDisk(FOLDER, source(fs), () => now), clock());
    await store.loadAsync();
    const refused = await store.changeAsync(['mine'], { read: true });
    assert.deepEqual(refused.changed, []);
    assert.match(JSON.stringify(refused), /is empty and was changed 3 s ago/);
    assert.equal(fs.text(FILE), '');
    now = 60_000;
    assert.deepEqual((await store.changeAsync(['mine'], { read: true })).changed, ['mine']);
    assert.equal(papers(fs).mine?.read, true);
  });

  test('Should leave no .paper-digest folder of its own behind when the first write fails', async () => {
    const fs = new MemoryFs();
    fs.full = true;
    const store = await storeOn(source(fs));
    const refused = await store.changeAsync(['mine'], { read: true });
    assert.deepEqual(refused.changed, []);
    assert.match(JSON.stringify(refused), /could not be written/);
    assert.deepEqual([...fs.entries.keys()], [FOLDER], 'no folder, no temporary file');
    // A folder that was there already stays.
    fs.full = false;
    fs.put(`${FOLDER}/.paper-digest/interests.json`, '{}');
    fs.full = true;
    await store.changeAsync(['mine'], { read: true });
    assert.ok(fs.entries.has(`${FOLDER}/.paper-digest`));
  });

  test('Should refuse a change once the workspace folder is gone, and not make it again', async () => {
    // Moved, deleted or unmounted while the window is open: a state folder made at the old place
    // would hold this one change where no one looks for it.
    const fs = new MemoryFs();
    const store = await storeOn(source(fs));
    fs.entries.delete(FOLDER);
    const refused = await store.changeAsync(['mine'], { read: true });
    assert.deepEqual(refused.changed, []);
    assert.match(refused.message ?? '', /workspace folder 'vscode-vfs:\/\/github\/me\/papers' is gone \(moved, deleted or unmounted\)/);
    assert.deepEqual([...fs.entries.keys()], []);
  });

  test('Should run the changes of one store one after the other, none lost', async () => {
    const fs = new MemoryFs();
    const store = await storeOn(source(fs));
    const keys = Array.from({ length: 12 }, (_, i) => `paper ${i}`);
    await Promise.all(keys.map((key) => store.changeAsync([key], { read: true })));
    const onDisk = papers(fs);
    assert.deepEqual(Object.keys(onDisk).sort(), [...keys].sort());
    const parsed = parseState(fs.text(FILE)!);
    assert.ok('state' in parsed);
  });

  test('Should refuse the synchronous load and change on a client-backed disk', () => {
    const store = new StateStore(new ClientStateDisk(FOLDER, source(new MemoryFs())));
    assert.throws(() => store.load(), /asynchronously/);
  });
});

describe('reading service with its files through the client', () => {
  test('Should take the interests from interests.json and write a state change to state.json through the client', async () => {
    const fs = new MemoryFs();
    fs.put(`${FOLDER}/.paper-digest/interests.json`, JSON.stringify({ keywords: [{ term: 'probes', weight: 3 }] }));
    const index = new WorkspaceIndex();
    const uri = `${FOLDER}/2026-05-01.digest`;
    index.update(uri, digest(entryLines('A'), entryLines('B', { englishTitle: 'Unrelated Planning Work', chineseTitle: '无关的规划工作' })));
    const service = new ReadingService(index, {
      folders: () => [FOLDER],
      mtimeOf: () => undefined,
      configuration: async () => undefined,
      notify: () => undefined,
      log: () => undefined,
      stateFiles: source(fs),
    });
    try {
      await service.ready();
      const before = service.stateInfo();
      assert.equal(before.unreadCount, 2);
      assert.equal(before.stateFiles[0]?.stateFile, FILE);
      const ranked = service.rankedPapers({});
      assert.equal(ranked.papers[0]?.title, 'A Sparse Probes for Arithmetic Circuits', JSON.stringify(ranked.papers.map((p) => [p.title, p.score])));
      assert.ok((ranked.papers[0]?.score ?? 0) > (ranked.papers[1]?.score ?? 0), 'the interest raises the paper with the keyword');
      // Cancelled before its papers are found: nothing is written, by file or by group, and the
      // answer says why (a group's tree given up midway once said "No paper matched.").
      const cancelled = { isCancellationRequested: true };
      const writes = fs.entries.size;
      for (const scope of [{ uri }, { grouping: 'file' as const, groupId: papersTreeFirstLevel(index, 'file')?.nodes[0]?.id ?? '' }]) {
        assert.deepEqual(await service.setPaperState({ scope, change: { read: true } }, cancelled), { changed: 0, readOnly: false, message: 'Cancelled: nothing was changed.' }, JSON.stringify(scope));
      }
      assert.equal(fs.entries.has(FILE), false, 'no state file written');
      assert.equal(fs.entries.size, writes);
      assert.equal(service.stateInfo().unreadCount, 2);
      const result = await service.setPaperState({ scope: { uri }, change: { read: true } });
      assert.equal(result.changed, 2, JSON.stringify(result));
      assert.equal(service.stateInfo().unreadCount, 0);
      const onDisk = papers(fs);
      assert.deepEqual(Object.values(onDisk).map((p) => p.read), [true, true]);
      // Another window marks one unread: the file event's reload brings it in.
      const other = await storeOn(source(fs));
      fs.time++;
      await other.changeAsync([Object.keys(onDisk)[0]], { read: false });
      service.fileChanged(FILE);
      await service.ready();
      assert.equal(service.stateInfo().unreadCount, 1);
    } finally {
      service.dispose();
    }
  });
});
