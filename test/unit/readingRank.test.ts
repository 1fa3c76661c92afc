/**
 * Ranking after an interests change (the score-only path, interestScore) and after a state
 * change gives what a model built afresh gives; single-word interests match whole words as
 * the word pattern does, around any letter or number, surrogate pairs included.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { interestScore, parseInterests, scorePaper } from '../../server/src/service/reading/interests';
import type { InterestsInput } from '../../server/src/service/reading/interests';
import { ReadingModel } from '../../server/src/service/reading/model';
import { paperKeyOf } from '../../server/src/service/reading/paperInfo';
import { rankPapers } from '../../server/src/service/reading/scope';
import { generatedEntry } from '../bench/generate';
import { digest, entryLines } from '../support/fixtures';
import { testWorkspace } from '../support/readingModel';

const W = 'file:///w';

describe('interest scores without reasons', () => {
  test('Should match a one-word keyword only as a whole word, as scorePaper does', () => {
    const titles: [string, number][] = [
      ['Probes here', 2],
      ['Probesx here', 0],
      ['éProbes here', 0],
      // Chinese and Japanese write Latin words beside their own characters with no space.
      ['数Probes here', 2],
      ['优于Probes和GRPO', 2],
      ['プローブProbes', 2],
      ['Probes확인', 2],
      ['𐐀Probes here', 0],
      ['😀Probes here', 2],
      ['Probes2 here', 0],
      ['(Probes) here', 2],
      ['Probes2 and then probes', 2],
      ['PROBES', 2],
    ];
    const text = digest(...titles.map(([title]) => entryLines('', { englishTitle: title, topicHits: null })));
    const w = testWorkspace({ [`${W}/2026-05-01.digest`]: text }, { keywords: ['probes'] });
    const interests = parseInterests({ keywords: ['probes'] });
    const papers = [...w.model.lookup().papers()];
    assert.equal(papers.length, titles.length);
    papers.forEach((paper, i) => {
      assert.equal(interestScore(interests, paper), titles[i][1], titles[i][0]);
      assert.equal(scorePaper(interests, paper).score, titles[i][1], `${titles[i][0]} with reasons`);
    });
  });

  test('Should find a Latin keyword in a Chinese summary, beside Chinese characters', () => {
    const text = digest(entryLines('', { englishTitle: 'A Title Without It', topicHits: null, summary: 'AI总结 本文提出VRPO，在多项任务上优于PPO和GRPO。' }));
    const w = testWorkspace({ [`${W}/2026-05-01.digest`]: text });
    const [paper] = [...w.model.lookup().papers()];
    for (const [keyword, score] of [['PPO', 1], ['grpo', 1], ['VRPO', 1], ['RPO', 0], ['PP', 0]] as const) {
      assert.equal(scorePaper(parseInterests({ keywords: [keyword] }), paper).score, score, keyword);
      assert.equal(interestScore(parseInterests({ keywords: [keyword] }), paper), score, keyword);
    }
  });

  test('Should match a keyword of several words whole, across any run of white space, as a regular expression with \\s+ between its words does', () => {
    let seed = 11;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const words = ['a', 'b', 'ab', 'ba', 'a1', 'é', 'b-a'];
    const gaps = [' ', ' ', '  ', '\t', ' \u00a0 ', '-', ''];
    const pick = <T>(list: readonly T[]): T => list[random(list.length)];
    for (let round = 0; round < 40; round++) {
      const titles = Array.from({ length: 12 }, () => `X ${Array.from({ length: 2 + random(6) }, () => pick(words)).map((word, i) => (i === 0 ? word : pick(gaps) + word)).join('')}`);
      const w = testWorkspace({ [`${W}/2026-05-01.digest`]: digest(...titles.map((englishTitle) => entryLines('', { englishTitle, topicHits: null, summary: 'AI总结 无。' }))) });
      const papers = [...w.model.lookup().papers()];
      for (let t = 0; t < 6; t++) {
        const term = Array.from({ length: 2 + random(2) }, () => pick(words)).join(pick([' ', '  ', '\t']));
        const interests = parseInterests({ keywords: [term] });
        const expression = new RegExp(`(?<![\\p{L}\\p{N}])${term.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u');
        for (const paper of papers) {
          const expected = expression.test(paper.englishTitle.normalize('NFKC').toLowerCase()) ? 2 : 0;
          assert.equal(scorePaper(interests, paper).score, expected, `${JSON.stringify(term)} in ${JSON.stringify(paper.englishTitle)}`);
          assert.equal(interestScore(interests, paper), expected);
        }
      }
    }
  });

  test('Should cut a long term to 200 characters with no space left at its end, so that it still matches before a word', () => {
    // 150 words of `a`: cut after a space, the term ended with one, and matched no place followed by a letter.
    const term = Array.from({ length: 150 }, () => 'a').join(' ');
    const w = testWorkspace({ [`${W}/2026-05-01.digest`]: digest(entryLines('', { englishTitle: `X ${term} more`, topicHits: null, summary: 'AI总结 无。' })) });
    const [paper] = [...w.model.lookup().papers()];
    assert.equal(scorePaper(parseInterests({ keywords: [term] }), paper).score, 2);
    assert.equal(interestScore(parseInterests({ keywords: [term] }), paper), 2);
  });

  test('Should give the score scorePaper gives with its reasons, for every kind of interest', () => {
    const paragraphs: string[] = [];
    for (let i = 0; i < 400; i++) paragraphs.push(...generatedEntry(i));
    const w = testWorkspace({ [`${W}/2026-05-01.digest`]: ['大模型推理能力', ...paragraphs].join('\n\n') + '\n' });
    const interests = parseInterests({
      keywords: [{ term: 'reasoning', weight: 2 }, 'Distillation', { term: '思维链', weight: 1.5 }, { term: 'Benchmarks', weight: -0.5 }, 'chain of thought'],
      topics: ['数学推理'],
      categories: ['cs.CL', { term: 'math.*', weight: -1 }],
      authors: ['Wei Zhang', '张伟'],
      institutions: ['Tsinghua University', '复旦大学'],
    });
    let nonZero = 0;
    for (const paper of w.model.lookup().papers()) {
      const expected = scorePaper(interests, paper);
      assert.equal(interestScore(interests, paper), expected.score, paper.title);
      if (expected.score !== 0) nonZero++;
    }
    assert.ok(nonZero > 50, `${nonZero} papers scored`);
  });
});

describe('interest scores kept per matcher', () => {
  test('Should give the score scorePaper gives over any sequence of interests, weights changed, terms added, lists in turns and more terms than a table keeps', () => {
    const paragraphs: string[] = [];
    for (let i = 0; i < 120; i++) paragraphs.push(...generatedEntry(i * 7));
    const w = testWorkspace({ [`${W}/2026-05-01.digest`]: ['大模型推理能力', ...paragraphs].join('\n\n') + '\n' });
    const papers = [...w.model.lookup().papers()];
    const terms: Record<string, readonly string[]> = {
      keywords: ['reasoning', 'Distillation', '思维链', 'Benchmarks', 'chain of thought', 'Sparse', 'verifier', 'latent', 'probes', '稀疏', 'Scaling', 'transformers'],
      topics: ['数学推理', '推理', 'reasoning'],
      categories: ['cs.CL', 'math.*', 'cs.LG', 'cs.AI', 'stat.ML', 'cs.*'],
      authors: ['Wei Zhang', '张伟', 'Mei Tanaka', 'Lin Qiu'],
      institutions: ['Tsinghua University', '复旦大学', 'Kyoto University', 'MIT'],
    };
    const field = fc.constantFrom(...Object.keys(terms));
    // Terms of the pool, and others (a matcher each) that overflow the kept matchers.
    const item = fc.tuple(field, fc.nat(40), fc.oneof(fc.constant(undefined), fc.integer({ min: -3, max: 3 }), fc.double({ min: -2, max: 2, noNaN: true })));
    const input = fc.array(item, { maxLength: 45 }).map((items) => {
      const result: Record<string, unknown[]> = {};
      for (const [name, n, weight] of items) {
        const pool = terms[name];
        const term = n < pool.length ? pool[n] : `${pool[n % pool.length]} ${n}`;
        (result[name] ??= []).push(weight === undefined ? term : { term, weight });
      }
      return result;
    });
    let checked = 0;
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 6 }), (inputs) => {
        const lists = inputs.map((each) => parseInterests(each));
        lists.forEach((interests, i) => {
          for (const paper of papers) {
            assert.equal(interestScore(interests, paper), scorePaper(interests, paper).score, `${paper.title} with ${JSON.stringify(inputs[i])}`);
            checked++;
          }
        });
        // Two lists in turns, paper by paper (two folders of a workspace, each with its interests).
        for (let i = 0; i + 1 < lists.length; i++) {
          papers.forEach((paper, n) => {
            const interests = lists[i + (n % 2)];
            assert.equal(interestScore(interests, paper), scorePaper(interests, paper).score, `${paper.title} in turns`);
          });
        }
      }),
      { numRuns: 60, seed: 16 },
    );
    assert.ok(checked > 10_000, `${checked} scores compared`);
  });
});

describe('ranking after changes', () => {
  const files = (): Record<string, string> => {
    const result: Record<string, string> = {};
    for (let f = 0; f < 3; f++) {
      const paragraphs = ['大模型推理能力'];
      // Papers 100..199 are in two digests (repeats).
      for (let i = f * 100; i < f * 100 + 200; i++) paragraphs.push(...generatedEntry(i));
      result[`${W}/2026-05-0${f + 1}.digest`] = paragraphs.join('\n\n') + '\n';
    }
    return result;
  };
  const order = (papers: readonly { uri: string; key: string }[]): string[] => papers.map((paper) => `${paper.uri}#${paper.key}`);

  test('Should rank as a model built afresh after an interests change and after a state change', () => {
    let input: InterestsInput = { keywords: ['reasoning'], institutions: ['Tsinghua University'] };
    let interests = parseInterests(input);
    const w = testWorkspace(files(), input);
    // The workspace's model, whose interests this test changes.
    const model = new ReadingModel(w.index, { storeFor: () => w.store, interestsFor: () => interests, mtimeOf: () => undefined });
    const queries = [{}, { filter: 'reasoning' }, { unreadOnly: true }];
    const check = (what: string): void => {
      const fresh = testWorkspace(files(), input, {}, w.disk.text);
      for (const query of queries) {
        assert.deepEqual(order(rankPapers(model.lookup(), query)), order(rankPapers(fresh.model.lookup(), query)), `${what} ${JSON.stringify(query)}`);
      }
    };
    check('at first');
    input = { keywords: [{ term: 'reasoning', weight: -1 }, 'Distillation'], authors: ['Wei Zhang'], hideBelow: -0.5 };
    interests = parseInterests(input);
    model.invalidate();
    check('new interests');
    const first = rankPapers(model.lookup(), {})[0];
    w.store.change([paperKeyOf(first)], { read: true });
    model.invalidate();
    check('a state change');
    assert.notEqual(rankPapers(model.lookup(), { unreadOnly: true })[0], first);
  });
});
