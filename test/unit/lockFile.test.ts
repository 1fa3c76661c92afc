/**
 * Breaking a stale lock never removes another writer's: the lock judged stale (its writer gone)
 * is told from a fresh one taken in its place meanwhile by its inode and its text, since a file
 * system hands a freed inode number to the next file made (ext4 does, every time).
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { lockOwnerRunning, machine, withFileLock } from '../../server/src/fs/lockFile';
import { temporaryFolders } from '../support/tempFolders';

const temp = temporaryFolders();

/** The lock of a live writer (this process): what takes the place of the stale one. */
const fresh = `${process.pid}\nfresh-token\n`;

/** A file whose lock was left by a writer that died (a process that ran and exited). */
function deadWritersLock(): { file: string; lock: string } {
  const file = path.join(temp.make('paper-digest-lock-'), 'state.json');
  const lock = `${file}.lock`;
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  fs.writeFileSync(lock, `${dead}\nold\n`);
  return { file, lock };
}

describe('file lock: a stale lock replaced while it is broken', () => {
  test('Should give back a live writer’s lock that took the place of the stale one, and wait for it', async () => {
    const { file, lock } = deadWritersLock();
    // The module object itself (the imported namespace is read-only; the lock's code reads through it).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeFs = require('node:fs') as { renameSync: typeof fs.renameSync };
    const rename = nodeFs.renameSync;
    let swapped = false;
    // Between the look at the stale lock and its move aside, it is released and another live
    // writer takes the lock (this process's pid: alive).
    nodeFs.renameSync = (from: fs.PathLike, to: fs.PathLike): void => {
      if (from === lock && !swapped) {
        swapped = true;
        // Written in place: the same inode, whatever the file system hands out.
        fs.writeFileSync(lock, fresh);
      }
      rename(from, to);
    };
    try {
      await assert.rejects(
        withFileLock(file, () => 'held', { waitMs: 50 }),
        /being written by another process/,
      );
    } finally {
      nodeFs.renameSync = rename;
    }
    assert.ok(swapped, 'the lock was replaced while being broken');
    assert.equal(fs.readFileSync(lock, 'utf8'), fresh, 'the live writer’s lock is given back, whatever its inode');
    // Released: the next writer takes it.
    fs.unlinkSync(lock);
    assert.equal(await withFileLock(file, () => 'held', { waitMs: 50 }), 'held');
  });

  test('Should give back a live writer’s lock made between the look at the stale lock and the read of its text', async () => {
    const { file, lock } = deadWritersLock();
    // Stale by its age too (two minutes old).
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lock, old, old);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeFs = require('node:fs') as { lstatSync: typeof fs.lstatSync };
    const lstat = nodeFs.lstatSync;
    let swapped = false;
    // Right after the look at the stale lock, the live writer's lock takes its place (in place:
    // the same inode), before its text is read.
    nodeFs.lstatSync = ((target: fs.PathLike, options?: fs.StatSyncOptions) => {
      const result = (lstat as (target: fs.PathLike, options?: fs.StatSyncOptions) => fs.Stats)(target, options);
      if (target === lock && !swapped) {
        swapped = true;
        fs.writeFileSync(lock, fresh);
      }
      return result;
    }) as typeof fs.lstatSync;
    try {
      await assert.rejects(withFileLock(file, () => 'held', { waitMs: 50 }), /being written by another process/);
    } finally {
      nodeFs.lstatSync = lstat;
    }
    assert.ok(swapped);
    assert.equal(fs.readFileSync(lock, 'utf8'), fresh, 'the live writer’s lock is given back');
  });
});

describe('file lock: whose lock is stale', () => {
  /** A lock file written `ageMs` ago with `text`. */
  function lockOf(text: string, ageMs: number): { file: string; lock: string } {
    const file = path.join(temp.make('paper-digest-lock-'), 'state.json');
    const lock = `${file}.lock`;
    fs.writeFileSync(lock, text);
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lock, then, then);
    return { file, lock };
  }

  test('Should never break the lock of a writer of this machine that is still running, however old (stopped with Ctrl-Z)', async () => {
    // A writer started before its lock was written, and still running (stopped or asleep).
    const writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setImmediate(resolve));
      // Written after the writer started, and older than the time after which a lock is stale
      // (1 s here, a minute by default): still its writer's.
      const { file, lock } = lockOf(`${writer.pid}\ntoken\n${machine()}\n`, 1_500);
      assert.equal(lockOwnerRunning(fs.readFileSync(lock, 'latin1'), fs.statSync(lock).mtimeMs), 'running');
      await assert.rejects(withFileLock(file, () => 'held', { waitMs: 50, staleMs: 1_000 }), /being written by another process/);
      assert.ok(fs.existsSync(lock), 'left in place');
      // Once the writer is gone, the lock is broken at once.
      writer.kill('SIGKILL');
      await new Promise((resolve) => writer.once('exit', resolve));
      assert.equal(await withFileLock(file, () => 'held', { waitMs: 50, staleMs: 1_000 }), 'held');
    } finally {
      writer.kill('SIGKILL');
    }
  });

  test('Should judge a lock of another machine, or of an old format, by its age alone', async () => {
    // A pid that is no process here means nothing for another machine's lock: young, it is held.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const young = lockOf(`${dead}\ntoken\nanother-host.example\n`, 0);
    await assert.rejects(withFileLock(young.file, () => 'held', { waitMs: 50 }), /being written by another process/);
    const old = lockOf(`${process.ppid}\ntoken\nanother-host.example\n`, 120_000);
    assert.equal(await withFileLock(old.file, () => 'held', { waitMs: 50 }), 'held');
    // The lock of a writer of before the host's name was written: its pid is looked at here.
    assert.equal(await withFileLock(lockOf(`${dead}\ntoken\n`, 0).file, () => 'held', { waitMs: 50 }), 'held');
  });

  test('Should take a running process that started after the lock was written for another than its writer (its pid given again)', () => {
    if (process.platform !== 'linux') return;
    // This process's parent, started before now, named by a lock written in 1990: not its writer.
    assert.equal(lockOwnerRunning(`${process.ppid}\ntoken\n${machine()}\n`, Date.parse('1990-01-01')), 'gone');
    assert.equal(lockOwnerRunning(`${process.ppid}\ntoken\n${machine()}\n`, Date.now()), 'running');
    assert.equal(lockOwnerRunning(`${process.pid}\ntoken\n${machine()}\n`, Date.now()), 'unknown', 'this process: by age');
    // The host's name alone, from a container that numbers its processes apart: its pid means nothing here.
    if (machine() !== os.hostname()) assert.equal(lockOwnerRunning(`${process.ppid}\ntoken\n${os.hostname()}\n`, Date.now()), 'unknown');
  });
});
