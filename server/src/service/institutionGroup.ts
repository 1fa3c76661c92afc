/**
 * Which institution an item of a `机构` line stands for, for grouping papers by institution.
 *
 * An item often names a department and the university it belongs to: `College of Computer
 * Science, Fudan University`, `Oxford Internet Institute, University of Oxford`. Such items are
 * grouped under the institution the line names (`Fudan University`). A department named alone
 * (`Department of Computer Science and Engineering`) says nothing of its university: many
 * universities have one, so it is never merged with the same department of another paper,
 * unless the two lines name the same other institutions too.
 */
import { RecentMap } from './recentMap';
import { foldForSearch } from './workspaceIndex';

/** An institution as the index keeps it: the name and its translation, if any. */
export interface InstitutionName {
  readonly name: string;
  readonly translation?: string;
}

/** The group an institution item goes to. */
export interface InstitutionGroup {
  /** Equal keys are one group. */
  readonly key: string;
  /** What the group shows: the institution's name. */
  readonly label: string;
  /** The translation, when the item is the institution itself (not a department of it). */
  readonly translation: string;
  /** The item names a department without its institution. */
  readonly departmentOnly: boolean;
}

/** A part that names a unit of an institution: `Department of …`, `School of …`, `… Department`. */
const SUBUNIT_START = /^(?:the\s+)?(?:(?:state\s+|national\s+)?key\s+)?(?:department|dept\.?|school|graduate\s+school|college|faculty|division|institute|center|centre|laboratory|lab|group|unit|program(?:me)?|section|chair)\s+(?:of|for|on|in)\b/i;
const SUBUNIT_END = /\b(?:department|dept\.?|school|faculty|division)$/i;

/** A part that names a university or a similar institution by itself. */
const INSTITUTION = /\b(?:universit(?:y|ies)|universit[äaà]t?|université|universidad|universidade|università|universiteit|uniwersytet|academy|institute\s+of\s+technology|polytechnic|politecnico|école|ecole|hochschule)\b/i;

/**
 * The group of one item.
 *
 * @example
 * institutionGroup({ name: 'Department of Physics, Fudan University' }).label // 'Fudan University'
 * institutionGroup({ name: 'Department of Physics' }).departmentOnly           // true
 */
export function institutionGroup(item: InstitutionName): InstitutionGroup {
  // The same names come back paper after paper, file after file (100,000 papers name a few
  // hundred institutions): worked out once (the groups are never changed).
  const key = item.translation === undefined ? `-${item.name}` : `+${item.name.length}:${item.name}${item.translation}`;
  return RECENT_GROUPS.get(key) ?? RECENT_GROUPS.remember(key, groupOfItem(item));
}

/** The groups `institutionGroup` worked out last, by name and translation. */
const RECENT_GROUPS = new RecentMap<InstitutionGroup>(4096, 400);

function groupOfItem(item: InstitutionName): InstitutionGroup {
  const name = item.name.trim();
  const parts = name.split(/\s*[,，]\s*/).filter((part) => part.length > 0);
  let from = 0;
  // Leading parts that are units of what follows.
  while (from < parts.length - 1 && isSubunit(parts[from])) {
    from++;
  }
  // A later part that is a university, after parts that are not: `FLAIR, University of Oxford`.
  if (from === 0 && !INSTITUTION.test(parts[0] ?? '')) {
    const at = parts.findIndex((part, index) => index > 0 && INSTITUTION.test(part));
    if (at > 0) {
      from = at;
    }
  }
  if (from > 0) {
    const label = parts.slice(from).join(', ');
    return { key: groupKey(label), label, translation: '', departmentOnly: false };
  }
  return { key: groupKey(name), label: name, translation: item.translation ?? '', departmentOnly: parts.length === 1 && isSubunit(name) && !INSTITUTION.test(name) };
}

/**
 * The groups of the items of one `机构` line. A department named alone is keyed with the other
 * institutions of its line, or with `paperKey` when there are none (the paper's key across files,
 * `paperKeyOf`: the copies of a paper in several digests are one group), so that it never merges
 * with a department of the same name at another institution.
 *
 * @example
 * institutionGroups([{ name: 'Department of CS' }], 'sparse probes')[0].key // 'department of cs\u0000sparse probes'
 */
export function institutionGroups(items: readonly InstitutionName[], paperKey: string): InstitutionGroup[] {
  const groups = items.map(institutionGroup);
  if (!groups.some((group) => group.departmentOnly)) {
    return groups;
  }
  const context = [...new Set(groups.filter((group) => !group.departmentOnly).map((group) => group.key))].sort().join('\u0001');
  return groups.map((group) => (group.departmentOnly ? { ...group, key: `${group.key}\u0000${context || paperKey}` } : group));
}

function isSubunit(part: string): boolean {
  return SUBUNIT_START.test(part) || SUBUNIT_END.test(part);
}

/** Case and white space folded. */
function groupKey(name: string): string {
  return foldForSearch(name).replace(/\s+/g, ' ').trim();
}
