/**
 * Completion in the message language: the details and the documentation of every kind of item
 * (labels, institutions, topics, keywords, hit fields, categories, authors) in both languages
 * (today's text), English alone or Chinese alone; what is inserted and the document's names are
 * the same in every language.
 */
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import { completions, resolveCompletion } from '../../server/src/service/features/completion';
import type { MessageLanguage } from '../../server/src/service/messages';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';
import { cursor, testWorkspace } from '../support/workspaceTerms';

const HAN = /[\u4e00-\u9fff]/;
const LANGUAGES: readonly MessageLanguage[] = ['both', 'en', 'zh-cn'];
const OTHER = 'file:///w/other.digest';

const ws = testWorkspace({
  [OTHER]: digest(
    entryLines('A', { authors: 'Wei Zhang, Lin Qiu', institutions: '机构 * Tsinghua University（清华大学） ； Fudan University（复旦大学） 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG' }),
    entryLines('B', { authors: 'Wei Zhang', institutions: '机构 * Fudan University（复旦） 纠错', topicHits: '专题命中 数学推理 ：reasoning(title)；分类 cs.LG、cs.CL' }),
    entryLines('C', { authors: 'Mei Tanaka', institutions: '机构 * Fudan University（复旦大学） 纠错', topicHits: '专题命中 智能体 ：agents(abstract)；分类 cs.AI' }),
  ),
});

/** The items at the `|` of a document, in each language, and each item resolved. */
function itemsAt(textWithBar: string): Record<MessageLanguage, { items: CompletionItem[]; docs: string[] }> {
  const { text, position } = cursor(textWithBar);
  const doc = parseDigest(text);
  const out = {} as Record<MessageLanguage, { items: CompletionItem[]; docs: string[] }>;
  for (const language of LANGUAGES) {
    const items = completions(doc, position, ws.completion, undefined, language).items;
    const docs = items.map((item) => {
      const documentation = resolveCompletion(item, ws.completion, undefined, language).documentation;
      return documentation && typeof documentation === 'object' ? documentation.value : '';
    });
    out[language] = { items, docs };
  }
  return out;
}

const hits = (line: string) => digest(entryLines('X', { topicHits: line }));
const CASES: Record<string, { text: string; both: RegExp; en: RegExp; zh: RegExp; docBoth?: RegExp; docEn?: RegExp; docZh?: RegExp }> = {
  label: { text: digest(entryLines('X', { comments: null, journalRef: null })) + '\nCo|', both: /^arXiv comments — missing from this paper, 本文缺少此项$/, en: /^arXiv comments — missing from this paper$/, zh: /^本文缺少此项$/ },
  institution: {
    text: digest(entryLines('X', { institutions: '机构 * Fud|' })),
    both: /^复旦大学 · 3 times$/,
    en: /^复旦大学 · 3 times$/,
    zh: /^复旦大学 · 3 次$/,
    docBoth: /^\*\*Fudan University\*\* · \*\*复旦大学\*\*\n\nAlso translated — 其他译名: 复旦 \(1\)\n\nNamed 3 times in the workspace — 工作区中出现 3 次$/,
    docEn: /^\*\*Fudan University\*\* · \*\*复旦大学\*\*\n\nAlso translated: 复旦 \(1\)\n\nNamed 3 times in the workspace$/,
    docZh: /^\*\*Fudan University\*\* · \*\*复旦大学\*\*\n\n其他译名：复旦 \(1\)\n\n工作区中出现 3 次$/,
  },
  topic: {
    text: hits('专题命中 数|'),
    both: /^Topic — 专题 · 2 times$/,
    en: /^Topic · 2 times$/,
    zh: /^专题 · 2 次$/,
    docBoth: /^Topic — 专题: \*\*数学推理\*\*\n\nUsed 2 times in the workspace — 工作区中使用 2 次$/,
    docEn: /^Topic: \*\*数学推理\*\*\n\nUsed 2 times in the workspace$/,
    docZh: /^专题：\*\*数学推理\*\*\n\n工作区中使用 2 次$/,
  },
  keyword: {
    text: hits('专题命中 数学推理 ：rea|'),
    both: /^Keyword — 关键词 · 2 times$/,
    en: /^Keyword · 2 times$/,
    zh: /^关键词 · 2 次$/,
    docBoth: /^Keyword — 关键词: \*\*reasoning\*\*\n\nUsed 2 times in the workspace — 工作区中使用 2 次$/,
    docEn: /^Keyword: \*\*reasoning\*\*\n\nUsed 2 times in the workspace$/,
    docZh: /^关键词：\*\*reasoning\*\*\n\n工作区中使用 2 次$/,
  },
  field: { text: hits('专题命中 数学推理 ：reasoning(ti|'), both: /^matched in .+ — .*[\u4e00-\u9fff]/, en: /^matched in [^\u4e00-\u9fff]+$/, zh: /^命中于[\u4e00-\u9fff]+$/ },
  category: {
    text: hits('专题命中 数学推理 ：reasoning(abstract)；分类 cs.C|'),
    both: /^Computation and Language · 计算与语言 · used 1×$/,
    en: /^Computation and Language · used 1×$/,
    zh: /^计算与语言 · 已用 1 次$/,
    docBoth: /^\*\*cs\\\.CL\*\* · Computation and Language · 计算与语言\n\nArchive: Computer Science · 计算机科学\n\nUsed once in the workspace — 工作区中使用 1 次$/,
    docEn: /^\*\*cs\\\.CL\*\* · Computation and Language\n\nArchive: Computer Science\n\nUsed once in the workspace$/,
    docZh: /^\*\*cs\\\.CL\*\* · 计算与语言\n\n所属大类：计算机科学\n\n工作区中使用 1 次$/,
  },
  author: {
    text: digest(entryLines('X', { authors: 'Wei|', institutions: '机构 * Tsinghua University（清华大学） 纠错' })),
    both: /^1 paper with these institutions$/,
    en: /^1 paper with these institutions$/,
    zh: /^与这些机构同现于 1 篇论文$/,
    docBoth: /^\*\*Wei Zhang\*\*\n\nSeen with this paper’s institutions in 1 paper — 与本文机构同现于 1 篇论文$/,
    docEn: /^\*\*Wei Zhang\*\*\n\nSeen with this paper’s institutions in 1 paper$/,
    docZh: /^\*\*Wei Zhang\*\*\n\n与本文机构同现于 1 篇论文$/,
  },
};

describe('Completion in the message language', () => {
  for (const [kind, expected] of Object.entries(CASES)) {
    test(`Should give a ${kind} item’s detail and documentation in both languages, English or Chinese, inserting the same text`, () => {
      const seen = itemsAt(expected.text);
      const first = (language: MessageLanguage) => {
        const { items, docs } = seen[language];
        assert.ok(items.length > 0, `${kind}: items in ${language}`);
        // The item the case is about, in a list of several.
        const wanted: Record<string, string> = { category: 'cs.CL', field: '(title)', keyword: 'reasoning' };
        const index = wanted[kind] ? items.findIndex((item) => item.label === wanted[kind]) : 0;
        assert.ok(index >= 0, `${kind}: ${items.map((item) => item.label).join(', ')}`);
        return { item: items[index], doc: docs[index] };
      };
      const both = first('both');
      const en = first('en');
      const zh = first('zh-cn');
      assert.match(both.item.detail ?? '', expected.both);
      assert.match(en.item.detail ?? '', expected.en);
      assert.match(zh.item.detail ?? '', expected.zh);
      if (expected.docBoth) {
        assert.match(both.doc, expected.docBoth);
        assert.match(en.doc, expected.docEn!);
        assert.match(zh.doc, expected.docZh!);
        assert.match(zh.doc, HAN);
      }
      for (const other of [en, zh]) {
        assert.equal(other.item.label, both.item.label);
        assert.deepEqual(other.item.textEdit, both.item.textEdit);
      }
      // Every item of the list, not only the first, in the language.
      seen.en.items.forEach((item, i) => assert.ok(!/本文缺少|篇论文|已用|命中于|专题|关键词/.test(item.detail ?? ''), `${kind} en: ${item.detail} (both: ${seen.both.items[i].detail})`));
      seen['zh-cn'].items.forEach((item) => assert.ok(!/papers?\b|missing|matched in|used \d|Topic|Keyword/.test(item.detail ?? ''), `${kind} zh-cn: ${item.detail}`));
    });
  }

  test('Should leave the language of one answer out of the next', () => {
    const text = hits('专题命中 数|');
    itemsAt(text);
    const { text: plain, position } = cursor(text);
    assert.equal(completions(parseDigest(plain), position, ws.completion).items[0].detail, 'Topic — 专题 · 2 times');
  });
});
