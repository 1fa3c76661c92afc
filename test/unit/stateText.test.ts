/**
 * The state file's text (serialiseState, which keeps each paper's text per record): the same
 * as JSON.stringify of the whole state, papers sorted by key, for any state, before and after
 * changes that keep most records; other tools' fields as their own text.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { PaperState, ReadingState } from '../../server/src/service/reading/stateFile';
import { applyChange, isEmptyPaperState, parseState, serialiseState } from '../../server/src/service/reading/stateFile';
import { messageText } from '../../server/src/service/cliMessages';

/** The text laid out by JSON.stringify at once, as the file is specified. */
function reference(state: ReadingState): string {
  const papers: Record<string, PaperState> = Object.create(null);
  for (const key of [...state.papers.keys()].sort()) {
    const paper = state.papers.get(key)!;
    if (isEmptyPaperState(paper)) continue;
    const out: Record<string, unknown> = {};
    if (paper.title) out.title = paper.title;
    if (paper.read) out.read = true;
    if (paper.starred) out.starred = true;
    if (paper.tags && paper.tags.length > 0) out.tags = paper.tags;
    if (paper.note) out.note = paper.note;
    if (paper.updated) out.updated = paper.updated;
    papers[key] = out as PaperState;
  }
  const extra = Object.fromEntries(Object.entries(state.extra ?? {}).map(([key, json]) => [key, JSON.parse(json) as unknown]));
  return JSON.stringify({ ...extra, version: 1, papers }, null, 2) + '\n';
}

const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '"', '\\', '\n', '\u0000', '数', '😀', '}', ',') , maxLength: 12 });
const paperState = fc.record({ title: fc.option(text, { nil: undefined }), read: fc.boolean(), starred: fc.boolean(), tags: fc.uniqueArray(text, { maxLength: 3 }), note: fc.option(text, { nil: undefined }), updated: fc.constant('2026-05-01T08:00:00.000Z') }, { requiredKeys: [] });
const state = fc.record({
  papers: fc.dictionary(text.filter((key) => key.trim() !== '' && key !== '__proto__'), paperState, { maxKeys: 12 }),
  extra: fc.option(fc.dictionary(fc.constantFrom('synced', 'tool', 'x'), fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
});

describe('state file text', () => {
  test('Should lay out any state as JSON.stringify of the whole does, and again after a change', () => {
    fc.assert(
      fc.property(state, fc.array(text.filter((key) => key.trim() !== '' && key !== '__proto__'), { maxLength: 3 }), ({ papers, extra }, keys) => {
        // Other tools' fields as their text in a file JSON.stringify laid out (two spaces in).
        const texts = extra && Object.fromEntries(Object.entries(extra).map(([key, value]) => [key, JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')]));
        const reading: ReadingState = { version: 1, papers: new Map(Object.entries(papers) as [string, PaperState][]), ...(texts && Object.keys(texts).length > 0 ? { extra: texts } : {}) };
        assert.equal(serialiseState(reading), reference(reading));
        const { state: changed } = applyChange(reading, keys, { read: true, addTags: ['later'] }, new Date('2026-05-02T00:00:00Z'));
        assert.equal(serialiseState(changed), reference(changed));
        // Twice: the kept texts of the unchanged records.
        assert.equal(serialiseState(changed), reference(changed));
        const again = parseState(serialiseState(changed));
        assert.ok('state' in again);
        assert.deepEqual({ ...(again.state.extra ?? {}) }, { ...(changed.extra ?? {}) }, 'other tools’ fields read back as they were written');
      }),
      { numRuns: 300 },
    );
  });
});

describe('state file text: other tools’ fields', () => {
  test('Should write another tool’s values back exactly as they were written, through a change', () => {
    const file = '{\n  "syncToken": 12345678901234567890,\n  "ratio": 1e400,\n  "price": 1.10,\n  "neg": -0,\n  "dup": {"a":1,"a":2},\n  "nested": [1, {"b": "x,}]"}],\n  "version": 1,\n  "papers": {}\n}\n';
    const parsed = parseState(file);
    assert.ok('state' in parsed);
    const { state: changed } = applyChange(parsed.state, ['mine'], { read: true }, new Date('2026-05-02T00:00:00Z'));
    const written = serialiseState(changed);
    for (const member of ['"syncToken": 12345678901234567890', '"ratio": 1e400', '"price": 1.10', '"neg": -0', '"dup": {"a":1,"a":2}', '"nested": [1, {"b": "x,}]"}]']) {
      assert.ok(written.includes(member), `${member} in ${written}`);
    }
    assert.equal((JSON.parse(written) as { papers: Record<string, { read?: boolean }> }).papers.mine.read, true);
  });

  test('Should write another tool’s values in a paper back exactly as they were written, through a change to another paper and to it', () => {
    // JSON.parse and JSON.stringify made `12345678901234567000` of an identifier, `null` of 1e400.
    const file = '{"version":1,"papers":{"other":{"read":true,"zoteroId":12345678901234567890,"weight":1e400,"price":1.10,"neg":-0,"dup":{"a":1,"a":2},"nested":[1, {"b": "x,}]\\""}],"s":"q\\"u"}}}';
    const values = ['12345678901234567890', '1e400', '1.10', '-0', '{"a":1,"a":2}', '[1, {"b": "x,}]\\""}]', '"q\\"u"'];
    const parsed = parseState(file);
    assert.ok('state' in parsed);
    assert.deepEqual(Object.values({ ...parsed.state.papers.get('other')?.extra }), values);
    let { state } = applyChange(parsed.state, ['mine'], { read: true }, new Date('2026-05-02T00:00:00Z'));
    ({ state } = applyChange(state, ['other'], { starred: true }, new Date('2026-05-02T00:00:00Z')));
    const written = serialiseState(state);
    for (const [field, value] of [['zoteroId', values[0]], ['weight', values[1]], ['price', values[2]], ['neg', values[3]], ['dup', values[4]], ['nested', values[5]], ['s', values[6]]]) {
      assert.ok(written.includes(`"${field}": ${value}`), `"${field}": ${value} in ${written}`);
    }
    const again = parseState(written);
    assert.ok('state' in again);
    assert.equal(again.state.papers.get('other')?.starred, true);
    assert.deepEqual(Object.values({ ...again.state.papers.get('other')?.extra }), values);
  });

  test('Should write the line ends inside another tool’s values as the file’s, in a paper and at the top level', () => {
    // A file written with CRLF (a Windows tool, git's autocrlf): the values laid out over lines.
    const file = '{\r\n  "sync": {\r\n    "at": 1\r\n  },\r\n  "version": 1,\r\n  "papers": {\r\n    "a": {\r\n      "read": true,\r\n      "zotero": {\r\n        "key": "AB\\r\\nCD",\r\n        "links": [\r\n          1\r\n        ]\r\n      }\r\n    }\r\n  }\r\n}\r\n';
    const parsed = parseState(file);
    assert.ok('state' in parsed);
    const written = serialiseState(parsed.state);
    assert.ok(!written.includes('\r'), JSON.stringify(written));
    assert.deepEqual(JSON.parse(written), JSON.parse(file));
    const again = parseState(written);
    assert.ok('state' in again);
    assert.equal(serialiseState(again.state), written);
  });

  test('Should find a file with a key of its own written twice corrupt (two sides of a merge kept), not read one and lose the other', () => {
    const twice = [
      // `papers` twice: both sides of a merge conflict kept.
      ['{"version":1,"papers":{"a":{"read":true,"note":"from my laptop"}},\n"papers":{"b":{"starred":true}}}', '"papers" is written twice'],
      ['{"version":1,"version":1,"papers":{}}', '"version" is written twice'],
      // Said as written twice, not as the version or the papers of the last one.
      ['{"version":1,"papers":{},"version":2}', '"version" is written twice'],
      ['{"version":1,"papers":{"a":{"read":true}},"papers":5}', '"papers" is written twice'],
      // A paper twice, also when one of them is written with an escape.
      ['{"version":1,"papers":{"a":{"read":true},"a":{"starred":true}}}', 'paper "a" is written twice in "papers"'],
      ['{"version":1,"papers":{"a\\u0062":{"read":true},"ab":{"starred":true}}}', 'paper "ab" is written twice in "papers"'],
      // A field of a paper twice, its own or another tool's.
      ['{"version":1,"papers":{"a":{"note":"x","read":true,"note":"y"}}}', 'paper "a": "note" is written twice'],
      ['{"version":1,"papers":{"a":{"rating":1,"rating":2}}}', 'paper "a": "rating" is written twice'],
    ] as const;
    for (const [text, reason] of twice) {
      const parsed = parseState(text);
      assert.ok('problem' in parsed, text);
      assert.equal(parsed.problem.kind, 'corrupt');
      assert.match(messageText(parsed.problem.reason).en, new RegExp(reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), text);
      assert.match(messageText(parsed.problem.reason).zh, /出现了两次/);
    }
    // Another tool's top-level key written twice is read as its last, as JSON readers take it; a
    // key written twice inside another tool's value is that value's, kept as written.
    const other = parseState('{"version":1,"sync":1,"sync":2,"papers":{"a":{"read":true,"links":{"x":1,"x":2}}}}');
    assert.ok('state' in other);
    assert.equal(other.state.extra?.sync, '2');
    assert.equal(other.state.papers.get('a')?.extra?.links, '{"x":1,"x":2}');
  });
});
