/**
 * The wire encoding of server/src/serialised.ts: the fast decoder of big client messages reads
 * exactly what the usual decoder (`JSON.parse(buffer.toString('utf8'))`) reads, and leaves
 * what is not valid UTF-8 to it.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RAL } from 'vscode-languageserver/node';
import { JsonWriter, PreEncoded } from '../../server/src/preEncoded';
import { decodeUtf8Json, installSerialisedAnswers, semanticTokensAnswer } from '../../server/src/serialised';
import { decodeWait, resetDecoding } from '../../server/src/slices';
import { semanticTokens } from '../../server/src/service/features/semanticTokens';
import { NEVER_CANCELLED } from '../../server/src/service/cancellation';
import { parseDigest } from '../../server/src/service/parser';
import { generatedDigest } from '../bench/generate';
import { digestText } from '../support/modelChecks';

function usual(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8'));
}

describe('decodeUtf8Json', () => {
  test('Should read a didOpen of Chinese and English text, astral characters and escapes as the usual decoder does', () => {
    const text = '大模型推理能力\n\nSparse Probes · 稀疏探针\r\n作者：张三, Mei Tanaka 😀\u2028\u0000\t"\\'.repeat(2000);
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.digest', languageId: 'paper-digest', version: 1, text } } }), 'utf8');
    const value = decodeUtf8Json(body) as { params: { textDocument: { text: string } } };
    assert.equal(value.params.textDocument.text, text);
    assert.deepEqual(value, usual(body));
  });

  test('Should give any valid UTF-8 text the same value, lone surrogates (escaped) included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (binary, graphemes) => {
        const body = Buffer.from(JSON.stringify({ a: binary, b: graphemes, c: [binary, 1, null] }), 'utf8');
        assert.deepEqual(decodeUtf8Json(body), usual(body));
      }),
    );
  });

  test('Should leave a body that is not valid UTF-8 to the usual decoder', () => {
    // A lone continuation byte, an overlong encoding, a surrogate encoded in UTF-8 (CESU), a cut sequence.
    for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe6, 0xa0]]) {
      const body = Buffer.concat([Buffer.from('{"text":"'), Buffer.from(bad), Buffer.from('"}')]);
      assert.equal(decodeUtf8Json(body), undefined, `bytes ${bad.map((b) => b.toString(16)).join(' ')}`);
    }
  });

  test('Should throw on a body that is not JSON, as the usual decoder does', () => {
    assert.throws(() => decodeUtf8Json(Buffer.from('{"text": 标题')), SyntaxError);
  });
});

describe('semanticTokensAnswer', () => {
  test('Should write the JSON of exactly the semantic tokens of any text, with room for the response', () => {
    fc.assert(
      fc.property(digestText, (text) => {
        const model = parseDigest(text);
        assert.equal(JSON.stringify(semanticTokensAnswer(model, NEVER_CANCELLED)), JSON.stringify(semanticTokens(model)));
      }),
      { numRuns: 300 },
    );
    // Big enough to grow the bytes several times, with authors out of order now and then.
    const text = generatedDigest(300).replace(/\n\nMei Tanaka/g, '\n\nAI总结 先写总结\n\nMei Tanaka');
    const model = parseDigest(text);
    assert.deepEqual(JSON.parse(JSON.stringify(semanticTokensAnswer(model, NEVER_CANCELLED))), semanticTokens(model));
    assert.deepEqual(semanticTokensAnswer(model, { isCancellationRequested: true }), { data: [] });
  });

  test('Should write numbers of any size and grow from a small guess', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(), fc.integer({ min: 0, max: 0x7fffffff }), fc.double({ noNaN: true, noDefaultInfinity: true })), { maxLength: 300 }), (numbers) => {
        const writer = new JsonWriter(1);
        writer.ascii('[');
        numbers.forEach((n, i) => {
          if (i > 0) writer.comma();
          writer.count(n);
        });
        writer.ascii(']');
        assert.equal(writer.finish().json.toString('latin1'), JSON.stringify(numbers.map((n) => (Object.is(n, -0) ? 0 : n))));
      }),
    );
  });
});

describe('the installed encoder', () => {
  test('Should write a kept answer as its bytes in the response, and note the size of every message written', async () => {
    const before = RAL().applicationJson;
    installSerialisedAnswers();
    try {
      const encoder = RAL().applicationJson.encoder;
      resetDecoding();
      const names = Array.from({ length: 40_000 }, (_, i) => ({ name: `Paper ${i} · 论文 ${i}`, kind: 5 }));
      const kept = await encoder.encode({ jsonrpc: '2.0', id: 7, result: PreEncoded.of(names) } as never, { charset: 'utf-8' });
      // Over 256 kB: sliced work lets the client decode it first (slices.ts).
      assert.ok(decodeWait() > 0, 'a big kept answer is noted');
      assert.ok(kept.byteLength > 256 * 1024);
      assert.deepEqual(JSON.parse(Buffer.from(kept).toString('utf8')), { jsonrpc: '2.0', id: 7, result: names });
      resetDecoding();
      const plain = await encoder.encode({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { names } } as never, { charset: 'utf-8' });
      assert.ok(decodeWait() > 0, 'a big message encoded the usual way is noted');
      assert.deepEqual(JSON.parse(Buffer.from(plain).toString('utf8')).params.names, names);
    } finally {
      RAL.install({ ...RAL(), applicationJson: before });
    }
  });
});
