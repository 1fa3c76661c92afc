/**
 * The digest parser: text in, `DigestDocument` out, in one pass over the lines.
 *
 * It never throws and accepts any string. Lines are first classified (labelled field or plain
 * text); each maximal run of plain lines is then assigned to English title, Chinese title,
 * authors or stray by a small dynamic programme that picks the cheapest reading, so that one
 * broken entry never shifts the fields of the entries after it.
 */
import type { Range } from 'vscode-languageserver-types';
import {
  AuthorPair,
  AuthorsField,
  DigestDocument,
  Entry,
  Field,
  FIELD_ORDER,
  FieldKind,
  InstitutionItem,
  InstitutionsField,
  LABELS,
  LineKind,
  Link,
  Paragraph,
  REQUIRED_FIELDS,
  SourceLine,
  Span,
  StructureProblem,
  TextField,
  TitleField,
  TopicHit,
  TopicHitsField,
} from './model';
import { authorListLikeness, hasCjk, isBlank, skipSpaces, trimEndIndex } from './text';

/**
 * Parses a digest.
 *
 * @example
 * const doc = parseDigest('大模型推理能力\n\nA Title\n\n一个标题\n\nMei Tanaka\n');
 * doc.heading?.text;                      // '大模型推理能力'
 * doc.entries[0].englishTitle?.value.text; // 'A Title'
 */
export function parseDigest(text: string): DigestDocument {
  return new DigestParser(text).parse();
}

/** Splits text into lines at `\r\n`, `\n` and a lone `\r`, as LSP does. */
export function splitLines(text: string): { lines: SourceLine[]; eol: '\n' | '\r\n' } {
  const lines: SourceLine[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  let lineNumber = 0;
  const length = text.length;
  // The next `\n` and `\r` at or after `i`, each searched for again only once passed.
  let nextLf = text.indexOf('\n');
  let nextCr = text.indexOf('\r');
  let i = 0;
  while (i < length) {
    if (nextLf >= 0 && nextLf < i) nextLf = text.indexOf('\n', i);
    if (nextCr >= 0 && nextCr < i) nextCr = text.indexOf('\r', i);
    const next = nextLf < 0 ? nextCr : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
    if (next < 0) {
      break;
    }
    lines.push({ line: lineNumber++, text: text.slice(start, next), offset: start });
    if (text.charCodeAt(next) === 0x0d && text.charCodeAt(next + 1) === 0x0a) {
      crlf++;
      i = next + 2;
    } else {
      if (text.charCodeAt(next) === 0x0a) {
        lf++;
      }
      i = next + 1;
    }
    start = i;
  }
  lines.push({ line: lineNumber, text: text.slice(start), offset: start });
  return { lines, eol: crlf > lf ? '\r\n' : '\n' };
}

/**
 * A span that keeps only its line and offsets and makes its text and range when asked: a digest
 * holds hundreds of thousands of spans, and most are never looked at.
 */
class LineSpan implements Span {
  constructor(
    private readonly source: string,
    private readonly line: number,
    private readonly start: number,
    private readonly end: number,
    private readonly shift: number,
  ) {}

  get text(): string {
    return this.source.slice(this.start, this.end);
  }

  get range(): Range {
    return {
      start: { line: this.line, character: this.start + this.shift },
      end: { line: this.line, character: this.end + this.shift },
    };
  }

  toJSON(): { text: string; range: Range } {
    return { text: this.text, range: this.range };
  }
}

/** A title that starts with the word `Comments`: `Comments on Attention Sinks`, `Comments About ...`. */
const COMMENTS_TITLE = /^\s*Comments\s+(?:on|about|regarding|upon|concerning)\s/i;

/** Role of a plain line after the assignment step. */
const enum Role {
  Stray = 0,
  English = 1,
  Chinese = 2,
  Authors = 3,
  Heading = 4,
}

const ROLE_FIELD: Record<number, FieldKind> = {
  [Role.English]: 'englishTitle',
  [Role.Chinese]: 'chineseTitle',
  [Role.Authors]: 'authors',
};

/** Costs of the readings of a run of plain lines; lower is likelier. */
const COST = {
  /** A plain field missing between two others of the same entry. */
  missingRole: 4,
  /** A plain field missing at the end of the run: the labelled fields follow. */
  missingAtEnd: 2,
  stray: 6,
  obviousStray: 1,
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

interface EntryBuilder {
  index: number;
  fields: Field[];
  strayLines: Span[];
  englishTitle?: TitleField;
  chineseTitle?: TitleField;
  authors?: AuthorsField;
  institutions?: InstitutionsField;
  topicHits?: TopicHitsField;
  summary?: TextField;
  comments?: TextField;
  journalRef?: TextField;
  firstLine: number;
  lastLine: number;
}

/** Per plain line, what the assignment decided. */
interface Assignment {
  role: Role;
  /** The line opens a new entry. */
  startsEntry: boolean;
  /** The line fills a field of the entry before it, out of order. */
  outOfOrder: boolean;
}

class DigestParser {
  private readonly lines: SourceLine[];
  private readonly eol: '\n' | '\r\n';
  private readonly hasBom: boolean;
  private readonly kinds: (LineKind | undefined)[];
  private readonly paragraphs: Paragraph[] = [];
  private readonly problems: StructureProblem[] = [];
  private readonly entries: EntryBuilder[] = [];
  private readonly documentStrays: Span[] = [];
  private heading: Span | undefined;
  private current: EntryBuilder | undefined;

  constructor(private readonly text: string) {
    const split = splitLines(text);
    this.lines = split.lines;
    this.eol = split.eol;
    this.hasBom = text.charCodeAt(0) === 0xfeff;
    if (this.hasBom) {
      const first = this.lines[0];
      this.lines[0] = { line: 0, text: first.text.slice(1), offset: 1 };
    }
    this.kinds = new Array(this.lines.length);
  }

  parse(): DigestDocument {
    this.classifyLines();
    this.collectParagraphs();
    this.assignLines();
    for (const entry of this.entries) {
      this.checkEntry(entry);
    }
    const entries = this.entries.map((builder) => this.finishEntry(builder));
    return {
      text: this.text,
      hasBom: this.hasBom,
      eol: this.eol,
      lines: this.lines,
      paragraphs: this.paragraphs,
      heading: this.heading,
      entries,
      strayLines: this.documentStrays,
      problems: this.problems,
    };
  }

  // ---- Positions -----------------------------------------------------------------------

  /** The character offset in LSP terms of a character index into a line's text. */
  private character(line: number, index: number): number {
    return line === 0 && this.hasBom ? index + 1 : index;
  }

  private range(line: number, start: number, end: number): Range {
    return {
      start: { line, character: this.character(line, start) },
      end: { line, character: this.character(line, end) },
    };
  }

  private span(line: number, start: number, end: number): Span {
    return new LineSpan(this.lines[line].text, line, start, end, line === 0 && this.hasBom ? 1 : 0);
  }

  /** The span of a line's text with surrounding white space trimmed. */
  private trimmedSpan(line: number, start = 0, end = this.lines[line].text.length): Span {
    const text = this.lines[line].text;
    const s = skipSpaces(text, start, end);
    return this.span(line, s, trimEndIndex(text, s, end));
  }

  private lineRange(line: number): Range {
    return this.range(line, 0, this.lines[line].text.length);
  }

  // ---- Step 1: classify lines ----------------------------------------------------------

  private classifyLines(): void {
    for (let i = 0; i < this.lines.length; i++) {
      const text = this.lines[i].text;
      if (isBlank(text)) {
        continue;
      }
      this.kinds[i] = classifyLine(text, skipSpaces(text, 0));
    }
    // `Comments on ...` may be an English title: a comments line is followed by the next
    // entry's English title or by a journal ref, never directly by a Chinese title. Only a line
    // that reads like a title is taken for one: a real comments line followed by a Chinese title
    // is the comments of a paper whose successor lacks its English title.
    for (let i = 0; i < this.lines.length; i++) {
      if (this.kinds[i] !== 'comments' || !COMMENTS_TITLE.test(this.lines[i].text)) {
        continue;
      }
      const next = this.nextNonBlank(i + 1);
      if (next >= 0 && this.kinds[next] === 'text' && hasCjk(this.lines[next].text) && !isObviousStray(this.lines[next].text.trim())) {
        this.kinds[i] = 'text';
      }
    }
  }

  private nextNonBlank(from: number): number {
    for (let i = from; i < this.lines.length; i++) {
      if (this.kinds[i] !== undefined) {
        return i;
      }
    }
    return -1;
  }

  // ---- Step 2: paragraphs --------------------------------------------------------------

  private collectParagraphs(): void {
    let start = -1;
    for (let i = 0; i <= this.lines.length; i++) {
      const blank = i === this.lines.length || this.kinds[i] === undefined;
      if (!blank && start < 0) {
        start = i;
      } else if (blank && start >= 0) {
        const end = i - 1;
        this.paragraphs.push({
          startLine: start,
          endLine: end,
          range: { start: { line: start, character: this.character(start, 0) }, end: this.lineRange(end).end },
        });
        for (let line = start + 1; line <= end; line++) {
          this.problems.push({ kind: 'runTogether', range: this.lineRange(line), insertBeforeLine: line });
        }
        start = -1;
      }
    }
  }

  // ---- Step 3: assign lines to entries and fields --------------------------------------

  private assignLines(): void {
    const lines = this.lines;
    let firstContent = true;
    let i = 0;
    while (i < lines.length) {
      const kind = this.kinds[i];
      if (kind === undefined) {
        i++;
        continue;
      }
      if (kind !== 'text') {
        if (firstContent) {
          this.problems.push({ kind: 'missingHeading', range: this.range(i, 0, 0) });
        }
        firstContent = false;
        this.addLabelledLine(i, kind);
        i++;
        continue;
      }
      // A maximal run of plain lines, blank lines between them included.
      const run: number[] = [];
      let j = i;
      while (j < lines.length && (this.kinds[j] === undefined || this.kinds[j] === 'text')) {
        if (this.kinds[j] === 'text') {
          run.push(j);
        }
        j++;
      }
      // Whether the labelled line after the run opens a new entry even if the run opens none.
      const next = this.kinds[j];
      const closedAfter = next !== undefined && next !== 'text' && (!this.current || this.current[next] !== undefined);
      const assignments = this.assignRun(run, firstContent, closedAfter);
      firstContent = false;
      for (let k = 0; k < run.length; k++) {
        this.applyAssignment(run[k], assignments[k]);
      }
      i = j;
    }
  }

  /**
   * Chooses the cheapest reading of a run of plain lines. At the start of the document the first
   * line may be the heading: the readings with and without it are compared.
   */
  private assignRun(run: number[], atDocumentStart: boolean, closedAfter: boolean): Assignment[] {
    const prev = this.current;
    // Which plain fields the current entry lacks: those may be filled out of order.
    let lacking = 0;
    if (prev) {
      if (!prev.englishTitle) lacking |= roleBit(Role.English);
      if (!prev.chineseTitle) lacking |= roleBit(Role.Chinese);
      if (!prev.authors) lacking |= roleBit(Role.Authors);
    }
    const roleCosts = run.map((line) => plainLineCosts(this.lines[line].text));
    if (!atDocumentStart || run.length === 0) {
      return cheapestReading(roleCosts, lacking, closedAfter).assignments;
    }
    const withHeading = cheapestReading(roleCosts.slice(1), lacking, closedAfter);
    const without = cheapestReading(roleCosts, lacking, closedAfter);
    const headingCost = hasCjk(this.lines[run[0]].text) ? 0 : COST.latinHeading;
    if (withHeading.cost + headingCost <= without.cost + COST.noHeading) {
      return [{ role: Role.Heading, startsEntry: false, outOfOrder: false }, ...withHeading.assignments];
    }
    this.problems.push({ kind: 'missingHeading', range: this.range(run[0], 0, 0) });
    return without.assignments;
  }

  private applyAssignment(line: number, assignment: Assignment): void {
    if (assignment.role === Role.Heading) {
      this.heading = this.trimmedSpan(line);
      return;
    }
    if (assignment.role === Role.Stray) {
      const span = this.trimmedSpan(line);
      this.problems.push({ kind: 'strayLine', range: span.range, entryIndex: this.current?.index });
      if (this.current) {
        this.current.strayLines.push(span);
        this.current.lastLine = line;
      } else {
        this.documentStrays.push(span);
      }
      return;
    }
    if (assignment.startsEntry || !this.current) {
      this.startEntry(line);
    }
    const entry = this.current!;
    const kind = ROLE_FIELD[assignment.role];
    const field = kind === 'authors' ? this.parseAuthors(line) : this.parseTitle(line, kind as 'englishTitle' | 'chineseTitle');
    this.addField(entry, field, line);
  }

  private addLabelledLine(line: number, kind: Exclude<LineKind, 'text'>): void {
    let entry = this.current;
    if (!entry || entry[kind] !== undefined) {
      entry = this.startEntry(line);
    }
    let field: Field;
    switch (kind) {
      case 'institutions':
        field = this.parseInstitutions(line);
        break;
      case 'topicHits':
        field = this.parseTopicHits(line);
        break;
      default:
        field = this.parseTextField(line, kind);
        break;
    }
    this.addField(entry, field, line);
  }

  private startEntry(line: number): EntryBuilder {
    const entry: EntryBuilder = { index: this.entries.length, fields: [], strayLines: [], firstLine: line, lastLine: line };
    this.entries.push(entry);
    this.current = entry;
    return entry;
  }

  private addField(entry: EntryBuilder, field: Field, line: number): void {
    entry.fields.push(field);
    (entry as unknown as Record<string, Field>)[field.kind] = field;
    entry.lastLine = line;
  }

  // ---- Step 4: structure checks per entry ----------------------------------------------

  private checkEntry(entry: EntryBuilder): void {
    // Out of order: a field that comes after a field that should follow it.
    let maxOrder = -1;
    for (const field of entry.fields) {
      const order = FIELD_ORDER.indexOf(field.kind);
      if (order < maxOrder) {
        const before = entry.fields.find((f) => FIELD_ORDER.indexOf(f.kind) > order);
        this.problems.push({
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
      for (const field of entry.fields) {
        const o = FIELD_ORDER.indexOf(field.kind);
        if (o < order && (!after || field.line > after.line)) {
          after = field;
        }
        if (o > order && (!beforeField || field.line < beforeField.line)) {
          beforeField = field;
        }
      }
      const anchor = after ?? beforeField ?? entry.fields[0];
      const range = anchor ? anchor.range : this.lineRange(entry.firstLine);
      this.problems.push({
        kind: 'missingField',
        range,
        entryIndex: entry.index,
        field: kind,
        insertAfterLine: after?.line,
        insertBeforeLine: after ? undefined : beforeField?.line ?? entry.firstLine,
      });
    }
  }

  private finishEntry(builder: EntryBuilder): Entry {
    const { firstLine, lastLine } = builder;
    return {
      index: builder.index,
      range: { start: { line: firstLine, character: this.character(firstLine, 0) }, end: this.lineRange(lastLine).end },
      fields: builder.fields,
      englishTitle: builder.englishTitle,
      chineseTitle: builder.chineseTitle,
      authors: builder.authors,
      institutions: builder.institutions,
      topicHits: builder.topicHits,
      summary: builder.summary,
      comments: builder.comments,
      journalRef: builder.journalRef,
      strayLines: builder.strayLines,
    };
  }

  // ---- Field parsers -------------------------------------------------------------------

  private fieldBase<K extends FieldKind>(line: number, kind: K): { kind: K; line: number; text: string; range: Range } {
    return { kind, line, text: this.lines[line].text, range: this.lineRange(line) };
  }

  private parseTitle(line: number, kind: 'englishTitle' | 'chineseTitle'): TitleField {
    return { ...this.fieldBase(line, kind), value: this.trimmedSpan(line) };
  }

  private parseAuthors(line: number): AuthorsField {
    const text = this.lines[line].text;
    const names: Span[] = [];
    const separators: Span[] = [];
    const end = trimEndIndex(text, 0, text.length);
    let itemStart = skipSpaces(text, 0);
    for (let i = itemStart; i <= end; i++) {
      const c = i < end ? text[i] : '';
      if (i === end || c === ',' || c === '，' || c === '、' || c === ';' || c === '；') {
        const itemEnd = trimEndIndex(text, itemStart, i);
        if (itemEnd > itemStart) {
          names.push(this.span(line, itemStart, itemEnd));
        }
        if (i < end) {
          const sepEnd = skipSpaces(text, i + 1, end);
          separators.push(this.span(line, itemEnd, sepEnd));
          itemStart = sepEnd;
          i = sepEnd - 1;
        }
      }
    }
    return { ...this.fieldBase(line, 'authors'), names, separators };
  }

  private parseLabel(line: number, labelLength: number): { label: Span; after: number } {
    const text = this.lines[line].text;
    const start = skipSpaces(text, 0);
    let end = start + labelLength;
    // `AI 总结` is read as `AI总结`.
    if (text.startsWith('AI', start) && text.charCodeAt(start + 2) === 0x20) {
      end = text.indexOf('总结', start) + 2;
    }
    return { label: this.span(line, start, end), after: end };
  }

  private parseTextField(line: number, kind: 'summary' | 'comments' | 'journalRef'): TextField {
    const labelText = kind === 'summary' ? LABELS.summary : kind === 'comments' ? LABELS.comments : LABELS.journalRef;
    const { label, after } = this.parseLabel(line, labelText.length);
    const text = this.lines[line].text;
    let valueStart = skipSpaces(text, after);
    if (text[valueStart] === ':' || text[valueStart] === '：') {
      valueStart = skipSpaces(text, valueStart + 1);
    }
    const value = this.span(line, valueStart, trimEndIndex(text, valueStart, text.length));
    return { ...this.fieldBase(line, kind), label, value, links: this.findLinks(line, valueStart, value.text) };
  }

  private findLinks(line: number, offset: number, text: string): Link[] {
    const links: Link[] = [];
    const pattern = /https?:\/\/[^\s<>"'`）)（(，。；;、\]]+|arXiv:\s?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)/gi;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      let found = match[0];
      // A URL does not end in sentence punctuation.
      while (found.length > 0 && /[.,:!?]$/.test(found)) {
        found = found.slice(0, -1);
      }
      const start = offset + match.index;
      const span = this.span(line, start, start + found.length);
      const target = match[1] !== undefined ? `https://arxiv.org/abs/${match[1]}` : found;
      links.push({ text: span.text, range: span.range, kind: match[1] !== undefined ? 'arxiv' : 'url', target });
    }
    return links;
  }

  private parseInstitutions(line: number): InstitutionsField {
    const text = this.lines[line].text;
    const { label, after } = this.parseLabel(line, LABELS.institutions.length);
    let i = skipSpaces(text, after);
    let star: Span | undefined;
    if (text[i] === '*' || text[i] === '＊') {
      star = this.span(line, i, i + 1);
      i = skipSpaces(text, i + 1);
    } else if (text[i] === ':' || text[i] === '：') {
      i = skipSpaces(text, i + 1);
    }
    let bodyEnd = trimEndIndex(text, i, text.length);
    let marker: Span | undefined;
    if (bodyEnd - i >= 2 && text.startsWith(LABELS.reportMarker, bodyEnd - 2)) {
      marker = this.span(line, bodyEnd - 2, bodyEnd);
      bodyEnd = trimEndIndex(text, i, bodyEnd - 2);
    }
    const items: InstitutionItem[] = [];
    const separators: Span[] = [];
    let depth = 0;
    let itemStart = i;
    for (let k = i; k <= bodyEnd; k++) {
      const c = k < bodyEnd ? text[k] : '';
      if (c === '（' || c === '(') {
        depth++;
      } else if (c === '）' || c === ')') {
        depth--;
      }
      if (k === bodyEnd || c === '；' || (c === ';' && depth <= 0)) {
        const itemEnd = trimEndIndex(text, itemStart, k);
        const s = skipSpaces(text, itemStart, itemEnd);
        if (itemEnd > s || k < bodyEnd) {
          items.push(this.parseInstitutionItem(line, s, Math.max(s, itemEnd)));
        }
        if (k < bodyEnd) {
          const sepEnd = skipSpaces(text, k + 1, bodyEnd);
          separators.push(this.span(line, itemEnd, sepEnd));
          itemStart = sepEnd;
          k = sepEnd - 1;
          depth = 0;
        }
      }
    }
    const field: InstitutionsField = {
      ...this.fieldBase(line, 'institutions'),
      label,
      star,
      marker,
      items,
      separators,
      authorPairs: this.authorPairs(line, items),
    };
    return field;
  }

  private parseInstitutionItem(line: number, start: number, end: number): InstitutionItem {
    const text = this.lines[line].text;
    // Balance, scanning forward over both kinds of bracket.
    let depth = 0;
    let unmatchedClose = -1;
    const openers: number[] = [];
    for (let k = start; k < end; k++) {
      const c = text[k];
      if (c === '（' || c === '(') {
        openers.push(k);
        depth++;
      } else if (c === '）' || c === ')') {
        if (depth === 0) {
          if (unmatchedClose < 0) unmatchedClose = k;
        } else {
          openers.pop();
          depth--;
        }
      }
    }
    let unbalanced = 0;
    let unbalancedAt: Range | undefined;
    if (unmatchedClose >= 0) {
      unbalanced = -1;
      unbalancedAt = this.range(line, unmatchedClose, unmatchedClose + 1);
    } else if (openers.length > 0) {
      unbalanced = openers.length;
      unbalancedAt = this.range(line, openers[0], openers[0] + 1);
    }
    // The translation is the bracketed group that ends the item.
    let translation: Span | undefined;
    let open: Span | undefined;
    let close: Span | undefined;
    let nameEnd = end;
    const last = text[end - 1];
    if (end > start && (last === '）' || last === ')')) {
      let d = 0;
      let k = end - 1;
      for (; k >= start; k--) {
        const c = text[k];
        if (c === '）' || c === ')') d++;
        else if (c === '（' || c === '(') {
          d--;
          if (d === 0) break;
        }
      }
      if (k >= start) {
        const inner = text.slice(k + 1, end - 1);
        // Half-width brackets hold a translation only when it is Chinese: `Lab (Montreal)` is a name.
        const isTranslation = last === '）' || text[k] === '（' || hasCjk(inner);
        if (isTranslation) {
          open = this.span(line, k, k + 1);
          close = this.span(line, end - 1, end);
          translation = this.span(line, k + 1, end - 1);
          nameEnd = trimEndIndex(text, start, k);
        }
      }
    }
    return {
      range: this.range(line, start, end),
      text: text.slice(start, end),
      name: this.span(line, start, nameEnd),
      translation,
      open,
      close,
      unbalanced,
      unbalancedAt,
    };
  }

  /** `A, B, C（甲、乙、丙）`: authors with their Chinese names on the institutions line. */
  private authorPairs(line: number, items: InstitutionItem[]): AuthorPair[] | undefined {
    if (items.length !== 1) {
      return undefined;
    }
    const item = items[0];
    if (!item.translation || !item.translation.text.includes('、') || authorListLikeness(item.name.text) !== 'strong') {
      return undefined;
    }
    const english = this.splitSpan(line, item.name, /[,，]/);
    const chinese = this.splitSpan(line, item.translation, /、/);
    return english.map((name, index) => ({ english: name, chinese: chinese[index] }));
  }

  /** Splits a span at single-character separators, trimming each part. */
  private splitSpan(line: number, span: Span, separator: RegExp): Span[] {
    const text = this.lines[line].text;
    const base = span.range.start.character - this.character(line, 0);
    const parts: Span[] = [];
    let partStart = base;
    const end = base + span.text.length;
    for (let k = base; k <= end; k++) {
      if (k === end || separator.test(text[k])) {
        const s = skipSpaces(text, partStart, k);
        const e = trimEndIndex(text, s, k);
        if (e > s) parts.push(this.span(line, s, e));
        partStart = k + 1;
      }
    }
    return parts;
  }

  private parseTopicHits(line: number): TopicHitsField {
    const text = this.lines[line].text;
    const { label, after } = this.parseLabel(line, LABELS.topicHits.length);
    const end = trimEndIndex(text, 0, text.length);
    const topicStart = skipSpaces(text, after, end);
    let colonAt = -1;
    for (let k = topicStart; k < end; k++) {
      const c = text[k];
      if (c === '：' || c === ':') {
        colonAt = k;
        break;
      }
      if (c === '；' || c === ';' || c === '(' || c === '（') {
        break;
      }
    }
    let topic: Span;
    let colon: Span | undefined;
    let rest: number;
    if (colonAt >= 0) {
      topic = this.span(line, topicStart, trimEndIndex(text, topicStart, colonAt));
      colon = this.span(line, colonAt, colonAt + 1);
      rest = skipSpaces(text, colonAt + 1, end);
    } else {
      // No colon: the topic is the first word.
      let k = topicStart;
      while (k < end && text[k] !== ' ' && text[k] !== '\t') k++;
      topic = this.span(line, topicStart, k);
      rest = skipSpaces(text, k, end);
    }
    const hits: TopicHit[] = [];
    const separators: Span[] = [];
    const categories: Span[] = [];
    const categorySeparators: Span[] = [];
    let categoriesLabel: Span | undefined;
    let segmentStart = rest;
    for (let k = rest; k <= end; k++) {
      const c = k < end ? text[k] : '';
      // `分类` opens the categories even without a separator before it.
      const categoriesHere = k < end && text.startsWith(LABELS.categories, k) && (k === segmentStart || text[k - 1] === ' ');
      if (k === end || c === '；' || c === ';' || categoriesHere) {
        const segEnd = trimEndIndex(text, segmentStart, k);
        if (segEnd > segmentStart || (k < end && !categoriesHere)) {
          hits.push(this.parseHit(line, segmentStart, segEnd));
        }
        if (categoriesHere) {
          categoriesLabel = this.span(line, k, k + LABELS.categories.length);
          this.parseCategories(line, k + LABELS.categories.length, end, categories, categorySeparators);
          break;
        }
        if (k < end) {
          const sepEnd = skipSpaces(text, k + 1, end);
          separators.push(this.span(line, segEnd, sepEnd));
          segmentStart = sepEnd;
          k = sepEnd - 1;
        }
      }
    }
    return {
      ...this.fieldBase(line, 'topicHits'),
      label,
      topic,
      colon,
      hits,
      separators,
      categoriesLabel,
      categories,
      categorySeparators,
    };
  }

  private parseHit(line: number, start: number, end: number): TopicHit {
    const text = this.lines[line].text;
    const last = text[end - 1];
    let keywordEnd = end;
    let field: Span | undefined;
    let open: Span | undefined;
    let close: Span | undefined;
    if (end > start && (last === ')' || last === '）')) {
      let k = end - 2;
      while (k >= start && text[k] !== '(' && text[k] !== '（') k--;
      if (k >= start) {
        open = this.span(line, k, k + 1);
        close = this.span(line, end - 1, end);
        const fs = skipSpaces(text, k + 1, end - 1);
        field = this.span(line, fs, trimEndIndex(text, fs, end - 1));
        keywordEnd = trimEndIndex(text, start, k);
      }
    }
    return {
      range: this.range(line, start, end),
      text: text.slice(start, end),
      keyword: this.span(line, start, keywordEnd),
      field,
      open,
      close,
    };
  }

  private parseCategories(line: number, from: number, end: number, categories: Span[], separators: Span[]): void {
    const text = this.lines[line].text;
    let k = skipSpaces(text, from, end);
    if (text[k] === ':' || text[k] === '：') {
      k = skipSpaces(text, k + 1, end);
    }
    let codeStart = k;
    for (; k <= end; k++) {
      const c = k < end ? text[k] : '';
      if (k === end || c === '、' || c === ',' || c === '，' || c === ' ' || c === ';' || c === '；') {
        const codeEnd = k;
        if (codeEnd > codeStart) {
          categories.push(this.span(line, codeStart, codeEnd));
        }
        if (k < end) {
          let sepEnd = k + 1;
          while (sepEnd < end && (text[sepEnd] === ' ' || text[sepEnd] === '、' || text[sepEnd] === ',' || text[sepEnd] === '，')) sepEnd++;
          separators.push(this.span(line, codeEnd, sepEnd));
          codeStart = sepEnd;
          k = sepEnd - 1;
        }
      }
    }
  }
}

/** Classifies a non-blank line by its label; `start` is its first non-space character. */
function classifyLine(text: string, start: number): LineKind {
  if (text.startsWith(LABELS.institutions, start)) return 'institutions';
  if (text.startsWith(LABELS.topicHits, start)) return 'topicHits';
  if (text.startsWith(LABELS.summary, start) || text.startsWith('AI 总结', start)) return 'summary';
  if (startsWithWord(text, start, LABELS.comments)) return 'comments';
  if (startsWithWord(text, start, LABELS.journalRef)) return 'journalRef';
  return 'text';
}

/** Whether `word` stands at `start`, followed by a space, a colon or the end of the line. */
function startsWithWord(text: string, start: number, word: string): boolean {
  if (!text.startsWith(word, start)) {
    return false;
  }
  const next = text.charCodeAt(start + word.length);
  return Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x3a || next === 0xff1a;
}

/**
 * The cheapest reading of a run of plain lines, by dynamic programming over a handful of states,
 * so the work is linear in the run's length.
 *
 * States 0..7 continue the current entry, with a bit mask of the plain fields filled out of order
 * so far; 8 + r (r = 1..3) are inside a new entry whose last plain field is role r. When
 * `closedAfter`, the labelled line after the run opens a new entry in any case: ending the run in
 * the current entry leaves that entry without plain fields, which costs as much.
 */
function cheapestReading(roleCosts: readonly PlainLineCosts[], lacking: number, closedAfter = false): { cost: number; assignments: Assignment[] } {
  const n = roleCosts.length;
  const STATES = 12;
  const INF = 1e9;
  let cost = [0, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF];
  // choice[k * STATES + state] = previous state | role << 4 | starts entry << 8 | out of order << 9.
  const choice: number[] = new Array(n * STATES).fill(-1);
  for (let k = 0; k < n; k++) {
    const next = [INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF, INF];
    const rc = roleCosts[k];
    const relax = (from: number, to: number, add: number, role: Role, startsEntry: boolean, outOfOrder: boolean): void => {
      const total = cost[from] + add;
      if (total < next[to]) {
        next[to] = total;
        choice[k * STATES + to] = from | (role << 4) | (startsEntry ? 1 << 8 : 0) | (outOfOrder ? 1 << 9 : 0);
      }
    };
    for (let s = 0; s < STATES; s++) {
      if (cost[s] >= INF) {
        continue;
      }
      relax(s, s, rc.stray, Role.Stray, false, false);
      for (let r = Role.English; r <= Role.Authors; r++) {
        if (s < 8) {
          const bit = roleBit(r);
          if ((lacking & bit) !== 0 && (s & bit) === 0) {
            relax(s, s | bit, COST.outOfOrderFill + rc.role[r], r, false, true);
          }
          relax(s, 8 + r, COST.missingRole * (r - 1) + rc.role[r], r, true, false);
        } else {
          const last = s - 8;
          if (r > last) {
            relax(s, 8 + r, COST.missingRole * (r - last - 1) + rc.role[r], r, false, false);
          } else {
            const closing = COST.missingAtEnd * (Role.Authors - last) + COST.newEntryWithoutLabels;
            relax(s, 8 + r, closing + COST.missingRole * (r - 1) + rc.role[r], r, true, false);
          }
        }
      }
    }
    cost = next;
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
  const assignments: Assignment[] = new Array(n);
  let state = best;
  for (let k = n - 1; k >= 0; k--) {
    const c = choice[k * STATES + state];
    assignments[k] = { role: (c >> 4) & 0xf, startsEntry: (c & (1 << 8)) !== 0, outOfOrder: (c & (1 << 9)) !== 0 };
    state = c & 0xf;
  }
  return { cost: bestCost, assignments };
}

/** The bit of a plain role in the out-of-order mask (states 0..7). */
function roleBit(role: Role): number {
  return 1 << (role - 1);
}

interface PlainLineCosts {
  /** Indexed by Role.English .. Role.Authors. */
  role: number[];
  stray: number;
}

/** How well a plain line fits each role. */
function plainLineCosts(text: string): PlainLineCosts {
  const trimmed = text.trim();
  const cjk = hasCjk(trimmed);
  const likeness = authorListLikeness(trimmed);
  const role = [0, 0, 0, 0];
  role[Role.English] = cjk ? 4 : likeness === 'strong' ? 2 : 0;
  role[Role.Chinese] = cjk ? 0 : 4;
  role[Role.Authors] = cjk ? 5 : likeness === 'strong' ? 0 : likeness === 'weak' ? 1 : 3;
  return { role, stray: isObviousStray(trimmed) ? COST.obviousStray : COST.stray };
}

/** Lines that are plainly not a title or an author list: a lone `纠错`, bare punctuation, `[cs.AI]`. */
function isObviousStray(trimmed: string): boolean {
  if (trimmed === LABELS.reportMarker || trimmed === LABELS.categories) {
    return true;
  }
  if (/^\[[^\]]*\]$/.test(trimmed)) {
    return true;
  }
  // No letter of any script and no digit: only punctuation or symbols.
  return !/[\p{L}\p{N}]/u.test(trimmed);
}
