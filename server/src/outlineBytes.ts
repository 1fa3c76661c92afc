/**
 * The outline's JSON bytes, written straight from the model's entries, with no symbol object
 * made for a paper (symbols.ts makes the same outline as objects, for the web worker and the
 * tests), and made from the previous version's: after a keystroke every paper the edit did not
 * touch or move is the same entry object with the same range, and its bytes are copied from the
 * last answer (runs of such papers in one copy); only the papers in between are written.
 *
 * A paper is written member by member (`name`, `kind`, `range`, `selectionRange`, as symbols.ts
 * makes a paper's symbol) into one buffer of exactly the answer's size, as ASCII (below), so that
 * where each paper starts is known as it is written: no `JSON.stringify` of 3 MB, no UTF-16 string
 * of it to encode as UTF-8, no search for the papers' starts. The heading's symbol and the symbol
 * counting the papers not shown are written by `JSON.stringify` (made ASCII).
 *
 * What is kept of a document's last outline: its bytes (those of the answer, `PreEncoded`), and per
 * paper its entry object, its range and where its bytes are: about 36 bytes a paper, where the
 * symbols of 10,000 papers with their ranges and names were 4 MB.
 *
 * Exact by construction: an entry's bytes depend only on its titles, its number, its range and its
 * title's range, and an entry object keeps its fields (an edit makes new entries for what it
 * touched; incremental.ts moves the others, changing their range). The unit tests check the
 * bytes against `JSON.stringify(documentSymbols(model))` after random edit sequences and against
 * fresh parses.
 *
 * Node only (Buffer); the web worker's server sends objects (browser/serialised.ts).
 */
import type { Range } from 'vscode-languageserver-types';
import { SymbolKind } from 'vscode-languageserver-types';
import type { Cancellation } from './service/cancellation';
import { NEVER_CANCELLED } from './service/cancellation';
import type { DigestDocument, Entry } from './service/model';
import { EntryNode } from './service/nodes';
import { documentSymbols, outlineFrame, paperSelectionRange, paperSymbolLabel, SymbolOptions } from './service/features/symbols';
import { digits, HEAD_ROOM, PreEncoded, writeCount } from './preEncoded';
import { isLabelUnsafeUnit } from './service/text';

/** The papers of one encoded outline: their entries and ranges, and where their bytes are. */
interface EncodedPapers {
  readonly entries: readonly Entry[];
  /** Whether the untitled papers were named in Chinese. */
  readonly zh: boolean;
  /** Per paper: start line, start character, end line, end character of its range. */
  readonly ranges: Int32Array;
  readonly bytes: Buffer;
  /** Where paper i starts in `bytes`, and where it ends. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

const COMMA = 0x2c;

/**
 * Encodes outlines, per document, reusing the bytes of the papers kept since its last outline.
 *
 * @example
 * const outlines = new OutlineBytes();
 * outlines.encode(uri, model);     // the whole outline written
 * outlines.encode(uri, nextModel); // the kept papers' bytes copied
 */
export class OutlineBytes {
  private readonly last = new Map<string, EncodedPapers>();
  /** For tests: how many papers the last `encode` wrote and how many it copied. */
  lastStatistics = { encoded: 0, copied: 0 };

  /**
   * The outline of a model (`documentSymbols(doc, options)`) as ASCII JSON, with room around it
   * for the JSON-RPC response; undefined when cancelled meanwhile.
   */
  encode(uri: string, doc: DigestDocument, options: SymbolOptions = {}, token: Cancellation = NEVER_CANCELLED): PreEncoded | undefined {
    const frame = outlineFrame(doc, options);
    const zh = options.language === 'zh-cn';
    const count = frame.count;
    const entries = doc.entries;
    let open = '[';
    let close = ']';
    if (frame.root) {
      // `{…}` without its closing brace, then the children.
      open = '[' + asciiJson(JSON.stringify(frame.root)).slice(0, -1) + ',"children":[';
      close = ']}]';
    }
    const more = frame.more ? asciiJson(JSON.stringify(frame.more)) : '';

    // Which papers are kept (the same entry, at the same place, with the same range, named in the
    // same language), and the name, range and size of the others.
    const before = this.last.get(uri);
    const old = before && before.zh === zh ? before : undefined;
    const ranges = new Int32Array(count * 4);
    const written: (PaperWritten | undefined)[] = new Array(count);
    let size = HEAD_ROOM + open.length + close.length + 1 + Math.max(0, count - 1) + (more ? more.length + (count > 0 ? 1 : 0) : 0);
    let encoded = 0;
    for (let i = 0; i < count; i++) {
      if ((i & 1023) === 0 && token.isCancellationRequested) {
        return undefined;
      }
      const entry = entries[i];
      rangeOf(entry, ranges, i * 4);
      if (old && i < old.entries.length && old.entries[i] === entry && entry.index === i && sameRange(old.ranges, ranges, i * 4)) {
        size += old.ends[i] - old.starts[i];
        continue;
      }
      const paper = { name: paperSymbolLabel(entry, options.language), selection: paperSelectionRange(entry) };
      written[i] = paper;
      size += paperSize(paper, ranges, i * 4);
      encoded++;
    }

    const answer = Buffer.allocUnsafe(size);
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    let at = HEAD_ROOM;
    at += answer.write(open, at, 'latin1');
    const jsonStart = HEAD_ROOM;
    for (let i = 0; i < count; ) {
      if (i > 0) answer[at++] = COMMA;
      const paper = written[i];
      if (paper) {
        starts[i] = at;
        at = writePaper(answer, at, paper, ranges, i * 4);
        ends[i] = at;
        i++;
        continue;
      }
      // A run of kept papers, copied at once (with the commas between them).
      let last = i;
      while (last + 1 < count && written[last + 1] === undefined) last++;
      const from = old!.starts[i];
      const shift = at - from;
      old!.bytes.copy(answer, at, from, old!.ends[last]);
      for (let k = i; k <= last; k++) {
        starts[k] = old!.starts[k] + shift;
        ends[k] = old!.ends[k] + shift;
      }
      at += old!.ends[last] - from;
      i = last + 1;
    }
    if (more) {
      if (count > 0) answer[at++] = COMMA;
      at += answer.write(more, at, 'latin1');
    }
    at += answer.write(close, at, 'latin1');
    if (at + 1 !== size) {
      // Cannot happen (the sizes are those written); were one wrong, the answer is still right.
      this.last.delete(uri);
      this.lastStatistics = { encoded: count, copied: 0 };
      return PreEncoded.of(documentSymbols(doc, options));
    }
    this.last.set(uri, { entries: entries.slice(0, count), zh, ranges, bytes: answer, starts, ends });
    this.lastStatistics = { encoded, copied: count - encoded };
    return new PreEncoded(answer, jsonStart, at);
  }

  /** Forgets a document's last outline (it was closed). */
  delete(uri: string): void {
    this.last.delete(uri);
  }
}

/** What is written of a paper that is not copied: its symbol's name and selection range. */
interface PaperWritten {
  readonly name: string;
  readonly selection: Range;
}

/** Puts an entry's range into `out` at `at` (four numbers), without making the range for an entry of the parser's. */
function rangeOf(entry: Entry, out: Int32Array, at: number): void {
  if (entry instanceof EntryNode) {
    const line = entry.line;
    out[at] = line;
    out[at + 1] = line === 0 && entry.src.bom ? 1 : 0;
    out[at + 2] = line + entry.lastRel;
    out[at + 3] = entry.lastEnd;
    return;
  }
  const range = entry.range;
  out[at] = range.start.line;
  out[at + 1] = range.start.character;
  out[at + 2] = range.end.line;
  out[at + 3] = range.end.character;
}

function sameRange(a: Int32Array, b: Int32Array, at: number): boolean {
  return a[at] === b[at] && a[at + 1] === b[at + 1] && a[at + 2] === b[at + 2] && a[at + 3] === b[at + 3];
}

// ---- Writing one symbol ----------------------------------------------------------------------


// ---- Strings as ASCII JSON ---------------------------------------------------------------------
//
// Every character outside ASCII is written as a `\uXXXX` escape: the answer is pure ASCII, which
// a client turns into a string at memory speed, where decoding the UTF-8 of Chinese titles is
// its slowest step (about 7 of the 16 ms an outline of 10,000 papers takes to decode; escaped, it
// is 2 ms of decoding and 1 ms more of parsing, for 18% more bytes). JSON.parse gives the same
// strings either way.

/** The bytes of a character in a JSON string: 1, 2 for `\"` and `\\`, 6 for a `\uXXXX` escape. */
function charSize(c: number): number {
  return c >= 0x20 && c < 0x7f ? (c === 0x22 || c === 0x5c ? 2 : 1) : 6;
}

/** A character that a JSON string does not hold as itself in ASCII: `"`, `\`, a control character, or one outside ASCII. */
const ESCAPED = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * How many characters a string starts with that are written as they are (its English title,
 * before the separator): found by a regular expression and written by Buffer's latin1 encoder,
 * not character by character in script, which is slow while the code is new (the first outline).
 */
function plainPrefix(text: string): number {
  const at = text.search(ESCAPED);
  return at < 0 ? text.length : at;
}

/** The size of a string written as ASCII JSON, quotes included. */
function stringSize(text: string): number {
  const plain = plainPrefix(text);
  let size = 2 + plain;
  for (let i = plain; i < text.length; i++) size += charSize(text.charCodeAt(i));
  return size;
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * Writes a name as ASCII JSON at `at`, with the characters `labelSafe` replaces written as U+FFFD
 * (as `documentSymbols` names it; the same size, six bytes each); returns where it ends.
 */
function writeString(out: Buffer, at: number, text: string): number {
  out[at++] = 0x22;
  const plain = plainPrefix(text);
  if (plain > 0) at += out.write(text, at, plain, 'latin1');
  for (let i = plain; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      // A pair is written as it is, a lone half as U+FFFD.
      const low = text.charCodeAt(i + 1);
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        at = writeEscape(out, at, c);
        c = low;
        i++;
      } else {
        c = 0xfffd;
      }
    } else if (isLabelUnsafeUnit(c)) {
      c = 0xfffd;
    }
    if (c >= 0x20 && c < 0x7f) {
      if (c === 0x22 || c === 0x5c) out[at++] = 0x5c;
      out[at++] = c;
    } else {
      at = writeEscape(out, at, c);
    }
  }
  out[at++] = 0x22;
  return at;
}

/** Writes `\uXXXX` for a UTF-16 code unit at `at`; returns where it ends. */
function writeEscape(out: Buffer, at: number, c: number): number {
  out[at] = 0x5c;
  out[at + 1] = 0x75;
  out[at + 2] = HEX[c >> 12];
  out[at + 3] = HEX[(c >> 8) & 15];
  out[at + 4] = HEX[(c >> 4) & 15];
  out[at + 5] = HEX[c & 15];
  return at + 6;
}

/** JSON text made ASCII: the characters outside it escaped (they can only stand inside strings). */
export function asciiJson(json: string): string {
  // eslint-disable-next-line no-control-regex
  return json.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// ---- Writing one symbol ----------------------------------------------------------------------

// The fixed parts of a paper's symbol, in the order JSON.stringify writes one made by symbols.ts.
const NAME = Buffer.from('{"name":', 'latin1');
const KIND = Buffer.from(`,"kind":${SymbolKind.Class}`, 'latin1');
const RANGE = Buffer.from(',"range":', 'latin1');
const SELECTION_RANGE = Buffer.from(',"selectionRange":', 'latin1');
const START_LINE = Buffer.from('{"start":{"line":', 'latin1');
const CHARACTER = Buffer.from(',"character":', 'latin1');
const END_LINE = Buffer.from('},"end":{"line":', 'latin1');
const RANGE_CLOSE = Buffer.from('}}', 'latin1');
const RANGE_FIXED = START_LINE.length + 2 * CHARACTER.length + END_LINE.length + RANGE_CLOSE.length;

/** Writes a few ASCII bytes at `at` (a loop: `set` costs more for a dozen bytes); returns where they end. */
function put(out: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) out[at + i] = bytes[i];
  return at + bytes.length;
}

/** The size of a paper's symbol as `writePaper` writes it; its range is `ranges[at…at+3]`. */
function paperSize(paper: PaperWritten, ranges: Int32Array, at: number): number {
  const selection = paper.selection;
  return (
    NAME.length +
    stringSize(paper.name) +
    KIND.length +
    RANGE.length +
    RANGE_FIXED +
    digits(ranges[at]) +
    digits(ranges[at + 1]) +
    digits(ranges[at + 2]) +
    digits(ranges[at + 3]) +
    SELECTION_RANGE.length +
    RANGE_FIXED +
    digits(selection.start.line) +
    digits(selection.start.character) +
    digits(selection.end.line) +
    digits(selection.end.character) +
    1
  );
}

/** Writes a paper's symbol at `at`; returns where it ends. */
function writePaper(out: Buffer, at: number, paper: PaperWritten, ranges: Int32Array, from: number): number {
  at = put(out, at, NAME);
  at = writeString(out, at, paper.name);
  at = put(out, at, KIND);
  at = put(out, at, RANGE);
  at = writeRange(out, at, ranges[from], ranges[from + 1], ranges[from + 2], ranges[from + 3]);
  at = put(out, at, SELECTION_RANGE);
  const selection = paper.selection;
  at = writeRange(out, at, selection.start.line, selection.start.character, selection.end.line, selection.end.character);
  out[at++] = 0x7d;
  return at;
}

function writeRange(out: Buffer, at: number, startLine: number, startCharacter: number, endLine: number, endCharacter: number): number {
  at = put(out, at, START_LINE);
  at = writeCount(out, at, startLine);
  at = put(out, at, CHARACTER);
  at = writeCount(out, at, startCharacter);
  at = put(out, at, END_LINE);
  at = writeCount(out, at, endLine);
  at = put(out, at, CHARACTER);
  at = writeCount(out, at, endCharacter);
  out[at++] = 0x7d;
  out[at++] = 0x7d;
  return at;
}
