/**
 * The Papers tree: every paper of the workspace index, grouped by digest topic and keyword hit,
 * by category, by institution or by file, with a count on each group and a filter.
 *
 * The tree is plain data (serialisable as JSON). Node ids are built from what the nodes show,
 * not from positions, so they stay the same across refreshes and edits elsewhere.
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { compareNumbered, compareText, decodeUriText, plainLabel } from '../text';
import { categoryIgnoringCase } from '../taxonomy';
import type { FirstLevelPart, IndexLocation, PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import { foldForSearch } from '../workspaceIndex';
import { RecentMap } from '../recentMap';
import type { PaperReadingInfo, ReadingLookup } from '../reading/paperInfo';
import { NO_READING, paperKeyOf } from '../reading/paperInfo';
import { inRankOrder } from '../reading/rankOrder';
import { isReadingGrouping, ReadingTrees } from './readingTree';
import { categoryKey, compilePaperFilter, digestPath, FilterContext, filterContextOf, groupKey, namedInstitutionGroups } from '../paperFilter';

/**
 * How the papers are grouped. The reading groupings: `unread`, `starred` and `new` (file →
 * paper, newest digest first, only papers that are unread / starred / new), `forYou` (score
 * band → paper, highest score first; papers the interests hide are left out).
 */
export type PapersGrouping = 'topic' | 'category' | 'institution' | 'file' | 'unread' | 'starred' | 'forYou' | 'new';

export const PAPERS_GROUPINGS: readonly PapersGrouping[] = ['topic', 'category', 'institution', 'file', 'unread', 'starred', 'forYou', 'new'];

/** Filters of the tree besides the text filter (see `PapersQuery` in the protocol). */
export interface PapersTreeOptions {
  readonly filter: string;
  readonly unreadOnly?: boolean;
  readonly starredOnly?: boolean;
  readonly newOnly?: boolean;
  readonly tag?: string;
  /** Where the reading state, scores and digest order come from; `NO_READING` when omitted. */
  readonly reading?: ReadingLookup;
}

/** What a group stands for. */
/**
 * What a group stands for. A `page` holds up to `PAGE_SIZE` papers of a bigger group, so that
 * no level of the tree is huge.
 */
export type PapersGroupKind = 'topic' | 'keyword' | 'category' | 'institution' | 'file' | 'page' | 'score';

/**
 * Node text is document text, cleaned and cut (`plainLabel`): no control or bidirectional
 * characters, and at most this many characters in a title, a summary, a label or a detail. It
 * is still plain text: escape it wherever it is rendered as Markdown or HTML.
 */
export const MAX_TITLE_LENGTH = 300;
export const MAX_SUMMARY_LENGTH = 1_000;
export const MAX_LABEL_LENGTH = 200;

/** A group of papers. */
export interface PapersGroupNode {
  readonly kind: 'group';
  /** Unique in the tree and stable across refreshes, e.g. `topic:数学推理/reasoning`. */
  readonly id: string;
  readonly groupKind: PapersGroupKind;
  /** What the group is: a topic, a keyword, a category code, an institution, a file name. */
  readonly label: string;
  /**
   * More about the group: the category's English and Chinese names, the institution's
   * translation, the file's heading. Empty when there is nothing to add.
   */
  readonly detail: string;
  /**
   * How many distinct papers the group holds (after filtering): copies of one paper (the same
   * English title, ignoring case and white space) in several files or places count once.
   */
  readonly count: number;
  /** For file groups: the file. */
  readonly uri?: string;
  /** Whether the group stands for the absence of a value (no topic, no category, ...). */
  readonly missing: boolean;
}

/** A group with its children, as `papersTree` builds it. */
export interface PapersGroup extends PapersGroupNode {
  readonly children: readonly PapersTreeNode[];
}

/**
 * One paper in the tree, with its reading state (`paperKey`, `read`, `starred`, `tags`, `note`,
 * `score`, `reasons`, `isNew`, `firstSeen`, `arxivSearchUrl`: see `PaperReadingInfo`).
 */
export interface PaperNode extends PaperReadingInfo {
  readonly kind: 'paper';
  /** Unique in the tree (the group's id and the paper's key) and stable across refreshes. */
  readonly id: string;
  readonly uri: string;
  /** The whole entry. */
  readonly range: Range;
  /** The English title (where the cursor goes when the paper is opened). */
  readonly selectionRange: Range;
  /** The English title, or the Chinese title when there is none. */
  readonly title: string;
  /** The Chinese title (empty when missing or already used as `title`). */
  readonly chineseTitle: string;
  /** The `AI总结` text, cleaned and cut to `MAX_SUMMARY_LENGTH`. Document text: escape it wherever it is rendered. */
  readonly summary: string;
  /** Whether another paper with the same English title is in the workspace. */
  readonly duplicate: boolean;
  /** How many other papers have the same English title, in any file. */
  readonly duplicateCount: number;
  /**
   * The other papers with the same English title (their title ranges), sorted by URI and line;
   * at most `MAX_DUPLICATE_LOCATIONS` of them.
   */
  readonly duplicates: readonly IndexLocation[];
}

export type PapersTreeNode = PapersGroup | PaperNode;

/** The tree of one grouping and filter at one generation of the index. */
export interface PapersTree {
  readonly grouping: PapersGrouping;
  /** The filter as given ('' for none). */
  readonly filter: string;
  /** The other filters, as a key (for the cache). */
  readonly queryKey: string;
  /** The index generation the tree was built from. */
  readonly generation: number;
  /** The reading-state generation the tree was built from. */
  readonly stateGeneration: number;
  /**
   * How many papers match the filter, each place counted (a paper listed by two digests counts
   * twice here, once in a group's `count`).
   */
  readonly paperCount: number;
  /** How many distinct papers match the filter: copies of one paper (as in a group's `count`) count once. */
  readonly distinctPaperCount: number;
  readonly roots: readonly PapersGroup[];
}

/** A group with more papers than this shows them in pages of this many. */
export const PAGE_SIZE = 1000;

/** At most this many duplicate locations are listed on a paper node. */
export const MAX_DUPLICATE_LOCATIONS = 20;

/** Labels of the groups that collect papers without a value. */
export const MISSING_LABELS: Record<PapersGroupKind, string> = {
  topic: '(no topic)',
  keyword: '(no keyword hits)',
  category: '(no category)',
  institution: '(no institution)',
  file: '(no file)',
  page: '',
  score: '',
};

/** The detail of a category group whose code arXiv does not have (in English: treeLabels.ts words it in the message language). */
export const UNKNOWN_CATEGORY_DETAIL = 'not in the arXiv taxonomy';

/** The score bands of the `forYou` grouping, in this order. */
const SCORE_BANDS = [
  { key: 'high', label: 'Recommended', detail: 'matches your interests' },
  { key: 'zero', label: 'Other papers', detail: 'no interest matched' },
  { key: 'low', label: 'Pushed down', detail: 'negative interests' },
] as const;

/** A key of the filters other than the text filter. */
export function queryKeyOf(options: PapersTreeOptions): string {
  return `${options.unreadOnly ? 'u' : ''}${options.starredOnly ? 's' : ''}${options.newOnly ? 'n' : ''}|${options.tag ?? ''}`;
}

/**
 * Builds the Papers tree of the index.
 *
 * - `topic`: topic → keyword hit → paper; a paper is under each of its keywords.
 * - `category`: category code (case corrected when the taxonomy knows it) → paper.
 * - `institution`: institution (case and white space folded) → paper.
 * - `file`: digest file → paper, files by URI.
 *
 * Groups come by count, largest first, then by label; groups of missing values come last.
 * Papers come in file order (URI, then position). The filter keeps papers whose English or
 * Chinese title, authors or institutions contain it, ignoring case, or, written `field:value`
 * (`topic:数学推理`, `category:cs.CL`, `date:2026-05-01`, ...), whose field has that value
 * (see `compilePaperFilter`).
 *
 * @example
 * const tree = papersTree(index, 'topic', '');
 * tree.roots[0].label;                          // '数学推理'
 * tree.roots[0].count;                          // 12
 * tree.roots[0].children[0].label;              // 'reasoning'
 * (tree.roots[0].children[0] as PapersGroup).children[0].title // 'Sparse Probes ...'
 */
export function papersTree(index: WorkspaceIndex, grouping: PapersGrouping, filterOrOptions: string | PapersTreeOptions, token: Cancellation = NEVER_CANCELLED): PapersTree {
  const options: PapersTreeOptions = typeof filterOrOptions === 'string' ? { filter: filterOrOptions } : filterOrOptions;
  const reading = options.reading ?? NO_READING;
  const base = { grouping, filter: options.filter, queryKey: queryKeyOf(options), generation: index.generation, stateGeneration: reading.generation };
  const placed = placePapers(index, grouping, options, token, true);
  if (!placed) {
    return { ...base, paperCount: 0, distinctPaperCount: 0, roots: [] };
  }
  const { root, paperCount, distinctPaperCount } = placed;
  return { ...base, paperCount, distinctPaperCount, roots: root.build(new DuplicateLookup(index), sortsByCount(grouping), reading) as PapersGroup[] };
}

/**
 * What a grouping's first level groups papers by (`FirstLevelPart`): what the files read for the
 * first level before the first scan must have of each paper for the early index to answer it;
 * undefined for the groupings the early index never answers (by reading state, and For You).
 *
 * @example firstLevelPartOf('category') // 'categories'
 */
export function firstLevelPartOf(grouping: PapersGrouping): FirstLevelPart | undefined {
  switch (grouping) {
    case 'topic':
      return 'topic';
    case 'category':
      return 'categories';
    case 'institution':
      return 'institutions';
    case 'file':
      return 'none';
    default:
      return undefined;
  }
}

/**
 * The first level of `papersTree(index, grouping, '')`, its groups without children, and its
 * counts: what the tree's first level answers while the first scan runs (from the index kept
 * between starts). The same groups as the whole tree's, without the work of its deeper levels
 * (a topic's keyword groups, pages, paper nodes). Undefined when cancelled while the papers are
 * placed (looked at every 1,024 papers, as `papersTree` does).
 *
 * @example papersTreeFirstLevel(index, 'topic')?.nodes[0] // { kind: 'group', id: 'topic:数学推理', label: '数学推理', count: 12, ... }
 */
export function papersTreeFirstLevel(index: WorkspaceIndex, grouping: PapersGrouping, token: Cancellation = NEVER_CANCELLED): { paperCount: number; distinctPaperCount: number; nodes: PapersGroupNode[] } | undefined {
  const placed = placePapers(index, grouping, { filter: '' }, token, false);
  return placed && { paperCount: placed.paperCount, distinctPaperCount: placed.distinctPaperCount, nodes: placed.root.firstLevel(sortsByCount(grouping)) };
}

/** Whether a grouping's groups come largest first (else by label, or in their own order). */
function sortsByCount(grouping: PapersGrouping): boolean {
  return grouping !== 'file' && grouping !== 'unread' && grouping !== 'starred' && grouping !== 'new' && grouping !== 'forYou';
}

/**
 * The papers the options keep, placed in their groups (`deep`: in the groups below the first
 * level too) and counted; undefined when cancelled.
 */
function placePapers(index: WorkspaceIndex, grouping: PapersGrouping, options: PapersTreeOptions, token: Cancellation, deep: boolean): { root: GroupBuilder; paperCount: number; distinctPaperCount: number } | undefined {
  const reading = options.reading ?? NO_READING;
  const context = filterContextOf(index);
  const keep = compilePaperFilter(options.filter, context);
  const root = new GroupBuilder(index.repeatedTitleKeys(), '', 'topic', '', '', false);
  let paperCount = 0;
  let seen = 0;
  const matching: { paper: PaperSummary; heading: string }[] = [];
  for (const file of index.files()) {
    for (const paper of file.papers) {
      if ((++seen & 1023) === 0 && token.isCancellationRequested) {
        return undefined;
      }
      if (keep && !keep(paper)) {
        continue;
      }
      if (!keepsPaper(options, grouping, reading, paper)) {
        continue;
      }
      matching.push({ paper, heading: file.heading ?? '' });
    }
  }
  if (grouping === 'forYou') {
    // One place per paper, the one the ranked list (triage, `papers`) gives it: its place in the
    // newest digest (copies of a paper in two digests are one paper, in one band), scored by
    // what that copy says; then the highest score first, equal scores newest digest first, then
    // in file order (`inRankOrder`, as `rankPapers`).
    const newest = new Map<string, number>();
    for (let i = 0; i < matching.length; i++) {
      const identity = paperIdentity(matching[i].paper);
      const known = newest.get(identity);
      if (known === undefined || reading.digestRank(matching[i].paper.uri) > reading.digestRank(matching[known].paper.uri)) {
        newest.set(identity, i);
      }
    }
    const kept = Array.from(Uint32Array.from(newest.values()).sort(), (i) => matching[i]);
    // The score alone: the reading information of every paper was 1 KB each, kept.
    const ordered = inRankOrder(kept, (each) => reading.score(each.paper), (each) => reading.digestRank(each.paper.uri));
    for (let i = 0; i < ordered.length; i++) matching[i] = ordered[i];
    matching.length = ordered.length;
  }
  const distinct = new DistinctPapers(index.repeatedTitleKeys());
  for (const { paper, heading } of matching) {
    paperCount++;
    distinct.add(paper);
    placePaper(root, grouping, paper, heading, reading, context, deep);
  }
  return { root, paperCount, distinctPaperCount: distinct.size };
}

/**
 * Whether a grouping shows a paper at all: the reading groupings only the unread, starred or new
 * papers, *For you* none that the interests hide; the others every paper.
 */
export function groupingShows(grouping: PapersGrouping, reading: ReadingLookup, paper: PaperSummary): boolean {
  return keepsPaper({ filter: '' }, grouping, reading, paper);
}

/** Whether the reading filters (and the grouping's own condition) keep a paper. */
function keepsPaper(options: PapersTreeOptions, grouping: PapersGrouping, reading: ReadingLookup, paper: PaperSummary): boolean {
  const needsInfo = options.unreadOnly || options.starredOnly || options.newOnly || options.tag !== undefined || grouping === 'unread' || grouping === 'starred' || grouping === 'new';
  if (grouping === 'forYou' && reading.hidden(paper)) {
    return false;
  }
  if (!needsInfo) {
    return true;
  }
  const info = reading.flags(paper);
  if ((options.unreadOnly || grouping === 'unread') && info.read) {
    return false;
  }
  if ((options.starredOnly || grouping === 'starred') && !info.starred) {
    return false;
  }
  if ((options.newOnly || grouping === 'new') && !info.isNew) {
    return false;
  }
  return options.tag === undefined || info.tags.includes(options.tag);
}

/**
 * The paper of the index under a position, for following the cursor.
 *
 * @example
 * paperAt(index, 'file:///w/a.digest', { line: 4, character: 3 })?.title
 */
export function paperAt(index: WorkspaceIndex, uri: string, position: Position): PaperSummary | undefined {
  return index.paperAt(uri, position);
}

/** A group or paper node without children, as the tree request hands it out. */
export type PapersTreeItem = PapersGroupNode | PaperNode;

/**
 * A built tree with lookups by id: what the server keeps to hand the tree out level by level.
 *
 * @example
 * const lookup = new PapersTreeLookup(papersTree(index, 'file', ''));
 * lookup.childrenOf(undefined);       // the root groups, without their children
 * lookup.pathToPaper(paper);          // [file group, paper node]
 */
/** What the server asks of a built tree (`PapersTreeLookup`, or a reading tree: features/readingTree.ts). */
export interface PapersTreeView {
  readonly tree: PapersTree;
  childrenOf(id: string | undefined): PapersTreeItem[] | undefined;
  papersUnder(id: string): PaperSummary[] | undefined;
  pathToPaper(paper: PaperSummary): PapersTreeItem[] | undefined;
}

export class PapersTreeLookup implements PapersTreeView {
  private readonly byId = new Map<string, PapersTreeNode>();
  private readonly parents = new Map<string, PapersGroup>();
  /** The node that holds the first node of each paper, in depth-first order. */
  private readonly firstHolder = new Map<PaperSummary, PapersGroup>();
  /** Holders whose paper nodes have been made and registered. */
  private readonly materialised = new Set<PapersGroup>();
  /** The first placed copy of each paper by its identity, made when a paper not placed is asked for. */
  private byIdentity: Map<string, PaperSummary> | undefined;

  constructor(readonly tree: PapersTree) {
    // Groups are registered at once; paper nodes are made when their group is first asked for.
    const visit = (node: PapersGroup, parent: PapersGroup | undefined): void => {
      this.byId.set(node.id, node);
      if (parent) {
        this.parents.set(node.id, parent);
      }
      const internals = GROUP_INTERNALS.get(node);
      for (const child of internals?.subgroups ?? []) {
        visit(child, node);
      }
      for (const paper of internals?.papers ?? []) {
        if (!this.firstHolder.has(paper)) {
          this.firstHolder.set(paper, node);
        }
      }
    };
    for (const root of tree.roots) {
      visit(root, undefined);
    }
  }

  /** The node with the id. */
  node(id: string): PapersTreeNode | undefined {
    const known = this.byId.get(id);
    if (known || !id.includes('|')) {
      return known;
    }
    // A paper's id starts with its group's id; in a paged group it is in one of the pages.
    const group = this.byId.get(id.slice(0, id.indexOf('|')));
    if (group?.kind === 'group') {
      this.materialise(group);
      for (const page of GROUP_INTERNALS.get(group)?.subgroups ?? []) {
        if (page.groupKind === 'page') {
          this.materialise(page);
        }
      }
    }
    return this.byId.get(id);
  }

  /**
   * The children of a group without their own children (the roots when `id` is undefined);
   * undefined when the id is not in the tree.
   */
  childrenOf(id: string | undefined): PapersTreeItem[] | undefined {
    if (id === undefined) {
      return this.tree.roots.map(withoutChildren);
    }
    const node = this.byId.get(id);
    if (node?.kind !== 'group') {
      return undefined;
    }
    this.materialise(node);
    return node.children.map(withoutChildren);
  }

  /**
   * The papers below a node (each once, in tree order), for "mark all read" of a group;
   * undefined when the id is not in the tree.
   */
  papersUnder(id: string): PaperSummary[] | undefined {
    const start = this.byId.get(id);
    if (!start) {
      return undefined;
    }
    const result = new Set<PaperSummary>();
    const visit = (node: PapersTreeNode): void => {
      if (node.kind === 'group') {
        node.children.forEach(visit);
      } else {
        const paper = SUMMARY_OF_NODE.get(node);
        if (paper) {
          result.add(paper);
        }
      }
    };
    visit(start);
    return [...result];
  }

  /**
   * The nodes from a root group down to the first node of the paper, without children. The
   * paper must come from the index at the tree's generation.
   */
  pathToPaper(paper: PaperSummary): PapersTreeItem[] | undefined {
    let holder = this.firstHolder.get(paper);
    if (!holder && this.tree.grouping === 'forYou') {
      // Another copy of the paper stands for it: For you lists a paper of two digests once.
      this.byIdentity ??= new Map([...this.firstHolder.keys()].reverse().map((each) => [paperIdentity(each), each]));
      const copy = this.byIdentity.get(paperIdentity(paper));
      holder = copy && this.firstHolder.get(copy);
      if (copy) paper = copy;
    }
    if (!holder) {
      return undefined;
    }
    this.materialise(holder);
    const first = holder.children.find((child) => child.kind === 'paper' && SUMMARY_OF_NODE.get(child) === paper);
    if (!first) {
      return undefined;
    }
    const path: PapersTreeItem[] = [first];
    let parent = this.parents.get(first.id);
    while (parent) {
      path.unshift(withoutChildren(parent));
      parent = this.parents.get(parent.id);
    }
    return path;
  }

  /** Makes the paper nodes of a group and registers them. */
  private materialise(group: PapersGroup): void {
    if (this.materialised.has(group)) {
      return;
    }
    this.materialised.add(group);
    for (const child of group.children) {
      if (child.kind === 'paper') {
        this.byId.set(child.id, child);
        this.parents.set(child.id, group);
      }
    }
  }
}

/**
 * Keeps the last tree built, rebuilt only when the index, the grouping or the filter change.
 *
 * @example
 * const trees = new PapersTreeCache();
 * trees.get(index, 'topic', '') === trees.get(index, 'topic', ''); // true until the index changes
 */
export class PapersTreeCache {
  private last: PapersTreeView | undefined;
  /** The unread, starred and new trees, which follow a state change without being built again. */
  private readonly readingTrees = new ReadingTrees();

  /** Forgets the last tree (and the summaries it holds). */
  clear(): void {
    this.last = undefined;
    this.readingTrees.clear();
  }

  get(index: WorkspaceIndex, grouping: PapersGrouping, filterOrOptions: string | PapersTreeOptions, token: Cancellation = NEVER_CANCELLED): PapersTreeView {
    const options: PapersTreeOptions = typeof filterOrOptions === 'string' ? { filter: filterOrOptions } : filterOrOptions;
    const stateGeneration = (options.reading ?? NO_READING).generation;
    const last = this.last;
    if (
      last &&
      last.tree.generation === index.generation &&
      last.tree.stateGeneration === stateGeneration &&
      last.tree.grouping === grouping &&
      last.tree.filter === options.filter &&
      last.tree.queryKey === queryKeyOf(options)
    ) {
      return last;
    }
    const lookup = (isReadingGrouping(grouping) && this.readingTrees.get(index, grouping, options, token)) || new PapersTreeLookup(papersTree(index, grouping, options, token));
    if (!token.isCancellationRequested) {
      this.last = lookup;
    }
    return lookup;
  }
}

/** Strips the children of a group (without making them); papers are returned as they are. */
export function withoutChildren(node: PapersTreeNode): PapersTreeItem {
  if (node.kind === 'paper') {
    return node;
  }
  const group: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    if (key !== 'children') {
      group[key] = (node as unknown as Record<string, unknown>)[key];
    }
  }
  return group as unknown as PapersGroupNode;
}

// ---------------------------------------------------------------------------------------------

/** The summary each paper node was made from (kept out of the node, which is sent as JSON). */
const SUMMARY_OF_NODE = new WeakMap<PaperNode, PaperSummary>();

/**
 * The group key of a keyword: folded, runs of white space as one space. The same keywords come
 * back in paper after paper (about 200,000 of them in a tree of 100,000 papers): each is folded
 * once, in a table of the last 4,096 different ones.
 */
function keywordKey(keyword: string): string {
  return keywordKeys.get(keyword) ?? keywordKeys.remember(keyword, foldForSearch(keyword).replace(/\s+/g, ' '));
}

const keywordKeys = new RecentMap<string>(4096);

/** The group key of a topic (`groupKey`), each folded once in a table of the last 4,096 different ones. */
function topicKey(topic: string): string {
  return topicKeys.get(topic) ?? topicKeys.remember(topic, groupKey(topic));
}

const topicKeys = new RecentMap<string>(4096);

/** Places a paper in its groups of the first level, and (`deep`) in those below. */
function placePaper(root: GroupBuilder, grouping: PapersGrouping, paper: PaperSummary, heading: string, reading: ReadingLookup, names: FilterContext | undefined, deep: boolean): void {
  switch (grouping) {
    case 'unread':
    case 'starred':
    case 'new':
      root.group('file', paper.uri, fileLabel(names, paper.uri), heading, -reading.digestRank(paper.uri)).add(paper);
      return;
    case 'forYou': {
      const score = reading.score(paper);
      const band = score > 0 ? 0 : score === 0 ? 1 : 2;
      root.group('score', SCORE_BANDS[band].key, SCORE_BANDS[band].label, SCORE_BANDS[band].detail, band).add(paper);
      return;
    }
    case 'topic': {
      // Grouped as the statistics and `topic:` count them: case, full-width forms and runs of
      // white space folded (`topicKey`); the group shows the first spelling met.
      const topic = root.group('topic', topicKey(paper.topic), paper.topic.trim(), '');
      // The topic's count is its own (`add` below), not its keyword groups'.
      if (!deep) {
        topic.add(paper, false);
        return;
      }
      if (paper.keywords.length === 0) {
        topic.group('keyword', '', '', '').add(paper);
      }
      for (const keyword of paper.keywords) {
        topic.group('keyword', keywordKey(keyword), keyword, '').add(paper);
      }
      topic.add(paper, false);
      return;
    }
    case 'category': {
      if (paper.categories.length === 0) {
        root.group('category', '', '', '').add(paper);
      }
      for (const code of paper.categories) {
        // As the statistics and `category:` count them: `ｃｓ．ＣＬ` is `cs.CL`, `CS.zz` is `cs.ZZ`.
        const label = categoryKey(code);
        const category = categoryIgnoringCase(label);
        const detail = category ? `${category.name} · ${category.nameZh}` : UNKNOWN_CATEGORY_DETAIL;
        root.group('category', label.toLowerCase(), label, detail).add(paper);
      }
      return;
    }
    case 'institution': {
      if (paper.institutions.length === 0) {
        root.group('institution', '', '', '').add(paper);
      }
      // An item named in Chinese only goes to the institution that name is given to.
      for (const institution of namedInstitutionGroups(paper.institutions, paperKeyOf(paper), names)) {
        root.group('institution', institution.key, institution.label, institution.translation).add(paper);
      }
      return;
    }
    case 'file':
      // In the order of the files' names: digests of the same name in two folders side by side.
      root.group('file', paper.uri, fileLabel(names, paper.uri), heading, 0, fileName(paper.uri)).add(paper);
      return;
  }
}

/**
 * Counts distinct papers (`paperIdentity`), each summary added at most once: a paper whose title
 * key no other paper of the workspace has is counted without a set of 100,000 keys.
 */
export class DistinctPapers {
  private unique = 0;
  private readonly shared = new Set<string>();

  /** `repeated`: the index's `repeatedTitleKeys`. */
  constructor(private readonly repeated: ReadonlySet<string>) {}

  add(paper: PaperSummary): void {
    if (paper.titleKey && this.repeated.has(paper.titleKey)) {
      this.shared.add(paper.titleKey);
    } else if (!paper.titleKey && paper.key.startsWith('zh:')) {
      // A paper with a Chinese title only is one paper wherever it comes, as its state key says.
      this.shared.add(paperKeyOf(paper));
    } else {
      // No other paper has the key, or it has none: its identity is its place, its own.
      this.unique++;
    }
  }

  get size(): number {
    return this.unique + this.shared.size;
  }
}

/** Collects the papers and subgroups of one group while the tree is built. */
class GroupBuilder {
  private readonly groups = new Map<string, GroupBuilder>();
  /** Papers placed directly in the group, in order, each once. */
  private readonly papers: PaperSummary[] = [];
  /** Every distinct paper below the group, for the count: copies of a paper in several places count once. */
  private readonly counted: DistinctPapers;
  /**
   * The summary placed last. Each paper is placed in one go (`placePaper`), one after another:
   * a paper placed twice in a group (two keywords of one key) is placed twice in a row.
   */
  private lastPlaced: PaperSummary | undefined;

  constructor(
    /** The index's `repeatedTitleKeys`. */
    private readonly repeated: ReadonlySet<string>,
    readonly id: string,
    readonly kind: PapersGroupKind,
    readonly label: string,
    /** Set by the first paper that has one (a department's paper may come before). */
    public detail: string,
    readonly missing: boolean,
    /** Groups with a lower order come first, before the other sort keys. */
    readonly order = 0,
    /** What the group is sorted by after its order and count: its label, unless told otherwise. */
    readonly sortLabel = label,
  ) {
    this.counted = new DistinctPapers(repeated);
  }

  /**
   * The subgroup with the key, created with the label and detail of its first paper; `sortLabel`,
   * what it is sorted by when that is not its label (a digest's file name, its label naming the end
   * of its path when another folder has one of the same name).
   */
  group(kind: PapersGroupKind, key: string, label: string, detail: string, order = 0, sortLabel = label): GroupBuilder {
    let group = this.groups.get(key);
    if (!group) {
      const missing = key === '';
      const id = (this.id ? this.id + '/' : kind + ':') + (missing ? '%00' : encodeIdPart(key));
      group = new GroupBuilder(this.repeated, id, kind, missing ? MISSING_LABELS[kind] : label, detail, missing, order, missing ? MISSING_LABELS[kind] : sortLabel);
      this.groups.set(key, group);
    } else if (group.detail === '' && detail !== '') {
      group.detail = detail;
    }
    return group;
  }

  /** Adds a paper to the group (as a child when `asChild`), counting it once. */
  add(paper: PaperSummary, asChild = true): void {
    if (this.lastPlaced === paper) {
      return;
    }
    this.lastPlaced = paper;
    this.counted.add(paper);
    if (asChild) {
      this.papers.push(paper);
    }
  }

  get count(): number {
    return this.counted.size;
  }

  /** The subgroups as nodes, sorted; and the group's own papers after them. */
  build(duplicates: DuplicateLookup, byCount: boolean, reading: ReadingLookup): PapersTreeNode[] {
    const groups = this.sortedGroups(byCount);
    const nodes: PapersTreeNode[] = groups.map((group) => group.node(duplicates, reading));
    // Paper ids name the group, not the page, so that they stay put when pages shift.
    const makePaper = (paper: PaperSummary): PaperNode => paperNode(duplicates, this.id, paper, reading);
    if (this.papers.length <= PAGE_SIZE) {
      nodes.push(...this.papers.map(makePaper));
      return nodes;
    }
    nodes.push(...this.pages(makePaper));
    return nodes;
  }

  /**
   * The group as a node. Its subgroups and pages are made now; its paper nodes (the bulk of a
   * big tree) when its children are first read.
   */
  node(duplicates: DuplicateLookup, reading: ReadingLookup): PapersGroup {
    const groups = this.sortedGroups(true).map((group) => group.node(duplicates, reading));
    const makePaper = (paper: PaperSummary): PaperNode => paperNode(duplicates, this.id, paper, reading);
    const fields = this.fields();
    if (this.papers.length <= PAGE_SIZE) {
      return lazyGroup(fields, groups, this.papers, makePaper);
    }
    return lazyGroup(fields, [...groups, ...this.pages(makePaper)], [], makePaper);
  }

  /** The subgroups as nodes without children, sorted (`papersTreeFirstLevel`). */
  firstLevel(byCount: boolean): PapersGroupNode[] {
    return this.sortedGroups(byCount).map((group) => group.fields());
  }

  /** The group's node without its children. */
  private fields(): PapersGroupNode {
    return {
      kind: 'group',
      id: this.id,
      groupKind: this.kind,
      label: plainLabel(this.label, MAX_LABEL_LENGTH),
      detail: plainLabel(this.detail, MAX_LABEL_LENGTH),
      count: this.count,
      ...(this.kind === 'file' ? { uri: this.papers[0]?.uri } : {}),
      missing: this.missing,
    };
  }

  /**
   * The subgroups: missing values last, then by order, count (when `byCount`), label or `sortLabel` (as
   * `compareLabels` orders them: whatever their case, numbers by value, `a.digest`, `B.digest`,
   * `c.digest`, `day-2`, `day-10`) and id.
   */
  private sortedGroups(byCount: boolean): GroupBuilder[] {
    const groups = [...this.groups.values()];
    const folded = new Map(groups.map((group) => [group, group.sortLabel.toLowerCase()]));
    groups.sort((a, b) => {
      if (a.missing !== b.missing) {
        return a.missing ? 1 : -1;
      }
      if (a.order !== b.order) {
        return a.order - b.order;
      }
      if (byCount && a.count !== b.count) {
        return b.count - a.count;
      }
      return compareNumbered(folded.get(a)!, folded.get(b)!) || compareText(a.sortLabel, b.sortLabel) || compareText(a.label, b.label) || compareText(a.id, b.id);
    });
    return groups;
  }

  private pages(makePaper: (paper: PaperSummary) => PaperNode): PapersGroup[] {
    const pages: PapersGroup[] = [];
    for (let start = 0; start < this.papers.length; start += PAGE_SIZE) {
      const papers = this.papers.slice(start, start + PAGE_SIZE);
      const fields = {
        kind: 'group' as const,
        id: `${this.id}/%page${start / PAGE_SIZE + 1}`,
        groupKind: 'page' as const,
        label: `Papers ${start + 1}–${start + papers.length}`,
        detail: '',
        count: new Set(papers.map(paperIdentity)).size,
        missing: false,
      };
      pages.push(lazyGroup(fields, [], papers, makePaper));
    }
    return pages;
  }
}

/** What the lookup needs of a group without making its paper nodes. */
interface GroupInternals {
  /** The children that are groups (subgroups, then pages), made already. */
  readonly subgroups: readonly PapersGroup[];
  /** The papers whose nodes follow them among the children. */
  readonly papers: readonly PaperSummary[];
}

const GROUP_INTERNALS = new WeakMap<PapersGroupNode, GroupInternals>();

/**
 * A group node whose `children` (enumerable, so JSON and tests see plain data) are made on
 * first read: the subgroups, then one node per paper.
 */
function lazyGroup(fields: PapersGroupNode, subgroups: readonly PapersGroup[], papers: readonly PaperSummary[], makePaper: (paper: PaperSummary) => PaperNode): PapersGroup {
  const node = { ...fields } as PapersGroup;
  let children: PapersTreeNode[] | undefined;
  Object.defineProperty(node, 'children', {
    enumerable: true,
    get: () => (children ??= papers.length === 0 ? [...subgroups] : [...subgroups, ...papers.map(makePaper)]),
  });
  GROUP_INTERNALS.set(node, { subgroups, papers });
  return node;
}

/**
 * What makes two papers the same paper: the English title (case and white space folded), else
 * the Chinese title (its state key, `zh:…`), or the place when there is neither.
 */
export function paperIdentity(paper: PaperSummary): string {
  return paper.titleKey || (paper.key.startsWith('zh:') ? paperKeyOf(paper) : `\u0000${paper.uri}#${paper.key}`);
}

/** The duplicates of each paper, worked out once per tree however many groups show the paper. */
class DuplicateLookup {
  private readonly known = new Map<PaperSummary, { count: number; locations: IndexLocation[] }>();

  constructor(private readonly index: WorkspaceIndex) {}

  of(paper: PaperSummary): { count: number; locations: IndexLocation[] } {
    let result = this.known.get(paper);
    if (!result) {
      const others = paper.titleKey ? this.index.papersWithTitle(paper.titleKey) : [];
      const locations: IndexLocation[] = [];
      if (others.length > 1) {
        for (const other of others) {
          if (other !== paper) {
            locations.push({ uri: other.uri, range: other.selectionRange });
          }
        }
        locations.sort((a, b) => (a.uri !== b.uri ? (a.uri < b.uri ? -1 : 1) : a.range.start.line - b.range.start.line));
        locations.length = Math.min(locations.length, MAX_DUPLICATE_LOCATIONS);
      }
      result = { count: Math.max(0, others.length - 1), locations };
      this.known.set(paper, result);
    }
    return result;
  }
}

function paperNode(lookup: DuplicateLookup, groupId: string, paper: PaperSummary, reading: ReadingLookup): PaperNode {
  const duplicates = lookup.of(paper);
  const info = reading.info(paper);
  const node: PaperNode = {
    ...info,
    // A reason quotes a topic, keyword, author or institution as written: document text.
    reasons: info.reasons.length === 0 ? info.reasons : info.reasons.map((reason) => plainLabel(reason, MAX_LABEL_LENGTH)),
    kind: 'paper',
    id: `${groupId}|${paper.uri}#${paper.key}`,
    uri: paper.uri,
    range: paper.range,
    selectionRange: paper.selectionRange,
    title: plainLabel(paper.title, MAX_TITLE_LENGTH),
    chineseTitle: paper.englishTitle ? plainLabel(paper.chineseTitle, MAX_TITLE_LENGTH) : '',
    summary: plainLabel(paper.summary, MAX_SUMMARY_LENGTH),
    duplicate: duplicates.count > 0,
    duplicateCount: duplicates.count,
    duplicates: duplicates.locations,
  };
  SUMMARY_OF_NODE.set(node, paper);
  return node;
}

/** Keeps `/` and `|` out of id parts, so that ids split unambiguously. */
function encodeIdPart(part: string): string {
  return part.replace(/[%/|]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The last URI `fileName` was asked for and its answer: papers come file by file. */
let lastFileName = { uri: '', name: '' };

/** The last path segment of a URI, decoded, e.g. `2026-05-01.digest`. */
export function fileName(uri: string): string {
  if (uri === lastFileName.uri) {
    return lastFileName.name;
  }
  const name = fileNameOf(uri);
  lastFileName = { uri, name };
  return name;
}

/**
 * The label of a digest's group: its file name, or, when another digest of the workspace has the
 * same name (in another folder), the end of its path that tells them apart (`a/2026-05-01.digest`).
 */
export function fileLabel(context: FilterContext | undefined, uri: string): string {
  const name = fileName(uri);
  const same = context?.filesNamed(name);
  if (!same || same.length < 2) {
    return name;
  }
  // By the decoded paths a `file:` filter matches the end of.
  const parts = digestPath(uri).split('/');
  const others = same.filter((other) => other !== uri).map(digestPath);
  for (let take = 2; take < parts.length; take++) {
    const suffix = parts.slice(-take).join('/');
    if (others.every((other) => other !== suffix && !other.endsWith('/' + suffix))) {
      return suffix;
    }
  }
  return parts.join('/');
}

function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return decodeUriText(segment);
}

/**
 * A digest file's group of the reading groupings, as `papersTree` makes it, from its papers.
 *
 * @example
 * fileGroupNode(index, reading, uri, '2026-05-01.digest', '大模型推理能力', 3, unreadPapers).count
 */
export function fileGroupNode(index: WorkspaceIndex, reading: ReadingLookup, uri: string, label: string, heading: string, rank: number, papers: readonly PaperSummary[]): PapersGroup {
  const group = new GroupBuilder(index.repeatedTitleKeys(), '', 'topic', '', '', false).group('file', uri, label, heading, -rank);
  for (const paper of papers) {
    group.add(paper);
  }
  return group.node(new DuplicateLookup(index), reading);
}

/** The item (a group without children) of a digest file's group with `count` papers, as `fileGroupNode` gives it. */
export function fileGroupItem(uri: string, label: string, heading: string, count: number): PapersGroupNode {
  return { kind: 'group', id: `file:${encodeIdPart(uri)}`, groupKind: 'file', label: plainLabel(label, MAX_LABEL_LENGTH), detail: plainLabel(heading, MAX_LABEL_LENGTH), count, uri, missing: false };
}

/**
 * The tree node of one paper outside a tree (the ranked list): its id is `prefix|uri#key`.
 *
 * @example
 * standalonePaperNode(index, 'ranked', paper, reading).score
 */
export function standalonePaperNode(index: WorkspaceIndex, prefix: string, paper: PaperSummary, reading: ReadingLookup = NO_READING): PaperNode {
  return paperNode(new DuplicateLookup(index), prefix, paper, reading);
}
