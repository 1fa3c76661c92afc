/**
 * The workspace index: a summary of every paper of every digest file the server knows of, kept
 * per file, so that the Papers tree, workspace symbols and cross-file duplicate checks never
 * re-parse a file.
 *
 * The index is pure: it reads no files. Whoever owns the files tells it texts (or models) by
 * URI. Each URI has up to two contents: the one on disk and, while the document is open in the
 * editor, the open one, which wins. Closing the document falls back to the disk content.
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { DigestDocument, Entry } from './model';
import { parseDigest } from './parser';
import { entrySpans, entrySpansAt, entryTitleKey, itemAtLine, paperName, foldedKey } from './features/entries';
import { entryNames, EntryNames, fileTerms, FileTerms, reviseTerms, summaryTerms } from './terms';
import { documentTooLarge, parseWithinLimits } from './limits';
import { keep, keepNarrow, KeptNames } from './keptStrings';
import { notAnInstitutionKind } from './institutionNames';
import { compatibilityForm } from './text';

/** An institution of a paper, as the `机构` line names it. */
export interface InstitutionSummary {
  /** The English name, e.g. `Kyoto University`. */
  readonly name: string;
  /** The name in its `（…）`, e.g. `京都大学`, when there is one. */
  readonly translation?: string;
}

/** What the index keeps of one paper. */
export interface PaperSummary {
  readonly uri: string;
  /** Zero-based index of the entry in its file. */
  readonly entryIndex: number;
  /**
   * Identifies the paper within its file across edits: the title key and how many papers with
   * the same key come before it, e.g. `sparse probes for arithmetic circuits#0`. Inserting or
   * deleting other papers does not change it.
   */
  readonly key: string;
  /** The whole entry. */
  readonly range: Range;
  /** The English title (or, without one, the Chinese title, or the first field). */
  readonly selectionRange: Range;
  /** The English title as written, trimmed; empty when the entry has none. */
  readonly englishTitle: string;
  /** The name the paper goes by: the English title, else the Chinese title, never empty. */
  readonly title: string;
  readonly chineseTitle: string;
  /** `titleKey(englishTitle)`: equal keys are the same paper. Empty without an English title. */
  readonly titleKey: string;
  readonly authors: readonly string[];
  /** Empty when the `机构` line lists authors instead of institutions. */
  readonly institutions: readonly InstitutionSummary[];
  /** The digest sub-topic of `专题命中`, e.g. `数学推理`; empty when missing. */
  readonly topic: string;
  /** The keywords of the hits, as written, empty ones left out. */
  readonly keywords: readonly string[];
  /** The category codes as written. */
  readonly categories: readonly string[];
  /** The `AI总结` text; empty when missing. */
  readonly summary: string;
  /** The hits of `专题命中` with the field each matched in (`abstract`, `title`, ...; '' when missing). */
  readonly hits: readonly { readonly keyword: string; readonly field: string }[];
  /** Authors the `机构` line names with a Chinese form, `A, B（甲、乙）`: the pairs that have one. */
  readonly authorsZh: readonly { readonly name: string; readonly nameZh: string }[];
  /** The `Comments` text; empty when missing. */
  readonly comments: string;
  /** The `Journal ref` text; empty when missing. */
  readonly journalRef: string;
  /**
   * The titles, authors and institutions (names and translations), case-folded, for substring
   * filters (`searchIncludes`): those of them with characters up to U+00FF joined by U+0000,
   * one byte a character, in their order...
   */
  readonly searchNarrow: string;
  /** ...and the others (Chinese titles and names), joined by U+0000 in their order. */
  readonly searchWide: string;
}

/**
 * Whether a folded filter (`foldForSearch`) is in the titles, authors or institutions of a
 * paper, as in their folded texts joined by U+0000.
 *
 * @example
 * searchIncludes(paper, foldForSearch('Kyoto')) // true for a paper of Kyoto University
 */
export function searchIncludes(paper: Pick<PaperSummary, 'searchNarrow' | 'searchWide'>, needle: string): boolean {
  // A filter is found within one title, author or institution (only a filter with U+0000 in it
  // could span two, and only two of the same width).
  return paper.searchNarrow.includes(needle) || paper.searchWide.includes(needle);
}

/** What the index keeps of one file. */
export interface FileSummary {
  readonly uri: string;
  /** The digest's heading, e.g. `大模型推理能力`, when it has one. */
  readonly heading?: string;
  /** The papers in document order. */
  readonly papers: readonly PaperSummary[];
  /** Where the content came from: the file on disk or the open document. */
  readonly source: 'disk' | 'open';
  /** The names the file uses, counted (`terms.ts`), for completion, rename and consistency (of a file on disk, counted when first asked). */
  readonly terms: FileTerms;
}

/** A place in the workspace: a URI and a range in it. */
export interface IndexLocation {
  readonly uri: string;
  readonly range: Range;
}

/** What changed in one update of the index. */
export interface IndexChange {
  /** The index's generation after the change. */
  readonly generation: number;
  /** The files whose papers changed (added, edited, removed or renamed). */
  readonly uris: readonly string[];
  /**
   * Other files whose duplicates changed: they hold a paper whose title was added to or removed
   * from one of `uris`. Their duplicate diagnostics need refreshing.
   */
  readonly affectedUris: readonly string[];
}

export interface Disposable {
  dispose(): void;
}

/** Content the index can be told: the text of a file or its already parsed model. */
export type DigestContent = string | DigestDocument;

/**
 * The index of all digest files of a workspace.
 *
 * @example
 * const index = new WorkspaceIndex();
 * index.update('file:///w/a.digest', textOfA);
 * index.update('file:///w/b.digest', textOfB);
 * index.duplicatesOf(titleKey('Sparse Probes'), 'file:///w/a.digest'); // [{ uri: 'file:///w/b.digest', range }]
 * index.rename('file:///w/b.digest', 'file:///w/c.digest');
 * index.remove('file:///w/a.digest');
 */
export class WorkspaceIndex {
  private readonly disk = new Map<string, FileSummary>();
  private readonly open = new Map<string, FileSummary>();
  /** The effective summary of each URI: the open one, else the disk one. */
  private readonly effective = new Map<string, FileSummary>();
  /** Papers of the effective summaries by title key. */
  /** Papers of the effective summaries by title key: the paper itself while it is the only one. */
  private readonly byTitle = new Map<string, PaperSummary | TitleCopies>();
  /** The title keys that more than one paper has, kept with `byTitle`. */
  private readonly repeated = new Set<string>();
  private readonly listeners = new Set<(change: IndexChange) => void>();
  private readonly diskWhileOpenListeners = new Set<(uri: string) => void>();
  private sorted: FileSummary[] | undefined;
  private generationValue = 0;
  private papers = 0;

  /** Past the limits (limits.ts) only the first part of a text is parsed: it lists no papers anyway. */
  constructor(private readonly parse: (text: string) => DigestDocument = parseWithinLimits) {}

  /** Increases with every change; a tree built at one generation is current until it moves. */
  get generation(): number {
    return this.generationValue;
  }

  /** How many papers the effective summaries hold. */
  get paperCount(): number {
    return this.papers;
  }

  /** Sets the disk content of a file (created or changed on disk). */
  update(uri: string, content: DigestContent): void {
    this.adopt(summariseDigest(uri, this.model(content), 'disk'));
  }

  /**
   * Puts a summary made elsewhere in as it is, as the disk or the open content of its file (by
   * its `source`): what `update` does with the summary it makes, and how an index of the
   * summaries kept between starts is made (keptIndex.ts).
   */
  adopt(summary: FileSummary): void {
    const uri = summary.uri;
    if (summary.source === 'open') {
      this.open.set(uri, summary);
    } else {
      this.disk.set(uri, summary);
      if (this.open.has(uri)) {
        // What the index shows is the open document's: no change of it, but a save.
        for (const listener of this.diskWhileOpenListeners) listener(uri);
        return;
      }
    }
    this.apply([uri], () => this.setEffective(uri, summary));
  }

  /**
   * Sets the content of an open document, which overrides the disk content until closed. After
   * an edit (a model that kept the entries the edit did not touch, incremental.ts) the summary
   * is revised: only the papers whose entries changed or moved are summarised again, and only
   * their names recounted (`reviseOpenSummary`).
   */
  updateOpen(uri: string, content: DigestContent): void {
    const doc = this.model(content);
    const previous = this.open.get(uri);
    const revision = previous && this.effective.get(uri) === previous ? reviseOpenSummary(previous, doc) : undefined;
    if (previous && revision) {
      this.open.set(uri, revision.summary);
      this.applyRevision(uri, previous, revision);
      return;
    }
    const summary = summariseDigest(uri, doc, 'open');
    this.open.set(uri, summary);
    this.apply([uri], () => this.setEffective(uri, summary));
  }

  /** Drops the open document's content; the disk content, if any, applies again. */
  closeOpen(uri: string): void {
    if (!this.open.delete(uri)) {
      return;
    }
    this.apply([uri], () => this.setEffective(uri, this.disk.get(uri)));
  }

  /**
   * Forgets the disk content of a file, or of every file under a folder URI. An open document
   * stays indexed until it is closed.
   */
  remove(uri: string): void {
    this.removeMany([uri]);
  }

  /**
   * `remove` for many file or folder URIs in one change (a burst of deletions): linear in the
   * indexed files and the URIs given.
   */
  removeMany(removed: readonly string[]): void {
    const uris = removed.length === 1 ? this.urisAt(this.disk, removed[0]) : this.urisUnderAny(this.disk, removed);
    if (uris.length === 0) {
      return;
    }
    this.apply(uris, () => {
      for (const each of uris) {
        this.disk.delete(each);
        if (!this.open.has(each)) {
          this.setEffective(each, undefined);
        }
      }
    });
  }

  /** Forgets a file, or every file under a folder, both disk and open contents. */
  removeAll(uri: string): void {
    const uris = [...new Set([...this.urisAt(this.disk, uri), ...this.urisAt(this.open, uri)])];
    if (uris.length === 0) {
      return;
    }
    this.apply(uris, () => {
      for (const each of uris) {
        this.disk.delete(each);
        this.open.delete(each);
        this.setEffective(each, undefined);
      }
    });
  }

  /**
   * Moves a file, or every file under a folder, to a new URI: its papers keep their content
   * and their keys and change only their URI.
   */
  rename(oldUri: string, newUri: string): void {
    if (oldUri === newUri) {
      return;
    }
    const moves = new Map<string, string>();
    for (const uri of [...this.urisAt(this.disk, oldUri), ...this.urisAt(this.open, oldUri)]) {
      moves.set(uri, newUri + uri.slice(oldUri.length));
    }
    if (moves.size === 0) {
      return;
    }
    const touched = [...moves.keys(), ...moves.values()];
    this.apply(touched, () => {
      for (const [from, to] of moves) {
        for (const contents of [this.disk, this.open]) {
          const summary = contents.get(from);
          contents.delete(from);
          if (summary) {
            contents.set(to, moveSummary(summary, to));
          }
        }
        this.setEffective(from, undefined);
        this.setEffective(to, this.open.get(to) ?? this.disk.get(to));
      }
    });
  }

  /** The effective summary of a file. */
  file(uri: string): FileSummary | undefined {
    return this.effective.get(uri);
  }

  /** The URIs with disk content, in no particular order. */
  diskUris(): string[] {
    return [...this.disk.keys()];
  }

  /** The disk content of a file, whether or not it is open. */
  diskFile(uri: string): FileSummary | undefined {
    return this.disk.get(uri);
  }

  /** Whether the file has disk content in the index. */
  hasOnDisk(uri: string): boolean {
    return this.disk.has(uri);
  }

  /** Every indexed file, sorted by URI. */
  files(): readonly FileSummary[] {
    if (!this.sorted) {
      this.sorted = [...this.effective.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    }
    return this.sorted;
  }

  /**
   * The title keys that more than one paper of the workspace has (in one file or several): a
   * small set, for passes over every paper that must tell repeated papers apart.
   */
  repeatedTitleKeys(): ReadonlySet<string> {
    return this.repeated;
  }

  /** Every paper with the title key, in any file, in no particular order. */
  papersWithTitle(key: string): readonly PaperSummary[] {
    const copies = key ? this.byTitle.get(key) : undefined;
    if (!copies) {
      return [];
    }
    if (!(copies instanceof TitleCopies)) {
      return [copies];
    }
    copies.all ??= copies.lists.flat();
    return copies.all;
  }

  /**
   * Where else a paper with the same English title is: the title ranges of papers with this
   * title key in files other than `exceptUri` (all files when it is omitted), sorted by URI
   * and line. This is the lookup the duplicate diagnostics take as `duplicatesElsewhere`.
   *
   * @example
   * index.duplicatesOf(titleKey(entry.englishTitle.value.text), document.uri)
   * // [{ uri: 'file:///w/b.digest', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 58 } } }]
   */
  duplicatesOf(key: string, exceptUri?: string): IndexLocation[] {
    const papers = this.papersWithTitle(key);
    if (papers.length === 0 || (papers.length === 1 && papers[0].uri === exceptUri)) {
      // Most titles: none, or only the file's own copy (a check of an open digest asks for each).
      return [];
    }
    const result: IndexLocation[] = [];
    for (const paper of papers) {
      if (paper.uri !== exceptUri) {
        result.push({ uri: paper.uri, range: paper.selectionRange });
      }
    }
    return result.sort(compareLocations);
  }

  /**
   * The paper whose entry contains the position in an indexed file, by binary search.
   *
   * @example
   * index.paperAt('file:///w/a.digest', { line: 4, character: 0 })?.title
   */
  paperAt(uri: string, position: Position): PaperSummary | undefined {
    const papers = this.effective.get(uri)?.papers;
    if (!papers) {
      return undefined;
    }
    return itemAtLine(papers, position.line);
  }

  /** Calls the listener after every change of the index. */
  onDidChange(listener: (change: IndexChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Listens to the disk content of a file that is open changing (the document saved, or the file
   * written by another program): the index shows the open content still, and no `onDidChange`
   * comes of it.
   */
  onDidChangeDiskWhileOpen(listener: (uri: string) => void): Disposable {
    this.diskWhileOpenListeners.add(listener);
    return { dispose: () => this.diskWhileOpenListeners.delete(listener) };
  }

  /** The papers of a file's disk content (as saved, or written by another program), open or not. */
  diskPapers(uri: string): readonly PaperSummary[] | undefined {
    return this.disk.get(uri)?.papers;
  }

  private model(content: DigestContent): DigestDocument {
    return typeof content === 'string' ? this.parse(content) : content;
  }

  /** The URIs of `contents` equal to `uri` or under it as a folder. */
  private urisAt(contents: Map<string, FileSummary>, uri: string): string[] {
    const result: string[] = [];
    if (contents.has(uri)) {
      result.push(uri);
    }
    const folder = uri.endsWith('/') ? uri : uri + '/';
    for (const each of contents.keys()) {
      if (each.startsWith(folder)) {
        result.push(each);
      }
    }
    return result;
  }

  /** The URIs of `contents` equal to one of `uris` or under one of them, each once. */
  private urisUnderAny(contents: Map<string, FileSummary>, uris: readonly string[]): string[] {
    const result = new Set<string>();
    const folders = new Set<string>();
    for (const uri of uris) {
      if (contents.has(uri)) {
        result.add(uri);
      }
      folders.add(uri.endsWith('/') ? uri : uri + '/');
    }
    // A file is under a removed folder when the URI of one of its ancestors is one.
    for (const each of contents.keys()) {
      for (let slash = each.lastIndexOf('/', each.length - 2); slash > 0; slash = each.lastIndexOf('/', slash - 1)) {
        if (folders.has(each.slice(0, slash + 1))) {
          result.add(each);
          break;
        }
      }
    }
    return [...result];
  }

  /** Runs a change, then tells the listeners which files and which other files it affected. */
  private apply(uris: readonly string[], change: () => void): void {
    const keys = new Set<string>();
    const collectKeys = (): void => {
      for (const uri of uris) {
        for (const paper of this.effective.get(uri)?.papers ?? []) {
          if (paper.titleKey) {
            keys.add(paper.titleKey);
          }
        }
      }
    };
    collectKeys();
    change();
    collectKeys();
    this.announce(new Set(uris), keys);
  }

  /**
   * After a change of the files `changed`: a new generation, and the listeners told of it with
   * the other files that have one of the titles `keys` (linear in the files that have the
   * titles, not in their copies).
   */
  private announce(changed: ReadonlySet<string>, keys: ReadonlySet<string>): void {
    this.generationValue++;
    this.sorted = undefined;
    const affected = new Set<string>();
    for (const key of keys) {
      const copies = this.byTitle.get(key);
      for (const uri of copies instanceof TitleCopies ? copies.uris : copies ? [copies.uri] : []) {
        if (!changed.has(uri)) {
          affected.add(uri);
        }
      }
    }
    const event: IndexChange = { generation: this.generationValue, uris: [...changed], affectedUris: [...affected].sort() };
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }

  /**
   * `apply` of a revised open summary: the title map loses the papers that were replaced and
   * gains their replacements, and the files affected are those that share their titles.
   */
  private applyRevision(uri: string, previous: FileSummary, revision: OpenRevision): void {
    const keys = new Set<string>();
    for (const at of revision.changed) {
      const before = previous.papers[at];
      const after = revision.summary.papers[at];
      if (before.titleKey) keys.add(before.titleKey);
      if (after.titleKey) keys.add(after.titleKey);
      this.removeTitle(before);
    }
    for (const at of revision.changed) {
      this.addTitle(revision.summary.papers[at], true);
    }
    this.effective.set(uri, revision.summary);
    this.announce(new Set([uri]), keys);
  }

  /** Takes one paper out of the title map. */
  private removeTitle(paper: PaperSummary): void {
    const key = paper.titleKey;
    const copies = key ? this.byTitle.get(key) : undefined;
    if (!copies) {
      return;
    }
    if (!(copies instanceof TitleCopies)) {
      if (copies === paper) this.byTitle.delete(key);
      return;
    }
    if (!copies.remove(paper)) {
      return;
    }
    this.copiesShrank(key, copies);
  }

  /**
   * After copies of a title went away: a title left with one copy is kept by that paper alone,
   * one left with none leaves the map, and neither is repeated any more.
   */
  private copiesShrank(key: string, copies: TitleCopies): void {
    if (copies.count === 1) {
      this.byTitle.set(key, copies.lists[0][0]);
    } else if (copies.count === 0) {
      this.byTitle.delete(key);
    }
    if (copies.count <= 1) {
      this.repeated.delete(key);
    }
  }

  /** Puts one paper into the title map; `inOrder`: among its file's papers by entry index, not last. */
  private addTitle(paper: PaperSummary, inOrder = false): void {
    const key = paper.titleKey;
    if (!key) {
      return;
    }
    const copies = this.byTitle.get(key);
    if (!copies) {
      this.byTitle.set(key, paper);
      return;
    }
    this.repeated.add(key);
    if (copies instanceof TitleCopies) {
      copies.add(paper, inOrder);
    } else {
      const both = new TitleCopies();
      both.add(copies);
      both.add(paper, inOrder);
      this.byTitle.set(key, both);
    }
  }

  /**
   * Replaces the effective summary of a URI and keeps the title map and counts in step: linear
   * in the papers of the old and the new summary, however many copies of a title there are.
   */
  private setEffective(uri: string, summary: FileSummary | undefined): void {
    const previous = this.effective.get(uri);
    if (previous) {
      this.papers -= previous.papers.length;
      for (const paper of previous.papers) {
        const key = paper.titleKey;
        const copies = key ? this.byTitle.get(key) : undefined;
        if (!copies) {
          continue;
        }
        if (!(copies instanceof TitleCopies)) {
          if (copies.uri === uri) {
            this.byTitle.delete(key);
          }
          continue;
        }
        // Every paper of the file with this title goes at once.
        const at = copies.uris.indexOf(uri);
        if (at < 0) {
          continue;
        }
        copies.count -= copies.lists[at].length;
        copies.uris.splice(at, 1);
        copies.lists.splice(at, 1);
        copies.all = undefined;
        this.copiesShrank(key, copies);
      }
    }
    if (!summary) {
      this.effective.delete(uri);
      return;
    }
    this.effective.set(uri, summary);
    this.papers += summary.papers.length;
    for (const paper of summary.papers) {
      this.addTitle(paper);
    }
  }
}

/** The papers with one title key when there is more than one, by file. */
class TitleCopies {
  /** The files that have the key. */
  readonly uris: string[] = [];
  /** The papers of each of them with the key, in document order. */
  readonly lists: PaperSummary[][] = [];
  /** How many papers there are in all. */
  count = 0;
  /** All of them, made when asked and dropped when they change. */
  all: PaperSummary[] | undefined;

  /**
   * Adds a paper: linear in the files that have the key, not in the papers. `inOrder`: among
   * the file's papers with the key by entry index (a revised paper), else after them.
   */
  add(paper: PaperSummary, inOrder = false): void {
    const last = this.uris.length - 1;
    // The papers of one file come one after the other.
    const at = last >= 0 && this.uris[last] === paper.uri ? last : this.uris.indexOf(paper.uri);
    if (at >= 0) {
      const list = this.lists[at];
      let place = list.length;
      if (inOrder) {
        while (place > 0 && list[place - 1].entryIndex > paper.entryIndex) place--;
      }
      list.splice(place, 0, paper);
    } else {
      this.uris.push(paper.uri);
      this.lists.push([paper]);
    }
    this.count++;
    this.all = undefined;
  }

  /** Takes a paper out; false when it is not here. */
  remove(paper: PaperSummary): boolean {
    const at = this.uris.indexOf(paper.uri);
    const list = at >= 0 ? this.lists[at] : undefined;
    const place = list ? list.indexOf(paper) : -1;
    if (!list || place < 0) {
      return false;
    }
    list.splice(place, 1);
    if (list.length === 0) {
      this.uris.splice(at, 1);
      this.lists.splice(at, 1);
    }
    this.count--;
    this.all = undefined;
    return true;
  }
}

/**
 * Summarises a parsed digest for the index.
 *
 * @example
 * summariseDigest('file:///w/a.digest', parseDigest(text), 'disk').papers[0].topic // '数学推理'
 */
export function summariseDigest(uri: string, doc: DigestDocument, source: 'disk' | 'open'): FileSummary {
  if (documentTooLarge(doc)) {
    // A file past a limit (limits.ts) is not split into its parts: it lists no papers.
    return { uri, heading: keepHeading(doc), papers: [], source, terms: fileTerms(parseDigest('')) };
  }
  const occurrences = new Map<string, number>();
  // An open document is summarised again after each pause in typing; its model keeps the
  // entries an edit did not touch (incremental.ts), and their contents are reused here.
  const reuse = source === 'open';
  const names = new FoldedNames();
  const papers = doc.entries.map((entry) => summarisePaper(uri, entry, occurrences, reuse, names));
  if (!reuse) {
    return diskFileSummary(uri, headingOf(doc), papers, () => summaryTerms(papers));
  }
  const summary: FileSummary = { uri, heading: headingOf(doc), papers, source, terms: fileTerms(doc) };
  OPEN_SOURCES.set(summary, { entries: doc.entries.slice(), names: doc.entries.map(entryNames) });
  return summary;
}

/**
 * The summary of a file on disk, whose names `termsOf` gives when first asked: for a file read,
 * counted from its papers (`summaryTerms`, equal to `fileTerms` of its model), so that the Papers
 * tree, which needs none of them, is not held up by counting them for every file of the
 * workspace scan; for a file kept between starts, none (keptIndex.ts).
 */
export function diskFileSummary(uri: string, heading: string | undefined, papers: readonly PaperSummary[], termsOf: () => FileTerms): FileSummary {
  let terms: FileTerms | undefined;
  return {
    uri,
    heading,
    papers,
    source: 'disk',
    get terms(): FileTerms {
      return (terms ??= termsOf());
    },
  };
}

/** What an open document's summary was made from: its entries and the names counted of each. */
interface OpenSource {
  readonly entries: readonly Entry[];
  readonly names: readonly EntryNames[];
}

/** The source of each summary of an open document, for `reviseOpenSummary`. */
const OPEN_SOURCES = new WeakMap<FileSummary, OpenSource>();

/** A revised summary of an open document, and the indices of its papers that are new objects. */
interface OpenRevision {
  readonly summary: FileSummary;
  readonly changed: readonly number[];
}

/**
 * The summary of an open document's new model made from the summary of its model before an
 * edit: the papers of the entries the edit kept in place are the same objects, the others are
 * summarised again, and the names of the changed entries are recounted (`reviseTerms`). The
 * result equals `summariseDigest(uri, doc, 'open')` (the unit tests check it after random
 * edits). Undefined when the edit added or removed papers, or changed the identity of a paper
 * (its title) to or from one that another paper has (the occurrence keys of the papers after it
 * may change): the caller summarises the whole document.
 */
export function reviseOpenSummary(previous: FileSummary, doc: DigestDocument): OpenRevision | undefined {
  const source = OPEN_SOURCES.get(previous);
  const entries = doc.entries;
  if (!source || previous.source !== 'open' || documentTooLarge(doc) || entries.length !== source.entries.length || entries.length !== previous.papers.length) {
    return undefined;
  }
  const papers = previous.papers.slice();
  const names = source.names.slice();
  const changed: number[] = [];
  // The names the papers summarised again share (those of the others were kept for them).
  const keptNames = new FoldedNames();
  const renamed: { at: number; before: string; identity: PaperIdentity }[] = [];
  const recounted: { index: number; before: EntryNames; after: EntryNames }[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const before = papers[i];
    const kept = entry === source.entries[i];
    if (kept && before.entryIndex === entry.index && paperSpans(before, entry)) {
      continue;
    }
    const identity = identityOf(entry);
    // The key counts the papers of the same identity before this one: it stays while the
    // identity does (a paper whose identity changed is looked at below).
    if (hasIdentity(before.key, identity.identity)) {
      papers[i] = openPaper(previous.uri, entry, identity, before.key, keptNames);
    } else {
      renamed.push({ at: i, before: before.key.slice(0, before.key.lastIndexOf('#')), identity });
    }
    changed.push(i);
    if (!kept) {
      const after = entryNames(entry);
      if (!sameNames(names[i], after)) recounted.push({ index: i, before: names[i], after });
      names[i] = after;
    }
  }
  // A paper whose title changed (typing in it): the keys of the others stay when no other paper
  // had its identity before or has its new one; it is then the first of its identity.
  for (const { before } of renamed) {
    if (papersWithIdentity(previous.papers, before) !== 1) return undefined;
  }
  for (const { at, identity } of renamed) {
    papers[at] = openPaper(previous.uri, entries[at], identity, `${identity.identity}#0`, keptNames);
  }
  for (const { identity } of renamed) {
    if (papersWithIdentity(papers, identity.identity) !== 1) return undefined;
  }
  const terms = recounted.length === 0 ? previous.terms : reviseTerms(previous.terms, recounted);
  const summary: FileSummary = { uri: previous.uri, heading: headingOf(doc), papers, source: 'open', terms };
  OPEN_SOURCES.set(summary, { entries: entries.slice(), names });
  return { summary, changed };
}

/** Whether a paper key (`identity#occurrence`) is of this identity. */
function hasIdentity(key: string, identity: string): boolean {
  return key.lastIndexOf('#') === identity.length && key.startsWith(identity);
}

/** How many of the papers have the identity (by their keys). */
function papersWithIdentity(papers: readonly PaperSummary[], identity: string): number {
  let count = 0;
  for (const paper of papers) {
    if (hasIdentity(paper.key, identity)) count++;
  }
  return count;
}

/** Whether two entries name the same institutions, authors, topic, keywords and categories (a typo in a summary does not). */
function sameNames(a: EntryNames, b: EntryNames): boolean {
  const sameList = <T>(x: readonly T[], y: readonly T[], same: (p: T, q: T) => boolean): boolean => x.length === y.length && x.every((each, i) => same(each, y[i]));
  return (
    a.topic === b.topic &&
    sameList(a.institutions, b.institutions, (p, q) => p.item === q.item && p.key === q.key && p.name === q.name && p.translation === q.translation) &&
    sameList(a.authors, b.authors, (p, q) => p.pair === q.pair && p.key === q.key && p.name === q.name && p.form === q.form) &&
    sameList(a.keywords, b.keywords, (p, q) => p.key === q.key && p.text === q.text) &&
    sameList(a.categories, b.categories, (p, q) => p === q)
  );
}

/** What the index keeps of a paper that does not depend on where its entry is. */
type PaperContent = Pick<
  PaperSummary,
  'englishTitle' | 'chineseTitle' | 'titleKey' | 'authors' | 'institutions' | 'topic' | 'keywords' | 'categories' | 'summary' | 'hits' | 'authorsZh' | 'comments' | 'journalRef' | 'searchNarrow' | 'searchWide'
> & {
  /** The title key, else `zh:` and the Chinese title's key, else `untitled`. */
  readonly identity: string;
};

/**
 * The contents of the entries of open documents, by entry: an edit moves untouched entries
 * into the next model as they are, so their contents need not be worked out again.
 */
const contentOfEntry = new WeakMap<Entry, PaperContent>();

/** What the index must know of a paper at once, to put it in the title map and give it its key. */
interface PaperIdentity {
  /** `titleKey(englishTitle)`; empty without an English title. */
  readonly titleKey: string;
  /** The title key, else `zh:` and the Chinese title's key, else `untitled` (as `PaperContent.identity`). */
  readonly identity: string;
}

/** The title key and identity of an entry's paper, without the rest of its content. */
function identityOf(entry: Entry): PaperIdentity {
  const key = entryTitleKey(entry, false); // the diagnostics' copy when they worked it out
  if (key) {
    return { titleKey: key, identity: key };
  }
  const chinese = entry.chineseTitle?.value.text ?? '';
  // A copy: the Chinese title is a slice of the document's text, and so may its key be.
  return { titleKey: '', identity: chinese ? keep('zh:' + foldedKey(chinese)) : 'untitled' };
}

/**
 * Whether a paper is the first copy of its paper in its file: counting those counts the file's
 * distinct papers, as the Papers view's file groups and a digest's statistics do (the copies of
 * one title once; a paper with no title at all each on its own).
 */
export function firstCopyInFile(paper: PaperSummary): boolean {
  return paper.key.endsWith('#0') || (!paper.titleKey && !paper.key.startsWith('zh:'));
}

/** How many distinct papers the entries of one document are, as `firstCopyInFile` counts them. */
export function distinctPapersIn(entries: readonly Entry[]): number {
  const titled = new Set<string>();
  let untitled = 0;
  for (const entry of entries) {
    const { titleKey, identity } = identityOf(entry);
    if (titleKey || identity !== 'untitled') {
      titled.add(identity);
    } else {
      untitled++;
    }
  }
  return titled.size + untitled;
}

function summarisePaper(uri: string, entry: Entry, occurrences: Map<string, number>, open: boolean, names: FoldedNames): PaperSummary {
  // A paper of an open document gets its content when first read (`IndexedPaper`).
  const content = open ? undefined : paperContent(entry, names);
  const identity = content ?? identityOf(entry);
  const key = paperKeyIn(occurrences, identity.identity);
  return content ? paperSummary(uri, entry, content, key) : openPaper(uri, entry, identity, key, names);
}

/** The content of an open document's entry, worked out once per entry object. */
function contentOf(entry: Entry, names: FoldedNames): PaperContent {
  let content = contentOfEntry.get(entry);
  if (!content) {
    content = paperContent(entry, names);
    contentOfEntry.set(entry, content);
  }
  return content;
}

/** The name a paper goes by in the index (`PaperSummary.title`), of its content and entry. */
function titleOf(entry: Entry, content: PaperContent): string {
  return content.englishTitle.trim() ? content.englishTitle : keep(paperName(entry));
}

function paperSummary(uri: string, entry: Entry, content: PaperContent, key: string): PaperSummary {
  return new IndexedPaper(uri, entry.index, key, content.titleKey, entry.range, paperSelection(entry), content, titleOf(entry, content));
}

/**
 * A paper of an open document, whose content (titles, names, summary, search texts) is worked
 * out from its entry when first read: a document of 16,000 papers is indexed at once for its title
 * keys, and the rest costs nothing until the Papers view, a search or a statistic reads it.
 */
function openPaper(uri: string, entry: Entry, identity: PaperIdentity, key: string, names: FoldedNames): PaperSummary {
  return new IndexedPaper(uri, entry.index, key, identity.titleKey, entry.range, paperSelection(entry), undefined, undefined, entry, names);
}

/** The range of a paper's English title, else of its Chinese title, else of its first field, else of the entry. */
function paperSelection(entry: Entry): Range {
  return (entry.englishTitle ?? entry.chineseTitle)?.value.range ?? entry.fields[0]?.range ?? entry.range;
}

/**
 * A paper as the index keeps it: what its entry holds read through from its content (which an
 * open document's entry keeps too, `contentOfEntry`, and a file on disk has only here; a paper
 * of an open document works it out when first read), its title key, and its two ranges as eight
 * numbers, made into objects when read: a range is three objects, and two of them per paper were
 * a third of what the index held of an open document of 10,000 papers.
 * Its own fields are those of a summary that are not its content's, so that `{ ...paper }` is
 * never how a summary is copied (`moved`).
 */
class IndexedPaper implements PaperSummary {
  private readonly startLine: number;
  private readonly startCharacter: number;
  private readonly endLine: number;
  private readonly endCharacter: number;
  private readonly titleStartLine: number;
  private readonly titleStartCharacter: number;
  private readonly titleEndLine: number;
  private readonly titleEndCharacter: number;

  /**
   * @param contentValue what the entry holds, or undefined until first read: then it is worked
   *   out from `sourceEntry` (of an open document) with the names of its file, `sourceNames`
   * @param titleValue the name the paper goes by, with `contentValue`
   */
  constructor(
    readonly uri: string,
    readonly entryIndex: number,
    readonly key: string,
    readonly titleKey: string,
    range: Range,
    selectionRange: Range,
    private contentValue: PaperContent | undefined,
    private titleValue: string | undefined,
    private sourceEntry?: Entry,
    private sourceNames?: FoldedNames,
  ) {
    this.startLine = range.start.line;
    this.startCharacter = range.start.character;
    this.endLine = range.end.line;
    this.endCharacter = range.end.character;
    this.titleStartLine = selectionRange.start.line;
    this.titleStartCharacter = selectionRange.start.character;
    this.titleEndLine = selectionRange.end.line;
    this.titleEndCharacter = selectionRange.end.character;
  }

  get range(): Range {
    return { start: { line: this.startLine, character: this.startCharacter }, end: { line: this.endLine, character: this.endCharacter } };
  }

  get selectionRange(): Range {
    return { start: { line: this.titleStartLine, character: this.titleStartCharacter }, end: { line: this.titleEndLine, character: this.titleEndCharacter } };
  }

  /** Whether the paper's range is the entry's (`entrySpans`), without making the range. */
  spans(entry: Entry): boolean {
    return entrySpansAt(entry, this.startLine, this.startCharacter, this.endLine, this.endCharacter);
  }

  /** The same paper in a file of another URI (a rename). */
  moved(uri: string): IndexedPaper {
    return new IndexedPaper(uri, this.entryIndex, this.key, this.titleKey, this.range, this.selectionRange, this.content, this.title);
  }

  /** What the entry holds, worked out now if it was not yet (a paper of an open document). */
  private get content(): PaperContent {
    if (this.contentValue === undefined) {
      const entry = this.sourceEntry!;
      this.contentValue = contentOf(entry, this.sourceNames!);
      this.titleValue = titleOf(entry, this.contentValue);
      this.sourceEntry = undefined;
      this.sourceNames = undefined;
    }
    return this.contentValue;
  }

  get title(): string {
    return this.titleValue ?? (this.content, this.titleValue!);
  }
  get englishTitle(): string {
    return this.content.englishTitle;
  }
  get chineseTitle(): string {
    return this.content.chineseTitle;
  }
  get authors(): readonly string[] {
    return this.content.authors;
  }
  get institutions(): readonly InstitutionSummary[] {
    return this.content.institutions;
  }
  get topic(): string {
    return this.content.topic;
  }
  get keywords(): readonly string[] {
    return this.content.keywords;
  }
  get categories(): readonly string[] {
    return this.content.categories;
  }
  get summary(): string {
    return this.content.summary;
  }
  get hits(): PaperSummary['hits'] {
    return this.content.hits;
  }
  get authorsZh(): PaperSummary['authorsZh'] {
    return this.content.authorsZh;
  }
  get comments(): string {
    return this.content.comments;
  }
  get journalRef(): string {
    return this.content.journalRef;
  }
  get searchNarrow(): string {
    return this.content.searchNarrow;
  }
  get searchWide(): string {
    return this.content.searchWide;
  }
}

/** Whether a paper of the index spans an entry's range (`entrySpans`). */
function paperSpans(paper: PaperSummary, entry: Entry): boolean {
  return paper instanceof IndexedPaper ? paper.spans(entry) : entrySpans(entry, paper.range);
}

/** The names of one file as kept (`KeptNames`) and folded for search (`foldForSearch`), each once. */
class FoldedNames extends KeptNames {
  private readonly folds = new Map<string, string>();

  folded(text: string): string {
    let result = this.folds.get(text);
    if (result === undefined) {
      result = foldForSearch(text);
      this.folds.set(text, result);
    }
    return result;
  }
}

/** Shared by every paper that has none, instead of an empty array each. */
const NONE: readonly never[] = Object.freeze([]);

/** A list kept by the index: the shared empty list, or the strings kept (`keep`), exactly sized. */
function keptList(texts: readonly string[], names: KeptNames): readonly string[] {
  return texts.length === 0 ? NONE : names.keepAll(texts);
}

/** `keptList` shared by the papers of a file that have the same list. */
function sharedList(texts: readonly string[], names: KeptNames): readonly string[] {
  return texts.length === 0 ? NONE : names.sharedBy('list', texts, () => names.keepAll(texts));
}

/**
 * The content of a paper, every string a copy that holds no reference to the document's text
 * (keptStrings.ts), so that the index does not keep whole file texts alive; the names that repeat
 * are kept once per file (`names`).
 */
function paperContent(entry: Entry, names: FoldedNames): PaperContent {
  const englishTitle = keep(entry.englishTitle?.value.text ?? '');
  const chineseTitle = keep(entry.chineseTitle?.value.text ?? '');
  const { titleKey: key, identity } = identityOf(entry);
  const authors = keptList(entry.authors?.names.map((name) => name.text).filter((name) => name.length > 0) ?? [], names);
  const { institutions, topic, keywords, categories } = firstLevelOf(entry, names, 'all');
  const hits = entry.topicHits;
  // The titles, then the names (which repeat from paper to paper: folded once per file).
  const searchParts = [foldForSearch(englishTitle), foldForSearch(chineseTitle)];
  for (const author of authors) {
    searchParts.push(names.folded(author));
  }
  for (const institution of institutions) {
    searchParts.push(names.folded(institution.name));
    if (institution.translation) {
      searchParts.push(names.folded(institution.translation));
    }
  }
  // Authors given on the 机构 line, `A, B（甲、乙）`: their Chinese names are found only there.
  for (const pair of entry.institutions?.authorPairs ?? []) {
    searchParts.push(names.folded(pair.english.text));
    if (pair.chinese) {
      searchParts.push(names.folded(pair.chinese.text));
    }
  }
  const hitList = hits ? hits.hits.filter((hit) => hit.keyword.text.length > 0) : [];
  const keptHits =
    hitList.length === 0
      ? NONE
      : names.sharedBy('hits', pairParts(hitList, (hit) => hit.keyword.text, (hit) => hit.field?.text ?? ''), () =>
          hitList.map((hit) => ({ keyword: names.keep(hit.keyword.text), field: names.keep(hit.field?.text ?? '') })),
        );
  const authorsZh = (entry.institutions?.authorPairs ?? []).filter((pair) => pair.chinese?.text).map((pair) => ({ name: names.keep(pair.english.text), nameZh: names.keep(pair.chinese!.text) }));
  const search = searchTexts(searchParts);
  return {
    englishTitle,
    chineseTitle,
    titleKey: key,
    identity,
    authors,
    institutions,
    topic,
    keywords,
    categories,
    summary: keep(entry.summary?.value.text ?? ''),
    hits: keptHits,
    authorsZh: authorsZh.length === 0 ? NONE : authorsZh,
    comments: keep(entry.comments?.value.text ?? ''),
    journalRef: keep(entry.journalRef?.value.text ?? ''),
    searchNarrow: search.searchNarrow,
    searchWide: search.searchWide,
  };
}

/**
 * A paper's key in its file: its identity and how many papers of the file had it before
 * (`zh:…#0`, `sparse probes…#1`), counted in `occurrences`. The whole summary and the first
 * level's (kept between starts) make it so, and must agree.
 */
function paperKeyIn(occurrences: Map<string, number>, identity: string): string {
  const occurrence = occurrences.get(identity) ?? 0;
  occurrences.set(identity, occurrence + 1);
  return `${identity}#${occurrence}`;
}

/** A file's heading, a copy (a slice would keep the whole text alive). */
function headingOf(doc: DigestDocument): string | undefined {
  return doc.heading === undefined ? undefined : keep(doc.heading.text);
}

/** The heading of a file past a limit: its first 1,000 characters, a copy (a slice would keep the whole text alive). */
function keepHeading(doc: DigestDocument): string | undefined {
  return doc.heading === undefined ? undefined : keep(doc.heading.text.slice(0, 1_000));
}

/** What the Papers tree's first level needs of a paper besides its key (`FirstLevelPaper`). */
type FirstLevelParts = Pick<PaperSummary, 'topic' | 'keywords' | 'categories' | 'institutions'>;

/**
 * What a read for the Papers tree's first level takes of each paper besides its keys: `all` of
 * what the index keeps between starts (topic, keywords, categories and institutions: the first
 * level of every grouping), or only what one grouping's first level groups papers by (`topic`,
 * `categories`, `institutions`; `none` for the grouping by file). The others are left empty.
 */
export type FirstLevelPart = 'all' | 'topic' | 'categories' | 'institutions' | 'none';

/** Whether what a read of `part` took of the papers gives the first level of a grouping that needs `wanted`. */
export function firstLevelPartCovers(part: FirstLevelPart, wanted: FirstLevelPart): boolean {
  return part === 'all' || wanted === 'none' || part === wanted;
}

/**
 * An entry's topic, keywords, categories and institutions, as the index keeps them (kept once
 * per file in `names`); of `part` only, the others empty.
 */
function firstLevelOf(entry: Entry, names: KeptNames, part: FirstLevelPart): FirstLevelParts {
  const all = part === 'all';
  const hits = all || part === 'topic' || part === 'categories' ? entry.topicHits : undefined;
  return {
    institutions: all || part === 'institutions' ? institutionsOf(entry, names) : NONE,
    topic: all || part === 'topic' ? names.keep(hits?.topic.text ?? '') : '',
    keywords: all && hits ? sharedList(hits.hits.map((hit) => hit.keyword.text).filter((keyword) => keyword.length > 0), names) : NONE,
    categories: (all || part === 'categories') && hits ? sharedList(hits.categories.map((category) => category.text).filter((code) => code.length > 0), names) : NONE,
  };
}

/** The institutions of an entry's `机构` line as the index keeps them (not a line of authors, nor tags or codes). */
function institutionsOf(entry: Entry, names: KeptNames): readonly InstitutionSummary[] {
  const institutions: InstitutionSummary[] = [];
  if (entry.institutions && !entry.institutions.authorPairs) {
    for (const item of entry.institutions.items) {
      // A tag or a category code on the line is not an institution (institutionNames.ts).
      if (item.name.text.length > 0 && !notAnInstitutionKind(item.name.text)) {
        institutions.push(item.translation?.text ? { name: names.keep(item.name.text), translation: names.keep(item.translation.text) } : { name: names.keep(item.name.text) });
      }
    }
  }
  return institutions.length === 0 ? NONE : names.sharedBy('institutions', pairParts(institutions, (each) => each.name, (each) => each.translation ?? ''), () => institutions.slice());
}

/** What the Papers tree's first level needs of a paper: what the index keeps between starts (keptIndex.ts). */
export interface FirstLevelPaper extends FirstLevelParts {
  readonly entryIndex: number;
  readonly key: string;
  readonly titleKey: string;
}

/**
 * What the Papers tree's first level needs of a parsed digest, as `summariseDigest` has it for a
 * file on disk, without the rest of each paper's content (titles, names, summary, search texts):
 * two fifths of the time; of `part` only (`FirstLevelPart`), about a sixth. The strings hold no
 * reference to the document's text.
 *
 * @example
 * firstLevelOfDigest(parseWithinLimits(text)).papers[0].topic // '数学推理'
 * firstLevelOfDigest(parseWithinLimits(text), 'topic').papers[0].categories // []
 */
export function firstLevelOfDigest(doc: DigestDocument, part: FirstLevelPart = 'all'): { heading: string | undefined; papers: FirstLevelPaper[] } {
  if (documentTooLarge(doc)) {
    return { heading: keepHeading(doc), papers: [] };
  }
  const occurrences = new Map<string, number>();
  const names = new KeptNames();
  const papers = doc.entries.map((entry): FirstLevelPaper => {
    const { titleKey, identity } = identityOf(entry);
    return { entryIndex: entry.index, key: paperKeyIn(occurrences, identity), titleKey, ...firstLevelOf(entry, names, part) };
  });
  return { heading: headingOf(doc), papers };
}

/**
 * Two parts of each item, in order, as the key of `sharedBy`: `[first(a), second(a), first(b), ...]`.
 * A loop, not `flatMap` (which made an array per item and was a third of the time of `paperContent`).
 */
function pairParts<T>(items: readonly T[], first: (item: T) => string, second: (item: T) => string): string[] {
  const parts = new Array<string>(items.length * 2);
  for (let i = 0; i < items.length; i++) {
    parts[2 * i] = first(items[i]);
    parts[2 * i + 1] = second(items[i]);
  }
  return parts;
}

/**
 * Folds text for case-insensitive substring search: compatibility-normalised and lower-cased.
 * Filters are folded the same way before they are looked for (`searchIncludes`).
 *
 * @example
 * foldForSearch('ＫＹＯＴＯ University') // 'kyoto university'
 */
export function foldForSearch(text: string): string {
  return compatibilityForm(text).toLowerCase();
}

/** A character past U+00FF. */
const WIDE = /[^\u0000-\u00ff]/;

/**
 * The folded parts split by width: the narrow ones in one byte a character (a text with one
 * Chinese character would take two bytes for every character of all of them).
 */
function searchTexts(folded: readonly string[]): { searchNarrow: string; searchWide: string } {
  const narrow: string[] = [];
  const wide: string[] = [];
  for (const part of folded) {
    (WIDE.test(part) ? wide : narrow).push(part);
  }
  return { searchNarrow: keepNarrow(narrow.join('\u0000')), searchWide: wide.join('\u0000') };
}

function moveSummary(summary: FileSummary, uri: string): FileSummary {
  return { ...summary, uri, papers: summary.papers.map((paper) => (paper instanceof IndexedPaper ? paper.moved(uri) : { ...paper, uri })) };
}

function compareLocations(a: IndexLocation, b: IndexLocation): number {
  if (a.uri !== b.uri) {
    return a.uri < b.uri ? -1 : 1;
  }
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
