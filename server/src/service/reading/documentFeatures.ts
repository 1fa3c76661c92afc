/**
 * The reading workflow in a document: the CodeLenses above each title (*Star · Mark read ·
 * Open on arXiv · Copy BibTeX*), the state of each paper for title-line decorations, and the
 * reading part of the hover on a title.
 */
import type { CodeLens, Position } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { escapeMarkdown, plainLabel } from '../text';
import type { PaperSummary } from '../workspaceIndex';
import type { ModelLookup } from './model';
import type { PaperReadingInfo } from './paperInfo';
import { DEFAULT_MESSAGE_LANGUAGE, Bilingual, MessageLanguage, pick, PUNCTUATION } from '../messages';
import { localizedReasons, READING_WORDS, readingWord } from './readingMessages';

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

/** The paper whose title (on its line, the end included) holds the position, if any. */
export function paperOnTitleLine(lookup: ModelLookup, uri: string, position: Position): PaperSummary | undefined {
  const paper = lookup.index.paperAt(uri, position);
  if (!paper) {
    return undefined;
  }
  // On the title itself (its end included), not past the end of its line.
  const title = paper.selectionRange;
  return title.start.line === position.line && position.character >= title.start.character && position.character <= title.end.character ? paper : undefined;
}

/** The longest tag a hover shows (the state file may hold longer ones another tool wrote). */
const MAX_TAG_SHOWN = 100;

/**
 * The reading part of a title's hover, as Markdown: state, tags, note, score and reasons, and
 * where a repeat was first seen, in the message language (`both`: `Unread · 未读`, as it has
 * always read). User and document text is escaped.
 *
 * @example
 * readingHover(info, (uri) => 'digests/2026-05-01.digest')
 * // 'Unread · 未读 · ☆ Not starred · 未加星标 · New · 新\n\n**Score 3** · 兴趣分\n\n- keyword \\'reasoning\\' in the title, counted double ...'
 * readingHover(info, (uri) => 'digests/2026-05-01.digest', 'zh-cn')
 * // '未读 · ☆ 未加星标 · 新\n\n**兴趣分 3**\n\n- 标题含关键词“reasoning”，计双倍（+2）'
 */
export function readingHover(info: PaperReadingInfo, fileLabel: (uri: string) => string = (uri) => uri, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string {
  const say = (word: Bilingual) => readingWord(word, language);
  const parts: string[] = [];
  const state = [say(info.read ? READING_WORDS.read : READING_WORDS.unread), info.starred ? `★ ${say(READING_WORDS.starred)}` : `☆ ${say(READING_WORDS.notStarred)}`, say(info.isNew ? READING_WORDS.isNew : READING_WORDS.repeat)];
  parts.push(state.join(' · '));
  if (!info.isNew && info.firstSeen) {
    const where = `${escapeMarkdown(fileLabel(info.firstSeen.uri))}:${info.firstSeen.range.start.line + 1}`;
    parts.push(language === 'both' ? `First seen in ${where} · 首次出现` : `${say(READING_WORDS.firstSeen)} ${where}`);
  }
  if (info.tags.length > 0) {
    // In a code span nothing is escaped: a tag's backticks, control and bidirectional characters are replaced first.
    parts.push(`${say(READING_WORDS.tags)}${PUNCTUATION.colon(language)}${info.tags.map((tag) => `\`${plainLabel(tag, MAX_TAG_SHOWN).replace(/`/g, "'")}\``).join(', ')}`);
  }
  if (info.note) {
    // A line's indentation as no-break spaces: indented after a blank line it would make a code
    // block, which shows the escapes themselves.
    const note = escapeMarkdown(info.note).replace(/^[ \t]+/gm, (indent) => '\u00a0'.repeat(indent.length));
    parts.push(`${say(READING_WORDS.note)}${PUNCTUATION.colon(language)}${note}`);
  }
  const none = info.reasons.length > 0 ? '' : language === 'both' ? ' (no interest matched · 无匹配)' : PUNCTUATION.bracketed(pick(READING_WORDS.noInterest, language), language);
  parts.push(language === 'both' ? `**Score ${info.score}** · 兴趣分${none}` : `**${language === 'en' ? READING_WORDS.score.en : READING_WORDS.score.zh} ${info.score}**${none}`);
  if (info.reasons.length > 0) {
    parts.push(localizedReasons(info.reasons, language).map((reason) => `- ${escapeMarkdown(reason)}`).join('\n'));
  }
  return parts.join('\n\n');
}
