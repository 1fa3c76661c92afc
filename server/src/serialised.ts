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

/** Answers marked for reuse, with their encoded bytes once they have been sent (or their own encoder until then). */
const encoded = new WeakMap<object, Buffer | ((answer: never) => Buffer) | null>();
const CLOSE = Buffer.from('}', 'utf8');

/** Messages from this size on are decoded by transcoding (below it the usual decoder is as fast). */
const TRANSCODE_BYTES = 64 * 1024;

/**
 * Marks an answer whose JSON may be reused: it must not change afterwards. With `encode`, its
 * JSON (UTF-8) is what `encode(answer)` gives.
 *
 * @example
 * return answers.get(uri, version, 'folding', () => serialiseOnce(foldingRanges(model)));
 */
export function serialiseOnce<T>(answer: T, encode?: (answer: T) => Buffer): T {
  if (answer !== null && typeof answer === 'object' && !encoded.has(answer)) {
    encoded.set(answer, (encode as ((answer: never) => Buffer) | undefined) ?? null);
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
  return serialiseOnce(outline, (answer) => outlines.encode(uri, answer));
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
        let body = encoded.get(result);
        if (!(body instanceof Buffer)) {
          body = typeof body === 'function' ? (body as (answer: unknown) => Buffer)(result) : Buffer.from(JSON.stringify(result), 'utf8');
          encoded.set(result, body);
        }
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`, 'utf8');
        return Promise.resolve(Buffer.concat([head, body, CLOSE]));
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
