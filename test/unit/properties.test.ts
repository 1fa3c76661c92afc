/**
 * Properties that hold whatever a file holds: for any string (lone surrogates, NUL, a lone CR,
 * U+2028, a BOM in the middle, full-width and half-width punctuation mixed, brackets that never
 * close) the parser returns a model whose every range lies inside the text, in order, and whose
 * every span's text is what its range covers; and the features built on it answer without
 * throwing, with ranges inside the text.
 *
 * Strings fast-check once found failing (and a few written by hand) are kept under
 * test/fixtures/properties/ and replayed here first. Each file holds one JSON string, so that
 * lone surrogates and other code units a UTF-8 file cannot hold survive: when a property fails,
 * fast-check prints the counterexample; save `JSON.stringify(counterexample)` there before
 * fixing the code.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { isCommentsTitle, parseDigest, plainLineVerdict, setReadingsKept, splitLines } from '../../server/src/service/parser';
import { describeModel } from '../support/describeModel';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { updateDigest } from '../../server/src/service/incremental';
import { DigestDocument, FIELD_ORDER } from '../../server/src/service/model';
import { applyEdit } from '../support/modelChecks';
import { authorListLikeness, hasCjk } from '../../server/src/service/text';
import { FIXTURES } from '../support/fixtures';
import { checkFeatures, checkModel, digestText } from '../support/modelChecks';

/** The strings fast-check found failing once, kept as fixtures. */
function savedCounterexamples(): { name: string; text: string }[] {
  const folder = path.join(FIXTURES, 'properties');
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, text: JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as string }));
}

describe('properties: counterexamples kept as fixtures', () => {
  test('Should have counterexamples to replay', () => {
    assert.ok(savedCounterexamples().length > 0);
  });
  for (const { name, text } of savedCounterexamples()) {
    test(`Should parse and serve ${name} within its bounds`, () => {
      const doc = parseDigest(text);
      checkModel(text, doc);
      checkFeatures(text, doc);
    });
  }
});

describe('properties: any text', () => {
  test('Should never throw and keep every range of the model inside the text, in order, covering its span text', () => {
    fc.assert(
      fc.property(digestText, (text) => {
        checkModel(text, parseDigest(text));
      }),
      { numRuns: 600 },
    );
  });

  test('Should answer outline, folding, semantic tokens, diagnostics, code actions and hovers without throwing, inside the text', () => {
    fc.assert(
      fc.property(digestText, (text) => {
        checkFeatures(text, parseDigest(text));
      }),
      { numRuns: 250 },
    );
  });

  test('Should hold on whole digests with material spliced in', () => {
    const base = fs.readFileSync(path.join(FIXTURES, 'parser', 'well-formed.digest'), 'utf8');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(base.length), fc.nat(30), digestText), { minLength: 1, maxLength: 6 }), (splices) => {
        let text = base;
        for (const [at, remove, insert] of splices) {
          const start = at % (text.length + 1);
          text = text.slice(0, start) + insert + text.slice(start + remove);
        }
        const doc = parseDigest(text);
        checkModel(text, doc);
        checkFeatures(text, doc);
      }),
      { numRuns: 150 },
    );
  });

  test("Should read a plain line in one pass as the text predicates read it", () => {
    const names = fc.constantFrom('Mei', 'Tanaka', 'de', 'la', 'van', 'St.', 'st.', 'della', 'María', 'ñu', 'İvo', 'K.', "O'Neil", 'x-y', 'Ζeus', 'ζeus', 'dellaa', 'y', 'e');
    const separators = fc.constantFrom(' ', '  ', ', ', ',', '，', '\u00a0', '\u3000', '\t', ' 1 ', '(', ':', '中');
    const line = fc.oneof(fc.array(fc.oneof(names, separators), { maxLength: 16 }).map((parts) => parts.join('')), digestText);
    fc.assert(
      fc.property(line, (text) => {
        const trimmed = text.trim();
        assert.equal(plainLineVerdict(text), hasCjk(trimmed) ? 'cjk' : authorListLikeness(trimmed));
      }),
      { numRuns: 3000 },
    );
  });

  test('Should tell a title that starts with Comments as the line pattern does, from the line start in the whole text', () => {
    const pattern = /^\s*Comments\s+(?:on|about|regarding|upon|concerning)\s/i;
    const piece = fc.constantFrom('Comments', 'comments', 'COMMENTS', 'Comment', ' ', '\t', '\u3000', '\u00a0', '\u2028', '\n', '\r\n', '\r', 'on', 'ON', 'about', 'Regarding', 'upon', 'concerning', 'onto', 'x', '\ufeff');
    const text = fc.oneof(fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')), digestText);
    fc.assert(
      fc.property(text, (t) => {
        for (const line of splitLines(t).lines) {
          assert.equal(isCommentsTitle(t, line.offset), pattern.test(line.text), JSON.stringify(line.text));
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('Should read runs of plain lines the same whether their readings are looked up or worked out', () => {
    const base = fs.readFileSync(path.join(FIXTURES, 'parser', 'well-formed.digest'), 'utf8');
    const spliced = fc.array(fc.tuple(fc.nat(base.length), fc.nat(30), digestText), { maxLength: 6 }).map((splices) => {
      let text = base + base;
      for (const [at, remove, insert] of splices) {
        const start = at % (text.length + 1);
        text = text.slice(0, start) + insert + text.slice(start + remove);
      }
      return text;
    });
    fc.assert(
      fc.property(fc.oneof(digestText, spliced), (text) => {
        const before = setReadingsKept(0);
        let workedOut: string;
        try {
          workedOut = describeModel(parseDigest(text));
        } finally {
          setReadingsKept(before);
        }
        // Twice: the second parse finds the readings the first kept.
        assert.equal(describeModel(parseDigest(text)), workedOut);
        assert.equal(describeModel(parseDigest(text)), workedOut);
      }),
      { numRuns: 300 },
    );
  });

  test('Should name each field the entry lists, and read each field line from the line table as the text has it, fresh and after edits', () => {
    /** Each kind once at most; the named field is the one listed; a field's text, line and range are its line's. */
    const check = (text: string, doc: DigestDocument): void => {
      const lines = splitLines(text).lines;
      for (const entry of doc.entries) {
        for (const kind of FIELD_ORDER) {
          const listed = entry.fields.filter((field) => field.kind === kind);
          assert.ok(listed.length <= 1, `entry ${entry.index} has ${listed.length} fields ${kind}`);
          assert.equal(entry[kind], listed[0], `entry ${entry.index}: ${kind}`);
        }
        for (const field of entry.fields) {
          // splitLines keeps the BOM on line 0; a field's text leaves it out, its range counts it.
          const line = lines[field.line];
          const first = field.line === 0 && doc.hasBom ? 1 : 0;
          assert.equal(field.text, line.text.slice(first));
          assert.deepEqual(field.range, { start: { line: field.line, character: first }, end: { line: field.line, character: line.text.length } });
        }
      }
    };
    const base = fs.readFileSync(path.join(FIXTURES, 'parser', 'well-formed.digest'), 'utf8');
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat(40), insert: fc.oneof(digestText, fc.constantFrom('\n', '\n\n', 'Comments on x\n', '机构 A\n\n')) });
    fc.assert(
      fc.property(fc.oneof(digestText, fc.constant(base)), fc.array(edit, { maxLength: 8 }), (start, edits) => {
        let document = TextDocument.create('file:///a.digest', 'paper-digest', 1, start);
        let model = parseDigest(start);
        check(start, model);
        for (const e of edits) {
          const applied = applyEdit(document, e);
          document = applied.document;
          model = updateDigest(model, [applied.change], document.getText());
          check(document.getText(), model);
        }
      }),
      { numRuns: 200 },
    );
  });
});
