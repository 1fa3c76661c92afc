/**
 * RIS export: `TY  - GEN` per paper with TI (title), T2 nothing, AU per author, N1 notes (the
 * Chinese title, the journal ref, the comments), KW per category and tag, AB nothing (the AI
 * summary is not the abstract: it goes into N1 as well), UR only for the paper's own arXiv id, PY only when the journal ref or that id gives the year
 * (`paperYear`).
 * Each line is one `TAG  - value` line, so values are kept to one line.
 */
import type { ExportRecord } from '../exportRecord';
import { exportLine, secondTitle } from '../exportRecord';

function line(tag: string, value: string): string {
  return `${tag}  - ${exportLine(value)}`;
}

/**
 * @example
 * toRis([record]) // 'TY  - GEN\r\nTI  - Sparse Probes ...\r\n...ER  - \r\n'
 */
export function toRis(records: readonly ExportRecord[]): string {
  return [...risChunks(records)].join('');
}

/** `toRis` a record at a time: each record's lines end with `ER  - `, a blank line between records. */
export function* risChunks(records: Iterable<ExportRecord>): Generator<string, void, undefined> {
  let first = true;
  for (const record of records) {
    const text = risRecord(record);
    yield first ? text : '\r\n' + text;
    first = false;
  }
}

function risRecord(record: ExportRecord): string {
  const out: string[] = ['TY  - GEN', line('TI', record.title)];
  if (secondTitle(record)) out.push(line('TT', secondTitle(record)));
  for (const author of record.authors) out.push(line('AU', author));
  if (record.year !== undefined) out.push(line('PY', String(record.year)));
  for (const institution of record.institutions) out.push(line('AD', institution.nameZh ? `${institution.name} (${institution.nameZh})` : institution.name));
  if (record.journalRef) out.push(line('N1', `Journal ref: ${record.journalRef}`));
  if (record.comments) out.push(line('N1', `Comments: ${record.comments}`));
  if (record.summary) out.push(line('N1', `AI总结: ${record.summary}`));
  if (record.note) out.push(line('N1', `Note: ${record.note}`));
  for (const category of record.categories) out.push(line('KW', category));
  for (const tag of record.tags) out.push(line('KW', tag));
  if (record.arxivId) out.push(line('UR', `https://arxiv.org/abs/${record.arxivId}`), line('M1', `arXiv:${record.arxivId}`));
  out.push('ER  - ', '');
  return out.join('\r\n');
}
