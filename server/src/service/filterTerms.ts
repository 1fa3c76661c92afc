/**
 * The terms of a Papers filter (`topic:数学推理 week:2026-W18`), and what is wrong with one that
 * cannot keep any paper however the workspace changes: a week, month or day that does not exist
 * (`week:2026-W99`, `month:2026-13`, `date:2026-02-30`), or more terms than are read. The command
 * line refuses such a filter and the Filter Papers box says why, instead of showing no papers
 * and no reason. Small and without the index, so that the extension's client can use it too.
 */
import { isCalendarDate, isoWeekOf } from './digestDates';

/** The fields a filter can name. */
export const FILTER_FIELDS = ['topic', 'keyword', 'category', 'institution', 'author', 'date', 'week', 'month', 'file'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** At most this many `field:value` terms are read; a filter of more keeps no paper. */
export const MAX_FILTER_TERMS = 32;

/**
 * White space before the next field name: where one term ends. Only a whole run is tried (not
 * one starting inside a run), so a long run of spaces costs its length, not its square.
 */
const FIELD_START = new RegExp(`(?<!\\s)\\s+(?=(?:${FILTER_FIELDS.join('|')}):)`, 'i');
const FIELD_NAME = /^([a-z]+):/i;

/**
 * The `field:value` terms of a filter, or undefined when it is plain text. Terms are separated
 * by white space before the next field name, so values may hold spaces:
 * `week:2026-W18 keyword:math reasoning` is two terms; a quoted value is one term whatever it
 * holds: `institution:"Lab keyword:beta" topic:x`. Reading stops after `MAX_FILTER_TERMS + 1`.
 *
 * @example fieldTerms('week:2026-W18 keyword:math reasoning') // [['week', '2026-W18'], ['keyword', 'math reasoning']]
 */
export function fieldTerms(filter: string): [FilterField, string][] | undefined {
  const terms: [FilterField, string][] = [];
  let rest = filter;
  while (rest.length > 0) {
    const name = FIELD_NAME.exec(rest);
    const field = name?.[1].toLowerCase();
    if (!name || !field || !(FILTER_FIELDS as readonly string[]).includes(field)) {
      return undefined;
    }
    rest = rest.slice(name[0].length);
    const quoted = /^\s*"((?:[^"\\]|\\.)*)"(?=\s|$)/s.exec(rest);
    if (quoted) {
      // As written, white space around it too (a file name may start with a space).
      terms.push([field as FilterField, quoted[1].replace(/\\(.)/gs, '$1')]);
      rest = rest.slice(quoted[0].length).trimStart();
      continue;
    }
    const next = FIELD_START.exec(rest);
    const value = next ? rest.slice(0, next.index) : rest;
    terms.push([field as FilterField, value.trim()]);
    rest = next ? rest.slice(next.index + next[0].length) : '';
    if (terms.length > MAX_FILTER_TERMS) {
      return terms;
    }
  }
  return terms;
}

/** The day a `date:` value names as `YYYY-MM-DD` (full-width digits read as ASCII); '' for papers of undated digests. */
export function filterDate(value: string): string {
  return value.normalize('NFKC').trim();
}

/** The week a `week:` value names as `YYYY-Www` (`2026-w18` is `2026-W18`). */
export function filterWeek(value: string): string {
  return value.normalize('NFKC').trim().toUpperCase();
}

/** The month a `month:` value names as `YYYY-MM`. */
export function filterMonth(value: string): string {
  return value.normalize('NFKC').trim();
}

/** What makes a filter keep no paper whatever the workspace holds. */
export type FilterProblem =
  /** More than `MAX_FILTER_TERMS` terms. */
  | { readonly kind: 'tooManyTerms'; readonly max: number }
  /** A `date:`, `week:` or `month:` value that names no day, week or month a digest's name can carry; `example` shows the form. */
  | { readonly kind: 'notADate'; readonly field: 'date' | 'week' | 'month'; readonly value: string; readonly example: string };

const EXAMPLES = { date: '2026-05-01', week: '2026-W18', month: '2026-05' } as const;

/**
 * The first reason a filter can keep no paper, or undefined when it may keep some. An empty
 * `date:` value is fine: it keeps the papers of digests whose name carries no day.
 *
 * @example
 * filterProblem('week:2026-W99') // { kind: 'notADate', field: 'week', value: '2026-W99', example: '2026-W18' }
 * filterProblem('week:2026-W53') // undefined: 2026 has 53 weeks
 * filterProblem('week:2027-W53') // { kind: 'notADate', field: 'week', … }: 2027 has 52
 * filterProblem('topic:数学推理') // undefined
 */
export function filterProblem(filter: string): FilterProblem | undefined {
  const terms = fieldTerms(filter.trim());
  if (!terms) {
    return undefined;
  }
  if (terms.length > MAX_FILTER_TERMS) {
    return { kind: 'tooManyTerms', max: MAX_FILTER_TERMS };
  }
  for (const [field, value] of terms) {
    if (field !== 'date' && field !== 'week' && field !== 'month') {
      continue;
    }
    const valid = field === 'date' ? isDateValue(filterDate(value)) : field === 'week' ? isWeekValue(filterWeek(value)) : isMonthValue(filterMonth(value));
    if (!valid) {
      return { kind: 'notADate', field, value: value.trim(), example: EXAMPLES[field] };
    }
  }
  return undefined;
}

function isDateValue(date: string): boolean {
  return date === '' || isCalendarDate(date);
}

/**
 * A week some day a digest's name can carry (1900-01-01 to 2999-12-31) falls in: week 53 only in
 * a year that has one, and the first week of 3000, which holds the last days of 2999.
 */
function isWeekValue(week: string): boolean {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) {
    return week === '';
  }
  const year = Number(match[1]);
  const number = Number(match[2]);
  if (year === 3000) {
    return week === isoWeekOf('2999-12-31');
  }
  if (year < 1900 || year > 2999 || number < 1 || number > 53) {
    return false;
  }
  // 28 December is always in the last week of its year.
  return number < 53 || isoWeekOf(`${match[1]}-12-28`) === week;
}

function isMonthValue(month: string): boolean {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) {
    return month === '';
  }
  const year = Number(match[1]);
  const number = Number(match[2]);
  return year >= 1900 && year <= 2999 && number >= 1 && number <= 12;
}
