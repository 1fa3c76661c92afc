/**
 * Charts of the statistics as plain marks (rectangles, texts, lines, points) laid out in
 * pixels: the dashboard webview turns the marks into SVG elements with the DOM (text as text
 * nodes), and `paper-digest stats --format svg|html` serialises the same marks as SVG text with
 * everything escaped. So both draw the same chart from the same numbers, and no chart needs a
 * library or any remote content.
 *
 * Marks carry `filter`, the Papers filter of what they count: the dashboard makes them clickable.
 */
import type { CountRow, DatePoint, DigestStatistics, PeriodRow, TrendRow } from './features/statistics';
import { bilingual, Bilingual, DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, PUNCTUATION } from './messages';
import { daysBetween } from './digestDates';
import { displayColumns } from './text';

/**
 * A chart's words in the message language: `both` gives `English · 中文` (the dashboard's own
 * separator), `en` the English, `zh-cn` the Chinese.
 *
 * @example chartWords(bilingual('No data', '无数据'), 'zh-cn') // '无数据'
 */
export function chartWords(words: Bilingual, language: MessageLanguage): string {
  return language === 'en' ? words.en : language === 'zh-cn' ? words.zh : `${words.en} · ${words.zh}`;
}

/** The words of the charts, each in both languages. */
export const CHART_WORDS = {
  noData: bilingual('No data', '无数据'),
  noDatedDigests: bilingual('No dated digests', '无带日期的摘要集'),
  trendsNeedHistory: bilingual('Trends compare the last 7 days with the 7 before: they need digests dated over two weeks at least', '趋势比较最近 7 天与之前 7 天：需要日期跨越至少两周的摘要集'),
  noDatedDigestsHint: bilingual('No dated digests (name them like 2026-05-01.digest)', '无带日期的摘要集（文件名形如 2026-05-01.digest）'),
  datesTitle: bilingual('Papers per digest date', '每期论文数'),
  trendsTitle: bilingual('Rising and falling (last 7 days vs the 7 before)', '升降趋势（近 7 天对比前 7 天）'),
  weeksTitle: bilingual('Papers per week', '每周论文数'),
  monthsTitle: bilingual('Papers per month', '每月论文数'),
  topicsTitle: bilingual('Papers per topic', '各专题论文数'),
  keywordsTitle: bilingual('Papers per keyword', '各关键词论文数'),
  categoriesTitle: bilingual('Papers per arXiv category', '各 arXiv 分类论文数'),
  institutionsTitle: bilingual('Institutions with most papers', '论文最多的机构'),
  topic: bilingual('topic', '专题'),
  keyword: bilingual('keyword', '关键词'),
  notInTaxonomy: bilingual('not in the arXiv taxonomy', '不在 arXiv 分类体系中'),
  noTopic: bilingual('(no topic)', '（无专题）'),
  // The dashboard page's own words.
  pageTitle: bilingual('Paper Digest statistics', 'Paper Digest 统计'),
  loading: bilingual('Loading the statistics…', '正在统计…'),
  workspace: bilingual('Workspace', '工作区'),
  activeDigest: bilingual('Active digest', '当前摘要集'),
  weeklyRollup: bilingual('Weekly roll-up', '每周汇总'),
  monthlyRollup: bilingual('Monthly roll-up', '每月汇总'),
  period: bilingual('Period', '时段'),
  dates: bilingual('Dates', '日期'),
  papers: bilingual('Papers', '论文'),
  topics: bilingual('Topics', '专题'),
  export: bilingual('Export', '导出'),
  digestFile: bilingual('Digest', '摘要集文件'),
} as const;

/**
 * The dashboard's summary line: papers, digests, and the digests without a date.
 *
 * @example dashboardSummary({ paperCount: 3, fileCount: 2, undatedFiles: 0 }, 'zh-cn') // '3 篇论文 — 2 期摘要集'
 */
export function dashboardSummary(stats: Pick<DigestStatistics, 'paperCount' | 'fileCount' | 'undatedFiles'>, language: MessageLanguage): string {
  const papers = chartWords(bilingual(`${stats.paperCount} ${stats.paperCount === 1 ? 'paper' : 'papers'}`, `${stats.paperCount} 篇论文`), language);
  const digests = chartWords(bilingual(`${stats.fileCount} ${stats.fileCount === 1 ? 'digest' : 'digests'}`, `${stats.fileCount} 期摘要集`), language);
  const undated = stats.undatedFiles === 0 ? '' : PUNCTUATION.bracketed(chartWords(bilingual(`${stats.undatedFiles} without a date in the file name`, `${stats.undatedFiles} 个文件名无日期`), language), language);
  return `${papers} — ${digests}${undated}`;
}

/**
 * A row's detail as shown: a category the taxonomy does not know says so in the language; other
 * details (a category's English and Chinese names, an institution's translation) are the data.
 */
export function rowDetail(row: CountRow, language: MessageLanguage): string {
  return row.known === false ? chartWords(CHART_WORDS.notInTaxonomy, language) : row.detail;
}

/**
 * A topic of a period's roll-up as shown: the papers without a topic in the message language,
 * a topic as the digests write it.
 *
 * @example topicLabel({ label: '(no topic)', noTopic: true, detail: '', count: 2, filter: 'week:2026-W18' }, 'zh-cn') // '（无专题）'
 */
export function topicLabel(row: CountRow, language: MessageLanguage): string {
  return row.noTopic ? chartWords(CHART_WORDS.noTopic, language) : row.label;
}

/** `N papers` in the language (`both`: `N papers · N 篇`). */
export function paperCountWords(count: number, language: MessageLanguage): string {
  return chartWords(bilingual(`${count} ${count === 1 ? 'paper' : 'papers'}`, `${count} 篇`), language);
}

/** How a mark is coloured: a class the page's style sheet maps to theme colours. */
export type Tone = 'bar' | 'bar-alt' | 'axis' | 'label' | 'muted' | 'value' | 'title' | 'line' | 'point' | 'rising' | 'falling';

export type Mark =
  | { readonly kind: 'rect'; readonly x: number; readonly y: number; readonly width: number; readonly height: number; readonly tone: Tone; readonly filter?: string; readonly tip?: string }
  | { readonly kind: 'text'; readonly x: number; readonly y: number; readonly text: string; readonly anchor: 'start' | 'middle' | 'end'; readonly tone: Tone; readonly filter?: string; readonly tip?: string }
  | { readonly kind: 'line'; readonly points: readonly (readonly [number, number])[]; readonly tone: Tone }
  | { readonly kind: 'circle'; readonly x: number; readonly y: number; readonly r: number; readonly tone: Tone; readonly filter?: string; readonly tip?: string };

export interface Chart {
  /** Stable, for the page's anchors and the tests: `topics`, `dates`, ... */
  readonly id: string;
  readonly title: string;
  readonly width: number;
  readonly height: number;
  readonly marks: readonly Mark[];
}

/** About how wide a character of the 12 px chart font is: wide (CJK, full-width) characters count twice. */
const CHAR_PX = 7.4;
const ROW = 22;
const TOP = 30;

/**
 * Text as a chart shows it: control, bidirectional-override and other invisible formatting
 * characters and lone surrogates replaced by U+FFFD, white space collapsed, cut at `max`
 * characters (never inside a surrogate pair) with `…`.
 *
 * @example
 * displayText('Evil\u202Etxt.exe  title', 10) // 'Evil\uFFFDtxt.…'
 */
export function displayText(text: string, max = 200): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => (/\s/.test(c) ? ' ' : '\ufffd'))
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length <= max) {
    return clean;
  }
  let cut = max - 1;
  const last = clean.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    cut--;
  }
  return clean.slice(0, cut) + '…';
}

/**
 * A label cut to fit about `px` pixels of the chart font (the whole text goes into the tooltip).
 *
 * @example
 * fitText('Department of Computer Science and Engineering', 120) // 'Department of Co…'
 */
export function fitText(text: string, px: number): string {
  const clean = displayText(text);
  let width = 0;
  let end = 0;
  for (const char of clean) {
    width += displayColumns(char.codePointAt(0)!) * CHAR_PX;
    if (width > px) {
      return clean.slice(0, end).trimEnd() + '…';
    }
    end += char.length;
  }
  return clean;
}

/**
 * A text cut into lines of at most `px` pixels (as `fitText` measures them), at spaces where it
 * has them, else between any two characters (Chinese has no spaces); a word longer than a line
 * is cut too.
 *
 * @example wrapText('Trends compare the last 7 days with the 7 before', 160) // ['Trends compare the', 'last 7 days with the', '7 before']
 */
export function wrapText(text: string, px: number): string[] {
  const lines: string[] = [];
  let line = '';
  let width = 0;
  /** Where the line could break last: after its last space. */
  let breakAt = -1;
  for (const char of displayText(text)) {
    const w = displayColumns(char.codePointAt(0)!) * CHAR_PX;
    if (width + w > px && line.trim()) {
      const cut = breakAt > 0 ? breakAt : line.length;
      lines.push(line.slice(0, cut).trimEnd());
      line = line.slice(cut).trimStart();
      width = 0;
      for (const rest of line) width += displayColumns(rest.codePointAt(0)!) * CHAR_PX;
      breakAt = -1;
    }
    line += char;
    width += w;
    if (char === ' ') breakAt = line.length;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/**
 * A horizontal bar chart: one row per value, the label on the left, the count on the right.
 *
 * @example
 * barChart('topics', 'Papers per topic · 各专题论文数', stats.topics, 640).marks.filter((m) => m.kind === 'rect').length
 */
export function barChart(id: string, title: string, rows: readonly CountRow[], width: number, maxRows = 15, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE, total = rows.length): Chart {
  const shown = rows.slice(0, maxRows);
  // The values past the bars shown are counted below them (`total`: all of them, `rows` may hold
  // only the largest), so that the bars are not taken for the whole.
  const more = Math.max(0, total - shown.length);
  const labelWidth = Math.min(260, Math.round(width * 0.42));
  const barLeft = labelWidth + 8;
  const barSpace = Math.max(40, width - barLeft - 48);
  const max = Math.max(1, ...shown.map((row) => row.count));
  const marks: Mark[] = [{ kind: 'text', x: 0, y: 18, text: title, anchor: 'start', tone: 'title' }];
  shown.forEach((row, i) => {
    const y = TOP + i * ROW;
    const tip = rowTip(row, language);
    const length = Math.max(2, Math.round((row.count / max) * barSpace));
    marks.push({ kind: 'text', x: labelWidth, y: y + 15, text: fitText(row.label, labelWidth - 4), anchor: 'end', tone: row.known === false ? 'muted' : 'label', filter: row.filter, tip });
    marks.push({ kind: 'rect', x: barLeft, y: y + 3, width: length, height: ROW - 6, tone: i % 2 === 0 ? 'bar' : 'bar-alt', filter: row.filter, tip });
    marks.push({ kind: 'text', x: barLeft + length + 6, y: y + 15, text: String(row.count), anchor: 'start', tone: 'value' });
  });
  if (shown.length === 0) {
    marks.push({ kind: 'text', x: 0, y: TOP + 15, text: chartWords(CHART_WORDS.noData, language), anchor: 'start', tone: 'muted' });
  }
  if (more > 0 && shown.length > 0) {
    marks.push({ kind: 'text', x: labelWidth, y: TOP + shown.length * ROW + 15, text: chartWords(bilingual(`… ${more} more`, `… 另有 ${more} 项`), language), anchor: 'end', tone: 'muted' });
  }
  return { id, title, width, height: TOP + (Math.max(1, shown.length) + (more > 0 && shown.length > 0 ? 1 : 0)) * ROW + 8, marks };
}

/**
 * Papers per digest date as a line with a point per date.
 *
 * @example
 * dateChart(stats.dates, 640).marks.filter((m) => m.kind === 'circle').length // one per date
 */
export function dateChart(points: readonly DatePoint[], width: number, height = 200, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Chart {
  const title = chartWords(CHART_WORDS.datesTitle, language);
  const left = 40;
  const right = width - 12;
  const top = TOP + 4;
  const bottom = height - 28;
  const max = Math.max(1, ...points.map((point) => point.count));
  // Along a time axis: a gap of months between two digests is as wide as it is long.
  const days = points.map((point) => daysBetween(points[0].date, point.date));
  const span = days.length > 0 ? days[days.length - 1] : 0;
  const x = (i: number): number => (span <= 0 ? (left + right) / 2 : left + ((right - left) * days[i]) / span);
  const y = (count: number): number => bottom - ((bottom - top) * count) / max;
  const marks: Mark[] = [
    { kind: 'text', x: 0, y: 18, text: title, anchor: 'start', tone: 'title' },
    { kind: 'line', points: [[left, top], [left, bottom], [right, bottom]], tone: 'axis' },
    { kind: 'text', x: left - 6, y: top + 4, text: String(max), anchor: 'end', tone: 'muted' },
    { kind: 'text', x: left - 6, y: bottom + 4, text: '0', anchor: 'end', tone: 'muted' },
  ];
  if (points.length === 0) {
    const lines = wrapText(chartWords(CHART_WORDS.noDatedDigestsHint, language), right - left - 8);
    const first = (top + bottom) / 2 - ((lines.length - 1) * NOTE_LINE) / 2;
    lines.forEach((line, i) => marks.push({ kind: 'text', x: left + 8, y: first + i * NOTE_LINE, text: line, anchor: 'start', tone: 'muted' }));
    return { id: 'dates', title, width, height, marks };
  }
  marks.push({ kind: 'line', points: points.map((point, i) => [x(i), y(point.count)] as const), tone: 'line' });
  // Dates of more than one year are written whole; labels far enough apart not to overlap, the
  // first and the last always.
  const withYear = points[0].date.slice(0, 4) !== points[points.length - 1].date.slice(0, 4);
  const gap = withYear ? 76 : 44;
  const labels: number[] = [];
  points.forEach((point, i) => {
    marks.push({ kind: 'circle', x: x(i), y: y(point.count), r: points.length > 120 ? 2.5 : 4, tone: 'point', filter: point.filter, tip: `${point.date}${PUNCTUATION.colon(language)}${paperCountWords(point.count, language)}` });
    if (labels.length === 0 || x(i) - x(labels[labels.length - 1]) >= gap) labels.push(i);
  });
  const last = points.length - 1;
  if (labels[labels.length - 1] !== last) {
    if (labels.length > 1 && x(last) - x(labels[labels.length - 1]) < gap) labels.pop();
    if (x(last) - x(labels[labels.length - 1]) >= gap) labels.push(last);
  }
  for (const i of labels) {
    // The last date ends at its point: centred there, it ran past the chart's right edge.
    marks.push({ kind: 'text', x: x(i), y: bottom + 18, text: withYear ? points[i].date : points[i].date.slice(5), anchor: i === last && last > 0 ? 'end' : 'middle', tone: 'muted' });
  }
  return { id: 'dates', title, width, height, marks };
}

/**
 * How topics and keywords rose and fell: a line per row of their papers week by week back from
 * the latest date, with the last 7 days against the 7 before.
 */
export function trendChart(trends: readonly TrendRow[], width: number, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE, dated = false): Chart {
  const title = chartWords(CHART_WORDS.trendsTitle, language);
  const labelWidth = Math.min(220, Math.round(width * 0.34));
  const sparkLeft = labelWidth + 10;
  const sparkRight = width - 110;
  const rowHeight = 30;
  const marks: Mark[] = [{ kind: 'text', x: 0, y: 18, text: title, anchor: 'start', tone: 'title' }];
  trends.forEach((trend, i) => {
    const top = TOP + i * rowHeight;
    const tip = `${chartWords(trend.kind === 'topic' ? CHART_WORDS.topic : CHART_WORDS.keyword, language)} ${displayText(trend.label)}${PUNCTUATION.colon(language)}${chartWords(bilingual(`${trend.recent} in the last 7 days, ${trend.previous} in the 7 before`, `最近 7 天 ${trend.recent}，之前 7 天 ${trend.previous}`), language)}`;
    marks.push({ kind: 'text', x: labelWidth, y: top + 19, text: fitText(trend.label, labelWidth - 4), anchor: 'end', tone: 'label', filter: trend.filter, tip });
    const max = Math.max(1, ...trend.series);
    const n = trend.series.length;
    const px = (j: number): number => (n <= 1 ? (sparkLeft + sparkRight) / 2 : sparkLeft + ((sparkRight - sparkLeft) * j) / (n - 1));
    // A flat line runs through the middle of its row, level with its label (drawn at the top or
    // the bottom of the row, it looked like the line of the row above or below).
    const flat = trend.series.every((value) => value === trend.series[0]);
    const py = (value: number): number => (flat ? top + rowHeight / 2 : top + rowHeight - 6 - ((rowHeight - 12) * value) / max);
    marks.push({ kind: 'line', points: trend.series.map((value, j) => [px(j), py(value)] as const), tone: trend.rising ? 'rising' : 'falling' });
    marks.push({ kind: 'circle', x: px(n - 1), y: py(trend.series[n - 1] ?? 0), r: 2.5, tone: trend.rising ? 'rising' : 'falling' });
    marks.push({ kind: 'rect', x: sparkLeft, y: top + 2, width: Math.max(1, sparkRight - sparkLeft), height: rowHeight - 4, tone: 'axis', filter: trend.filter, tip });
    // As the text output writes them (a full-width sign was the one such character in English).
    const arrow = trend.rising ? '▲' : trend.recent < trend.previous ? '▼' : '=';
    marks.push({ kind: 'text', x: width - 4, y: top + 19, text: `${arrow} ${trend.recent} / ${trend.previous}`, anchor: 'end', tone: trend.rising ? 'rising' : 'falling' });
  });
  let noteHeight = 0;
  if (trends.length === 0) {
    // Dated digests within one week: what trends need; none dated: that. On as many lines as
    // the chart's width takes (one line was cut off at the edge of a narrow dashboard).
    const lines = wrapText(chartWords(dated ? CHART_WORDS.trendsNeedHistory : CHART_WORDS.noDatedDigests, language), width);
    lines.forEach((line, i) => marks.push({ kind: 'text', x: 0, y: TOP + 15 + i * NOTE_LINE, text: line, anchor: 'start', tone: 'muted' }));
    noteHeight = lines.length * NOTE_LINE;
  }
  return { id: 'trends', title, width, height: TOP + Math.max(Math.max(1, trends.length) * rowHeight, noteHeight) + 8, marks };
}

/** The height of a line of a chart's note, in pixels. */
const NOTE_LINE = 18;

/** Papers per week or month, as bars, each labelled with the period's largest topics. */
export function periodChart(id: 'weeks' | 'months', periods: readonly PeriodRow[], width: number, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Chart {
  const title = chartWords(id === 'weeks' ? CHART_WORDS.weeksTitle : CHART_WORDS.monthsTitle, language);
  const rows: CountRow[] = periods.slice(-26).map((period) => ({
    label: period.period,
    // With `…` when the period has more topics than the three named.
    detail: period.topics.slice(0, 3).map((topic) => `${topicLabel(topic, language)} ${topic.count}`).join(PUNCTUATION.comma(language)) + ((period.topicCount ?? period.topics.length) > Math.min(3, period.topics.length) ? ' …' : ''),
    count: period.count,
    filter: period.filter,
  }));
  return barChart(id, title, rows, width, 26, language);
}

/** Every chart of the dashboard, in the order it shows them. */
export function dashboardCharts(stats: DigestStatistics, width: number, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Chart[] {
  const half = width >= 900 ? Math.floor((width - 24) / 2) : width;
  return [
    dateChart(stats.dates, width, 200, language),
    trendChart(stats.trends, width, language, stats.dates.length > 0),
    barChart('topics', chartWords(CHART_WORDS.topicsTitle, language), stats.topics, half, 15, language, stats.totals.topics),
    barChart('keywords', chartWords(CHART_WORDS.keywordsTitle, language), stats.keywords, half, 15, language, stats.totals.keywords),
    barChart('categories', chartWords(CHART_WORDS.categoriesTitle, language), stats.categories, half, 15, language, stats.totals.categories),
    barChart('institutions', chartWords(CHART_WORDS.institutionsTitle, language), stats.institutions, half, 15, language, stats.totals.institutions),
    periodChart('weeks', stats.weeks, half, language),
    periodChart('months', stats.months, half, language),
  ];
}

function rowTip(row: CountRow, language: MessageLanguage): string {
  const shown = rowDetail(row, language);
  const detail = shown ? PUNCTUATION.bracketed(displayText(shown), language) : '';
  return `${displayText(row.label)}${detail}${PUNCTUATION.colon(language)}${paperCountWords(row.count, language)}`;
}

// ---- SVG text ------------------------------------------------------------------------------

/** Text escaped for XML character data and attribute values; characters XML forbids dropped. */
export function escapeXml(text: string): string {
  return displayText(text, Number.MAX_SAFE_INTEGER).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A value for an attribute that is data, not shown (a filter): every character kept as it is
 * but those XML cannot hold (control characters, lone surrogates: U+FFFD), and white space
 * written as references, so that a reader of the attribute gets the text back (`displayText`
 * made a zero-width space or a bidirectional control U+FFFD, and the filter kept no paper).
 *
 * @example escapeXmlData('topic:"a\u200bb"') // 'topic:&#34;a\u200bb&#34;'
 */
export function escapeXmlData(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/[&<>"'\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The colours of the tones in a page of its own (light and dark by the reader's setting). */
export const STANDALONE_STYLE = `
svg.pd-chart { font: 12px system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; }
.pd-title { font-weight: 600; font-size: 13px; fill: #1f2328; }
.pd-label, .pd-value { fill: #1f2328; }
.pd-muted { fill: #6e7781; }
.pd-bar { fill: #2f6fb0; } .pd-bar-alt { fill: #5b93cc; }
.pd-axis { stroke: #8c959f; fill: none; } rect.pd-axis { stroke: none; fill: transparent; }
.pd-line { stroke: #2f6fb0; stroke-width: 2; fill: none; } .pd-point { fill: #2f6fb0; }
polyline.pd-rising { stroke: #1a7f37; stroke-width: 2; fill: none; } text.pd-rising, circle.pd-rising { fill: #1a7f37; }
polyline.pd-falling { stroke: #8c959f; stroke-width: 1.5; fill: none; } text.pd-falling, circle.pd-falling { fill: #6e7781; }
@media (prefers-color-scheme: dark) {
  .pd-title, .pd-label, .pd-value { fill: #e6edf3; } .pd-muted, text.pd-falling { fill: #9198a1; }
  .pd-bar, .pd-point { fill: #4493f8; } .pd-bar-alt { fill: #79b0f9; } .pd-line { stroke: #4493f8; }
  polyline.pd-rising { stroke: #3fb950; } text.pd-rising, circle.pd-rising { fill: #3fb950; }
}
`;

/**
 * A chart as one `<svg>` element. With `standalone`, it carries the XML namespace and its own
 * style sheet, so the file opens by itself in a browser.
 *
 * @example
 * chartToSvg(barChart('topics', 'Topics', stats.topics, 640), { standalone: true }) // '<svg xmlns=…'
 */
export function chartToSvg(chart: Chart, options: { readonly standalone?: boolean } = {}): string {
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="pd-chart" id="chart-${escapeXml(chart.id)}" width="${chart.width}" height="${chart.height}" viewBox="0 0 ${chart.width} ${chart.height}" role="img" aria-label="${escapeXml(chart.title)}">`);
  out.push(`<title>${escapeXml(chart.title)}</title>`);
  if (options.standalone) {
    out.push(`<style>${STANDALONE_STYLE}</style>`);
  }
  for (const mark of chart.marks) {
    const filter = 'filter' in mark && mark.filter ? ` data-filter="${escapeXmlData(mark.filter)}"` : '';
    const tip = 'tip' in mark && mark.tip ? `<title>${escapeXml(mark.tip)}</title>` : '';
    const cls = `pd-${mark.tone}`;
    switch (mark.kind) {
      case 'rect':
        out.push(`<rect class="${cls}" x="${num(mark.x)}" y="${num(mark.y)}" width="${num(mark.width)}" height="${num(mark.height)}"${filter}>${tip}</rect>`);
        break;
      case 'circle':
        out.push(`<circle class="${cls}" cx="${num(mark.x)}" cy="${num(mark.y)}" r="${num(mark.r)}"${filter}>${tip}</circle>`);
        break;
      case 'line':
        out.push(`<polyline class="${cls}" points="${mark.points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ')}"/>`);
        break;
      case 'text':
        out.push(`<text class="${cls}" x="${num(mark.x)}" y="${num(mark.y)}" text-anchor="${mark.anchor}"${filter}>${tip}${escapeXml(mark.text)}</text>`);
        break;
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

function num(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 10) / 10) : '0';
}
