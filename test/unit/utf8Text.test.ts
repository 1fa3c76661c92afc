/**
 * The workspace scan's decoder (server/src/fs/utf8Text.ts) gives exactly the text Node's UTF-8
 * decoder gives, for valid and invalid bytes, long enough to take the transcoding path.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { decodeUtf8Text } from '../../server/src/fs/utf8Text';
import { generatedDigest } from '../bench/generate';

/** Bytes of at least the transcoding path's size: a digest's, with `tail` spliced in at `at`. */
function withBytes(tail: Uint8Array, at: number): Buffer {
  const base = Buffer.from(generatedDigest(8), 'utf8');
  const cut = at % base.length;
  return Buffer.concat([base.subarray(0, cut), tail, base.subarray(cut)]);
}

describe('decodeUtf8Text: file bytes as Node decodes UTF-8, and none that are not UTF-8', () => {
  test('Should decode a digest with Chinese, a byte order mark and characters past U+FFFF as toString does', () => {
    for (const text of [generatedDigest(20), '\ufeff' + generatedDigest(20), generatedDigest(20) + '𝔘𝔫𝔦 😀 é', 'a'.repeat(10_000), 'é'.repeat(5_000)]) {
      const bytes = Buffer.from(text, 'utf8');
      assert.ok(bytes.length >= 4096);
      // As toString does, less a byte order mark (an editor does not show it).
      assert.equal(decodeUtf8Text(bytes), text.replace(/^\ufeff/, ''));
      assert.equal(decodeUtf8Text(bytes), bytes.toString('utf8').replace(/^\ufeff/, ''));
    }
  });

  test('Should decode any bytes that are UTF-8 as toString does, and give nothing for others', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 40 }),
          fc.string({ unit: 'binary', maxLength: 40 }).map((text) => new Uint8Array(Buffer.from(text, 'utf8'))),
          fc.constantFrom(...[[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe4, 0xb8], [0xef, 0xbb, 0xbf], [0xff]].map((bytes) => new Uint8Array(bytes))),
        ),
        fc.nat(),
        (tail, at) => {
          const bytes = withBytes(tail, at);
          const valid = new TextDecoder('utf-8', { fatal: true });
          let expected: string | undefined;
          try {
            expected = valid.decode(bytes);
          } catch {
            expected = undefined;
          }
          assert.equal(decodeUtf8Text(bytes), expected);
          if (expected !== undefined) assert.equal(expected, bytes.toString('utf8').replace(/^\ufeff/, ''));
        },
      ),
      { numRuns: 300 },
    );
  });
});
