/**
 * The limits of limits.ts and the caps: a document past a limit gets one document-too-large
 * diagnostic and is not split into parts; capped diagnostics stop at the entry where the cap is
 * reached and agree with the full run on what they give; folding and outline names are capped.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeDiagnostics, DiagnosticCode } from '../../server/src/service/features/diagnostics';
import { foldingRanges, MAX_FOLDING_RANGES } from '../../server/src/service/features/folding';
import { documentSymbols } from '../../server/src/service/features/symbols';
import { DigestCache } from '../../server/src/service/cache';
import { DOCUMENT_LIMITS, documentTooLarge, isTruncated, parseWithinLimits } from '../../server/src/service/limits';
import { parseDigest } from '../../server/src/service/parser';
import { updateDigest } from '../../server/src/service/incremental';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as fc from 'fast-check';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';

describe('limits', () => {
  test('Should flag a document past each limit, and only past it', () => {
    const longLine = '机构 * ' + 'x'.repeat(DOCUMENT_LIMITS.maxLineLength);
    assert.equal(documentTooLarge(parseDigest(digest(entryLines('A', { institutions: longLine.slice(0, DOCUMENT_LIMITS.maxLineLength) })))), undefined);
    const tooLong = documentTooLarge(parseDigest(digest(entryLines('A'), entryLines('B', { institutions: longLine }))));
    assert.equal(tooLong?.limit, 'lineLength');
    assert.equal(tooLong?.range.start.line, 24);
    assert.equal(documentTooLarge(parseDigest('a\n'.repeat(DOCUMENT_LIMITS.maxLines - 1)))?.limit, undefined);
    assert.equal(documentTooLarge(parseDigest('a\n'.repeat(DOCUMENT_LIMITS.maxLines)))?.limit, 'lines');
    assert.equal(documentTooLarge(parseDigest(('x'.repeat(99_999) + '\n').repeat(DOCUMENT_LIMITS.maxCharacters / 100_000 + 1)))?.limit, 'characters');
  });

  test('Should judge every version of an edited document as a fresh parse of its text, lines grown past the limit included', () => {
    // The verdict of an updated model is taken from the earlier one and the lines the update
    // split again (limits.ts noteUpdate): a keystroke does not pass over every line.
    const long = 'x'.repeat(DOCUMENT_LIMITS.maxLineLength - 5);
    const base = digest(entryLines('A'), entryLines('B', { summary: `AI总结 ${long}` }), entryLines('C'));
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat(12), insert: fc.constantFrom('', 'y', 'yyyyyyyyyy', '\n', '\n\n', 'z'.repeat(20)) });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        let document = TextDocument.create('file:///a.digest', 'paper-digest', 1, base);
        let model = parseDigest(base);
        assert.equal(documentTooLarge(model), undefined);
        for (const e of edits) {
          // Most edits land in the longest line, where they may take it past the limit and back.
          const lines = document.getText().split(/\r?\n/);
          const line = lines.reduce((longest, each, i) => (each.length > lines[longest].length ? i : longest), 0);
          const lineStart = document.offsetAt({ line, character: 0 });
          const start = e.at < 0.7 ? lineStart + Math.floor((e.at / 0.7) * long.length) : Math.floor(e.at * document.getText().length);
          const change = { range: { start: document.positionAt(start), end: document.positionAt(start + e.remove) }, text: e.insert };
          document = TextDocument.update(document, [change], document.version + 1);
          model = updateDigest(model, [change], document.getText());
          assert.deepEqual(documentTooLarge(model), documentTooLarge(parseDigest(document.getText())));
        }
      }),
      { numRuns: 40 },
    );
  });

  test('Should parse only the first 50,000 lines of a longer text, and know its real size', () => {
    const lines = Array.from({ length: 1_000_000 }, (_, i) => (i % 3 === 0 ? 'Mei Tanaka, Lin Qiu' : i % 3 === 1 ? '标题' : `Title ${i}`));
    const text = lines.join('\n');
    const model = parseWithinLimits(text);
    assert.ok(isTruncated(model));
    // A sixth of the lines limit: the model of a million short lines is that of 50,000.
    assert.equal(DOCUMENT_LIMITS.parsedLines, 50_000);
    assert.equal(model.lines.length, DOCUMENT_LIMITS.parsedLines + 1);
    assert.equal(model.lines[DOCUMENT_LIMITS.parsedLines - 1].text, lines[DOCUMENT_LIMITS.parsedLines - 1]);
    const [root] = documentSymbols(model, { maxPapers: 1_000 });
    assert.equal(root.children?.[1_000].name, `… ${model.entries.length - 1_000} more papers in the first 50000 lines`);
    // Just past the lines limit: the same first lines.
    const justPast = parseWithinLimits(lines.slice(0, DOCUMENT_LIMITS.maxLines + 1).join('\n'));
    assert.ok(isTruncated(justPast));
    assert.equal(justPast.lines.length, DOCUMENT_LIMITS.parsedLines + 1);
    assert.ok(!isTruncated(parseWithinLimits(lines.slice(0, DOCUMENT_LIMITS.maxLines).join('\n'))));
    const verdict = documentTooLarge(model);
    assert.deepEqual([verdict?.limit, verdict?.size], ['lines', 1_000_000]);
    assert.match(computeDiagnostics(model)[0].message, /1,000,000 lines, more than the 300,000/);
    // Within the limits, the whole text.
    const small = parseWithinLimits(lines.slice(0, 1_000).join('\n'));
    assert.ok(!isTruncated(small));
    assert.equal(small.lines.length, 1_000);
    // Past the characters limit, cut at a line end.
    const long = ('x'.repeat(99_999) + '\n').repeat(DOCUMENT_LIMITS.maxCharacters / 100_000 + 5);
    const cut = parseWithinLimits(long);
    assert.ok(cut.text.length <= DOCUMENT_LIMITS.maxCharacters && cut.text.endsWith('\n'));
    assert.deepEqual([documentTooLarge(cut)?.limit, documentTooLarge(cut)?.size], ['characters', long.length]);
  });

  test('Should count and cut lines at carriage returns as at line feeds: a text of lone CRs or CRLFs is cut as any other', () => {
    // A million lone-CR lines were parsed whole (20 MB of them took 7 s and 1.7 GB to check).
    for (const end of ['\r', '\r\n']) {
      const text = `Title${end}`.repeat(1_000_000);
      const model = parseWithinLimits(text);
      assert.ok(isTruncated(model), JSON.stringify(end));
      assert.equal(model.lines.length, DOCUMENT_LIMITS.parsedLines + 1, JSON.stringify(end));
      assert.ok(model.text.endsWith(end) && model.text.length === DOCUMENT_LIMITS.parsedLines * (5 + end.length));
      assert.deepEqual([documentTooLarge(model)?.limit, documentTooLarge(model)?.size], ['lines', 1_000_001]);
    }
    // Past the characters limit, cut after the last lone CR within it.
    const long = ('x'.repeat(99_999) + '\r').repeat(DOCUMENT_LIMITS.maxCharacters / 100_000 + 5);
    const cut = parseWithinLimits(long);
    assert.ok(isTruncated(cut) && cut.text.length <= DOCUMENT_LIMITS.maxCharacters && cut.text.endsWith('\r'));
    assert.deepEqual([documentTooLarge(cut)?.limit, documentTooLarge(cut)?.size], ['characters', long.length]);
    // Within the limits: the whole text, whatever ends its lines.
    for (const text of ['A\rB\rC', 'A\r\nB\nC\r', '\r'.repeat(DOCUMENT_LIMITS.maxLines - 1)]) {
      assert.ok(!isTruncated(parseWithinLimits(text)));
    }
    assert.ok(isTruncated(parseWithinLimits('\r'.repeat(DOCUMENT_LIMITS.maxLines))));
  });

  test('Should parse such a text again on an edit rather than update the model of its first part', () => {
    const cache = new DigestCache();
    const text = 'Title\n'.repeat(DOCUMENT_LIMITS.maxLines + 10);
    const first = cache.get({ uri: 'file:///a.digest', version: 1, getText: () => text });
    assert.ok(isTruncated(first));
    const edited = 'X' + text;
    cache.change({ uri: 'file:///a.digest', version: 1, getText: () => text }, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'X' }], () => ({ uri: 'file:///a.digest', version: 2, getText: () => edited }));
    assert.equal(cache.updateCount, 0);
    const second = cache.get({ uri: 'file:///a.digest', version: 2, getText: () => edited });
    assert.ok(isTruncated(second));
    assert.equal(second.lines[0].text, 'XTitle');
  });

  test('Should give a text an edit takes past the lines or characters limit the model of its first part, as an open of it does', () => {
    const small = digest(entryLines('A'));
    for (const [limit, added] of [
      ['lines', '\n'.repeat(DOCUMENT_LIMITS.maxLines) + 'Tail Title\n'],
      ['characters', ('x'.repeat(99) + '\n').repeat(DOCUMENT_LIMITS.maxCharacters / 100 + 10)],
    ] as const) {
      const cache = new DigestCache();
      const uri = `file:///${limit}.digest`;
      cache.get({ uri, version: 1, getText: () => small });
      const lines = small.split('\n').length - 1;
      const edited = small + added;
      cache.change({ uri, version: 1, getText: () => small }, [{ range: { start: { line: lines, character: 0 }, end: { line: lines, character: 0 } }, text: added }], () => ({ uri, version: 2, getText: () => edited }));
      const model = cache.get({ uri, version: 2, getText: () => edited });
      const fresh = parseWithinLimits(edited);
      assert.ok(isTruncated(model), limit);
      assert.equal(model.text.length, fresh.text.length, limit);
      assert.equal(model.entries.length, fresh.entries.length, limit);
      assert.equal(documentTooLarge(model)?.limit, limit);
    }
  });

  test('Should report only document-too-large past a limit, as the rule settings say', () => {
    const text = digest(entryLines('A', { authors: null }), entryLines('B', { institutions: '机构 ' + '（；'.repeat(60_000) }));
    const doc = parseDigest(text);
    const diagnostics = computeDiagnostics(doc);
    assert.deepEqual(diagnostics.map((d) => d.code), [DiagnosticCode.DocumentTooLarge]);
    assert.match(diagnostics[0].message, /120,00\d characters, more than the 100,000/);
    assert.equal(diagnostics[0].data.limit, 'lineLength');
    assert.deepEqual(computeDiagnostics(doc, { rules: { 'document-too-large': 'off' } }), []);
  });

  test('Should stop checking at the entry where the cap is reached, and give the first problems of a full run', () => {
    const entries = Array.from({ length: 3_000 }, (_, i) => entryLines(`P${i}`, { authors: null, institutions: '机构 * Lab（实验室）;Other' }));
    const doc = parseDigest(digest(...entries));
    const all = computeDiagnostics(doc);
    const capped = computeDiagnostics(parseDigest(digest(...entries)), { maxDiagnostics: 500 });
    assert.ok(all.length > 5_000, `${all.length} problems in all`);
    assert.ok(capped.length >= 500 && capped.length < 520, `${capped.length} problems with a cap of 500`);
    assert.deepEqual(
      capped.slice(0, 500).map((d) => [d.code, d.range]),
      all.slice(0, 500).map((d) => [d.code, d.range]),
    );
  });

  test('Should cap folding ranges, and cut the names of papers in the outline', () => {
    const entries = Array.from({ length: MAX_FOLDING_RANGES + 10 }, (_, i) => entryLines(`P${i}`));
    const doc = parseDigest(digest(...entries));
    assert.equal(foldingRanges(doc).length, MAX_FOLDING_RANGES);
    const [root] = documentSymbols(parseDigest(digest(entryLines('T', { englishTitle: 'Long '.repeat(1_000) }))));
    assert.equal(root.children![0].children, undefined);
    assert.ok(root.children![0].name.length <= 500);
  });

  test('Should list no papers of a file past a limit in the workspace index', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/huge.digest', digest(entryLines('A'), entryLines('B', { institutions: '机构 * ' + '（ ； '.repeat(DOCUMENT_LIMITS.maxLineLength / 4) })));
    index.update('file:///ws/fine.digest', digest(entryLines('C')));
    const papers = Object.fromEntries(index.files().map((file) => [file.uri, file.papers.length]));
    assert.deepEqual(papers, { 'file:///ws/fine.digest': 1, 'file:///ws/huge.digest': 0 });
  });
});
