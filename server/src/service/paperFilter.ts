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
import { fieldTerms, FILTER_FIELDS, FilterField, filterDate, filterMonth, filterWeek, MAX_FILTER_TERMS } from './filterTerms';
import { decodeUriText, hasCjk } from './text';
import { categoryIgnoringCase } from './taxonomy';
import { InstitutionGroup, institutionGroup, institutionGroups, InstitutionName } from './institutionGroup';
import type { PaperSummary, WorkspaceIndex } from './workspaceIndex';
import { foldForSearch, searchIncludes } from './workspaceIndex';

export { FILTER_FIELDS, MAX_FILTER_TERMS };
export type { FilterField };

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

/**
 * The filter text that keeps the papers of one field value, e.g. `topic:数学推理`. A value that
 * would read as more than one term (`Lab keyword:beta`, document text) or that starts with a
 * quote is quoted, `institution:"Lab keyword:beta"`, with `\\` and `\"` inside.
 */
export function fieldFilter(field: FilterField, value: string): string {
  return NEEDS_QUOTES.test(value) ? `${field}:"${value.replace(/[\\"]/g, (c) => '\\' + c)}"` : `${field}:${value}`;
}

/**
 * Compiles a filter; undefined for an empty one (everything passes).
 *
 * @example
 * const keep = compilePaperFilter('category:cs.cl');
 * keep?.(paper) // true when one of the paper's categories is cs.CL
 */
export function compilePaperFilter(filter: string, context?: FilterContext): PaperPredicate | undefined {
  const trimmed = filter.trim();
  if (!trimmed) {
    return undefined;
  }
  const terms = fieldTerms(trimmed);
  if (terms) {
    if (terms.length > MAX_FILTER_TERMS) {
      // Thousands of terms (a pasted text, a crafted value) would hold the server up per paper.
      return () => false;
    }
    // The values of the papers' fields, folded once per filter, not once per term and paper.
    const keyOf = memoized(groupKey);
    const predicates = terms.map(([field, value]) => fieldPredicate(field, value, keyOf, context));
    return predicates.length === 1 ? predicates[0] : (paper) => predicates.every((test) => test(paper));
  }
  const needle = foldForSearch(trimmed);
  return (paper) => searchIncludes(paper, needle);
}

/** A value `fieldFilter` quotes: one with a field name after white space, starting with a quote, or starting or ending with white space. */
const NEEDS_QUOTES = new RegExp(`^\\s*"|\\s(?:${FILTER_FIELDS.join('|')}):|^\\s|\\s$`, 'i');

/** A function of strings that remembers its answers (at most 50,000, then starts again). */
function memoized(compute: (text: string) => string): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    let result = known.get(text);
    if (result === undefined) {
      if (known.size >= 50_000) {
        known.clear();
      }
      result = compute(text);
      known.set(text, result);
    }
    return result;
  };
}

/**
 * What a filter may know of the workspace: the institutions a Chinese name names. An
 * `institution:` value is an institution's name, English or Chinese: `institution:复旦大学` keeps
 * the papers `institution:Fudan University` keeps, its departments included, when some paper
 * names `Fudan University（复旦大学）`.
 */
export interface FilterContext {
  /** The group keys (`institutionGroup`) of the institutions whose own Chinese name folds to `key`. */
  institutionsNamed(key: string): ReadonlySet<string> | undefined;
  /**
   * The group an item named in Chinese only (`机构 * 复旦大学`) belongs to: the one institution some
   * paper gives that Chinese name to (`Fudan University（复旦大学）`), else its own (`namedGroup`).
   */
  namedGroup(group: InstitutionGroup, item: InstitutionName): InstitutionGroup;
  /** The URIs of the digests whose file name (`digestFileName`) is `name`. */
  filesNamed(name: string): readonly string[] | undefined;
}

const CONTEXTS = new WeakMap<WorkspaceIndex, { readonly generation: number; readonly context: FilterContext }>();

/**
 * The filter context of an index's papers, worked out once per generation of the index.
 *
 * @example compilePaperFilter('institution:复旦大学', filterContextOf(index))
 */
export function filterContextOf(index: WorkspaceIndex): FilterContext {
  const known = CONTEXTS.get(index);
  if (known && known.generation === index.generation) {
    return known.context;
  }
  // Worked out when first asked (an institution filter or grouping, the statistics): a tree by
  // topic, the Papers view's first level after the scan, never waits for it.
  let names: InstitutionNames | undefined;
  let files: Map<string, string[]> | undefined;
  const context: FilterContext = {
    filesNamed: (name) => {
      if (!files) {
        files = new Map();
        for (const file of index.files()) {
          const each = digestFileName(file.uri);
          const list = files.get(each);
          if (list) list.push(file.uri);
          else files.set(each, [file.uri]);
        }
      }
      return files.get(name);
    },
    institutionsNamed: (key) => (names ??= institutionNamesOf(index)).byName.get(key),
    namedGroup: (group, item) => {
      if (item.translation || group.departmentOnly || !hasCjk(item.name)) {
        return group;
      }
      const known = (names ??= institutionNamesOf(index));
      const keys = known.byName.get(group.key);
      return keys?.size === 1 ? known.groups.get([...keys][0]) ?? group : group;
    },
  };
  CONTEXTS.set(index, { generation: index.generation, context });
  return context;
}

/** The institutions by their own Chinese names, and each one's group, by its key. */
interface InstitutionNames {
  readonly byName: ReadonlyMap<string, ReadonlySet<string>>;
  readonly groups: ReadonlyMap<string, InstitutionGroup>;
}

function institutionNamesOf(index: WorkspaceIndex): InstitutionNames {
  const byName = new Map<string, Set<string>>();
  const groups = new Map<string, InstitutionGroup>();
  for (const file of index.files()) {
    for (const paper of file.papers) {
      for (const item of paper.institutions) {
        // Only an item that is its institution (not a department of one) gives its Chinese name.
        const group = groupOf(item);
        if (group.translation) {
          const name = groupKey(group.translation);
          let keys = byName.get(name);
          if (!keys) {
            keys = new Set();
            byName.set(name, keys);
          }
          keys.add(group.key);
          if (!groups.has(group.key)) {
            groups.set(group.key, group);
          }
        }
      }
    }
  }
  return { byName, groups };
}

/**
 * The groups of a paper's institution items (`institutionGroups`), an item named in Chinese
 * only in the group its name is given to (`FilterContext.namedGroup`), as the Papers view and the
 * statistics group them.
 */
export function namedInstitutionGroups(items: readonly InstitutionName[], paperKey: string, context: FilterContext | undefined): InstitutionGroup[] {
  const groups = institutionGroups(items, paperKey);
  return context ? groups.map((group, i) => context.namedGroup(group, items[i])) : groups;
}

/** The group of an institution item, once per item object (the index shares them within a file). */
function groupOf(item: InstitutionName): InstitutionGroup {
  let group = GROUPS.get(item);
  if (!group) {
    group = institutionGroup(item);
    GROUPS.set(item, group);
  }
  return group;
}

const GROUPS = new WeakMap<object, InstitutionGroup>();

function fieldPredicate(field: FilterField, value: string, keyOf: (text: string) => string = groupKey, context?: FilterContext): PaperPredicate {
  const key = groupKey(value);
  if (!key) {
    return missingPredicate(field);
  }
  switch (field) {
    case 'topic':
      return (paper) => keyOf(paper.topic) === key;
    case 'keyword':
      return (paper) => paper.keywords.some((keyword) => keyOf(keyword) === key);
    case 'category': {
      const code = categoryKey(value).toLowerCase();
      return (paper) => paper.categories.some((each) => categoryKey(each).toLowerCase() === code);
    }
    case 'institution': {
      // By its name or translation, by the institution it is grouped under (a department under
      // its university), or under an institution that the value names in Chinese.
      const named = context?.institutionsNamed(key);
      return (paper) =>
        paper.institutions.some((each) => {
          if (keyOf(each.name) === key || (each.translation !== undefined && keyOf(each.translation) === key)) {
            return true;
          }
          const own = groupOf(each);
          const group = context ? context.namedGroup(own, each).key : own.key;
          return group === key || own.key === key || (named !== undefined && named.has(group));
        });
    }
    case 'author':
      return (paper) => paper.authors.some((author) => keyOf(author) === key);
    case 'date': {
      // Full-width digits and letters as ASCII (`２０２６-05-01`, `２０２６-Ｗ18`).
      const date = filterDate(value);
      return (paper) => digestDateOf(paper.uri) === date;
    }
    case 'week': {
      const week = filterWeek(value);
      return datePredicate((date) => isoWeekOf(date) === week);
    }
    case 'month': {
      const month = filterMonth(value);
      return datePredicate((date) => monthOf(date) === month);
    }
    case 'file':
      // The name as written (a quoted value keeps its white space, `file:" a.digest"`), or, for
      // digests of the same name in several folders, the end of the path (`file:a/2026-05-01.digest`).
      return (paper) => {
        const name = digestFileName(paper.uri);
        if (name === value) {
          return true;
        }
        const path = value.includes('/') ? digestPath(paper.uri) : '';
        return path === value || path.endsWith('/' + value);
      };
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

/** The decoded path of a digest's URI, e.g. `/w/llm news/2026-05-01.digest`. */
export function digestPath(uri: string): string {
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return decodeUriText(path);
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
