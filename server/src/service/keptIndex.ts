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
 * The text is JSON: `{ format, version, build, strings, files }`. `strings` holds the topics,
 * keywords, categories, institution names and headings once each; `files` one array a file,
 * `[uri, size, mtimeMs, ctimeMs, dev, ino, heading, papers]` with `heading` a string number or
 * -1, and each paper `[entryIndex, key, hasTitleKey, topic, keywords, categories, institutions]`,
 * where `hasTitleKey` is 1 when the title key is the key's identity (the part before `#`),
 * `topic` a string number, `keywords` and `categories` lists of string numbers and
 * `institutions` a list of `[name, translation]` string numbers (-1: none).
 */
import type { Range } from 'vscode-languageserver-types';
import type { FileSummary, InstitutionSummary, PaperSummary } from './workspaceIndex';
import type { FileTerms } from './terms';

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

/** Whether two fingerprints are of the same file unchanged. */
export function sameFingerprint(a: FileFingerprint, b: FileFingerprint): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.dev === b.dev && a.ino === b.ino;
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
  const strings: string[] = [];
  const numbers = new Map<string, number>();
  const number = (text: string): number => {
    let at = numbers.get(text);
    if (at === undefined) {
      at = strings.length;
      strings.push(text);
      numbers.set(text, at);
    }
    return at;
  };
  const encoded = files.map(({ summary, fingerprint }) => [
    summary.uri,
    fingerprint.size,
    fingerprint.mtimeMs,
    fingerprint.ctimeMs,
    fingerprint.dev,
    fingerprint.ino,
    summary.heading === undefined ? -1 : number(summary.heading),
    summary.papers.map((paper) => [
      paper.entryIndex,
      paper.key,
      paper.titleKey !== '' ? 1 : 0,
      number(paper.topic),
      paper.keywords.map(number),
      paper.categories.map(number),
      paper.institutions.map((institution) => [number(institution.name), institution.translation === undefined ? -1 : number(institution.translation)]),
    ]),
  ]);
  return JSON.stringify({ format: FORMAT, version: KEPT_INDEX_VERSION, build, strings, files: encoded });
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
  const { strings, files } = value;
  if (!Array.isArray(strings) || !strings.every((each) => typeof each === 'string') || !Array.isArray(files)) {
    return { problem: 'corrupt' };
  }
  try {
    const result = new Map<string, KeptFile>();
    for (const file of files) {
      const kept = decodeFile(file, strings as string[]);
      if (result.has(kept.summary.uri)) throw new CorruptKeptIndex();
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

function decodeFile(file: unknown, strings: readonly string[]): KeptFile {
  check(Array.isArray(file) && file.length === 8);
  const [uri, size, mtimeMs, ctimeMs, dev, ino, heading, papers] = file as unknown[];
  check(typeof uri === 'string' && isCount(size) && typeof mtimeMs === 'number' && typeof ctimeMs === 'number' && isCount(dev) && isCount(ino));
  check(Array.isArray(papers));
  const string = (at: unknown): string => {
    check(isCount(at) && at < strings.length);
    return strings[at];
  };
  const stringList = (list: unknown): string[] => {
    check(Array.isArray(list));
    return list.map(string);
  };
  // One object per name within the file, as the index shares them (the institution groups are
  // worked out once per object).
  const institutionItems = new Map<string, InstitutionSummary>();
  const institution = (pair: unknown): InstitutionSummary => {
    check(Array.isArray(pair) && pair.length === 2);
    const name = string(pair[0]);
    const translation = pair[1] === -1 ? undefined : string(pair[1]);
    const id = `${pair[0]}:${pair[1]}`;
    let item = institutionItems.get(id);
    if (!item) {
      item = translation === undefined ? { name } : { name, translation };
      institutionItems.set(id, item);
    }
    return item;
  };
  const kept = (paper: unknown): PaperSummary => {
    check(Array.isArray(paper) && paper.length === 7);
    const [entryIndex, key, hasTitleKey, topic, keywords, categories, institutions] = paper as unknown[];
    check(isCount(entryIndex) && typeof key === 'string' && (hasTitleKey === 0 || hasTitleKey === 1) && key.includes('#'));
    check(Array.isArray(institutions));
    const titleKey = hasTitleKey === 1 ? key.slice(0, key.lastIndexOf('#')) : '';
    return new KeptPaper(uri, entryIndex, key, titleKey, string(topic), stringList(keywords), stringList(categories), institutions.map(institution));
  };
  const summary = keptSummary(uri, heading === -1 ? undefined : string(heading), (papers as unknown[]).map(kept));
  return { summary, fingerprint: { size, mtimeMs, ctimeMs, dev, ino } };
}

function keptSummary(uri: string, heading: string | undefined, papers: readonly PaperSummary[]): FileSummary {
  return {
    uri,
    heading,
    papers,
    source: 'disk',
    get terms(): FileTerms {
      throw new NotKeptError('terms');
    },
  };
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
