/**
 * Whether a fix makes its problem go away and raises no new one: the multiset of (code, entry)
 * of the document's problems after the fix is within the one before, less the fixed problem.
 * Code actions check every fix that changes a document's structure this way before offering it
 * (codeActions.ts `fixIsClean`).
 *
 * Checked on the whole document (`fixIsCleanInDocument`), a fix costs a parse and a check of the
 * whole text: on a document of 16,000 papers a third of a second each, and a selection over many
 * problems asks for hundreds. So a document of more than `WHOLE_CHECK_ENTRIES` papers is checked
 * around the fix (`fixIsCleanNearby`): the papers the fix touches and two on each side, parsed as
 * a document of their own after the digest's heading, before and after the fix, with what the
 * rest of the document holds handed in as from elsewhere (its titles, for duplicates, and its
 * names' forms, for the consistency rules); and the rest of the document is checked for what the
 * fix changes there (a title it brings that a later paper has; a name whose most used form
 * changes). Where the window is not read as the document reads it (the papers at its edges read
 * differently, the problem not found in it), the whole document is checked. The unit tests compare
 * both checks over random mutants.
 */
import type { TextEdit } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { applyEdits, applyOffsetEdits, OffsetEdit } from '../edits';
import type { DigestDocument, Entry } from '../model';
import { parseDigest } from '../parser';
import { Counts, rankedCounts } from '../terms';
import { entryTitleKey } from './entries';
import { Forms, formsOf, FormsElsewhere, isProblem } from './consistency';
import { computeDiagnostics, DiagnosticCode, DiagnosticOptions, DigestDiagnostic, PaperLocation } from './diagnostics';

/** Documents of up to this many papers are checked whole. */
export const WHOLE_CHECK_ENTRIES = 48;

/** Papers on each side of those a fix touches that are parsed with them. */
const CONTEXT_ENTRIES = 2;

/**
 * How many problems of each (code, entry) a set of diagnostics has; entries at or after
 * `removedEntry` counted one later. With the document the diagnostics are of, the problems
 * whose text tells them apart count by it too (`problemKey`).
 */
export function problemCounts(diagnostics: readonly DigestDiagnostic[], removedEntry = -1, doc?: DigestDocument): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics) {
    let entry = d.data?.entry ?? -1;
    if (removedEntry >= 0 && entry >= removedEntry) {
      // After an entry was removed, the entries after it moved up by one.
      entry++;
    }
    const key = problemKey(d, entry, doc);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The rules whose problems count by the text they cover as well (`problemKey`). */
const BY_TEXT: ReadonlySet<string> = new Set([DiagnosticCode.StrayLine, DiagnosticCode.NotAnInstitution]);

/**
 * What a problem counts as: its rule and entry, and for a missing field the field it lacks (a
 * fix that gives a paper its title but takes its authors, read as the title, is no better).
 * With the document, a stray line and a `not-an-institution` problem count by the text they
 * cover too, widths folded and white space left out (a fix that makes a paper's Chinese title
 * stray where its authors were is no better; one that writes a bracket full-width is no worse).
 */
function problemKey(d: DigestDiagnostic, entry: number, doc?: DigestDocument): string {
  const field = d.code === DiagnosticCode.MissingField && typeof d.data?.field === 'string' ? `:${d.data.field}` : '';
  const text = doc && BY_TEXT.has(d.code) ? `#${coveredText(doc, d.range)}` : '';
  return `${d.code}${field}@${entry}${text}`;
}

/** The text a range covers, compatibility-folded (`（` as `(`), without white space. */
function coveredText(doc: DigestDocument, range: DigestDiagnostic['range']): string {
  return doc.text.slice(offsetAt(doc, range.start), offsetAt(doc, range.end)).normalize('NFKC').replace(/\s+/g, '');
}

/** The entries (-1 for none) with more problems of some code after than before. */
export function newProblems(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number[] {
  const entries: number[] = [];
  for (const [key, count] of after) {
    if (count > (before.get(key) ?? 0)) {
      // `code[:field]@entry[#text]`: no `@` before the entry (a rule's code, a field's kind);
      // the covered text after it may hold any (an address in a stray line).
      const at = key.indexOf('@');
      const text = key.indexOf('#', at);
      entries.push(Number(key.slice(at + 1, text < 0 ? undefined : text)));
    }
  }
  return entries;
}

/** `problemCounts(before)` (of `doc`) less the problem a fix is for (its range in `diagnosticDoc`, the document it was found in). */
function expectedAfter(before: readonly DigestDiagnostic[], diagnostic: DigestDiagnostic, doc: DigestDocument, diagnosticDoc = doc): Map<string, number> | undefined {
  const expected = problemCounts(before, -1, doc);
  const fixedKey = problemKey(diagnostic, diagnostic.data?.entry ?? -1, diagnosticDoc);
  const count = expected.get(fixedKey);
  if (count === undefined) {
    return undefined;
  }
  expected.set(fixedKey, count - 1);
  return expected;
}

/** The options a fix is checked with: the rules and the other files' names, no cap, no other file's titles. */
function checkOptions(options: DiagnosticOptions): DiagnosticOptions {
  return { rules: options.rules, translationsElsewhere: options.translationsElsewhere, authorFormsElsewhere: options.authorFormsElsewhere };
}

/** The check on the whole document: the fix applied to the text, parsed and checked again. */
export function fixIsCleanInDocument(doc: DigestDocument, diagnostic: DigestDiagnostic, edits: readonly TextEdit[], before: readonly DigestDiagnostic[], options: DiagnosticOptions, token: Cancellation): boolean {
  const expected = expectedAfter(before, diagnostic, doc) ?? problemCounts(before, -1, doc);
  const removed = diagnostic.code === DiagnosticCode.DuplicatePaper ? diagnostic.data?.entry ?? -1 : -1;
  const fixed = parseDigest(applyEdits(doc.text, edits));
  const after = computeDiagnostics(fixed, checkOptions(options), token);
  return !token.isCancellationRequested && newProblems(expected, problemCounts(after, removed, fixed)).length === 0;
}

/**
 * The check around the fix, for a big document (see the file's comment); undefined where the
 * window is not read as the document reads it, and the whole document must be checked.
 */
export function fixIsCleanNearby(doc: DigestDocument, diagnostic: DigestDiagnostic, edits: readonly TextEdit[], options: DiagnosticOptions, token: Cancellation): boolean | undefined {
  const entries = doc.entries;
  const count = entries.length;
  if (count === 0 || edits.length === 0) {
    return undefined;
  }
  // The papers the fix touches, and the problem's own.
  let firstLine = Infinity;
  let lastLine = -1;
  for (const edit of edits) {
    firstLine = Math.min(firstLine, edit.range.start.line);
    lastLine = Math.max(lastLine, edit.range.end.line);
  }
  const own = diagnostic.data?.entry;
  let low = Math.min(entryOfLine(doc, firstLine), own ?? count);
  let high = Math.max(entryOfLine(doc, lastLine), own ?? -1);
  low = Math.max(0, low - CONTEXT_ENTRIES);
  high = Math.min(count - 1, high + CONTEXT_ENTRIES);
  // From the text's start when the window reaches the first paper (the heading and what precedes
  // the papers are the fix's to change too), else from its first paper after the heading.
  const fromStart = low === 0;
  const toEnd = high === count - 1;
  const start = fromStart ? 0 : lineStart(doc, entries[low].range.start.line);
  const end = toEnd ? doc.text.length : lineEnd(doc, entries[high].range.end.line);
  const offsets: OffsetEdit[] = [];
  for (const edit of edits) {
    const from = offsetAt(doc, edit.range.start);
    const to = offsetAt(doc, edit.range.end);
    if (from < start || to > end || to < from) {
      return undefined;
    }
    offsets.push({ start: from - start, end: to - start, text: edit.newText });
  }
  offsets.sort((a, b) => a.start - b.start || a.end - b.end);
  const prefix = fromStart ? '' : `${doc.heading?.text.trim() ? doc.heading.text : '摘要'}${doc.eol}${doc.eol}`;
  const slice = doc.text.slice(start, end);
  const windowBefore = parseDigest(prefix + slice);
  const windowAfter = parseDigest(prefix + applyOffsetEdits(slice, offsets));
  // Read as the document reads them: the same papers, and the same first and last ones after the fix.
  const papers = high - low + 1;
  if (windowBefore.entries.length !== papers || !sameEdges(windowBefore, windowAfter, fromStart, toEnd)) {
    return undefined;
  }
  const terms = documentForms(doc);
  const windowTerms = formsOf(windowBefore);
  // The forms of a name in the other files and in the document outside the window.
  const outside = (table: keyof Forms, elsewhere: FormsElsewhere | undefined): FormsElsewhere => (key) => {
    const counts: Counts = new Map(elsewhere?.(key) ?? []);
    for (const [text, n] of terms[table].get(key) ?? []) {
      const rest = n - (windowTerms[table].get(key)?.get(text) ?? 0);
      if (rest > 0) counts.set(text, (counts.get(text) ?? 0) + rest);
    }
    return counts.size > 0 ? counts : undefined;
  };
  const rest: Record<keyof Forms, FormsElsewhere> = { translations: outside('translations', options.translationsElsewhere), forms: outside('forms', options.authorFormsElsewhere) };
  // The papers before the window are earlier copies of a title (a file named before this one's).
  const titles = documentTitles(doc);
  const earlierCopy = (key: string): PaperLocation[] => {
    const at = titles.get(key);
    return at !== undefined && at[0] < low ? [{ uri: '', range: entries[at[0]].range }] : [];
  };
  const windowOptions: DiagnosticOptions = {
    uri: 'window',
    rules: options.rules,
    duplicatesElsewhere: earlierCopy,
    translationsElsewhere: rest.translations,
    authorFormsElsewhere: rest.forms,
  };
  const before = computeDiagnostics(windowBefore, windowOptions, token);
  const after = computeDiagnostics(windowAfter, windowOptions, token);
  if (token.isCancellationRequested) {
    return false;
  }
  // Entries in the window count from its first paper.
  const local = { ...diagnostic, data: { ...diagnostic.data, entry: own === undefined ? undefined : own - low } } as DigestDiagnostic;
  const expected = expectedAfter(before, local, windowBefore, doc);
  if (!expected) {
    return undefined;
  }
  const removed = diagnostic.code === DiagnosticCode.DuplicatePaper ? (own ?? -1) - low : -1;
  if (newProblems(expected, problemCounts(after, removed, windowAfter)).length > 0) {
    return false;
  }
  // The rest of the document: a title the fix brings into the window that a later paper has,
  // which had no earlier copy, makes that paper a duplicate.
  const keysBefore = titleCounts(windowBefore);
  for (const [key, n] of titleCounts(windowAfter)) {
    if (n > (keysBefore.get(key) ?? 0)) {
      const at = titles.get(key) ?? [];
      const earlier = at.some((index) => index < low) || (keysBefore.get(key) ?? 0) > 0;
      if (!earlier && at.some((index) => index > high)) {
        return false;
      }
    }
  }
  // A name whose forms the fix changes: a form the rest of the document uses that becomes one to
  // change (it was the one most used, or tied, and is no more).
  const windowAfterTerms = formsOf(windowAfter);
  for (const table of ['translations', 'forms'] as const) {
    for (const key of new Set([...windowTerms[table].keys(), ...windowAfterTerms[table].keys()])) {
      const was = windowTerms[table].get(key);
      const is = windowAfterTerms[table].get(key);
      if (sameCounts(was, is)) continue;
      const others = rest[table](key);
      const flaggedBefore = flagged(sum(others, was));
      const flaggedAfter = flagged(sum(others, is));
      for (const [text, n] of terms[table].get(key) ?? []) {
        const outsideUses = n - (was?.get(text) ?? 0);
        if (outsideUses > 0 && flaggedAfter.has(text) && !flaggedBefore.has(text)) {
          return false;
        }
      }
    }
  }
  return true;
}

/** The index of the paper on `line`, or of the last one before it (0 before the first). */
function entryOfLine(doc: DigestDocument, line: number): number {
  const entries = doc.entries;
  let low = 0;
  let high = entries.length - 1;
  let found = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (entries[mid].range.start.line <= line) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/** The offset of a line's first character (line 0 from the text's start, a BOM included). */
function lineStart(doc: DigestDocument, line: number): number {
  return line === 0 ? 0 : doc.lines[line].offset;
}

/** The offset just past a line's last character, before its line end. */
function lineEnd(doc: DigestDocument, line: number): number {
  const source = doc.lines[line];
  return source.offset + source.text.length;
}

/** The offset of an LSP position, clamped to its line as LSP clamps it. */
function offsetAt(doc: DigestDocument, position: { line: number; character: number }): number {
  if (position.line < 0) return 0;
  if (position.line >= doc.lines.length) return doc.text.length;
  return Math.min(lineStart(doc, position.line) + Math.max(0, position.character), lineEnd(doc, position.line));
}

/** Whether the window's first and last papers read the same before and after the fix (where the window has an edge). */
function sameEdges(before: DigestDocument, after: DigestDocument, fromStart: boolean, toEnd: boolean): boolean {
  if (!fromStart && !sameEntry(before, before.entries[0], after, after.entries[0])) return false;
  if (!toEnd && !sameEntry(before, before.entries[before.entries.length - 1], after, after.entries[after.entries.length - 1])) return false;
  return true;
}

/** Whether entry `a` of `docA` and entry `b` of `docB` have the same kinds of field and the same text. */
function sameEntry(docA: DigestDocument, a: Entry | undefined, docB: DigestDocument, b: Entry | undefined): boolean {
  if (!a || !b) return false;
  const kinds = (entry: Entry): string => entry.fields.map((field) => field.kind).join(',');
  const text = (doc: DigestDocument, entry: Entry): string => doc.text.slice(offsetAt(doc, entry.range.start), offsetAt(doc, entry.range.end));
  return kinds(a) === kinds(b) && text(docA, a) === text(docB, b);
}

/** The papers of each title key, in document order, kept per model. */
const TITLES = new WeakMap<DigestDocument, Map<string, number[]>>();

function documentTitles(doc: DigestDocument): Map<string, number[]> {
  let titles = TITLES.get(doc);
  if (!titles) {
    titles = new Map();
    for (const entry of doc.entries) {
      const key = entry.englishTitle ? entryTitleKey(entry) : '';
      if (!key) continue;
      const list = titles.get(key);
      if (list) list.push(entry.index);
      else titles.set(key, [entry.index]);
    }
    TITLES.set(doc, titles);
  }
  return titles;
}

function titleCounts(doc: DigestDocument): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of doc.entries) {
    const key = entry.englishTitle ? entryTitleKey(entry, false) : '';
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** `formsOf` a model, kept per model. */
const FORMS = new WeakMap<DigestDocument, Forms>();

function documentForms(doc: DigestDocument): Forms {
  let forms = FORMS.get(doc);
  if (!forms) {
    forms = formsOf(doc);
    FORMS.set(doc, forms);
  }
  return forms;
}

function sameCounts(a: Counts | undefined, b: Counts | undefined): boolean {
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  for (const [text, n] of a ?? []) if (b?.get(text) !== n) return false;
  return true;
}

function sum(a: Counts | undefined, b: Counts | undefined): Counts {
  const total: Counts = new Map(a ?? []);
  for (const [text, n] of b ?? []) total.set(text, (total.get(text) ?? 0) + n);
  return total;
}

/** The forms reported where used, as the consistency rules report them (`isProblem`). */
function flagged(counts: Counts): Set<string> {
  const ranked = rankedCounts(counts);
  return new Set(ranked.filter((form) => isProblem(ranked, form.text)).map((form) => form.text));
}
