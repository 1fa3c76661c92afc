import { describe, test } from 'node:test';
import fc from 'fast-check';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDigest } from '../../server/src/service/parser';
import type { DigestDocument } from '../../server/src/service/model';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import {
  PAPERS_GROUPINGS,
  PapersGroup,
  PapersTree,
  PapersTreeCache,
  PapersTreeLookup,
  PapersTreeNode,
  PaperNode,
  fileName,
  MAX_DUPLICATE_LOCATIONS,
  PAGE_SIZE,
  paperAt,
  papersTree,
  papersTreeFirstLevel,
  withoutChildren,
} from '../../server/src/service/features/tree';
import type { MessageLanguage } from '../../server/src/service/messages';
import { localizedNode } from '../../server/src/service/treeLabels';
import { assertGolden, digest, entryLines, FIXTURES } from '../support/fixtures';
import { derive } from '../support/derive';
import { noisyDigests } from '../support/noisyDigests';
import { DIGEST_MATERIAL } from '../support/modelChecks';

const ROOT = 'file:///ws';

/** An index of the fixture workspace, with URIs under `file:///ws/`. */
function fixtureIndex(): WorkspaceIndex {
  const index = new WorkspaceIndex();
  const base = path.join(FIXTURES, 'workspace');
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) {
        walk(full);
      } else if (name.endsWith('.digest') || name.endsWith('.digest.txt')) {
        index.update(`${ROOT}/${path.relative(base, full).split(path.sep).join('/')}`, fs.readFileSync(full, 'utf8'));
      }
    }
  };
  walk(base);
  return index;
}

/** The tree as indented text: groups with count and detail, papers with file, line and duplicates. */
function render(tree: PapersTree): string {
  const lines: string[] = [`${tree.grouping} · filter "${tree.filter}" · ${tree.paperCount} papers`];
  const visit = (node: PapersTreeNode, depth: number): void => {
    const indent = '  '.repeat(depth);
    if (node.kind === 'group') {
      lines.push(`${indent}[${node.groupKind}] ${node.label} (${node.count})${node.detail ? ' — ' + node.detail : ''}`);
      node.children.forEach((child) => visit(child, depth + 1));
    } else {
      const where = `${node.uri.slice(ROOT.length + 1)}:${node.selectionRange.start.line + 1}`;
      const duplicates = node.duplicate ? ` DUPLICATE of ${node.duplicates.map((d) => `${d.uri.slice(ROOT.length + 1)}:${d.range.start.line + 1}`).join(', ')}` : '';
      lines.push(`${indent}${node.title} | ${node.chineseTitle} @ ${where}${duplicates}`);
    }
  };
  tree.roots.forEach((root) => visit(root, 1));
  return lines.join('\n') + '\n';
}

function group(nodes: readonly PapersTreeNode[], label: string): PapersGroup {
  const found = nodes.find((node): node is PapersGroup => node.kind === 'group' && node.label === label);
  assert.ok(found, `no group ${label} among ${nodes.map((node) => (node.kind === 'group' ? node.label : node.title)).join(', ')}`);
  return found;
}

function paperTitles(nodes: readonly PapersTreeNode[]): string[] {
  return nodes.filter((node): node is PaperNode => node.kind === 'paper').map((node) => node.title);
}

function allIds(tree: PapersTree): string[] {
  const ids: string[] = [];
  const visit = (node: PapersTreeNode): void => {
    ids.push(node.id);
    if (node.kind === 'group') {
      node.children.forEach(visit);
    }
  };
  tree.roots.forEach(visit);
  return ids;
}

describe('tree: golden trees of the fixture workspace', () => {
  // The reading groupings (unread, starred, forYou, new) are tested with a reading state in reading tests.
  for (const grouping of PAPERS_GROUPINGS.slice(0, 4)) {
    test(`Should group the fixture workspace by ${grouping} as the golden file shows`, () => {
      assertGolden(`tree/${grouping}.txt`, render(papersTree(fixtureIndex(), grouping, '')));
    });
  }

  test('Should render a filtered tree as the golden file shows', () => {
    assertGolden('tree/topic-filtered-toronto.txt', render(papersTree(fixtureIndex(), 'topic', 'toronto')));
  });
});

describe('tree: groupings and counts', () => {
  test('Should group by topic, then keyword, counting each paper once per group', () => {
    const tree = papersTree(fixtureIndex(), 'topic', '');
    assert.equal(tree.paperCount, 7);
    // The view's title counts papers, not places: Sparse Probes is one paper in two digests.
    assert.equal(tree.distinctPaperCount, 6);
    assert.equal(papersTree(fixtureIndex(), 'file', 'sparse probes').paperCount, 2);
    assert.equal(papersTree(fixtureIndex(), 'file', 'sparse probes').distinctPaperCount, 1);
    const math = group(tree.roots, '数学推理');
    // Sparse Probes is listed by two digests: one paper, shown at both places, counted once.
    assert.equal(math.count, 2);
    assert.equal(math.children.length, 2);
    const reasoning = group(math.children, 'reasoning');
    assert.equal(reasoning.count, 2);
    assert.deepEqual(paperTitles(reasoning.children), ['Sparse Probes for Arithmetic Circuits in Small Transformers', 'Self-Verifying Chains of Thought for Olympiad Geometry']);
    const mathReasoning = group(math.children, 'math reasoning');
    assert.equal(mathReasoning.count, 1);
    assert.equal(mathReasoning.children.length, 2, 'both copies are shown');
    // A paper listed under two keywords counts once in its topic.
    assert.equal(group(tree.roots, '定理证明').count, 1);
    assert.equal(group(group(tree.roots, '定理证明').children, 'proof search').count, 1);
  });

  test('Should group by category with codes corrected by the taxonomy and unknown codes marked', () => {
    const tree = papersTree(fixtureIndex(), 'category', '');
    const lg = group(tree.roots, 'cs.LG');
    assert.equal(lg.count, 2, 'cs.LG twice and CS.lg once, on two copies of one paper');
    assert.equal(lg.children.length, 3);
    assert.equal(lg.detail, 'Machine Learning · ' + lg.detail.split(' · ')[1]);
    assert.ok(!tree.roots.some((node) => node.kind === 'group' && node.label === 'CS.lg'));
    assert.equal(group(tree.roots, 'cs.XX').detail, 'not in the arXiv taxonomy');
    assert.equal(group(tree.roots, 'cs.AI').count, 3);
  });

  test('Should group by institution, folding case and white space, with papers without one last', () => {
    const tree = papersTree(fixtureIndex(), 'institution', '');
    const tsinghua = group(tree.roots, 'Tsinghua University');
    assert.equal(tsinghua.count, 2);
    assert.equal(tsinghua.detail, '清华大学');
    assert.equal(group(tree.roots, 'University of Toronto').count, 2);
    const last = tree.roots[tree.roots.length - 1];
    assert.equal(last.label, '(no institution)');
    assert.equal(last.missing, true);
    assert.deepEqual(paperTitles(last.children), ['Tool-Augmented Program Synthesis with Execution Feedback']);
  });

  test('Should group by file with the heading as detail and papers in file order', () => {
    const tree = papersTree(fixtureIndex(), 'file', '');
    assert.deepEqual(tree.roots.map((root) => [root.label, root.count, root.detail]), [
      ['2026-05-01.digest', 3, '大模型推理能力'],
      ['2026-05-02.digest.txt', 2, '大模型推理能力'],
      ['agents.digest', 2, '多智能体协作'],
    ]);
    assert.equal(tree.roots[2].uri, `${ROOT}/agents.digest`);
    assert.deepEqual(paperTitles(tree.roots[0].children), [
      'Sparse Probes for Arithmetic Circuits in Small Transformers',
      'Self-Verifying Chains of Thought for Olympiad Geometry',
      'Budgeted Search over Proof Sketches',
    ]);
  });

  test('Should list files and equal-sized groups whatever the case of their names, as a file explorer does', () => {
    const index = new WorkspaceIndex();
    for (const name of ['c.digest', 'B.digest', 'a.digest', 'sub/A.digest', 'day-10.digest', 'day-2.digest']) index.update(`${ROOT}/${name}`, digest(entryLines(name)));
    // (sub/A.digest is labelled by its name; equal but for case, upper case first. Numbers by value.)
    const expected = ['A.digest', 'a.digest', 'B.digest', 'c.digest', 'day-2.digest', 'day-10.digest'];
    assert.deepEqual(papersTree(index, 'file', '').roots.map((root) => root.label), expected);
    assert.deepEqual(papersTreeFirstLevel(index, 'file')!.nodes.map((node) => node.label), expected);
    // Topics of one paper each: by name, not upper case first.
    const topics = new WorkspaceIndex();
    for (const [name, topic] of [['a', 'beta'], ['b', 'Gamma'], ['c', 'alpha']]) {
      topics.update(`${ROOT}/${name}.digest`, digest(entryLines(name, { topicHits: `专题命中 ${topic} ：x(title)` })));
    }
    assert.deepEqual(papersTree(topics, 'topic', '').roots.map((root) => root.label), ['alpha', 'beta', 'Gamma']);
  });

  test('Should collect papers without topic or keywords in groups of their own', () => {
    const index = new WorkspaceIndex();
    index.update(`${ROOT}/a.digest`, digest(entryLines('A', { topicHits: '专题命中  ：；分类 cs.LG' }), entryLines('B')));
    const tree = papersTree(index, 'topic', '');
    const none = group(tree.roots, '(no topic)');
    assert.equal(tree.roots[tree.roots.length - 1], none);
    assert.equal(group(none.children, '(no keyword hits)').count, 1);
  });
});

describe('tree: papers', () => {
  test('Should give a paper its range, title range, titles, summary and a duplicate mark with locations', () => {
    const tree = papersTree(fixtureIndex(), 'file', '');
    const [first] = tree.roots[0].children as PaperNode[];
    assert.equal(first.uri, `${ROOT}/reasoning/2026-05-01.digest`);
    assert.deepEqual(first.selectionRange, { start: { line: 2, character: 0 }, end: { line: 2, character: 59 } });
    assert.equal(first.range.start.line, 2);
    assert.equal(first.range.end.line, 14);
    assert.equal(first.chineseTitle, '小型Transformer中算术电路的稀疏探针');
    assert.equal(first.summary, '本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。');
    assert.equal(first.duplicate, true);
    assert.deepEqual(first.duplicates, [{ uri: `${ROOT}/reasoning/2026-05-02.digest.txt`, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 60 } } }]);
    assert.equal(first.duplicateCount, 1);
    const second = tree.roots[0].children[1] as PaperNode;
    assert.equal(second.duplicate, false);
    assert.deepEqual(second.duplicates, []);
  });

  test('Should count every duplicate but list at most MAX_DUPLICATE_LOCATIONS of them', () => {
    const index = new WorkspaceIndex();
    const model = parseDigest(digest(entryLines('A')));
    for (let i = 0; i < MAX_DUPLICATE_LOCATIONS + 5; i++) {
      index.update(`${ROOT}/copy-${String(i).padStart(2, '0')}.digest`, model);
    }
    const paper = papersTree(index, 'file', '').roots[0].children[0] as PaperNode;
    assert.equal(paper.duplicateCount, MAX_DUPLICATE_LOCATIONS + 4);
    assert.equal(paper.duplicates.length, MAX_DUPLICATE_LOCATIONS);
    assert.equal(paper.duplicates[0].uri, `${ROOT}/copy-01.digest`);
  });

  test('Should give every node an id unique in the tree, for every grouping', () => {
    for (const grouping of PAPERS_GROUPINGS) {
      const ids = allIds(papersTree(fixtureIndex(), grouping, ''));
      assert.equal(new Set(ids).size, ids.length, grouping);
    }
  });

  test('Should keep ids across a rebuild after papers are added before them', () => {
    const index = new WorkspaceIndex();
    index.update(`${ROOT}/a.digest`, digest(entryLines('A'), entryLines('B')));
    const before = allIds(papersTree(index, 'topic', ''));
    index.update(`${ROOT}/a.digest`, digest(entryLines('N', { topicHits: '专题命中 几何 ：geometry(title)；分类 cs.CG' }), entryLines('A'), entryLines('B')));
    const after = new Set(allIds(papersTree(index, 'topic', '')));
    for (const id of before) {
      assert.ok(after.has(id), id);
    }
  });

  test('Should keep document text in the data as it is, for the client to escape', () => {
    const tree = papersTree(fixtureIndex(), 'file', '');
    const paper = (tree.roots[2].children as PaperNode[])[1];
    assert.equal(paper.title, 'A Benchmark for Cooperative Planning <Agents> & "Tools"');
    assert.equal(paper.chineseTitle, '协作规划基准：**智能体**与[工具](链接)');
  });
});

describe('tree: filter', () => {
  test('Should keep papers matching the English title, ignoring case, and recount the groups', () => {
    const tree = papersTree(fixtureIndex(), 'topic', 'SPARSE probes');
    assert.equal(tree.paperCount, 2);
    // The two papers found are two copies of one paper.
    assert.deepEqual(tree.roots.map((root) => [root.label, root.count]), [['数学推理', 1]]);
    assert.equal(group(tree.roots[0].children, 'reasoning').count, 1);
  });

  test('Should match Chinese titles, authors and institutions and their translations', () => {
    const index = fixtureIndex();
    assert.deepEqual(paperTitles(papersTree(index, 'file', '程序合成').roots.flatMap((root) => root.children)), ['Tool-Augmented Program Synthesis with Execution Feedback']);
    assert.deepEqual(paperTitles(papersTree(index, 'file', 'kenji').roots.flatMap((root) => root.children)), ['Tool-Augmented Program Synthesis with Execution Feedback']);
    assert.equal(papersTree(index, 'file', 'kyoto').paperCount, 2);
    assert.equal(papersTree(index, 'file', '瑞典皇家').paperCount, 1);
  });

  test('Should match the Chinese and English names of authors given on the 机构 line as A, B（甲、乙）', () => {
    const index = new WorkspaceIndex();
    index.update(`${ROOT}/pairs.digest`, digest(entryLines('A', { institutions: '机构 * Tianyi Zhou, Ziyue Li（周天毅、李子悦） 纠错' }), entryLines('B')));
    for (const filter of ['周天毅', '李子悦', 'ziyue li']) {
      assert.deepEqual(paperTitles(papersTree(index, 'file', filter).roots.flatMap((root) => root.children)), ['A Sparse Probes for Arithmetic Circuits'], filter);
    }
    assert.equal(papersTree(index, 'file', '京都大学').paperCount, 1, 'the translation of an institution of the other paper');
  });

  test('Should not match the summary, topic or categories', () => {
    const index = fixtureIndex();
    assert.equal(papersTree(index, 'file', '加法电路').paperCount, 0);
    assert.equal(papersTree(index, 'file', '数学推理').paperCount, 0);
    assert.equal(papersTree(index, 'file', 'cs.MA').paperCount, 0);
  });

  test('Should show nothing when nothing matches and everything for a blank filter', () => {
    const index = fixtureIndex();
    const none = papersTree(index, 'category', 'no such paper');
    assert.equal(none.paperCount, 0);
    assert.deepEqual(none.roots, []);
    assert.equal(papersTree(index, 'category', '   ').paperCount, 7);
  });
});

describe('tree: lookups for the tree request', () => {
  test('Should hand out one level at a time, groups without their children', () => {
    const lookup = new PapersTreeLookup(papersTree(fixtureIndex(), 'topic', ''));
    const roots = lookup.childrenOf(undefined)!;
    assert.equal(roots.length, 4);
    assert.ok(roots.every((node) => node.kind === 'group' && !('children' in node)));
    const math = roots.find((node) => node.kind === 'group' && node.label === '数学推理')!;
    const keywords = lookup.childrenOf(math.id)!;
    assert.deepEqual(keywords.map((node) => node.kind === 'group' && node.label), ['reasoning', 'math reasoning']);
    const papers = lookup.childrenOf(keywords[0].id)!;
    assert.equal(papers.length, 2);
    assert.equal(lookup.childrenOf('topic:nothing'), undefined);
    assert.equal(lookup.childrenOf(papers[0].id), undefined);
  });

  test('Should give the path from a root group to the first node of the paper under a position', () => {
    const index = fixtureIndex();
    const lookup = new PapersTreeLookup(papersTree(index, 'topic', ''));
    const paper = paperAt(index, `${ROOT}/reasoning/2026-05-01.digest`, { line: 20, character: 3 })!;
    assert.equal(paper.title, 'Self-Verifying Chains of Thought for Olympiad Geometry');
    const nodes = lookup.pathToPaper(paper)!;
    assert.deepEqual(nodes.map((node) => (node.kind === 'group' ? node.label : node.title)), ['数学推理', 'reasoning', 'Self-Verifying Chains of Thought for Olympiad Geometry']);
    assert.equal(lookup.node(nodes[2].id), nodes[2]);
    const hidden = new PapersTreeLookup(papersTree(index, 'topic', 'toronto'));
    assert.ok(hidden.pathToPaper(paperAt(index, `${ROOT}/reasoning/2026-05-01.digest`, { line: 2, character: 0 })!) === undefined);
  });

  test('Should rebuild the cached tree only when the index, grouping or filter change', () => {
    const index = fixtureIndex();
    const cache = new PapersTreeCache();
    const first = cache.get(index, 'topic', '');
    assert.equal(cache.get(index, 'topic', ''), first);
    assert.notEqual(cache.get(index, 'file', ''), first);
    const byFile = cache.get(index, 'file', '');
    index.remove(`${ROOT}/agents.digest`);
    const rebuilt = cache.get(index, 'file', '');
    assert.notEqual(rebuilt, byFile);
    assert.equal(rebuilt.tree.paperCount, 5);
  });

  test('Should return an empty tree when cancelled', () => {
    const index = new WorkspaceIndex();
    const model = parseDigest(digest(entryLines('A')));
    for (let i = 0; i < 2000; i++) {
      index.update(`${ROOT}/f${i}.digest`, model);
    }
    const tree = papersTree(index, 'topic', '', { isCancellationRequested: true });
    assert.deepEqual(tree.roots, []);
  });

  test('Should name a file group by the decoded last segment of its URI', () => {
    assert.equal(fileName('file:///ws/May%201%20%E8%AE%BA%E6%96%87.digest'), 'May 1 论文.digest');
    assert.equal(fileName('untitled:Untitled-1'), 'untitled:Untitled-1');
  });

  test('Should tell digests of one name in two folders apart by the end of their paths', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/a/2026-05-02.digest', digest(entryLines('A')));
    index.update('file:///ws/b/2026-05-02.digest', digest(entryLines('B')));
    index.update('file:///ws/x/day/2026-05-03.digest', digest(entryLines('C')));
    index.update('file:///ws/y/day/2026-05-03.digest', digest(entryLines('D')));
    index.update('file:///ws/b/notes.digest', digest(entryLines('E')));
    const labels = papersTree(index, 'file', '').roots.map((group) => group.label).sort();
    assert.deepEqual(labels, ['a/2026-05-02.digest', 'b/2026-05-02.digest', 'notes.digest', 'x/day/2026-05-03.digest', 'y/day/2026-05-03.digest']);
    for (const label of labels) {
      assert.equal(papersTree(index, 'file', `file:${label}`).paperCount, 1, label);
    }
  });

  test('Should place digests of one name in two folders by that name, side by side, not after every other', () => {
    const index = new WorkspaceIndex();
    for (const day of ['02', '03', '05']) index.update(`file:///ws/a/2026-05-${day}.digest`, digest(entryLines(`A${day}`)));
    for (const day of ['05', '07', '08']) index.update(`file:///ws/b/2026-05-${day}.digest`, digest(entryLines(`B${day}`)));
    assert.deepEqual(
      papersTree(index, 'file', '').roots.map((group) => group.label),
      ['2026-05-02.digest', '2026-05-03.digest', 'a/2026-05-05.digest', 'b/2026-05-05.digest', '2026-05-07.digest', '2026-05-08.digest'],
    );
  });
});

/** The model with every English title prefixed, so that files parsed once hold distinct papers. */
function withTitlePrefix(model: DigestDocument, prefix: string): DigestDocument {
  return derive(model, {
    entries: model.entries.map((entry) =>
      entry.englishTitle ? derive(entry, { englishTitle: derive(entry.englishTitle, { value: derive(entry.englishTitle.value, { text: prefix + entry.englishTitle.value.text }) }) }) : entry,
    ),
  });
}

describe('tree: size', () => {
  test('Should build the tree of 12,000 papers in every grouping, in pages', () => {
    const index = new WorkspaceIndex();
    const entries: string[][] = [];
    for (let i = 0; i < 100; i++) {
      entries.push(entryLines(`P${i}`, { topicHits: `专题命中 主题${i % 7} ：kw${i % 13}(abstract)；kw${i % 5}(title)；分类 cs.LG、cs.CL` }));
    }
    const model = parseDigest(digest(...entries));
    for (let i = 0; i < 120; i++) {
      index.update(`${ROOT}/big/${i}.digest`, withTitlePrefix(model, `F${i} `));
    }
    assert.equal(index.paperCount, 12000);
    const lg = papersTree(index, 'category', '').roots[0];
    assert.equal(lg.label, 'cs.CL');
    assert.equal(lg.count, 12000);
    assert.equal(lg.children.length, Math.ceil(12000 / PAGE_SIZE));
    const lastPage = lg.children[lg.children.length - 1] as PapersGroup;
    assert.deepEqual([lastPage.groupKind, lastPage.label, lastPage.count], ['page', `Papers ${11 * PAGE_SIZE + 1}–12000`, 12000 - 11 * PAGE_SIZE]);
    // Paper ids name the group, not the page.
    assert.ok((lastPage.children[0] as PaperNode).id.startsWith(lg.id + '|'));
    const lookup = new PapersTreeLookup(papersTree(index, 'category', ''));
    const path = lookup.pathToPaper(index.paperAt(`${ROOT}/big/99.digest`, { line: 1500, character: 0 })!)!;
    assert.deepEqual(path.map((node) => (node.kind === 'group' ? node.groupKind : 'paper')), ['category', 'page', 'paper']);
    // Speed is measured by npm run bench, not here.
    // Without reading state every paper is unread and new, and none is starred.
    for (const grouping of PAPERS_GROUPINGS.filter((each) => each !== 'starred')) {
      const tree = papersTree(index, grouping, '');
      assert.ok(new PapersTreeLookup(tree));
      assert.equal(tree.paperCount, 12000);
    }
  });
});

describe('tree: each paper counted once per group', () => {
  test('Should count a paper listed by two digests, and hit twice by one keyword, once in its topic and keyword', () => {
    const index = new WorkspaceIndex();
    const hits = '专题命中 数学推理 ：reasoning(abstract)；Reasoning(title)；分类 cs.LG、cs.CL';
    index.update(`${ROOT}/a.digest`, digest(entryLines('A', { topicHits: hits }), entryLines('B')));
    index.update(`${ROOT}/b.digest`, digest(entryLines('A', { topicHits: hits })));
    const tree = papersTree(index, 'topic', '');
    const math = group(tree.roots, '数学推理');
    assert.equal(math.count, 2, 'papers A and B');
    const reasoning = group(math.children, 'reasoning');
    assert.equal(reasoning.count, 2);
    assert.equal(reasoning.children.length, 3, 'A from both files, and B');
    assert.equal(group(papersTree(index, 'category', '').roots, 'cs.LG').count, 2);
    assert.equal(group(papersTree(index, 'file', '').roots, 'a.digest').count, 2);
  });
});

describe('tree: institutions of departments', () => {
  const line = (items: string) => ({ institutions: `机构 * ${items} 纠错` });

  test('Should group a department under the institution its line names, and never merge departments of different universities', () => {
    const index = new WorkspaceIndex();
    index.update(
      `${ROOT}/a.digest`,
      digest(
        entryLines('A', line('Department of Computer Science and Engineering, Fudan University（复旦大学计算机科学与工程系）')),
        entryLines('B', line('Department of Computer Science and Engineering, Shanghai Jiao Tong University（上海交通大学计算机科学与工程系）')),
        entryLines('C', line('Fudan University（复旦大学） ； School of Physics, Fudan University（复旦大学物理学院）')),
        entryLines('D', line('Department of Computer Science and Engineering（计算机科学与工程系）')),
        entryLines('E', line('Department of Computer Science and Engineering（计算机科学与工程系）')),
        entryLines('F', line('Oxford Internet Institute, University of Oxford（牛津大学牛津互联网研究所） ； FLAIR, University of Oxford（牛津大学FLAIR）')),
      ),
    );
    const roots = papersTree(index, 'institution', '').roots;
    const fudan = group(roots, 'Fudan University');
    assert.equal(fudan.count, 2);
    assert.deepEqual(paperTitles(fudan.children).map((t) => t[0]), ['A', 'C']);
    assert.equal(fudan.detail, '复旦大学', 'the translation of the institution itself, not of a department');
    assert.equal(group(roots, 'Shanghai Jiao Tong University').count, 1);
    assert.equal(group(roots, 'University of Oxford').count, 1);
    // Named alone, the department of D and of E may be at two universities: two groups.
    const departments = roots.filter((node) => node.label === 'Department of Computer Science and Engineering');
    assert.deepEqual(departments.map((node) => node.count), [1, 1]);
    assert.equal(new Set(departments.map((node) => node.id)).size, 2);
  });
});

describe('tree: a paper without either title', () => {
  test('Should name a paper without either title in the message language where the tree is sent, and not find it by that name', () => {
    const index = new WorkspaceIndex();
    const uri = `${ROOT}/untitled.digest`;
    index.update(uri, digest(entryLines('A'), entryLines('B', { englishTitle: null, chineseTitle: null, authors: null }), entryLines('C', { englishTitle: '(untitled paper 3)', chineseTitle: null })));
    const lookup = new PapersTreeLookup(papersTree(index, 'file', ''));
    const [file] = lookup.childrenOf(undefined)!;
    const titles = (language: MessageLanguage): string[] => lookup.childrenOf(file.id)!.map((node) => (localizedNode(node, language) as PaperNode).title);
    assert.deepEqual(titles('en'), ['A Sparse Probes for Arithmetic Circuits', '(untitled paper 2)', '(untitled paper 3)']);
    assert.deepEqual(titles('both'), titles('en'));
    // The third is an English title written that way: the document's text, kept.
    assert.deepEqual(titles('zh-cn'), ['A Sparse Probes for Arithmetic Circuits', '（无题论文 2）', '(untitled paper 3)']);
    // The filter looks in the titles as written: the name given to an untitled paper matches in no language.
    for (const filter of ['untitled paper 2', '无题论文']) {
      assert.equal(papersTree(index, 'file', filter).paperCount, 0, filter);
    }
  });
});

describe('tree: the first level alone', () => {
  const groupings = ['topic', 'category', 'institution', 'file'] as const;

  /** The whole tree's first level and counts, as `papersTreeFirstLevel` answers them. */
  function wholeFirstLevel(index: WorkspaceIndex, grouping: (typeof groupings)[number]): unknown {
    const tree = papersTree(index, grouping, '');
    return { paperCount: tree.paperCount, distinctPaperCount: tree.distinctPaperCount, nodes: tree.roots.map(withoutChildren) };
  }

  test('Should be the whole tree\'s first level, for random workspaces and every grouping it answers', () => {
    // Files of random and broken digests, some repeated under another name (the same papers in two files).
    const workspaces = fc.array(fc.tuple(noisyDigests(DIGEST_MATERIAL), fc.nat(2)), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(workspaces, (files) => {
        const index = new WorkspaceIndex();
        files.forEach(([text, copies], i) => {
          for (let copy = 0; copy <= copies; copy++) index.update(`${ROOT}/d${i}-${copy}.digest`, text);
        });
        for (const grouping of groupings) {
          assert.deepEqual(papersTreeFirstLevel(index, grouping), wholeFirstLevel(index, grouping), grouping);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('Should be the whole tree\'s first level for the fixture workspace, and undefined once cancelled', () => {
    const index = fixtureIndex();
    for (const grouping of groupings) {
      const first = papersTreeFirstLevel(index, grouping);
      assert.ok(first && first.nodes.length > 0, grouping);
      assert.deepEqual(first, wholeFirstLevel(index, grouping), grouping);
    }
    // Cancelled: looked at every 1,024 papers.
    const big = new WorkspaceIndex();
    big.update(`${ROOT}/big.digest`, digest(...Array.from({ length: 1100 }, (_, i) => entryLines(`Paper ${i}`))));
    assert.equal(papersTreeFirstLevel(big, 'topic', { isCancellationRequested: true }), undefined);
    assert.ok(papersTreeFirstLevel(big, 'topic', { isCancellationRequested: false }));
  });
});
