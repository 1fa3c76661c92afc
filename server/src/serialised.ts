/**
 * Answers sent over stdio as JSON once: a cached answer (the outline of an unchanged version)
 * is encoded the first time it is sent and its bytes are reused when it is sent again, instead
 * of JSON-encoding megabytes on every request.
 *
 * Big messages from the client (the didOpen of an 8 MB digest) are decoded the fast way: valid
 * UTF-8 is transcoded to UTF-16 (simdutf, a few milliseconds) and read as such, instead of by
 * V8's UTF-8 decoder (about 30 ms for 9 MB of mixed Chinese and English); the string is the
 * same, and a message that is not valid UTF-8 goes to the usual decoder.
 *
 * It works through vscode-jsonrpc's runtime layer: `installSerialisedAnswers()`, called before
 * the connection is created, wraps the `application/json` encoder the stream writer uses and the
 * decoder the reader uses. Each message read or written is noted (slices.ts `noteMessage`):
 * low-priority work waits until they stop for a moment. Over
 * node IPC (`--node-ipc`) node serialises messages itself and nothing changes.
 */
import * as buffer from 'node:buffer';
import { RAL } from 'vscode-languageserver/node';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { OutlineBytes } from './outlineBytes';
import { noteMessage } from './slices';

/**
 * Writes an answer's JSON between `head` and `tail` (the JSON-RPC response around it) into one
 * buffer: `head`, the JSON, `tail`.
 */
type Encoder<T> = (answer: T, head: Uint8Array, tail: Uint8Array) => Buffer;

/** Answers marked for reuse, with their encoded bytes once they have been sent (or their own encoder until then). */
const encoded = new WeakMap<object, Buffer | Encoder<never> | null>();
const CLOSE = Buffer.from('}', 'utf8');

/** Messages from this size on are decoded by transcoding (below it the usual decoder is as fast). */
const TRANSCODE_BYTES = 64 * 1024;

/**
 * Marks an answer whose JSON may be reused: it must not change afterwards. With `encode`, its
 * JSON (UTF-8) is what `encode(answer, head, tail)` writes between the response's `head` and
 * `tail` the first time it is sent.
 *
 * @example
 * return answers.get(uri, version, 'folding', () => serialiseOnce(foldingRanges(model)));
 */
export function serialiseOnce<T>(answer: T, encode?: Encoder<T>): T {
  if (answer !== null && typeof answer === 'object' && !encoded.has(answer)) {
    encoded.set(answer, (encode as Encoder<never> | undefined) ?? null);
  }
  return answer;
}

/** The outlines' bytes, each made from the document's last (outlineBytes.ts). */
const outlines = new OutlineBytes();

/**
 * Marks an outline of a document for reuse (as `serialiseOnce`): its bytes are made from the
 * bytes of the document's last outline sent, copying those of the papers it kept.
 *
 * @example
 * return answers.get(uri, version, 'outline', () => serialiseOutline(uri, documentSymbols(model)));
 */
export function serialiseOutline(uri: string, outline: DocumentSymbol[]): DocumentSymbol[] {
  return serialiseOnce(outline, (answer, head, tail) => outlines.encode(uri, answer, head, tail));
}

/** Forgets the last outline of a document (it was closed). */
export function forgetOutline(uri: string): void {
  outlines.delete(uri);
}

interface ResponseLike {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: unknown;
}

/**
 * The JSON value of a message body in UTF-8, as `JSON.parse(body.toString('utf8'))` reads it;
 * undefined when the body is not valid UTF-8 (the usual decoder then replaces what is broken).
 * Throws as JSON.parse does.
 *
 * @example
 * decodeUtf8Json(Buffer.from('{"text":"标题"}')) // { text: '标题' }
 * decodeUtf8Json(Buffer.from([0x22, 0xff, 0x22])) // undefined
 */
export function decodeUtf8Json(body: Uint8Array): unknown {
  if (typeof buffer.isUtf8 !== 'function' || !buffer.isUtf8(body)) {
    return undefined;
  }
  return JSON.parse(buffer.transcode(body, 'utf8', 'ucs2').toString('ucs2'));
}

/** Installs the reusing encoder and the fast decoder; call it once, before `createConnection`. */
export function installSerialisedAnswers(): void {
  const ral = RAL();
  const json = ral.applicationJson;
  const fallback = json.encoder;
  const encoder: typeof fallback = {
    name: fallback.name,
    encode: (message, options) => {
      noteMessage();
      const response = message as ResponseLike;
      const result = response.result;
      if (result === null || typeof result !== 'object' || !encoded.has(result) || !/^utf-?8$/i.test(options.charset) || Object.keys(response).length !== 3 || response.jsonrpc !== '2.0') {
        return fallback.encode(message, options);
      }
      try {
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`, 'utf8');
        const body = encoded.get(result);
        if (body instanceof Buffer) {
          return Promise.resolve(Buffer.concat([head, body, CLOSE]));
        }
        if (typeof body === 'function') {
          // Sent for the first time: written with the response around it, and its JSON kept (a view).
          const message = (body as Encoder<unknown>)(result, head, CLOSE);
          encoded.set(result, message.subarray(head.length, message.length - CLOSE.length));
          return Promise.resolve(message);
        }
        const json = Buffer.from(JSON.stringify(result), 'utf8');
        encoded.set(result, json);
        return Promise.resolve(Buffer.concat([head, json, CLOSE]));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  const usual = json.decoder;
  const decoder: typeof usual = {
    name: usual.name,
    decode: (body, options) => {
      noteMessage();
      if (body.length >= TRANSCODE_BYTES && /^utf-?8$/i.test(options.charset)) {
        try {
          const value = decodeUtf8Json(body);
          if (value !== undefined) {
            return Promise.resolve(value as Awaited<ReturnType<typeof usual.decode>>);
          }
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return usual.decode(body, options);
    },
  };
  RAL.install({ ...ral, applicationJson: { ...json, encoder, decoder } });
}
