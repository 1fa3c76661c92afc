/**
 * The Papers tree of the reading groupings `unread`, `starred` and `new` (digest file → paper,
 * newest digest first), kept across state changes: what does not depend on the reading state
 * (the file groups in digest order and the papers of each that pass the text filter and *New
 * only*) is worked out once per index generation and digest order; the state part (which
 * papers are unread, starred or tagged, and the counts) follows a state change from the state
 * records that changed, so that marking one paper read does not go over 100,000 papers again.
 *
 * The answers are those of `papersTree` built afresh (the unit tests compare both): the root
 * groups come from the counts kept here; a group's children are made from its papers when the
 * group is first asked for.
 */
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { ReadingFlags, ReadingLookup } from '../reading/paperInfo';
import { paperKeyOf } from '../reading/paperInfo';
import { compilePaperFilter, filterContextOf } from '../paperFilter';
import type { PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import type { PapersGrouping, PapersTree, PapersTreeItem, PapersTreeOptions, PapersTreeView } from './tree';
import { fileGroupNode, fileGroupItem, fileLabel, paperIdentity, PapersTreeLookup, queryKeyOf } from './tree';
import { compareLabels, compareText } from '../text';

/** The groupings this module builds. */
export function isReadingGrouping(grouping: PapersGrouping): grouping is 'unread' | 'starred' | 'new' {
  return grouping === 'unread' || grouping === 'starred' || grouping === 'new';
}

/** One place of a paper in the structure, with whether it passes the state filters now. */
interface Place {
  readonly paper: PaperSummary;
  readonly group: FileGroup;
  readonly identity: string;
  passes: boolean;
}

/** A digest file's group: its papers that pass the filters other than the state ones. */
interface FileGroup {
  readonly uri: string;
  readonly heading: string;
  readonly rank: number;
  readonly label: string;
  readonly places: Place[];
  /** Passing papers below the group, per identity (copies of a paper count once). */
  readonly passing: Map<string, number>;
}

/** What the state filters ask (the grouping's own condition included). */
interface StateFilter {
  readonly unread: boolean;
  readonly starred: boolean;
  readonly tag: string | undefined;
}

function passes(filter: StateFilter, flags: ReadingFlags): boolean {
  return (!filter.unread || !flags.read) && (!filter.starred || flags.starred) && (filter.tag === undefined || flags.tags.includes(filter.tag));
}

function count(map: Map<string, number>, identity: string, delta: number): void {
  const next = (map.get(identity) ?? 0) + delta;
  if (next === 0) {
    map.delete(identity);
  } else {
    map.set(identity, next);
  }
}

/**
 * The state-independent part of a reading tree and the counts at the state last seen.
 */
class ReadingStructure {
  readonly groups: FileGroup[] = [];
  readonly byKey = new Map<string, Place[]>();
  /** Passing papers in the whole tree, per identity. */
  readonly passing = new Map<string, number>();
  /** Passing places (a paper in two files counts twice). */
  passingPlaces = 0;
  /** The state records counted, per store (see `ReadingLookup.stateRecords`). */
  records: readonly ReadonlyMap<string, object>[] = [];
  /** Set when the build was cancelled: not to be kept. */
  cancelled = false;

  constructor(
    readonly index: WorkspaceIndex,
    readonly key: string,
    readonly grouping: 'unread' | 'starred' | 'new',
    readonly options: PapersTreeOptions,
    readonly filter: StateFilter,
    reading: ReadingLookup,
    token: Cancellation,
  ) {
    const context = filterContextOf(index);
    const keep = compilePaperFilter(options.filter, context);
    const newOnly = options.newOnly === true || grouping === 'new';
    let seen = 0;
    for (const file of index.files()) {
      let group: FileGroup | undefined;
      for (const paper of file.papers) {
        if ((++seen & 1023) === 0 && token.isCancellationRequested) {
          this.cancelled = true;
          return;
        }
        if (keep && !keep(paper)) {
          continue;
        }
        const flags = reading.flags(paper);
        if (newOnly && !flags.isNew) {
          continue;
        }
        group ??= { uri: file.uri, heading: file.heading ?? '', rank: reading.digestRank(file.uri), label: fileLabel(context, file.uri), places: [], passing: new Map() };
        const place: Place = { paper, group, identity: paperIdentity(paper), passes: passes(filter, flags) };
        group.places.push(place);
        const key = paperKeyOf(paper);
        const same = this.byKey.get(key);
        if (same) {
          same.push(place);
        } else {
          this.byKey.set(key, [place]);
        }
        if (place.passes) {
          this.add(place, 1);
        }
      }
      if (group) {
        this.groups.push(group);
      }
    }
    // As papersTree sorts the file groups: newest digest first, then label (`compareLabels`) and URI.
    this.groups.sort((a, b) => b.rank - a.rank || compareLabels(a.label, b.label) || compareText(a.uri, b.uri));
    this.records = reading.stateRecords?.() ?? [];
  }

  private add(place: Place, delta: number): void {
    count(place.group.passing, place.identity, delta);
    count(this.passing, place.identity, delta);
    this.passingPlaces += delta;
  }

  /**
   * Brings the counts to the state of `reading`: only the papers whose state record changed
   * are tested again. False when the stores are not the ones counted (then build anew).
   */
  follow(reading: ReadingLookup): boolean {
    const records = reading.stateRecords?.() ?? [];
    if (records.length !== this.records.length) {
      return false;
    }
    const changed = new Set<string>();
    records.forEach((now, i) => {
      const before = this.records[i];
      if (now === before) {
        return;
      }
      for (const [key, record] of now) {
        if (before.get(key) !== record) {
          changed.add(key);
        }
      }
      for (const key of before.keys()) {
        if (!now.has(key)) {
          changed.add(key);
        }
      }
    });
    for (const key of changed) {
      for (const place of this.byKey.get(key) ?? []) {
        const now = passes(this.filter, reading.flags(place.paper));
        if (now !== place.passes) {
          place.passes = now;
          this.add(place, now ? 1 : -1);
        }
      }
    }
    this.records = records;
    return true;
  }
}

/**
 * A reading tree at one state: the root groups and counts as they were then; a group's paper
 * nodes made from its passing papers when it is first asked for.
 */
class ReadingTreeView implements PapersTreeView {
  readonly tree: PapersTree;
  private readonly rootItems: PapersTreeItem[];
  private readonly groups: FileGroup[];
  private readonly lookups = new Map<string, PapersTreeLookup>();
  private readonly byId = new Map<string, FileGroup>();
  private readonly header: Omit<PapersTree, 'roots'>;

  constructor(
    private readonly structure: ReadingStructure,
    private readonly reading: ReadingLookup,
    header: Omit<PapersTree, 'roots' | 'paperCount' | 'distinctPaperCount'>,
  ) {
    this.groups = structure.groups.filter((group) => group.passing.size > 0);
    this.rootItems = this.groups.map((group) => fileGroupItem(group.uri, group.label, group.heading, group.passing.size));
    this.groups.forEach((group, i) => this.byId.set(this.rootItems[i].id, group));
    const view = this;
    this.header = { ...header, paperCount: structure.passingPlaces, distinctPaperCount: structure.passing.size };
    this.tree = {
      ...this.header,
      get roots() {
        return view.groups.map((group) => view.lookupOf(group).tree.roots[0]);
      },
    };
  }

  private lookupOf(group: FileGroup): PapersTreeLookup {
    let lookup = this.lookups.get(group.uri);
    if (!lookup) {
      // The group's papers that pass at this view's state, made when the group is first asked for.
      const papers = group.places.filter((place) => passes(this.structure.filter, this.reading.flags(place.paper))).map((place) => place.paper);
      const node = fileGroupNode(this.structure.index, this.reading, group.uri, group.label, group.heading, group.rank, papers);
      lookup = new PapersTreeLookup({ ...this.header, roots: [node] });
      this.lookups.set(group.uri, lookup);
    }
    return lookup;
  }

  /** The group whose id starts `id` (file groups have no `/` or `|` in their ids). */
  private groupOfId(id: string): FileGroup | undefined {
    return this.byId.get(id.split(/[/|]/)[0]);
  }

  childrenOf(id: string | undefined): PapersTreeItem[] | undefined {
    if (id === undefined) {
      return [...this.rootItems];
    }
    const group = this.groupOfId(id);
    return group ? this.lookupOf(group).childrenOf(id) : undefined;
  }

  papersUnder(id: string): PaperSummary[] | undefined {
    const group = this.groupOfId(id);
    return group ? this.lookupOf(group).papersUnder(id) : undefined;
  }

  pathToPaper(paper: PaperSummary): PapersTreeItem[] | undefined {
    const group = this.groups.find((each) => each.uri === paper.uri);
    return group ? this.lookupOf(group).pathToPaper(paper) : undefined;
  }
}

/**
 * Keeps the structure of the last reading tree and hands out views of it.
 *
 * @example
 * const trees = new ReadingTrees();
 * trees.get(index, 'unread', { filter: '', reading: model.lookup() })?.childrenOf(undefined)
 */
export class ReadingTrees {
  private structure: ReadingStructure | undefined;

  clear(): void {
    this.structure = undefined;
  }

  /** The view; undefined when the lookup cannot tell which state records changed (build afresh). */
  get(index: WorkspaceIndex, grouping: 'unread' | 'starred' | 'new', options: PapersTreeOptions, token: Cancellation = NEVER_CANCELLED): PapersTreeView | undefined {
    const reading = options.reading;
    if (!reading?.stateRecords) {
      return undefined;
    }
    const filter: StateFilter = { unread: options.unreadOnly === true || grouping === 'unread', starred: options.starredOnly === true || grouping === 'starred', tag: options.tag };
    // The digest order: the rank of each file (ranks change only with the files or their dates).
    const order = index.files().map((file) => reading.digestRank(file.uri)).join(',');
    const key = [index.generation, grouping, options.filter, queryKeyOf(options), order].join('\u0000');
    let structure = this.structure;
    if (!structure || structure.key !== key || structure.index !== index || !structure.follow(reading)) {
      structure = new ReadingStructure(index, key, grouping, options, filter, reading, token);
      if (structure.cancelled) {
        return new PapersTreeLookup({ grouping, filter: options.filter, queryKey: queryKeyOf(options), generation: index.generation, stateGeneration: reading.generation, paperCount: 0, distinctPaperCount: 0, roots: [] });
      }
      this.structure = structure;
    }
    return new ReadingTreeView(structure, reading, { grouping, filter: options.filter, queryKey: queryKeyOf(options), generation: index.generation, stateGeneration: reading.generation });
  }
}
