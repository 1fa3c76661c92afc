/**
 * The state file's JSON Schema (schemas/state-file.schema.json, referenced from
 * docs/state-file.md): the files the store really writes validate against it, so does the
 * documented example, and what the store refuses fails it too.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { MAX_NOTE_LENGTH, MAX_TAG_LENGTH, MAX_TAGS_PER_PAPER, parseState } from '../../server/src/service/reading/stateFile';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { messageText } from '../../server/src/service/cliMessages';
import { NodeStateDisk, STATE_FILE, STATE_FOLDER } from '../../server/src/stateDisk';
import { REPO_ROOT } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';

const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'state-file.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(SCHEMA);

const temp = temporaryFolders();

function assertValid(value: unknown, what: string): void {
  assert.ok(validate(value), `${what} does not validate: ${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(value).slice(0, 2000)}`);
}

describe('state file schema', () => {
  test('Should validate the state files the store writes, hostile and at the limits', () => {
    const root = temp.make('paper-digest-schema-');
    const store = new StateStore(new NodeStateDisk(root));
    store.load();
    const file = path.join(root, STATE_FOLDER, STATE_FILE);
    const hostile = '"}{\\ </script> \u202E =cmd 强化学习 \u0000\ud83d\ude00';
    const steps: [string[], Parameters<StateStore['change']>[1], Map<string, string>?][] = [
      [['sparse probes'], { starred: true }, new Map([['sparse probes', 'Sparse Probes']])],
      [['sparse probes', 'zh:强化学习的定理证明'], { read: true }],
      [[hostile], { addTags: [hostile, '  spaced   tag ', 'x'.repeat(MAX_TAG_LENGTH), 'dup', 'dup', ''], note: hostile }, new Map([[hostile, hostile]])],
      [['many tags'], { addTags: Array.from({ length: MAX_TAGS_PER_PAPER }, (_, i) => `tag ${i}`) }],
      [['long note'], { note: '长'.repeat(MAX_NOTE_LENGTH) }],
      // Past the limits: refused, the file as it was.
      [['many tags'], { addTags: ['one more'] }],
      [['long note'], { note: '长'.repeat(MAX_NOTE_LENGTH + 1) }],
      [['sparse probes'], { starred: false, removeTags: ['none'] }],
      [['zh:强化学习的定理证明'], { read: false }],
      [['long note'], { note: null }],
    ];
    let checked = 0;
    for (const [keys, change, titles] of steps) {
      store.change(keys, change, titles);
      const text = fs.readFileSync(file, 'utf8');
      assertValid(JSON.parse(text), `the file after ${JSON.stringify(change).slice(0, 80)}`);
      assert.ok('state' in parseState(text), 'and the store reads it back');
      checked++;
    }
    assert.equal(checked, steps.length);
    const papers = JSON.parse(fs.readFileSync(file, 'utf8')).papers;
    assert.equal(papers['many tags'].tags.length, MAX_TAGS_PER_PAPER);
    assert.ok(papers[hostile].tags.every((tag: string) => tag.length <= MAX_TAG_LENGTH));
    assert.equal(papers['zh:强化学习的定理证明'], undefined, 'a paper with no state left is dropped');
    assert.equal(papers['long note'], undefined);
  });

  test('Should validate the example of docs/state-file.md, which points at the schema', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'state-file.md'), 'utf8');
    assert.match(doc, /schemas\/state-file\.schema\.json/);
    const example = /```json\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(example, 'the document has a JSON example');
    assertValid(JSON.parse(example), 'the documented example');
  });

  test('Should refuse what the store refuses (it can fail)', () => {
    const bad: [string, unknown][] = [
      ['another version', { version: 2, papers: {} }],
      ['no version', { papers: {} }],
      ['papers null', { version: 1, papers: null }],
      ['papers a list', { version: 1, papers: [] }],
      ['a flag that is not a boolean', { version: 1, papers: { p: { read: 'yes' } } }],
      ['tags that are not strings', { version: 1, papers: { p: { tags: [1] } } }],
      ['an empty key', { version: 1, papers: { '': { read: true } } }],
      ['an update that is not a date', { version: 1, papers: { p: { read: true, updated: 'yesterday' } } }],
    ];
    for (const [what, value] of bad) {
      assert.equal(validate(value), false, `${what} validates`);
      assert.ok('problem' in parseState(JSON.stringify(value)), `${what}: the store refuses it too`);
    }
    // A version too big for a number is named as read (Infinity), not as JSON would write it (null).
    const huge = parseState('{"version":1e400,"papers":{}}');
    assert.ok('problem' in huge && /its version Infinity is not one/.test(messageText(huge.problem.reason).en), JSON.stringify(huge));
  });
});
