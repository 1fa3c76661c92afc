import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { completions, resolveCompletion } from '../../server/src/service/features/completion';
import { parseDigest } from '../../server/src/service/parser';
import { applyEdits } from '../../server/src/service/edits';
import { ALL_CATEGORIES, categoryByCode } from '../../server/src/service/taxonomy';
import { hasCjk } from '../../server/src/service/text';
import { digest, entryLines } from '../support/fixtures';
import { cursor, testWorkspace } from '../support/workspaceTerms';

const OTHER = 'file:///w/other.digest';

/** A workspace whose other file names Tsinghua four times, Fudan three times (once as 复旦) and Kyoto once. */
function workspace() {
  const inst = (items: string) => `机构 * ${items} 纠错`;
  return testWorkspace({
    [OTHER]: digest(
      entryLines('A', { authors: 'Wei Zhang, Lin Qiu', institutions: inst('Tsinghua University（清华大学） ； Fudan University（复旦大学）'), topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG' }),
      entryLines('B', { authors: 'Wei Zhang, Sofia Rossi', institutions: inst('Tsinghua University（清华大学） ； Fudan University（复旦大学）'), topicHits: '专题命中 数学推理 ：math reasoning(title)；分类 cs.LG、cs.CL' }),
      entryLines('C', { authors: 'Priya Natarajan', institutions: inst('tsinghua  university（清华大学） ； Fudan University（复旦）'), topicHits: '专题命中 智能体 ：agents(abstract)；分类 cs.AI' }),
      entryLines('D', { authors: 'Mei Tanaka', institutions: inst('Kyoto University（京都大学） ； Tsinghua University（清华大学）') }),
    ),
  });
}

/** The completions at the `|` of a document. */
function at(textWithBar: string) {
  const { text, position } = cursor(textWithBar);
  const doc = parseDigest(text);
  const list = completions(doc, position, workspace().completion);
  return { list, text, doc, labels: list.items.map((item) => item.label) };
}

/** The text after applying an item's edit. */
function accept(text: string, item: CompletionItem): string {
  return applyEdits(text, [item.textEdit as TextEdit]);
}

/** A one-entry digest whose 机构 line is `line` (with `|` for the cursor). */
function withInstitutions(line: string, overrides: Record<string, string | null> = {}): string {
  return digest(entryLines('X', { institutions: line, ...overrides }));
}

describe('completion: institutions on a 机构 line', () => {
  test('Should offer institutions matching an English prefix, most papers first, with the usual translation', () => {
    const { list, text, labels } = at(withInstitutions('机构 * Kyoto University（京都大学） ； |'));
    assert.deepEqual(labels, ['Tsinghua University', 'Fudan University']);
    assert.equal(list.items[0].detail, '清华大学 · 4 times');
    assert.match(accept(text, list.items[0]), /机构 \* Kyoto University（京都大学） ； Tsinghua University（清华大学）\n/);
  });

  test('Should match a word of the name or a Chinese prefix', () => {
    assert.deepEqual(at(withInstitutions('机构 * Univ|')).labels, ['Tsinghua University', 'Fudan University', 'Kyoto University']);
    const chinese = at(withInstitutions('机构 * 复|'));
    assert.deepEqual(chinese.labels, ['Fudan University']);
    assert.match(accept(chinese.text, chinese.list.items[0]), /机构 \* Fudan University（复旦大学）\n/);
  });

  test('Should insert the separator after a complete item typed without one', () => {
    const { list, text } = at(withInstitutions('机构 * Kyoto University（京都大学）Tsi|'));
    assert.match(accept(text, list.items[0]), /机构 \* Kyoto University（京都大学） ； Tsinghua University（清华大学）\n/);
  });

  test('Should add a separator before an item that follows the cursor', () => {
    const { list, text } = at(withInstitutions('机构 * Fud| Kyoto University（京都大学） 纠错'));
    assert.match(accept(text, list.items[0]), /机构 \* Fudan University（复旦大学） ； Kyoto University（京都大学） 纠错\n/);
  });

  test('Should not offer what the not-an-institution rule reports: a bracketed tag, a category code', () => {
    const w = testWorkspace({
      [OTHER]: digest(entryLines('A', { institutions: '机构 * [cs.AI]（计算机科学与人工智能） ； cs.LG ； Tsinghua University（清华大学） 纠错' })),
    });
    const { text, position } = cursor(withInstitutions('机构 * |'));
    const labels = completions(parseDigest(text), position, w.completion).items.map((item) => item.label);
    assert.deepEqual(labels, ['Tsinghua University']);
  });

  test('Should not offer a name or translation whose insertion raises a problem: a bracket left open, run-together hits', () => {
    const w = testWorkspace({
      [OTHER]: digest(
        entryLines('A', { institutions: '机构 * Kyoto University（京都大学） ； Tsinghua University（清华大学 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)math(title)；分类 cs.LG' }),
        entryLines('B', { institutions: '机构 * Fudan University（复旦（大学） 纠错', topicHits: '专题命中 数学 ：logic(abstract)；分类 cs.LG' }),
        entryLines('C', { institutions: null, topicHits: '专题命中 数学（推理' }),
      ),
    });
    const hits = (line: string): string => digest(entryLines('X', { topicHits: line }));
    const offered = (textWithBar: string): string[] => {
      const { text, position } = cursor(textWithBar);
      return completions(parseDigest(text), position, w.completion).items.map((item) => item.label);
    };
    assert.deepEqual(offered(withInstitutions('机构 * |')), ['Kyoto University']);
    assert.deepEqual(offered(hits('专题命中 数学推理 ：|')), ['logic']);
    assert.deepEqual(offered(hits('专题命中 数|')), ['数学', '数学推理']);
  });

  test('Should leave out institutions already on the line', () => {
    assert.deepEqual(at(withInstitutions('机构 * Tsinghua University（清华大学） ； |')).labels, ['Fudan University', 'Kyoto University']);
  });

  test('Should document both names and how many papers name the institution', () => {
    const ws = workspace();
    const { text, position } = cursor(withInstitutions('机构 * Fud|'));
    const [item] = completions(parseDigest(text), position, ws.completion).items;
    const resolved = resolveCompletion(item, ws.completion);
    const value = (resolved.documentation as { value: string }).value;
    assert.match(value, /\*\*Fudan University\*\* · \*\*复旦大学\*\*/);
    assert.match(value, /复旦 \(1\)/);
    assert.match(value, /Named 3 times in the workspace/);
  });

  test('Should offer nothing in the label or after the 纠错 marker', () => {
    assert.deepEqual(at(withInstitutions('机|构 * Kyoto University 纠错')).labels.filter((l) => l.includes('University')), []);
    assert.deepEqual(at(withInstitutions('机构 * Kyoto University 纠错|')).labels, []);
  });
});

describe('completion: categories, topics, keywords and fields', () => {
  const hits = (line: string) => digest(entryLines('X', { topicHits: line }));

  test('Should offer every taxonomy code after 分类, the workspace\u2019s first, and insert 、 after a space', () => {
    const { list, text, labels } = at(hits('专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG |'));
    assert.ok(labels.length > 150, `expected the whole taxonomy, got ${labels.length}`);
    assert.deepEqual(labels.slice(0, 2), ['cs.CL', 'cs.AI']);
    assert.ok(!labels.includes('cs.LG'));
    assert.match(list.items[0].detail!, /Computation and Language · /);
    assert.match(accept(text, list.items[0]), /分类 cs\.LG、cs\.CL\n/);
  });

  test('Should name every code of the taxonomy in English and Chinese', () => {
    const { list } = at(hits('专题命中 数学推理 ：reasoning(abstract)；分类 |'));
    assert.deepEqual(list.items.map((item) => item.label).sort(), ALL_CATEGORIES.map((category) => category.code).sort());
    for (const item of list.items) {
      const category = categoryByCode(String(item.label))!;
      assert.equal(item.labelDetails?.description, `${category.name} · ${category.nameZh}`);
      assert.ok(/[A-Za-z]/.test(category.name) && hasCjk(category.nameZh), `${category.code}: ${item.labelDetails?.description}`);
    }
  });

  test('Should filter codes by the prefix typed after 、', () => {
    const { labels } = at(hits('专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG、stat|'));
    assert.deepEqual(labels, ['stat.AP', 'stat.CO', 'stat.ME', 'stat.ML', 'stat.OT', 'stat.TH']);
  });

  test('Should put a space after a label typed without one', () => {
    const label = at(hits('专题命中|'));
    assert.match(accept(label.text, label.list.items[0]), /\n专题命中 \n/, 'the label itself, with its space');
    const topic = at(hits('专题命中| ：reasoning(abstract)；分类 cs.LG'));
    assert.match(accept(topic.text, topic.list.items[0]), /\n专题命中 数学推理 ：reasoning/);
    const category = at(hits('专题命中 数学推理 ：reasoning(abstract)；分类|'));
    assert.match(accept(category.text, category.list.items[0]), /；分类 cs\.LG\n/);
    const institution = at(withInstitutions('机构 *| 纠错'));
    assert.match(accept(institution.text, institution.list.items[0]), /\n机构 \* Tsinghua University（清华大学） 纠错\n/);
  });

  test('Should offer the workspace\u2019s topics before the colon', () => {
    const { list, text, labels } = at(hits('专题命中 数|'));
    assert.deepEqual(labels, ['数学推理']);
    assert.match(accept(text, list.items[0]), /专题命中 数学推理 ：\n/);
    assert.deepEqual(at(hits('专题命中 | ：reasoning(abstract)；分类 cs.LG')).labels, ['数学推理', '智能体']);
  });

  test('Should offer keywords after the colon and the fields after a keyword', () => {
    const after = at(hits('专题命中 数学推理 ：|'));
    assert.deepEqual(after.labels, ['math reasoning', 'reasoning', 'agents']);
    const keyword = at(hits('专题命中 数学推理 ：reasoning|'));
    assert.deepEqual(keyword.labels.slice(0, 2), ['(abstract)', '(title)']);
    assert.match(accept(keyword.text, keyword.list.items[1]), /：reasoning\(title\)\n/);
    const open = at(hits('专题命中 数学推理 ：reasoning(ti|'));
    assert.match(accept(open.text, open.list.items.find((item) => item.label === '(title)')!), /：reasoning\(title\)\n/);
  });

  test('Should put 「；」 before a keyword typed after a complete hit', () => {
    const { list, text } = at(hits('专题命中 数学推理 ：reasoning(abstract)age|'));
    assert.match(accept(text, list.items.find((item) => item.label === 'agents')!), /：reasoning\(abstract\)；agents\n/);
  });
});

describe('completion: labels at the start of a line', () => {
  test('Should offer the labels the entry lacks that belong where the cursor is, in the format\u2019s order', () => {
    const text = digest(entryLines('X', { institutions: null, comments: null, journalRef: null })) + '\n|';
    const { labels } = at(text);
    // After the AI总结: the 机构 line it lacks belongs above, not here.
    assert.deepEqual(labels, ['Comments', 'Journal ref']);
    // Between the authors and the 专题命中 line, the 机构 line alone; between the authors and
    // the summary, the 机构 and 专题命中 lines.
    assert.deepEqual(at(text.replace('\n\n专题命中', '\n\n|\n\n专题命中').replace(/\|$/, '')).labels, ['机构 *']);
    const full = digest(entryLines('X'));
    assert.deepEqual(at(full.replace('\n\n机构', '\n\n|\n\n机构')).labels, []);
    const noHits = digest(entryLines('X', { institutions: null, topicHits: null }));
    assert.deepEqual(at(noHits.replace('\n\nAI总结', '\n\n|\n\nAI总结')).labels, ['机构 *', '专题命中']);
    const bare = digest(entryLines('X', { institutions: null, topicHits: null, summary: null, comments: null, journalRef: null })) + '\n|';
    assert.deepEqual(at(bare).labels, ['机构 *', '专题命中', 'AI总结', 'Comments', 'Journal ref']);
    assert.deepEqual(at(bare).list.items.map((item) => (item.textEdit as TextEdit).newText), ['机构 * ', '专题命中 ', 'AI总结 ', 'Comments ', 'Journal ref ']);
  });

  test('Should filter the labels by what the line starts with, and insert the whole label', () => {
    const { text, position } = cursor(digest(entryLines('X', { comments: null })).replace('\n\nJournal ref', '\n\nCo|\n\nJournal ref'));
    const list = completions(parseDigest(text), position, workspace().completion);
    assert.deepEqual(list.items.map((item) => item.label), ['Comments']);
    assert.match(applyEdits(text, [list.items[0].textEdit as TextEdit]), /\nComments \n/);
  });
});

describe('completion: authors', () => {
  test('Should offer the authors seen with the entry\u2019s institutions elsewhere, most papers first', () => {
    const { labels } = at(digest(entryLines('X', { authors: 'Omar Haddad, |', institutions: '机构 * Tsinghua University（清华大学） 纠错' })));
    assert.deepEqual(labels, ['Wei Zhang', 'Lin Qiu', 'Mei Tanaka', 'Priya Natarajan', 'Sofia Rossi']);
  });

  test('Should show the Chinese form a 机构 line gives', () => {
    const ws = testWorkspace({
      [OTHER]: digest(entryLines('A', { authors: 'Wei Zhang, Lin Qiu', institutions: '机构 * Tsinghua University（清华大学） 纠错' }), entryLines('B', { authors: 'Wei Zhang', institutions: '机构 * Wei Zhang, Lin Qiu（张伟、邱林）' })),
    });
    const { text, position } = cursor(digest(entryLines('X', { authors: 'Wei|', institutions: '机构 * Tsinghua University（清华大学） 纠错' })));
    const [item] = completions(parseDigest(text), position, ws.completion).items;
    assert.equal(item.label, 'Wei Zhang');
    assert.match(item.detail!, /^张伟 · 1 paper /);
  });
});

describe('completion: bad input', () => {
  test('Should answer an empty list past the end, in a broken entry and on a huge line', () => {
    const ws = workspace();
    const doc = parseDigest(withInstitutions('机构 * Kyoto University 纠错'));
    assert.deepEqual(completions(doc, { line: 999, character: 0 }, ws.completion).items, []);
    assert.deepEqual(completions(doc, { line: 0, character: 999 }, ws.completion).items, []);
    const broken = parseDigest('标题\n\n机构 * （（（ ；；\n专题命中 ：：(((\n');
    for (let line = 0; line < 4; line++) {
      for (let character = 0; character < 14; character++) {
        assert.doesNotThrow(() => completions(broken, { line, character }, ws.completion));
      }
    }
    const huge = parseDigest(withInstitutions('机构 * ' + 'Lab ； '.repeat(10_000)));
    assert.deepEqual(completions(huge, { line: 8, character: 30 }, ws.completion).items, []);
  });
});

describe('completion: document text shown safely', () => {
  test('Should show control and bidirectional characters of names, translations and topics as U+FFFD, and insert them as written', () => {
    const evil = 'Evil\u202eLab';
    const evilZh = '恶意\u202e实验室';
    const { completion } = testWorkspace({
      [OTHER]: digest(
        entryLines('A', { authors: 'Eve\u202eX, Lin Qiu', institutions: `机构 * ${evil}（${evilZh}） ； Fudan University（复旦大学） 纠错`, topicHits: '专题命中 坏\u202e题 ：x(abstract)；分类 cs.LG' }),
        entryLines('B', { authors: 'Eve\u202eX, Lin Qiu', institutions: '机构 * Fudan University（复旦大学） 纠错' }),
      ),
    });
    const shown = (items: readonly CompletionItem[]): string => JSON.stringify(items.map((item) => [item.label, item.detail, item.labelDetails]));
    const institution = cursor(withInstitutions('机构 * E|'));
    const institutions = completions(parseDigest(institution.text), institution.position, completion).items;
    const item = institutions.find((i) => i.label === 'Evil\ufffdLab');
    assert.ok(item, shown(institutions));
    assert.equal(item.detail, '恶意\ufffd实验室 · once');
    assert.deepEqual(item.labelDetails, { description: '恶意\ufffd实验室' });
    assert.match(accept(institution.text, item), new RegExp(`机构 \\* ${evil}（${evilZh}）`), 'inserted as written');
    const topic = cursor(digest(entryLines('X', { topicHits: '专题命中 坏|' })));
    const topics = completions(parseDigest(topic.text), topic.position, completion).items;
    assert.deepEqual(topics.map((i) => i.label), ['坏\ufffd题']);
    assert.equal(topics[0].filterText, '坏\u202e题', 'filtered on as written');
    const author = cursor(digest(entryLines('X', { authors: 'Lin Qiu, E|', institutions: '机构 * Fudan University（复旦大学） 纠错' })));
    const authors = completions(parseDigest(author.text), author.position, completion).items;
    assert.ok(authors.some((i) => i.label === 'Eve\ufffdX'), shown(authors));
    for (const items of [institutions, topics, authors]) {
      assert.doesNotMatch(shown(items), /\\u202e|\u202e/i, shown(items));
    }
  });
});
