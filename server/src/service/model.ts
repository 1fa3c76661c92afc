/**
 * The document model of a paper digest: what `parseDigest` produces and every feature reads.
 *
 * Positions and ranges are LSP positions (zero-based line, UTF-16 code unit character), so a
 * range can be handed to an LSP client as it is. Every element of the model carries its range.
 */
import type { Range } from 'vscode-languageserver-types';

export type { Range };

/** The label that opens a labelled paragraph, as the format spells it. */
export const LABELS = {
  institutions: '机构',
  topicHits: '专题命中',
  categories: '分类',
  summary: 'AI总结',
  comments: 'Comments',
  journalRef: 'Journal ref',
  reportMarker: '纠错',
} as const;

/**
 * `Comments`, `Journal ref` or `AI总结` written in another case (`comments`, `JOURNAL REF`,
 * `ai总结`), read where a line's text starts, within a whole text.
 */
const MISCASED_LABEL_AT = /(?:comments|journal[ \t]+ref|ai总结)(?=[ \t:：\r\n]|$)/iy;

/**
 * The label a trimmed line, `text[from..to)`, starts with in another case than the format's: the
 * label as the format writes it and the length of it as written; undefined when none (the line is
 * then no field the format has).
 *
 * @example miscasedLabelAt('journal  ref Proc.', 0, 18) // { label: 'Journal ref', length: 12 }
 */
export function miscasedLabelAt(text: string, from: number, to: number): { label: string; length: number } | undefined {
  // Most lines are ruled out by their first two letters (a title `A …`, `Chain…`).
  const first = text.charCodeAt(from) | 0x20;
  const second = text.charCodeAt(from + 1) | 0x20;
  if (!((first === 0x63 && second === 0x6f) || (first === 0x6a && second === 0x6f) || (first === 0x61 && second === 0x69))) {
    return undefined;
  }
  MISCASED_LABEL_AT.lastIndex = from;
  const match = MISCASED_LABEL_AT.exec(text);
  if (!match || from + match[0].length > to) {
    return undefined;
  }
  const written = match[0];
  const label = /^comments$/i.test(written) ? LABELS.comments : /^ai/i.test(written) ? LABELS.summary : LABELS.journalRef;
  return written === label ? undefined : { label, length: written.length };
}

/**
 * The kinds of field an entry has, in their canonical order (the order of the format's table).
 * `FIELD_ORDER.indexOf(kind)` is the field's position.
 */
export const FIELD_ORDER = [
  'englishTitle',
  'chineseTitle',
  'authors',
  'institutions',
  'topicHits',
  'summary',
  'comments',
  'journalRef',
] as const;

export type FieldKind = (typeof FIELD_ORDER)[number];

/** Fields every entry must have. */
export const REQUIRED_FIELDS: readonly FieldKind[] = ['englishTitle', 'chineseTitle', 'authors', 'topicHits', 'summary'];

/** A piece of text of the document with its range (always within one line). */
export interface Span {
  readonly text: string;
  readonly range: Range;
}

/** One physical line of the document, without its line end. */
export interface SourceLine {
  /** Zero-based line number. */
  readonly line: number;
  /** The line's text without the line end (and without the BOM on line 0). */
  readonly text: string;
  /** Offset of the line's first character in the document text. */
  readonly offset: number;
}

/** A run of non-blank lines separated from others by blank lines. */
export interface Paragraph {
  /** Zero-based line of the first line. */
  readonly startLine: number;
  /** Zero-based line of the last line. */
  readonly endLine: number;
  readonly range: Range;
}

/** What kind of line the parser recognised, before lines are assigned to fields. */
export type LineKind =
  | 'institutions'
  | 'topicHits'
  | 'summary'
  | 'comments'
  | 'journalRef'
  | 'text';

interface FieldBase {
  readonly kind: FieldKind;
  /** The whole line of the field (one paragraph in a well-formed file). */
  readonly range: Range;
  /** Zero-based line of the field. */
  readonly line: number;
  /** The whole line's text. */
  readonly text: string;
}

/** The English title, the Chinese title or the authors line: an unlabelled line. */
export interface TitleField extends FieldBase {
  readonly kind: 'englishTitle' | 'chineseTitle';
  /** The title with surrounding white space trimmed. */
  readonly value: Span;
}

/** One author name in the authors paragraph. */
export interface AuthorsField extends FieldBase {
  readonly kind: 'authors';
  readonly names: readonly Span[];
  /** Separators between names, as written (`, ` canonically; `，` or `,` are mistakes). */
  readonly separators: readonly Span[];
}

/** A label and what follows it, e.g. `AI总结` + summary. */
export interface LabelledFieldBase extends FieldBase {
  /** The label as written, e.g. `AI总结`. */
  readonly label: Span;
}

/** `English name（中文名）` or an English name alone. */
export interface InstitutionItem {
  /** The whole item, trimmed. */
  readonly range: Range;
  readonly text: string;
  /** The name before the translation, trimmed (may be empty). */
  readonly name: Span;
  /** The translation inside the last parenthesised group at the end of the item, if any. */
  readonly translation?: Span;
  /** The parentheses around the translation as written: `（` `）` canonically, `(` `)` is a mistake. */
  readonly open?: Span;
  readonly close?: Span;
  /**
   * Depth left open at the end of the item: positive when a `（` (or `(`) is not closed, negative
   * when a `）` has no opener. Zero in a balanced item.
   */
  readonly unbalanced: number;
  /** Where the first unbalanced bracket is, when `unbalanced` is not zero. */
  readonly unbalancedAt?: Range;
}

/**
 * Authors given on the institutions line, `A, B, C（甲、乙、丙）`, paired by position.
 */
export interface AuthorPair {
  readonly english: Span;
  readonly chinese?: Span;
}

export interface InstitutionsField extends LabelledFieldBase {
  readonly kind: 'institutions';
  /** The `*` after the label, if present. */
  readonly star?: Span;
  /** The trailing `纠错` marker, if present. */
  readonly marker?: Span;
  readonly items: readonly InstitutionItem[];
  /** Separators between items, as written: ` ； ` canonically, `;` is a mistake. */
  readonly separators: readonly Span[];
  /** When the line lists authors with their Chinese names instead of institutions. */
  readonly authorPairs?: readonly AuthorPair[];
}

/** One `keyword(field)` hit. */
export interface TopicHit {
  readonly range: Range;
  readonly text: string;
  /** The keyword, trimmed (may be empty: a mistake). */
  readonly keyword: Span;
  /** Where the keyword matched (`abstract`, `title`, ...), missing when there is no `(field)`. */
  readonly field?: Span;
  /** The brackets around the field as written: `(` `)` canonically, `（` `）` is a mistake. */
  readonly open?: Span;
  readonly close?: Span;
}

export interface TopicHitsField extends LabelledFieldBase {
  readonly kind: 'topicHits';
  /** The digest sub-topic, e.g. `数学推理` (may be empty). */
  readonly topic: Span;
  /** The colon after the topic as written: `：` canonically, `:` is a mistake. */
  readonly colon?: Span;
  readonly hits: readonly TopicHit[];
  /** Separators between hits (and before `分类`): `；` canonically, `;` is a mistake. */
  readonly separators: readonly Span[];
  /** The `分类` label, when present. */
  readonly categoriesLabel?: Span;
  readonly categories: readonly Span[];
  /** Separators between categories: `、` canonically, `,` or `，` is a mistake. */
  readonly categorySeparators: readonly Span[];
}

/** `AI总结`, `Comments` or `Journal ref` followed by free text. */
export interface TextField extends LabelledFieldBase {
  readonly kind: 'summary' | 'comments' | 'journalRef';
  /** The text after the label, trimmed (may be empty). */
  readonly value: Span;
  /** URLs and `arXiv:NNNN.NNNNN` references found in the text. */
  readonly links: readonly Link[];
}

export interface Link extends Span {
  /** The target: the URL itself, or `https://arxiv.org/abs/ID` for an arXiv reference. */
  readonly target: string;
  readonly kind: 'url' | 'arxiv';
}

export type Field = TitleField | AuthorsField | InstitutionsField | TopicHitsField | TextField;

/** One paper. */
export interface Entry {
  /** Zero-based index of the entry in the document. */
  readonly index: number;
  /** From the first line of its first field to the end of its last line (stray lines included). */
  readonly range: Range;
  /** The fields in document order. */
  readonly fields: readonly Field[];
  readonly englishTitle?: TitleField;
  readonly chineseTitle?: TitleField;
  readonly authors?: AuthorsField;
  readonly institutions?: InstitutionsField;
  readonly topicHits?: TopicHitsField;
  readonly summary?: TextField;
  readonly comments?: TextField;
  readonly journalRef?: TextField;
  /** Lines inside the entry that belong to no field. */
  readonly strayLines: readonly Span[];
}

/** What the parser noticed about the structure; field contents are checked by the diagnostics. */
export type StructureProblemKind =
  /** A required field is missing; `field` says which, `range` is where it belongs. */
  | 'missingField'
  /** A line is in the same paragraph as the line before it (no blank line between them). */
  | 'runTogether'
  /** A field comes after a field that should follow it. */
  | 'outOfOrder'
  /** A line that belongs to no field. */
  | 'strayLine'
  /** The first paragraph is not a Chinese heading. */
  | 'missingHeading';

export interface StructureProblem {
  readonly kind: StructureProblemKind;
  readonly range: Range;
  /** The entry the problem belongs to, when it belongs to one. */
  readonly entryIndex?: number;
  /** The field concerned (the missing one, the out-of-order one). */
  readonly field?: FieldKind;
  /**
   * For `missingField`: the zero-based line before which the field should be inserted, so that
   * the paragraph order stays canonical. For `outOfOrder`: the line before which the misplaced
   * field belongs.
   */
  readonly insertBeforeLine?: number;
  /** For `outOfOrder`: insert after this line instead (when the field belongs last). */
  readonly insertAfterLine?: number;
}

export interface DigestDocument {
  /** The text the model was parsed from (the BOM included, if any). */
  readonly text: string;
  /** Whether the text starts with U+FEFF. */
  readonly hasBom: boolean;
  /** The line end the file mostly uses (`\r` in a file of lone carriage returns). */
  readonly eol: '\n' | '\r\n' | '\r';
  readonly lines: readonly SourceLine[];
  readonly paragraphs: readonly Paragraph[];
  /** The digest's subject, the first paragraph, when it is a Chinese heading. */
  readonly heading?: Span;
  readonly entries: readonly Entry[];
  /** Lines before the first entry or outside any entry that belong to no field. */
  readonly strayLines: readonly Span[];
  readonly problems: readonly StructureProblem[];
}
