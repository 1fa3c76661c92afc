/**
 * Lookups over the model shared by the features: which entry or field is at a position, and the
 * name a paper goes by.
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { DigestDocument, Entry, Field } from '../model';

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
 * The name a paper goes by: its English title, else its Chinese title, else its position.
 * Never empty.
 *
 * @example
 * paperName(entry) // 'Sparse Probes for Arithmetic Circuits in Small Transformers'
 */
export function paperName(entry: Entry): string {
  const title = entry.englishTitle?.value.text || entry.chineseTitle?.value.text;
  return title && title.trim().length > 0 ? title : `(untitled paper ${entry.index + 1})`;
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
  // ASCII is its own NFKC form: normalising it is the most of the time otherwise.
  return (ASCII_ONLY.test(title) ? title : title.normalize('NFKC')).toLowerCase().replace(/\s+/g, ' ').trim();
}

const ASCII_ONLY = /^[\u0000-\u007f]*$/;
