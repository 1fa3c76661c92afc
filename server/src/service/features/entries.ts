/**
 * Lookups over the model shared by the features: which entry or field is at a position, and the
 * name a paper goes by.
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { DigestDocument, Entry, Field } from '../model';
import { keep } from '../keptStrings';
import type { MessageLanguage } from '../messages';
import { EntryNode } from '../nodes';

/**
 * The entry whose lines contain the position, by binary search over the entries' ranges.
 *
 * @example
 * entryAt(doc, { line: 4, character: 0 })?.englishTitle?.value.text
 */
export function entryAt(doc: DigestDocument, position: Position): Entry | undefined {
  return itemAtLine(doc.entries, position.line);
}

/**
 * Of items sorted by range and not overlapping, the one whose lines contain `line`, by binary
 * search.
 *
 * @example
 * itemAtLine(doc.entries, 4) // the entry on line 4
 */
export function itemAtLine<T extends { readonly range: Range }>(items: readonly T[], line: number): T | undefined {
  let low = 0;
  let high = items.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = items[mid].range;
    if (line < range.start.line) {
      high = mid - 1;
    } else if (line > range.end.line) {
      low = mid + 1;
    } else {
      return items[mid];
    }
  }
  return undefined;
}

/** The field of an entry on the position's line. */
export function fieldAt(entry: Entry, position: Position): Field | undefined {
  return entry.fields.find((field) => field.line === position.line);
}

/**
 * The name a paper goes by: its English title, else its Chinese title, else its position
 * (`untitledPaperName`) in `language`. Never empty.
 *
 * @example
 * paperName(entry) // 'Sparse Probes for Arithmetic Circuits in Small Transformers'
 */
export function paperName(entry: Entry, language: MessageLanguage = 'en'): string {
  const title = entry.englishTitle?.value.text || entry.chineseTitle?.value.text;
  return title && title.trim().length > 0 ? title : untitledPaperName(entry.index + 1, language);
}

/**
 * The name of the `number`th paper of a file, which has neither title: Chinese for `zh-cn`,
 * English otherwise (`both` too, as the outline's and the tree's other words). The workspace index
 * keeps the English name; it is put into the language where it is shown (treeLabels.ts).
 *
 * @example untitledPaperName(3, 'en')    // '(untitled paper 3)'
 * @example untitledPaperName(3, 'zh-cn') // '（无题论文 3）'
 */
export function untitledPaperName(number: number, language: MessageLanguage = 'en'): string {
  return language === 'zh-cn' ? `（无题论文 ${number}）` : `(untitled paper ${number})`;
}

/**
 * The number of an untitled paper from its English name (`untitledPaperName`), else undefined.
 *
 * @example untitledPaperNumber('(untitled paper 3)') // 3
 */
export function untitledPaperNumber(name: string): number | undefined {
  const match = /^\(untitled paper (\d+)\)$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * The key under which two English titles count as the same paper: Unicode-compatibility folded
 * (full-width letters become ASCII), lower-cased, runs of white space collapsed to one space,
 * trimmed. The workspace index and the duplicate diagnostics both use it, so that they agree on
 * what a duplicate is. An empty key means the paper has no title to compare.
 *
 * @example
 * titleKey('  Sparse  Probes for ARITHMETIC Circuits ') // 'sparse probes for arithmetic circuits'
 */
export function titleKey(title: string): string {
  return outsideReservedKeys(foldedKey(title));
}

/**
 * A text compatibility-folded, lower-cased, white space collapsed and trimmed: `titleKey` without
 * keeping apart the keys of untitled papers (names are compared by it, `termKey`).
 *
 * @example foldedKey(' Kyoto  UNIVERSITY') // 'kyoto university'
 */
export function foldedKey(text: string): string {
  // Printable ASCII, single spaces, none at the ends: only the case to fold. ASCII is its own
  // NFKC form: normalising it is the most of the time otherwise.
  return isPlainAscii(text) ? text.toLowerCase() : (ASCII_ONLY.test(text) ? text : text.normalize('NFKC')).toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A key kept apart from the keys of papers without an English title (`zh:…`, `untitled:…`): a
 * title that starts so (`zh:思维链`) gets `en:` before it, and so does one that starts with `en:`,
 * so that no two titles share a key.
 */
function outsideReservedKeys(key: string): string {
  const c = key.charCodeAt(0);
  if ((c === 0x7a || c === 0x75 || c === 0x65) && (key.startsWith('zh:') || key.startsWith('untitled:') || key.startsWith('en:'))) {
    return 'en:' + key;
  }
  return key;
}

const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/** Whether a text is printable ASCII with single spaces between words and none at its ends. */
function isPlainAscii(text: string): boolean {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (i === 0 || i === last || text.charCodeAt(i + 1) === 0x20) return false;
    } else if (c < 0x21 || c > 0x7e) {
      return false;
    }
  }
  return true;
}

/** The title keys of entries, kept with the entry objects (an edit elsewhere keeps an entry). */
const TITLE_KEYS = new WeakMap<Entry, string>();

/**
 * `titleKey` of an entry's English title ('' without one), as a copy that holds no reference to
 * the document's text (keptStrings.ts). With `remember` (the default) it is kept with the entry,
 * so that the duplicate diagnostics and the index summary of an open document work it out once
 * per entry; without, a key kept before is still used.
 *
 * @example entryTitleKey(entry) // 'sparse probes for arithmetic circuits'
 */
export function entryTitleKey(entry: Entry, remember = true): string {
  let key = TITLE_KEYS.get(entry);
  if (key === undefined) {
    key = keep(titleKey(entry.englishTitle?.value.text ?? ''));
    if (remember) TITLE_KEYS.set(entry, key);
  }
  return key;
}

/**
 * The first line of an entry, read without making its range.
 *
 * @example entryLine(doc.entries[0]) // 2
 */
export function entryLine(entry: Entry): number {
  return entry instanceof EntryNode ? entry.line : entry.range.start.line;
}

/**
 * Whether an entry spans `range`. The parser's entries are read without making their range:
 * after a keystroke this is asked of every paper (by the outline and by the index), and 10,000
 * ranges made only to be compared are a few milliseconds of allocation and of collection.
 *
 * @example
 * entrySpans(entry, cachedSymbol.range) // true while the entry has not moved or changed length
 */
export function entrySpans(entry: Entry, range: Range): boolean {
  return entrySpansAt(entry, range.start.line, range.start.character, range.end.line, range.end.character);
}

/** `entrySpans` of the range from line `startLine`, character `startCharacter` to `endLine`, `endCharacter`. */
export function entrySpansAt(entry: Entry, startLine: number, startCharacter: number, endLine: number, endCharacter: number): boolean {
  if (entry instanceof EntryNode) {
    const line = entry.line;
    return startLine === line && endLine === line + entry.lastRel && endCharacter === entry.lastEnd && startCharacter === (line === 0 && entry.src.bom ? 1 : 0);
  }
  const other = entry.range;
  return startLine === other.start.line && startCharacter === other.start.character && endLine === other.end.line && endCharacter === other.end.character;
}
