/**
 * The bilingual Markdown reading list: per paper a heading with the English title, the Chinese
 * title, authors, institutions (with their Chinese names), categories, the AI summary, the
 * reader's tags and note. All document text is escaped, so that no title or summary turns into
 * markup, a link or HTML.
 */
import type { ExportRecord } from '../exportRecord';
import { exportLine, secondTitle } from '../exportRecord';
import { escapeMarkdown as escapeMarkdownText } from '../../text';

/**
 * Escapes text for Markdown inline content, on one line: every ASCII punctuation character, so
 * that no markup, link, bare address (a renderer's linkify), maths or HTML comes of a title or a
 * summary, and control and bidirectional characters replaced (`escapeMarkdown` of text.ts, as the
 * hovers escape).
 *
 * @example
 * escapeMarkdown('*bold* <b>x</b> [a](b)') // '\\*bold\\* &lt;b&gt;x&lt;/b&gt; \\[a\\]\\(b\\)'
 */
export function escapeMarkdown(text: string): string {
  return escapeMarkdownText(exportLine(text));
}

/**
 * @example
 * toMarkdown([record], 'Reading list') // '# Reading list\n\n## 1. Sparse Probes ...\n\n小型...'
 */
export function toMarkdown(records: readonly ExportRecord[], heading = 'Reading list · 阅读清单'): string {
  return [...markdownChunks(records, records.length, heading)].join('');
}

/** `toMarkdown` a record at a time; `count`: how many records there are (the list says it first). */
export function* markdownChunks(records: Iterable<ExportRecord>, count: number, heading = 'Reading list · 阅读清单'): Generator<string, void, undefined> {
  yield [`# ${escapeMarkdown(heading)}`, '', `${count} ${count === 1 ? 'paper' : 'papers'} · ${count} 篇论文`, ''].join('\n');
  let i = 0;
  for (const record of records) {
    yield '\n' + markdownRecord(record, ++i).join('\n');
  }
}

function markdownRecord(record: ExportRecord, number: number): string[] {
  const out: string[] = [`## ${number}\\. ${escapeMarkdown(record.title)}`, ''];
  if (secondTitle(record)) out.push(`**${escapeMarkdown(secondTitle(record))}**`, '');
  const authors = record.authors.map((author) => {
    const zh = record.authorsZh.find((pair) => pair.name === author)?.nameZh;
    return escapeMarkdown(zh ? `${author} (${zh})` : author);
  });
  if (record.moreAuthors && authors.length > 0) authors.push(escapeMarkdown('et al.'));
  if (authors.length > 0) out.push(`- Authors · 作者: ${authors.join(', ')}`);
  if (record.institutions.length > 0) {
    out.push(`- Institutions · 机构: ${record.institutions.map((institution) => escapeMarkdown(institution.nameZh ? `${institution.name} (${institution.nameZh})` : institution.name)).join('; ')}`);
  }
  if (record.topic) out.push(`- Topic · 专题: ${escapeMarkdown(record.topic)}`);
  if (record.categories.length > 0) out.push(`- Categories · 分类: ${record.categories.map(escapeMarkdown).join(', ')}`);
  if (record.comments) out.push(`- Comments · 备注: ${escapeMarkdown(record.comments)}`);
  if (record.journalRef) out.push(`- Journal ref · 期刊引用: ${escapeMarkdown(record.journalRef)}`);
  if (record.arxivId) out.push(`- arXiv: <https://arxiv.org/abs/${record.arxivId}>`);
  if (record.tags.length > 0) out.push(`- Tags · 标签: ${record.tags.map(escapeMarkdown).join(', ')}`);
  if (record.starred) out.push('- Starred · 已加星标');
  if (record.authors.length > 0 || record.institutions.length > 0 || record.topic || record.categories.length > 0 || record.comments || record.journalRef || record.arxivId || record.tags.length > 0 || record.starred) {
    out.push('');
  }
  if (record.summary) out.push(`> AI总结 · Summary: ${escapeMarkdown(record.summary)}`, '');
  if (record.note) out.push(`Note · 笔记: ${escapeMarkdown(record.note)}`, '');
  return out;
}
