/**
 * The outline's JSON bytes, written straight from the symbols and made from the previous
 * version's: after a keystroke the outline keeps the symbols of every paper the edit did not
 * touch or move (symbols.ts keeps one symbol object per entry), so the bytes of the papers before
 * the first changed symbol and after the last are copied from the last answer and only the
 * symbols in between are written.
 *
 * A paper symbol is written member by member into one buffer of exactly the answer's size
 * (`name`, `detail`, `kind`, `range`, `selectionRange`, the members LSP gives a DocumentSymbol
 * without children), as ASCII (below), so that where each symbol starts is known as it is
 * written: no `JSON.stringify` of 3 MB, no UTF-16 string of it to encode as UTF-8, no search for
 * the symbols' starts. A symbol of any other shape (children, tags, a member LSP does not know)
 * is written by `JSON.stringify`, and an outline whose papers have children is encoded whole.
 *
 * Exact by construction: a symbol object never changes once made (a changed paper gets a new
 * symbol), so the same object gives the same bytes (the unit tests check the bytes against
 * `JSON.stringify` of the outline after random edit sequences, and against fresh parses).
 *
 * Node only (Buffer); the web worker's server sends objects (browser/serialised.ts).
 */
import type { DocumentSymbol, Range } from 'vscode-languageserver-types';

/** The papers of one encoded outline: the symbols, their bytes and where each one starts. */
interface EncodedPapers {
  readonly symbols: readonly DocumentSymbol[];
  /** `symbol₀,symbol₁,…` as JSON: a view of the answer they were sent in. */
  readonly bytes: Buffer;
  /** Where symbol i starts in `bytes`; entry n is `bytes.length + 1` (past a comma that is not there). */
  readonly starts: Int32Array;
}

const COMMA = 0x2c;

/**
 * Encodes outlines, per document, reusing the bytes of the papers kept since its last outline.
 *
 * @example
 * const outlines = new OutlineBytes();
 * outlines.encode(uri, documentSymbols(model));     // the whole outline written
 * outlines.encode(uri, documentSymbols(nextModel)); // the kept papers' bytes copied
 */
export class OutlineBytes {
  private readonly last = new Map<string, EncodedPapers>();
  /** For tests: how many paper symbols the last `encode` wrote and how many it copied. */
  lastStatistics = { encoded: 0, copied: 0 };

  /**
   * The JSON (ASCII, so UTF-8 too) of an outline of `uri`: `JSON.parse` gives what
   * `JSON.stringify(outline)` would. With `head` and `tail` (the JSON-RPC response around
   * the outline), the buffer holds them too, so that the answer is not copied again to be sent.
   */
  encode(uri: string, outline: readonly DocumentSymbol[], head: Uint8Array = NOTHING, tail: Uint8Array = NOTHING): Buffer {
    // The outline is the heading's symbol with the papers as children, or the papers alone.
    const root = outline.length === 1 && Array.isArray(outline[0].children) ? outline[0] : undefined;
    const papers = root ? root.children! : outline;
    if (papers.some((paper) => paper.children !== undefined)) {
      // Not an outline of papers without children: not this encoder's to split.
      this.last.delete(uri);
      this.lastStatistics = { encoded: papers.length, copied: 0 };
      return around(head, Buffer.from(JSON.stringify(outline), 'utf8'), tail);
    }
    let open = '[';
    let close = ']';
    if (root) {
      const { children: _children, ...rest } = root;
      const head = JSON.stringify(rest);
      // `{…}` without its closing brace, then the children.
      open = '[' + head.slice(0, -1) + (head.length > 2 ? ',' : '') + '"children":[';
      close = ']}]';
    }
    const openBytes = Buffer.from(asciiJson(open), 'latin1');
    const closeBytes = Buffer.from(close, 'latin1');

    // What is kept from the last outline: a prefix and a suffix of the same symbol objects.
    const before = this.last.get(uri);
    let prefix = 0;
    let suffix = 0;
    if (before) {
      const old = before.symbols;
      const limit = Math.min(old.length, papers.length);
      while (prefix < limit && old[prefix] === papers[prefix]) prefix++;
      while (suffix < limit - prefix && old[old.length - 1 - suffix] === papers[papers.length - 1 - suffix]) suffix++;
    }
    const count = papers.length;
    const middleEnd = count - suffix;
    const prefixBytes = before && prefix > 0 ? before.bytes.subarray(0, before.starts[prefix] - 1) : undefined;
    const suffixBytes = before && suffix > 0 ? before.bytes.subarray(before.starts[before.symbols.length - suffix]) : undefined;

    // The size of each new symbol as written, and the answer's exact size. A symbol that is not
    // of the shape written member by member is written as JSON.stringify gives it.
    const sizes = new Int32Array(middleEnd - prefix);
    const whole = new Map<number, string>();
    // The commas between symbols, but for those inside the copied bytes.
    let size = head.length + openBytes.length + closeBytes.length + tail.length + Math.max(0, count - 1);
    if (prefixBytes) size += prefixBytes.length - (prefix - 1);
    if (suffixBytes) size += suffixBytes.length - (suffix - 1);
    for (let i = prefix; i < middleEnd; i++) {
      const symbol = papers[i];
      let symbolSize: number;
      if (isPlainSymbol(symbol)) {
        symbolSize = plainSymbolSize(symbol);
      } else {
        const json = asciiJson(JSON.stringify(symbol));
        whole.set(i, json);
        symbolSize = json.length;
      }
      sizes[i - prefix] = symbolSize;
      size += symbolSize;
    }

    const answer = Buffer.allocUnsafe(size);
    const starts = new Int32Array(count + 1);
    answer.set(head, 0);
    let at = head.length + openBytes.copy(answer, head.length);
    const papersStart = at;
    if (prefixBytes && before) {
      answer.set(prefixBytes, at);
      starts.set(before.starts.subarray(0, prefix));
      at += prefixBytes.length;
    }
    for (let i = prefix; i < middleEnd; i++) {
      if (i > 0) answer[at++] = COMMA;
      starts[i] = at - papersStart;
      const json = whole.size > 0 ? whole.get(i) : undefined;
      const end = json !== undefined ? at + answer.write(json, at, 'latin1') : writePlainSymbol(answer, at, papers[i]);
      if (end !== at + sizes[i - prefix]) {
        return this.fallback(uri, outline, head, tail);
      }
      at = end;
    }
    if (suffixBytes && before) {
      if (middleEnd > 0) answer[at++] = COMMA;
      const shift = at - papersStart - before.starts[before.symbols.length - suffix];
      for (let i = 0; i < suffix; i++) starts[middleEnd + i] = before.starts[before.symbols.length - suffix + i] + shift;
      answer.set(suffixBytes, at);
      at += suffixBytes.length;
    }
    const papersEnd = at;
    closeBytes.copy(answer, at);
    at += closeBytes.length;
    answer.set(tail, at);
    at += tail.length;
    if (at !== size) {
      return this.fallback(uri, outline, head, tail);
    }
    // The papers' bytes are a view of the answer: kept for the next one, not copied.
    const bytes = answer.subarray(papersStart, papersEnd);
    starts[count] = bytes.length + 1;
    this.last.set(uri, { symbols: papers.slice(), bytes, starts });
    this.lastStatistics = { encoded: middleEnd - prefix, copied: prefix + suffix };
    return answer;
  }

  /**
   * The whole outline by JSON.stringify, and nothing kept for the next: cannot happen (the sizes
   * are those written), but were a size wrong, the answer is still right.
   */
  private fallback(uri: string, outline: readonly DocumentSymbol[], head: Uint8Array, tail: Uint8Array): Buffer {
    this.last.delete(uri);
    this.lastStatistics = { encoded: outline.length, copied: 0 };
    return around(head, Buffer.from(JSON.stringify(outline), 'utf8'), tail);
  }

  /** Forgets a document's last outline (it was closed). */
  delete(uri: string): void {
    this.last.delete(uri);
  }
}

const NOTHING = new Uint8Array(0);

/** `head`, then `json`, then `tail`, in one buffer. */
function around(head: Uint8Array, json: Buffer, tail: Uint8Array): Buffer {
  return head.length === 0 && tail.length === 0 ? json : Buffer.concat([head, json, tail]);
}

// ---- Writing one symbol ----------------------------------------------------------------------

/** Whether a symbol has only the members written one by one (`name`, `detail`, `kind`, the ranges). */
function isPlainSymbol(symbol: DocumentSymbol): boolean {
  if (typeof symbol.name !== 'string' || !isCount(symbol.kind) || !isPlainRange(symbol.range) || !isPlainRange(symbol.selectionRange)) {
    return false;
  }
  if (symbol.detail !== undefined && typeof symbol.detail !== 'string') {
    return false;
  }
  // The members symbols.ts gives a paper, in its order, are told at once (a `for…in` per symbol
  // costs more than all the rest while the code is new); any others are looked at one by one.
  const keys = Object.keys(symbol);
  if (keys.length === 4 && keys[0] === 'name' && keys[1] === 'kind' && keys[2] === 'range' && keys[3] === 'selectionRange') {
    return Object.getPrototypeOf(symbol) === Object.prototype;
  }
  for (const key in symbol) {
    if (key !== 'name' && key !== 'kind' && key !== 'range' && key !== 'selectionRange' && key !== 'detail' && (symbol as unknown as Record<string, unknown>)[key] !== undefined) {
      return false;
    }
  }
  return true;
}

/** A range whose four numbers are counts, as the outline's ranges are. */
function isPlainRange(range: Range | undefined): boolean {
  return (
    range !== null &&
    typeof range === 'object' &&
    range.start !== null &&
    typeof range.start === 'object' &&
    range.end !== null &&
    typeof range.end === 'object' &&
    isCount(range.start.line) &&
    isCount(range.start.character) &&
    isCount(range.end.line) &&
    isCount(range.end.character) &&
    typeof (range as unknown as { toJSON?: unknown }).toJSON !== 'function'
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 0x7fffffff && Math.floor(value) === value;
}

/** How many decimal digits a count has. */
function digits(n: number): number {
  let count = 1;
  while (n >= 10) {
    n = (n / 10) | 0;
    count++;
  }
  return count;
}

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

/** Writes a string as ASCII JSON at `at`; returns where it ends. */
function writeString(out: Buffer, at: number, text: string): number {
  out[at++] = 0x22;
  const plain = plainPrefix(text);
  if (plain > 0) at += out.write(text, at, plain, 'latin1');
  for (let i = plain; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      if (c === 0x22 || c === 0x5c) out[at++] = 0x5c;
      out[at++] = c;
    } else {
      out[at] = 0x5c;
      out[at + 1] = 0x75;
      out[at + 2] = HEX[c >> 12];
      out[at + 3] = HEX[(c >> 8) & 15];
      out[at + 4] = HEX[(c >> 4) & 15];
      out[at + 5] = HEX[c & 15];
      at += 6;
    }
  }
  out[at++] = 0x22;
  return at;
}

/** JSON text made ASCII: the characters outside it escaped (they can only stand inside strings). */
function asciiJson(json: string): string {
  // eslint-disable-next-line no-control-regex
  return json.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// ---- Writing one symbol ----------------------------------------------------------------------

// The fixed parts of a symbol, in the order JSON.stringify writes a symbol made as symbols.ts makes it.
const NAME = Buffer.from('{"name":', 'latin1');
const DETAIL = Buffer.from(',"detail":', 'latin1');
const KIND = Buffer.from(',"kind":', 'latin1');
const RANGE = Buffer.from(',"range":', 'latin1');
const SELECTION_RANGE = Buffer.from(',"selectionRange":', 'latin1');
const START_LINE = Buffer.from('{"start":{"line":', 'latin1');
const CHARACTER = Buffer.from(',"character":', 'latin1');
const END_LINE = Buffer.from('},"end":{"line":', 'latin1');
const RANGE_CLOSE = Buffer.from('}}', 'latin1');

/** Writes a few ASCII bytes at `at` (a loop: `set` costs more for a dozen bytes); returns where they end. */
function put(out: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) out[at + i] = bytes[i];
  return at + bytes.length;
}

function rangeSize(range: Range): number {
  return (
    START_LINE.length +
    digits(range.start.line) +
    CHARACTER.length +
    digits(range.start.character) +
    END_LINE.length +
    digits(range.end.line) +
    CHARACTER.length +
    digits(range.end.character) +
    RANGE_CLOSE.length
  );
}

/** The size of a plain symbol as `writePlainSymbol` writes it. */
function plainSymbolSize(symbol: DocumentSymbol): number {
  return (
    NAME.length +
    stringSize(symbol.name) +
    (symbol.detail === undefined ? 0 : DETAIL.length + stringSize(symbol.detail)) +
    KIND.length +
    digits(symbol.kind) +
    RANGE.length +
    rangeSize(symbol.range) +
    SELECTION_RANGE.length +
    rangeSize(symbol.selectionRange) +
    1
  );
}

/** Writes a plain symbol at `at`; returns where it ends. */
function writePlainSymbol(out: Buffer, at: number, symbol: DocumentSymbol): number {
  at = put(out, at, NAME);
  at = writeString(out, at, symbol.name);
  if (symbol.detail !== undefined) {
    at = put(out, at, DETAIL);
    at = writeString(out, at, symbol.detail);
  }
  at = put(out, at, KIND);
  at = writeCount(out, at, symbol.kind);
  at = put(out, at, RANGE);
  at = writeRange(out, at, symbol.range);
  at = put(out, at, SELECTION_RANGE);
  at = writeRange(out, at, symbol.selectionRange);
  out[at++] = 0x7d;
  return at;
}

function writeRange(out: Buffer, at: number, range: Range): number {
  at = put(out, at, START_LINE);
  at = writeCount(out, at, range.start.line);
  at = put(out, at, CHARACTER);
  at = writeCount(out, at, range.start.character);
  at = put(out, at, END_LINE);
  at = writeCount(out, at, range.end.line);
  at = put(out, at, CHARACTER);
  at = writeCount(out, at, range.end.character);
  out[at++] = 0x7d;
  out[at++] = 0x7d;
  return at;
}

/** Writes a count in decimal at `at`; returns where it ends. */
function writeCount(out: Buffer, at: number, n: number): number {
  const end = at + digits(n);
  let i = end;
  do {
    const rest = (n / 10) | 0;
    out[--i] = 0x30 + n - rest * 10;
    n = rest;
  } while (n > 0);
  return end;
}
