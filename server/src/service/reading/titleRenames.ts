/**
 * Papers whose title was corrected in a file: the reading state is keyed by the English title
 * (`paperKeyOf`), so a title written again (`Retrival` → `Retrieval`, or an English title given
 * to a paper that had a Chinese one only) would leave the paper's star, tags and note under the
 * old key, the paper shown unread. Between two versions of one file, a paper whose key went and
 * one whose key came are the same paper when everything else says so: the same authors (some),
 * and the same Chinese title or the same summary (not empty). A digest written over with the
 * next day's papers has papers of the same authors now and then, never with the same summary
 * or Chinese title as well; a pair that is not the only one of its kind on either side is left
 * alone (two corrected papers of one author list and summary cannot be told apart).
 */
import type { PaperSummary } from '../workspaceIndex';
import { paperKeyOf } from './paperInfo';

/** A paper of a file whose key changed from one version of the file to the next. */
export interface TitleRename {
  readonly from: string;
  readonly to: string;
  /** The paper's English title now (the state file records it beside the key). */
  readonly title: string;
}

/** At most this many papers gone (or come) between two versions are matched: more is another file. */
const MAX_CHANGED = 1_000;

/**
 * The papers of `after` that are papers of `before` under another key.
 *
 * @example
 * titleRenames([retrival], [retrieval]) // [{ from: 'retrival-augmented …', to: 'retrieval-augmented …', title: 'Retrieval-Augmented …' }]
 */
export function titleRenames(before: readonly PaperSummary[], after: readonly PaperSummary[]): TitleRename[] {
  // Most changes (a keystroke in a summary) keep every paper's key in its place.
  if (before.length === after.length && before.every((paper, i) => paper === after[i] || paperKeyOf(paper) === paperKeyOf(after[i]))) {
    return [];
  }
  const beforeKeys = new Set(before.map(paperKeyOf));
  const afterKeys = new Set(after.map(paperKeyOf));
  const gone = before.filter((paper) => !afterKeys.has(paperKeyOf(paper)) && identifiable(paper));
  const come = after.filter((paper) => !beforeKeys.has(paperKeyOf(paper)) && identifiable(paper));
  if (gone.length === 0 || come.length === 0 || gone.length > MAX_CHANGED || come.length > MAX_CHANGED) {
    return [];
  }
  const comeByAuthors = byAuthors(come);
  const goneByAuthors = byAuthors(gone);
  const renames: TitleRename[] = [];
  for (const old of gone) {
    const authors = authorsOf(old);
    const candidates = (comeByAuthors.get(authors) ?? []).filter((paper) => sameContent(old, paper));
    if (candidates.length !== 1) continue;
    const [now] = candidates;
    // The other way too: one paper gone for the one come.
    if ((goneByAuthors.get(authors) ?? []).filter((paper) => sameContent(paper, now)).length !== 1) continue;
    renames.push({ from: paperKeyOf(old), to: paperKeyOf(now), title: now.englishTitle || now.title });
  }
  return renames;
}

/** A paper told by its content: one with authors, not an untitled one (keyed by its place). */
function identifiable(paper: PaperSummary): boolean {
  return paper.authors.length > 0 && !paperKeyOf(paper).startsWith('untitled:');
}

/** Papers by their author list. */
function byAuthors(papers: readonly PaperSummary[]): Map<string, PaperSummary[]> {
  const groups = new Map<string, PaperSummary[]>();
  for (const paper of papers) {
    const authors = authorsOf(paper);
    const list = groups.get(authors);
    if (list) list.push(paper);
    else groups.set(authors, [paper]);
  }
  return groups;
}

function authorsOf(paper: PaperSummary): string {
  return paper.authors.join('\n');
}

function sameContent(a: PaperSummary, b: PaperSummary): boolean {
  return (a.chineseTitle.trim() !== '' && a.chineseTitle.trim() === b.chineseTitle.trim()) || (a.summary.trim() !== '' && a.summary.trim() === b.summary.trim());
}
