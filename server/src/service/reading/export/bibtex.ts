/**
 * BibTeX export: one `@misc` per paper with what the digest gives — title, author, the Chinese
 * title in `note`, the journal ref in `howpublished`, categories in `keywords`, the arXiv id (`eprint`, `url`)
 * only when the Comments clearly give the paper's own, `year` only when the journal ref or that id
 * gives it (`paperYear`): no year is invented.
 *
 * Values are braced; the characters special to (La)TeX are escaped, so that any title parses
 * and prints as written. Keys are `firstauthor` + `firstword` of the title in ASCII, made
 * unique with `b`, `c`, ... suffixes.
 */
import type { ExportRecord } from '../exportRecord';
import { exportLine, secondTitle } from '../exportRecord';

/**
 * Escapes text for a braced BibTeX value: `\ { } $ & % # _ ^ ~ < >` become their LaTeX commands;
 * other characters (Chinese included) stay as they are, for biber / UTF-8 BibTeX.
 *
 * @example
 * escapeBibtex('50% of {x} & y_1') // '50\\% of \\textbraceleft{}x\\textbraceright{} \\& y\\_1'
 */
export function escapeBibtex(text: string): string {
  return exportLine(text).replace(/[\\{}$&%#_^~<>]/g, (c) => BIBTEX_ESCAPES[c]);
}

/**
 * BibTeX counts every brace of a value, a brace after a backslash too: a lone `\{` would leave
 * the value open, so braces are written as commands; `<` and `>`, which LaTeX's default font
 * encoding prints as `¡` and `¿`, likewise.
 */
const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '^': '\\^{}',
  '~': '\\~{}',
};

/** An author for the `author` field: braced whole when it holds ` and ` or a comma, so BibTeX does not split it. */
function bibtexName(name: string): string {
  const escaped = escapeBibtex(name);
  return /\band\b|,/i.test(escaped) ? `{${escaped}}` : escaped;
}

function asciiWord(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .find((word) => word.length > 0 && !STOP_WORDS.has(word)) ?? '';
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'on', 'of', 'for', 'in', 'to', 'and', 'with', 'towards', 'toward']);

/** The cite keys of the records, in order, unique. */
export function bibtexKeys(records: readonly ExportRecord[]): string[] {
  const keys = new BibtexKeys();
  return records.map((record) => keys.next(record));
}

/**
 * Cite keys handed out one record at a time, each unlike those before it: an export written as
 * it goes (a year of papers) needs no list of every record first.
 *
 * @example
 * const keys = new BibtexKeys();
 * keys.next(a); // 'tanaka_sparse'
 * keys.next(a); // 'tanaka_sparseb'
 */
export class BibtexKeys {
  private readonly used = new Set<string>();
  // The next suffix to try for each base: the thousandth paper of one base tries one key, not a
  // thousand (a year of digests shares bases by the hundred: a common name, a common first word).
  private readonly suffixes = new Map<string, number>();

  next(record: ExportRecord): string {
    const author = record.authors[0] ?? '';
    const family = author.trim().split(/\s+/).pop() ?? '';
    const word = asciiWord(record.title);
    const base = (asciiWord(family) || 'anon') + (word ? '_' + word : '');
    let key = base;
    let n = this.suffixes.get(base) ?? 1;
    while (this.used.has(key)) {
      key = base + suffix(n++);
    }
    this.suffixes.set(base, n);
    this.used.add(key);
    return key;
  }
}

/** b, c, ..., z, ba, bb, ... */
function suffix(n: number): string {
  let text = '';
  let value = n;
  do {
    text = String.fromCharCode(97 + (value % 26)) + text;
    value = Math.floor(value / 26);
  } while (value > 0);
  return text === 'a' ? 'b' : text;
}

/**
 * The BibTeX of papers.
 *
 * @example
 * toBibtex([record]) // '@misc{tanaka_sparse,\n  title = {{Sparse Probes ...}},\n  ...}\n'
 */
export function toBibtex(records: readonly ExportRecord[]): string {
  return [...bibtexChunks(records)].join('');
}

/** `toBibtex` a record at a time: the entries with a blank line between them. */
export function* bibtexChunks(records: Iterable<ExportRecord>): Generator<string, void, undefined> {
  const keys = new BibtexKeys();
  let first = true;
  for (const record of records) {
    const entry = bibtexEntry(record, keys.next(record));
    yield first ? entry : '\n' + entry;
    first = false;
  }
}

function bibtexEntry(record: ExportRecord, key: string): string {
  const fields: [string, string][] = [['title', `{${escapeBibtex(record.title)}}`]];
  if (record.authors.length > 0) {
    fields.push(['author', record.authors.map(bibtexName).join(' and ')]);
  }
  const notes: string[] = [];
  if (secondTitle(record)) notes.push(`Chinese title: ${secondTitle(record)}`);
  if (notes.length > 0) {
    fields.push(['note', escapeBibtex(notes.join('. '))]);
  }
  if (record.journalRef) {
    fields.push(['howpublished', escapeBibtex(record.journalRef)]);
  }
  if (record.year !== undefined) {
    fields.push(['year', String(record.year)]);
  }
  if (record.arxivId) {
    fields.push(['eprint', escapeBibtex(record.arxivId)], ['archiveprefix', 'arXiv'], ['url', `https://arxiv.org/abs/${record.arxivId}`]);
    if (record.categories[0]) fields.push(['primaryclass', escapeBibtex(record.categories[0])]);
  }
  if (record.categories.length > 0) {
    fields.push(['keywords', escapeBibtex(record.categories.join(', '))]);
  }
  if (record.comments) {
    fields.push(['annote', escapeBibtex(`Comments: ${record.comments}`)]);
  }
  const body = fields.map(([name, value]) => `  ${name} = {${value}}`).join(',\n');
  return `@misc{${key},\n${body}\n}\n`;
}
