import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { readFileSnapshot, readFileSnapshotSync, SafeFileError, WholeRead, writeFileAtomic, writeFileAtomicSync } from '../../server/src/fs/safeFile';
import { temporaryFolders } from '../support/tempFolders';
import { EMPTY_SETTLE_MS, NodeStateDisk, STATE_FOLDER, wholeStateFile } from '../../server/src/stateDisk';
import { StateStore } from '../../server/src/service/reading/stateStore';

const temp = temporaryFolders();

function scratch(): string {
  return temp.make('paper-digest-safefile-');
}

/** Asserts that `run` throws a SafeFileError with the code, and returns its message. */
function expectCode(run: () => unknown, code: SafeFileError['code']): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SafeFileError, `expected a SafeFileError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error.message;
  }
  assert.fail(`expected a SafeFileError with code ${code}`);
}

async function expectCodeAsync(run: () => Promise<unknown>, code: SafeFileError['code']): Promise<string> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof SafeFileError, `expected a SafeFileError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error.message;
  }
  assert.fail(`expected a SafeFileError with code ${code}`);
}

/** Writes `text` over the start of a file in place, its size and modification time kept (a coarse clock's view of a change). */
function overwriteKeepingTime(file: string, text: string): void {
  const stat = fs.statSync(file);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, text, 0);
  fs.closeSync(fd);
  fs.utimesSync(file, stat.atime, stat.mtime);
}

/**
 * Runs the write `call` makes (given the module's and the file's names as JS expressions) in a
 * node whose file-size limit is 2 KB, over a file of 1,000 bytes: the write must fail midway
 * with the limit's message, and leave the file as it was and no temporary file.
 */
function assertWholeAfterFailingMidway(call: (module: string, file: string) => string): void {
  const root = scratch();
  const file = path.join(root, 'a.digest');
  const original = 'x'.repeat(1000);
  fs.writeFileSync(file, original);
  const module = path.resolve(__dirname, '..', '..', 'server', 'src', 'fs', 'safeFile.js');
  const script = `const s = require(${JSON.stringify(module)}); ${call('s', JSON.stringify(file))}`;
  // ulimit -f counts blocks of 1024 bytes: a 2 KB limit.
  const result = spawnSync('bash', ['-c', `ulimit -f 2 && exec "$0" -e "$1"`, process.execPath, script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^io: the file is bigger than the file-size limit/);
  assert.equal(fs.readFileSync(file, 'utf8'), original);
  assert.deepEqual(leftovers(root), []);
}

function leftovers(folder: string): string[] {
  return fs.readdirSync(folder).filter((name) => name.endsWith('.tmp'));
}


/** A loaded state store of `root` whose file another writer writes in place with `text` just before this one's first rename. */
function storeWrittenOnceBeforeRename(root: string, stateFile: string, text: string): { store: StateStore; interfered: () => boolean } {
  let interfered = false;
  const store = new StateStore(
    new NodeStateDisk(root, {
      beforeRename: () => {
        if (interfered) return;
        interfered = true;
        fs.writeFileSync(stateFile, text);
      },
    }),
  );
  store.load();
  return { store, interfered: () => interfered };
}

describe('safe files: reading', () => {
  test('Should read a regular file with a snapshot of what was read', async () => {
    const file = path.join(scratch(), 'a.digest');
    fs.writeFileSync(file, 'hello');
    const sync = readFileSnapshotSync(file);
    assert.equal(sync.bytes.toString(), 'hello');
    assert.equal(sync.snapshot.size, 5);
    assert.equal(sync.snapshot.ino, fs.statSync(file).ino);
    const asynchronous = await readFileSnapshot(file);
    assert.deepEqual(asynchronous.snapshot, sync.snapshot);
    assert.equal(sync.snapshot.sha256, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  });

  test('Should leave the hash out when it is not asked for (the workspace scan compares none)', async () => {
    const file = path.join(scratch(), 'a.digest');
    fs.writeFileSync(file, 'hello');
    const sync = readFileSnapshotSync(file, { hash: false });
    const asynchronous = await readFileSnapshot(file, { hash: false });
    assert.equal(sync.snapshot.sha256, '');
    assert.equal(asynchronous.snapshot.sha256, '');
    assert.equal(asynchronous.bytes.toString(), 'hello');
    assert.equal(asynchronous.snapshot.size, 5);
  });

  test('Should refuse a FIFO without opening it (no hang)', async () => {
    const fifo = path.join(scratch(), 'pipe.digest');
    const made = spawnSync('mkfifo', [fifo]);
    assert.equal(made.status, 0, String(made.stderr));
    assert.match(expectCode(() => readFileSnapshotSync(fifo), 'not-regular'), /FIFO/);
    assert.match(await expectCodeAsync(() => readFileSnapshot(fifo), 'not-regular'), /FIFO/);
  });

  test('Should refuse a symbolic link to /dev/zero, a folder and a socket-like special file', async () => {
    const root = scratch();
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.digest'));
    assert.match(expectCode(() => readFileSnapshotSync(path.join(root, 'zero.digest')), 'not-regular'), /symbolic link to a character device/);
    assert.match(await expectCodeAsync(() => readFileSnapshot(path.join(root, 'zero.digest')), 'not-regular'), /character device/);
    assert.match(expectCode(() => readFileSnapshotSync(root), 'not-regular'), /folder/);
    expectCode(() => readFileSnapshotSync('/dev/null'), 'not-regular');
  });

  test('Should refuse a file above the cap before reading it', async () => {
    const file = path.join(scratch(), 'big.digest');
    fs.writeFileSync(file, Buffer.alloc(2048, 0x61));
    assert.match(expectCode(() => readFileSnapshotSync(file, { maxBytes: 1024 }), 'too-big'), /bigger than/);
    await expectCodeAsync(() => readFileSnapshot(file, { maxBytes: 1024 }), 'too-big');
    assert.equal(readFileSnapshotSync(file, { maxBytes: 2048 }).bytes.length, 2048);
  });

  test('Should refuse a symbolic link when links are not followed, and report a missing file', () => {
    const root = scratch();
    fs.writeFileSync(path.join(root, 'real.digest'), 'x');
    fs.symlinkSync(path.join(root, 'real.digest'), path.join(root, 'link.digest'));
    expectCode(() => readFileSnapshotSync(path.join(root, 'link.digest'), { followSymlinks: false }), 'symlink');
    assert.equal(readFileSnapshotSync(path.join(root, 'link.digest')).bytes.toString(), 'x');
    expectCode(() => readFileSnapshotSync(path.join(root, 'none.digest')), 'missing');
    // A link that leads nowhere is a link, not a missing file, when links are not followed.
    fs.symlinkSync(path.join(root, 'nowhere.json'), path.join(root, 'dangling.json'));
    expectCode(() => readFileSnapshotSync(path.join(root, 'dangling.json'), { followSymlinks: false }), 'symlink');
    expectCode(() => readFileSnapshotSync(path.join(root, 'dangling.json')), 'missing');
  });
});

describe('safe files: a file read whole into one buffer', () => {
  /** Reads `data` through a WholeRead told `size`, `step` bytes a read at most. */
  const readThrough = (data: Buffer, size: number, max: number, step: number): Buffer => {
    const reading = new WholeRead(size, max);
    for (let at = 0; ; ) {
      const into = reading.room();
      const read = Math.min(step, into.length, data.length - at);
      if (read === 0) break;
      data.copy(into, 0, at, at + read);
      reading.took(read);
      at += read;
    }
    return reading.bytes();
  };

  test('Should read every byte whether the file kept its size, grew or shrank since its size was read, and refuse one past the most', () => {
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    for (const size of [0, 1, 9_999, 10_000, 10_001, 50_000]) {
      for (const step of [1, 7, 4096, 1 << 20]) {
        assert.deepEqual(readThrough(data, size, 1 << 20, step), data, `told ${size}, ${step} a read`);
      }
    }
    assert.deepEqual(readThrough(data, 10_000, 10_000, 4096), data, 'exactly the most');
    assert.throws(() => readThrough(data, 100, 9_999, 4096), (error: unknown) => error instanceof SafeFileError && error.code === 'too-big');
    assert.throws(() => readThrough(data, 10_000, 9_999, 1 << 20), (error: unknown) => error instanceof SafeFileError && error.code === 'too-big');
    assert.deepEqual(readThrough(Buffer.alloc(0), 0, 10, 1), Buffer.alloc(0));
  });
});

describe('safe files: atomic writes without blocking the event loop', () => {
  test('Should write the pieces in order, by a rename, keeping the mode, while the event loop turns', async () => {
    const root = scratch();
    const file = path.join(root, 'papers-index.json');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o640);
    const before = fs.statSync(file);
    const pieces = Array.from({ length: 24 }, (_, i) => Buffer.alloc(1 << 20, 0x61 + (i % 26)));
    let turns = 0;
    let writing = true;
    const count = (): void => {
      turns++;
      if (writing) setImmediate(count);
    };
    setImmediate(count);
    const written = await writeFileAtomic(file, pieces, { hash: false });
    writing = false;
    const bytes = fs.readFileSync(file);
    assert.ok(bytes.equals(Buffer.concat(pieces)));
    assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.notEqual(fs.statSync(file).ino, before.ino);
    assert.equal(written.size, 24 << 20);
    assert.equal(written.sha256, '', 'no hash asked for');
    // The sync write of the same bytes lets no turn happen; this one lets many.
    assert.ok(turns > 1, `${turns} turns of the event loop during the write`);
    assert.deepEqual(leftovers(root), []);
    const hashed = await writeFileAtomic(file, 'text');
    assert.equal(hashed.sha256, createHash('sha256').update('text').digest('hex'));
  });

  test('Should check the file as it is at the rename: a change or a link made during the write is refused, and nothing is left', async () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'original');
    const { snapshot } = readFileSnapshotSync(file);
    const pending = writeFileAtomic(file, [Buffer.alloc(4 << 20, 0x78)], { expected: snapshot });
    // While the temporary file is being written.
    fs.writeFileSync(file, 'someone else');
    await expectCodeAsync(() => pending, 'changed');
    assert.equal(fs.readFileSync(file, 'utf8'), 'someone else');
    assert.deepEqual(leftovers(root), []);

    const outside = path.join(scratch(), 'precious');
    fs.writeFileSync(outside, 'precious');
    const link = writeFileAtomic(file, [Buffer.alloc(4 << 20, 0x78)]);
    fs.rmSync(file);
    fs.symlinkSync(outside, file);
    await expectCodeAsync(() => link, 'symlink');
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious');
    assert.ok(fs.lstatSync(file).isSymbolicLink());
    assert.deepEqual(leftovers(root), []);
  });

  test('Should stop before the rename when the last check throws, and leave the file and no temporary', async () => {
    const root = scratch();
    const file = path.join(root, 'papers-index.json');
    fs.writeFileSync(file, 'kept');
    await assert.rejects(
      writeFileAtomic(file, ['new'].map((text) => Buffer.from(text)), {
        beforeCommit: () => {
          throw new Error('not wanted any more');
        },
      }),
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
    assert.deepEqual(leftovers(root), []);
  });

  test('Should leave the file whole when the write fails midway (file-size limit)', () => {
    assertWholeAfterFailingMidway((s, file) => `${s}.writeFileAtomic(${file}, [Buffer.alloc(50000, 121), Buffer.alloc(50000, 122)]).then(() => console.log('written'), (e) => console.log(e.code + ': ' + e.message));`);
  });
});

describe('safe files: atomic writes', () => {
  test('Should replace the file by a rename, keeping its mode', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o640);
    const { snapshot } = readFileSnapshotSync(file);
    const written = writeFileAtomicSync(file, 'new text', { expected: snapshot });
    assert.equal(fs.readFileSync(file, 'utf8'), 'new text');
    assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.notEqual(fs.statSync(file).ino, snapshot.ino, 'a new file renamed over the old one');
    assert.equal(written.size, 8);
    assert.deepEqual(leftovers(root), []);
  });

  test('Should refuse to write over a change made after the read, leaving it as it is', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'original');
    const { snapshot } = readFileSnapshotSync(file);
    const message = expectCode(
      () => writeFileAtomicSync(file, 'fixed', { expected: snapshot, beforeCommit: () => fs.writeFileSync(file, 'someone else') }),
      'changed',
    );
    assert.match(message, /changed since it was read/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'someone else');
    assert.deepEqual(leftovers(root), []);
  });

  test('Should see a change of the same size and time', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'aaaa');
    const { snapshot } = readFileSnapshotSync(file);
    expectCode(() => writeFileAtomicSync(file, 'fixed', { expected: snapshot, beforeCommit: () => overwriteKeepingTime(file, 'bbbb') }), 'changed');
    assert.equal(fs.readFileSync(file, 'utf8'), 'bbbb');
  });

  test('Should never write through a symbolic link, nor over a file that should not exist', () => {
    const root = scratch();
    const target = path.join(root, 'target.digest');
    const link = path.join(root, 'link.digest');
    fs.writeFileSync(target, 'target');
    fs.symlinkSync(target, link);
    expectCode(() => writeFileAtomicSync(link, 'through the link'), 'symlink');
    assert.equal(fs.readFileSync(target, 'utf8'), 'target');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    expectCode(() => writeFileAtomicSync(target, 'new', { expected: null }), 'changed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'target');
    writeFileAtomicSync(path.join(root, 'fresh.json'), '{}', { expected: null });
    assert.equal(fs.readFileSync(path.join(root, 'fresh.json'), 'utf8'), '{}');
    assert.deepEqual(leftovers(root), []);
  });

  test('Should refuse when the file was deleted since it was read', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'x');
    const { snapshot } = readFileSnapshotSync(file);
    fs.unlinkSync(file);
    expectCode(() => writeFileAtomicSync(file, 'y', { expected: snapshot }), 'changed');
    assert.equal(fs.existsSync(file), false);
  });

  test('Should keep the owner of the file where the process may give it (as root), else its group', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'old');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      fs.chownSync(file, 4321, 4322);
    }
    const before = fs.statSync(file);
    writeFileAtomicSync(file, 'new', { expected: readFileSnapshotSync(file).snapshot });
    const after = fs.statSync(file);
    assert.equal(after.gid, before.gid);
    assert.equal(after.uid, before.uid);
  });

  test('Should put back a change written into the file between the final check and the rename, and refuse as changed', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'original\n');
    const { snapshot } = readFileSnapshotSync(file);
    // Another process appends to the file in place in the instant before the rename.
    const message = expectCode(() => writeFileAtomicSync(file, 'fixed\n', { expected: snapshot, beforeRename: () => fs.appendFileSync(file, 'their line\n') }), 'changed');
    assert.match(message, /changed since it was read/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'original\ntheir line\n', 'their version is the file, as if the write had been refused a moment earlier');
    assert.deepEqual(leftovers(root), []);
    // The same size and time, other bytes (a coarse clock): seen by the hash.
    const again = readFileSnapshotSync(file).snapshot;
    expectCode(() => writeFileAtomicSync(file, 'fixed\n', { expected: again, beforeRename: () => overwriteKeepingTime(file, 'O') }), 'changed');
    assert.equal(fs.readFileSync(file, 'utf8'), 'Original\ntheir line\n');
    // Without a change in that instant, written.
    writeFileAtomicSync(file, 'fixed again\n', { expected: readFileSnapshotSync(file).snapshot, beforeRename: () => undefined });
    assert.equal(fs.readFileSync(file, 'utf8'), 'fixed again\n');
    assert.deepEqual(fs.readdirSync(root).sort(), ['a.digest']);
  });

  test('Should put the other version back with its mode, and keep it aside instead when a third writer has replaced the file since', () => {
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'v1\n');
    fs.chmodSync(file, 0o664);
    const first = readFileSnapshotSync(file).snapshot;
    expectCode(() => writeFileAtomicSync(file, 'mine\n', { expected: first, beforeRename: () => fs.appendFileSync(file, 'in place\n') }), 'changed');
    assert.equal(fs.readFileSync(file, 'utf8'), 'v1\nin place\n');
    assert.equal(fs.statSync(file).mode & 0o777, 0o664, 'its mode, whatever the umask');
    // A third writer replaces the file between this write's rename and the putting back: its
    // version stays; the in-place change is kept aside.
    const second = readFileSnapshotSync(file).snapshot;
    const message = expectCode(
      () =>
        writeFileAtomicSync(file, 'mine\n', {
          expected: second,
          beforeRename: () => fs.appendFileSync(file, 'again\n'),
          afterRename: () => {
            fs.writeFileSync(path.join(root, 'third.tmp'), 'third\n');
            fs.renameSync(path.join(root, 'third.tmp'), file);
          },
        }),
      'io',
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'third\n', 'the third writer’s version is not replaced');
    const kept = /kept as (\S+)$/.exec(message)![1];
    assert.equal(fs.readFileSync(path.join(root, kept), 'utf8'), 'v1\nin place\nagain\n');
  });

  test('Should keep its whole state file, and the part another writer had written in place kept beside it, when that writer was still writing at the rename', () => {
    const root = scratch();
    fs.mkdirSync(path.join(root, STATE_FOLDER));
    const stateFile = path.join(root, STATE_FOLDER, 'state.json');
    const papers: Record<string, { read: boolean; note: string }> = {};
    for (let i = 0; i < 49; i++) papers[`paper-${i}`] = { read: true, note: `note ${i}` };
    const whole = JSON.stringify({ version: 1, papers }, null, 2);
    fs.writeFileSync(stateFile, whole);
    // Another tool rewrites the file in place, taking no lock: it empties it and has written its
    // first 300 bytes when this writer renames.
    const { store, interfered } = storeWrittenOnceBeforeRename(root, stateFile, whole.slice(0, 300));
    const result = store.change(['mine'], { starred: true });
    assert.ok(interfered());
    const onDisk = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { papers: Record<string, { read?: boolean; starred?: boolean }> };
    assert.equal(Object.keys(onDisk.papers).length, 50, `every paper kept: ${JSON.stringify(result)}`);
    assert.equal(onDisk.papers.mine?.starred, true);
    const beside = fs.readdirSync(path.join(root, STATE_FOLDER)).filter((name) => name.includes('.conflict-'));
    assert.equal(beside.length, 1, 'the other version kept beside');
    assert.equal(fs.readFileSync(path.join(root, STATE_FOLDER, beside[0]), 'utf8'), whole.slice(0, 300));
    // The change is made, and said so: the file holds it.
    assert.deepEqual(result.changed, ['mine']);
    // Caught when the other had written a line end or a BOM only: the same, with nothing kept beside.
    for (const start of ['\n', '\ufeff', '   ']) {
      const { store: again, interfered: caught } = storeWrittenOnceBeforeRename(root, stateFile, start);
      assert.deepEqual(again.change([`mine-${JSON.stringify(start)}`], { read: true }).changed.length, 1, JSON.stringify(start));
      assert.ok(caught());
      assert.equal(Object.keys((JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { papers: object }).papers).length > 50, true, 'every paper kept');
    }
    assert.equal(fs.readdirSync(path.join(root, STATE_FOLDER)).filter((name) => name.includes('.conflict-')).length, 1, 'white space is not kept beside');
    // A whole version written in that instant is still put back and merged (the test below).
    assert.ok(wholeStateFile(Buffer.from(whole)) && !wholeStateFile(Buffer.from(whole.slice(0, 300))) && !wholeStateFile(Buffer.alloc(0)) && !wholeStateFile(Buffer.from('\ufeff\n')));
  });

  test('Should not take a state file emptied a moment ago as an empty state to write over, until it has stayed empty a while', () => {
    const root = scratch();
    fs.mkdirSync(path.join(root, STATE_FOLDER));
    const stateFile = path.join(root, STATE_FOLDER, 'state.json');
    // Another program rewriting the file in place has emptied it, and writes the rest later.
    fs.writeFileSync(stateFile, '');
    const changedAt = fs.statSync(stateFile).mtimeMs;
    let now = changedAt + 3_000;
    const store = new StateStore(new NodeStateDisk(root, {}, () => now));
    store.load();
    const refused = store.change(['mine'], { starred: true });
    assert.deepEqual(refused.changed, [], JSON.stringify(refused));
    assert.match(JSON.stringify(refused), /is empty and was changed 3 s ago/);
    assert.equal(fs.readFileSync(stateFile, 'utf8'), '', 'nothing written over it');
    // Its time 30 s ahead of this clock (another machine's, on a shared folder): as recent.
    now = changedAt - 30_000;
    assert.deepEqual(store.change(['mine'], { starred: true }).changed, []);
    assert.equal(fs.readFileSync(stateFile, 'utf8'), '');
    // Empty for longer than that: an empty state, written.
    now = changedAt + EMPTY_SETTLE_MS;
    const written = store.change(['mine'], { starred: true });
    assert.deepEqual(written.changed, ['mine'], JSON.stringify(written));
    assert.equal((JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { papers: Record<string, { starred?: boolean }> }).papers.mine?.starred, true);
  });

  test('Should merge a state change another writer made in the instant before the rename, and keep both', () => {
    const root = scratch();
    fs.mkdirSync(path.join(root, STATE_FOLDER));
    const stateFile = path.join(root, STATE_FOLDER, 'state.json');
    fs.writeFileSync(stateFile, JSON.stringify({ version: 1, papers: {} }));
    // The other writer writes in place just before this one's rename (once).
    const { store, interfered } = storeWrittenOnceBeforeRename(root, stateFile, JSON.stringify({ version: 1, papers: { theirs: { read: true } } }));
    const result = store.change(['mine'], { starred: true });
    assert.ok(interfered());
    assert.deepEqual(result.changed, ['mine'], JSON.stringify(result));
    const onDisk = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { papers: Record<string, { read?: boolean; starred?: boolean }> };
    assert.equal(onDisk.papers.theirs?.read, true, 'theirs kept');
    assert.equal(onDisk.papers.mine?.starred, true, 'mine written');
  });

  test('Should refuse to write when a folder on the way turned into a link out of the root since the file was read', () => {
    const root = scratch();
    const outside = scratch();
    fs.mkdirSync(path.join(root, 'sub'));
    const file = path.join(root, 'sub', 'a.digest');
    fs.writeFileSync(file, 'old');
    const { snapshot } = readFileSnapshotSync(file);
    const realRoot = fs.realpathSync(root);
    const message = expectCode(
      () =>
        writeFileAtomicSync(file, 'new', {
          expected: snapshot,
          within: realRoot,
          beforeCommit: () => {
            // The folder moved out, and a link put in its place: the same file, now outside.
            fs.renameSync(path.join(root, 'sub'), path.join(outside, 'sub'));
            fs.symlinkSync(path.join(outside, 'sub'), path.join(root, 'sub'));
          },
        }),
      'symlink',
    );
    assert.match(message, /lies outside/);
    assert.equal(fs.readFileSync(path.join(outside, 'sub', 'a.digest'), 'utf8'), 'old', 'nothing written outside the root');
    assert.deepEqual(leftovers(path.join(outside, 'sub')), []);
  });

  test('Should write a file whose name takes 247 bytes, its temporary file named within the limit', () => {
    const root = scratch();
    const file = path.join(root, '中'.repeat(80) + '.digest');
    fs.writeFileSync(file, 'old');
    writeFileAtomicSync(file, 'new', { expected: readFileSnapshotSync(file).snapshot });
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
    assert.deepEqual(leftovers(root), []);
  });

  test('Should remove the temporary files of a writer that was killed, and no other', () => {
    // This project's temporary files are marked so: another program's named alike are never removed.
    const mark = 'paper-digest-';
    const root = scratch();
    const file = path.join(root, 'a.digest');
    fs.writeFileSync(file, 'old');
    // A process that has exited: its id is free (a reused one counts as alive and is kept).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = Number(gone.stdout);
    const old = new Date(Date.now() - 3600_000);
    const left = [
      `.a.digest.${mark}${dead}.0123abcd.tmp`,
      `.b.digest.${mark}${dead}.0123abcd.tmp`,
      `.a.digest.${mark}${process.ppid}.89abcdef.tmp`,
      `.a.digest.${mark}${dead}.notours.tmp`,
      `.young.digest.${mark}${dead}.00000000.tmp`,
      `.a.digest.${dead}.0123abcd.tmp`,
      `.thesis-draft.${dead}.cafebabe.tmp`,
    ];
    // The pieces of a lock (lockFile.ts) a writer stopped while taking or breaking it left.
    const lockPieces = [`a.digest.lock.${dead}-k3j9x2ab7q`, `a.digest.lock.stale-${dead}-0pq7aa12bc`, `a.digest.lock.${process.ppid}-abcdefgh12`, `yarn.lock.${dead}-backupcopy`, `b.digest.lock.${dead}-k3j9x2ab7q`, `a.digest.lock.${dead}-short`];
    for (const name of lockPieces) {
      fs.writeFileSync(path.join(root, name), `${dead}\n`);
      fs.utimesSync(path.join(root, name), old, old);
    }
    for (const name of left) {
      fs.writeFileSync(path.join(root, name), 'a part of a write');
      if (!name.startsWith('.young')) fs.utimesSync(path.join(root, name), old, old);
    }
    fs.symlinkSync('/nonexistent', path.join(root, `.a.digest.${mark}${dead}.fedcba98.tmp`));
    writeFileAtomicSync(file, 'new', { expected: readFileSnapshotSync(file).snapshot });
    assert.deepEqual(
      leftovers(root).sort(),
      [
        `.a.digest.${mark}${dead}.fedcba98.tmp`,
        `.a.digest.${mark}${dead}.notours.tmp`,
        `.a.digest.${mark}${process.ppid}.89abcdef.tmp`,
        `.young.digest.${mark}${dead}.00000000.tmp`,
        `.a.digest.${dead}.0123abcd.tmp`,
        `.thesis-draft.${dead}.cafebabe.tmp`,
      ].sort(),
      'only the dead writers’ old temporary files went (not a link, not a live process’s, not one written to lately, not another name, not another program’s)',
    );
    assert.deepEqual(
      fs.readdirSync(root).filter((name) => name.includes('.lock.')).sort(),
      [`a.digest.lock.${process.ppid}-abcdefgh12`, `yarn.lock.${dead}-backupcopy`, `b.digest.lock.${dead}-k3j9x2ab7q`, `a.digest.lock.${dead}-short`].sort(),
      'and the dead writers’ pieces of the lock of the file written (not a live writer’s, not another file’s, not a name merely like one)',
    );
  });

  test('Should leave the file whole when the write fails midway (file-size limit)', () => {
    assertWholeAfterFailingMidway((s, file) => `try { ${s}.writeFileAtomicSync(${file}, 'y'.repeat(100000)); } catch (e) { console.log(e.code + ': ' + e.message); }`);
  });
});
