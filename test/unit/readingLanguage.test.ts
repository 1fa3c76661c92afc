/**
 * The reading workflow in the message language: the reading part of a title's hover (state,
 * first seen, tags, note, score and reasons) and the reasons of the Papers tree's paper nodes,
 * in both languages (today's text), English alone or Chinese alone, document text as written;
 * and what the reading state says back (a change's answer, the state file's problems).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { hover } from '../../server/src/service/features/hover';
import { parseDigest } from '../../server/src/service/parser';
import { PapersTreeLookup, papersTree } from '../../server/src/service/features/tree';
import type { PaperNode, PapersTreeItem } from '../../server/src/service/features/tree';
import type { MessageLanguage } from '../../server/src/service/messages';
import { readingHover } from '../../server/src/service/reading/documentFeatures';
import { CHANGE_MESSAGES, localizedReason, READING_WORDS, stateProblemIn } from '../../server/src/service/reading/readingMessages';
import { describeProblem, problemMessage } from '../../server/src/service/reading/stateStore';
import { message, MessageRef, reasonOf } from '../../server/src/service/cliMessages';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { ReadingService } from '../../server/src/reading';
import { STATE_FILE, STATE_FOLDER } from '../../server/src/stateDisk';
import { escapeMarkdown } from '../../server/src/service/text';
import { localizedNode } from '../../server/src/service/treeLabels';
import { digest, entryLines } from '../support/fixtures';
import { RL, testWorkspace } from '../support/readingModel';

const HAN = /[\u4e00-\u9fff]/;
const DAY1 = 'file:///w/2026-05-01.digest';
const DAY2 = 'file:///w/2026-05-02.digest';

const PROBES = entryLines('P', {
  englishTitle: 'Sparse Probes for *Arithmetic* Circuits',
  chineseTitle: '算术电路的稀疏探针',
  authors: 'Mei Tanaka',
  institutions: '机构 * Kyoto University（京都大学） 纠错',
  topicHits: '专题命中 可解释性 ：probe(title)；分类 cs.CL',
  summary: 'AI总结 本文借助强化学习的奖励信号定位电路。',
});

const INTERESTS = {
  keywords: [{ term: 'reinforcement learning', weight: 2 }, '强化学习'],
  authors: ['Alice Smith'],
  institutions: ['清华大学', 'Kyoto University'],
  categories: ['cs.LG'],
  topics: [{ term: '数学推理', weight: 0.5 }],
};

function workspace() {
  const w = testWorkspace({ [DAY1]: digest(RL, PROBES), [DAY2]: digest(PROBES) }, INTERESTS, { [DAY1]: 1, [DAY2]: 2 });
  const papers = [...w.model.lookup().papers()];
  const rl = papers.find((paper) => paper.title.startsWith('Reinforcement'))!;
  const repeat = papers.find((paper) => paper.title.startsWith('Sparse') && paper.uri === DAY2)!;
  const keyOf = (paper: typeof rl) => w.model.lookup().info(paper).paperKey;
  w.store.change([keyOf(rl)], { starred: true, read: true, addTags: ['rl'], note: 'see **bold** [link](http://x)' });
  w.model.invalidate();
  return { w, rl, repeat };
}

describe('The reading hover in the message language', () => {
  const { w, rl, repeat } = workspace();
  const hoverOf = (paper: typeof rl, language: MessageLanguage) => readingHover(w.model.lookup().info(paper), (uri) => uri.slice('file:///w/'.length), language);
  const note = escapeMarkdown('see **bold** [link](http://x)');
  const list = (...reasons: string[]) => reasons.map((reason) => `- ${escapeMarkdown(reason)}`).join('\n');
  const line = (hover: string) => /:(\d+)/.exec(hover)?.[1];

  test('Should keep today’s bilingual reading hover for both', () => {
    assert.equal(
      hoverOf(rl, 'both'),
      [
        'Read · 已读 · ★ Starred · 已加星标 · New · 新',
        'Tags · 标签: `rl`',
        `Note · 笔记: ${note}`,
        '**Score 9.5** · 兴趣分',
        list(
          "keyword 'reinforcement learning' in the title, counted double (+4) · 标题含关键词",
          "keyword '强化学习' in the title, counted double (+2) · 标题含关键词",
          'topic 数学推理 (+0.5) · 专题',
          'category cs.LG (+1) · 分类',
          'author Alice Smith (+1) · 作者',
          'institution Tsinghua University (+1) · 机构 清华大学',
        ),
      ].join('\n\n'),
    );
    const second = hoverOf(repeat, 'both');
    assert.ok(line(second), second);
    assert.match(second, new RegExp(`^Unread · 未读 · ☆ Not starred · 未加星标 · Repeat · 重复出现\n\nFirst seen in ${escapeMarkdown('2026-05-01.digest').replace(/[\\.]/g, '\\$&')}:${line(second)} · 首次出现\n\n`));
  });

  test('Should give the reading hover in English alone for en', () => {
    assert.equal(
      hoverOf(rl, 'en'),
      [
        'Read · ★ Starred · New',
        'Tags: `rl`',
        `Note: ${note}`,
        '**Score 9.5**',
        list("keyword 'reinforcement learning' in the title, counted double (+4)", "keyword '强化学习' in the title, counted double (+2)", 'topic 数学推理 (+0.5)', 'category cs.LG (+1)', 'author Alice Smith (+1)', 'institution Tsinghua University (+1)'),
      ].join('\n\n'),
    );
    const second = hoverOf(repeat, 'en');
    assert.equal(
      second,
      ['Unread · ☆ Not starred · Repeat', `First seen in ${escapeMarkdown('2026-05-01.digest')}:${line(second)}`, '**Score 2**', list("keyword '强化学习' in the summary or hits (+1)", 'institution Kyoto University (+1)')].join('\n\n'),
    );
  });

  test('Should give the reading hover in Chinese alone for zh-cn, the matched text as written', () => {
    const zh = hoverOf(rl, 'zh-cn');
    assert.equal(
      zh,
      [
        '已读 · ★ 已加星标 · 新',
        '标签：`rl`',
        `笔记：${note}`,
        '**兴趣分 9.5**',
        list('标题含关键词“reinforcement learning”，计双倍（+4）', '标题含关键词“强化学习”，计双倍（+2）', '专题 数学推理（+0.5）', '分类 cs.LG（+1）', '作者 Alice Smith（+1）', '机构 清华大学（+1）'),
      ].join('\n\n'),
    );
    const second = hoverOf(repeat, 'zh-cn');
    assert.equal(second, ['未读 · ☆ 未加星标 · 重复出现', `首次出现于 ${escapeMarkdown('2026-05-01.digest')}:${line(second)}`, '**兴趣分 2**', list('总结或命中词含关键词“强化学习”（+1）', '机构 京都大学（+1）')].join('\n\n'));
  });

  test('Should show an indented line of a note as text, never as a code block', () => {
    const plain = testWorkspace({ [DAY1]: digest(PROBES) });
    const paper = [...plain.model.lookup().papers()][0];
    const key = plain.model.lookup().info(paper).paperKey;
    plain.store.change([key], { note: 'line1\n\n    indented \\* code\n\ttabbed' });
    plain.model.invalidate();
    const hover = readingHover(plain.model.lookup().info(paper), undefined, 'en');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const html = (require('markdown-it') as (options: object) => { render(text: string): string })({ html: true }).render(hover);
    assert.ok(!html.includes('<code>') && !html.includes('<pre>'), html);
    assert.ok(html.includes('indented \\* code'), html);
  });

  test('Should show tags, notes and reasons without control or bidirectional characters, and reasons cleaned in the tree', () => {
    const hostile = entryLines('H', {
      englishTitle: 'Hostile Reasons Paper',
      authors: 'Mei Tanaka https://evil.example/a, Bo Li',
      institutions: '机构 * Kyoto University（京都大学 https://evil.example/login\u202E） 纠错',
      topicHits: '专题命中 推理\u202Eevil ：probes(title)；分类 cs.LG',
    });
    const w = testWorkspace({ [DAY1]: digest(hostile) }, { topics: ['推理'], institutions: ['京都'], authors: ['Tanaka'] });
    const paper = [...w.model.lookup().papers()][0];
    const key = w.model.lookup().info(paper).paperKey;
    w.store.change([key], { addTags: ['t\u202eag\u001b[31m'], note: 'see [x](command:evil) \u202E' });
    w.model.invalidate();
    const info = w.model.lookup().info(paper);
    assert.ok(info.reasons.length >= 3, info.reasons.join(' | '));
    const UNSAFE = /[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/;
    for (const language of ['both', 'en', 'zh-cn'] as const) {
      const text = readingHover(info, undefined, language);
      assert.ok(!UNSAFE.test(text.replace(/\n/g, '')), `${language}: ${JSON.stringify(text)}`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const html = (require('markdown-it') as (options: object) => { render(text: string): string })({ html: true, linkify: true }).render(text);
      assert.ok(!html.includes('<a '), html);
    }
    const tree = papersTree(w.index, 'forYou', { filter: '', reading: w.model.lookup() });
    const node = (tree.roots.flatMap((group) => group.children) as PaperNode[]).find((each) => each.kind === 'paper')!;
    assert.ok(node.reasons.length >= 3);
    for (const reason of node.reasons) assert.ok(!UNSAFE.test(reason), JSON.stringify(reason));
  });

  test('Should say that no interest matched in the language asked for', () => {
    const plain = testWorkspace({ [DAY1]: digest(PROBES) });
    const info = plain.model.lookup().info([...plain.model.lookup().papers()][0]);
    assert.match(readingHover(info, undefined, 'both'), /\*\*Score 0\*\* · 兴趣分 \(no interest matched · 无匹配\)$/);
    assert.match(readingHover(info, undefined, 'en'), /\*\*Score 0\*\* \(no interest matched\)$/);
    assert.match(readingHover(info, undefined, 'zh-cn'), /\*\*兴趣分 0\*\*（没有匹配的兴趣）$/);
  });
});

describe('The digests of the reading workflow', () => {
  test('Should count a paper a digest repeats once in its paper, unread and new counts', async () => {
    const index = new WorkspaceIndex();
    const copy = entryLines('A', { englishTitle: 'Alpha Paper' });
    index.update('file:///w/2026-05-01.digest', digest(copy, entryLines('B'), copy, entryLines('C')));
    index.update('file:///w/2026-05-02.digest', digest(copy, entryLines('D'), entryLines('D')));
    const service = new ReadingService(index, {
      folders: () => ['file:///w'],
      mtimeOf: () => undefined,
      configuration: async () => undefined,
      notify: () => undefined,
      log: () => undefined,
      messageLanguage: () => 'en',
    });
    await service.ready();
    const counts = service.digests().digests.map((each) => [each.paperCount, each.unreadCount, each.newCount]);
    // Alpha twice in the first digest: once; in the second, not new; D twice there: once.
    assert.deepEqual(counts, [
      [3, 3, 3],
      [2, 2, 1],
    ]);
    // As the file groups of the Papers view count them.
    const groups = papersTree(index, 'file', '').roots;
    assert.deepEqual(groups.map((group) => [group.label, group.count]).sort(), [
      ['2026-05-01.digest', 3],
      ['2026-05-02.digest', 2],
    ]);
  });
});

describe('The reasons of a score in the message language', () => {
  test('Should put every kind of reason into English or Chinese and leave other text alone', () => {
    const cases: [string, string, string][] = [
      ["keyword 'a · b' in the title, counted double (+4) · 标题含关键词", "keyword 'a · b' in the title, counted double (+4)", '标题含关键词“a · b”，计双倍（+4）'],
      ["keyword 'x' in the summary or hits (-1.5) · 总结或命中词含关键词", "keyword 'x' in the summary or hits (-1.5)", '总结或命中词含关键词“x”（-1.5）'],
      ['topic 数学 · 推理 (+0.5) · 专题', 'topic 数学 · 推理 (+0.5)', '专题 数学 · 推理（+0.5）'],
      ['category q-bio.BM (-3) · 分类', 'category q-bio.BM (-3)', '分类 q-bio.BM（-3）'],
      ['author 李 雷 (+1) · 作者', 'author 李 雷 (+1)', '作者 李 雷（+1）'],
      ['institution Kyoto University (+1) · 机构', 'institution Kyoto University (+1)', '机构 Kyoto University（+1）'],
      ['institution Tsinghua University (+1) · 机构 清华大学', 'institution Tsinghua University (+1)', '机构 清华大学（+1）'],
      ['something else · 别的', 'something else · 别的', 'something else · 别的'],
    ];
    for (const [both, en, zh] of cases) {
      assert.equal(localizedReason(both, 'both'), both);
      assert.equal(localizedReason(both, 'en'), en);
      assert.equal(localizedReason(both, 'zh-cn'), zh);
    }
  });

  test('Should have every reading word and message in English and in Chinese', () => {
    const messages = { ...READING_WORDS, nothingToChange: CHANGE_MESSAGES.nothingToChange, noPaperMatched: CHANGE_MESSAGES.noPaperMatched, outsideOne: CHANGE_MESSAGES.outside(1), outsideMany: CHANGE_MESSAGES.outside(3), unknownFields: CHANGE_MESSAGES.unknownFields(['stared']), wrongScope: CHANGE_MESSAGES.wrongScope(['grouping']) };
    for (const [key, word] of Object.entries(messages)) {
      assert.ok(word.en && !HAN.test(word.en), `${key}: ${word.en}`);
      assert.match(word.zh, HAN, `${key}: ${word.zh}`);
    }
  });

  test('Should say which fields are of the wrong type in Chinese with a space before a Latin word only', () => {
    assert.equal(CHANGE_MESSAGES.wrongFields(['read', 'addTags', 'note']).zh, '未做任何更改：“read”必须是 true 或 false；“addTags”必须是字符串列表；“note”必须是字符串或 null。');
  });

  test('Should name the unknown fields of a change and the wrong parts of a scope in both languages', () => {
    assert.equal(CHANGE_MESSAGES.unknownFields(['stared', 'x']).en, 'Nothing was changed: a change has no field "stared", "x" (it has read, starred, addTags, removeTags and note).');
    assert.equal(CHANGE_MESSAGES.unknownFields(['stared', 'x']).zh, '未做任何更改：更改中没有字段“stared”、“x”（可用的字段为 read、starred、addTags、removeTags 和 note）。');
    assert.match(CHANGE_MESSAGES.wrongScope(['grouping']).en, /^Nothing was changed: the scope's "grouping" is not what a scope has \(.*grouping one of topic, category, institution, file, unread, starred, forYou, new\)\.$/);
    assert.match(CHANGE_MESSAGES.wrongScope(['paperKeys', 'grouping']).zh, /^未做任何更改：范围中的“paperKeys”、“grouping”不是范围可有的内容（/);
  });

  test('Should send the Papers tree’s paper nodes with their reasons in the language asked for', () => {
    const { w } = workspace();
    const lookup = new PapersTreeLookup(papersTree(w.index, 'forYou', { filter: '', reading: w.model.lookup() }));
    const papers = (): PaperNode[] => {
      const found: PaperNode[] = [];
      const walk = (id: string | undefined) => {
        for (const item of (lookup.childrenOf(id) ?? []) as PapersTreeItem[]) {
          if (item.kind === 'paper') found.push(item);
          else walk(item.id);
        }
      };
      walk(undefined);
      return found;
    };
    const rl = papers().find((node) => node.title.startsWith('Reinforcement'))!;
    assert.ok(rl, 'the paper is in the tree');
    assert.equal(localizedNode(rl, 'both'), rl);
    assert.deepEqual(localizedNode(rl, 'en').reasons, rl.reasons.map((reason) => reason.slice(0, reason.lastIndexOf(' · '))));
    const zh = localizedNode(rl, 'zh-cn');
    assert.equal(zh.reasons.length, rl.reasons.length);
    assert.equal(zh.reasons[0], '标题含关键词“reinforcement learning”，计双倍（+4）');
    assert.deepEqual({ ...zh, reasons: rl.reasons }, rl, 'nothing but the reasons changes');
    assert.ok(rl.reasons[0].includes(' · 标题含关键词'), 'the cached node is left as it was');
  });
});

describe('The reading state’s messages in the message language', () => {
  test('Should word the state file’s problems in Chinese for zh-cn, keeping the location and what is data, and in English for en and both', () => {
    const location = '/w/.paper-digest/state.json';
    const cases: [MessageRef, string, string][] = [
      [
        message('stateNotWritten', { location, reason: reasonOf(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) }),
        '/w/.paper-digest/state.json could not be written: permission denied; nothing was changed',
        '/w/.paper-digest/state.json 无法写入：权限不足；未做任何更改',
      ],
      [message('stateKeptChanging', { location }), '/w/.paper-digest/state.json kept changing while it was written; nothing was changed, try again', '/w/.paper-digest/state.json 在写入期间一直在变化；未做任何更改，请重试'],
      [
        message('stateCannotRead', { location, reason: reasonOf(new Error('EIO: i/o error, read')) }),
        '/w/.paper-digest/state.json cannot be read (EIO: i/o error, read); reading state is read-only',
        '/w/.paper-digest/state.json 无法读取（系统错误：EIO: i/o error, read）；阅读状态为只读',
      ],
      [
        problemMessage(location, { kind: 'corrupt', reason: message('notJson', { detail: 'Unexpected token; at 3' }) }),
        '/w/.paper-digest/state.json is corrupt: not valid JSON (Unexpected token; at 3); it is left untouched and reading state is read-only until it is fixed',
        '/w/.paper-digest/state.json 已损坏：不是有效的 JSON（Unexpected token; at 3）；文件保持原样，修复之前阅读状态为只读',
      ],
      [
        problemMessage('/w/a b/state.json', { kind: 'unknown-version', reason: message('unknownVersion', { version: '9', known: 1 }) }),
        '/w/a b/state.json cannot be used: its version 9 is not one this version of Paper Digest knows (1); it is left untouched and reading state is read-only until it is fixed',
        '/w/a b/state.json 无法使用：其版本 9 不是此版本 Paper Digest 认识的版本（1）；文件保持原样，修复之前阅读状态为只读',
      ],
    ];
    for (const [problem, english, chinese] of cases) {
      assert.equal(stateProblemIn(problem, 'zh-cn'), chinese);
      assert.equal(stateProblemIn(problem, 'en'), english);
      assert.equal(stateProblemIn(problem, 'both'), english);
    }
    assert.equal(describeProblem('/w/a b/state.json', { kind: 'corrupt', reason: message('noVersion') }), '/w/a b/state.json is corrupt: it has no "version" field; it is left untouched and reading state is read-only until it is fixed');
  });

  test('Should answer a change of the reading state and report a corrupt state file in the language asked for', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-reading-lang-'));
    fs.mkdirSync(path.join(folder, STATE_FOLDER));
    fs.writeFileSync(path.join(folder, STATE_FOLDER, STATE_FILE), '{ not json');
    const folderUri = pathToFileURL(folder).href;
    const index = new WorkspaceIndex();
    index.update(`${folderUri}/2026-05-01.digest`, digest(RL));
    index.update('file:///elsewhere/2026-05-02.digest', digest(PROBES));
    let language: MessageLanguage = 'zh-cn';
    const notified: string[] = [];
    const service = new ReadingService(index, {
      folders: () => [folderUri],
      mtimeOf: () => undefined,
      configuration: async () => undefined,
      notify: (params) => void (params.problem && notified.push(params.problem)),
      log: () => undefined,
      messageLanguage: () => language,
    });
    try {
      await service.ready();
      const problem = service.stateInfo().stateFiles[0]?.problem ?? '';
      assert.match(problem, /state\.json 已损坏：不是有效的 JSON（.*）；文件保持原样，修复之前阅读状态为只读$/, problem);
      assert.equal((await service.setPaperState({ scope: {}, change: undefined as never })).message, '没有要更改的内容。');
      assert.equal((await service.setPaperState({ scope: { filter: 'no such paper anywhere' }, change: { read: true } })).message, '没有匹配的论文。');
      assert.deepEqual(await service.setPaperState({ scope: {}, change: { read: true } }, { isCancellationRequested: true }), { changed: 0, readOnly: true, message: '已取消：未做任何更改。' });
      const both = await service.setPaperState({ scope: {}, change: { read: true } });
      assert.match(both.message ?? '', /^.*state\.json 已损坏：.*阅读状态为只读 1 篇论文在工作区文件夹之外，那里不保存状态文件。$/, both.message);
      language = 'en';
      assert.equal((await service.setPaperState({ scope: { filter: 'no such paper anywhere' }, change: { read: true } })).message, 'No paper matched.');
      const english = await service.setPaperState({ scope: {}, change: { read: true } });
      assert.match(english.message ?? '', /state\.json is corrupt: not valid JSON .*; it is left untouched and reading state is read-only until it is fixed 1 paper is outside the workspace folders, where no state file is kept\.$/, english.message);
      language = 'both';
      assert.match(service.stateInfo().stateFiles[0]?.problem ?? '', /is corrupt: not valid JSON/);
      assert.equal((await service.setPaperState({ scope: {}, change: undefined as never })).message, 'Nothing to change.');
    } finally {
      service.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('A title’s hover with many categories in the message language', () => {
  test('Should count the categories left out in the language asked for', () => {
    const codes = ['cs.LG', 'cs.CL', 'cs.AI', 'cs.CV', 'cs.RO', 'cs.IR', 'cs.NE', 'cs.SE', 'cs.DB', 'cs.DC', 'cs.CR', 'cs.HC', 'cs.MA', 'stat.ML'];
    const text = digest(entryLines('M', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 ${codes.join('、')}` }));
    const doc = parseDigest(text);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.startsWith('M Sparse Probes'));
    const on = (language: MessageLanguage) => (hover(doc, { line, character: 1 }, undefined, language)!.contents as { value: string }).value;
    assert.match(on('both'), /… 2 more/);
    assert.match(on('en'), /… 2 more/);
    assert.match(on('zh-cn'), /……另有 2 个/);
    assert.doesNotMatch(on('zh-cn'), /more/);
  });
});
