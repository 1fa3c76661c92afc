/**
 * Answers sent over stdio as JSON once: a cached answer (the outline of an unchanged version)
 * is encoded the first time it is sent and its bytes are reused when it is sent again, instead
 * of JSON-encoding megabytes on every request.
 *
 * It works through vscode-jsonrpc's runtime layer: `installSerialisedAnswers()`, called before
 * the connection is created, wraps the `application/json` encoder the stream writer uses. Over
 * node IPC (`--node-ipc`) node serialises messages itself and nothing changes.
 */
import { RAL } from 'vscode-languageserver/node';

/** Answers marked for reuse, with their encoded bytes once they have been sent. */
const encoded = new WeakMap<object, Buffer | null>();
const CLOSE = Buffer.from('}', 'utf8');

/**
 * Marks an answer whose JSON may be reused: it must not change afterwards.
 *
 * @example
 * return answers.get(uri, version, 'outline', () => serialiseOnce(documentSymbols(model)));
 */
export function serialiseOnce<T>(answer: T): T {
  if (answer !== null && typeof answer === 'object' && !encoded.has(answer)) {
    encoded.set(answer, null);
  }
  return answer;
}

interface ResponseLike {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: unknown;
}

/** Installs the reusing encoder; call it once, before `createConnection`. */
export function installSerialisedAnswers(): void {
  const ral = RAL();
  const json = ral.applicationJson;
  const fallback = json.encoder;
  const encoder: typeof fallback = {
    name: fallback.name,
    encode: (message, options) => {
      const response = message as ResponseLike;
      const result = response.result;
      if (result === null || typeof result !== 'object' || !encoded.has(result) || !/^utf-?8$/i.test(options.charset) || Object.keys(response).length !== 3 || response.jsonrpc !== '2.0') {
        return fallback.encode(message, options);
      }
      try {
        let body = encoded.get(result);
        if (!body) {
          body = Buffer.from(JSON.stringify(result), 'utf8');
          encoded.set(result, body);
        }
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`, 'utf8');
        return Promise.resolve(Buffer.concat([head, body, CLOSE]));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  RAL.install({ ...ral, applicationJson: { ...json, encoder } });
}
