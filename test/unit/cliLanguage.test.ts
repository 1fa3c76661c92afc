/**
 * `--lang` of `paper-digest papers`, `mark` and `stats`, run as the built command line
 * (dist/cli.js) on a temporary folder of digests: their text in English, in Chinese or in both,
 * the data formats untouched, usage errors as one line in the language asked for; and the
 * command line's message table, every message in both languages.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { CLI_MESSAGES, CliMessageKey, placeholdersOf } from '../../server/src/service/cliMessages';
import { readingWorkspace, SPARSE_PROBES } from '../support/readingFixtures';
import { run, Run } from '../support/builtCli';
import { temporaryFolders } from '../support/tempFolders';

const HAN = /[\u4e00-\u9fff]/;
/** Han characters, outside the digests' own text and the examples of the both language. */
const hanOutside = (text: string, ...allowed: string[]): boolean => HAN.test(allowed.reduce((rest, part) => rest.split(part).join(''), text).replace(/English — 中文/g, ''));

const temp = temporaryFolders();

function workspace(): string {
  return temp.keep(readingWorkspace());
}

function ok(result: Run): string {
  assert.equal(result.status, 0, JSON.stringify(result));
  assert.equal(result.stderr, '');
  return result.stdout;
}

/** Exit 2, nothing on stdout, exactly one line on stderr. */
function usageLine(result: Run): string {
  assert.equal(result.status, 2, JSON.stringify(result));
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^paper-digest: [^\n]+\n$/, `one line: ${JSON.stringify(result.stderr)}`);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  return result.stderr.slice('paper-digest: '.length, -1);
}

describe('The command line’s messages', () => {
  test('Should have every message in English and in Chinese, taking the same values', () => {
    const keys = Object.keys(CLI_MESSAGES) as CliMessageKey[];
    assert.ok(keys.length > 40, `${keys.length} messages`);
    for (const key of keys) {
      const message = CLI_MESSAGES[key];
      assert.ok(message.en.trim().length > 0, `${key}: English`);
      assert.ok(message.zh.trim().length > 0, `${key}: Chinese`);
      assert.match(message.zh, HAN, `${key}: the Chinese is Chinese: ${message.zh}`);
      assert.ok(!hanOutside(message.en), `${key}: the English has no Chinese: ${message.en}`);
      assert.deepEqual(placeholdersOf(message.zh), placeholdersOf(message.en), `${key}: the same values in both`);
    }
  });
});

describe('paper-digest papers --lang', () => {
  const work = workspace();
  test('Should print the summary line in English (for en and both, as check’s) or in Chinese, and the papers’ lines the same in each', () => {
    const en = ok(run(['papers', '--lang', 'en'], work)).split('\n');
    const zh = ok(run(['papers', '--lang=zh-cn'], work)).split('\n');
    const both = ok(run(['papers'], work)).split('\n');
    assert.deepEqual(ok(run(['papers', '--lang', 'both'], work)).split('\n'), both, 'both is the default');
    const count = en.length - 2;
    assert.equal(count, 4, en.join('\n'));
    assert.deepEqual(zh.slice(0, count), en.slice(0, count), 'the papers are data');
    assert.deepEqual(both.slice(0, count), en.slice(0, count));
    assert.equal(en[count], '4 papers (4 unread, 0 starred). ✓ read, ★ starred, + new.');
    assert.equal(zh[count], '4 篇论文（4 篇未读，0 篇已加星标）。✓ 已读，★ 已加星标，+ 新论文。');
    assert.equal(both[count], en[count]);
    const one = ok(run(['papers', '--lang', 'en', '--filter', 'sparse probes'], work));
    assert.match(one, /\n1 paper \(1 unread, 0 starred\)\./);
  });

  test('Should leave JSON and the exports as they are in every language', () => {
    for (const format of ['json', 'csv', 'bibtex', 'ris', 'csljson']) {
      const en = ok(run(['papers', '--format', format, '--lang', 'en'], work));
      assert.equal(ok(run(['papers', '--format', format, '--lang', 'zh-cn'], work)), en, format);
      assert.equal(ok(run(['papers', '--format', format], work)), en, format);
    }
  });

  test('Should word help and usage errors in the language asked for, as one line with exit 2', () => {
    assert.equal(usageLine(run(['papers', '--lang', 'zh-cn', '--sort', 'date'], work)), "未知排序“date”：请用 rank 或 file（见“paper-digest papers --help”）");
    // The language is known even when the error comes before it.
    assert.equal(usageLine(run(['papers', '--format', 'yaml', '--lang', 'zh-cn'], work)), "未知格式“yaml”：请用 text、json、bibtex、csljson、ris、csv 或 markdown（见“paper-digest papers --help”）");
    assert.equal(usageLine(run(['papers', '--bogus', '--lang', 'en'], work)), "unknown option '--bogus' for papers (see 'paper-digest papers --help')");
    assert.equal(usageLine(run(['papers', '--sort'], work)), "--sort needs a value (see 'paper-digest papers --help') — --sort 需要一个值（见“paper-digest papers --help”）");
    const zhHelp = ok(run(['papers', '--help', '--lang', 'zh-cn'], work));
    assert.match(zhHelp, /^用法：paper-digest papers/);
    assert.ok(!/Lists the papers/.test(zhHelp));
    const enHelp = ok(run(['papers', '--lang', 'en', '--help'], work));
    assert.match(enHelp, /^Usage: paper-digest papers/);
    assert.ok(!hanOutside(enHelp), enHelp);
    assert.equal(ok(run(['papers', '--help'], work)), `${enHelp}\n${zhHelp}`);
  });

  test('Should take auto from the environment and refuse an unknown language', () => {
    const withLocale = (locale: string, args: string[]): Run => {
      const saved = { LC_ALL: process.env.LC_ALL, LANG: process.env.LANG, LC_MESSAGES: process.env.LC_MESSAGES };
      try {
        delete process.env.LC_MESSAGES;
        delete process.env.LANG;
        process.env.LC_ALL = locale;
        return run(args, work);
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    };
    assert.match(ok(withLocale('zh_CN.UTF-8', ['papers', '--lang', 'auto'])), /\n4 篇论文（/);
    assert.match(ok(withLocale('de_DE.UTF-8', ['papers', '--lang', 'auto'])), /\n4 papers \(/);
    assert.equal(usageLine(run(['papers', '--lang', 'fr'], work)), "unknown language 'fr': use both, en, zh-cn or auto (see 'paper-digest papers --help') — 未知语言“fr”：请用 both、en、zh-cn 或 auto（见“paper-digest papers --help”）");
    assert.match(usageLine(run(['papers', '--lang'], work)), /^--lang needs a value: both, en, zh-cn or auto/);
  });
});

describe('paper-digest mark --lang', () => {
  test('Should say what it did in English (for en and both) or in Chinese', () => {
    const work = workspace();
    const title = SPARSE_PROBES[0];
    assert.equal(ok(run(['mark', 'star', '--title', title, '--tag', 'circuits', '--lang', 'en'], work)), `Starred, tagged #circuits: ${title}\n`);
    assert.equal(ok(run(['mark', 'read', '--title', title, '--note', 'n', '--lang', 'zh-cn'], work)), `已标记为已读，已设置笔记：${title}\n`);
    assert.equal(ok(run(['mark', 'tag', '--title', title, '--untag', 'circuits', '--note', ''], work)), `Untagged #circuits, note removed: ${title}\n`);
    assert.equal(ok(run(['mark', 'star', '--title', title, '--lang', 'zh-cn'], work)), `未更改（已是此状态）：${title}\n`);
    assert.equal(ok(run(['mark', 'star', '--title', title, '--lang', 'en'], work)), `Unchanged (already so): ${title}\n`);
    assert.equal(ok(run(['mark', 'unstar', '--title', title], work)), `Unstarred: ${title}\n`);
    // The state file is the same whatever the language.
    const state = JSON.parse(fs.readFileSync(path.join(work, '.paper-digest', 'state.json'), 'utf8')) as { papers: Record<string, { read?: boolean; starred?: boolean; tags?: string[] }> };
    const paper = Object.values(state.papers)[0];
    assert.equal(paper.read, true);
    assert.ok(!paper.starred);
  });

  test('Should word its refusals in the language asked for, one line and exit 2', () => {
    const work = workspace();
    assert.equal(usageLine(run(['mark', 'star', '--lang', 'zh-cn'], work)), "mark 需要 --title TITLE 或 --id ID 之一（见“paper-digest mark --help”）");
    assert.equal(usageLine(run(['mark', 'like', '--title', 'x', '--lang', 'zh-cn'], work)), "未知改动“like”：请用 read、unread、star、unstar 或 tag（见“paper-digest mark --help”）");
    assert.equal(usageLine(run(['mark', 'tag', '--title', 'x', '--lang', 'en'], work)), "mark tag needs --tag, --untag or --note (see 'paper-digest mark --help')");
    assert.equal(usageLine(run(['mark', 'star', '--id', 'nothing', '--lang', 'zh-cn'], work)), "没有 id 为“nothing”的论文（见“paper-digest papers --format json”）");
    assert.equal(usageLine(run(['mark', 'star', '--title', 'no such paper', '--lang', 'en'], work)), "no paper's title is or contains 'no such paper'");
    // Why no paper matches is a message: both languages for both.
    assert.equal(usageLine(run(['mark', 'star', '--title', 'no such paper'], work)), "no paper's title is or contains 'no such paper' — 没有标题是或包含“no such paper”的论文");
    assert.match(usageLine(run(['mark', 'star', '--title', 'in', '--lang', 'zh-cn'], work)), /^\d 篇论文与“in”相符：'.+'、'.+'、…；请写出更多标题，或用 --id$/);
    assert.equal(usageLine(run(['mark', 'star', '--title', 'x', '2026-05-01.digest'], work)), "'2026-05-01.digest' is not a folder: mark changes the state file of a folder — “2026-05-01.digest”不是文件夹：mark 修改的是文件夹的状态文件");
    assert.ok(!fs.existsSync(path.join(work, '.paper-digest', 'state.json')), 'nothing was written');
    assert.match(ok(run(['mark', '--help', '--lang', 'zh-cn'], work)), /^用法：paper-digest mark[\s\S]*设置笔记/);
  });
});

describe('paper-digest stats --lang', () => {
  const work = workspace();
  test('Should head the tables in English, in Chinese, or both (the summary line in English, as check’s), with the numbers the same', () => {
    const en = ok(run(['stats', '--lang', 'en'], work));
    const zh = ok(run(['stats', '--lang', 'zh-cn'], work));
    const both = ok(run(['stats'], work));
    assert.match(en, /^4 papers \(5 entries\) in 2 digest files\.\n\nTopics \(3\):\n/);
    assert.match(en, /\nCategories \(\d+\):[\s\S]*\nInstitutions \(\d+\):[\s\S]*\nPapers per digest date \(2\):\n[\s\S]*\nWeeks:\n[\s\S]*\nMonths:\n/);
    assert.doesNotMatch(en, /专题|每期论文数|每周|每月/);
    assert.match(zh, /^2 个摘要集文件中有 4 篇论文（5 个条目）。\n\n专题（3）：\n/);
    assert.match(zh, /\n分类（\d+）：[\s\S]*\n机构（\d+）：[\s\S]*\n每期论文数（2）：\n[\s\S]*\n每周：\n[\s\S]*\n每月：\n/);
    assert.doesNotMatch(zh, /papers|Topics|Categories|Weeks|Months/);
    assert.match(both, /^4 papers \(5 entries\) in 2 digest files\.\n\nTopics 专题 \(3\):\n/);
    assert.match(both, /\nWeeks 每周:\n/);
    // The rows are the same in every language.
    // (Chinese alone separates the topics of a period with its own comma.)
    const rows = (text: string) => text.split('\n').filter((line) => line.startsWith('  ') && !/^ {2}[▲▼=] |Trends compare|趋势比较/.test(line)).map((line) => line.replace(/，/g, ', '));
    assert.deepEqual(rows(zh), rows(en));
    assert.deepEqual(rows(both), rows(en));
    // The trends name the kind of each row, and count a paper once in each window however many
    // digests repeat it: 数学推理 has 2 papers in all (the Topics table), in 3 entries.
    assert.match(en, /\nTopics \(3\):\n {2}2 {2}数学推理\n/);
    // Two days of digests: nothing to compare the last 7 days with (every row rose from nothing).
    assert.match(en, /\nLast 7 days against the 7 before:\n {2}Trends compare the last 7 days with the 7 before: they need digests dated over two weeks at least\n/);
    assert.match(zh, /\n近 7 天对比前 7 天：\n {2}趋势比较最近 7 天与之前 7 天：需要日期跨越至少两周的摘要集\n/);
    assert.match(both, /\nLast 7 days against the 7 before 近 7 天对比前 7 天:\n {2}Trends compare .* · 趋势比较.*\n/);
    // A digest of the week before (the dates two whole weeks): the rows, each naming its kind, counting a paper once in each window.
    const longer = temp.keep(fs.mkdtempSync(path.join(path.dirname(work), 'paper-digest-trends-')));
    for (const name of fs.readdirSync(work)) if (name.endsWith('.digest') || name.endsWith('.digest.txt')) fs.copyFileSync(path.join(work, name), path.join(longer, name));
    fs.copyFileSync(path.join(work, '2026-05-01.digest'), path.join(longer, '2026-04-19.digest'));
    const trendsIn = (language: string): string => ok(run(['stats', '--lang', language], longer));
    assert.match(trendsIn('en'), /\nLast 7 days against the 7 before:\n {2}▲ +1 \/ 0 +topic [^\n]+\n(?: {2}.*\n)* {2}= +2 \/ 2 +topic 数学推理\n/);
    assert.match(trendsIn('zh-cn'), /\n近 7 天对比前 7 天：\n {2}▲ +1 \/ 0 +专题 [^\n]+\n(?: {2}.*\n)* {2}= +2 \/ 2 +专题 数学推理\n/);
    assert.match(trendsIn('both'), /\nLast 7 days against the 7 before 近 7 天对比前 7 天:\n {2}▲ +1 \/ 0 +topic [^\n]+\n(?: {2}.*\n)* {2}= +2 \/ 2 +topic 数学推理\n/);
    assert.equal(ok(run(['stats', '--format', 'json', '--lang', 'zh-cn'], work)), ok(run(['stats', '--format', 'json', '--lang', 'en'], work)), 'JSON is data');
  });

  test('Should word its help and usage errors in the language asked for, one line and exit 2', () => {
    assert.equal(usageLine(run(['stats', '--format', 'pdf', '--lang', 'zh-cn'], work)), "未知格式“pdf”：请用 text、json、svg 或 html（见“paper-digest stats --help”）");
    assert.equal(usageLine(run(['stats', '--lang', 'en', '--bogus'], work)), "unknown option '--bogus' for stats (see 'paper-digest stats --help')");
    assert.equal(usageLine(run(['stats', '--lang', 'xx'], work)), "unknown language 'xx': use both, en, zh-cn or auto (see 'paper-digest stats --help') — 未知语言“xx”：请用 both、en、zh-cn 或 auto（见“paper-digest stats --help”）");
    assert.match(ok(run(['stats', '--help', '--lang', 'zh-cn'], work)), /^用法：paper-digest stats[\s\S]*被多期摘要集重复收录的论文只计一次/);
    assert.ok(!hanOutside(ok(run(['stats', '--help', '--lang', 'en'], work))));
  });
});

describe('paper-digest check --lang, its usage errors and help', () => {
  const work = workspace();
  test('Should word them in the language asked for, one line and exit 2', () => {
    assert.equal(usageLine(run(['check', '--lang', 'zh-cn'], work)), "check 需要至少一个文件或文件夹（见“paper-digest --help”）");
    assert.equal(usageLine(run(['lint', '--lang', 'zh-cn'], work)), "未知命令“lint”：请用 check、stats、papers 或 mark（见“paper-digest --help”）");
    assert.equal(usageLine(run(['check', '--fast', '.', '--lang', 'en'], work)), "unknown option '--fast' (see 'paper-digest --help')");
    assert.match(ok(run(['--help', '--lang', 'zh-cn'], work)), /^用法：paper-digest check[\s\S]*检查中英双语 arXiv 论文摘要/);
  });

  test('Should take --lang before the name of the command too', () => {
    assert.match(ok(run(['--lang', 'zh-cn', 'papers'], work)), /\n4 篇论文（/);
    assert.match(ok(run(['--lang=en', 'stats'], work)), /^4 papers \(5 entries\)/);
    assert.equal(usageLine(run(['--lang', 'zh-cn', 'mark', 'star'], work)), "mark 需要 --title TITLE 或 --id ID 之一（见“paper-digest mark --help”）");
    assert.equal(usageLine(run(['--lang', 'zh-cn'], work)), "没有给出命令：请用 check、stats、papers 或 mark（见“paper-digest --help”）");
  });
});
