/**
 * The outline's bytes written from the model (server/src/outlineBytes.ts) and made from the last
 * outline's: after any sequence of edits they parse to exactly the outline of that version
 * (`documentSymbols`), and a keystroke copies the bytes of the papers it did not touch instead of
 * writing them again. And the kept answers' bytes (server/src/preEncoded.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { OutlineBytes } from '../../server/src/outlineBytes';
import { PreEncoded } from '../../server/src/preEncoded';
import { documentSymbols, SymbolOptions } from '../../server/src/service/features/symbols';
import { updateDigest } from '../../server/src/service/incremental';
import { parseDigest } from '../../server/src/service/parser';
import type { DigestDocument } from '../../server/src/service/model';
import { generatedDigest } from '../bench/generate';
import { hasLabelUnsafe } from '../../server/src/service/text';
import { FIXTURES } from '../support/fixtures';
import { DIGEST_MATERIAL, digestText } from '../support/modelChecks';

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

/** The JSON-RPC response around an outline, as the server writes it. */
const HEAD = Buffer.from('{"jsonrpc":"2.0","id":17,"result":');
const TAIL = Buffer.from('}');

/** The bytes of a model's outline; every other time they are taken from the response written around them. */
function encodeInTurns(outlines: OutlineBytes, uri: string, model: DigestDocument, options: SymbolOptions, turn: number): Buffer {
  const answer = outlines.encode(uri, model, options);
  assert.ok(answer, 'not cancelled');
  if (turn % 2 === 0) {
    return answer.json;
  }
  const message = answer.message(HEAD, TAIL);
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
        assertSameOutline(encodeInTurns(outlines, uri, model, options, 0), documentSymbols(model, options), 'the first outline');
        for (const [k, e] of edits.entries()) {
          options = k % 5 === 4 ? { ...capped, language: 'zh-cn' } : capped;
          const length = document.getText().length;
          const start = Math.min(length, Math.floor(e.at * (length + 1)));
          const change = { range: { start: document.positionAt(start), end: document.positionAt(Math.min(length, start + e.remove)) }, text: e.insert };
          document = TextDocument.update(document, [change], document.version + 1);
          model = updateDigest(model, [change], document.getText());
          const bytes = encodeInTurns(outlines, uri, model, options, k + 1);
          assertSameOutline(bytes, documentSymbols(model, options), `after edit ${k}`);
          // And the outline of a fresh parse: the kept papers' bytes are the right ones.
          assertSameOutline(bytes, documentSymbols(parseDigest(document.getText()), options), `after edit ${k}, against a fresh parse`);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('Should copy the papers a keystroke did not touch, and write only those it did', () => {
    const outlines = new OutlineBytes();
    const uri = 'file:///w/g.digest';
    let document = TextDocument.create(uri, 'paper-digest', 1, generatedDigest(500));
    let model = parseDigest(document.getText());
    outlines.encode(uri, model);
    assert.deepEqual(outlines.lastStatistics, { encoded: 500, copied: 0 });
    const title = model.entries[250].englishTitle!.value.range.end;
    const change = { range: { start: title, end: title }, text: 'X' };
    document = TextDocument.update(document, [change], 2);
    model = updateDigest(model, [change], document.getText());
    const bytes = outlines.encode(uri, model)!.json;
    // The entries re-parsed around the edit (at most three) are written again; the rest are copied.
    const { encoded, copied } = outlines.lastStatistics;
    assert.ok(encoded >= 1 && encoded <= 3 && encoded + copied === 500, JSON.stringify(outlines.lastStatistics));
    assertSameOutline(bytes, documentSymbols(model), 'after the keystroke');
    assert.match(JSON.parse(bytes.toString())[0].children[250].name, /X · /);
    // A line break moves every paper after it: those are written again, the ones before copied.
    const end = model.entries[100].summary!.value.range.end;
    const lineBreak = { range: { start: end, end }, text: '\n\nComments a new line' };
    document = TextDocument.update(document, [lineBreak], 3);
    model = updateDigest(model, [lineBreak], document.getText());
    assertSameOutline(outlines.encode(uri, model)!.json, documentSymbols(model), 'after the line break');
    assert.ok(outlines.lastStatistics.copied >= 99 && outlines.lastStatistics.copied <= 101, JSON.stringify(outlines.lastStatistics));
    // The outline in the other language writes every paper again (an untitled paper's name is in it).
    const papers = model.entries.length;
    outlines.encode(uri, model, { language: 'zh-cn' });
    assert.deepEqual(outlines.lastStatistics, { encoded: papers, copied: 0 });
    // A second document starts from nothing; a closed one too.
    outlines.encode('file:///w/other.digest', model);
    assert.deepEqual(outlines.lastStatistics, { encoded: papers, copied: 0 });
    outlines.delete(uri);
    outlines.encode(uri, model);
    assert.deepEqual(outlines.lastStatistics, { encoded: papers, copied: 0 });
  });

  test('Should write any titles and headings as ASCII JSON that parses to the same strings', () => {
    const hostile = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\u0000', '\u007f', '\u2028', '中', '·', '\ud83d', '\ude00', '😀', '\ufeff', '\u202e'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 30 });
    const line = hostile.map((text) => text.replace(/[\r\n]/g, ' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(line, line), { maxLength: 5 }), line, fc.boolean(), (titles, heading, bom) => {
        const text = (bom ? '\ufeff' : '') + ['大模型' + heading, ...titles.flatMap(([english, chinese]) => [english, '标题' + chinese, 'Mei Tanaka', 'AI总结 总结'])].join('\n\n');
        const model = parseDigest(text);
        const answer = new OutlineBytes().encode('u', model);
        assert.ok(answer);
        const bytes = answer.json;
        assert.ok(bytes.every((byte) => byte < 0x80), `not ASCII: ${bytes.toString('latin1')}`);
        assertSameOutline(bytes, documentSymbols(model), 'the outline');
        assert.deepEqual(JSON.parse(JSON.stringify(answer)), JSON.parse(JSON.stringify(documentSymbols(model))), 'toJSON gives the same value');
        // Shown on one line as they are: no control or bidirectional character, no lone surrogate.
        const names = (symbols: DocumentSymbol[]): string[] => symbols.flatMap((symbol) => [symbol.name, ...names(symbol.children ?? [])]);
        for (const name of names(JSON.parse(bytes.toString('utf8')) as DocumentSymbol[])) {
          assert.ok(!hasLabelUnsafe(name), JSON.stringify(name));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('Should write titles of any length, cut where the outline cuts them, however many bytes they take', () => {
    // Names around the 500 characters where the outline cuts them (with a pair or a lone half at
    // the cut), and names of six bytes a character: the buffer the papers are written into
    // before the answer is put together grows, on the first outline and on a keystroke.
    const unit = fc.constantFrom('a', '中', '"', '\ud83d\ude00', '\ud83d', '\u202e', ' ');
    const title = fc.tuple(fc.array(unit, { maxLength: 40 }), fc.nat(520), unit).map(([parts, repeat, filler]) => parts.join('') + filler.repeat(repeat).slice(0, 560));
    fc.assert(
      fc.property(fc.array(fc.tuple(title, title), { minLength: 1, maxLength: 6 }), fc.nat(5), (titles, edited) => {
        const text = ['大模型', ...titles.flatMap(([english, chinese]) => ['T ' + english, '标题' + chinese, 'Mei Tanaka', 'AI总结 总结'])].join('\n\n');
        const outlines = new OutlineBytes();
        const uri = 'file:///w/long.digest';
        let document = TextDocument.create(uri, 'paper-digest', 1, text);
        let model = parseDigest(text);
        assertSameOutline(outlines.encode(uri, model)!.json, documentSymbols(model), 'the first outline');
        // A keystroke in one title: that paper is written again, the others copied.
        const entry = model.entries[Math.min(edited, model.entries.length - 1)];
        const at = entry.englishTitle?.value.range.end ?? entry.range.start;
        const change = { range: { start: at, end: at }, text: '中'.repeat(300) };
        document = TextDocument.update(document, [change], 2);
        model = updateDigest(model, [change], document.getText());
        const bytes = outlines.encode(uri, model)!.json;
        assertSameOutline(bytes, documentSymbols(model), 'after the keystroke');
        assertSameOutline(bytes, documentSymbols(parseDigest(document.getText())), 'after the keystroke, against a fresh parse');
      }),
      { numRuns: 300, seed: 20261207 },
    );
  });

  test('Should give the outline of any text, and nothing once cancelled', () => {
    fc.assert(
      fc.property(digestText, fc.nat(4), (text, maxPapers) => {
        const model = parseDigest(text);
        const options = maxPapers === 0 ? {} : { maxPapers };
        assertSameOutline(new OutlineBytes().encode('u', model, options)!.json, documentSymbols(model, options), 'the outline');
      }),
      { numRuns: 300 },
    );
    assert.equal(new OutlineBytes().encode('u', parseDigest(generatedDigest(3)), {}, { isCancellationRequested: true }), undefined);
  });
});

describe('PreEncoded', () => {
  test('Should write the response around the JSON in place the first time, and copy it afterwards', () => {
    const value = { data: [0, 1, 2, 3, 4], text: '标题 "quoted"' };
    const answer = PreEncoded.of(value);
    assert.equal(answer.json.toString('utf8'), JSON.stringify(value));
    assert.equal(JSON.stringify(answer), JSON.stringify(value), 'toJSON');
    const first = answer.message(HEAD, TAIL);
    const second = answer.message(Buffer.from('{"jsonrpc":"2.0","id":"a much longer string id","result":'), TAIL);
    assert.deepEqual(JSON.parse(first.toString('utf8')), { jsonrpc: '2.0', id: 17, result: value });
    const sharesMemory = (a: Buffer, b: Buffer): boolean => a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.length && b.byteOffset < a.byteOffset + a.length;
    assert.ok(sharesMemory(first, answer.json), 'the first response is written around the answer\'s bytes');
    assert.ok(!sharesMemory(second, answer.json), 'the second is a copy');
    assert.deepEqual(JSON.parse(second.toString('utf8')), { jsonrpc: '2.0', id: 'a much longer string id', result: value });
    assert.deepEqual(JSON.parse(first.toString('utf8')).result, value, 'the first response is unchanged by the second');
    const long = PreEncoded.of([1]);
    const head = Buffer.from(`{"jsonrpc":"2.0","id":"${'x'.repeat(80)}","result":`);
    assert.deepEqual(JSON.parse(long.message(head, TAIL).toString('utf8')).result, [1], 'a head longer than the room before the JSON');
  });
});
