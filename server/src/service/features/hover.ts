/**
 * Hover translations: hovering a part of an entry shows its counterpart in the other language
 * (English title ↔ Chinese title, institution ↔ its translation, author ↔ Chinese name), what a
 * category code or a label means, and, on a title, enough of the paper to triage it.
 *
 * Document text is untrusted. Every piece of it goes through `escapeMarkdown`, so a hover never
 * holds a link, image, HTML or autolink that the document put there; the only links in a hover
 * are the arXiv abstract pages the hover builds itself from validated identifiers.
 */
import { MarkupKind } from 'vscode-languageserver-types';
import type { Hover, Position, Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { AuthorsField, DigestDocument, Entry, InstitutionsField, Link, Span, TextField, TitleField, TopicHit, TopicHitsField } from '../model';
import { ALL_CATEGORIES, archives, archivePrefix, categoryByCode, categoryIgnoringCase, categoryInFullWidth, nearestCategories } from '../taxonomy';
import { clip as clipText, escapeMarkdown, hasCjk } from '../text';
import { entryAt, fieldAt } from './entries';
import { nameKey } from '../names';
import { isArxivIdentifier } from './links';
import { notAnInstitutionName } from './diagnostics';
import { FIELD_NAMES, HEADING_MEANING, HIT_FIELDS, hitFieldMeaning, LABEL_MEANINGS, TOPIC_MEANING } from './labels';
import type { LabelMeaning } from './labels';
import { DEFAULT_MESSAGE_LANGUAGE, MessageLanguage } from '../messages';

/**
 * The language of the hover being rendered: set by `hover` for the length of one synchronous
 * call, read by `w`. The glossary lines (a label and its meaning) stay bilingual in every
 * language: they are what a hover translates.
 */
let language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE;

/** A phrase of a hover: as it reads in both languages (today's text), in English, in Chinese. */
function w(both: string, en: string, zh: string): string {
  return language === 'en' ? en : language === 'zh-cn' ? zh : both;
}

/** The most characters of one piece of document text a hover shows. */
const MAX_TEXT = 300;
/** The most characters of the summary a title's hover shows. */
const SUMMARY_PREVIEW = 120;
/** The most hits or categories a title's hover lists. */
const MAX_LISTED = 12;

/**
 * The hover at a position: its markdown, and as its range the exact part hovered (the title, the
 * institution's name or its translation, the category code, the label, the author's name...).
 * `null` where there is nothing to say (separators, white space, the summary's text, stray lines).
 *
 * @example
 * // On `Kyoto University` in `机构 * Kyoto University（京都大学） ； ...`:
 * hover(doc, { line: 8, character: 10 })
 * // { contents: { kind: 'markdown', value: '**京都大学** · 中文名 Chinese name\n\n*Institution 1 of 3 · 机构*' },
 * //   range: { start: { line: 8, character: 5 }, end: { line: 8, character: 21 } } }
 */
export function hover(doc: DigestDocument, position: Position, token: Cancellation = NEVER_CANCELLED, messageLanguage: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Hover | null {
  const previous = language;
  language = messageLanguage;
  try {
    return hoverAt(doc, position, token);
  } finally {
    language = previous;
  }
}

function hoverAt(doc: DigestDocument, position: Position, token: Cancellation): Hover | null {
  if (token.isCancellationRequested) {
    return null;
  }
  if (doc.heading) {
    const heading = doc.heading;
    const found = partAt([{ range: heading.range, render: () => headingHover(doc) }], position);
    if (found) {
      return result(found, token);
    }
  }
  const entry = entryAt(doc, position);
  const field = entry && fieldAt(entry, position);
  if (!entry || !field) {
    return null;
  }
  let parts: Part[];
  switch (field.kind) {
    case 'englishTitle':
    case 'chineseTitle':
      parts = [{ range: field.value.range, render: () => titleHover(entry, field) }];
      break;
    case 'authors':
      parts = authorParts(entry, field);
      break;
    case 'institutions':
      parts = institutionParts(field);
      break;
    case 'topicHits':
      parts = topicParts(doc, field, token);
      break;
    default:
      parts = textFieldParts(field);
      break;
  }
  const found = partAt(parts, position);
  return found ? result(found, token) : null;
}

// ---- Parts ------------------------------------------------------------------------------

/** A hoverable part of a line and the markdown of its hover, rendered only when hovered. */
interface Part {
  readonly range: Range;
  readonly render: () => string | null;
}

/**
 * The part under the position: the one whose characters include it, else one that ends right
 * at it (the cursor just after a word).
 */
function partAt(parts: readonly Part[], position: Position): Part | undefined {
  let touching: Part | undefined;
  for (const part of parts) {
    const { start, end } = part.range;
    if (start.line !== position.line || end.character <= start.character) {
      continue;
    }
    if (position.character >= start.character && position.character < end.character) {
      return part;
    }
    if (touching === undefined && position.character === end.character) {
      touching = part;
    }
  }
  return touching;
}

function result(part: Part, token: Cancellation): Hover | null {
  const value = part.render();
  if (value === null || token.isCancellationRequested) {
    return null;
  }
  return { contents: { kind: MarkupKind.Markdown, value }, range: part.range };
}

function labelPart(span: Span | undefined, meaning: LabelMeaning): Part[] {
  return span ? [{ range: span.range, render: () => labelHover(meaning) }] : [];
}

function authorParts(entry: Entry, field: AuthorsField): Part[] {
  return field.names.map((name, index) => ({
    range: name.range,
    render: () => authorHover(entry, field, index),
  }));
}

function institutionParts(field: InstitutionsField): Part[] {
  const parts: Part[] = [
    ...labelPart(field.label, LABEL_MEANINGS.institutions),
    ...labelPart(field.star, LABEL_MEANINGS.star),
    ...labelPart(field.marker, LABEL_MEANINGS.reportMarker),
  ];
  const pairs = field.authorPairs;
  if (pairs) {
    const chineseCount = pairs.filter((pair) => pair.chinese).length;
    pairs.forEach((pair, index) => {
      parts.push({ range: pair.english.range, render: () => pairHover(pair.chinese, index, pairs.length, chineseCount, 'english') });
      const chinese = pair.chinese;
      if (chinese) {
        parts.push({ range: chinese.range, render: () => pairHover(pair.english, index, pairs.length, chineseCount, 'chinese') });
      }
    });
    return parts;
  }
  field.items.forEach((item, index) => {
    const count = field.items.length;
    // A bracketed tag or a category code on the line is no institution (as its problem says).
    const notOne = notAnInstitutionName(item.name.text);
    const place = (): string =>
      notOne ? emphasis(w(`${notOne[0]} · ${notOne[1]}`, notOne[0], notOne[1])) : emphasis(w(`Institution ${index + 1} of ${count} · 机构`, `Institution ${index + 1} of ${count}`, `第 ${index + 1} 个机构，共 ${count} 个`));
    parts.push({
      range: item.name.range,
      render: () =>
        paragraphs(
          item.translation && item.translation.text
            ? `${strong(item.translation.text)} · ${text(w('中文名 Chinese name', 'Chinese name', '中文名'))}`
            : notOne
              ? ''
              : emphasis(w('No Chinese name given for this institution · 此机构没有中文名', 'No Chinese name given for this institution', '此机构没有中文名')),
          place(),
        ),
    });
    const translation = item.translation;
    if (translation) {
      parts.push({
        range: translation.range,
        render: () =>
          paragraphs(
            item.name.text ? `${strong(item.name.text)} · ${text(w('English name 英文名', 'English name', '英文名'))}` : emphasis(w('No English name before this translation', 'No English name before this translation', '此译名前没有英文名')),
            place(),
          ),
      });
    }
  });
  return parts;
}

function topicParts(doc: DigestDocument, field: TopicHitsField, token: Cancellation): Part[] {
  const parts: Part[] = [...labelPart(field.label, LABEL_MEANINGS.topicHits)];
  if (field.topic.text) {
    parts.push({ range: field.topic.range, render: () => topicHover(doc, field.topic.text, token) });
  }
  for (const hit of field.hits) {
    if (hit.keyword.text) {
      parts.push({ range: hit.keyword.range, render: () => keywordHover(hit) });
    }
    const hitField = hit.field;
    if (hitField && hitField.text) {
      parts.push({ range: hitField.range, render: () => hitFieldHover(hit, hitField.text) });
    }
  }
  parts.push(...labelPart(field.categoriesLabel, LABEL_MEANINGS.categories));
  for (const category of field.categories) {
    parts.push({ range: category.range, render: () => categoryHover(category.text) });
  }
  return parts;
}

function textFieldParts(field: TextField): Part[] {
  const meaning = field.kind === 'summary' ? LABEL_MEANINGS.summary : field.kind === 'comments' ? LABEL_MEANINGS.comments : LABEL_MEANINGS.journalRef;
  const parts = labelPart(field.label, meaning);
  for (const link of field.links) {
    if (link.kind === 'arxiv') {
      parts.push({ range: link.range, render: () => arxivHover(link) });
    }
  }
  return parts;
}

// ---- Hovers -----------------------------------------------------------------------------

function headingHover(doc: DigestDocument): string {
  return paragraphs(
    `${strong(HEADING_MEANING.chinese)} · ${text(HEADING_MEANING.english)}`,
    text(w(HEADING_MEANING.explanation, HEADING_MEANING.explanation, HEADING_MEANING.explanationZh)),
    text(w(`${doc.entries.length} ${doc.entries.length === 1 ? 'paper' : 'papers'} in this file.`, `${doc.entries.length} ${doc.entries.length === 1 ? 'paper' : 'papers'} in this file.`, `本文件中有 ${doc.entries.length} 篇论文。`)),
  );
}

/** A title's counterpart, then the paper's topic, categories and the start of its summary. */
function titleHover(entry: Entry, field: TitleField): string {
  const otherKind = field.kind === 'englishTitle' ? 'chineseTitle' : 'englishTitle';
  const other = entry[otherKind];
  const names = FIELD_NAMES[otherKind];
  const blocks: string[] = [
    other && other.value.text ? strong(other.value.text) : emphasis(w(`No ${names.english} in this entry`, `No ${names.english} in this entry`, `此条目没有${names.chinese}`)),
    emphasis(`${names.chinese} · ${names.english}`),
    '---',
  ];
  const topic = entry.topicHits;
  if (topic) {
    const hits = listed(topic.hits, (hit) => {
      const where = hit.field ? hitFieldMeaning(hit.field.text) : undefined;
      const field = hit.field ? `${hit.field.text}${where ? ' ' + where.chinese : ''}` : undefined;
      return `${hit.keyword.text || emptyText()}${field === undefined ? '' : w(` (${field})`, ` (${field})`, `（${field}）`)}`;
    });
    const none = w('(none)', '(none)', '（无）');
    const topicText = topic.topic.text || none;
    blocks.push(`${strong('专题命中')} ${text(w(`Topic: ${topicText}${hits ? ' · hits: ' + hits : ''}`, `Topic: ${topicText}${hits ? ' · hits: ' + hits : ''}`, `${topicText}${hits ? ' · 命中：' + hits : ''}`))}`);
    const categories = listed(topic.categories, (code) => categoryLine(code.text)) || none;
    blocks.push(`${strong('分类')} ${text(w(`Categories: ${categories}`, `Categories: ${categories}`, `${categories}`))}`);
  } else {
    blocks.push(emphasis(w('No 专题命中 (topic hits) in this entry', 'No 专题命中 (topic hits) in this entry', '此条目没有专题命中')));
  }
  const summary = entry.summary;
  blocks.push(summary && summary.value.text ? `${strong('AI总结')} ${text(summaryPreview(summary.value.text))}` : emphasis(w('No AI总结 (AI summary) in this entry', 'No AI总结 (AI summary) in this entry', '此条目没有AI总结')));
  return paragraphs(...blocks);
}

function authorHover(entry: Entry, field: AuthorsField, index: number): string {
  const name = field.names[index];
  const chinese = chineseNameOf(entry.institutions, name.text);
  return paragraphs(
    chinese ? `${strong(chinese)} · ${text(w('中文名 Chinese name', 'Chinese name', '中文名'))}` : emphasis(w('No Chinese name given for this author in this entry · 此条目没有给出该作者的中文名', 'No Chinese name given for this author in this entry', '此条目没有给出该作者的中文名')),
    emphasis(w(`Author ${index + 1} of ${field.names.length} · 作者`, `Author ${index + 1} of ${field.names.length}`, `第 ${index + 1} 位作者，共 ${field.names.length} 位`)),
  );
}

/** An author on the `机构` line: `A, B（甲、乙）`, paired by position. */
function pairHover(counterpart: Span | undefined, index: number, count: number, chineseCount: number, hovered: 'english' | 'chinese'): string {
  let first: string;
  if (counterpart) {
    first = `${strong(counterpart.text)} · ${text(hovered === 'english' ? w('中文名 Chinese name', 'Chinese name', '中文名') : w('English name 英文名', 'English name', '英文名'))}`;
  } else {
    const why = `No Chinese name at this position: the 机构 line gives ${count} names and ${chineseCount} Chinese names`;
    first = emphasis(w(why, why, `此位置没有中文名：机构行给出了 ${count} 个姓名和 ${chineseCount} 个中文名`));
  }
  return paragraphs(
    first,
    emphasis(w(`Author ${index + 1} of ${count} · 作者, listed with Chinese names on the 机构 line`, `Author ${index + 1} of ${count}, listed with Chinese names on the 机构 line`, `第 ${index + 1} 位作者，共 ${count} 位，在机构行上与中文名一同列出`)),
  );
}

function labelHover(meaning: LabelMeaning): string {
  let subtitle: string;
  if (hasCjk(meaning.label)) {
    subtitle = meaning.english;
  } else if (meaning.label === meaning.english) {
    subtitle = meaning.chinese;
  } else {
    subtitle = `${meaning.chinese} · ${meaning.english}`;
  }
  return paragraphs(`${strong(meaning.label)} · ${text(subtitle)}`, text(w(meaning.explanation, meaning.explanation, meaning.explanationZh)));
}

function topicHover(doc: DigestDocument, topic: string, token: Cancellation): string | null {
  const counts = topicCounts(doc, token);
  if (!counts) {
    return null;
  }
  const subject = doc.heading ? w(`Digest subject: ${doc.heading.text} · `, `Digest subject: ${doc.heading.text} · `, `摘要集主题：${doc.heading.text} · `) : '';
  // Counted as the Papers view groups topics: case, width and runs of white space aside.
  const count = counts.get(nameKey('topic', topic)) ?? 0;
  return paragraphs(
    `${strong(TOPIC_MEANING.chinese)} · ${text(TOPIC_MEANING.english)}`,
    text(w(TOPIC_MEANING.explanation, TOPIC_MEANING.explanation, TOPIC_MEANING.explanationZh)),
    text(subject + w(`${count} of ${doc.entries.length} papers in this file have the topic “${clip(topic)}”.`, `${count} of ${doc.entries.length} papers in this file have the topic “${clip(topic)}”.`, `本文件 ${doc.entries.length} 篇论文中有 ${count} 篇的专题为“${clip(topic)}”。`)),
  );
}

/** How many entries have each topic, counted once per model. */
const TOPIC_COUNTS = new WeakMap<DigestDocument, ReadonlyMap<string, number>>();

function topicCounts(doc: DigestDocument, token: Cancellation): ReadonlyMap<string, number> | undefined {
  let counts = TOPIC_COUNTS.get(doc);
  if (counts) {
    return counts;
  }
  const counting = new Map<string, number>();
  for (let i = 0; i < doc.entries.length; i++) {
    if ((i & 1023) === 0 && token.isCancellationRequested) {
      return undefined;
    }
    const topic = doc.entries[i].topicHits?.topic.text;
    if (topic !== undefined) {
      const key = nameKey('topic', topic);
      counting.set(key, (counting.get(key) ?? 0) + 1);
    }
  }
  counts = counting;
  TOPIC_COUNTS.set(doc, counts);
  return counts;
}

function keywordHover(hit: TopicHit): string {
  let where: string;
  if (!hit.field || !hit.field.text) {
    where = emphasis(w('No (field) says where this keyword matched', 'No (field) says where this keyword matched', '没有“(字段)”说明此关键词在哪里命中'));
  } else {
    const meaning = hitFieldMeaning(hit.field.text);
    const other = `Matched in “${clip(hit.field.text)}”, a field digests do not use`;
    where = meaning
      ? text(w(`Matched in ${meaning.english} · ${meaning.chinese}`, `Matched in ${meaning.english}`, `命中于${meaning.chinese}`))
      : text(w(other, other, `命中于“${clip(hit.field.text)}”，摘要集不使用此字段`));
  }
  return paragraphs(`${strong(hit.keyword.text)} · ${text(w('命中关键词 matched keyword', 'matched keyword', '命中关键词'))}`, where);
}

function hitFieldHover(hit: TopicHit, field: string): string {
  const meaning = hitFieldMeaning(field);
  if (meaning) {
    return paragraphs(
      `${strong(meaning.chinese)} · ${text(meaning.english)}`,
      text(hit.keyword.text ? w(`Where the keyword “${clip(hit.keyword.text)}” matched.`, `Where the keyword “${clip(hit.keyword.text)}” matched.`, `关键词“${clip(hit.keyword.text)}”命中之处。`) : w('Where the keyword matched.', 'Where the keyword matched.', '关键词命中之处。')),
    );
  }
  return paragraphs(
    `${strong(field)} · ${text(w('not a field digests use', 'not a field digests use', '摘要集不使用此字段'))}`,
    text(w('Known fields: ', 'Known fields: ', '已知字段：') + HIT_FIELDS.map((known) => `${known.field} ${known.chinese}`).join(w(', ', ', ', '、')) + w('.', '.', '。')),
  );
}

function categoryHover(code: string): string {
  const known = categoryByCode(code);
  if (known) {
    const archive = archives.get(archivePrefix(known.code));
    return paragraphs(
      `${strong(known.code)} · ${text(w(`${known.name} · ${known.nameZh}`, known.name, known.nameZh))}`,
      emphasis(w(`arXiv category in ${known.archive}${archive ? ' · ' + archive.nameZh : ''}`, `arXiv category in ${known.archive}`, `arXiv 分类，属于 ${archive ? archive.nameZh : known.archive}`)),
    );
  }
  const wide = categoryInFullWidth(code);
  const miscased = categoryIgnoringCase(code) ?? wide;
  if (miscased) {
    const why = wide
      ? w('not an arXiv code as written: it is in full-width characters', 'not an arXiv code as written: it is in full-width characters', '按此写法不是 arXiv 代码：使用了全角字符')
      : w('not an arXiv code as written: codes are case-sensitive', 'not an arXiv code as written: codes are case-sensitive', '按此写法不是 arXiv 代码：代码区分大小写');
    return paragraphs(
      `${strong(code)} · ${text(why)}`,
      `${text(w('arXiv spells it', 'arXiv spells it', 'arXiv 的写法为'))} ${strong(miscased.code)}${text(`: ${w(`${miscased.name} · ${miscased.nameZh}`, miscased.name, miscased.nameZh)}`)}`,
    );
  }
  const archive = archives.get(code.toLowerCase());
  const subjects = archive ? ALL_CATEGORIES.filter((category) => archivePrefix(category.code) === code.toLowerCase() && category.code !== code.toLowerCase()) : [];
  if (archive && subjects.length > 0) {
    // An archive (`astro-ph`): its categories are what a paper is filed under.
    return paragraphs(
      `${strong(code)} · ${text(w(`an arXiv archive, ${archive.name} · ${archive.nameZh}, not a category`, `an arXiv archive, ${archive.name}, not a category`, `arXiv 大类（${archive.nameZh}），不是分类`))}`,
      text(w('Its categories: ', 'Its categories: ', '其分类：') + subjects.slice(0, 12).map((category) => category.code).join(', ') + (subjects.length > 12 ? ', …' : '')),
    );
  }
  const nearest = nearestCategories(clip(code, 40), 3);
  return paragraphs(
    `${strong(code)} · ${text(w('not in the arXiv taxonomy · 不在 arXiv 分类体系中', 'not in the arXiv taxonomy', '不在 arXiv 分类体系中'))}`,
    nearest.length > 0
      ? text(w('Nearest codes: ', 'Nearest codes: ', '最接近的代码：') + nearest.map((category) => `${category.code} ${w(`${category.name} · ${category.nameZh}`, category.name, category.nameZh)}`).join(w('; ', '; ', '；')))
      : emphasis(w('No arXiv code is close to it', 'No arXiv code is close to it', '没有与之接近的 arXiv 代码')),
  );
}

/** An `arXiv:ID` reference, with a link the hover builds itself from the validated identifier. */
function arxivHover(link: Link): string | null {
  const id = link.target.startsWith(ARXIV_ABS) ? link.target.slice(ARXIV_ABS.length) : '';
  if (!ARXIV_ID.test(id) || !isArxivIdentifier(id)) {
    return null;
  }
  const url = ARXIV_ABS + id;
  return paragraphs(`${strong(`arXiv:${id}`)} · ${text(w('arXiv 论文 paper', 'arXiv paper', 'arXiv 论文'))}`, `[${escapeMarkdown(url)}](${url})`);
}

const ARXIV_ABS = 'https://arxiv.org/abs/';

/**
 * An arXiv identifier: new style `2405.09673`, old style `hep-th/9901001` or `math.GT/0309136`,
 * with an optional version. Nothing else can get into a link destination.
 */
const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[A-Za-z][A-Za-z-]{0,20}(?:\.[A-Za-z]{2})?\/\d{7})(?:v\d{1,3})?$/;

/** A category code with its names, for lists: `cs.LG Machine Learning · 机器学习`. */
function categoryLine(code: string): string {
  const known = categoryByCode(code);
  if (known) {
    return `${known.code} ${w(`${known.name} · ${known.nameZh}`, known.name, known.nameZh)}`;
  }
  const miscased = categoryIgnoringCase(code) ?? categoryInFullWidth(code);
  if (miscased) {
    return w(
      `${clip(code, 40)} (arXiv spells it ${miscased.code}: ${miscased.name} · ${miscased.nameZh})`,
      `${clip(code, 40)} (arXiv spells it ${miscased.code}: ${miscased.name})`,
      `${clip(code, 40)}（arXiv 的写法为 ${miscased.code}：${miscased.nameZh}）`,
    );
  }
  return w(`${clip(code, 40)} (not an arXiv category)`, `${clip(code, 40)} (not an arXiv category)`, `${clip(code, 40)}（不是 arXiv 分类）`);
}

// ---- Lookups ----------------------------------------------------------------------------

/**
 * The Chinese name the entry gives an author: from the `A, B（甲、乙）` pairs of the `机构` line,
 * else from an item of that line that is the author's name with a translation.
 */
function chineseNameOf(institutions: InstitutionsField | undefined, english: string): string | undefined {
  if (!institutions) {
    return undefined;
  }
  const key = normaliseName(english);
  if (institutions.authorPairs) {
    return institutions.authorPairs.find((pair) => pair.chinese && normaliseName(pair.english.text) === key)?.chinese?.text;
  }
  return institutions.items.find((item) => item.translation && item.translation.text && normaliseName(item.name.text) === key)?.translation?.text;
}

function normaliseName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

// ---- Markdown ---------------------------------------------------------------------------

/** What stands for a text that is empty, in the message language. */
function emptyText(): string {
  return w('(empty)', '(empty)', '（空）');
}

/** Plain text, escaped. */
function text(plain: string): string {
  return escapeMarkdown(clip(plain, MAX_TEXT * 4));
}

/** Bold text, escaped; never empty (`****` would be a rule). */
function strong(plain: string): string {
  const clipped = clip(plain.trim());
  return clipped ? `**${escapeMarkdown(clipped)}**` : emphasis(emptyText());
}

/** Italic text, escaped. */
function emphasis(plain: string): string {
  return `*${escapeMarkdown(clip(plain.trim(), MAX_TEXT * 4)) || escapeMarkdown(emptyText())}*`;
}

function paragraphs(...blocks: string[]): string {
  return blocks.filter((block) => block !== '').join('\n\n');
}

/** At most `max` characters of the text and `…` when cut, never splitting a surrogate pair. */
function clip(plain: string, max = MAX_TEXT): string {
  return clipText(plain, max + 1);
}

/** The first sentences of a summary, up to about `SUMMARY_PREVIEW` characters. */
function summaryPreview(summary: string): string {
  if (summary.length <= SUMMARY_PREVIEW) {
    return summary;
  }
  // Cut after the last sentence end in the second half of the window, if there is one.
  for (let i = SUMMARY_PREVIEW - 1; i >= SUMMARY_PREVIEW / 2; i--) {
    const c = summary[i];
    if (c === '。' || c === '！' || c === '？' || c === '；') {
      return summary.slice(0, i + 1) + '…';
    }
  }
  return clip(summary, SUMMARY_PREVIEW);
}

/** Up to `MAX_LISTED` items rendered and joined, with a count of the rest. */
function listed<T>(items: readonly T[], render: (item: T) => string): string {
  // Chinese punctuation in Chinese: `；`.
  const separator = w('; ', '; ', '；');
  const shown = items.slice(0, MAX_LISTED).map(render).join(separator);
  const more = items.length - MAX_LISTED;
  return more > 0 ? `${shown}${separator}${w(`… ${more} more`, `… ${more} more`, `……另有 ${more} 个`)}` : shown;
}
