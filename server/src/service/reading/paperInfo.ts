/**
 * What the reading workflow adds to each paper of the workspace index — its key, state, score
 * and whether it is new — and the lookup the Papers tree and the other features ask for it.
 * The lookup is built by `ReadingModel` (reading/model.ts); `NO_READING` is the neutral one.
 */
import type { Range } from 'vscode-languageserver-types';
import type { PaperSummary } from '../workspaceIndex';
import { wellFormed } from '../text';

/** The reading part of a paper, as the tree, the ranked list and the CLI show it. */
export interface PaperReadingInfo {
  /**
   * The paper's identity across files and digests: `titleKey` of the English title (the key of
   * `duplicate-paper`), or `zh:` + the folded Chinese title when there is no English one.
   */
  readonly paperKey: string;
  readonly read: boolean;
  readonly starred: boolean;
  /** Sorted. */
  readonly tags: readonly string[];
  /** The reader's note, when there is one. User text: escape it wherever it is rendered. */
  readonly note?: string;
  /** The interest score (0 without interests). */
  readonly score: number;
  /** Why: one line per matched interest, e.g. `keyword 'reinforcement learning' in the title, counted double`. */
  readonly reasons: readonly string[];
  /** Whether this is the first digest (in digest order) the paper appears in. */
  readonly isNew: boolean;
  /** For a repeat: where the paper was first seen (its title in the earlier digest). */
  readonly firstSeen?: { readonly uri: string; readonly range: Range };
  /** The arXiv search for the English title (or the Chinese one), built and encoded here. */
  readonly arxivSearchUrl: string;
}

/** What the reading filters test: a paper's state and whether it is new, without its score. */
export type ReadingFlags = Pick<PaperReadingInfo, 'read' | 'starred' | 'tags' | 'isNew'>;

/** The per-paper reading information at one state generation. */
export interface ReadingLookup {
  /** Grows with every change of the state or of the interests. */
  readonly generation: number;
  info(paper: PaperSummary): PaperReadingInfo;
  /** The paper's state and whether it is new, as in `info` but without making the rest. */
  flags(paper: PaperSummary): ReadingFlags;
  /** Whether the interests hide the paper (score at or below `hideBelow`). */
  hidden(paper: PaperSummary): boolean;
  /** The paper's interest score, as in `info` but without making the rest (the For you tree scores every paper). */
  score(paper: PaperSummary): number;
  /** The position of a file in digest order (higher is newer); -1 when unknown. */
  digestRank(uri: string): number;
  /**
   * The state records of the stores the files' states come from (each store once, in file
   * order), by paper key: a record that is the same object as before did not change. Lets the
   * Papers tree follow a state change from the records that changed (features/readingTree.ts);
   * without it the tree is built again.
   */
  stateRecords?(): readonly ReadonlyMap<string, object>[];
}

/**
 * The key of a paper: its title key, else `zh:` and the folded Chinese title, else a key of
 * its place (an untitled paper keeps no state across edits).
 *
 * @example
 * paperKeyOf(summary) // 'sparse probes for arithmetic circuits in small transformers'
 */
export function paperKeyOf(paper: PaperSummary): string {
  if (paper.titleKey) {
    return paper.titleKey;
  }
  const hash = paper.key.lastIndexOf('#');
  const identity = hash >= 0 ? paper.key.slice(0, hash) : paper.key;
  return identity.startsWith('zh:') ? identity : `untitled:${paper.uri}#${paper.entryIndex}`;
}

/**
 * The arXiv search URL of a title, every character of the title percent-encoded (a lone
 * surrogate as U+FFFD).
 *
 * @example
 * arxivSearchUrl('Sparse Probes & Circuits') // 'https://arxiv.org/search/?query=Sparse%20Probes%20%26%20Circuits&searchtype=title'
 */
export function arxivSearchUrl(title: string): string {
  // A lone surrogate (document text may hold one) is encoded as U+FFFD: encodeURIComponent throws on it.
  const query = encodeURIComponent(wellFormed(title.replace(/\s+/g, ' ').trim())).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `https://arxiv.org/search/?query=${query}&searchtype=title`;
}

/** The reading information of a paper with no state, no interests and no digest order. */
export function neutralInfo(paper: PaperSummary): PaperReadingInfo {
  return {
    paperKey: paperKeyOf(paper),
    read: false,
    starred: false,
    tags: [],
    score: 0,
    reasons: [],
    isNew: true,
    arxivSearchUrl: arxivSearchUrl(paper.englishTitle || paper.title),
  };
}

const NEUTRAL_FLAGS: ReadingFlags = { read: false, starred: false, tags: [], isNew: true };

/** No state, no interests: every paper unread, unstarred, new, score 0. */
export const NO_READING: ReadingLookup = {
  generation: 0,
  info: neutralInfo,
  flags: () => NEUTRAL_FLAGS,
  hidden: () => false,
  score: () => 0,
  digestRank: () => -1,
};
