/**
 * File bytes as text, as `bytes.toString('utf8')` decodes them (a byte order mark kept as
 * U+FEFF), but faster for the text digests are made of; bytes that are not UTF-8 are no text.
 *
 * Node's UTF-8 decoder takes about 4 ms for a digest of 1,000 papers (860 kB, Chinese in every
 * paper); transcoding valid UTF-8 to UTF-16 and taking those code units as they are takes about
 * 1.4 ms. ASCII-only text keeps the plain decoder, which makes it one byte a character (the
 * UTF-16 path would make it two).
 */
import * as buffer from 'node:buffer';

/** Below this the plain decoder is as fast. */
const FAST_MIN_BYTES = 4096;

const isAscii: (bytes: Buffer) => boolean = typeof buffer.isAscii === 'function' ? buffer.isAscii : () => true;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes that are UTF-8 text as `bytes.toString('utf8')` decodes them, less a byte order mark;
 * undefined for any others (a binary named `.digest`), which are not read as text.
 *
 * @example
 * decodeUtf8Text(Buffer.from('大模型推理能力\n', 'utf8')) // '大模型推理能力\n'
 * decodeUtf8Text(Buffer.from([0xff]))                    // undefined
 */
export function decodeUtf8Text(bytes: Buffer): string | undefined {
  if (!isUtf8Text(bytes)) {
    return undefined;
  }
  const text = bytes.length >= FAST_MIN_BYTES && !isAscii(bytes) ? buffer.transcode(bytes, 'utf8', 'utf16le').toString('utf16le') : bytes.toString('utf8');
  // Without its byte order mark, as an editor shows the file: positions in it are the editor's.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Whether bytes are UTF-8 text: valid UTF-8 (node's `isUtf8`, or a strict decoder where that is
 * missing).
 *
 * @example isUtf8Text(Buffer.from([0xff, 0xfe])) // false
 */
export function isUtf8Text(bytes: Uint8Array): boolean {
  if (typeof buffer.isUtf8 === 'function') {
    return buffer.isUtf8(bytes);
  }
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
