/**
 * The order of the digests of a workspace, and which papers are new: digests are ordered by
 * the date in their file name (`2026-05-01.digest.txt`), else by modification time; a paper is
 * *new* in the first digest it appears in and a *repeat* in every later one, where it links to
 * the place it was first seen.
 */
import type { Range } from 'vscode-languageserver-types';
import type { FileSummary } from '../workspaceIndex';
import { paperKeyOf } from './paperInfo';
import { compareDigestKeys, digestDateOf, digestOrderKey } from '../digestDates';

/** A digest in order. */
export interface OrderedDigest {
  readonly file: FileSummary;
  /** `YYYY-MM-DD` from the file name, when it has a valid one. */
  readonly date?: string;
  readonly mtime?: number;
  /** Position in the order, 0 = oldest. */
  readonly rank: number;
}

/** Where a paper was first seen. */
export interface FirstSeen {
  readonly uri: string;
  readonly range: Range;
}

/**
 * The date a file name carries, as the statistics read it (`digestDateOf`: the last
 * `YYYY-MM-DD` or `YYYYMMDD` between non-digits that is a real calendar date), so that the
 * digest order and the dates of the statistics and the Papers filter agree.
 *
 * @example
 * dateInFileName('file:///w/2026-05-01.digest.txt') // '2026-05-01'
 * dateInFileName('file:///w/llm_20260503.digest')   // '2026-05-03'
 * dateInFileName('file:///w/notes.digest')          // undefined
 */
export function dateInFileName(uri: string): string | undefined {
  return digestDateOf(uri);
}

/**
 * The files in digest order, oldest first: by the date in the name (as UTC midnight) or else
 * the modification time; at the same time dated files first; files with neither (unsaved)
 * last; then by URI.
 */
export function orderDigests(files: readonly FileSummary[], mtimeOf: (uri: string) => number | undefined): OrderedDigest[] {
  // Each file's key worked out once (`compareDigests` orders two digests the same way).
  const keyed = files.map((file) => {
    const mtime = mtimeOf(file.uri);
    return { file, mtime, key: digestOrderKey(file.uri, mtime) };
  });
  keyed.sort((a, b) => compareDigestKeys(a.key, b.key));
  return keyed.map((each, rank) => ({ file: each.file, ...(each.key.date ? { date: each.key.date } : {}), ...(each.mtime !== undefined ? { mtime: each.mtime } : {}), rank }));
}

/** A paper's place in the digest order: its digest's rank times this, plus its index in the digest. */
export const PLACES_PER_DIGEST = 2 ** 21;

/** The rank of the digest of a place (`firstPlaces`). */
export function rankOfPlace(place: number): number {
  return Math.floor(place / PLACES_PER_DIGEST);
}

/** The index of a place's paper in its digest (`firstPlaces`). */
export function indexOfPlace(place: number): number {
  return place % PLACES_PER_DIGEST;
}

/** Where each paper key was first seen, and the keys of each digest's papers (in order). */
export interface FirstPlaces {
  /** Per key, its first place (`rank * PLACES_PER_DIGEST + index`). */
  readonly first: ReadonlyMap<string, number>;
  /** Per digest (by rank), its papers' keys. */
  readonly keys: readonly (readonly string[])[];
}

/**
 * Where each paper key was first seen, going through the digests in order (and through each
 * file top to bottom): a paper is new exactly when it is at that first place. Places, not the
 * papers: they stay right while the digests keep their order and their papers' keys (an edit
 * that leaves the titles as they were), whichever summaries the index has for them.
 */
export function firstPlaces(ordered: readonly OrderedDigest[]): FirstPlaces {
  const first = new Map<string, number>();
  const keys: string[][] = [];
  for (const digest of ordered) {
    const papers = digest.file.papers;
    const own: string[] = new Array(papers.length);
    for (let i = 0; i < papers.length; i++) {
      const key = paperKeyOf(papers[i]);
      own[i] = key;
      if (!first.has(key)) {
        first.set(key, digest.rank * PLACES_PER_DIGEST + i);
      }
    }
    keys.push(own);
  }
  return { first, keys };
}

/**
 * Whether the digests (in the same order) hold papers of the same keys as when `places` was
 * worked out: then its first places are theirs.
 */
export function samePaperKeys(ordered: readonly OrderedDigest[], places: FirstPlaces): boolean {
  if (ordered.length !== places.keys.length) {
    return false;
  }
  for (let d = 0; d < ordered.length; d++) {
    const papers = ordered[d].file.papers;
    const keys = places.keys[d];
    if (papers.length !== keys.length) {
      return false;
    }
    for (let i = 0; i < papers.length; i++) {
      if (paperKeyOf(papers[i]) !== keys[i]) {
        return false;
      }
    }
  }
  return true;
}
