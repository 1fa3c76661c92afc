/**
 * The parsed document behind the `DigestDocument` interface: lines kept as offsets in typed
 * arrays, entries as nodes (nodes.ts), and the lists few features read (the lines as objects,
 * the paragraphs, the structure problems) made from them on first use.
 */
import type { Range } from 'vscode-languageserver-types';
import { DigestDocument, Field, FIELD_ORDER, Paragraph, REQUIRED_FIELDS, SourceLine, StructureProblem } from './model';
import type { EntryNode, FramedSpan, Frame, Source } from './nodes';

/** What the parser saw on a line, before lines are assigned to fields. */
export const enum LineCode {
  Blank = 0,
  Institutions = 1,
  TopicHits = 2,
  Summary = 3,
  Comments = 4,
  JournalRef = 5,
  Text = 6,
  /** A `Comments on ...` line read as a title: plain text, though it was classified as comments. */
  CommentsTitle = 7,
}

/** Whether a line code is a plain line (a title, the authors, the heading or a stray line). */
export function isPlainCode(code: number): boolean {
  return code === LineCode.Text || code === LineCode.CommentsTitle;
}

/**
 * The lines of a text: where each starts (offset of its first character, or of the BOM on line
 * 0), where its content ends (the offset of its line end), and what it is.
 */
export interface LineTable {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly kinds: Uint8Array;
  readonly count: number;
  /** How many line ends are CRLF, and how many LF (a lone CR counts as neither). */
  readonly crlf: number;
  readonly lf: number;
}

/** A line end: what a fix that adds lines writes, the one the file mostly uses. */
export type LineEnd = '\n' | '\r\n' | '\r';

/**
 * The line end a table's text mostly uses: CRLF when more than LF, a lone CR when more than
 * either (a file of lone CRs, as old Mac files), else LF (a text of one line too).
 *
 * @example mostUsedLineEnd({ count: 3, crlf: 0, lf: 0 }) // '\r'
 */
export function mostUsedLineEnd(table: Pick<LineTable, 'count' | 'crlf' | 'lf'>): LineEnd {
  const lone = table.count - 1 - table.crlf - table.lf;
  if (lone > table.crlf && lone > table.lf) return '\r';
  return table.crlf > table.lf ? '\r\n' : '\n';
}

/** The frame of the lines before the first entry: the document itself. */
class DocumentFrame implements Frame {
  readonly line = 0;
  readonly offset = 0;
  constructor(readonly src: Source) {}
}

/** What the structure pass found outside the entries. */
export interface Preamble {
  readonly heading: FramedSpan | undefined;
  readonly strays: readonly FramedSpan[];
  /** The line where the missing heading was noticed, or -1. */
  readonly missingHeadingLine: number;
}

export class DigestModel implements DigestDocument {
  readonly text: string;
  readonly hasBom: boolean;
  readonly eol: LineEnd;
  /**
   * Set when an incremental update took the model's entries over (see incremental.ts): the model
   * must not be read any more, nor updated again.
   */
  superseded: boolean;
  private linesView: readonly SourceLine[] | undefined;
  private paragraphList: readonly Paragraph[] | undefined;
  private problemList: readonly StructureProblem[] | undefined;

  constructor(
    readonly src: Source,
    readonly table: LineTable,
    readonly preamble: Preamble,
    readonly entries: readonly EntryNode[],
  ) {
    this.text = src.text;
    this.hasBom = src.bom;
    this.eol = mostUsedLineEnd(table);
    this.superseded = false;
    this.linesView = undefined;
    this.paragraphList = undefined;
    this.problemList = undefined;
  }

  static frame(src: Source): Frame {
    return new DocumentFrame(src);
  }

  get heading(): FramedSpan | undefined {
    return this.preamble.heading;
  }

  get strayLines(): readonly FramedSpan[] {
    return this.preamble.strays;
  }

  /** The first character of a line's text: 1 on line 0 after a BOM. */
  firstCharacter(line: number): number {
    return line === 0 && this.hasBom ? 1 : 0;
  }

  /** The range of a line's text. */
  lineRange(line: number): Range {
    const t = this.table;
    return { start: { line, character: this.firstCharacter(line) }, end: { line, character: t.ends[line] - t.starts[line] } };
  }

  /**
   * The lines, as a read-only array view that makes each `SourceLine` when it is read: a digest
   * of 300,000 lines does not hold 300,000 line objects for the few that code actions look at.
   */
  get lines(): readonly SourceLine[] {
    return (this.linesView ??= linesView(this));
  }

  /** Line `line` as a `SourceLine`. */
  sourceLine(line: number): SourceLine {
    const t = this.table;
    const first = this.firstCharacter(line);
    const offset = t.starts[line] + first;
    return { line, text: this.text.slice(offset, t.ends[line]), offset };
  }

  get paragraphs(): readonly Paragraph[] {
    if (!this.paragraphList) {
      const kinds = this.table.kinds;
      const count = this.table.count;
      const list: Paragraph[] = [];
      let start = -1;
      for (let i = 0; i <= count; i++) {
        const blank = i === count || kinds[i] === LineCode.Blank;
        if (!blank && start < 0) {
          start = i;
        } else if (blank && start >= 0) {
          const end = i - 1;
          list.push({ startLine: start, endLine: end, range: { start: { line: start, character: this.firstCharacter(start) }, end: this.lineRange(end).end } });
          start = -1;
        }
      }
      this.paragraphList = list;
    }
    return this.paragraphList;
  }

  /**
   * The structure problems, in the parser's order: lines run together, then the missing heading
   * and the stray lines as they come, then each entry's missing and misplaced fields.
   */
  get problems(): readonly StructureProblem[] {
    if (!this.problemList) {
      const problems: StructureProblem[] = [];
      const kinds = this.table.kinds;
      for (let i = 1; i < this.table.count; i++) {
        if (kinds[i] !== LineCode.Blank && kinds[i - 1] !== LineCode.Blank) {
          problems.push({ kind: 'runTogether', range: this.lineRange(i), insertBeforeLine: i });
        }
      }
      const missingHeading = this.preamble.missingHeadingLine;
      if (missingHeading >= 0) {
        const at = { line: missingHeading, character: this.firstCharacter(missingHeading) };
        problems.push({ kind: 'missingHeading', range: { start: at, end: { ...at } } });
      }
      this.strayProblems(this.preamble.strays, undefined, problems);
      // Indexed loops: made once per version, this code is seldom optimised, and an iterator's
      // results would be 20,000 objects of garbage after each keystroke in 10,000 papers.
      const entries = this.entries;
      for (let i = 0; i < entries.length; i++) {
        const strays = entries[i].strayLines;
        if (strays.length > 0) this.strayProblems(strays, entries[i].index, problems);
      }
      for (let i = 0; i < entries.length; i++) {
        entryProblemsOnce(this, entries[i], problems);
      }
      this.problemList = problems;
    }
    return this.problemList;
  }

  /**
   * One problem per run of stray lines with only blank lines between them (a few paragraphs of
   * notes are one problem, not one per paragraph), from the first to the last.
   */
  private strayProblems(strays: readonly FramedSpan[], entryIndex: number | undefined, problems: StructureProblem[]): void {
    const kinds = this.table.kinds;
    let first: Range | undefined;
    let last: Range | undefined;
    for (const stray of strays) {
      const range = stray.range;
      if (first && last) {
        let adjacent = true;
        for (let line = last.end.line + 1; line < range.start.line; line++) {
          if (kinds[line] !== LineCode.Blank) {
            adjacent = false;
            break;
          }
        }
        if (adjacent) {
          last = range;
          continue;
        }
        problems.push({ kind: 'strayLine', range: { start: first.start, end: last.end }, entryIndex });
      }
      first = range;
      last = range;
    }
    if (first && last) {
      problems.push({ kind: 'strayLine', range: { start: first.start, end: last.end }, entryIndex });
    }
  }
}

/** Fields out of order and required fields missing, for one entry. */
/**
 * Per entry, its missing and misplaced fields at the line and index it had: an entry object keeps
 * its text (an edit makes new entries of what it touched), and one an edit moved has another line
 * or index, so a keystroke's model finds the problems of the entries it kept, not their fields
 * split again.
 */
const ENTRY_PROBLEMS = new WeakMap<EntryNode, { readonly line: number; readonly index: number; readonly problems: readonly StructureProblem[] }>();
const NO_PROBLEMS: readonly StructureProblem[] = [];

function entryProblemsOnce(doc: DigestModel, entry: EntryNode, problems: StructureProblem[]): void {
  const known = ENTRY_PROBLEMS.get(entry);
  if (known && known.line === entry.line && known.index === entry.index) {
    const own = known.problems;
    for (let i = 0; i < own.length; i++) problems.push(own[i]);
    return;
  }
  const own: StructureProblem[] = [];
  entryProblems(doc, entry, own);
  ENTRY_PROBLEMS.set(entry, { line: entry.line, index: entry.index, problems: own.length > 0 ? own : NO_PROBLEMS });
  for (const problem of own) problems.push(problem);
}

function entryProblems(doc: DigestModel, entry: EntryNode, problems: StructureProblem[]): void {
  const fields = entry.fields;
  // Out of order: a field that comes after a field that should follow it.
  let maxOrder = -1;
  for (const field of fields) {
    const order = FIELD_ORDER.indexOf(field.kind);
    if (order < maxOrder) {
      const before = fields.find((f) => FIELD_ORDER.indexOf(f.kind) > order);
      problems.push({
        kind: 'outOfOrder',
        range: field.range,
        entryIndex: entry.index,
        field: field.kind,
        insertBeforeLine: before?.line,
      });
    }
    maxOrder = Math.max(maxOrder, order);
  }
  for (const kind of REQUIRED_FIELDS) {
    if (entry[kind] !== undefined) {
      continue;
    }
    const order = FIELD_ORDER.indexOf(kind);
    // The field belongs after the last present field that precedes it in the canonical order.
    let after: Field | undefined;
    let beforeField: Field | undefined;
    for (const field of fields) {
      const o = FIELD_ORDER.indexOf(field.kind);
      if (o < order && (!after || field.line > after.line)) {
        after = field;
      }
      if (o > order && (!beforeField || field.line < beforeField.line)) {
        beforeField = field;
      }
    }
    const anchor = after ?? beforeField ?? fields[0];
    const range = anchor ? anchor.range : doc.lineRange(entry.line);
    problems.push({
      kind: 'missingField',
      range,
      entryIndex: entry.index,
      field: kind,
      insertAfterLine: after?.line,
      insertBeforeLine: after ? undefined : beforeField?.line ?? entry.line,
    });
  }
}

/** Whether a property key is the canonical form of an array index below `count`. */
function lineIndex(key: string | symbol, count: number): number {
  if (typeof key !== 'string' || key.length === 0 || key.length > 10) {
    return -1;
  }
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39 || (c === 0x30 && key.length > 1)) {
    return -1;
  }
  const index = Number(key);
  return Number.isInteger(index) && index < count ? index : -1;
}

/** A read-only array of the lines that makes each element when it is read. */
function linesView(doc: DigestModel): readonly SourceLine[] {
  const count = doc.table.count;
  const target: SourceLine[] = [];
  const refuse = (): boolean => false;
  return new Proxy(target, {
    get(t, key, receiver) {
      if (key === 'length') {
        return count;
      }
      const index = lineIndex(key, count);
      return index >= 0 ? doc.sourceLine(index) : Reflect.get(t, key, receiver);
    },
    has(t, key) {
      return key === 'length' || lineIndex(key, count) >= 0 || Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      if (key === 'length') {
        return { value: count, writable: true, enumerable: false, configurable: false };
      }
      const index = lineIndex(key, count);
      return index >= 0 ? { value: doc.sourceLine(index), writable: false, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys() {
      const keys: string[] = [];
      for (let i = 0; i < count; i++) keys.push(String(i));
      keys.push('length');
      return keys;
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}
