/**
 * The outline's bytes made from the last outline's (server/src/outlineBytes.ts): after any
 * sequence of edits they parse to exactly the outline of that version, and a keystroke copies
 * the bytes of the papers it did not touch instead of encoding them again.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol, SymbolKind } from 'vscode-languageserver-types';
import { OutlineBytes } from '../../server/src/outlineBytes';
import { documentSymbols, SymbolOptions } from '../../server/src/service/features/symbols';
import { updateDigest } from '../../server/src/service/incremental';
import { parseDigest } from '../../server/src/service/parser';
import { generatedDigest } from '../bench/generate';
import { FIXTURES } from '../support/fixtures';
import { DIGEST_MATERIAL } from '../support/modelChecks';

const BASES = ['parser', 'diagnostics']
  .flatMap((folder) => fs.readdirSync(path.join(FIXTURES, folder)).filter((name) => name.endsWith('.digest')).map((name) => path.join(FIXTURES, folder, name)))
  .map((file) => fs.readFileSync(file, 'utf8'))
  .concat([generatedDigest(40), '', 'No heading here\n\nA Title\n\n一个标题\n\nMei Tanaka\n']);

const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 400 }) }),
  insert: fc.oneof(fc.constant(''), fc.constant('\n'), fc.constantFrom(...DIGEST_MATERIAL), fc.array(fc.constantFrom(...DIGEST_MATERIAL), { maxLength: 8 }).map((parts) => parts.join(''))),
});

function assertSameOutline(bytes: Buffer, outline: DocumentSymbol[], context: string): void {
  assert.deepEqual(JSON.parse(bytes.toString('utf8')), JSON.parse(JSON.stringify(outline)), context);
}

/** The JSON-RPC response around an outline, as the server writes it into the outline's buffer. */
const HEAD = Buffer.from('{"jsonrpc":"2.0","id":17,"result":');
const TAIL = Buffer.from('}');

/** Encodes with the response around the outline or without it, in turns; gives the outline's bytes alone. */
function encodeInTurns(outlines: OutlineBytes, uri: string, outline: DocumentSymbol[], turn: number): Buffer {
  if (turn % 2 === 0) {
    return outlines.encode(uri, outline);
  }
  const message = outlines.encode(uri, outline, HEAD, TAIL);
  assert.deepEqual(message.subarray(0, HEAD.length), HEAD, 'the head first');
  assert.deepEqual(message.subarray(message.length - TAIL.length), TAIL, 'the tail last');
  assert.equal(JSON.parse(message.toString('utf8')).id, 17);
  return message.subarray(HEAD.length, message.length - TAIL.length);
}

describe('OutlineBytes', () => {
  test('Should give, after any sequence of edits, the bytes of exactly that version\'s outline', () => {
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fc.array(edit, { minLength: 1, maxLength: 15 }), fc.nat(3), (base, edits, maxPapers) => {
        const outlines = new OutlineBytes();
        const uri = 'file:///w/a.digest';
        let document = TextDocument.create(uri, 'paper-digest', 1, BASES[base]);
        let model = parseDigest(document.getText());
        // A small cap now and then: the "… more papers" symbol comes and goes; and the
        // outline's language (untitled papers are named in it) changes now and then.
        const capped = maxPapers === 0 ? { maxPapers: 3 } : {};
        let options: SymbolOptions = capped;
        assertSameOutline(outlines.encode(uri, documentSymbols(model, options)), documentSymbols(model, options), 'the first outline');
        for (const [k, e] of edits.entries()) {
          options = k % 5 === 4 ? { ...capped, language: 'zh-cn' } : capped;
          const length = document.getText().length;
          const start = Math.min(length, Math.floor(e.at * (length + 1)));
          const change = { range: { start: document.positionAt(start), end: document.positionAt(Math.min(length, start + e.remove)) }, text: e.insert };
          document = TextDocument.update(document, [change], document.version + 1);
          model = updateDigest(model, [change], document.getText());
          const outline = documentSymbols(model, options);
          const bytes = encodeInTurns(outlines, uri, outline, k);
          assertSameOutline(bytes, outline, `after edit ${k}`);
          // And the outline of a fresh parse: the reused symbols are the right ones.
          assertSameOutline(bytes, documentSymbols(parseDigest(document.getText()), options), `after edit ${k}, against a fresh parse`);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('Should copy the papers a keystroke did not touch, and encode only those it did', () => {
    const outlines = new OutlineBytes();
    const uri = 'file:///w/g.digest';
    let document = TextDocument.create(uri, 'paper-digest', 1, generatedDigest(500));
    let model = parseDigest(document.getText());
    outlines.encode(uri, documentSymbols(model));
    assert.deepEqual(outlines.lastStatistics, { encoded: 500, copied: 0 });
    const title = model.entries[250].englishTitle!.value.range.end;
    const change = { range: { start: title, end: title }, text: 'X' };
    document = TextDocument.update(document, [change], 2);
    model = updateDigest(model, [change], document.getText());
    const outline = documentSymbols(model);
    const bytes = outlines.encode(uri, outline);
    // The entries re-parsed around the edit (at most three) get new symbols; the rest are copied.
    const { encoded, copied } = outlines.lastStatistics;
    assert.ok(encoded >= 1 && encoded <= 3 && encoded + copied === 500, JSON.stringify(outlines.lastStatistics));
    assertSameOutline(bytes, outline, 'after the keystroke');
    assert.match(JSON.parse(bytes.toString()) [0].children[250].name, /X · /);
    // A second document starts from nothing; a closed one too.
    outlines.encode('file:///w/other.digest', outline);
    assert.deepEqual(outlines.lastStatistics, { encoded: 500, copied: 0 });
    outlines.delete(uri);
    outlines.encode(uri, outline);
    assert.deepEqual(outlines.lastStatistics, { encoded: 500, copied: 0 });
  });

  test('Should write any names and details as ASCII JSON that parses to the same strings', () => {
    const range = { start: { line: 3, character: 0 }, end: { line: 120000, character: 81 } };
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u007f', '\u2028', '中', '·', '\ud83d', '\ude00', '😀', '\ufeff'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 30 });
    fc.assert(
      fc.property(fc.array(fc.record({ name: text, detail: fc.option(text, { nil: undefined }), kind: fc.integer({ min: 1, max: 26 }) as fc.Arbitrary<SymbolKind> }), { maxLength: 6 }), text, (papers, heading) => {
        const outlines = new OutlineBytes();
        const symbols: DocumentSymbol[] = papers.map((paper) => ({ ...paper, range, selectionRange: { start: range.start, end: { line: 3, character: 7 } } }));
        const outline: DocumentSymbol[] = [{ name: heading, detail: '10 papers', kind: 3, range, selectionRange: range, children: symbols }];
        const bytes = outlines.encode('u', outline);
        assert.ok(bytes.every((byte) => byte < 0x80), `not ASCII: ${bytes.toString('latin1')}`);
        assert.deepEqual(outlines.encode('w', outline, HEAD, TAIL), Buffer.concat([HEAD, bytes, TAIL]), 'the same bytes inside the response');
        assertSameOutline(bytes, outline, 'with the heading');
        assert.deepEqual(outlines.lastStatistics, { encoded: symbols.length, copied: 0 }, 'written member by member, not by the fallback');
        assertSameOutline(outlines.encode('v', symbols), symbols, 'the papers alone');
      }),
      { numRuns: 300 },
    );
  });

  test('Should encode symbols of any other shape whole, as JSON.stringify does', () => {
    const outlines = new OutlineBytes();
    const range = { start: { line: 0, character: 0 }, end: { line: 1, character: 2 } };
    const nested: DocumentSymbol[] = [{ name: 'a', kind: 5, range, selectionRange: range, children: [{ name: 'b', kind: 5, range, selectionRange: range, children: [] }] }];
    assertSameOutline(outlines.encode('u', nested), nested, 'nested');
    assert.deepEqual(outlines.encode('u', nested, HEAD, TAIL), Buffer.concat([HEAD, Buffer.from(JSON.stringify(nested)), TAIL]), 'nested, inside the response');
    // Names holding what separates symbols in the bytes.
    const tricky: DocumentSymbol[] = ['x",{"name":"y', '},{"name":', '\\', '"'].map((name) => ({ name, kind: 5, range, selectionRange: range }));
    assertSameOutline(outlines.encode('u', tricky), tricky, 'tricky names');
    const again = [tricky[0], { name: 'new', kind: 5, range, selectionRange: range }, ...tricky.slice(2)] as DocumentSymbol[];
    assertSameOutline(outlines.encode('u', again), again, 'tricky names, one replaced');
    assert.deepEqual(outlines.lastStatistics, { encoded: 1, copied: 3 });
    const noName = [{ kind: 5, range, selectionRange: range, name: 'z' }, { kind: 5, range, selectionRange: range, name: 'w' }] as DocumentSymbol[];
    assertSameOutline(outlines.encode('u', noName), noName, 'symbols that do not start with their name');
    assertSameOutline(outlines.encode('u', [noName[0]]), [noName[0]], 'again');
    assertSameOutline(outlines.encode('u', []), [], 'empty');
  });
});
