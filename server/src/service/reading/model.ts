/**
 * The reading model: the workspace index seen with the reading state (per workspace folder),
 * the interests and the digest order. It hands out a `ReadingLookup` per generation, which the
 * Papers tree, the ranked list, CodeLens, hover, export and the CLI share.
 */
import type { PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import type { Interests } from './interests';
import { isHidden, NO_INTERESTS, scorePaper } from './interests';
import type { OrderedDigest } from './digestOrder';
import { firstSeenPapers, orderDigests } from './digestOrder';
import type { PaperReadingInfo, ReadingLookup } from './paperInfo';
import { arxivSearchUrl, paperKeyOf } from './paperInfo';
import type { PaperState } from './stateFile';
import type { StateStore } from './stateStore';

/** Where the model gets what it does not own. */
export interface ReadingSources {
  /** The state store of the folder a digest is in (undefined: no state for it). */
  storeFor(uri: string): StateStore | undefined;
  /** The interests for a digest (by its folder). */
  interestsFor(uri: string): Interests;
  /** The modification time of a digest on disk, when known. */
  mtimeOf(uri: string): number | undefined;
}

/**
 * @example
 * const model = new ReadingModel(index, sources);
 * model.lookup().info(paper).starred
 * model.invalidate(); // after a state or interests change
 */
export class ReadingModel {
  private generationValue = 1;
  private cached: ModelLookup | undefined;

  constructor(
    readonly index: WorkspaceIndex,
    private readonly sources: ReadingSources,
  ) {}

  get generation(): number {
    return this.generationValue;
  }

  /** Call when the state, the interests or the mtimes changed. */
  invalidate(): void {
    this.generationValue++;
    this.cached = undefined;
  }

  /**
   * Lets go of the lookup when the index changed, so that nothing keeps the summaries of a
   * closed or removed file; the next `lookup()` builds a new one at a new generation.
   */
  forget(): void {
    if (this.cached) {
      this.cached = undefined;
      this.generationValue++;
    }
  }

  /** The lookup of the current index, state and interests (rebuilt only when one changed). */
  lookup(): ModelLookup {
    const cached = this.cached;
    if (cached && cached.indexGeneration === this.index.generation) {
      return cached;
    }
    if (cached) {
      // The index moved: the digest order and the new papers may have changed.
      this.generationValue++;
    }
    this.cached = new ModelLookup(this.index, this.sources, this.generationValue);
    return this.cached;
  }
}

/** The reading information at one generation, computed lazily per paper. */
export class ModelLookup implements ReadingLookup {
  readonly indexGeneration: number;
  /** The digests, oldest first. */
  readonly digests: readonly OrderedDigest[];
  private readonly ranks = new Map<string, number>();
  private readonly firstSeen: Map<string, PaperSummary>;
  private readonly infos = new Map<PaperSummary, PaperReadingInfo>();

  constructor(
    readonly index: WorkspaceIndex,
    private readonly sources: ReadingSources,
    readonly generation: number,
  ) {
    this.indexGeneration = index.generation;
    this.digests = orderDigests(index.files(), (uri) => sources.mtimeOf(uri));
    for (const digest of this.digests) {
      this.ranks.set(digest.file.uri, digest.rank);
    }
    this.firstSeen = firstSeenPapers(this.digests);
  }

  digestRank(uri: string): number {
    return this.ranks.get(uri) ?? -1;
  }

  /** The state record of a paper (in its folder's store). */
  stateOf(paper: PaperSummary): PaperState | undefined {
    return this.sources.storeFor(paper.uri)?.get(paperKeyOf(paper));
  }

  info(paper: PaperSummary): PaperReadingInfo {
    let info = this.infos.get(paper);
    if (!info) {
      const key = paperKeyOf(paper);
      const state = this.sources.storeFor(paper.uri)?.get(key);
      const fixed = unchangingInfo(paper, this.sources.interestsFor(paper.uri));
      const first = this.firstSeen.get(key);
      const isNew = first === undefined || first === paper;
      info = {
        paperKey: key,
        read: state?.read === true,
        starred: state?.starred === true,
        tags: state?.tags ?? [],
        ...(state?.note ? { note: state.note } : {}),
        score: fixed.score,
        // Worked out when first read (a tree node, a hover, an export), not for ranking alone.
        get reasons(): readonly string[] {
          return reasonsOf(paper, fixed);
        },
        isNew,
        ...(!isNew && first ? { firstSeen: { uri: first.uri, range: first.selectionRange } } : {}),
        arxivSearchUrl: fixed.arxivSearchUrl,
      };
      this.infos.set(paper, info);
    }
    return info;
  }

  hidden(paper: PaperSummary): boolean {
    const interests = this.sources.interestsFor(paper.uri);
    return interests !== NO_INTERESTS && isHidden(interests, this.info(paper).score);
  }

  /** Every paper of the index, each once, in file order. */
  *papers(): Iterable<PaperSummary> {
    for (const file of this.index.files()) {
      yield* file.papers;
    }
  }

  /** Distinct paper keys (per state store) not marked read, in the whole workspace. */
  unreadCount(): number {
    const seen = new Set<string>();
    let count = 0;
    for (const paper of this.papers()) {
      const info = this.info(paper);
      const store = this.sources.storeFor(paper.uri)?.location ?? '';
      const id = `${store}\u0000${info.paperKey}`;
      if (seen.has(id)) {
        continue;
      }
      seen.add(id);
      if (!info.read) {
        count++;
      }
    }
    return count;
  }
}

/** What a paper's reading information has that no state change alters. */
interface UnchangingInfo {
  /** The interests `score` was computed with (a new object when they change). */
  readonly interests: Interests;
  readonly score: number;
  /** The reasons for the score, once asked for. */
  reasons?: readonly string[];
  readonly arxivSearchUrl: string;
}

function reasonsOf(paper: PaperSummary, fixed: UnchangingInfo): readonly string[] {
  fixed.reasons ??= scorePaper(fixed.interests, paper).reasons;
  return fixed.reasons;
}

/**
 * Kept per paper summary (an unchanged file keeps its summaries), so that a state change, which
 * builds a new lookup, does not score every paper again: only new interests do.
 */
const UNCHANGING = new WeakMap<PaperSummary, UnchangingInfo>();

function unchangingInfo(paper: PaperSummary, interests: Interests): UnchangingInfo {
  let known = UNCHANGING.get(paper);
  if (!known || known.interests !== interests) {
    known = { interests, score: scorePaper(interests, paper, false).score, arxivSearchUrl: known?.arxivSearchUrl ?? arxivSearchUrl(paper.englishTitle || paper.title) };
    UNCHANGING.set(paper, known);
  }
  return known;
}
