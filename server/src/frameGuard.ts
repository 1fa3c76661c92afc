/**
 * What the Node server takes from a client over stdio, checked before the protocol library reads
 * it: every message's header must end (`\r\n\r\n`) within `MAX_HEADER_BYTES` and give a
 * `Content-Length` of digits. The library's reader, given a header without one (or a body sent
 * with no header), stopped reading without a word and answered nothing more, and it gathered a
 * message of any announced length in memory (3 GB announced, memory grew with every byte sent).
 *
 * - A header that cannot be read: the stream cannot be followed any more (where the next message
 *   starts is not known), so the server says why on stderr and stops (`onBroken`).
 * - A message over `MAX_MESSAGE_BYTES`: its bytes are passed over as they come, never kept, and
 *   it is dropped with one line on stderr; the messages after it are read as usual. (An editor
 *   does not send documents that big: VS Code keeps files over 50 MB from extensions.)
 *
 * Every other byte goes through unchanged, in the chunks it came in.
 *
 * @example
 * const input = process.stdin.pipe(new FrameGuard({ onDropped: log, onBroken: (why) => stop(why) }));
 */
import { Transform, TransformCallback } from 'node:stream';

/** A header (its lines and the blank line ending them) of at most this many bytes. */
export const MAX_HEADER_BYTES = 8 * 1024;
/** A message body of at most this many bytes (a string of more is past what V8 can make of it). */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface FrameGuardEvents {
  /** A message over the limit was passed over: its announced size. */
  readonly onDropped: (bytes: number) => void;
  /** The stream cannot be followed: why, in a sentence. No byte after the bad header is passed on. */
  readonly onBroken: (why: string) => void;
}

const CR = 0x0d;
const LF = 0x0a;

export class FrameGuard extends Transform {
  /** Bytes of the message body still to come (passed on, or passed over when `dropping`). */
  private bodyLeft = 0;
  private dropping = false;
  /** The header read so far. */
  private header: Buffer[] = [];
  private headerLength = 0;
  /** How many bytes of `\r\n\r\n` the header ends with so far. */
  private ending = 0;
  private broken = false;

  constructor(
    private readonly events: FrameGuardEvents,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let at = 0;
    while (at < chunk.length && !this.broken) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        if (!this.dropping) this.push(chunk.subarray(at, at + take));
        this.bodyLeft -= take;
        at += take;
        continue;
      }
      // A header: up to its blank line.
      const start = at;
      while (at < chunk.length && this.ending < 4) {
        const c = chunk[at++];
        this.ending = c === (this.ending % 2 === 0 ? CR : LF) ? this.ending + 1 : c === CR ? 1 : 0;
      }
      this.header.push(chunk.subarray(start, at));
      this.headerLength += at - start;
      if (this.headerLength > MAX_HEADER_BYTES) {
        this.break(`a message header of more than ${MAX_HEADER_BYTES} bytes (or a message sent without one)`);
        break;
      }
      if (this.ending < 4) {
        continue;
      }
      const header = Buffer.concat(this.header);
      this.header = [];
      this.headerLength = 0;
      this.ending = 0;
      const length = contentLength(header.toString('latin1'));
      if (length === undefined) {
        this.break('a message header without a Content-Length of digits');
        break;
      }
      if (length > this.maxMessageBytes) {
        this.dropping = true;
        this.events.onDropped(length);
      } else {
        this.dropping = false;
        this.push(header);
      }
      this.bodyLeft = length;
    }
    callback();
  }

  private break(why: string): void {
    this.broken = true;
    this.events.onBroken(why);
  }
}

/** The `Content-Length` of a header's lines, when one is there and is digits (a number JavaScript holds exactly). */
export function contentLength(header: string): number | undefined {
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-length') {
      const value = line.slice(colon + 1).trim();
      // Digits however many: a length too big to be exact is past the limit all the same.
      return /^\d+$/.test(value) ? Number(value) : undefined;
    }
  }
  return undefined;
}
