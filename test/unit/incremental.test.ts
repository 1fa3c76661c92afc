import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DigestCache } from '../../server/src/service/cache';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { documentSymbols } from '../../server/src/service/features/symbols';
import { ContentChange, lastUpdateStatistics, updateDigest } from '../../server/src/service/incremental';
import type { DigestDocument } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { setPartsKeptLimit } from '../../server/src/service/nodes';
import { generatedDigest } from '../bench/generate';
import { describeModel } from '../support/describeModel';
import { digest, entryLines, FIXTURES } from '../support/fixtures';
import { applyEdit, applyEvent, DIGEST_MATERIAL } from '../support/modelChecks';

/** Every digest fixture of the parser and diagnostics tests: well-formed files and every mistake. */
const BASES = ['parser', 'diagnostics']
  .flatMap((folder) => fs.readdirSync(path.join(FIXTURES, folder)).filter((name) => name.endsWith('.digest')).map((name) => path.join(FIXTURES, folder, name)))
  .map((file) => fs.readFileSync(file, 'utf8'));

/** Asserts that a model is the one a fresh parse of its text gives, diagnostics included. */
function assertSameAsFresh(model: DigestDocument, text: string, context: string): void {
  const fresh = parseDigest(text);
  assert.equal(describeModel(model), describeModel(fresh), context);
  const options = { uri: 'file:///w/a.digest', docsBase: 'file:///docs/' };
  assert.deepEqual(computeDiagnostics(model, options), computeDiagnostics(fresh, options), `${context}: diagnostics`);
  // The outline reuses the symbols of the entries an edit kept.
  assert.deepEqual(documentSymbols(model), documentSymbols(fresh), `${context}: outline`);
}

/** An edit as fast-check draws it: where (a fraction of the text), how much to delete, what to insert. */
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 400 }) }),
  insert: fc.oneof(fc.constant(''), fc.constantFrom(...DIGEST_MATERIAL), fc.array(fc.constantFrom(...DIGEST_MATERIAL), { maxLength: 8 }).map((parts) => parts.join(''))),
});


/** Runs `run` with at most `limit` entries of a text keeping their split parts. */
function withPartsLimit(limit: number, run: () => void): void {
  const before = setPartsKeptLimit(limit);
  try {
    run();
  } finally {
    setPartsKeptLimit(before);
  }
}

describe('incremental updates', () => {
  test('Should give exactly the model and diagnostics of a fresh parse after any sequence of edits', () => {
    editSequences(120);
  });

  test('Should give the same when every entry but the last lets its split parts go', () => {
    withPartsLimit(1, () => editSequences(60));
  });

  test('Should keep the parts of a reopened entry when the entry it was copied from lets its parts go', () => {
    // A sequence fast-check found (base 21, duplicate-paper.digest): the entry an edit reopens takes the old entry's fields over,
    // and the old entry, still listed as keeping parts, let them go while a field of the copy was
    // splitting its line.
    const events = [[{ at: 0, remove: 232 }, { at: 0, remove: 273 }, { at: 0, remove: 1 }], [{ at: 0, insert: '\n' }], [{ at: 0.6491862567811935, insert: '\n' }], [{ at: 0 }]];
    withPartsLimit(1, () => {
      const base = fs.readFileSync(path.join(FIXTURES, 'diagnostics', 'duplicate-paper.digest'), 'utf8');
      let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, base);
      let model = parseDigest(document.getText());
      computeDiagnostics(model, { uri: 'file:///w/a.digest', docsBase: 'file:///docs/' });
      for (const [k, edits] of events.entries()) {
        const changes: ContentChange[] = [];
        for (const e of edits) {
          const applied = applyEdit(document, { remove: 0, insert: '', ...e });
          document = applied.document;
          changes.push(applied.change);
        }
        model = updateDigest(model, changes, document.getText());
        assertSameAsFresh(model, document.getText(), `after event ${k}`);
      }
    });
  });
});

/** Random sequences of edits, each event checked against a fresh parse (model, diagnostics, outline). */
function editSequences(numRuns: number): void {
  fc.assert(
    fc.property(fc.nat(BASES.length - 1), fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }), (base, events) => {
      let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, BASES[base]);
      let model = parseDigest(document.getText());
      computeDiagnostics(model, { uri: 'file:///w/a.digest', docsBase: 'file:///docs/' });
      for (const [k, edits] of events.entries()) {
        // An event of several changes, as multi-cursor edits send them: each change's range is in
        // the text after the changes before it.
        const event = applyEvent(document, edits);
        document = event.document;
        const changes = event.changes;
        model = updateDigest(model, changes, document.getText());
        assertSameAsFresh(model, document.getText(), `after event ${k}`);
      }
    }),
    { numRuns },
  );
}

describe('incremental updates on generated digests', () => {
  test('Should give the model of a fresh parse on generated digests edited at entry boundaries and inside fields', () => {
    const text = generatedDigest(30);
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 20 }), (edits) => {
        let document = TextDocument.create('file:///w/g.digest', 'paper-digest', 1, text);
        let model = parseDigest(text);
        for (const e of edits) {
          const applied = applyEdit(document, e);
          document = applied.document;
          model = updateDigest(model, [applied.change], document.getText());
        }
        assertSameAsFresh(model, document.getText(), 'after the edits');
      }),
      { numRuns: 60 },
    );
  });

  test('Should re-parse only the entries around a keystroke and keep the rest', () => {
    const text = generatedDigest(200);
    const model = parseDigest(text);
    const entry = model.entries[100];
    const at = { line: entry.summary!.line, character: 12 };
    const document = TextDocument.create('file:///w/g.digest', 'paper-digest', 1, text);
    const change = { range: { start: at, end: at }, text: '字' };
    const updated = updateDigest(model, [change], TextDocument.update(document, [change], 2).getText());
    const statistics = lastUpdateStatistics();
    assert.equal(statistics.fullParse, undefined);
    assert.ok(statistics.entriesParsed <= 3, `parsed ${statistics.entriesParsed} entries`);
    assert.equal(statistics.entriesKept + statistics.entriesParsed, 200);
    assert.ok(statistics.linesScanned <= 3, `scanned ${statistics.linesScanned} lines`);
    assert.equal(updated.entries[100].summary!.text.slice(12, 13), '字');
  });

  test('Should move the entries after an inserted line, with the parts they had split, to their new lines', () => {
    const text = digest(entryLines('A'), entryLines('B'), entryLines('C'));
    const model = parseDigest(text);
    const c = model.entries[2];
    const names = c.authors!.names;
    const line = c.authors!.line;
    const at = { line: model.entries[1].range.start.line, character: 0 };
    const document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, text);
    const change = { range: { start: at, end: at }, text: '\n\n' };
    const after = TextDocument.update(document, [change], 2).getText();
    const updated = updateDigest(model, [change], after);
    assert.equal(updated.entries[2], c, 'the same entry object');
    assert.equal(c.authors!.names, names, 'its names not split again');
    assert.equal(c.authors!.line, line + 2);
    assert.deepEqual(names[0].range, { start: { line: line + 2, character: 0 }, end: { line: line + 2, character: 'Mei Tanaka'.length } });
    assert.equal(names[0].text, 'Mei Tanaka');
    assertSameAsFresh(updated, after, 'after the insertion');
  });

  test('Should place one ranged change, several, and the whole new text alike', () => {
    const text = digest(entryLines('A'), entryLines('B'));
    const document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, text);
    const first = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, text: 'Z' };
    const once = TextDocument.update(document, [first], 2);
    const second = { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: '新' };
    const twice = TextDocument.update(once, [second], 3).getText();
    for (const changes of [[first, second], [{ text: twice }]] as ContentChange[][]) {
      const updated = updateDigest(parseDigest(text), changes, twice);
      assertSameAsFresh(updated, twice, JSON.stringify(changes).slice(0, 40));
      assert.equal(lastUpdateStatistics().fullParse, undefined);
    }
  });

  test('Should follow a BOM, CRLF line ends and a lone CR being added and removed', () => {
    const text = digest(entryLines('A'), entryLines('B')).replace(/\n/g, '\r\n');
    const steps: [number, number, string][] = [
      [0, 0, '\uFEFF'],
      [0, 1, ''],
      [7, 0, '\r'],
      [8, 1, ''],
      [text.indexOf('\r\n', 40) + 1, 0, '\r\n\r'],
      [text.length, 0, '\r'],
    ];
    let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, text);
    let model = parseDigest(text);
    for (const [offset, remove, insert] of steps) {
      const length = document.getText().length;
      const start = Math.min(offset, length);
      const change = { range: { start: document.positionAt(start), end: document.positionAt(Math.min(length, start + remove)) }, text: insert };
      document = TextDocument.update(document, [change], document.version + 1);
      model = updateDigest(model, [change], document.getText());
      assertSameAsFresh(model, document.getText(), JSON.stringify(insert));
    }
  });

  test('Should empty a document and fill it again', () => {
    const text = digest(entryLines('A'));
    const document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, text);
    const all = { range: { start: { line: 0, character: 0 }, end: document.positionAt(text.length) }, text: '' };
    const empty = updateDigest(parseDigest(text), [all], '');
    assertSameAsFresh(empty, '', 'emptied');
    const filled = updateDigest(empty, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text }], text);
    assertSameAsFresh(filled, text, 'filled');
  });

  test('Should parse from scratch a model an update took over, or one that is not the parser’s', () => {
    const text = digest(entryLines('A'));
    const model = parseDigest(text);
    const change = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: 'X' };
    const changed = TextDocument.update(TextDocument.create('file:///w/a.digest', 'paper-digest', 1, text), [change], 2).getText();
    updateDigest(model, [change], changed);
    assert.equal(lastUpdateStatistics().fullParse, undefined);
    const again = updateDigest(model, [change], changed);
    assert.ok(lastUpdateStatistics().fullParse);
    assertSameAsFresh(again, changed, 'from a taken-over model');
    const parsed = parseDigest(text);
    const plain: DigestDocument = { ...parsed, lines: parsed.lines, paragraphs: parsed.paragraphs, heading: parsed.heading, strayLines: parsed.strayLines, problems: parsed.problems };
    assertSameAsFresh(updateDigest(plain, [change], changed), changed, 'from a plain model');
    assert.ok(lastUpdateStatistics().fullParse);
  });
});

describe('DigestCache.change', () => {
  test('Should parse an open document once and bring its model along through edits', () => {
    const cache = new DigestCache();
    let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, digest(entryLines('A'), entryLines('B')));
    cache.get(document);
    for (let i = 0; i < 5; i++) {
      const change = { range: { start: { line: 2, character: 1 }, end: { line: 2, character: 1 } }, text: String(i) };
      const current = document;
      document = cache.change(document, [change], () => TextDocument.update(current, [change], current.version + 1));
      assertSameAsFresh(cache.get(document), document.getText(), `edit ${i}`);
    }
    assert.equal(cache.parseCount, 1);
    assert.equal(cache.updateCount, 5);
  });

  test('Should drop a model it cannot bring along, and parse on the next request', () => {
    const cache = new DigestCache();
    let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, digest(entryLines('A')));
    const change = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '新' };
    // No model cached yet: nothing to update.
    const first = document;
    document = cache.change(document, [change], () => TextDocument.update(first, [change], 2));
    assert.equal(cache.updateCount, 0);
    assertSameAsFresh(cache.get(document), document.getText(), 'parsed on request');
    assert.equal(cache.parseCount, 1);
  });
});
