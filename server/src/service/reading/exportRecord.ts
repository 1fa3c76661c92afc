/**
 * What an export knows of a paper: only what the digest and the reader's state say. Nothing
 * is invented — no year, no DOI, no arXiv id unless the entry's Comments clearly name the
 * paper's own (see `ownArxivId`).
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
  const pattern = /(?:\b(?:this|our)\s+(?:paper|work|article|preprint|version|submission)\b|本文|本论文)[^.;；。,，]{0,40}?\barxiv\s*[:：]?\s*((?:\d{4}\.\d{4,5})(?:v\d+)?)(?![\d.])/iu;
  const match = pattern.exec(comments);
  return match ? match[1] : undefined;
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
