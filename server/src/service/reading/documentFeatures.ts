/**
 * The reading workflow in a document: the CodeLenses above each title (*Star · Mark read ·
 * Open on arXiv · Copy BibTeX*), the state of each paper for title-line decorations, and the
 * reading part of the hover on a title.
 */
import type { CodeLens, Position } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { escapeMarkdown } from '../text';
import type { PaperSummary } from '../workspaceIndex';
import type { ModelLookup } from './model';
import type { PaperReadingInfo } from './paperInfo';

/** The client commands of the lenses (`PAPER_COMMANDS` in the protocol). */
export const LENS_COMMANDS = {
  star: 'paperDigest.star',
  unstar: 'paperDigest.unstar',
  markRead: 'paperDigest.markRead',
  markUnread: 'paperDigest.markUnread',
  openOnArxiv: 'paperDigest.openOnArxiv',
  copyBibtex: 'paperDigest.copyBibtex',
} as const;

/** At most this many papers of a document get lenses (a huge digest would drown the editor). */
export const MAX_LENS_PAPERS = 5000;

/**
 * The lenses of a document's papers, four per title, on the title's line.
 *
 * @example
 * codeLenses(lookup, 'file:///w/2026-05-01.digest')[0].command // { title: '☆ Star', command: 'paperDigest.star', arguments: [{ uri, paperKey }] }
 */
export function codeLenses(lookup: ModelLookup, uri: string, token: Cancellation = NEVER_CANCELLED): CodeLens[] {
  const papers = lookup.index.file(uri)?.papers ?? [];
  const lenses: CodeLens[] = [];
  for (const paper of papers.slice(0, MAX_LENS_PAPERS)) {
    if (token.isCancellationRequested) {
      return [];
    }
    const info = lookup.info(paper);
    const start = paper.selectionRange.start;
    const range = { start, end: start };
    const argument = { uri, paperKey: info.paperKey };
    lenses.push(
      { range, command: info.starred ? { title: '★ Unstar', command: LENS_COMMANDS.unstar, arguments: [argument] } : { title: '☆ Star', command: LENS_COMMANDS.star, arguments: [argument] } },
      { range, command: info.read ? { title: 'Mark unread', command: LENS_COMMANDS.markUnread, arguments: [argument] } : { title: 'Mark read', command: LENS_COMMANDS.markRead, arguments: [argument] } },
      { range, command: { title: 'Open on arXiv', command: LENS_COMMANDS.openOnArxiv, arguments: [{ ...argument, url: info.arxivSearchUrl }] } },
      { range, command: { title: 'Copy BibTeX', command: LENS_COMMANDS.copyBibtex, arguments: [argument] } },
    );
  }
  return lenses;
}

/** The state of each paper of a document, for decorations (`DocumentPaper` in the protocol). */
export function documentPapers(lookup: ModelLookup, uri: string): { paperKey: string; line: number; range: PaperSummary['selectionRange']; read: boolean; starred: boolean; tags: readonly string[]; isNew: boolean; score: number }[] {
  return (lookup.index.file(uri)?.papers ?? []).map((paper) => {
    const info = lookup.info(paper);
    return { paperKey: info.paperKey, line: paper.selectionRange.start.line, range: paper.selectionRange, read: info.read, starred: info.starred, tags: info.tags, isNew: info.isNew, score: info.score };
  });
}

/** The paper whose title line holds the position, if any. */
export function paperOnTitleLine(lookup: ModelLookup, uri: string, position: Position): PaperSummary | undefined {
  const paper = lookup.index.paperAt(uri, position);
  return paper && paper.selectionRange.start.line === position.line ? paper : undefined;
}

/**
 * The reading part of a title's hover, as Markdown: state, tags, note, score and reasons, and
 * where a repeat was first seen. User and document text is escaped.
 *
 * @example
 * readingHover(info, (uri) => 'digests/2026-05-01.digest')
 * // '**Score 3** · 推荐分\n\n- keyword \\'reasoning\\' in the title ×2 ...\n\nUnread · 未读 · ☆ not starred ...'
 */
export function readingHover(info: PaperReadingInfo, fileLabel: (uri: string) => string = (uri) => uri): string {
  const parts: string[] = [];
  const state = [info.read ? 'Read · 已读' : 'Unread · 未读', info.starred ? '★ Starred · 已加星标' : '☆ Not starred · 未加星标', info.isNew ? 'New · 新' : 'Repeat · 重复'];
  parts.push(state.join(' · '));
  if (!info.isNew && info.firstSeen) {
    parts.push(`First seen in ${escapeMarkdown(fileLabel(info.firstSeen.uri))}:${info.firstSeen.range.start.line + 1} · 首次出现`);
  }
  if (info.tags.length > 0) {
    parts.push(`Tags · 标签: ${info.tags.map((tag) => `\`${tag.replace(/`/g, "'")}\``).join(', ')}`);
  }
  if (info.note) {
    parts.push(`Note · 笔记: ${escapeMarkdown(info.note)}`);
  }
  parts.push(`**Score ${info.score}** · 兴趣分${info.reasons.length > 0 ? '' : ' (no interest matched · 无匹配)'}`);
  if (info.reasons.length > 0) {
    parts.push(info.reasons.map((reason) => `- ${escapeMarkdown(reason)}`).join('\n'));
  }
  return parts.join('\n\n');
}
