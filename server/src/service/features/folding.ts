/**
 * Folding ranges: one per entry that spans more than one line.
 */
import { FoldingRange } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument } from '../model';

/**
 * @example
 * foldingRanges(parseDigest(text)) // [{ startLine: 2, endLine: 16 }, ...]
 */
export function foldingRanges(doc: DigestDocument, token: Cancellation = NEVER_CANCELLED): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  for (const entry of doc.entries) {
    if (token.isCancellationRequested) {
      return [];
    }
    if (entry.range.end.line > entry.range.start.line) {
      ranges.push({ startLine: entry.range.start.line, endLine: entry.range.end.line });
    }
  }
  return ranges;
}
