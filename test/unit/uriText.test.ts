/**
 * Document text and URIs that percent-encoding cannot take as they are: a lone surrogate (which
 * `encodeURIComponent` throws on) and malformed escapes (which `decodeURIComponent` throws on)
 * give a URI or a name, never an exception.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { digestDateOf } from '../../server/src/service/digestDates';
import { fileName } from '../../server/src/service/features/tree';
import { decodeUriText, wellFormed, withoutTrailingSlashes } from '../../server/src/service/text';
import { trimmedUri } from '../../server/src/clientWorkspace';
import { fileUri } from '../../server/src/workspace';

describe('URI text: lone surrogates and malformed escapes', () => {
  test('Should replace exactly the lone surrogates, keeping pairs, for any string', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', 'a', '字', '%'), fc.string()), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const result = wellFormed(text);
        assert.equal(result.length, text.length);
        // What UTF-8 makes of the text is what it makes of the result (it too replaces lone surrogates by U+FFFD).
        assert.equal(Buffer.from(result, 'utf8').toString('utf8'), Buffer.from(text, 'utf8').toString('utf8'));
        assert.doesNotThrow(() => encodeURIComponent(result));
        assert.equal(decodeURIComponent(encodeURIComponent(result)), result);
      }),
    );
  });

  test('Should decode valid percent-encoding and keep malformed escapes as they are', () => {
    assert.equal(decodeUriText('May%201.digest'), 'May 1.digest');
    assert.equal(decodeUriText('100%.digest'), '100%.digest');
    assert.equal(decodeUriText('%E0%A4.digest'), '%E0%A4.digest');
    assert.equal(fileName('memfs:/w/%zz-2026-05-01.digest'), '%zz-2026-05-01.digest');
    assert.equal(digestDateOf('memfs:/w/%E0%A4-2026-05-01.digest'), '2026-05-01');
  });

  test('Should make a file URI of a path with a lone surrogate', () => {
    assert.equal(fileUri('/w/a\ud800b.digest'), 'file:///w/a%EF%BF%BDb.digest');
  });

  test('Should take the slashes off the end of any URI as the regular expression would, scanning from the end', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('/', 'a', ':', '字', '%2F'), { maxLength: 20 }), (parts) => {
        const uri = parts.join('');
        assert.equal(withoutTrailingSlashes(uri), uri.replace(/\/+$/, ''));
        assert.equal(trimmedUri(uri), uri.replace(/([^/])\/+$/, '$1'));
      }),
    );
    // A hundred thousand slashes and a letter: the regular expression tried at each slash was quadratic.
    const slashes = 'file:///w' + '/'.repeat(100_000) + 'x' + '/'.repeat(100_000);
    assert.equal(withoutTrailingSlashes(slashes), 'file:///w' + '/'.repeat(100_000) + 'x');
  });
});
