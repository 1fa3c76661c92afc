/**
 * The reading trees (unread, starred, new) kept across state changes (features/readingTree.ts):
 * after every change of state, of the state file and of the interests, each answers what a
 * tree built afresh answers, and a state change re-tests only the papers whose state changed.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PapersGrouping, PapersTreeItem, PapersTreeOptions, PapersTreeView } from '../../server/src/service/features/tree';
import { PAGE_SIZE, PapersTreeCache, PapersTreeLookup, papersTree } from '../../server/src/service/features/tree';
import { paperKeyOf } from '../../server/src/service/reading/paperInfo';
import { papersInScope } from '../../server/src/service/reading/scope';
import type { ReadingLookup } from '../../server/src/service/reading/paperInfo';
import { generatedEntry } from '../bench/generate';
import { testWorkspace } from '../support/readingModel';

const W = 'file:///w';

function digestOf(from: number, to: number, extra: number[] = []): string {
  const paragraphs = ['大模型推理能力'];
  for (let i = from; i < to; i++) paragraphs.push(...generatedEntry(i));
  for (const i of extra) paragraphs.push(...generatedEntry(i));
  return paragraphs.join('\n\n') + '\n';
}

/** Three dated digests: the first paged (more than PAGE_SIZE papers), repeats across files and a copy within one. */
function workspace() {
  return testWorkspace({
    [`${W}/2026-05-01.digest`]: digestOf(0, PAGE_SIZE + 60),
    [`${W}/2026-05-02.digest`]: digestOf(PAGE_SIZE, PAGE_SIZE + 120),
    [`${W}/2026-05-03.digest`]: digestOf(PAGE_SIZE + 100, PAGE_SIZE + 160, [PAGE_SIZE + 101]),
  }, { keywords: ['reasoning'] });
}

/** Every node of a view, children expanded through `childrenOf`, as plain data. */
function expand(view: PapersTreeView, id?: string): unknown[] {
  return (view.childrenOf(id) ?? []).map((item: PapersTreeItem) => (item.kind === 'group' ? { ...item, children: expand(view, item.id) } : JSON.parse(JSON.stringify(item))));
}

const CONFIGS: { grouping: PapersGrouping; options: Omit<PapersTreeOptions, 'reading'> }[] = [
  { grouping: 'unread', options: { filter: '' } },
  { grouping: 'starred', options: { filter: '' } },
  { grouping: 'new', options: { filter: '' } },
  { grouping: 'unread', options: { filter: '1010' } },
  { grouping: 'new', options: { filter: '', unreadOnly: true } },
  { grouping: 'unread', options: { filter: '', tag: 'later' } },
  { grouping: 'starred', options: { filter: '', newOnly: true } },
];

/** A lookup that counts the flags it is asked for. */
function counting(reading: ReadingLookup): { reading: ReadingLookup; flags: () => number } {
  let flags = 0;
  const wrapped: ReadingLookup = Object.create(reading);
  wrapped.flags = (paper) => {
    flags++;
    return reading.flags(paper);
  };
  return { reading: wrapped, flags: () => flags };
}

describe('reading trees kept across state changes', () => {
  test('Should answer as a tree built afresh after every state, file and interests change', () => {
    const w = workspace();
    const caches = CONFIGS.map(() => new PapersTreeCache());
    const papers = [...w.model.lookup().papers()];
    const key = (i: number): string => paperKeyOf(papers[i]);
    const steps: [string, () => void][] = [
      ['at first', () => {}],
      ['one read', () => w.store.change([key(3)], { read: true })],
      ['a repeat read (in two files)', () => w.store.change([key(PAGE_SIZE + 5)], { read: true })],
      ['starred and tagged', () => w.store.change([key(7), key(PAGE_SIZE + 101)], { starred: true, addTags: ['later'] })],
      ['a whole file read', () => w.store.change(papers.filter((p) => p.uri.endsWith('05-03.digest')).map(paperKeyOf), { read: true })],
      ['unread again', () => w.store.change([key(3), key(PAGE_SIZE + 101)], { read: false })],
      ['unstarred', () => w.store.change([key(7)], { starred: false })],
      ['the state file changed by someone else', () => {
        const state = JSON.parse(w.disk.text!);
        state.papers[key(11)] = { read: true, starred: true, tags: ['later'], updated: '2026-05-03T00:00:00.000Z' };
        delete state.papers[key(PAGE_SIZE + 5)];
        w.disk.text = JSON.stringify(state);
        w.store.load();
      }],
    ];
    for (const [name, step] of steps) {
      step();
      w.model.invalidate();
      const reading = w.model.lookup();
      CONFIGS.forEach(({ grouping, options }, i) => {
        const kept = caches[i].get(w.index, grouping, { ...options, reading });
        const fresh = new PapersTreeLookup(papersTree(w.index, grouping, { ...options, reading }));
        const what = `${grouping} ${JSON.stringify(options)} ${name}`;
        assert.equal(kept.tree.paperCount, fresh.tree.paperCount, what);
        assert.equal(kept.tree.distinctPaperCount, fresh.tree.distinctPaperCount, what);
        assert.deepEqual(expand(kept), expand(fresh), what);
        assert.deepEqual(JSON.parse(JSON.stringify(kept.tree.roots)), JSON.parse(JSON.stringify(fresh.tree.roots)), what);
        for (const paper of [papers[3], papers[PAGE_SIZE + 5], papers[PAGE_SIZE + 101], papers[papers.length - 1]]) {
          assert.deepEqual(kept.pathToPaper(paper), fresh.pathToPaper(paper), `${what}: path to ${paper.title}`);
        }
        for (const root of fresh.childrenOf(undefined) ?? []) {
          assert.deepEqual(kept.papersUnder(root.id), fresh.papersUnder(root.id), `${what}: papers under ${root.id}`);
        }
      });
    }
  });

  test('Should test again only the papers whose state changed', () => {
    const w = workspace();
    const cache = new PapersTreeCache();
    const first = counting(w.model.lookup());
    const before = cache.get(w.index, 'unread', { filter: '', reading: first.reading }).tree.paperCount;
    assert.ok(first.flags() >= PAGE_SIZE + 200, `the first tree looks at every paper (${first.flags()})`);
    const papers = [...w.model.lookup().papers()];
    w.store.change([paperKeyOf(papers[PAGE_SIZE + 5])], { read: true });
    w.model.invalidate();
    const second = counting(w.model.lookup());
    const after = cache.get(w.index, 'unread', { filter: '', reading: second.reading });
    assert.equal(after.tree.paperCount, before - 2, 'the paper is in two files');
    assert.ok(second.flags() <= 4, `a state change tests ${second.flags()} papers again`);
  });
});

describe('papers of a scope of keys', () => {
  test('Should find the papers of title keys from the index, as a pass over every paper does, in file order', () => {
    const w = workspace();
    const lookup = w.model.lookup();
    const papers = [...lookup.papers()];
    // Paper PAGE_SIZE + 101: in the second digest and twice in the third; paper PAGE_SIZE + 5: in the first two.
    const copied = papers.find((paper) => paper.title.endsWith(` ${PAGE_SIZE + 101}`))!;
    const keys = [paperKeyOf(copied), paperKeyOf(papers[2]), paperKeyOf(papers[PAGE_SIZE + 5]), 'no such paper'];
    const expected = papers.filter((paper) => keys.includes(paperKeyOf(paper)));
    assert.equal(expected.length, 6, 'a repeat in two files, a copy in one file');
    assert.deepEqual(papersInScope(lookup, { keys }), expected);
    assert.deepEqual(papersInScope(lookup, { keys, unreadOnly: true, filter: String(PAGE_SIZE + 5) }), expected.filter((paper) => paper.title.includes(String(PAGE_SIZE + 5))));
  });
});
