/**
 * Which papers a request means: a scope (keys, a file, a group of a tree, the filters) turned
 * into the papers of the index, and the papers in ranking order.
 */
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { PapersGrouping } from '../features/tree';
import { groupingShows, PapersTreeCache } from '../features/tree';
import type { PaperSummary } from '../workspaceIndex';
import { compilePaperFilter, filterContextOf } from '../paperFilter';
import type { ModelLookup } from './model';
import { paperKeyOf } from './paperInfo';
import { inRankOrder } from './rankOrder';

/** The filters (see `PapersQuery` in the protocol). */
export interface PapersQuery {
  readonly filter?: string;
  readonly unreadOnly?: boolean;
  readonly starredOnly?: boolean;
  readonly newOnly?: boolean;
  readonly tag?: string;
}

/** A set of papers (see `PaperScope` in the protocol). */
export interface PaperScope extends PapersQuery {
  readonly keys?: readonly string[];
  readonly uri?: string;
  readonly groupId?: string;
  readonly grouping?: PapersGrouping;
}

/**
 * Whether a paper passes the filters. The text filter is the Papers view's (`compilePaperFilter`:
 * plain text, or `field:value` terms as the statistics set them), so a scope means the papers
 * the view shows.
 */
export function matchesQuery(lookup: ModelLookup, paper: PaperSummary, query: PapersQuery, keep = compilePaperFilter(query.filter ?? '', filterContextOf(lookup.index))): boolean {
  if (keep && !keep(paper)) {
    return false;
  }
  if (!query.unreadOnly && !query.starredOnly && !query.newOnly && query.tag === undefined) {
    return true;
  }
  const info = lookup.flags(paper);
  return (!query.unreadOnly || !info.read) && (!query.starredOnly || info.starred) && (!query.newOnly || info.isNew) && (query.tag === undefined || info.tags.includes(query.tag));
}

/**
 * The papers of a scope, in file order (every place of a paper that is in several files).
 * A group id that is not in its tree gives no papers.
 *
 * @example
 * papersInScope(lookup, { uri: 'file:///w/2026-05-01.digest' })           // the file's papers
 * papersInScope(lookup, { groupId: 'topic:数学推理', grouping: 'topic' })  // a group's papers
 * papersInScope(lookup, { filter: 'topic:数学推理', grouping: 'forYou' })   // what For you shows
 */
export function papersInScope(lookup: ModelLookup, scope: PaperScope, trees: PapersTreeCache = new PapersTreeCache(), token: Cancellation = NEVER_CANCELLED): PaperSummary[] {
  const keys = scope.keys ? new Set(scope.keys) : undefined;
  let candidates: Iterable<PaperSummary>;
  if (scope.groupId !== undefined) {
    const tree = trees.get(lookup.index, scope.grouping ?? 'topic', { filter: scope.filter ?? '', unreadOnly: scope.unreadOnly, starredOnly: scope.starredOnly, newOnly: scope.newOnly, tag: scope.tag, reading: lookup }, token);
    candidates = tree.papersUnder(scope.groupId) ?? [];
  } else if (scope.uri !== undefined) {
    candidates = lookup.index.file(scope.uri)?.papers ?? [];
  } else {
    candidates = (keys && papersWithKeys(lookup, keys)) || lookup.papers();
  }
  // A group's papers passed the filters when its tree was built with them.
  const keep = scope.groupId !== undefined ? undefined : compilePaperFilter(scope.filter ?? '', filterContextOf(lookup.index));
  // What a grouping shows with the filters, no group named (Mark All Shown Papers Read, the export
  // of what the view shows): *For you* leaves out what the interests hide.
  const grouping = scope.groupId === undefined ? scope.grouping : undefined;
  const result: PaperSummary[] = [];
  for (const paper of candidates) {
    if (scope.uri !== undefined && paper.uri !== scope.uri) {
      continue;
    }
    if (keys && !keys.has(paperKeyOf(paper))) {
      continue;
    }
    if (scope.groupId !== undefined || (matchesQuery(lookup, paper, scope, keep) && (grouping === undefined || groupingShows(grouping, lookup, paper)))) {
      result.push(paper);
    }
  }
  return result;
}

/**
 * The papers with these keys, in file order, from the index's titles (a state change of a few
 * papers does not go over the whole workspace); undefined when a key is not a title key
 * (`zh:`, `untitled:`), which only a pass over the papers finds.
 */
function papersWithKeys(lookup: ModelLookup, keys: ReadonlySet<string>): PaperSummary[] | undefined {
  const found: PaperSummary[] = [];
  for (const key of keys) {
    if (key.startsWith('zh:') || key.startsWith('untitled:')) {
      return undefined;
    }
    found.push(...lookup.index.papersWithTitle(key));
  }
  const fileOrder = new Map(lookup.index.files().map((file, i) => [file.uri, i]));
  return found.sort((a, b) => (fileOrder.get(a.uri) ?? 0) - (fileOrder.get(b.uri) ?? 0) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** Each paper key once: its place in the newest digest (the last in digest order). */
export function distinctPapers(lookup: ModelLookup, papers: readonly PaperSummary[]): PaperSummary[] {
  const byKey = new Map<string, PaperSummary>();
  for (const paper of papers) {
    const key = paperKeyOf(paper);
    const known = byKey.get(key);
    if (!known || lookup.digestRank(paper.uri) > lookup.digestRank(known.uri)) {
      byKey.set(key, paper);
    }
  }
  const chosen = new Set(byKey.values());
  return papers.filter((paper) => chosen.has(paper));
}

/**
 * The papers matching the filters (and `accept`: the CLI's papers of the files it lists), each
 * key once, by score (highest first), then newest digest first, then file order; papers the
 * interests hide are left out (*For you*, triage), unless `keepHidden` (the command line's
 * `papers`, a listing in that order).
 *
 * @example
 * rankPapers(lookup, { unreadOnly: true })[0] // the next paper to triage
 */
export function rankPapers(
  lookup: ModelLookup,
  query: PapersQuery,
  token: Cancellation = NEVER_CANCELLED,
  accept: (paper: PaperSummary) => boolean = () => true,
  keepHidden = false,
): PaperSummary[] {
  const keep = compilePaperFilter(query.filter ?? '', filterContextOf(lookup.index));
  const matching: PaperSummary[] = [];
  let seen = 0;
  for (const paper of lookup.papers()) {
    if ((++seen & 4095) === 0 && token.isCancellationRequested) {
      return [];
    }
    if (accept(paper) && matchesQuery(lookup, paper, query, keep) && (keepHidden || !lookup.hidden(paper))) {
      matching.push(paper);
    }
  }
  // Every paper matched: the distinct papers of the whole index, kept per digest order.
  const distinct = matching.length === seen ? lookup.distinctPapers() : distinctPapers(lookup, matching);
  return inRankOrder(distinct, (paper) => lookup.score(paper), (paper) => lookup.digestRank(paper.uri));
}
