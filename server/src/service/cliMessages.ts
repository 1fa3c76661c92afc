/**
 * The command line's own words (`papers`, `mark`, `stats` and `check`: usage errors, help
 * texts, headings, state words and summaries), each written once in English and once in
 * Chinese, put into the language of `--lang` through messages.ts.
 *
 * A template names its values in braces, `{count}`; `{count:paper|papers}` is the singular
 * when `count` is 1, else the plural (English needs it, Chinese does not). Both languages of a
 * message name the same values (a unit test holds every key to it).
 */
import { FILE_MESSAGES } from './fileMessages';
import { LOG_MESSAGES } from './logMessages';
import { Bilingual, bilingual, MessageLanguage, pick, say } from './messages';

const HELP_CHECK_EN = `Usage: paper-digest check [--fix] [--format text|json|sarif] [--lang both|en|zh-cn|auto] PATH...
       paper-digest stats [--format text|json|svg|html] [--lang LANGUAGE] [PATH...]
       paper-digest papers [PATH...] [--unread] [--starred] [--new] [--filter TEXT] [--tag TAG]
                           [--sort rank|file] [--format text|json|bibtex|csljson|ris|csv|markdown]
                           [--lang LANGUAGE]
       paper-digest mark read|unread|star|unstar|tag (--title TITLE | --id ID) [--tag TAG]...
                         [--untag TAG]... [--note TEXT] [--lang LANGUAGE] [PATH]

Checks bilingual arXiv paper digests and reports their problems.

  PATH               a digest file (any name), or a folder searched for *.digest and *.digest.txt
  --fix              apply every safe fix to the files first, then report what remains
  --format FORMAT    text (default): path:line:column: severity code message
                     json: one JSON document; sarif: SARIF 2.1.0, for code-scanning services
  --lang LANGUAGE    the language of the messages: both (default, "English — 中文"), en,
                     zh-cn, or auto (Chinese when LC_ALL, LC_MESSAGES or LANG is Chinese)
  -h, --help         show this help
  -V, --version      show the version

Only regular files of up to 32 MB are read; links out of a folder searched are not followed;
--fix replaces a file atomically, never through a link, and never over a change made since
it was read.

Exit status: 0 when no problem remains, 1 when problems remain, 2 on bad usage, when a file
cannot be read or written, or when a folder holds no digest.
`;

const HELP_CHECK_ZH = `用法：paper-digest check [--fix] [--format text|json|sarif] [--lang both|en|zh-cn|auto] PATH...
      paper-digest stats [--format text|json|svg|html] [--lang LANGUAGE] [PATH...]
      paper-digest papers [PATH...] [--unread] [--starred] [--new] [--filter TEXT] [--tag TAG]
                          [--sort rank|file] [--format text|json|bibtex|csljson|ris|csv|markdown]
                          [--lang LANGUAGE]
      paper-digest mark read|unread|star|unstar|tag (--title TITLE | --id ID) [--tag TAG]...
                        [--untag TAG]... [--note TEXT] [--lang LANGUAGE] [PATH]

检查中英双语 arXiv 论文摘要集并报告其中的问题。

  PATH               一个摘要集文件（任意文件名），或一个文件夹（在其中查找 *.digest 和 *.digest.txt）
  --fix              先对文件应用所有安全的修复，再报告剩下的问题
  --format FORMAT    text（默认）：路径:行:列: 严重程度 代码 消息
                     json：一个 JSON 文档；sarif：SARIF 2.1.0，供代码扫描服务使用
  --lang LANGUAGE    消息的语言：both（默认，“English — 中文”）、en、zh-cn，
                     或 auto（LC_ALL、LC_MESSAGES 或 LANG 为中文时用中文）
  -h, --help         显示此帮助
  -V, --version      显示版本

只读取不超过 32 MB 的普通文件；不跟随指向所查文件夹之外的链接；
--fix 以原子方式替换文件，从不经由链接写入，也从不覆盖读取之后发生的改动。

退出状态：没有剩余问题时为 0，有剩余问题时为 1，用法错误、文件无法读写或文件夹中没有摘要集时为 2。
`;

const HELP_PAPERS_EN = `Usage: paper-digest papers [PATH...] [--unread] [--starred] [--new] [--filter TEXT]
                          [--tag TAG] [--sort rank|file]
                          [--format text|json|bibtex|csljson|ris|csv|markdown]
                          [--lang both|en|zh-cn|auto]

Lists the papers of the digests under PATH (default: the current folder) with their reading
state, each paper once. State comes from .paper-digest/state.json of the folder given, the
ranking from its .paper-digest/interests.json.

  --unread, --starred, --new   only unread, starred, or new papers: --new lists each paper at
                     the digest it first appeared in (PATH one digest: what it brought new)
  --filter TEXT      only papers whose titles, authors or institutions contain TEXT, or
                     with field:value terms (topic:, keyword:, category:, institution:,
                     author:, date:, week:, month:, file:), e.g. "topic:reasoning week:2026-W18"
  --tag TAG          only papers with this tag
  --sort ORDER       rank (default): highest score first; file: oldest digest first, file order
  --format FORMAT    text (default): one line per paper; json: one array of objects;
                     bibtex, csljson, ris, csv, markdown: the export
  --lang LANGUAGE    the language of the text: both (default), en, zh-cn, or auto (Chinese
                     when LC_ALL, LC_MESSAGES or LANG is Chinese); the data formats stay as they are
  -h, --help         show this help
  -V, --version      show the version

Exit status: 0, or 2 on bad usage, when a file or the state file cannot be read, or when a
folder holds no digest.
`;

const HELP_PAPERS_ZH = `用法：paper-digest papers [PATH...] [--unread] [--starred] [--new] [--filter TEXT]
                         [--tag TAG] [--sort rank|file]
                         [--format text|json|bibtex|csljson|ris|csv|markdown]
                         [--lang both|en|zh-cn|auto]

列出 PATH（默认：当前文件夹）下各摘要集中的论文及其阅读状态，每篇论文只列一次。状态来自
所给文件夹的 .paper-digest/state.json，排序依据其 .paper-digest/interests.json。

  --unread, --starred, --new   只列未读、已加星标或新的论文：--new 把每篇论文列在它首次出现的
                     摘要集中（PATH 为一期摘要集时：这一期新出现的论文）
  --filter TEXT      只列标题、作者或机构包含 TEXT 的论文，或按 字段:值 筛选（topic:、
                     keyword:、category:、institution:、author:、date:、week:、month:、
                     file:），如 "topic:数学推理 week:2026-W18"
  --tag TAG          只列带有此标签的论文
  --sort ORDER       rank（默认）：得分最高的在前；file：最早的摘要集在前，按文件中的顺序
  --format FORMAT    text（默认）：每篇论文一行；json：一个对象数组；
                     bibtex、csljson、ris、csv、markdown：导出格式
  --lang LANGUAGE    文字的语言：both（默认）、en、zh-cn，或 auto（LC_ALL、LC_MESSAGES
                     或 LANG 为中文时用中文）；数据格式保持原样
  -h, --help         显示此帮助
  -V, --version      显示版本

退出状态：0；用法错误、文件或状态文件无法读取或文件夹中没有摘要集时为 2。
`;

const HELP_MARK_EN = `Usage: paper-digest mark read|unread|star|unstar|tag (--title TITLE | --id ID)
                        [--tag TAG]... [--untag TAG]... [--note TEXT] [--lang LANGUAGE] [PATH]

Changes the reading state of one paper in the state file of PATH (default: the current
folder), .paper-digest/state.json, written atomically and merged with any change made to it
meanwhile.

  read, unread, star, unstar   the change; tag: only the tags and the note below
  --title TITLE      the paper whose English or Chinese title is TITLE (case and spaces
                     ignored), else the one paper whose title contains it
  --id ID            the paper with this id (the "id" of papers --format json)
  --tag TAG          add a tag (repeatable); --untag TAG removes one
  --note TEXT        set the note ('' removes it)
  --lang LANGUAGE    the language of the messages: both (default), en, zh-cn, or auto
                     (Chinese when LC_ALL, LC_MESSAGES or LANG is Chinese)
  -h, --help         show this help
  -V, --version      show the version

Exit status: 0, or 2 on bad usage, when no paper or more than one matches, or when the state
file cannot be used or written (it is then left as it is).
`;

const HELP_MARK_ZH = `用法：paper-digest mark read|unread|star|unstar|tag (--title TITLE | --id ID)
                       [--tag TAG]... [--untag TAG]... [--note TEXT] [--lang LANGUAGE] [PATH]

修改 PATH（默认：当前文件夹）的状态文件 .paper-digest/state.json 中一篇论文的阅读状态；
文件以原子方式写入，并与此间对它的任何改动合并。

  read, unread, star, unstar   要做的改动（已读、未读、加星标、取消星标）；tag：只改下面的标签和笔记
  --title TITLE      英文或中文标题为 TITLE 的论文（忽略大小写和空白），
                     否则为标题包含它的那一篇论文
  --id ID            id 为 ID 的论文（papers --format json 中的 "id"）
  --tag TAG          添加一个标签（可重复）；--untag TAG 移除一个
  --note TEXT        设置笔记（'' 删除笔记）
  --lang LANGUAGE    消息的语言：both（默认）、en、zh-cn，或 auto
                     （LC_ALL、LC_MESSAGES 或 LANG 为中文时用中文）
  -h, --help         显示此帮助
  -V, --version      显示版本

退出状态：0；用法错误、没有或有多篇论文匹配、或状态文件无法使用或写入（此时保持原样）时为 2。
`;

const HELP_STATS_EN = `Usage: paper-digest stats [--format text|json|svg|html] [--lang both|en|zh-cn|auto] [PATH...]

Statistics of the digests under PATH (default: the current folder): papers per topic, keyword,
arXiv category, institution and digest date, rising and falling topics, weekly and monthly
roll-ups. A paper repeated by several digests counts once.

  --format FORMAT    text (default): tables; json: the numbers;
                     svg: a chart of papers per topic; html: one page with every chart
  --lang LANGUAGE    the language of the tables: both (default), en, zh-cn, or auto (Chinese
                     when LC_ALL, LC_MESSAGES or LANG is Chinese)
  -h, --help         show this help
  -V, --version      show the version

Exit status: 0, or 2 on bad usage, when a file cannot be read, or when a folder holds no
digest.
`;

const HELP_STATS_ZH = `用法：paper-digest stats [--format text|json|svg|html] [--lang both|en|zh-cn|auto] [PATH...]

统计 PATH（默认：当前文件夹）下的摘要集：各专题、关键词、arXiv 分类、机构和每期日期的论文数，
上升和下降的专题，以及按周和按月的汇总。被多期摘要集重复收录的论文只计一次。

  --format FORMAT    text（默认）：表格；json：数字；
                     svg：各专题论文数的图表；html：包含所有图表的一个页面
  --lang LANGUAGE    表格的语言：both（默认）、en、zh-cn，或 auto（LC_ALL、LC_MESSAGES
                     或 LANG 为中文时用中文）
  -h, --help         显示此帮助
  -V, --version      显示版本

退出状态：0；用法错误、文件无法读取或文件夹中没有摘要集时为 2。
`;

/** Every message of the command line, by key. */
export const CLI_MESSAGES = {
  // Help texts.
  helpCheck: bilingual(HELP_CHECK_EN, HELP_CHECK_ZH),
  helpPapers: bilingual(HELP_PAPERS_EN, HELP_PAPERS_ZH),
  helpMark: bilingual(HELP_MARK_EN, HELP_MARK_ZH),
  helpStats: bilingual(HELP_STATS_EN, HELP_STATS_ZH),

  // Usage errors, and where to read more.
  seeHelp: bilingual("see 'paper-digest --help'", '见“paper-digest --help”'),
  seeCommandHelp: bilingual("see 'paper-digest {command} --help'", '见“paper-digest {command} --help”'),
  noCommand: bilingual('no command given: use {commands}', '没有给出命令：请用 {commands}'),
  unknownCommand: bilingual("unknown command '{command}': use {commands}", '未知命令“{command}”：请用 {commands}'),
  checkNeedsPath: bilingual('check needs at least one file or folder', 'check 需要至少一个文件或文件夹'),
  unknownOption: bilingual("unknown option '{option}'", '未知选项“{option}”'),
  unknownOptionFor: bilingual("unknown option '{option}' for {command}", '{command} 没有选项“{option}”'),
  needsValue: bilingual('{option} needs a value', '{option} 需要一个值'),
  needsValueOf: bilingual('{option} needs a value: {values}', '{option} 需要一个值：{values}'),
  unknownFormat: bilingual("unknown format '{value}': use {values}", '未知格式“{value}”：请用 {values}'),
  unknownLanguage: bilingual("unknown language '{value}': use {values}", '未知语言“{value}”：请用 {values}'),
  unknownSort: bilingual("unknown sort '{value}': use {values}", '未知排序“{value}”：请用 {values}'),
  unknownChange: bilingual("unknown change '{value}': use {values}", '未知改动“{value}”：请用 {values}'),
  markOneFolder: bilingual('mark takes one folder', 'mark 只接受一个文件夹'),
  needsTag: bilingual('{option} needs a tag', '{option} 需要一个标签'),
  filterNotADay: bilingual("--filter: '{term}' is not a day from 1900-01-01 to 2999-12-31: write date:YYYY-MM-DD, e.g. date:{example}", '--filter：“{term}”不是 1900-01-01 至 2999-12-31 之间的日期：请写成 date:YYYY-MM-DD，如 date:{example}'),
  filterNotAWeek: bilingual("--filter: '{term}' is not an ISO week from 1900 to 2999: write week:YYYY-Www, W01 to W52 (W53 in the years that have one), e.g. week:{example}", '--filter：“{term}”不是 1900 至 2999 年间的 ISO 周：请写成 week:YYYY-Www，W01 至 W52（有第 53 周的年份可写 W53），如 week:{example}'),
  filterNotAMonth: bilingual("--filter: '{term}' is not a month from 1900 to 2999: write month:YYYY-MM, e.g. month:{example}", '--filter：“{term}”不是 1900 至 2999 年间的月份：请写成 month:YYYY-MM，如 month:{example}'),
  filterTooManyTerms: bilingual('--filter has more than {max} field:value terms', '--filter 的 field:value 条件超过 {max} 个'),
  givenTwice: bilingual('{option} given twice', '{option} 重复给出'),
  markNeedsChange: bilingual('mark needs a change: {values}', 'mark 需要一个改动：{values}'),
  markNeedsPaper: bilingual('mark needs one of --title TITLE or --id ID', 'mark 需要 --title TITLE 或 --id ID 之一'),
  markOnePaper: bilingual('mark takes --title or --id, not both', 'mark 只接受 --title 或 --id 之一，不能同时给出'),
  markTagNeeds: bilingual('mark tag needs --tag, --untag or --note', 'mark tag 需要 --tag、--untag 或 --note'),

  // papers
  papersSummary: bilingual(
    '{count} {count:paper|papers} ({unread} unread, {starred} starred). ✓ read, ★ starred, + new.',
    '{count} 篇论文（{unread} 篇未读，{starred} 篇已加星标）。✓ 已读，★ 已加星标，+ 新论文。',
  ),

  // mark
  notAFolder: bilingual("'{path}' is not a folder: mark changes the state file of a folder", '“{path}”不是文件夹：mark 修改的是文件夹的状态文件'),
  noSuchId: bilingual("no paper has the id '{id}' (see 'paper-digest papers --format json')", '没有 id 为“{id}”的论文（见“paper-digest papers --format json”）'),
  noSuchTitle: bilingual("no paper's title is or contains '{title}'", '没有标题是或包含“{title}”的论文'),
  severalMatch: bilingual(
    "{count} papers match '{title}': {names}; give more of the title, or --id",
    '{count} 篇论文与“{title}”相符：{names}；请写出更多标题，或用 --id',
  ),
  markedRead: bilingual('marked read', '已标记为已读'),
  markedUnread: bilingual('marked unread', '已标记为未读'),
  starred: bilingual('starred', '已加星标'),
  unstarred: bilingual('unstarred', '已取消星标'),
  tagged: bilingual('tagged {tags}', '已加标签 {tags}'),
  untagged: bilingual('untagged {tags}', '已移除标签 {tags}'),
  noteSet: bilingual('note set', '已设置笔记'),
  noteRemoved: bilingual('note removed', '已删除笔记'),
  unchanged: bilingual('unchanged (already so)', '未更改（已是此状态）'),

  // stats
  statsSummary: bilingual(
    '{papers} {papers:paper|papers} ({entries} {entries:entry|entries}) in {files} digest {files:file|files}.',
    '{files} 个摘要集文件中有 {papers} 篇论文（{entries} 个条目）。',
  ),
  statsSummaryUndated: bilingual(
    '{papers} {papers:paper|papers} ({entries} {entries:entry|entries}) in {files} digest {files:file|files}, {undated} without a date in the name.',
    '{files} 个摘要集文件中有 {papers} 篇论文（{entries} 个条目），其中 {undated} 个文件名中没有日期。',
  ),
  topics: bilingual('Topics', '专题'),
  keywords: bilingual('Keywords', '关键词'),
  categories: bilingual('Categories', '分类'),
  institutions: bilingual('Institutions', '机构'),
  perDate: bilingual('Papers per digest date', '每期论文数'),
  trends: bilingual('Last 7 days against the 7 before', '近 7 天对比前 7 天'),
  weeks: bilingual('Weeks', '每周'),
  months: bilingual('Months', '每月'),
  statsTitle: bilingual('Paper Digest statistics', 'Paper Digest 统计'),
  period: bilingual('period', '时段'),
  datesColumn: bilingual('dates', '日期'),
  papersColumn: bilingual('papers', '论文'),
  topicsColumn: bilingual('topics', '专题'),
  topic: bilingual('topic', '专题'),
  keyword: bilingual('keyword', '关键词'),
  none: bilingual('(none)', '（无）'),
  more: bilingual('… {count} more', '… 另有 {count} 个'),
  lastDates: bilingual('(the last {shown} of {count} dates)', '（{count} 个日期中的最后 {shown} 个）'),
  lastWeeks: bilingual('(the last {shown} of {count} weeks)', '（{count} 周中的最后 {shown} 周）'),
  lastMonths: bilingual('(the last {shown} of {count} months)', '（{count} 个月中的最后 {shown} 个月）'),

  // Lists of choices.
  or: bilingual('{first} or {last}', '{first} 或 {last}'),

  // Files and state files that cannot be read, written or used (fileMessages.ts).
  ...FILE_MESSAGES,

  // The language server's log (logMessages.ts).
  ...LOG_MESSAGES,
} satisfies Record<string, Bilingual>;

export type CliMessageKey = keyof typeof CLI_MESSAGES;

/** A value put into a message: the same in both languages, its own in each, or another message of the table. */
export type CliValue = string | number | Bilingual | MessageRef;

/**
 * A message of the table with its values, kept so until it is shown: a problem found far from
 * where it is said (a file read, a state file parsed) carries this, and whoever shows it puts it
 * into the language asked for.
 *
 * @example { key: 'cannotRead', values: { path: 'a.digest', reason: { key: 'systemMissing' } } }
 */
export interface MessageRef {
  readonly key: CliMessageKey;
  readonly values?: Readonly<Record<string, CliValue>>;
}

/** A message of the table and its values, e.g. `message('notRegular', { kind: message('kindFifo') })`. */
export function message(key: CliMessageKey, values?: Readonly<Record<string, CliValue>>): MessageRef {
  return values === undefined ? { key } : { key, values };
}

/** An error whose message is a message of the table (`message` is its English). */
export class MessageError extends Error {
  constructor(readonly ref: MessageRef) {
    super(messageText(ref).en);
  }
}

const SYSTEM_ERRORS: Readonly<Record<string, CliMessageKey>> = {
  ENOENT: 'systemMissing',
  ENOTDIR: 'systemNotFolder',
  EACCES: 'systemPermission',
  EPERM: 'systemPermission',
  EISDIR: 'systemIsFolder',
  EROFS: 'systemReadOnly',
  ENOSPC: 'systemNoSpace',
  EDQUOT: 'systemQuota',
  EFBIG: 'systemFileSize',
  ELOOP: 'systemLoop',
  ENAMETOOLONG: 'systemNameTooLong',
  EIO: 'systemIo',
  // A read that the file does not take (`/proc/self/pagemap`).
  EINVAL: 'systemInvalid',
};

/**
 * Why something failed, as a message of the table: a `MessageError`'s own, a system error's by
 * its code, else the error's text as it is (`systemOther`).
 *
 * @example reasonOf(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' })) // { key: 'systemMissing' }
 * @example reasonOf(new Error('EIO: i/o error, read'))                                      // { key: 'systemOther', values: { detail: 'EIO: i/o error, read' } }
 */
export function reasonOf(error: unknown): MessageRef {
  if (error instanceof MessageError) {
    return error.ref;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_INVALID_ARG_VALUE' && error instanceof Error && /null bytes/.test(error.message)) {
    // A path with U+0000 in it (`file:///x/%00`), which Node refuses before the system sees it.
    return message('systemNulInPath');
  }
  const key = typeof code === 'string' && Object.prototype.hasOwnProperty.call(SYSTEM_ERRORS, code) ? SYSTEM_ERRORS[code] : undefined;
  return key ? message(key) : message('systemOther', { detail: error instanceof Error ? error.message : String(error) });
}

/**
 * Why something failed, for the log: a `MessageError`'s own message, else the error's own text
 * (a system error's with its call and path, `ENOENT: no such file or directory, scandir '/w/x'`),
 * where `reasonOf` keeps only what its code means.
 */
export function detailOf(error: unknown): MessageRef {
  if (error instanceof MessageError) {
    return error.ref;
  }
  return message('systemOther', { detail: error instanceof Error ? error.message : String(error) });
}

function isMessageRef(value: CliValue): value is MessageRef {
  return typeof value === 'object' && 'key' in value;
}

const PLACEHOLDER = /\{(\w+)(?::([^|{}]*)\|([^{}]*))?\}/g;

function fill(template: string, values: Readonly<Record<string, CliValue>>, side: 'en' | 'zh'): string {
  return template.replace(PLACEHOLDER, (whole, name: string, singular: string | undefined, plural: string | undefined) => {
    const value = values[name];
    if (value === undefined) {
      return whole;
    }
    if (singular !== undefined) {
      return value === 1 ? singular : plural!;
    }
    if (typeof value !== 'object') {
      return String(value);
    }
    return isMessageRef(value) ? fill(CLI_MESSAGES[value.key][side], value.values ?? {}, side) : value[side];
  });
}

/** Where a part of the server writes a line of its log: a message of the table, put into words by whoever shows it (`logText`). */
export type Log = (message: MessageRef) => void;

/**
 * A line of the server's log: `Paper Digest: ` and the message as the server's messages are
 * said (`say`: both languages for `both`).
 *
 * @example logText(message('logFirstFilesOnly', { max: 20000 }), 'zh-cn') // 'Paper Digest: 只索引了前 20000 个摘要集文件。'
 */
export function logText(ref: MessageRef, language: MessageLanguage): string {
  return `Paper Digest: ${say(messageText(ref), language)}`;
}

/**
 * The log's `; skipped 3: 1 too big, 2 unreadable` (`logSkipped`): the counts that have a message
 * in `keys`, each said by it (it takes the `count`), joined; nothing when there are none.
 *
 * @example skippedPart(new Map([['link', 1]]), { link: 'skipLink' }) // message('logSkipped', { count: 1, reasons: { en: '1 symbolic link (never followed)', zh: '1 个符号链接（从不跟随）' } })
 */
export function skippedPart<K extends string>(counts: ReadonlyMap<K, number>, keys: Readonly<Partial<Record<K, CliMessageKey>>>): MessageRef | '' {
  const said = [...counts].filter(([key, count]) => count > 0 && Object.prototype.hasOwnProperty.call(keys, key));
  if (said.length === 0) {
    return '';
  }
  const parts = said.map(([key, count]) => cliText(keys[key]!, { count }));
  const reasons: Bilingual = { en: parts.map((part) => part.en).join(', '), zh: parts.map((part) => part.zh).join('，') };
  return message('logSkipped', { count: said.reduce((total, [, count]) => total + count, 0), reasons });
}

/**
 * A message of the table with its values (messages among them filled in too), in both languages.
 *
 * @example messageText(message('cannotRead', { path: 'a.digest', reason: message('systemMissing') })).zh // "无法读取“a.digest”：没有这个文件或文件夹"
 */
export function messageText(ref: MessageRef): Bilingual {
  return cliText(ref.key, ref.values);
}

/**
 * A message of the table with its values, in both languages.
 *
 * @example cliText('needsValue', { option: '--sort' }) // { en: '--sort needs a value', zh: '--sort 需要一个值' }
 */
export function cliText(key: CliMessageKey, values: Readonly<Record<string, CliValue>> = {}): Bilingual {
  const message: Bilingual = CLI_MESSAGES[key];
  return bilingual(fill(message.en, values, 'en'), fill(message.zh, values, 'zh'));
}

/**
 * A message of the table in `language` (`both`: `English — 中文`).
 *
 * @example cliSay('markNeedsPaper', {}, 'zh-cn') // 'mark 需要 --title TITLE 或 --id ID 之一'
 */
export function cliSay(key: CliMessageKey, values: Readonly<Record<string, CliValue>>, language: MessageLanguage): string {
  return say(cliText(key, values), language);
}

/**
 * A summary line or a report in `language`: for `both`, English, as `check`'s summary line
 * (and these lines) read before there was a choice.
 */
export function cliSummary(key: CliMessageKey, values: Readonly<Record<string, CliValue>>, language: MessageLanguage): string {
  return pick(cliText(key, values), language);
}

/** The help text of a command. */
export type HelpKey = 'helpCheck' | 'helpPapers' | 'helpMark' | 'helpStats';

/** A help text in `language`: `both` gives the English text, then the Chinese. */
export function cliHelp(key: HelpKey, language: MessageLanguage): string {
  const message: Bilingual = CLI_MESSAGES[key];
  return language === 'en' ? message.en : language === 'zh-cn' ? message.zh : `${message.en}\n${message.zh}`;
}

/**
 * Choices as a sentence ends them: `a, b or c` and `a、b 或 c`.
 *
 * @example choices(['rank', 'file']) // { en: 'rank or file', zh: 'rank 或 file' }
 */
export function choices(values: readonly string[]): Bilingual {
  if (values.length < 2) {
    return bilingual(values.join(''), values.join(''));
  }
  return cliText('or', { first: bilingual(values.slice(0, -1).join(', '), values.slice(0, -1).join('、')), last: values[values.length - 1] });
}

/** The names of the values a template takes (for the test that both languages take the same). */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))].sort();
}
