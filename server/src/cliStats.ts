/**
 * `paper-digest stats [PATH...] [--format text|json|svg|html]`: the statistics of the digests
 * under the paths (the current folder when none is given), from the same service as the
 * dashboard: a table, the numbers as JSON, an SVG chart of papers per topic, or one
 * self-contained HTML page with every chart (no script, no network).
 *
 * Exit status: 0, or 2 on bad usage or when a file cannot be read or is past a limit of what is
 * read (the others are counted; when none is, nothing is written to standard output).
 */
import { pathToFileURL } from 'node:url';
import { collectDigestFiles, digestWithinLimits, displayPath, printable, readDigestFile } from './cliFiles';
import { barChart, CHART_WORDS, chartToSvg, chartWords, dashboardCharts, dashboardSummary, displayText, escapeXml, rowDetail, STANDALONE_STYLE, topicLabel } from './service/charts';
import { DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, PUNCTUATION } from './service/messages';
import { CliUsageError, COMMAND_OPTIONS, infoAnswer, InfoRequest, infoRequest, languageOption, problemText, requestedLanguage, separateValue, usageError } from './cliLanguage';
import { choices, CLI_MESSAGES, cliSummary, cliText, MessageRef } from './service/cliMessages';
import { CountRow, DigestStatistics, digestStatistics } from './service/features/statistics';
import { WorkspaceIndex } from './service/workspaceIndex';

type StatsFormat = 'text' | 'json' | 'svg' | 'html';

interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs `stats` with the arguments after the command's name; returns the exit status. */
export function runStats(args: readonly string[], out: Output, cwd: string): number {
  let options: StatsOptions | InfoRequest;
  try {
    options = parseStatsArguments(args);
  } catch (error) {
    if (error instanceof CliUsageError) return usageError(out, 'stats', error, requestedLanguage(args));
    throw error;
  }
  if (options === 'help' || options === 'version') {
    return infoAnswer(out, options, 'helpStats', args);
  }
  const { format, paths, language } = options;

  let failed = false;
  const fail = (problem: MessageRef): void => {
    failed = true;
    out.stderr(`paper-digest: ${problemText(problem, language)}\n`);
  };
  const index = new WorkspaceIndex();
  let counted = 0;
  for (const found of collectDigestFiles(paths.length > 0 ? paths : ['.'], cwd, fail)) {
    const show = printable(displayPath(found.path, cwd));
    const read = readDigestFile(found.path, show, fail);
    const doc = read && digestWithinLimits(read.text, show, fail);
    if (doc !== undefined) {
      index.update(pathToFileURL(found.path).href, doc);
      counted++;
    }
  }
  if (failed && counted === 0) {
    // Nothing was read: no empty report over what `> report.html` held.
    return 2;
  }
  const stats = digestStatistics(index);
  switch (format) {
    case 'text':
      out.stdout(statsText(stats, language));
      break;
    case 'json':
      out.stdout(JSON.stringify(stats, null, 2) + '\n');
      break;
    case 'svg':
      out.stdout(`<?xml version="1.0" encoding="UTF-8"?>\n${chartToSvg(barChart('topics', chartWords(CHART_WORDS.topicsTitle, language), stats.topics, 720, 25, language, stats.totals.topics), { standalone: true })}\n`);
      break;
    case 'html':
      out.stdout(statsHtml(stats, language));
      break;
  }
  return failed ? 2 : 0;
}

interface StatsOptions {
  format: StatsFormat;
  paths: string[];
  language: MessageLanguage;
}

const STATS_FORMATS: readonly StatsFormat[] = ['text', 'json', 'svg', 'html'];

function parseStatsArguments(args: readonly string[]): StatsOptions | InfoRequest {
  const options: StatsOptions = { format: 'text', paths: [], language: DEFAULT_MESSAGE_LANGUAGE };
  let onlyPaths = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!onlyPaths && arg.startsWith('-') && arg !== '-') {
      if (arg === '--') {
        onlyPaths = true;
      } else if (infoRequest(arg)) {
        return infoRequest(arg)!;
      } else if (arg === '--lang' || arg.startsWith('--lang=')) {
        ({ language: options.language, next: i } = languageOption(args, i)!);
      } else if (arg === '--format' || arg.startsWith('--format=')) {
        const value = arg === '--format' ? separateValue(args, i++, COMMAND_OPTIONS.stats) : arg.slice('--format='.length);
        if (!(STATS_FORMATS as readonly (string | undefined)[]).includes(value)) {
          const values = choices(STATS_FORMATS);
          throw new CliUsageError(value === undefined ? cliText('needsValueOf', { option: '--format', values }) : cliText('unknownFormat', { value: printable(value), values }));
        }
        options.format = value as StatsFormat;
      } else {
        throw new CliUsageError(cliText('unknownOptionFor', { option: printable(arg), command: 'stats' }));
      }
    } else {
      options.paths.push(arg);
    }
  }
  return options;
}

/** The words of the text and HTML output, from the command line's table of messages. */
const STATS_WORDS = {
  topics: CLI_MESSAGES.topics,
  keywords: CLI_MESSAGES.keywords,
  categories: CLI_MESSAGES.categories,
  institutions: CLI_MESSAGES.institutions,
  dates: CLI_MESSAGES.perDate,
  trends: CLI_MESSAGES.trends,
  weeks: CLI_MESSAGES.weeks,
  months: CLI_MESSAGES.months,
  title: CLI_MESSAGES.statsTitle,
  period: CLI_MESSAGES.period,
  datesColumn: CLI_MESSAGES.datesColumn,
  papersColumn: CLI_MESSAGES.papersColumn,
  topicsColumn: CLI_MESSAGES.topicsColumn,
};

/** A heading of the text tables: `both` keeps `English 中文`, as the tables were before there was a choice. */
function heading(words: { en: string; zh: string }, language: MessageLanguage): string {
  return language === 'en' ? words.en : language === 'zh-cn' ? words.zh : `${words.en} ${words.zh}`;
}

/** The first line of the text tables (English for `both`, as before). */
function summaryLine(stats: DigestStatistics, language: MessageLanguage): string {
  const counts = { papers: stats.paperCount, entries: stats.entryCount, files: stats.fileCount, undated: stats.undatedFiles };
  return cliSummary(stats.undatedFiles > 0 ? 'statsSummaryUndated' : 'statsSummary', counts, language);
}

/**
 * The statistics as plain-text tables, with headings in `language` (`both`: `Topics 专题`).
 *
 * @example statsText(stats, 'zh-cn').split('\n')[2] // '专题 (12):'
 */
export function statsText(stats: DigestStatistics, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string {
  const lines = [summaryLine(stats, language)];
  // `Topics (3):`, and in Chinese alone `专题（3）：`, as Chinese punctuation is full-width.
  const titled = (title: string, total?: number): string =>
    language === 'zh-cn' ? `${title}${total === undefined ? '' : `（${total}）`}：` : `${title}${total === undefined ? '' : ` (${total})`}:`;
  const none = `  ${cliSummary('none', {}, language)}`;
  const table = (title: string, rows: readonly CountRow[], total: number, limit = 10): void => {
    lines.push('', titled(title, total));
    if (rows.length === 0) {
      lines.push(none);
    }
    const width = Math.max(...rows.slice(0, limit).map((row) => String(row.count).length), 1);
    for (const row of rows.slice(0, limit)) {
      const detail = rowDetail(row, language);
      lines.push(`  ${String(row.count).padStart(width)}  ${displayText(row.label, 80)}${detail ? `  ${displayText(detail, 80)}` : ''}`);
    }
    if (total > limit) {
      const more = total - Math.min(limit, rows.length);
      lines.push(`  ${cliSummary('more', { count: more }, language)}`);
    }
  };
  table(heading(STATS_WORDS.topics, language), stats.topics, stats.totals.topics);
  table(heading(STATS_WORDS.keywords, language), stats.keywords, stats.totals.keywords);
  table(heading(STATS_WORDS.categories, language), stats.categories, stats.totals.categories);
  table(heading(STATS_WORDS.institutions, language), stats.institutions, stats.totals.institutions);
  lines.push('', titled(heading(STATS_WORDS.dates, language), stats.dates.length));
  if (stats.dates.length === 0) {
    lines.push(none);
  }
  for (const point of stats.dates.slice(-14)) {
    lines.push(`  ${point.date}  ${String(point.count).padStart(5)}  ${'#'.repeat(Math.min(60, point.count))}`);
  }
  if (stats.dates.length > 14) {
    lines.push(`  ${cliSummary('lastDates', { shown: 14, count: stats.dates.length }, language)}`);
  }
  lines.push('', titled(heading(STATS_WORDS.trends, language)));
  if (stats.trends.length === 0) {
    lines.push(stats.dates.length > 0 ? `  ${chartWords(CHART_WORDS.trendsNeedHistory, language)}` : none);
  }
  for (const trend of stats.trends) {
    const kind = language === 'both' ? trend.kind : chartWords(trend.kind === 'topic' ? CHART_WORDS.topic : CHART_WORDS.keyword, language);
    lines.push(`  ${trend.rising ? '▲' : trend.recent < trend.previous ? '▼' : '='} ${String(trend.recent).padStart(4)} / ${String(trend.previous).padEnd(4)}  ${kind} ${displayText(trend.label, 80)}`);
  }
  for (const [title, periods, last] of [
    [STATS_WORDS.weeks, stats.weeks, 'lastWeeks'],
    [STATS_WORDS.months, stats.months, 'lastMonths'],
  ] as const) {
    // Every section, one without periods (no dated digest) saying so.
    lines.push('', titled(heading(title, language)));
    if (periods.length === 0) {
      lines.push(none);
    }
    for (const period of periods.slice(-12)) {
      const left = (period.topicCount ?? period.topics.length) - Math.min(3, period.topics.length);
      // The topics past the three shown are counted, so that the numbers shown add up.
      const more = left > 0 ? ` ${cliSummary('more', { count: left }, language)}` : '';
      lines.push(`  ${period.period}  ${String(period.count).padStart(5)}  ${period.topics.slice(0, 3).map((topic) => `${displayText(topicLabel(topic, language), 40)} ${topic.count}`).join(PUNCTUATION.comma(language))}${more}`);
    }
    if (periods.length > 12) {
      lines.push(`  ${cliSummary(last, { shown: 12, count: periods.length }, language)}`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * One HTML page with every chart, readable offline: inline SVG and styles, no script. It is
 * also well-formed XML, so XML tools read it as they read the SVG.
 */
export function statsHtml(stats: DigestStatistics, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string {
  const charts = dashboardCharts(stats, 900, language).map((chart) => `<section>${chartToSvg(chart)}</section>`);
  const rollups = [[chartWords(STATS_WORDS.weeks, language), stats.weeks], [chartWords(STATS_WORDS.months, language), stats.months]] as const;
  const column = (words: { en: string; zh: string }): string => escapeXml(heading(words, language));
  const title = escapeXml(chartWords(STATS_WORDS.title, language));
  // The dashboard's own line: the papers, the digests and those without a date in their names.
  const counts = dashboardSummary(stats, language);
  const tables = rollups
    .filter(([, periods]) => periods.length > 0)
    .map(([title, periods]) => {
      const rows = periods.map((period) => {
        const left = (period.topicCount ?? period.topics.length) - period.topics.length;
        const topics = period.topics.map((topic) => `${escapeXml(displayText(topicLabel(topic, language), 60))} ${topic.count}`).join(PUNCTUATION.comma(language)) + (left > 0 ? ` ${escapeXml(cliSummary('more', { count: left }, language))}` : '');
        return `<tr><td>${escapeXml(period.period)}</td><td>${escapeXml(period.first)} – ${escapeXml(period.last)}</td><td class="n">${period.count}</td><td>${topics}</td></tr>`;
      });
      return `<section><h2>${escapeXml(title)}</h2><table><thead><tr><th>${column(STATS_WORDS.period)}</th><th>${column(STATS_WORDS.datesColumn)}</th><th>${column(STATS_WORDS.papersColumn)}</th><th>${column(STATS_WORDS.topicsColumn)}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
    });
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="${language === 'en' ? 'en' : 'zh-CN'}">
<head>
<meta charset="utf-8" />
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${title}</title>
<style>
body { font: 14px system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; margin: 24px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; } h2 { font-size: 15px; }
section { margin: 0 0 28px; } .charts { display: flex; flex-wrap: wrap; gap: 0 24px; } table { border-collapse: collapse; } td, th { padding: 3px 10px; border-bottom: 1px solid #d0d7de; text-align: left; overflow-wrap: anywhere; } td.n { text-align: right; }
@media (prefers-color-scheme: dark) { body { color: #e6edf3; background: #0d1117; } td, th { border-color: #30363d; } }
${STANDALONE_STYLE}
</style>
</head>
<body>
<h1>${title}</h1>
<p>${escapeXml(counts)}</p>
<div class="charts">
${charts.join('\n')}
</div>
${tables.join('\n')}
</body>
</html>
`;
}
