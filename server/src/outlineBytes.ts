/**
 * The outline's JSON bytes, written straight from the model's entries, with no symbol object
 * made for a paper (symbols.ts makes the same outline as objects, for the web worker and the
 * tests), and made from the previous version's: after a keystroke every paper the edit did not
 * touch or move is the same entry object with the same range, and its bytes are copied from the
 * last answer (runs of such papers in one copy); only the papers in between are written.
 *
 * A paper is written member by member (`name`, `kind`, `range`, `selectionRange`, as symbols.ts
 * makes a paper's symbol) as ASCII (below), its name from its titles without making the joined
 * string, into a scratch buffer as it is found, so that where each paper starts is known as it is
 * written; then the answer, of exactly its size, is put together from runs of those bytes and of
 * the kept ones: no `JSON.stringify` of 3 MB, no UTF-16 string of it to encode as UTF-8, no search
 * for the papers' starts, no pass over the names to size them. The heading's symbol and the symbol
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
import { documentSymbols, MAX_NAME_LENGTH, outlineFrame, paperSelectionRange, paperSymbolLabel, SymbolOptions, TITLE_SEPARATOR } from './service/features/symbols';
import { HEAD_ROOM, PreEncoded, writeCount } from './preEncoded';
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
const EMPTY = Buffer.alloc(0);
/** The scratch buffer of a first outline, a paper: most are about 400 bytes; it grows if need be. */
const FIRST_SCRATCH_PER_PAPER = 512;
/** The largest scratch buffer kept between outlines. */
const KEPT_SCRATCH_BYTES = 64 * 1024;

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
  /** Where the papers not copied are written before the answer's size is known (kept when small). */
  private scratch: Buffer = EMPTY;
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
    // same language); the others are written as they are found, into the scratch buffer, with a
    // comma before each that follows another written one, so that a run of them is one copy.
    const before = this.last.get(uri);
    const old = before && before.zh === zh ? before : undefined;
    const ranges = new Int32Array(count * 4);
    const wrote = new Uint8Array(count);
    const scratchStarts = new Int32Array(count);
    const scratchEnds = new Int32Array(count);
    // A first outline writes every paper: room for all of them at once (not a small buffer kept
    // from another document's keystrokes, doubled again and again); a keystroke, a few.
    let scratch = old || this.scratch.length >= count * FIRST_SCRATCH_PER_PAPER ? this.scratch : Buffer.allocUnsafe(count * FIRST_SCRATCH_PER_PAPER);
    let s = 0;
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
      // The name as `paperSymbolLabel` makes it: both titles, written one after the other, when
      // they are not cut; otherwise the label itself.
      const english = entry.englishTitle?.value.text ?? '';
      const chinese = entry.chineseTitle?.value.text ?? '';
      const length = english.length + TITLE_SEPARATOR.length + chinese.length;
      const name = length <= MAX_NAME_LENGTH && english.trim() && chinese.trim() ? undefined : paperSymbolLabel(entry, options.language);
      const most = PAPER_MOST_BYTES + 6 * (name === undefined ? length : name.length);
      if (s + most > scratch.length) {
        const grown = Buffer.allocUnsafe(Math.max(scratch.length * 2, s + most));
        scratch.copy(grown, 0, 0, s);
        scratch = grown;
      }
      if (i > 0 && wrote[i - 1] === 1) scratch[s++] = COMMA;
      const from = s;
      s = writePaper(scratch, s, english, chinese, name, paperSelectionRange(entry), ranges, i * 4);
      wrote[i] = 1;
      scratchStarts[i] = from;
      scratchEnds[i] = s;
      size += s - from;
      encoded++;
    }
    // A big scratch buffer (the first outline's) is not kept: a keystroke writes a few papers.
    this.scratch = scratch.length <= KEPT_SCRATCH_BYTES ? scratch : EMPTY;

    const answer = Buffer.allocUnsafe(size);
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    let at = HEAD_ROOM;
    at += answer.write(open, at, 'latin1');
    const jsonStart = HEAD_ROOM;
    for (let i = 0; i < count; ) {
      if (i > 0) answer[at++] = COMMA;
      // A run of written papers or of kept ones, copied at once (with the commas between them).
      const written = wrote[i] === 1;
      let last = i;
      while (last + 1 < count && (wrote[last + 1] === 1) === written) last++;
      const source = written ? scratch : old!.bytes;
      const sourceStarts = written ? scratchStarts : old!.starts;
      const sourceEnds = written ? scratchEnds : old!.ends;
      const from = sourceStarts[i];
      const shift = at - from;
      source.copy(answer, at, from, sourceEnds[last]);
      for (let k = i; k <= last; k++) {
        starts[k] = sourceStarts[k] + shift;
        ends[k] = sourceEnds[k] + shift;
      }
      at += sourceEnds[last] - from;
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

// ---- Strings as ASCII JSON ---------------------------------------------------------------------
//
// Every character outside ASCII is written as a `\uXXXX` escape: the answer is pure ASCII, which
// a client turns into a string at memory speed, where decoding the UTF-8 of Chinese titles is
// its slowest step (about 7 of the 16 ms an outline of 10,000 papers takes to decode; escaped, it
// is 2 ms of decoding and 1 ms more of parsing, for 18% more bytes). JSON.parse gives the same
// strings either way.

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** A character that a JSON string does not hold as itself in ASCII: `"`, `\`, a control character, or one outside ASCII. */
const ESCAPED = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * Writes a name as ASCII JSON at `at` (its characters as `writeCharacters` writes them, in
 * quotes); returns where it ends.
 */
function writeString(out: Buffer, at: number, text: string): number {
  out[at++] = 0x22;
  at = writeCharacters(out, at, text);
  out[at++] = 0x22;
  return at;
}

/**
 * Writes the characters of a JSON string as ASCII at `at`, with the characters `labelSafe`
 * replaces written as U+FFFD (as `documentSymbols` names it), at most six bytes a character;
 * returns where they end. The characters it starts with that are written as they are (an English
 * title) are found by a regular expression and written by Buffer's latin1 encoder, not character
 * by character in script, which is slow while the code is new (the first outline).
 */
function writeCharacters(out: Buffer, at: number, text: string): number {
  const escaped = text.search(ESCAPED);
  const plain = escaped < 0 ? text.length : escaped;
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

/** The most bytes of a paper's symbol besides its name's characters (at most six bytes each); a comma before it included. */
const PAPER_MOST_BYTES = 1 + NAME.length + 2 + KIND.length + RANGE.length + SELECTION_RANGE.length + 2 * RANGE_FIXED + 8 * 10 + 1;

/**
 * Writes a paper's symbol at `at`, named `name`, or when that is undefined by its two titles
 * with the separator between them (the same characters, without making the string); its range is
 * `ranges[from…from+3]`. Returns where it ends.
 */
function writePaper(out: Buffer, at: number, english: string, chinese: string, name: string | undefined, selection: Range, ranges: Int32Array, from: number): number {
  at = put(out, at, NAME);
  if (name === undefined) {
    out[at++] = 0x22;
    at = writeCharacters(out, at, english);
    at = writeCharacters(out, at, TITLE_SEPARATOR);
    at = writeCharacters(out, at, chinese);
    out[at++] = 0x22;
  } else {
    at = writeString(out, at, name);
  }
  at = put(out, at, KIND);
  at = put(out, at, RANGE);
  at = writeRange(out, at, ranges[from], ranges[from + 1], ranges[from + 2], ranges[from + 3]);
  at = put(out, at, SELECTION_RANGE);
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
