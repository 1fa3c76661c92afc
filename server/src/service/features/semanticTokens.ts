/**
 * Semantic tokens for what no line regex can tell apart: which plain line is the heading, an
 * English title, a Chinese title or an author list.
 */
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Span } from '../model';

/** The token types, in the order of the legend. Declared in package.json with their scopes. */
export const SEMANTIC_TOKEN_TYPES = ['digestHeading', 'paperTitle', 'translatedTitle', 'author'] as const;
export const SEMANTIC_TOKEN_MODIFIERS: string[] = [];

/**
 * Encodes the tokens as LSP's relative five-integer groups.
 *
 * @example
 * semanticTokens(parseDigest('题\n\nA Title\n\n标题\n\nMei Tanaka\n')).data
 * // [0,0,1,0,0, 2,0,7,1,0, 2,0,2,2,0, 2,0,10,3,0]
 */
export function semanticTokens(doc: DigestDocument, token: Cancellation = NEVER_CANCELLED): { data: number[] } {
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  const push = (span: Span, type: number): void => {
    const { start, end } = span.range;
    const length = end.character - start.character;
    if (length <= 0) {
      return;
    }
    const deltaLine = start.line - lastLine;
    data.push(deltaLine, deltaLine === 0 ? start.character - lastChar : start.character, length, type, 0);
    lastLine = start.line;
    lastChar = start.character;
  };
  if (doc.heading) {
    push(doc.heading, 0);
  }
  for (const entry of doc.entries) {
    if (token.isCancellationRequested) {
      return { data: [] };
    }
    // Fields are in document order except when out of order; tokens must be sorted.
    const spans: [Span, number][] = [];
    if (entry.englishTitle) spans.push([entry.englishTitle.value, 1]);
    if (entry.chineseTitle) spans.push([entry.chineseTitle.value, 2]);
    if (entry.authors) for (const name of entry.authors.names) spans.push([name, 3]);
    spans.sort((a, b) => a[0].range.start.line - b[0].range.start.line || a[0].range.start.character - b[0].range.start.character);
    for (const [span, type] of spans) {
      push(span, type);
    }
  }
  return { data };
}
