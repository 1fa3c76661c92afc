/**
 * The reading workflow's words in the message language (`paperDigest.messageLanguage`): the
 * reading part of a title's hover (state, first seen, tags, note, score) and the reasons of a
 * score, which the Papers tree's tooltips, the ranked list and the hover show.
 *
 * A reason is made once in both languages by `scorePaper` (`keyword 'x' in the title, counted double (+2) ·
 * 标题含关键词`, reading/interests.ts), the form `both` shows, and is put into English or
 * Chinese here as it is sent, so that one cached score serves every language. Document and user
 * text inside a reason (a keyword, topic, category, author, institution) is kept as written.
 */
import { MessageRef, messageText } from '../cliMessages';
import { bilingual, Bilingual, MessageLanguage, pick } from '../messages';
import { PAPERS_GROUPINGS } from '../features/tree';

/** The reading words, each in English and Chinese, with the form `both` shows today. */
export const READING_WORDS = {
  read: bilingual('Read', '已读'),
  unread: bilingual('Unread', '未读'),
  starred: bilingual('Starred', '已加星标'),
  notStarred: bilingual('Not starred', '未加星标'),
  isNew: bilingual('New', '新'),
  repeat: bilingual('Repeat', '重复出现'),
  firstSeen: bilingual('First seen in', '首次出现于'),
  tags: bilingual('Tags', '标签'),
  note: bilingual('Note', '笔记'),
  score: bilingual('Score', '兴趣分'),
  noInterest: bilingual('no interest matched', '没有匹配的兴趣'),
} satisfies Record<string, Bilingual>;

/**
 * A reading word as `language` shows it: `both` gives `English · 中文` (the form the hover has
 * always had), `en` and `zh-cn` one language.
 *
 * @example readingWord(READING_WORDS.unread, 'both') // 'Unread · 未读'
 */
export function readingWord(word: Bilingual, language: MessageLanguage): string {
  return language === 'en' ? word.en : language === 'zh-cn' ? word.zh : `${word.en} · ${word.zh}`;
}

/** The Chinese of each kind of reason, by its English form (fixed words around the matched text). */
const REASON_FORMS: readonly { readonly pattern: RegExp; readonly zh: (what: string, points: string) => string }[] = [
  { pattern: /^keyword '([\s\S]*)' in the title, counted double \(([+-]?[\d.]+)\) · 标题含关键词$/, zh: (what, points) => `标题含关键词“${what}”，计双倍（${points}）` },
  { pattern: /^keyword '([\s\S]*)' in the summary or hits \(([+-]?[\d.]+)\) · 总结或命中词含关键词$/, zh: (what, points) => `总结或命中词含关键词“${what}”（${points}）` },
  { pattern: /^topic ([\s\S]*) \(([+-]?[\d.]+)\) · 专题$/, zh: (what, points) => `专题 ${what}（${points}）` },
  { pattern: /^category ([\s\S]*) \(([+-]?[\d.]+)\) · 分类$/, zh: (what, points) => `分类 ${what}（${points}）` },
  { pattern: /^author ([\s\S]*) \(([+-]?[\d.]+)\) · 作者$/, zh: (what, points) => `作者 ${what}（${points}）` },
];

/** An institution's reason: `institution NAME (+1) · 机构` or `... · 机构 TRANSLATION`. */
const INSTITUTION_REASON = /^institution ([\s\S]*?) \(([+-]?[\d.]+)\) · 机构(?: ([\s\S]*))?$/;

/**
 * A reason of a score in `language`: `both` as `scorePaper` made it, `en` its English part,
 * `zh-cn` its Chinese (the matched text as written). A text that is not a reason is returned
 * as it is.
 *
 * @example localizedReason("keyword 'rl' in the title, counted double (+2) · 标题含关键词", 'en')    // "keyword 'rl' in the title, counted double (+2)"
 * @example localizedReason("keyword 'rl' in the title, counted double (+2) · 标题含关键词", 'zh-cn') // '标题含关键词“rl”，计双倍（+2）'
 */
export function localizedReason(reason: string, language: MessageLanguage): string {
  if (language === 'both') {
    return reason;
  }
  for (const form of REASON_FORMS) {
    const match = form.pattern.exec(reason);
    if (match) {
      return language === 'en' ? reason.slice(0, reason.lastIndexOf(' · ')) : form.zh(match[1], match[2]);
    }
  }
  const institution = INSTITUTION_REASON.exec(reason);
  if (institution) {
    const [, name, points, translation] = institution;
    return language === 'en' ? `institution ${name} (${points})` : `机构 ${translation || name}（${points}）`;
  }
  return reason;
}

/** The reasons in `language`; the same array for `both`. */
export function localizedReasons(reasons: readonly string[], language: MessageLanguage): readonly string[] {
  return language === 'both' || reasons.length === 0 ? reasons : reasons.map((reason) => localizedReason(reason, language));
}

/** What each field of a change (`PaperStateChange`) must be. */
const FIELD_TYPES: Readonly<Record<string, Bilingual>> = {
  read: bilingual('true or false', 'true 或 false'),
  starred: bilingual('true or false', 'true 或 false'),
  addTags: bilingual('a list of strings', '字符串列表'),
  removeTags: bilingual('a list of strings', '字符串列表'),
  note: bilingual('a string or null', '字符串或 null'),
};

/** A text to follow Chinese: with a space before it when it starts with a Latin letter or digit. */
function spacedAfterChinese(text: string): string {
  return /^[A-Za-z0-9]/.test(text) ? ' ' + text : text;
}

/** What a change of the reading state says back, when it says anything (`setPaperState`). */
export const CHANGE_MESSAGES = {
  nothingToChange: bilingual('Nothing to change.', '没有要更改的内容。'),
  noPaperMatched: bilingual('No paper matched.', '没有匹配的论文。'),
  cancelled: bilingual('Cancelled: nothing was changed.', '已取消：未做任何更改。'),
  wrongFields: (fields: readonly string[]): Bilingual =>
    bilingual(
      `Nothing was changed: ${fields.map((field) => `"${field}" must be ${FIELD_TYPES[field]?.en ?? 'another type'}`).join('; ')}.`,
      // A Latin word after Chinese gets a space before it (`必须是 true 或 false`), a Chinese one none.
      `未做任何更改：${fields.map((field) => `“${field}”必须是${spacedAfterChinese(FIELD_TYPES[field]?.zh ?? '其他类型')}`).join('；')}。`,
    ),
  unknownFields: (fields: readonly string[]): Bilingual =>
    bilingual(
      `Nothing was changed: a change has no field ${fields.map((field) => `"${field}"`).join(', ')} (it has read, starred, addTags, removeTags and note).`,
      `未做任何更改：更改中没有字段${fields.map((field) => `“${field}”`).join('、')}（可用的字段为 read、starred、addTags、removeTags 和 note）。`,
    ),
  wrongScope: (fields: readonly string[]): Bilingual =>
    bilingual(
      `Nothing was changed: the scope's ${fields.map((field) => `"${field}"`).join(', ')} ${fields.length === 1 ? 'is' : 'are'} not what a scope has (see PaperScope: keys, uri, groupId, grouping, filter, tag, unreadOnly, starredOnly, newOnly; grouping one of ${PAPERS_GROUPINGS.join(', ')}).`,
      `未做任何更改：范围中的${fields.map((field) => `“${field}”`).join('、')}不是范围可有的内容（见 PaperScope：keys、uri、groupId、grouping、filter、tag、unreadOnly、starredOnly、newOnly；grouping 须为 ${PAPERS_GROUPINGS.join('、')} 之一）。`,
    ),
  outside: (count: number): Bilingual =>
    bilingual(`${count} ${count === 1 ? 'paper is' : 'papers are'} outside the workspace folders, where no state file is kept.`, `${count} 篇论文在工作区文件夹之外，那里不保存状态文件。`),
} as const;

/**
 * A problem of the state file (or what a refused change says) in `language`: Chinese for
 * `zh-cn`, else English (a notification's sentence; `both` keeps it one line). Both come from
 * the message table (service/fileMessages.ts), the detail too (`not valid JSON (…)`, `已损坏：不是有效的
 * JSON（…）`); what is data in it (the location, JSON.parse's message, a system error's own text)
 * stays as it was found.
 *
 * @example stateProblemIn(message('stateCannotRead', { location: '/w/.paper-digest/state.json', reason: message('systemPermission') }), 'zh-cn')
 * // '/w/.paper-digest/state.json 无法读取（权限不足）；阅读状态为只读'
 */
export function stateProblemIn(problem: MessageRef, language: MessageLanguage): string {
  return pick(messageText(problem), language);
}
