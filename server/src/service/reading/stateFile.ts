/**
 * The reading state file, `.paper-digest/state.json`: its format (version 1, documented in
 * docs/state-file.md), parsing with validation, writing, and the
 * three-way merge of two changed versions. Pure: text in, state or problem out.
 *
 *     {
 *       "version": 1,
 *       "papers": {
 *         "sparse probes for arithmetic circuits in small transformers": {
 *           "title": "Sparse Probes for Arithmetic Circuits in Small Transformers",
 *           "read": true, "starred": true, "tags": ["circuits"], "note": "Try on our model",
 *           "updated": "2026-05-01T08:30:00.000Z"
 *         }
 *       }
 *     }
 */
import { message, MessageRef } from '../cliMessages';
import { emptyOrWhiteSpace } from '../text';

/** The version this code reads and writes. */
export const STATE_VERSION = 1;

/** State files bigger than this are not read, nor written (a state file of 100,000 papers is about 20 MB). */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** Limits, so that a hostile file cannot take unbounded memory in the places that copy it. */
export const MAX_TAG_LENGTH = 64;
export const MAX_NOTE_LENGTH = 4000;
export const MAX_TAGS_PER_PAPER = 64;

/** The state of one paper. Absent fields mean false / none. */
export interface PaperState {
  /** The English title as last seen, for people and other tools reading the file. */
  readonly title?: string;
  readonly read?: boolean;
  readonly starred?: boolean;
  /** Sorted, distinct. */
  readonly tags?: readonly string[];
  readonly note?: string;
  /** When the paper's state last changed (ISO 8601, UTC): the later change wins a conflict. */
  readonly updated?: string;
  /**
   * The paper's fields this version does not know (another tool's: a rating, a reference
   * manager's key), each as its value's JSON text: kept, merged and written back with the paper.
   */
  readonly extra?: Readonly<Record<string, string>>;
}

/** The whole file: paper key → state. Keys are `titleKey`s (see reading/paperInfo.ts). */
export interface ReadingState {
  readonly version: typeof STATE_VERSION;
  readonly papers: ReadonlyMap<string, PaperState>;
  /**
   * Top-level fields this version does not know, each as its JSON text exactly as the file has
   * it (`12345678901234567890`, `1e400`, `-0`, `1.10` and a repeated key's first value stay as
   * they are, which a parse and a `JSON.stringify` would change).
   */
  readonly extra?: Readonly<Record<string, string>>;
}

export const EMPTY_STATE: ReadingState = { version: STATE_VERSION, papers: new Map() };

/** Why a state file cannot be used; the file is then left untouched and the state read-only. */
export interface StateProblem {
  readonly kind: 'corrupt' | 'unknown-version';
  /**
   * What is wrong, as a message of the table (service/fileMessages.ts), e.g. `not valid JSON
   * (Unexpected token } in JSON at position 12)`, JSON.parse's own text kept as it is.
   */
  readonly reason: MessageRef;
}

/** How deep another tool's top-level field may nest its values. */
const MAX_EXTRA_DEPTH = 1000;

/** Whether a JSON value nests arrays and objects more than `max` deep; without recursion. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The most arrays and objects a state file may hold: two for each paper (its entry and its tags)
 * of a million papers. The parse of a file of 64 MB of `[]` would take gigabytes; this is found
 * in one pass before it.
 */
export const MAX_STATE_CONTAINERS = 2_000_000;

/** Whether a text holds at most `max` of `{` and `[` in all. */
function openingsAtMost(text: string, max: number): boolean {
  let count = 0;
  for (const opening of ['{', '[']) {
    for (let at = text.indexOf(opening); at >= 0; at = text.indexOf(opening, at + 1)) {
      if (++count > max) return false;
    }
  }
  return true;
}

/**
 * Why a JSON text is refused before it is parsed, if it is: more arrays and objects than
 * `MAX_STATE_CONTAINERS`. One pass over the characters, strings skipped.
 */
function tooComplexToParse(text: string): MessageRef | undefined {
  if (openingsAtMost(text, MAX_STATE_CONTAINERS)) {
    // No more brackets than that, in strings or not: no more containers (counted by the engine's
    // own search; the pass below took some 40 ms a change on a 40 MB state file).
    return undefined;
  }
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      i = stringEnd(text, i) - 1;
    } else if ((c === 0x5b || c === 0x7b) && ++containers > MAX_STATE_CONTAINERS) {
      return message('tooManyContainers', { max: MAX_STATE_CONTAINERS.toLocaleString('en') });
    }
  }
  return undefined;
}

/**
 * Whether a state file's text holds more arrays and objects than a read of it takes
 * (`MAX_STATE_CONTAINERS`): a store refuses to write such a text, which it could not read back
 * (a file keeps the fields of other tools, which may hold many).
 *
 * @example holdsTooManyContainers('{"version":1,"papers":{}}') // false
 */
export function holdsTooManyContainers(text: string): boolean {
  // Each container takes at least two characters.
  return text.length > 2 * MAX_STATE_CONTAINERS && tooComplexToParse(text) !== undefined;
}

export type ParsedState = { readonly state: ReadingState } | { readonly problem: StateProblem };

/**
 * Parses and validates a state file. An empty file counts as an empty state; anything that
 * is not exactly the documented shape is a problem (nothing is half-read).
 *
 * @example
 * parseState('{"version":1,"papers":{}}')        // { state: { version: 1, papers: Map(0) } }
 * parseState('{"version":2,"papers":{}}')        // { problem: { kind: 'unknown-version', ... } }
 */
export function parseState(text: string): ParsedState {
  if (emptyOrWhiteSpace(text)) {
    return { state: EMPTY_STATE };
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const complex = tooComplexToParse(body);
  if (complex) {
    return corrupt(complex);
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return corrupt(message('notJson', { detail: error instanceof Error ? error.message : String(error) }));
  }
  if (!isObject(value)) {
    return corrupt(message('topNotObject'));
  }
  // The text of each member as written: a key written twice, which JSON.parse reads as its last
  // (two sides of a merge conflict both kept), would lose the other's marks at the next write;
  // another tool's values are kept as they are written (`12345678901234567890`, `1e400`).
  const top = membersOf(body, body.indexOf('{'));
  const twice = twiceWritten(top, PAPER_DIGEST_KEYS);
  if (twice !== undefined) {
    return corrupt(message('keyTwice', { key: twice.slice(0, 40) }));
  }
  if (!('version' in value)) {
    return corrupt(message('noVersion'));
  }
  if (value.version !== STATE_VERSION) {
    // A number as JavaScript reads it (`1e400` is Infinity, which JSON would write as null).
    const shown = typeof value.version === 'number' ? String(value.version) : JSON.stringify(value.version) ?? String(value.version);
    return { problem: { kind: 'unknown-version', reason: message('unknownVersion', { version: shown.slice(0, 40), known: STATE_VERSION }) } };
  }
  // Absent: no paper has a state yet; null, like any other value that is no object, is corrupt.
  const papersValue = value.papers === undefined ? {} : value.papers;
  if (!isObject(papersValue)) {
    return corrupt(message('papersNotObject'));
  }
  const papersMember = top.get('papers');
  const paperTexts = papersMember ? membersOf(body, papersMember.start) : undefined;
  const twicePaper = paperTexts && twiceWritten(paperTexts);
  if (twicePaper !== undefined) {
    return corrupt(message('paperKeyTwice', { paper: message('paperNamed', { key: JSON.stringify(twicePaper.slice(0, 60)) }) }));
  }
  const papers = new Map<string, PaperState>();
  for (const [key, entry] of Object.entries(papersValue)) {
    const at = paperTexts?.get(key);
    const checked = checkPaper(key, entry, at && body.charCodeAt(at.start) === 0x7b ? membersOf(body, at.start) : undefined, body);
    if ('key' in checked) {
      return corrupt(checked);
    }
    papers.set(key, checked);
  }
  // Without a prototype: a field named `__proto__` is kept as a field like any other.
  const extra: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, field] of Object.entries(value)) {
    if (key !== 'version' && key !== 'papers') {
      // A value nested deeper than other readers of JSON go is refused, as it always was.
      if (nestedDeeperThan(field, MAX_EXTRA_DEPTH)) {
        return corrupt(message('nestedTooDeep', { field: key.slice(0, 40), max: MAX_EXTRA_DEPTH }));
      }
      extra[key] = memberText(body, top.get(key)) ?? JSON.stringify(field);
    }
  }
  return { state: Object.keys(extra).length > 0 ? { version: STATE_VERSION, papers, extra } : { version: STATE_VERSION, papers } };
}

/** Where a member's value is written in a JSON text, and how many times its key is. */
interface MemberText {
  /** The first character of the value (of the last one, for a key written twice). */
  readonly start: number;
  /** Just past its last character. */
  readonly end: number;
  readonly times: number;
}

/** The top-level keys that are Paper Digest's own: another tool's written twice is read as its last, as JSON readers take it. */
const PAPER_DIGEST_KEYS = new Set(['version', 'papers']);

/** A key written more than once among `members` (of `only`, when given), or undefined. */
function twiceWritten(members: ReadonlyMap<string, MemberText>, only?: ReadonlySet<string>): string | undefined {
  for (const [key, member] of members) {
    if (member.times > 1 && (only === undefined || only.has(key))) return key;
  }
  return undefined;
}

/**
 * The text of a member's value, or undefined; its line ends (white space between its parts: a
 * string holds none) as `\n`, as the file is written.
 */
function memberText(text: string, member: MemberText | undefined): string | undefined {
  if (member === undefined) return undefined;
  const value = text.slice(member.start, member.end);
  return value.includes('\r') ? value.replace(/\r\n?/g, '\n') : value;
}

/**
 * The members of the object that opens at `open` in a valid JSON text (one JSON.parse read): per
 * key (as JSON reads it), where its value is written and how many times the key is.
 */
function membersOf(text: string, open: number): Map<string, MemberText> {
  const members = new Map<string, MemberText>();
  let i = open + 1;
  const skipSpace = (): void => {
    while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x09)) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= text.length || text.charCodeAt(i) !== 0x22) break;
    const keyStart = i;
    i = stringEnd(text, i);
    const written = text.slice(keyStart + 1, i - 1);
    const key = written.includes('\\') ? (JSON.parse(text.slice(keyStart, i)) as string) : written;
    skipSpace();
    i++; // ':'
    skipSpace();
    const start = i;
    i = valueEnd(text, i);
    const before = members.get(key);
    members.set(key, { start, end: i, times: (before?.times ?? 0) + 1 });
    skipSpace();
    if (text.charCodeAt(i) === 0x2c) i++;
  }
  return members;
}

/** Just past the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote < 0) return text.length;
    // Escaped when an odd number of backslashes stands before it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    i = quote;
  }
}

/** Just past the value that starts at `i` (a string, an array or object with what it holds, a number or a literal). */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth === 0) break; // the end of the object holding it
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
      break;
    }
  }
  return i;
}

function corrupt(reason: MessageRef): ParsedState {
  return { problem: { kind: 'corrupt', reason } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The paper's state, or what is wrong with it. */
function checkPaper(key: string, entry: unknown, fields: ReadonlyMap<string, MemberText> | undefined, text: string): PaperState | MessageRef {
  const paper = message('paperNamed', { key: JSON.stringify(key.slice(0, 60)) });
  if (key.length === 0) {
    return message('emptyPaperKey');
  }
  if (!isObject(entry)) {
    return message('paperNotObject', { paper });
  }
  const twice = fields && twiceWritten(fields);
  if (twice !== undefined) {
    return message('fieldTwice', { paper, field: twice.slice(0, 40) });
  }
  const result: { -readonly [K in keyof PaperState]: PaperState[K] } = {};
  let extra: Record<string, string> | undefined;
  for (const [field, value] of Object.entries(entry)) {
    switch (field) {
      case 'title':
      case 'note':
      case 'updated':
        if (typeof value !== 'string') {
          return message('fieldNotString', { paper, field });
        }
        if (field === 'updated' && Number.isNaN(Date.parse(value))) {
          return message('fieldNotDate', { paper, field });
        }
        result[field] = value;
        break;
      case 'read':
      case 'starred':
        if (typeof value !== 'boolean') {
          return message('fieldNotBoolean', { paper, field });
        }
        result[field] = value;
        break;
      case 'tags':
        if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) {
          return message('fieldNotStrings', { paper, field });
        }
        result.tags = normaliseTags(value as string[]);
        break;
      default:
        // Another tool's field (or a newer version's): kept as it is written, as a top-level one is.
        if (nestedDeeperThan(value, MAX_EXTRA_DEPTH)) {
          return message('nestedTooDeep', { field: `${key.slice(0, 40)}.${field.slice(0, 40)}`, max: MAX_EXTRA_DEPTH });
        }
        extra ??= Object.create(null) as Record<string, string>;
        ownField(extra, field, memberText(text, fields?.get(field)) ?? JSON.stringify(value));
        break;
    }
  }
  if (extra) result.extra = extra;
  return result;
}

/** Sets a field of a record as its own, `__proto__` too (an assignment would set the prototype). */
function ownField<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Tags trimmed (runs of white space as one space), distinct and sorted; empty ones dropped. None
 * is cut or dropped for the limits: a change past them is refused before (`changeProblem`), and
 * the tags another tool wrote, longer or more, are kept as they are.
 */
export function normaliseTags(tags: readonly string[]): string[] {
  return distinctTags(tags).sort();
}

/** Tags trimmed and distinct, in their order; empty ones dropped. */
function distinctTags(tags: readonly string[]): string[] {
  const set = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.replace(/\s+/g, ' ').trim();
    if (trimmed) {
      set.add(trimmed);
    }
  }
  return [...set];
}

/**
 * Why a change cannot be made as asked, or undefined: a tag longer than `MAX_TAG_LENGTH`, a note
 * longer than `MAX_NOTE_LENGTH`, or a paper that would have more than `MAX_TAGS_PER_PAPER` tags.
 * Such a change is refused whole, never cut short: what someone typed is not silently lost, and
 * the tags a paper has are never dropped to make room.
 *
 * @example
 * changeProblem(EMPTY_STATE, ['a'], { note: 'x'.repeat(5000) }) // the message noteTooLong
 */
export function changeProblem(state: ReadingState, keys: readonly string[], change: StateChange): MessageRef | undefined {
  for (const tag of change.addTags ?? []) {
    const trimmed = tag.replace(/\s+/g, ' ').trim();
    if (characters(trimmed) > MAX_TAG_LENGTH) {
      return message('tagTooLong', { tag: `'${firstCharacters(trimmed, 40)}…'`, max: MAX_TAG_LENGTH });
    }
  }
  const removing = new Set(distinctTags(change.removeTags ?? []));
  const adding = distinctTags(change.addTags ?? []);
  const both = adding.find((tag) => removing.has(tag));
  if (both !== undefined) {
    // Which one was meant cannot be told: nothing is done rather than the wrong thing said.
    return message('tagAddedAndRemoved', { tag: `'${firstCharacters(both, 40)}'` });
  }
  if (change.note && characters(change.note) > MAX_NOTE_LENGTH) {
    return message('noteTooLong', { max: MAX_NOTE_LENGTH, length: characters(change.note) });
  }
  if (adding.length > 0) {
    for (const key of keys) {
      const had = state.papers.get(key)?.tags ?? [];
      if (adding.every((tag) => had.includes(tag))) {
        // Nothing new for this paper: no limit to pass (another tool may have given it more).
        continue;
      }
      const tags = new Set([...had, ...adding]);
      const count = [...tags].filter((tag) => !removing.has(tag)).length;
      if (count > MAX_TAGS_PER_PAPER) {
        return message('tooManyTags', { max: MAX_TAGS_PER_PAPER });
      }
    }
  }
  return undefined;
}

/** The characters of a text (code points, as a string iterates them: an emoji is one, not two UTF-16 units). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** At most the first `max` characters (code points) of a text, never half a pair. */
function firstCharacters(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  let count = 0;
  let end = 0;
  for (const character of text) {
    if (++count > max) {
      return text.slice(0, end);
    }
    end += character.length;
  }
  return text;
}

/** Whether a state says something of the reader's own: read, starred, tags or a note (another tool's fields are not). */
export function hasReadingState(state: PaperState): boolean {
  return state.read === true || state.starred === true || (state.tags?.length ?? 0) > 0 || !!state.note;
}

/** Whether a state says nothing (so it is left out of the file). */
export function isEmptyPaperState(state: PaperState): boolean {
  return !state.read && !state.starred && (state.tags?.length ?? 0) === 0 && !state.note && (state.extra === undefined || Object.keys(state.extra).length === 0);
}

/**
 * The text of a state file: papers sorted by key, two-space indented, a final newline, so
 * that the file diffs and merges well in git.
 */
export function serialiseState(state: ReadingState): string {
  const entries: string[] = [];
  for (const key of [...state.papers.keys()].sort()) {
    const paper = state.papers.get(key)!;
    if (!isEmptyPaperState(paper)) {
      entries.push(paperEntryText(key, paper));
    }
  }
  // Other tools' fields first, each value as the file had it; then the version and the papers.
  const members = Object.entries(state.extra ?? {}).map(([key, text]) => `  ${JSON.stringify(key)}: ${text}`);
  members.push(`  "version": ${STATE_VERSION}`, `  "papers": ${entries.length === 0 ? '{}' : `{\n${entries.join(',\n')}\n  }`}`);
  return `{\n${members.join(',\n')}\n}\n`;
}

/**
 * The text of one paper in the file (`    "key": { ... }`), kept per record: a change writes
 * the file again without laying out every paper again.
 */
const ENTRY_TEXT = new WeakMap<PaperState, { readonly key: string; readonly text: string }>();

function paperEntryText(key: string, paper: PaperState): string {
  const known = ENTRY_TEXT.get(paper);
  if (known && known.key === key) {
    return known.text;
  }
  const out: { -readonly [K in keyof PaperState]: PaperState[K] } = {};
  if (paper.title) out.title = paper.title;
  if (paper.read) out.read = true;
  if (paper.starred) out.starred = true;
  if (paper.tags && paper.tags.length > 0) out.tags = paper.tags;
  if (paper.note) out.note = paper.note;
  if (paper.updated) out.updated = paper.updated;
  const own = JSON.stringify(out, null, 2).replace(/\n/g, '\n    ');
  // Other tools' fields after the fields this version writes, each value as the file had it (not
  // indented again: the text read back is the text written).
  const others = Object.entries(paper.extra ?? {}).map(([field, value]) => `      ${JSON.stringify(field)}: ${value}`);
  const close = '\n    }';
  const fields = others.length === 0 ? own : `${own === '{}' ? '{' : `${own.slice(0, -close.length)},`}\n${others.join(',\n')}${close}`;
  const text = `    ${JSON.stringify(key)}: ${fields}`;
  ENTRY_TEXT.set(paper, { key, text });
  return text;
}

/**
 * Merges two versions that both started from `base`: `mine` (this process's) and `theirs`
 * (on disk now). Per paper, a field changed on one side only takes that side; a field changed
 * on both takes the side whose `updated` is later (mine on a tie); tags merge as sets (a tag
 * added on either side is kept, one removed on either side is dropped).
 *
 * @example
 * mergeStates(base, mineWithStarA, theirsWithReadB) // both A starred and B read
 */
export function mergeStates(base: ReadingState, mine: ReadingState, theirs: ReadingState): ReadingState {
  const papers = new Map<string, PaperState>();
  const keys = new Set([...mine.papers.keys(), ...theirs.papers.keys(), ...base.papers.keys()]);
  for (const key of keys) {
    const merged = mergePaper(base.papers.get(key) ?? {}, mine.papers.get(key) ?? {}, theirs.papers.get(key) ?? {});
    if (!isEmptyPaperState(merged)) {
      papers.set(key, merged);
    }
  }
  const extra = mergeExtra(base.extra ?? {}, mine.extra ?? {}, theirs.extra ?? {});
  return Object.keys(extra).length > 0 ? { version: STATE_VERSION, papers, extra } : { version: STATE_VERSION, papers };
}

/**
 * The top-level fields this version does not know, merged three ways as a paper's fields are: a
 * field one side changed or removed (the other left it as it was) is taken from that side; one
 * both changed is theirs (the file's, written last).
 */
function mergeExtra(base: Readonly<Record<string, string>>, mine: Readonly<Record<string, string>>, theirs: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  const same = (a: string | undefined, b: string | undefined): boolean => a === b;
  for (const key of new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)])) {
    const b = Object.hasOwn(base, key) ? base[key] : undefined;
    const m = Object.hasOwn(mine, key) ? mine[key] : undefined;
    const t = Object.hasOwn(theirs, key) ? theirs[key] : undefined;
    const value = same(m, b) ? t : same(t, b) ? m : t;
    if (value !== undefined) {
      ownField(result, key, value);
    }
  }
  return result;
}

function mergePaper(base: PaperState, mine: PaperState, theirs: PaperState): PaperState {
  const mineLater = time(mine.updated) >= time(theirs.updated);
  const pick = <K extends 'read' | 'starred' | 'note' | 'title'>(field: K): PaperState[K] => {
    const b = base[field] || undefined;
    const m = mine[field] || undefined;
    const t = theirs[field] || undefined;
    if (m === b) return t;
    if (t === b) return m;
    return mineLater ? m : t;
  };
  const baseTags = new Set(base.tags ?? []);
  const mineTags = new Set(mine.tags ?? []);
  const theirTags = new Set(theirs.tags ?? []);
  const tags: string[] = [];
  for (const tag of new Set([...mineTags, ...theirTags])) {
    const removed = baseTags.has(tag) && (!mineTags.has(tag) || !theirTags.has(tag));
    if (!removed) {
      tags.push(tag);
    }
  }
  const updated = mineLater ? mine.updated ?? theirs.updated : theirs.updated ?? mine.updated;
  const result: { -readonly [K in keyof PaperState]: PaperState[K] } = {};
  const title = pick('title');
  if (title) result.title = title;
  if (pick('read')) result.read = true;
  if (pick('starred')) result.starred = true;
  if (tags.length > 0) result.tags = tags.sort();
  const note = pick('note');
  if (note) result.note = note;
  if (updated) result.updated = updated;
  if (base.extra || mine.extra || theirs.extra) {
    const extra = mergeExtra(base.extra ?? {}, mine.extra ?? {}, theirs.extra ?? {});
    if (Object.keys(extra).length > 0) result.extra = extra;
  }
  return result;
}

function time(iso: string | undefined): number {
  const value = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(value) ? 0 : value;
}

/** A change to papers' state (see `PaperStateChange` in the protocol). */
export interface StateChange {
  readonly read?: boolean;
  readonly starred?: boolean;
  readonly addTags?: readonly string[];
  readonly removeTags?: readonly string[];
  readonly note?: string | null;
}

/**
 * Applies a change to some papers; returns the new state and the keys whose state changed.
 * `titles` gives the English title to record for each key.
 *
 * @example
 * applyChange(EMPTY_STATE, ['a'], { starred: true }, new Date(), new Map([['a', 'A']])).changed // ['a']
 */
export function applyChange(state: ReadingState, keys: readonly string[], change: StateChange, now: Date, titles: ReadonlyMap<string, string> = new Map()): { state: ReadingState; changed: string[] } {
  const papers = new Map(state.papers);
  const changed: string[] = [];
  const addTags = normaliseTags(change.addTags ?? []);
  // Every tag asked to go goes: a removal needs no limit (`changeProblem` counted with them all).
  const removeTags = new Set(distinctTags(change.removeTags ?? []));
  const note = change.note === undefined ? undefined : firstCharacters(change.note ?? '', MAX_NOTE_LENGTH);
  for (const key of new Set(keys)) {
    const before = papers.get(key) ?? {};
    const next: { -readonly [K in keyof PaperState]: PaperState[K] } = { ...before };
    if (change.read !== undefined) next.read = change.read || undefined;
    if (change.starred !== undefined) next.starred = change.starred || undefined;
    if (addTags.length > 0 || removeTags.size > 0) {
      // The removed ones go first, so that the added ones have their room (`changeProblem` counted them so).
      const tags = normaliseTags([...(before.tags ?? []), ...addTags].filter((tag) => !removeTags.has(tag)));
      next.tags = tags.length > 0 ? tags : undefined;
    }
    if (note !== undefined) next.note = note.trim() ? note : undefined;
    const title = titles.get(key);
    if (title) next.title = title;
    if (samePaperState(before, next)) {
      continue;
    }
    next.updated = now.toISOString();
    changed.push(key);
    if (isEmptyPaperState(next)) {
      // Kept (with its time) until written, so that a merge knows it was cleared on purpose.
      papers.set(key, { updated: next.updated });
    } else {
      papers.set(key, stripUndefined(next));
    }
  }
  return { state: changed.length > 0 ? { ...state, papers } : state, changed };
}

function samePaperState(a: PaperState, b: PaperState): boolean {
  return !!a.read === !!b.read && !!a.starred === !!b.starred && (a.note || '') === (b.note || '') && (a.tags ?? []).join('\u0000') === (b.tags ?? []).join('\u0000');
}

function stripUndefined(state: PaperState): PaperState {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    if (value !== undefined) out[key] = value;
  }
  return out as PaperState;
}

/**
 * How old an empty state file must be (since its last change) to be read as an empty state; a
 * younger one is refused as being written (`stateEmptyJustNow`): a program that rewrites the file
 * in place empties it first, and a write over it then would be written over by the rest.
 */
export const EMPTY_SETTLE_MS = 10_000;

/** How far ahead of this machine's clock a file's time may be and still count as just now. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Why a state file's text cannot be read as it is yet: empty, changed less than `EMPTY_SETTLE_MS`
 * before `now` (or at a time ahead of it by up to five minutes); undefined otherwise. Both disks
 * (stateDisk.ts, clientStateDisk.ts) refuse such a read with it.
 *
 * @example emptyJustNow('', Date.now() - 3_000)?.values // { seconds: 3, settle: 10 }
 */
export function emptyJustNow(text: string, mtimeMs: number, now = Date.now()): MessageRef | undefined {
  if (!emptyOrWhiteSpace(text)) return undefined;
  const age = now - mtimeMs;
  return age > -FUTURE_TOLERANCE_MS && age < EMPTY_SETTLE_MS ? message('stateEmptyJustNow', { seconds: Math.max(0, Math.floor(age / 1000)), settle: EMPTY_SETTLE_MS / 1000 }) : undefined;
}
