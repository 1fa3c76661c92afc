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
import { addDays, digestDateOf, isoWeekOf, monthOf } from '../digestDates';
import { categoryKey, fieldFilter, FilterField, groupKey } from '../paperFilter';
import { categoryIgnoringCase } from '../taxonomy';
import type { FileSummary, PaperSummary, WorkspaceIndex } from '../workspaceIndex';

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
  /** Papers per date, in the order of `dates`. */
  readonly series: readonly number[];
  /** Papers in the last seven days up to the latest date. */
  readonly recent: number;
  /** Papers in the seven days before those. */
  readonly previous: number;
  /** Whether it rose this week: more papers than the week before. */
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
  readonly topics: readonly CountRow[];
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
/** The label of the papers of a period without a topic. */
const NO_TOPIC = '(no topic)';
/** Topics listed per period of a roll-up. */
const PERIOD_TOPICS = 8;

/**
 * The statistics of the workspace index, or of one of its files.
 *
 * @example
 * const stats = digestStatistics(index);
 * stats.topics[0]      // { label: '数学推理', detail: '', count: 61, filter: 'topic:数学推理' }
 * stats.dates.at(-1)   // { date: '2026-05-03', count: 30, files: 1, filter: 'date:2026-05-03' }
 */
export function digestStatistics(index: WorkspaceIndex, options: { readonly uri?: string } = {}, token: Cancellation = NEVER_CANCELLED): DigestStatistics {
  const files: readonly FileSummary[] = options.uri ? [index.file(options.uri)].filter((file): file is FileSummary => file !== undefined) : index.files();
  const topics = new Counter('topic');
  const keywords = new Counter('keyword');
  const categories = new Counter('category');
  const institutions = new Counter('institution');
  const byDate = new Map<string, { papers: Set<string>; files: number; topics: Map<string, Set<string>>; keywords: Map<string, Set<string>> }>();
  const identities = new Set<string>();
  let entryCount = 0;
  let undatedFiles = 0;
  let seen = 0;
  for (const file of files) {
    const date = digestDateOf(file.uri);
    let day = date === undefined ? undefined : byDate.get(date);
    if (date === undefined) {
      undatedFiles++;
    } else if (!day) {
      day = { papers: new Set(), files: 0, topics: new Map(), keywords: new Map() };
      byDate.set(date, day);
    }
    if (day) {
      day.files++;
    }
    for (const paper of file.papers) {
      if ((++seen & 4095) === 0 && token.isCancellationRequested) {
        return emptyStatistics(options.uri);
      }
      entryCount++;
      const id = identityOf(paper);
      identities.add(id);
      const topic = paper.topic.trim();
      if (topic) {
        topics.add(groupKey(topic), topic, '', id);
      }
      for (const keyword of paper.keywords) {
        keywords.add(groupKey(keyword), keyword.trim(), '', id);
      }
      for (const code of paper.categories) {
        const category = categoryIgnoringCase(code.trim());
        const canonical = categoryKey(code);
        categories.add(canonical.toLowerCase(), canonical, category ? `${category.name} · ${category.nameZh}` : 'not in the arXiv taxonomy · 不在 arXiv 分类体系中', id, category !== undefined);
      }
      for (const institution of paper.institutions) {
        institutions.add(groupKey(institution.name), institution.name.trim(), institution.translation?.trim() ?? '', id);
      }
      if (day) {
        day.papers.add(id);
        if (topic) {
          addTo(day.topics, groupKey(topic), id);
        }
        for (const keyword of paper.keywords) {
          addTo(day.keywords, groupKey(keyword), id);
        }
      }
    }
  }

  const dates = [...byDate.keys()].sort();
  const datePoints: DatePoint[] = dates.map((date) => {
    const day = byDate.get(date)!;
    return { date, count: day.papers.size, files: day.files, filter: fieldFilter('date', date) };
  });
  const topicRows = topics.rows();
  const keywordRows = keywords.rows();
  const trends = [
    ...trendRows('topic', topics, topicRows, dates, (date) => byDate.get(date)!.topics),
    ...trendRows('keyword', keywords, keywordRows, dates, (date) => byDate.get(date)!.keywords),
  ].sort((a, b) => Number(b.rising) - Number(a.rising) || b.recent - b.previous - (a.recent - a.previous));

  return {
    uri: options.uri,
    paperCount: identities.size,
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
    weeks: periodRows('week', files, isoWeekOf),
    months: periodRows('month', files, monthOf),
  };
}

/** What tells papers apart: the English title key, else the file and the paper's key there. */
function identityOf(paper: PaperSummary): string {
  return paper.titleKey || `${paper.uri}#${paper.key}`;
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(id);
}

/** Distinct papers per value of one field. */
class Counter {
  private readonly values = new Map<string, { label: string; detail: string; known?: boolean; papers: Set<string> }>();

  constructor(private readonly field: FilterField) {}

  get size(): number {
    return this.values.size;
  }

  add(key: string, label: string, detail: string, id: string, known?: boolean): void {
    if (!key) {
      return;
    }
    let value = this.values.get(key);
    if (!value) {
      value = { label, detail, known, papers: new Set() };
      this.values.set(key, value);
    } else if (!value.detail && detail) {
      value.detail = detail;
    }
    value.papers.add(id);
  }

  /** Every value, most papers first, then by label. */
  rows(): CountRow[] {
    const rows: CountRow[] = [];
    for (const value of this.values.values()) {
      const row: CountRow = { label: value.label, detail: value.detail, count: value.papers.size, filter: fieldFilter(this.field, value.label) };
      rows.push(value.known === undefined ? row : { ...row, known: value.known });
    }
    return rows.sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }
}

function trendRows(kind: 'topic' | 'keyword', counter: Counter, rows: readonly CountRow[], dates: readonly string[], perDay: (date: string) => Map<string, Set<string>>): TrendRow[] {
  if (dates.length === 0 || counter.size === 0) {
    return [];
  }
  const latest = dates[dates.length - 1];
  const weekStart = addDays(latest, -6);
  const previousStart = addDays(latest, -13);
  return rows.slice(0, MAX_TRENDS).map((row) => {
    const key = groupKey(row.label);
    const series = dates.map((date) => perDay(date).get(key)?.size ?? 0);
    let recent = 0;
    let previous = 0;
    dates.forEach((date, i) => {
      if (date >= weekStart) {
        recent += series[i];
      } else if (date >= previousStart) {
        previous += series[i];
      }
    });
    return { kind, label: row.label, filter: row.filter, series, recent, previous, rising: recent > previous };
  });
}

function periodRows(field: 'week' | 'month', files: readonly FileSummary[], periodOf: (date: string) => string): PeriodRow[] {
  const periods = new Map<string, { first: string; last: string; papers: Set<string>; topics: Counter }>();
  for (const file of files) {
    const date = digestDateOf(file.uri);
    if (date === undefined) {
      continue;
    }
    const name = periodOf(date);
    let period = periods.get(name);
    if (!period) {
      period = { first: date, last: date, papers: new Set(), topics: new Counter('topic') };
      periods.set(name, period);
    }
    period.first = date < period.first ? date : period.first;
    period.last = date > period.last ? date : period.last;
    for (const paper of file.papers) {
      const id = identityOf(paper);
      period.papers.add(id);
      const topic = paper.topic.trim();
      period.topics.add(groupKey(topic) || '\u0000', topic || NO_TOPIC, '', id);
    }
  }
  return [...periods.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, period]) => ({
      period: name,
      first: period.first,
      last: period.last,
      count: period.papers.size,
      topics: period.topics.rows().slice(0, PERIOD_TOPICS).map((row) => ({ ...row, filter: row.label === NO_TOPIC ? fieldFilter(field, name) : `${fieldFilter(field, name)} ${row.filter}` })),
      filter: fieldFilter(field, name),
    }));
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
