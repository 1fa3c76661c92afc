/**
 * The Papers filter: plain text is looked for in a paper's titles, authors and institutions
 * (ignoring case); a text of the form `field:value` keeps the papers whose field has that value:
 *
 * | filter | keeps papers |
 * |---|---|
 * | `topic:数学推理` | with that `专题命中` topic |
 * | `keyword:math reasoning` | with that keyword hit |
 * | `category:cs.CL` | with that category (any case; `CS.cl` is `cs.CL`) |
 * | `institution:Fudan University` | naming that institution, by English name or translation, or a department of it |
 * | `author:Mei Tanaka` | with that author |
 * | `date:2026-05-01`, `week:2026-W18`, `month:2026-05` | of a digest of that day, ISO week or month (the date in the file name) |
 *
 * An empty value keeps the papers without one: `topic:` those without a topic, `date:` those
 * of digests whose file name carries no date.
 *
 * Several terms keep the papers that pass all of them: `week:2026-W18 topic:数学推理`.
 * Values are compared as the groups of the Papers tree and the statistics compare them: case,
 * compatibility forms and runs of white space folded. The statistics dashboard puts these
 * filters on its bars and points, so a click shows exactly the papers it counted.
 */
import { digestDateOf, isoWeekOf, monthOf } from './digestDates';
import { decodeUriText, hasCjk } from './text';
import { categoryIgnoringCase } from './taxonomy';
import { institutionGroup } from './institutionGroup';
import type { PaperSummary } from './workspaceIndex';
import { foldForSearch, searchIncludes } from './workspaceIndex';

/** The fields a filter can name. */
export const FILTER_FIELDS = ['topic', 'keyword', 'category', 'institution', 'author', 'date', 'week', 'month', 'file'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** Whether a paper passes a filter. */
export type PaperPredicate = (paper: PaperSummary) => boolean;

/**
 * A value as groups compare it: folded for search, white space collapsed and trimmed.
 *
 * @example
 * groupKey('  Math   Reasoning ') // 'math reasoning'
 */
export function groupKey(value: string): string {
  return foldForSearch(value).replace(/\s+/g, ' ').trim();
}

/**
 * The canonical spelling of a category code: the taxonomy's when it knows the code, full-width
 * forms read as their ASCII (`ｃｓ．ＳＥ` is `cs.SE`).
 */
export function categoryKey(code: string): string {
  const plain = code.normalize('NFKC').trim();
  return categoryIgnoringCase(plain)?.code ?? plain;
}

/** The filter text that keeps the papers of one field value, e.g. `topic:数学推理`. */
export function fieldFilter(field: FilterField, value: string): string {
  return `${field}:${value}`;
}

/**
 * Compiles a filter; undefined for an empty one (everything passes).
 *
 * @example
 * const keep = compilePaperFilter('category:cs.cl');
 * keep?.(paper) // true when one of the paper's categories is cs.CL
 */
export function compilePaperFilter(filter: string): PaperPredicate | undefined {
  const trimmed = filter.trim();
  if (!trimmed) {
    return undefined;
  }
  const terms = fieldTerms(trimmed);
  if (terms) {
    const predicates = terms.map(([field, value]) => fieldPredicate(field, value));
    return predicates.length === 1 ? predicates[0] : (paper) => predicates.every((test) => test(paper));
  }
  const needle = foldForSearch(trimmed);
  return (paper) => searchIncludes(paper, needle);
}

const FIELD_START = new RegExp(`\\s+(?=(?:${FILTER_FIELDS.join('|')}):)`, 'i');

/**
 * The `field:value` terms of a filter, or undefined when it is plain text. Terms are separated
 * by white space before the next field name, so values may hold spaces:
 * `week:2026-W18 keyword:math reasoning` is two terms.
 */
function fieldTerms(filter: string): [FilterField, string][] | undefined {
  const terms: [FilterField, string][] = [];
  for (const part of filter.split(FIELD_START)) {
    const match = /^([a-z]+):(?:\s*(.*\S))?\s*$/is.exec(part);
    const field = match?.[1].toLowerCase();
    if (!match || !field || !(FILTER_FIELDS as readonly string[]).includes(field)) {
      return undefined;
    }
    terms.push([field as FilterField, match[2] ?? '']);
  }
  return terms;
}

/**
 * Whether an item is a department grouped under its institution (`School of Computer Science,
 * Fudan University` under `Fudan University`, institutionGroup.ts) whose Chinese name starts with
 * the folded Chinese filter, as a Chinese department's name starts with its institution's
 * (`复旦大学计算机学院`): so `institution:复旦大学` keeps the papers `institution:Fudan University` keeps.
 */
function departmentNamedIn(item: { readonly name: string; readonly translation?: string }, key: string): boolean {
  // The filter names an institution (`复旦大学`), not a part of a name (`复旦`).
  if (!item.translation || !hasCjk(key) || !CHINESE_INSTITUTION.test(key)) {
    return false;
  }
  return groupKey(item.translation).startsWith(key) && institutionGroup(item).key !== groupKey(item.name);
}

/** How the Chinese name of an institution ends: a university, an academy, an institute, a laboratory, a company. */
const CHINESE_INSTITUTION = /(?:大学|学院|科学院|研究院|研究所|实验室|研究中心|公司|集团)$/;

function fieldPredicate(field: FilterField, value: string): PaperPredicate {
  const key = groupKey(value);
  if (!key) {
    return missingPredicate(field);
  }
  switch (field) {
    case 'topic':
      return (paper) => groupKey(paper.topic) === key;
    case 'keyword':
      return (paper) => paper.keywords.some((keyword) => groupKey(keyword) === key);
    case 'category': {
      const code = categoryKey(value).toLowerCase();
      return (paper) => paper.categories.some((each) => categoryKey(each).toLowerCase() === code);
    }
    case 'institution':
      return (paper) => paper.institutions.some((each) => groupKey(each.name) === key || (each.translation !== undefined && groupKey(each.translation) === key) || institutionGroup(each).key === key || departmentNamedIn(each, key));
    case 'author':
      return (paper) => paper.authors.some((author) => groupKey(author) === key);
    case 'date':
      return (paper) => digestDateOf(paper.uri) === value.trim();
    case 'week':
      return datePredicate((date) => isoWeekOf(date) === value.trim().toUpperCase());
    case 'month':
      return datePredicate((date) => monthOf(date) === value.trim());
    case 'file':
      return (paper) => digestFileName(paper.uri) === value.trim();
  }
}

/**
 * The name of a digest's file as a `file:` filter names it: the last segment of its URI,
 * decoded.
 *
 * @example digestFileName('file:///w/llm%20news/2026-05-01.digest') // '2026-05-01.digest'
 */
export function digestFileName(uri: string): string {
  return decodeUriText(uri.slice(uri.lastIndexOf('/') + 1));
}

/** The papers without a value of the field (`topic:` with nothing after it), as the Papers view's `(no topic)` group holds them. */
function missingPredicate(field: FilterField): PaperPredicate {
  const blank = (value: string | undefined): boolean => value === undefined || groupKey(value) === '';
  switch (field) {
    case 'topic':
      return (paper) => blank(paper.topic);
    case 'keyword':
      return (paper) => paper.keywords.every(blank);
    case 'category':
      return (paper) => paper.categories.every(blank);
    case 'institution':
      return (paper) => paper.institutions.every((each) => blank(each.name) && blank(each.translation));
    case 'author':
      return (paper) => paper.authors.every(blank);
    case 'date':
    case 'week':
    case 'month':
      return datePredicate(() => false, true);
    case 'file':
      // Every paper is in a file with a name.
      return () => false;
  }
}

/** A predicate on the date of the paper's digest, asked once per file. */
function datePredicate(test: (date: string) => boolean, undated = false): PaperPredicate {
  const byUri = new Map<string, boolean>();
  return (paper) => {
    let passes = byUri.get(paper.uri);
    if (passes === undefined) {
      const date = digestDateOf(paper.uri);
      passes = date === undefined ? undated : test(date);
      byUri.set(paper.uri, passes);
    }
    return passes;
  };
}
