/**
 * The outline: hierarchical document symbols. The digest heading is the root; each paper is one
 * symbol named `English title · 中文标题`, so that an editor filtering on names (Go to Symbol,
 * Ctrl+Shift+O) finds a paper by either title; control and bidirectional characters of the text
 * are replaced by U+FFFD in the names, as in every label (`labelSafe`). Papers have no children: their fields are a
 * fold or a hover away, and seven children per paper made the outline of a year of digests
 * seven times as big and opened it flooded with fields.
 */
import { DocumentSymbol, Range, SymbolKind } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { DigestModel } from '../document';
import type { DigestDocument, Entry } from '../model';
import { isTruncated } from '../limits';
import type { MessageLanguage } from '../messages';
import { entrySpans, paperName } from './entries';
import { labelSafe } from '../text';

/** Between the English and the Chinese title in a paper's symbol name. */
export const TITLE_SEPARATOR = ' · ';

/** Options of the outline. */
export interface SymbolOptions {
  /**
   * At most this many paper symbols are returned; a client chokes on hundreds of thousands.
   * The rest are summarised by one last symbol.
   */
  readonly maxPapers?: number;
  /**
   * The language of the outline's own words (the heading's count of papers, the summary of the
   * papers not shown, the name of a paper without a title): Chinese for `zh-cn`, English
   * otherwise. Titles are the document's.
   */
  readonly language?: MessageLanguage;
}

/** Names and details of papers are cut to this many characters. */
export const MAX_NAME_LENGTH = 500;

export const DEFAULT_MAX_PAPERS = 20000;

/**
 * Builds the outline of a digest.
 *
 * @example
 * const [root] = documentSymbols(parseDigest(text));
 * root.name;              // '大模型推理能力' (the heading)
 * root.children[0].name;  // 'Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针'
 * root.children[0].children // undefined: fields are not in the outline
 */
export function documentSymbols(doc: DigestDocument, options: SymbolOptions = {}, token: Cancellation = NEVER_CANCELLED): DocumentSymbol[] {
  const frame = outlineFrame(doc, options);
  const papers: DocumentSymbol[] = [];
  const entries = doc.entries;
  const count = frame.count;
  const zh = options.language === 'zh-cn';
  const text = doc instanceof DigestModel ? doc.src : undefined;
  const last = text && LAST_PAPERS.get(text);
  const kept = last && last.zh === zh ? last : undefined;
  for (let i = 0; i < count; i++) {
    if ((i & 1023) === 0 && token.isCancellationRequested) {
      return [];
    }
    const entry = entries[i];
    const symbol = kept && i < kept.entries.length && kept.entries[i] === entry ? kept.symbols[i] : undefined;
    papers.push(symbol && entry.index === i && entrySpans(entry, symbol.range) ? symbol : paperSymbol(entry, options.language));
  }
  if (text) {
    LAST_PAPERS.set(text, { entries: entries.slice(0, count), symbols: papers.slice(), zh });
  }
  if (frame.more) {
    papers.push(frame.more);
  }
  return frame.root ? [{ ...frame.root, children: papers }] : papers;
}

/**
 * What an outline holds besides its papers' symbols: the heading's symbol (without its
 * children), how many papers it shows, and the symbol that counts the papers it does not show.
 * `documentSymbols` puts the papers between them, and so does the server's writer of the
 * outline's bytes (outlineBytes.ts), which makes no symbol objects for the papers.
 */
export interface OutlineFrame {
  /** The heading's symbol, without `children`; undefined for a digest without a heading. */
  readonly root?: Omit<DocumentSymbol, 'children'>;
  /** How many papers the outline lists, the first ones. */
  readonly count: number;
  /** The last symbol, counting the papers past `count`, when there are any. */
  readonly more?: DocumentSymbol;
}

/** The heading's symbol, the number of papers shown and the symbol of the rest (`OutlineFrame`). */
export function outlineFrame(doc: DigestDocument, options: SymbolOptions = {}): OutlineFrame {
  const maxPapers = options.maxPapers ?? DEFAULT_MAX_PAPERS;
  const count = Math.min(doc.entries.length, maxPapers);
  // The name of an untitled paper is in the message language: Chinese for zh-cn, else English.
  const zh = options.language === 'zh-cn';
  // Of a document past the limits only the first lines were read (limits.ts).
  const lines = doc.lines.length - 1;
  const within = isTruncated(doc) ? (zh ? `（在前 ${lines} 行中）` : ` in the first ${lines} lines`) : '';
  let more: DocumentSymbol | undefined;
  if (doc.entries.length > maxPapers) {
    const first = doc.entries[maxPapers];
    const last = doc.entries[doc.entries.length - 1];
    const range = { start: first.range.start, end: last.range.end };
    const rest = doc.entries.length - maxPapers;
    more = {
      name: zh ? `… 另有 ${rest} 篇论文${within}` : `… ${rest} more ${rest === 1 ? 'paper' : 'papers'}${within}`,
      detail: zh ? `大纲只显示前 ${maxPapers} 篇` : 'the outline shows the first ' + maxPapers,
      kind: SymbolKind.Namespace,
      range,
      selectionRange: { start: first.range.start, end: first.range.start },
    };
  }
  if (!doc.heading) {
    return { count, more };
  }
  const lastLine = doc.lines[doc.lines.length - 1];
  const headingRange = doc.heading.range;
  return {
    count,
    more,
    root: {
      // A heading of ideographic spaces only is empty once trimmed: a client refuses an empty name.
      name: doc.heading.text.trim().length > 0 ? labelSafe(shorten(doc.heading.text, MAX_NAME_LENGTH)) : zh ? '（无标题的摘要集）' : '(untitled digest)',
      detail: headingDetail(doc.entries.length, within, zh),
      kind: SymbolKind.Namespace,
      range: { start: { line: headingRange.start.line, character: 0 }, end: { line: lastLine.line, character: lastLine.text.length + (lastLine.line === 0 && doc.hasBom ? 1 : 0) } },
      selectionRange: headingRange,
    },
  };
}

/**
 * The paper symbols of a text's last outline, with the entries they were made for, by the
 * parsed text (an edit keeps it, and the entries it did not touch: incremental.ts). An entry
 * still in the same place, with the same number (an untitled paper is named by it) and the same
 * lines, keeps its symbol, so the outline after a keystroke makes only the symbols of the
 * entries that changed or moved, and finds the others by one comparison each.
 */
const LAST_PAPERS = new WeakMap<object, { readonly entries: readonly Entry[]; readonly symbols: readonly DocumentSymbol[]; readonly zh: boolean }>();

function paperSymbol(entry: Entry, language: MessageLanguage | undefined): DocumentSymbol {
  // As the server's writer of the outline's bytes writes it (outlineBytes.ts): control and bidirectional characters replaced.
  return { name: labelSafe(paperSymbolLabel(entry, language)), kind: SymbolKind.Class, range: entry.range, selectionRange: paperSelectionRange(entry) };
}

/** The name of a paper's symbol as the outline shows it: both titles (`paperSymbolName`), cut at 500 characters. */
export function paperSymbolLabel(entry: Entry, language: MessageLanguage | undefined): string {
  return shorten(symbolName(entry, entry.englishTitle?.value.text ?? '', entry.chineseTitle?.value.text ?? '', language), MAX_NAME_LENGTH);
}

/** The selection range of a paper's symbol: its English title, else its Chinese title, else its first field. */
export function paperSelectionRange(entry: Entry): Range {
  const title = entry.englishTitle?.value ?? entry.chineseTitle?.value;
  return title ? title.range : entry.fields[0]?.range ?? entry.range;
}

/**
 * The name of a paper's symbol: both titles when it has both, else the name it goes by.
 *
 * @example
 * paperSymbolName(entry) // 'Sparse Probes for Arithmetic Circuits · 算术电路的稀疏探针'
 */
export function paperSymbolName(entry: Entry, language?: MessageLanguage): string {
  return symbolName(entry, entry.englishTitle?.value.text ?? '', entry.chineseTitle?.value.text ?? '', language);
}

function symbolName(entry: Entry, english: string, chinese: string, language: MessageLanguage | undefined): string {
  return english.trim() && chinese.trim() ? english + TITLE_SEPARATOR + chinese : paperName(entry, language);
}

/** The heading's detail: `12 papers` (`1 paper`), `12 篇论文`, and for a document too large, that the rest was not read. */
function headingDetail(count: number, within: string, zh: boolean): string {
  if (zh) {
    return within ? `${count} 篇论文${within}，其余未读取：文档过大` : `${count} 篇论文`;
  }
  const papers = `${count} ${count === 1 ? 'paper' : 'papers'}`;
  return within ? `${papers}${within}, the rest not read: the document is too large` : papers;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
