/**
 * What the language status of a digest shows (`paperDigest/documentStats`): the papers of the
 * open document and the size of the workspace index.
 */
import type { DigestDocument } from '../model';
import type { WorkspaceIndex } from '../workspaceIndex';

/**
 * How many distinct papers the index holds: copies of one paper (the same English title, as the
 * Papers view's counts and duplicate-paper tell them) count once.
 *
 * @example distinctPaperCount(index) // 6 for 7 entries, one paper in two digests
 */
export function distinctPaperCount(index: WorkspaceIndex): number {
  let copies = 0;
  for (const key of index.repeatedTitleKeys()) {
    copies += Math.max(0, index.papersWithTitle(key).length - 1);
  }
  return index.paperCount - copies;
}

/**
 * The statistics of the language status: `paperCount` of the open document (null when none is
 * given), and the index's digest files and distinct papers.
 *
 * @example documentStats(index, model) // { paperCount: 12, index: { fileCount: 3, paperCount: 40 } }
 */
export function documentStats(index: WorkspaceIndex, document: DigestDocument | undefined): { paperCount: number | null; index: { fileCount: number; paperCount: number } } {
  return { paperCount: document ? document.entries.length : null, index: { fileCount: index.files().length, paperCount: distinctPaperCount(index) } };
}
