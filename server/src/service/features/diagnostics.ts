/**
 * Diagnostics: every mistake that DIGEST-FORMAT.md lists under "Mistakes seen in real digests",
 * reported at the exact place with a stable code, a message in English and Chinese, a link to
 * the rule's page under docs/rules/, and the data its quick fix needs.
 *
 * The structure problems come from the parser (which keeps one broken entry from shifting the
 * fields of the entries after it); the field contents are checked here, entry by entry, so a
 * problem always belongs to the entry it was found in.
 */
import { compareDigests } from '../digestDates';
import { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Entry, FieldKind, InstitutionItem, InstitutionsField, Span, StructureProblem, TopicHitsField } from '../model';
import { LABELS } from '../model';
import { categoryByCode, categoryIgnoringCase, categoryInFullWidth, isCategoryLike, nearestCategories } from '../taxonomy';
import { compatibilityForm, hasCjk, quotedText } from '../text';
import { hitFieldMeaning } from './labels';
import { positionBefore } from '../edits';
import { entryAt, entryLine, entryTitleKey } from './entries';
import { entriesByTitle, firstOfTitle } from './titleIndex';
import { consistencyProblems, FormsElsewhere } from './consistency';
import { documentTooLarge, TooLarge } from '../limits';
import { entryNames } from '../terms';
import { bilingual, MessageLanguage, say } from '../messages';
import { RecentMap } from '../recentMap';
import { keep } from '../keptStrings';
import { notAnInstitutionKind } from '../institutionNames';

/** The `source` of every diagnostic of Paper Digest. */
export const DIAGNOSTIC_SOURCE = 'paper-digest';

/**
 * The rules, by their stable codes. Each code has a page docs/rules/<code>.md.
 */
export enum DiagnosticCode {
  /** The first paragraph is not the digest's heading (its subject, in Chinese). */
  MissingHeading = 'missing-heading',
  /** A required paragraph of an entry is missing: English or Chinese title, authors, `专题命中`, `AI总结`. */
  MissingField = 'missing-field',
  /** A line follows the line before it with no blank line between them. */
  RunTogether = 'run-together',
  /** A field comes after a field that should follow it. */
  OutOfOrder = 'out-of-order',
  /** A line that belongs to no field. */
  StrayLine = 'stray-line',
  /** A half-width mark where the format uses a full-width one: `;` `:` `()` `,` for `；` `：` `（）` `、`. */
  HalfWidthPunctuation = 'half-width-punctuation',
  /** A full-width mark where the format uses a half-width one: `（abstract）`, `，` between author names. */
  FullWidthPunctuation = 'full-width-punctuation',
  /** Categories separated by something else than `、` (and not a half-width comma): `，`, `；`, spaces. */
  CategorySeparator = 'category-separator',
  /** A `（` without its `）`, or the reverse, in an institution; a topic hit's `(field` never closed. */
  UnbalancedBrackets = 'unbalanced-brackets',
  /** The `机构` line without the `* ` after the label. */
  InstitutionsMissingStar = 'institutions-missing-star',
  /** The `机构` line without the trailing `纠错`. */
  InstitutionsMissingMarker = 'institutions-missing-marker',
  /** An institution item that is not an institution, e.g. `[cs.AI]（计算机科学与人工智能）`, or an empty item. */
  NotAnInstitution = 'not-an-institution',
  /** A topic hit without its `(field)`. */
  HitMissingField = 'hit-missing-field',
  /** A topic hit with an empty keyword, e.g. `(title)` alone or `；；`. */
  EmptyKeyword = 'empty-keyword',
  /** Two topic hits with no `；` between them: `reasoning(abstract)math reasoning(title)`. */
  RunTogetherHits = 'run-together-hits',
  /** The `专题命中` line without `分类` and its categories. */
  MissingCategories = 'missing-categories',
  /** A category code that is not in the arXiv taxonomy. */
  UnknownCategory = 'unknown-category',
  /** A known category code in the wrong case, e.g. `CS.lg` for `cs.LG`. */
  CategoryCase = 'category-case',
  /** The Chinese title has no Chinese in it. */
  ChineseTitleWithoutChinese = 'chinese-title-without-chinese',
  /** The English title is in Chinese. */
  EnglishTitleInChinese = 'english-title-in-chinese',
  /** The English and the Chinese titles are in each other's place. */
  SwappedTitles = 'swapped-titles',
  /** `AI总结` with nothing after it. */
  EmptySummary = 'empty-summary',
  /** The same paper (same English title) twice in one file, or in two files of the workspace. */
  DuplicatePaper = 'duplicate-paper',
  /** The same institution translated differently in the workspace (consistency.ts). */
  InconsistentTranslation = 'inconsistent-translation',
  /** The same English author name given different Chinese forms on `机构` lines (consistency.ts). */
  InconsistentAuthorName = 'inconsistent-author-name',
  /** The document is past a size limit (limits.ts): it is not checked. */
  DocumentTooLarge = 'document-too-large',
}

/** Every code, in the order of the documentation. */
export const ALL_CODES: readonly DiagnosticCode[] = Object.values(DiagnosticCode);

/** What a rule is set to in the settings. */
export type RuleSetting = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** What the documentation and the command line's SARIF output say about each rule. */
export interface RuleInfo {
  readonly code: DiagnosticCode;
  readonly severity: Exclude<RuleSetting, 'off'>;
  /** A one-line summary, English and Chinese. */
  readonly title: string;
  readonly titleZh: string;
}

function rule(code: DiagnosticCode, severity: RuleInfo['severity'], title: string, titleZh: string): RuleInfo {
  return { code, severity, title, titleZh };
}

/**
 * The rules with their default severities.
 *
 * @example RULES[DiagnosticCode.MissingField].severity // 'error'
 */
export const RULES: Readonly<Record<DiagnosticCode, RuleInfo>> = {
  [DiagnosticCode.MissingHeading]: rule(DiagnosticCode.MissingHeading, 'warning', 'The digest has no heading', '缺少摘要集标题'),
  [DiagnosticCode.MissingField]: rule(DiagnosticCode.MissingField, 'error', 'A required paragraph is missing', '缺少必需的段落'),
  [DiagnosticCode.RunTogether]: rule(DiagnosticCode.RunTogether, 'error', 'Two paragraphs run together', '两段之间缺少空行'),
  [DiagnosticCode.OutOfOrder]: rule(DiagnosticCode.OutOfOrder, 'warning', 'Paragraphs out of order', '段落顺序错误'),
  [DiagnosticCode.StrayLine]: rule(DiagnosticCode.StrayLine, 'warning', 'A line that belongs to no field', '不属于任何字段的行'),
  [DiagnosticCode.HalfWidthPunctuation]: rule(DiagnosticCode.HalfWidthPunctuation, 'warning', 'Half-width punctuation where the format uses full-width', '应使用全角标点'),
  [DiagnosticCode.FullWidthPunctuation]: rule(DiagnosticCode.FullWidthPunctuation, 'warning', 'Full-width punctuation where the format uses half-width', '应使用半角标点'),
  [DiagnosticCode.CategorySeparator]: rule(DiagnosticCode.CategorySeparator, 'warning', 'Categories not separated by 、', '分类之间应以“、”分隔'),
  [DiagnosticCode.UnbalancedBrackets]: rule(DiagnosticCode.UnbalancedBrackets, 'error', 'Unbalanced brackets', '括号不配对'),
  [DiagnosticCode.InstitutionsMissingStar]: rule(DiagnosticCode.InstitutionsMissingStar, 'warning', 'The 机构 line lacks its *', '机构行缺少“*”'),
  [DiagnosticCode.InstitutionsMissingMarker]: rule(DiagnosticCode.InstitutionsMissingMarker, 'warning', 'The 机构 line lacks its trailing 纠错', '机构行末尾缺少“纠错”'),
  [DiagnosticCode.NotAnInstitution]: rule(DiagnosticCode.NotAnInstitution, 'warning', 'An institution item that is not an institution', '机构项不是机构'),
  [DiagnosticCode.HitMissingField]: rule(DiagnosticCode.HitMissingField, 'warning', 'A topic hit without its (field)', '命中词缺少“(字段)”'),
  [DiagnosticCode.EmptyKeyword]: rule(DiagnosticCode.EmptyKeyword, 'warning', 'A topic hit with an empty keyword', '命中词为空'),
  [DiagnosticCode.RunTogetherHits]: rule(DiagnosticCode.RunTogetherHits, 'warning', 'Two topic hits with no ； between them', '两个命中词之间缺少“；”'),
  [DiagnosticCode.MissingCategories]: rule(DiagnosticCode.MissingCategories, 'error', 'The 专题命中 line has no 分类', '专题命中行缺少“分类”'),
  [DiagnosticCode.UnknownCategory]: rule(DiagnosticCode.UnknownCategory, 'error', 'A category that is not in the arXiv taxonomy', '分类不在 arXiv 分类体系中'),
  [DiagnosticCode.CategoryCase]: rule(DiagnosticCode.CategoryCase, 'warning', 'A category in the wrong case', '分类代码大小写错误'),
  [DiagnosticCode.ChineseTitleWithoutChinese]: rule(DiagnosticCode.ChineseTitleWithoutChinese, 'warning', 'A Chinese title with no Chinese in it', '中文标题中没有中文'),
  [DiagnosticCode.EnglishTitleInChinese]: rule(DiagnosticCode.EnglishTitleInChinese, 'warning', 'An English title in Chinese', '英文标题写成了中文'),
  [DiagnosticCode.SwappedTitles]: rule(DiagnosticCode.SwappedTitles, 'warning', 'The English and Chinese titles are swapped', '中英文标题位置颠倒'),
  [DiagnosticCode.EmptySummary]: rule(DiagnosticCode.EmptySummary, 'warning', 'An empty AI总结', 'AI总结为空'),
  [DiagnosticCode.DuplicatePaper]: rule(DiagnosticCode.DuplicatePaper, 'information', 'The same paper twice', '同一论文出现两次'),
  [DiagnosticCode.InconsistentTranslation]: rule(DiagnosticCode.InconsistentTranslation, 'information', 'An institution translated differently in the workspace', '同一机构在工作区中的译名不一致'),
  [DiagnosticCode.InconsistentAuthorName]: rule(DiagnosticCode.InconsistentAuthorName, 'information', 'An author given different Chinese names', '同一作者的中文名不一致'),
  [DiagnosticCode.DocumentTooLarge]: rule(DiagnosticCode.DocumentTooLarge, 'warning', 'The document is too large to check', '文档过大，不予检查'),
};

/** Where a duplicate of a paper is, in another file. */
export interface PaperLocation {
  readonly uri: string;
  readonly range: Range;
}

export interface DiagnosticOptions {
  /** The document's URI, for the related information of in-file duplicates. */
  readonly uri?: string;
  /** Per-rule severity, or `off`; rules not named keep their default severity. */
  readonly rules?: Readonly<Partial<Record<string, RuleSetting>>>;
  /**
   * Base URI of the rule pages, ending with `/`: `<docsBase><code>.md` is a rule's page. The
   * server passes the file: URI of the installed docs/rules folder.
   */
  readonly docsBase?: string;
  /** Papers with this title key (see `titleKey`) in other files of the workspace. */
  readonly duplicatesElsewhere?: (englishTitleKey: string) => readonly PaperLocation[];
  /**
   * The modification time of a file, for the order of digests without a date in their names
   * (`compareDigests`): which copy of a paper is the first, and which the later ones reported.
   */
  readonly mtimeOf?: (uri: string) => number | undefined;
  /** How the other files of the workspace translate an institution (by `termKey`), for `inconsistent-translation`. */
  readonly translationsElsewhere?: FormsElsewhere;
  /** How the other files write an author's Chinese name (by `termKey`), for `inconsistent-author-name`. */
  readonly authorFormsElsewhere?: FormsElsewhere;
  /** Changes whenever what the two lookups above answer changes; answers cached per model are kept per value. */
  readonly formsGeneration?: number;
  /**
   * Whether this document is one of the files whose forms the lookups above count for the others
   * (not an untitled document, nor one outside the workspace): fix-all then leaves alone the
   * entries whose fixes would have another file reported more often (`keysWorseElsewhere`).
   * Diagnostics do not read it.
   */
  readonly countedElsewhere?: boolean;
  /**
   * Stop checking entries once this many problems were found: the result holds at least the
   * first `maxDiagnostics` problems in document order (and a few more), not all of them.
   */
  readonly maxDiagnostics?: number;
  /** The language of the messages (see messages.ts); `both` when not given. */
  readonly language?: MessageLanguage;
}

/**
 * What a quick fix needs, carried in `Diagnostic.data`. Which members are set depends on the code.
 */
export interface DiagnosticData {
  /** Index of the entry the problem belongs to. */
  readonly entry?: number;
  /** The field concerned: the missing one, the out-of-order one. */
  readonly field?: FieldKind;
  /** For `missing-field`: the line before which, or after which, the field belongs. */
  readonly insertBeforeLine?: number;
  readonly insertAfterLine?: number;
  /** For the punctuation rules: each wrong mark and what the format expects in its place. */
  readonly marks?: readonly { readonly range: Range; readonly expected: string }[];
  /** For `category-case` and `unknown-category`: the known codes to use instead, best first. */
  readonly suggestions?: readonly string[];
  /** For `unknown-category`: the first suggestion is one typo away and every other is further. */
  readonly clearSuggestion?: boolean;
  /** For `institutions-missing-star`: where `* ` goes, and the text it replaces (a colon, say). */
  readonly replaceRange?: Range;
  /** For `not-an-institution`, `empty-keyword` and `unbalanced-brackets`: index of the item or hit within its field. */
  readonly item?: number;
  /** For `unbalanced-brackets`: the bracket is in a topic hit (`item` is the hit's index), not in an institution. */
  readonly inHits?: boolean;
  /** For `missing-categories`: the categories were written without their `分类` label. */
  readonly unlabelled?: boolean;
  /** For `duplicate-paper`: the first occurrence in this file, if the paper is there twice. */
  readonly firstOccurrence?: Range;
  /** For `duplicate-paper`: the copies in other files (at most 20), for the actions that open them. */
  readonly otherCopies?: readonly PaperLocation[];
  /** For `document-too-large`: the limit passed, the document's size in its measure, and the limit's value. */
  readonly limit?: TooLarge['limit'];
  readonly size?: number;
  readonly max?: number;
}

/** A diagnostic of Paper Digest. */
export interface DigestDiagnostic extends Diagnostic {
  readonly code: DiagnosticCode;
  /** `English — 中文` (or one of them, by `DiagnosticOptions.language`), plain text. */
  readonly message: string;
  readonly data: DiagnosticData;
}

const SEVERITIES: Record<Exclude<RuleSetting, 'off'>, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Field names in both languages, for messages. */
const FIELD_NAMES: Record<FieldKind, readonly [string, string]> = {
  englishTitle: ['English title', '英文标题'],
  chineseTitle: ['Chinese title', '中文标题'],
  authors: ['authors', '作者'],
  institutions: ['institutions (机构)', '机构'],
  topicHits: ['topic hits (专题命中)', '专题命中'],
  summary: ['AI summary (AI总结)', 'AI总结'],
  comments: ['Comments', 'Comments'],
  journalRef: ['Journal ref', 'Journal ref'],
};

/**
 * Checks a digest.
 *
 * @example
 * const diagnostics = computeDiagnostics(parseDigest(text), { docsBase: 'file:///ext/docs/rules/' });
 * diagnostics[0].code;                  // 'category-case'
 * diagnostics[0].message;               // "Category 'CS.lg' is written in the wrong case: use 'cs.LG' — …"
 * diagnostics[0].codeDescription?.href; // 'file:///ext/docs/rules/category-case.md'
 */
export function computeDiagnostics(doc: DigestDocument, options: DiagnosticOptions = {}, token: Cancellation = NEVER_CANCELLED): DigestDiagnostic[] {
  return runToEnd(diagnosticSteps(doc, options, token));
}

/** The value of steps (`diagnosticSteps`, `fixAllSteps`) run to their end at once, with no slices. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  let step = steps.next();
  while (!step.done) {
    step = steps.next();
  }
  return step.value;
}

/** Entries checked between two steps of `diagnosticSteps`. */
const ENTRIES_PER_STEP = 64;

/**
 * `computeDiagnostics` in steps: the generator yields after every few entries (and before the
 * checks across entries), and returns the same diagnostics. A server runs the steps a slice of
 * time at a time, letting the requests and answers that arrive meanwhile go first (it stops
 * resuming when the document changed); `computeDiagnostics` runs them all at once.
 *
 * @example
 * const steps = diagnosticSteps(model, options);
 * let step = steps.next();
 * while (!step.done) step = steps.next(); // or: await a turn of the event loop between steps
 * step.value; // the diagnostics
 */
export function* diagnosticSteps(doc: DigestDocument, options: DiagnosticOptions = {}, token: Cancellation = NEVER_CANCELLED): Generator<void, DigestDiagnostic[], void> {
  const checker = new Checker(doc, options);
  const tooLarge = documentTooLarge(doc);
  if (tooLarge) {
    // Past a limit, nothing is checked: the one diagnostic says why.
    checker.tooLarge(tooLarge);
    return checker.sorted();
  }
  const key = optionsKey(options);
  const limit = options.maxDiagnostics ?? Infinity;
  const names = consistencyChecked(options);
  if (limit === Infinity) {
    for (const problem of doc.problems) {
      checker.structureProblem(problem);
    }
    for (let i = 0; i < doc.entries.length; i++) {
      if (i % ENTRIES_PER_STEP === 0) {
        if (i > 0) yield;
        if (token.isCancellationRequested) return [];
      }
      checker.entryOnce(doc.entries[i], key);
      // The names the consistency rules count, while the entry's fields still keep the parts
      // its checks split (a later pass would split them again: parts are let go past a thousand).
      if (names) entryNames(doc.entries[i]);
    }
    yield;
    checker.duplicates(doc.entries.length);
    yield* checker.consistency(token);
  } else {
    // Entries in order, each with its structure problems, until the limit is reached; then the
    // problems outside entries up to there.
    const byEntry = new Map<number, StructureProblem[]>();
    const outside: StructureProblem[] = [];
    for (const problem of doc.problems) {
      if (problem.entryIndex === undefined) {
        outside.push(problem);
      } else {
        let list = byEntry.get(problem.entryIndex);
        if (!list) byEntry.set(problem.entryIndex, (list = []));
        list.push(problem);
      }
    }
    let checked = 0;
    while (checked < doc.entries.length && checker.count < limit) {
      if (checked % ENTRIES_PER_STEP === 0) {
        if (checked > 0) yield;
        if (token.isCancellationRequested) return [];
      }
      const entry = doc.entries[checked];
      const problems = byEntry.get(checked);
      if (problems) for (const problem of problems) checker.structureProblem(problem);
      checker.entryOnce(entry, key);
      if (names) entryNames(entry);
      checked++;
    }
    // The last line checked: the end of the document, or of the last entry checked.
    const lastLine = checked === doc.entries.length || checked === 0 ? doc.lines.length : doc.entries[checked - 1].range.end.line;
    for (const problem of outside) {
      if (problem.range.start.line <= lastLine) checker.structureProblem(problem);
    }
    yield;
    checker.duplicates(checked);
    if (checked === doc.entries.length) {
      yield* checker.consistency(token);
    }
  }
  if (token.isCancellationRequested) {
    return [];
  }
  return checker.sorted();
}

/** Whether one of the consistency rules is on (they count the names of every entry). */
function consistencyChecked(options: DiagnosticOptions): boolean {
  return ruleSeverity(DiagnosticCode.InconsistentTranslation, options) !== undefined || ruleSeverity(DiagnosticCode.InconsistentAuthorName, options) !== undefined;
}

/** The severity a rule has under the options, or undefined when it is off. */
export function ruleSeverity(code: DiagnosticCode, options: Pick<DiagnosticOptions, 'rules'> = {}): DiagnosticSeverity | undefined {
  const setting = options.rules?.[code] ?? RULES[code].severity;
  return setting === 'off' ? undefined : SEVERITIES[setting] ?? SEVERITIES[RULES[code].severity];
}

/** Where, in a hit's keyword, the next hit begins with no `；` before it (`hitJoins`). */
export interface HitJoin {
  /** The `(` of the field that ends the first hit. */
  readonly open: number;
  /** Just past that field's `)`. */
  readonly close: number;
  /** Where the next hit's keyword begins: after the spaces and wrong separators (`,` `，` `、` `/`), if any. */
  readonly next: number;
}

/** Marks written between two run-together hits in place of `；`. */
const WRONG_HIT_SEPARATORS = new Set([0x2c, 0xff0c, 0x3001, 0x2f]);

/**
 * The places in a hit's keyword (the text before its own `(field)`) where another hit runs on
 * with no `；` before it: after a `(field)` naming a field hits name (`abstract`, `title`, …),
 * with keyword before it (not only other fields) and a keyword after it (not another bracket,
 * nor `分类` or categories: those are the categories, told by their own rules). A bracket that
 * names no such field (`GPT(4)o`) is part of the keyword.
 *
 * @example hitJoins('reasoning(abstract)math reasoning') // [{ open: 9, close: 19, next: 19 }]
 * @example hitJoins('reasoning(abstract) , math') // [{ open: 9, close: 19, next: 22 }]
 * @example hitJoins('(abstract) math') // []: no keyword before the field
 */
export function hitJoins(keyword: string): HitJoin[] {
  const joins: HitJoin[] = [];
  const length = keyword.length;
  // Categories run on to the end of the keyword, with no bracket: only after the last one.
  const lastOpen = Math.max(keyword.lastIndexOf('('), keyword.lastIndexOf('（'));
  // Whether keyword (a character outside the fields, not a space) came since the last join.
  let keywordSeen = false;
  for (let k = 0; k < length; k++) {
    const c = keyword.charCodeAt(k);
    if (c !== 0x28 && c !== 0xff08) {
      if (!isSpace(c)) keywordSeen = true;
      continue;
    }
    let j = k + 1;
    while (j < length && !isHitBracket(keyword.charCodeAt(j))) j++;
    const d = j < length ? keyword.charCodeAt(j) : -1;
    if (d !== 0x29 && d !== 0xff09) {
      // Never closed, or another opening bracket first: keyword, up to that bracket.
      keywordSeen = true;
      k = j - 1;
      continue;
    }
    if (!hitFieldMeaning(keyword.slice(k + 1, j))) {
      keywordSeen = true;
      k = j;
      continue;
    }
    let next = j + 1;
    while (next < length && (isSpace(keyword.charCodeAt(next)) || WRONG_HIT_SEPARATORS.has(keyword.charCodeAt(next)))) next++;
    const rest = next < length ? keyword.charCodeAt(next) : -1;
    if (keywordSeen && rest >= 0 && rest !== 0x28 && rest !== 0xff08 && !keyword.startsWith(LABELS.categories, next) && !(next > lastOpen && looksLikeCategoryList(keyword.slice(next)))) {
      joins.push({ open: k, close: j + 1, next });
      keywordSeen = false;
      k = next - 1;
    } else {
      k = j;
    }
  }
  return joins;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x3000;
}

function isHitBracket(c: number): boolean {
  return c === 0x28 || c === 0x29 || c === 0xff08 || c === 0xff09;
}

/** Quotes document text for a message: at most 60 characters, control and bidi characters replaced. */
function quote(text: string): string {
  return `'${quoted(text)}'`;
}

/** `quote` for the Chinese of a message: in Chinese quotation marks, “…”. */
function quoteZh(text: string): string {
  return `“${quoted(text)}”`;
}

/** Document text as a message quotes it: at most 60 UTF-16 units (`quotedText`). */
function quoted(text: string): string {
  return quotedText(text, 60);
}

/**
 * The diagnostics of an entry, kept with the entry object: after an incremental update the
 * entries the edit did not touch are the same objects, possibly moved, and their checks are not
 * run again. What an entry's checks find depends on the entry and on `optionsKey` only.
 */
const ENTRY_DIAGNOSTICS = new WeakMap<Entry, { key: string; line: number; index: number; diagnostics: DigestDiagnostic[] }>();

/** At most this many places in other files are related to a duplicate: the first ones, in file order. */
const MAX_RELATED_ELSEWHERE = 20;

/** No places in other files. */
const NO_LOCATIONS: readonly PaperLocation[] = [];

/** What most entries have: one shared empty list. */
const NO_DIAGNOSTICS: DigestDiagnostic[] = [];

/** The record of the entries without problems under the options key checked last (never changed: its list is empty). */
let clean: { key: string; line: number; index: number; diagnostics: DigestDiagnostic[] } = { key: '', line: 0, index: 0, diagnostics: NO_DIAGNOSTICS };

/** The record shared by the entries that have no problem under `key`. */
function cleanRecord(key: string): typeof clean {
  if (clean.key !== key) clean = { key, line: 0, index: 0, diagnostics: NO_DIAGNOSTICS };
  return clean;
}

/** What of the options the checks of an entry depend on. */
function optionsKey(options: DiagnosticOptions): string {
  return `${options.uri ?? ''}\n${options.docsBase ?? ''}\n${JSON.stringify(options.rules ?? {})}\n${options.language ?? ''}`;
}

/**
 * A diagnostic moved with its entry: every line number in it shifted (ranges, positions, lines to
 * insert at) and its entry index replaced.
 */
function moved<T>(value: T, lineDelta: number, index: number): T {
  if (value !== null && typeof value === 'object' && Object.isFrozen(value)) {
    // Shared and holding no line (a rule's link).
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown) => moved(item, lineDelta, index)) as T;
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'number' && (name === 'line' || name.endsWith('Line'))) {
      copy[name] = item + lineDelta;
    } else if (typeof item === 'number' && name === 'entry') {
      copy[name] = index;
    } else {
      copy[name] = moved(item, lineDelta, index);
    }
  }
  return copy as T;
}

/** The messages made recently, by language and texts (`Checker.say`). */
const MESSAGES = new RecentMap<string>(4096, 2000);

/** The links to the rules' pages, by URL (`Checker.codeDescription`). */
const RULE_LINKS = new RecentMap<Readonly<{ href: string }>>(256);

class Checker {
  private readonly result: DigestDiagnostic[] = [];

  /** How many diagnostics were found so far. */
  get count(): number {
    return this.result.length;
  }

  /** The one diagnostic of a document past a limit. */
  tooLarge(verdict: TooLarge): void {
    const [english, chinese] = [verdict.message, verdict.messageZh];
    this.add(DiagnosticCode.DocumentTooLarge, verdict.range, english, chinese, { limit: verdict.limit, size: verdict.size, max: verdict.max });
  }

  constructor(
    private readonly doc: DigestDocument,
    private readonly options: DiagnosticOptions,
  ) {}

  sorted(): DigestDiagnostic[] {
    return this.result.sort(
      (a, b) =>
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        a.range.end.line - b.range.end.line ||
        a.range.end.character - b.range.end.character ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
    );
  }

  /**
   * A message in the language of the options: one string for the diagnostics that say the same
   * (the 16,000 papers of a digest without topic hits would each keep their own copy, joined of
   * five parts).
   */
  private say(english: string, chinese: string): string {
    const language = this.options.language ?? '';
    const key = `${language}\u0000${english}\u0000${chinese}`;
    // The key is kept as a copy too: the texts a message quotes are slices of the document's text,
    // and a key made of them would keep the whole text alive in the table.
    return MESSAGES.get(key) ?? MESSAGES.remember(keep(key), keep(say(bilingual(english, chinese), this.options.language)));
  }

  /** The link to a rule's page, one object per rule and pages folder (clients do not change it). */
  private codeDescription(code: DiagnosticCode): { readonly href: string } | undefined {
    const base = this.options.docsBase;
    if (!base) {
      return undefined;
    }
    const key = `${base}${code}.md`;
    return RULE_LINKS.get(key) ?? RULE_LINKS.remember(key, Object.freeze({ href: keep(key) }));
  }

  private add(code: DiagnosticCode, range: Range, english: string, chinese: string, data: DiagnosticData = {}, related?: DiagnosticRelatedInformation[]): void {
    const severity = ruleSeverity(code, this.options);
    if (severity === undefined) {
      return;
    }
    const diagnostic: DigestDiagnostic = {
      range,
      severity,
      source: DIAGNOSTIC_SOURCE,
      code,
      message: this.say(english, chinese),
      data,
      ...(this.options.docsBase ? { codeDescription: this.codeDescription(code) } : {}),
      ...(related && related.length > 0 ? { relatedInformation: related } : {}),
    };
    this.result.push(diagnostic);
  }

  // ---- Structure, from the parser ------------------------------------------------------

  structureProblem(problem: StructureProblem): void {
    switch (problem.kind) {
      case 'missingHeading':
        this.add(
          DiagnosticCode.MissingHeading,
          problem.range,
          'The digest has no heading: its first paragraph should be the subject it follows, in Chinese',
          '缺少标题：第一段应为本摘要集所跟踪的主题（中文）',
        );
        break;
      case 'missingField': {
        const [english, chinese] = FIELD_NAMES[problem.field!];
        this.add(DiagnosticCode.MissingField, problem.range, `This paper lacks its ${english}`, `此论文缺少${chinese}`, {
          entry: problem.entryIndex,
          field: problem.field,
          insertBeforeLine: problem.insertBeforeLine,
          insertAfterLine: problem.insertAfterLine,
        });
        break;
      }
      case 'runTogether':
        this.add(
          DiagnosticCode.RunTogether,
          problem.range,
          'This line runs into the line above it: paragraphs are separated by a blank line',
          '此行与上一行之间缺少空行',
          { entry: entryAt(this.doc, problem.range.start)?.index },
        );
        break;
      case 'outOfOrder': {
        const [english, chinese] = FIELD_NAMES[problem.field!];
        const entry = problem.entryIndex !== undefined ? this.doc.entries[problem.entryIndex] : undefined;
        const before = entry?.fields.find((field) => field.line === problem.insertBeforeLine);
        const [beforeEnglish, beforeChinese] = before ? FIELD_NAMES[before.kind] : ['the paragraphs above it', '上面的段落'];
        this.add(DiagnosticCode.OutOfOrder, problem.range, `The ${english} paragraph is out of order: it belongs before the ${beforeEnglish}`, `${chinese}段落顺序错误，应位于${beforeChinese}之前`, {
          entry: problem.entryIndex,
          field: problem.field,
        });
        break;
      }
      case 'strayLine':
        if (problem.range.start.line === problem.range.end.line) {
          this.add(DiagnosticCode.StrayLine, problem.range, 'This line belongs to no field of the digest', '此行不属于任何字段', { entry: problem.entryIndex });
        } else {
          this.add(DiagnosticCode.StrayLine, problem.range, 'These lines belong to no field of the digest: notes, or text that lost its paper', '这些行不属于任何字段：可能是笔记，或是失去所属论文的文字', { entry: problem.entryIndex });
        }
        break;
    }
  }

  // ---- Fields --------------------------------------------------------------------------

  /** The checks of an entry, or what they found when the entry was checked before under the same options. */
  entryOnce(entry: Entry, key: string): void {
    const cached = ENTRY_DIAGNOSTICS.get(entry);
    if (cached && cached.key === key) {
      if (cached.diagnostics.length === 0) {
        // Nothing found: nothing to move either.
        return;
      }
      const line = entryLine(entry);
      if (cached.line !== line || cached.index !== entry.index) {
        cached.diagnostics = moved(cached.diagnostics, line - cached.line, entry.index);
        cached.line = line;
        cached.index = entry.index;
      }
      for (const diagnostic of cached.diagnostics) {
        this.result.push(diagnostic);
      }
      return;
    }
    const start = this.result.length;
    this.entry(entry);
    // Most entries have no problem: they share one record per options key.
    ENTRY_DIAGNOSTICS.set(entry, this.result.length > start ? { key, line: entryLine(entry), index: entry.index, diagnostics: this.result.slice(start) } : cleanRecord(key));
  }

  entry(entry: Entry): void {
    this.titles(entry);
    this.authors(entry);
    if (entry.institutions) {
      this.institutions(entry, entry.institutions);
    }
    if (entry.topicHits) {
      this.topicHits(entry, entry.topicHits);
    }
    if (entry.summary && entry.summary.value.text.length === 0) {
      this.add(DiagnosticCode.EmptySummary, entry.summary.label.range, 'The AI summary is empty', 'AI总结为空', { entry: entry.index });
    }
  }

  private titles(entry: Entry): void {
    const english = entry.englishTitle;
    const chinese = entry.chineseTitle;
    const englishInChinese = english !== undefined && hasCjk(english.value.text);
    const chineseWithout = chinese !== undefined && !hasCjk(chinese.value.text);
    if (englishInChinese && chineseWithout) {
      const related = this.options.uri !== undefined ? [{ location: { uri: this.options.uri, range: chinese.value.range }, message: this.say('The title in English', '此处的标题是英文') }] : [];
      this.add(DiagnosticCode.SwappedTitles, english.value.range, 'The English and the Chinese titles are in each other\u2019s place', '英文标题与中文标题的位置颠倒', { entry: entry.index }, related);
      return;
    }
    if (englishInChinese) {
      this.add(DiagnosticCode.EnglishTitleInChinese, english.value.range, 'The English title is written in Chinese', '英文标题写成了中文', { entry: entry.index });
    }
    if (chineseWithout) {
      this.add(DiagnosticCode.ChineseTitleWithoutChinese, chinese.value.range, 'The Chinese title has no Chinese in it', '中文标题中没有中文', { entry: entry.index });
    }
  }

  private authors(entry: Entry): void {
    const authors = entry.authors;
    // A separator is a part of the line: without one of the marks in the line, none has one
    // (and the separators need not be split out).
    if (!authors || !hasAnyOf(authors.text, FULL_WIDTH_NAME_MARKS)) {
      return;
    }
    for (const separator of authors.separators) {
      const mark = firstOf(separator, FULL_WIDTH_NAME_MARKS);
      if (mark) {
        this.add(
          DiagnosticCode.FullWidthPunctuation,
          separator.range,
          `Full-width ${quote(mark.text)} between author names, where the format uses ', '`,
          `作者姓名之间应使用半角“, ”而非“${mark.text}”`,
          { entry: entry.index, marks: [{ range: separator.range, expected: ', ' }] },
        );
      }
    }
  }

  private institutions(entry: Entry, field: InstitutionsField): void {
    if (!field.star) {
      const first = field.items[0]?.range.start ?? field.marker?.range.start ?? { line: field.line, character: field.label.range.end.character };
      const between = { start: field.label.range.end, end: first };
      this.add(DiagnosticCode.InstitutionsMissingStar, field.label.range, 'The 机构 line lacks the * after its label', '机构行缺少标签后的“*”', {
        entry: entry.index,
        replaceRange: between,
      });
    }
    if (!field.marker) {
      this.add(DiagnosticCode.InstitutionsMissingMarker, lastCharacter(field), 'The 机构 line lacks its trailing 纠错', '机构行末尾缺少“纠错”', { entry: entry.index });
    }
    // The line's text, cut once: a part holds a mark only when the line does.
    const text = field.text;
    for (const separator of text.includes(';') ? field.separators : NO_SPANS) {
      const mark = firstOf(separator, ';');
      if (mark) {
        this.add(
          DiagnosticCode.HalfWidthPunctuation,
          separator.range,
          "Half-width ';' between institutions, where the format uses ' ； '",
          '机构之间应使用全角“；”而非半角“;”',
          { entry: entry.index, marks: [{ range: separator.range, expected: ' ； ' }] },
        );
      }
    }
    const listsAuthors = field.authorPairs !== undefined;
    const halfWidthBrackets = text.includes('(') || text.includes(')');
    const items = field.items;
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (item.unbalanced !== 0) {
        const at = item.unbalancedAt;
        if (at) {
          this.unbalanced(at, item.unbalanced > 0, { entry: entry.index, item: index });
          continue;
        }
      }
      if (halfWidthBrackets) {
        this.brackets(DiagnosticCode.HalfWidthPunctuation, item, entry.index, "Half-width '()' around a translation, where the format uses '（）'", '译名应使用全角括号“（）”而非半角“()”');
      }
      if (!listsAuthors) {
        const reason = notAnInstitution(item);
        if (reason) {
          this.add(DiagnosticCode.NotAnInstitution, item.text.length > 0 ? item.range : widen(item.range), reason[0], reason[1], { entry: entry.index, item: index });
        }
      }
    }
    // A separator after the last item (`（北京大学） ； 纠错`): an empty last item, as one between
    // two separators is, its `item` one past the items. Not after an empty last item (that item is
    // the problem told; the separator comes next). Looked for in the characters after the last
    // item first: the separators are split only then.
    const last = items[items.length - 1];
    if (last && last.text.length > 0 && !listsAuthors) {
      const origin = field.range.start.character;
      const tail = text.slice(last.range.end.character - origin, field.marker ? field.marker.range.start.character - origin : text.length);
      if ((tail.includes('；') || tail.includes(';')) && field.separators.length >= items.length) {
        this.add(DiagnosticCode.NotAnInstitution, field.separators[items.length - 1].range, 'A separator with no institution after it', '分隔符之后没有机构', { entry: entry.index, item: items.length });
      }
    }
  }

  /**
   * A hit whose `(field` is never closed (`reasoning(abstract`, the keyword ending in a field
   * hits name after an opening bracket): reported as that bracket, and, when the keyword before it
   * has no bracket of its own, with the fix that closes it (a `（` written `(`, as the format
   * writes a hit's field); false for any other keyword.
   */
  private unclosedField(entry: Entry, keyword: Span, index: number): boolean {
    const text = keyword.text;
    const open = Math.max(text.lastIndexOf('('), text.lastIndexOf('（'));
    if (open < 0 || /[)）]/.test(text.slice(open + 1)) || !hitFieldMeaning(text.slice(open + 1))) {
      return false;
    }
    const line = keyword.range.start.line;
    const origin = keyword.range.start.character;
    const bracket = { start: { line, character: origin + open }, end: { line, character: origin + open + 1 } };
    const before = text.slice(0, open);
    // Another bracket before it (`reasoning((abstract`, `x(title) (abstract`): where the brackets
    // belong is not clear, and no fix is offered. (Nor does one for no keyword at all pass its check.)
    const end = { line, character: origin + text.length };
    const marks = /[(（)）]/.test(before) ? undefined : [...(text[open] === '（' ? [{ range: bracket, expected: '(' }] : []), { range: { start: end, end }, expected: ')' }];
    this.unbalanced(bracket, true, { entry: entry.index, item: index, inHits: true, ...(marks ? { marks } : {}) });
    return true;
  }

  /**
   * A bracket left open in the keyword of a hit that has its `(field)` (`reasoning((abstract)`,
   * `reasoning(abstract(abstract)`): reported, with no fix (where it closes is not clear).
   */
  private bracketLeftOpen(entry: Entry, keyword: Span, index: number): void {
    const text = keyword.text;
    const opened: number[] = [];
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x28 || c === 0xff08) opened.push(k);
      else if ((c === 0x29 || c === 0xff09) && opened.length > 0) opened.pop();
    }
    if (opened.length > 0) {
      const { line, character } = keyword.range.start;
      const at = character + opened[0];
      this.unbalanced({ start: { line, character: at }, end: { line, character: at + 1 } }, true, { entry: entry.index, item: index, inHits: true });
    }
  }

  /** An `unbalanced-brackets` problem on a bracket: an opening one never closed, or a closing one that closes nothing. */
  private unbalanced(bracket: Range, opening: boolean, data: DiagnosticData): void {
    this.add(
      DiagnosticCode.UnbalancedBrackets,
      bracket,
      opening ? 'This bracket is never closed' : 'This bracket closes nothing',
      opening ? '此括号没有对应的右括号' : '此括号没有对应的左括号',
      data,
    );
  }

  /** The hits run together in a hit's keyword (`hitJoins`), one problem each, with the `；` that separates them as its fix. */
  private runTogetherHits(entry: Entry, keyword: Span, index: number): void {
    const text = keyword.text;
    const line = keyword.range.start.line;
    const origin = keyword.range.start.character;
    const at = (offset: number): Range['start'] => ({ line, character: origin + offset });
    for (const join of hitJoins(text)) {
      const field = text.slice(join.open, join.close);
      // The separator goes where the spaces (or the wrong mark) are; a field in full-width
      // brackets is written as the format writes it, in half-width ones, in the same fix.
      const marks = [{ range: { start: at(join.close), end: at(join.next) }, expected: '；' }];
      if (text.charCodeAt(join.open) === 0xff08) marks.unshift({ range: { start: at(join.open), end: at(join.open + 1) }, expected: '(' });
      if (text.charCodeAt(join.close - 1) === 0xff09) marks.splice(marks.length - 1, 0, { range: { start: at(join.close - 1), end: at(join.close) }, expected: ')' });
      this.add(
        DiagnosticCode.RunTogetherHits,
        { start: at(join.open), end: at(join.next) },
        `Two topic hits run together: a '；' belongs after ${quote(field)}`,
        `两个命中词连在一起：${quoteZh(field)}之后应有“；”`,
        { entry: entry.index, item: index, marks },
      );
    }
  }

  /**
   * The brackets of an item or a hit written half-width (`HalfWidthPunctuation`, where the format
   * uses `（）`) or full-width (`FullWidthPunctuation`, where it uses `()`): one diagnostic from
   * the one to the other, with a mark for each wrong one.
   */
  private brackets(code: DiagnosticCode.HalfWidthPunctuation | DiagnosticCode.FullWidthPunctuation, part: { readonly open?: Span; readonly close?: Span }, entry: number, english: string, chinese: string): void {
    const half = code === DiagnosticCode.HalfWidthPunctuation;
    const marks = half ? bracketMarks(part.open, part.close, '(', ')', '（', '）') : bracketMarks(part.open, part.close, '（', '）', '(', ')');
    if (marks) {
      this.add(code, marks.range, english, chinese, { entry, marks: marks.marks });
    }
  }

  private topicHits(entry: Entry, field: TopicHitsField): void {
    if (field.colon?.text === ':') {
      this.add(DiagnosticCode.HalfWidthPunctuation, field.colon.range, "Half-width ':' after the topic, where the format uses '：'", '专题之后应使用全角“：”而非半角“:”', {
        entry: entry.index,
        marks: [{ range: field.colon.range, expected: '：' }],
      });
    }
    // The line's text, cut once: a part holds a mark only when the line does.
    const text = field.text;
    for (const separator of text.includes(';') ? field.separators : NO_SPANS) {
      const mark = firstOf(separator, ';');
      if (mark) {
        this.add(DiagnosticCode.HalfWidthPunctuation, mark.range, "Half-width ';' between topic hits, where the format uses '；'", '命中词之间应使用全角“；”而非半角“;”', {
          entry: entry.index,
          marks: [{ range: mark.range, expected: '；' }],
        });
      }
    }
    // Categories written without their label read as a last hit without a field.
    const hits = field.hits;
    const categoriesLabel = field.categoriesLabel;
    const lastHit = hits[hits.length - 1];
    const unlabelled = !categoriesLabel && lastHit !== undefined && !lastHit.open && looksLikeCategoryList(lastHit.keyword.text);
    const fullWidthBrackets = text.includes('（') || text.includes('）');
    const checked = unlabelled ? hits.length - 1 : hits.length;
    for (let index = 0; index < checked; index++) {
      const hit = hits[index];
      const keyword = hit.keyword.text;
      const hitField = hit.field;
      if (keyword.length === 0) {
        this.add(
          DiagnosticCode.EmptyKeyword,
          hit.text.length > 0 ? hit.range : widen(hit.range),
          hitField ? 'This topic hit names a field but no keyword' : 'An empty topic hit between two separators',
          hitField ? '此命中词只有字段，没有关键词' : '两个分隔符之间的命中词为空',
          { entry: entry.index, item: index },
        );
      } else if (!hitField && this.unclosedField(entry, hit.keyword, index)) {
        // `reasoning(abstract`: the field is there, its bracket never closed.
      } else if (!hitField || hitField.text.length === 0) {
        this.add(DiagnosticCode.HitMissingField, hit.range, `The topic hit ${quote(keyword)} does not say where it matched, as in 'keyword(abstract)'`, `命中词${quoteZh(keyword)}缺少“(字段)”，如“keyword(abstract)”`, {
          entry: entry.index,
          item: index,
        });
      }
      if (keyword.includes('(') || keyword.includes('（')) {
        if (hitField) this.bracketLeftOpen(entry, hit.keyword, index);
        this.runTogetherHits(entry, hit.keyword, index);
      }
      if (fullWidthBrackets) {
        this.brackets(DiagnosticCode.FullWidthPunctuation, hit, entry.index, "Full-width '（）' around the field of a topic hit, where the format uses '()'", '命中字段应使用半角括号“()”而非全角“（）”');
      }
    }
    if (unlabelled) {
      this.add(DiagnosticCode.MissingCategories, lastHit.range, 'These categories lack their 分类 label', '这些分类缺少“分类”标签', { entry: entry.index, unlabelled: true });
      return;
    }
    if (!categoriesLabel) {
      const end = lastHit ? lastHit.range : field.label.range;
      this.add(DiagnosticCode.MissingCategories, end, 'The topic hits lack 分类 and the paper\u2019s categories', '专题命中缺少“分类”及论文的分类', { entry: entry.index });
      return;
    }
    if (field.categories.length === 0) {
      this.add(DiagnosticCode.MissingCategories, categoriesLabel.range, 'No categories follow 分类', '“分类”之后没有分类代码', { entry: entry.index });
      return;
    }
    for (const run of separatorRuns(field.categorySeparators, field.categories)) {
      // The separators between two categories, as one: `、;` or `；；` is one problem, and its fix
      // puts one '、' in the place of all of it (one of them changed would leave `、、`).
      const text = run.map((separator) => separator.text.trim()).join('');
      if (text === '、') {
        continue;
      }
      const range = { start: run[0].range.start, end: run[run.length - 1].range.end };
      const shown = run.length === 1 ? run[0].text : text;
      const halfWidth = /[,;]/.test(text);
      this.add(
        halfWidth ? DiagnosticCode.HalfWidthPunctuation : DiagnosticCode.CategorySeparator,
        range,
        halfWidth ? `Half-width ${quote(text)} between categories, where the format uses '、'` : `Categories separated by ${quote(shown)}, where the format uses '、'`,
        halfWidth ? `分类之间应使用“、”而非半角“${text}”` : '分类之间应使用“、”分隔',
        { entry: entry.index, marks: [{ range, expected: '、' }] },
      );
    }
    for (const category of field.categories) {
      if (categoryByCode(category.text)) {
        continue;
      }
      const caseless = categoryIgnoringCase(category.text);
      if (caseless) {
        this.add(DiagnosticCode.CategoryCase, category.range, `Category ${quote(category.text)} is written in the wrong case: use '${caseless.code}'`, `分类代码大小写错误，应为“${caseless.code}”`, {
          entry: entry.index,
          suggestions: [caseless.code],
        });
        continue;
      }
      const wide = categoryInFullWidth(category.text);
      if (wide) {
        this.add(DiagnosticCode.FullWidthPunctuation, category.range, `Category ${quote(category.text)} is written in full-width characters: use '${wide.code}'`, `分类代码使用了全角字符，应为“${wide.code}”`, {
          entry: entry.index,
          marks: [{ range: category.range, expected: wide.code }],
        });
        continue;
      }
      // Suggested as it reads: full-width characters as their ASCII (`ｍａｔｈ．ＧＴx`).
      const asRead = compatibilityForm(category.text);
      const suggestions = asRead.length <= 40 ? suggestionsFor(asRead) : [];
      // One suggestion is clearly meant when it is one typo away and every other is further.
      const distances = suggestions.map((code) => editDistance(asRead.toLowerCase(), code.toLowerCase()));
      const clear = distances.length > 0 && distances[0] === 1 && distances.slice(1).every((d) => d > 1);
      const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?` : '';
      const hintZh = suggestions.length > 0 ? `；是否应为${suggestions.map((s) => `“${s}”`).join('或')}？` : '';
      this.add(
        DiagnosticCode.UnknownCategory,
        category.range,
        `${quote(category.text)} is not an arXiv category${hint}`,
        `${quoteZh(category.text)}不是 arXiv 分类${hintZh}`,
        { entry: entry.index, suggestions, ...(clear ? { clearSuggestion: true } : {}) },
      );
    }
  }

  // ---- One translation for one name (consistency.ts) -------------------------------------

  *consistency(token: Cancellation): Generator<void, void, void> {
    if (!consistencyChecked(this.options)) {
      return;
    }
    // The names of each entry, split in steps (they are kept with the entry); then the counts.
    for (let i = 0; i < this.doc.entries.length; i++) {
      if (i % ENTRIES_PER_STEP === 0) {
        yield;
        if (token.isCancellationRequested) return;
      }
      entryNames(this.doc.entries[i]);
    }
    yield;
    for (const problem of consistencyProblems(this.doc, this.options)) {
      this.add(problem.code, problem.range, problem.english, problem.chinese, problem.data);
    }
  }

  // ---- Duplicates ----------------------------------------------------------------------

  /** The duplicates among the first `count` entries. */
  duplicates(count: number): void {
    // The entries of each title (kept from the version checked before: titleIndex.ts), and the
    // copies elsewhere of the titles that have some: one look-up for most papers (a title seen
    // once, in this file only).
    const byTitle = entriesByTitle(this.doc);
    const elsewhereByKey = new Map<string, readonly PaperLocation[]>();
    const lookup = this.options.duplicatesElsewhere;
    for (let i = 0; i < count; i++) {
      const entry = this.doc.entries[i];
      // Kept with the entry, the same copy the index summary of an open document takes; empty
      // without an English title. The title itself is looked at only for a copy reported (its
      // fields are not split again for the others).
      const key = entryTitleKey(entry);
      if (key.length === 0) {
        continue;
      }
      const firstCopy = firstOfTitle(byTitle.get(key)!);
      const original = firstCopy === entry ? undefined : firstCopy;
      let elsewhere: readonly PaperLocation[];
      if (!original) {
        // Asked once per title: a file may hold the same title many times. In digest order, so
        // that the copies kept (at most MAX_RELATED_ELSEWHERE) are the first ones.
        const found = lookup?.(key);
        elsewhere = found && found.length > 0 ? [...found].sort((a, b) => compareDigests(a.uri, b.uri, this.options.mtimeOf)).slice(0, MAX_RELATED_ELSEWHERE) : NO_LOCATIONS;
        if (elsewhere.length === 0) {
          continue;
        }
        elsewhereByKey.set(key, elsewhere);
      } else {
        elsewhere = elsewhereByKey.get(key) ?? NO_LOCATIONS;
      }
      // One diagnostic per paper: the first copy in the workspace (in digest order, by the date
      // in the file name, then by file URI, then line: the copy the Papers view calls new) is the
      // paper, each later copy is reported once, relating all the others.
      const uri = this.options.uri;
      const earlierElsewhere = uri === undefined ? elsewhere.length > 0 : elsewhere.some((location) => compareDigests(location.uri, uri, this.options.mtimeOf) < 0);
      if (!original && !earlierElsewhere) {
        continue;
      }
      const related: DiagnosticRelatedInformation[] = [];
      if (original && this.options.uri !== undefined) {
        related.push({ location: { uri: this.options.uri, range: original.englishTitle!.value.range }, message: this.say('The first occurrence in this file', '本文件中首次出现之处') });
      }
      for (const location of elsewhere) {
        related.push({ location: { uri: location.uri, range: location.range }, message: this.say('The same paper in another file', '另一文件中的同一论文') });
      }
      const title = entry.englishTitle;
      if (!title) {
        continue;
      }
      const where = original ? (earlierElsewhere ? 'earlier in this file and in another file' : 'earlier in this file') : 'in another file of the workspace';
      const whereZh = original ? (earlierElsewhere ? '本文件前文及其他文件' : '本文件前文') : '工作区的另一文件';
      this.add(DiagnosticCode.DuplicatePaper, title.value.range, `The same paper is already listed ${where}`, `同一论文已出现在${whereZh}中`, {
        entry: entry.index,
        firstOccurrence: original?.englishTitle!.value.range,
        ...(elsewhere.length > 0 ? { otherCopies: elsewhere.map((location) => ({ uri: location.uri, range: location.range })) } : {}),
      }, related);
    }
  }
}

/** The nearest known codes of unknown codes seen before: a line may repeat one thousands of times. */
const SUGGESTIONS = new Map<string, string[]>();
const MAX_REMEMBERED_SUGGESTIONS = 2_000;

function suggestionsFor(code: string): string[] {
  let suggestions = SUGGESTIONS.get(code);
  if (!suggestions) {
    suggestions = nearestCategories(code, 3).map((c) => c.code);
    if (SUGGESTIONS.size >= MAX_REMEMBERED_SUGGESTIONS) SUGGESTIONS.clear();
    SUGGESTIONS.set(code, suggestions);
  }
  return suggestions;
}

/** The first character of a span that is one of `marks`, as a span of its own. */
function firstOf(span: Span, marks: string): Span | undefined {
  // A span's text is cut from the document each time it is asked for: once here.
  const text = span.text;
  for (let i = 0; i < text.length; i++) {
    if (marks.includes(text[i])) {
      const start = { line: span.range.start.line, character: span.range.start.character + i };
      return { text: text[i], range: { start, end: { line: start.line, character: start.character + 1 } } };
    }
  }
  return undefined;
}

/** The full-width marks that do not belong between author names. */
const FULL_WIDTH_NAME_MARKS = '，、；';

/** No separators: for a line whose separators cannot hold the mark looked for. */
const NO_SPANS: readonly Span[] = [];

/** Whether `text` has one of the characters of `marks`. */
function hasAnyOf(text: string, marks: string): boolean {
  for (let i = 0; i < marks.length; i++) {
    if (text.includes(marks[i])) return true;
  }
  return false;
}

/** The separators grouped by the pair of categories they stand between (no category between two of one group), in order. */
function separatorRuns(separators: readonly Span[], categories: readonly Span[]): Span[][] {
  const runs: Span[][] = [];
  let next = 0;
  for (const separator of separators) {
    // The categories before this separator: a category since the last one starts a new group.
    let categoryBetween = runs.length === 0;
    while (next < categories.length && !positionBefore(separator.range.start, categories[next].range.start)) {
      next++;
      categoryBetween = true;
    }
    if (categoryBetween) {
      runs.push([separator]);
    } else {
      runs[runs.length - 1].push(separator);
    }
  }
  return runs;
}

/**
 * The last character of a field's line, trailing white space left out (two code units for a
 * character outside the BMP): where something missing at the end of the line is reported.
 */
function lastCharacter(field: { readonly text: string; readonly range: Range }): Range {
  const text = field.text;
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  const line = field.range.start.line;
  const first = field.range.start.character;
  if (end === 0) {
    return { start: { line, character: first }, end: { line, character: first } };
  }
  const start = end >= 2 && /[\udc00-\udfff]/.test(text[end - 1]) && /[\ud800-\udbff]/.test(text[end - 2]) ? end - 2 : end - 1;
  return { start: { line, character: first + start }, end: { line, character: first + end } };
}

/** An empty range widened to one character after it, so that an editor can show it. */
function widen(range: Range): Range {
  return range.start.character === range.end.character && range.start.line === range.end.line
    ? { start: range.start, end: { line: range.end.line, character: range.end.character + 1 } }
    : range;
}

/** Why an institution item is not an institution, in both languages, or undefined when it is one. */
function notAnInstitution(item: InstitutionItem): readonly [string, string] | undefined {
  const name = item.name.text;
  if (name.length === 0) {
    // The translation is cut from the text only for an item without a name.
    if ((item.translation?.text ?? '').length === 0) {
      return ['An empty institution between two separators', '两个分隔符之间的机构为空'];
    }
    return undefined;
  }
  return notAnInstitutionName(name);
}

/**
 * Why a (non-empty) institution name is not one, in both languages, or undefined
 * (`notAnInstitutionKind`).
 *
 * @example notAnInstitutionName('cs.AI') // ["'cs.AI' is an arXiv category, not an institution", …]
 */
export function notAnInstitutionName(name: string): readonly [string, string] | undefined {
  switch (notAnInstitutionKind(name)) {
    case 'tag':
      return [`${quote(name)} is a bracketed tag, not an institution`, `${quoteZh(name)}是方括号标记，不是机构`];
    case 'category':
      return [`${quote(name)} is an arXiv category, not an institution`, `${quoteZh(name)}是 arXiv 分类，不是机构`];
    case 'no-letter':
      return [`${quote(name)} is not the name of an institution`, `${quoteZh(name)}不是机构名称`];
    default:
      return undefined;
  }
}

/**
 * The marks of a pair of brackets written `wrongOpen` `wrongClose` (either or both) where the
 * format uses `expectedOpen` `expectedClose`, with the range from the one to the other; undefined
 * when neither is wrong or one is missing.
 */
function bracketMarks(open: Span | undefined, close: Span | undefined, wrongOpen: string, wrongClose: string, expectedOpen: string, expectedClose: string): { range: Range; marks: { range: Range; expected: string }[] } | undefined {
  if (!open || !close) {
    return undefined;
  }
  const openWrong = open.text === wrongOpen;
  const closeWrong = close.text === wrongClose;
  if (!openWrong && !closeWrong) {
    return undefined;
  }
  const openRange = open.range;
  const closeRange = close.range;
  const marks: { range: Range; expected: string }[] = [];
  if (openWrong) marks.push({ range: openRange, expected: expectedOpen });
  if (closeWrong) marks.push({ range: closeRange, expected: expectedClose });
  return { range: { start: openRange.start, end: closeRange.end }, marks };
}

/** Whether a hit's text is really a list of category codes: `cs.CL、cs.AI`. */
function looksLikeCategoryList(text: string): boolean {
  // Codes in full-width characters (`ｃｓ．ＬＧ`) read as their ASCII, as the Papers view reads them.
  const parts = compatibilityForm(text).split(/[、,，\s]+/).filter((part) => part.length > 0);
  return parts.length > 0 && parts.every((part) => isCategoryLike(part)) && parts.some((part) => categoryIgnoringCase(part) !== undefined);
}

/**
 * The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
 * adjacent characters each cost 1. Only used on short codes.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      }
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}
