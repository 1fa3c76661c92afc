/**
 * What an export knows of a paper: only what the digest and the reader's state say. Nothing
 * is invented — no DOI, no arXiv id unless the entry's Comments clearly name the paper's own
 * (see `ownArxivId`), no year but the one its journal ref or its own arXiv id gives
 * (`paperYear`).
 */
import type { PaperSummary } from '../workspaceIndex';
import type { ModelLookup } from './model';
import type { KeySource } from './export/bibtex';
import { paperKeyOf } from './paperInfo';
import { categoryKey } from '../paperFilter';

/** One paper as the exporters see it. */
export interface ExportRecord {
  readonly paperKey: string;
  readonly title: string;
  readonly titleZh: string;
  /** The authors the digest names (an `et al.` is not one: see `moreAuthors`). */
  readonly authors: readonly string[];
  /** Whether the author line ends with `et al.` (or `others`, `等人`): more authors than it names. */
  readonly moreAuthors?: boolean;
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
 * The arXiv id the Comments give as the paper's own: only where a clause begins with words that
 * name the paper ("this paper", "this work", "our paper", "this version", "本文", "本论文") and
 * says it *is* that id ("is", "=", ":", "is available as", "即", "为", "是"; after "this …" also
 * the id straight after them, bracketed or not). Any other words between them name another paper
 * ("this work extends arXiv:…", "本文扩展了 arXiv:…"), and so do words before them ("an extended
 * version of this paper is arXiv:…", "companion to this paper: arXiv:…", "as shown in our paper
 * arXiv:…"); a bare `arXiv:…` in the Comments usually cites one: none of these is used.
 *
 * Each place is tried on a few dozen characters around it: no pattern runs over a long text from
 * every position (a line of spaces took seconds).
 *
 * @example
 * ownArxivId('This paper is arXiv:2401.01234v2; extends arXiv:2310.00001') // '2401.01234v2'
 * ownArxivId('This work extends arXiv:2310.00001')                        // undefined
 */
export function ownArxivId(comments: string): string | undefined {
  OWN_SUBJECT.lastIndex = 0;
  let tried = 0;
  for (let subject = OWN_SUBJECT.exec(comments); subject !== null && tried < MAX_OWN_SUBJECTS; subject = OWN_SUBJECT.exec(comments), tried++) {
    if (!startsClause(comments, subject.index)) continue;
    const after = comments.slice(subject.index + subject[0].length, subject.index + subject[0].length + 80);
    const id = (subject[1] !== undefined && subject[1].toLowerCase() === 'our' ? OWN_ID_SAID : OWN_ID).exec(after);
    if (id) return id[1];
  }
  return undefined;
}

/** Whether a clause begins at `at`: nothing before it but white space after a mark that ends one, or the text's start. */
function startsClause(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isWhiteSpace(text.charCodeAt(i))) i--;
  return i < 0 || CLAUSE_END.test(text[i]);
}

function isWhiteSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x3000 || code === 0xa0 || (code >= 0x0a && code <= 0x0d);
}

/** Words naming the paper itself (group 1: `this` or `our`). */
const OWN_SUBJECT = /\b(this|our)[ \t]{1,3}(?:paper|work|article|preprint|version|submission)\b|本文|本论文/giu;
/** Places tried in one Comments text (a hostile one may repeat the words thousands of times). */
const MAX_OWN_SUBJECTS = 20;
/** A mark a clause begins after. */
const CLAUSE_END = /[.;；。,，(（:：!?！？]/u;
/** Words saying the paper is what follows ("is", "=", ":", "is available as", "即", …). */
const COPULA = String.raw`(?:is|=|:|：|即|为|是)(?:\s{1,3}(?:also|now))?(?:\s{1,3}(?:(?:available|published)\s{1,3})?(?:as|at|on))?`;
/** An arXiv id, bracketed or not (group 1: the id). */
const ARXIV_ID = String.raw`\s{0,3}[(（]?\s{0,3}arxiv\s{0,3}[:：]?\s{0,3}(\d{4}\.\d{4,5}(?:v\d+)?)(?!\d|\.\d)`;
/** What follows the words: that it is the id, then the id. */
const OWN_ID_SAID = new RegExp(String.raw`^\s{0,3}${COPULA}${ARXIV_ID}`, 'iu');
/** The same, or the id straight after the words ("this paper (arXiv:…)", "本文 arXiv:…"). */
const OWN_ID = new RegExp(String.raw`^(?:\s{0,3}${COPULA})?${ARXIV_ID}`, 'iu');

/**
 * The year a paper was published, as far as its entry says: the one year its journal ref names
 * (a venue's year; none when it names two, nor a number that is part of a range such as pages
 * `2001-2010` or `2001 - 2010`, of an arXiv id, or said to be a volume or page), else the year of its own arXiv id (`2401.01234` was submitted in January 2024).
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
  // range (`2001-2010`, `2001 – 2010`), nor one a volume, issue or page number is said to be (`vol. 2019`).
  for (const match of journalRef.matchAll(/(?<![\d.\-\u2010-\u2015/:])(?<!\d\s{0,3}[\-\u2010-\u2015]\s{1,3})(?<!\b(?:vol|volume|no|nos|num|number|issue|pp|p|pages?|art|article)\.?\s*)(?:19|20)\d\d(?![\d\-\u2010-\u2015/]|\.\d|\s{1,3}[\-\u2010-\u2015]\s{0,3}\d)/giu)) {
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
  const authors = namedAuthors(paper.authors);
  return {
    paperKey: info.paperKey,
    title: exportTitle(paper),
    titleZh: paper.chineseTitle,
    authors: authors.names,
    ...(authors.more ? { moreAuthors: true } : {}),
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

/** The title a paper is exported by: its English title, else the one it has. */
function exportTitle(paper: PaperSummary): string {
  return paper.englishTitle || paper.title;
}

/**
 * What a paper's cite key is made of, as its export record has it, without making the record:
 * for the keys of an export written a record at a time (`exportChunks`' `keySources`).
 */
export function keySourceOf(paper: PaperSummary): KeySource {
  return { authors: namedAuthors(paper.authors).names, title: exportTitle(paper), paperKey: paperKeyOf(paper) };
}

/**
 * The authors an author line names, and whether it says there are more: `et al.` (alone, or at
 * the end of the last name), `others`, `等` or `等人` (alone, or after a Chinese name) is no
 * author (BibTeX would read `et al.` as a person whose family name is `al.`; a reference list
 * would print it as a name).
 *
 * @example namedAuthors(['Mei Tanaka', 'Lin Qiu et al.']) // { names: ['Mei Tanaka', 'Lin Qiu'], more: true }
 * @example namedAuthors(['张三', '李四等'])                 // { names: ['张三', '李四'], more: true }
 */
export function namedAuthors(authors: readonly string[]): { names: readonly string[]; more: boolean } {
  let more = false;
  const names: string[] = [];
  for (const author of authors) {
    const trimmed = author.trim();
    // Short texts only: each pattern runs on a few dozen characters, never over a long name.
    if (trimmed.length <= 16 && NOT_A_NAME.test(trimmed)) {
      more = true;
      continue;
    }
    const tail = trimmed.slice(-16);
    const suffix = ET_AL_AFTER.exec(tail);
    const named = suffix ? withoutTrailingSeparators(trimmed.slice(0, trimmed.length - tail.length + suffix.index)) : author;
    if (suffix) more = true;
    if (named.length > 0) names.push(named);
  }
  return more ? { names, more } : { names: authors, more };
}

const NOT_A_NAME = /^(?:and\s+)?(?:et(?:\.\s*|\s+)al(?:ii|\.)?|others|等人?)$/iu;
/** `et al.` after a name, or `等` / `等人` after a Chinese character. */
const ET_AL_AFTER = /(?:[\s,]et(?:\.\s*|\s+)al(?:ii|\.)?|(?<=[\u3400-\u9fff])\s?等人?)$/iu;
/** A name without the white space and commas left between it and its `et al.`. */
function withoutTrailingSeparators(name: string): string {
  let end = name.length;
  while (end > 0 && (isWhiteSpace(name.charCodeAt(end - 1)) || ',，、'.includes(name[end - 1]))) end--;
  return name.slice(0, end);
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
