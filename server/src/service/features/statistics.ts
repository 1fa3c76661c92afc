/**
 * Statistics of the digests: what the field is doing. Papers per topic, keyword, category and
 * institution, papers per digest date, how topics and keywords rise and fall across dates, and
 * weekly and monthly roll-ups. Plain data, so any client can draw it; the dashboard webview and
 * `paper-digest stats` draw the same numbers.
 *
 * A paper counts once per group, whichever digests repeat it: papers are told apart by their
 * English title (case and white space ignored, as `duplicate-paper` does). Every row carries the
 * Papers filter (`topic:数学推理`, `category:cs.CL`, `week:2026-W18`, ...) that shows exactly the
 * papers it counts.
 */
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { daysBetween, digestDateOf, isoWeekOf, monthOf } from '../digestDates';
import { categoryKey, digestFileName, digestPath, fieldFilter, FilterContext, filterContextOf, FilterField, groupKey, namedInstitutionGroups } from '../paperFilter';
import { categoryIgnoringCase } from '../taxonomy';
import { InstitutionGroup, institutionGroup } from '../institutionGroup';
import type { FileSummary, PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import { paperKeyOf } from '../reading/paperInfo';
import { compareLabels } from '../text';

/** One bar: a value and how many distinct papers have it. */
export interface CountRow {
  /** The value as first written, e.g. `数学推理`, `cs.CL`, `Fudan University`. */
  readonly label: string;
  /** More about it: a category's English and Chinese names, an institution's translation. */
  readonly detail: string;
  readonly count: number;
  /** The Papers filter that keeps these papers. */
  readonly filter: string;
  /** For categories: whether the arXiv taxonomy knows the code. */
  readonly known?: boolean;
  /**
   * For the topics of a period: the row of the papers without a topic (its `label` is
   * `(no topic)`; shown in the message language by `topicLabel`, charts.ts).
   */
  readonly noTopic?: true;
}

/** The papers of the digests of one day. */
export interface DatePoint {
  /** `YYYY-MM-DD`, from the digests' file names. */
  readonly date: string;
  readonly count: number;
  /** How many digest files carry that date. */
  readonly files: number;
  readonly filter: string;
}

/** How one topic or keyword moved across the dates. */
export interface TrendRow {
  readonly kind: 'topic' | 'keyword';
  readonly label: string;
  readonly filter: string;
  /**
   * Papers per week, oldest first: the 7-day windows going back from the latest date (at most
   * `TREND_WEEKS`, as many as the dates span), a paper counted once in each; the last two are
   * `previous` and `recent`.
   */
  readonly series: readonly number[];
  /** Papers in the last seven days up to the latest date. */
  readonly recent: number;
  /** Papers in the seven days before those. */
  readonly previous: number;
  /** Whether it rose: more papers in the last 7 days than in the 7 before. */
  readonly rising: boolean;
}

/** The papers of one ISO week or month, by topic. */
export interface PeriodRow {
  /** `2026-W18` or `2026-05`. */
  readonly period: string;
  /** First and last date with digests in the period. */
  readonly first: string;
  readonly last: string;
  readonly count: number;
  /** The largest topics (at most 8). */
  readonly topics: readonly CountRow[];
  /** How many topics the period has, those past `topics` too. */
  readonly topicCount?: number;
  readonly filter: string;
}

export interface DigestStatistics {
  /** The file the statistics are of, or undefined for the whole workspace. */
  readonly uri?: string;
  /** Distinct papers. */
  readonly paperCount: number;
  /** Entries, repeats included. */
  readonly entryCount: number;
  readonly fileCount: number;
  /** Digest files whose name carries no date (left out of the dates, trends and roll-ups). */
  readonly undatedFiles: number;
  /** Largest first; at most `MAX_ROWS` each, with the number of values in `totals`. */
  readonly topics: readonly CountRow[];
  readonly keywords: readonly CountRow[];
  readonly categories: readonly CountRow[];
  readonly institutions: readonly CountRow[];
  readonly totals: { readonly topics: number; readonly keywords: number; readonly categories: number; readonly institutions: number };
  /** Oldest first. */
  readonly dates: readonly DatePoint[];
  /** The topics and keywords with most papers, rising ones first. */
  readonly trends: readonly TrendRow[];
  /** Oldest first. */
  readonly weeks: readonly PeriodRow[];
  readonly months: readonly PeriodRow[];
}

/** At most this many rows per list. */
export const MAX_ROWS = 50;
/** Trends are drawn for this many topics and this many keywords. */
export const MAX_TRENDS = 6;
/** The label of the papers of a period without a topic (in the data; shown by `topicLabel`, charts.ts). */
const NO_TOPIC = '(no topic)';
/** Its key: no topic's key is empty, and the counters take no empty key. */
const NO_TOPIC_KEY = '\u0000';
/** Topics listed per period of a roll-up. */
const PERIOD_TOPICS = 8;

/**
 * The statistics of the workspace index, or of one of its files. One pass over the papers: a
 * paper whose English title no other paper of the workspace has is counted without looking it
 * up; only papers that appear more than once are told apart by an identity number.
 *
 * @example
 * const stats = digestStatistics(index);
 * stats.topics[0]      // { label: '数学推理', detail: '', count: 61, filter: 'topic:数学推理' }
 * stats.dates.at(-1)   // { date: '2026-05-03', count: 30, files: 1, filter: 'date:2026-05-03' }
 */
export function digestStatistics(index: WorkspaceIndex, options: { readonly uri?: string } = {}, token: Cancellation = NEVER_CANCELLED): DigestStatistics {
  const files: readonly FileSummary[] = options.uri ? [index.file(options.uri)].filter((file): file is FileSummary => file !== undefined) : index.files();
  const keys = new Keys(filterContextOf(index));
  const identities = new Identities(index);
  const all = new DistinctCount();
  const topics = new Counter('topic');
  const keywords = new Counter('keyword');
  const categories = new Counter('category');
  const institutions = new Counter('institution');
  const days = new Map<string, Period>();
  const weeks = new Map<string, Period>();
  const months = new Map<string, Period>();
  let entryCount = 0;
  let undatedFiles = 0;
  let seen = 0;
  // The trends' weekly windows, the last 7 days (window 0), the 7 before (1) and so on, each
  // counting a paper once however many of its digests repeat it (as a bar does).
  const fileDates = files.map((file) => digestDateOf(file.uri));
  const latest = fileDates.reduce<string | undefined>((max, date) => (date !== undefined && (max === undefined || date > max) ? date : max), undefined);
  const windows = new Map<string, Period>();
  for (const [f, file] of files.entries()) {
    const date = fileDates[f];
    const periods: Period[] = [];
    if (date === undefined) {
      undatedFiles++;
    } else {
      const day = periodFor(days, date, date);
      day.files++;
      periods.push(day, periodFor(weeks, isoWeekOf(date), date), periodFor(months, monthOf(date), date));
      const week = latest === undefined ? TREND_WEEKS : Math.floor(daysBetween(date, latest) / 7);
      if (week < TREND_WEEKS) periods.push(periodFor(windows, String(week), date, true));
    }
    for (const paper of file.papers) {
      if ((++seen & 4095) === 0 && token.isCancellationRequested) {
        return emptyStatistics(options.uri);
      }
      entryCount++;
      const ref = identities.of(paper);
      all.add(ref);
      const topic = paper.topic;
      const topicKey = keys.of(topic);
      if (topicKey) {
        topics.add(topicKey, topic, '', ref);
      }
      const keywordKeys = distinctKeys(paper.keywords, (keyword) => keys.of(keyword));
      for (let i = 0; i < keywordKeys.length; i++) {
        if (keywordKeys[i]) {
          keywords.add(keywordKeys[i], paper.keywords[i], '', ref);
        }
      }
      const categoryKeys = distinctKeys(paper.categories, (code) => keys.category(code).key);
      for (let i = 0; i < categoryKeys.length; i++) {
        if (categoryKeys[i]) {
          const info = keys.category(paper.categories[i]);
          categories.add(info.key, info.label, info.detail, ref, info.known);
        }
      }
      const groups = keys.institutions(paper);
      const institutionKeys = distinctKeys(groups, (group) => group.key);
      for (let i = 0; i < institutionKeys.length; i++) {
        if (institutionKeys[i]) {
          institutions.add(institutionKeys[i], groups[i].label, groups[i].translation, ref);
        }
      }
      for (const period of periods) {
        period.papers.add(ref);
        period.topics.add(topicKey || NO_TOPIC_KEY, topicKey ? topic : '', '', ref);
        const dayKeywords = period.keywords;
        if (dayKeywords) {
          for (let i = 0; i < keywordKeys.length; i++) {
            if (keywordKeys[i]) {
              dayKeywords.add(keywordKeys[i], paper.keywords[i], '', ref);
            }
          }
        }
      }
    }
  }

  const dates = [...days.keys()].sort();
  const datePoints: DatePoint[] = dates.map((date) => {
    const day = days.get(date)!;
    return { date, count: day.papers.count, files: day.files, filter: fieldFilter('date', date) };
  });
  const topicRows = topics.rows();
  const keywordRows = keywords.rows();
  const trends = [
    ...trendRows('topic', topicRows, dates, windows, keys),
    ...trendRows('keyword', keywordRows, dates, windows, keys),
  ].sort((a, b) => Number(b.rising) - Number(a.rising) || b.recent - b.previous - (a.recent - a.previous));

  const stats: DigestStatistics = {
    uri: options.uri,
    paperCount: all.count,
    entryCount,
    fileCount: files.length,
    undatedFiles,
    topics: topicRows.slice(0, MAX_ROWS),
    keywords: keywordRows.slice(0, MAX_ROWS),
    categories: categories.rows().slice(0, MAX_ROWS),
    institutions: institutions.rows().slice(0, MAX_ROWS),
    totals: { topics: topics.size, keywords: keywords.size, categories: categories.size, institutions: institutions.size },
    dates: datePoints,
    trends,
    weeks: periodRows('week', weeks),
    months: periodRows('month', months),
  };
  return options.uri === undefined ? stats : inFile(stats, ` ${fieldFilter('file', fileTermOf(index, options.uri))}`);
}

/**
 * What a `file:` term names a digest by: its file name, or, when another digest of the workspace
 * has the same name, as much of its path as tells them apart (`a/2026-05-01.digest`).
 */
function fileTermOf(index: WorkspaceIndex, uri: string): string {
  const name = digestFileName(uri);
  const others = index.files().filter((file) => file.uri !== uri && digestFileName(file.uri) === name).map((file) => digestPath(file.uri));
  if (others.length === 0) {
    return name;
  }
  const parts = digestPath(uri).split('/');
  for (let take = 2; take < parts.length; take++) {
    const suffix = parts.slice(-take).join('/');
    if (!others.some((path) => path.endsWith('/' + suffix))) {
      return suffix;
    }
  }
  return parts.join('/');
}

/** The statistics of one file with every filter keeping its papers only: `suffix` (its `file:` term) added to each. */
function inFile(stats: DigestStatistics, suffix: string): DigestStatistics {
  const scoped = <T extends { readonly filter: string }>(rows: readonly T[]): T[] => rows.map((row) => ({ ...row, filter: row.filter + suffix }));
  return {
    ...stats,
    topics: scoped(stats.topics),
    keywords: scoped(stats.keywords),
    categories: scoped(stats.categories),
    institutions: scoped(stats.institutions),
    dates: scoped(stats.dates),
    trends: scoped(stats.trends),
    weeks: scoped(stats.weeks).map((period) => ({ ...period, topics: scoped(period.topics) })),
    months: scoped(stats.months).map((period) => ({ ...period, topics: scoped(period.topics) })),
  };
}

/** The key of a paper that no other paper shares: counted without being looked up. */
const UNIQUE = -1;

/**
 * Identity numbers of the papers that appear more than once in the workspace (the same English
 * title, as `duplicate-paper` compares them); `UNIQUE` for every other paper.
 */
class Identities {
  private readonly ids = new Map<string, number>();
  private readonly repeated: ReadonlySet<string>;

  constructor(index: WorkspaceIndex) {
    this.repeated = index.repeatedTitleKeys();
  }

  of(paper: PaperSummary): number {
    // A paper with a Chinese title only is one paper wherever it comes, as its state key says.
    const key = paper.titleKey || (paper.key.startsWith('zh:') ? paperKeyOf(paper) : '');
    if (!key || (paper.titleKey && !this.repeated.has(key))) {
      return UNIQUE;
    }
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** How many distinct papers were added. */
class DistinctCount {
  count = 0;
  private seen: Set<number> | undefined;

  add(ref: number): void {
    if (ref === UNIQUE) {
      this.count++;
    } else if (!(this.seen ??= new Set()).has(ref)) {
      this.seen.add(ref);
      this.count++;
    }
  }
}

/** Group keys of values, each worked out once per run. */
class Keys {
  /** @param names the workspace's Chinese names of institutions (`filterContextOf`). */
  constructor(private readonly names?: FilterContext) {}

  private readonly keys = new Map<string, string>();
  private readonly categories = new Map<string, { key: string; label: string; detail: string; known: boolean }>();
  /** By name, then by translation ('' for none): the index's own strings, whose hashes V8 keeps, where a key made per item would be hashed anew each time. */
  private readonly groups = new Map<string, Map<string, InstitutionGroup>>();

  of(value: string): string {
    let key = this.keys.get(value);
    if (key === undefined) {
      key = groupKey(value);
      this.keys.set(value, key);
    }
    return key;
  }

  /** The institution groups of a paper's items, as the Papers view groups them. */
  institutions(paper: PaperSummary): readonly InstitutionGroup[] {
    const items = paper.institutions;
    if (items.length === 0) {
      return NO_GROUPS;
    }
    const groups = new Array<InstitutionGroup>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      let byTranslation = this.groups.get(item.name);
      if (!byTranslation) {
        byTranslation = new Map();
        this.groups.set(item.name, byTranslation);
      }
      const translation = item.translation ?? '';
      let group = byTranslation.get(translation);
      if (!group) {
        group = institutionGroup(item);
        byTranslation.set(translation, group);
      }
      if (group.departmentOnly) {
        // A department named alone is grouped with the rest of its line.
        return namedInstitutionGroups(items, paperKeyOf(paper), this.names);
      }
      // An item named in Chinese only counts for the institution that name is given to, as the Papers view groups it.
      groups[i] = this.names ? this.names.namedGroup(group, item) : group;
    }
    return groups;
  }

  category(code: string): { key: string; label: string; detail: string; known: boolean } {
    let info = this.categories.get(code);
    if (!info) {
      const label = categoryKey(code);
      const category = categoryIgnoringCase(label);
      info = { key: label.toLowerCase(), label, detail: category ? `${category.name} · ${category.nameZh}` : 'not in the arXiv taxonomy · 不在 arXiv 分类体系中', known: category !== undefined };
      this.categories.set(code, info);
    }
    return info;
  }
}

const NO_KEYS: string[] = [];
const NO_GROUPS: InstitutionGroup[] = [];

/** The keys of the values, '' for a value whose key is empty or came earlier in the list. */
function distinctKeys<T>(values: readonly T[], keyOf: (value: T) => string): string[] {
  if (values.length === 0) {
    return NO_KEYS;
  }
  const result = new Array<string>(values.length);
  // A few values (as a paper has) are compared with those before; many (a line of 10,000 hits)
  // go through a set: comparing each with all before took seconds a paper.
  const seen = values.length > 16 ? new Set<string>() : undefined;
  for (let i = 0; i < values.length; i++) {
    const key = keyOf(values[i]);
    if (!key) {
      result[i] = '';
    } else if (seen) {
      result[i] = seen.has(key) ? '' : key;
      seen.add(key);
    } else {
      result[i] = result.indexOf(key) < 0 ? key : '';
    }
  }
  return result;
}

/** Distinct papers per value of one field. */
class Counter {
  private readonly values = new Map<string, { label: string; detail: string; known?: boolean; papers: DistinctCount }>();

  constructor(private readonly field: FilterField) {}

  get size(): number {
    return this.values.size;
  }

  add(key: string, label: string, detail: string, ref: number, known?: boolean): void {
    if (!key) {
      return;
    }
    let value = this.values.get(key);
    if (!value) {
      value = { label: label.trim(), detail: detail.trim(), known, papers: new DistinctCount() };
      this.values.set(key, value);
    } else if (!value.detail && detail.trim()) {
      value.detail = detail.trim();
    }
    value.papers.add(ref);
  }

  countOf(key: string): number {
    return this.values.get(key)?.papers.count ?? 0;
  }

  /** Every value, most papers first, then by label (`compareLabels`, as the Papers view orders its groups). */
  rows(): CountRow[] {
    const rows: CountRow[] = [];
    for (const value of this.values.values()) {
      const row: CountRow = { label: value.label, detail: value.detail, count: value.papers.count, filter: fieldFilter(this.field, value.label) };
      rows.push(value.known === undefined ? row : { ...row, known: value.known });
    }
    return rows.sort((a, b) => b.count - a.count || compareLabels(a.label, b.label));
  }
}

/** The papers of a day, an ISO week or a month. */
interface Period {
  first: string;
  last: string;
  files: number;
  readonly papers: DistinctCount;
  readonly topics: Counter;
  /** The trends' windows only: their keywords. */
  readonly keywords?: Counter;
}

/** How many weeks back the trends' lines go (`TrendRow.series`): their windows are named `0` (the last 7 days) to `7`. */
export const TREND_WEEKS = 8;

/** The period of `name`, made when new; the trends' windows (`withKeywords`) count keywords too. */
function periodFor(periods: Map<string, Period>, name: string, date: string, withKeywords = false): Period {
  let period = periods.get(name);
  if (!period) {
    period = { first: date, last: date, files: 0, papers: new DistinctCount(), topics: new Counter('topic'), keywords: withKeywords ? new Counter('keyword') : undefined };
    periods.set(name, period);
  }
  period.first = date < period.first ? date : period.first;
  period.last = date > period.last ? date : period.last;
  return period;
}

/**
 * The trends of the rows most active lately: the distinct papers of each week going back from the
 * latest date (`windows`, a paper counted once in each however many digests of it there are), of
 * which the last 7 days against the 7 before say whether it rises. The line and the arrow say
 * the same. A row with no paper in those two weeks (of undated digests only, or of long ago) has
 * no trend.
 */
function trendRows(kind: 'topic' | 'keyword', rows: readonly CountRow[], dates: readonly string[], windows: ReadonlyMap<string, Period>, keys: Keys): TrendRow[] {
  // Only whole weeks of dates are compared: dates over less than two weeks leave the 7 days
  // before the last 7 with a part of a week (one day of digests against seven: every row would
  // rise sevenfold), which says nothing (the dashboard says what trends need instead); the line
  // goes back as many whole weeks as the dates span, so its first point is no part of a week either.
  const weeks = dates.length === 0 ? 0 : Math.min(TREND_WEEKS, Math.floor((daysBetween(dates[0], dates[dates.length - 1]) + 1) / 7));
  if (rows.length === 0 || weeks < 2) {
    return [];
  }
  const inWindow = (week: number, key: string): number => {
    const window = windows.get(String(week));
    return (kind === 'topic' ? window?.topics.countOf(key) : window?.keywords?.countOf(key)) ?? 0;
  };
  // The rows with most papers in the two weeks compared (a topic new this week, with no paper
  // before, among them), not those with most of all time; equal ones in the rows' order.
  const active: { row: CountRow; key: string; activity: number }[] = [];
  for (const row of rows) {
    const key = keys.of(row.label);
    const activity = inWindow(0, key) + inWindow(1, key);
    if (activity > 0) active.push({ row, key, activity });
  }
  active.sort((a, b) => b.activity - a.activity);
  const trends: TrendRow[] = [];
  for (const { row, key } of active.slice(0, MAX_TRENDS)) {
    const series: number[] = [];
    for (let week = weeks - 1; week >= 0; week--) series.push(inWindow(week, key));
    const recent = series[series.length - 1];
    const previous = series[series.length - 2];
    trends.push({ kind, label: row.label, filter: row.filter, series, recent, previous, rising: recent > previous });
  }
  return trends;
}

function periodRows(field: 'week' | 'month', periods: ReadonlyMap<string, Period>): PeriodRow[] {
  return [...periods.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, period]) => {
      const topics = period.topics.rows();
      return {
        period: name,
        first: period.first,
        last: period.last,
        count: period.papers.count,
        // Only the row without a topic has an empty label (a topic's key is never empty).
        topics: topics.slice(0, PERIOD_TOPICS).map((row) => ({ ...row, ...(row.label === '' ? { label: NO_TOPIC, noTopic: true as const } : {}), filter: `${fieldFilter(field, name)} ${row.filter}` })),
        topicCount: topics.length,
        filter: fieldFilter(field, name),
      };
    });
}

function emptyStatistics(uri: string | undefined): DigestStatistics {
  return {
    uri,
    paperCount: 0,
    entryCount: 0,
    fileCount: 0,
    undatedFiles: 0,
    topics: [],
    keywords: [],
    categories: [],
    institutions: [],
    totals: { topics: 0, keywords: 0, categories: 0, institutions: 0 },
    dates: [],
    trends: [],
    weeks: [],
    months: [],
  };
}
