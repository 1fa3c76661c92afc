/**
 * One translation for one name: the rules `inconsistent-translation` (the same institution,
 * compared by its English name ignoring case and white space, translated differently in the
 * workspace) and `inconsistent-author-name` (the same English author name given different
 * Chinese forms on `机构` lines), and their fixes.
 *
 * A place is reported when its form is not the most used one (when several are used equally
 * often, every place is). Its fixes offer the other forms that would then be the one most used,
 * the most used first, so that a fix never makes two forms equally used and raises problems
 * elsewhere; fix-all takes the most used form only where it is a clear majority
 * (`isClearMajority`).
 *
 * The counts are this document's own plus those of the other files of the workspace, which the
 * caller hands in (`DiagnosticOptions.translationsElsewhere`, `authorFormsElsewhere`); without
 * them the rules judge the document alone.
 */
import { TextEdit } from 'vscode-languageserver-types';
import type { Range } from 'vscode-languageserver-types';
import type { DigestDocument, Entry, Span } from '../model';
import { Counts, entryNames, fileTerms, FileTerms, rankedCounts, termKey } from '../terms';
import { bilingual, say } from '../messages';
import { quotedText } from '../text';
import type { DigestFix } from './codeActions';
import type { DiagnosticCode, DiagnosticData, DigestDiagnostic } from './diagnostics';

/** The codes of the two rules, as in `DiagnosticCode`. */
export const INCONSISTENT_TRANSLATION = 'inconsistent-translation' as DiagnosticCode.InconsistentTranslation;
export const INCONSISTENT_AUTHOR_NAME = 'inconsistent-author-name' as DiagnosticCode.InconsistentAuthorName;

/** How the other files of the workspace translate a name: the forms by how often, or undefined. */
export type FormsElsewhere = (key: string) => Counts | undefined;

/** What the consistency check needs of the options. */
export interface ConsistencyOptions {
  readonly translationsElsewhere?: FormsElsewhere;
  readonly authorFormsElsewhere?: FormsElsewhere;
}

/** A problem found, before the checker gives it its severity, source and link. */
export interface ConsistencyProblem {
  readonly code: DiagnosticCode.InconsistentTranslation | DiagnosticCode.InconsistentAuthorName;
  readonly range: Range;
  readonly english: string;
  readonly chinese: string;
  readonly data: DiagnosticData;
}

/** The terms of a model, counted once per model. */
const TERMS = new WeakMap<DigestDocument, FileTerms>();

/** `fileTerms` of a model, kept with it. */
export function termsOf(doc: DigestDocument): FileTerms {
  let terms = TERMS.get(doc);
  if (!terms) {
    terms = fileTerms(doc);
    TERMS.set(doc, terms);
  }
  return terms;
}

/**
 * Whether the most used form is a clear majority: used at least twice, and at least twice as
 * often as any other.
 *
 * @example isClearMajority([{ text: '复旦大学', count: 4 }, { text: '复旦', count: 1 }]) // true
 * @example isClearMajority([{ text: '复旦大学', count: 3 }, { text: '复旦', count: 2 }]) // false
 */
export function isClearMajority(ranked: readonly { readonly count: number }[]): boolean {
  return ranked.length > 0 && ranked[0].count >= 2 && (ranked.length === 1 || ranked[0].count >= 2 * ranked[1].count);
}

/**
 * The consistency problems of a document, in document order.
 *
 * @example
 * // 'Fudan University（复旦）' here, 'Fudan University（复旦大学）' in four places elsewhere:
 * consistencyProblems(doc, { translationsElsewhere: (key) => index.translations(key) })[0].data.suggestions // ['复旦大学']
 */
export function consistencyProblems(doc: DigestDocument, options: ConsistencyOptions = {}): ConsistencyProblem[] {
  // This document's own forms, by key: only what the two rules compare.
  const { translations: ownTranslations, forms: ownForms } = formsOf(doc);
  const translations = verdicts((key) => ownTranslations.get(key), options.translationsElsewhere);
  const forms = verdicts((key) => ownForms.get(key), options.authorFormsElsewhere);
  // A place is a problem only where its name has two forms or more (`isProblem`), and every
  // place's name is a key of this document's counts: without such a key, no entry is read again.
  if (!anyContested(ownTranslations, translations) && !anyContested(ownForms, forms)) {
    return [];
  }
  const problems: ConsistencyProblem[] = [];
  for (const entry of doc.entries) {
    const names = entryNames(entry);
    for (const author of names.authors) {
      if (isProblem(forms(author.key), author.form)) {
        const pair = entry.institutions?.authorPairs?.[author.pair];
        const problem = pair?.chinese && check(forms, pair.english.text, pair.chinese, entry.index, INCONSISTENT_AUTHOR_NAME, author.pair);
        if (problem) problems.push(problem);
      }
    }
    for (const institution of names.institutions) {
      if (institution.translation && isProblem(translations(institution.key), institution.translation)) {
        const item = entry.institutions?.items[institution.item];
        const problem = item?.translation && check(translations, item.name.text, item.translation, entry.index, INCONSISTENT_TRANSLATION, institution.item);
        if (problem) problems.push(problem);
      }
    }
  }
  return problems;
}

/** The forms the papers of a model give institutions (translations) and authors (Chinese forms), by name key. */
export interface Forms {
  readonly translations: Map<string, Counts>;
  readonly forms: Map<string, Counts>;
}

/**
 * How often each form is used in a model: what the two rules compare.
 *
 * @example formsOf(doc).translations.get(termKey('Kyoto University')) // Map { '京都大学' => 3, '京大' => 1 }
 */
export function formsOf(doc: DigestDocument): Forms {
  const forms: Forms = { translations: new Map(), forms: new Map() };
  const count = (table: Map<string, Counts>, key: string, text: string): void => {
    const counts = table.get(key);
    if (counts) counts.set(text, (counts.get(text) ?? 0) + 1);
    else table.set(key, new Map([[text, 1]]));
  };
  // Indexed loops, as in `DigestModel.problems`: no iterator results made after each keystroke.
  const entries = doc.entries;
  for (let i = 0; i < entries.length; i++) {
    const names = entryNames(entries[i]);
    const institutions = names.institutions;
    for (let k = 0; k < institutions.length; k++) {
      const institution = institutions[k];
      if (institution.translation) count(forms.translations, institution.key, institution.translation);
    }
    const authors = names.authors;
    for (let k = 0; k < authors.length; k++) count(forms.forms, authors[k].key, authors[k].form);
  }
  return forms;
}

/** The ranked forms of each key, with this document's and the other files' counts, asked once per key. */
function verdicts(own: (key: string) => Counts | undefined, elsewhere: FormsElsewhere | undefined): (key: string) => { text: string; count: number }[] {
  const cache = new Map<string, { text: string; count: number }[]>();
  return (key) => {
    let ranked = cache.get(key);
    if (!ranked) {
      const counts: Counts = new Map(own(key) ?? []);
      for (const [text, count] of elsewhere?.(key) ?? []) {
        counts.set(text, (counts.get(text) ?? 0) + count);
      }
      ranked = rankedCounts(counts);
      cache.set(key, ranked);
    }
    return ranked;
  };
}

/** Whether one of the keys has two forms or more, with the other files' counts. */
function anyContested(own: Map<string, Counts>, ranked: (key: string) => readonly { text: string; count: number }[]): boolean {
  for (const key of own.keys()) {
    if (ranked(key).length >= 2) return true;
  }
  return false;
}

/** Whether a place using `written` is reported: its form is not the one most used. */
export function isProblem(forms: readonly { text: string; count: number }[], written: string): boolean {
  if (forms.length < 2) {
    return false;
  }
  const own = rankingOf(forms).at.get(written);
  return !(own === 0 && forms[1].count < forms[0].count);
}

/** At most this many forms are suggested for a place (the most used first): a name written in thousands of ways gave each place thousands of fixes. */
export const MAX_FORM_SUGGESTIONS = 5;

/** Of a ranking of forms: where each form is in it, and how many uses they count together. */
interface Ranking {
  readonly at: ReadonlyMap<string, number>;
  readonly total: number;
}

/** The ranking of each list of ranked forms, made once: every place of a name looks its own form up in it. */
const RANKINGS = new WeakMap<readonly { text: string; count: number }[], Ranking>();

function rankingOf(forms: readonly { text: string; count: number }[]): Ranking {
  let ranking = RANKINGS.get(forms);
  if (!ranking) {
    const at = new Map<string, number>();
    let total = 0;
    forms.forEach((each, index) => {
      at.set(each.text, index);
      total += each.count;
    });
    ranking = { at, total };
    RANKINGS.set(forms, ranking);
  }
  return ranking;
}

function check(
  ranked: (key: string) => { text: string; count: number }[],
  name: string,
  form: Span,
  entry: number,
  code: ConsistencyProblem['code'],
  item?: number,
): ConsistencyProblem | undefined {
  const key = termKey(name);
  const written = form.text.trim();
  const forms = key ? ranked(key) : [];
  if (forms.length < 2) {
    return undefined;
  }
  const ranking = rankingOf(forms);
  const ownAt = ranking.at.get(written);
  if (ownAt === 0 && forms[1].count < forms[0].count) {
    // The most used form: the others are the ones to change.
    return undefined;
  }
  // Only forms that become the one most used once this place uses them: a fix that made two
  // forms equally used would raise problems at places that had none. A form must then be used
  // more than every other once this place no longer uses its own; the most used of the others
  // are among the first four of the ranking (only this place's own form loses a use).
  const usesAfter = (index: number): number => forms[index].count - (index === ownAt ? 1 : 0);
  const head = Math.min(forms.length, 4);
  const mostUsedBesides = (candidate: number): number => {
    let most = 0;
    for (let k = 0; k < head; k++) if (k !== candidate) most = Math.max(most, usesAfter(k));
    return most;
  };
  const suggestions: string[] = [];
  const others: { text: string; count: number }[] = [];
  for (let index = 0; index < forms.length && (suggestions.length < MAX_FORM_SUGGESTIONS || others.length < 3); index++) {
    if (index === ownAt) continue;
    const candidate = forms[index];
    if (others.length < 3) others.push(candidate);
    if (suggestions.length < MAX_FORM_SUGGESTIONS) {
      if (candidate.count + 1 > mostUsedBesides(index)) suggestions.push(candidate.text);
      // Past the first four, every form has the bar of the first four and fewer uses.
      else if (index >= head && others.length >= 3) break;
    }
  }
  const clear = isClearMajority(forms) && forms[0].text !== written;
  const total = ranking.total;
  const list = others.map((each) => `'${clip(each.text)}' (${each.count})`).join(', ');
  const listZh = others.map((each) => `“${clip(each.text)}”（${each.count} 处）`).join('、');
  const data: DiagnosticData = { entry, ...(item !== undefined ? { item } : {}), suggestions, ...(clear ? { clearSuggestion: true } : {}) };
  if (code === INCONSISTENT_TRANSLATION) {
    return {
      code,
      range: form.range,
      english: `'${clip(name)}' is translated '${clip(written)}' here and otherwise ${list} in the workspace (${total} uses)`,
      chinese: `“${clip(name)}”的译名不一致：此处为“${clip(written)}”，工作区中另有${listZh}`,
      data,
    };
  }
  return {
    code,
    range: form.range,
    english: `The author '${clip(name)}' is written '${clip(written)}' here and otherwise ${list} in the workspace (${total} uses)`,
    chinese: `作者“${clip(name)}”的中文名不一致：此处为“${clip(written)}”，工作区中另有${listZh}`,
    data,
  };
}

/** Document text in a message: at most 40 UTF-16 units, never half a character (`quotedText`). */
function clip(text: string): string {
  return quotedText(text, 40);
}

/**
 * The fixes of a consistency diagnostic: one per other form, the most used first. The first is
 * safe (fix-all applies it) only when it is a clear majority.
 *
 * @example consistencyFixes(diagnostic)[0] // { title: "Use '复旦大学' — 改为“复旦大学”", edits: [...], isPreferred: true, safe: true }
 */
export function consistencyFixes(diagnostic: DigestDiagnostic): DigestFix[] {
  const suggestions = diagnostic.data?.suggestions ?? [];
  const clear = diagnostic.data?.clearSuggestion === true;
  return suggestions.map((text, index) => ({
    title: say(bilingual(`Use '${clip(text)}'`, `改为“${clip(text)}”`)),
    titles: bilingual(`Use '${clip(text)}'`, `改为“${clip(text)}”`),
    edits: [TextEdit.replace(diagnostic.range, text)],
    isPreferred: index === 0 && clear,
    safe: index === 0 && clear,
  }));
}

/**
 * The names whose places in the workspace's other files the consistency rules would report more
 * often were this document's forms `after` instead of `before` (a fix-all that closes a bracket
 * makes a translation count, and the majority can change sides): `t:` and the key for a
 * translation, `a:` and the key for an author's name. The other files' counts are those
 * `translationsElsewhere` and `authorFormsElsewhere` give (the workspace without this file). A
 * place is reported unless its form is the one most used, alone; so another file is reported
 * more often exactly when the form most used alone before is used there and is no longer that
 * after. Fix-all leaves alone the entries whose forms of such a name change, so that it never
 * raises a problem in a file it does not touch.
 *
 * @example keysWorseElsewhere(formsOf(doc), formsOf(fixed), options) // Set { 't:kyoto university' }
 */
export function keysWorseElsewhere(before: Forms, after: Forms, elsewhere: Pick<ConsistencyOptions, 'translationsElsewhere' | 'authorFormsElsewhere'>): Set<string> {
  const worse = new Set<string>();
  const tables: [string, Map<string, Counts>, Map<string, Counts>, FormsElsewhere | undefined][] = [
    ['t:', before.translations, after.translations, elsewhere.translationsElsewhere],
    ['a:', before.forms, after.forms, elsewhere.authorFormsElsewhere],
  ];
  for (const [prefix, was, will, others] of tables) {
    if (!others) continue;
    for (const key of new Set([...was.keys(), ...will.keys()])) {
      if (sameCounts(was.get(key), will.get(key))) continue;
      const theirs = others(key);
      if (!theirs || theirs.size === 0) continue;
      const top = mostUsedAlone(theirs, was.get(key));
      if (top !== undefined && (theirs.get(top) ?? 0) > 0 && mostUsedAlone(theirs, will.get(key)) !== top) {
        worse.add(prefix + key);
      }
    }
  }
  return worse;
}

/** The form used most, alone (no other as often), of the other files' counts and this file's; undefined on a tie. */
function mostUsedAlone(theirs: Counts, own: Counts | undefined): string | undefined {
  const total: Counts = new Map(theirs);
  for (const [text, count] of own ?? []) total.set(text, (total.get(text) ?? 0) + count);
  const ranked = rankedCounts(total);
  return ranked.length > 0 && (ranked.length === 1 || ranked[0].count > ranked[1].count) ? ranked[0].text : undefined;
}

function sameCounts(a: Counts | undefined, b: Counts | undefined): boolean {
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  for (const [text, count] of a ?? []) if (b?.get(text) !== count) return false;
  return true;
}

/**
 * The entries whose forms of one of `keys` (`keysWorseElsewhere`) differ between a model and its
 * fixed text: an institution's translation, or an author's Chinese form, there or not. Where the
 * fix removed an entry (the indices no longer match), every entry naming one of them.
 */
export function entriesChangingForms(doc: DigestDocument, fixed: DigestDocument, keys: ReadonlySet<string>): number[] {
  const formsOfEntry = (entry: Entry): string[] => {
    const names = entryNames(entry);
    const found: string[] = [];
    for (const institution of names.institutions) if (keys.has('t:' + institution.key)) found.push(`t:${institution.key}\u0000${institution.translation ?? ''}`);
    for (const author of names.authors) if (keys.has('a:' + author.key)) found.push(`a:${author.key}\u0000${author.form}`);
    return found.sort();
  };
  const found: number[] = [];
  const aligned = doc.entries.length === fixed.entries.length;
  doc.entries.forEach((entry, index) => {
    const was = formsOfEntry(entry);
    const will = aligned ? formsOfEntry(fixed.entries[index]) : [];
    if (aligned ? was.join('\n') !== will.join('\n') : was.length > 0) found.push(index);
  });
  return found;
}
