/**
 * An answer kept as its JSON bytes alone: the outline, the folding ranges and the semantic tokens
 * of a document version are asked again and again, and keeping their objects as well as their
 * bytes kept each answer twice (the semantic tokens of 16,000 papers as a number array: 8 MB).
 *
 * The stdio writer (serialised.ts) sends the bytes as they are; anything else that turns the
 * answer into JSON (node IPC, `JSON.stringify`) gets the same value through `toJSON`.
 *
 * Node only (Buffer); the web worker's server sends objects (browser/serialised.ts).
 */

/** Bytes kept free before an answer's JSON, for the response's head (`{"jsonrpc":"2.0","id":…,"result":`). */
export const HEAD_ROOM = 48;

export class PreEncoded {
  /** Whether the bytes before `start` were used for a response already (then the next one copies). */
  private headUsed = false;

  /**
   * @param buffer holds the JSON from `start` to `end`, at least `HEAD_ROOM` free bytes before it
   *   and one after it, where the response around the answer may be written the first time
   * @param start where the JSON starts
   * @param end where it ends
   */
  constructor(
    private readonly buffer: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  /** The JSON of the answer (a view, not a copy). */
  get json(): Buffer {
    return this.buffer.subarray(this.start, this.end);
  }

  /** The value the JSON stands for, for whatever serialises the answer itself. */
  toJSON(): unknown {
    return JSON.parse(this.json.toString('utf8'));
  }

  /**
   * The response `head`, the JSON, `tail`, in one buffer: the first time written around the JSON
   * in its own buffer (no copy of megabytes), afterwards copied (an earlier response may still be
   * waiting to be written out from that buffer).
   */
  message(head: Uint8Array, tail: Uint8Array): Buffer {
    if (!this.headUsed && head.length <= this.start && this.end + tail.length <= this.buffer.length) {
      this.headUsed = true;
      this.buffer.set(head, this.start - head.length);
      this.buffer.set(tail, this.end);
      return this.buffer.subarray(this.start - head.length, this.end + tail.length);
    }
    return Buffer.concat([head, this.json, tail]);
  }

  /**
   * An answer's JSON as `JSON.stringify` writes it, kept with room for the response around it.
   *
   * @example
   * const answer = PreEncoded.of({ data: [0, 0, 5, 1, 0] });
   * JSON.stringify(answer) // '{"data":[0,0,5,1,0]}'
   */
  static of(value: unknown): PreEncoded {
    const json = JSON.stringify(value);
    const size = Buffer.byteLength(json, 'utf8');
    const buffer = Buffer.allocUnsafe(HEAD_ROOM + size + 1);
    buffer.write(json, HEAD_ROOM, 'utf8');
    return new PreEncoded(buffer, HEAD_ROOM, HEAD_ROOM + size);
  }
}

/**
 * Writes an answer's JSON (ASCII) straight into bytes, growing them as needed, for answers made of
 * many numbers (the semantic tokens of 16,000 papers are 800,000 of them: as a number array 8 MB
 * of heap, kept long enough while it grows to be copied into the old generation).
 *
 * @example
 * const writer = new JsonWriter(1024);
 * writer.ascii('{"data":['); writer.count(3); writer.ascii(']}');
 * writer.finish() // PreEncoded of {"data":[3]}
 */
export class JsonWriter {
  private buffer: Buffer;
  private at = HEAD_ROOM;

  constructor(expectedBytes: number) {
    this.buffer = Buffer.allocUnsafe(HEAD_ROOM + Math.max(64, expectedBytes) + 1);
  }

  /** Writes ASCII text as it is (JSON punctuation, member names). */
  ascii(text: string): void {
    this.room(text.length);
    this.at += this.buffer.write(text, this.at, 'latin1');
  }

  /** Writes a comma. */
  comma(): void {
    this.room(1);
    this.buffer[this.at++] = 0x2c;
  }

  /** Writes a count (a whole number from 0) in decimal. */
  count(n: number): void {
    this.room(32);
    if (n < 0 || n > 0x7fffffff || Math.floor(n) !== n) {
      this.at += this.buffer.write(JSON.stringify(n), this.at, 'latin1');
      return;
    }
    this.at = writeCount(this.buffer, this.at, n);
  }

  /** The answer written, in bytes of its size (and room for the response around it). */
  finish(): PreEncoded {
    const size = this.at + 1;
    if (size < this.buffer.length * 0.75) {
      const exact = Buffer.allocUnsafe(size);
      this.buffer.copy(exact, HEAD_ROOM, HEAD_ROOM, this.at);
      this.buffer = exact;
    }
    return new PreEncoded(this.buffer, HEAD_ROOM, this.at);
  }

  private room(bytes: number): void {
    if (this.at + bytes + 1 > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes + 1));
      this.buffer.copy(grown, HEAD_ROOM, HEAD_ROOM, this.at);
      this.buffer = grown;
    }
  }
}

/** How many decimal digits a count (a whole number from 0) has. */
export function digits(n: number): number {
  let count = 1;
  while (n >= 10) {
    n = (n / 10) | 0;
    count++;
  }
  return count;
}

/** Writes a count (a whole number from 0) in decimal at `at`; returns where it ends. */
export function writeCount(out: Buffer, at: number, n: number): number {
  const end = at + digits(n);
  let i = end;
  do {
    const rest = (n / 10) | 0;
    out[--i] = 0x30 + n - rest * 10;
    n = rest;
  } while (n > 0);
  return end;
}
