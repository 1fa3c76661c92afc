import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { entryNames, fileTerms, forgetSharedNames } from '../../server/src/service/terms';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { WorkspaceTerms } from '../../server/src/service/workspaceTerms';
import { digest, entryLines } from '../support/fixtures';
import { digestText } from '../support/modelChecks';
import { digestMutant } from '../support/mutants';

const A = 'file:///w/a.digest';
const B = 'file:///w/b.digest';
const fudan = (translation: string) => digest(entryLines('X', { institutions: `机构 * Fudan University（${translation}） 纠错` }));

describe('workspaceTerms: the workspace\u2019s names, kept with the index', () => {
  test('Should count institutions, translations, topics, keywords and categories per file', () => {
    const terms = fileTerms(parseDigest(digest(entryLines('A'), entryLines('B', { institutions: '机构 * kyoto  UNIVERSITY（京大） 纠错' }))));
    const kyoto = terms.institutions.get('kyoto university')!;
    assert.deepEqual([...kyoto.names], [['Kyoto University', 1], ['kyoto  UNIVERSITY', 1]]);
    assert.deepEqual([...kyoto.translations], [['京都大学', 1], ['京大', 1]]);
    assert.deepEqual(kyoto.papers, [0, 1]);
    assert.deepEqual([...terms.topics], [['数学推理', 2]]);
    assert.deepEqual([...terms.keywords.keys()], ['reasoning', 'math reasoning']);
    assert.deepEqual([...terms.categories], [['cs.LG', 2], ['cs.CL', 2]]);
  });

  test('Should keep the authors\u2019 Chinese forms of a 机构 line that lists authors', () => {
    const terms = fileTerms(parseDigest(digest(entryLines('A', { institutions: '机构 * Wei Zhang, Lin Qiu（张伟、邱林）' }))));
    assert.deepEqual([...terms.authors.get('wei zhang')!.forms], [['张伟', 1]]);
    assert.equal(terms.institutions.size, 0);
  });

  test('Should follow updates, open documents, renames and removals of the index', () => {
    const index = new WorkspaceIndex();
    const terms = new WorkspaceTerms(index);
    index.update(A, fudan('复旦大学'));
    index.update(B, fudan('复旦'));
    const translations = () => [...(terms.institutions.get('fudan university')?.translations ?? [])].sort();
    assert.deepEqual(translations(), [['复旦', 1], ['复旦大学', 1]]);
    const version = terms.translationsVersion;
    index.updateOpen(B, fudan('复旦大学'));
    assert.deepEqual(translations(), [['复旦大学', 2]]);
    assert.ok(terms.translationsVersion > version);
    index.closeOpen(B);
    assert.deepEqual(translations(), [['复旦', 1], ['复旦大学', 1]]);
    index.rename(B, 'file:///w/c.digest');
    assert.deepEqual(translations(), [['复旦', 1], ['复旦大学', 1]]);
    assert.ok(terms.file('file:///w/c.digest') && !terms.file(B));
    index.remove('file:///w/');
    assert.equal(terms.institutions.size, 0);
    assert.equal(terms.topics.size, 0);
  });

  test('Should judge a document by its current text: translationsWith replaces what the index has for it', () => {
    const index = new WorkspaceIndex();
    const terms = new WorkspaceTerms(index);
    index.update(A, fudan('复旦大学'));
    index.update(B, fudan('复旦'));
    const current = fileTerms(parseDigest(fudan('复旦大学')));
    assert.deepEqual([...terms.translationsWith('fudan university', B, current)], [['复旦大学', 2]]);
    assert.deepEqual([...terms.translationsWith('fudan university', 'untitled:1', current)].sort(), [['复旦', 1], ['复旦大学', 2]]);
  });

  test('Should share one list and one names object among entries naming the same', () => {
    const doc = parseDigest(digest(entryLines('A'), entryLines('B'), entryLines('C', { institutions: '机构 * Fudan University（复旦大学） 纠错' })));
    const [a, b, c] = doc.entries.map(entryNames);
    assert.equal(a, b);
    assert.notEqual(a.institutions, c.institutions);
    assert.equal(a.keywords, c.keywords);
    assert.equal(a.categories, c.categories);
  });

  test('Should give every entry the names it would have if none had been shared (random and mutated digests)', () => {
    const text = fc.oneof(digestMutant, digestText);
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        // The names of each digest in turn, the lists shared with those of the digests before it.
        const shared = texts.map((each) => parseDigest(each).entries.map(entryNames));
        texts.forEach((each, i) => {
          forgetSharedNames();
          assert.deepStrictEqual(shared[i], parseDigest(each).entries.map(entryNames));
        });
      }),
      { numRuns: 300 },
    );
  });
});
