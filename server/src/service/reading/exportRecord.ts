/**
 * What an export knows of a paper: only what the digest and the reader's state say. Nothing
 * is invented — no DOI, no arXiv id unless the entry's Comments clearly name the paper's own
 * (see `ownArxivId`), no year but the one its journal ref or its own arXiv id gives
 * (`paperYear`).
 */
import type { PaperSummary } from '../workspaceIndex';
import type { ModelLookup } from './model';
import { categoryKey } from '../paperFilter';

/** One paper as the exporters see it. */
export interface ExportRecord {
  readonly paperKey: string;
  readonly title: string;
  readonly titleZh: string;
  readonly authors: readonly string[];
  /** Chinese forms of authors, where the `机构` line gives them. */
  readonly authorsZh: readonly { readonly name: string; readonly nameZh: string }[];
  readonly institutions: readonly { readonly name: string; readonly nameZh?: string }[];
  readonly topic: string;
  readonly hits: readonly { readonly keyword: string; readonly field: string }[];
  readonly categories: readonly string[];
  /** The Chinese `AI总结`. */
  readonly summary: string;
  readonly comments: string;
  readonly journalRef: string;
  /** The paper's own arXiv id, e.g. `2401.01234v2`, only when the Comments clearly give it. */
  readonly arxivId?: string;
  /** The year of the paper, only when its journal ref or its own arXiv id gives it (`paperYear`). */
  readonly year?: number;
  readonly read: boolean;
  readonly starred: boolean;
  readonly tags: readonly string[];
  readonly note?: string;
  readonly isNew: boolean;
  readonly score: number;
  readonly reasons: readonly string[];
  readonly uri: string;
  /** One-based line of the title. */
  readonly line: number;
}

/**
 * The arXiv id the Comments give as the paper's own: only after words that say so ("this
 * paper", "this work", "our paper", "this version", "本文", "本论文"), within the same clause.
 * A bare `arXiv:2401.01234` in the Comments usually cites another paper and is not used.
 *
 * @example
 * ownArxivId('This paper is arXiv:2401.01234v2; extends arXiv:2310.00001') // '2401.01234v2'
 * ownArxivId('Extends arXiv:2310.00001')                                  // undefined
 */
export function ownArxivId(comments: string): string | undefined {
  const pattern = /(?:\b(?:this|our)\s+(?:paper|work|article|preprint|version|submission)\b|本文|本论文)[^.;；。,，]{0,40}?\barxiv\s*[:：]?\s*((?:\d{4}\.\d{4,5})(?:v\d+)?)(?!\d|\.\d)/iu;
  const match = pattern.exec(comments);
  return match ? match[1] : undefined;
}

/**
 * The year a paper was published, as far as its entry says: the one year its journal ref names
 * (a venue's year; none when it names two, nor a number that is part of a range such as pages
 * `2001-2010`, of an arXiv id, or said to be a volume or page), else the year of its own arXiv id (`2401.01234` was submitted in January 2024).
 * A year after `latest` (next year, by default) is not one.
 *
 * @example
 * paperYear('Proceedings of an Example Conference, 2026, pp. 1-12', undefined) // 2026
 * paperYear('', '2401.01234v2')                                                // 2024
 * paperYear('Workshop 2025, extended in 2026', undefined)                      // undefined
 */
export function paperYear(journalRef: string, arxivId: string | undefined, latest = new Date().getUTCFullYear() + 1): number | undefined {
  const years = new Set<number>();
  // Not a number within another (`12019`, `51.2019`, the `1906` of `arXiv:1906.01234`), nor in a
  // range (`2001-2010`), nor one a volume, issue or page number is said to be (`vol. 2019`).
  for (const match of journalRef.matchAll(/(?<![\d.\-\u2010-\u2015/:])(?<!\b(?:vol|volume|no|nos|num|number|issue|pp|p|pages?|art|article)\.?\s*)(?:19|20)\d\d(?![\d\-\u2010-\u2015/]|\.\d)/giu)) {
    const year = Number(match[0]);
    if (year >= 1900 && year <= latest) years.add(year);
  }
  if (years.size === 1) {
    return [...years][0];
  }
  if (years.size > 1) {
    return undefined;
  }
  const id = arxivId ? /^(\d\d)(\d\d)\.\d{4,5}/.exec(arxivId) : null;
  if (!id) {
    return undefined;
  }
  // Ids of this form began in April 2007 (0704.0001); the month is 01 to 12.
  const year = 2000 + Number(id[1]);
  const month = Number(id[2]);
  return month >= 1 && month <= 12 && year >= 2007 && year <= latest && (year > 2007 || month >= 4) ? year : undefined;
}

/**
 * The export record of a paper.
 *
 * @example
 * exportRecord(lookup, paper).arxivId
 */
export function exportRecord(lookup: ModelLookup, paper: PaperSummary): ExportRecord {
  const info = lookup.info(paper);
  const arxivId = ownArxivId(paper.comments);
  const year = paperYear(paper.journalRef, arxivId);
  return {
    paperKey: info.paperKey,
    title: paper.englishTitle || paper.title,
    titleZh: paper.chineseTitle,
    authors: paper.authors,
    authorsZh: paper.authorsZh,
    institutions: paper.institutions.map((institution) => (institution.translation ? { name: institution.name, nameZh: institution.translation } : { name: institution.name })),
    topic: paper.topic,
    hits: paper.hits,
    // As arXiv spells them (`CS.lg` is cs.LG), as the checks and the statistics read them.
    categories: paper.categories.map(categoryKey),
    summary: paper.summary,
    comments: paper.comments,
    journalRef: paper.journalRef,
    ...(arxivId ? { arxivId } : {}),
    ...(year !== undefined ? { year } : {}),
    read: info.read,
    starred: info.starred,
    tags: info.tags,
    ...(info.note ? { note: info.note } : {}),
    isNew: info.isNew,
    score: info.score,
    reasons: info.reasons,
    uri: paper.uri,
    line: paper.selectionRange.start.line + 1,
  };
}

/**
 * The Chinese title where a listing shows it besides the title: empty when the paper has no
 * English title, whose title is then the Chinese one (the record's `titleZh` keeps it anyway).
 *
 * @example secondTitle({ title: 'Sparse Probes', titleZh: '稀疏探针' }) // '稀疏探针'
 * @example secondTitle({ title: '稀疏探针', titleZh: '稀疏探针' })      // ''
 */
export function secondTitle(record: Pick<ExportRecord, 'title' | 'titleZh'>): string {
  return record.titleZh === record.title ? '' : record.titleZh;
}

/** Control characters (but tab and newline) removed, line breaks made spaces: for one-line fields. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * `oneLine` without the bidirectional embedding, override and isolate characters, which make
 * exported text read otherwise than it is: the one-line fields of every export. (The command
 * line's own listing shows them escaped instead.)
 */
export function exportLine(text: string): string {
  return withoutBidiControls(oneLine(text));
}

const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** The text without bidirectional embedding, override and isolate characters. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
