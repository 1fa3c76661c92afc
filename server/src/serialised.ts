/**
 * Answers kept as their JSON bytes (preEncoded.ts): the outline, folding ranges and semantic
 * tokens of a document version are encoded once, when made, and only their bytes are kept and
 * sent, again and again, instead of the objects and a JSON encoding of megabytes per request.
 *
 * Big messages from the client (the didOpen of an 8 MB digest) are decoded the fast way: valid
 * UTF-8 is transcoded to UTF-16 (simdutf, a few milliseconds) and read as such, instead of by
 * V8's UTF-8 decoder (about 30 ms for 9 MB of mixed Chinese and English); the string is the
 * same, and a message that is not valid UTF-8 goes to the usual decoder.
 *
 * It works through vscode-jsonrpc's runtime layer: `installSerialisedAnswers()`, called before
 * the connection is created, wraps the `application/json` encoder the stream writer uses and the
 * decoder the reader uses. Each message read or written is noted (slices.ts `noteMessage`):
 * low-priority work waits until they stop for a moment; and the size of each message written
 * (`noteAnswerWritten`): sliced work lets the client decode a big one first. Over node IPC
 * (`--node-ipc`) node serialises messages itself, and a kept answer gives it its value through
 * `toJSON`.
 */
import * as buffer from 'node:buffer';
import { RAL } from 'vscode-languageserver/node';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { OutlineBytes } from './outlineBytes';
import { JsonWriter, PreEncoded } from './preEncoded';
import { forEachSemanticToken } from './service/features/semanticTokens';
import type { Cancellation } from './service/cancellation';
import type { SymbolOptions } from './service/features/symbols';
import type { DigestDocument } from './service/model';
import { noteAnswerWritten, noteMessage } from './slices';
import { UNDECODABLE_METHOD } from './protocol';
import { shapedIncoming } from './requestShapes';

const CLOSE = Buffer.from('}', 'utf8');

/** Messages from this size on are decoded by transcoding (below it the usual decoder is as fast). */
const TRANSCODE_BYTES = 64 * 1024;

/**
 * An answer that is kept as its JSON bytes (`PreEncoded`): it must not change afterwards.
 *
 * @example
 * return answers.get(uri, version, 'folding', () => encodedAnswer(foldingRanges(model)));
 */
export function encodedAnswer<T>(answer: T): T {
  return PreEncoded.of(answer) as unknown as T;
}

/** The outlines' bytes, each made from the document's last (outlineBytes.ts). */
const outlines = new OutlineBytes();

/**
 * The outline of a document's model (`documentSymbols`) as its JSON bytes, made from the bytes of
 * the document's last outline, copying those of the papers it kept; `[]` when cancelled.
 *
 * @example
 * return answers.get(uri, version, 'outline', () => outlineAnswer(uri, model, { language }, token));
 */
export function outlineAnswer(uri: string, doc: DigestDocument, options: SymbolOptions, token: Cancellation): DocumentSymbol[] {
  return (outlines.encode(uri, doc, options, token) as unknown as DocumentSymbol[] | undefined) ?? [];
}

/**
 * The semantic tokens of a model (`semanticTokens`) written straight into their JSON, with no
 * number array made; `{ data: [] }` when cancelled.
 *
 * @example
 * return answers.get(uri, version, 'semanticTokens', () => semanticTokensAnswer(model, token));
 */
export function semanticTokensAnswer(doc: DigestDocument, token: Cancellation): { data: number[] } {
  // About ten tokens a paper, fifteen bytes each.
  const writer = new JsonWriter(doc.entries.length * 160 + 64);
  writer.ascii('{"data":[');
  let first = true;
  const complete = forEachSemanticToken(
    doc,
    (deltaLine, deltaCharacter, length, type) => {
      if (!first) writer.comma();
      first = false;
      writer.count(deltaLine);
      writer.comma();
      writer.count(deltaCharacter);
      writer.comma();
      writer.count(length);
      writer.comma();
      writer.count(type);
      writer.ascii(',0');
    },
    token,
  );
  writer.ascii(']}');
  return complete ? (writer.finish() as unknown as { data: number[] }) : { data: [] };
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
      if (!(result instanceof PreEncoded) || !/^utf-?8$/i.test(options.charset) || Object.keys(response).length !== 3 || response.jsonrpc !== '2.0') {
        return fallback.encode(message, options).then((bytes) => {
          noteAnswerWritten(bytes.byteLength);
          return bytes;
        });
      }
      try {
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`, 'utf8');
        const bytes = result.message(head, CLOSE);
        noteAnswerWritten(bytes.length);
        return Promise.resolve(bytes);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  const usual = json.decoder;
  type Decoded = Awaited<ReturnType<typeof usual.decode>>;
  const decoder: typeof usual = {
    name: usual.name,
    decode: (body, options) => {
      noteMessage();
      if (body.length >= TRANSCODE_BYTES && /^utf-?8$/i.test(options.charset)) {
        try {
          const value = decodeUtf8Json(body);
          if (value !== undefined) {
            return Promise.resolve(shapedIncoming(value) as Decoded);
          }
        } catch (error) {
          return undecodable(body, error) as Promise<Decoded>;
        }
      }
      // `initialize` with its params given their shape before the library reads them (requestShapes.ts).
      return usual.decode(body, options).then(
        (value) => shapedIncoming(value) as Decoded,
        (error: unknown) => undecodable(body, error) as Promise<Decoded>,
      );
    },
  };
  RAL.install({ ...ral, applicationJson: { ...json, encoder, decoder } });
}

/**
 * What a body that is not valid JSON is read as (the library drops a body it cannot decode
 * without a word, and a client would wait for ever): the request with the id it plainly names
 * (`"id": 7` or `"id": "a"`), to be answered with a ParseError, when it names one and a method;
 * else the failure, which the library reports as a read error.
 */
function undecodable(body: Uint8Array, error: unknown): Promise<unknown> {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 4096)).toString('utf8');
  const id = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/.exec(head)?.[1];
  if (id === undefined || !/"method"\s*:/.test(head)) {
    return Promise.reject(error);
  }
  try {
    return Promise.resolve({ jsonrpc: '2.0', id: JSON.parse(id) as number | string, method: UNDECODABLE_METHOD });
  } catch {
    return Promise.reject(error);
  }
}
