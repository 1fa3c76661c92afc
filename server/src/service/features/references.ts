/**
 * References and document highlights: on an author, an institution, its translation, a topic, a
 * keyword or a category, every place in the workspace's digests that names it (an author's
 * other papers, an institution's papers), and its other occurrences in the file.
 *
 * The caller hands in the models of the files that can name it (the open documents, and the
 * files on disk whose counts say so); names are compared as `names.ts` says.
 */
import { DocumentHighlightKind } from 'vscode-languageserver-types';
import type { DocumentHighlight, Location, Position } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument } from '../model';
import { nameAt, NameTarget, occurrences } from '../names';

/** A file to look in: its URI and its model. */
export interface NamedSource {
  readonly uri: string;
  readonly doc: DigestDocument;
}

/** The most locations one answer holds. */
export const MAX_REFERENCES = 10_000;

/**
 * Every place the sources name the target, file by file in the order given, each file in
 * document order.
 *
 * @example
 * const name = nameAt(doc, position)!; // 'Kyoto University'
 * references([{ uri, doc }, { uri: other, doc: otherDoc }], name)
 * // [{ uri, range: <Kyoto University> }, { uri: other, range: <KYOTO university> }]
 */
export function references(sources: Iterable<NamedSource>, name: Pick<NameTarget, 'kind' | 'key'>, token: Cancellation = NEVER_CANCELLED): Location[] {
  const locations: Location[] = [];
  for (const source of sources) {
    if (token.isCancellationRequested) {
      return [];
    }
    for (const range of occurrences(source.doc, name, MAX_REFERENCES - locations.length)) {
      if (locations.length >= MAX_REFERENCES) {
        return locations;
      }
      locations.push({ uri: source.uri, range });
    }
  }
  return locations;
}

/**
 * The occurrences in the file of the name at a position (at most `MAX_REFERENCES`, the first);
 * empty where there is no name.
 *
 * @example documentHighlights(doc, { line: 8, character: 7 }) // [{ range: <Kyoto University>, kind: 1 }, ...]
 */
export function documentHighlights(doc: DigestDocument, position: Position, token: Cancellation = NEVER_CANCELLED): DocumentHighlight[] {
  const name = nameAt(doc, position);
  if (!name || token.isCancellationRequested) {
    return [];
  }
  // As many as `references` gives: a line of 16,000 institutions repeated in 160 papers made an
  // answer of 2.6 million highlights (258 MB).
  return occurrences(doc, name, MAX_REFERENCES)
    .slice(0, MAX_REFERENCES)
    .map((range) => ({ range, kind: DocumentHighlightKind.Text }));
}
