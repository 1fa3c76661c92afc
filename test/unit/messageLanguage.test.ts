/**
 * The message language (`paperDigest.messageLanguage`, the CLI's `--lang`): diagnostics, related
 * information, code action titles, tree labels and the CLI's output in both languages, in English
 * or in Chinese, chosen in one place (service/messages.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../server/src/cli';
import { codeActions } from '../../server/src/service/features/codeActions';
import { hover } from '../../server/src/service/features/hover';
import { NEVER_CANCELLED } from '../../server/src/service/cancellation';
import { ALL_CODES, computeDiagnostics } from '../../server/src/service/features/diagnostics';
import type { PapersGroupNode } from '../../server/src/service/features/tree';
import { papersTree } from '../../server/src/service/features/tree';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { MessageLanguage, resolveMessageLanguage, rulesDocsFor } from '../../server/src/service/messages';
import { parseDigest } from '../../server/src/service/parser';
import { localizedLenses, localizedNode } from '../../server/src/service/treeLabels';
import { digest, entryLines, FIXTURES, REPO_ROOT } from '../support/fixtures';

const HAN = /[\u4e00-\u9fff]/;
const LANGUAGES: readonly MessageLanguage[] = ['both', 'en', 'zh-cn'];
const BASE = 'file:///ext/docs/rules/';

/** Every digest of the diagnostics fixtures: together they raise every rule. */
const fixtures = fs
  .readdirSync(path.join(FIXTURES, 'diagnostics'))
  .filter((name) => name.endsWith('.digest'))
  .map((name) => ({ name, text: fs.readFileSync(path.join(FIXTURES, 'diagnostics', name), 'utf8') }));

function checkedIn(text: string, language: MessageLanguage) {
  return computeDiagnostics(parseDigest(text), { uri: 'file:///w/a.digest', docsBase: rulesDocsFor(BASE, language), language });
}

describe('The message language', () => {
  test('Should resolve the setting with the display language: auto follows a Chinese locale, anything unknown is both', () => {
    assert.equal(resolveMessageLanguage('auto', 'zh-cn'), 'zh-cn');
    assert.equal(resolveMessageLanguage('auto', 'zh-CN'), 'zh-cn');
    assert.equal(resolveMessageLanguage('auto', 'zh_CN.UTF-8'), 'zh-cn');
    assert.equal(resolveMessageLanguage('auto', 'zh-tw'), 'zh-cn');
    assert.equal(resolveMessageLanguage('auto', 'en'), 'en');
    assert.equal(resolveMessageLanguage('auto', 'de-DE'), 'en');
    assert.equal(resolveMessageLanguage('auto', 'zhx'), 'en');
    assert.equal(resolveMessageLanguage('auto', undefined), 'both');
    assert.equal(resolveMessageLanguage('zh-cn', 'en'), 'zh-cn');
    assert.equal(resolveMessageLanguage('en', 'zh-cn'), 'en');
    assert.equal(resolveMessageLanguage(undefined, 'zh-cn'), 'both');
    assert.equal(resolveMessageLanguage('fr', 'zh-cn'), 'both');
    assert.equal(resolveMessageLanguage(42, 'zh-cn'), 'both');
  });

  test('Should give every diagnostic and its related information as "English — 中文", English alone or Chinese alone', () => {
    const seen = new Set<string>();
    for (const { name, text } of fixtures) {
      const [both, en, zh] = LANGUAGES.map((language) => checkedIn(text, language));
      assert.equal(en.length, both.length, name);
      assert.equal(zh.length, both.length, name);
      both.forEach((diagnostic, i) => {
        seen.add(diagnostic.code);
        assert.equal(en[i].code, diagnostic.code);
        assert.equal(diagnostic.message, `${en[i].message} — ${zh[i].message}`, `${name}: ${diagnostic.code}`);
        assert.ok(!en[i].message.includes(' — '), `${name}: ${en[i].message}`);
        assert.match(zh[i].message, HAN, `${name}: ${zh[i].message}`);
        assert.notEqual(en[i].message, zh[i].message);
        assert.equal(diagnostic.codeDescription?.href, `${BASE}${diagnostic.code}.md`);
        assert.equal(en[i].codeDescription?.href, `${BASE}${diagnostic.code}.md`);
        assert.equal(zh[i].codeDescription?.href, `${BASE}zh-cn/${diagnostic.code}.md`);
        (diagnostic.relatedInformation ?? []).forEach((info, j) => {
          assert.equal(info.message, `${en[i].relatedInformation![j].message} — ${zh[i].relatedInformation![j].message}`);
          assert.match(zh[i].relatedInformation![j].message, HAN);
        });
      });
    }
    // The fixtures raise nearly every rule, so that every message was looked at.
    assert.ok(seen.size >= ALL_CODES.length - 4, `rules seen: ${[...seen].join(', ')}`);
  });

  test('Should title every quick fix and fix-all in the language asked for', () => {
    let titles = 0;
    for (const { name, text } of fixtures) {
      const doc = parseDigest(text);
      const uri = 'file:///w/a.digest';
      const actionsIn = (language: MessageLanguage) => {
        const diagnostics = computeDiagnostics(doc, { uri, language });
        return diagnostics.flatMap((diagnostic) => codeActions(doc, { uri }, { range: diagnostic.range, diagnostics: [diagnostic] }, { uri, language }));
      };
      const [both, en, zh] = LANGUAGES.map(actionsIn);
      assert.equal(en.length, both.length, name);
      assert.equal(zh.length, both.length, name);
      both.forEach((action, i) => {
        titles++;
        assert.equal(action.title, `${en[i].title} — ${zh[i].title}`, name);
        assert.match(zh[i].title, HAN, `${name}: ${zh[i].title}`);
        assert.ok(!en[i].title.includes(' — '), `${name}: ${en[i].title}`);
      });
      const fixAllIn = (language: MessageLanguage) => codeActions(doc, { uri }, { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, diagnostics: [], only: ['source.fixAll'] }, { uri, language });
      const [allBoth, allEn, allZh] = LANGUAGES.map(fixAllIn);
      if (allBoth.length > 0) {
        assert.deepEqual([allBoth[0].title, allEn[0].title, allZh[0].title], ['Fix all Paper Digest problems — 修复所有 Paper Digest 问题', 'Fix all Paper Digest problems', '修复所有 Paper Digest 问题']);
      }
    }
    assert.ok(titles > 20, `${titles} quick fixes looked at`);
  });

  test('Should word the Papers tree’s own groups and the reading CodeLenses in Chinese for zh-cn and leave document text alone', () => {
    const group = (fields: Partial<PapersGroupNode>): PapersGroupNode => ({ kind: 'group', id: 'topic:x', groupKind: 'topic', label: 'x', detail: '', count: 1, missing: false, ...fields });
    assert.equal(localizedNode(group({ id: 'score:high', groupKind: 'score', label: 'Recommended', detail: 'matches your interests' }), 'zh-cn').label, '推荐');
    assert.equal(localizedNode(group({ id: 'score:low', groupKind: 'score', label: 'Pushed down', detail: 'negative interests' }), 'zh-cn').detail, '负向兴趣');
    assert.equal(localizedNode(group({ id: 'topic:%00', label: '(no topic)', missing: true }), 'zh-cn').label, '（无专题）');
    assert.equal(localizedNode(group({ id: 'topic:x/%page2', groupKind: 'page', label: 'Papers 201–400' }), 'zh-cn').label, '论文 201–400');
    assert.equal(localizedNode(group({ id: 'score:high', groupKind: 'score', label: 'Recommended' }), 'both').label, 'Recommended');
    assert.equal(localizedNode(group({ id: 'score:high', groupKind: 'score', label: 'Recommended' }), 'en').label, 'Recommended');
    // A category arXiv does not have, from the tree as built: said in the message language, beside the known ones' two names.
    const index = new WorkspaceIndex();
    index.update('file:///w/a.digest', digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.XY、cs.LG' })));
    const roots = papersTree(index, 'category', '').roots;
    const unknown = roots.find((root) => root.label === 'cs.XY')!;
    const known = roots.find((root) => root.label === 'cs.LG')!;
    assert.equal(known.detail, 'Machine Learning · 机器学习');
    assert.deepEqual(
      LANGUAGES.map((language) => localizedNode(unknown, language).detail),
      ['not in the arXiv taxonomy · 不在 arXiv 分类体系中', 'not in the arXiv taxonomy', '不在 arXiv 分类体系中'],
    );
    assert.equal(localizedNode(known, 'zh-cn').detail, 'Machine Learning · 机器学习', 'a known code keeps its two names');
    const range = { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } };
    const lenses = [
      { range, command: { title: '☆ Star', command: 'paperDigest.star' } },
      { range, command: { title: 'Mark unread', command: 'paperDigest.markUnread' } },
      { range, command: { title: 'Open on arXiv', command: 'paperDigest.openOnArxiv' } },
    ];
    assert.deepEqual(localizedLenses(lenses, 'zh-cn').map((lens) => lens.command?.title), ['☆ 加星标', '标记为未读', '在 arXiv 上打开']);
    assert.deepEqual(localizedLenses(lenses, 'both').map((lens) => lens.command?.title), ['☆ Star', 'Mark unread', 'Open on arXiv']);
    // A topic that happens to read like a page or a band is the document's text.
    assert.equal(localizedNode(group({ label: 'Recommended' }), 'zh-cn').label, 'Recommended');
  });
});

describe('Hovers in the message language', () => {
  const text = fs.readFileSync(path.join(FIXTURES, 'hover', 'entries.digest'), 'utf8');
  const doc = parseDigest(text);
  /** The hover's markdown on the first `needle` of the fixture, in `language`. */
  const on = (needle: string, language: MessageLanguage, offset = 1): string => {
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(needle));
    const result = hover(doc, { line, character: lines[line].indexOf(needle) + offset }, NEVER_CANCELLED, language);
    assert.ok(result, `a hover on ${needle}`);
    return (result.contents as { value: string }).value;
  };

  test('Should keep today’s bilingual hover for both, and give its phrases in English or in Chinese alone', () => {
    assert.match(on('Kyoto University', 'both'), /中文名 Chinese name[\s\S]*Institution 1 of 3 · 机构/);
    const en = on('Kyoto University', 'en');
    assert.match(en, /Chinese name[\s\S]*Institution 1 of 3\*/);
    assert.doesNotMatch(en, /中文名|· 机构/);
    const zh = on('Kyoto University', 'zh-cn');
    assert.match(zh, /中文名[\s\S]*第 1 个机构，共 3 个/);
    assert.doesNotMatch(zh, /Chinese name|Institution/);
    // An author, a category with its names, a keyword and a miscased code.
    assert.match(on('Omar Haddad', 'zh-cn'), /第 2 位作者，共 3 位/);
    assert.doesNotMatch(on('Omar Haddad', 'zh-cn'), /Author \d/);
    assert.doesNotMatch(on('cs.LG、cs.CL', 'zh-cn'), /Machine Learning|arXiv category in/);
    assert.doesNotMatch(on('cs.LG、cs.CL', 'en'), /机器学习/);
    assert.match(on('reasoning(abstract)', 'zh-cn'), /命中关键词[\s\S]*命中于/);
    assert.doesNotMatch(on('reasoning(abstract)', 'zh-cn'), /matched keyword|Matched in/);
    assert.match(on('CS.lg', 'zh-cn'), /按此写法不是 arXiv 代码/);
    // The language of one hover does not leak into the next.
    assert.match(on('Kyoto University', 'both'), /中文名 Chinese name/);
  });

  test('Should say an empty name or keyword is empty in the message language', () => {
    const lines = ['大模型推理能力', '', 'Sparse Probes', '', '稀疏探针', '', 'Mei Tanaka', '', '机构 * Kyoto University（ ） ； Tsinghua University（清华大学） 纠错', '', '专题命中 数学推理 ：(abstract)；分类 cs.LG', '', 'AI总结 本文。', ''];
    const doc = parseDigest(lines.join('\n'));
    const at = (needle: string, language: MessageLanguage): string => {
      const line = lines.findIndex((l) => l.includes(needle));
      const result = hover(doc, { line, character: lines[line].indexOf(needle) + 1 }, NEVER_CANCELLED, language);
      assert.ok(result, `a hover on ${needle}`);
      // The Markdown's escapes taken out, to read the text.
      return (result.contents as { value: string }).value.replace(/\\(.)/g, '$1');
    };
    // The institution's translation is blank: its hover shows the translation as empty.
    assert.match(at('Kyoto University', 'zh-cn'), /^\*（空）\* · 中文名/);
    assert.match(at('Kyoto University', 'en'), /^\*\(empty\)\* · Chinese name/);
    assert.match(at('Kyoto University', 'both'), /^\*\(empty\)\* · 中文名 Chinese name/);
    // A topic hit without its keyword, in a title's hover.
    assert.match(at('Sparse Probes', 'zh-cn'), /命中：（空）（abstract 摘要）/);
    assert.doesNotMatch(at('Sparse Probes', 'zh-cn'), /empty/);
    assert.match(at('Sparse Probes', 'en'), /hits: \(empty\) \(abstract/);
  });
});

describe('paper-digest check --lang', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-lang-'));
  const file = path.join(folder, 'a.digest');
  fs.writeFileSync(file, fs.readFileSync(path.join(FIXTURES, 'diagnostics', 'category-case.digest')));
  const run = (...args: string[]) => {
    const out = { stdout: '', stderr: '' };
    const status = runCli(['check', ...args], { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) }, folder);
    return { status, ...out };
  };

  test('Should print the messages and the summary in the language asked for', () => {
    const both = run('a.digest');
    const en = run('--lang', 'en', 'a.digest');
    const zh = run('--lang=zh-cn', 'a.digest');
    assert.equal(both.status, 1);
    assert.equal(en.status, 1);
    assert.equal(zh.status, 1);
    const problems = (output: string) => output.split('\n').filter((line) => line.startsWith('a.digest:'));
    assert.ok(problems(both.stdout).length > 0, both.stdout);
    problems(both.stdout).forEach((line, i) => {
      const [enLine, zhLine] = [problems(en.stdout)[i], problems(zh.stdout)[i]];
      const message = (l: string) => l.replace(/^a\.digest:\d+:\d+: \S+ [a-z-]+ /, '');
      assert.equal(message(line), `${message(enLine)} — ${message(zhLine)}`);
      assert.match(message(zhLine), HAN);
      // The severity too: in Chinese with zh-cn, as tools read it otherwise.
      assert.match(zhLine, /^a\.digest:\d+:\d+: (错误|警告|信息|提示) /);
      assert.match(enLine, /^a\.digest:\d+:\d+: (error|warning|information|hint) /);
    });
    assert.match(both.stdout, /\d+ problems? \(\d+ errors?, \d+ warnings?.*\) in 1 of 1 file\.\n$/);
    assert.match(en.stdout, /\d+ problems? \(\d+ errors?, \d+ warnings?.*\) in 1 of 1 file\.\n$/);
    assert.match(zh.stdout, /共 1 个文件，其中 1 个有问题：\d+ 个问题（\d+ 个错误、\d+ 个警告.*）。\n$/);
  });

  test('Should name the rules in the SARIF output in the language asked for, with the Chinese rule pages', () => {
    const sarif = JSON.parse(run('--lang', 'zh-cn', '--format', 'sarif', 'a.digest').stdout);
    const rule = sarif.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'category-case');
    assert.equal(rule.shortDescription.text, '分类代码大小写错误');
    assert.equal(rule.helpUri, 'https://github.com/paper-digest/paper-digest/blob/main/docs/rules/zh-cn/category-case.md');
    assert.ok(fs.existsSync(path.join(REPO_ROOT, 'docs/rules/zh-cn/category-case.md')));
    const english = JSON.parse(run('--format', 'sarif', 'a.digest').stdout);
    assert.equal(english.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'category-case').shortDescription.text, 'A category in the wrong case — 分类代码大小写错误');
  });

  test('Should take auto from the environment and refuse an unknown language with a usage message and exit 2', () => {
    const saved = { LC_ALL: process.env.LC_ALL, LC_MESSAGES: process.env.LC_MESSAGES, LANG: process.env.LANG };
    try {
      delete process.env.LC_ALL;
      delete process.env.LC_MESSAGES;
      process.env.LANG = 'zh_CN.UTF-8';
      assert.match(run('--lang', 'auto', 'a.digest').stdout, /个问题/);
      process.env.LANG = 'de_DE.UTF-8';
      assert.match(run('--lang', 'auto', 'a.digest').stdout, /problems? \(/);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    for (const args of [['--lang', 'fr', 'a.digest'], ['a.digest', '--lang']]) {
      const result = run(...args);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^paper-digest: (unknown language 'fr'|--lang needs a value)/);
      assert.doesNotMatch(result.stderr, /\n {4}at /);
    }
  });
});

describe('The rule pages', () => {
  test('Should exist in English and in Chinese for every rule, each naming its rule', () => {
    const docs = path.join(REPO_ROOT, 'docs', 'rules');
    for (const code of ALL_CODES) {
      const english = path.join(docs, `${code}.md`);
      const chinese = path.join(docs, 'zh-cn', `${code}.md`);
      assert.ok(fs.existsSync(english), `${english} exists`);
      assert.ok(fs.existsSync(chinese), `${chinese} exists`);
      const text = fs.readFileSync(chinese, 'utf8');
      assert.match(text, new RegExp(`^# \`${code}\``), `${code}: the Chinese page names its rule`);
      assert.ok((text.match(/[\u4e00-\u9fff]/g) ?? []).length > 40, `${code}: the Chinese page is written in Chinese`);
    }
    assert.ok(fs.existsSync(path.join(docs, 'zh-cn', 'README.md')), 'the Chinese index exists');
  });
});
