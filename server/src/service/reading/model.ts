/**
 * The reading model: the workspace index seen with the reading state (per workspace folder),
 * the interests and the digest order. It hands out a `ReadingLookup` per generation, which the
 * Papers tree, the ranked list, CodeLens, hover, export and the CLI share.
 */
import type { PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import type { Interests } from './interests';
import { interestScore, isHidden, NO_INTERESTS, scorePaper } from './interests';
import type { OrderedDigest } from './digestOrder';
import { FirstPlaces, firstPlaces, indexOfPlace, orderDigests, rankOfPlace, samePaperKeys } from './digestOrder';
import type { PaperReadingInfo, ReadingFlags, ReadingLookup } from './paperInfo';
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
    this.keepPlaces();
    this.previous = undefined;
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
      this.keepPlaces();
      this.previous = undefined;
    }
    this.cached = new ModelLookup(this.index, this.sources, this.generationValue, this.previous, this.places);
    this.previous = this.cached;
    this.places = undefined;
    return this.cached;
  }

  /**
   * What the last lookup worked out of the digest order that holds no paper (the first places and
   * the keys), for the next lookup after the index moved: an edit that changes no paper's key (a
   * keystroke in a summary) leaves them right, and they are not worked out again over every paper
   * of the workspace (a hundred thousand, at each pause in typing).
   */
  private keepPlaces(): void {
    const order = (this.previous ?? this.cached)?.orderWithoutPapers();
    if (order) this.places = order;
  }

  private places: OrderKept | undefined;

  /**
   * The last lookup built, while the index stays at its generation: a new lookup after a state
   * or interests change takes over its digest order and paper keys when they are unchanged.
   */
  private previous: ModelLookup | undefined;
}

/** What a lookup works out from the index and the digest order alone, shared by the lookups of one index generation. */
interface OrderDerived extends OrderKept {
  /** The digests' URIs in order, one a line: equal when the order is unchanged. */
  readonly signature: string;
  /**
   * Tells one digest order from another (a number, so that nothing keeps an old order's papers):
   * the same while the order and its papers' keys are (a paper's cached reading information
   * stays right: where it was first seen is a place, read from the index when asked).
   */
  readonly id: number;
  /** `ModelLookup.distinctPapers`, once asked for. */
  distinct?: PaperSummary[];
  /** The state stores' locations of the files, one a line, when `distinctKeys` was worked out. */
  storesSignature?: string;
  /** The distinct paper keys per state store location ('' for none), and their store. */
  distinctKeys?: Map<string, { readonly store: StateStore | undefined; readonly keys: Set<string> }>;
}

/** The part of an `OrderDerived` that holds no paper summary: kept across index generations. */
interface OrderKept {
  readonly signature: string;
  readonly id: number;
  readonly places: FirstPlaces;
  readonly storesSignature?: string;
  readonly distinctKeys?: Map<string, { readonly store: StateStore | undefined; readonly keys: Set<string> }>;
}

/** A paper's reading information, kept while what it was made from stays the same objects. */
interface KnownInfo {
  readonly info: PaperReadingInfo;
  readonly state: PaperState | undefined;
  readonly fixed: UnchangingInfo;
  readonly orderId: number;
}

let nextOrderId = 1;

/**
 * Kept per paper summary across lookups, so that a state change (a new lookup) makes new
 * reading information only for the papers whose state record changed.
 */
const KNOWN_INFO = new WeakMap<PaperSummary, KnownInfo>();

/** The reading information at one generation, computed lazily per paper. */
export class ModelLookup implements ReadingLookup {
  readonly indexGeneration: number;
  /** The digests, oldest first. */
  readonly digests: readonly OrderedDigest[];
  private readonly ranks = new Map<string, number>();
  private readonly order: OrderDerived;
  /** The store and interests of each file (stable within a lookup: a change makes a new one). */
  private readonly sourcesByUri = new Map<string, { readonly store: StateStore | undefined; readonly interests: Interests }>();

  constructor(
    readonly index: WorkspaceIndex,
    private readonly sources: ReadingSources,
    readonly generation: number,
    previous?: ModelLookup,
    kept?: OrderKept,
  ) {
    this.indexGeneration = index.generation;
    this.digests = orderDigests(index.files(), (uri) => sources.mtimeOf(uri));
    for (const digest of this.digests) {
      this.ranks.set(digest.file.uri, digest.rank);
    }
    const signature = this.digests.map((digest) => digest.file.uri).join('\n');
    if (previous && previous.indexGeneration === this.indexGeneration && previous.order.signature === signature) {
      this.order = previous.order;
    } else if (kept && kept.signature === signature && samePaperKeys(this.digests, kept.places)) {
      // The index moved but no paper's key did (an edit in a summary): the first places, the keys
      // per state file and the order's id stand; what holds papers is worked out again when asked.
      this.order = { ...kept };
    } else {
      this.order = { signature, id: nextOrderId++, places: firstPlaces(this.digests) };
    }
  }

  /** The digest order's facts that hold no paper, for the lookup after the next index change. */
  orderWithoutPapers(): OrderKept {
    const { signature, id, places, storesSignature, distinctKeys } = this.order;
    return { signature, id, places, ...(storesSignature !== undefined ? { storesSignature } : {}), ...(distinctKeys ? { distinctKeys } : {}) };
  }

  /**
   * Whether a paper is in the digest of `place`, the first place of its key: new (also when its
   * key has none), where a copy in a later digest is a repeat. A paper written twice in the digest
   * that brought it is new in both places, not a repeat of itself.
   */
  private isAt(paper: PaperSummary, place: number | undefined): boolean {
    return place === undefined || this.digests[rankOfPlace(place)]?.file.uri === paper.uri;
  }

  digestRank(uri: string): number {
    return this.ranks.get(uri) ?? -1;
  }

  private sourcesOf(uri: string): { readonly store: StateStore | undefined; readonly interests: Interests } {
    let known = this.sourcesByUri.get(uri);
    if (!known) {
      known = { store: this.sources.storeFor(uri), interests: this.sources.interestsFor(uri) };
      this.sourcesByUri.set(uri, known);
    }
    return known;
  }

  /** The state record of a paper (in its folder's store). */
  stateOf(paper: PaperSummary): PaperState | undefined {
    return this.sourcesOf(paper.uri).store?.get(paperKeyOf(paper));
  }

  /** The interest score of a paper (without making its reading information). */
  score(paper: PaperSummary): number {
    return unchangingInfo(paper, this.sourcesOf(paper.uri).interests).score;
  }

  info(paper: PaperSummary): PaperReadingInfo {
    const sources = this.sourcesOf(paper.uri);
    const key = paperKeyOf(paper);
    const state = sources.store?.get(key);
    const fixed = unchangingInfo(paper, sources.interests);
    const known = KNOWN_INFO.get(paper);
    if (known && known.state === state && known.fixed === fixed && known.orderId === this.order.id) {
      return known.info;
    }
    const place = this.order.places.first.get(key);
    const isNew = this.isAt(paper, place);
    const index = this.index;
    const firstUri = isNew || place === undefined ? undefined : this.digests[rankOfPlace(place)]?.file.uri;
    const firstIndex = place === undefined ? 0 : indexOfPlace(place);
    const info: PaperReadingInfo = {
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
      // Read from the index when asked: an edit that moved the first copy (its lines) leaves
      // this information cached, the place the same. (A getter of the literal itself: spread, it
      // would be read once.)
      get firstSeen(): PaperReadingInfo['firstSeen'] {
        const paper = firstUri === undefined ? undefined : index.file(firstUri)?.papers[firstIndex];
        return paper ? { uri: paper.uri, range: paper.selectionRange } : undefined;
      },
      // Made when asked (a CodeLens, a tree node), not kept for every paper: about 85 bytes a
      // paper, 9 MB for a year of papers.
      get arxivSearchUrl(): string {
        return arxivSearchUrl(paper.englishTitle || paper.title);
      },
    };
    KNOWN_INFO.set(paper, { info, state, fixed, orderId: this.order.id });
    return info;
  }

  flags(paper: PaperSummary): ReadingFlags {
    const key = paperKeyOf(paper);
    const state = this.sourcesOf(paper.uri).store?.get(key);
    return { read: state?.read === true, starred: state?.starred === true, tags: state?.tags ?? [], isNew: this.isAt(paper, this.order.places.first.get(key)) };
  }

  hidden(paper: PaperSummary): boolean {
    const interests = this.sourcesOf(paper.uri).interests;
    // Scored only when the interests hide anything.
    return interests !== NO_INTERESTS && interests.hideBelow !== undefined && isHidden(interests, this.score(paper));
  }

  stateRecords(): readonly ReadonlyMap<string, PaperState>[] {
    const stores: StateStore[] = [];
    for (const file of this.index.files()) {
      const store = this.sourcesOf(file.uri).store;
      if (store && !stores.includes(store)) {
        stores.push(store);
      }
    }
    return stores.map((store) => store.entries());
  }

  /**
   * Each paper key once, at its place in the newest digest, in file order (as
   * `distinctPapers(lookup, [...lookup.papers()])`): worked out once per index generation and
   * digest order.
   */
  distinctPapers(): readonly PaperSummary[] {
    if (!this.order.distinct) {
      const newest = new Map<string, PaperSummary>();
      for (const paper of this.papers()) {
        const key = paperKeyOf(paper);
        const known = newest.get(key);
        if (!known || this.digestRank(paper.uri) > this.digestRank(known.uri)) {
          newest.set(key, paper);
        }
      }
      const chosen = new Set(newest.values());
      const distinct: PaperSummary[] = [];
      for (const paper of this.papers()) {
        if (chosen.has(paper)) {
          distinct.push(paper);
        }
      }
      this.order.distinct = distinct;
    }
    return this.order.distinct;
  }

  /** Every paper of the index, each once, in file order. */
  *papers(): Iterable<PaperSummary> {
    for (const file of this.index.files()) {
      yield* file.papers;
    }
  }

  /**
   * Distinct paper keys not marked read, in the whole workspace (a paper in two folders once,
   * unread while one of its places is): the keys are collected once per index generation and
   * digest order, then only the states are read.
   */
  unreadCount(): number {
    const files = this.index.files();
    const storesSignature = files.map((file) => this.sourcesOf(file.uri).store?.location ?? '').join('\n');
    const order = this.order;
    if (!order.distinctKeys || order.storesSignature !== storesSignature) {
      const distinct = new Map<string, { store: StateStore | undefined; keys: Set<string> }>();
      for (const file of files) {
        const store = this.sourcesOf(file.uri).store;
        const location = store?.location ?? '';
        let entry = distinct.get(location);
        if (!entry) {
          entry = { store, keys: new Set() };
          distinct.set(location, entry);
        }
        for (const paper of file.papers) {
          entry.keys.add(paperKeyOf(paper));
        }
      }
      order.distinctKeys = distinct;
      order.storesSignature = storesSignature;
    }
    if (order.distinctKeys.size > 1) {
      // Several state files (folders): a paper is counted once, unread while one of its places
      // is unread in its folder's state, as the Unread view shows it.
      const unread = new Set<string>();
      for (const { store, keys } of order.distinctKeys.values()) {
        for (const key of keys) {
          if (store?.get(key)?.read !== true) {
            unread.add(key);
          }
        }
      }
      return unread.size;
    }
    let count = 0;
    for (const { store, keys } of order.distinctKeys.values()) {
      count += keys.size;
      if (!store) {
        continue;
      }
      if (store.entries().size < keys.size) {
        for (const [key, state] of store.entries()) {
          if (state.read === true && keys.has(key)) {
            count--;
          }
        }
      } else {
        for (const key of keys) {
          if (store.get(key)?.read === true) {
            count--;
          }
        }
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
    known = { interests, score: interestScore(interests, paper) };
    UNCHANGING.set(paper, known);
  }
  return known;
}
