/**
 * The faster paths of the diagnostics and of the index of an open document give exactly what the
 * plain computations give.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { titleKey } from '../../server/src/service/features/entries';

/** `titleKey` as the format defines it, with no shortcut. */
function plainTitleKey(title: string): string {
  return title.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

describe('titleKey: the shortcut for plain ASCII titles', () => {
  test('Should give the key of the full folding for any text, ASCII or not', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ 9-:.\t\r\n\u000b\u000c\u007f\u0000('), maxLength: 30 });
    const any = fc.string({ unit: fc.oneof(fc.constantFrom('Ａ', 'ß', 'İ', '\u00a0', '\u3000', 'Σ', 'ﬁ', ' '), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(ascii, any), (title) => {
        assert.equal(titleKey(title), plainTitleKey(title), JSON.stringify(title));
      }),
      { numRuns: 2000 },
    );
    for (const title of ['Sparse Probes', ' Sparse', 'Sparse ', 'Sparse  Probes', 'SPARSE\tProbes', '', ' ', 'a']) {
      assert.equal(titleKey(title), plainTitleKey(title), JSON.stringify(title));
    }
  });
});
