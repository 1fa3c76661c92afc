/**
 * The names of a digest that stand for the same thing wherever they are written: institutions,
 * their translations, authors, topics, keywords and categories. `nameAt` says which one is at a
 * position; `occurrences` finds every place a document names it; `mayName` tells from the
 * per-file counts whether a file can name it at all. References, highlights and rename share
 * them.
 */
import type { Position, Range } from 'vscode-languageserver-types';
import type { DigestDocument, Span } from './model';
import { categoryIgnoringCase } from './taxonomy';
import { termKey, FileTerms } from './terms';
import { entryAt, fieldAt } from './features/entries';

export type NameKind = 'institution' | 'translation' | 'author' | 'topic' | 'keyword' | 'category';

/** A name and what makes two of them the same. */
export interface NameTarget {
  readonly kind: NameKind;
  /**
   * The comparison key: `termKey` of the English name, the topic or the keyword (as the Papers
   * view and the statistics group them: case, width and runs of white space aside), the
   * translation as written, the category's code in lower case.
   */
  readonly key: string;
  /** The name as written at the position. */
  readonly text: string;
  /** Where it is written at the position. */
  readonly range: Range;
}

/** Lines longer than this are not searched for names. */
const MAX_LINE = 200_000;

/** The comparison key of a name of a kind. */
export function nameKey(kind: NameKind, text: string): string {
  switch (kind) {
    case 'translation':
      return text.trim().normalize('NFKC');
    case 'category':
      return (categoryIgnoringCase(text.trim())?.code ?? text.trim()).toLowerCase();
    default:
      return termKey(text);
  }
}

function target(kind: NameKind, span: Span | undefined, position: Position): NameTarget | undefined {
  if (!span || !span.text.trim()) {
    return undefined;
  }
  const { start, end } = span.range;
  if (start.line !== position.line || position.character < start.character || position.character > end.character) {
    return undefined;
  }
  const key = nameKey(kind, span.text);
  return key ? { kind, key, text: span.text, range: span.range } : undefined;
}

/**
 * The name at a position, or undefined (outside the text, on a label, in a summary).
 *
 * @example nameAt(doc, { line: 8, character: 7 }) // { kind: 'institution', key: 'kyoto university', text: 'Kyoto University', range }
 */
export function nameAt(doc: DigestDocument, position: Position): NameTarget | undefined {
  if (position.line < 0 || position.line >= doc.lines.length || position.character < 0 || position.character > doc.lines[position.line].text.length || doc.lines[position.line].text.length > MAX_LINE) {
    return undefined;
  }
  const entry = entryAt(doc, position);
  const field = entry && fieldAt(entry, position);
  if (!field) {
    return undefined;
  }
  const first = (candidates: (NameTarget | undefined)[]): NameTarget | undefined => candidates.find((each) => each !== undefined);
  switch (field.kind) {
    case 'authors':
      return first(field.names.map((name) => target('author', name, position)));
    case 'institutions':
      if (field.authorPairs) {
        return first(field.authorPairs.map((pair) => target('author', pair.english, position)));
      }
      return first(field.items.flatMap((item) => [target('institution', item.name, position), target('translation', item.translation, position)]));
    case 'topicHits':
      return first([target('topic', field.topic, position), ...field.hits.map((hit) => target('keyword', hit.keyword, position)), ...field.categories.map((category) => target('category', category, position))]);
    default:
      return undefined;
  }
}

/**
 * Every place a document names the target, in document order; with a `limit`, it stops after the
 * entry that takes it past the limit (the caller cuts the list, or says there are too many).
 *
 * @example occurrences(doc, { kind: 'institution', key: 'kyoto university', ... }) // the ranges of each 'Kyoto University'
 */
export function occurrences(doc: DigestDocument, name: Pick<NameTarget, 'kind' | 'key'>, limit = Infinity): Range[] {
  const ranges: Range[] = [];
  const add = (span: Span | undefined): void => {
    if (span && span.text.trim() && nameKey(name.kind, span.text) === name.key) {
      ranges.push(span.range);
    }
  };
  for (const entry of doc.entries) {
    if (ranges.length > limit) {
      // Past the limit (with those of the last entry read): the caller says so.
      break;
    }
    switch (name.kind) {
      case 'author':
        entry.authors?.names.forEach(add);
        entry.institutions?.authorPairs?.forEach((pair) => add(pair.english));
        break;
      case 'institution':
      case 'translation': {
        const field = entry.institutions;
        if (field && !field.authorPairs) {
          for (const item of field.items) add(name.kind === 'institution' ? item.name : item.translation);
        }
        break;
      }
      default: {
        const hits = entry.topicHits;
        if (!hits) break;
        if (name.kind === 'topic') add(hits.topic);
        else if (name.kind === 'keyword') hits.hits.forEach((hit) => add(hit.keyword));
        else hits.categories.forEach(add);
      }
    }
  }
  return ranges;
}

/**
 * Whether a file, by its counts, can name the target; `undefined` when the counts cannot tell
 * (authors outside `机构` lines are not counted).
 */
export function mayName(terms: FileTerms, name: Pick<NameTarget, 'kind' | 'key'>): boolean | undefined {
  switch (name.kind) {
    case 'institution':
      return terms.institutions.has(name.key);
    case 'translation':
      for (const institution of terms.institutions.values()) {
        for (const translation of institution.translations.keys()) {
          if (nameKey('translation', translation) === name.key) return true;
        }
      }
      return false;
    case 'topic':
      for (const topic of terms.topics.keys()) if (nameKey('topic', topic) === name.key) return true;
      return false;
    case 'keyword':
      return terms.keywords.has(name.key);
    case 'category':
      for (const code of terms.categories.keys()) if (nameKey('category', code) === name.key) return true;
      return false;
    default:
      return undefined;
  }
}
