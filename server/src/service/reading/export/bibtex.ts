/**
 * BibTeX export: one `@misc` per paper with what the digest gives — title, author, the Chinese
 * title in `note`, the journal ref in `howpublished`, categories in `keywords`, the arXiv id (`eprint`, `url`)
 * only when the Comments clearly give the paper's own, `year` only when the journal ref or that id
 * gives it (`paperYear`): no year is invented.
 *
 * Values are braced; the characters special to (La)TeX are escaped, so that any title parses
 * and prints as written. Keys are `firstauthor` + `firstword` of the title in ASCII, made
 * unique with `b`, `c`, ... suffixes, in the order of the papers' state keys (not of the export).
 */
import type { ExportRecord } from '../exportRecord';
import { exportLine, secondTitle } from '../exportRecord';
import { compareText } from '../../text';

/**
 * Escapes text for a braced BibTeX value: `\ { } $ & % # _ ^ ~ < >` become their LaTeX commands,
 * each hyphen of `--` or `---` is braced; other characters (Chinese included) stay as they are, for biber / UTF-8 BibTeX.
 *
 * @example
 * escapeBibtex('50% of {x} & y_1') // '50\\% of \\textbraceleft{}x\\textbraceright{} \\& y\\_1'
 */
export function escapeBibtex(text: string): string {
  // A run of hyphens is a dash to LaTeX (`--` –, `---` —): each hyphen of one is braced, so that
  // it prints, and parses, as written.
  return exportLine(text)
    .replace(/[\\{}$&%#_^~<>]/g, (c) => BIBTEX_ESCAPES[c])
    .replace(/-{2,}/g, (run) => '{-}'.repeat(run.length));
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
  // Not `\\^{}` and `\\~{}`, which are accents (on nothing, or on what follows, as BibTeX
  // parsers read them).
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
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

/** What a paper's cite key is made of: its first author and title, and its key in the state (which tells papers apart). */
export interface KeySource {
  readonly authors: readonly string[];
  readonly title: string;
  readonly paperKey: string;
}

/** The cite keys of the records, in order, unique. */
export function bibtexKeys(records: readonly ExportRecord[]): string[] {
  const keys = new BibtexKeys(records);
  return records.map((record) => keys.next(record));
}

/** `firstauthor_firstword`: the family name of the first author and the title's first word, in ASCII. */
function keyBase(source: Pick<KeySource, 'authors' | 'title'>): string {
  const author = source.authors[0] ?? '';
  const family = author.trim().split(/\s+/).pop() ?? '';
  const word = asciiWord(source.title);
  return (asciiWord(family) || 'anon') + (word ? '_' + word : '');
}

/**
 * Cite keys handed out one record at a time, each unlike those before it: an export written as
 * it goes (a year of papers) needs no list of every record first.
 *
 * Given what every paper of the export is made of (`all`), a paper's key does not depend on the
 * order the papers come in (a sort by rank, which a star changes, or by file): of the papers
 * that share a base, the one first by its state key has the bare base, the others `b`, `c`, ...
 * in that order, skipping any other paper's base. Without it, they are handed out in order.
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
  /** Each paper's key, by its state key, worked out from every paper of the export. */
  private readonly assigned?: Map<string, string>;
  /** Those keys, as a set (made when first needed). */
  private assignedSet?: Set<string>;

  constructor(all?: Iterable<KeySource>) {
    if (all !== undefined) {
      this.assigned = assignKeys(all);
    }
  }

  next(record: ExportRecord): string {
    const assigned = this.assigned?.get(record.paperKey);
    if (assigned !== undefined && !this.used.has(assigned)) {
      this.used.add(assigned);
      return assigned;
    }
    const base = keyBase(record);
    let key = base;
    let n = this.suffixes.get(base) ?? 1;
    while (this.used.has(key) || (this.assigned !== undefined && this.assignedKeys().has(key))) {
      key = base + suffix(n++);
    }
    this.suffixes.set(base, n);
    this.used.add(key);
    return key;
  }

  /** The keys worked out beforehand (a record not among `all` takes none of them). */
  private assignedKeys(): Set<string> {
    this.assignedSet ??= new Set(this.assigned!.values());
    return this.assignedSet;
  }
}

/** The keys of papers, by state key, whatever order the papers come in (see `BibtexKeys`). */
function assignKeys(all: Iterable<KeySource>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const source of all) {
    const base = keyBase(source);
    const group = groups.get(base);
    if (group) group.push(source.paperKey);
    else groups.set(base, [source.paperKey]);
  }
  // Every bare base is some paper's key: a suffixed key never takes one.
  const taken = new Set(groups.keys());
  const keys = new Map<string, string>();
  for (const base of [...groups.keys()].sort(compareText)) {
    const papers = groups.get(base)!.sort(compareText);
    keys.set(papers[0], base);
    let n = 1;
    for (let i = 1; i < papers.length; i++) {
      if (keys.has(papers[i])) continue;
      let key: string;
      do {
        key = base + suffix(n++);
      } while (taken.has(key));
      taken.add(key);
      keys.set(papers[i], key);
    }
  }
  return keys;
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
  return [...bibtexChunks(records, records)].join('');
}

/** `toBibtex` a record at a time: the entries with a blank line between them; `all` makes the keys (`BibtexKeys`). */
export function* bibtexChunks(records: Iterable<ExportRecord>, all?: Iterable<KeySource>): Generator<string, void, undefined> {
  const keys = new BibtexKeys(all);
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
    // `and others` is BibTeX's own way to say "et al.".
    fields.push(['author', record.authors.map(bibtexName).join(' and ') + (record.moreAuthors ? ' and others' : '')]);
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
    // No `primaryclass`: a digest lists the categories without saying which is the primary one.
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
