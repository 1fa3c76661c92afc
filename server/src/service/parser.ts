/**
 * The digest parser: text in, `DigestDocument` out, in one pass over the lines.
 *
 * It never throws and accepts any string. Lines are first classified (labelled field or plain
 * text); each maximal run of plain lines is then assigned to English title, Chinese title,
 * authors or stray by a small dynamic programme that picks the cheapest reading, so that one
 * broken entry never shifts the fields of the entries after it.
 *
 * The pass decides the structure only: which line is which field of which entry. Lines are kept
 * as offsets in typed arrays and fields as nodes that split their line into parts when a feature
 * first asks (nodes.ts), so a 10,000-entry digest parses without allocating its half a million
 * names, items and hits up front. The pass can start at an entry boundary with the state the
 * parse had there and stop where an earlier parse is in step again: incremental.ts re-parses an
 * edited window that way.
 */
import { DigestModel, isPlainCode, LineCode, LineEnd, LineTable, mostUsedLineEnd, Preamble } from './document';
import { DigestDocument, LABELS, miscasedLabelAt, SourceLine } from './model';
import { EntryNode, FIELD_BIT, Frame, FramedSpan, InstitutionsFieldNode, PlainFieldNode, Source, TextFieldNode, TopicHitsFieldNode } from './nodes';
import { hasCjk, isCjkIdeograph, looksLikeName, NAME_PARTICLES, skipSpaces, trimEndIndex } from './text';

/**
 * Parses a digest.
 *
 * @example
 * const doc = parseDigest('大模型推理能力\n\nA Title\n\n一个标题\n\nMei Tanaka\n');
 * doc.heading?.text;                      // '大模型推理能力'
 * doc.entries[0].englishTitle?.value.text; // 'A Title'
 */
export function parseDigest(text: string): DigestDocument {
  const table = scanLines(text, 0, -1);
  const src = new Source(text, text.charCodeAt(0) === 0xfeff, table);
  classifyLines(src, table, 0, table.count);
  const pass = new StructurePass(src, table, { current: undefined, firstContent: true, nextIndex: 0 });
  pass.run(0);
  return new DigestModel(src, table, pass.preamble(), pass.entries);
}

/** Splits text into lines at `\r\n`, `\n` and a lone `\r`, as LSP does. Line 0 keeps its BOM. */
export function splitLines(text: string): { lines: SourceLine[]; eol: LineEnd } {
  const table = scanLines(text, 0, -1);
  const lines: SourceLine[] = [];
  for (let i = 0; i < table.count; i++) {
    lines.push({ line: i, text: text.slice(table.starts[i], table.ends[i]), offset: table.starts[i] });
  }
  return { lines, eol: mostUsedLineEnd(table) };
}


// ---- Lines -----------------------------------------------------------------------------------

/** A line table under construction, its arrays grown by doubling. */
export class LineTableBuilder implements LineTable {
  starts: Int32Array;
  ends: Int32Array;
  kinds: Uint8Array;
  count = 0;
  crlf = 0;
  lf = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
    this.kinds = new Uint8Array(size);
  }

  push(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.reserve(this.count + 1);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
  }

  reserve(needed: number): void {
    if (needed <= this.starts.length) {
      return;
    }
    const size = Math.max(needed, Math.ceil(this.starts.length * 1.5));
    const starts = new Int32Array(size);
    starts.set(this.starts.subarray(0, this.count));
    const ends = new Int32Array(size);
    ends.set(this.ends.subarray(0, this.count));
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds.subarray(0, this.count));
    this.starts = starts;
    this.ends = ends;
    this.kinds = kinds;
  }
}

/**
 * Splits `text` into lines from offset `from` (a line start), appending them to `into` if given.
 * With `stopAfter` ≥ 0 it stops at the first line start beyond that offset and leaves that line
 * out: `stoppedAt` is its start, or -1 when the text ended first (the last line, possibly
 * empty, is then included).
 */
export function scanLines(text: string, from: number, stopAfter: number, into?: LineTableBuilder): LineTableBuilder & { stoppedAt: number } {
  const table = (into ?? new LineTableBuilder(stopAfter >= 0 ? 64 : Math.ceil((text.length - from) / 32) + 1)) as LineTableBuilder & { stoppedAt: number };
  const length = text.length;
  let start = from;
  // The next `\n` and `\r` at or after `i`, each searched for again only once passed.
  let nextLf = text.indexOf('\n', from);
  let nextCr = text.indexOf('\r', from);
  let i = from;
  table.stoppedAt = -1;
  while (i < length) {
    if (nextLf >= 0 && nextLf < i) nextLf = text.indexOf('\n', i);
    if (nextCr >= 0 && nextCr < i) nextCr = text.indexOf('\r', i);
    const next = nextLf < 0 ? nextCr : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
    if (next < 0) {
      break;
    }
    table.push(start, next);
    if (text.charCodeAt(next) === 0x0d && text.charCodeAt(next + 1) === 0x0a) {
      table.crlf++;
      i = next + 2;
    } else {
      if (text.charCodeAt(next) === 0x0a) {
        table.lf++;
      }
      i = next + 1;
    }
    start = i;
    if (stopAfter >= 0 && start > stopAfter) {
      table.stoppedAt = start;
      return table;
    }
  }
  table.push(start, length);
  return table;
}

/**
 * Classifies lines `from..to` of the table (their kinds are written in place). A comments line
 * looks ahead to the next non-blank line, which may lie beyond `to`: its kind must be known.
 */
export function classifyLines(src: Source, table: LineTable, from: number, to: number): void {
  const text = src.text;
  const { starts, ends, kinds } = table;
  let comments = false;
  for (let i = from; i < to; i++) {
    const end = ends[i];
    let k = starts[i] + (i === 0 && src.bom ? 1 : 0);
    let c = 0;
    // The first character that is not a space or a tab decides blank lines and labels.
    while (k < end && ((c = text.charCodeAt(k)) === 0x20 || c === 0x09)) k++;
    const code = k === end ? LineCode.Blank : classifyLine(text, c === 0x3000 ? skipSpaces(text, k, end) : k, end);
    kinds[i] = code;
    if (code === LineCode.Comments) comments = true;
  }
  if (!comments) {
    return;
  }
  // `Comments on ...` may be an English title: a comments line is followed by the next
  // entry's English title or by a journal ref, never directly by a Chinese title. Only a line
  // that reads like a title is taken for one: a real comments line followed by a Chinese title
  // is the comments of a paper whose successor lacks its English title.
  for (let i = from; i < to; i++) {
    if (kinds[i] !== LineCode.Comments || !isCommentsTitle(text, starts[i] + (i === 0 && src.bom ? 1 : 0))) {
      continue;
    }
    let next = i + 1;
    while (next < table.count && kinds[next] === LineCode.Blank) next++;
    if (next < table.count && kinds[next] === LineCode.Text) {
      const nextText = lineText(src, table, next);
      if (hasCjk(nextText) && !isObviousStray(nextText.trim())) {
        kinds[i] = LineCode.CommentsTitle;
      }
    }
  }
}

/**
 * A title that starts with the word `Comments`: `Comments on Attention Sinks`, `Comments About ...`.
 * Sticky, and run on the whole text from a line's start: its white space is `\s` without the line
 * ends, so a match never leaves the line (the line is not sliced out to be tested).
 */
const COMMENTS_TITLE = /[^\S\r\n]*Comments[^\S\r\n]+(?:on|about|regarding|upon|concerning)[^\S\r\n]/iy;

/** Whether the line starting at `start` reads like a title that starts with `Comments`. */
export function isCommentsTitle(text: string, start: number): boolean {
  COMMENTS_TITLE.lastIndex = start;
  return COMMENTS_TITLE.test(text);
}

/** The text of a line, without its line end (and without the BOM on line 0). */
function lineText(src: Source, table: LineTable, line: number): string {
  return src.text.slice(table.starts[line] + (line === 0 && src.bom ? 1 : 0), table.ends[line]);
}

/**
 * Classifies a non-blank line by its label; `start` is its first non-space character. The first
 * character picks the one label the line may start with.
 */
function classifyLine(text: string, start: number, end: number): LineCode {
  switch (text.charCodeAt(start)) {
    case 0x673a: // 机
      // `机构投资者与市场流动性` is a Chinese title (on institutional investors), not the label:
      // the label is followed by its `*`, a space or a colon, and an institution is named in
      // English first, never by an ideograph right after the label.
      return text.startsWith(LABELS.institutions, start) && !isCjkIdeograph(text.charCodeAt(start + LABELS.institutions.length)) ? LineCode.Institutions : LineCode.Text;
    case 0x4e13: // 专
      return text.startsWith(LABELS.topicHits, start) ? LineCode.TopicHits : LineCode.Text;
    case 0x41: // A
      return text.startsWith(LABELS.summary, start) || text.startsWith('AI 总结', start) ? LineCode.Summary : LineCode.Text;
    case 0x43: // C
      return startsWithWord(text, start, end, LABELS.comments) ? LineCode.Comments : LineCode.Text;
    case 0x4a: // J
      return startsWithWord(text, start, end, LABELS.journalRef) ? LineCode.JournalRef : LineCode.Text;
    default:
      return LineCode.Text;
  }
}

/** Whether `word` stands at `start`, followed by a space, a colon or the end of the line. */
function startsWithWord(text: string, start: number, end: number, word: string): boolean {
  if (end - start < word.length || !text.startsWith(word, start)) {
    return false;
  }
  if (start + word.length === end) {
    return true;
  }
  const next = text.charCodeAt(start + word.length);
  return next === 0x20 || next === 0x09 || next === 0x3a || next === 0xff1a;
}

// ---- Structure -------------------------------------------------------------------------------

/** Role of a plain line after the assignment step. */
const enum Role {
  Stray = 0,
  English = 1,
  Chinese = 2,
  Authors = 3,
  Heading = 4,
}

/** Costs of the readings of a run of plain lines; lower is likelier. */
const COST = {
  /** A plain field missing between two others of the same entry. */
  missingRole: 4,
  /** A plain field missing at the end of the run: the labelled fields follow. */
  missingAtEnd: 2,
  stray: 6,
  obviousStray: 1,
  /** A role a line never takes (a label in another case as a title): more than any reading costs otherwise. */
  never: 200,
  newEntryWithoutLabels: 6,
  /**
   * The labelled line after the run opens a new entry, and the run gave it none of its plain
   * fields (as when a paper's author list is read as a stray line of the paper before).
   */
  labelledEntryWithoutPlainFields: 6,
  outOfOrderFill: 2,
  latinHeading: 3,
  noHeading: 3,
} as const;

/** The `EntryNode.kindMask` bit of each labelled line code's field. */
const LABELLED_BIT = [0, FIELD_BIT.institutions, FIELD_BIT.topicHits, FIELD_BIT.summary, FIELD_BIT.comments, FIELD_BIT.journalRef];

/** The parse state at a line where the pass may start: the entry open there, if any. */
export interface PassStart {
  /** The entry the lines before belong to; the pass may add fields and stray lines to it. */
  readonly current: EntryNode | undefined;
  /** No non-blank line comes before. */
  readonly firstContent: boolean;
  /** The index of the next entry. */
  readonly nextIndex: number;
}

/**
 * Consulted before each labelled line and each run of plain lines: true to stop the pass there
 * (an earlier parse is known to continue identically from that line).
 */
export type StopCheck = (line: number, current: EntryNode | undefined) => boolean;

/** Scratch buffers of the assignment step, grown as needed and reused across runs. */
class Scratch {
  run = new Int32Array(64);
  costs = new Uint8Array(256);
  choice = new Uint8Array(64 * 12);
  roles = new Uint8Array(64);
  rolesAlt = new Uint8Array(64);

  reserve(n: number): void {
    if (this.run.length >= n) {
      return;
    }
    let size = this.run.length;
    while (size < n) size *= 2;
    const run = new Int32Array(size);
    run.set(this.run);
    this.run = run;
    this.costs = new Uint8Array(size * 4);
    this.roles = new Uint8Array(size);
    this.rolesAlt = new Uint8Array(size);
  }

  reserveChoice(n: number): void {
    if (this.choice.length < n * 12) {
      this.choice = new Uint8Array(Math.max(n * 12, this.choice.length * 2));
    }
  }
}

/** Assigns lines to entries and fields, from a line on. */
export class StructurePass {
  /** The entries the pass opened, in order. */
  readonly entries: EntryNode[] = [];
  private heading: FramedSpan | undefined;
  private readonly strays: FramedSpan[] = [];
  private missingHeadingLine = -1;
  private current: EntryNode | undefined;
  private firstContent: boolean;
  private nextIndex: number;
  private readonly frame: Frame;
  private readonly scratch = new Scratch();

  constructor(
    private readonly src: Source,
    private readonly table: LineTable,
    start: PassStart,
  ) {
    this.current = start.current;
    this.firstContent = start.firstContent;
    this.nextIndex = start.nextIndex;
    this.frame = DigestModel.frame(src);
  }

  /** The heading, the stray lines before the first entry and the missing-heading mark, for a pass from line 0. */
  preamble(): Preamble {
    return { heading: this.heading, strays: this.strays, missingHeadingLine: this.missingHeadingLine };
  }

  /** The entry open where the pass stopped. */
  get open(): EntryNode | undefined {
    return this.current;
  }

  /** Runs from `from` to the end of the text, or to the line where `stop` says to; returns that line. */
  run(from: number, stop?: StopCheck): number {
    const { kinds, count } = this.table;
    let i = from;
    while (i < count) {
      const code = kinds[i];
      if (code === LineCode.Blank) {
        i++;
        continue;
      }
      if (stop && stop(i, this.current)) {
        this.current?.settle();
        return i;
      }
      if (!isPlainCode(code)) {
        if (this.firstContent) {
          this.missingHeadingLine = i;
        }
        this.firstContent = false;
        this.addLabelledLine(i, code);
        i++;
        continue;
      }
      // A maximal run of plain lines, blank lines between them included.
      const scratch = this.scratch;
      let n = 0;
      let j = i;
      while (j < count && (kinds[j] === LineCode.Blank || isPlainCode(kinds[j]))) {
        if (kinds[j] !== LineCode.Blank) {
          if (n === scratch.run.length) scratch.reserve(n + 1);
          scratch.run[n++] = j;
        }
        j++;
      }
      // Whether the labelled line after the run opens a new entry even if the run opens none.
      const closedAfter = j < count && (!this.current || (this.current.kindMask & LABELLED_BIT[kinds[j]]) !== 0);
      const roles = this.assignRun(n, this.firstContent, closedAfter, j < count);
      this.firstContent = false;
      const run = this.scratch.run;
      for (let k = 0; k < n; k++) {
        this.applyAssignment(run[k], roles[k]);
      }
      i = j;
    }
    this.current?.settle();
    return count;
  }

  /**
   * Chooses the cheapest reading of the run of `n` plain lines in the scratch buffer, and returns
   * each line's role (with bit 3 set when it starts an entry). At the start of the document the
   * first line may be the heading: the readings with and without it are compared.
   */
  private assignRun(n: number, atDocumentStart: boolean, closedAfter: boolean, labelledAfter: boolean): Uint8Array {
    // Which plain fields the current entry lacks: those may be filled out of order.
    const lacking = this.current ? ~this.current.kindMask & (roleBit(Role.English) | roleBit(Role.Chinese) | roleBit(Role.Authors)) : 0;
    const scratch = this.scratch;
    const costs = scratch.costs;
    const text = this.src.text;
    const { starts, ends } = this.table;
    // The reading depends on the lines' classes, `lacking` and what follows the run only: short
    // runs are looked up by those (most runs of a digest are alike), the rest are worked out.
    let key = n <= READING_MAX_LINES && !atDocumentStart && readingsKept > 0 ? n | (lacking << 3) | (closedAfter ? 64 : 0) | (labelledAfter ? 128 : 0) : -1;
    for (let k = 0; k < n; k++) {
      const line = scratch.run[k];
      const lineClass = plainLineCosts(text, starts[line] + (line === 0 && this.src.bom ? 1 : 0), ends[line], costs, k * 4);
      if (lineClass === MISCASED_LABEL_CLASS) key = -1;
      else if (key >= 0) key += lineClass << (8 + 3 * k);
    }
    if (key >= 0) {
      const known = READINGS.get(key);
      if (known !== undefined) {
        for (let k = 0; k < n; k++) scratch.roles[k] = (known >> (4 * k)) & 15;
        return scratch.roles;
      }
    }
    scratch.reserveChoice(n);
    let roles: Uint8Array;
    if (!atDocumentStart) {
      cheapestReading(costs, 0, n, lacking, closedAfter, scratch.choice, scratch.roles);
      roles = scratch.roles;
    } else {
      // With the heading: the reading of the lines after the first, written from index 1.
      const withHeading = cheapestReading(costs, 1, n - 1, lacking, closedAfter, scratch.choice, scratch.rolesAlt.subarray(1));
      const without = cheapestReading(costs, 0, n, lacking, closedAfter, scratch.choice, scratch.roles);
      const headingCost = hasCjk(lineText(this.src, this.table, scratch.run[0])) ? 0 : COST.latinHeading;
      if (withHeading + headingCost <= without + COST.noHeading) {
        scratch.rolesAlt[0] = Role.Heading;
        roles = scratch.rolesAlt;
      } else {
        this.missingHeadingLine = scratch.run[0];
        roles = scratch.roles;
      }
    }
    strayEntriesThatCannotStart(roles, costs, n, labelledAfter);
    if (key >= 0) {
      let packed = 0;
      for (let k = 0; k < n; k++) packed |= roles[k] << (4 * k);
      if (READINGS.size >= readingsKept) READINGS.clear();
      READINGS.set(key, packed);
    }
    return roles;
  }

  /** The span of a line's text with surrounding white space trimmed, placed in `frame`. */
  private trimmedSpan(line: number, frame: Frame): FramedSpan {
    const text = this.src.text;
    const raw = this.table.starts[line];
    const end = this.table.ends[line];
    const s = skipSpaces(text, raw + (line === 0 && this.src.bom ? 1 : 0), end);
    return new FramedSpan(frame, line - frame.line, raw - frame.offset, s - raw, trimEndIndex(text, s, end) - raw);
  }

  private applyAssignment(line: number, assignment: number): void {
    const role = assignment & 7;
    if (role === Role.Heading) {
      this.heading = this.trimmedSpan(line, this.frame);
      return;
    }
    const current = this.current;
    if (role === Role.Stray) {
      if (current) {
        current.addStray(this.trimmedSpan(line, current));
        this.extend(current, line);
      } else {
        this.strays.push(this.trimmedSpan(line, this.frame));
      }
      return;
    }
    const entry = (assignment & STARTS_ENTRY) !== 0 || !current ? this.startEntry(line) : current;
    const rel = line - entry.line;
    entry.addField(new PlainFieldNode(entry, rel, role === Role.English ? 'englishTitle' : role === Role.Chinese ? 'chineseTitle' : 'authors'));
    this.extend(entry, line);
  }

  private addLabelledLine(line: number, code: number): void {
    let entry = this.current;
    if (!entry || (entry.kindMask & LABELLED_BIT[code]) !== 0) {
      entry = this.startEntry(line);
    }
    const rel = line - entry.line;
    switch (code) {
      case LineCode.Institutions:
        entry.addField(new InstitutionsFieldNode(entry, rel));
        break;
      case LineCode.TopicHits:
        entry.addField(new TopicHitsFieldNode(entry, rel));
        break;
      default:
        entry.addField(new TextFieldNode(entry, rel, code === LineCode.Summary ? 'summary' : code === LineCode.Comments ? 'comments' : 'journalRef'));
        break;
    }
    this.extend(entry, line);
  }

  private extend(entry: EntryNode, line: number): void {
    entry.lastRel = line - entry.line;
    entry.lastEnd = this.table.ends[line] - this.table.starts[line];
  }

  private startEntry(line: number): EntryNode {
    this.current?.settle();
    const entry = new EntryNode(this.src, line, this.table.starts[line], this.nextIndex++);
    this.entries.push(entry);
    this.current = entry;
    return entry;
  }
}

/** Bit of a role byte: the line starts an entry. */
const STARTS_ENTRY = 8;

/** The longest run whose reading is looked up (`READINGS`): its key takes 8 + 3 bits a line. */
const READING_MAX_LINES = 7;

/**
 * Readings of short runs worked out before, by key (`StructurePass.assignRun`): four bits a
 * line, the role and `STARTS_ENTRY`. Cleared when it holds `readingsKept`.
 */
const READINGS = new Map<number, number>();
let readingsKept = 4096;

/**
 * Sets how many readings of short runs are kept (0: none, every run is worked out, as tests
 * compare); returns the number before.
 */
export function setReadingsKept(count: number): number {
  const before = readingsKept;
  readingsKept = Math.max(0, Math.floor(count));
  READINGS.clear();
  return before;
}

/**
 * Turns into stray lines the entries a run's reading opens that cannot start an entry: those that
 * get no labelled field (every one the run opens, except the last when a labelled line follows the
 * run) and have no English title (one without Chinese) or nothing after it. Personal notes after the last paper
 * (`我的笔记：…`, `TODO …`) are stray text, not a paper missing four fields.
 *
 * @example a run `我的笔记：…`, `TODO check` at the end of the text: read as a Chinese title and
 * authors of a new entry, both lines become stray lines of the entry before.
 */
function strayEntriesThatCannotStart(roles: Uint8Array, costs: Uint8Array, n: number, labelledAfter: boolean): void {
  let start = -1;
  for (let k = 0; k <= n; k++) {
    if (k < n && (roles[k] & STARTS_ENTRY) === 0) {
      continue;
    }
    // [start, k) is an entry the run opened, or k === n ends the run.
    if (start >= 0 && !(k === n && labelledAfter)) {
      let english = false;
      let fields = 0;
      for (let m = start; m < k; m++) {
        const role = roles[m] & 7;
        // An English title in Chinese (a Chinese title costs nothing) is only taken for one
        // when labelled fields follow: swapped titles.
        if (role === Role.English && costs[m * 4 + 1] !== 0) english = true;
        if (role !== Role.Stray) fields++;
      }
      if (!english || fields < 2) {
        for (let m = start; m < k; m++) roles[m] = Role.Stray;
      }
    }
    start = k;
  }
}

/** The two rows of costs `cheapestReading` alternates between (it never runs twice at once). */
const COSTS_A = new Float64Array(12);
const COSTS_B = new Float64Array(12);

/**
 * The cheapest reading of a run of plain lines, by dynamic programming over a handful of states,
 * so the work is linear in the run's length. `costs` holds four bytes per line from `offset`
 * (English, Chinese, authors, stray); each line's role is written to `roles` (with
 * `STARTS_ENTRY` when it opens an entry) and the reading's cost is returned.
 *
 * States 0..7 continue the current entry, with a bit mask of the plain fields filled out of order
 * so far; 8 + r (r = 1..3) are inside a new entry whose last plain field is role r. When
 * `closedAfter`, the labelled line after the run opens a new entry in any case: ending the run in
 * the current entry leaves that entry without plain fields, which costs as much.
 */
function cheapestReading(costs: Uint8Array, offset: number, n: number, lacking: number, closedAfter: boolean, choice: Uint8Array, roles: Uint8Array): number {
  const STATES = 12;
  const INF = 1e9;
  let cost = COSTS_A.fill(INF);
  let next = COSTS_B;
  cost[0] = 0;
  // choice[k * STATES + state] = previous state | role << 4.
  for (let k = 0; k < n; k++) {
    next.fill(INF);
    const base = (offset + k) * 4;
    const stray = costs[base + 3];
    const row = k * STATES;
    for (let s = 0; s < STATES; s++) {
      const here = cost[s];
      if (here >= INF) {
        continue;
      }
      // Each relaxation keeps the first of equal totals, in this order.
      if (here + stray < next[s]) {
        next[s] = here + stray;
        choice[row + s] = s;
      }
      for (let r = Role.English; r <= Role.Authors; r++) {
        const fit = costs[base + r - 1];
        if (s < 8) {
          const bit = roleBit(r);
          if ((lacking & bit) !== 0 && (s & bit) === 0) {
            const total = here + COST.outOfOrderFill + fit;
            if (total < next[s | bit]) {
              next[s | bit] = total;
              choice[row + (s | bit)] = s | (r << 4);
            }
          }
          const total = here + COST.missingRole * (r - 1) + fit;
          if (total < next[8 + r]) {
            next[8 + r] = total;
            choice[row + 8 + r] = s | (r << 4);
          }
        } else {
          const last = s - 8;
          const add = r > last ? COST.missingRole * (r - last - 1) : COST.missingAtEnd * (Role.Authors - last) + COST.newEntryWithoutLabels + COST.missingRole * (r - 1);
          const total = here + add + fit;
          if (total < next[8 + r]) {
            next[8 + r] = total;
            choice[row + 8 + r] = s | (r << 4);
          }
        }
      }
    }
    const swap = cost;
    cost = next;
    next = swap;
  }
  let best = 0;
  let bestCost = INF;
  for (let s = 0; s < STATES; s++) {
    const total = cost[s] + (s >= 8 ? COST.missingAtEnd * (Role.Authors - (s - 8)) : closedAfter ? COST.labelledEntryWithoutPlainFields : 0);
    if (total < bestCost) {
      bestCost = total;
      best = s;
    }
  }
  let state = best;
  for (let k = n - 1; k >= 0; k--) {
    const c = choice[k * STATES + state];
    const from = c & 0xf;
    const role = c >> 4;
    // A new entry opens on a move into 8 + r from a continuing state, or back to an earlier role.
    const starts = role !== Role.Stray && state >= 8 && (from < 8 || role <= from - 8);
    roles[k] = role | (starts ? STARTS_ENTRY : 0);
    state = from;
  }
  return bestCost;
}

/** The bit of a plain role in the out-of-order mask (states 0..7). */
function roleBit(role: Role): number {
  return 1 << (role - 1);
}

/**
 * How well a plain line, `text[start..end)`, fits each role: writes the English, Chinese,
 * authors and stray costs at `at`, and returns the line's class, which they are made of (its
 * verdict, shifted left by one, and whether it is an obvious stray line).
 *
 * This is `authorListLikeness`, `hasCjk` and `isObviousStray` on the trimmed line, computed
 * without slicing or splitting for the lines that decide quickly (the unit tests check that the
 * answers are the same); the rest are handed to those functions.
 */
function plainLineCosts(text: string, start: number, end: number, costs: Uint8Array, at: number): number {
  let s = start;
  let e = end;
  while (s < e && isJsSpace(text.charCodeAt(s))) s++;
  while (e > s && isJsSpace(text.charCodeAt(e - 1))) e--;
  if (miscasedLabelAt(text, s, e) !== undefined) {
    // A label in another case (`comments 12 pages`, `ai总结 …`): text that lost its label, never
    // a title or authors, whatever the paragraphs around it lack. Its reading is not kept.
    costs[at] = costs[at + 1] = costs[at + 2] = COST.never;
    costs[at + 3] = COST.obviousStray;
    return MISCASED_LABEL_CLASS;
  }
  const verdict = lineVerdict(text, s, e);
  const obvious = isObviousStrayBetween(text, s, e);
  const cjk = verdict === CJK;
  costs[at] = cjk ? 4 : verdict === STRONG ? 2 : 0;
  costs[at + 1] = cjk ? 0 : 4;
  costs[at + 2] = cjk ? 5 : verdict === STRONG ? 0 : verdict === WEAK ? 1 : 3;
  costs[at + 3] = obvious ? COST.obviousStray : COST.stray;
  return (verdict << 1) | (obvious ? 1 : 0);
}

/** The class `plainLineCosts` gives a line that starts with a label in another case: outside the kept readings' keys. */
const MISCASED_LABEL_CLASS = -1;

/** `authorListLikeness` of a line without CJK ideographs, or CJK: a line with them is never an author list. */
const NO = 0;
const WEAK = 1;
const STRONG = 2;
const CJK = 3;

/**
 * What the parser's one-pass reading makes of a plain line: `cjk` when it has CJK ideographs,
 * else `authorListLikeness` of the trimmed line. Exported for the tests that check the two agree.
 *
 * @example plainLineVerdict(' Mei Tanaka, Lin Qiu ') // 'strong'
 */
export function plainLineVerdict(line: string): 'cjk' | 'strong' | 'weak' | 'no' {
  let s = 0;
  let e = line.length;
  while (s < e && isJsSpace(line.charCodeAt(s))) s++;
  while (e > s && isJsSpace(line.charCodeAt(e - 1))) e--;
  return (['no', 'weak', 'strong', 'cjk'] as const)[lineVerdict(line, s, e)];
}

/** White space as `String.prototype.trim` and `\s` know it. */
function isJsSpace(c: number): boolean {
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The characters `looksLikeName` refuses in a name: digits, `:` `：` `?` `!` and brackets. */
function isNotInName(c: number): boolean {
  return (c >= 0x30 && c <= 0x3a) || c === 0xff1a || c === 0x3f || c === 0x21 || c === 0x28 || c === 0x29 || c === 0xff08 || c === 0xff09 || c === 0x5b || c === 0x5d;
}

/**
 * `hasCjk` and `authorListLikeness` of a trimmed text, `text[from..to)`, in one pass: CJK when the
 * text has a CJK ideograph; else STRONG for two or more comma-separated items of which most read
 * like names, WEAK for a single name of two to four words, NO otherwise.
 *
 * Each item is judged as `looksLikeName` judges it. The common verdicts (empty or too long, a
 * digit or bracket, more than six words, every word capitalised in ASCII) are reached in the
 * pass; an item with a word starting otherwise is handed to `looksLikeName`, which knows the
 * name particles and the letter cases of every script.
 */
function lineVerdict(text: string, from: number, to: number): number {
  let items = 0;
  let names = 0;
  // The item being read: its first and last non-space characters, its words, and what they hold.
  let first = -1;
  let last = -1;
  let words = 0;
  let capitalised = 0;
  /** A word is neither capitalised in ASCII nor an ASCII name particle: not a name. */
  let refused = false;
  /** A word starts with a character only `looksLikeName` can judge. */
  let undecided = false;
  // The word being read.
  let wordStart = -1;
  let wordAscii = true;
  let wordLower = false;
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 0x2c;
    if (c >= 0x61 && c <= 0x7a) {
      // A lower-case ASCII letter, the most common character of a name.
      if (first < 0) first = i;
      last = i;
      if (wordStart < 0) {
        wordStart = i;
        wordAscii = true;
        wordLower = true;
        words++;
      }
      continue;
    }
    const space = c === 0x2c || c === 0xff0c || isJsSpace(c);
    if (space && wordStart >= 0) {
      // The word ends: a word starting in lower case must be a particle (`de`, `van`, `st.`).
      if (wordLower) {
        if (!wordAscii) undecided = true;
        else if (i - wordStart > 5 || !NAME_PARTICLES.has(text.slice(wordStart, i).toLowerCase())) refused = true;
      }
      wordStart = -1;
    }
    if (c === 0x2c || c === 0xff0c) {
      items++;
      if (first >= 0 && !refused && last + 1 - first <= 60 && words <= 6 && (undecided ? looksLikeName(text.slice(first, last + 1)) : capitalised > 0)) {
        names++;
      }
      if (i === to) {
        break;
      }
      first = -1;
      last = -1;
      words = 0;
      capitalised = 0;
      refused = false;
      undecided = false;
      continue;
    }
    if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) {
      return CJK;
    }
    if (space) {
      continue;
    }
    if (first < 0) first = i;
    last = i;
    if (isNotInName(c)) refused = true;
    if (wordStart < 0) {
      wordStart = i;
      wordAscii = true;
      words++;
      if (c >= 0x41 && c <= 0x5a) {
        capitalised++;
        wordLower = false;
      } else if (c < 0x80) {
        wordLower = true;
      } else {
        // Upper case or not, in another script: `looksLikeName` knows.
        wordLower = false;
        undecided = true;
      }
    }
    if (c >= 0x80) wordAscii = false;
  }
  if (items >= 2) {
    return names >= Math.max(2, Math.ceil(items * 0.8)) ? STRONG : NO;
  }
  // One item, the whole text: a name of two to four words.
  return words >= 2 && words <= 4 && names === 1 ? WEAK : NO;
}

/** `isObviousStray(text.slice(from, to))` for a trimmed text. */
function isObviousStrayBetween(text: string, from: number, to: number): boolean {
  const length = to - from;
  if (length === 2 && (text.startsWith(LABELS.reportMarker, from) || text.startsWith(LABELS.categories, from))) {
    return true;
  }
  if (length >= 2 && text.charCodeAt(from) === 0x5b && text.charCodeAt(to - 1) === 0x5d && text.indexOf(']', from + 1) === to - 1) {
    return true;
  }
  // No letter of any script and no digit: only punctuation or symbols.
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x4e00 && c <= 0x9fef)) {
      return false;
    }
    if (c >= 0x80) {
      return isObviousStray(text.slice(from, to));
    }
  }
  return true;
}

/** Lines that are plainly not a title or an author list: a lone `纠错`, bare punctuation, `[cs.AI]`, a label in another case. */
function isObviousStray(trimmed: string): boolean {
  if (trimmed === LABELS.reportMarker || trimmed === LABELS.categories || miscasedLabelAt(trimmed, 0, trimmed.length) !== undefined) {
    return true;
  }
  if (/^\[[^\]]*\]$/.test(trimmed)) {
    return true;
  }
  // No letter of any script and no digit: only punctuation or symbols.
  return !/[\p{L}\p{N}]/u.test(trimmed);
}

/** The kind mask of an entry, as `EntryNode.kindMask` (re-exported for incremental.ts). */
export { FIELD_BIT };
