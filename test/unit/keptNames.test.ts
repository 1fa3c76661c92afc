import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { KeptNames } from '../../server/src/service/keptStrings';

describe('kept names: one value per list of parts', () => {
  test('Should give the same value for the same parts and another for any other list, prefixes, empty parts and the empty list included', () => {
    const part = fc.constantFrom('', 'a', 'b', 'reasoning', 'math', 'Tsinghua', '清华');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('keywords', 'institutions'), fc.array(part, { maxLength: 4 })), { maxLength: 40 }), (lists) => {
        const names = new KeptNames();
        const byKey = new Map<string, object>();
        let made = 0;
        for (const [kind, parts] of lists) {
          const value = names.sharedBy(kind, parts, () => ({ made: ++made }));
          // The list's identity, spelt out: kind, length, and each part.
          const key = JSON.stringify([kind, parts]);
          const known = byKey.get(key);
          if (known) assert.equal(value, known, `${key}: the value made before`);
          else {
            for (const other of byKey.values()) assert.notEqual(value, other, `${key}: no other list's value`);
            byKey.set(key, value);
          }
        }
        assert.equal(made, byKey.size, 'made once per list');
      }),
      { numRuns: 500 },
    );
  });
});
