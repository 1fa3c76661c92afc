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
  const complete = forEachSemanticToken(doc, (deltaLine, deltaCharacter, length, type) => data.push(deltaLine, deltaCharacter, length, type, 0), token);
  return { data: complete ? data : [] };
}

/**
 * Calls `emit` with each token's group of LSP's encoding (the line and character relative to
 * the token before, its length, its type; no modifiers), in document order; false when
 * cancelled meanwhile. The server writes the groups straight into the answer's JSON.
 */
export function forEachSemanticToken(doc: DigestDocument, emit: (deltaLine: number, deltaCharacter: number, length: number, type: number) => void, token: Cancellation = NEVER_CANCELLED): boolean {
  let lastLine = 0;
  let lastChar = 0;
  const push = (line: number, character: number, length: number, type: number): void => {
    if (length <= 0) {
      return;
    }
    const deltaLine = line - lastLine;
    emit(deltaLine, deltaLine === 0 ? character - lastChar : character, length, type);
    lastLine = line;
    lastChar = character;
  };
  if (doc.heading) {
    const { start, end } = doc.heading.range;
    push(start.line, start.character, end.character - start.character, 0);
  }
  // Per token of an entry: its line, character, length and type, each range read once.
  const tokens: number[] = [];
  const add = (span: Span, type: number): void => {
    const { start, end } = span.range;
    tokens.push(start.line, start.character, end.character - start.character, type);
  };
  for (const entry of doc.entries) {
    if (token.isCancellationRequested) {
      return false;
    }
    tokens.length = 0;
    if (entry.englishTitle) add(entry.englishTitle.value, 1);
    if (entry.chineseTitle) add(entry.chineseTitle.value, 2);
    if (entry.authors) for (const name of entry.authors.names) add(name, 3);
    // Fields are in document order except when out of order; tokens must be sorted.
    let sorted = true;
    for (let i = 4; i < tokens.length && sorted; i += 4) {
      sorted = tokens[i - 4] < tokens[i] || (tokens[i - 4] === tokens[i] && tokens[i - 3] <= tokens[i + 1]);
    }
    if (sorted) {
      for (let at = 0; at < tokens.length; at += 4) push(tokens[at], tokens[at + 1], tokens[at + 2], tokens[at + 3]);
      continue;
    }
    const order = Array.from({ length: tokens.length / 4 }, (_, k) => k * 4).sort((a, b) => tokens[a] - tokens[b] || tokens[a + 1] - tokens[b + 1]);
    for (const at of order) {
      push(tokens[at], tokens[at + 1], tokens[at + 2], tokens[at + 3]);
    }
  }
  return true;
}
