/**
 * A digest's entries by English title key, for the duplicate check, kept from one version of an
 * open document to the next: after a keystroke in 10,000 papers the map of their titles was made
 * again whole (1.3 MB of garbage per keystroke, half of all the checks made). An edit keeps the
 * entry objects it did not touch (incremental.ts), so the entries that differ between two
 * versions are one run in the middle; only that run's keys leave the map and the new run's come
 * in.
 *
 * Exact by construction: an entry's key never changes (`entryTitleKey`, kept with the entry
 * object, and an edit of a title makes a new entry), and each key's entries are kept in document
 * order (entries keep their order; a moved entry's index moves with the others').
 */
import { DigestModel } from '../document';
import type { DigestDocument, Entry } from '../model';
import { entryTitleKey } from './entries';

/** One entry of a title, or the entries of a title listed more than once, in document order. */
export type TitleEntries = Entry | readonly Entry[];

interface KeptTitles {
  readonly entries: readonly Entry[];
  readonly byKey: Map<string, Entry | Entry[]>;
}

/** The last map of each parsed text's entries (by the model's source, which an edit keeps). */
const KEPT = new WeakMap<object, KeptTitles>();

/** Past this share of the entries changed, the map is made again rather than changed. */
const REBUILD_SHARE = 0.25;

/** For tests: how the last map was had. */
export const titleIndexStatistics = { rebuilt: 0, changed: 0, kept: 0 };

/**
 * The entries of a model with an English title, by title key (`entryTitleKey`); entries without
 * one are not in it.
 *
 * @example
 * const first = firstOfTitle(entriesByTitle(doc).get(entryTitleKey(entry))!); // the first copy of the paper in the document
 */
export function entriesByTitle(doc: DigestDocument): ReadonlyMap<string, TitleEntries> {
  const holder = doc instanceof DigestModel ? doc.src : undefined;
  const entries = doc.entries;
  const kept = holder ? KEPT.get(holder) : undefined;
  let byKey: Map<string, Entry | Entry[]>;
  if (kept && kept.entries === entries) {
    titleIndexStatistics.kept++;
    return kept.byKey;
  }
  const window = kept ? changedRun(kept.entries, entries) : undefined;
  if (kept && window && window.oldEnd - window.start + (window.newEnd - window.start) <= Math.max(16, entries.length * REBUILD_SHARE)) {
    byKey = kept.byKey;
    for (let i = window.start; i < window.oldEnd; i++) remove(byKey, kept.entries[i]);
    for (let i = window.start; i < window.newEnd; i++) add(byKey, entries[i]);
    titleIndexStatistics.changed++;
  } else {
    byKey = new Map();
    for (let i = 0; i < entries.length; i++) add(byKey, entries[i]);
    titleIndexStatistics.rebuilt++;
  }
  if (holder) KEPT.set(holder, { entries, byKey });
  return byKey;
}

/** The first entry of a title. */
export function firstOfTitle(each: TitleEntries): Entry {
  return Array.isArray(each) ? (each as readonly Entry[])[0] : (each as Entry);
}

/** The run of entries in which two versions differ: `[start, oldEnd)` of the old, `[start, newEnd)` of the new. */
function changedRun(old: readonly Entry[], entries: readonly Entry[]): { start: number; oldEnd: number; newEnd: number } {
  const shorter = Math.min(old.length, entries.length);
  let start = 0;
  while (start < shorter && old[start] === entries[start]) start++;
  let oldEnd = old.length;
  let newEnd = entries.length;
  while (oldEnd > start && newEnd > start && old[oldEnd - 1] === entries[newEnd - 1]) {
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
}

function add(byKey: Map<string, Entry | Entry[]>, entry: Entry): void {
  const key = entryTitleKey(entry);
  if (key.length === 0) {
    return;
  }
  const each = byKey.get(key);
  if (each === undefined) {
    byKey.set(key, entry);
  } else if (Array.isArray(each)) {
    // In document order: an entry comes in among the others of its title by its index.
    let at = each.length;
    while (at > 0 && each[at - 1].index > entry.index) at--;
    each.splice(at, 0, entry);
  } else {
    byKey.set(key, each.index < entry.index ? [each, entry] : [entry, each]);
  }
}

function remove(byKey: Map<string, Entry | Entry[]>, entry: Entry): void {
  const key = entryTitleKey(entry);
  const each = byKey.get(key);
  if (each === entry) {
    byKey.delete(key);
  } else if (Array.isArray(each)) {
    const rest = each.filter((other) => other !== entry);
    if (rest.length === 1) byKey.set(key, rest[0]);
    else byKey.set(key, rest);
  }
}
