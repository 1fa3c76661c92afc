/**
 * The outline: hierarchical document symbols. The digest heading is the root; each paper is a
 * symbol named by its English title with the Chinese title as detail; its fields are children.
 */
import { DocumentSymbol, SymbolKind } from 'vscode-languageserver-types';
import type { Position, Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Entry, Field } from '../model';
import { paperName } from './entries';

/** Options of the outline. */
export interface SymbolOptions {
  /**
   * At most this many paper symbols are returned; a client chokes on hundreds of thousands.
   * The rest are summarised by one last symbol.
   */
  readonly maxPapers?: number;
  /** Whether papers have their fields as children (the default); documents past a limit get none. */
  readonly fields?: boolean;
}

/** Names and details of papers are cut to this many characters. */
const MAX_NAME_LENGTH = 500;

export const DEFAULT_MAX_PAPERS = 20000;

const FIELD_NAMES: Record<Field['kind'], string> = {
  englishTitle: 'English title',
  chineseTitle: '中文标题 Chinese title',
  authors: 'Authors',
  institutions: '机构 Institutions',
  topicHits: '专题命中 Topic hits',
  summary: 'AI总结 AI summary',
  comments: 'Comments',
  journalRef: 'Journal ref',
};

const FIELD_KINDS: Record<Field['kind'], SymbolKind> = {
  englishTitle: SymbolKind.String,
  chineseTitle: SymbolKind.String,
  authors: SymbolKind.Array,
  institutions: SymbolKind.Array,
  topicHits: SymbolKind.Key,
  summary: SymbolKind.String,
  comments: SymbolKind.String,
  journalRef: SymbolKind.String,
};

/**
 * Builds the outline of a digest.
 *
 * @example
 * const [root] = documentSymbols(parseDigest(text));
 * root.name;              // '大模型推理能力' (the heading)
 * root.children[0].name;  // 'Sparse Probes for Arithmetic Circuits in Small Transformers'
 * root.children[0].detail // '小型Transformer中算术电路的稀疏探针'
 */
export function documentSymbols(doc: DigestDocument, options: SymbolOptions = {}, token: Cancellation = NEVER_CANCELLED): DocumentSymbol[] {
  const maxPapers = options.maxPapers ?? DEFAULT_MAX_PAPERS;
  const papers: DocumentSymbol[] = [];
  const count = Math.min(doc.entries.length, maxPapers);
  for (let i = 0; i < count; i++) {
    if ((i & 1023) === 0 && token.isCancellationRequested) {
      return [];
    }
    papers.push(options.fields === false ? bareSymbol(doc.entries[i]) : paperSymbol(doc.entries[i]));
  }
  if (doc.entries.length > maxPapers) {
    const first = doc.entries[maxPapers];
    const last = doc.entries[doc.entries.length - 1];
    const range = { start: first.range.start, end: last.range.end };
    papers.push({
      name: `… ${doc.entries.length - maxPapers} more papers`,
      detail: 'the outline shows the first ' + maxPapers,
      kind: SymbolKind.Namespace,
      range,
      selectionRange: { start: first.range.start, end: first.range.start },
    });
  }
  if (!doc.heading) {
    return papers;
  }
  const lastLine = doc.lines[doc.lines.length - 1];
  const headingRange = doc.heading.range;
  return [
    {
      // A heading of ideographic spaces only is empty once trimmed: a client refuses an empty name.
      name: doc.heading.text.trim().length > 0 ? shorten(doc.heading.text, MAX_NAME_LENGTH) : '(untitled digest)',
      detail: `${doc.entries.length} papers`,
      kind: SymbolKind.Namespace,
      range: { start: { line: headingRange.start.line, character: 0 }, end: { line: lastLine.line, character: lastLine.text.length + (lastLine.line === 0 && doc.hasBom ? 1 : 0) } },
      selectionRange: headingRange,
      children: papers,
    },
  ];
}

function paperSymbol(entry: Entry): DocumentSymbol {
  const title = entry.englishTitle ?? entry.chineseTitle;
  const children: DocumentSymbol[] = entry.fields.map((field) => {
    // One range object for both: an outline of 10,000 papers holds 70,000 of these.
    const range = field.range;
    return { name: FIELD_NAMES[field.kind], detail: fieldDetail(field), kind: FIELD_KINDS[field.kind], range, selectionRange: range };
  });
  // Equal ranges and positions are shared with the children's, for the same reason.
  let selectionRange: Range;
  if (title) {
    const titleRange = children[entry.fields.indexOf(title)].range;
    const valueRange = title.value.range;
    selectionRange = sameRange(valueRange, titleRange) ? titleRange : valueRange;
  } else {
    selectionRange = children[0]?.range ?? entry.range;
  }
  let range = entry.range;
  if (children.length > 0) {
    const start = children[0].range.start;
    const end = children[children.length - 1].range.end;
    range = { start: samePosition(range.start, start) ? start : range.start, end: samePosition(range.end, end) ? end : range.end };
  }
  return {
    name: shorten(paperName(entry), MAX_NAME_LENGTH),
    detail: entry.englishTitle ? shorten(entry.chineseTitle?.value.text ?? '', MAX_NAME_LENGTH) : '',
    kind: SymbolKind.Class,
    range,
    selectionRange,
    children,
  };
}

/** A paper without its fields. */
function bareSymbol(entry: Entry): DocumentSymbol {
  const title = entry.englishTitle ?? entry.chineseTitle;
  return {
    name: shorten(paperName(entry), MAX_NAME_LENGTH),
    detail: entry.englishTitle ? shorten(entry.chineseTitle?.value.text ?? '', MAX_NAME_LENGTH) : '',
    kind: SymbolKind.Class,
    range: entry.range,
    selectionRange: title?.value.range ?? entry.range,
  };
}

function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.character === b.character;
}

function sameRange(a: Range, b: Range): boolean {
  return samePosition(a.start, b.start) && samePosition(a.end, b.end);
}

function fieldDetail(field: Field): string {
  switch (field.kind) {
    case 'englishTitle':
    case 'chineseTitle':
      return shorten(field.value.text);
    case 'authors':
      return `${field.names.length} · ${shortJoin(field.names, (n) => n.text, ', ')}`;
    case 'institutions':
      return shortJoin(field.items, (item) => item.name.text, ' ; ');
    case 'topicHits':
      return shorten([field.topic.text, ...field.categories.map((c) => c.text)].filter((s) => s).join(' · '));
    default:
      return shorten(field.value.text);
  }
}

function shorten(text: string, max = 80): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/** `shorten(parts.map(textOf).join(separator))`, reading only the parts that show (a paper may have 60 authors). */
function shortJoin<T>(parts: readonly T[], textOf: (part: T) => string, separator: string, max = 80): string {
  let joined = '';
  for (let i = 0; i < parts.length; i++) {
    joined += (i > 0 ? separator : '') + textOf(parts[i]);
    if (joined.length > max) {
      return joined.slice(0, max - 1) + '…';
    }
  }
  return joined;
}
