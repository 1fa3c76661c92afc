/**
 * The objects behind the model's interfaces (model.ts), built for the largest digests users keep.
 *
 * A year of daily digests is 10,000 entries, 70,000 fields and half a million names, items, hits,
 * separators and links. Allocating all of them as nested objects at parse time costs more in
 * garbage collection than the parse itself, so the nodes keep numbers and make objects on demand:
 *
 * - an entry holds its first line and that line's offset; its fields hold lines and offsets
 *   relative to it, and their spans hold characters within their line. Moving an entry (when an
 *   edit above it adds or removes lines) is three assignments, whatever it contains;
 * - ranges and texts are made when asked for, every time: they are small and die young;
 * - a field is split into its parts (names, items, hits, categories, links) the first time a
 *   feature asks for them, and keeps each list once made, so repeated access is free; the
 *   entries of one text that keep parts are bounded (`Source.keepParts`): past a thousand, the
 *   one that kept them longest lets them go and splits again when asked;
 * - spans inside parts (an item's name and translation, a hit's keyword and field) are made
 *   from the offsets their part keeps.
 *
 * The splitting code is the parser's, moved here: the parser decides the structure (which line is
 * which field of which entry), the nodes split a field's line when its parts are wanted.
 */
import type { Range } from 'vscode-languageserver-types';
import type { LineTable } from './document';
import type { AuthorPair, AuthorsField, Entry, Field, FieldKind, InstitutionItem, InstitutionsField, Link, Span, TextField, TitleField, TopicHit, TopicHitsField } from './model';
import { LABELS } from './model';
import { authorListLikeness, isCjkIdeograph, skipSpaces, trimEndIndex } from './text';

/**
 * The text the nodes read. One `Source` is shared by the models that incremental updates derive
 * from each other, so that moving to a new text is one assignment.
 */
export class Source {
  declare text: string;
  declare bom: boolean;
  /**
   * The lines of the text: fields read their line's start and end here rather than keep them
   * (an incremental update moves the table's lines with the text).
   */
  declare table: LineTable;
  /** The entries whose fields keep split parts, oldest first from `partsHead` on (see `keepParts`). */
  declare private partsKept: (EntryNode | undefined)[];
  /** The characters each of them spans when it began to keep its parts. */
  declare private partsWeights: number[];
  declare private partsHead: number;
  /** The characters the entries that keep parts span, together. */
  declare private partsWeight: number;

  constructor(text: string, bom: boolean, table: LineTable) {
    this.text = text;
    this.bom = bom;
    this.table = table;
    this.partsKept = [];
    this.partsWeights = [];
    this.partsHead = 0;
    this.partsWeight = 0;
  }

  /**
   * Notes that an entry's fields now keep split parts. At most `partsKeptLimit()` entries of a
   * text keep theirs: past that, the entry that kept them longest lets them go, and splits its
   * lines again when a feature asks. A whole-document pass (the diagnostics, the index summary,
   * semantic tokens) thus leaves the parts of the last thousand entries it read, not of all of
   * them: the parts of a 10,000-paper digest are 2.5 times its text.
   */
  keepParts(entry: EntryNode): void {
    const kept = this.partsKept;
    const weight = Math.max(1, this.table.starts[entry.line + entry.lastRel] + entry.lastEnd - entry.offset);
    kept.push(entry);
    this.partsWeights.push(weight);
    this.partsWeight += weight;
    // The entry just read keeps its parts whatever it spans.
    while (kept.length - this.partsHead > 1 && (kept.length - this.partsHead > partsLimit || this.partsWeight > PARTS_KEPT_CHARACTERS)) {
      const oldest = kept[this.partsHead];
      this.partsWeight -= this.partsWeights[this.partsHead];
      kept[this.partsHead++] = undefined;
      oldest?.releaseParts();
    }
    if (this.partsHead >= 1024 && this.partsHead * 2 >= kept.length) {
      this.partsKept = kept.slice(this.partsHead);
      this.partsWeights = this.partsWeights.slice(this.partsHead);
      this.partsHead = 0;
    }
  }

  /**
   * Puts `copy` in the place of `entry` among the entries keeping parts, for a copy that took the
   * entry's fields over (`EntryNode.reopen`): the parts are the copy's now, and letting them go
   * is its turn, not the old entry's (which would let the copy's parts go from under it).
   */
  replaceParts(entry: EntryNode, copy: EntryNode): void {
    const kept = this.partsKept;
    for (let k = kept.length - 1; k >= this.partsHead; k--) {
      if (kept[k] === entry) {
        kept[k] = copy;
        return;
      }
    }
  }
}

/** How many entries of one text keep their split parts (`Source.keepParts`). */
let partsLimit = 1000;

/**
 * How many characters the entries that keep their parts may span together (`Source.keepParts`):
 * a thousand entries of a real digest span about 500,000; entries of lines of 100,000 characters
 * of one-letter hits (50,000 parts a line, 7 MB of them) keep theirs a score at a time, not a thousand.
 */
const PARTS_KEPT_CHARACTERS = 2_000_000;

/** The number of entries of one text that keep their split parts. */
export function partsKeptLimit(): number {
  return partsLimit;
}

/** Sets `partsKeptLimit` (tests set it low to let parts go all the time); returns the one before. */
export function setPartsKeptLimit(limit: number): number {
  const before = partsLimit;
  partsLimit = Math.max(1, Math.floor(limit));
  return before;
}

/** Where a run of lines is placed: an entry, or the document itself for the lines before the first entry. */
export interface Frame {
  readonly src: Source;
  /** Zero-based line the relative lines count from. */
  readonly line: number;
  /** Offset in the text of that line's start (0 for line 0, BOM included). */
  readonly offset: number;
}

/** The shared empty list, for parts that have no element (most separators lists of one-name fields). */
export const EMPTY: readonly never[] = Object.freeze([]);

/**
 * A list to keep: the shared empty list, or a copy of exactly its length (a list grown by `push`
 * has room to spare, and a digest keeps a hundred thousand of them).
 */
function kept<T>(list: T[]): readonly T[] {
  return list.length === 0 ? EMPTY : list.slice();
}

function lineRange(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}

/** A character that the format treats as a space inside a line: space, tab, ideographic space. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x3000;
}

/** `hasCjk` over `text[from..to)`, without slicing. */
function hasCjkBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (isCjkIdeograph(text.charCodeAt(i))) {
      return true;
    }
  }
  return false;
}

// ---- Spans -----------------------------------------------------------------------------------

/** A span of a field's line: characters (LSP, BOM included on line 0) within that line. */
export class PartSpan implements Span {
  declare readonly owner: FieldNode;
  declare readonly startCharacter: number;
  declare readonly endCharacter: number;

  constructor(owner: FieldNode, startCharacter: number, endCharacter: number) {
    this.owner = owner;
    this.startCharacter = startCharacter;
    this.endCharacter = endCharacter;
  }

  get text(): string {
    const raw = this.owner.rawStart;
    return this.owner.entry.src.text.slice(raw + this.startCharacter, raw + this.endCharacter);
  }

  get range(): Range {
    return lineRange(this.owner.line, this.startCharacter, this.endCharacter);
  }

  toJSON(): Span {
    return { text: this.text, range: this.range };
  }
}

/** A span of a line placed relative to a frame: a stray line, the heading. */
export class FramedSpan implements Span {
  declare frame: Frame;
  declare readonly lineRel: number;
  declare readonly rawRel: number;
  declare readonly startCharacter: number;
  declare readonly endCharacter: number;

  constructor(frame: Frame, lineRel: number, rawRel: number, startCharacter: number, endCharacter: number) {
    this.frame = frame;
    this.lineRel = lineRel;
    this.rawRel = rawRel;
    this.startCharacter = startCharacter;
    this.endCharacter = endCharacter;
  }

  get line(): number {
    return this.frame.line + this.lineRel;
  }

  get text(): string {
    const raw = this.frame.offset + this.rawRel;
    return this.frame.src.text.slice(raw + this.startCharacter, raw + this.endCharacter);
  }

  get range(): Range {
    return lineRange(this.frame.line + this.lineRel, this.startCharacter, this.endCharacter);
  }

  toJSON(): Span {
    return { text: this.text, range: this.range };
  }
}

/** A URL or `arXiv:` reference in a text field. */
export class LinkNode extends PartSpan implements Link {
  declare readonly kind: 'url' | 'arxiv';
  /** For `arxiv`: where the identifier starts, counted from the start of the link. */
  private declare readonly idStart: number;

  constructor(owner: FieldNode, start: number, end: number, kind: 'url' | 'arxiv', idStart: number) {
    super(owner, start, end);
    this.kind = kind;
    this.idStart = idStart;
  }

  get target(): string {
    const text = this.text;
    return this.kind === 'arxiv' ? `https://arxiv.org/abs/${text.slice(this.idStart)}` : text;
  }

  override toJSON(): Link {
    return { text: this.text, range: this.range, target: this.target, kind: this.kind };
  }
}

// ---- Entries ---------------------------------------------------------------------------------

/** One paper: a frame for its fields and stray lines. */
export class EntryNode implements Entry, Frame {
  declare fields: Field[];
  declare strayLines: FramedSpan[];
  /** The last line, relative to `line`. */
  declare lastRel: number;
  /** The end character of the last line. */
  declare lastEnd: number;

  declare src: Source;
  declare line: number;
  declare offset: number;
  declare index: number;
  /** Whether the entry is among those of its text that keep split parts (`Source.keepParts`). */
  declare partsKept: boolean;
  /** Which kinds of field the entry has, one bit per position in FIELD_ORDER (`FIELD_BIT`). */
  declare kindMask: number;
  /**
   * Where each kind of field is in `fields`, three bits per position in FIELD_ORDER (an entry
   * has each kind once at most, so eight fields at most): the named fields are read through it
   * rather than kept in eight slots of their own.
   */
  declare positions: number;

  constructor(src: Source, line: number, offset: number, index: number) {
    this.src = src;
    this.line = line;
    this.offset = offset;
    this.index = index;
    this.partsKept = false;
    this.kindMask = 0;
    this.positions = 0;
    // Assigned here, all of them, so that every entry has the same shape from the start.
    this.fields = [];
    this.strayLines = EMPTY as never[];
    this.lastRel = 0;
    this.lastEnd = 0;
  }

  get range(): Range {
    const first = this.line === 0 && this.src.bom ? 1 : 0;
    return { start: { line: this.line, character: first }, end: { line: this.line + this.lastRel, character: this.lastEnd } };
  }

  get englishTitle(): TitleField | undefined {
    return this.fieldAt(0) as TitleField | undefined;
  }

  get chineseTitle(): TitleField | undefined {
    return this.fieldAt(1) as TitleField | undefined;
  }

  get authors(): AuthorsField | undefined {
    return this.fieldAt(2) as AuthorsField | undefined;
  }

  get institutions(): InstitutionsField | undefined {
    return this.fieldAt(3) as InstitutionsField | undefined;
  }

  get topicHits(): TopicHitsField | undefined {
    return this.fieldAt(4) as TopicHitsField | undefined;
  }

  get summary(): TextField | undefined {
    return this.fieldAt(5) as TextField | undefined;
  }

  get comments(): TextField | undefined {
    return this.fieldAt(6) as TextField | undefined;
  }

  get journalRef(): TextField | undefined {
    return this.fieldAt(7) as TextField | undefined;
  }

  /** The field of the kind at `order` in FIELD_ORDER, if the entry has one. */
  private fieldAt(order: number): Field | undefined {
    return (this.kindMask & (1 << order)) === 0 ? undefined : this.fields[(this.positions >> (3 * order)) & 7];
  }

  addField(node: AnyFieldNode): void {
    const field = node as unknown as Field;
    const order = fieldOrder(field.kind);
    // A second field of a kind (which the parser never makes) would be the one named.
    this.positions = (this.positions & ~(7 << (3 * order))) | ((this.fields.length & 7) << (3 * order));
    this.kindMask |= 1 << order;
    this.fields.push(field);
  }

  /** Called when the entry gets no more fields: its lists keep no room to spare. */
  settle(): void {
    this.fields = this.fields.slice();
    if ((this.strayLines as readonly FramedSpan[]) !== EMPTY) {
      this.strayLines = this.strayLines.slice();
    }
  }

  /** Lets the split parts of the entry's fields go; they are split again when asked for. */
  releaseParts(): void {
    this.partsKept = false;
    for (const field of this.fields) {
      (field as unknown as AnyFieldNode).releaseParts();
    }
  }

  addStray(span: FramedSpan): void {
    if ((this.strayLines as readonly FramedSpan[]) === EMPTY) {
      this.strayLines = [];
    }
    this.strayLines.push(span);
  }

  /**
   * A copy of the entry that takes its fields and stray lines over (they are re-pointed to the
   * copy), for an incremental update that may add lines to it.
   */
  reopen(): EntryNode {
    const copy = new EntryNode(this.src, this.line, this.offset, this.index);
    for (const field of this.fields) {
      const node = field as unknown as AnyFieldNode;
      node.entry = copy;
      copy.addField(node);
    }
    for (const stray of this.strayLines) {
      stray.frame = copy;
      copy.addStray(stray);
    }
    copy.lastRel = this.lastRel;
    copy.lastEnd = this.lastEnd;
    if (this.partsKept) {
      // The fields keep their parts: the copy keeps them in the entry's place.
      this.partsKept = false;
      copy.partsKept = true;
      this.src.replaceParts(this, copy);
    }
    return copy;
  }

  toJSON(): unknown {
    return { index: this.index, range: this.range, fields: this.fields, strayLines: this.strayLines };
  }
}

/** The position of a field kind in FIELD_ORDER. */
function fieldOrder(kind: FieldKind): number {
  switch (kind) {
    case 'englishTitle':
      return 0;
    case 'chineseTitle':
      return 1;
    case 'authors':
      return 2;
    case 'institutions':
      return 3;
    case 'topicHits':
      return 4;
    case 'summary':
      return 5;
    case 'comments':
      return 6;
    default:
      return 7;
  }
}

/** The bit of each field kind in `EntryNode.kindMask`. */
export const FIELD_BIT: Readonly<Record<FieldKind, number>> = {
  englishTitle: 1,
  chineseTitle: 2,
  authors: 4,
  institutions: 8,
  topicHits: 16,
  summary: 32,
  comments: 64,
  journalRef: 128,
};

// ---- Fields ----------------------------------------------------------------------------------

/**
 * What every field node knows: its entry, and its line relative to the entry. The line's start
 * and end are read from the line table (`Source.table`), not kept.
 */
export abstract class FieldNode {
  declare entry: EntryNode;
  /** The line, relative to the entry's first line. */
  declare readonly lineRel: number;

  // Fields are assigned, not declared with initialisers: defining class fields on instances of
  // five subclasses makes the definitions megamorphic, and 70,000 fields felt it.
  constructor(entry: EntryNode, lineRel: number) {
    this.entry = entry;
    this.lineRel = lineRel;
  }

  get line(): number {
    return this.entry.line + this.lineRel;
  }

  /** Offset in the text of the line's start. */
  get rawStart(): number {
    return this.entry.src.table.starts[this.entry.line + this.lineRel];
  }

  /** The end character of the line (its length, plus one on line 0 after a BOM). */
  get endCharacter(): number {
    const table = this.entry.src.table;
    const line = this.entry.line + this.lineRel;
    return table.ends[line] - table.starts[line];
  }

  /** The first character of the line's text: 1 on line 0 after a BOM, else 0. */
  get firstCharacter(): number {
    return this.entry.line + this.lineRel === 0 && this.entry.src.bom ? 1 : 0;
  }

  get text(): string {
    const src = this.entry.src;
    const line = this.entry.line + this.lineRel;
    return src.text.slice(src.table.starts[line] + (line === 0 && src.bom ? 1 : 0), src.table.ends[line]);
  }

  get range(): Range {
    // Its own literal rather than `lineRange`: V8 decides where to allocate per literal, and
    // field ranges are kept (by the outline, the diagnostics) far more often than span ranges.
    const line = this.line;
    return { start: { line, character: this.firstCharacter }, end: { line, character: this.endCharacter } };
  }

  protected span(start: number, end: number): PartSpan {
    return new PartSpan(this, start, end);
  }

  /** Called when the field keeps a list of parts it split: the entry joins those keeping parts. */
  protected noteParts(): void {
    const entry = this.entry;
    if (!entry.partsKept) {
      entry.partsKept = true;
      entry.src.keepParts(entry);
    }
  }

  /** Lets the lists of parts go (`EntryNode.releaseParts`). */
  abstract releaseParts(): void;

  /** The span of `text[start..end)` trimmed, `text` being the line's text from `first`. */
  protected trimmed(text: string, first: number, start = 0, end = text.length): PartSpan {
    const s = skipSpaces(text, start, end);
    return this.span(s + first, trimEndIndex(text, s, end) + first);
  }

  /** The label at the start of a labelled line: `[start, end)` in the line's text. `AI 总结` reads as `AI总结`. */
  protected labelBounds(text: string, labelLength: number): [number, number] {
    const start = skipSpaces(text, 0);
    let end = start + labelLength;
    if (text.startsWith('AI', start) && text.charCodeAt(start + 2) === 0x20) {
      end = text.indexOf('总结', start) + 2;
    }
    return [start, end];
  }

  toJSON(): unknown {
    return { kind: (this as unknown as { kind: FieldKind }).kind, line: this.line, text: this.text, range: this.range };
  }
}

export type AnyFieldNode = PlainFieldNode | InstitutionsFieldNode | TopicHitsFieldNode | TextFieldNode;

/**
 * An unlabelled line: the English title, the Chinese title or the authors. One class serves the
 * three (a title's `names` is empty) so that field nodes come in four shapes, not five: V8 keeps
 * property access on up to four shapes fast, and every feature reads fields of all kinds.
 */
export class PlainFieldNode extends FieldNode {
  declare readonly kind: 'englishTitle' | 'chineseTitle' | 'authors';
  /** The parts split so far, made when a feature first asks for some. */
  private declare parts: PlainParts | undefined;

  constructor(entry: EntryNode, lineRel: number, kind: 'englishTitle' | 'chineseTitle' | 'authors') {
    super(entry, lineRel);
    this.kind = kind;
    this.parts = undefined;
  }

  private own(): PlainParts {
    return (this.parts ??= new PlainParts());
  }

  /** The line trimmed (the title, for a title field). */
  get value(): Span {
    // Trimmed in place, without slicing the line.
    const src = this.entry.src;
    const line = this.entry.line + this.lineRel;
    const raw = src.table.starts[line];
    const end = src.table.ends[line];
    const s = skipSpaces(src.text, raw + (line === 0 && src.bom ? 1 : 0), end);
    return this.span(s - raw, trimEndIndex(src.text, s, end) - raw);
  }

  /** The author names, for an authors field. */
  get names(): readonly Span[] {
    return this.kind === 'authors' ? (this.own().namesList ??= this.split(NAMES)) : EMPTY;
  }

  releaseParts(): void {
    this.parts = undefined;
  }

  /** The separators between names, as written (`, ` canonically; `，` or `,` are mistakes). */
  get separators(): readonly Span[] {
    return this.kind === 'authors' ? (this.own().separatorsList ??= this.split(SEPARATORS)) : EMPTY;
  }

  private split(want: number): readonly Span[] {
    const text = this.text;
    const first = this.firstCharacter;
    const result: Span[] = [];
    const end = trimEndIndex(text, 0, text.length);
    let itemStart = skipSpaces(text, 0);
    for (let i = itemStart; i <= end; i++) {
      const c = i < end ? text.charCodeAt(i) : -1;
      if (i === end || c === 0x2c || c === 0xff0c || c === 0x3001 || c === 0x3b || c === 0xff1b) {
        const itemEnd = trimEndIndex(text, itemStart, i);
        if (want === NAMES && itemEnd > itemStart) {
          result.push(this.span(itemStart + first, itemEnd + first));
        }
        if (i < end) {
          const sepEnd = skipSpaces(text, i + 1, end);
          if (want === SEPARATORS) {
            result.push(this.span(itemEnd + first, sepEnd + first));
          }
          itemStart = sepEnd;
          i = sepEnd - 1;
        }
      }
    }
    this.noteParts();
    return kept(result);
  }
}

const NAMES = 1;
const SEPARATORS = 2;

/** What an authors field split, kept while its entry keeps parts. */
class PlainParts {
  namesList: readonly Span[] | undefined = undefined;
  separatorsList: readonly Span[] | undefined = undefined;
}

/** `English name（中文名）` or a name alone, as offsets into its field's line. */
export class ItemNode implements InstitutionItem {
  private declare readonly owner: FieldNode;
  private declare readonly startCharacter: number;
  private declare readonly endCharacter: number;
  private declare readonly nameEnd: number;
  /** Where the `（` of the translation is, or -1. */
  private declare readonly openAt: number;
  declare readonly unbalanced: number;
  /** Where the first unbalanced bracket is, or -1. */
  private declare readonly unbalancedCharacter: number;

  constructor(owner: FieldNode, start: number, end: number, nameEnd: number, openAt: number, unbalanced: number, unbalancedCharacter: number) {
    this.owner = owner;
    this.startCharacter = start;
    this.endCharacter = end;
    this.nameEnd = nameEnd;
    this.openAt = openAt;
    this.unbalanced = unbalanced;
    this.unbalancedCharacter = unbalancedCharacter;
  }

  get range(): Range {
    return lineRange(this.owner.line, this.startCharacter, this.endCharacter);
  }

  get text(): string {
    const raw = this.owner.rawStart;
    return this.owner.entry.src.text.slice(raw + this.startCharacter, raw + this.endCharacter);
  }

  get name(): Span {
    return new PartSpan(this.owner, this.startCharacter, this.nameEnd);
  }

  get translation(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.openAt + 1, this.endCharacter - 1);
  }

  get open(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.openAt, this.openAt + 1);
  }

  get close(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.endCharacter - 1, this.endCharacter);
  }

  get unbalancedAt(): Range | undefined {
    return this.unbalancedCharacter < 0 ? undefined : lineRange(this.owner.line, this.unbalancedCharacter, this.unbalancedCharacter + 1);
  }

  toJSON(): unknown {
    return { text: this.text, range: this.range, name: this.name, translation: this.translation, unbalanced: this.unbalanced };
  }
}

const ITEMS = 1;
const ITEM_SEPARATORS = 2;

/** Where the parts of a `机构` line are, in its text. -1 when absent. */
interface InstitutionsLayout {
  readonly labelStart: number;
  readonly labelEnd: number;
  readonly starAt: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly markerAt: number;
}

/** What an institutions field split, kept while its entry keeps parts. */
class InstitutionsParts {
  itemsList: readonly InstitutionItem[] | undefined = undefined;
  separatorsList: readonly Span[] | undefined = undefined;
  pairs: readonly AuthorPair[] | null | undefined = undefined;
  /** The line's layout, found on first use. */
  layoutFound: InstitutionsLayout | undefined = undefined;
}

/** The `机构` line. */
export class InstitutionsFieldNode extends FieldNode implements InstitutionsField {
  declare readonly kind: 'institutions';
  /** The parts split so far, made when a feature first asks for some. */
  private declare parts: InstitutionsParts | undefined;

  constructor(entry: EntryNode, lineRel: number) {
    super(entry, lineRel);
    this.kind = 'institutions';
    this.parts = undefined;
  }

  private own(): InstitutionsParts {
    return (this.parts ??= new InstitutionsParts());
  }

  private layout(text: string): InstitutionsLayout {
    const parts = this.own();
    if (parts.layoutFound === undefined) {
      parts.layoutFound = this.findLayout(text);
      this.noteParts();
    }
    return parts.layoutFound;
  }

  releaseParts(): void {
    this.parts = undefined;
  }

  private findLayout(text: string): InstitutionsLayout {
    const [labelStart, after] = this.labelBounds(text, LABELS.institutions.length);
    let i = skipSpaces(text, after);
    let starAt = -1;
    const c = text.charCodeAt(i);
    if (c === 0x2a || c === 0xff0a) {
      starAt = i;
      i = skipSpaces(text, i + 1);
    } else if (c === 0x3a || c === 0xff1a) {
      i = skipSpaces(text, i + 1);
    }
    let bodyEnd = trimEndIndex(text, i, text.length);
    let markerAt = -1;
    if (bodyEnd - i >= 2 && text.startsWith(LABELS.reportMarker, bodyEnd - 2)) {
      markerAt = bodyEnd - 2;
      bodyEnd = trimEndIndex(text, i, bodyEnd - 2);
    }
    return { labelStart, labelEnd: after, starAt, bodyStart: i, bodyEnd, markerAt };
  }

  get label(): Span {
    const layout = this.layout(this.text);
    const first = this.firstCharacter;
    return this.span(layout.labelStart + first, layout.labelEnd + first);
  }

  get star(): Span | undefined {
    const { starAt } = this.layout(this.text);
    const first = this.firstCharacter;
    return starAt < 0 ? undefined : this.span(starAt + first, starAt + 1 + first);
  }

  get marker(): Span | undefined {
    const { markerAt } = this.layout(this.text);
    const first = this.firstCharacter;
    return markerAt < 0 ? undefined : this.span(markerAt + first, markerAt + 2 + first);
  }

  get items(): readonly InstitutionItem[] {
    return (this.own().itemsList ??= this.split(ITEMS) as InstitutionItem[]);
  }

  get separators(): readonly Span[] {
    return (this.own().separatorsList ??= this.split(ITEM_SEPARATORS) as Span[]);
  }

  get authorPairs(): readonly AuthorPair[] | undefined {
    const parts = this.own();
    if (parts.pairs === undefined) {
      parts.pairs = this.findAuthorPairs() ?? null;
      this.noteParts();
    }
    return parts.pairs ?? undefined;
  }

  private split(want: number): readonly (InstitutionItem | Span)[] {
    const text = this.text;
    const { bodyStart, bodyEnd } = this.layout(text);
    const first = this.firstCharacter;
    const result: (InstitutionItem | Span)[] = [];
    let depth = 0;
    let itemStart = bodyStart;
    for (let k = bodyStart; k <= bodyEnd; k++) {
      const c = k < bodyEnd ? text.charCodeAt(k) : -1;
      if (c === 0xff08 || c === 0x28) {
        depth++;
      } else if (c === 0xff09 || c === 0x29) {
        depth--;
      }
      if (k === bodyEnd || c === 0xff1b || (c === 0x3b && depth <= 0)) {
        const itemEnd = trimEndIndex(text, itemStart, k);
        const s = skipSpaces(text, itemStart, itemEnd);
        if (want === ITEMS && (itemEnd > s || k < bodyEnd)) {
          result.push(this.item(text, first, s, Math.max(s, itemEnd)));
        }
        if (k < bodyEnd) {
          const sepEnd = skipSpaces(text, k + 1, bodyEnd);
          if (want === ITEM_SEPARATORS) {
            result.push(this.span(itemEnd + first, sepEnd + first));
          }
          itemStart = sepEnd;
          k = sepEnd - 1;
          depth = 0;
        }
      }
    }
    return kept(result);
  }

  private item(text: string, first: number, start: number, end: number): ItemNode {
    // Balance, scanning forward over both kinds of bracket. The first opener left open is the
    // one pushed when the depth was zero last.
    let depth = 0;
    let unmatchedClose = -1;
    let bottomOpener = -1;
    for (let k = start; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === 0xff08 || c === 0x28) {
        if (depth === 0) bottomOpener = k;
        depth++;
      } else if (c === 0xff09 || c === 0x29) {
        if (depth === 0) {
          if (unmatchedClose < 0) unmatchedClose = k;
        } else {
          depth--;
        }
      }
    }
    let unbalanced = 0;
    let unbalancedAt = -1;
    if (unmatchedClose >= 0) {
      unbalanced = -1;
      unbalancedAt = unmatchedClose + first;
    } else if (depth > 0) {
      unbalanced = depth;
      unbalancedAt = bottomOpener + first;
    }
    // The translation is the bracketed group that ends the item.
    let openAt = -1;
    let nameEnd = end;
    const last = end > start ? text.charCodeAt(end - 1) : -1;
    if (last === 0xff09 || last === 0x29) {
      let d = 0;
      let k = end - 1;
      for (; k >= start; k--) {
        const c = text.charCodeAt(k);
        if (c === 0xff09 || c === 0x29) d++;
        else if (c === 0xff08 || c === 0x28) {
          d--;
          if (d === 0) break;
        }
      }
      // Half-width brackets hold a translation only when it is Chinese: `Lab (Montreal)` is a name.
      if (k >= start && (last === 0xff09 || text.charCodeAt(k) === 0xff08 || hasCjkBetween(text, k + 1, end - 1))) {
        openAt = k + first;
        nameEnd = trimEndIndex(text, start, k);
      }
    }
    return new ItemNode(this, start + first, end + first, nameEnd + first, openAt, unbalanced, unbalancedAt);
  }

  /** `A, B, C（甲、乙、丙）`: authors with their Chinese names on the institutions line. */
  private findAuthorPairs(): AuthorPair[] | undefined {
    const items = this.items;
    if (items.length !== 1) {
      return undefined;
    }
    const item = items[0];
    const translation = item.translation;
    if (!translation || !translation.text.includes('、')) {
      return undefined;
    }
    const name = item.name;
    if (authorListLikeness(name.text) !== 'strong') {
      return undefined;
    }
    const english = this.splitSpan(name as PartSpan, (c) => c === 0x2c || c === 0xff0c);
    const chinese = this.splitSpan(translation as PartSpan, (c) => c === 0x3001);
    return english.map((englishName, index) => ({ english: englishName, chinese: chinese[index] }));
  }

  /** Splits a span at single-character separators, trimming each part. */
  private splitSpan(span: PartSpan, isSeparator: (code: number) => boolean): Span[] {
    const text = this.text;
    const first = this.firstCharacter;
    const base = span.startCharacter - first;
    const end = span.endCharacter - first;
    const parts: Span[] = [];
    let partStart = base;
    for (let k = base; k <= end; k++) {
      if (k === end || isSeparator(text.charCodeAt(k))) {
        const s = skipSpaces(text, partStart, k);
        const e = trimEndIndex(text, s, k);
        if (e > s) parts.push(this.span(s + first, e + first));
        partStart = k + 1;
      }
    }
    return parts;
  }
}

/** One `keyword(field)` hit, as offsets into its field's line. */
export class HitNode implements TopicHit {
  private declare readonly owner: FieldNode;
  private declare readonly startCharacter: number;
  private declare readonly endCharacter: number;
  private declare readonly keywordEnd: number;
  /** Where the `(` is, or -1 when the hit has no field. */
  private declare readonly openAt: number;
  private declare readonly fieldStart: number;
  private declare readonly fieldEnd: number;

  constructor(owner: FieldNode, start: number, end: number, keywordEnd: number, openAt: number, fieldStart: number, fieldEnd: number) {
    this.owner = owner;
    this.startCharacter = start;
    this.endCharacter = end;
    this.keywordEnd = keywordEnd;
    this.openAt = openAt;
    this.fieldStart = fieldStart;
    this.fieldEnd = fieldEnd;
  }

  get range(): Range {
    return lineRange(this.owner.line, this.startCharacter, this.endCharacter);
  }

  get text(): string {
    const raw = this.owner.rawStart;
    return this.owner.entry.src.text.slice(raw + this.startCharacter, raw + this.endCharacter);
  }

  get keyword(): Span {
    return new PartSpan(this.owner, this.startCharacter, this.keywordEnd);
  }

  get field(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.fieldStart, this.fieldEnd);
  }

  get open(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.openAt, this.openAt + 1);
  }

  get close(): Span | undefined {
    return this.openAt < 0 ? undefined : new PartSpan(this.owner, this.endCharacter - 1, this.endCharacter);
  }

  toJSON(): unknown {
    return { text: this.text, range: this.range, keyword: this.keyword, field: this.field };
  }
}

const HITS = 1;
const HIT_SEPARATORS = 2;
const CATEGORIES = 1;
const CATEGORY_SEPARATORS = 2;

/** Where the parts of a `专题命中` line are, in its text. -1 when absent. */
interface TopicHitsLayout {
  readonly labelStart: number;
  readonly labelEnd: number;
  readonly topicStart: number;
  readonly topicEnd: number;
  readonly colonAt: number;
  /** Where the hits start. */
  readonly rest: number;
  /** The end of the line's text, trimmed. */
  readonly end: number;
  /** Where `分类` is. */
  readonly categoriesAt: number;
}

/** What a topic hits field split, kept while its entry keeps parts. */
class TopicHitsParts {
  hitsList: readonly TopicHit[] | undefined = undefined;
  separatorsList: readonly Span[] | undefined = undefined;
  categoriesList: readonly Span[] | undefined = undefined;
  categorySeparatorsList: readonly Span[] | undefined = undefined;
  /** The line's layout, found on first use. */
  layoutFound: TopicHitsLayout | undefined = undefined;
}

/** The `专题命中` line. */
export class TopicHitsFieldNode extends FieldNode implements TopicHitsField {
  declare readonly kind: 'topicHits';
  /** The parts split so far, made when a feature first asks for some. */
  private declare parts: TopicHitsParts | undefined;

  constructor(entry: EntryNode, lineRel: number) {
    super(entry, lineRel);
    this.kind = 'topicHits';
    this.parts = undefined;
  }

  private own(): TopicHitsParts {
    return (this.parts ??= new TopicHitsParts());
  }

  private layout(text: string): TopicHitsLayout {
    const parts = this.own();
    if (parts.layoutFound === undefined) {
      parts.layoutFound = this.findLayout(text);
      this.noteParts();
    }
    return parts.layoutFound;
  }

  releaseParts(): void {
    this.parts = undefined;
  }

  private findLayout(text: string): TopicHitsLayout {
    const [labelStart, after] = this.labelBounds(text, LABELS.topicHits.length);
    const end = trimHitSpaceEnd(text, 0, text.length);
    const topicStart = skipHitSpaces(text, after, end);
    let colonAt = -1;
    for (let k = topicStart; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === 0xff1a || c === 0x3a) {
        colonAt = k;
        break;
      }
      if (c === 0xff1b || c === 0x3b) {
        break;
      }
      if (c === 0x28 || c === 0xff08) {
        // A bracket closed before the next `；` may be the topic's own (`数学推理（几何） ：`); the
        // colon is looked for after it. One not closed there opens a hit's field: no colon.
        const close = closingBracket(text, k + 1, end);
        if (close < 0) {
          break;
        }
        k = close;
      }
    }
    let topicEnd: number;
    let rest: number;
    if (colonAt >= 0) {
      topicEnd = trimHitSpaceEnd(text, topicStart, colonAt);
      rest = skipHitSpaces(text, colonAt + 1, end);
    } else {
      // No colon: the topic is the first word.
      let k = topicStart;
      while (k < end && !isHitSpace(text.charCodeAt(k))) k++;
      topicEnd = k;
      rest = skipHitSpaces(text, k, end);
    }
    const categoriesAt = this.scanHits(text, rest, end, 0, undefined);
    return { labelStart, labelEnd: after, topicStart, topicEnd, colonAt, rest, end, categoriesAt };
  }

  /**
   * Walks the hits from `rest` to `分类` or `end`, collecting hits or separators as `want` says,
   * and returns where `分类` is (or -1).
   */
  private scanHits(text: string, rest: number, end: number, want: number, result: (TopicHit | Span)[] | undefined): number {
    const first = this.firstCharacter;
    let segmentStart = rest;
    for (let k = rest; k <= end; k++) {
      const c = k < end ? text.charCodeAt(k) : -1;
      // `分类` opens the categories even without a separator before it.
      const categoriesHere = k < end && c === 0x5206 && text.startsWith(LABELS.categories, k) && (k === segmentStart || isHitSpace(text.charCodeAt(k - 1)));
      if (k === end || c === 0xff1b || c === 0x3b || categoriesHere) {
        const segEnd = trimHitSpaceEnd(text, segmentStart, k);
        if (want === HITS && (segEnd > segmentStart || (k < end && !categoriesHere))) {
          result!.push(this.hit(text, first, segmentStart, segEnd));
        }
        if (categoriesHere) {
          return k;
        }
        if (k < end) {
          const sepEnd = skipHitSpaces(text, k + 1, end);
          if (want === HIT_SEPARATORS) {
            result!.push(this.span(segEnd + first, sepEnd + first));
          }
          segmentStart = sepEnd;
          k = sepEnd - 1;
        }
      }
    }
    return -1;
  }

  private hit(text: string, first: number, start: number, end: number): HitNode {
    const last = end > start ? text.charCodeAt(end - 1) : -1;
    let keywordEnd = end;
    let openAt = -1;
    let fieldStart = -1;
    let fieldEnd = -1;
    if (last === 0x29 || last === 0xff09) {
      let k = end - 2;
      while (k >= start && text.charCodeAt(k) !== 0x28 && text.charCodeAt(k) !== 0xff08) k--;
      if (k >= start) {
        openAt = k + first;
        const fs = skipHitSpaces(text, k + 1, end - 1);
        fieldStart = fs + first;
        fieldEnd = trimHitSpaceEnd(text, fs, end - 1) + first;
        keywordEnd = trimHitSpaceEnd(text, start, k);
      }
    }
    return new HitNode(this, start + first, end + first, keywordEnd + first, openAt, fieldStart, fieldEnd);
  }

  private splitCategories(text: string, want: number): readonly Span[] {
    const { categoriesAt, end } = this.layout(text);
    if (categoriesAt < 0) {
      return EMPTY;
    }
    const first = this.firstCharacter;
    const result: Span[] = [];
    let k = skipHitSpaces(text, categoriesAt + LABELS.categories.length, end);
    if (text.charCodeAt(k) === 0x3a || text.charCodeAt(k) === 0xff1a) {
      k = skipHitSpaces(text, k + 1, end);
    }
    let codeStart = k;
    for (; k <= end; k++) {
      const c = k < end ? text.charCodeAt(k) : -1;
      if (k === end || c === 0x3001 || c === 0x2c || c === 0xff0c || isHitSpace(c) || c === 0x3b || c === 0xff1b) {
        const codeEnd = k;
        if (want === CATEGORIES && codeEnd > codeStart) {
          result.push(this.span(codeStart + first, codeEnd + first));
        }
        if (k < end) {
          let sepEnd = k + 1;
          while (sepEnd < end) {
            const s = text.charCodeAt(sepEnd);
            if (!isHitSpace(s) && s !== 0x3001 && s !== 0x2c && s !== 0xff0c) break;
            sepEnd++;
          }
          if (want === CATEGORY_SEPARATORS) {
            result.push(this.span(codeEnd + first, sepEnd + first));
          }
          codeStart = sepEnd;
          k = sepEnd - 1;
        }
      }
    }
    return kept(result);
  }

  get label(): Span {
    const layout = this.layout(this.text);
    const first = this.firstCharacter;
    return this.span(layout.labelStart + first, layout.labelEnd + first);
  }

  get topic(): Span {
    const layout = this.layout(this.text);
    const first = this.firstCharacter;
    return this.span(layout.topicStart + first, layout.topicEnd + first);
  }

  get colon(): Span | undefined {
    const { colonAt } = this.layout(this.text);
    const first = this.firstCharacter;
    return colonAt < 0 ? undefined : this.span(colonAt + first, colonAt + 1 + first);
  }

  get categoriesLabel(): Span | undefined {
    const { categoriesAt } = this.layout(this.text);
    const first = this.firstCharacter;
    return categoriesAt < 0 ? undefined : this.span(categoriesAt + first, categoriesAt + LABELS.categories.length + first);
  }

  get hits(): readonly TopicHit[] {
    const parts = this.own();
    if (!parts.hitsList) {
      const text = this.text;
      const { rest, end } = this.layout(text);
      const result: TopicHit[] = [];
      this.scanHits(text, rest, end, HITS, result);
      parts.hitsList = kept(result);
      this.noteParts();
    }
    return parts.hitsList;
  }

  get separators(): readonly Span[] {
    const parts = this.own();
    if (!parts.separatorsList) {
      const text = this.text;
      const { rest, end } = this.layout(text);
      const result: Span[] = [];
      this.scanHits(text, rest, end, HIT_SEPARATORS, result);
      parts.separatorsList = kept(result);
      this.noteParts();
    }
    return parts.separatorsList;
  }

  get categories(): readonly Span[] {
    const parts = this.own();
    if (parts.categoriesList === undefined) {
      parts.categoriesList = this.splitCategories(this.text, CATEGORIES);
      this.noteParts();
    }
    return parts.categoriesList;
  }

  get categorySeparators(): readonly Span[] {
    const parts = this.own();
    if (parts.categorySeparatorsList === undefined) {
      parts.categorySeparatorsList = this.splitCategories(this.text, CATEGORY_SEPARATORS);
      this.noteParts();
    }
    return parts.categorySeparatorsList;
  }
}

/** URLs and arXiv references; the `g` flag's state is reset before each use. */
const LINK_PATTERN = /https?:\/\/[^\s<>"'`）)（(，。；;、\]]+|arXiv:\s?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)/gi;

/** `AI总结`, `Comments` or `Journal ref` and the text after it. */
export class TextFieldNode extends FieldNode implements TextField {
  declare readonly kind: 'summary' | 'comments' | 'journalRef';
  private declare linksList: readonly Link[] | undefined;

  constructor(entry: EntryNode, lineRel: number, kind: 'summary' | 'comments' | 'journalRef') {
    super(entry, lineRel);
    this.kind = kind;
    this.linksList = undefined;
  }

  private labelLength(): number {
    return this.kind === 'summary' ? LABELS.summary.length : this.kind === 'comments' ? LABELS.comments.length : LABELS.journalRef.length;
  }

  get label(): Span {
    const [start, end] = this.labelBounds(this.text, this.labelLength());
    const first = this.firstCharacter;
    return this.span(start + first, end + first);
  }

  /** `[start, end)` of the value in the line's text. */
  private valueBounds(text: string): [number, number] {
    const [, after] = this.labelBounds(text, this.labelLength());
    let valueStart = skipSpaces(text, after);
    const c = text.charCodeAt(valueStart);
    if (c === 0x3a || c === 0xff1a) {
      valueStart = skipSpaces(text, valueStart + 1);
    }
    return [valueStart, trimEndIndex(text, valueStart, text.length)];
  }

  get value(): Span {
    const [start, end] = this.valueBounds(this.text);
    const first = this.firstCharacter;
    return this.span(start + first, end + first);
  }

  get links(): readonly Link[] {
    if (!this.linksList) {
      const text = this.text;
      const [start, end] = this.valueBounds(text);
      this.linksList = this.findLinks(text.slice(start, end), start + this.firstCharacter);
      this.noteParts();
    }
    return this.linksList;
  }

  releaseParts(): void {
    this.linksList = undefined;
  }

  private findLinks(value: string, offset: number): readonly Link[] {
    const links: Link[] = [];
    const pattern = LINK_PATTERN;
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(value)) !== null) {
      let length = match[0].length;
      if (match[1] === undefined) {
        // Brackets that open and close within a URL are its own (`…/Foo_(bar)`), not the text's.
        length = urlWithBrackets(value, match.index + length) - match.index;
        pattern.lastIndex = match.index + length;
      }
      // A URL does not end in sentence punctuation.
      while (length > 0 && isSentencePunctuation(value.charCodeAt(match.index + length - 1))) {
        length--;
      }
      const start = offset + match.index;
      if (match[1] !== undefined) {
        links.push(new LinkNode(this, start, start + length, 'arxiv', match[0].length - match[1].length));
      } else {
        links.push(new LinkNode(this, start, start + length, 'url', 0));
      }
    }
    pattern.lastIndex = 0;
    return kept(links);
  }
}

/** Characters of a URL as `LINK_PATTERN` reads one: none of these. */
const URL_RUN = /[^\s<>"'`）)（(，。；;、\]]*/y;

/**
 * Where a URL found up to `end` ends once `(…)` groups right after it are taken in: each a `(`,
 * URL characters and its `)`, and the URL characters after it.
 *
 * @example urlWithBrackets('(https://e.org/a_(b))', 17) // 20: `https://e.org/a_(b)`
 */
function urlWithBrackets(text: string, end: number): number {
  while (text.charCodeAt(end) === 0x28) {
    URL_RUN.lastIndex = end + 1;
    URL_RUN.exec(text);
    const close = URL_RUN.lastIndex;
    if (text.charCodeAt(close) !== 0x29) {
      break;
    }
    URL_RUN.lastIndex = close + 1;
    URL_RUN.exec(text);
    end = URL_RUN.lastIndex;
  }
  return end;
}

function isSentencePunctuation(code: number): boolean {
  return code === 0x2e || code === 0x2c || code === 0x3a || code === 0x21 || code === 0x3f;
}

/** Spaces at `text[i]`, for callers outside this file that split lines the same way. */
export { isSpace };

/**
 * The `)` or `）` that closes a bracket opened just before `from` (brackets inside it closed
 * first), before any `；` or `;`; -1 when there is none.
 */
function closingBracket(text: string, from: number, end: number): number {
  let depth = 1;
  for (let k = from; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x28 || c === 0xff08) {
      depth++;
    } else if ((c === 0x29 || c === 0xff09) && --depth === 0) {
      return k;
    } else if (c === 0xff1b || c === 0x3b) {
      return -1;
    }
  }
  return -1;
}

/**
 * A character that reads as a space or as nothing between the parts of a `专题命中` line (its
 * label, topic, colon, hits, `分类` and categories): a space,
 * a tab, U+3000, and what text copied from a web page brings: a no-break space (U+00A0, U+202F),
 * a zero-width space (U+200B), a word joiner (U+2060) or a BOM (U+FEFF) inside the line. Without
 * them read as space, `reasoning(abstract)\u200b；` was two hits run together, and `；\u00a0分类` a
 * hit named `分类 …` with no categories.
 */
function isHitSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x3000 || c === 0xa0 || c === 0x202f || c === 0x200b || c === 0x2060 || c === 0xfeff;
}

/** The characters `isHitSpace` takes, as the body of a regular expression's class (the quick fixes' patterns). */
export const HIT_SPACE_CLASS = ' \\t\\u3000\\u00a0\\u202f\\u200b\\u2060\\ufeff';

/** `skipSpaces` for a `专题命中` line: past the characters `isHitSpace` takes. */
function skipHitSpaces(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isHitSpace(text.charCodeAt(i))) i++;
  return i;
}

/** `trimEndIndex` for a `专题命中` line: before the characters `isHitSpace` takes. */
function trimHitSpaceEnd(text: string, from: number, to: number): number {
  let j = to;
  while (j > from && isHitSpace(text.charCodeAt(j - 1))) j--;
  return j;
}
