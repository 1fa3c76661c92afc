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
