/**
 * The order of the digests of a workspace, and which papers are new: digests are ordered by
 * the date in their file name (`2026-05-01.digest.txt`), else by modification time; a paper is
 * *new* in the first digest it appears in and a *repeat* in every later one, where it links to
 * the place it was first seen.
 */
import type { Range } from 'vscode-languageserver-types';
import type { FileSummary, PaperSummary } from '../workspaceIndex';
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

/**
 * Where each paper key was first seen, going through the digests in order (and through each
 * file top to bottom). A paper is new exactly when it is that first place.
 */
export function firstSeenPapers(ordered: readonly OrderedDigest[]): Map<string, PaperSummary> {
  const first = new Map<string, PaperSummary>();
  for (const digest of ordered) {
    for (const paper of digest.file.papers) {
      const key = paperKeyOf(paper);
      if (!first.has(key)) {
        first.set(key, paper);
      }
    }
  }
  return first;
}
