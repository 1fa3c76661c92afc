/**
 * The names the whole workspace uses, summed from the per-file counts the workspace index keeps
 * (`FileSummary.terms`) and kept current as files change: each change of the index subtracts the
 * old counts of the files it names and adds their new ones.
 *
 * Pure: it reads no files and knows no LSP. Completion, references, rename and the consistency
 * rules ask it which institutions, translations, authors' Chinese forms, topics, keywords and
 * categories are used, how often, and in which files.
 */
import type { Disposable, WorkspaceIndex } from './workspaceIndex';
import { addCount, AuthorTerm, Counts, FileTerms, InstitutionTerm } from './terms';

/** An institution over the workspace. */
export interface InstitutionStats {
  /** The English name as written, by how often. */
  readonly names: Counts;
  /** Its translations, by how often. */
  readonly translations: Counts;
  /** How many papers name it. */
  papers: number;
}

/**
 * The workspace's names, counted.
 *
 * @example
 * const terms = new WorkspaceTerms(index); // follows the index from now on
 * terms.institutions.get('kyoto university')?.translations // Map { '京都大学' => 12, '京大' => 1 }
 */
export class WorkspaceTerms {
  private readonly byUri = new Map<string, FileTerms>();
  readonly institutions = new Map<string, InstitutionStats>();
  readonly authors = new Map<string, AuthorTerm>();
  readonly topics: Counts = new Map();
  readonly keywords = new Map<string, Counts>();
  readonly categories: Counts = new Map();
  private subscription: Disposable | undefined;
  private translationsVersionValue = 0;

  /** With an index: takes its files now and follows its changes. */
  constructor(index?: WorkspaceIndex) {
    if (index) {
      for (const file of index.files()) {
        this.set(file.uri, file.terms);
      }
      this.subscription = index.onDidChange((change) => {
        for (const uri of change.uris) {
          this.set(uri, index.file(uri)?.terms);
        }
      });
    }
  }

  /**
   * Increases whenever a file's translations of institutions or Chinese forms of authors change
   * (not when only other text changes): the consistency diagnostics of open documents may be
   * stale then.
   */
  get translationsVersion(): number {
    return this.translationsVersionValue;
  }

  /** Sets (or, with undefined, forgets) the counts of one file. */
  set(uri: string, terms: FileTerms | undefined): void {
    const previous = this.byUri.get(uri);
    if (previous === terms) {
      return;
    }
    if (!sameForms(previous, terms)) {
      this.translationsVersionValue++;
    }
    if (previous) {
      this.add(previous, -1);
      this.byUri.delete(uri);
    }
    if (terms) {
      this.add(terms, 1);
      this.byUri.set(uri, terms);
    }
  }

  /** The counts of one file, as last set. */
  file(uri: string): FileTerms | undefined {
    return this.byUri.get(uri);
  }

  /** Every file with counts, and its counts, in no particular order. */
  files(): IterableIterator<[string, FileTerms]> {
    return this.byUri.entries();
  }

  /**
   * The translations of an institution, as if the file `uri` held `terms` instead of what the
   * index has for it: the consistency rules judge an open document's current text.
   *
   * @example terms.translationsWith('fudan university', uri, fileTerms(doc)) // Map { '复旦大学' => 5, '复旦' => 1 }
   */
  translationsWith(key: string, uri: string | undefined, terms: FileTerms | undefined): Counts {
    return this.overlay(
      this.institutions.get(key)?.translations,
      uri === undefined ? undefined : this.byUri.get(uri)?.institutions.get(key)?.translations,
      terms?.institutions.get(key)?.translations,
    );
  }

  /** The Chinese forms of an author, with the same overlay as `translationsWith`. */
  authorFormsWith(key: string, uri: string | undefined, terms: FileTerms | undefined): Counts {
    return this.overlay(this.authors.get(key)?.forms, uri === undefined ? undefined : this.byUri.get(uri)?.authors.get(key)?.forms, terms?.authors.get(key)?.forms);
  }

  /** Stops following the index. */
  dispose(): void {
    this.subscription?.dispose();
    this.subscription = undefined;
  }

  private overlay(global: Counts | undefined, indexed: Counts | undefined, current: Counts | undefined): Counts {
    const result: Counts = new Map(global ?? []);
    for (const [text, count] of indexed ?? []) {
      addCount(result, text, -count);
    }
    for (const [text, count] of current ?? []) {
      addCount(result, text, count);
    }
    return result;
  }

  private add(terms: FileTerms, sign: 1 | -1): void {
    for (const [key, institution] of terms.institutions) {
      let stats = this.institutions.get(key);
      if (!stats) {
        stats = { names: new Map(), translations: new Map(), papers: 0 };
        this.institutions.set(key, stats);
      }
      addAll(stats.names, institution.names, sign);
      addAll(stats.translations, institution.translations, sign);
      stats.papers += sign * institution.papers.length;
      if (stats.papers <= 0 && stats.names.size === 0) {
        this.institutions.delete(key);
      }
    }
    for (const [key, author] of terms.authors) {
      let stats = this.authors.get(key);
      if (!stats) {
        stats = { names: new Map(), forms: new Map() };
        this.authors.set(key, stats);
      }
      addAll(stats.names, author.names, sign);
      addAll(stats.forms, author.forms, sign);
      if (stats.names.size === 0 && stats.forms.size === 0) {
        this.authors.delete(key);
      }
    }
    addAll(this.topics, terms.topics, sign);
    for (const [key, forms] of terms.keywords) {
      let stats = this.keywords.get(key);
      if (!stats) {
        stats = new Map();
        this.keywords.set(key, stats);
      }
      addAll(stats, forms, sign);
      if (stats.size === 0) {
        this.keywords.delete(key);
      }
    }
    addAll(this.categories, terms.categories, sign);
  }
}

/** Whether two files' counts have the same translations and authors' Chinese forms. */
function sameForms(a: FileTerms | undefined, b: FileTerms | undefined): boolean {
  const institutions = (terms: FileTerms | undefined) => [...(terms?.institutions ?? [])].filter(([, each]) => each.translations.size > 0).map(([key, each]) => [key, each.translations] as const);
  const authors = (terms: FileTerms | undefined) => [...(terms?.authors ?? [])].map(([key, each]) => [key, each.forms] as const);
  return sameTable(institutions(a), institutions(b)) && sameTable(authors(a), authors(b));
}

function sameTable(a: readonly (readonly [string, Counts])[], b: readonly (readonly [string, Counts])[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  const byKey = new Map(b);
  return a.every(([key, counts]) => {
    const other = byKey.get(key);
    return other !== undefined && other.size === counts.size && [...counts].every(([text, count]) => other.get(text) === count);
  });
}

function addAll(into: Counts, from: Counts, sign: 1 | -1): void {
  for (const [text, count] of from) {
    addCount(into, text, sign * count);
  }
}

/** The papers of a file that name an institution, by entry index. */
export function papersNaming(terms: FileTerms, key: string): readonly number[] {
  return (terms.institutions.get(key) as InstitutionTerm | undefined)?.papers ?? [];
}
