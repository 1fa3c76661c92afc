/**
 * Checks that hold for the model of any text and for what the features answer on it, shared by
 * the property tests and the robustness tests, and the fast-check material they are run on.
 */
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol, Position, Range } from 'vscode-languageserver-types';
import { codeActions, fixAll } from '../../server/src/service/features/codeActions';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { foldingRanges } from '../../server/src/service/features/folding';
import { hover } from '../../server/src/service/features/hover';
import type { ContentChange } from '../../server/src/service/incremental';
import { semanticTokens } from '../../server/src/service/features/semanticTokens';
import { documentSymbols } from '../../server/src/service/features/symbols';
import type { DigestDocument, Field, Span } from '../../server/src/service/model';
import { splitLines } from '../../server/src/service/parser';

/** Pieces of digests and of the things that break line-oriented code, for fast-check to combine. */
export const DIGEST_MATERIAL = [
  '\n', '\n', '\n\n', '\r\n', '\r', ' ', '\t', '\u3000', '\u00a0',
  '大模型推理能力', 'Sparse Probes', 'Mei Tanaka, Omar Haddad', 'Ana de la Cruz', '小型Transformer',
  '机构', '机构 * ', '专题命中', '专题命中 数学推理 ：', '分类', '分类 ', 'AI总结', 'AI 总结 ', 'Comments', 'Comments on X', 'Journal ref', '纠错', 'comments 12 pages', 'JOURNAL REF', 'ai总结 ',
  'reasoning(abstract)', 'kw（title）', 'cs.LG', 'CS.lg', 'cs.XX', '、', ',', '，', ';', '；', ':', '：', '*', '＊',
  '(', ')', '（', '）', '（（（', '）））', '[cs.AI]', 'https://example.org/a.', 'arXiv:2401.12345', 'arXiv:hep-th/9901001',
  '\uD800', '\uDFFF', '\uD83D\uDE00', '\u0000', '\u2028', '\u2029', '\uFEFF', '\u202E', '𝔸', 'é', 'İ',
];

/** Strings made of digest material and of arbitrary characters. */
export const digestText = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...DIGEST_MATERIAL), { maxLength: 60 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...DIGEST_MATERIAL), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 40 }).map((parts) => parts.join('')) },
);

/** Checks a model against its text: every range in bounds and ordered, every span's text what its range covers. */
export function checkModel(text: string, doc: DigestDocument): void {
  const lines = splitLines(text).lines;
  assert.equal(doc.lines.length, lines.length, 'line count');
  assert.equal(doc.text, text);
  const checkPosition = (position: Position, what: string): void => {
    assert.ok(Number.isInteger(position.line) && position.line >= 0 && position.line < lines.length, `${what}: line ${position.line} of ${lines.length}`);
    const length = lines[position.line].text.length;
    assert.ok(Number.isInteger(position.character) && position.character >= 0 && position.character <= length, `${what}: character ${position.character} of ${length} on line ${position.line}`);
  };
  const checkRange = (range: Range, what: string): void => {
    checkPosition(range.start, what);
    checkPosition(range.end, what);
    assert.ok(range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character), `${what}: start after end`);
  };
  const checkSpan = (span: Span | undefined, what: string): void => {
    if (!span) return;
    checkRange(span.range, what);
    assert.equal(span.range.start.line, span.range.end.line, `${what}: a span is within one line`);
    assert.equal(lines[span.range.start.line].text.slice(span.range.start.character, span.range.end.character), span.text, `${what}: text`);
  };
  checkSpan(doc.heading, 'heading');
  doc.strayLines.forEach((span) => checkSpan(span, 'stray'));
  for (const paragraph of doc.paragraphs) {
    checkRange(paragraph.range, 'paragraph');
  }
  let lastLine = -1;
  for (const entry of doc.entries) {
    checkRange(entry.range, `entry ${entry.index}`);
    assert.ok(entry.range.start.line > lastLine, 'entries in order, without overlap');
    lastLine = entry.range.end.line;
    for (const field of entry.fields) {
      checkRange(field.range, field.kind);
      assert.ok(field.line >= entry.range.start.line && field.line <= entry.range.end.line, `${field.kind} inside its entry`);
      assert.equal(entry[field.kind], field, `${field.kind} is the entry's`);
      checkField(field, checkSpan, checkRange);
    }
    entry.strayLines.forEach((span) => checkSpan(span, 'entry stray'));
  }
  for (const problem of doc.problems) {
    checkRange(problem.range, problem.kind);
  }
}

function checkField(field: Field, checkSpan: (span: Span | undefined, what: string) => void, checkRange: (range: Range, what: string) => void): void {
  switch (field.kind) {
    case 'englishTitle':
    case 'chineseTitle':
      checkSpan(field.value, 'title');
      break;
    case 'authors':
      field.names.forEach((span) => checkSpan(span, 'name'));
      field.separators.forEach((span) => checkSpan(span, 'name separator'));
      break;
    case 'institutions':
      [field.label, field.star, field.marker, ...field.separators].forEach((span) => checkSpan(span, 'institutions part'));
      for (const item of field.items) {
        checkRange(item.range, 'item');
        [item.name, item.translation, item.open, item.close].forEach((span) => checkSpan(span, 'item part'));
        if (item.unbalancedAt) checkRange(item.unbalancedAt, 'unbalanced bracket');
      }
      for (const pair of field.authorPairs ?? []) {
        checkSpan(pair.english, 'author pair');
        checkSpan(pair.chinese, 'author pair');
      }
      break;
    case 'topicHits':
      [field.label, field.topic, field.colon, field.categoriesLabel, ...field.separators, ...field.categories, ...field.categorySeparators].forEach((span) => checkSpan(span, 'topic part'));
      for (const hit of field.hits) {
        checkRange(hit.range, 'hit');
        [hit.keyword, hit.field, hit.open, hit.close].forEach((span) => checkSpan(span, 'hit part'));
      }
      break;
    default:
      checkSpan(field.label, 'label');
      checkSpan(field.value, 'value');
      field.links.forEach((link) => checkSpan(link, 'link'));
  }
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

/** Checks every feature on a model: nothing throws, and what they answer lies inside the text. */
export function checkFeatures(text: string, doc: DigestDocument): void {
  const lines = splitLines(text).lines;
  const inText = (range: Range, slack = 0): boolean =>
    range.start.line >= 0 &&
    range.start.line <= range.end.line &&
    range.end.line < lines.length &&
    range.start.character >= 0 &&
    range.start.character <= lines[range.start.line].text.length + slack &&
    range.end.character <= lines[range.end.line].text.length + slack &&
    (range.start.line < range.end.line || range.start.character <= range.end.character);
  const checkSymbol = (symbol: DocumentSymbol, parent?: DocumentSymbol): void => {
    assert.ok(symbol.name.trim().length > 0, 'a symbol has a name');
    assert.ok(contains(symbol.range, symbol.selectionRange), `selectionRange inside range: ${symbol.name}`);
    assert.ok(inText(symbol.range), `symbol inside the text: ${symbol.name}`);
    if (parent) assert.ok(contains(parent.range, symbol.range), `${symbol.name} inside ${parent.name}`);
    symbol.children?.forEach((child) => checkSymbol(child, symbol));
  };
  documentSymbols(doc).forEach((symbol) => checkSymbol(symbol));
  documentSymbols(doc, { maxPapers: 1 }).forEach((symbol) => checkSymbol(symbol));
  for (const range of foldingRanges(doc)) {
    assert.ok(range.startLine <= range.endLine && range.endLine < lines.length, 'folding range inside the text');
  }
  // Semantic tokens: sorted, not overlapping, each within its line.
  const data = semanticTokens(doc).data;
  assert.equal(data.length % 5, 0);
  let line = 0;
  let character = 0;
  let previousEnd = -1;
  for (let i = 0; i < data.length; i += 5) {
    const [deltaLine, deltaStart, length] = data.slice(i, i + 3);
    assert.ok(deltaLine >= 0 && length > 0, 'tokens move forward');
    if (deltaLine > 0) {
      line += deltaLine;
      character = deltaStart;
      previousEnd = -1;
    } else {
      character += deltaStart;
    }
    assert.ok(character >= previousEnd, 'tokens do not overlap');
    previousEnd = character + length;
    assert.ok(line < lines.length && previousEnd <= lines[line].text.length, 'a token lies within its line');
  }
  const diagnostics = computeDiagnostics(doc, { uri: 'file:///p.digest', docsBase: 'file:///docs/' });
  for (const diagnostic of diagnostics) {
    // An empty place is widened by one character so that editors show it.
    assert.ok(inText(diagnostic.range, 1), `${diagnostic.code} inside the text`);
    codeActions(doc, { uri: 'file:///p.digest', version: 1 }, { range: diagnostic.range, diagnostics: [diagnostic] });
  }
  fixAll(doc);
  // Hovers at the start, the middle and the end of every line, and past the end.
  for (let l = 0; l <= Math.min(lines.length, 40); l++) {
    const length = l < lines.length ? lines[l].text.length : 0;
    for (const c of [0, length >> 1, length, length + 3]) {
      const answer = hover(doc, { line: l, character: c });
      if (answer?.range) assert.ok(inText(answer.range), 'hover range inside the text');
    }
  }
}


/**
 * Applies a random edit to a document: `at` is where it starts as a fraction of the text, `remove`
 * how many characters it removes there, `insert` what it puts in their place. Returns the document
 * after it and the change as an editor sends it over LSP.
 *
 * @example
 * applyEdit(TextDocument.create('file:///a.digest', 'paper-digest', 1, 'ab'), { at: 0.5, remove: 1, insert: 'x' }).document.getText() // 'ax'
 */
export function applyEdit(document: TextDocument, e: { at: number; remove: number; insert: string }): { document: TextDocument; change: ContentChange } {
  const length = document.getText().length;
  const start = Math.min(length, Math.floor(e.at * (length + 1)));
  const end = Math.min(length, start + e.remove);
  const change = { range: { start: document.positionAt(start), end: document.positionAt(end) }, text: e.insert };
  return { document: TextDocument.update(document, [change], document.version + 1), change };
}

/**
 * Applies the edits of one event in turn, as a multi-cursor edit sends them: each change's range
 * is in the text after the changes before it. Returns the document after them and the changes.
 */
export function applyEvent(document: TextDocument, edits: readonly { at: number; remove: number; insert: string }[]): { document: TextDocument; changes: ContentChange[] } {
  const changes: ContentChange[] = [];
  for (const e of edits) {
    const applied = applyEdit(document, e);
    document = applied.document;
    changes.push(applied.change);
  }
  return { document, changes };
}
