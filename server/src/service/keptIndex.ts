/**
 * The index kept between starts of the server: what the Papers tree's first level needs of each
 * paper of each digest file read from disk — its key and title key, topic, keywords, categories
 * and institutions — with the file's fingerprint (size, times, device and inode) when it was
 * read. At the next start the files whose fingerprint is the same are taken from here, and the
 * tree's first level is answered while the workspace is still read in full; nothing else is
 * answered from it (its papers have no titles, ranges or summaries: reading one throws
 * `NotKeptError`).
 *
 * Pure: the text in and out (keptIndexDisk.ts reads and writes the file).
 *
 * The text is JSON: `{ format, version, build, strings, lists, files }`, made to be read back
 * fast. `strings` holds each topic, keyword, category, institution name and heading once;
 * `lists` each list of keywords or categories once (string numbers) and each list of
 * institutions once (string numbers in pairs, name then translation, -1 for none); `files` one
 * array a file, `[uri, size, mtimeMs, ctimeMs, dev, ino, heading, keys, columns]`, with `heading`
 * a string number or -1, `keys` the papers' keys in order and `columns` five numbers a paper:
 * whether its title key is its key's identity (the part before `#`: 1, else 0 and no title
 * key), its topic (a string number), and its keywords, categories and institutions (list numbers).
 */
import type { Range } from 'vscode-languageserver-types';
import type { DigestDocument } from './model';
import type { FileSummary, FirstLevelPart, InstitutionSummary, PaperSummary } from './workspaceIndex';
import { diskFileSummary, firstLevelOfDigest } from './workspaceIndex';

/** At most as many files as a scan indexes (workspace.ts `DEFAULT_SCAN_LIMITS`). */
const MAX_KEPT_FILES = 20_000;
/** At most this many papers in all: more than the 32 MB a kept index may take (keptIndexDisk.ts) holds of real digests. */
const MAX_KEPT_PAPERS = 1_000_000;

/** Bumped whenever what is kept changes its form. */
export const KEPT_INDEX_VERSION = 1;

const FORMAT = 'paper-digest-kept-index';

/** What a file was when it was read: equal fingerprints, the same file (as far as a stat can tell). */
export interface FileFingerprint {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Whether two fingerprints are of the same file unchanged. Not the device: a network or FUSE
 * file system may be given another device number at each mount.
 */
export function sameFingerprint(a: FileFingerprint, b: FileFingerprint): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** A digest file as kept: its summary (of kept papers) and its fingerprint. */
export interface KeptFile {
  readonly summary: FileSummary;
  readonly fingerprint: FileFingerprint;
}

/** Thrown by a kept paper asked for what is not kept (its titles, ranges, summary, ...). */
export class NotKeptError extends Error {
  constructor(what: string) {
    super(`not kept between starts: ${what}`);
    this.name = 'NotKeptError';
  }
}

/**
 * The text of the kept index of these files (digest files read from disk). `build` names the
 * server's build: an index kept by another build is not read back (what a paper's topic or key
 * is may have changed).
 *
 * @example
 * encodeKeptIndex('4f2a…', [{ summary: index.file(uri)!, fingerprint }])
 */
export function encodeKeptIndex(build: string, files: readonly KeptFile[]): string {
  const writer = new KeptIndexWriter(build);
  files.forEach((file) => writer.add(file));
  return writer.text();
}

/**
 * The text of a kept index made a file at a time (`add`), so that a caller can let other work
 * through between files, then whole (`text`).
 */
export class KeptIndexWriter {
  private readonly strings = new Table<string>();
  private readonly lists = new Table<readonly number[]>();
  private readonly files: string[] = [];

  constructor(private readonly build: string) {}

  /**
   * Adds a file; one whose papers would not read back as they are (not numbered by their place,
   * or a title key that is not its key's identity) is left out.
   */
  add({ summary, fingerprint }: KeptFile): void {
    if (!summary.papers.every((paper, i) => paper.entryIndex === i && (paper.titleKey === '' || paper.key.slice(0, paper.key.lastIndexOf('#')) === paper.titleKey))) {
      return;
    }
    const string = (text: string): number => this.strings.number(text, text);
    const list = (numbers: readonly number[]): number => this.lists.number(numbers.join(','), numbers);
    const columns: number[] = [];
    for (const paper of summary.papers) {
      const institutions: number[] = [INSTITUTIONS];
      for (const institution of paper.institutions) {
        institutions.push(string(institution.name), institution.translation === undefined ? -1 : string(institution.translation));
      }
      // A list of institutions is told from a list of names by its first number.
      columns.push(paper.titleKey !== '' ? 1 : 0, string(paper.topic), list(paper.keywords.map(string)), list(paper.categories.map(string)), list(institutions));
    }
    const keys = summary.papers.map((paper) => paper.key);
    const heading = summary.heading === undefined ? -1 : string(summary.heading);
    this.files.push(JSON.stringify([summary.uri, fingerprint.size, fingerprint.mtimeMs, fingerprint.ctimeMs, fingerprint.dev, fingerprint.ino, heading, keys, columns]));
  }

  text(): string {
    return this.textPieces().join('');
  }

  /** `text()` in pieces, in order: the head, each file (after a comma but the first), the end. */
  textPieces(): string[] {
    const head = JSON.stringify({ format: FORMAT, version: KEPT_INDEX_VERSION, build: this.build, strings: this.strings.values, lists: this.lists.values });
    const pieces = [`${head.slice(0, -1)},"files":[`];
    this.files.forEach((file, i) => pieces.push(i === 0 ? file : ',' + file));
    pieces.push(']}');
    return pieces;
  }
}

/** Values numbered in the order first met, each once. */
class Table<T> {
  readonly values: T[] = [];
  private readonly numbers = new Map<string, number>();

  number(key: string, value: T): number {
    let at = this.numbers.get(key);
    if (at === undefined) {
      at = this.values.length;
      this.values.push(value);
      this.numbers.set(key, at);
    }
    return at;
  }
}

/** The files of a kept index, or why it cannot be used. */
export type KeptIndexReading = { readonly files: ReadonlyMap<string, KeptFile> } | { readonly problem: 'corrupt' | 'other-build' | 'other-version' };

/**
 * Reads the text of a kept index back: its files by URI, or `corrupt` (not this form: nothing of
 * it is used), `other-version` or `other-build` (kept by another version or build of the server).
 *
 * @example
 * const kept = decodeKeptIndex(text, build);
 * if ('files' in kept) kept.files.get(uri)?.summary.papers[0].topic // '数学推理'
 */
export function decodeKeptIndex(text: string, build: string): KeptIndexReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'corrupt' };
  }
  if (!isObject(value) || value.format !== FORMAT || typeof value.version !== 'number') {
    return { problem: 'corrupt' };
  }
  if (value.version !== KEPT_INDEX_VERSION) {
    return { problem: 'other-version' };
  }
  if (value.build !== build) {
    return { problem: 'other-build' };
  }
  const { strings, lists, files } = value;
  if (!Array.isArray(strings) || !strings.every((each) => typeof each === 'string') || !Array.isArray(lists) || !Array.isArray(files) || files.length > MAX_KEPT_FILES) {
    return { problem: 'corrupt' };
  }
  try {
    const tables = new KeptTables(strings as string[], lists);
    const result = new Map<string, KeptFile>();
    let papers = 0;
    for (const file of files) {
      // Counted before the papers are made.
      papers += Array.isArray(file) && Array.isArray(file[7]) ? file[7].length : 0;
      check(papers <= MAX_KEPT_PAPERS);
      const kept = decodeFile(file, tables);
      check(!result.has(kept.summary.uri));
      result.set(kept.summary.uri, kept);
    }
    return { files: result };
  } catch (error) {
    if (error instanceof CorruptKeptIndex) return { problem: 'corrupt' };
    throw error;
  }
}

class CorruptKeptIndex extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function check(condition: boolean): asserts condition {
  if (!condition) throw new CorruptKeptIndex();
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * The strings and lists of a kept index, each list made once, when first asked, and shared by
 * the papers that have it (as the index shares a file's institution items).
 */
class KeptTables {
  private readonly names = new Map<number, readonly string[]>();
  private readonly institutionLists = new Map<number, readonly InstitutionSummary[]>();

  constructor(
    private readonly strings: readonly string[],
    private readonly lists: readonly unknown[],
  ) {}

  string(at: unknown): string {
    check(isCount(at) && at < this.strings.length);
    return this.strings[at];
  }

  /** A list of strings (keywords, categories). */
  nameList(at: unknown): readonly string[] {
    let list = this.names.get(at as number);
    if (!list) {
      const numbers = this.numbers(at);
      check(numbers[0] !== INSTITUTIONS);
      list = numbers.map((each) => this.string(each));
      this.names.set(at as number, list);
    }
    return list;
  }

  /** A list of institutions. */
  institutionList(at: unknown): readonly InstitutionSummary[] {
    let list = this.institutionLists.get(at as number);
    if (!list) {
      const numbers = this.numbers(at);
      check(numbers[0] === INSTITUTIONS && numbers.length % 2 === 1);
      const items: InstitutionSummary[] = [];
      for (let i = 1; i < numbers.length; i += 2) {
        const name = this.string(numbers[i]);
        items.push(numbers[i + 1] === -1 ? { name } : { name, translation: this.string(numbers[i + 1]) });
      }
      list = items;
      this.institutionLists.set(at as number, list);
    }
    return list;
  }

  private numbers(at: unknown): readonly number[] {
    check(isCount(at) && at < this.lists.length);
    const numbers = this.lists[at];
    check(Array.isArray(numbers) && numbers.every((each) => Number.isInteger(each)));
    return numbers as number[];
  }
}

/** The first number of a list of institutions, which tells it from a list of names. */
const INSTITUTIONS = -2;

/** How many numbers `columns` holds for each paper. */
const COLUMNS = 5;

function decodeFile(file: unknown, tables: KeptTables): KeptFile {
  check(Array.isArray(file) && file.length === 9);
  const [uri, size, mtimeMs, ctimeMs, dev, ino, heading, keys, columns] = file as unknown[];
  check(typeof uri === 'string' && uri.startsWith('file:') && isCount(size) && typeof mtimeMs === 'number' && typeof ctimeMs === 'number' && isCount(dev) && isCount(ino));
  check(Array.isArray(keys) && Array.isArray(columns) && columns.length === keys.length * COLUMNS);
  const papers: PaperSummary[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    const at = i * COLUMNS;
    const hasTitleKey: unknown = columns[at];
    check(typeof key === 'string' && key.includes('#') && (hasTitleKey === 0 || hasTitleKey === 1));
    const titleKey = hasTitleKey === 1 ? key.slice(0, key.lastIndexOf('#')) : '';
    papers.push(new KeptPaper(uri, i, key, titleKey, tables.string(columns[at + 1]), tables.nameList(columns[at + 2]), tables.nameList(columns[at + 3]), tables.institutionList(columns[at + 4])));
  }
  // Its names are not kept: what asks for them waits for the file to be read.
  const summary = diskFileSummary(uri, heading === -1 ? undefined : tables.string(heading), papers, () => notKept('terms'));
  return { summary, fingerprint: { size, mtimeMs, ctimeMs, dev, ino } };
}

/**
 * The summary of a parsed digest on disk as it would be kept: what the Papers tree's first level
 * needs of it (its papers are `KeptPaper`s), made in about two fifths of the time of the whole
 * summary; with a `part` other than `all`, what one grouping's first level needs, the rest empty
 * (not to be kept). A first start, with nothing kept yet, reads the files so for the tree, before
 * it reads them in full.
 *
 * @example
 * firstLevelSummary(uri, parseWithinLimits(text)).papers[0].topic // '数学推理'
 */
export function firstLevelSummary(uri: string, doc: DigestDocument, part: FirstLevelPart = 'all'): FileSummary {
  const { heading, papers } = firstLevelOfDigest(doc, part);
  const kept = papers.map((paper) => new KeptPaper(uri, paper.entryIndex, paper.key, paper.titleKey, paper.topic, paper.keywords, paper.categories, paper.institutions));
  return diskFileSummary(uri, heading, kept, () => notKept('terms'));
}

function notKept(what: string): never {
  throw new NotKeptError(what);
}

/** A paper as kept: what the Papers tree's first level reads of it, and nothing else. */
class KeptPaper implements PaperSummary {
  constructor(
    readonly uri: string,
    readonly entryIndex: number,
    readonly key: string,
    readonly titleKey: string,
    readonly topic: string,
    readonly keywords: readonly string[],
    readonly categories: readonly string[],
    readonly institutions: readonly InstitutionSummary[],
  ) {}

  get range(): Range {
    return notKept('range');
  }
  get selectionRange(): Range {
    return notKept('selectionRange');
  }
  get englishTitle(): string {
    return notKept('englishTitle');
  }
  get title(): string {
    return notKept('title');
  }
  get chineseTitle(): string {
    return notKept('chineseTitle');
  }
  get authors(): readonly string[] {
    return notKept('authors');
  }
  get summary(): string {
    return notKept('summary');
  }
  get hits(): PaperSummary['hits'] {
    return notKept('hits');
  }
  get authorsZh(): PaperSummary['authorsZh'] {
    return notKept('authorsZh');
  }
  get comments(): string {
    return notKept('comments');
  }
  get journalRef(): string {
    return notKept('journalRef');
  }
  get searchNarrow(): string {
    return notKept('searchNarrow');
  }
  get searchWide(): string {
    return notKept('searchWide');
  }
}
