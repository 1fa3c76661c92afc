/**
 * Incremental updates: the model of an edited document from the model before the edit, by
 * re-parsing only a window around the edit.
 *
 * The window starts at an entry boundary before the edit where the parse's state is known (the
 * kinds of field the entry before it has) and ends at the first entry boundary after the edit
 * where the fresh parse and the earlier one are in step again: same line (shifted), same state.
 * From there on the earlier parse continues identically, so its entries are kept and moved to
 * their new lines; a moved entry keeps every part its fields already split. Line offsets are
 * copied and shifted, not recomputed. The result is exactly the model a fresh parse of the new
 * text gives (the unit tests check that on random edit sequences).
 */
import type { Range } from 'vscode-languageserver-types';
import { DigestModel, isPlainCode, LineCode, LineTable, Preamble } from './document';
import type { DigestDocument } from './model';
import type { EntryNode } from './nodes';
import { classifyLines, LineTableBuilder, parseDigest, scanLines, StructurePass } from './parser';
import { noteUpdate } from './limits';

/**
 * One change of a document, as LSP's `TextDocumentContentChangeEvent` gives it: a range of the
 * text before the change and its replacement, or the whole new text when `range` is absent.
 */
export interface ContentChange {
  readonly range?: Range;
  readonly text: string;
}

/** What an update did, for tests and the benchmark. */
export interface UpdateStatistics {
  /** Lines split again. */
  readonly linesScanned: number;
  /** Entries parsed again (the others were kept). */
  readonly entriesParsed: number;
  /** Entries kept from the previous model. */
  readonly entriesKept: number;
  /** Why the whole text was parsed again, if it was. */
  readonly fullParse?: string;
}

let lastStatistics: UpdateStatistics = { linesScanned: 0, entriesParsed: 0, entriesKept: 0 };

/** What the last `updateDigest` did. */
export function lastUpdateStatistics(): UpdateStatistics {
  return lastStatistics;
}

/**
 * The model of `text`, the document after `changes`, given the model of the document before
 * them. `previous` is taken over: its untouched entries move into the new model, so it must not
 * be read afterwards. A model that is not the parser's, or that was taken over already, is
 * parsed again from scratch, as is any text when something unexpected happens: the result is
 * always the model `parseDigest(text)` would give.
 *
 * @example
 * let model = parseDigest(text);
 * // the client replaced line 3, characters 4..9, with 'Sparse':
 * model = updateDigest(model, [{ range: { start: { line: 3, character: 4 }, end: { line: 3, character: 9 } }, text: 'Sparse' }], newText);
 */
export function updateDigest(previous: DigestDocument, changes: readonly ContentChange[], text: string): DigestDocument {
  if (!(previous instanceof DigestModel) || previous.superseded) {
    return fullParse(text, 'not an updatable model');
  }
  try {
    if (previous.text === text) {
      lastStatistics = { linesScanned: 0, entriesParsed: 0, entriesKept: previous.entries.length };
      return previous;
    }
    return update(previous, changedRegion(previous, changes, text), text);
  } catch {
    // A bug here must not cost the user the model: the fresh parse is always right.
    previous.superseded = true;
    return fullParse(text, 'update failed');
  }
}

function fullParse(text: string, reason: string): DigestDocument {
  const model = parseDigest(text);
  lastStatistics = { linesScanned: model.lines.length, entriesParsed: model.entries.length, entriesKept: 0, fullParse: reason };
  return model;
}

/** The text before the change, `[start, oldEnd)`, became `[start, newEnd)` of the new text. */
interface Region {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

/**
 * Where the texts differ. One ranged change (a keystroke, a paste) is placed by its range and
 * checked against the new text; anything else is found by comparing the texts' common prefix and
 * suffix.
 */
function changedRegion(previous: DigestModel, changes: readonly ContentChange[], text: string): Region {
  const old = previous.text;
  if (changes.length === 1 && changes[0].range) {
    const change = changes[0];
    const start = offsetAt(previous, change.range!.start);
    const end = offsetAt(previous, change.range!.end);
    if (end >= start && old.length - (end - start) + change.text.length === text.length && text.startsWith(change.text, start)) {
      return { start, oldEnd: end, newEnd: start + change.text.length };
    }
  }
  const shorter = Math.min(old.length, text.length);
  let prefix = 0;
  while (prefix < shorter && old.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && old.charCodeAt(old.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)) suffix++;
  return { start: prefix, oldEnd: old.length - suffix, newEnd: text.length - suffix };
}

/** The offset of an LSP position in the model's text, clamped as LSP clamps it (never inside a line end). */
function offsetAt(model: DigestModel, position: { line: number; character: number }): number {
  const { starts, ends, count } = model.table;
  if (position.line >= count) {
    return model.text.length;
  }
  if (position.line < 0) {
    return 0;
  }
  return starts[position.line] + Math.max(0, Math.min(position.character, ends[position.line] - starts[position.line]));
}

/** The last line starting at or before `offset`. */
function lineOf(table: LineTable, offset: number): number {
  let low = 0;
  let high = table.count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (table.starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The index of the entry whose first line is `line`, or -1. */
function entryStartingAt(entries: readonly EntryNode[], line: number, from: number): number {
  let low = from;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = entries[mid].line;
    if (at === line) return mid;
    if (at < line) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * Whether a parse may start (or, in the earlier parse, could have started) at entry `index`
 * with only the kinds of field of the entry before it as its state: the entry's first line is a
 * labelled line, or starts a run of plain lines, its previous non-blank line being labelled (the
 * last line of the entry before).
 */
function isBoundary(entries: readonly EntryNode[], kindOf: (line: number) => number, index: number): boolean {
  if (index < 1) {
    return false;
  }
  const entry = entries[index];
  if (!isPlainCode(kindOf(entry.line))) {
    return true;
  }
  const before = entries[index - 1];
  return !isPlainCode(kindOf(before.line + before.lastRel));
}

/** A line table of its own, for a table that is not a builder. */
function copyOf(table: LineTable): LineTableBuilder {
  const copy = new LineTableBuilder(table.count);
  copy.starts.set(table.starts.subarray(0, table.count));
  copy.ends.set(table.ends.subarray(0, table.count));
  copy.kinds.set(table.kinds.subarray(0, table.count));
  copy.count = table.count;
  return copy;
}

function update(previous: DigestModel, region: Region, text: string): DigestDocument {
  const src = previous.src;
  const old = previous.table;
  const delta = region.newEnd - region.oldEnd;
  // ---- Lines: keep those before the edit, split the edited ones again, shift the rest.
  // One line earlier than the edit, in case the edit joins a CR to an LF before it.
  const firstLine = Math.max(0, lineOf(old, region.start) - 1);
  const window = scanLines(text, old.starts[firstLine], region.newEnd);
  let oldAfter: number;
  if (window.stoppedAt < 0) {
    oldAfter = old.count;
  } else {
    oldAfter = lineOf(old, window.stoppedAt - delta);
    if (old.starts[oldAfter] !== window.stoppedAt - delta) {
      return fullParse(text, 'lines out of step');
    }
  }
  const windowEnd = firstLine + window.count;
  const lineDelta = windowEnd - oldAfter;
  const oldCount = old.count;
  const count = oldCount + lineDelta;
  // Line ends: those of the old window go, those of the new come.
  let crlf = old.crlf + window.crlf;
  let lf = old.lf + window.lf;
  for (let i = firstLine; i < Math.min(oldAfter, oldCount - 1); i++) {
    const width = old.starts[i + 1] - old.ends[i];
    if (width === 2) crlf--;
    else if (previous.text.charCodeAt(old.ends[i]) === 0x0a) lf--;
  }
  // Kinds: the edited lines, and the non-blank line before them, whose kind may depend on the
  // line after it (a `Comments on ...` title). The old kinds of those lines are kept for the
  // boundary checks below, which look at the earlier parse.
  let changedFrom = firstLine;
  while (changedFrom > 0 && old.kinds[changedFrom - 1] === LineCode.Blank) changedFrom--;
  changedFrom = Math.max(0, changedFrom - 1);
  const oldKinds = old.kinds.slice(changedFrom, oldAfter);
  // The table is the previous model's, taken over: the lines after the window move in place.
  const table = old instanceof LineTableBuilder ? old : copyOf(old);
  table.reserve(count);
  if (lineDelta !== 0) {
    table.starts.copyWithin(windowEnd, oldAfter, oldCount);
    table.ends.copyWithin(windowEnd, oldAfter, oldCount);
    table.kinds.copyWithin(windowEnd, oldAfter, oldCount);
  }
  if (delta !== 0) {
    const { starts, ends } = table;
    for (let j = windowEnd; j < count; j++) {
      starts[j] += delta;
      ends[j] += delta;
    }
  }
  table.starts.set(window.starts.subarray(0, window.count), firstLine);
  table.ends.set(window.ends.subarray(0, window.count), firstLine);
  table.count = count;
  table.crlf = crlf;
  table.lf = lf;
  src.text = text;
  src.bom = text.charCodeAt(0) === 0xfeff;
  src.table = table;
  classifyLines(src, table, changedFrom, windowEnd);
  /** The kind a line of the previous text had. */
  const oldKind = (line: number): number => (line < changedFrom ? table.kinds[line] : line < oldAfter ? oldKinds[line - changedFrom] : table.kinds[line + lineDelta]);

  // ---- Structure: from the last entry boundary before the change to the first one after it
  // where the parses agree.
  const entries = previous.entries;
  let cut = -1;
  {
    let low = 0;
    let high = entries.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (entries[mid].line < changedFrom) low = mid + 1;
      else high = mid - 1;
    }
    // `high` is the last entry starting before the changed lines.
    for (let k = high; k >= 1; k--) {
      if (isBoundary(entries, oldKind, k)) {
        cut = k;
        break;
      }
    }
  }
  let pass: StructurePass;
  let startLine: number;
  let reopened: EntryNode | undefined;
  if (cut >= 1) {
    reopened = entries[cut - 1].reopen();
    pass = new StructurePass(src, table, { current: reopened, firstContent: false, nextIndex: cut });
    startLine = entries[cut].line;
  } else {
    pass = new StructurePass(src, table, { current: undefined, firstContent: true, nextIndex: 0 });
    startLine = 0;
  }
  let resumeAt = -1;
  const stop = (line: number, current: EntryNode | undefined): boolean => {
    if (line < windowEnd || !current) {
      return false;
    }
    const at = entryStartingAt(entries, line - lineDelta, Math.max(cut, 1));
    if (at < 1 || !isBoundary(entries, oldKind, at) || entries[at - 1].kindMask !== current.kindMask) {
      return false;
    }
    resumeAt = at;
    return true;
  };
  pass.run(startLine, stop);

  const result: EntryNode[] = [];
  for (let k = 0; k < cut - 1; k++) result.push(entries[k]);
  if (reopened) result.push(reopened);
  for (const entry of pass.entries) result.push(entry);
  let kept = Math.max(0, cut - 1);
  if (resumeAt >= 0) {
    const indexDelta = result.length - resumeAt;
    for (let k = resumeAt; k < entries.length; k++) {
      const entry = entries[k];
      entry.line += lineDelta;
      entry.offset += delta;
      entry.index += indexDelta;
      result.push(entry);
    }
    kept += entries.length - resumeAt;
  }
  const preamble: Preamble = cut >= 1 ? previous.preamble : pass.preamble();
  previous.superseded = true;
  lastStatistics = { linesScanned: window.count, entriesParsed: pass.entries.length + (reopened ? 1 : 0), entriesKept: kept };
  const model = new DigestModel(src, table, preamble, result);
  // Within the limits before, and its new lines too: within them now (limits.ts).
  noteUpdate(previous, model, firstLine, windowEnd);
  return model;
}
