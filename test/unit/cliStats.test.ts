import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { digest, entryLines } from '../support/fixtures';
import { run } from '../support/builtCli';

const HOSTILE = 'Evil </svg><script>alert(1)</script> "quoted" & \'single\' \u202Egnp.exe';
/** A topic is one word: the same, without spaces. */
const HOSTILE_TOPIC = '</svg><script>alert(1)</script>"&\'\u202E坏';

/** Runs xmllint on a text: its exit status and what it said (xmllint is installed by scripts/install-test-tools.sh). */
function xmllint(text: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('xmllint', [...args, '-'], { input: text, encoding: 'utf8' });
  if (result.error) {
    throw new Error(`xmllint is needed for this test (Debian package libxml2-utils): ${result.error.message}`);
  }
  return { status: result.status, output: result.stdout + result.stderr };
}

let work: string;

before(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-'));
  fs.writeFileSync(path.join(work, '2026-04-28.digest'), digest(entryLines('A'), entryLines('B', { topicHits: '专题命中 代码生成 ：code(abstract)；分类 cs.SE' })));
  fs.writeFileSync(path.join(work, '2026-05-01.digest.txt'), digest(
    entryLines('A'),
    entryLines('C', { englishTitle: HOSTILE, institutions: `机构 * ${HOSTILE}（<b>坏</b>） 纠错`, topicHits: `专题命中 ${HOSTILE_TOPIC} ：x(abstract)；分类 cs.CL` }),
  ));
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

describe('paper-digest stats', () => {
  test('Should print tables of the papers per topic, category, institution and date', () => {
    const result = run(['stats', '.'], work);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^3 papers \(4 entries\) in 2 digest files\./);
    assert.match(result.stdout, /Topics 专题 \(3\):\n {2}1 {2}<\/svg><script>alert\(1\)<\/script>"&'\uFFFD坏\n {2}1 {2}代码生成\n {2}1 {2}数学推理\n/, 'text output is plain text, A counted once');
    assert.match(result.stdout, /cs\.CL {2}Computation and Language · 计算与语言/);
    assert.match(result.stdout, /2026-04-28 {6}2/);
    assert.match(result.stdout, /2026-W18 {6}3  /);
    assert.doesNotMatch(result.stdout, /\u202E/, 'bidirectional overrides are not printed');
  });

  test('Should say in the SVG how many topics its bars leave out', () => {
    const many = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-many-'));
    try {
      fs.writeFileSync(path.join(many, '2026-05-06.digest'), digest(...Array.from({ length: 60 }, (_, i) => entryLines(`T${i}`, { topicHits: `专题命中 专题${i} ：reasoning(abstract)；分类 cs.LG` }))));
      const svg = run(['stats', '--format', 'svg', '--lang', 'en', '.'], many).stdout;
      assert.equal((svg.match(/class="pd-bar/g) ?? []).length, 25);
      // 60 topics: the statistics hold the 50 largest, the bars the 25 largest, and the rest are counted.
      assert.match(svg, />… 35 more</);
    } finally {
      fs.rmSync(many, { recursive: true, force: true });
    }
  });

  test('Should default to the current folder and print the numbers as JSON', () => {
    const result = run(['stats', '--format', 'json'], work);
    assert.equal(result.status, 0, result.stderr);
    const stats = JSON.parse(result.stdout);
    assert.equal(stats.paperCount, 3);
    assert.deepEqual(stats.dates.map((point: { date: string; count: number }) => [point.date, point.count]), [['2026-04-28', 2], ['2026-05-01', 2]]);
    assert.equal(stats.topics.find((row: { label: string }) => row.label === HOSTILE_TOPIC)?.count, 1, 'JSON carries document text as data');
  });

  test('Should write valid SVG with every text escaped', () => {
    const result = run(['stats', '--format=svg', work], os.tmpdir());
    assert.equal(result.status, 0, result.stderr);
    const lint = xmllint(result.stdout, '--noout');
    assert.equal(lint.status, 0, lint.output);
    assert.doesNotMatch(result.stdout, /<script|<\/svg><|<b>/);
    // The hostile topic is one tooltip of the chart: read back through an XML parser.
    const texts = xmllint(result.stdout, '--xpath', '//*[local-name()="rect"]/*[local-name()="title"]/text()').output;
    assert.match(texts, /^&lt;\/svg&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;(&quot;|")&amp;'\uFFFD坏: 1 paper · 1 篇/m, texts);
    assert.equal(result.stdout.startsWith('<?xml'), true);
  });

  test('Should write one self-contained HTML page with every chart and no script', () => {
    const result = run(['stats', '--format', 'html', '.'], work);
    assert.equal(result.status, 0, result.stderr);
    const html = result.stdout;
    const lint = xmllint(html, '--noout');
    assert.equal(lint.status, 0, lint.output);
    for (const id of ['dates', 'trends', 'topics', 'keywords', 'categories', 'institutions', 'weeks', 'months']) {
      assert.match(html, new RegExp(`id="chart-${id}"`));
    }
    assert.doesNotMatch(html, /<script|src=|href=|url\(|@import/i, 'nothing to load, nothing to run');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(html, /<b>坏/);
    // The hostile topic and institution are texts of the page, read back through an XML parser.
    const tips = xmllint(html, '--xpath', '//*[local-name()="rect"]/*[local-name()="title"]/text()').output;
    assert.match(tips, /^&lt;\/svg&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;(&quot;|")&amp;'\uFFFD坏: 1 paper · 1 篇$/m, tips);
    assert.match(tips, /^Evil &lt;\/svg&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; (&quot;|")quoted(&quot;|") &amp; 'single' \uFFFDgnp\.exe \(&lt;b&gt;坏&lt;\/b&gt;\): 1 paper · 1 篇$/m, tips);
  });

  test('Should word the tables, the charts and the page in English, in Chinese or in both with --lang', () => {
    const HAN = /[\u4e00-\u9fff]/;
    const both = run(['stats', '.'], work).stdout;
    const en = run(['stats', '--lang', 'en', '.'], work);
    const zh = run(['stats', '--lang=zh-cn', '.'], work);
    assert.equal(en.status, 0, en.stderr);
    assert.equal(zh.status, 0, zh.stderr);
    assert.match(both, /\nTopics 专题 \(3\):\n[\s\S]*\nPapers per digest date 每期论文数 \(2\):\n[\s\S]*\nWeeks 每周:\n/);
    assert.match(en.stdout, /^3 papers \(4 entries\) in 2 digest files\.\n\nTopics \(3\):\n[\s\S]*\nKeywords \(\d+\):\n[\s\S]*\nCategories \(\d+\):[\s\S]*\nInstitutions \(\d+\):[\s\S]*\nPapers per digest date \(2\):[\s\S]*\nWeeks:\n[\s\S]*\nMonths:\n/);
    assert.match(zh.stdout, /^2 个摘要集文件中有 3 篇论文（4 个条目）。\n\n专题（3）：\n[\s\S]*\n关键词（\d+）：\n[\s\S]*\n分类（\d+）：[\s\S]*\n机构（\d+）：[\s\S]*\n每期论文数（2）：[\s\S]*\n每周：\n[\s\S]*\n每月：\n/);
    // The digests' own words (topics, category names) are the data, whatever the language.
    for (const text of [en.stdout, zh.stdout]) {
      assert.match(text, /代码生成/);
      assert.match(text, /Computation and Language · 计算与语言/);
    }
    const headings = (text: string): string[] => text.split('\n').filter((line) => /^\S.*[:：]$/.test(line) || /^\d/.test(line));
    assert.ok(headings(en.stdout).length >= 8, en.stdout);
    for (const line of headings(en.stdout)) assert.doesNotMatch(line, HAN, line);
    for (const line of headings(zh.stdout)) assert.match(line, HAN, line);
    assert.doesNotMatch(zh.stdout, /Topics|Keywords|Papers per|Weeks|Months|papers \(/);

    const svgEn = run(['stats', '--format', 'svg', '--lang', 'en', '.'], work).stdout;
    const svgZh = run(['stats', '--format', 'svg', '--lang', 'zh-cn', '.'], work).stdout;
    assert.match(svgEn, /<title>Papers per topic<\/title>/);
    assert.match(svgZh, /<title>各专题论文数<\/title>/);
    assert.match(svgZh, /：1 篇<\/title>/);
    assert.doesNotMatch(svgZh, /papers?</);
    const htmlZh = run(['stats', '--format', 'html', '--lang', 'zh-cn', '.'], work).stdout;
    const htmlEn = run(['stats', '--format', 'html', '--lang', 'en', '.'], work).stdout;
    assert.equal(xmllint(htmlZh, '--noout').status, 0);
    // A roll-up's topics are listed with the language's comma.
    assert.match(htmlZh, /<td>[^<]* 1，[^<]* 1，[^<]* 1<\/td><\/tr>/);
    assert.match(htmlEn, /<td>[^<]* 1, [^<]* 1, [^<]* 1<\/td><\/tr>/);
    assert.match(htmlZh, /<title>Paper Digest 统计<\/title>[\s\S]*<h1>Paper Digest 统计<\/h1>\n<p>3 篇论文 — 2 期摘要集<\/p>/);
    assert.match(htmlZh, /aria-label="每期论文数"[\s\S]*aria-label="升降趋势（近 7 天对比前 7 天）"[\s\S]*<h2>每周<\/h2>[\s\S]*<th>时段<\/th><th>日期<\/th>/);
    assert.match(htmlEn, /lang="en"[\s\S]*<h1>Paper Digest statistics<\/h1>\n<p>3 papers — 2 digests<\/p>[\s\S]*aria-label="Papers per digest date"[\s\S]*<h2>Weeks<\/h2>[\s\S]*<th>period<\/th>/);
    assert.match(run(['stats', '--format', 'html', '.'], work).stdout, /<h1>Paper Digest statistics · Paper Digest 统计<\/h1>\n<p>3 papers · 3 篇论文 — 2 digests · 2 期摘要集<\/p>[\s\S]*aria-label="Papers per digest date · 每期论文数"/);
    const bad = run(['stats', '--lang', 'fr', '.'], work);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^paper-digest: unknown language 'fr': use both, en, zh-cn or auto \(see 'paper-digest stats --help'\)[^\n]*\n$/);
  });

  test('Should say (none) in every section without rows, dates and periods of digests without a date included', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-undated-'));
    try {
      fs.writeFileSync(path.join(folder, 'notes.digest'), digest(entryLines('N')));
      const text = run(['stats', '--lang', 'en', '.'], folder).stdout;
      assert.match(text, /\nPapers per digest date \(0\):\n {2}\(none\)\n\n[^\n]+:\n {2}\(none\)\n\nWeeks:\n {2}\(none\)\n\nMonths:\n {2}\(none\)\n$/);
      // The page says so too, as the dashboard does.
      assert.match(run(['stats', '--format', 'html', '--lang', 'en', '.'], folder).stdout, /<p>1 paper — 1 digest \(1 without a date in the file name\)<\/p>/);
      assert.match(run(['stats', '--format', 'html', '--lang', 'zh-cn', '.'], folder).stdout, /<p>1 篇论文 — 1 期摘要集（1 个文件名无日期）<\/p>/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  test('Should say 1 paper in both languages', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-one-'));
    try {
      fs.writeFileSync(path.join(folder, '2026-05-01.digest'), digest(entryLines('N')));
      assert.match(run(['stats', '--format', 'html', '.'], folder).stdout, /<p>1 paper · 1 篇论文 — 1 digest · 1 期摘要集<\/p>/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  test('Should name the papers without a topic in the weekly and monthly roll-ups in the language of --lang', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-notopic-'));
    try {
      fs.writeFileSync(path.join(folder, '2026-05-01.digest'), digest(entryLines('N', { topicHits: null })));
      const line = (language: string): string | undefined => run(['stats', '--lang', language, '.'], folder).stdout.split('\n').find((l) => l.startsWith('  2026-W18'));
      assert.match(line('zh-cn') ?? '', /^ {2}2026-W18 +1 {2}（无专题） 1$/);
      assert.match(line('en') ?? '', /^ {2}2026-W18 +1 {2}\(no topic\) 1$/);
      assert.match(line('both') ?? '', /^ {2}2026-W18 +1 {2}\(no topic\) · （无专题） 1$/);
      assert.match(run(['stats', '--format', 'html', '--lang', 'zh-cn', '.'], folder).stdout, /<td>（无专题） 1<\/td>/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  test('Should leave out a digest past a limit of what is read with one line, counting the others', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-limit-'));
    try {
      fs.writeFileSync(path.join(folder, '2026-05-01.digest'), digest(entryLines('A'), entryLines('B')));
      // One comment line of more than 100,000 characters: the digest lists no papers.
      fs.writeFileSync(path.join(folder, '2026-05-02.digest'), digest(entryLines('C'), entryLines('D', { comments: `Comments ${'x'.repeat(100_001)}` })));
      for (const [command, counted] of [['stats', /^2 papers \(2 entries\) in 1 digest file\./], ['papers', /^2 papers \(2 unread, 0 starred\)/m]] as const) {
        const result = run([command, '.'], folder);
        assert.equal(result.status, 2, command);
        assert.equal(result.stderr, "paper-digest: '2026-05-02.digest' is left out: its line 31 has 100,010 characters, more than the 100,000 Paper Digest reads in a line\n", command);
        assert.match(result.stdout, counted, command);
      }
      const zh = run(['stats', '--lang', 'zh-cn', '2026-05-02.digest'], folder);
      assert.equal(zh.status, 2);
      assert.equal(zh.stderr, "paper-digest: 已略去“2026-05-02.digest”：它的第 31 行有 100,010 个字符，超过 Paper Digest 单行读取的上限 100,000\n");
      assert.equal(zh.stdout, '', 'nothing read, no report');
      // check reports it as a problem of the file, as in the editor.
      assert.match(run(['check', '2026-05-02.digest'], folder).stdout, /document-too-large/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  test('Should exit 2 with one clear line on bad usage or an unreadable path', () => {
    const bad = run(['stats', '--format', 'pdf', '.'], work);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^paper-digest: unknown format 'pdf': use text, json, svg or html \(see 'paper-digest stats --help'\)[^\n]*\n$/);
    const missing = run(['stats', 'nowhere'], work);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^paper-digest: cannot read 'nowhere'/);
    assert.doesNotMatch(missing.stderr + bad.stderr, /\n\s+at /, 'no stack trace');
    // A folder without a digest (a mistyped path) is not "0 papers", for stats as for check and papers.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-empty-'));
    try {
      for (const command of ['stats', 'papers', 'check']) {
        const none = run([command, empty], work);
        assert.equal(none.status, 2, command);
        assert.match(none.stderr, /^paper-digest: no digest files in '/, command);
      }
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
    // Nothing read: nothing on standard output, so `> report.html` keeps what it held.
    for (const format of ['text', 'html', 'svg', 'json']) {
      const none = run(['stats', '--format', format, 'nowhere'], work);
      assert.equal(none.status, 2, format);
      assert.equal(none.stdout, '', format);
    }
    const help = run(['stats', '--help'], work);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: paper-digest stats/);
  });
});
