/**
 * CSV export (RFC 4180): a header row, then one row per paper; every field quoted when it
 * holds a comma, quote, CR or LF (quotes doubled); CRLF line ends. A field that a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@` or CR) gets a leading `'`; the score
 * and the line are numbers, never guarded.
 */
import type { ExportRecord } from '../exportRecord';
import { withoutBidiControls } from '../exportRecord';

export const CSV_COLUMNS = ['title', 'titleZh', 'authors', 'institutions', 'topic', 'categories', 'summary', 'comments', 'journalRef', 'arxivId', 'year', 'read', 'starred', 'tags', 'note', 'new', 'score', 'reasons', 'file', 'line'] as const;

/**
 * One CSV field.
 *
 * @example
 * csvField('=HYPERLINK("x")') // "\"'=HYPERLINK(\"\"x\"\")\""
 */
export function csvField(value: string): string {
  // Line breaks stay (a note may have several lines); other control characters become spaces,
  // and bidirectional controls go, as in every export (`exportLine`).
  // eslint-disable-next-line no-control-regex
  const clean = withoutBidiControls(value.replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, ' '));
  const safe = /^[=+\-@\r]/.test(clean) ? `'${clean}` : clean;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The columns of the tool's own numbers: written as they are, never guarded as a formula. */
const NUMBER_COLUMNS: ReadonlySet<string> = new Set(['score', 'line', 'year']);

/**
 * @example
 * toCsv([record], (uri) => 'digests/2026-05-01.digest')
 */
export function toCsv(records: readonly ExportRecord[], fileOf: (uri: string) => string = (uri) => uri): string {
  return [...csvChunks(records, fileOf)].join('');
}

/** `toCsv` a row at a time, each with its CRLF: the header, then one row per record. */
export function* csvChunks(records: Iterable<ExportRecord>, fileOf: (uri: string) => string = (uri) => uri): Generator<string, void, undefined> {
  yield CSV_COLUMNS.join(',') + '\r\n';
  for (const record of records) {
    yield csvRow(record, fileOf) + '\r\n';
  }
}

function csvRow(record: ExportRecord, fileOf: (uri: string) => string): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string> = {
    title: record.title,
    titleZh: record.titleZh,
    authors: [...record.authors, ...(record.moreAuthors ? ['et al.'] : [])].join('; '),
    institutions: record.institutions.map((institution) => (institution.nameZh ? `${institution.name} (${institution.nameZh})` : institution.name)).join('; '),
    topic: record.topic,
    categories: record.categories.join(' '),
    summary: record.summary,
    comments: record.comments,
    journalRef: record.journalRef,
    arxivId: record.arxivId ?? '',
    year: record.year !== undefined ? String(record.year) : '',
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
  return CSV_COLUMNS.map((column) => (NUMBER_COLUMNS.has(column) ? values[column] : csvField(values[column]))).join(',');
}
