import { test, describe } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
  ALL_CATEGORIES,
  archivePrefix,
  archives,
  categoryByCode,
  categoryIgnoringCase,
  damerauLevenshteinDistance,
  isCategoryLike,
  nearestCategories,
} from '../../server/src/service/taxonomy';

/** Matches one CJK unified ideograph. */
const CJK_IDEOGRAPH = /[\u4e00-\u9fff]/;

/** The codes of a list of categories, for compact assertions. */
function codesOf(categories: readonly { readonly code: string }[]): string[] {
  return categories.map((category) => category.code);
}

describe('taxonomy: the category table', () => {
  test('Should list between 150 and 160 categories with unique codes', () => {
    assert.ok(ALL_CATEGORIES.length >= 150 && ALL_CATEGORIES.length <= 160, `${ALL_CATEGORIES.length}`);
    const codes = codesOf(ALL_CATEGORIES);
    assert.equal(new Set(codes).size, codes.length);
  });

  test('Should have codes that stay unique when case is ignored', () => {
    const lowerCaseCodes = ALL_CATEGORIES.map((category) => category.code.toLowerCase());
    assert.equal(new Set(lowerCaseCodes).size, lowerCaseCodes.length);
  });

  test('Should have the expected number of codes in each archive', () => {
    const expectedCounts: Record<string, number> = {
      cs: 40, math: 32, stat: 6, eess: 4, econ: 3, 'q-bio': 10, 'q-fin': 9, 'astro-ph': 6,
      'cond-mat': 9, physics: 22, nlin: 5, 'gr-qc': 1, 'hep-ex': 1, 'hep-lat': 1, 'hep-ph': 1,
      'hep-th': 1, 'math-ph': 1, 'nucl-ex': 1, 'nucl-th': 1, 'quant-ph': 1,
    };
    const actualCounts: Record<string, number> = {};
    for (const category of ALL_CATEGORIES) {
      const prefix = archivePrefix(category.code);
      actualCounts[prefix] = (actualCounts[prefix] ?? 0) + 1;
    }
    assert.deepEqual(actualCounts, expectedCounts);
  });

  test('Should have every code shaped like a category code', () => {
    for (const category of ALL_CATEGORIES) {
      assert.ok(isCategoryLike(category.code), category.code);
    }
  });

  test('Should give every category a non-empty English name and a Chinese name containing CJK', () => {
    for (const category of ALL_CATEGORIES) {
      assert.ok(category.name.trim().length > 0, category.code);
      assert.ok(category.nameZh.trim().length > 0, category.code);
      assert.match(category.nameZh, CJK_IDEOGRAPH, category.code);
    }
  });

  test('Should have the archive of every code in the archives map, with matching names', () => {
    for (const category of ALL_CATEGORIES) {
      const archive = archives.get(archivePrefix(category.code));
      assert.ok(archive !== undefined, category.code);
      assert.equal(category.archive, archive.name, category.code);
    }
  });

  test('Should give every archive an English name and a Chinese name containing CJK', () => {
    assert.equal(archives.size, 20);
    for (const [prefix, archive] of archives) {
      assert.ok(archive.name.length > 0, prefix);
      assert.match(archive.nameZh, CJK_IDEOGRAPH, prefix);
    }
  });

  test('Should use no archive that has no categories', () => {
    const usedPrefixes = new Set(ALL_CATEGORIES.map((category) => archivePrefix(category.code)));
    assert.deepEqual([...archives.keys()].sort(), [...usedPrefixes].sort());
  });
});

describe('taxonomy: categoryByCode', () => {
  test('Should find the examples named in the digest format', () => {
    const examples = [
      'cs.CL', 'cs.AI', 'cs.LG', 'math.OC', 'stat.ML', 'eess.AS', 'q-bio.NC', 'physics.comp-ph',
      'quant-ph', 'hep-th', 'astro-ph.CO', 'cond-mat.mes-hall', 'nlin.AO', 'q-fin.CP', 'econ.EM',
      'gr-qc', 'math-ph', 'nucl-th', 'hep-ex', 'hep-lat', 'hep-ph', 'nucl-ex',
    ];
    for (const code of examples) {
      assert.equal(categoryByCode(code)?.code, code, code);
    }
  });

  test('Should give cs.CL its English, Chinese and archive names', () => {
    assert.deepEqual(categoryByCode('cs.CL'), {
      code: 'cs.CL',
      name: 'Computation and Language',
      nameZh: '计算与语言',
      archive: 'Computer Science',
    });
  });

  test('Should give official names to a sample of categories across archives', () => {
    const expectedNames: Record<string, string> = {
      'cs.LG': 'Machine Learning',
      'math.OC': 'Optimization and Control',
      'stat.ML': 'Machine Learning',
      'eess.AS': 'Audio and Speech Processing',
      'q-bio.NC': 'Neurons and Cognition',
      'physics.comp-ph': 'Computational Physics',
      'quant-ph': 'Quantum Physics',
      'hep-th': 'High Energy Physics - Theory',
      'astro-ph.CO': 'Cosmology and Nongalactic Astrophysics',
      'cond-mat.mes-hall': 'Mesoscale and Nanoscale Physics',
      'nlin.AO': 'Adaptation and Self-Organizing Systems',
      'q-fin.CP': 'Computational Finance',
      'econ.EM': 'Econometrics',
      'gr-qc': 'General Relativity and Quantum Cosmology',
    };
    for (const [code, name] of Object.entries(expectedNames)) {
      assert.equal(categoryByCode(code)?.name, name, code);
    }
  });

  test('Should name the archives of standalone and dotted codes', () => {
    assert.equal(categoryByCode('quant-ph')?.archive, 'Quantum Physics');
    assert.equal(categoryByCode('q-bio.NC')?.archive, 'Quantitative Biology');
    assert.equal(categoryByCode('astro-ph.CO')?.archive, 'Astrophysics');
    assert.deepEqual(archives.get('cs'), { name: 'Computer Science', nameZh: '计算机科学' });
  });

  test('Should match case-sensitively and reject unknown codes', () => {
    assert.equal(categoryByCode('cs.cl'), undefined);
    assert.equal(categoryByCode('CS.CL'), undefined);
    assert.equal(categoryByCode('cs.XX'), undefined);
    assert.equal(categoryByCode('cs'), undefined);
    assert.equal(categoryByCode(''), undefined);
    assert.equal(categoryByCode('toString'), undefined);
  });
});

describe('taxonomy: categoryIgnoringCase', () => {
  test('Should find miscased codes', () => {
    assert.equal(categoryIgnoringCase('CS.lg')?.code, 'cs.LG');
    assert.equal(categoryIgnoringCase('cs.cl')?.code, 'cs.CL');
    assert.equal(categoryIgnoringCase('PHYSICS.COMP-PH')?.code, 'physics.comp-ph');
    assert.equal(categoryIgnoringCase('Quant-Ph')?.code, 'quant-ph');
    assert.equal(categoryIgnoringCase('Q-BIO.nc')?.code, 'q-bio.NC');
  });

  test('Should find correctly cased codes and reject unknown ones', () => {
    assert.equal(categoryIgnoringCase('stat.ML')?.code, 'stat.ML');
    assert.equal(categoryIgnoringCase('cs.xx'), undefined);
    assert.equal(categoryIgnoringCase(''), undefined);
  });
});

describe('taxonomy: nearestCategories', () => {
  test('Should suggest the intended code first for common typos', () => {
    const typos: Record<string, string> = {
      'cs.CLL': 'cs.CL',
      'cs.LGG': 'cs.LG',
      'math.OCC': 'math.OC',
      'qunat-ph': 'quant-ph',
      'hep-tj': 'hep-th',
      'physics.comp-hp': 'physics.comp-ph',
      'physics.optic': 'physics.optics',
      'cond-mat.mes-hal': 'cond-mat.mes-hall',
      'astro-ph.OC': 'astro-ph.CO',
    };
    for (const [typo, intended] of Object.entries(typos)) {
      assert.equal(nearestCategories(typo)[0]?.code, intended, typo);
    }
  });

  test('Should compare ignoring case, so a miscased code is its own nearest category', () => {
    assert.equal(nearestCategories('CS.lg')[0]?.code, 'cs.LG');
    assert.equal(nearestCategories('stat.Ml')[0]?.code, 'stat.ML');
  });

  test('Should suggest only close cs codes, or none, for cs.XX', () => {
    const suggestions = nearestCategories('cs.XX');
    assert.ok(suggestions.length <= 3);
    for (const category of suggestions) {
      assert.equal(archivePrefix(category.code), 'cs', category.code);
    }
  });

  test('Should break ties by preferring the same archive, then by code order', () => {
    // math.PR and math-ph are both one edit from math.ph; only math.PR shares the archive.
    assert.deepEqual(codesOf(nearestCategories('math.ph', 2)), ['math.PR', 'math-ph']);
    // For math-pr the same two are one edit away and neither shares its archive, so code order decides.
    assert.deepEqual(codesOf(nearestCategories('math-pr', 2)), ['math-ph', 'math.PR']);
    // Among the equally distant cs codes, the order is the codes' order.
    const csSuggestions = codesOf(nearestCategories('cs.XX', 10));
    assert.deepEqual(csSuggestions, [...csSuggestions].sort());
  });

  test('Should count a swap of two adjacent characters as one edit', () => {
    // hep-ht is one swap from hep-th but two plain edits from it, as from hep-ex and hep-ph; only
    // counting the swap as one edit puts hep-th ahead of hep-ex, which comes first in code order.
    assert.equal(nearestCategories('hep-ht')[0]?.code, 'hep-th');
    assert.deepEqual(codesOf(nearestCategories('qunat-ph')), ['quant-ph']);
  });

  test('Should return nothing for text far from every code', () => {
    assert.deepEqual(nearestCategories('zzzzzzzz'), []);
    assert.deepEqual(nearestCategories('bioinformatics'), []);
    assert.deepEqual(nearestCategories(''), []);
  });

  test('Should return no more than the limit', () => {
    assert.equal(nearestCategories('cs.XX', 2).length, 2);
    assert.equal(nearestCategories('cs.XX', 1).length, 1);
    assert.deepEqual(nearestCategories('cs.CL', 0), []);
  });

  test('Should return only codes within the allowed distance', () => {
    // A one-letter slip in a long code is allowed more edits, but a different subject is not close.
    assert.equal(nearestCategories('physics.xxxxxxx').length, 0);
    assert.deepEqual(codesOf(nearestCategories('cs', 3)), []);
  });
});

describe('taxonomy: isCategoryLike', () => {
  test('Should accept code-shaped text, known or not', () => {
    for (const text of ['cs.CL', 'quant-ph', 'cond-mat.mes-hall', 'cs.XX', 'CS.lg', 'foo.Bar9', 'hep-th']) {
      assert.ok(isCategoryLike(text), text);
    }
  });

  test('Should reject text that is not shaped like a code', () => {
    const notCodes = [
      '', 'cs.', '.CL', 'cs..CL', 'cs.CL.x', 'cs CL', ' cs.CL', 'cs.CL ', '2401.12345', 'cs.-CL',
      'cs-.CL', 'cs.CL-', '-cs', 'cs_CL', 'cs.计算', '[cs.AI]', 'cs,CL',
    ];
    for (const text of notCodes) {
      assert.equal(isCategoryLike(text), false, JSON.stringify(text));
    }
  });

  test('Should answer quickly for long pathological input', () => {
    const started = Date.now();
    assert.equal(isCategoryLike(`a${'-'.repeat(100_000)}!`), false);
    assert.equal(isCategoryLike(`${'a.'.repeat(50_000)}`), false);
    assert.ok(Date.now() - started < 1000);
  });
});

describe('taxonomy: the distance between codes', () => {
  /** The plain table of the optimal-string-alignment distance, whole. */
  function reference(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  }

  test('Should give the plain table\u2019s distance, and past a bound a distance past it', () => {
    const code = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '-'), maxLength: 12 });
    fc.assert(
      fc.property(code, code, fc.integer({ min: 0, max: 6 }), (a, b, atMost) => {
        const exact = reference(a, b);
        assert.equal(damerauLevenshteinDistance(a, b), exact);
        const bounded = damerauLevenshteinDistance(a, b, atMost);
        assert.ok(exact <= atMost ? bounded === exact : bounded > atMost, JSON.stringify({ a, b, atMost, exact, bounded }));
      }),
      { numRuns: 2_000 },
    );
    // A longer string than any before (the rows grow).
    assert.equal(damerauLevenshteinDistance('x'.repeat(300), 'y'.repeat(299)), 300);
  });
});
