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

/** The limits, in UTF-16 code units and lines. */
export const DOCUMENT_LIMITS = {
  /** Characters of the whole text (about 16 MB of ASCII, 48 MB of Chinese in UTF-8). */
  maxCharacters: 16_000_000,
  /** Lines of the text. */
  maxLines: 300_000,
  /** Characters of the longest line. */
  maxLineLength: 100_000,
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

function judge(doc: DigestDocument): TooLarge | undefined {
  const start: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (doc.text.length > DOCUMENT_LIMITS.maxCharacters) {
    return {
      limit: 'characters',
      size: doc.text.length,
      max: DOCUMENT_LIMITS.maxCharacters,
      range: start,
      message: `This document has ${thousands(doc.text.length)} characters, more than the ${thousands(DOCUMENT_LIMITS.maxCharacters)} Paper Digest checks: it gets its outline and folding only, and no other diagnostics`,
      messageZh: `文档有 ${thousands(doc.text.length)} 个字符，超过检查上限 ${thousands(DOCUMENT_LIMITS.maxCharacters)}：仅提供大纲和折叠，不再检查其他问题`,
    };
  }
  let count: number;
  let lineLength: (line: number) => number;
  if (doc instanceof DigestModel) {
    const { starts, ends } = doc.table;
    count = doc.table.count;
    lineLength = (line) => ends[line] - starts[line];
  } else {
    const lines = doc.lines;
    count = lines.length;
    lineLength = (line) => lines[line].text.length;
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
  for (let line = 0; line < count; line++) {
    const length = lineLength(line);
    if (length > DOCUMENT_LIMITS.maxLineLength) {
      return {
        limit: 'lineLength',
        size: length,
        max: DOCUMENT_LIMITS.maxLineLength,
        range: { start: { line, character: 0 }, end: { line, character: Math.min(length, 1) } },
        message: `This line has ${thousands(length)} characters, more than the ${thousands(DOCUMENT_LIMITS.maxLineLength)} Paper Digest reads in a line: the document gets its outline and folding only, and no other diagnostics`,
        messageZh: `此行有 ${thousands(length)} 个字符，超过单行上限 ${thousands(DOCUMENT_LIMITS.maxLineLength)}：文档仅提供大纲和折叠，不再检查其他问题`,
      };
    }
  }
  return undefined;
}
