/**
 * The names one digest file uses, counted: institutions with their spellings and translations,
 * the Chinese forms of authors given on `机构` lines, topics, keywords and category codes.
 *
 * The workspace index keeps these per file (`FileSummary.terms`), and `WorkspaceTerms` sums them
 * over the workspace for completion, references, rename and the consistency rules, so that none
 * of those has to parse a file again.
 */
import type { DigestDocument, Entry } from './model';
import { foldedKey } from './features/entries';
import { internalised, keep } from './keptStrings';
import { RecentMap } from './recentMap';
import { notAnInstitutionKind } from './institutionNames';

/** How often each written form is used. */
export type Counts = Map<string, number>;

/** An institution of one file: its spellings, its translations and the papers naming it. */
export interface InstitutionTerm {
  /** The English name as written, by how often (`Kyoto University` → 3). */
  readonly names: Counts;
  /** The translations in `（…）` as written, by how often (`京都大学` → 2, `京大` → 1). */
  readonly translations: Counts;
  /** The entry indices of the papers that name it, in order, each once. */
  readonly papers: number[];
}

/** An author named with a Chinese form on a `机构` line of the form `A, B（甲、乙）`. */
export interface AuthorTerm {
  /** The English name as written, by how often. */
  readonly names: Counts;
  /** The Chinese forms, by how often. */
  readonly forms: Counts;
}

/** What `fileTerms` finds in one file. */
export interface FileTerms {
  /** Institutions by `termKey` of the English name. */
  readonly institutions: Map<string, InstitutionTerm>;
  /** Authors with a Chinese form, by `termKey` of the English name. */
  readonly authors: Map<string, AuthorTerm>;
  /** Topics as written, by how many papers. */
  readonly topics: Counts;
  /** Keywords by `termKey`, with their written forms by how often. */
  readonly keywords: Map<string, Counts>;
  /** Category codes as written, by how often. */
  readonly categories: Counts;
}

/**
 * The key under which two names are the same: compatibility-folded, lower-cased, white space
 * collapsed and trimmed (`foldedKey`). Institutions, authors and keywords are compared by it.
 *
 * @example termKey(' Kyoto  UNIVERSITY') // 'kyoto university'
 */
export function termKey(text: string): string {
  return foldedKey(text);
}

/** Adds `amount` to the count of `text`; drops it at zero. */
export function addCount(counts: Counts, text: string, amount = 1): void {
  const next = (counts.get(text) ?? 0) + amount;
  if (next > 0) {
    counts.set(text, next);
  } else {
    counts.delete(text);
  }
}

/** The written forms by how often, most used first, ties by text. */
export function rankedCounts(counts: Counts): { text: string; count: number }[] {
  return [...counts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/** The most used form, ties by text; undefined when there is none. */
export function mostUsed(counts: Counts): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const [text, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && text < best)) {
      best = text;
      bestCount = count;
    }
  }
  return best;
}

/** The names of one entry, keyed, kept with the entry: an edit elsewhere leaves them as they are. */
export interface EntryNames {
  /** The `机构` items with a name, by their index on the line. */
  readonly institutions: readonly { readonly item: number; readonly key: string; readonly name: string; readonly translation?: string }[];
  /** Authors with a Chinese form on a `机构` line that lists authors, by their index there. */
  readonly authors: readonly { readonly pair: number; readonly key: string; readonly name: string; readonly form: string }[];
  readonly topic: string;
  readonly keywords: readonly { readonly key: string; readonly text: string }[];
  readonly categories: readonly string[];
}

const ENTRY_NAMES = new WeakMap<Entry, EntryNames>();

/**
 * The names an entry uses, computed once per entry object.
 *
 * @example entryNames(entry).institutions[0] // { item: 0, key: 'kyoto university', name: 'Kyoto University', translation: '京都大学' }
 */
export function entryNames(entry: Entry): EntryNames {
  let names = ENTRY_NAMES.get(entry);
  if (!names) {
    names = computeEntryNames(entry);
    ENTRY_NAMES.set(entry, names);
  }
  return names;
}

/**
 * A name as kept with an entry: an internalised copy (V8's string table), for short names too (V8
 * copies those anew for each entry, and the same categories, topics and keywords come back in
 * every entry). V8's string table holds them weakly: a name no entry keeps any more is collected.
 */
function kept(text: string): string {
  if (text.length === 0) {
    return '';
  }
  // The names come back in entry after entry: the copies made last are looked up first, which
  // is ten times faster than internalising again.
  const known = recentlyKept.get(text);
  if (known !== undefined) {
    return known;
  }
  const result = internalised(text);
  return recentlyKept.remember(result, result);
}

/** The names `kept` made last (each its own key), at most 4,096 of at most 200 characters. */
const recentlyKept = new RecentMap<string>(4096, 200);

/**
 * `kept(termKey(name))` of a name as `kept` gives it: the keys of the names seen last are looked
 * up (a kept name's hash is known), not worked out again for every entry that names them.
 */
function keyOfKept(name: string): string {
  const known = recentKeys.get(name);
  if (known !== undefined) {
    return known;
  }
  return recentKeys.remember(name, kept(termKey(name)));
}

/** The keys `keyOfKept` worked out last, by name, as many as `recentlyKept` holds. */
const recentKeys = new RecentMap<string>(4096, 200);


/** One empty list for every entry without names of a kind (never changed: the lists are read-only). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * A read-only list of names as kept with entries: the shared empty list, or one list for the
 * entries whose lists of a kind are equal (`signature` tells them apart), made with `make`
 * (exactly its length) the first time. Digests name the same institutions, keywords and
 * categories entry after entry: a 10,000-paper digest kept 30,000 lists and 40,000 small objects
 * in them, most of them equal.
 */
function sharedNames<T>(lists: RecentMap<readonly T[]>, signature: string, list: T[]): readonly T[] {
  if (list.length === 0) {
    return NONE;
  }
  return lists.get(signature) ?? lists.remember(signature, list.slice());
}

/** `text` as part of a signature: its length first, so that no two lists of texts have the same one. */
function signed(text: string): string {
  return text.length + ':' + text;
}

/** The lists and the names objects `sharedNames` made last, by signature (bounded: names of few characters repeat, long ones rarely). */
const recentInstitutions = new RecentMap<readonly EntryNames['institutions'][number][]>(4096, 400);
const recentAuthors = new RecentMap<readonly EntryNames['authors'][number][]>(4096, 400);
const recentKeywords = new RecentMap<readonly EntryNames['keywords'][number][]>(4096, 400);
const recentCategories = new RecentMap<readonly string[]>(4096, 400);
const recentNames = new RecentMap<EntryNames>(4096, 1000);

/** Forgets the lists and names objects shared so far (tests: names worked out as if for the first time). */
export function forgetSharedNames(): void {
  for (const recent of [recentInstitutions, recentAuthors, recentKeywords, recentCategories, recentNames]) recent.clear();
}

/**
 * The names of an entry as kept with it, for as long as the entry lives (across edits elsewhere,
 * when the text they were cut from is gone): copies (`keep`), equal names shared, equal lists
 * and equal names objects shared by the entries that have them (`sharedNames`; read-only).
 */
function computeEntryNames(entry: Entry): EntryNames {
  const institutions: { item: number; key: string; name: string; translation?: string }[] = [];
  const authors: { pair: number; key: string; name: string; form: string }[] = [];
  let institutionsSigned = '';
  let authorsSigned = '';
  const field = entry.institutions;
  if (field) {
    const pairs = field.authorPairs;
    if (pairs) {
      pairs.forEach((pair, index) => {
        const name = kept(pair.english.text);
        const form = pair.chinese?.text;
        const key = keyOfKept(name);
        if (key && form) {
          const keptForm = kept(form);
          authors.push({ pair: index, key, name, form: keptForm });
          authorsSigned += index + ',' + signed(name) + signed(keptForm);
        }
      });
    } else {
      field.items.forEach((item, index) => {
        // A tag or a category code on the line is reported, not counted as an institution.
        if (item.name.text.length === 0 || notAnInstitutionKind(item.name.text)) {
          return;
        }
        const name = kept(item.name.text);
        const key = keyOfKept(name);
        if (key) {
          const translation = item.translation?.text.trim();
          if (translation) {
            const keptTranslation = kept(translation);
            institutions.push({ item: index, key, name, translation: keptTranslation });
            institutionsSigned += index + ',' + signed(name) + signed(keptTranslation);
          } else {
            institutions.push({ item: index, key, name });
            institutionsSigned += index + ',' + signed(name) + '-';
          }
        }
      });
    }
  }
  const hits = entry.topicHits;
  const keywords: { key: string; text: string }[] = [];
  const categories: string[] = [];
  let keywordsSigned = '';
  let categoriesSigned = '';
  if (hits) {
    // A keyword written again in the paper's hits (`reasoning(abstract)；reasoning(title)`) is
    // one of its keywords once: a line of 50,000 hits of one keyword keeps one name, not 50,000.
    let seen: Set<string> | undefined;
    for (const hit of hits.hits) {
      const text = kept(hit.keyword.text);
      const key = keyOfKept(text);
      if (key) {
        // A few keywords are compared in turn; past them a set tells (a line of 50,000 distinct ones).
        if (seen ? seen.has(text) : keywords.some((each) => each.text === text)) {
          continue;
        }
        if (!seen && keywords.length >= 8) seen = new Set(keywords.map((each) => each.text));
        seen?.add(text);
        keywords.push({ key, text });
        keywordsSigned += signed(text);
      }
    }
    for (const category of hits.categories) {
      if (category.text) {
        const code = kept(category.text);
        categories.push(code);
        categoriesSigned += signed(code);
      }
    }
  }
  const topic = kept(hits?.topic.text ?? '');
  // The key of a name is worked out from the name alone (`keyOfKept`): equal names, equal lists.
  const signature = signed(institutionsSigned) + signed(authorsSigned) + signed(keywordsSigned) + signed(categoriesSigned) + topic;
  const known = recentNames.get(signature);
  if (known !== undefined) {
    return known;
  }
  const names: EntryNames = {
    institutions: sharedNames(recentInstitutions, institutionsSigned, institutions),
    authors: sharedNames(recentAuthors, authorsSigned, authors),
    topic,
    keywords: sharedNames(recentKeywords, keywordsSigned, keywords),
    categories: sharedNames(recentCategories, categoriesSigned, categories),
  };
  return recentNames.remember(signature, names);
}

/**
 * Counts the names a digest uses.
 *
 * @example
 * const terms = fileTerms(parseDigest(text));
 * terms.institutions.get('kyoto university')?.translations // Map { '京都大学' => 1 }
 */
export function fileTerms(doc: DigestDocument): FileTerms {
  const terms: FileTerms = { institutions: new Map(), authors: new Map(), topics: new Map(), keywords: new Map(), categories: new Map() };
  for (const entry of doc.entries) {
    addEntry(terms, entry.index, entryNames(entry));
  }
  return terms;
}

/** What `summaryTerms` needs of a paper: its names as the workspace index summarises them. */
export interface SummarisedNames {
  readonly entryIndex: number;
  /** The `机构` items with a name (none on a line that lists authors), translations as written. */
  readonly institutions: readonly { readonly name: string; readonly translation?: string }[];
  /** The authors a `机构` line names with a Chinese form. */
  readonly authorsZh: readonly { readonly name: string; readonly nameZh: string }[];
  readonly topic: string;
  /** The keywords of the hits, empty ones left out. */
  readonly keywords: readonly string[];
  /** The category codes, empty ones left out. */
  readonly categories: readonly string[];
}

/**
 * `fileTerms` of a document worked out from the summaries of its papers (workspaceIndex.ts),
 * which hold the same names: equal to `fileTerms(doc)`, without the document.
 *
 * @example
 * summaryTerms(summariseDigest(uri, doc, 'disk').papers) // deep-equals fileTerms(doc)
 */
export function summaryTerms(papers: readonly SummarisedNames[]): FileTerms {
  const terms: FileTerms = { institutions: new Map(), authors: new Map(), topics: new Map(), keywords: new Map(), categories: new Map() };
  // One names object for every paper in turn: addEntry keeps none of its lists.
  const institutions: { item: number; key: string; name: string; translation?: string }[] = [];
  const authors: { pair: number; key: string; name: string; form: string }[] = [];
  const keywords: { key: string; text: string }[] = [];
  const names = { institutions, authors, topic: '', keywords, categories: [] as readonly string[] };
  for (const paper of papers) {
    institutions.length = 0;
    authors.length = 0;
    keywords.length = 0;
    // As computeEntryNames: names without a key are not counted, translations trimmed.
    paper.institutions.forEach((institution, item) => {
      const key = keyOfKept(institution.name);
      if (key) {
        const translation = institution.translation?.trim();
        institutions.push(translation ? { item, key, name: institution.name, translation } : { item, key, name: institution.name });
      }
    });
    paper.authorsZh.forEach((pair, index) => {
      const key = keyOfKept(pair.name);
      if (key) {
        authors.push({ pair: index, key, name: pair.name, form: pair.nameZh });
      }
    });
    for (const text of paper.keywords) {
      const key = keyOfKept(text);
      if (key) {
        keywords.push({ key, text });
      }
    }
    names.topic = paper.topic;
    names.categories = paper.categories;
    addEntry(terms, paper.entryIndex, names);
  }
  return terms;
}

/**
 * The counts of a file after some of its entries changed: `terms` (not changed) with the names
 * of each changed entry taken out and its new names counted in, at the same entry index. Equal
 * to `fileTerms` of the changed document, but for the order the maps hold their keys in; linear
 * in the names the file uses and the changed entries, not in its entries.
 *
 * @example
 * // entry 7 of the document was edited:
 * reviseTerms(terms, [{ index: 7, before: namesBefore, after: entryNames(model.entries[7]) }])
 */
export function reviseTerms(terms: FileTerms, changes: readonly { readonly index: number; readonly before: EntryNames; readonly after: EntryNames }[]): FileTerms {
  const revised = copyTerms(terms);
  for (const { index, before } of changes) {
    removeEntry(revised, index, before);
  }
  for (const { index, after } of changes) {
    addEntry(revised, index, after);
  }
  return revised;
}

function copyTerms(terms: FileTerms): FileTerms {
  const institutions = new Map<string, InstitutionTerm>();
  for (const [key, each] of terms.institutions) {
    institutions.set(key, { names: new Map(each.names), translations: new Map(each.translations), papers: each.papers.slice() });
  }
  const authors = new Map<string, AuthorTerm>();
  for (const [key, each] of terms.authors) {
    authors.set(key, { names: new Map(each.names), forms: new Map(each.forms) });
  }
  const keywords = new Map<string, Counts>();
  for (const [key, forms] of terms.keywords) {
    keywords.set(key, new Map(forms));
  }
  return { institutions, authors, topics: new Map(terms.topics), keywords, categories: new Map(terms.categories) };
}

/** Takes one use of `text` out of the counts; drops it at zero. */
function uncount(counts: Counts, text: string): void {
  addCount(counts, text, -1);
}

/** The reverse of `addEntry`: the names of entry `index` no longer counted. */
function removeEntry(terms: FileTerms, index: number, names: EntryNames): void {
  for (const { key, name, form } of names.authors) {
    const author = terms.authors.get(key);
    if (!author) continue;
    uncount(author.names, name);
    uncount(author.forms, form);
    if (author.names.size === 0 && author.forms.size === 0) terms.authors.delete(key);
  }
  for (const { key, name, translation } of names.institutions) {
    const institution = terms.institutions.get(key);
    if (!institution) continue;
    uncount(institution.names, name);
    if (translation) uncount(institution.translations, translation);
    // The paper is listed once however many of its items name the institution.
    const at = sortedIndexOf(institution.papers, index);
    if (at >= 0) institution.papers.splice(at, 1);
    if (institution.names.size === 0) terms.institutions.delete(key);
  }
  if (names.topic) uncount(terms.topics, names.topic);
  for (const { key, text } of names.keywords) {
    const forms = terms.keywords.get(key);
    if (!forms) continue;
    uncount(forms, text);
    if (forms.size === 0) terms.keywords.delete(key);
  }
  for (const code of names.categories) uncount(terms.categories, code);
}

/** Where `value` is in an ascending list, or -1. */
function sortedIndexOf(list: readonly number[], value: number): number {
  const low = lowerBound(list, value);
  return low < list.length && list[low] === value ? low : -1;
}

/** The first place in an ascending list whose number is not below `value` (the list's length if none is). */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Puts `value` into an ascending list of distinct numbers, where it belongs, unless it is there. */
function insertSorted(list: number[], value: number): void {
  // The common case of a whole file counted in order: at the end.
  if (list.length === 0 || list[list.length - 1] < value) {
    list.push(value);
    return;
  }
  const low = lowerBound(list, value);
  if (list[low] !== value) list.splice(low, 0, value);
}

/**
 * `addCount` of one more use, the text kept as a copy (keptStrings.ts) when it is new: the index
 * keeps these counts after the document's text is gone.
 */
function countKept(counts: Counts, text: string): void {
  const count = counts.get(text);
  counts.set(count === undefined ? keep(text) : text, (count ?? 0) + 1);
}

/** Counts an entry's names; names and keys new to the file are kept as copies. */
function addEntry(terms: FileTerms, index: number, names: EntryNames): void {
  for (const { key, name, form } of names.authors) {
    let author = terms.authors.get(key);
    if (!author) {
      author = { names: new Map(), forms: new Map() };
      terms.authors.set(keep(key), author);
    }
    countKept(author.names, name);
    countKept(author.forms, form);
  }
  for (const { key, name, translation } of names.institutions) {
    let institution = terms.institutions.get(key);
    if (!institution) {
      institution = { names: new Map(), translations: new Map(), papers: [] };
      terms.institutions.set(keep(key), institution);
    }
    countKept(institution.names, name);
    if (translation) {
      countKept(institution.translations, translation);
    }
    insertSorted(institution.papers, index);
  }
  if (names.topic) {
    countKept(terms.topics, names.topic);
  }
  for (const { key, text } of names.keywords) {
    let forms = terms.keywords.get(key);
    if (!forms) {
      forms = new Map();
      terms.keywords.set(keep(key), forms);
    }
    countKept(forms, text);
  }
  for (const code of names.categories) {
    countKept(terms.categories, code);
  }
}
