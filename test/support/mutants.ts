/**
 * Random mutants of valid digests, for the property that a quick fix never makes a digest worse:
 * the careless edits real digests show (paragraphs deleted, duplicated, swapped or run together;
 * full-width punctuation turned half-width and back; `* `, `纠错` or `分类` dropped; categories
 * miscased; an emoji next to a mark; two hits run together), applied a few at a time to a
 * well-formed digest.
 *
 * @example
 * fc.assert(fc.property(digestMutant, (text) => { ... }))
 */
import * as fc from 'fast-check';
import { generatedEntry } from '../bench/generate';
import { digest, entryLines, readFixture } from './fixtures';

/** The well-formed digests the mutants start from. */
export function mutantBases(): string[] {
  return [
    readFixture('parser/well-formed.digest'),
    digest(entryLines('A'), entryLines('B', { institutions: null, comments: null, journalRef: null }), entryLines('C')),
    ['大模型推理能力', ...generatedEntry(1), ...generatedEntry(2), ...generatedEntry(3)].join('\n\n') + '\n',
    ['大模型推理能力', ...generatedEntry(7), ...generatedEntry(8)].join('\r\n\r\n'),
  ];
}

const HALF_FOR_FULL: Record<string, string> = { '；': ';', '：': ':', '（': '(', '）': ')', '、': ',', '，': ',' };
const FULL_FOR_HALF: Record<string, string> = { ';': '；', ':': '：', '(': '（', ')': '）', ',': '、' };
/** What two hits run together have between them instead of `；` (`joinHits`). */
const HIT_JOINS = ['', ' ', '，', ' / ', '、、', '\t', '\u3000', ', '];
const EMOJI = ['😀', '🧪', '👍🏽', '\u{20000}'];

/** One mutation of a list of paragraphs (each paragraph a string, possibly of several lines). */
export type Mutation =
  | { kind: 'delete' | 'duplicate' | 'swap' | 'join' | 'blankInside'; at: number }
  | { kind: 'toHalf' | 'toFull' | 'emoji' | 'miscase' | 'dropChar' | 'joinHits'; at: number; pos: number; pick: number }
  | { kind: 'dropStar' | 'dropMarker' | 'dropCategories' | 'emptySummary' | 'dropColon' | 'dropFields'; at: number }
  | { kind: 'insert'; at: number; pick: number };

const JUNK = ['纠错', '[cs.AI]（计算机科学与人工智能）', 'Mei Tanaka, Lin Qiu', '标题', 'A Title Alone', '分类 cs.LG', '专题命中 数学推理 ：x(title)', 'AI总结', '；', 'cs.CL、cs.AI'];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete', 'duplicate', 'swap', 'join', 'blankInside'), at: fc.nat() }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constantFrom('toHalf', 'toFull', 'emoji', 'miscase', 'dropChar', 'joinHits'), at: fc.nat(), pos: fc.nat(), pick: fc.nat() }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constantFrom('dropStar', 'dropMarker', 'dropCategories', 'emptySummary', 'dropColon', 'dropFields'), at: fc.nat() }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constant('insert'), at: fc.nat(), pick: fc.nat() }) as fc.Arbitrary<Mutation>,
);

/** The `n`-th occurrence (mod their count) of one of `chars` in `text`, or -1. */
function nthOf(text: string, chars: string, n: number): number {
  const places: number[] = [];
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i])) places.push(i);
  return places.length === 0 ? -1 : places[n % places.length];
}

/** Applies one mutation to paragraphs, in place. */
export function mutate(parts: string[], m: Mutation): void {
  if (parts.length === 0) return;
  const i = m.at % parts.length;
  const p = parts[i];
  switch (m.kind) {
    case 'delete':
      parts.splice(i, 1);
      return;
    case 'duplicate':
      parts.splice(i, 0, p);
      return;
    case 'swap':
      if (i + 1 < parts.length) [parts[i], parts[i + 1]] = [parts[i + 1], parts[i]];
      return;
    case 'join':
      if (i + 1 < parts.length) parts.splice(i, 2, p + '\n' + parts[i + 1]);
      return;
    case 'blankInside': {
      const line = p.indexOf('\n');
      if (line >= 0) parts.splice(i, 1, p.slice(0, line), p.slice(line + 1));
      return;
    }
    case 'toHalf': {
      const at = nthOf(p, Object.keys(HALF_FOR_FULL).join(''), m.pos);
      if (at >= 0) parts[i] = p.slice(0, at) + HALF_FOR_FULL[p[at]] + p.slice(at + 1);
      return;
    }
    case 'toFull': {
      const at = nthOf(p, Object.keys(FULL_FOR_HALF).join(''), m.pos);
      if (at >= 0) parts[i] = p.slice(0, at) + FULL_FOR_HALF[p[at]] + p.slice(at + 1);
      return;
    }
    case 'emoji': {
      const at = nthOf(p, '；：（）、，;:(),*纠分 ', m.pos);
      const emoji = EMOJI[m.pick % EMOJI.length];
      if (at >= 0) parts[i] = m.pick % 2 === 0 ? p.slice(0, at) + emoji + p.slice(at) : p.slice(0, at + 1) + emoji + p.slice(at + 1);
      return;
    }
    case 'miscase':
      parts[i] = p.replace(/\b(cs|stat|math)\.([A-Z]{2})/, (_, a: string, b: string) => (m.pick % 2 === 0 ? a.toUpperCase() + '.' + b.toLowerCase() : a + '.' + b.toLowerCase()));
      return;
    case 'dropChar': {
      if (p.length > 1) {
        const at = m.pos % p.length;
        // Never split a surrogate pair: the mutants are valid UTF-16.
        const width = p.codePointAt(at)! > 0xffff ? 2 : 1;
        if (!(at > 0 && p.charCodeAt(at) >= 0xdc00 && p.charCodeAt(at) <= 0xdfff)) parts[i] = p.slice(0, at) + p.slice(at + width);
      }
      return;
    }
    case 'joinHits': {
      // The `；` after a hit's `(field)` (not the one before `分类`) left out or written otherwise.
      // The field before it in full-width brackets, one time in two.
      const places = [...p.matchAll(/\(([a-z]+)\)；(?!分类)/g)].map((match) => ({ open: match.index!, close: match.index! + match[0].length - 1 }));
      if (places.length > 0) {
        const { open, close } = places[m.pos % places.length];
        const field = Math.floor(m.pick / HIT_JOINS.length) % 2 === 1 ? `（${p.slice(open + 1, close - 1)}）` : p.slice(open, close);
        parts[i] = p.slice(0, open) + field + HIT_JOINS[m.pick % HIT_JOINS.length] + p.slice(close + 1);
      }
      return;
    }
    case 'dropStar':
      parts[i] = p.replace('机构 * ', '机构 ');
      return;
    case 'dropMarker':
      parts[i] = p.replace(/ 纠错$/, '');
      return;
    case 'dropCategories':
      parts[i] = m.at % 2 === 0 ? p.replace(/；分类 [^\n]*/, '') : p.replace('分类 ', '');
      return;
    case 'emptySummary':
      parts[i] = p.replace(/^AI总结 .*/, 'AI总结');
      return;
    case 'dropColon':
      parts[i] = p.replace(' ：', ' ');
      return;
    case 'dropFields':
      parts[i] = p.replace(/\([a-z]+\)/, '');
      return;
    case 'insert':
      parts.splice(i, 0, JUNK[m.pick % JUNK.length]);
      return;
  }
}

/**
 * One of the bases (`mutantBases`, by `base` modulo their count) with its paragraphs changed by
 * `change`, line ends and final line end kept.
 */
function mutatedBase(base: number, change: (parts: string[]) => void): string {
  const bases = mutantBases();
  const text = bases[base % bases.length];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const parts = text.split(eol + eol).filter((part) => part.length > 0);
  const finalNewline = text.endsWith(eol);
  if (finalNewline) parts[parts.length - 1] = parts[parts.length - 1].replace(/\r?\n$/, '');
  change(parts);
  return parts.map((part) => part.replace(/\n/g, eol)).join(eol + eol) + (finalNewline ? eol : '');
}

/** A well-formed digest with one to five mutations. */
export const digestMutant: fc.Arbitrary<string> = fc
  .tuple(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 5 }))
  .map(([base, mutations]) =>
    mutatedBase(base, (parts) => {
      for (const m of mutations) mutate(parts, m);
    }),
  );

/**
 * A well-formed digest with two hits of one of its `专题命中` lines run together (`joinHits`, in
 * each of its forms), and up to three other mutations before or after it.
 *
 * @example fc.sample(hitsJoinedMutant, 1)[0] // '…专题命中 数学推理 ：reasoning(abstract)math reasoning(title)；分类 …'
 */
export const hitsJoinedMutant: fc.Arbitrary<string> = fc
  .tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.array(mutation, { maxLength: 3 }), fc.boolean())
  .map(([base, paper, pos, pick, mutations, first]) =>
    mutatedBase(base, (parts) => {
      const hitLines = parts.flatMap((part, index) => (part.startsWith('专题命中') ? [index] : []));
      const join: Mutation = { kind: 'joinHits', at: hitLines[paper % hitLines.length], pos, pick };
      for (const m of first ? [join, ...mutations] : [...mutations, join]) mutate(parts, m);
    }),
  );

/**
 * A digest of `WHOLE_CHECK_ENTRIES` papers and more with one to eight mutations anywhere in it:
 * big enough that a fix is checked around itself (fixCheck.ts), with papers repeating names
 * and titles (the generated ones) and repeated paragraphs (duplicates).
 *
 * @example fc.sample(bigDigestMutant, 1)[0].split('\n\n').length // about 400 paragraphs
 */
export const bigDigestMutant: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 50, max: 70 }), fc.array(mutation, { minLength: 1, maxLength: 8 }), fc.boolean())
  .map(([papers, mutations, crlf]) => {
    const parts = ['大模型推理能力'];
    for (let i = 0; i < papers; i++) parts.push(...generatedEntry(i % 60));
    for (const m of mutations) mutate(parts, m);
    const eol = crlf ? '\r\n' : '\n';
    return parts.map((part) => part.replace(/\n/g, eol)).join(eol + eol) + eol;
  });
