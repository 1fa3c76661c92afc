/**
 * CSL-JSON export: an array of items of type `article` with what the digest gives — title,
 * authors as `literal` names (the digest does not say which part is the family name), the
 * Chinese title and journal ref in `note`, categories in `keyword`, and the arXiv id
 * (`number`, `URL`, publisher `arXiv`) only when the Comments clearly give the paper's own.
 * `issued` only when the journal ref or that id gives the year (`paperYear`): no date is invented. Ids are the BibTeX keys, so both exports cite alike.
 */
import type { ExportRecord } from '../exportRecord';
import { exportLine, secondTitle } from '../exportRecord';
import { BibtexKeys, KeySource } from './bibtex';

/** The CSL-JSON items of the papers. */
export function toCslItems(records: readonly ExportRecord[]): Record<string, unknown>[] {
  const keys = new BibtexKeys(records);
  return records.map((record) => cslItem(record, keys.next(record)));
}

function cslItem(record: ExportRecord, key: string): Record<string, unknown> {
  const item: Record<string, unknown> = { id: key, type: 'article', title: exportLine(record.title) };
  if (record.authors.length > 0) {
    item.author = record.authors.map((name) => ({ literal: exportLine(name) }));
  }
  const notes: string[] = [];
  if (secondTitle(record)) notes.push(`Chinese title: ${exportLine(secondTitle(record))}`);
  if (record.journalRef) notes.push(`Journal ref: ${exportLine(record.journalRef)}`);
  if (record.comments) notes.push(`Comments: ${exportLine(record.comments)}`);
  if (notes.length > 0) item.note = notes.join('\n');
  if (record.year !== undefined) item.issued = { 'date-parts': [[record.year]] };
  if (record.categories.length > 0) item.keyword = exportLine(record.categories.join(', '));
  if (record.arxivId) {
    item.number = `arXiv:${record.arxivId}`;
    item.publisher = 'arXiv';
    item.URL = `https://arxiv.org/abs/${record.arxivId}`;
  }
  item['citation-key'] = key;
  return item;
}

/** @example toCslJson([record]) // '[\n  {\n    "id": "tanaka_sparse", ...' */
export function toCslJson(records: readonly ExportRecord[]): string {
  return [...cslJsonChunks(records, records)].join('');
}

/** `toCslJson` an item at a time: the text `JSON.stringify(items, null, 2)` gives, and a line end. */
export function* cslJsonChunks(records: Iterable<ExportRecord>, all?: Iterable<KeySource>): Generator<string, void, undefined> {
  const keys = new BibtexKeys(all);
  yield* jsonArrayChunks(records, (record) => cslItem(record, keys.next(record)));
}

/**
 * The text of `JSON.stringify(items, null, 2) + '\n'`, an item at a time: the array's items are
 * each indented by two more spaces (a line break in a value is written `\n`, so every line of
 * an item's text is its own).
 *
 * @example [...jsonArrayChunks([1, 2], (n) => ({ n }))].join('') === JSON.stringify([{ n: 1 }, { n: 2 }], null, 2) + '\n'
 */
export function* jsonArrayChunks<T>(items: Iterable<T>, json: (item: T) => unknown): Generator<string, void, undefined> {
  let first = true;
  for (const item of items) {
    yield (first ? '[\n  ' : ',\n  ') + JSON.stringify(json(item), null, 2).replace(/\n/g, '\n  ');
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}
