/**
 * The open document's text (server/src/openDocument.ts) against vscode-languageserver-textdocument:
 * after any sequence of changes its text is the one `TextDocument.update` makes, and its lines
 * and positions are those of a document created fresh from that text; with its characters kept
 * in a buffer (Latin-1, then UTF-16) or not.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentChange, OpenDocument } from '../../server/src/openDocument';

/** Line ends of every kind, Latin-1 and wider characters, lone and paired surrogates. */
const PIECES = ['\n', '\r\n', '\r', '\r\r\n', 'a', 'Sparse Probes', ' ', 'é', '\u00ff', '中文标题', '\uD83D\uDE00', '\uD800', '\uFEFF', '\u0000'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(''));

/** A change: a range (either way round, sometimes past a line's end or the last line), a full text now and then. */
const change = fc.record({
  full: fc.nat(19).map((n) => n === 0),
  start: fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 40 }) }),
  end: fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 40 }) }),
  text,
});

function assertSameLines(document: OpenDocument, expected: TextDocument, context: string): void {
  const content = expected.getText();
  assert.equal(document.getText(), content, context);
  assert.equal(document.lineCount, expected.lineCount, `${context}: line count`);
  for (let offset = -1; offset <= content.length + 1; offset++) {
    assert.deepEqual(document.positionAt(offset), expected.positionAt(offset), `${context}: positionAt(${offset})`);
  }
  for (let line = -1; line <= expected.lineCount; line++) {
    assert.deepEqual(document.getLineRange(line), expected.getLineRange(line), `${context}: getLineRange(${line})`);
    assert.equal(document.getEOLCharacters(line), expected.getEOLCharacters(line), `${context}: getEOLCharacters(${line})`);
    for (const character of [-1, 0, 1, 2, 5, 100]) {
      const position = { line, character };
      assert.equal(document.offsetAt(position), expected.offsetAt(position), `${context}: offsetAt(${line}, ${character})`);
    }
  }
  const range = { start: { line: 0, character: 1 }, end: { line: 2, character: 3 } };
  assert.equal(document.getText(range), expected.getText(range), `${context}: getText of a range`);
}

describe('OpenDocument', () => {
  test('Should hold, after any sequence of changes, the text TextDocument.update makes, with the lines of a fresh document', () => {
    fc.assert(
      fc.property(text, fc.array(change, { minLength: 1, maxLength: 12 }), fc.constantFrom(0, 1, 1 << 30), fc.boolean(), (initial, changes, unitsFrom, batched) => {
        const document = OpenDocument.create('file:///a.digest', 'paper-digest', 1, initial, unitsFrom);
        const reference = TextDocument.create('file:///a.digest', 'paper-digest', 1, initial);
        // Lines asked for before the first change, or only after it.
        if (initial.length % 2 === 0) assert.equal(document.lineCount, reference.lineCount);
        const all: DocumentChange[] = [];
        // The text after the changes so far, batched or not: its line count clamps the next change.
        const shadow = TextDocument.create('file:///a.digest', 'paper-digest', 1, initial);
        for (const [k, c] of changes.entries()) {
          // Positions that TextDocument.update itself gets wrong (its lines go out of step past the last line) are clamped here.
          const lines = shadow.lineCount;
          const clamp = (p: { line: number; character: number }) => ({ line: Math.min(p.line, lines - 1), character: p.character });
          const next: DocumentChange = c.full ? { text: c.text } : { range: { start: clamp(c.start), end: clamp(c.end) }, text: c.text };
          TextDocument.update(shadow, [next], k + 2);
          if (batched) {
            all.push(next);
            continue;
          }
          OpenDocument.update(document, [next], k + 2);
          TextDocument.update(reference, [next], k + 2);
          assertSameLines(document, TextDocument.create('file:///a.digest', 'paper-digest', 1, reference.getText()), `after change ${k}`);
          assert.equal(document.version, k + 2);
        }
        if (batched) {
          // Several changes in one notification, each placed in the text the ones before it made.
          OpenDocument.update(document, all, 9);
          TextDocument.update(reference, all, 9);
          assertSameLines(document, TextDocument.create('file:///a.digest', 'paper-digest', 1, reference.getText()), 'after the batch');
        }
      }),
      { numRuns: 400 },
    );
  });

  test('Should keep a big document’s characters in a buffer once edited, and make its text from it', () => {
    const line = 'Sparse Probes for Arithmetic Circuits · 稀疏探针\n';
    const content = line.repeat(10000);
    const document = OpenDocument.create('file:///b.digest', 'paper-digest', 1, content);
    const reference = TextDocument.create('file:///b.digest', 'paper-digest', 1, content);
    const edits = [
      { range: { start: { line: 5000, character: 3 }, end: { line: 5000, character: 3 } }, text: 'é' },
      { range: { start: { line: 5000, character: 3 }, end: { line: 5000, character: 4 } }, text: '' },
      { range: { start: { line: 9999, character: 0 }, end: { line: 10000, character: 0 } }, text: 'x\r\ny\n'.repeat(3000) },
      { range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } }, text: '' },
    ];
    for (const [k, edit] of edits.entries()) {
      OpenDocument.update(document, [edit], k + 2);
      TextDocument.update(reference, [edit], k + 2);
      assert.equal(document.getText(), reference.getText(), `after edit ${k}`);
      assert.equal(document.lineCount, reference.lineCount, `after edit ${k}: lines`);
      assert.deepEqual(document.positionAt(document.getText().length - 5), reference.positionAt(reference.getText().length - 5));
    }
    // A Latin-1 text keeps one byte a character until a wider one comes.
    const latin = OpenDocument.create('file:///c.digest', 'paper-digest', 1, 'caf\u00e9 au lait\n'.repeat(30000));
    const latinReference = TextDocument.create('file:///c.digest', 'paper-digest', 1, latin.getText());
    for (const [k, insert] of ['x', 'é', '中', '\uD800', 'y'].entries()) {
      const at = { start: { line: 100 + k, character: 2 }, end: { line: 100 + k, character: 3 } };
      OpenDocument.update(latin, [{ range: at, text: insert }], k + 2);
      TextDocument.update(latinReference, [{ range: at, text: insert }], k + 2);
      assert.equal(latin.getText(), latinReference.getText(), `after inserting ${JSON.stringify(insert)}`);
    }
  });
});
