/**
 * Selection ranges (expand selection): word → field value → field → entry → file, with the
 * parts of a field in between where it has them (an institution's name, then the item; a hit's
 * keyword, then the hit).
 */
import type { Position, Range, SelectionRange } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Field, Span } from '../model';
import { entryAt, fieldAt } from './entries';
import { isPosition } from '../edits';

/** Lines longer than this get the line, the entry and the file, without words. */
const MAX_WORD_LINE = 100_000;

/**
 * One selection range per position, innermost first; an empty list when a position lies outside
 * the text (LSP wants each position inside its range, which no range can be for such a position,
 * and one range per position: none can be given for the others either).
 *
 * @example
 * // On `Kyoto` in `机构 * Kyoto University（京都大学） ； ...`:
 * selectionRanges(doc, [{ line: 8, character: 7 }])[0]
 * // { range: <Kyoto>, parent: { range: <Kyoto University>, parent: { range: <Kyoto University（京都大学）>,
 * //   parent: { range: <the items>, parent: { range: <the line>, parent: { range: <entry>, parent: { range: <file> } } } } } } }
 */
export function selectionRanges(doc: DigestDocument, positions: readonly Position[], token: Cancellation = NEVER_CANCELLED): SelectionRange[] {
  const result: SelectionRange[] = [];
  for (const position of positions) {
    if (token.isCancellationRequested || !inside(doc, position)) {
      return [];
    }
    result.push(chainAt(doc, position));
  }
  return result;
}

function inside(doc: DigestDocument, position: Position): boolean {
  return isPosition(position) && position.line < doc.lines.length && position.character <= doc.lines[position.line].text.length;
}

function chainAt(doc: DigestDocument, position: Position): SelectionRange {
  const ranges: Range[] = [];
  const lineText = doc.lines[position.line].text;
  const entry = entryAt(doc, position);
  const field = entry && fieldAt(entry, position);
  if (lineText.length <= MAX_WORD_LINE) {
    const word = wordAt(position.line, lineText, position.character);
    if (word) {
      ranges.push(word);
    }
  }
  if (field) {
    ranges.push(...partsAt(field, position));
    ranges.push(field.range);
  } else if (doc.heading && doc.heading.range.start.line === position.line) {
    ranges.push(doc.heading.range);
  } else {
    ranges.push(line(position.line, 0, lineText.length));
  }
  if (entry) {
    ranges.push(entry.range);
  }
  const last = doc.lines.length - 1;
  ranges.push({ start: { line: 0, character: 0 }, end: { line: last, character: doc.lines[last].text.length } });
  return nest(ranges, position);
}

/** The parts of a field around the position, innermost first: its pieces, then its value. */
function partsAt(field: Field, position: Position): Range[] {
  const found: Range[] = [];
  const add = (span: Span | Range | undefined): void => {
    const range = span && 'range' in span ? span.range : span;
    if (range && contains(range, position)) {
      found.push(range);
    }
  };
  switch (field.kind) {
    case 'englishTitle':
    case 'chineseTitle':
      add(field.value);
      break;
    case 'authors':
      field.names.forEach(add);
      add(spanning(field.names));
      break;
    case 'institutions':
      if (field.authorPairs) {
        for (const pair of field.authorPairs) {
          add(pair.english);
          add(pair.chinese);
        }
      } else {
        for (const item of field.items) {
          add(item.name);
          add(item.translation);
          add(item.range);
        }
        add(spanning(field.items));
      }
      break;
    case 'topicHits':
      add(field.topic);
      for (const hit of field.hits) {
        add(hit.keyword);
        add(hit.field);
        add(hit.range);
      }
      add(spanning(field.hits));
      field.categories.forEach(add);
      add(spanning(field.categories));
      break;
    default:
      add(field.value);
      break;
  }
  return found;
}

/** The range from the first item's start to the last one's end. */
function spanning(items: readonly { readonly range: Range }[]): Range | undefined {
  return items.length === 0 ? undefined : { start: items[0].range.start, end: items[items.length - 1].range.end };
}

/** The word at a character: a run of letters, digits and `-._'`, or of CJK characters. */
function wordAt(lineNumber: number, text: string, character: number): Range | undefined {
  const isWord = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_\-.'’]/u.test(c) && !/[\u3000-\u303f\uff00-\uffef]/.test(c);
  const cjk = (c: string | undefined): boolean => c !== undefined && /[\u3400-\u9fff\uf900-\ufaff]/.test(c);
  let at = character;
  if (!isWord(text[at]) && isWord(text[at - 1])) {
    at--;
  }
  if (!isWord(text[at])) {
    return undefined;
  }
  const kind = cjk(text[at]);
  let start = at;
  while (start > 0 && isWord(text[start - 1]) && cjk(text[start - 1]) === kind) start--;
  let end = at + 1;
  while (end < text.length && isWord(text[end]) && cjk(text[end]) === kind) end++;
  // A word does not end in a sentence's full stop.
  while (end > start + 1 && text[end - 1] === '.') end--;
  return line(lineNumber, start, end);
}

/** Links the ranges innermost first, each strictly inside the next; ranges that do not nest are left out. */
function nest(ranges: readonly Range[], position: Position): SelectionRange {
  const kept: Range[] = [];
  for (const range of ranges) {
    const previous = kept[kept.length - 1];
    if (!contains(range, position) || (previous && (!encloses(range, previous) || same(range, previous)))) {
      continue;
    }
    kept.push(range);
  }
  let result: SelectionRange | undefined;
  for (let i = kept.length - 1; i >= 0; i--) {
    result = result ? { range: kept[i], parent: result } : { range: kept[i] };
  }
  return result!;
}

function line(lineNumber: number, start: number, end: number): Range {
  return { start: { line: lineNumber, character: start }, end: { line: lineNumber, character: end } };
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

function contains(range: Range, position: Position): boolean {
  return before(range.start, position) && before(position, range.end);
}

function encloses(outer: Range, inner: Range): boolean {
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

function same(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
