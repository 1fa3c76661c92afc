/**
 * The reading model without a server: interest ranking (keywords, topics, categories, authors,
 * institutions, weights, ties), digest order, new and repeat papers, and the state a repeat
 * keeps.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dateInFileName } from '../../server/src/service/reading/digestOrder';
import { digestDateOf } from '../../server/src/service/digestDates';
import { MessageRef, messageText } from '../../server/src/service/cliMessages';
import type { InterestsInput } from '../../server/src/service/reading/interests';
import { interestsFromFileText, interestScore, parseInterests, scorePaper } from '../../server/src/service/reading/interests';
import { papersInScope, rankPapers } from '../../server/src/service/reading/scope';
import { papersTree, PapersTreeLookup } from '../../server/src/service/features/tree';
import { digestStatistics } from '../../server/src/service/features/statistics';
import { rollup } from '../../server/src/service/features/rollup';
import { distinctPaperCount } from '../../server/src/service/features/documentStats';
import { termKey } from '../../server/src/service/terms';
import { ReadingModel } from '../../server/src/service/reading/model';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import type { PaperSummary } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';
import { MemoryDisk, RL, testWorkspace } from '../support/readingModel';

const DAY1 = 'file:///w/2026-05-01.digest';
const DAY2 = 'file:///w/2026-05-02.digest.txt';

const PROBES = entryLines('P', {
  englishTitle: 'Sparse Probes for Arithmetic Circuits',
  chineseTitle: '算术电路的稀疏探针',
  authors: 'Mei Tanaka',
  institutions: '机构 * Kyoto University（京都大学） 纠错',
  topicHits: '专题命中 可解释性 ：probe(title)；分类 cs.CL',
  summary: 'AI总结 本文借助强化学习的奖励信号定位电路。',
});
const PROTEIN = entryLines('B', {
  englishTitle: 'Noisy Labels in Protein Folding Benchmarks',
  chineseTitle: '蛋白质折叠基准中的噪声标签',
  authors: 'Rui Chen',
  institutions: '机构 * Tsinghua University（清华大学） 纠错',
  topicHits: '专题命中 生物 ：protein(title)；分类 q-bio.BM',
  summary: 'AI总结 分析噪声标签。',
});
const WORLD = entryLines('W', {
  englishTitle: 'World Models for Planning',
  chineseTitle: '用于规划的世界模型',
  authors: 'Ines Duarte',
  institutions: '机构 * ETH Zurich（苏黎世联邦理工学院） 纠错',
  topicHits: '专题命中 规划 ：planning(title)；分类 cs.AI',
  summary: 'AI总结 世界模型。',
});
const QUERY = entryLines('Q', {
  englishTitle: 'Graph Rewriting for Query Planning',
  chineseTitle: '面向查询规划的图重写',
  authors: 'Pavel Novak',
  institutions: '机构 * Charles University（查理大学） 纠错',
  topicHits: '专题命中 数据库 ：query(title)；分类 cs.DB',
  summary: 'AI总结 图重写。',
});

const INTERESTS: InterestsInput = {
  keywords: [{ term: 'reinforcement learning', weight: 2 }, '强化学习', { term: 'RL', weight: 5 }],
  authors: ['Alice Smith'],
  institutions: ['清华大学'],
  categories: [{ term: 'q-bio.*', weight: -3 }],
  topics: [{ term: '数学推理', weight: 0.5 }],
};

function titles(papers: readonly PaperSummary[]): string[] {
  return papers.map((paper) => paper.title);
}

function paperNamed(papers: Iterable<PaperSummary>, title: string, uri?: string): PaperSummary {
  for (const paper of papers) {
    if (paper.title === title && (uri === undefined || paper.uri === uri)) return paper;
  }
  assert.fail(`no paper ${title} in ${uri ?? 'the workspace'}`);
}

describe('reading: interest ranking', () => {
  test('Should score a paper by each matched interest with its weight and give the reasons', () => {
    const w = testWorkspace({ [DAY1]: digest(RL, PROBES, PROTEIN, WORLD) }, INTERESTS);
    const lookup = w.model.lookup();
    const rl = lookup.info(paperNamed(lookup.papers(), 'Reinforcement Learning for Theorem Proving'));
    // English keyword in the title, counted double (weight 2: +4), Chinese keyword in the Chinese title counted double (+2),
    // the author (+1), the institution by its Chinese name (+1), the topic (+0.5).
    assert.equal(rl.score, 8.5, rl.reasons.join('\n'));
    assert.deepEqual(rl.reasons, [
      "keyword 'reinforcement learning' in the title, counted double (+4) · 标题含关键词",
      "keyword '强化学习' in the title, counted double (+2) · 标题含关键词",
      'topic 数学推理 (+0.5) · 专题',
      'author Alice Smith (+1) · 作者',
      'institution Tsinghua University (+1) · 机构 清华大学',
    ]);
    const probes = lookup.info(paperNamed(lookup.papers(), 'Sparse Probes for Arithmetic Circuits'));
    assert.equal(probes.score, 1, 'the Chinese keyword only in the summary counts ×1');
    assert.deepEqual(probes.reasons, ["keyword '强化学习' in the summary or hits (+1) · 总结或命中词含关键词"]);
    const protein = lookup.info(paperNamed(lookup.papers(), 'Noisy Labels in Protein Folding Benchmarks'));
    assert.equal(protein.score, -2, 'a negative weight for the archive pushes it down, below the institution it shares');
    const world = lookup.info(paperNamed(lookup.papers(), 'World Models for Planning'));
    assert.equal(world.score, 0, `'RL' is a whole word: it does not match "world": ${world.reasons.join('; ')}`);
  });

  test('Should match ignoring case and width, and Latin terms as whole words only', () => {
    const w = testWorkspace({ [DAY1]: digest(RL, WORLD) }, { keywords: ['ＲＥＩＮＦＯＲＣＥＭＥＮＴ   learning', 'model', 'mod'] });
    const lookup = w.model.lookup();
    assert.equal(lookup.info(paperNamed(lookup.papers(), 'Reinforcement Learning for Theorem Proving')).score, 2);
    const world = lookup.info(paperNamed(lookup.papers(), 'World Models for Planning'));
    // "model" is not a whole word in "Models"; "mod" neither.
    assert.equal(world.score, 0, world.reasons.join('; '));
  });

  test('Should rank highest first, leave out what hideBelow hides, and break ties by newer digest, then file order', () => {
    const files = { [DAY1]: digest(WORLD, PROTEIN, QUERY), [DAY2]: digest(PROBES, RL) };
    const w = testWorkspace(files, { ...INTERESTS, hideBelow: -1 });
    const ranked = rankPapers(w.model.lookup(), {});
    assert.deepEqual(titles(ranked), [
      'Reinforcement Learning for Theorem Proving',
      'Sparse Probes for Arithmetic Circuits',
      // Score 0: the same score, so the file order of the older digest.
      'World Models for Planning',
      'Graph Rewriting for Query Planning',
    ]);
    // The same order whatever order the index learnt the files in.
    const reversed = testWorkspace({ [DAY2]: files[DAY2], [DAY1]: files[DAY1] }, { ...INTERESTS, hideBelow: -1 });
    assert.deepEqual(titles(rankPapers(reversed.model.lookup(), {})), titles(ranked));
    // A tie between digests: the newer digest's paper first.
    const tie = testWorkspace({ [DAY1]: digest(WORLD), [DAY2]: digest(QUERY) }, INTERESTS);
    assert.deepEqual(titles(rankPapers(tie.model.lookup(), {})), ['Graph Rewriting for Query Planning', 'World Models for Planning']);
  });

  test('Should rank each paper once, at its place in the newest digest', () => {
    const w = testWorkspace({ [DAY1]: digest(RL, WORLD), [DAY2]: digest(RL) }, INTERESTS);
    const ranked = rankPapers(w.model.lookup(), {});
    assert.deepEqual(titles(ranked), ['Reinforcement Learning for Theorem Proving', 'World Models for Planning']);
    assert.equal(ranked[0].uri, DAY2);
  });

  test('Should order by digest and file order alone without interests', () => {
    const w = testWorkspace({ [DAY1]: digest(WORLD, QUERY), [DAY2]: digest(PROBES) });
    assert.deepEqual(titles(rankPapers(w.model.lookup(), {})), ['Sparse Probes for Arithmetic Circuits', 'World Models for Planning', 'Graph Rewriting for Query Planning']);
  });

  test('Should name malformed interests and use the rest', () => {
    const interests = parseInterests({ keywords: ['ok', { term: 'bad', weight: 'heavy' }, { weight: 2 }, 42], colours: ['red'], hideBelow: 'low', authors: 'Alice' });
    assert.deepEqual(interests.list.map((each) => each.term), ['ok']);
    const english = (problems: readonly MessageRef[]): string[] => problems.map((problem) => messageText(problem).en);
    assert.deepEqual(english(interests.problems), ['the weight of "bad" is not a number from -1000 to 1000', 'an item of "keywords" has no term', 'an item of "keywords" has no term', '"authors" is not a list', 'unknown field "colours"', '"hideBelow" is not a number']);
    assert.deepEqual(english(parseInterests('reinforcement').problems), ['the interests are not an object']);
    // A weight past ±1000 (scores of Infinity and NaN once summed) is named, one at the limit kept.
    const huge = parseInterests({ keywords: [{ term: 'sparse', weight: 1e308 }, { term: 'probes', weight: -1001 }, { term: 'circuits', weight: 1000 }] });
    assert.deepEqual(huge.list.map((each) => [each.term, each.weight]), [['circuits', 1000]]);
    assert.equal(huge.problems.length, 2);
    assert.deepEqual(
      interests.problems.map((problem) => messageText(problem).zh),
      ['"bad" 的 weight 不是 -1000 到 1000 之间的数字', '"keywords" 中有一项没有 term', '"keywords" 中有一项没有 term', '"authors" 不是列表', '未知字段 "colours"', '"hideBelow" 不是数字'],
      'the same problems in Chinese, the names as written',
    );
  });

  test('Should name an unknown field of an item and say once that there are too many interests', () => {
    const english = (problems: readonly MessageRef[]): string[] => problems.map((problem) => messageText(problem).en);
    const misspelt = parseInterests({ keywords: [{ term: 'a', wieght: 2 }] });
    assert.deepEqual(english(misspelt.problems), ['unknown field "wieght" in an item of "keywords"']);
    assert.deepEqual(misspelt.list.map((each) => [each.term, each.weight]), [['a', 1]]);
    const many = parseInterests({ keywords: Array.from({ length: 600 }, (_, i) => `k${i}`), topics: ['a', 'b'], authors: ['c'] });
    assert.equal(many.list.length, 500);
    assert.deepEqual(english(many.problems), ['more than 500 interests: the rest is ignored']);
  });

  test('Should name a category with a * that is no whole archive, and give no reason for an interest of weight 0', () => {
    const english = (problems: readonly MessageRef[]): string[] => problems.map((problem) => messageText(problem).en);
    const categories = parseInterests({ categories: ['cs.L*', 'cs.*', 'q-bio.*', 'Machine Learning', '*', 'cs.L＊', 'ｃｓ．＊'] });
    assert.deepEqual(categories.list.map((each) => each.term), ['cs.*', 'q-bio.*', 'Machine Learning', 'ｃｓ．＊']);
    assert.deepEqual(english(categories.problems), [
      'the category "cs.L*" can match no paper: a code (cs.CL), a whole archive (cs.*) or a category name',
      'the category "*" can match no paper: a code (cs.CL), a whole archive (cs.*) or a category name',
      'the category "cs.L＊" can match no paper: a code (cs.CL), a whole archive (cs.*) or a category name',
    ]);
    // An archive without subject classes: `quant-ph.*` takes `quant-ph` itself.
    const quantum = testWorkspace({ [DAY1]: digest(entryLines('Q', { topicHits: '专题命中 量子 ：qubit(title)；分类 quant-ph' })) });
    const [qubits] = [...quantum.model.lookup().papers()];
    assert.equal(scorePaper(parseInterests({ categories: ['quant-ph.*'] }), qubits).score, 1);
    assert.equal(scorePaper(parseInterests({ categories: ['quant.*'] }), qubits).score, 0, 'no other archive that starts alike');
    const w = testWorkspace({ [DAY1]: digest(PROBES) });
    const [paper] = [...w.model.lookup().papers()];
    const zero = scorePaper(parseInterests({ keywords: [{ term: 'sparse', weight: 0 }, { term: 'probes', weight: 0.0001 }, { term: 'arithmetic', weight: 1 }] }), paper);
    assert.equal(zero.score, 2);
    assert.deepEqual(zero.reasons.map((reason) => reason.split(' (')[0]), ["keyword 'arithmetic' in the title, counted double"]);
  });

  test('Should read an interests.json with a byte order mark, and name one that is null or not JSON', () => {
    const english = (problems: readonly MessageRef[]): string[] => problems.map((problem) => messageText(problem).en);
    const withMark = interestsFromFileText('\uFEFF{"keywords":["reasoning"]}', 'interests.json');
    assert.equal(withMark.fileProblem, undefined);
    assert.deepEqual(withMark.interests.list.map((each) => each.term), ['reasoning']);
    assert.deepEqual(english(interestsFromFileText('null', 'interests.json').interests.problems), ['the interests are not an object']);
    assert.match(messageText(interestsFromFileText('{"keywords": [', 'interests.json').fileProblem!).en, /^interests\.json is not valid JSON/);
  });

  test('Should match a phrase within one title, the summary or one keyword, not across two of them', () => {
    const paper = entryLines('M', {
      englishTitle: 'Probes for Reasoning',
      chineseTitle: '数学推理探针',
      topicHits: '专题命中 数学推理 ：reasoning(abstract)；math reasoning(abstract)；分类 cs.CL',
      summary: 'AI总结 探针。',
    });
    const w = testWorkspace({ [DAY1]: digest(paper) });
    const found = paperNamed(w.model.lookup().papers(), 'Probes for Reasoning');
    assert.equal(scorePaper(parseInterests({ keywords: ['reasoning math'] }), found).score, 0, 'two keywords side by side are not a phrase');
    assert.equal(scorePaper(parseInterests({ keywords: ['reasoning 数学'] }), found).score, 0, 'nor the end of one title and the start of the other');
    assert.equal(scorePaper(parseInterests({ keywords: ['math reasoning'] }), found).score, 1, 'a phrase in one keyword is found');
    assert.equal(interestScore(parseInterests({ keywords: ['reasoning math'] }), found), 0);
  });

  test('Should score hostile terms and titles as plain text (no regular-expression injection)', () => {
    const hostile = entryLines('H', { englishTitle: 'Evil (a+)+$ [x] {y} \\d* <script>alert(1)</script> Study', chineseTitle: '恶意(标题)' });
    const w = testWorkspace({ [DAY1]: digest(hostile) }, { keywords: ['(a+)+$', '</script>', '[x]', '\\d*', '(标题)'] });
    const lookup = w.model.lookup();
    const info = lookup.info(paperNamed(lookup.papers(), 'Evil (a+)+$ [x] {y} \\d* <script>alert(1)</script> Study'));
    assert.equal(info.score, 10, info.reasons.join('\n'));
    const none = scorePaper(parseInterests({ keywords: ['.*'] }), paperNamed(lookup.papers(), 'Evil (a+)+$ [x] {y} \\d* <script>alert(1)</script> Study'));
    assert.equal(none.score, 0, "'.*' is text, not a pattern");
  });
});

describe('reading: digest order and new papers', () => {
  test('Should order digests by the date in the file name, else by modification time', () => {
    const mtimes = { 'file:///w/notes.digest': Date.parse('2026-05-01T12:00:00Z'), 'file:///w/2026-02-30.digest': Date.parse('2026-04-01T00:00:00Z'), [DAY1]: Date.parse('2030-01-01T00:00:00Z') };
    const w = testWorkspace({ [DAY2]: digest(RL), 'file:///w/notes.digest': digest(QUERY), [DAY1]: digest(WORLD), 'file:///w/20260430-weekly.digest': digest(PROBES), 'file:///w/2026-02-30.digest': digest(PROTEIN) }, undefined, mtimes);
    const lookup = w.model.lookup();
    assert.deepEqual(lookup.digests.map((each) => [each.file.uri.slice('file:///w/'.length), each.date ?? null]), [
      ['2026-02-30.digest', null],
      ['20260430-weekly.digest', '2026-04-30'],
      ['2026-05-01.digest', '2026-05-01'],
      ['notes.digest', null],
      ['2026-05-02.digest.txt', '2026-05-02'],
    ]);
    assert.equal(dateInFileName('file:///w/digest-2026-13-01.digest'), undefined);
    assert.equal(dateInFileName('file:///w/x2026-05-01y.digest'), '2026-05-01');
    // As the statistics read names: YYYYMMDD anywhere between non-digits, the last date of the name.
    assert.equal(dateInFileName('file:///w/llm_20260503.digest'), '2026-05-03');
    assert.equal(dateInFileName('file:///w/2026-05-01-to-2026-05-07.digest'), '2026-05-07');
    for (const name of ['llm_20260503.digest', '2026-05-01.digest.txt', 'weekly-20260430.digest', '2026-02-30.digest', 'notes.digest']) {
      assert.equal(dateInFileName(`file:///w/${name}`), digestDateOf(`file:///w/${name}`) ?? undefined, name);
    }
  });

  test('Should mark a paper new in the first digest it appears in and a repeat later, linking to the first', () => {
    // Yesterday and today: the RL paper again today, its title in other case and spacing.
    const again = entryLines('RL', { englishTitle: 'reinforcement  LEARNING for theorem proving' });
    const w = testWorkspace({ [DAY2]: digest(again, QUERY), [DAY1]: digest(RL, WORLD) });
    const lookup = w.model.lookup();
    const first = paperNamed(lookup.papers(), 'Reinforcement Learning for Theorem Proving', DAY1);
    const repeat = paperNamed(lookup.papers(), 'reinforcement  LEARNING for theorem proving', DAY2);
    assert.equal(lookup.info(first).isNew, true);
    assert.equal(lookup.info(repeat).isNew, false);
    assert.deepEqual(lookup.info(repeat).firstSeen, { uri: DAY1, range: first.selectionRange });
    assert.equal(lookup.info(paperNamed(lookup.papers(), 'Graph Rewriting for Query Planning')).isNew, true);
    // New since yesterday: today's papers that are new.
    const today = rankPapers(lookup, { newOnly: true }).filter((paper) => paper.uri === DAY2);
    assert.deepEqual(titles(today), ['Graph Rewriting for Query Planning']);
  });

  test('Should keep a paper’s state in a later digest that repeats it', () => {
    const w = testWorkspace({ [DAY1]: digest(RL), [DAY2]: digest(entryLines('RL', { englishTitle: 'Reinforcement Learning  for Theorem Proving' })) });
    const key = w.model.lookup().info(paperNamed(w.model.lookup().papers(), 'Reinforcement Learning for Theorem Proving')).paperKey;
    assert.deepEqual(w.store.change([key], { starred: true, read: true, addTags: ['rl'] }, new Map([[key, 'Reinforcement Learning for Theorem Proving']])).changed, [key]);
    w.model.invalidate();
    const lookup = w.model.lookup();
    const repeat = lookup.info(paperNamed(lookup.papers(), 'Reinforcement Learning  for Theorem Proving', DAY2));
    assert.equal(repeat.starred, true);
    assert.equal(repeat.read, true);
    assert.deepEqual(repeat.tags, ['rl']);
    assert.equal(lookup.unreadCount(), 0, 'one paper, read, counted once');
    assert.deepEqual(titles(rankPapers(lookup, { unreadOnly: true })), []);
    assert.deepEqual(titles(rankPapers(lookup, { tag: 'rl' })), ['Reinforcement Learning  for Theorem Proving']);
    assert.match(w.disk.text ?? '', /"reinforcement learning for theorem proving": \{\n {6}"title": "Reinforcement Learning for Theorem Proving",\n {6}"read": true,\n {6}"starred": true/);
  });
});

describe('reading: the papers a scope means, as the Papers view shows them', () => {
  const ZH_ONLY = (tag: string) => entryLines(tag, { englishTitle: null, chineseTitle: '一种仅有中文标题的论文关于数学推理', topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.CL' });

  test('Should mean what a grouping shows by a filter scope with the grouping: For you without the papers hideBelow hides', () => {
    // Mark All Shown Papers Read and the export of what the view shows, in For you: they took the
    // hidden papers too, which the reader never saw.
    const w = testWorkspace({ [DAY1]: digest(WORLD, PROTEIN, QUERY), [DAY2]: digest(PROBES, RL) }, { ...INTERESTS, hideBelow: -1 });
    const lookup = w.model.lookup();
    const shown = titles(papersInScope(lookup, { filter: '', grouping: 'forYou' })).sort();
    assert.deepEqual(shown, titles(rankPapers(lookup, {})).sort());
    assert.equal(shown.length, 4);
    assert.ok(!shown.includes(titles(papersInScope(lookup, { filter: 'protein' }))[0]), 'the hidden paper is left out');
    // Other groupings show every paper the filter keeps.
    assert.equal(papersInScope(lookup, { filter: '', grouping: 'topic' }).length, 5);
    assert.equal(papersInScope(lookup, { filter: '' }).length, 5);
    // The reading groupings their own papers: the grouping alone says so (the view sends no unreadOnly).
    const key = lookup.info(paperNamed(lookup.papers(), 'World Models for Planning')).paperKey;
    w.store.change([key], { read: true, starred: true }, new Map([[key, 'World Models for Planning']]));
    w.model.invalidate();
    const after = w.model.lookup();
    assert.equal(papersInScope(after, { filter: '', grouping: 'unread' }).length, 4);
    assert.ok(!titles(papersInScope(after, { filter: '', grouping: 'unread' })).includes('World Models for Planning'));
    assert.deepEqual(titles(papersInScope(after, { filter: '', grouping: 'starred' })), ['World Models for Planning']);
  });

  test('Should take a field filter (as the statistics set it) for marking, ranking and exporting', () => {
    const w = testWorkspace({ [DAY1]: digest(RL, PROTEIN), [DAY2]: digest(PROBES) });
    const lookup = w.model.lookup();
    for (const filter of ['topic:数学推理', 'category:cs.lg', 'date:2026-05-01', 'file:2026-05-01.digest', 'institution:清华大学']) {
      const shown = papersTree(w.index, 'file', filter).paperCount;
      assert.ok(shown > 0, filter);
      assert.equal(papersInScope(lookup, { filter }).length, shown, `${filter}: a filter scope`);
      assert.equal(rankPapers(lookup, { filter }).length, papersTree(w.index, 'file', filter).distinctPaperCount, `${filter}: ranked`);
      const tree = papersTree(w.index, 'file', filter);
      const group = tree.roots[0];
      assert.equal(papersInScope(lookup, { filter, grouping: 'file', groupId: group.id }).length, group.count, `${filter}: a group of the filtered view`);
    }
    // Plain text still finds by titles and names.
    assert.equal(papersInScope(lookup, { filter: 'tsinghua' }).length, papersTree(w.index, 'file', 'tsinghua').paperCount);
  });

  test('Should put a paper in two digests in one For you band once, at the place the ranked list gives it (its newest digest)', () => {
    const hit = entryLines('P', { englishTitle: 'Probing Lattice Reasoning', topicHits: '专题命中 数学推理 ：lattice(title)；分类 cs.CL' });
    const plain = entryLines('P', { englishTitle: 'Probing Lattice Reasoning', topicHits: '专题命中 数学推理 ：probe(title)；分类 cs.CL', summary: 'AI总结 无关。' });
    // The newer copy scores less than the older one: both lists place and score the newer.
    for (const [older, newer] of [
      [plain, hit],
      [hit, plain],
    ]) {
      const w = testWorkspace({ [DAY1]: digest(older, RL), [DAY2]: digest(newer) }, { keywords: [{ term: 'lattice', weight: 3 }] });
      const lookup = w.model.lookup();
      const tree = papersTree(w.index, 'forYou', { filter: '', reading: lookup });
      const placed = tree.roots.flatMap((band) => band.children.filter((node) => node.kind === 'paper').map((node) => node as { title: string; uri: string; score?: number }));
      const lattice = placed.filter((node) => node.title === 'Probing Lattice Reasoning');
      assert.equal(lattice.length, 1, JSON.stringify(placed));
      assert.equal(tree.roots.reduce((sum, band) => sum + band.count, 0), 2, 'the bands count each paper once');
      const ranked = rankPapers(lookup, {});
      assert.deepEqual(
        placed.map((node) => [node.title, node.uri]),
        ranked.map((paper) => [paper.englishTitle, paper.uri]),
        'the papers, their places and their order as the ranked list (triage, papers) has them',
      );
      assert.equal(lattice[0].uri, DAY2);
      // The copy not placed is found at the one placed (the paper under the cursor, revealed).
      const notPlaced = w.index.file(DAY1)!.papers.find((paper) => paper.englishTitle === 'Probing Lattice Reasoning')!;
      const path = new PapersTreeLookup(tree).pathToPaper(notPlaced);
      assert.equal((path?.at(-1) as { title?: string } | undefined)?.title, 'Probing Lattice Reasoning');
    }
  });

  test('Should order papers of equal scores in For you newest digest first, whatever their file names', () => {
    // The newer digest's name sorts after the older one's (`a-2026-05-03` after `2026-05-01`).
    const newer = 'file:///w/a-2026-05-03.digest';
    const w = testWorkspace({ [DAY1]: digest(entryLines('Old'), entryLines('Older')), [newer]: digest(entryLines('New')) }, { keywords: [{ term: 'sparse', weight: 1 }] });
    const lookup = w.model.lookup();
    const tree = papersTree(w.index, 'forYou', { filter: '', reading: lookup });
    const placed = tree.roots.flatMap((band) => band.children.filter((node) => node.kind === 'paper').map((node) => (node as { uri: string }).uri));
    assert.deepEqual(placed, [newer, DAY1, DAY1]);
    assert.deepEqual(placed, rankPapers(lookup, {}).map((paper) => paper.uri));
    // Within one digest, in file order.
    const titles = tree.roots.flatMap((band) => band.children.filter((node) => node.kind === 'paper').map((node) => (node as { title: string }).title));
    assert.deepEqual(titles.slice(1), [...w.index.file(DAY1)!.papers].map((paper) => paper.englishTitle));
    assert.deepEqual(titles, rankPapers(lookup, {}).map((paper) => paper.englishTitle));
  });

  test('Should keep an English title that starts like the key of a Chinese-only paper apart from it', () => {
    const chinese = '一种仅有中文标题的论文关于数学推理';
    const mimic = entryLines('M', { englishTitle: `zh:${chinese}`, chineseTitle: '模仿' });
    const w = testWorkspace({ [DAY1]: digest(ZH_ONLY('Z'), mimic) });
    const lookup = w.model.lookup();
    assert.equal(papersTree(w.index, 'file', '').distinctPaperCount, 2);
    assert.equal(rankPapers(lookup, {}).length, 2);
    const keys = [...lookup.papers()].map((paper) => lookup.info(paper).paperKey);
    assert.equal(new Set(keys).size, 2, keys.join(' | '));
    assert.equal(lookup.unreadCount(), 2);
    // Names are compared as written: only the keys of papers are kept apart.
    assert.equal(termKey('EN:  Lab'), 'en: lab');
    assert.equal(termKey('Untitled: Group'), 'untitled: group');
  });

  test('Should count a paper with a Chinese title only once wherever it comes, as its state does', () => {
    const w = testWorkspace({ [DAY1]: digest(ZH_ONLY('Z'), RL), [DAY2]: digest(ZH_ONLY('Z')) });
    const lookup = w.model.lookup();
    for (const grouping of ['topic', 'file', 'category'] as const) {
      assert.equal(papersTree(w.index, grouping, '').distinctPaperCount, 2, grouping);
    }
    assert.equal(papersTree(w.index, 'topic', '').roots[0].count, 2, 'the topic counts it once');
    assert.equal(digestStatistics(w.index).paperCount, 2);
    assert.equal(lookup.unreadCount(), 2);
    assert.equal(rankPapers(lookup, {}).length, 2);
    assert.equal(papersTree(w.index, 'unread', { filter: '', reading: lookup }).distinctPaperCount, 2, 'the Unread view');
    assert.equal(rollup(w.index, '2026-W18', 'markdown', () => undefined).paperCount, 2, 'the week’s roll-up');
    assert.equal(distinctPaperCount(w.index), 2, 'the language status');
  });

  test('Should count a paper in two folders once in the unread count, unread while one of its places is', () => {
    const index = new WorkspaceIndex();
    const C = 'file:///c/2026-05-01.digest';
    const D = 'file:///d/2026-05-02.digest';
    index.update(C, digest(RL, PROTEIN));
    index.update(D, digest(entryLines('RL', { englishTitle: 'Reinforcement  learning for theorem proving' })));
    // One state file per folder.
    class FolderDisk extends MemoryDisk {
      constructor(readonly location: string) {
        super();
      }
    }
    const stores = new Map([C, D].map((uri) => {
      const store = new StateStore(new FolderDisk(uri.replace(/[^/]+$/, '.paper-digest/state.json')), () => new Date('2026-05-02T08:00:00Z'));
      store.load();
      return [uri, store];
    }));
    const model = new ReadingModel(index, { storeFor: (uri) => stores.get(uri), interestsFor: () => parseInterests(undefined), mtimeOf: () => undefined });
    const unreadTree = () => papersTree(index, 'unread', { filter: '', reading: model.lookup() }).distinctPaperCount;
    assert.equal(model.lookup().unreadCount(), 2);
    assert.equal(model.lookup().unreadCount(), unreadTree());
    const key = 'reinforcement learning for theorem proving';
    stores.get(C)!.change([key], { read: true });
    model.invalidate();
    assert.equal(model.lookup().unreadCount(), 2, 'still unread in the other folder');
    assert.equal(model.lookup().unreadCount(), unreadTree());
    stores.get(D)!.change([key], { read: true });
    model.invalidate();
    assert.equal(model.lookup().unreadCount(), 1);
    assert.equal(model.lookup().unreadCount(), unreadTree());
  });
});

describe('reading: new and repeated papers', () => {
  test('Should take a paper written twice in the digest that brought it as new in both places, and repeated in a later one', () => {
    const A = 'file:///ws/2026-05-01.digest';
    const B = 'file:///ws/2026-05-02.digest';
    const w = testWorkspace({ [A]: digest(entryLines('D'), entryLines('E'), entryLines('D')), [B]: digest(entryLines('D')) });
    const lookup = w.model.lookup();
    const [first, , again] = w.index.file(A)!.papers;
    for (const paper of [first, again]) {
      assert.equal(lookup.info(paper).isNew, true);
      assert.equal(lookup.info(paper).firstSeen, undefined);
      assert.equal(lookup.flags(paper).isNew, true);
    }
    const later = w.index.file(B)!.papers[0];
    assert.equal(lookup.info(later).isNew, false);
    assert.deepEqual(lookup.info(later).firstSeen, { uri: A, range: first.selectionRange });
  });
});
