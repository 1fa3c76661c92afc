/**
 * Roll-ups: the papers of one ISO week or month, by topic, as one digest file (the entries
 * copied as they stand in their digests, so the roll-up checks as cleanly as its sources) or as
 * a bilingual Markdown reading list. A paper repeated by several digests of the period is taken
 * once, at the place it first appears, from its cleanest copy (`cleanestCopy`): a roll-up made
 * from a copy with a missing Chinese title or half-width punctuation, when a later digest has it
 * right, would carry the mistake on.
 */
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { parseDigest } from '../parser';
import { computeDiagnostics } from './diagnostics';
import { digestDateOf, isoWeekOf, monthOf } from '../digestDates';
import { groupKey } from '../paperFilter';
import { escapeMarkdown, isBlank } from '../text';
import type { FileSummary, PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import { paperIdentity } from './tree';

export type RollupFormat = 'digest' | 'markdown';

export interface Rollup {
  /** The roll-up's text; empty when the period has no papers. */
  readonly text: string;
  /** Distinct papers in it. */
  readonly paperCount: number;
  /** Papers whose text could not be had (their file unreadable now): left out of a digest roll-up. */
  readonly missing: number;
}

/** Whether a period is an ISO week (`2026-W18`) or a month (`2026-05`). */
export function periodKind(period: string): 'week' | 'month' | undefined {
  return /^\d{4}-W\d{2}$/.test(period) ? 'week' : /^\d{4}-\d{2}$/.test(period) ? 'month' : undefined;
}

/**
 * The roll-up of a period. `textOf` gives a file's current text (the open document's, else the
 * file's on disk), for the digest format, which copies entries as they are. With `uri`, only that
 * digest's papers (the statistics of one digest).
 *
 * @example
 * rollup(index, '2026-W18', 'digest', (uri) => documents.get(uri)?.getText() ?? readFile(uri)).text
 * // '大模型推理能力 · 2026-W18\n\nSparse Probes …\n\n小型Transformer…\n\n…'
 */
export function rollup(index: WorkspaceIndex, period: string, format: RollupFormat, textOf: (uri: string) => string | undefined, token: Cancellation = NEVER_CANCELLED, uri?: string): Rollup {
  const kind = periodKind(period);
  if (!kind) {
    return { text: '', paperCount: 0, missing: 0 };
  }
  const periodOf = kind === 'week' ? isoWeekOf : monthOf;
  const files = index
    .files()
    .map((file) => ({ file, date: digestDateOf(file.uri) }))
    .filter((each): each is { file: FileSummary; date: string } => each.date !== undefined && periodOf(each.date) === period && (uri === undefined || each.file.uri === uri))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.file.uri < b.file.uri ? -1 : 1));

  // Each paper's copies, in the order they appear (one paper once, a paper with a Chinese title
  // only too, as it is counted everywhere).
  const copies = new Map<string, PaperSummary[]>();
  const headings = new Map<string, number>();
  for (const { file } of files) {
    if (file.heading) {
      headings.set(file.heading, (headings.get(file.heading) ?? 0) + 1);
    }
    for (const paper of file.papers) {
      const id = paperIdentity(paper);
      const each = copies.get(id);
      if (each) each.push(paper);
      else copies.set(id, [paper]);
    }
  }
  // Papers by topic (their chosen copy's), first appearance first; topics by size.
  const lines = linesOfFiles(textOf);
  const byTopic = new Map<string, { label: string; papers: PaperSummary[] }>();
  for (const each of copies.values()) {
    if (token.isCancellationRequested) {
      return { text: '', paperCount: 0, missing: 0 };
    }
    const paper = cleanestCopy(each, format === 'digest' ? lines : undefined);
    const key = groupKey(paper.topic);
    let topic = byTopic.get(key);
    if (!topic) {
      topic = { label: paper.topic.trim(), papers: [] };
      byTopic.set(key, topic);
    }
    topic.papers.push(paper);
  }
  const taken = copies;
  if (taken.size === 0 || token.isCancellationRequested) {
    return { text: '', paperCount: 0, missing: 0 };
  }
  const topics = [...byTopic.values()].sort((a, b) => b.papers.length - a.papers.length || (a.label < b.label ? -1 : 1));
  const heading = rollupHeading(headings);
  return format === 'digest' ? digestRollup(`${heading} · ${period}`, topics, lines) : markdownRollup(`${heading} · ${period}`, topics, taken.size);
}

/**
 * The heading of a roll-up: its digests' headings, the most used first (ties in the order first
 * seen), joined with 、, at most three and 等 after them when there are more (a week of two
 * subjects was headed by one of them); `论文摘要` when none has one.
 *
 * @example rollupHeading(new Map([['大模型推理能力', 5], ['多智能体', 1]])) // '大模型推理能力、多智能体'
 */
function rollupHeading(headings: ReadonlyMap<string, number>): string {
  const ranked = [...headings.entries()].sort((a, b) => b[1] - a[1]).map(([heading]) => heading.trim()).filter((heading, i, all) => heading.length > 0 && all.indexOf(heading) === i);
  if (ranked.length === 0) {
    return '论文摘要';
  }
  return ranked.slice(0, MAX_HEADINGS).join('、') + (ranked.length > MAX_HEADINGS ? '等' : '');
}

/** At most this many digests' headings head a roll-up. */
const MAX_HEADINGS = 3;

/** A file's lines by its URI, each file read once (undefined: it cannot be read now). */
type LinesOf = (uri: string) => string[] | undefined;

function linesOfFiles(textOf: (uri: string) => string | undefined): LinesOf {
  const lines = new Map<string, string[] | undefined>();
  return (uri) => {
    if (!lines.has(uri)) {
      lines.set(uri, textOf(uri)?.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/));
    }
    return lines.get(uri);
  };
}

/** The lines of a paper's entry as they stand in its file now; undefined when they cannot be had. */
function entryLines(paper: PaperSummary, linesOf: LinesOf): string[] | undefined {
  const entry = linesOf(paper.uri)?.slice(paper.range.start.line, paper.range.end.line + 1);
  return entry && !entry.every(isBlank) ? entry : undefined;
}

/** A copy's problems when its entry is checked alone: errors, then warnings, then the rest (compared in that order). */
type ProblemCounts = readonly [errors: number, warnings: number, others: number];

/** No text to copy: after every copy that has one. */
const UNREADABLE: ProblemCounts = [Infinity, Infinity, Infinity];

/** Whether a copy's problems are fewer: fewer errors, else fewer warnings, else fewer of the rest. */
function fewer(a: ProblemCounts, b: ProblemCounts): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
}

/**
 * The copy of a paper a roll-up takes. With the files' lines (a digest roll-up, which copies the
 * entry's text): a copy whose text can be had before one whose cannot, then the one with the
 * fewest problems when its entry is checked alone (errors before warnings); without them (the
 * Markdown list, made from what the index holds): the one with the most of its fields given.
 * Ties go to the first copy.
 *
 * @example
 * cleanestCopy([copyWithHalfWidthColon, cleanCopy], linesOf) // cleanCopy
 */
export function cleanestCopy(copies: readonly PaperSummary[], linesOf?: LinesOf): PaperSummary {
  if (copies.length === 1) {
    return copies[0];
  }
  let best = copies[0];
  if (!linesOf) {
    let most = -1;
    for (const copy of copies) {
      const given = fieldsGiven(copy);
      if (given > most) {
        best = copy;
        most = given;
      }
    }
    return best;
  }
  // Copies written alike (the common case) are checked once.
  const known = new Map<string, ProblemCounts>();
  let bestCounts: ProblemCounts | undefined;
  for (const copy of copies) {
    const counts = problemCounts(copy, linesOf, known);
    if (bestCounts === undefined || fewer(counts, bestCounts)) {
      best = copy;
      bestCounts = counts;
    }
  }
  return best;
}

/** The problems of a copy's entry checked alone (under a heading); `UNREADABLE` when its text cannot be had. */
function problemCounts(paper: PaperSummary, linesOf: LinesOf, known: Map<string, ProblemCounts>): ProblemCounts {
  const entry = entryLines(paper, linesOf);
  if (!entry) {
    return UNREADABLE;
  }
  const text = `摘要集\n\n${entry.join('\n')}\n`;
  let counts = known.get(text);
  if (counts === undefined) {
    let errors = 0;
    let warnings = 0;
    let others = 0;
    for (const problem of computeDiagnostics(parseDigest(text))) {
      if (problem.severity === DiagnosticSeverity.Error) errors++;
      else if (problem.severity === DiagnosticSeverity.Warning || problem.severity === undefined) warnings++;
      else others++;
    }
    counts = [errors, warnings, others];
    known.set(text, counts);
  }
  return counts;
}

/** How many of an entry's fields a copy gives (the Markdown list shows them). */
function fieldsGiven(paper: PaperSummary): number {
  return [paper.englishTitle, paper.chineseTitle, paper.topic, paper.summary, paper.comments, paper.journalRef].filter((text) => text.trim().length > 0).length + [paper.authors, paper.institutions, paper.categories, paper.hits].filter((list) => list.length > 0).length;
}

function digestRollup(heading: string, topics: readonly { papers: readonly PaperSummary[] }[], linesOf: LinesOf): Rollup {
  const paragraphs = [heading];
  let count = 0;
  let missing = 0;
  for (const topic of topics) {
    for (const paper of topic.papers) {
      const entry = entryLines(paper, linesOf);
      if (!entry) {
        missing++;
        continue;
      }
      count++;
      // One paragraph per run of non-blank lines, as in the source.
      let paragraph: string[] = [];
      for (const line of [...entry, '']) {
        if (isBlank(line)) {
          if (paragraph.length > 0) {
            paragraphs.push(paragraph.join('\n'));
          }
          paragraph = [];
        } else {
          paragraph.push(line);
        }
      }
    }
  }
  return { text: paragraphs.join('\n\n') + '\n', paperCount: count, missing };
}

function markdownRollup(heading: string, topics: readonly { label: string; papers: readonly PaperSummary[] }[], paperCount: number): Rollup {
  const out = [`# ${escapeMarkdown(heading)}`, '', `${paperCount} ${paperCount === 1 ? 'paper' : 'papers'} · ${paperCount} 篇论文`];
  for (const topic of topics) {
    out.push('', `## ${escapeMarkdown(topic.label || '(no topic) 无专题')} (${topic.papers.length})`);
    for (const paper of topic.papers) {
      out.push('', `### ${escapeMarkdown(paper.englishTitle || paper.title)}`);
      if (paper.chineseTitle && paper.chineseTitle !== paper.title) {
        out.push('', escapeMarkdown(paper.chineseTitle));
      }
      const items: string[] = [];
      if (paper.authors.length > 0) {
        items.push(`- Authors 作者: ${escapeMarkdown(paper.authors.join(', '))}`);
      }
      if (paper.institutions.length > 0) {
        const names = paper.institutions.map((each) => (each.translation ? `${each.name} (${each.translation})` : each.name));
        items.push(`- Institutions 机构: ${escapeMarkdown(names.join('; '))}`);
      }
      if (paper.categories.length > 0) {
        items.push(`- Categories 分类: ${escapeMarkdown(paper.categories.join(', '))}`);
      }
      if (paper.summary) {
        items.push(`- AI总结: ${escapeMarkdown(paper.summary)}`);
      }
      // As the Markdown export writes them (its venue, its code's address).
      if (paper.comments.trim()) {
        items.push(`- Comments · 备注: ${escapeMarkdown(paper.comments)}`);
      }
      if (paper.journalRef.trim()) {
        items.push(`- Journal ref · 期刊引用: ${escapeMarkdown(paper.journalRef)}`);
      }
      if (items.length > 0) {
        out.push('', ...items);
      }
    }
  }
  return { text: out.join('\n') + '\n', paperCount, missing: 0 };
}
