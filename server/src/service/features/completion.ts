/**
 * Completion from the workspace: institutions on a `机构` line, arXiv categories after `分类`,
 * topics, keywords and hit fields on a `专题命中` line, the labels an entry still lacks at the
 * start of a line, and authors seen with the entry's institutions elsewhere.
 *
 * Items carry only what the list shows; `resolveCompletion` adds the documentation (both names,
 * how many papers use them) when an item is selected. Document text is escaped wherever it is
 * rendered as Markdown.
 */
import { CompletionItemKind, InsertTextFormat, MarkupKind } from 'vscode-languageserver-types';
import { DEFAULT_MESSAGE_LANGUAGE, MessageLanguage } from '../messages';
import type { CompletionItem, CompletionList, Position, Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Entry, Field, FieldKind, InstitutionsField, TopicHitsField } from '../model';
import { FIELD_ORDER, LABELS } from '../model';
import { ALL_CATEGORIES, archivePrefix, archives, categoryByCode } from '../taxonomy';
import { escapeMarkdown, hasCjk, labelSafe } from '../text';
import { mostUsed, rankedCounts, termKey } from '../terms';
import type { WorkspaceTerms } from '../workspaceTerms';
import { entryAt, fieldAt } from './entries';
import { notAnInstitutionName } from './diagnostics';
import { HIT_FIELDS } from './labels';
import { breaksItsLine } from './rename';

/** What completion needs of the workspace. */
export interface CompletionWorkspace {
  readonly terms: WorkspaceTerms;
  /** The authors of paper `entryIndex` of the indexed file `uri`. */
  authorsOf(uri: string, entryIndex: number): readonly string[] | undefined;
  /**
   * The document completed in, as the index names it: its own paper is not among those whose
   * authors are offered (its names are what is being typed).
   */
  readonly uri?: string;
  /**
   * Called once before `authorsOf` is: the server indexes the document's pending edits then (the
   * papers of an open document read their content from the entries they were indexed with, which
   * an edit changes in place).
   */
  indexEdits?(): void;
}

/** The most items one list holds; the list says it is incomplete when more matched. */
export const MAX_ITEMS = 100;
/** The most papers of other files the author completion looks at. */
const MAX_AUTHOR_PAPERS = 20_000;
/** Lines longer than this get no completion: nobody types in them, and scanning them costs. */
const MAX_LINE_LENGTH = 20_000;

/** The characters after which an editor asks for completion by itself. */
export const COMPLETION_TRIGGER_CHARACTERS: readonly string[] = ['；', ';', '、', '(', '：', ' ', ','];

/** What `resolveCompletion` needs to document an item, kept in `CompletionItem.data`. */
export type CompletionData =
  | { readonly kind: 'institution'; readonly key: string }
  | { readonly kind: 'category'; readonly code: string }
  | { readonly kind: 'author'; readonly key: string; readonly name: string; readonly count: number }
  | { readonly kind: 'topic' | 'keyword'; readonly text: string; readonly count: number }
  | { readonly kind: 'label'; readonly field: FieldKind };

const EMPTY: CompletionList = { isIncomplete: false, items: [] };

/** The labels a line can start with, as inserted, in the format's order. */
const LABEL_INSERTS: readonly { readonly field: FieldKind; readonly text: string; readonly english: string }[] = [
  { field: 'institutions', text: `${LABELS.institutions} * `, english: 'Institutions' },
  { field: 'topicHits', text: `${LABELS.topicHits} `, english: 'Topic hits' },
  { field: 'summary', text: `${LABELS.summary} `, english: 'AI summary' },
  { field: 'comments', text: `${LABELS.comments} `, english: 'arXiv comments' },
  { field: 'journalRef', text: `${LABELS.journalRef} `, english: 'Journal reference' },
];

/**
 * The completions at a position, or an empty list where there is nothing to offer (and for a
 * position outside the text).
 *
 * @example
 * // On `机构 * Kyoto University（京都大学） ； Tsi|`:
 * completions(doc, { line: 8, character: 36 }, workspace).items[0]
 * // { label: 'Tsinghua University', detail: '清华大学 · 12 papers',
 * //   textEdit: { range, newText: 'Tsinghua University（清华大学）' }, ... }
 */
export function completions(doc: DigestDocument, position: Position, workspace: CompletionWorkspace, token: Cancellation = NEVER_CANCELLED, messageLanguage: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): CompletionList {
  const previous = language;
  language = messageLanguage;
  try {
    return shownSafely(completionsAt(doc, position, workspace, token));
  } finally {
    language = previous;
  }
}

/**
 * The items with the document text they show (label, detail, label details) made safe to show on
 * one line (`labelSafe`: control and bidirectional characters as U+FFFD), as the outline, hovers
 * and the Papers view show it. What is inserted stays as written, and so does what the editor
 * filters on (`filterText`, the label as written when it was changed).
 *
 * @example shownSafely({ isIncomplete: false, items: [{ label: 'Evil\u202eLab' }] }).items[0] // { label: 'Evil\ufffdLab', filterText: 'Evil\u202eLab' }
 */
function shownSafely(list: CompletionList): CompletionList {
  for (const item of list.items) {
    const label = labelSafe(item.label);
    if (label !== item.label) {
      item.filterText ??= item.label;
      item.label = label;
    }
    if (item.detail !== undefined) item.detail = labelSafe(item.detail);
    const details = item.labelDetails;
    if (details) {
      item.labelDetails = {
        ...(details.detail !== undefined ? { detail: labelSafe(details.detail) } : {}),
        ...(details.description !== undefined ? { description: labelSafe(details.description) } : {}),
      };
    }
  }
  return list;
}

/**
 * The language of the items being made: set by `completions` and `resolveCompletion` for the
 * length of one synchronous call, read by `w`. Document text (names, topics, keywords) and the
 * labels inserted stay as written.
 */
let language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE;

/** A phrase of an item: as it reads in both languages, in English, in Chinese. */
function w(both: string, en: string, zh: string): string {
  return language === 'en' ? en : language === 'zh-cn' ? zh : both;
}

/** A category's names in the language: `Machine Learning · 机器学习` for both. */
function categoryNames(category: { readonly name: string; readonly nameZh: string }): string {
  return w(`${category.name} · ${category.nameZh}`, category.name, category.nameZh);
}

function completionsAt(doc: DigestDocument, position: Position, workspace: CompletionWorkspace, token: Cancellation): CompletionList {
  if (token.isCancellationRequested || position.line < 0 || position.line >= doc.lines.length || position.character < 0) {
    return EMPTY;
  }
  const lineText = doc.lines[position.line].text;
  if (position.character > lineText.length || lineText.length > MAX_LINE_LENGTH) {
    return EMPTY;
  }
  const entry = entryAt(doc, position) ?? entryBefore(doc, position.line);
  if (!entry) {
    return EMPTY;
  }
  const field = fieldAt(entry, position);
  const labels = labelCompletions(entry, field, lineText, position);
  if (labels) {
    return labels;
  }
  if (!field || !entryAt(doc, position)) {
    return EMPTY;
  }
  switch (field.kind) {
    case 'institutions':
      return field.authorPairs ? EMPTY : institutionCompletions(field, lineText, position, workspace);
    case 'topicHits':
      return topicHitCompletions(field, lineText, position, workspace);
    case 'authors':
      return authorCompletions(doc, entry, lineText, position, workspace, token);
    default:
      return EMPTY;
  }
}

/**
 * Adds the documentation of an item: both names of an institution and how many papers name it,
 * a category's names, an author's Chinese form.
 *
 * @example
 * resolveCompletion(item, workspace).documentation
 * // { kind: 'markdown', value: '**Tsinghua University** · **清华大学**\n\nNamed 12 times in the workspace — 工作区中出现 12 次' }
 */
export function resolveCompletion(item: CompletionItem, workspace: CompletionWorkspace, token: Cancellation = NEVER_CANCELLED, messageLanguage: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): CompletionItem {
  const data = item.data as CompletionData | undefined;
  if (!data || typeof data !== 'object' || token.isCancellationRequested) {
    return item;
  }
  const previous = language;
  language = messageLanguage;
  let markdown: string | undefined;
  try {
    markdown = documentation(data, workspace);
  } finally {
    language = previous;
  }
  return markdown ? { ...item, documentation: { kind: MarkupKind.Markdown, value: markdown } } : item;
}

function documentation(data: CompletionData, workspace: CompletionWorkspace): string | undefined {
  switch (data.kind) {
    case 'institution': {
      const stats = typeof data.key === 'string' ? workspace.terms.institutions.get(data.key) : undefined;
      if (!stats) {
        return undefined;
      }
      const name = mostUsed(stats.names) ?? data.key;
      const translations = rankedCounts(stats.translations);
      const lines = [translations.length > 0 ? `**${escapeMarkdown(name)}** · **${escapeMarkdown(translations[0].text)}**` : `**${escapeMarkdown(name)}** · *${w('no Chinese name given — 无中文名', 'no Chinese name given', '无中文名')}*`];
      if (translations.length > 1) {
        lines.push(`${w('Also translated — 其他译名: ', 'Also translated: ', '其他译名：')}${translations.slice(1, 6).map((t) => `${escapeMarkdown(t.text)} (${t.count})`).join(w(', ', ', ', '、'))}`);
      }
      // The places that name it, in every digest: a paper in two digests is two of them (the
      // Papers view and the statistics count it once), so said as times, as for a category.
      lines.push(w(`Named ${times(stats.papers)} in the workspace — 工作区中出现 ${stats.papers} 次`, `Named ${times(stats.papers)} in the workspace`, `工作区中出现 ${stats.papers} 次`));
      return lines.join('\n\n');
    }
    case 'category': {
      const category = typeof data.code === 'string' ? categoryByCode(data.code) : undefined;
      if (!category) {
        return undefined;
      }
      const used = workspace.terms.categories.get(category.code) ?? 0;
      const archiveZh = archives.get(archivePrefix(category.code))?.nameZh;
      const archive = archiveZh ? w(`${category.archive} · ${archiveZh}`, category.archive, archiveZh) : category.archive;
      return [`**${escapeMarkdown(category.code)}** · ${escapeMarkdown(categoryNames(category))}`, `${w('Archive: ', 'Archive: ', '所属大类：')}${escapeMarkdown(archive)}`, w(`Used ${times(used)} in the workspace — 工作区中使用 ${used} 次`, `Used ${times(used)} in the workspace`, `工作区中使用 ${used} 次`)].join('\n\n');
    }
    case 'author': {
      const form = typeof data.key === 'string' ? mostUsed(workspace.terms.authors.get(data.key)?.forms ?? new Map()) : undefined;
      const name = typeof data.name === 'string' ? data.name : '';
      return [form ? `**${escapeMarkdown(name)}** · **${escapeMarkdown(form)}**` : `**${escapeMarkdown(name)}**`, w(`Seen with this paper\u2019s institutions in ${papers(data.count)} — 与本文机构同现于 ${data.count} 篇论文`, `Seen with this paper\u2019s institutions in ${papers(data.count)}`, `与本文机构同现于 ${data.count} 篇论文`)].join('\n\n');
    }
    case 'topic':
    case 'keyword':
      return `${data.kind === 'topic' ? w('Topic — 专题: ', 'Topic: ', '专题：') : w('Keyword — 关键词: ', 'Keyword: ', '关键词：')}**${escapeMarkdown(String(data.text))}**\n\n${w(`Used ${times(data.count)} in the workspace — 工作区中使用 ${data.count} 次`, `Used ${times(data.count)} in the workspace`, `工作区中使用 ${data.count} 次`)}`;
    default:
      return undefined;
  }
}

/** `once`, `12 times`, or `12 次` in Chinese alone: how often a name is written in the workspace's digests (a paper in two digests, twice). */
function times(count: number): string {
  return language === 'zh-cn' ? `${count} 次` : count === 1 ? 'once' : `${count} times`;
}

/** `12 papers`, or `12 篇论文` in Chinese alone. */
function papers(count: number): string {
  return language === 'zh-cn' ? `${count} 篇论文` : `${count} paper${count === 1 ? '' : 's'}`;
}

// ---- Labels at the start of a line --------------------------------------------------------

/** The entry that ends before a line, when no other entry starts between them. */
function entryBefore(doc: DigestDocument, line: number): Entry | undefined {
  const entries = doc.entries;
  let low = 0;
  let high = entries.length - 1;
  let found: Entry | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (entries[mid].range.start.line <= line) {
      found = entries[mid];
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * The labels the entry lacks that belong where the cursor is (after the entry's fields above it,
 * before those below, in the format's order), when the line holds nothing but the start of one
 * (or nothing) up to the cursor and nothing after it.
 */
function labelCompletions(entry: Entry, field: Field | undefined, lineText: string, position: Position): CompletionList | undefined {
  const typed = lineText.slice(0, position.character);
  if (lineText.slice(position.character).trim() !== '' || typed !== typed.trimStart()) {
    return undefined;
  }
  const lower = typed.toLowerCase();
  const candidates = LABEL_INSERTS.filter((label) => label.text.toLowerCase().startsWith(lower) && label.text !== typed);
  if (candidates.length === 0) {
    return undefined;
  }
  const others = entry.fields.filter((each) => each !== field);
  const present = new Set<FieldKind>(others.map((each) => each.kind));
  // Only a label in the format's order here: after the fields above the line, before those below
  // (a Comments between the authors and the 机构 line was a paragraph out of order, three times).
  let after = -1;
  let before: number = FIELD_ORDER.length;
  for (const each of others) {
    const order = FIELD_ORDER.indexOf(each.kind);
    if (each.line < position.line) after = Math.max(after, order);
    else if (each.line > position.line) before = Math.min(before, order);
  }
  const range = lineRange(position.line, 0, position.character);
  const items: CompletionItem[] = candidates
    .filter((label) => !present.has(label.field) && FIELD_ORDER.indexOf(label.field) > after && FIELD_ORDER.indexOf(label.field) < before)
    .map((label) => ({
      label: label.text.trimEnd(),
      kind: CompletionItemKind.Keyword,
      detail: w(`${label.english} — missing from this paper, 本文缺少此项`, `${label.english} — missing from this paper`, '本文缺少此项'),
      sortText: String(FIELD_ORDER.indexOf(label.field)).padStart(2, '0'),
      filterText: label.text,
      textEdit: { range, newText: label.text },
      insertTextFormat: InsertTextFormat.PlainText,
      data: { kind: 'label', field: label.field } satisfies CompletionData,
    }));
  // A line that starts a label but whose entry has that field already gets nothing else either.
  return { isIncomplete: false, items };
}

// ---- Institutions -------------------------------------------------------------------------

function isItemSeparator(c: string): boolean {
  return c === '；' || c === ';';
}

function institutionCompletions(field: InstitutionsField, lineText: string, position: Position, workspace: CompletionWorkspace): CompletionList {
  const ch = position.character;
  const bodyStart = skipSpaces(lineText, Math.max(field.label.range.end.character, field.star?.range.end.character ?? 0), Math.max(ch, field.label.range.end.character));
  if (ch < bodyStart || (field.marker && ch > field.marker.range.start.character)) {
    return EMPTY;
  }
  // The item being typed: from the last separator before the cursor.
  let itemStart = bodyStart;
  for (let i = ch - 1; i >= bodyStart; i--) {
    if (isItemSeparator(lineText[i])) {
      itemStart = i + 1;
      break;
    }
  }
  let prefixStart = skipSpaces(lineText, itemStart, ch);
  let before = '';
  // A complete item `Name（译名）` before the cursor and no separator: one goes in front.
  const closing = ch > 0 ? lineText.lastIndexOf('）', ch - 1) : -1;
  if (closing >= prefixStart) {
    prefixStart = skipSpaces(lineText, closing + 1, ch);
    before = (prefixStart > closing + 1 ? '' : ' ') + '； ';
  } else if (prefixStart === itemStart && itemStart > bodyStart && isItemSeparator(lineText[itemStart - 1])) {
    before = ' ';
  } else if (prefixStart === bodyStart && bodyStart > 0 && lineText[bodyStart - 1] !== ' ') {
    // Right after `机构 *` with no space.
    before = ' ';
  }
  // Inside a word: the whole item is replaced; before another item: a separator follows.
  let end = ch;
  let after = '';
  const rest = lineText.slice(ch);
  if (rest.length > 0 && !/^[\s；;]/.test(rest)) {
    end = itemEnd(lineText, ch, field);
  } else {
    const next = rest.trimStart();
    if (next.length > 0 && !isItemSeparator(next[0]) && !next.startsWith(LABELS.reportMarker)) {
      after = rest.startsWith(' ') ? ' ；' : ' ； ';
    }
  }
  const typed = lineText.slice(prefixStart, ch);
  const prefix = termKey(typed);
  const chinese = hasCjk(typed);
  const onLine = new Set(field.items.filter((item) => item.range.end.character < prefixStart || item.range.start.character > end).map((item) => termKey(item.name.text)));
  const top = new TopK<{ key: string; count: number }>(MAX_ITEMS, (a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  let matched = 0;
  for (const [key, stats] of workspace.terms.institutions) {
    if (onLine.has(key) || stats.papers <= 0 || (key === prefix && stats.translations.size === 0)) {
      // What is being typed, counted from this very line, has nothing to add.
      continue;
    }
    if (prefix && !(key.startsWith(prefix) || key.includes(' ' + prefix) || (chinese && someStartsWith(stats.translations, typed.trim())))) {
      continue;
    }
    const name = mostUsed(stats.names) ?? key;
    const translation = mostUsed(stats.translations);
    if (notAnInstitutionName(name) || breaksItsLine('institution', name) || (translation !== undefined && breaksItsLine('translation', translation))) {
      // A bracketed tag or a category code on some 机构 line, or a name or translation that would
      // break the line (a bracket left open): not offered, as inserting it raises a problem.
      continue;
    }
    matched++;
    top.add({ key, count: stats.papers });
  }
  const range = lineRange(position.line, prefixStart, end);
  const items = top.sorted().map(({ key, count }, rank): CompletionItem => {
    const stats = workspace.terms.institutions.get(key)!;
    const name = mostUsed(stats.names) ?? key;
    const translation = mostUsed(stats.translations);
    const inserted = translation ? `${name}（${translation}）` : name;
    return {
      label: name,
      labelDetails: translation ? { description: translation } : undefined,
      kind: CompletionItemKind.Value,
      detail: `${translation ? translation + ' · ' : ''}${times(count)}`,
      sortText: String(rank).padStart(4, '0'),
      filterText: chinese && translation ? `${translation} ${name}` : before ? typed : `${name} ${translation ?? ''}`.trim(),
      textEdit: { range, newText: before + inserted + after },
      insertTextFormat: InsertTextFormat.PlainText,
      data: { kind: 'institution', key } satisfies CompletionData,
    };
  });
  return { isIncomplete: matched > items.length, items };
}

/** The end of the item around a character: the next separator, the marker or the line's end, trimmed. */
function itemEnd(lineText: string, from: number, field: InstitutionsField): number {
  let end = field.marker ? field.marker.range.start.character : lineText.length;
  for (let i = from; i < end; i++) {
    if (isItemSeparator(lineText[i])) {
      end = i;
      break;
    }
  }
  while (end > from && lineText[end - 1] === ' ') {
    end--;
  }
  return end;
}

function someStartsWith(counts: ReadonlyMap<string, number>, prefix: string): boolean {
  for (const text of counts.keys()) {
    if (text.startsWith(prefix)) {
      return true;
    }
  }
  return false;
}

// ---- 专题命中: topic, keywords, fields, categories ------------------------------------------

function topicHitCompletions(field: TopicHitsField, lineText: string, position: Position, workspace: CompletionWorkspace): CompletionList {
  const ch = position.character;
  const labelEnd = field.label.range.end.character;
  if (ch < labelEnd || (ch === labelEnd && lineText[ch] !== undefined && lineText[ch] !== ' ')) {
    return EMPTY;
  }
  if (field.categoriesLabel && ch >= field.categoriesLabel.range.end.character) {
    return categoryCompletions(field, lineText, position, workspace);
  }
  if (field.categoriesLabel && ch > field.categoriesLabel.range.start.character) {
    return EMPTY;
  }
  const colonEnd = field.colon ? field.colon.range.end.character : -1;
  if (colonEnd < 0 || ch < colonEnd) {
    return topicCompletions(field, lineText, position, workspace);
  }
  return hitCompletions(field, lineText, position, colonEnd, workspace);
}

function topicCompletions(field: TopicHitsField, lineText: string, position: Position, workspace: CompletionWorkspace): CompletionList {
  const start = skipSpaces(lineText, field.label.range.end.character, position.character);
  let end = field.colon ? field.colon.range.start.character : lineText.length;
  while (end > position.character && lineText[end - 1] === ' ') {
    end--;
  }
  if (end < position.character) {
    end = position.character;
  }
  const typed = lineText.slice(start, position.character).trim();
  const range = lineRange(position.line, start, end);
  const before = start === field.label.range.end.character ? ' ' : '';
  const after = field.colon ? '' : ' ：';
  const ranked = rankedCounts(workspace.terms.topics).filter((topic) => topic.text.startsWith(typed) && !breaksItsLine('topic', topic.text));
  const items = ranked.slice(0, MAX_ITEMS).map((topic, rank): CompletionItem => ({
    label: topic.text,
    kind: CompletionItemKind.EnumMember,
    detail: `${w('Topic — 专题', 'Topic', '专题')} · ${times(topic.count)}`,
    sortText: String(rank).padStart(4, '0'),
    textEdit: { range, newText: before + topic.text + after },
    data: { kind: 'topic', text: topic.text, count: topic.count } satisfies CompletionData,
  }));
  return { isIncomplete: ranked.length > items.length, items };
}

function isHitSeparator(c: string): boolean {
  return c === '；' || c === ';';
}

function hitCompletions(field: TopicHitsField, lineText: string, position: Position, colonEnd: number, workspace: CompletionWorkspace): CompletionList {
  const ch = position.character;
  let hitStart = colonEnd;
  for (let i = ch - 1; i >= colonEnd; i--) {
    if (isHitSeparator(lineText[i])) {
      hitStart = i + 1;
      break;
    }
  }
  const hitText = lineText.slice(hitStart, ch);
  const open = Math.max(hitText.lastIndexOf('('), hitText.lastIndexOf('（'));
  const close = Math.max(hitText.lastIndexOf(')'), hitText.lastIndexOf('）'));
  if (open >= 0 && close < open) {
    // Inside `(`: the fields, closing the bracket unless it is closed already.
    const start = hitStart + open + 1;
    const closed = /^[a-z]*[)）]/i.exec(lineText.slice(ch));
    const end = closed ? ch + closed[0].length : ch + (/^[a-z]*/i.exec(lineText.slice(ch))?.[0].length ?? 0);
    return { isIncomplete: false, items: fieldItems(lineRange(position.line, start, end), '', ')') };
  }
  const items: CompletionItem[] = [];
  let before = '';
  let keywordStart = skipSpaces(lineText, hitStart, ch);
  if (close >= 0) {
    // After a complete `keyword(field)` with no separator: one goes in front.
    keywordStart = skipSpaces(lineText, hitStart + close + 1, ch);
    before = '；';
  }
  const typed = lineText.slice(keywordStart, ch);
  const range = lineRange(position.line, keywordStart, ch);
  if (typed.trim().length > 0 && close < 0 && !/\s$/.test(typed)) {
    // Right after a keyword: its `(field)`.
    items.push(...fieldItems(lineRange(position.line, ch, ch), '(', ')'));
  }
  const prefix = termKey(typed);
  const onLine = new Set(field.hits.map((hit) => termKey(hit.keyword.text)).filter((key) => key !== prefix));
  const top = new TopK<{ key: string; count: number }>(MAX_ITEMS, (a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  let matched = 0;
  for (const [key, forms] of workspace.terms.keywords) {
    if (onLine.has(key) || (prefix && !(key.startsWith(prefix) || key.includes(' ' + prefix)))) {
      continue;
    }
    if (breaksItsLine('keyword', mostUsed(forms) ?? key)) {
      // Two hits run together (`reasoning(abstract)math`), a bracket, `分类`: no keyword to insert.
      continue;
    }
    let count = 0;
    for (const n of forms.values()) count += n;
    matched++;
    top.add({ key, count });
  }
  top.sorted().forEach(({ key, count }, rank) => {
    const text = mostUsed(workspace.terms.keywords.get(key)!) ?? key;
    items.push({
      label: text,
      kind: CompletionItemKind.Text,
      detail: `${w('Keyword — 关键词', 'Keyword', '关键词')} · ${times(count)}`,
      sortText: '1' + String(rank).padStart(4, '0'),
      filterText: before ? typed : text,
      textEdit: { range, newText: before + text },
      data: { kind: 'keyword', text, count } satisfies CompletionData,
    });
  });
  return { isIncomplete: matched > MAX_ITEMS, items };
}

/** `(abstract)`, `(title)` and the other fields a hit can name, abstract and title first. */
function fieldItems(range: Range, open: string, close: string): CompletionItem[] {
  return HIT_FIELDS.map((meaning, rank) => ({
    label: `(${meaning.field})`,
    kind: CompletionItemKind.Property,
    detail: w(`matched in ${meaning.english} — ${meaning.chinese}`, `matched in ${meaning.english}`, `命中于${meaning.chinese}`),
    sortText: '0' + String(rank).padStart(4, '0'),
    filterText: open ? `(${meaning.field})` : meaning.field,
    textEdit: { range, newText: `${open}${meaning.field}${close}` },
  }));
}

function isCategorySeparator(c: string): boolean {
  return c === '、' || c === ',' || c === '，';
}

function categoryCompletions(field: TopicHitsField, lineText: string, position: Position, workspace: CompletionWorkspace): CompletionList {
  const ch = position.character;
  const labelEnd = field.categoriesLabel!.range.end.character;
  let tokenStart = labelEnd;
  for (let i = ch - 1; i >= labelEnd; i--) {
    if (isCategorySeparator(lineText[i])) {
      tokenStart = i + 1;
      break;
    }
  }
  let start = skipSpaces(lineText, tokenStart, ch);
  let before = '';
  const token = lineText.slice(start, ch);
  const space = token.lastIndexOf(' ');
  if (space >= 0) {
    // `cs.LG cs.A|`: the space after the previous code becomes `、`.
    let previousEnd = start + space;
    while (previousEnd > start && lineText[previousEnd - 1] === ' ') previousEnd--;
    before = '、';
    start = previousEnd;
  }
  if (start === labelEnd) {
    // Right after `分类` with no space.
    before = ' ';
  }
  const typedStart = space >= 0 ? skipSpaces(lineText, start, ch) : start;
  const typed = lineText.slice(typedStart, ch).toLowerCase();
  const restMatch = /^[A-Za-z.-]*/.exec(lineText.slice(ch));
  const end = ch + (restMatch ? restMatch[0].length : 0);
  const onLine = new Set(field.categories.filter((category) => category.range.end.character < typedStart || category.range.start.character > end).map((category) => category.text));
  const range = lineRange(position.line, start, end);
  const candidates = ALL_CATEGORIES.filter((category) => !onLine.has(category.code) && category.code.toLowerCase().startsWith(typed));
  const used = (code: string): number => workspace.terms.categories.get(code) ?? 0;
  const order = new Map(ALL_CATEGORIES.map((category, index) => [category.code, index]));
  candidates.sort((a, b) => used(b.code) - used(a.code) || order.get(a.code)! - order.get(b.code)!);
  const items = candidates.map((category, rank): CompletionItem => ({
    label: category.code,
    labelDetails: { description: categoryNames(category) },
    kind: CompletionItemKind.EnumMember,
    detail: `${categoryNames(category)}${used(category.code) > 0 ? w(` · used ${used(category.code)}×`, ` · used ${used(category.code)}×`, ` · 已用 ${used(category.code)} 次`) : ''}`,
    sortText: String(rank).padStart(4, '0'),
    filterText: before ? lineText.slice(start, ch) + category.code : category.code,
    textEdit: { range, newText: before + category.code },
    data: { kind: 'category', code: category.code } satisfies CompletionData,
  }));
  return { isIncomplete: false, items };
}

// ---- Authors ------------------------------------------------------------------------------

function authorCompletions(doc: DigestDocument, entry: Entry, lineText: string, position: Position, workspace: CompletionWorkspace, token: Cancellation): CompletionList {
  const ch = position.character;
  let nameStart = 0;
  for (let i = ch - 1; i >= 0; i--) {
    if (lineText[i] === ',' || lineText[i] === '，') {
      nameStart = i + 1;
      break;
    }
  }
  const start = skipSpaces(lineText, nameStart, ch);
  const before = start === nameStart && nameStart > 0 ? ' ' : '';
  let end = ch;
  let after = '';
  const rest = lineText.slice(ch);
  if (rest.length > 0 && !/^[\s,，]/.test(rest)) {
    const comma = rest.search(/[,，]/);
    end = comma < 0 ? lineText.length : ch + comma;
    while (end > ch && lineText[end - 1] === ' ') end--;
  } else if (rest.trim().length > 0 && !/^\s*[,，]/.test(rest)) {
    after = ',';
  }
  const typed = lineText.slice(start, ch);
  const prefix = termKey(typed);
  const present = new Set((entry.authors?.names ?? []).filter((name) => name.range.end.character < start || name.range.start.character > end).map((name) => termKey(name.text)));
  const counts = new Map<string, { name: string; count: number }>();
  const count = (name: string): void => {
    const key = termKey(name);
    if (!key || present.has(key) || (prefix && !(key.startsWith(prefix) || key.includes(' ' + prefix)))) {
      return;
    }
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { name, count: 1 });
  };
  const keys = entry.institutions && !entry.institutions.authorPairs ? [...new Set(entry.institutions.items.map((item) => termKey(item.name.text)).filter((key) => key))] : [];
  if (keys.length > 0) workspace.indexEdits?.();
  let looked = 0;
  for (const key of keys) {
    for (const [uri, terms] of workspace.terms.files()) {
      const papersThere = terms.institutions.get(key)?.papers;
      if (!papersThere) continue;
      for (const index of papersThere) {
        if (++looked > MAX_AUTHOR_PAPERS || token.isCancellationRequested) break;
        if (uri === workspace.uri && index === entry.index) continue;
        for (const name of workspace.authorsOf(uri, index) ?? []) count(name);
      }
    }
  }
  if (counts.size === 0) {
    // No institutions to go by: the authors of the other papers of this file.
    for (const other of doc.entries) {
      if (other !== entry) for (const name of other.authors?.names ?? []) count(name.text);
    }
  }
  const top = new TopK<{ key: string; name: string; count: number }>(MAX_ITEMS, (a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  for (const [key, { name, count: n }] of counts) top.add({ key, name, count: n });
  const range = lineRange(position.line, start, end);
  const items = top.sorted().map(({ key, name, count: n }, rank): CompletionItem => {
    const form = mostUsed(workspace.terms.authors.get(key)?.forms ?? new Map());
    return {
      label: name,
      labelDetails: form ? { description: form } : undefined,
      kind: CompletionItemKind.Reference,
      detail: `${form ? form + ' · ' : ''}${w(`${papers(n)} with these institutions`, `${papers(n)} with these institutions`, `与这些机构同现于 ${n} 篇论文`)}`,
      sortText: String(rank).padStart(4, '0'),
      filterText: name,
      textEdit: { range, newText: before + name + after },
      data: { kind: 'author', key, name, count: n } satisfies CompletionData,
    };
  });
  return { isIncomplete: counts.size > items.length, items };
}

// ---- Helpers ------------------------------------------------------------------------------

function lineRange(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}

function skipSpaces(text: string, from: number, to = text.length): number {
  let i = from;
  while (i < to && (text[i] === ' ' || text[i] === '\t' || text[i] === '\u3000')) i++;
  return i;
}

/** The best `limit` items under `compare`, kept sorted while they are added. */
class TopK<T> {
  private readonly items: T[] = [];
  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  add(item: T): void {
    const items = this.items;
    if (items.length >= this.limit && this.compare(item, items[items.length - 1]) >= 0) {
      return;
    }
    let low = 0;
    let high = items.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.compare(items[mid], item) <= 0) low = mid + 1;
      else high = mid;
    }
    items.splice(low, 0, item);
    if (items.length > this.limit) items.pop();
  }

  sorted(): T[] {
    return this.items;
  }
}
