/**
 * Folding ranges: one per entry that spans more than one line, for the first 5,000 such entries.
 */
import { FoldingRange } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument } from '../model';

/** At most this many ranges are returned, the first ones (VS Code folds at most 5,000 by default). */
export const MAX_FOLDING_RANGES = 5_000;

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
      if (ranges.length === MAX_FOLDING_RANGES) {
        break;
      }
    }
  }
  return ranges;
}
