/**
 * The names one digest file uses, counted: institutions with their spellings and translations,
 * the Chinese forms of authors given on `机构` lines, topics, keywords and category codes.
 *
 * The workspace index keeps these per file (`FileSummary.terms`), and `WorkspaceTerms` sums them
 * over the workspace for completion, references, rename and the consistency rules, so that none
 * of those has to parse a file again.
 */
import type { DigestDocument, Entry } from './model';
import { titleKey } from './features/entries';

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
 * collapsed and trimmed (`titleKey`). Institutions, authors and keywords are compared by it.
 *
 * @example termKey(' Kyoto  UNIVERSITY') // 'kyoto university'
 */
export function termKey(text: string): string {
  return titleKey(text);
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
    addEntry(terms, entry);
  }
  return terms;
}

function addEntry(terms: FileTerms, entry: Entry): void {
  const institutions = entry.institutions;
  if (institutions) {
    const pairs = institutions.authorPairs;
    if (pairs) {
      for (const pair of pairs) {
        const name = pair.english.text;
        const form = pair.chinese?.text;
        const key = termKey(name);
        if (!key || !form) {
          continue;
        }
        let author = terms.authors.get(key);
        if (!author) {
          author = { names: new Map(), forms: new Map() };
          terms.authors.set(key, author);
        }
        addCount(author.names, name);
        addCount(author.forms, form);
      }
    } else {
      for (const item of institutions.items) {
        const name = item.name.text;
        const key = termKey(name);
        if (!key) {
          continue;
        }
        let institution = terms.institutions.get(key);
        if (!institution) {
          institution = { names: new Map(), translations: new Map(), papers: [] };
          terms.institutions.set(key, institution);
        }
        addCount(institution.names, name);
        const translation = item.translation?.text.trim();
        if (translation) {
          addCount(institution.translations, translation);
        }
        if (institution.papers[institution.papers.length - 1] !== entry.index) {
          institution.papers.push(entry.index);
        }
      }
    }
  }
  const hits = entry.topicHits;
  if (hits) {
    if (hits.topic.text) {
      addCount(terms.topics, hits.topic.text);
    }
    for (const hit of hits.hits) {
      const keyword = hit.keyword.text;
      const key = termKey(keyword);
      if (!key) {
        continue;
      }
      let forms = terms.keywords.get(key);
      if (!forms) {
        forms = new Map();
        terms.keywords.set(key, forms);
      }
      addCount(forms, keyword);
    }
    for (const category of hits.categories) {
      if (category.text) {
        addCount(terms.categories, category.text);
      }
    }
  }
}
