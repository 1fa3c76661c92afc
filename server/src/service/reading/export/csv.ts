/**
 * CSV export (RFC 4180): a header row, then one row per paper; every field quoted when it
 * holds a comma, quote, CR or LF (quotes doubled); CRLF line ends. A field that a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`.
 */
import type { ExportRecord } from '../exportRecord';

export const CSV_COLUMNS = ['title', 'titleZh', 'authors', 'institutions', 'topic', 'categories', 'summary', 'comments', 'journalRef', 'arxivId', 'read', 'starred', 'tags', 'note', 'new', 'score', 'reasons', 'file', 'line'] as const;

/**
 * One CSV field.
 *
 * @example
 * csvField('=HYPERLINK("x")') // "\"'=HYPERLINK(\"\"x\"\")\""
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * @example
 * toCsv([record], (uri) => 'digests/2026-05-01.digest')
 */
export function toCsv(records: readonly ExportRecord[], fileOf: (uri: string) => string = (uri) => uri): string {
  const rows: string[] = [CSV_COLUMNS.join(',')];
  for (const record of records) {
    const values: Record<(typeof CSV_COLUMNS)[number], string> = {
      title: record.title,
      titleZh: record.titleZh,
      authors: record.authors.join('; '),
      institutions: record.institutions.map((institution) => (institution.nameZh ? `${institution.name} (${institution.nameZh})` : institution.name)).join('; '),
      topic: record.topic,
      categories: record.categories.join(' '),
      summary: record.summary,
      comments: record.comments,
      journalRef: record.journalRef,
      arxivId: record.arxivId ?? '',
      read: String(record.read),
      starred: String(record.starred),
      tags: record.tags.join('; '),
      note: record.note ?? '',
      new: String(record.isNew),
      score: String(record.score),
      reasons: record.reasons.join('; '),
      file: fileOf(record.uri),
      line: String(record.line),
    };
    rows.push(CSV_COLUMNS.map((column) => csvField(values[column])).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}
