/**
 * Export of papers in the formats of `paperDigest/exportPapers` and `paper-digest papers
 * --format`.
 */
import type { ExportRecord } from '../exportRecord';
import { bibtexChunks, KeySource } from './bibtex';
import { cslJsonChunks } from './csljson';
import { csvChunks } from './csv';
import { markdownChunks } from './markdown';
import { risChunks } from './ris';

export type ExportFormat = 'bibtex' | 'csljson' | 'ris' | 'csv' | 'markdown';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['bibtex', 'csljson', 'ris', 'csv', 'markdown'];

/**
 * The export of the records in a format; `fileOf` shows a record's file (CSV's `file` column).
 *
 * @example
 * exportPapers('bibtex', records)
 */
export function exportPapers(format: ExportFormat, records: readonly ExportRecord[], fileOf?: (uri: string) => string): string {
  return [...exportChunks(format, records, records.length, fileOf, records)].join('');
}

/**
 * `exportPapers` a record at a time, for output written as it is made (the command line's
 * export of a year of papers, whose text alone is a hundred megabytes): the records are read
 * once, in order, as the chunks are asked for. `count` is how many there are; `keySources`, what
 * every record's cite key is made of (BibTeX and CSL-JSON), so that keys do not depend on the order.
 *
 * @example
 * for (const chunk of exportChunks('ris', lazyRecords, papers.length)) write(chunk);
 */
export function exportChunks(format: ExportFormat, records: Iterable<ExportRecord>, count: number, fileOf?: (uri: string) => string, keySources?: Iterable<KeySource>): Generator<string, void, undefined> {
  switch (format) {
    case 'bibtex':
      return bibtexChunks(records, keySources);
    case 'csljson':
      return cslJsonChunks(records, keySources);
    case 'ris':
      return risChunks(records);
    case 'csv':
      return csvChunks(records, fileOf);
    case 'markdown':
      return markdownChunks(records, count);
  }
}
