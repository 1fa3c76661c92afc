import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { addDays, compareDigests, digestDateOf, isCalendarDate, isoWeekOf, monthOf } from '../../server/src/service/digestDates';
import { compilePaperFilter, fieldFilter, MAX_FILTER_TERMS } from '../../server/src/service/paperFilter';
import { digestStatistics } from '../../server/src/service/features/statistics';
import { rollup } from '../../server/src/service/features/rollup';
import { barChart, Chart, CHART_WORDS, chartToSvg, escapeXmlData, chartWords, dashboardCharts, dashboardSummary, dateChart, displayText, fitText, periodChart, topicLabel, trendChart } from '../../server/src/service/charts';
import { papersTree } from '../../server/src/service/features/tree';
import { computeDiagnostics, DiagnosticCode } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';
import { compareLabels } from '../../server/src/service/text';
import { statsHtml, statsText } from '../../server/src/cliStats';

/** markdown-it (a devDependency), with raw HTML and linkify on, as a client might render Markdown. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const markdownIt = require('markdown-it') as (options: object) => { render(text: string): string };

/** An entry with its own title, topic, keywords, categories and institutions. */
function paper(tag: string, topic: string, keywords: string[], categories: string[], institutions = '机构 * Kyoto University（京都大学） ； Tsinghua University（清华大学） 纠错'): string[] {
  return entryLines(tag, {
    topicHits: `专题命中 ${topic} ：${keywords.map((keyword) => `${keyword}(abstract)`).join('；')}；分类 ${categories.join('、')}`,
    institutions,
    comments: null,
    journalRef: null,
  });
}

/** Three daily digests over two ISO weeks and a file without a date. */
function workspace(): { index: WorkspaceIndex; texts: Map<string, string> } {
  const texts = new Map<string, string>([
    ['file:///ws/2026-04-24.digest', digest(paper('A', '数学推理', ['reasoning'], ['cs.CL']), paper('B', '代码生成', ['code'], ['cs.SE']))],
    ['file:///ws/2026-04-28.digest', digest(paper('C', '数学推理', ['reasoning', 'math reasoning'], ['cs.CL', 'CS.lg']), paper('D', '数学推理', ['reasoning'], ['cs.AI']), paper('A', '数学推理', ['reasoning'], ['cs.CL']))],
    ['file:///ws/2026-05-01.digest.txt', digest(paper('E', '数学推理', ['math reasoning'], ['cs.CL'], '机构 * Fudan University（复旦大学） 纠错'), paper('F', '代码生成', ['code'], ['xx.YY']))],
    ['file:///ws/notes.digest', digest(paper('G', '数学推理', ['reasoning'], ['cs.CL']))],
  ]);
  const index = new WorkspaceIndex();
  for (const [uri, text] of texts) {
    index.update(uri, text);
  }
  return { index, texts };
}

describe('Digest dates', () => {
  test('Should read the day from a file name, and only real days', () => {
    assert.equal(digestDateOf('file:///w/2026-05-01.digest.txt'), '2026-05-01');
    assert.equal(digestDateOf('file:///w/llm_20260501.digest'), '2026-05-01');
    assert.equal(digestDateOf('file:///w/2026-05-01/notes.digest'), undefined);
    assert.equal(digestDateOf('file:///w/2026-02-30.digest'), undefined);
    assert.equal(digestDateOf('file:///w/paper%202026-02-28.digest'), '2026-02-28');
    assert.equal(digestDateOf('C:\\d\\2024-02-29.digest'), '2024-02-29');
    assert.equal(isCalendarDate('2023-02-29'), false);
  });

  test('Should order a dated digest after a file saved the evening before, in every time zone', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Shanghai', 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        process.env.TZ = tz;
        // 18:00 and 23:59 on 1 May, and 00:01 on 2 May, local time.
        const times = new Map([
          ['file:///w/evening.digest', new Date(2026, 4, 1, 18, 0).getTime()],
          ['file:///w/late.digest', new Date(2026, 4, 1, 23, 59).getTime()],
          ['file:///w/after.digest', new Date(2026, 4, 2, 0, 1).getTime()],
        ]);
        const order = ['file:///w/after.digest', 'file:///w/2026-05-02.digest', 'file:///w/late.digest', 'file:///w/evening.digest'].sort((a, b) => compareDigests(a, b, (uri) => times.get(uri)));
        assert.deepEqual(order, ['file:///w/evening.digest', 'file:///w/late.digest', 'file:///w/2026-05-02.digest', 'file:///w/after.digest'], tz);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  test('Should name ISO weeks and months', () => {
    assert.equal(isoWeekOf('2026-05-01'), '2026-W18');
    assert.equal(isoWeekOf('2026-04-27'), '2026-W18');
    assert.equal(isoWeekOf('2026-04-26'), '2026-W17');
    assert.equal(isoWeekOf('2027-01-01'), '2026-W53');
    assert.equal(isoWeekOf('2024-12-30'), '2025-W01');
    assert.equal(isoWeekOf('2021-01-03'), '2020-W53');
    assert.equal(monthOf('2026-05-01'), '2026-05');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
  });
});

describe('The Papers filter', () => {
  test('Should keep the papers of a field value, and plain text as before', () => {
    const { index } = workspace();
    const count = (filter: string): number => papersTree(index, 'file', filter).paperCount;
    assert.equal(count(''), 8);
    assert.equal(count('topic:数学推理'), 6);
    assert.equal(count('keyword:Math  Reasoning'), 2);
    assert.equal(count('category:cs.lg'), 1);
    assert.equal(count('category:CS.CL'), 5);
    assert.equal(count('category:ｃｓ．ＣＬ'), 5, 'full-width forms ignored, as for every field');
    assert.equal(count('institution:复旦大学'), 1);
    assert.equal(count('institution:fudan university'), 1);
    assert.equal(count('date:2026-04-28'), 3);
    assert.equal(count('week:2026-W18'), 5);
    assert.equal(count('month:2026-04'), 5);
    assert.equal(count('week:2026-W18 topic:代码生成'), 1);
    assert.equal(count('week:2026-W18 keyword:math reasoning'), 2);
    assert.equal(count('Fudan'), 1);
    // An empty value keeps the papers without one.
    assert.equal(count('topic:'), 0);
    assert.equal(count('date:'), 1, 'notes.digest has no date in its name');
    assert.equal(count('week:2026-W18 category:'), 0);
    const bare = new WorkspaceIndex();
    bare.update('file:///ws/2026-05-01.digest', digest(entryLines('N', { topicHits: null, institutions: null }), paper('T', '代码生成', ['x'], ['cs.CL'])));
    assert.deepEqual(['topic:', 'keyword:', 'category:', 'institution:', 'month:2026-05 topic:', 'topic: ', 'date:'].map((filter) => papersTree(bare, 'file', filter).paperCount), [1, 1, 1, 1, 1, 1, 0]);
    // Not a field: plain text, looked for in titles, authors and institutions.
    assert.equal(count('colour:red'), 0);
    assert.equal(compilePaperFilter('   '), undefined);
  });
});

/** Every filter of the statistics with the count it stands for: rows, dates, periods and their topics. */
function countedFilters(stats: ReturnType<typeof digestStatistics>): (readonly [string, number])[] {
  return [
    ...[...stats.topics, ...stats.keywords, ...stats.categories, ...stats.institutions].map((row) => [row.filter, row.count] as const),
    ...stats.dates.map((point) => [point.filter, point.count] as const),
    ...[...stats.weeks, ...stats.months].flatMap((period) => [[period.filter, period.count] as const, ...period.topics.map((row) => [row.filter, row.count] as const)]),
  ];
}

describe('Statistics', () => {
  test('Should count each paper once per group, with the filter that shows them', () => {
    const { index } = workspace();
    const stats = digestStatistics(index);
    assert.equal(stats.fileCount, 4);
    assert.equal(stats.entryCount, 8);
    assert.equal(stats.paperCount, 7, 'A is repeated by two digests');
    assert.equal(stats.undatedFiles, 1);
    assert.deepEqual(stats.topics.map((row) => [row.label, row.count, row.filter]), [
      ['数学推理', 5, 'topic:数学推理'],
      ['代码生成', 2, 'topic:代码生成'],
    ]);
    assert.deepEqual(stats.keywords.map((row) => [row.label, row.count]), [['reasoning', 4], ['code', 2], ['math reasoning', 2]]);
    const categories = new Map(stats.categories.map((row) => [row.label, row]));
    assert.equal(categories.get('cs.CL')?.count, 4);
    assert.equal(categories.get('cs.LG')?.count, 1, 'CS.lg counts as cs.LG');
    assert.equal(categories.get('cs.LG')?.detail, 'Machine Learning · 机器学习');
    assert.equal(categories.get('xx.YY')?.known, false);
    assert.deepEqual(stats.institutions.slice(0, 3).map((row) => [row.label, row.detail, row.count]), [
      ['Kyoto University', '京都大学', 6],
      ['Tsinghua University', '清华大学', 6],
      ['Fudan University', '复旦大学', 1],
    ]);
  });

  test('Should count a paper once per keyword, category and institution however often its line repeats them, on short and long lines alike', () => {
    // A line of 40 hits (20 keywords, each twice, in another case the second time), and one of 3.
    const many = Array.from({ length: 20 }, (_, k) => `keyword ${k}`);
    const index = new WorkspaceIndex();
    index.update(
      'file:///w/2026-05-01.digest',
      digest(
        paper('Long', '数学推理', [...many, ...many.map((keyword) => keyword.toUpperCase())], ['cs.CL', 'CS.cl', ...Array.from({ length: 20 }, () => 'cs.LG')]),
        paper('Short', '数学推理', ['keyword 0', 'KEYWORD 0', 'other'], ['cs.CL']),
      ),
    );
    const stats = digestStatistics(index);
    const keywords = new Map(stats.keywords.map((row) => [row.label.toLowerCase(), row.count]));
    assert.equal(stats.keywords.length, 21);
    assert.equal(keywords.get('keyword 0'), 2);
    assert.equal(keywords.get('keyword 19'), 1);
    assert.equal(keywords.get('other'), 1);
    assert.deepEqual(stats.categories.map((row) => [row.label, row.count]).sort(), [['cs.CL', 2], ['cs.LG', 1]]);
  });

  test('Should list rows of one count by label whatever its case, as the Papers view lists its groups', () => {
    const index = new WorkspaceIndex();
    for (const [name, topic] of [['a', 'beta'], ['b', 'Gamma'], ['c', 'alpha'], ['d', 'Alpha']]) {
      index.update(`file:///w/${name}.digest`, digest(entryLines(name, { topicHits: `专题命中 ${topic} ：x(title)` })));
    }
    // Alpha and alpha are one topic (its first spelling); the others one paper each.
    const labels = digestStatistics(index).topics.map((row) => [row.label, row.count]);
    assert.deepEqual(labels, [['alpha', 2], ['beta', 1], ['Gamma', 1]]);
    assert.deepEqual(papersTree(index, 'topic', '').roots.map((root) => [root.label, root.count]), labels);
    assert.deepEqual(['b', 'C', 'a', 'A'].sort(compareLabels), ['A', 'a', 'b', 'C']);
    assert.deepEqual(['day-10.digest', 'Day-3.digest', 'day-2.digest', 'day-02.digest'].sort(compareLabels), ['day-02.digest', 'day-2.digest', 'Day-3.digest', 'day-10.digest']);
  });

  test('Should order labels totally: antisymmetric, transitive, zero for the same text only', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', 'b', '0', '1', '2', '9', '-', '.', '字'), maxLength: 6 });
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        const sign = (n: number): number => Math.sign(n);
        assert.equal(sign(compareLabels(a, b)) + sign(compareLabels(b, a)), 0);
        assert.equal(compareLabels(a, b) === 0, a === b);
        if (compareLabels(a, b) <= 0 && compareLabels(b, c) <= 0) assert.ok(compareLabels(a, c) <= 0, JSON.stringify([a, b, c]));
      }),
      { numRuns: 20000, seed: 5 },
    );
  });

  test('Should give every row, date and period the Papers filter of exactly the papers it counts', () => {
    const { index } = workspace();
    const stats = digestStatistics(index);
    const counted = countedFilters(stats);
    assert.ok(counted.length >= 25, String(counted.length));
    for (const [filter, count] of counted) {
      assert.notEqual(filter.trim(), '', 'a filter for every count');
      assert.equal(papersTree(index, 'file', filter).distinctPaperCount, count, filter);
    }
    // A trend filters as its topic's or keyword's bar does.
    for (const trend of stats.trends) {
      const rows = trend.kind === 'topic' ? stats.topics : stats.keywords;
      assert.equal(rows.find((row) => row.label === trend.label)?.filter, trend.filter, trend.label);
    }
  });

  test('Should give the statistics of one file filters of exactly its papers, in the whole workspace', () => {
    const { index } = workspace();
    const stats = digestStatistics(index, { uri: 'file:///ws/2026-04-28.digest' });
    const counted = countedFilters(stats);
    assert.ok(counted.length >= 10, String(counted.length));
    for (const [filter, count] of counted) {
      assert.match(filter, / file:2026-04-28\.digest$/);
      assert.equal(papersTree(index, 'file', filter).distinctPaperCount, count, filter);
    }
    // Paper A is in 2026-04-24.digest too: topic:数学推理 alone keeps more than this file's papers.
    assert.ok(papersTree(index, 'file', 'topic:数学推理').distinctPaperCount > stats.topics.find((row) => row.label === '数学推理')!.count);
    assert.equal(papersTree(index, 'file', 'file:2026-04-28.digest').paperCount, 3);
  });

  test('Should count a paper once in each window of the trends however many digests repeat it', () => {
    const index = new WorkspaceIndex();
    // Two whole weeks of dates (04-18 to 05-01).
    index.update('file:///ws/2026-04-18.digest', digest(paper('Z', '代码生成', ['other'], ['cs.SE'])));
    index.update('file:///ws/2026-04-24.digest', digest(paper('A', '数学推理', ['reasoning'], ['cs.CL'])));
    index.update('file:///ws/2026-04-30.digest', digest(paper('A', '数学推理', ['reasoning'], ['cs.CL']), paper('B', '数学推理', ['reasoning'], ['cs.CL'])));
    index.update('file:///ws/2026-05-01.digest', digest(paper('B', '数学推理', ['reasoning'], ['cs.CL']), paper('C', '数学推理', ['code'], ['cs.CL'])));
    const stats = digestStatistics(index);
    const trend = (kind: string, label: string) => stats.trends.find((each) => each.kind === kind && each.label === label);
    // The last 7 days (04-25 to 05-01): A, B (twice) and C; the 7 before: A.
    assert.deepEqual([trend('topic', '数学推理')?.recent, trend('topic', '数学推理')?.previous], [3, 1]);
    assert.deepEqual([trend('keyword', 'reasoning')?.recent, trend('keyword', 'reasoning')?.previous], [2, 1]);
    // The line is of the same weeks: its last two points are the week before and this week.
    assert.deepEqual(trend('topic', '数学推理')?.series, [1, 3]);
    assert.deepEqual(trend('keyword', 'code')?.series, [0, 1]);
    assert.equal(stats.topics.find((row) => row.label === '数学推理')?.count, 3);
  });

  test('Should draw each trend week by week back from the latest date, its line ending where its arrow compares', () => {
    const index = new WorkspaceIndex();
    // One paper of 代码生成 on 04-18, three on 04-29, one on 05-01: day by day the line would
    // fall at its end (3, then 1), while this week (4) rises over the week before (1).
    index.update('file:///ws/2026-04-18.digest', digest(paper('A', '代码生成', ['x'], ['cs.CL'])));
    index.update('file:///ws/2026-04-29.digest', digest(paper('B', '代码生成', ['x'], ['cs.CL']), paper('C', '代码生成', ['x'], ['cs.CL']), paper('D', '代码生成', ['x'], ['cs.CL'])));
    index.update('file:///ws/2026-05-01.digest', digest(paper('E', '代码生成', ['x'], ['cs.CL'])));
    const trend = () => digestStatistics(index).trends.find((each) => each.kind === 'topic' && each.label === '代码生成')!;
    assert.deepEqual(trend().series, [1, 4]);
    assert.deepEqual([trend().previous, trend().recent, trend().rising], [1, 4, true]);
    const chart = trendChart([trend()], 800);
    const line = chart.marks.find((mark) => mark.kind === 'line');
    assert.ok(line && line.kind === 'line' && line.tone === 'rising');
    // The line's last segment rises (SVG y grows downwards), as the arrow says.
    assert.ok(line.points[1][1] < line.points[0][1]);
    assert.ok(chart.marks.some((mark) => mark.kind === 'text' && mark.text === '▲ 4 / 1'));
    // A week without papers is a point at 0; the weeks go back as many whole weeks as the dates
    // span, at most eight: from 04-04, four (04-04 to 04-10 the first).
    index.update('file:///ws/2026-04-04.digest', digest(paper('F', '代码生成', ['x'], ['cs.CL'])));
    assert.deepEqual(trend().series, [1, 0, 1, 4]);
    // From 04-03, still four: the part of a week before them is no point of the line.
    index.update('file:///ws/2026-04-03.digest', digest(paper('G', '代码生成', ['x'], ['cs.CL'])));
    assert.deepEqual(trend().series, [1, 0, 1, 4]);
    index.update('file:///ws/2025-01-01.digest', digest(paper('Old', '代码生成', ['x'], ['cs.CL'])));
    assert.equal(trend().series.length, 8);
  });

  test('Should draw the trends of the topics with most papers lately: a new topic rising fast among them', () => {
    const index = new WorkspaceIndex();
    // Six topics of one paper a day for four weeks; a seventh, new, of three a day in the last week.
    for (let day = 0; day < 28; day++) {
      const date = new Date(Date.UTC(2026, 4, 1 + day)).toISOString().slice(0, 10);
      const papers = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((topic) => paper(`${topic}-${day}`, topic, ['kw'], ['cs.CL']));
      if (day >= 21) for (let n = 0; n < 3; n++) papers.push(paper(`New-${day}-${n}`, '新兴专题', ['emerging'], ['cs.CL']));
      index.update(`file:///ws/${date}.digest`, digest(...papers));
    }
    const stats = digestStatistics(index);
    assert.ok(stats.topics.findIndex((row) => row.label === '新兴专题') >= 6, 'not among the six largest of all time');
    const rising = stats.trends.find((trend) => trend.kind === 'topic' && trend.label === '新兴专题');
    assert.deepEqual(rising && [rising.recent, rising.previous, rising.rising], [21, 0, true]);
    assert.equal(stats.trends[0].label, '新兴专题', 'the most rising first');
  });

  test('Should draw no trend of a topic of undated digests only, and a flat line level with its label', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-04-18.digest', digest(paper('X', '定理证明', ['w'], ['cs.LO'])));
    index.update('file:///ws/2026-04-24.digest', digest(paper('A', '代码生成', ['x'], ['cs.CL'])));
    index.update('file:///ws/2026-05-01.digest', digest(paper('B', '代码生成', ['x'], ['cs.CL']), paper('C', '数学推理', ['y'], ['cs.CL'])));
    // Its topic's papers all in a digest without a date in its name: no week has one.
    index.update('file:///ws/notes.digest', digest(paper('D', '多模态推理', ['z'], ['cs.CV']), paper('E', '多模态推理', ['z'], ['cs.CV'])));
    const stats = digestStatistics(index);
    assert.equal(stats.topics.find((row) => row.label === '多模态推理')?.count, 2, 'counted among the topics');
    assert.deepEqual(stats.trends.filter((trend) => trend.label === '多模态推理' || trend.label === 'z'), []);
    // 代码生成: one paper each week, a flat line through the middle of its row.
    const flat = stats.trends.find((trend) => trend.kind === 'topic' && trend.label === '代码生成')!;
    assert.deepEqual(flat.series, [1, 1]);
    const chart = trendChart([flat], 800);
    const line = chart.marks.find((mark) => mark.kind === 'line');
    const label = chart.marks.find((mark) => mark.kind === 'text' && mark.tone === 'label');
    assert.ok(line?.kind === 'line' && label?.kind === 'text');
    for (const [, y] of line.points) assert.ok(Math.abs(y - (label.y - 4)) <= 2, `the line at ${y}, the label's baseline at ${label.y}`);
  });

  test('Should write a chart’s note on as many lines as its width takes, every word kept, within the chart', () => {
    for (const language of ['both', 'en', 'zh-cn'] as const) {
      for (const width of [240, 480, 770, 1200]) {
        const cases: [Chart, string, number][] = [
          [trendChart([], width, language, true), chartWords(CHART_WORDS.trendsNeedHistory, language), width],
          [trendChart([], width, language, false), chartWords(CHART_WORDS.noDatedDigests, language), width],
          [dateChart([], width, 200, language), chartWords(CHART_WORDS.noDatedDigestsHint, language), width - 40 - 12 - 8],
        ];
        for (const [chart, note, room] of cases) {
          const lines = chart.marks.filter((mark) => mark.kind === 'text' && mark.tone === 'muted' && mark.anchor === 'start') as { text: string; x: number; y: number }[];
          assert.equal(lines.map((line) => line.text).join('').replace(/\s/g, ''), note.replace(/\s/g, ''), `${language} ${width}: every word`);
          for (const line of lines) {
            assert.equal(fitText(line.text, room), line.text, `${language} ${width}: '${line.text}' fits ${room} px`);
            assert.ok(line.y <= chart.height, `${language} ${width}: within the chart's height`);
          }
          if (fitText(note, room) === displayText(note)) assert.equal(lines.length, 1, 'a note that fits is one line');
        }
      }
    }
  });

  test('Should word the roll-ups’ papers without a topic in the message language, and a topic as written', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(entryLines('N', { topicHits: null }), paper('T', '代码生成', ['x'], ['cs.CL']), entryLines('M', { topicHits: null })));
    const week = digestStatistics(index).weeks[0];
    assert.deepEqual(week.topics.map((row) => [row.label, row.count, row.filter, row.noTopic]), [
      ['(no topic)', 2, 'week:2026-W18 topic:', true],
      ['代码生成', 1, 'week:2026-W18 topic:代码生成', undefined],
    ]);
    // A click on the row without a topic shows those papers, not the whole week.
    assert.deepEqual(week.topics.map((row) => papersTree(index, 'file', row.filter).distinctPaperCount), [2, 1]);
    assert.deepEqual(week.topics.map((row) => topicLabel(row, 'zh-cn')), ['（无专题）', '代码生成']);
    assert.deepEqual(week.topics.map((row) => topicLabel(row, 'en')), ['(no topic)', '代码生成']);
    assert.deepEqual(week.topics.map((row) => topicLabel(row, 'both')), ['(no topic) · （无专题）', '代码生成']);
    // The weekly chart's bar labels say it too.
    const detail = (language: 'both' | 'en' | 'zh-cn'): string[] => periodChart('weeks', [week], 600, language).marks.flatMap((mark) => [...(mark.kind === 'text' ? [mark.text] : []), ...('tip' in mark && mark.tip ? [mark.tip] : [])]);
    assert.ok(detail('zh-cn').some((text) => text.includes('（无专题） 2，代码生成 1')), detail('zh-cn').join(' | '));
    assert.ok(detail('en').some((text) => text.includes('(no topic) 2, 代码生成 1')), detail('en').join(' | '));
    assert.ok(!detail('en').some((text) => text.includes('无专题')), detail('en').join(' | '));
    assert.ok(detail('both').some((text) => text.includes('(no topic) · （无专题） 2')), detail('both').join(' | '));
  });

  test('Should draw no trends from dates over less than two whole weeks, and say what trends need', () => {
    // Every row rose from nothing (the 7 days before the last 7 had no digest): `▲ 39 / 0` for all.
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(paper('A', '数学推理', ['reasoning'], ['cs.CL'])));
    index.update('file:///ws/2026-05-07.digest', digest(paper('B', '数学推理', ['reasoning'], ['cs.CL'])));
    const short = digestStatistics(index);
    assert.deepEqual(short.trends, []);
    const texts = (language: 'en' | 'zh-cn'): string[] => dashboardCharts(short, 800, language)[1].marks.flatMap((mark) => (mark.kind === 'text' ? [mark.text] : []));
    assert.ok(texts('en').includes('Trends compare the last 7 days with the 7 before: they need digests dated over two weeks at least'), texts('en').join(' | '));
    assert.ok(texts('zh-cn').includes('趋势比较最近 7 天与之前 7 天：需要日期跨越至少两周的摘要集'), texts('zh-cn').join(' | '));
    // Eight days of steady digests: one day of them before the last 7 against seven (every row
    // rose sevenfold).
    const eight = new WorkspaceIndex();
    for (let day = 1; day <= 8; day++) eight.update(`file:///ws/2026-05-0${day}.digest`, digest(paper(`P${day}`, '数学推理', ['reasoning'], ['cs.CL'])));
    assert.deepEqual(digestStatistics(eight).trends, []);
    // Two whole weeks: the rows, the last 7 days against the 7 before.
    index.update('file:///ws/2026-04-24.digest', digest(paper('C', '数学推理', ['reasoning'], ['cs.CL'])));
    const week = digestStatistics(index);
    assert.deepEqual(week.trends.filter((trend) => trend.kind === 'topic').map((trend) => [trend.label, trend.recent, trend.previous]), [['数学推理', 2, 1]]);
    // No dated digest at all: that is what the chart says.
    const undated = new WorkspaceIndex();
    undated.update('file:///ws/notes.digest', digest(paper('D', '数学推理', ['reasoning'], ['cs.CL'])));
    assert.ok(dashboardCharts(digestStatistics(undated), 800, 'en')[1].marks.some((mark) => mark.kind === 'text' && mark.text === 'No dated digests'));
  });

  test('Should count a department under the institution its line names, as the Papers view groups it', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(
      paper('H', '数学推理', ['reasoning'], ['cs.CL'], '机构 * School of Computer Science, Fudan University（复旦大学计算机学院） 纠错'),
      paper('I', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Fudan University（复旦大学） 纠错'),
      paper('J', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Department of Computer Science 纠错'),
      paper('K', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Department of Computer Science 纠错'),
    ));
    const stats = digestStatistics(index);
    const rows = stats.institutions.map((row) => [row.label, row.count]);
    assert.deepEqual(rows, [['Fudan University', 2], ['Department of Computer Science', 1], ['Department of Computer Science', 1]]);
    assert.equal(papersTree(index, 'file', stats.institutions[0].filter).paperCount, 2);
  });

  test('Should keep the same papers for an institution by its English and its Chinese name, departments included', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(
      paper('N', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Fudan University（复旦大学） ； Department of Computer Science, Fudan University（复旦大学计算机系） 纠错'),
      paper('O', '数学推理', ['reasoning'], ['cs.CL'], '机构 * School of Computer Science, Fudan University（复旦大学计算机学院） 纠错'),
      paper('P', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Tsinghua University（清华大学） 纠错'),
    ));
    const count = (filter: string) => papersTree(index, 'file', filter).paperCount;
    assert.deepEqual([count('institution:Fudan University'), count('institution:复旦大学'), count('institution:清华大学'), count('institution:复旦')], [2, 2, 1, 0]);
    // Departments whatever their Chinese names say, and no other institution whose name starts alike.
    index.update('file:///ws/2026-05-02.digest', digest(
      paper('V', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Shanghai Key Lab, School of Computer Science, Fudan University（上海市智能信息处理重点实验室，复旦大学计算机学院） 纠错'),
      paper('W', '数学推理', ['reasoning'], ['cs.CL'], '机构 * School of Computer Science, Fudan University 纠错'),
      paper('X', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Chinese Academy of Sciences（中国科学院） 纠错'),
      paper('Y', '数学推理', ['reasoning'], ['cs.CL'], '机构 * School of AI, University of Chinese Academy of Sciences（中国科学院大学人工智能学院） 纠错'),
      paper('Z', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Zhejiang University（浙江大学） 纠错'),
      paper('AA', '数学推理', ['reasoning'], ['cs.CL'], '机构 * School of Computing, Zhejiang University City College（浙江大学城市学院计算机学院） 纠错'),
    ));
    for (const [english, chinese] of [['Fudan University', '复旦大学'], ['Chinese Academy of Sciences', '中国科学院'], ['Zhejiang University', '浙江大学']]) {
      const byEnglish = papersTree(index, 'file', `institution:${english}`);
      const byChinese = papersTree(index, 'file', `institution:${chinese}`);
      assert.equal(byChinese.paperCount, byEnglish.paperCount, `${english} / ${chinese}`);
    }
    assert.deepEqual([count('institution:Fudan University'), count('institution:中国科学院'), count('institution:浙江大学')], [4, 1, 1]);
  });

  test('Should count an institution named in Chinese only under the institution that name is given to, its row’s filter exact', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(
      paper('AB', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Fudan University（复旦大学） 纠错'),
      paper('AC', '数学推理', ['reasoning'], ['cs.CL'], '机构 * 复旦大学 纠错'),
      paper('AD', '数学推理', ['reasoning'], ['cs.CL'], '机构 * 北京大学 纠错'),
    ));
    const stats = digestStatistics(index);
    assert.deepEqual(stats.institutions.map((row) => [row.label, row.detail, row.count]), [['Fudan University', '复旦大学', 2], ['北京大学', '', 1]]);
    for (const row of stats.institutions) {
      assert.equal(papersTree(index, 'file', row.filter).paperCount, row.count, row.filter);
    }
    assert.deepEqual(papersTree(index, 'institution', '').roots.map((root) => [root.label, root.count]), [['Fudan University', 2], ['北京大学', 1]]);
    assert.equal(papersTree(index, 'file', 'institution:复旦大学').paperCount, 2);
  });

  test('Should count a department named alone once for the copies of a paper in several digests, apart from another paper’s', () => {
    const index = new WorkspaceIndex();
    const repeated = paper('AB', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Department of Physics（物理系） 纠错');
    index.update('file:///ws/2026-05-01.digest', digest(repeated));
    index.update('file:///ws/2026-05-02.digest', digest(repeated, paper('AC', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Department of Physics（物理系） 纠错')));
    const stats = digestStatistics(index);
    // One group for the repeated paper (its two copies), one for the other paper's department,
    // which may be at another institution.
    assert.deepEqual(stats.institutions.map((row) => [row.label, row.count]), [['Department of Physics', 1], ['Department of Physics', 1]]);
    assert.equal(stats.totals.institutions, 2);
    const roots = papersTree(index, 'institution', '').roots;
    // The Papers view too: the repeated paper under one group (its copies a paper once).
    assert.deepEqual(roots.map((root) => [root.label, root.count]), [['Department of Physics', 1], ['Department of Physics', 1]]);
  });

  test('Should quote a value that holds a field name, so that a row’s filter is one term and keeps exactly its papers', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(
      paper('Q', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Lab keyword:beta（实验室） 纠错'),
      paper('R', '数学推理', ['reasoning'], ['cs.CL'], '机构 * Lab keyword:beta（实验室） 纠错'),
      paper('S', '数学 "quoted" topic:x', ['reasoning'], ['cs.CL']),
    ));
    const stats = digestStatistics(index);
    for (const row of [...stats.institutions, ...stats.topics]) {
      assert.equal(papersTree(index, 'file', row.filter).paperCount, row.count, `${row.label}: ${row.filter}`);
    }
    assert.equal(fieldFilter('institution', 'Lab keyword:beta'), 'institution:"Lab keyword:beta"');
    assert.equal(fieldFilter('topic', '数学 "quoted" topic:x'), 'topic:"数学 \\"quoted\\" topic:x"');
    assert.equal(fieldFilter('topic', '数学推理'), 'topic:数学推理', 'quoted only when needed');
    // A file whose name starts with a space: its rows' filters keep its papers.
    // ...beside one named without the space, and digests of one name in two folders: each file's
    // rows keep its own papers only.
    const spaced = new WorkspaceIndex();
    spaced.update('file:///ws/%202026-05-02.digest', digest(paper('U', '数学推理', ['reasoning'], ['cs.CL'])));
    spaced.update('file:///ws/2026-05-02.digest', digest(paper('V', '数学推理', ['reasoning'], ['cs.CL']), paper('W', '数学推理', ['reasoning'], ['cs.CL'])));
    spaced.update('file:///ws/a/2026-05-03.digest', digest(paper('X', '数学推理', ['reasoning'], ['cs.CL'])));
    spaced.update('file:///ws/b/2026-05-03.digest', digest(paper('Y', '数学推理', ['reasoning'], ['cs.CL']), paper('Z', '数学推理', ['reasoning'], ['cs.CL'])));
    for (const uri of ['file:///ws/%202026-05-02.digest', 'file:///ws/2026-05-02.digest', 'file:///ws/a/2026-05-03.digest', 'file:///ws/b/2026-05-03.digest']) {
      const one = digestStatistics(spaced, { uri });
      assert.ok(one.topics.length > 0);
      for (const row of [...one.topics, ...one.keywords, ...one.categories, ...one.institutions]) {
        assert.equal(papersTree(spaced, 'file', row.filter).paperCount, row.count, `${uri}: ${row.filter}`);
      }
    }
    assert.equal(papersTree(spaced, 'file', 'file:2026-05-02.digest').paperCount, 2, 'not the one with a space');
    assert.equal(papersTree(spaced, 'file', 'file:2026-05-03.digest').paperCount, 3, 'a name alone: both folders');
    assert.equal(papersTree(spaced, 'file', 'file:b/2026-05-03.digest').paperCount, 2);
    // A quoted term among others.
    assert.equal(papersTree(index, 'file', 'institution:"Lab keyword:beta" topic:数学推理').paperCount, 2);
  });

  test('Should keep no paper for a filter of more terms than it reads, at once', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(paper('T', '数学推理', ['reasoning'], ['cs.CL'])));
    const terms = (n: number) => Array.from({ length: n }, () => 'topic:数学推理').join(' ');
    assert.equal(papersTree(index, 'file', terms(MAX_FILTER_TERMS)).paperCount, 1);
    assert.equal(papersTree(index, 'file', terms(MAX_FILTER_TERMS + 1)).paperCount, 0);
    assert.equal(papersTree(index, 'file', terms(100_000)).paperCount, 0);
    // A long run of spaces inside a value is one value (read in one pass over the run).
    assert.equal(papersTree(index, 'file', 'topic:数学推理' + ' '.repeat(200_000) + 'x').paperCount, 0);
    assert.equal(papersTree(index, 'file', 'topic:数学推理' + ' '.repeat(200_000) + 'topic:数学推理').paperCount, 1);
  });

  test('Should not count a tag, a category code or a name without a letter on a 机构 line as an institution', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(
      paper('L', '数学推理', ['reasoning'], ['cs.CL'], '机构 * [cs.AI] ； Kyoto University（京都大学） ； cs.LG ； — 纠错'),
      paper('M', '数学推理', ['reasoning'], ['cs.CL'], '机构 * [Oral] 纠错'),
    ));
    const stats = digestStatistics(index);
    assert.deepEqual(stats.institutions.map((row) => [row.label, row.count]), [['Kyoto University', 1]]);
    assert.equal(stats.totals.institutions, 1);
    // The Papers view groups the second paper under no institution, and the index keeps only the real one.
    const tree = papersTree(index, 'institution', '');
    assert.deepEqual(tree.roots.map((root) => [root.label, root.count]), [['Kyoto University', 1], ['(no institution)', 1]]);
    assert.deepEqual(index.files()[0].papers.map((each) => each.institutions.map((item) => item.name)), [['Kyoto University'], []]);
    // They are still reported where they are written.
    const codes = computeDiagnostics(parseDigest(digest(paper('L', '数学推理', ['reasoning'], ['cs.CL'], '机构 * [cs.AI] ； Kyoto University（京都大学） 纠错')))).map((each) => each.code);
    assert.ok(codes.includes(DiagnosticCode.NotAnInstitution), codes.join());
  });

  test('Should group topics and categories in the Papers view as the statistics count them', () => {
    const index = new WorkspaceIndex();
    index.update(
      'file:///ws/2026-05-04.digest',
      digest(
        paper('Q1', 'Reasoning', ['rl'], ['cs.CL', 'cs.ZZ']),
        paper('Q2', 'reasoning', ['rl'], ['ｃｓ．ＣＬ', 'CS.zz']),
        paper('Q3', 'Math  Reasoning', ['rl'], ['cs.CL']),
        paper('Q4', 'math reasoning', ['rl'], ['cs.CL']),
        paper('Q5', 'Ｒｅａｓｏｎｉｎｇ', ['rl'], ['cs.CL']),
      ),
    );
    const stats = digestStatistics(index);
    for (const [grouping, rows] of [['topic', stats.topics], ['category', stats.categories]] as const) {
      const groups = papersTree(index, grouping, '').roots;
      assert.deepEqual(
        groups.map((group) => group.count).sort(),
        rows.map((row) => row.count).sort(),
        `${grouping}: ${groups.map((group) => group.label).join(', ')}`,
      );
      for (const row of rows) {
        assert.equal(papersTree(index, 'file', row.filter).distinctPaperCount, row.count, row.filter);
      }
    }
    assert.deepEqual(stats.topics.map((row) => row.count).sort(), [2, 3]);
    assert.deepEqual(
      papersTree(index, 'category', '').roots.map((group) => [group.label, group.count]),
      [
        ['cs.CL', 5],
        ['cs.ZZ', 2],
      ],
    );
  });

  test('Should read full-width digits in date, week and month filters', () => {
    const { index } = workspace();
    for (const [wide, plain] of [
      ['date:２０２６-04-28', 'date:2026-04-28'],
      ['week:２０２６-Ｗ18', 'week:2026-W18'],
      ['week:2026-w18', 'week:2026-W18'],
      ['month:２０２６-０４', 'month:2026-04'],
    ]) {
      const count = papersTree(index, 'file', plain).paperCount;
      assert.ok(count > 0, plain);
      assert.equal(papersTree(index, 'file', wide).paperCount, count, wide);
    }
  });

  test('Should give the statistics of one file, and nothing for an unknown one', () => {
    const { index } = workspace();
    const one = digestStatistics(index, { uri: 'file:///ws/2026-05-01.digest.txt' });
    assert.equal(one.paperCount, 2);
    assert.equal(one.fileCount, 1);
    assert.equal(digestStatistics(index, { uri: 'file:///nowhere.digest' }).paperCount, 0);
  });
});

describe('Statistics: what the charts leave out, said', () => {
  /** A week of one digest per day, `topics` topics of one paper each on the last day. */
  function manyTopics(topics: number): WorkspaceIndex {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-04.digest', digest(entryLines('First')));
    const entries = Array.from({ length: topics }, (_, i) => entryLines(`T${i}`, { topicHits: `专题命中 专题${i} ：reasoning(abstract)；分类 cs.LG` }));
    index.update('file:///ws/2026-05-06.digest', digest(...entries));
    return index;
  }

  test('Should count the topics past the bars and the roll-up lists shown, in the text, the HTML and the SVG', () => {
    const stats = digestStatistics(manyTopics(60));
    const topics = dashboardCharts(stats, 900, 'en').find((chart) => chart.id === 'topics')!;
    assert.equal(topics.marks.filter((mark) => mark.kind === 'rect').length, 15);
    assert.ok(topics.marks.some((mark) => mark.kind === 'text' && mark.text === `… ${61 - 15} more`), JSON.stringify(topics.marks.filter((m) => m.kind === 'text').slice(-2)));
    const zh = dashboardCharts(stats, 900, 'zh-cn').find((chart) => chart.id === 'topics')!;
    assert.ok(zh.marks.some((mark) => mark.kind === 'text' && mark.text === `… 另有 ${61 - 15} 项`));
    assert.match(statsText(stats, 'en'), /^ {2}2026-W19 +61 {2}.* 1, .* 1, .* 1 … 58 more$/m);
    const svg = chartToSvg(barChart('topics', 'Topics', stats.topics, 720, 25, 'en', stats.totals.topics), { standalone: true });
    assert.match(svg, />… 36 more</);
    const html = statsHtml(stats, 'en');
    assert.match(html, /<td>[^<]*… 53 more<\/td>/);
    assert.match(html, /overflow-wrap: anywhere/);
  });

  test('Should end the last date of the date chart at its point, inside the chart, and write a trend that holds with =', () => {
    const stats = digestStatistics(manyTopics(2));
    const dates = dateChart(stats.dates, 900, 200, 'en');
    const labels = dates.marks.flatMap((mark) => (mark.kind === 'text' && /^\d\d-\d\d$/.test(mark.text) ? [mark] : []));
    assert.ok(labels.length >= 2, JSON.stringify(labels));
    assert.equal(labels.at(-1)!.anchor, 'end');
    assert.equal(labels[0].anchor, 'middle');
    const flat = trendChart([{ label: 'x', recent: 1, previous: 1, rising: false, filter: 'topic:x', series: [] } as never], 800, 'en');
    assert.ok(flat.marks.some((mark) => mark.kind === 'text' && mark.text === '= 1 / 1'), JSON.stringify(flat.marks));
  });
});

describe('Roll-ups', () => {
  test('Should copy the entries of a week into one digest, by topic, each paper once, with no new problem', () => {
    const { index, texts } = workspace();
    const result = rollup(index, '2026-W18', 'digest', (uri) => texts.get(uri));
    assert.equal(result.paperCount, 5);
    const doc = parseDigest(result.text);
    assert.equal(doc.heading?.text, '大模型推理能力 · 2026-W18');
    assert.deepEqual(doc.entries.map((entry) => entry.englishTitle?.value.text.split(' ')[0]), ['C', 'D', 'A', 'E', 'F']);
    const codes = computeDiagnostics(doc, { uri: 'file:///rollup.digest' }).map((d) => d.code).sort();
    const sources = ['file:///ws/2026-04-28.digest', 'file:///ws/2026-05-01.digest.txt'].flatMap((uri) => computeDiagnostics(parseDigest(texts.get(uri)!), { uri }).map((d) => d.code)).sort();
    assert.deepEqual(sources, ['category-case', 'unknown-category']);
    assert.deepEqual(codes, sources, 'only the problems its entries had in their own digests');
  });

  test('Should write a bilingual Markdown reading list with the document text escaped', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(entryLines('X', { englishTitle: 'Evil <script>alert(1)</script> [link](https://evil.example) www.evil.example' })));
    const result = rollup(index, '2026-05', 'markdown', () => undefined);
    const html = markdownIt({ html: true, linkify: true }).render(result.text);
    assert.match(html, /<h1>大模型推理能力 · 2026-05<\/h1>/);
    assert.match(html, /&lt;script&gt;/);
    assert.doesNotMatch(html, /<script|<a /);
    assert.match(html, /算术电路的稀疏探针/);
    assert.match(html, /Kyoto University \(京都大学\)/);
  });

  test('Should give the Markdown reading list each paper\u2019s comments and journal ref, escaped', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(entryLines('X', { comments: 'Comments 13 pages. Code: https://evil.example/x <b>bold</b> [a](https://b.example)' })));
    const result = rollup(index, '2026-05', 'markdown', () => undefined);
    const html = markdownIt({ html: true, linkify: true }).render(result.text);
    assert.match(html, /<li>Comments · 备注: 13 pages\. Code: https:\/\/evil\.example\/x &lt;b&gt;bold&lt;\/b&gt; \[a\]\(https:\/\/b\.example\)<\/li>/);
    assert.match(html, /<li>Journal ref · 期刊引用: Proceedings of an Example Conference, 2026, pp\. 1-12<\/li>/);
    assert.doesNotMatch(html, /<a |<b>/);
  });

  test('Should head a roll-up of digests of several subjects with all of them, the most used first', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(entryLines('A'), entryLines('B')));
    index.update('file:///ws/2026-05-02.digest', digest(entryLines('C')));
    index.update('file:///ws/agents-2026-05-02.digest', digest(entryLines('D')).replace(/^大模型推理能力/, '多智能体'));
    const render = (text: string): string => markdownIt({}).render(text);
    assert.match(render(rollup(index, '2026-W18', 'markdown', () => undefined).text), /<h1>大模型推理能力、多智能体 · 2026-W18<\/h1>/);
    // One subject: its heading alone.
    assert.match(render(rollup(index, '2026-W18', 'markdown', () => undefined, undefined, 'file:///ws/2026-05-01.digest').text), /<h1>大模型推理能力 · 2026-W18<\/h1>/);
  });

  test('Should roll up one digest’s papers alone when asked for one digest', () => {
    const { index, texts } = workspace();
    const all = rollup(index, '2026-W18', 'markdown', (uri) => texts.get(uri));
    const one = rollup(index, '2026-W18', 'markdown', (uri) => texts.get(uri), undefined, 'file:///ws/2026-04-28.digest');
    const week = digestStatistics(index, { uri: 'file:///ws/2026-04-28.digest' }).weeks.find((row) => row.period === '2026-W18');
    assert.equal(one.paperCount, week?.count);
    assert.equal(one.paperCount, 3);
    assert.ok(all.paperCount > one.paperCount);
    assert.equal(rollup(index, '2026-W18', 'digest', (uri) => texts.get(uri), undefined, 'file:///ws/notes.digest').paperCount, 0, 'a digest without a date');
  });

  test('Should take a repeated paper from its cleanest copy, at the place it first appears', () => {
    const index = new WorkspaceIndex();
    const texts = new Map<string, string>([
      // Monday: the paper with no Chinese title (an error) and a half-width colon (a warning).
      ['file:///ws/2026-04-27.digest', digest(entryLines('P', { chineseTitle: null, topicHits: '专题命中 数学推理 :reasoning(abstract)；分类 cs.LG' }), entryLines('Q'))],
      // Tuesday: the same paper with the half-width colon only; Wednesday: written right.
      ['file:///ws/2026-04-28.digest', digest(entryLines('P', { topicHits: '专题命中 数学推理 :reasoning(abstract)；分类 cs.LG' }))],
      ['file:///ws/2026-04-29.digest', digest(entryLines('R'), entryLines('P', { comments: 'Comments the clean copy' }))],
    ]);
    for (const [uri, text] of texts) index.update(uri, text);
    const sources = [...texts.values()].map((text) => computeDiagnostics(parseDigest(text)).length);
    assert.ok(sources[0] >= 2 && sources[1] >= 1 && sources[2] === 0, `the copies have problems: ${sources.join(', ')}`);
    const result = rollup(index, '2026-W18', 'digest', (uri) => texts.get(uri));
    assert.equal(result.paperCount, 3);
    const doc = parseDigest(result.text);
    assert.deepEqual(doc.entries.map((entry) => entry.englishTitle?.value.text.split(' ')[0]), ['P', 'Q', 'R'], 'the first place');
    assert.match(result.text, /Comments the clean copy/, 'the clean copy');
    assert.deepEqual(computeDiagnostics(doc).map((d) => d.code), [], 'no problem carried on');

    // Without the clean copy: the one with a warning before the one with an error.
    const withoutClean = rollup(index, '2026-W18', 'digest', (uri) => (uri.endsWith('29.digest') ? undefined : texts.get(uri)));
    assert.equal(withoutClean.missing, 1, 'R: its file cannot be read now');
    assert.deepEqual(parseDigest(withoutClean.text).entries.map((entry) => [entry.englishTitle?.value.text.split(' ')[0], entry.chineseTitle !== undefined]), [['P', true], ['Q', true]]);
    // A copy whose file cannot be read gives way to one that can.
    const mondayOnly = rollup(index, '2026-W18', 'digest', (uri) => (uri.endsWith('27.digest') ? texts.get(uri) : undefined));
    assert.equal(mondayOnly.missing, 1);
    assert.equal(parseDigest(mondayOnly.text).entries.length, 2, 'P from Monday’s copy, the only one at hand');

    // The Markdown list, made from the index: the copy that gives the most fields (its Chinese title).
    const markdown = rollup(index, '2026-W18', 'markdown', () => undefined).text;
    assert.equal(markdown.split('\n### P ').length - 1, 1, markdown);
    assert.match(markdown.slice(markdown.indexOf('### P ')), /^### P [^\n]*\n\n[^\n]*[\u4e00-\u9fff]/, 'with its Chinese title');
  });

  test('Should prefer a copy of any number of warnings to one with an error', () => {
    const index = new WorkspaceIndex();
    const texts = new Map<string, string>([
      // Monday: 180 warnings (half-width `;` between empty hits); Tuesday: one error, an unknown category.
      ['file:///ws/2026-04-27.digest', digest(entryLines('P', { topicHits: `专题命中 数学推理 ：${';x'.repeat(180)}；分类 cs.LG` }))],
      ['file:///ws/2026-04-28.digest', digest(entryLines('P', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.XX' }))],
    ]);
    for (const [uri, text] of texts) index.update(uri, text);
    const severities = [...texts.values()].map((text) => computeDiagnostics(parseDigest(text)).map((d) => d.severity));
    assert.ok(severities[0].length > 100 && severities[0].every((severity) => severity !== 1), 'Monday: warnings only');
    assert.ok(severities[1].includes(1), 'Tuesday: an error');
    const result = rollup(index, '2026-W18', 'digest', (uri) => texts.get(uri));
    assert.match(result.text, /;x;x/, 'Monday’s copy, the one without an error');
  });

  test('Should say 1 paper, not 1 papers', () => {
    const index = new WorkspaceIndex();
    index.update('file:///ws/2026-05-01.digest', digest(entryLines('X')));
    assert.match(rollup(index, '2026-05', 'markdown', () => undefined).text, /^1 paper · 1 篇论文$/m);
  });

  test('Should give nothing for a period that is not one', () => {
    const { index, texts } = workspace();
    assert.equal(rollup(index, 'last week', 'digest', (uri) => texts.get(uri)).text, '');
    assert.equal(rollup(index, '2025-W01', 'digest', (uri) => texts.get(uri)).paperCount, 0);
  });
});

describe('Statistics as text', () => {
  test('Should say when the dates, weeks or months shown are the last of more', () => {
    const index = new WorkspaceIndex();
    // Twenty weekly digests: twenty weeks, five months, twenty dates.
    for (let week = 0; week < 20; week++) {
      const day = new Date(Date.UTC(2026, 0, 5 + 7 * week)).toISOString().slice(0, 10);
      index.update(`file:///ws/${day}.digest`, digest(paper(`W${week}`, '数学推理', ['reasoning'], ['cs.CL'])));
    }
    const text = statsText(digestStatistics(index), 'en');
    assert.match(text, /\(the last 14 of 20 dates\)/);
    assert.match(text, /\(the last 12 of 20 weeks\)/);
    assert.doesNotMatch(text, /of 5 months/);
    assert.match(statsText(digestStatistics(index), 'zh-cn'), /（20 周中的最后 12 周）/);
  });
});

describe('Charts', () => {
  test('Should write a filter into SVG as it is: invisible and bidirectional characters kept, only what XML cannot hold replaced', () => {
    const filter = 'topic:"zero\u200bwidth\u202Eevil" & <x>\tend';
    const svg = chartToSvg(barChart('topics', 'T', [{ label: 'zero\u200bwidth', detail: '', count: 1, filter }], 600), { standalone: true });
    const written = [...svg.matchAll(/data-filter="([^"]*)"/g)].map((match) => match[1].replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))));
    assert.ok(written.length >= 1);
    for (const each of written) assert.equal(each, filter);
    assert.equal(escapeXmlData('a\u0001b\ud800'), 'a\ufffdb\ufffd');
  });

  test('Should draw a bar per row with its filter, and cut and clean labels', () => {
    const chart = barChart('topics', 'Topics', [
      { label: 'x'.repeat(500), detail: '', count: 4, filter: 'topic:x' },
      { label: 'Evil\u202Etxt', detail: '', count: 2, filter: 'topic:evil' },
    ], 600);
    const bars = chart.marks.filter((mark) => mark.kind === 'rect');
    assert.equal(bars.length, 2);
    assert.ok(bars[0].kind === 'rect' && bars[1].kind === 'rect' && bars[0].width > bars[1].width);
    const labels = chart.marks.filter((mark) => mark.kind === 'text' && mark.filter).map((mark) => (mark.kind === 'text' ? mark.text : ''));
    assert.ok(labels[0].length <= 40 && labels[0].endsWith('…'), labels[0]);
    assert.equal(labels[1], 'Evil\ufffdtxt');
    assert.equal(displayText('a\ud800b'), 'a\ufffdb');
    assert.equal(displayText('😀'.repeat(10), 6).length <= 6, true);
  });

  test('Should escape every text in SVG', () => {
    const svg = chartToSvg(barChart('topics', 'T', [{ label: '</svg><script>x</script>"\'&', detail: '', count: 1, filter: 'topic:"&' }], 600), { standalone: true });
    assert.doesNotMatch(svg, /<script|<\/svg><|"&|'&/);
    assert.match(svg, /&#60;\/svg&#62;&#60;script&#62;/);
    assert.match(svg, /data-filter="topic:&#34;&#38;"/);
  });

  test('Should draw every chart of the dashboard from the statistics', () => {
    const { index } = workspace();
    // Dates over two whole weeks, so that there are trends to draw.
    index.update('file:///ws/2026-04-17.digest', digest(paper('Z', '数学推理', ['reasoning'], ['cs.CL'])));
    const charts = dashboardCharts(digestStatistics(index), 1000);
    assert.deepEqual(charts.map((chart) => chart.id), ['dates', 'trends', 'topics', 'keywords', 'categories', 'institutions', 'weeks', 'months']);
    const dates = charts[0];
    assert.equal(dates.marks.filter((mark) => mark.kind === 'circle').length, 4);
    // Every bar, point and row label is clickable: it carries the filter of what it counts. (A
    // trend's end point lies under its row's clickable band.)
    for (const chart of charts) {
      for (const mark of chart.marks) {
        const clickable = mark.kind === 'rect' || (mark.kind === 'circle' && chart.id !== 'trends') || (mark.kind === 'text' && mark.tone === 'label');
        if (clickable) {
          assert.ok('filter' in mark && mark.filter, `${chart.id}: ${JSON.stringify(mark)}`);
        }
      }
      assert.ok(chart.marks.some((mark) => 'filter' in mark && mark.filter), chart.id);
    }
  });

  test('Should word every chart title, tooltip and the page in both languages, English alone or Chinese alone', () => {
    const HAN = /[\u4e00-\u9fff]/;
    const stats = digestStatistics(workspace().index);
    const [both, en, zh] = (['both', 'en', 'zh-cn'] as const).map((language) => dashboardCharts(stats, 1000, language));
    both.forEach((chart, i) => {
      assert.equal(chart.title, `${en[i].title} · ${zh[i].title}`);
      assert.doesNotMatch(en[i].title, HAN, en[i].title);
      assert.match(zh[i].title, HAN, zh[i].title);
      const tips = (charts: typeof both) => charts[i].marks.flatMap((mark) => ('tip' in mark && mark.tip ? [mark.tip] : []));
      // In Chinese with its own punctuation: `数学推理：30 篇`, `cs.XX（不在 arXiv 分类体系中）：4 篇`.
      for (const tip of tips(zh)) {
        assert.ok(tip.includes('：'), tip);
        assert.doesNotMatch(tip.replace(/^.*?：/, ''), /papers|last 7 days|[:(),]/, tip);
      }
      for (const tip of tips(en)) assert.doesNotMatch(tip, / 篇|最近/, tip);
    });
    assert.equal(zh[2].title, '各专题论文数');
    assert.equal(en[2].title, 'Papers per topic');
    // Every word of the dashboard has its Chinese.
    for (const [key, words] of Object.entries(CHART_WORDS)) {
      assert.match(words.zh, HAN, key);
      assert.doesNotMatch(words.en, HAN, key);
      assert.equal(chartWords(words, 'both'), `${words.en} · ${words.zh}`);
    }
    assert.equal(dashboardSummary({ paperCount: 3, fileCount: 1, undatedFiles: 1 }, 'zh-cn'), '3 篇论文 — 1 期摘要集（1 个文件名无日期）');
    assert.equal(dashboardSummary({ paperCount: 1, fileCount: 2, undatedFiles: 0 }, 'en'), '1 paper — 2 digests');
    assert.equal(dashboardSummary({ paperCount: 3, fileCount: 2, undatedFiles: 0 }, 'both'), '3 papers · 3 篇论文 — 2 digests · 2 期摘要集');
  });
});

describe('The dates chart', () => {
  const point = (date: string, count = 3): { date: string; count: number; files: number; filter: string } => ({ date, count, files: 1, filter: `date:${date}` });
  const texts = (chart: ReturnType<typeof dateChart>): { text: string; x: number }[] =>
    chart.marks.flatMap((mark) => (mark.kind === 'text' && /^\d/.test(mark.text) && mark.text.includes('-') ? [{ text: mark.text, x: mark.x }] : []));
  const circles = (chart: ReturnType<typeof dateChart>): number[] => chart.marks.flatMap((mark) => (mark.kind === 'circle' ? [mark.x] : []));

  test('Should place digests along time, a gap of months as wide as it is long, and write the year when the dates span years', () => {
    const chart = dateChart([point('2024-02-29'), point('2025-12-29'), point('2025-12-30'), point('2025-12-31')], 640);
    const xs = circles(chart);
    // 670 days from the first to the second, one day between the others.
    assert.ok(xs[1] - xs[0] > 100 * (xs[2] - xs[1]), JSON.stringify(xs));
    assert.equal(xs[3] - xs[2], xs[2] - xs[1]);
    const labels = texts(chart);
    assert.equal(labels[0].text, '2024-02-29');
    assert.equal(labels[labels.length - 1].text, '2025-12-31');
    assert.ok(labels.every((label, i) => i === 0 || label.x - labels[i - 1].x >= 76), JSON.stringify(labels));
    // Within one year: month and day only.
    assert.deepEqual(texts(dateChart([point('2026-05-01'), point('2026-05-09')], 640)).map((label) => label.text), ['05-01', '05-09']);
    // One date: in the middle.
    assert.deepEqual(circles(dateChart([point('2026-05-01')], 640)), [(40 + 628) / 2]);
  });

  test('Should label a year of daily digests without overlapping labels, the first and the last among them', () => {
    const dates = Array.from({ length: 365 }, (_, i) => addDays('2026-01-01', i));
    const labels = texts(dateChart(dates.map((date) => point(date)), 640));
    assert.equal(labels[0].text, '01-01');
    assert.equal(labels[labels.length - 1].text, '12-31');
    assert.ok(labels.length >= 8 && labels.every((label, i) => i === 0 || label.x - labels[i - 1].x >= 44), JSON.stringify(labels));
  });
});
