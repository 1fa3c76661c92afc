/**
 * The index's summaries as plain values, read through the `PaperSummary` members as every reader
 * reads them: a paper may keep its content or work it out when first read (an open document's),
 * and two summaries are the same when they say the same, whatever each has worked out so far.
 */
import type { FileSummary, PaperSummary } from '../../server/src/service/workspaceIndex';

/** Every member of `PaperSummary`, in its order. */
const PAPER_MEMBERS: readonly (keyof PaperSummary)[] = [
  'uri',
  'entryIndex',
  'key',
  'range',
  'selectionRange',
  'englishTitle',
  'title',
  'chineseTitle',
  'titleKey',
  'authors',
  'institutions',
  'topic',
  'keywords',
  'categories',
  'summary',
  'hits',
  'authorsZh',
  'comments',
  'journalRef',
  'searchNarrow',
  'searchWide',
];

/** A paper's members as a plain object. */
export function paperValue(paper: PaperSummary): Record<string, unknown> {
  return Object.fromEntries(PAPER_MEMBERS.map((member) => [member, paper[member]]));
}

/** A file's summary as a plain object: its papers read member by member, its names counted. */
export function summaryValue(file: FileSummary | undefined): unknown {
  return file && { uri: file.uri, heading: file.heading, source: file.source, papers: file.papers.map(paperValue), terms: file.terms };
}
