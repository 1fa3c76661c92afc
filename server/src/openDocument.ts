/**
 * The text of an open document as the server keeps it: what `TextDocument.create` and
 * `TextDocument.update` (vscode-languageserver-textdocument) give, the same text and the same
 * positions, made so that a keystroke in a big document costs little:
 *
 * - the line starts are an `Int32Array`, found by `indexOf` (not character by character in
 *   script: about 15 ms for the 140,000 lines of an 8.6 MB digest, the first keystroke's) and
 *   moved in place by an edit;
 * - in Node, once a document of at least `UNITS_FROM` characters is edited, its characters are
 *   also kept in a buffer (Latin-1, or UTF-16 once the text needs it) that an edit changes in
 *   place, and each version's string is copied from it. Joining the pieces of the text as
 *   strings gives a string V8 copies whole into new memory the first time it is read, and on
 *   this machine the page faults of those 11 MB were most of a keystroke's 6 ms; a copy from
 *   the buffer goes into memory the allocator hands out again (about 1.3 ms).
 *
 * The text is exactly the one `TextDocument.update` makes from the same changes (a property
 * test compares them after random edits, line ends of every kind included).
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { forEachLineEnd } from './service/limits';

/** One change as LSP sends it: a range and its replacement, or the whole new text. */
export type DocumentChange = { range: Range; rangeLength?: number; text: string } | { text: string };

/** Documents of at least this many characters keep their characters in a buffer once edited. */
const UNITS_FROM = 1 << 18;

/** Node's Buffer, where there is one (the web worker's server has none and joins strings). */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/**
 * The text of an open document.
 *
 * @example
 * const document = OpenDocument.create('file:///a.digest', 'paper-digest', 1, 'A\nB');
 * OpenDocument.update(document, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'x' }], 2);
 * document.getText(); // 'A\nxB'
 */
export class OpenDocument implements TextDocument {
  private content: string;
  private documentVersion: number;
  /** Where each line starts, for the first `lineTotal` lines; undefined until asked for. */
  private starts: Int32Array<ArrayBuffer> | undefined;
  private lineTotal = 0;
  /** The characters, once the document was edited (Node, big documents): `encoding` gives their width. */
  private units: Buffer | undefined;
  private encoding: 'latin1' | 'utf16le' = 'latin1';

  private constructor(
    readonly uri: string,
    readonly languageId: string,
    version: number,
    content: string,
    private readonly unitsFrom: number,
  ) {
    this.content = content;
    this.documentVersion = version;
  }

  /** As `TextDocument.create`; `unitsFrom` (for tests) the size from which an edited text keeps its characters in a buffer. */
  static create(uri: string, languageId: string, version: number, content: string, unitsFrom = UNITS_FROM): OpenDocument {
    return new OpenDocument(uri, languageId, version, content, unitsFrom);
  }

  /** As `TextDocument.update`: applies the changes in order, returns the same document. */
  static update(document: OpenDocument, changes: readonly DocumentChange[], version: number): OpenDocument {
    document.update(changes, version);
    return document;
  }

  get version(): number {
    return this.documentVersion;
  }

  get lineCount(): number {
    return this.lines().count;
  }

  getText(range?: Range): string {
    if (range) {
      return this.content.substring(this.offsetAt(range.start), this.offsetAt(range.end));
    }
    return this.content;
  }

  offsetAt(position: Position): number {
    const { starts, count } = this.lines();
    if (position.line >= count) {
      return this.content.length;
    } else if (position.line < 0) {
      return 0;
    }
    const lineOffset = starts[position.line];
    if (position.character <= 0) {
      return lineOffset;
    }
    const nextLineOffset = position.line + 1 < count ? starts[position.line + 1] : this.content.length;
    return this.beforeLineEnd(Math.min(lineOffset + position.character, nextLineOffset), lineOffset);
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.content.length), 0);
    const { starts, count } = this.lines();
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (starts[mid] > offset) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    const line = low - 1;
    return { line, character: this.beforeLineEnd(offset, starts[line]) - starts[line] };
  }

  getLineRange(line: number): Range {
    const { starts, count } = this.lines();
    if (line >= count) {
      const last = count - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.content.length - starts[last] } };
    } else if (line < 0) {
      return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    }
    const next = line + 1 < count ? starts[line + 1] : this.content.length;
    return { start: { line, character: 0 }, end: { line, character: this.beforeLineEnd(next, starts[line]) - starts[line] } };
  }

  getEOLCharacters(line: number): string {
    const { starts, count } = this.lines();
    if (line >= count || line < 0) {
      return '';
    }
    const next = line + 1 < count ? starts[line + 1] : this.content.length;
    return this.content.substring(this.beforeLineEnd(next, starts[line]), next);
  }

  private update(changes: readonly DocumentChange[], version: number): void {
    for (const change of changes) {
      if (isIncremental(change)) {
        this.replace(change.range, change.text);
      } else if (isFull(change)) {
        this.content = change.text;
        this.starts = undefined;
        this.units = undefined;
      } else {
        throw new Error('Unknown change event received');
      }
    }
    this.documentVersion = version;
  }

  /** Replaces a range (either way round) of the text. */
  private replace(given: Range, text: string): void {
    const range = wellFormed(given);
    const start = this.offsetAt(range.start);
    const end = this.offsetAt(range.end);
    const lines = this.starts ? this.lines() : undefined;
    this.content = this.units || this.content.length >= this.unitsFrom ? this.replaceUnits(start, end, text) : this.content.substring(0, start) + text + this.content.substring(end);
    const content = this.content;
    const insertedEnd = start + text.length;
    // A CRLF that an edit's boundary joins or splits: the line starts are found again when asked.
    if ((content.charCodeAt(start - 1) === 0x0d && content.charCodeAt(start) === 0x0a) || (content.charCodeAt(insertedEnd - 1) === 0x0d && content.charCodeAt(insertedEnd) === 0x0a)) {
      this.starts = undefined;
      return;
    }
    if (lines) {
      this.moveLines(start, end, text);
    }
  }

  /** The line starts after `[start, end)` became `text` (the lines of the text before it still known). */
  private moveLines(start: number, end: number, text: string): void {
    const starts = this.starts!;
    const count = this.lineTotal;
    const startLine = lineOf(starts, count, start);
    const endLine = lineOf(starts, count, end);
    const added = lineStarts(text, false, start);
    const total = count - (endLine - startLine) + added.count;
    const target = total <= starts.length ? starts : grown(starts, total);
    const diff = text.length - (end - start);
    // The lines after the edit move (in place, or in the grown copy), then the added ones go in.
    target.copyWithin(startLine + 1 + added.count, endLine + 1, count);
    target.set(added.starts.subarray(0, added.count), startLine + 1);
    if (diff !== 0) {
      for (let i = startLine + 1 + added.count; i < total; i++) target[i] += diff;
    }
    this.starts = target;
    this.lineTotal = total;
  }

  /** Changes the kept characters in place and copies the new text's string from them. */
  private replaceUnits(start: number, end: number, text: string): string {
    if (!NodeBuffer) {
      return this.content.substring(0, start) + text + this.content.substring(end);
    }
    const length = this.content.length - (end - start) + text.length;
    if (!this.units || (this.encoding === 'latin1' && !isLatin1(text))) {
      this.encoding = isLatin1(this.content) && isLatin1(text) ? 'latin1' : 'utf16le';
      this.units = undefined;
    }
    const width = this.encoding === 'latin1' ? 1 : 2;
    let units = this.units;
    if (!units || units.length < length * width) {
      // Room for some growth, so that typing does not allocate a new buffer each time.
      const next = NodeBuffer.allocUnsafe((length + (length >> 4) + 1024) * width);
      next.write(this.content, 0, this.content.length * width, this.encoding);
      units = this.units = next;
    }
    units.copyWithin((start + text.length) * width, end * width, this.content.length * width);
    units.write(text, start * width, text.length * width, this.encoding);
    return units.toString(this.encoding, 0, length * width);
  }

  /** Steps back from `offset` over line-end characters, not before `lineOffset`. */
  private beforeLineEnd(offset: number, lineOffset: number): number {
    while (offset > lineOffset && isLineEnd(this.content.charCodeAt(offset - 1))) {
      offset--;
    }
    return offset;
  }

  private lines(): { starts: Int32Array<ArrayBuffer>; count: number } {
    if (!this.starts) {
      const found = lineStarts(this.content, true, 0);
      this.starts = found.starts;
      this.lineTotal = found.count;
    }
    return { starts: this.starts, count: this.lineTotal };
  }
}

/** Whether every character of a text is below U+0100 (so Latin-1 holds it). */
function isLatin1(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[^\u0000-\u00ff]/.test(text);
}

function isLineEnd(c: number): boolean {
  return c === 0x0d || c === 0x0a;
}

/**
 * Where the lines of `text` start, plus `offset`: after each `\r\n`, `\n` or `\r`, and at 0 too
 * when `atLineStart` (as vscode-languageserver-textdocument's `computeLineOffsets`).
 */
function lineStarts(text: string, atLineStart: boolean, offset: number): { starts: Int32Array<ArrayBuffer>; count: number } {
  let starts = new Int32Array(Math.max(8, (text.length >> 5) + 2));
  let count = 0;
  if (atLineStart) starts[count++] = offset;
  forEachLineEnd(text, (next) => {
    if (count === starts.length) starts = grown(starts, count + 1);
    starts[count++] = offset + next;
  });
  return { starts, count };
}

/** A table with room for at least `size` line starts, holding those of `starts`. */
function grown(starts: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(size, starts.length * 2));
  next.set(starts);
  return next;
}

/** The line of `offset`: the last of the first `count` lines that starts at or before it. */
function lineOf(starts: Int32Array, count: number, offset: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

function isIncremental(change: DocumentChange): change is { range: Range; rangeLength?: number; text: string } {
  const candidate = change as { range?: Range; rangeLength?: unknown; text?: unknown } | null | undefined;
  return candidate !== undefined && candidate !== null && typeof candidate.text === 'string' && candidate.range !== undefined && (candidate.rangeLength === undefined || typeof candidate.rangeLength === 'number');
}

function isFull(change: DocumentChange): change is { text: string } {
  const candidate = change as { range?: Range; rangeLength?: unknown; text?: unknown } | null | undefined;
  return candidate !== undefined && candidate !== null && typeof candidate.text === 'string' && candidate.range === undefined && candidate.rangeLength === undefined;
}
