/**
 * Interest ranking: the reader's keywords, topics, categories, authors and institutions, each
 * with a weight, matched against a paper in English and Chinese, give the paper a score and
 * the reasons for it.
 *
 * - keywords: in the English or Chinese title (weight ×2), else in the summary or the topic
 *   hits (×1);
 * - topics: the digest sub-topic of `专题命中`;
 * - categories: a code (`cs.CL`, or `cs.*` for an archive), or the category's English or
 *   Chinese name from the taxonomy;
 * - authors: an author's name, or the Chinese form the `机构` line gives;
 * - institutions: the English name or its `（…）` translation.
 *
 * Latin terms match whole words (so `RL` does not match `world`), ignoring case and width;
 * terms with Chinese characters match as substrings.
 */
import { message, MessageRef } from '../cliMessages';
import { categoryIgnoringCase } from '../taxonomy';
import { compatibilityForm } from '../text';
import type { PaperSummary } from '../workspaceIndex';

/** One interest as the setting or interests.json gives it. */
export type InterestInput = string | { readonly term?: unknown; readonly weight?: unknown };

/** The interests as the setting gives them (see `InterestsSettings` in the protocol). */
export interface InterestsInput {
  readonly keywords?: readonly InterestInput[];
  readonly topics?: readonly InterestInput[];
  readonly categories?: readonly InterestInput[];
  readonly authors?: readonly InterestInput[];
  readonly institutions?: readonly InterestInput[];
  readonly hideBelow?: number;
}

export type InterestKind = 'keyword' | 'topic' | 'category' | 'author' | 'institution';

const KINDS: readonly [keyof InterestsInput, InterestKind][] = [
  ['keywords', 'keyword'],
  ['topics', 'topic'],
  ['categories', 'category'],
  ['authors', 'author'],
  ['institutions', 'institution'],
];

/** At most this many interests are used (the rest is ignored). */
export const MAX_INTERESTS = 500;

/**
 * The largest weight, either way: scores stay finite numbers (weights of 1e308 summed to
 * Infinity and NaN, and the ranking and `hideBelow` meant nothing).
 */
export const MAX_WEIGHT = 1000;

/** One interest, ready to match. */
interface Interest {
  readonly kind: InterestKind;
  /** As written, for the reasons. */
  readonly term: string;
  readonly weight: number;
  /** Folded. */
  readonly folded: string;
  /**
   * For Latin terms of several words: the folded term with its runs of white space as one space,
   * found whole-word (`containsWord`) in a text whose runs of white space are one space too
   * (`spacedText`): as a regular expression with `\s+` between the words would find it, in time
   * linear in the text (such an expression took seconds a paper for 500 terms of many words over
   * summaries of 90,000 characters).
   */
  readonly spaced?: string;
  /** For Latin terms of one word: matched by `indexOf` and a look at the characters around. */
  readonly single?: boolean;
}

/** Interests ready to score papers with. */
export interface Interests {
  readonly list: readonly Interest[];
  readonly hideBelow?: number;
  /** Problems found in the input (unknown fields, bad weights), one message each. */
  readonly problems: readonly MessageRef[];
}

export const NO_INTERESTS: Interests = { list: [], problems: [] };

/** A paper's score. */
export interface PaperScore {
  readonly score: number;
  readonly reasons: readonly string[];
}

const ZERO: PaperScore = { score: 0, reasons: [] };

/**
 * Reads interests from the setting's or the file's value; anything malformed is skipped and
 * named in `problems`.
 *
 * @example
 * parseInterests({ keywords: ['reasoning', { term: 'reinforcement learning', weight: 2 }], institutions: ['清华大学'] })
 */
export function parseInterests(value: unknown): Interests {
  if (value === undefined || value === null) {
    return NO_INTERESTS;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { list: [], problems: [message('interestsNotObject')] };
  }
  const input = value as Record<string, unknown>;
  const list: Interest[] = [];
  const problems: MessageRef[] = [];
  fields: for (const [field, kind] of KINDS) {
    const items = input[field];
    if (items === undefined) {
      continue;
    }
    if (!Array.isArray(items)) {
      problems.push(message('interestsNotList', { field }));
      continue;
    }
    for (const item of items) {
      const term = typeof item === 'string' ? item : item && typeof item === 'object' ? (item as { term?: unknown }).term : undefined;
      const weightValue = item && typeof item === 'object' ? (item as { weight?: unknown }).weight : undefined;
      if (typeof term !== 'string' || term.trim() === '') {
        problems.push(message('interestsNoTerm', { field }));
        continue;
      }
      if (weightValue !== undefined && (typeof weightValue !== 'number' || !(Math.abs(weightValue) <= MAX_WEIGHT))) {
        problems.push(message('interestsBadWeight', { term: JSON.stringify(term.slice(0, 60)) }));
        continue;
      }
      const folded = fold(term).trim();
      if (kind === 'category' && folded.includes('*') && !ARCHIVE_PATTERN.test(folded)) {
        // `cs.L*`: only a whole archive takes a `*`; as a code or a name it could match nothing.
        problems.push(message('interestsBadCategory', { term: JSON.stringify(term.slice(0, 60)) }));
        continue;
      }
      if (list.length >= MAX_INTERESTS) {
        problems.push(message('interestsTooMany', { max: MAX_INTERESTS }));
        break fields;
      }
      if (item && typeof item === 'object') {
        for (const key of Object.keys(item)) {
          if (key !== 'term' && key !== 'weight') problems.push(message('interestsUnknownItemField', { field, key: key.slice(0, 60) }));
        }
      }
      // Cut to 200 characters, and trimmed again: a term cut after a space ended with one, which
      // no place followed by a letter matched (every place of it in a long summary was tried).
      list.push(makeInterest(kind, term.trim().slice(0, 200).trim(), (weightValue as number | undefined) ?? 1));
    }
  }
  for (const key of Object.keys(input)) {
    if (key !== 'hideBelow' && !KINDS.some(([field]) => field === key)) {
      problems.push(message('interestsUnknownField', { field: key }));
    }
  }
  let hideBelow: number | undefined;
  if (input.hideBelow !== undefined) {
    if (typeof input.hideBelow === 'number' && Number.isFinite(input.hideBelow)) {
      hideBelow = input.hideBelow;
    } else {
      problems.push(message('interestsHideBelow'));
    }
  }
  return hideBelow === undefined ? { list, problems } : { list, hideBelow, problems };
}

/**
 * The interests of the text of an `interests.json` (`path` names it): a byte order mark is
 * skipped; text that is not JSON is a problem of the file (`fileProblem`), and so is JSON that is
 * not an object (`null` too); the problems of its content are the interests' own.
 *
 * @example
 * interestsFromFileText('\uFEFF{"keywords":["reasoning"]}', '/w/.paper-digest/interests.json').interests.list.length // 1
 */
export function interestsFromFileText(text: string, path: string): { readonly interests: Interests; readonly fileProblem?: MessageRef } {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { interests: NO_INTERESTS, fileProblem: message('interestsFileNotJson', { path, detail: error instanceof Error ? error.message : String(error) }) };
  }
  if (value === null) {
    return { interests: { list: [], problems: [message('interestsNotObject')] } };
  }
  return { interests: parseInterests(value) };
}

/** Whether the interests say anything (an empty setting falls back to interests.json). */
export function hasInterests(interests: Interests): boolean {
  return interests.list.length > 0 || interests.hideBelow !== undefined;
}

/** A category interest for a whole archive: `cs.*`, `physics.*`, `q-bio.*`. */
const ARCHIVE_PATTERN = /^[a-z][a-z-]*\.\*$/i;

function makeInterest(kind: InterestKind, term: string, weight: number): Interest {
  const folded = fold(term);
  const latin = !/[\u3000-\u9fff\uf900-\ufaff\uac00-\ud7af]/.test(folded);
  if (kind === 'category' || !latin) {
    return { kind, term, weight, folded };
  }
  const spaced = folded.replace(/\s+/g, ' ');
  return spaced.includes(' ') ? { kind, term, weight, folded, spaced } : { kind, term, weight, folded, single: true };
}

function fold(text: string): string {
  // ASCII is its own NFKC form (`compatibilityForm` leaves it as it is): only its case is folded.
  return compatibilityForm(text).toLowerCase();
}

/** The folded texts of a paper, as the interests' terms are matched against them. */
interface FoldedPaper {
  readonly titles: string;
  readonly rest: string;
  readonly topic: string;
  /** Each category: the code as written and its folded code and taxonomy names. */
  readonly categories: readonly { readonly code: string; readonly names: readonly string[] }[];
  readonly authors: readonly string[];
  readonly institutions: readonly string[];
}

/**
 * What the interests' matchers found in a paper, kept per paper summary (`interestScore`): bit
 * `id` of `known` is set once matcher `id` was tried, of `found` when it matched, of `inTitle`
 * when a keyword matched in the titles. The folded texts themselves are not kept: a year of
 * papers held 3 KB of them each (330 MB for 110,000 papers) for as long as the server ran, and
 * they are needed only for a matcher not tried yet (a new term).
 */
interface PaperFindings {
  /** The table of matchers the bits are of (`MatcherTable`). */
  table: MatcherTable;
  known: number;
  found: number;
  inTitle: number;
}

const FINDINGS = new WeakMap<PaperSummary, PaperFindings>();

/**
 * The folded texts of a paper, each folded when a matcher first reads it (a new keyword reads
 * the titles and the rest only): made for the matchers not tried on the paper yet, not kept.
 */
function folded(paper: PaperSummary): FoldedPaper {
  return new LazyFolded(paper);
}

class LazyFolded implements FoldedPaper {
  private titlesText: string | undefined;
  private restText: string | undefined;
  private topicText: string | undefined;
  private categoryNames: FoldedPaper['categories'] | undefined;
  private authorNames: readonly string[] | undefined;
  private institutionNames: readonly string[] | undefined;

  constructor(private readonly paper: PaperSummary) {}

  // Joined by U+0000, which no term matches (a phrase's words match across white space only): a
  // phrase is found within one title, the summary or one keyword, not across two.
  // Each part folded on its own (as folding them joined by U+0000, a starter nothing composes
  // with, gives): the English ones then take the fast way of ASCII.
  get titles(): string {
    return (this.titlesText ??= `${fold(this.paper.englishTitle)}\u0000${fold(this.paper.chineseTitle)}`);
  }

  get rest(): string {
    return (this.restText ??= `${fold(this.paper.summary)}\u0000${this.paper.keywords.map(fold).join('\u0000')}`);
  }

  get topic(): string {
    return (this.topicText ??= fold(this.paper.topic));
  }

  get categories(): FoldedPaper['categories'] {
    return (this.categoryNames ??= this.paper.categories.map((code) => ({ code, names: foldedCategoryNames(code) })));
  }

  get authors(): readonly string[] {
    return (this.authorNames ??= [...this.paper.authors, ...this.paper.authorsZh.map((pair) => pair.nameZh)].map((name) => fold(name).replace(/\s+/g, ' ').trim()));
  }

  get institutions(): readonly string[] {
    return (this.institutionNames ??= this.paper.institutions.flatMap((institution) => (institution.translation ? [fold(institution.name), fold(institution.translation)] : [fold(institution.name)])));
  }
}

/** A category code folded, with its taxonomy's names folded when it is a known one; by the code as written (a few hundred codes). */
const CATEGORY_NAMES = new Map<string, readonly string[]>();

function foldedCategoryNames(code: string): readonly string[] {
  let names = CATEGORY_NAMES.get(code);
  if (!names) {
    const category = categoryIgnoringCase(code);
    names = category ? [fold(code), fold(category.name), fold(category.nameZh)] : [fold(code)];
    // Codes as written in the workspace: bounded by what the digests write, cleared past a size no taxonomy has.
    if (CATEGORY_NAMES.size > 10_000) CATEGORY_NAMES.clear();
    CATEGORY_NAMES.set(code, names);
  }
  return names;
}

function contains(text: string, interest: Interest): boolean {
  if (interest.single) {
    return containsWord(text, interest.folded);
  }
  return interest.spaced !== undefined ? containsWord(spacedText(text), interest.spaced) : text.includes(interest.folded);
}

/** The texts `spacedText` made last (a paper's texts are tried with every term in turn). */
const SPACED = new Map<string, string>();

/** A text with its runs of white space as one space (U+0000, which joins a paper's parts, is no white space). */
function spacedText(text: string): string {
  let spaced = SPACED.get(text);
  if (spaced === undefined) {
    spaced = /[^\S ]| {2}/.test(text) ? text.replace(/\s+/g, ' ') : text;
    if (SPACED.size >= 16) SPACED.clear();
    SPACED.set(text, spaced);
  }
  return spaced;
}

/**
 * A letter or number that continues a Latin term's word: not a Han, kana or Hangul character,
 * which Chinese and Japanese text writes right beside Latin words without a space (`优于PPO和GRPO`
 * names PPO and GRPO).
 */
const LETTER_OR_NUMBER = /^(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}])[\p{L}\p{N}]$/u;

/** Whether `text` has `word` with no letter or number (`LETTER_OR_NUMBER`) right before or after it (as `Interest.word` tests). */
function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isWordCharacterBefore(text, at) && !isWordCharacterAt(text, at + word.length)) {
      return true;
    }
  }
  return false;
}

function isWordCharacterAt(text: string, at: number): boolean {
  if (at >= text.length) {
    return false;
  }
  const code = text.charCodeAt(at);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  // A whole code point (a surrogate pair when it is one).
  return LETTER_OR_NUMBER.test(String.fromCodePoint(text.codePointAt(at)!));
}

function isWordCharacterBefore(text: string, at: number): boolean {
  if (at === 0) {
    return false;
  }
  const code = text.charCodeAt(at - 1);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  const start = code >= 0xdc00 && code <= 0xdfff && at >= 2 ? at - 2 : at - 1;
  return LETTER_OR_NUMBER.test(String.fromCodePoint(text.codePointAt(start)!));
}

/**
 * The score alone, as `scorePaper(interests, paper).score` gives it, without making reasons
 * or closures: what ranking asks of every paper after the interests change.
 *
 * What an interest finds in a paper does not depend on its weight: it is kept per paper for
 * each matcher (an interest's kind and folded term, `matcherIds`), so that after a change of
 * the interests (a weight, a term added) only the matchers not tried before search the paper's
 * texts; the others are sums.
 *
 * @example
 * interestScore(interests, paper) // 3
 */
export function interestScore(interests: Interests, paper: PaperSummary): number {
  const list = interests.list;
  if (list.length === 0) {
    return 0;
  }
  const matchers = matcherIds(interests);
  let score = 0;
  if (!matchers) {
    const texts = folded(paper);
    for (const interest of list) {
      const found = matchOf(texts, interest);
      if (found > 0) score += found * interest.weight;
    }
    return round(score);
  }
  let findings = FINDINGS.get(paper);
  if (!findings || findings.table !== matchers.table) {
    findings = { table: matchers.table, known: 0, found: 0, inTitle: 0 };
    FINDINGS.set(paper, findings);
  }
  const ids = matchers.ids;
  // Folded only when a matcher is tried for the first time on this paper.
  let texts: FoldedPaper | undefined;
  for (let i = 0; i < list.length; i++) {
    const bit = 1 << ids[i];
    if ((findings.known & bit) === 0) {
      texts ??= folded(paper);
      const found = matchOf(texts, list[i]);
      findings.known |= bit;
      if (found > 0) findings.found |= bit;
      if (found > 1) findings.inTitle |= bit;
    }
    if ((findings.found & bit) !== 0) {
      score += ((findings.inTitle & bit) !== 0 ? 2 : 1) * list[i].weight;
    }
  }
  return round(score);
}

/**
 * What an interest finds in a paper, as the points it gives per unit of weight: 2 for a
 * keyword in the titles, 1 for one elsewhere and for any other match, 0 for none.
 */
function matchOf(texts: FoldedPaper, interest: Interest): number {
  switch (interest.kind) {
    case 'keyword':
      return contains(texts.titles, interest) ? 2 : contains(texts.rest, interest) ? 1 : 0;
    case 'topic':
      return texts.topic && contains(texts.topic, interest) ? 1 : 0;
    case 'category':
      return categoryIndex(texts, interest) >= 0 ? 1 : 0;
    case 'author':
      return containingIndex(texts.authors, interest) >= 0 ? 1 : 0;
    case 'institution':
      return containingIndex(texts.institutions, interest) >= 0 ? 1 : 0;
  }
}

/**
 * Matchers by kind and folded term, numbered for the bits a paper keeps its findings in
 * (`FoldedPaper`): at most `MAX_MATCHERS` a table. A table only grows, so that the numbers it
 * gave stay good for the lists that use it. Interests that fit none of the recent tables (with
 * their new terms added) start a new one: the interests of two folders of a workspace, each on
 * its own table, then leave each other's papers' findings alone, and the papers of an edited list
 * keep theirs when the edit left room in the table.
 */
interface MatcherTable {
  readonly ids: Map<string, number>;
}
/** Bits of a small integer (V8 keeps those unboxed). */
const MAX_MATCHERS = 30;
/** The tables a list may join, the newest first. */
const TABLES: MatcherTable[] = [];
const MAX_TABLES = 4;
/** The table and the matcher of each interest, per list; null for a list of more than `MAX_MATCHERS`. */
const LIST_MATCHERS = new WeakMap<Interests, { readonly table: MatcherTable; readonly ids: Uint8Array } | null>();

/** The table and matcher of each of the interests, or undefined when they need more than `MAX_MATCHERS`. */
function matcherIds(interests: Interests): { readonly table: MatcherTable; readonly ids: Uint8Array } | undefined {
  const known = LIST_MATCHERS.get(interests);
  if (known !== undefined) {
    return known ?? undefined;
  }
  const keys = interests.list.map((interest) => `${interest.kind}\u0000${interest.folded}`);
  const distinct = new Set(keys);
  if (distinct.size > MAX_MATCHERS) {
    LIST_MATCHERS.set(interests, null);
    return undefined;
  }
  const missing = (table: MatcherTable): number => {
    let count = 0;
    for (const key of distinct) {
      if (!table.ids.has(key)) count++;
    }
    return count;
  };
  let table = TABLES.find((each) => missing(each) === 0) ?? TABLES.find((each) => each.ids.size + missing(each) <= MAX_MATCHERS);
  if (!table) {
    table = { ids: new Map() };
    TABLES.unshift(table);
    TABLES.length = Math.min(TABLES.length, MAX_TABLES);
  }
  const ids = new Uint8Array(keys.length);
  keys.forEach((key, i) => {
    let id = table.ids.get(key);
    if (id === undefined) {
      id = table.ids.size;
      table.ids.set(key, id);
    }
    ids[i] = id;
  });
  const matchers = { table, ids };
  LIST_MATCHERS.set(interests, matchers);
  return matchers;
}

function containingIndex(names: readonly string[], interest: Interest): number {
  for (let i = 0; i < names.length; i++) {
    if (contains(names[i], interest)) {
      return i;
    }
  }
  return -1;
}

function categoryIndex(texts: FoldedPaper, interest: Interest): number {
  // An archive (`cs.*`) takes its categories (`cs.cl`), and the archive itself where it has no
  // subject classes (`quant-ph.*` takes `quant-ph`).
  const archive = interest.folded.endsWith('.*') ? interest.folded.slice(0, -2) : undefined;
  for (let i = 0; i < texts.categories.length; i++) {
    const names = texts.categories[i].names;
    if (archive !== undefined ? names[0] === archive || names[0].startsWith(archive + '.') : names.includes(interest.folded)) {
      return i;
    }
  }
  return -1;
}

/**
 * The score of a paper and why.
 *
 * @example
 * scorePaper(interests, paper) // { score: 3, reasons: ["keyword 'reasoning' in the title, counted double (+2) · 标题含关键词", 'institution Tsinghua University (+1) · 机构 清华大学'] }
 */
export function scorePaper(interests: Interests, paper: PaperSummary, withReasons = true): PaperScore {
  if (interests.list.length === 0) {
    return ZERO;
  }
  if (!withReasons) {
    return { score: interestScore(interests, paper), reasons: [] };
  }
  const texts = folded(paper);
  let score = 0;
  // Without reasons (ranking alone) no reason text is built: `reasons && ...` below.
  const reasons: string[] | undefined = withReasons ? [] : undefined;
  const add = (points: number, reason: string | undefined, chinese: string): void => {
    score += points;
    // An interest that counts nothing (weight 0, or one that rounds to it) gives no reason (`… (0)`).
    if (reason !== undefined && round(points) !== 0) {
      reasons!.push(`${reason} (${points > 0 ? '+' : ''}${round(points)}) · ${chinese}`);
    }
  };
  for (const interest of interests.list) {
    switch (interest.kind) {
      case 'keyword':
        if (contains(texts.titles, interest)) {
          add(2 * interest.weight, reasons && `keyword '${interest.term}' in the title, counted double`, '标题含关键词');
        } else if (contains(texts.rest, interest)) {
          add(interest.weight, reasons && `keyword '${interest.term}' in the summary or hits`, '总结或命中词含关键词');
        }
        break;
      case 'topic':
        if (texts.topic && contains(texts.topic, interest)) {
          add(interest.weight, reasons && `topic ${paper.topic}`, '专题');
        }
        break;
      case 'category': {
        const index = categoryIndex(texts, interest);
        const match = index >= 0 ? texts.categories[index] : undefined;
        if (match) {
          add(interest.weight, reasons && `category ${match.code}`, '分类');
        }
        break;
      }
      case 'author': {
        const index = texts.authors.findIndex((name) => contains(name, interest));
        if (index >= 0) {
          add(interest.weight, reasons && `author ${index < paper.authors.length ? paper.authors[index] : paper.authorsZh[index - paper.authors.length].nameZh}`, '作者');
        }
        break;
      }
      case 'institution': {
        const index = texts.institutions.findIndex((name) => contains(name, interest));
        if (index >= 0) {
          const institution = reasons && institutionAt(paper, index);
          add(interest.weight, institution && `institution ${institution.name}`, institution?.translation ? `机构 ${institution.translation}` : '机构');
        }
        break;
      }
    }
  }
  return { score: round(score), reasons: reasons ?? [] };
}

function institutionAt(paper: PaperSummary, foldedIndex: number): { name: string; translation?: string } {
  let position = 0;
  for (const institution of paper.institutions) {
    const size = institution.translation ? 2 : 1;
    if (foldedIndex < position + size) {
      return institution;
    }
    position += size;
  }
  return paper.institutions[0];
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Whether the interests hide a paper of this score. */
export function isHidden(interests: Interests, score: number): boolean {
  return interests.hideBelow !== undefined && score <= interests.hideBelow;
}
