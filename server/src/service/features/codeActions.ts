/**
 * Quick fixes for the diagnostics, and fix-all.
 *
 * Every fix is computed from the model and changes only what it fixes: applying it and parsing
 * again makes its problem go away and leaves every other byte of the file as it was. A fix is
 * *safe* when its intent is unique and it deletes nothing but punctuation: fix-all applies the
 * safe fixes only, so it never removes a paragraph, never guesses among several categories and
 * never inserts placeholder text.
 */
import { CodeAction, CodeActionKind, Diagnostic, Position, Range, SnippetTextEdit, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import { applyOffsetEdits, composeEdits, editsConflict, LineIndex, OffsetEdit, positionBefore, splitsSurrogatePair, toOffsetEdits, toTextEdits } from '../edits';
import type { DigestDocument, Entry, Field, FieldKind, InstitutionsField, Span, TopicHitsField } from '../model';
import { FIELD_ORDER, LABELS, miscasedLabelAt } from '../model';
import { HIT_SPACE_CLASS } from '../nodes';
import { categoryByCode, categoryIgnoringCase } from '../taxonomy';
import { authorListLikeness, isBlank, plainLabel, skipSpaces, trimEndIndex } from '../text';
import { consistencyFixes, entriesChangingForms, Forms, formsOf, keysWorseElsewhere } from './consistency';
import { entryTitleKey, titleKey } from './entries';
import { openCopyActions } from './duplicateActions';
import { Bilingual, bilingual, say } from '../messages';
import { diagnosticSteps, runToEnd, DiagnosticCode, DiagnosticData, DiagnosticOptions, DIAGNOSTIC_SOURCE, DigestDiagnostic } from './diagnostics';
import { documentTooLarge, parseWithinLimits } from '../limits';
import { fixIsCleanInDocument, fixIsCleanNearby, newProblems, problemCounts, WHOLE_CHECK_ENTRIES } from './fixCheck';

/** The code-action kind of fix-all, so that it can run on save (`editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = 'source.fixAll.paperDigest';
/** The fix-all action's title, and the label of the edit the *Fix All Problems* command applies. */
export const FIX_ALL_TITLE = bilingual('Fix all Paper Digest problems', '修复所有 Paper Digest 问题');

/** The code-action kinds this feature offers. */
export const CODE_ACTION_KINDS: readonly string[] = [CodeActionKind.QuickFix, FIX_ALL_KIND];

/** What the client can do with the fixes. */
export interface FixContext {
  /**
   * The client applies snippet edits (`workspace.workspaceEdit.snippetEditSupport`): placeholders
   * come as tab stops.
   */
  readonly snippets?: boolean;
  /** The edits of fix-all, when worked out already (in slices, `fixAllSteps`), instead of at once. */
  readonly fixAllEdits?: readonly TextEdit[];
}

/** One way to fix one diagnostic. */
export interface DigestFix {
  /** `English — 中文`; `titles` holds both for the other message languages. */
  readonly title: string;
  readonly titles: Bilingual;
  /** The edits, in plain text (a placeholder as its default text). */
  readonly edits: readonly TextEdit[];
  /** The same edits with placeholders as snippet tab stops, when the client takes snippets. */
  readonly snippetEdits?: readonly SnippetTextEdit[];
  readonly isPreferred: boolean;
  /** Whether fix-all applies it: its intent is unique and it removes nothing but punctuation. */
  readonly safe: boolean;
}

/**
 * Placeholder paragraphs for missing fields: each parses as the field it stands for and raises no
 * problem of its own (an author list of two names reads as authors, where one name alone may
 * read as a title). `summary` is the text after `AI总结` ("to be written").
 */
export const PLACEHOLDERS: Readonly<Record<'englishTitle' | 'chineseTitle' | 'authors' | 'summary' | 'topic' | 'keyword' | 'hitField' | 'category', string>> = {
  englishTitle: 'English title',
  chineseTitle: '中文标题',
  authors: 'First Author, Second Author',
  summary: '待补充。',
  topic: '待定专题',
  keyword: 'keyword',
  hitField: 'abstract',
  category: 'cs.AI',
};

/** The placeholder heading inserted when a digest has none ("unnamed subject"). */
export const PLACEHOLDER_HEADING = '未命名主题';

/**
 * The fixes of one diagnostic, the preferred one first; none when the intent is not clear.
 *
 * @example
 * const [diagnostic] = computeDiagnostics(doc); // category-case on 'CS.lg'
 * fixesFor(doc, diagnostic)[0];
 * // { title: "Write 'cs.LG'", edits: [{ range, newText: 'cs.LG' }], isPreferred: true, safe: true }
 */
export function fixesFor(doc: DigestDocument, diagnostic: DigestDiagnostic, context: FixContext = {}): DigestFix[] {
  const data: DiagnosticData = diagnostic.data ?? {};
  const entry = data.entry !== undefined ? doc.entries[data.entry] : undefined;
  const at = new Places(doc);
  switch (diagnostic.code) {
    case DiagnosticCode.MissingHeading:
      return [fix(bilingual('Insert a placeholder heading', '插入占位标题'), [insert(diagnostic.range.start, PLACEHOLDER_HEADING + doc.eol + doc.eol)], true, false)];
    case DiagnosticCode.MissingField:
      return entry && data.field ? missingField(doc, at, entry, data, context) : [];
    case DiagnosticCode.RunTogether:
      return [fix(bilingual('Separate the paragraphs with a blank line', '插入空行分段'), [at.insertLineEnd(diagnostic.range.start.line)], true, true)];
    case DiagnosticCode.OutOfOrder:
      return entry ? reorder(at, entry) : [];
    case DiagnosticCode.StrayLine: {
      // A label in another case (`comments 12 pages`, `Journal Ref …`): writing it as the format
      // does makes the line the field it was meant to be; deleting it would lose the text.
      const relabel = diagnostic.range.start.line === diagnostic.range.end.line ? miscasedLabel(at, diagnostic.range.start.line) : undefined;
      // Both preferred: a code action offers only the fixes that raise no new problem, and of
      // those, the first preferred one (the label, when the line may take it) stays preferred.
      const remove = fix(
        diagnostic.range.start.line === diagnostic.range.end.line ? bilingual('Remove the stray line', '删除此行') : bilingual('Remove the stray lines', '删除这些行'),
        [at.deleteLines(diagnostic.range.start.line, diagnostic.range.end.line)],
        true,
        false,
      );
      return relabel ? [fix(bilingual(`Write the label as '${relabel.label}'`, `将标签改为“${relabel.label}”`), [TextEdit.replace(relabel.range, relabel.label)], true, false), remove] : [remove];
    }
    case DiagnosticCode.HalfWidthPunctuation:
    case DiagnosticCode.FullWidthPunctuation:
    case DiagnosticCode.CategorySeparator: {
      const marks = data.marks ?? [];
      if (marks.length === 0) return [];
      const expected = [...new Set(marks.map((m) => m.expected))].join('');
      return [fix(bilingual(`Use '${expected}'`, `改为“${expected}”`), markEdits(marks), true, true)];
    }
    case DiagnosticCode.UnbalancedBrackets:
      if (data.inHits) {
        // A topic hit's `(field` never closed: closed (and written half-width) where the keyword
        // ends; a bracket whose place is not clear, none.
        return data.marks ? [fix(bilingual("Close the bracket with ')'", '补全“)”'), markEdits(data.marks), true, true)] : [];
      }
      return entry?.institutions && data.item !== undefined ? closeBracket(entry.institutions, data.item) : [];
    case DiagnosticCode.InstitutionsMissingStar: {
      const range = data.replaceRange;
      if (!range || !entry?.institutions) return [];
      const between = at.textOf(range);
      // A star after another separator (`机构：* …`) was read as the start of the first name:
      // the separator and that star become the one star.
      const star = /^\*[ \t\u3000]*/.exec(at.textOf({ start: range.end, end: at.contentEnd(range.end.line) }));
      const edit = star
        ? TextEdit.replace({ start: range.start, end: { line: range.end.line, character: range.end.character + star[0].length } }, ' * ')
        : between.length > 0 && isBlank(between)
          ? insert(range.end, '* ')
          : TextEdit.replace(range, ' * ');
      return [fix(bilingual("Add '* ' after 机构", "在“机构”后添加“* ”"), [edit], true, true)];
    }
    case DiagnosticCode.InstitutionsMissingMarker: {
      const field = entry?.institutions;
      if (!field) return [];
      // In place of the white space the line ends with (a ` * ` just written before it by fix-all's round before).
      const end = at.contentEnd(field.line);
      return [fix(bilingual("Add the trailing ' 纠错'", "在行末添加“纠错”"), [TextEdit.replace({ start: end, end: at.lineEnd(field.line) }, ' ' + LABELS.reportMarker)], true, true)];
    }
    case DiagnosticCode.NotAnInstitution:
      return entry?.institutions && data.item !== undefined ? removeInstitution(at, entry.institutions, data.item) : [];
    case DiagnosticCode.HitMissingField:
      return entry?.topicHits && data.item !== undefined ? hitMissingField(entry.topicHits, data.item) : [];
    case DiagnosticCode.EmptyKeyword:
      return entry?.topicHits && data.item !== undefined ? emptyKeyword(entry.topicHits, data.item) : [];
    case DiagnosticCode.RunTogetherHits: {
      const marks = data.marks ?? [];
      return marks.length === 0 ? [] : [fix(bilingual("Separate the two hits with '；'", '用“；”分隔两个命中词'), markEdits(marks), true, true)];
    }
    case DiagnosticCode.MissingCategories:
      return data.unlabelled ? labelCategories(at, diagnostic.range) : [];
    case DiagnosticCode.CategoryCase:
    case DiagnosticCode.UnknownCategory: {
      const suggestions = data.suggestions ?? [];
      const unique = diagnostic.code === DiagnosticCode.CategoryCase ? suggestions.length === 1 : data.clearSuggestion === true;
      return suggestions.map((code, index) => {
        const category = categoryByCode(code);
        return fix(bilingual(`Write '${code}'${category ? ` (${category.name})` : ''}`, `改为“${code}”${category?.nameZh ? `（${category.nameZh}）` : ''}`), [TextEdit.replace(diagnostic.range, code)], unique && index === 0, unique && index === 0);
      });
    }
    case DiagnosticCode.SwappedTitles: {
      const english = entry?.englishTitle;
      const chinese = entry?.chineseTitle;
      if (!english || !chinese) return [];
      return [
        fix(bilingual('Swap the two titles', '交换中英文标题'), [TextEdit.replace(english.value.range, chinese.value.text), TextEdit.replace(chinese.value.range, english.value.text)], true, true),
      ];
    }
    case DiagnosticCode.InconsistentTranslation:
    case DiagnosticCode.InconsistentAuthorName:
      return consistencyFixes(diagnostic);
    case DiagnosticCode.DuplicatePaper:
      return entry && data.firstOccurrence ? [fix(bilingual('Remove this duplicate entry', '删除重复的条目'), [at.deleteLines(entry.range.start.line, entry.range.end.line)], true, false)] : [];
    default:
      return [];
  }
}

/** The document the actions edit: with a version, their edits apply to that version only. */
export interface CodeActionTarget {
  readonly uri: string;
  readonly version?: number;
}

export interface CodeActionRequest {
  /** The range the editor asks about. */
  readonly range: Range;
  /** The diagnostics the editor shows there (the context of the request). */
  readonly diagnostics: readonly Diagnostic[];
  /** The kinds asked for; all when absent. */
  readonly only?: readonly string[];
}

/**
 * The code actions for a range: a quick fix per fix of each diagnostic there, and fix-all when
 * `source.fixAll.paperDigest` (or `source.fixAll`, or `source`) is asked for. Diagnostics are
 * recomputed from the current model, so an editor's stale diagnostic gets no fix that would
 * misplace its edits.
 *
 * @example
 * codeActions(doc, { uri: 'file:///a.digest' }, { range, diagnostics: [diagnostic] }, {})
 * // [{ title: "Use '；' — 改为“；”", kind: 'quickfix', isPreferred: true, diagnostics: [diagnostic], edit }]
 */
export function codeActions(
  doc: DigestDocument,
  target: CodeActionTarget,
  request: CodeActionRequest,
  options: DiagnosticOptions = {},
  token: Cancellation = NEVER_CANCELLED,
  context: FixContext = {},
): CodeAction[] {
  const workspaceEdit = (edits: readonly (TextEdit | SnippetTextEdit)[]): WorkspaceEdit =>
    target.version === undefined
      ? { changes: { [target.uri]: edits as TextEdit[] } }
      : { documentChanges: [TextDocumentEdit.create({ uri: target.uri, version: target.version }, [...edits])] };
  // Snippet edits need a versioned document edit.
  const snippets = context.snippets === true && target.version !== undefined;
  const wants = (kind: string): boolean => !request.only || request.only.some((asked) => kind === asked || kind.startsWith(asked + '.'));
  const actions: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    const fresh = diagnosticsOf(doc, options, token);
    // The diagnostics the editor shows, by code, range and message: looked up once per
    // diagnostic, not compared with each (a selection over thousands of problems was quadratic).
    // One of another message (the message language changed since) matches by code and range
    // when it is the only problem of its code there.
    const shownByKey = new Map<string, Diagnostic>();
    const shownByPlace = new Map<string, Diagnostic | null>();
    for (const shown of request.diagnostics) {
      if (shown.source === undefined || shown.source === DIAGNOSTIC_SOURCE) {
        shownByKey.set(diagnosticKey(shown.code, shown.range, typeof shown.message === 'string' ? shown.message : ''), shown);
        const place = diagnosticKey(shown.code, shown.range);
        shownByPlace.set(place, shownByPlace.has(place) ? null : shown);
      }
    }
    const freshAtPlace = new Map<string, number>();
    if (request.diagnostics.length > 0) {
      for (const diagnostic of fresh) {
        const place = diagnosticKey(diagnostic.code, diagnostic.range);
        freshAtPlace.set(place, (freshAtPlace.get(place) ?? 0) + 1);
      }
    }
    const shownOf = (diagnostic: Diagnostic): Diagnostic | undefined => {
      const exact = shownByKey.get(diagnosticKey(diagnostic.code, diagnostic.range, diagnostic.message as string));
      if (exact) return exact;
      const place = diagnosticKey(diagnostic.code, diagnostic.range);
      return freshAtPlace.get(place) === 1 ? (shownByPlace.get(place) ?? undefined) : undefined;
    };
    let fixed = 0;
    // The whole-document checks of structural fixes this request may make, counted in problems
    // checked (`CHECK_BUDGET`).
    const budget = { left: CHECK_BUDGET };
    /** The quick fixes offered, before their titles are final (two problems may be fixed alike). */
    const offered: { title: string; titles: Bilingual; diagnostic: Diagnostic; shown: Diagnostic; isPreferred: boolean; edit: WorkspaceEdit }[] = [];
    for (const diagnostic of fresh) {
      if (token.isCancellationRequested) {
        return [];
      }
      const shown = request.diagnostics.length === 0 ? (intersects(diagnostic.range, request.range) ? diagnostic : undefined) : shownOf(diagnostic);
      if (!shown) {
        continue;
      }
      if (++fixed > MAX_FIXED_DIAGNOSTICS) {
        // A selection over more problems than a menu can show: the first ones (fix-all takes all).
        break;
      }
      let preferred = false;
      for (const f of fixesFor(doc, diagnostic, { snippets })) {
        if (!fixIsClean(doc, diagnostic, f, fresh, options, token, budget)) {
          // A fix that would leave its problem or raise a new one is not offered.
          continue;
        }
        // At most one preferred fix a problem: the first of those offered.
        const isPreferred: boolean = f.isPreferred === true && !preferred;
        preferred ||= isPreferred;
        offered.push({ title: say(f.titles, options.language), titles: f.titles, diagnostic, shown, isPreferred, edit: workspaceEdit(f.snippetEdits ?? onCodePointsOf(doc, f.edits)) });
      }
    }
    // A title two problems' fixes share (`Write 'cs.AI'` for `CS.ai` and for `cs.XX` on one line)
    // says what each replaces: a menu would show the same words twice, or once.
    const problemsByTitle = new Map<string, Set<Diagnostic>>();
    for (const each of offered) {
      problemsByTitle.set(each.title, (problemsByTitle.get(each.title) ?? new Set()).add(each.diagnostic));
    }
    const places = new Places(doc);
    for (const { title, titles, diagnostic, shown, isPreferred, edit } of offered) {
      const replaced = (problemsByTitle.get(title)?.size ?? 0) > 1 ? places.titleText(diagnostic.range) : '';
      const named = replaced ? say(bilingual(`${titles.en} for '${replaced}'`, `${titles.zh}（替换“${replaced}”）`), options.language) : title;
      actions.push({ title: named, kind: CodeActionKind.QuickFix, diagnostics: [shown], isPreferred, edit });
    }
    actions.push(...openCopyActions(target.uri, request.diagnostics, options.language));
  }
  if (request.only && wants(FIX_ALL_KIND)) {
    const edits = context.fixAllEdits ?? fixAll(doc, options, token);
    if (edits.length > 0 && !token.isCancellationRequested) {
      actions.push({ title: say(FIX_ALL_TITLE, options.language), kind: FIX_ALL_KIND, diagnostics: [], edit: workspaceEdit(edits) });
    }
  }
  return actions;
}

/**
 * The diagnostics of a model for its code actions, kept per model: an editor asks for code actions
 * at every move of the cursor, and the model only changes with the text.
 */
const diagnosticsByModel = new WeakMap<DigestDocument, { key: string; diagnostics: DigestDiagnostic[] }>();

function diagnosticsOf(doc: DigestDocument, options: DiagnosticOptions, token: Cancellation): DigestDiagnostic[] {
  return runToEnd(diagnosticsOfSteps(doc, options, token));
}

/**
 * The diagnostics `codeActions` works from, made in steps and kept for the model: a server runs
 * them a slice at a time before it asks for the actions, so that a document of a hundred thousand
 * problems keeps answering other requests (and hears a cancellation) meanwhile.
 */
export function* codeActionDiagnosticSteps(doc: DigestDocument, options: DiagnosticOptions = {}, token: Cancellation = NEVER_CANCELLED): Generator<void, true, void> {
  yield* diagnosticsOfSteps(doc, options, token);
  return true;
}

/** `diagnosticsOf` in steps. */
function* diagnosticsOfSteps(doc: DigestDocument, options: DiagnosticOptions, token: Cancellation): Generator<void, DigestDiagnostic[], void> {
  const key = JSON.stringify([options.uri, options.docsBase, options.rules, options.formsGeneration, options.language]);
  const cached = diagnosticsByModel.get(doc);
  if (cached && cached.key === key) {
    return cached.diagnostics;
  }
  // Stopped once past the most fix-all works on: the problems of the first entries then (the
  // quick fixes of what the editor shows, at most the first few thousand), and then the model
  // has too many (`fixAllRefused`; its structural fixes are not offered, their check needing
  // every problem). Below it, the check is complete, as without a cap.
  const diagnostics = yield* diagnosticSteps(doc, { ...checkedOptions(options), maxDiagnostics: MAX_FIX_ALL_PROBLEMS + 1 }, token);
  if (!token.isCancellationRequested) {
    diagnosticsByModel.set(doc, { key, diagnostics });
  }
  return diagnostics;
}

/**
 * The options code actions and fix-all check a document with: every problem (no cap), and no
 * duplicates in other files (removing a paper because another file has it is not a fix). The
 * message language, the rule pages and the URI only change the diagnostics' texts and related
 * locations, never their codes, ranges or data; kept, they let the checks of entries the
 * published diagnostics already made be reused (diagnostics.ts keeps them per entry, by those).
 */
function checkedOptions(options: DiagnosticOptions): DiagnosticOptions {
  return { ...options, duplicatesElsewhere: undefined, maxDiagnostics: undefined };
}

/** At most this many rounds of fix, parse, fix again: fixes that touch wait for the next round. */
const MAX_ROUNDS = 8;

/**
 * The edits of every safe fix, together, against the document's text: non-overlapping, and
 * idempotent (running fix-all on the result changes nothing). Fixes that touch the same text
 * are applied in rounds, parsing in between, and the rounds are composed into one set of edits.
 * Rules that are off are not fixed. The document's own diagnostics are those its code actions
 * use (kept per model), and each model of a round is checked once.
 *
 * @example
 * applyEdits(doc.text, fixAll(doc)) // the text with every safe fix applied
 */
export function fixAll(doc: DigestDocument, options: DiagnosticOptions = {}, token: Cancellation = NEVER_CANCELLED): TextEdit[] {
  return runToEnd(fixAllSteps(doc, options, token));
}

/**
 * `fixAll` in steps of a few milliseconds (the server runs them in slices, slices.ts, so that a
 * fix-all of 300,000 problems does not hold up every other request, and a newer version or a
 * cancellation stops it).
 */
export function* fixAllSteps(doc: DigestDocument, options: DiagnosticOptions = {}, token: Cancellation = NEVER_CANCELLED): Generator<void, TextEdit[], void> {
  const checkOptions = checkedOptions(options);
  const first = yield* diagnosticsOfSteps(doc, checkOptions, token);
  if (fixAllRefused(doc)) {
    // Its checks would hold millions of problems (`MAX_FIX_ALL_PROBLEMS`).
    return [];
  }
  const before = problemCounts(first, -1, doc);
  // Entries whose fixes raised a new problem are left alone, and fix-all runs again without them.
  const excluded = new Set<number>();
  // The document's forms of the names the consistency rules count, made at the first attempt that needs them.
  let formsBefore: Forms | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { edits, result, resultDiagnostics } = yield* fixAllRounds(doc, first, checkOptions, excluded, token);
    if (token.isCancellationRequested) {
      return [];
    }
    if (edits.length === 0) {
      return [];
    }
    if (documentTooLarge(result)) {
      // The fixes together take the text past a limit (blank lines between 290,000 run-together
      // lines): no subset of entries left out is sure to help, and each try costs a whole check.
      return [];
    }
    const worse = newProblems(before, problemCounts(resultDiagnostics ?? (yield* diagnosticSteps(result, checkOptions, token)), -1, result));
    if (options.countedElsewhere) {
      // Nor more problems in the other files: the entries whose forms of a name that another
      // file would be reported for more often change are left as they are; so are those whose
      // fix gives them the English title of a paper in another file (`duplicate-paper` there,
      // or here: fix-all's own check leaves the other files' copies out).
      formsBefore ??= formsOf(doc);
      const keys = keysWorseElsewhere(formsBefore, formsOf(result), options);
      const changing = keys.size > 0 ? entriesChangingForms(doc, result, keys) : [];
      for (const entry of [...changing, ...entriesTitledAsElsewhere(doc, result, options)]) if (!worse.includes(entry)) worse.push(entry);
      if (keys.size > 0 && worse.length === 0) return [];
    }
    if (worse.length === 0) {
      return toTextEdits(doc.text, edits);
    }
    const fresh = worse.filter((entry) => !excluded.has(entry));
    if (fresh.length === 0) {
      // Leaving the same entries out again would give the same result.
      return [];
    }
    for (const entry of fresh) excluded.add(entry);
  }
  return [];
}

/**
 * The entries a fix gives an English title that a paper of another file of the workspace has
 * (`duplicatesElsewhere`) and that they did not have: the entries of `doc` at the same places in
 * `fixed` (none when the fix removed an entry: the places no longer match).
 */
function entriesTitledAsElsewhere(doc: DigestDocument, fixed: DigestDocument, options: DiagnosticOptions): number[] {
  const elsewhere = options.duplicatesElsewhere;
  if (!elsewhere || doc.entries.length !== fixed.entries.length) return [];
  const found: number[] = [];
  for (let i = 0; i < doc.entries.length; i++) {
    const key = entryTitleKey(fixed.entries[i], false);
    if (key.length > 0 && key !== entryTitleKey(doc.entries[i], false) && elsewhere(key).length > 0) found.push(i);
  }
  return found;
}

/**
 * Fix-all works on a document of at most this many problems. Each of its rounds checks the whole
 * document again and holds every problem found (about 3 KB each at the peak): a 6 MB digest of
 * 6,000 problems a paper, within every limit of what is read, took the server past 4 GB and
 * ended it. Past this, fix-all refuses the document (`fixAllRefused`) and says why; its quick
 * fixes are still offered one by one, and the problems listed.
 */
export const MAX_FIX_ALL_PROBLEMS = 150_000;

/**
 * Whether fix-all refuses a model as last checked for code actions (under the options of that
 * check, kept with the model: rules turned off may bring it under the limit): it has more than
 * `MAX_FIX_ALL_PROBLEMS` problems.
 */
export function fixAllRefused(doc: DigestDocument): boolean {
  return (diagnosticsByModel.get(doc)?.diagnostics.length ?? 0) > MAX_FIX_ALL_PROBLEMS;
}

/**
 * The whole-document checks of structural quick fixes one code-action request makes, counted in
 * the problems and papers they check: a line of 30,000 `；`, each an empty keyword with a fix,
 * made a request check a document of 30,000 problems for each of 64 fixes (seven seconds, with
 * no other request answered meanwhile). Up to this, a selection of a small document's problems
 * gets all its fixes; past it, the fixes not yet checked are left to a later request (those checked
 * are kept with the model).
 */
const CHECK_BUDGET = 200_000;

/** At most this many runs of fix-all, each leaving out the entries where the run before made things worse. */
const MAX_ATTEMPTS = 4;

/**
 * The rounds of fix-all, composed into edits against the original text, the model of the result
 * and, when the rounds stopped because it had nothing left to fix, its diagnostics.
 */
function* fixAllRounds(
  doc: DigestDocument,
  diagnostics: readonly DigestDiagnostic[],
  options: DiagnosticOptions,
  excluded: ReadonlySet<number>,
  token: Cancellation,
): Generator<void, { edits: OffsetEdit[]; result: DigestDocument; resultDiagnostics?: readonly DigestDiagnostic[] }, void> {
  const original = doc.text;
  /**
   * The entries whose names fix-all may still settle after its first round: those whose names
   * disagreed at the start, or whose lines it may read otherwise once fixed (a line moved into
   * place, a field found); not those with an unrelated problem (a category's case).
   */
  const troubled = new Set(diagnostics.filter((d) => VOTED.has(d.code) || RELINED.has(d.code)).map((d) => d.data?.entry ?? -1));
  let current = doc;
  let checked: readonly DigestDiagnostic[] | undefined = diagnostics;
  let composed: OffsetEdit[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (checked === undefined) {
      checked = yield* diagnosticSteps(current, options, token);
    }
    // After the first round, the names' votes are partly those the fixes made (two brackets closed
    // after the same stray character outvote the line written right): a paper that had no problem
    // at the start is not fix-all's to change for them.
    const fixable = round === 0 ? checked : checked.filter((d) => !VOTED.has(d.code) || troubled.has(d.data?.entry ?? -1));
    const edits = yield* safeEditsOf(current, fixable, excluded, token);
    if (token.isCancellationRequested || edits.length === 0) {
      return { edits: composed, result: current, resultDiagnostics: checked };
    }
    composed = round === 0 ? edits : composeEdits(original, composed, edits);
    // Within the limits as any document (a text the fixes took past one is not parsed whole).
    current = parseWithinLimits(applyOffsetEdits(current.text, edits));
    checked = undefined;
    yield;
  }
  return { edits: composed, result: current };
}

/** Rules that compare a name with the other forms of it in the workspace (consistency.ts). */
const VOTED: ReadonlySet<string> = new Set([DiagnosticCode.InconsistentTranslation, DiagnosticCode.InconsistentAuthorName]);

/** Rules whose fixes change which field a line is read as. */
const RELINED: ReadonlySet<string> = new Set([DiagnosticCode.OutOfOrder, DiagnosticCode.MissingField, DiagnosticCode.RunTogether, DiagnosticCode.StrayLine, DiagnosticCode.SwappedTitles]);

/**
 * Fixes that change the structure of an entry (they insert, remove or move paragraphs, or change
 * what a line reads as: a '* ' after '机构：' makes a bracketed tag an item; a '、' for a '，' in a
 * translation makes an institution an author list paired by position, whose names are voted on).
 * Every fix is tried on the text before it is offered; where that cannot be done (a document of
 * more problems than are worked out), these are held back and the others, which put a mark
 * right, are offered.
 */
const STRUCTURAL: ReadonlySet<string> = new Set([
  DiagnosticCode.InstitutionsMissingStar,
  DiagnosticCode.InconsistentTranslation,
  DiagnosticCode.InconsistentAuthorName,
  DiagnosticCode.MissingHeading,
  DiagnosticCode.MissingField,
  DiagnosticCode.RunTogether,
  DiagnosticCode.OutOfOrder,
  DiagnosticCode.StrayLine,
  DiagnosticCode.NotAnInstitution,
  DiagnosticCode.HitMissingField,
  DiagnosticCode.EmptyKeyword,
  DiagnosticCode.RunTogetherHits,
  DiagnosticCode.UnbalancedBrackets,
  DiagnosticCode.SwappedTitles,
  DiagnosticCode.DuplicatePaper,
]);

/** What trying the fixes of a model found, by their edits. */
const TRIED = new WeakMap<DigestDocument, Map<string, boolean>>();

/**
 * Whether applying a fix makes its problem go away and raises no new one (fixCheck.ts): on the
 * whole document, or around the fix in a document of more papers than `WHOLE_CHECK_ENTRIES`.
 */
function fixIsClean(doc: DigestDocument, diagnostic: DigestDiagnostic, fix: DigestFix, before: readonly DigestDiagnostic[], options: DiagnosticOptions, token: Cancellation, budget: { left: number }): boolean {
  if (fixAllRefused(doc)) {
    // The problems before are not all known: that the fix raises no new one cannot be shown.
    return !STRUCTURAL.has(diagnostic.code);
  }
  let tried = TRIED.get(doc);
  if (!tried) {
    tried = new Map();
    TRIED.set(doc, tried);
  }
  const key = `${diagnostic.code}@${diagnostic.data?.entry ?? -1}:${JSON.stringify(fix.edits)}`;
  const known = tried.get(key);
  if (known !== undefined) {
    return known;
  }
  const nearby = doc.entries.length > WHOLE_CHECK_ENTRIES ? fixIsCleanNearby(doc, diagnostic, fix.edits, options, token) : undefined;
  if (nearby === undefined) {
    // A check of the whole document costs about as much as its problems: past the budget, the
    // fix is not offered this time (it is not known to be clean), and the request stays short.
    if (budget.left <= 0) {
      return false;
    }
    budget.left -= Math.max(before.length, 1) + doc.entries.length;
  }
  const clean = nearby ?? fixIsCleanInDocument(doc, diagnostic, fix.edits, before, options, token);
  if (!token.isCancellationRequested) {
    tried.set(key, clean);
  }
  return clean;
}

/**
 * Edits moved onto code-point boundaries: an edit that would start or end between the two halves
 * of a surrogate pair takes the whole character in.
 */
function onCodePointsOf(doc: DigestDocument, edits: readonly TextEdit[]): TextEdit[] {
  const splits = (p: Position): boolean => {
    const line = doc.lines[p.line];
    if (!line) return false;
    // LSP characters count from the line's start as it is in the text (a BOM included on line 0).
    const at = (p.line === 0 ? 0 : line.offset) + p.character;
    return splitsSurrogatePair(doc.text, at);
  };
  return edits.map((edit) => {
    const { start, end } = edit.range;
    if (!splits(start) && !splits(end)) {
      return edit;
    }
    const index = new LineIndex(doc.text);
    const [aligned] = toTextEdits(doc.text, toOffsetEdits(doc.text, [edit], index), index);
    return aligned;
  });
}

/** One round of fix-all: the safe fixes that do not conflict with one another, as offset edits. */
function* safeEditsOf(doc: DigestDocument, diagnostics: readonly DigestDiagnostic[], excluded: ReadonlySet<number>, token: Cancellation): Generator<void, OffsetEdit[], void> {
  const index = new LineIndex(doc.text);
  const accepted: OffsetEdit[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const diagnostic of diagnostics) {
    if ((++done & 1023) === 0) {
      yield;
    }
    if (token.isCancellationRequested) {
      return [];
    }
    if (excluded.size > 0 && excluded.has(diagnostic.data?.entry ?? -1)) {
      continue;
    }
    const safe = fixesFor(doc, diagnostic).find((f) => f.safe);
    if (!safe) {
      continue;
    }
    const edits = toOffsetEdits(doc.text, safe.edits, index);
    const key = JSON.stringify(edits);
    if (seen.has(key)) {
      // Two diagnostics with the same fix, e.g. a hit without a field and the `(field)` split from it.
      continue;
    }
    if (edits.some((edit) => conflictsWithAny(accepted, edit))) {
      continue;
    }
    seen.add(key);
    for (const edit of edits) {
      accepted.splice(insertionIndex(accepted, edit), 0, edit);
    }
  }
  return accepted;
}

/** Where an edit goes in edits sorted by start (after those that start at or before it). */
function insertionIndex(sorted: readonly OffsetEdit[], edit: OffsetEdit): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid].start < edit.start || (sorted[mid].start === edit.start && sorted[mid].end <= edit.end)) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

/**
 * Whether an edit conflicts with one of non-overlapping edits sorted by start: only the edits
 * that start at or before its end and end at or after its start can, and they are neighbours.
 */
function conflictsWithAny(sorted: readonly OffsetEdit[], edit: OffsetEdit): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid].start <= edit.end) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  for (let i = low - 1; i >= 0 && sorted[i].end >= edit.start; i--) {
    if (editsConflict(sorted[i], edit)) {
      return true;
    }
  }
  return false;
}

// ---- The fixes ---------------------------------------------------------------------------

function fix(title: Bilingual, edits: TextEdit[], isPreferred: boolean, safe: boolean): DigestFix {
  return { title: say(title), titles: title, edits, isPreferred, safe };
}

function insert(position: Position, text: string): TextEdit {
  return TextEdit.insert(position, text);
}

/**
 * A placeholder of a snippet: `${n:text}` as a tab stop, with `$`, `}` and `\\` escaped.
 */
function tabStop(n: number, text: string): string {
  return `\${${n}:${text.replace(/[$}\\]/g, (c) => '\\' + c)}}`;
}

/**
 * Inserts a complete placeholder paragraph where the missing field belongs: a skeleton that
 * parses as that field and raises no problem of its own (`专题命中` with its topic, one hit and
 * `分类`; `AI总结` with a placeholder summary). With snippets, the placeholders are tab stops.
 */
function missingField(doc: DigestDocument, at: Places, entry: Entry, data: DiagnosticData, context: FixContext): DigestFix[] {
  const field = data.field!;
  // The paragraph as parts: literal text, and placeholders that become tab stops.
  let parts: (string | { placeholder: string })[];
  switch (field) {
    case 'englishTitle':
      parts = [{ placeholder: unusedTitle(doc) }];
      break;
    case 'chineseTitle':
      parts = [{ placeholder: PLACEHOLDERS[field] }];
      break;
    case 'authors': {
      const [first, second] = PLACEHOLDERS.authors.split(', ');
      parts = [{ placeholder: first }, ', ', { placeholder: second }];
      break;
    }
    case 'topicHits': {
      const near = nearestTopicHits(doc, entry.index);
      parts = [
        `${LABELS.topicHits} `,
        { placeholder: near?.topic ?? PLACEHOLDERS.topic },
        ' ：',
        { placeholder: PLACEHOLDERS.keyword },
        '(',
        { placeholder: PLACEHOLDERS.hitField },
        `)；${LABELS.categories} `,
        { placeholder: near?.category ?? PLACEHOLDERS.category },
      ];
      break;
    }
    case 'summary':
      parts = [`${LABELS.summary} `, { placeholder: PLACEHOLDERS.summary }];
      break;
    default:
      return [];
  }
  let stop = 0;
  const plain = parts.map((part) => (typeof part === 'string' ? part : part.placeholder)).join('');
  const snippet = parts.map((part) => (typeof part === 'string' ? part.replace(/[$}\\]/g, (c) => '\\' + c) : tabStop(++stop, part.placeholder))).join('');
  let position: Position;
  let before = '';
  let after = '';
  if (data.insertAfterLine !== undefined) {
    position = at.lineEnd(data.insertAfterLine);
    before = doc.eol + doc.eol;
  } else if (data.insertBeforeLine !== undefined) {
    position = at.lineStart(data.insertBeforeLine);
    after = doc.eol + doc.eol;
  } else {
    return [];
  }
  const labelled = field === 'topicHits' || field === 'summary';
  const label = field === 'topicHits' ? LABELS.topicHits : LABELS.summary;
  const title = labelled ? bilingual(`Insert the missing ${label} paragraph`, `插入缺少的“${label}”段落`) : bilingual(`Insert a placeholder ${fieldName(field)}`, `插入占位的${fieldNameZh(field)}`);
  const result = fix(title, [insert(position, before + plain + after)], true, false);
  const placeholder: DigestFix = context.snippets ? { ...result, snippetEdits: [{ range: { start: position, end: position }, snippet: { kind: 'snippet', value: before + snippet + '$0' + after } }] } : result;
  // The paper's author list written out of its place (after the Chinese title, say), read as a
  // stray line: moved where the authors belong, first; the placeholder after it.
  const stray = field === 'authors' ? strayAuthorList(entry) : undefined;
  if (stray) {
    const moved = fix(bilingual(`Use '${shownName(stray.text)}' as the author list`, `将“${shownName(stray.text)}”用作作者列表`), [insert(position, before + stray.text.trim() + after), at.deleteLines(stray.range.start.line, stray.range.end.line)], true, false);
    // The move alone preferred (an editor's auto fix applies the one preferred fix).
    if (!editsOverlap(doc, moved.edits)) return [moved, { ...placeholder, isPreferred: false }];
  }
  return [placeholder];
}

/**
 * The one stray line of an entry that reads as an author list (names between commas, no Chinese),
 * or undefined when none or several do.
 */
function strayAuthorList(entry: Entry): Span | undefined {
  const lists = entry.strayLines.filter((span) => span.range.start.line === span.range.end.line && authorListLikeness(span.text.trim()) === 'strong');
  return lists.length === 1 ? lists[0] : undefined;
}

/** Document text in a fix's title: one line, at most 40 characters (`plainLabel`). */
function shownName(text: string): string {
  return plainLabel(text.trim(), 40);
}

/** Whether two of a fix's edits may not be applied together (`editsConflict`: overlapping, or an insert at the other's edge). */
function editsOverlap(doc: DigestDocument, edits: readonly TextEdit[]): boolean {
  const offsets = toOffsetEdits(doc.text, edits);
  return offsets.some((a, i) => offsets.slice(i + 1).some((b) => editsConflict(a, b)));
}

function fieldName(field: FieldKind): string {
  return field === 'englishTitle' ? 'English title' : field === 'chineseTitle' ? 'Chinese title' : 'author list';
}

function fieldNameZh(field: FieldKind): string {
  return field === 'englishTitle' ? '英文标题' : field === 'chineseTitle' ? '中文标题' : '作者列表';
}

/** The English title keys of a model's entries. */
const TITLE_KEYS_OF = new WeakMap<DigestDocument, Set<string>>();

/**
 * The placeholder English title, numbered when the file has it already (`English title 2`): a
 * second paper with the same title would be a duplicate.
 */
function unusedTitle(doc: DigestDocument): string {
  let keys = TITLE_KEYS_OF.get(doc);
  if (!keys) {
    keys = new Set(doc.entries.map((entry) => titleKey(entry.englishTitle?.value.text ?? '')));
    TITLE_KEYS_OF.set(doc, keys);
  }
  let title = PLACEHOLDERS.englishTitle;
  for (let n = 2; keys.has(titleKey(title)); n++) {
    title = `${PLACEHOLDERS.englishTitle} ${n}`;
  }
  return title;
}

/** For each entry, the index of the closest entry with a topic (the earlier one on a tie), or -1. */
const NEAREST_WITH_TOPIC = new WeakMap<DigestDocument, Int32Array>();

/**
 * The topic and first known category of the closest entry that has a topic, to fill a missing
 * `专题命中`. The closest entries of all entries are found in two passes over the document, once
 * per model: asking for each of thousands of entries without topics stays linear.
 */
function nearestTopicHits(doc: DigestDocument, index: number): { topic: string; category?: string } | undefined {
  let nearest = NEAREST_WITH_TOPIC.get(doc);
  if (!nearest) {
    const entries = doc.entries;
    const n = entries.length;
    const has = (i: number): boolean => (entries[i].topicHits?.topic.text.length ?? 0) > 0;
    const previous = new Int32Array(n);
    let last = -1;
    for (let i = 0; i < n; i++) {
      previous[i] = last;
      if (has(i)) last = i;
    }
    nearest = new Int32Array(n);
    last = -1;
    for (let i = n - 1; i >= 0; i--) {
      const p = previous[i];
      nearest[i] = p < 0 ? last : last < 0 ? p : i - p <= last - i ? p : last;
      if (has(i)) last = i;
    }
    NEAREST_WITH_TOPIC.set(doc, nearest);
  }
  const found = nearest[index] ?? -1;
  const hits = found >= 0 ? doc.entries[found].topicHits : undefined;
  if (!hits) {
    return undefined;
  }
  const category = hits.categories.find((c) => categoryByCode(c.text) !== undefined)?.text;
  return { topic: hits.topic.text, category };
}

/**
 * Writes `分类` before categories given without it, and the categories as the format spells them
 * (`CS.lg,cs.CL` becomes `分类 cs.LG、cs.CL`): once labelled they are checked, and a miscased code
 * or a wrong separator would be a new problem. Not offered when one of them is no known code.
 */
function labelCategories(at: Places, range: Range): DigestFix[] {
  // The label is there already (read into the topic for want of ` ：` after it): a second one is no fix.
  const before = at.textOf({ start: { line: range.start.line, character: 0 }, end: range.start });
  if (/分类[\s:：]*$/.test(before)) {
    return [];
  }
  const parts = at.textOf(range).split(/[、,，\s]+/).filter((part) => part.length > 0);
  const codes = parts.map((part) => categoryIgnoringCase(part)?.code);
  if (codes.length === 0 || codes.some((code) => code === undefined)) {
    return [];
  }
  return [fix(bilingual("Insert the label '分类'", "插入“分类”标签"), [TextEdit.replace(range, `${LABELS.categories} ${codes.join('、')}`)], true, true)];
}

/**
 * Puts the fields of an entry in the canonical order by exchanging the contents of their lines:
 * the lines stay where they are, blank lines and stray lines included, and only the lines whose
 * field changes are rewritten.
 */
function reorder(at: Places, entry: Entry): DigestFix[] {
  const sorted: Field[] = [...entry.fields].sort((a, b) => FIELD_ORDER.indexOf(a.kind) - FIELD_ORDER.indexOf(b.kind));
  const edits: TextEdit[] = [];
  entry.fields.forEach((slot, i) => {
    if (sorted[i] !== slot && sorted[i].text !== slot.text) {
      edits.push(TextEdit.replace(at.lineContent(slot.line), sorted[i].text));
    }
  });
  return edits.length > 0 ? [fix(bilingual('Put the fields of this paper in order', '按规范顺序排列字段'), edits, true, true)] : [];
}

/**
 * Closing brackets that are not `）` or `)`, which a translation's closer is sometimes typed as,
 * each with its own opening one (a closer whose opener is in the item closes that, not this).
 */
const LOOKALIKE_CLOSERS: ReadonlyMap<string, string> = new Map([
  ['﹚', '﹙'],
  ['⦆', '⦅'],
  ['〕', '〔'],
  ['】', '【'],
  [']', '['],
  ['」', '「'],
  ['』', '『'],
  ['〉', '〈'],
  ['》', '《'],
  ['｣', '｢'],
  ['］', '［'],
  ['〗', '〖'],
  ['〙', '〘'],
  ['〛', '〚'],
]);

/** Closes a `（` left open at the end of its institution, when nothing follows it but the translation. */
function closeBracket(field: InstitutionsField, index: number): DigestFix[] {
  const item = field.items[index];
  if (!item || item.unbalanced !== 1 || !item.unbalancedAt) {
    return [];
  }
  const openAt = item.unbalancedAt.start.character - item.range.start.character;
  const opener = item.text[openAt];
  if ((opener !== '（' && opener !== '(') || /[（()）]/.test(item.text.slice(openAt + 1))) {
    return [];
  }
  const closer = opener === '（' ? '）' : ')';
  // A closing bracket of another kind at the item's end (`（京都大学﹚`, `（京都大学】`) is the
  // closer mistyped: replaced, not kept inside the brackets.
  const last = item.text.length > openAt + 1 ? item.text[item.text.length - 1] : '';
  const pair = LOOKALIKE_CLOSERS.get(last);
  if (pair !== undefined && !item.text.slice(openAt + 1, -1).includes(pair)) {
    const end = item.range.end;
    return [fix(bilingual(`Close the bracket with '${closer}'`, `补全“${closer}”`), [TextEdit.replace({ start: { line: end.line, character: end.character - 1 }, end }, closer)], true, true)];
  }
  return [fix(bilingual(`Close the bracket with '${closer}'`, `补全“${closer}”`), [insert(item.range.end, closer)], true, true)];
}

/** Removes an institution item that is not an institution, or the whole line when it is the only one. */
function removeInstitution(at: Places, field: InstitutionsField, index: number): DigestFix[] {
  const items = field.items;
  const item = items[index];
  if (!item) {
    // One past the items: the separator after the last one goes (only punctuation is deleted),
    // with the white space around it, one space left before what follows (` 纠错`).
    const separator = index === items.length && index > 0 ? field.separators[index - 1] : undefined;
    if (!separator) {
      return [];
    }
    const after = at.textOf({ start: separator.range.end, end: at.lineEnd(separator.range.end.line) });
    const spaces = skipSpaces(after, 0);
    const range = { start: items[index - 1].range.end, end: { line: separator.range.end.line, character: separator.range.end.character + spaces } };
    return [fix(bilingual('Remove the separator', '删除多余的分隔符'), [spaces === after.length ? TextEdit.del(range) : TextEdit.replace(range, ' ')], true, true)];
  }
  const empty = item.text.length === 0;
  if (items.length === 1) {
    return empty ? [] : [fix(bilingual('Remove the 机构 line', '删除“机构”行'), [at.deleteLines(field.line, field.line)], true, false)];
  }
  let edit: TextEdit;
  if (index === 0) {
    edit = TextEdit.del({ start: item.range.start, end: items[1].range.start });
  } else if (index === items.length - 1) {
    edit = TextEdit.del({ start: items[index - 1].range.end, end: item.range.end });
  } else {
    edit = TextEdit.replace({ start: items[index - 1].range.end, end: items[index + 1].range.start }, ' ； ');
  }
  return [fix(empty ? bilingual('Remove the empty item', '删除空的机构项') : bilingual('Remove this item', '删除此机构项'), [edit], true, empty)];
}

/** `分类` and a word after it, within a hit: the label of the categories run into, when the word is a category code. */
const RUNS_INTO_CATEGORIES = new RegExp(`(?<=.)分类[${HIT_SPACE_CLASS}]*([A-Za-z][A-Za-z.-]*)`);

/** Where a hit runs into `分类` and a known category code (`reasoning(abstract)分类 hep-th`), or -1. */
function categoriesRunInto(text: string): number {
  const match = RUNS_INTO_CATEGORIES.exec(text);
  return match && categoryIgnoringCase(match[1]) ? match.index : -1;
}

/** `math reasoning；(title)`: joins a hit without a field to the `(field)` split from it. */
function hitMissingField(field: TopicHitsField, index: number): DigestFix[] {
  const hit = field.hits[index];
  const next = field.hits[index + 1];
  const separator = field.separators[index];
  const fixes: DigestFix[] = [];
  // Where the hit runs into `分类 cs.LG`, if it does: it lacks the `；` before the label, not its
  // field (a keyword with 分类 in it, `文本分类`, is not that).
  const label = hit && hit.range.start.line === hit.range.end.line ? categoriesRunInto(hit.text) : -1;
  if (next && next.keyword.text.length === 0 && next.field && separator) {
    fixes.push(fix(bilingual(`Join with '${next.text}'`, `与“${next.text}”合并`), [TextEdit.del(separator.range)], true, true));
  } else if (hit && label > 0) {
    fixes.push(fix(bilingual("Insert '；' before 分类", '在“分类”前插入“；”'), [insert({ line: hit.range.start.line, character: hit.range.start.character + label }, '；')], true, true));
  } else if (hit && !hit.open) {
    for (const where of ['abstract', 'title']) {
      fixes.push(fix(bilingual(`Add '(${where})'`, `添加“(${where})”`), [insert(hit.range.end, `(${where})`)], false, false));
    }
  }
  return fixes;
}

/** An empty hit: drops the extra separator, or joins a `(field)` to the keyword before it. */
function emptyKeyword(field: TopicHitsField, index: number): DigestFix[] {
  const hit = field.hits[index];
  if (!hit) {
    return [];
  }
  if (hit.text.length === 0) {
    const separator = field.separators[index] ?? field.separators[index - 1];
    return separator ? [fix(bilingual("Remove the extra '；'", "删除多余的分隔符"), [TextEdit.del(separator.range)], true, true)] : [];
  }
  const previous = field.hits[index - 1];
  const separator = field.separators[index - 1];
  if (hit.field && previous && !previous.field && previous.keyword.text.length > 0 && separator) {
    return [fix(bilingual(`Join with '${previous.text}'`, `与“${previous.text}”合并`), [TextEdit.del(separator.range)], true, true)];
  }
  return [];
}

function intersects(a: Range, b: Range): boolean {
  return !(positionBefore(a.end, b.start) || positionBefore(b.end, a.start));
}

/**
 * A diagnostic's code, range and (when given) message as one key: an editor's diagnostic and the
 * same fresh one have the same; two problems of one code at one place (a title that lacks both
 * its Chinese title and its authors) are told apart by their messages.
 */
function diagnosticKey(code: Diagnostic['code'], range: Range, message?: string): string {
  const place = `${String(code)}@${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
  return message === undefined ? place : `${place}#${message}`;
}

/**
 * At most this many diagnostics get their quick fixes in one request: the first ones of a
 * selection, in document order. A menu of more is of no use, and each structural fix is checked
 * before it is offered; fix-all fixes them all.
 */
export const MAX_FIXED_DIAGNOSTICS = 64;

/** The edits that write each mark as the format expects it (`DiagnosticData.marks`). */
function markEdits(marks: NonNullable<DiagnosticData['marks']>): TextEdit[] {
  return marks.map((m) => TextEdit.replace(m.range, m.expected));
}

/** The label a line starts with in another case than the format's (`miscasedLabelAt`), with its range; undefined when none. */
function miscasedLabel(at: Places, line: number): { label: string; range: Range } | undefined {
  const text = at.textOf(at.lineContent(line));
  const indent = text.length - text.trimStart().length;
  const found = miscasedLabelAt(text, indent, text.length);
  if (!found) {
    return undefined;
  }
  const start = at.lineStart(line).character + indent;
  return { label: found.label, range: { start: { line, character: start }, end: { line, character: start + found.length } } };
}

/** Positions and line edits of a document in LSP terms (line 0 of a text with a BOM starts at 1). */
class Places {
  constructor(private readonly doc: DigestDocument) {}

  private first(line: number): number {
    return line === 0 && this.doc.hasBom ? 1 : 0;
  }

  lineStart(line: number): Position {
    return { line, character: this.first(line) };
  }

  /**
   * The text of a one-line range as a title can name it (`plainLabel`: control and bidirectional
   * characters as U+FFFD, at most 40 characters); empty for a range over several lines.
   */
  titleText(range: Range): string {
    const line = range.start.line;
    if (line !== range.end.line || line >= this.doc.lines.length) {
      return '';
    }
    return plainLabel(this.doc.lines[line].text.slice(range.start.character - this.first(line), range.end.character - this.first(line)), 40);
  }

  lineEnd(line: number): Position {
    return { line, character: this.first(line) + this.doc.lines[line].text.length };
  }

  lineContent(line: number): Range {
    return { start: this.lineStart(line), end: this.lineEnd(line) };
  }

  /** The end of the line without its trailing white space. */
  contentEnd(line: number): Position {
    const text = this.doc.lines[line].text;
    // Scanned from the end: a regular expression tried at every start of a long run of spaces is quadratic.
    return { line, character: this.first(line) + trimEndIndex(text, 0, text.length) };
  }

  /** The text of a range within one line. */
  textOf(range: Range): string {
    const first = this.first(range.start.line);
    return this.doc.lines[range.start.line].text.slice(range.start.character - first, range.end.character - first);
  }

  /**
   * Inserts a line end (the document's) before line `line`, which makes it a paragraph of its own
   * after a line of text: at the line's start, or, when the line before ends with a lone `\r` and
   * the document's line end is `\n` (the two would be read as one `\r\n`), at the end of the
   * line before, ahead of its `\r`.
   */
  insertLineEnd(line: number): TextEdit {
    const eol = this.doc.eol;
    if (line > 0 && eol === '\n' && this.endsWithLoneCr(line - 1)) {
      return TextEdit.insert(this.lineEnd(line - 1), eol);
    }
    return TextEdit.insert(this.lineStart(line), eol);
  }

  /** Whether a line ends with a `\r` that no `\n` follows. */
  private endsWithLoneCr(line: number): boolean {
    const { text, offset } = this.doc.lines[line];
    const end = offset + text.length;
    return this.doc.text.charCodeAt(end) === 0x0d && this.doc.text.charCodeAt(end + 1) !== 0x0a;
  }

  /** Whether a line is empty and ends with `\n`. */
  private startsWithLineFeed(line: number): boolean {
    return this.doc.text.charCodeAt(this.doc.lines[line].offset) === 0x0a;
  }

  private blank(line: number): boolean {
    return isBlank(this.doc.lines[line].text);
  }

  /**
   * Deletes lines `first..last` so that the paragraphs around them stay separated as they were:
   * a paragraph of its own goes with the blank lines after it (before it, at the end of the
   * file); lines inside a paragraph go with their line end.
   */
  deleteLines(first: number, last: number): TextEdit {
    const lines = this.doc.lines;
    const prevBlank = first === 0 || this.blank(first - 1);
    const nextBlank = last === lines.length - 1 || this.blank(last + 1);
    if (prevBlank && nextBlank) {
      let next = last + 1;
      while (next < lines.length && this.blank(next)) next++;
      if (next < lines.length) {
        return TextEdit.del({ start: this.lineStart(first), end: this.lineStart(next) });
      }
      let previous = first - 1;
      while (previous >= 0 && this.blank(previous)) previous--;
      return TextEdit.del({ start: previous >= 0 ? this.lineEnd(previous) : this.lineStart(first), end: this.lineEnd(last) });
    }
    if (last + 1 < lines.length) {
      // A lone `\r` before the lines and an empty line's `\n` after them would become one `\r\n`
      // (the blank line gone): the line end before them goes instead, and the last one's stays.
      if (first > 0 && this.endsWithLoneCr(first - 1) && this.startsWithLineFeed(last + 1)) {
        return TextEdit.del({ start: this.lineEnd(first - 1), end: this.lineEnd(last) });
      }
      return TextEdit.del({ start: this.lineStart(first), end: this.lineStart(last + 1) });
    }
    return TextEdit.del({ start: this.lineEnd(first - 1), end: this.lineEnd(last) });
  }
}
