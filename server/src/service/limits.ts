/**
 * The limits above which a document gets the cheap features only.
 *
 * A digest of a year of daily digests is about 9 MB, 140,000 lines, with no line longer than a
 * few thousand characters (an author list of 60 names, an institutions line of 20 items). A
 * document past any of the limits below is not a digest a person reads but a log, a dump or an
 * attack: it gets its outline (capped), its folding ranges (capped) and one `document-too-large`
 * diagnostic that says which limit it passed, and nothing that splits its lines into parts
 * (no other diagnostics, semantic tokens, hovers, links, completions, code actions), so that
 * whatever it holds, the server answers in bounded time and memory.
 */
import type { Range } from 'vscode-languageserver-types';
import { DigestModel } from './document';
import type { DigestDocument } from './model';
import { parseDigest } from './parser';

/** The limits, in UTF-16 code units and lines. */
export const DOCUMENT_LIMITS = {
  /** Characters of the whole text (about 16 MB of ASCII, 48 MB of Chinese in UTF-8). */
  maxCharacters: 16_000_000,
  /** Lines of the text. */
  maxLines: 300_000,
  /** Characters of the longest line. */
  maxLineLength: 100_000,
  /**
   * Lines parsed of a text past the characters or lines limit, for its outline: the first
   * 50,000 (about 3,500 papers of a real digest; a sixth of the lines limit, so that a million
   * short lines cost the model of 50,000 lines, not of 300,000: 40 MB of heap less).
   */
  parsedLines: 50_000,
} as const;

/** Which limit a document passes, and where. */
export interface TooLarge {
  readonly limit: 'characters' | 'lines' | 'lineLength';
  /** The document's size in that measure: its characters, its lines, or its longest line. */
  readonly size: number;
  /** The limit it passes. */
  readonly max: number;
  /** Where the diagnostic goes: the first line too long, or the start of the document. */
  readonly range: Range;
  /** English and Chinese. */
  readonly message: string;
  readonly messageZh: string;
}

const VERDICTS = new WeakMap<DigestDocument, TooLarge | null>();

/** Models of the first part of a longer text (`parseWithinLimits`): the text's real size. */
const TRUNCATED = new WeakMap<DigestDocument, { readonly characters: number; readonly lines: number }>();

/**
 * The model of a text, or of its first part when the text has more characters or lines than the
 * limits: its first `parsedLines` lines and at most `maxCharacters` characters, cut at a line
 * end. A document past those limits gets the cheap features only, and those need no more than
 * that part; a million lines are not parsed for an outline. `documentTooLarge` knows such a
 * model by its real size.
 *
 * @example
 * const model = parseWithinLimits('Title\n'.repeat(1_000_000));
 * model.lines.length;                 // 50,001: the first 50,000 lines and an empty last one
 * documentTooLarge(model)?.size;      // 1,000,001
 */
export function parseWithinLimits(text: string): DigestDocument {
  // Lines as the parser ends them: at a line feed, a CRLF or a lone carriage return (a text of
  // lone carriage returns is a text of as many lines, cut as any other).
  let ends = 0;
  let parsedEnd = text.length;
  let withinCharacters = 0;
  forEachLineEnd(text, (next) => {
    ends++;
    if (ends === DOCUMENT_LIMITS.parsedLines) {
      parsedEnd = next;
    }
    if (next <= DOCUMENT_LIMITS.maxCharacters) {
      withinCharacters = next;
    }
  });
  const pastLimit = ends >= DOCUMENT_LIMITS.maxLines || text.length > DOCUMENT_LIMITS.maxCharacters;
  if (!pastLimit) {
    return parseDigest(text);
  }
  let cut = parsedEnd;
  if (text.length > DOCUMENT_LIMITS.maxCharacters && withinCharacters > 0) {
    // After the last line end within the limit; a text with none there is parsed whole.
    cut = Math.min(cut, withinCharacters);
  }
  if (cut >= text.length) {
    return parseDigest(text);
  }
  const model = parseDigest(text.slice(0, cut));
  TRUNCATED.set(model, { characters: text.length, lines: ends + 1 });
  return model;
}

/**
 * Calls `each` with where the next line starts after every line end of `text`, in order: a
 * line feed, a CRLF (one end) or a lone carriage return, as the parser and LSP end lines.
 * Found by `indexOf`, not character by character: a text without carriage returns costs one
 * search for them.
 */
export function forEachLineEnd(text: string, each: (next: number) => void): void {
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf >= 0 || cr >= 0) {
    const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    const next = text.charCodeAt(at) === 0x0d && text.charCodeAt(at + 1) === 0x0a ? at + 2 : at + 1;
    each(next);
    if (lf >= 0 && lf < next) lf = text.indexOf('\n', next);
    if (cr >= 0 && cr < next) cr = text.indexOf('\r', next);
  }
}

/**
 * Whether a model of a whole text is the one `parseWithinLimits` gives for that text: a text
 * within the characters and lines limits is parsed whole; one past them is parsed in part, and
 * a model of all of it (an incremental update of a model that was within them) is not that.
 */
export function parsedWhole(model: DigestDocument): boolean {
  const lines = model instanceof DigestModel ? model.table.count : model.lines.length;
  return model.text.length <= DOCUMENT_LIMITS.maxCharacters && lines <= DOCUMENT_LIMITS.maxLines;
}

/** Whether a model is of the first part of a longer text only (`parseWithinLimits`). */
export function isTruncated(doc: DigestDocument): boolean {
  return TRUNCATED.has(doc);
}

const thousands = (n: number): string => n.toLocaleString('en-US');

/**
 * Whether a document is past one of the limits: which, or undefined. Kept per model; one pass
 * over the line table.
 *
 * @example
 * documentTooLarge(parseDigest('机构 * ' + '（'.repeat(200_000)))?.limit // 'lineLength'
 */
export function documentTooLarge(doc: DigestDocument): TooLarge | undefined {
  const known = VERDICTS.get(doc);
  if (known !== undefined) {
    return known ?? undefined;
  }
  const verdict = judge(doc);
  VERDICTS.set(doc, verdict ?? null);
  return verdict;
}

/**
 * After an incremental update (incremental.ts) of a model known to be within the limits, the
 * verdict of the new model from its size and the lines the update split again (`firstLine` to
 * `endLine`, exclusive): the other lines are the earlier model's, none past the limit. A keystroke
 * in a digest of 140,000 lines no longer passes over all of them.
 */
export function noteUpdate(previous: DigestDocument, next: DigestModel, firstLine: number, endLine: number): void {
  if (VERDICTS.get(previous) !== null || TRUNCATED.has(previous) || TRUNCATED.has(next)) {
    return;
  }
  const table = next.table;
  if (next.text.length > DOCUMENT_LIMITS.maxCharacters || table.count > DOCUMENT_LIMITS.maxLines) {
    return;
  }
  const { length } = longestLine(table.starts.subarray(firstLine, endLine), table.ends.subarray(firstLine, endLine), Math.max(0, Math.min(endLine, table.count) - firstLine));
  if (length <= DOCUMENT_LIMITS.maxLineLength) {
    VERDICTS.set(next, null);
  }
}

/**
 * The first line past the length limit, else the longest: one pass over the line table's typed
 * arrays (asked of every version of an open document, after every keystroke).
 */
function longestLine(starts: Int32Array | number[], ends: Int32Array | number[], count: number): { line: number; length: number } {
  let line = 0;
  let length = 0;
  for (let i = 0; i < count; i++) {
    const each = ends[i] - starts[i];
    if (each > length) {
      line = i;
      length = each;
      if (length > DOCUMENT_LIMITS.maxLineLength) break;
    }
  }
  return { line, length };
}

function judge(doc: DigestDocument): TooLarge | undefined {
  const start: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const truncated = TRUNCATED.get(doc);
  const characters = truncated?.characters ?? doc.text.length;
  if (characters > DOCUMENT_LIMITS.maxCharacters) {
    return {
      limit: 'characters',
      size: characters,
      max: DOCUMENT_LIMITS.maxCharacters,
      range: start,
      message: `This document has ${thousands(characters)} characters, more than the ${thousands(DOCUMENT_LIMITS.maxCharacters)} Paper Digest checks: it gets its outline and folding only, and no other diagnostics`,
      messageZh: `文档有 ${thousands(characters)} 个字符，超过检查上限 ${thousands(DOCUMENT_LIMITS.maxCharacters)} 个字符：仅提供大纲和折叠，不再检查其他问题`,
    };
  }
  let count: number;
  let longest: { line: number; length: number };
  if (doc instanceof DigestModel) {
    count = Math.max(doc.table.count, truncated?.lines ?? 0);
    longest = longestLine(doc.table.starts, doc.table.ends, doc.table.count);
  } else {
    const lines = doc.lines;
    count = Math.max(lines.length, truncated?.lines ?? 0);
    longest = { line: 0, length: 0 };
    for (const line of lines) {
      if (line.text.length > longest.length) longest = { line: line.line, length: line.text.length };
    }
  }
  if (count > DOCUMENT_LIMITS.maxLines) {
    return {
      limit: 'lines',
      size: count,
      max: DOCUMENT_LIMITS.maxLines,
      range: start,
      message: `This document has ${thousands(count)} lines, more than the ${thousands(DOCUMENT_LIMITS.maxLines)} Paper Digest checks: it gets its outline and folding only, and no other diagnostics`,
      messageZh: `文档有 ${thousands(count)} 行，超过检查上限 ${thousands(DOCUMENT_LIMITS.maxLines)} 行：仅提供大纲和折叠，不再检查其他问题`,
    };
  }
  if (longest.length > DOCUMENT_LIMITS.maxLineLength) {
    const { line, length } = longest;
    return {
      limit: 'lineLength',
      size: length,
      max: DOCUMENT_LIMITS.maxLineLength,
      range: { start: { line, character: 0 }, end: { line, character: Math.min(length, 1) } },
      message: `This line has ${thousands(length)} characters, more than the ${thousands(DOCUMENT_LIMITS.maxLineLength)} Paper Digest reads in a line: the document gets its outline and folding only, and no other diagnostics`,
      messageZh: `此行有 ${thousands(length)} 个字符，超过单行上限 ${thousands(DOCUMENT_LIMITS.maxLineLength)} 个字符：文档仅提供大纲和折叠，不再检查其他问题`,
    };
  }
  return undefined;
}
