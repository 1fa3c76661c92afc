/**
 * Export of papers in the formats of `paperDigest/exportPapers` and `paper-digest papers
 * --format`.
 */
import type { ExportRecord } from '../exportRecord';
import { toBibtex } from './bibtex';
import { toCslJson } from './csljson';
import { toCsv } from './csv';
import { toMarkdown } from './markdown';
import { toRis } from './ris';

export type ExportFormat = 'bibtex' | 'csljson' | 'ris' | 'csv' | 'markdown';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['bibtex', 'csljson', 'ris', 'csv', 'markdown'];

/**
 * The export of the records in a format; `fileOf` shows a record's file (CSV's `file` column).
 *
 * @example
 * exportPapers('bibtex', records)
 */
export function exportPapers(format: ExportFormat, records: readonly ExportRecord[], fileOf?: (uri: string) => string): string {
  switch (format) {
    case 'bibtex':
      return toBibtex(records);
    case 'csljson':
      return toCslJson(records);
    case 'ris':
      return toRis(records);
    case 'csv':
      return toCsv(records, fileOf);
    case 'markdown':
      return toMarkdown(records);
  }
}
