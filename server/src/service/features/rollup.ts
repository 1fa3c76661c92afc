/**
 * Roll-ups: the papers of one ISO week or month, by topic, as one digest file (the entries
 * copied as they stand in their digests, so the roll-up checks as cleanly as its sources) or as
 * a bilingual Markdown reading list. A paper repeated by several digests of the period is taken
 * once, from the first digest it appears in.
 */
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
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

  // Papers by topic, first appearance first; topics by size.
  const taken = new Set<string>();
  const byTopic = new Map<string, { label: string; papers: PaperSummary[] }>();
  const headings = new Map<string, number>();
  for (const { file } of files) {
    if (file.heading) {
      headings.set(file.heading, (headings.get(file.heading) ?? 0) + 1);
    }
    for (const paper of file.papers) {
      // One paper once, a paper with a Chinese title only too (as it is counted everywhere).
      const id = paperIdentity(paper);
      if (taken.has(id)) {
        continue;
      }
      taken.add(id);
      const key = groupKey(paper.topic);
      let topic = byTopic.get(key);
      if (!topic) {
        topic = { label: paper.topic.trim(), papers: [] };
        byTopic.set(key, topic);
      }
      topic.papers.push(paper);
    }
  }
  if (taken.size === 0 || token.isCancellationRequested) {
    return { text: '', paperCount: 0, missing: 0 };
  }
  const topics = [...byTopic.values()].sort((a, b) => b.papers.length - a.papers.length || (a.label < b.label ? -1 : 1));
  const heading = [...headings.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '论文摘要';
  return format === 'digest' ? digestRollup(`${heading} · ${period}`, topics, textOf) : markdownRollup(`${heading} · ${period}`, topics, taken.size);
}

function digestRollup(heading: string, topics: readonly { papers: readonly PaperSummary[] }[], textOf: (uri: string) => string | undefined): Rollup {
  const lines = new Map<string, string[] | undefined>();
  const linesOf = (uri: string): string[] | undefined => {
    if (!lines.has(uri)) {
      lines.set(uri, textOf(uri)?.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/));
    }
    return lines.get(uri);
  };
  const paragraphs = [heading];
  let count = 0;
  let missing = 0;
  for (const topic of topics) {
    for (const paper of topic.papers) {
      const text = linesOf(paper.uri);
      const entry = text?.slice(paper.range.start.line, paper.range.end.line + 1);
      if (!entry || entry.every(isBlank)) {
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
      if (items.length > 0) {
        out.push('', ...items);
      }
    }
  }
  return { text: out.join('\n') + '\n', paperCount, missing: 0 };
}
