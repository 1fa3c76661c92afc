/**
 * What the language status of a digest shows (`paperDigest/documentStats`): the papers of the
 * open document and the size of the workspace index.
 */
import type { DigestDocument } from '../model';
import { distinctPapersIn, WorkspaceIndex } from '../workspaceIndex';
import { DistinctPapers } from './tree';

/**
 * How many distinct papers the index holds: copies of one paper (the same English title, else the
 * same Chinese title when it has none, as the Papers view's and the statistics' counts tell them)
 * count once. Worked out once per generation of the index.
 *
 * @example distinctPaperCount(index) // 6 for 7 entries, one paper in two digests
 */
export function distinctPaperCount(index: WorkspaceIndex): number {
  const known = DISTINCT.get(index);
  if (known && known.generation === index.generation) {
    return known.count;
  }
  // Counted as the Papers view counts them.
  const distinct = new DistinctPapers(index.repeatedTitleKeys());
  for (const file of index.files()) {
    for (const paper of file.papers) {
      distinct.add(paper);
    }
  }
  const count = distinct.size;
  DISTINCT.set(index, { generation: index.generation, count });
  return count;
}

const DISTINCT = new WeakMap<WorkspaceIndex, { generation: number; count: number }>();

/**
 * The statistics of the language status: the distinct papers of the open document (null when
 * none is given; copies of a paper in it once, as its file group in the Papers view counts them),
 * and the index's digest files and distinct papers.
 *
 * @example documentStats(index, model) // { paperCount: 12, index: { fileCount: 3, paperCount: 40 } }
 */
export function documentStats(index: WorkspaceIndex, document: DigestDocument | undefined): { paperCount: number | null; index: { fileCount: number; paperCount: number } } {
  return { paperCount: document ? distinctPapersIn(document.entries) : null, index: { fileCount: index.files().length, paperCount: distinctPaperCount(index) } };
}
