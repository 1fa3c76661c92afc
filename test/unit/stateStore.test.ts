/**
 * The reading state store on a real disk (NodeStateDisk over fs/safeFile.ts): merges on
 * conflict, leaves a corrupt or unknown-version file untouched, survives a writer killed in
 * the middle of a write, never writes through a link out of the folder, and never over a
 * change made meanwhile.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { mergeStates, parseState, ReadingState } from '../../server/src/service/reading/stateFile';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { NodeStateDisk, STATE_FILE, STATE_FOLDER } from '../../server/src/stateDisk';
import { temporaryFolders } from '../support/tempFolders';

const temp = temporaryFolders();

function scratch(): string {
  return temp.make('paper-digest-state-');
}

function lockFile(root: string): string {
  return `${stateFile(root)}.lock`;
}

function stateFile(root: string): string {
  return path.join(root, STATE_FOLDER, STATE_FILE);
}

function writeState(root: string, text: string): void {
  fs.mkdirSync(path.join(root, STATE_FOLDER), { recursive: true });
  fs.writeFileSync(stateFile(root), text);
}

function papersOnDisk(root: string): Record<string, Record<string, unknown>> {
  return JSON.parse(fs.readFileSync(stateFile(root), 'utf8')).papers;
}

function leftovers(root: string): string[] {
  const folder = path.join(root, STATE_FOLDER);
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.tmp')) : [];
}

/** A clock that moves one second per call, from a given time. */
function clock(start: string): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

function store(root: string, now?: () => Date, hooks?: ConstructorParameters<typeof NodeStateDisk>[1]): StateStore {
  const result = new StateStore(new NodeStateDisk(root, hooks), now);
  result.load();
  return result;
}

describe('state store: two writers', () => {
  test('Should merge the changes of two stores of the same folder, each keeping the other’s', () => {
    const root = scratch();
    const one = store(root);
    const two = store(root);
    assert.deepEqual(one.change(['paper a'], { starred: true }, new Map([['paper a', 'Paper A']])).changed, ['paper a']);
    // `two` loaded before `one` wrote: its write reads the file again and merges.
    assert.deepEqual(two.change(['paper b'], { read: true, addTags: ['x'] }).changed, ['paper b']);
    const papers = papersOnDisk(root);
    assert.equal(papers['paper a'].starred, true, JSON.stringify(papers));
    assert.equal(papers['paper a'].title, 'Paper A');
    assert.equal(papers['paper b'].read, true, JSON.stringify(papers));
    assert.deepEqual(papers['paper b'].tags, ['x']);
    // And `one` sees `two`'s change when it loads the file again.
    assert.equal(one.load(), true);
    assert.equal(one.get('paper b')?.read, true);
    assert.equal(one.get('paper a')?.starred, true);
    assert.deepEqual(leftovers(root), []);
  });

  test('Should not undo another store’s change with its own stale view, and merge tags as sets', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, papers: { p: { read: true, tags: ['keep', 'drop'], updated: '2026-05-01T00:00:00.000Z' } } }));
    const stale = store(root, clock('2026-05-02T00:00:00Z'));
    const other = store(root, clock('2026-05-03T00:00:00Z'));
    assert.equal(other.change(['p'], { read: false, addTags: ['late'] }).changed.length, 1);
    // `stale` still holds read: true, tags keep and drop; it changes only the note and tags.
    assert.equal(stale.change(['p'], { note: 'early note', removeTags: ['drop'], addTags: ['early'] }).changed.length, 1);
    const paper = papersOnDisk(root).p;
    assert.equal(paper.read, undefined, `the other store's 'unread' stands: ${JSON.stringify(paper)}`);
    assert.equal(paper.note, 'early note');
    assert.deepEqual(paper.tags, ['early', 'keep', 'late'], 'a tag removed on one side is dropped, added on either side kept');
    assert.equal(stale.get('p')?.read, undefined, 'the stale store now holds the merged state');
  });

  test('Should merge two versions field by field, the later `updated` winning a field both changed', () => {
    const base = { version: 1 as const, papers: new Map([['p', { read: true, note: 'base', tags: ['a', 'b'], updated: '2026-05-01T00:00:00.000Z' }]]) };
    const mine = { version: 1 as const, papers: new Map([['p', { read: true, note: 'mine', tags: ['a', 'b', 'm'], updated: '2026-05-03T00:00:00.000Z' }], ['only mine', { starred: true }]]) };
    const theirs = { version: 1 as const, papers: new Map([['p', { note: 'theirs', tags: ['b', 't'], updated: '2026-05-02T00:00:00.000Z' }], ['only theirs', { read: true }]]) };
    const merged = mergeStates(base, mine, theirs);
    const p = merged.papers.get('p');
    assert.equal(p?.read, undefined, 'read changed only by theirs: taken');
    assert.equal(p?.note, 'mine', 'note changed by both: the later (mine) wins');
    assert.deepEqual(p?.tags, ['b', 'm', 't']);
    assert.equal(p?.updated, '2026-05-03T00:00:00.000Z');
    assert.equal(merged.papers.get('only mine')?.starred, true);
    assert.equal(merged.papers.get('only theirs')?.read, true);
    // The other way round, theirs is later.
    const later = { ...theirs, papers: new Map([['p', { ...theirs.papers.get('p')!, updated: '2026-05-04T00:00:00.000Z' }]]) };
    assert.equal(mergeStates(base, mine, later).papers.get('p')?.note, 'theirs');
  });

  test('Should take another tool’s change to a top-level field, a removal too, over a stale view of it', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, otherTool: { token: 'old' }, kept: 1, papers: {} }));
    const mine = store(root);
    // The other tool removes one field and changes another after this store loaded the file.
    writeState(root, JSON.stringify({ version: 1, kept: 2, papers: {} }));
    assert.equal(mine.change(['p'], { starred: true }).changed.length, 1);
    const written = JSON.parse(fs.readFileSync(stateFile(root), 'utf8'));
    assert.equal('otherTool' in written, false, 'the removal stands');
    assert.equal(written.kept, 2);
    // In memory too: three ways, the base being what both started from.
    const base = { version: 1 as const, papers: new Map(), extra: { a: '1', b: '1', c: '1' } };
    const merged = mergeStates(base, { ...base, extra: { a: '2', b: '1', c: '1' } }, { ...base, extra: { a: '1', c: '3', d: '4' } });
    assert.deepEqual(merged.extra, { a: '2', c: '3', d: '4' });
  });

  test('Should keep the tags another tool wrote, longer or more than it writes, when it writes for another paper', () => {
    const root = scratch();
    const tags = ['L'.repeat(100), ...Array.from({ length: 70 }, (_, i) => `t${String(i).padStart(2, '0')}`)];
    writeState(root, JSON.stringify({ version: 1, papers: { other: { tags } } }));
    assert.equal(store(root).change(['mine'], { starred: true }).changed.length, 1);
    assert.deepEqual(papersOnDisk(root).other.tags, [...tags].sort());
    // Adding a tag it has changes nothing and is no refusal; a new one is refused, as past the limit.
    const again = store(root).change(['other'], { addTags: ['t01'] });
    assert.equal(again.messageRef, undefined);
    assert.deepEqual(again.changed, []);
    assert.ok(store(root).change(['other'], { addTags: ['new'] }).messageRef);
    // And the long one can be removed by its name.
    assert.equal(store(root).change(['other'], { removeTags: ['L'.repeat(100)] }).changed.length, 1);
    assert.equal((papersOnDisk(root).other.tags as string[]).length, 70);
  });

  test('Should keep the fields another tool wrote in a paper, through a change to it or to another paper, a merge and a clearing', () => {
    const root = scratch();
    const mine = store(root);
    // Written by another tool after this store loaded the file: a rating and a reference
    // manager's key in one paper, and one field only in another (no state of its own).
    writeState(root, '{"version":1,"papers":{"other":{"read":true,"rating":5,"zoteroKey":"ABCD1234","links":{"doi":"10.1/x","n":[1.5,null]}},"bare":{"zoteroKey":"Z9"},"odd":{"__proto__":{"x":1}}}}');
    assert.equal(mine.change(['mine'], { starred: true }).changed.length, 1);
    let papers = papersOnDisk(root);
    assert.deepEqual(papers.other, { read: true, rating: 5, zoteroKey: 'ABCD1234', links: { doi: '10.1/x', n: [1.5, null] } });
    assert.deepEqual(papers.bare, { zoteroKey: 'Z9' });
    assert.deepEqual(JSON.parse(fs.readFileSync(stateFile(root), 'utf8')).papers.odd.__proto__, { x: 1 }, 'a field named __proto__ is a field');
    // A change to the paper itself keeps them; clearing its state keeps the paper for them.
    assert.equal(store(root).change(['other'], { addTags: ['to-read'], read: false }).changed.length, 1);
    papers = papersOnDisk(root);
    assert.equal(papers.other.rating, 5);
    assert.deepEqual(papers.other.tags, ['to-read']);
    assert.equal(store(root).change(['other'], { removeTags: ['to-read'] }).changed.length, 1);
    assert.deepEqual(Object.keys(papersOnDisk(root).other).sort(), ['links', 'rating', 'updated', 'zoteroKey']);
    // Three ways: the other tool changes its field while this side stars the paper.
    const read = (value: object): ReadingState => {
      const parsed = parseState(JSON.stringify(value));
      assert.ok('state' in parsed);
      return parsed.state;
    };
    const base = read({ version: 1, papers: { p: { rating: 1 } } });
    const starred = read({ version: 1, papers: { p: { rating: 1, starred: true, updated: '2026-05-01T00:00:00.000Z' } } });
    const rated = read({ version: 1, papers: { p: { rating: 4, zoteroKey: 'K' } } });
    const merged = mergeStates(base, starred, rated).papers.get('p');
    assert.equal(merged?.starred, true);
    assert.deepEqual({ ...merged?.extra }, { rating: '4', zoteroKey: '"K"' });
  });

  test('Should keep the papers and top-level fields another tool wrote', () => {
    const root = scratch();
    const mine = store(root);
    writeState(root, JSON.stringify({ version: 1, tool: { name: 'other' }, papers: { other: { starred: true } } }));
    assert.equal(mine.change(['mine'], { read: true }).changed.length, 1);
    const written = JSON.parse(fs.readFileSync(stateFile(root), 'utf8'));
    assert.deepEqual(written.tool, { name: 'other' });
    assert.equal(written.papers.other.starred, true);
    assert.equal(written.papers.mine.read, true);
  });
});

describe('state store: files it cannot use', () => {
  for (const [name, text, pattern] of [
    ['corrupt JSON', '{ "version": 1, "papers": { oops', /is corrupt: not valid JSON/],
    ['a wrong shape', '{ "version": 1, "papers": { "p": { "read": "yes" } } }', /is corrupt: paper "p": "read" is not true or false/],
    ['a newer version', '{ "version": 2, "papers": {}, "shelves": [] }', /cannot be used: its version 2 is not one this version of Paper Digest knows \(1\)/],
    ['an unknown version', '{ "version": "1.0", "papers": {} }', /cannot be used: its version "1\.0" is not one/],
    ['no version', '{ "papers": {} }', /is corrupt: it has no "version" field/],
    ['a field nested too deep to write back', `{ "version": 1, "papers": {}, "x": ${'['.repeat(6000)}${']'.repeat(6000)} }`, /is corrupt: its field "x" nests values more than 1000 deep/],
    // 2,000,001 empty arrays in 6 MB: refused before the parse, which would take gigabytes for a 64 MB file of them.
    ['more arrays than any state', `{ "version": 1, "papers": {}, "big": [${'[],'.repeat(2_000_000)}[], "x]"] }`, /is corrupt: it holds more than 2,000,000 arrays and objects/],
  ] as const) {
    test(`Should report ${name}, leave the file untouched and refuse changes`, () => {
      const root = scratch();
      writeState(root, text);
      fs.chmodSync(stateFile(root), 0o640);
      const before = fs.statSync(stateFile(root));
      const subject = store(root);
      assert.equal(subject.status.readOnly, true);
      assert.match(subject.status.problem ?? '', pattern);
      assert.match(subject.status.problem ?? '', /left untouched and reading state is read-only until it is fixed$/);
      assert.ok(subject.status.problem?.startsWith(stateFile(root)), subject.status.problem);
      const result = subject.change(['p'], { starred: true });
      assert.deepEqual(result.changed, []);
      assert.equal(result.readOnly, true);
      assert.match(result.message ?? '', pattern);
      assert.equal(fs.readFileSync(stateFile(root), 'utf8'), text);
      const after = fs.statSync(stateFile(root));
      assert.equal(after.ino, before.ino, 'not replaced');
      assert.equal(after.mtimeMs, before.mtimeMs);
      assert.equal(after.mode & 0o777, 0o640);
      assert.deepEqual(leftovers(root), []);
      // Fixed by hand: the next load makes the store writable again.
      fs.writeFileSync(stateFile(root), '{"version":1,"papers":{}}');
      assert.equal(subject.load(), true);
      assert.equal(subject.status.readOnly, false);
      assert.deepEqual(subject.change(['p'], { starred: true }).changed, ['p']);
    });
  }

  test('Should report a state file that is a folder, without reading it', () => {
    const root = scratch();
    fs.mkdirSync(stateFile(root), { recursive: true });
    const subject = store(root);
    assert.equal(subject.status.readOnly, true);
    assert.match(subject.status.problem ?? '', /cannot be read \(it is a folder, not a regular file\)/);
  });
});

describe('state store: links', () => {
  test('Should never write through a state file that is a symbolic link out of the folder', () => {
    const root = scratch();
    const outside = scratch();
    const target = path.join(outside, 'elsewhere.json');
    fs.writeFileSync(target, '{"version":1,"papers":{}}');
    fs.mkdirSync(path.join(root, STATE_FOLDER));
    fs.symlinkSync(target, stateFile(root));
    const subject = store(root);
    assert.equal(subject.status.readOnly, true);
    assert.match(subject.status.problem ?? '', /symbolic link/);
    assert.deepEqual(subject.change(['p'], { starred: true }).changed, []);
    assert.equal(fs.readFileSync(target, 'utf8'), '{"version":1,"papers":{}}');
    assert.ok(fs.lstatSync(stateFile(root)).isSymbolicLink(), 'the link is left as it is');
    assert.deepEqual(fs.readdirSync(outside), ['elsewhere.json']);
  });

  test('Should never write into a state folder that is a symbolic link out of the folder', () => {
    const root = scratch();
    const outside = scratch();
    fs.symlinkSync(outside, path.join(root, STATE_FOLDER));
    const subject = store(root);
    assert.equal(subject.status.readOnly, true);
    assert.match(subject.status.problem ?? '', /\.paper-digest is a symbolic link, which Paper Digest does not follow/);
    assert.deepEqual(subject.change(['p'], { starred: true }).changed, []);
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing written out of the folder');
  });

  test('Should take no lock in a state folder that is a link out of the folder: nothing created, moved or removed there', async () => {
    const root = scratch();
    const outside = scratch();
    // A file of another program that happens to have the lock's name, old enough to look stale.
    fs.writeFileSync(path.join(outside, 'state.json.lock'), 'precious data\n');
    const old = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(outside, 'state.json.lock'), old, old);
    fs.symlinkSync(outside, path.join(root, STATE_FOLDER));
    const subject = store(root);
    for (const result of [subject.change(['p'], { starred: true }), await subject.changeAsync(['q'], { read: true })]) {
      assert.deepEqual(result.changed, []);
      assert.equal(result.readOnly, true);
      assert.match(result.message ?? '', /symbolic link/);
    }
    // A lock taken there would have judged that file stale and removed it.
    assert.deepEqual(fs.readdirSync(outside), ['state.json.lock']);
    assert.equal(fs.readFileSync(path.join(outside, 'state.json.lock'), 'utf8'), 'precious data\n');
  });

  test('Should refuse a state folder that a link turned into one (even created after the load)', () => {
    const root = scratch();
    const outside = scratch();
    const subject = store(root);
    assert.equal(subject.status.readOnly, false, 'no file yet: writable');
    fs.symlinkSync(outside, path.join(root, STATE_FOLDER));
    const result = subject.change(['p'], { starred: true });
    assert.deepEqual(result.changed, []);
    assert.match(result.message ?? '', /symbolic link/);
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});

describe('state store: changes made meanwhile', () => {
  test('Should not write over a change made between its read and its rename, but merge it and write again', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, papers: {} }));
    let interfered = false;
    const subject = store(root, undefined, {
      beforeCommit: () => {
        if (!interfered) {
          interfered = true;
          // Someone else (another window, git pull) writes the file now.
          fs.writeFileSync(stateFile(root), JSON.stringify({ version: 1, papers: { theirs: { starred: true, updated: '2026-05-01T00:00:00.000Z' } } }));
        }
      },
    });
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.ok(interfered);
    const papers = papersOnDisk(root);
    assert.equal(papers.theirs?.starred, true, `the other change is kept: ${JSON.stringify(papers)}`);
    assert.equal(papers.mine?.read, true);
    assert.deepEqual(leftovers(root), []);
  });

  test('Should write nothing when its lock was broken as stale while it stood still, and keep the other writer’s change', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, papers: {} }));
    const lock = `${stateFile(root)}.lock`;
    let other: readonly string[] = [];
    const subject = store(root, undefined, {
      // Stopped (Ctrl-Z) after its last check for over a minute: another writer breaks the lock as
      // stale, takes its own and writes the file.
      beforeRename: () => {
        assert.ok(fs.existsSync(lock), 'the lock is held while writing');
        fs.rmSync(lock);
        other = store(root).change(['theirs'], { starred: true }).changed;
      },
    });
    const result = subject.change(['mine'], { read: true });
    assert.deepEqual(other, ['theirs']);
    assert.deepEqual(result.changed, [], result.message);
    assert.match(result.message ?? '', /was broken as stale while this writer stood still, and another may have written it since; nothing was changed$/);
    const papers = papersOnDisk(root);
    assert.equal(papers.theirs?.starred, true, `the other writer's change is kept: ${JSON.stringify(papers)}`);
    assert.equal(papers.mine, undefined);
    assert.deepEqual(leftovers(root), []);
    // A lock taken by another writer after this one's was broken is not released by this one.
    const held = store(root, undefined, {
      beforeRename: () => {
        fs.rmSync(lock);
        fs.writeFileSync(lock, '1\n');
      },
    });
    assert.deepEqual(held.change(['mine'], { read: true }).changed, []);
    assert.equal(fs.readFileSync(lock, 'utf8'), '1\n', 'the other lock stays');
    fs.rmSync(lock);
  });

  test('Should write, and release its lock, when another writer moved the lock aside by mistake and put it back', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, papers: {} }));
    const lock = `${stateFile(root)}.lock`;
    const subject = store(root, undefined, {
      // What a writer breaking a lock it judged stale does when a fresh lock took its place: moved
      // aside, found to be another, linked back (its change time moves, its inode and text stay).
      beforeRename: () => {
        const aside = `${lock}.stale-1-0123456789ab`;
        fs.renameSync(lock, aside);
        fs.linkSync(aside, lock);
        fs.rmSync(aside);
      },
    });
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.equal(papersOnDisk(root).mine?.read, true);
    assert.equal(fs.existsSync(lock), false, 'the lock released');
  });

  test('Should give up with a message, writing nothing, when the file keeps changing under it', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    let n = 0;
    const subject = store(root, undefined, {
      beforeCommit: () => fs.writeFileSync(stateFile(root), JSON.stringify({ version: 1, papers: { [`theirs ${++n}`]: { read: true } } })),
    });
    const result = subject.change(['mine'], { starred: true });
    assert.deepEqual(result.changed, []);
    assert.match(result.message ?? '', /kept changing while it was written; nothing was changed/);
    assert.deepEqual(Object.keys(papersOnDisk(root)), [`theirs ${n}`], 'the last outside change stands');
    assert.equal(subject.get('mine'), undefined);
    assert.deepEqual(leftovers(root), []);
  });

  test('Should not create the file over one that appeared meanwhile', () => {
    const root = scratch();
    let once = false;
    const subject = store(root, undefined, {
      beforeCommit: () => {
        if (!once) {
          once = true;
          fs.writeFileSync(stateFile(root), JSON.stringify({ version: 1, papers: { theirs: { read: true } } }));
        }
      },
    });
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.deepEqual(Object.keys(papersOnDisk(root)).sort(), ['mine', 'theirs']);
  });

  test('Should refuse a change once the workspace folder is gone, and not make it again at its old place', () => {
    for (const gone of ['moved', 'deleted'] as const) {
      const root = scratch();
      const subject = store(root);
      assert.deepEqual(subject.change(['first'], { read: true }).changed, ['first']);
      // The state folder goes with the workspace folder: the next change finds no state file.
      if (gone === 'moved') fs.renameSync(root, root + '-moved');
      else fs.rmSync(root, { recursive: true });
      const refused = subject.change(['second'], { starred: true });
      assert.deepEqual(refused.changed, [], gone);
      assert.match(refused.message ?? '', /workspace folder '.*' is gone \(moved, deleted or unmounted\)/, gone);
      assert.ok(!fs.existsSync(root), `${gone}: the old folder is not made again`);
      fs.rmSync(root + '-moved', { recursive: true, force: true });
    }
  });

  test('Should refuse a change once a link or another folder is put where the workspace folder was, and write nothing there', () => {
    for (const put of ['link', 'folder'] as const) {
      const root = scratch();
      const other = scratch();
      const subject = store(root);
      assert.deepEqual(subject.change(['first'], { starred: true }).changed, ['first']);
      fs.renameSync(root, root + '-moved');
      if (put === 'link') fs.symlinkSync(other, root);
      else fs.mkdirSync(root);
      const refused = subject.change(['second'], { starred: true });
      assert.deepEqual(refused.changed, [], put);
      assert.match(refused.message ?? '', /workspace folder '.*' is no longer the folder it was/, put);
      assert.ok(!fs.existsSync(path.join(other, STATE_FOLDER)), `${put}: nothing written through the link`);
      assert.ok(!fs.existsSync(path.join(fs.realpathSync(root), STATE_FOLDER)), `${put}: nor in the folder put there`);
      assert.deepEqual(Object.keys(papersOnDisk(root + '-moved')), ['first'], `${put}: the moved folder's state as it was`);
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(root + '-moved', { recursive: true, force: true });
    }
  });

  test('Should go on writing in the same workspace folder reached by another real path (a parent moved, a link following it)', () => {
    const base = scratch();
    fs.mkdirSync(path.join(base, 'data', 'a', 'ws'), { recursive: true });
    fs.symlinkSync(path.join(base, 'data', 'a'), path.join(base, 'a'));
    const root = path.join(base, 'a', 'ws');
    const subject = store(root);
    assert.deepEqual(subject.change(['first'], { starred: true }).changed, ['first']);
    fs.renameSync(path.join(base, 'data', 'a'), path.join(base, 'data', 'b'));
    fs.rmSync(path.join(base, 'a'));
    fs.symlinkSync(path.join(base, 'data', 'b'), path.join(base, 'a'));
    const result = subject.change(['second'], { starred: true });
    assert.deepEqual(result.changed, ['second'], result.message);
    assert.deepEqual(Object.keys(papersOnDisk(path.join(base, 'data', 'b', 'ws'))).sort(), ['first', 'second']);
  });

  test('Should keep the file’s mode when it replaces it', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.chmodSync(stateFile(root), 0o600);
    const subject = store(root);
    subject.change(['p'], { starred: true });
    assert.equal(fs.statSync(stateFile(root)).mode & 0o777, 0o600);
    assert.equal(papersOnDisk(root).p.starred, true);
  });
});

/** The compiled state disk, for a child process to require. */
const STATE_DISK_JS = path.join(__dirname, '..', '..', 'server', 'src', 'stateDisk.js');
const STATE_STORE_JS = path.join(__dirname, '..', '..', 'server', 'src', 'service', 'reading', 'stateStore.js');

/**
 * A writer in its own process. mode `pause`: one change, then it says `ready` when the new
 * file is written aside and waits there to be killed. mode `loop`: changes one paper after
 * another, saying each one's number when it is written. mode `twenty`: twenty changes of its
 * own papers, as fast as it can, then it exits.
 */
function writer(root: string, mode: 'pause' | 'loop' | 'twenty'): ReturnType<typeof spawn> {
  const script = `
    const { NodeStateDisk } = require(${JSON.stringify(STATE_DISK_JS)});
    const { StateStore } = require(${JSON.stringify(STATE_STORE_JS)});
    const mode = ${JSON.stringify(mode)};
    const hooks = mode === 'pause' ? { beforeCommit() { process.stdout.write('ready\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); } } : {};
    const store = new StateStore(new NodeStateDisk(${JSON.stringify(root)}, hooks));
    store.load();
    const note = 'n'.repeat(3000);
    for (let i = 0; ; i++) {
      const result = store.change(['paper ' + process.pid + ' ' + i], { read: true, note });
      if (result.changed.length !== 1) { process.stderr.write(String(result.message)); process.exit(3); }
      process.stdout.write(i + '\\n');
      if (mode === 'pause' || (mode === 'twenty' && i === 19)) break;
    }
  `;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves when the child's stdout has a line matching, with all it printed. */
function waitForLine(child: ReturnType<typeof spawn>, matches: (line: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\n').some(matches)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the writer exited (${code}) before the line; it printed ${JSON.stringify(seen.slice(-200))}, stderr ${JSON.stringify(errors)}`)));
  });
}

function killed(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('state store: a writer killed in the middle of a write', () => {
  test('Should leave the old file whole when the writer is killed after writing aside, before the rename', async () => {
    const root = scratch();
    const old = JSON.stringify({ version: 1, papers: { old: { starred: true, updated: '2026-05-01T00:00:00.000Z' } } }, null, 2) + '\n';
    writeState(root, old);
    const child = writer(root, 'pause');
    await waitForLine(child, (line) => line === 'ready');
    assert.equal(leftovers(root).length, 1, 'the new state is written aside in the same folder');
    assert.ok(fs.existsSync(lockFile(root)), 'the writer holds the lock');
    await killed(child);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), old, 'the old file is whole');
    // The next writer works despite the temporary file the killed one left.
    const next = store(root);
    assert.equal(next.status.readOnly, false);
    assert.equal(next.get('old')?.starred, true);
    assert.deepEqual(next.change(['after'], { read: true }).changed, ['after']);
    assert.deepEqual(Object.keys(papersOnDisk(root)).sort(), ['after', 'old']);
    assert.equal(fs.existsSync(lockFile(root)), false, 'the dead writer’s lock is broken and the new one released');
  });

  test('Should leave a whole file of some earlier write, whenever the writer is killed', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    for (const after of [1, 4, 9]) {
      const child = writer(root, 'loop');
      // Killed at once after some writes were reported, so most likely in the middle of another one.
      await waitForLine(child, (line) => line !== '' && Number(line) >= after);
      await killed(child);
      const text = fs.readFileSync(stateFile(root), 'utf8');
      const parsed = parseState(text);
      assert.ok('state' in parsed, `killed after ${after} writes, the file is not whole: ${text.slice(-200)}`);
      const keys = [...parsed.state.papers.keys()];
      assert.ok(keys.length >= after, `killed after ${after} writes, the file has ${keys.length} papers`);
      for (const key of keys) {
        assert.equal(parsed.state.papers.get(key)?.note?.length, 3000, `${key} is whole`);
      }
    }
  });
});

/** Resolves with the exit code and stderr of a child. */
function exited(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('state store: several writers at once', () => {
  test('Should keep every change of several processes writing the same file at once', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    const children = Array.from({ length: 4 }, () => writer(root, 'twenty'));
    const results = await Promise.all(children.map(exited));
    results.forEach((result, i) => assert.equal(result.code, 0, `writer ${i}: ${result.stderr}`));
    const keys = Object.keys(papersOnDisk(root));
    for (const child of children) {
      const own = keys.filter((key) => key.startsWith(`paper ${child.pid} `));
      assert.equal(own.length, 20, `writer ${child.pid} has ${own.length} of its 20 papers on disk`);
    }
    assert.equal(fs.existsSync(lockFile(root)), false, 'no lock is left');
  });

  test('Should wait for a lock another writer holds, then refuse with a message, writing nothing', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    // Held by a live process (this one) and fresh.
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    const subject = store(root, undefined, { lock: { waitMs: 30 } });
    const result = subject.change(['mine'], { read: true });
    assert.deepEqual(result.changed, []);
    assert.match(result.message ?? '', /being written by another process.*nothing was/);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), '{"version":1,"papers":{}}');
    assert.equal(fs.readFileSync(lockFile(root), 'utf8'), `${process.pid}\n`, 'the other writer’s lock is left alone');
    // Released: the next change goes through.
    fs.unlinkSync(lockFile(root));
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.equal(papersOnDisk(root).mine?.read, true);
  });

  test('Should wait for a held lock in the server with timers, answering meanwhile, then refuse', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    const subject = store(root, undefined, { lock: { waitMs: 200 } });
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    let result;
    try {
      result = await subject.changeAsync(['mine'], { read: true });
    } finally {
      clearInterval(ticking);
    }
    assert.ok(ticks >= 3, `the event loop ran while the lock was waited for (${ticks} ticks)`);
    assert.deepEqual(result.changed, []);
    assert.match(result.message ?? '', /being written by another process.*nothing was/);
    assert.equal(fs.readFileSync(lockFile(root), 'utf8'), `${process.pid}\n`);
    fs.unlinkSync(lockFile(root));
    assert.deepEqual((await subject.changeAsync(['mine'], { read: true })).changed, ['mine']);
    assert.equal(fs.existsSync(lockFile(root)), false, 'released');
  });

  test('Should not make the changes queued behind a wait for the lock that ran out wait again, each on its own', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    // The disk as the server has it, telling which changes waited for the lock and which tried it once.
    const tries: boolean[] = [];
    let releaseAfterFirst = false;
    class Watched extends NodeStateDisk {
      override exclusiveAsync<T>(work: () => T, once = false): Promise<T> {
        tries.push(once);
        const first = tries.length === 1;
        return super.exclusiveAsync(work, once).catch((error: unknown) => {
          // The other writer lets go just as the first wait runs out.
          if (first && releaseAfterFirst) fs.unlinkSync(lockFile(root));
          throw error;
        });
      }
    }
    const subject = new StateStore(new Watched(root, { lock: { waitMs: 100 } }));
    subject.load();
    // Four stars while another process holds the file: one wait, then one try each.
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((key) => subject.changeAsync([key], { starred: true })));
    assert.deepEqual(tries, [false, true, true, true]);
    for (const result of results) {
      assert.deepEqual(result.changed, []);
      assert.match(result.message ?? '', /being written by another process.*nothing was/);
    }
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), '{"version":1,"papers":{}}');
    // A change made after that waits again.
    tries.length = 0;
    releaseAfterFirst = true;
    const [late, queued] = await Promise.all([subject.changeAsync(['e'], { starred: true }), subject.changeAsync(['f'], { starred: true })]);
    assert.deepEqual(tries, [false, true]);
    assert.deepEqual(late.changed, []);
    // Queued behind it, its one try finds the lock free: it goes through.
    assert.deepEqual(queued.changed, ['f']);
    assert.deepEqual(Object.keys(papersOnDisk(root)), ['f']);
    // Then every change waits as before.
    tries.length = 0;
    assert.deepEqual((await subject.changeAsync(['g'], { starred: true })).changed, ['g']);
    assert.deepEqual(tries, [false]);
  });

  test('Should break a dead writer’s lock and go through when trying the lock once, without waiting', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    // The lock of a writer that has ended (a process that ran and exited).
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(lockFile(root), `${dead}\n`);
    const disk = new NodeStateDisk(root);
    assert.equal(await disk.exclusiveAsync(() => 'written', true), 'written');
    assert.equal(fs.existsSync(lockFile(root)), false, 'the dead writer’s lock is broken and this one released');
    // A live writer's lock is still refused at once.
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    await assert.rejects(disk.exclusiveAsync(() => 'written', true), /being written by another process/);
  });

  test('Should not take the lock through a state folder that became a link while it waited', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    const outside = scratch();
    fs.writeFileSync(path.join(outside, STATE_FILE), '{"version":1,"papers":{}}');
    const subject = store(root, undefined, { lock: { waitMs: 10_000 } });
    // Every file made in the state folder's place from the swap on (the lock's pieces are).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeFs = require('node:fs') as { writeFileSync: typeof fs.writeFileSync; linkSync: typeof fs.linkSync };
    const { writeFileSync, linkSync } = nodeFs;
    const made: string[] = [];
    let swapped = false;
    const folder = path.join(root, STATE_FOLDER);
    nodeFs.writeFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (swapped && String(file).startsWith(folder)) made.push(String(file));
      return (writeFileSync as (...args: unknown[]) => void)(file, ...rest);
    }) as typeof fs.writeFileSync;
    nodeFs.linkSync = ((from: fs.PathLike, to: fs.PathLike) => {
      if (swapped && String(to).startsWith(folder)) made.push(String(to));
      return linkSync(from, to);
    }) as typeof fs.linkSync;
    try {
      const change = subject.changeAsync(['mine'], { starred: true });
      // The first attempt found the lock held; the change waits. The folder becomes a link out.
      await new Promise((resolve) => setImmediate(resolve));
      fs.renameSync(folder, path.join(root, 'moved-away'));
      fs.symlinkSync(outside, folder);
      swapped = true;
      const result = await change;
      assert.deepEqual(result.changed, []);
      assert.match(result.message ?? '', /could not be written: .*(link|outside)/);
    } finally {
      nodeFs.writeFileSync = writeFileSync;
      nodeFs.linkSync = linkSync;
    }
    assert.deepEqual(made, [], 'nothing made through the link');
    assert.deepEqual(fs.readdirSync(outside), [STATE_FILE]);
  });

  test('Should break a lock older than a write takes, even of a live process', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.writeFileSync(lockFile(root), `${process.pid}\n`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile(root), old, old);
    const subject = store(root, undefined, { lock: { waitMs: 30, staleMs: 10_000 } });
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.equal(fs.existsSync(lockFile(root)), false);
    assert.deepEqual(fs.readdirSync(path.join(root, STATE_FOLDER)).sort(), [STATE_FILE]);
  });

  test('Should not take another writer’s lock while it checks and renames', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    let seen: { message?: string; changed: readonly string[] } | undefined;
    const other = store(root, undefined, { lock: { waitMs: 20 } });
    const subject = store(root, undefined, {
      beforeCommit: () => {
        // The other writer, between this one's check and rename: it must not get in.
        if (!seen) seen = other.change(['theirs'], { starred: true });
      },
    });
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
    assert.deepEqual(seen?.changed, [], `the other writer got in: ${JSON.stringify(seen)}`);
    assert.deepEqual(Object.keys(papersOnDisk(root)), ['mine']);
    // Once the lock is free, the other writer merges and keeps both.
    assert.deepEqual(other.change(['theirs'], { starred: true }).changed, ['theirs']);
    assert.deepEqual(Object.keys(papersOnDisk(root)).sort(), ['mine', 'theirs']);
  });
});

describe('state store: a state file that is not UTF-8', () => {
  test('Should report it, leave it byte for byte and refuse changes, never writing replacement characters', () => {
    const root = scratch();
    const bytes = Buffer.concat([Buffer.from('{"version":1,"papers":{"other paper":{"note":"caf'), Buffer.from([0xe9]), Buffer.from('","read":true}}}')]);
    fs.mkdirSync(path.join(root, STATE_FOLDER), { recursive: true });
    fs.writeFileSync(stateFile(root), bytes);
    const subject = store(root);
    assert.equal(subject.status.readOnly, true);
    assert.match(subject.status.problem ?? '', /cannot be read \(it is not UTF-8 text\)/);
    const result = subject.change(['mine'], { starred: true });
    assert.deepEqual(result.changed, []);
    assert.ok(fs.readFileSync(stateFile(root)).equals(bytes), 'left byte for byte');
  });
});

describe('state store: changes past the limits', () => {
  test('Should refuse a tag or a note too long, and more tags than a paper may have, changing nothing', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{"p":{"tags":["kept"]}}}');
    const subject = store(root);
    const before = fs.readFileSync(stateFile(root), 'utf8');
    for (const [change, pattern] of [
      [{ addTags: ['t'.repeat(65)] }, /the tag 't+…' is longer than 64 characters; nothing was changed/],
      [{ note: 'n'.repeat(4001) }, /the note is longer than 4000 characters \(4001\); nothing was changed/],
      [{ addTags: Array.from({ length: 64 }, (_, i) => `tag${i}`) }, /would have more than 64 tags; nothing was changed/],
      [{ addTags: ['kept '], removeTags: [' kept'] }, /the tag 'kept' is both added and removed; nothing was changed/],
    ] as const) {
      const result = subject.change(['p'], change);
      assert.deepEqual(result.changed, [], JSON.stringify(change).slice(0, 60));
      assert.equal(result.readOnly, false);
      assert.match(result.message ?? '', pattern);
      assert.equal(fs.readFileSync(stateFile(root), 'utf8'), before);
    }
    // At the limits, the change goes through whole, the tag the paper had kept.
    assert.deepEqual(subject.change(['p'], { addTags: Array.from({ length: 63 }, (_, i) => `tag${i}`), note: 'n'.repeat(4000) }).changed, ['p']);
    const paper = papersOnDisk(root).p as { tags: string[]; note: string };
    assert.equal(paper.tags.length, 64);
    assert.ok(paper.tags.includes('kept'));
    assert.equal(paper.note.length, 4000);
    // Removing one makes room for another.
    assert.deepEqual(subject.change(['p'], { addTags: ['new'], removeTags: ['tag0'] }).changed, ['p']);
  });

  test('Should refuse to write a state file bigger than it can read back', () => {
    const root = scratch();
    // 32 papers of notes of almost 2 MB each in the file (written by another tool): just under 64 MB...
    const note = 'x'.repeat(2 * 1024 * 1024 - 1024);
    const papers: Record<string, unknown> = {};
    for (let i = 0; i < 32; i++) papers[`paper ${i}`] = { note };
    writeState(root, JSON.stringify({ version: 1, papers }));
    const before = fs.statSync(stateFile(root));
    const subject = store(root);
    assert.equal(subject.status.readOnly, false);
    // ...and a change that takes it past 64 MB once written.
    const result = subject.change(Array.from({ length: 40 }, (_, i) => `more ${i}`), { note: 'y'.repeat(4000), addTags: ['a tag'] });
    const bigger = subject.change(['paper 0'], { read: true });
    assert.deepEqual(bigger.changed, ['paper 0'], 'a small change still fits');
    assert.deepEqual(result.changed, [], `${result.message}`);
    assert.match(result.message ?? '', /would be bigger than 64 MB; nothing was changed/);
    assert.ok(fs.statSync(stateFile(root)).size < 64 * 1024 * 1024);
    assert.ok(before.size < 64 * 1024 * 1024);
  });

  test('Should refuse to write a state file with more arrays and objects than it can read back', () => {
    const root = scratch();
    // Another tool's field of 1,999,998 empty arrays: with the file's own object and "papers", exactly
    // the 2,000,000 arrays and objects a read takes...
    const text = `{"version":1,"papers":{},"x":[${'[],'.repeat(1_999_996)}[]]}`;
    writeState(root, text);
    const subject = store(root);
    assert.equal(subject.status.readOnly, false, subject.status.problem);
    // ...a paper's record (one more object) would make a file the next read refuses as corrupt.
    const result = subject.change(['p'], { starred: true });
    assert.deepEqual(result.changed, [], `${result.message}`);
    assert.match(result.message ?? '', /would hold more than 2,000,000 arrays and objects, which no read of it takes; nothing was changed$/);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), text, 'the file as it was');
    assert.equal(store(root).status.readOnly, false, 'and still readable');
  });

  test('Should keep a top-level field named __proto__ that another tool wrote', () => {
    const text = '{"version":1,"papers":{},"__proto__":{"x":1},"shelves":[1]}';
    const parsed = parseState(text);
    assert.ok('state' in parsed);
    const root = scratch();
    writeState(root, text);
    const subject = store(root);
    assert.deepEqual(subject.change(['p'], { read: true }).changed, ['p']);
    const written = JSON.parse(fs.readFileSync(stateFile(root), 'utf8'));
    assert.deepEqual(Object.getOwnPropertyDescriptor(written, '__proto__')?.value, { x: 1 });
    assert.deepEqual(written.shelves, [1]);
  });
});

describe('state store: locks that are not lock files', () => {
  for (const [name, make] of [
    ['a folder', (lock: string) => fs.mkdirSync(lock)],
    ['a dangling link', (lock: string) => fs.symlinkSync('/nonexistent/lock', lock)],
    ['a link to /dev/zero', (lock: string) => fs.symlinkSync('/dev/zero', lock)],
    ['a FIFO', (lock: string) => execFileSync('mkfifo', [lock])],
  ] as const) {
    test(`Should refuse at once, without reading or waiting on it, when the lock is ${name}`, () => {
      const root = scratch();
      writeState(root, '{"version":1,"papers":{}}');
      make(lockFile(root));
      // A wait longer than any test: the refusal must not come from running out of it.
      const subject = store(root, undefined, { lock: { waitMs: 10 * 60_000 } });
      const result = subject.change(['mine'], { read: true });
      assert.deepEqual(result.changed, []);
      assert.match(result.message ?? '', /is not a lock file of Paper Digest \(it is not a regular file\); remove it to write/);
      assert.equal(fs.readFileSync(stateFile(root), 'utf8'), '{"version":1,"papers":{}}');
      assert.ok(fs.lstatSync(lockFile(root)), 'left as it is');
    });
  }

  test('Should leave no lock and no file of its own behind when the disk takes no byte', async () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    // A writer whose files may not grow past 0 bytes (as on a full disk): it fails, cleanly.
    const script = `const { StateStore } = require(${JSON.stringify(require.resolve('../../server/src/service/reading/stateStore'))});
const { NodeStateDisk } = require(${JSON.stringify(require.resolve('../../server/src/stateDisk'))});
const store = new StateStore(new NodeStateDisk(${JSON.stringify(root)}));
store.load();
const result = store.change(['mine'], { read: true });
process.stdout.write(JSON.stringify(result));`;
    const output = execFileSync('bash', ['-c', `ulimit -f 0; exec "${process.execPath}" -e "$0"`, script], { encoding: 'utf8' });
    const result = JSON.parse(output) as { changed: string[]; message?: string };
    assert.deepEqual(result.changed, []);
    assert.match(result.message ?? '', /could not be written/);
    assert.deepEqual(fs.readdirSync(path.join(root, STATE_FOLDER)), [STATE_FILE]);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), '{"version":1,"papers":{}}');
    // The next writer is not held up.
    assert.deepEqual(store(root, undefined, { lock: { waitMs: 30 } }).change(['mine'], { read: true }).changed, ['mine']);
    // With no state yet: the folder the write made goes again.
    const bare = scratch();
    const again = execFileSync('bash', ['-c', `ulimit -f 0; exec "${process.execPath}" -e "$0"`, script.split(JSON.stringify(root)).join(JSON.stringify(bare))], { encoding: 'utf8' });
    assert.match((JSON.parse(again) as { message?: string }).message ?? '', /could not be written/);
    assert.deepEqual(fs.readdirSync(bare), [], 'no .paper-digest folder left');
  });

  test('Should refuse to replace a state file no one may write', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    fs.chmodSync(stateFile(root), 0o444);
    const subject = store(root);
    // Said once loaded, before any change is tried: its state in use, changes refused.
    assert.equal(subject.status.readOnly, true);
    assert.match(subject.status.problem ?? '', /state\.json cannot be written: it is read-only \(no one may write it\); reading state is read-only$/);
    const result = subject.change(['mine'], { read: true });
    assert.deepEqual(result.changed, []);
    assert.equal(result.readOnly, true);
    assert.match(result.message ?? '', /cannot be written: it is read-only/);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), '{"version":1,"papers":{}}');
    assert.equal(fs.statSync(stateFile(root)).mode & 0o777, 0o444);
    // Writable again: the next load clears the problem, and changes go through.
    fs.chmodSync(stateFile(root), 0o644);
    subject.load();
    assert.equal(subject.status.readOnly, false);
    assert.deepEqual(subject.change(['mine'], { read: true }).changed, ['mine']);
  });

  test('Should refuse to write in a state folder no one may write in, for every user, with a file or without', () => {
    for (const withFile of [true, false]) {
      const root = scratch();
      if (withFile) writeState(root, '{"version":1,"papers":{}}');
      else fs.mkdirSync(path.join(root, STATE_FOLDER));
      fs.chmodSync(path.join(root, STATE_FOLDER), 0o555);
      try {
        const subject = store(root);
        const result = subject.change(['mine'], { read: true });
        assert.deepEqual(result.changed, [], `with a file: ${withFile}`);
        assert.match(result.message ?? '', /cannot be written: its folder is read-only \(no one may write in it\)/);
        assert.deepEqual(fs.readdirSync(path.join(root, STATE_FOLDER)), withFile ? [STATE_FILE] : []);
      } finally {
        fs.chmodSync(path.join(root, STATE_FOLDER), 0o755);
      }
    }
    // No state folder yet, in a workspace folder no one may write in: none made there.
    const root = scratch();
    fs.chmodSync(root, 0o555);
    try {
      const result = store(root).change(['mine'], { read: true });
      assert.deepEqual(result.changed, []);
      assert.match(result.message ?? '', /its folder is read-only/);
      assert.deepEqual(fs.readdirSync(root), []);
    } finally {
      fs.chmodSync(root, 0o755);
    }
  });

  test('Should leave a state folder and file root makes in someone\u2019s workspace folder theirs to write', (t) => {
    if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
      t.skip('needs root (checked by CI, which runs as root)');
      return;
    }
    const root = scratch();
    fs.chownSync(root, 65534, 65534);
    assert.deepEqual(store(root).change(['mine'], { read: true }).changed, ['mine']);
    for (const made of [path.join(root, STATE_FOLDER), stateFile(root)]) {
      const stat = fs.statSync(made);
      assert.deepEqual([stat.uid, stat.gid], [65534, 65534], made);
    }
  });

  test('Should use the state of a file with other names (hard links) and say it cannot be written', () => {
    const root = scratch();
    writeState(root, JSON.stringify({ version: 1, papers: { mine: { read: true } } }));
    fs.linkSync(stateFile(root), path.join(root, 'another-name.json'));
    const subject = store(root);
    assert.equal(subject.get('mine')?.read, true, 'its state is read');
    assert.match(subject.status.problem ?? '', /cannot be written: it has another name \(hard links\)/);
    assert.equal(subject.change(['mine'], { read: false }).readOnly, true);
    assert.equal(fs.readFileSync(stateFile(root), 'utf8'), JSON.stringify({ version: 1, papers: { mine: { read: true } } }));
  });
});

describe('state store: the limits in characters, and tags at the limit', () => {
  test('Should count characters, not UTF-16 units: 64 emoji make a tag, 4,000 a note', () => {
    const root = scratch();
    writeState(root, '{"version":1,"papers":{}}');
    const subject = store(root);
    const tag = '\u{1F600}'.repeat(64);
    const note = '\u{1F600}'.repeat(4000);
    assert.deepEqual(subject.change(['p'], { addTags: [tag], note }).changed, ['p']);
    const paper = papersOnDisk(root).p as { tags: string[]; note: string };
    assert.deepEqual(paper.tags, [tag], 'whole');
    assert.equal(paper.note, note);
    assert.match(subject.change(['p'], { addTags: ['\u{1F600}'.repeat(65)] }).message ?? '', /longer than 64 characters/);
    assert.match(subject.change(['p'], { note: '\u{1F600}'.repeat(4001) }).message ?? '', /longer than 4000 characters \(4001\)/);
  });

  test('Should make room for a tag added with one removed at the limit, dropping no other', () => {
    const root = scratch();
    const tags = Array.from({ length: 64 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
    writeState(root, JSON.stringify({ version: 1, papers: { p: { tags } } }));
    const subject = store(root);
    assert.deepEqual(subject.change(['p'], { addTags: ['a-new'], removeTags: ['t02'] }).changed, ['p']);
    const after = (papersOnDisk(root).p as { tags: string[] }).tags;
    assert.equal(after.length, 64);
    assert.ok(after.includes('a-new') && after.includes('t64') && !after.includes('t02'), after.join());
  });
});
