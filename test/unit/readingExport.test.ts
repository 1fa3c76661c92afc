/**
 * The exports of papers, checked by readers written here (not by the exporters' own code):
 * BibTeX by a small parser that checks braces, escapes and keys; CSV by an RFC 4180 reader
 * (round trip, formula cells defused); CSL-JSON by ajv against the CSL-JSON schema (the subset
 * in schemas/csl-data.subset.schema.json); RIS line by line; Markdown rendered by markdown-it.
 * The titles, authors and notes are hostile everywhere.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { exportPapers } from '../../server/src/service/reading/export/index';
import { CSV_COLUMNS } from '../../server/src/service/reading/export/csv';
import { BibtexKeys, bibtexKeys, escapeBibtex } from '../../server/src/service/reading/export/bibtex';
import type { ExportRecord } from '../../server/src/service/reading/exportRecord';
import { exportRecord, exportLine, namedAuthors, ownArxivId, paperYear } from '../../server/src/service/reading/exportRecord';
import { distinctPapers, papersInScope } from '../../server/src/service/reading/scope';
import { digest, entryLines, REPO_ROOT } from '../support/fixtures';
import { testWorkspace } from '../support/readingModel';

/** markdown-it (a devDependency), with raw HTML on, as a client might render Markdown. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const markdownIt = require('markdown-it') as (options: object) => { render(text: string): string };

/** Every character special to BibTeX, LaTeX, CSV, spreadsheets, Markdown and HTML. */
const HOSTILE = `=cmd|' /C calc'!A0 }{ \\end{document} 50% $x$ & #1 _a^b~ "q", @misc{x, [l](javascript:alert(1)) <script>alert(1)</script> *b* \u202Egnp.exe`;
const HOSTILE_ZH = '恶意标题}{ \\ 50% "引号", <b>粗</b>';

const FILE = 'file:///w/2026-05-01.digest';
const OTHER = 'file:///w/2026-05-02.digest';

function records(): ExportRecord[] {
  const w = testWorkspace(
    {
      [FILE]: digest(
        entryLines('H', { englishTitle: HOSTILE, chineseTitle: HOSTILE_ZH, authors: 'Ann {Brace, Bo and Co, Zoë O’Neil', comments: 'Comments This paper is arXiv:2605.01234v2; it extends arXiv:2401.00001' }),
        entryLines('A'),
        entryLines('CJK', { englishTitle: 'The 大模型 Study: 数学推理 at Scale', chineseTitle: '规模化的数学推理', authors: '张三, 李四' }),
        entryLines('F', { englishTitle: '+SUM(A1:A9) Formula Title', authors: '@Attacker, -Minus', comments: null, journalRef: null }),
      ),
      // Another paper whose key would collide with A's (same first author, same first word).
      [OTHER]: digest(entryLines('B', { englishTitle: 'The Sparse Probes Revisited' })),
    },
    { keywords: ['sparse'] },
  );
  const lookup = w.model.lookup();
  const keys = new Map<string, string>();
  for (const paper of lookup.papers()) keys.set(paper.title, lookup.info(paper).paperKey);
  w.store.change([keys.get(HOSTILE)!], { starred: true, addTags: ['=tag', 'a,b'], note: 'line 1\nline 2, "quoted"\r\n=2+2 日本語 ' + HOSTILE });
  w.store.change([keys.get('A Sparse Probes for Arithmetic Circuits')!], { read: true, note: '@SUM(1,2)' });
  w.model.invalidate();
  const fresh = w.model.lookup();
  return distinctPapers(fresh, papersInScope(fresh, {})).map((paper) => exportRecord(fresh, paper));
}

// ---------------------------------------------------------------- BibTeX

interface BibEntry {
  readonly type: string;
  readonly key: string;
  /** Field name → raw value between the outer braces. */
  readonly fields: Map<string, string>;
}

const ESCAPES: [string, string][] = [
  ['\\textbackslash{}', '\\'],
  // Braces as commands: BibTeX counts a brace after a backslash as well, so `\\{` would open one.
  ['\\textbraceleft{}', '{'],
  ['\\textbraceright{}', '}'],
  ['\\textless{}', '<'],
  ['\\textgreater{}', '>'],
  ['\\$', '$'],
  ['\\&', '&'],
  ['\\%', '%'],
  ['\\#', '#'],
  ['\\_', '_'],
  // Not `\\^{}` and `\\~{}`: those are accents, which LaTeX and BibTeX parsers put on what follows.
  ['\\textasciicircum{}', '^'],
  ['\\textasciitilde{}', '~'],
];

/**
 * Checks a braced value: every `\` starts one of the known escapes, no special character is
 * bare, the unescaped braces balance. Returns the text it stands for (grouping braces dropped).
 */
function checkBibValue(value: string, where: string): string {
  let depth = 0;
  let text = '';
  for (let i = 0; i < value.length; ) {
    const c = value[i];
    if (c === '\\') {
      const escape = ESCAPES.find(([written]) => value.startsWith(written, i));
      assert.ok(escape, `${where}: a backslash that is no known escape at ${i}: ${JSON.stringify(value.slice(i, i + 20))}`);
      text += escape[1];
      i += escape[0].length;
      continue;
    }
    // `--` and `---` bare are dashes to LaTeX and to BibTeX parsers: each hyphen of a run is braced.
    assert.ok(!(c === '-' && value[i + 1] === '-'), `${where}: a bare -- at ${i}: ${JSON.stringify(value)}`);
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      assert.ok(depth >= 0, `${where}: a closing brace with no opening one at ${i}: ${JSON.stringify(value)}`);
    } else {
      assert.ok(!'$&%#_^~'.includes(c), `${where}: a bare ${c} at ${i}: ${JSON.stringify(value)}`);
      text += c;
    }
    i++;
  }
  assert.equal(depth, 0, `${where}: unbalanced braces: ${JSON.stringify(value)}`);
  return text;
}

/** Reads `@type{key, name = {value}, ...}` entries; fails on anything else. */
function parseBibtex(text: string): BibEntry[] {
  const entries: BibEntry[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const expect = (what: string): void => {
    assert.equal(text.slice(i, i + what.length), what, `expected ${JSON.stringify(what)} at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
    i += what.length;
  };
  const braced = (): string => {
    expect('{');
    const start = i;
    let depth = 1;
    while (depth > 0) {
      assert.ok(i < text.length, 'a value runs to the end of the file');
      const c = text[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '{') depth++;
      if (c === '}') depth--;
      i++;
    }
    return text.slice(start, i - 1);
  };
  for (skipSpace(); i < text.length; skipSpace()) {
    expect('@');
    const type = /^[a-z]+/.exec(text.slice(i))?.[0] ?? '';
    assert.ok(type, `an entry type at ${i}`);
    i += type.length;
    expect('{');
    const key = /^[^,\s{}]+/.exec(text.slice(i))?.[0] ?? '';
    i += key.length;
    expect(',');
    const fields = new Map<string, string>();
    for (;;) {
      skipSpace();
      if (text[i] === '}') {
        i++;
        break;
      }
      const name = /^[a-z]+/.exec(text.slice(i))?.[0] ?? '';
      assert.ok(name, `a field name at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
      i += name.length;
      skipSpace();
      expect('=');
      skipSpace();
      assert.ok(!fields.has(name), `${key}: field ${name} twice`);
      fields.set(name, braced());
      skipSpace();
      if (text[i] === ',') i++;
    }
    entries.push({ type, key, fields });
  }
  return entries;
}

describe('export: BibTeX', () => {
  test('Should give entries a BibTeX reader accepts: balanced braces, every special escaped, unique keys', () => {
    const list = records();
    const entries = parseBibtex(exportPapers('bibtex', list));
    assert.equal(entries.length, list.length);
    const keys = entries.map((entry) => entry.key);
    assert.equal(new Set(keys).size, keys.length, `keys are unique: ${keys.join(', ')}`);
    for (const key of keys) assert.match(key, /^[a-z0-9_]+$/, 'keys are ASCII');
    entries.forEach((entry, i) => {
      assert.equal(entry.type, 'misc');
      for (const [name, value] of entry.fields) checkBibValue(value, `${entry.key}.${name}`);
      // The title is double-braced (case kept) and reads back as written, on one line.
      const title = entry.fields.get('title')!;
      assert.ok(title.startsWith('{') && title.endsWith('}'), title);
      assert.equal(checkBibValue(title.slice(1, -1), 'title'), exportLine(list[i].title));
      // The year only where the journal ref (the fixtures': "…, 2026, pp. 1-12") gives it.
      assert.equal(entry.fields.get('year'), list[i].journalRef ? '2026' : undefined, entry.key);
    });
    const hostile = entries[list.findIndex((record) => record.title === HOSTILE)];
    assert.equal(hostile.fields.get('eprint'), '2605.01234v2', 'the arXiv id the Comments give as the paper’s own');
    assert.equal(hostile.fields.get('url'), 'https://arxiv.org/abs/2605.01234v2');
    assert.equal(hostile.fields.has('primaryclass'), false, 'a digest does not say which category is the primary one');
    // Authors: one with " and " in it stays one name, braced.
    assert.equal(checkBibValue(hostile.fields.get('author')!, 'author'), 'Ann {Brace and Bo and Co and Zoë O’Neil'.replace('{', '{'));
    assert.match(hostile.fields.get('author')!, / and \{Bo and Co\} and /);
    const formula = entries[list.findIndex((record) => record.title.startsWith('+SUM'))];
    assert.equal(formula.fields.has('year'), false, 'no journal ref, no arXiv id: no year is invented');
    const others = entries.filter((_, i) => list[i].authors[0] === 'Mei Tanaka');
    assert.deepEqual(others.map((entry) => entry.key), ['tanaka_sparse', 'tanaka_sparseb']);
    assert.equal(others[0].fields.has('eprint'), false, 'no arXiv id when the Comments give none');
  });

  test('Should give papers of one author and first word the keys b, c, …, z, ba, … by their state keys, whatever order they come in', () => {
    const [record] = records();
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...record, authors: ['Mei Tanaka'], title: 'Sparse Probes', paperKey: `sparse probes ${String(i).padStart(4, '0')}` }));
    // A paper whose own base is one of those keys: it keeps it, and the others skip it.
    many.push({ ...record, authors: ['Mei Tanaka'], title: 'Sparseb', paperKey: 'sparseb' });
    const keyOf = (list: typeof many): Map<string, string> => {
      const keys = bibtexKeys(list);
      assert.equal(new Set(keys).size, keys.length);
      return new Map(list.map((paper, i) => [paper.paperKey, keys[i]]));
    };
    const inOrder = keyOf(many);
    assert.deepEqual([0, 1, 2, 3, 25, 26].map((i) => inOrder.get(`sparse probes ${String(i).padStart(4, '0')}`)), ['tanaka_sparse', 'tanaka_sparsec', 'tanaka_sparsed', 'tanaka_sparsee', 'tanaka_sparseba', 'tanaka_sparsebb']);
    assert.equal(inOrder.get('sparseb'), 'tanaka_sparseb');
    // Reversed, or shuffled (as a sort by rank orders them after a star): every paper its key.
    const shuffled = [...many].reverse();
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    assert.deepEqual(keyOf([...many].reverse()), inOrder);
    assert.deepEqual(keyOf(shuffled), inOrder);
    // Written a record at a time without the others known beforehand: handed out in order, still unique.
    const streamed = new BibtexKeys();
    assert.deepEqual([streamed.next(many[5]), streamed.next(many[3]), streamed.next(many[3000])], ['tanaka_sparse', 'tanaka_sparseb', 'tanaka_sparsebb']);
  });

  test('Should keep dashes, carets and tildes as written: no en dash, em dash or accent of them', () => {
    const escaped = escapeBibtex('a -- b --- c ^ ~ x-y');
    assert.equal(escaped, 'a {-}{-} b {-}{-}{-} c \\textasciicircum{} \\textasciitilde{} x-y');
    assert.equal(checkBibValue(escaped, 'dashes'), 'a -- b --- c ^ ~ x-y');
  });

  test('Should make the checker fail on what is not valid (it can fail)', () => {
    assert.throws(() => checkBibValue('50% off', 'x'), /bare %/);
    assert.throws(() => checkBibValue('a -- b', 'x'), /bare --/);
    assert.throws(() => checkBibValue('T\\^{}2', 'x'), /no known escape/);
    assert.throws(() => checkBibValue('a } b {', 'x'), /closing brace/);
    assert.throws(() => checkBibValue('\\input{x}', 'x'), /no known escape/);
    assert.throws(() => parseBibtex('@misc{k, title = {a}'), /runs to the end|expected|field name/);
  });
});

// ---------------------------------------------------------------- CSV

/** An RFC 4180 reader: rows of fields, CRLF line ends, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  assert.ok(text.endsWith('\r\n'), 'the last row ends with CRLF');
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        assert.ok(i < text.length, 'a quoted field runs to the end');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        assert.ok(text[i] !== '"' && text[i] !== '\n', `a bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
    } else {
      assert.equal(text.slice(i, i + 2), '\r\n', `a field ends with a comma or CRLF at ${i}`);
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

describe('export: CSV', () => {
  test('Should read back field for field: quotes, commas, newlines, CJK; formula cells start with a quote', () => {
    const list = records();
    const rows = parseCsv(exportPapers('csv', list, (uri) => uri.slice('file:///w/'.length)));
    assert.deepEqual(rows[0], [...CSV_COLUMNS]);
    assert.equal(rows.length, list.length + 1);
    const at = (row: string[], column: (typeof CSV_COLUMNS)[number]): string => row[CSV_COLUMNS.indexOf(column)];
    /**
     * What a cell must hold: the value with control characters but line breaks made spaces and
     * bidirectional controls removed, with a `'` before what a spreadsheet would run.
     */
    // eslint-disable-next-line no-control-regex
    const cleaned = (value: string): string => value.replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, ' ').replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
    const defused = (value: string): string => (/^[=+\-@\r]/.test(cleaned(value)) ? `'${cleaned(value)}` : cleaned(value));
    list.forEach((record, i) => {
      const row = rows[i + 1];
      assert.equal(row.length, CSV_COLUMNS.length);
      assert.equal(at(row, 'title'), defused(record.title));
      assert.equal(at(row, 'titleZh'), defused(record.titleZh));
      assert.equal(at(row, 'authors'), defused(record.authors.join('; ')));
      assert.equal(at(row, 'note'), defused(record.note ?? ''));
      assert.equal(at(row, 'tags'), defused(record.tags.join('; ')));
      assert.equal(at(row, 'file'), record.uri.slice('file:///w/'.length));
      assert.equal(at(row, 'line'), String(record.line));
      assert.equal(at(row, 'score'), String(record.score), 'the score is a number, never guarded');
      for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `no cell starts a formula: ${JSON.stringify(cell)}`);
    });
    const hostile = rows[1 + list.findIndex((record) => record.title === HOSTILE)];
    assert.equal(at(hostile, 'title'), `'${HOSTILE.replace('\u202E', '')}`);
    assert.equal(at(hostile, 'note'), 'line 1\nline 2, "quoted"\r\n=2+2 日本語 ' + HOSTILE.replace('\u202E', ''), 'newlines, commas, quotes and CJK survive; the override goes');
    assert.equal(at(hostile, 'tags'), `'=tag; a,b`);
    assert.equal(at(hostile, 'starred'), 'true');
    assert.equal(at(hostile, 'arxivId'), '2605.01234v2');
    assert.equal(at(hostile, 'year'), '2026');
    const formula = rows[1 + list.findIndex((record) => record.title.startsWith('+SUM'))];
    assert.equal(at(formula, 'title'), "'+SUM(A1:A9) Formula Title");
    assert.equal(at(formula, 'authors'), "'@Attacker; -Minus");
    assert.equal(at(formula, 'year'), '', 'no journal ref, no arXiv id: no year');
    const cjk = rows[1 + list.findIndex((record) => record.titleZh === '规模化的数学推理')];
    assert.equal(at(cjk, 'authors'), '张三; 李四');
  });

  test('Should make the reader fail on a bare quote or a missing line end (it can fail)', () => {
    assert.throws(() => parseCsv('a,b"c\r\n'), /bare/);
    assert.throws(() => parseCsv('a,b\n'), /CRLF/);
  });
});

// ---------------------------------------------------------------- CSL-JSON

const CSL_SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'csl-data.subset.schema.json'), 'utf8'));

describe('export: CSL-JSON', () => {
  // strictTypes off: the CSL schema leaves out `type: "object"` beside `properties` in its name variable.
  const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(CSL_SCHEMA);

  test('Should validate against the CSL-JSON schema, with unique ids, no invented dates and the titles as written', () => {
    const list = records();
    const items = JSON.parse(exportPapers('csljson', list)) as Record<string, unknown>[];
    assert.ok(validate(items), JSON.stringify(validate.errors, null, 2));
    assert.equal(items.length, list.length);
    const ids = items.map((item) => item.id);
    assert.equal(new Set(ids).size, ids.length);
    items.forEach((item, i) => {
      assert.equal(item.title, exportLine(list[i].title));
      assert.deepEqual(item.issued, list[i].journalRef ? { 'date-parts': [[2026]] } : undefined, 'the year of the journal ref, else none');
      assert.deepEqual(item.author, list[i].authors.map((name) => ({ literal: exportLine(name) })));
    });
    const hostile = items[list.findIndex((record) => record.title === HOSTILE)];
    assert.equal(hostile.URL, 'https://arxiv.org/abs/2605.01234v2');
    assert.match(String(hostile.note), /^Chinese title: 恶意标题\}\{ \\ 50% "引号", <b>粗<\/b>$/m);
  });

  test('Should make the schema refuse what CSL-JSON does not allow (it can fail)', () => {
    assert.equal(validate([{ id: 'x', type: 'preprint-ish', title: 't' }]), false, 'an unknown type');
    assert.equal(validate([{ type: 'article', title: 't' }]), false, 'no id');
    assert.equal(validate([{ id: 'x', type: 'article', issued: { 'date-parts': [[2026]] } }]), true, 'a year');
    assert.equal(validate([{ id: 'x', type: 'article', issued: { 'date-parts': [[2026, 1, 2, 3]] } }]), false, 'a date of four parts');
    assert.equal(validate([{ id: 'x', type: 'article', issued: { year: 2026 } }]), false, 'a date as CSL does not write one');
    assert.equal(validate([{ id: 'x', type: 'article', accessed: { 'date-parts': [[2026]] } }]), false, 'a date the export never writes');
    assert.equal(validate([{ id: 'x', type: 'article', author: [{ name: 'A' }] }]), false, 'a name with a field CSL does not know');
  });
});

// ---------------------------------------------------------------- RIS and Markdown

describe('export: RIS and Markdown', () => {
  test('Should write RIS records of one-line tagged fields, TY first and ER last', () => {
    const list = records();
    const text = exportPapers('ris', list);
    const blocks = text.split('ER  - \r\n').filter((block) => block.trim() !== '');
    assert.equal(blocks.length, list.length);
    blocks.forEach((block, i) => {
      const lines = block.split('\r\n').filter((line) => line !== '');
      assert.equal(lines[0], 'TY  - GEN');
      for (const line of lines) assert.match(line, /^[A-Z][A-Z0-9]  - [^\r\n]*$/, `one tagged line: ${JSON.stringify(line)}`);
      assert.equal(lines[1], `TI  - ${exportLine(list[i].title)}`);
      assert.deepEqual(lines.filter((line) => line.startsWith('AU  - ')).map((line) => line.slice(6)), list[i].authors.map(exportLine));
      assert.deepEqual(lines.filter((line) => line.startsWith('PY  - ')), list[i].journalRef ? ['PY  - 2026'] : [], 'the year only where the journal ref gives it');
    });
    assert.doesNotMatch(text.replace(/\r\n/g, ''), /[\r\n]/, 'no bare line break inside a value');
  });

  test('Should write no bidirectional override into any export, a negative score as a number, and no address or maths Markdown would make live', () => {
    const list = records();
    const hostile = list.find((record) => record.title === HOSTILE)!;
    // A category code too (`cs.LG、\u202ELC.sc` on the 分类 line).
    const overridden = [...list, { ...hostile, categories: ['cs.LG', '\u202ELC.sc'] }];
    for (const format of ['bibtex', 'ris', 'csv', 'markdown', 'csljson'] as const) {
      assert.doesNotMatch(exportPapers(format, overridden), /[\u202a-\u202e\u2066-\u2069]/, format);
    }
    const low = { ...hostile, score: -6, summary: 'See http://2130706433/steal?token=1 and https://evil.example/x, www.evil.example, a@evil.example and $x^2$.' };
    const rows = parseCsv(exportPapers('csv', [low]));
    assert.equal(rows[1][CSV_COLUMNS.indexOf('score')], '-6');
    const markdown = exportPapers('markdown', [low]);
    assert.doesNotMatch(markdown, /(?<!\\)\$/, 'every $ escaped');
    const html = markdownIt({ html: true, linkify: true }).render(markdown);
    assert.equal((html.match(/<a /g) ?? []).length, 1, html);
    assert.match(html, /<a href="https:\/\/arxiv\.org\/abs\/2605\.01234v2">/);
    assert.match(html, /See http:\/\/2130706433\/steal\?token=1 and https:\/\/evil\.example\/x/, 'the addresses read as text');
    const bib = parseBibtex(exportPapers('bibtex', [{ ...hostile, title: 'Lone { Brace', titleZh: '单个右括号}', comments: 'see {x' }]))[0];
    assert.equal(checkBibValue(bib.fields.get('title')!, 'title'), '{Lone { Brace}'.slice(1, -1));
  });

  test('Should render the Markdown list as text: no HTML, no link from a title, note or name', () => {
    const list = records();
    const html = markdownIt({ html: true, linkify: true }).render(exportPapers('markdown', list));
    assert.doesNotMatch(html, /<script|<b>|<a href="javascript|<em>b<\/em>/i, html);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /恶意标题\}\{ \\ 50% (&quot;|")引号(&quot;|"), &lt;b&gt;粗&lt;\/b&gt;/);
    assert.match(html, /<a href="https:\/\/arxiv\.org\/abs\/2605\.01234v2">/, 'the one link is the paper’s own arXiv page');
    assert.equal((html.match(/<a /g) ?? []).length, 1);
    // The comments are listed too (as text: their addresses are no links).
    assert.ok(list.some((record) => record.comments), 'a record with comments');
    for (const record of list.filter((each) => each.comments)) {
      assert.ok(exportPapers('markdown', [record]).includes('- Comments · 备注: '), record.comments);
    }
    // Every field's label in both languages, the journal reference's too.
    assert.ok(list.some((record) => record.journalRef), 'a record with a journal reference');
    for (const record of list.filter((each) => each.journalRef)) {
      assert.match(exportPapers('markdown', [record]), /^- Journal ref · 期刊引用: /m);
    }
    const labels = exportPapers('markdown', list).match(/^- [^:\n]+:/gm) ?? [];
    assert.deepEqual(labels.filter((label) => !label.includes(' · ') && label !== '- arXiv:'), [], 'a label in one language only');
  });
});

describe('export: category codes', () => {
  test('Should export category codes as arXiv spells them, as the checks and statistics read them', () => {
    const w = testWorkspace({ [FILE]: digest(entryLines('K', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg、ｃｓ．ＣＬ、xx.YY' })) });
    const lookup = w.model.lookup();
    const [record] = [...lookup.papers()].map((paper) => exportRecord(lookup, paper));
    assert.deepEqual(record.categories, ['cs.LG', 'cs.CL', 'xx.YY']);
    assert.match(exportPapers('bibtex', [record]), /keywords = \{cs\.LG, cs\.CL, xx\\_YY\}|keywords = \{cs\.LG, cs\.CL, xx\.YY\}/);
  });
});

describe('export: a paper with a Chinese title only', () => {
  test('Should name it once in every listing, its Chinese title kept as data in titleZh', () => {
    const w = testWorkspace({ [FILE]: digest(entryLines('Z', { englishTitle: null, chineseTitle: '只有中文标题的论文' })) });
    const lookup = w.model.lookup();
    const [record] = [...lookup.papers()].map((paper) => exportRecord(lookup, paper));
    assert.deepEqual([record.title, record.titleZh], ['只有中文标题的论文', '只有中文标题的论文']);
    for (const format of ['bibtex', 'ris', 'markdown', 'csljson'] as const) {
      const text = exportPapers(format, [record]);
      assert.equal(text.split('只有中文标题的论文').length - 1, 1, `${format}: ${text}`);
    }
    const row = parseCsv(exportPapers('csv', [record]))[1];
    assert.deepEqual(row.slice(0, 2), ['只有中文标题的论文', '只有中文标题的论文']);
  });
});

describe('export: what is known only', () => {
  test('Should take an arXiv id from the Comments only when they say it is the paper’s own', () => {
    assert.equal(ownArxivId('This paper is arXiv:2401.01234v2; extends arXiv:2310.00001'), '2401.01234v2');
    assert.equal(ownArxivId('本文 arXiv:2401.01234'), '2401.01234');
    assert.equal(ownArxivId('Extends arXiv:2310.00001'), undefined);
    assert.equal(ownArxivId('This paper builds on prior work. See arXiv:2310.00001'), undefined, 'not across a sentence');
    // Words between the paper and the id that name another paper: the id is not its own.
    for (const other of [
      'This work extends arXiv:2310.00001 to larger models',
      'An extended version of this paper is arXiv:2501.00001',
      'This paper supersedes arXiv:2310.00001',
      'This paper is a follow-up to arXiv:2310.00001',
      'Our work builds on arXiv:2310.00001',
      '本文扩展了 arXiv:2310.00001',
      'This version fixes typos in arXiv:2310.00001',
      'As shown in our paper arXiv:2301.00001, probes work',
      'Supersedes our work arXiv:2310.00001',
      'Companion to this paper: arXiv:2310.00001',
      'Extension to this paper (arXiv:2310.00001)',
      'Our paper arXiv:2301.00001 introduced the method',
    ]) {
      assert.equal(ownArxivId(other), undefined, other);
    }
    for (const [own, id] of [
      ['This paper: arXiv:2401.01234', '2401.01234'],
      ['This paper (arXiv:2401.01234v3) extends arXiv:2310.00001', '2401.01234v3'],
      ['This paper is available as arXiv:2401.01234', '2401.01234'],
      ['this version = arXiv 2401.01234v2', '2401.01234v2'],
      ['本文即 arXiv:2401.01234', '2401.01234'],
      ['本文（arXiv：2401.01234）', '2401.01234'],
      ['Code released. Our paper is arXiv:2401.01234', '2401.01234'],
    ]) {
      assert.equal(ownArxivId(own), id, own);
    }
    // At the end of a sentence, with its version too; not a number that goes on.
    assert.equal(ownArxivId('This paper is arXiv:2405.09673.'), '2405.09673');
    assert.equal(ownArxivId('This paper is arXiv:2405.09673v2. Code at x.'), '2405.09673v2');
    assert.equal(ownArxivId('This paper is arXiv:2405.09673.5'), undefined);
    assert.equal(ownArxivId('This paper is arXiv:2405.096731'), undefined);
  });

  test('Should read a hostile Comments or author line in time linear in its length', { timeout: 60_000 }, () => {
    // Patterns that ran over a long text from every position took 15–35 s on 100,000 spaces.
    const long = 200_000;
    assert.equal(ownArxivId(' '.repeat(long)), undefined);
    assert.equal(ownArxivId('this paper' + ' '.repeat(long)), undefined);
    assert.equal(ownArxivId('this paper '.repeat(long / 11) + 'is arXiv:2401.01234'), undefined, 'only the first places are tried');
    assert.equal(ownArxivId(' '.repeat(long) + 'This paper is arXiv:2401.01234'), '2401.01234');
    assert.deepEqual(namedAuthors(['a' + ' '.repeat(long) + 'b']).more, false);
    assert.deepEqual(namedAuthors([', '.repeat(long / 2)]).more, false);
    const etAl = namedAuthors(['Lin' + ' '.repeat(long) + 'Qiu et al.']);
    assert.deepEqual([etAl.more, etAl.names[0].endsWith('Qiu')], [true, true]);
    assert.deepEqual(namedAuthors(['张三', '李四等', '王五 等人']), { names: ['张三', '李四', '王五'], more: true });
  });

  test('Should give a year only where the journal ref names one, else where the paper’s own arXiv id does', () => {
    assert.equal(paperYear('Proceedings of an Example Conference, 2026, pp. 1-12', undefined), 2026);
    assert.equal(paperYear('JMLR 24(2023):1-30', '2401.01234'), 2023, 'the venue’s year before the id’s');
    assert.equal(paperYear('Nature 620, 2023; 2023 issue', undefined), 2023, 'the same year twice is one');
    assert.equal(paperYear('', '2401.01234v2'), 2024);
    assert.equal(paperYear('', '0704.0001'), 2007, 'the first id of this form');
    assert.equal(paperYear('Workshop 2025, extended in Conference 2026', '2401.01234'), undefined, 'two years: none, not the id’s');
    assert.equal(paperYear('Phys. Rev. D 108, pp. 2001-2010', undefined), undefined, 'pages are no year');
    assert.equal(paperYear('Vol. 12, No. 2019–2020', undefined), undefined, 'nor a range with an en dash');
    assert.equal(paperYear('Proc. ACL 2024, pp. 2001 - 2010', undefined), 2024, 'nor a range spaced out');
    assert.equal(paperYear('Proc. ACL 2024, pp. 1990 –2010', undefined), 2024);
    assert.equal(paperYear('EMNLP Findings - 2024', undefined), 2024, 'a year after a dash is one');
    assert.equal(paperYear('ACL 2024 - Long Papers, pp. 1-9', undefined), 2024);
    assert.equal(paperYear('Ann. Stat. 51.2019', undefined), undefined, 'nor a number after a point');
    assert.equal(paperYear('Report 12019', undefined), undefined, 'nor part of a longer number');
    assert.equal(paperYear('Extended version of arXiv:1906.01234', undefined), undefined, 'nor the start of an arXiv id');
    assert.equal(paperYear('See 2012.01234 and 2020', undefined), 2020, 'an id of 2012 is no year');
    assert.equal(paperYear('LNCS vol. 2019, pp. 2020', undefined), undefined, 'nor a volume or a page');
    assert.equal(paperYear('LNCS vol. 12, 2019', undefined), 2019);
    assert.equal(paperYear('To appear, 2031', undefined, 2027), undefined, 'nor one after next year');
    assert.equal(paperYear('', '0613.01234'), undefined, 'no month 13');
    assert.equal(paperYear('', '0703.01234'), undefined, 'no id of this form before April 2007');
    assert.equal(paperYear('', '4401.01234', 2027), undefined, 'nor an id of a year to come');
    assert.equal(paperYear('', undefined), undefined);
  });

  test('Should take et al. for more authors, not for an author, in every format', () => {
    assert.deepEqual(namedAuthors(['Mei Tanaka', 'Lin Qiu et al.']), { names: ['Mei Tanaka', 'Lin Qiu'], more: true });
    assert.deepEqual(namedAuthors(['Mei Tanaka', 'et al']), { names: ['Mei Tanaka'], more: true });
    assert.deepEqual(namedAuthors(['张三', '李四', '等']), { names: ['张三', '李四'], more: true });
    assert.deepEqual(namedAuthors(['Alice Others', 'Al Etal']), { names: ['Alice Others', 'Al Etal'], more: false });
    const w = testWorkspace({ [FILE]: digest(entryLines('E', { authors: 'Mei Tanaka, Lin Qiu, et al.' })) });
    const lookup = w.model.lookup();
    const [record] = [...lookup.papers()].map((paper) => exportRecord(lookup, paper));
    assert.deepEqual([record.authors, record.moreAuthors], [['Mei Tanaka', 'Lin Qiu'], true]);
    assert.equal(parseBibtex(exportPapers('bibtex', [record]))[0].fields.get('author'), 'Mei Tanaka and Lin Qiu and others');
    assert.deepEqual((JSON.parse(exportPapers('csljson', [record])) as { author: unknown }[])[0].author, [{ literal: 'Mei Tanaka' }, { literal: 'Lin Qiu' }]);
    assert.deepEqual(exportPapers('ris', [record]).match(/^AU {2}- .*$/gm), ['AU  - Mei Tanaka', 'AU  - Lin Qiu']);
    assert.equal(parseCsv(exportPapers('csv', [record]))[1][CSV_COLUMNS.indexOf('authors')], 'Mei Tanaka; Lin Qiu; et al.');
    assert.match(exportPapers('markdown', [record]), /Authors · 作者: Mei Tanaka, Lin Qiu, et al\\\./);
  });

  test('Should write the year of a paper without a journal ref from its own arXiv id in every format', () => {
    const w = testWorkspace({ [FILE]: digest(entryLines('Y', { journalRef: null, comments: 'Comments This paper is arXiv:2401.01234v2' })) });
    const lookup = w.model.lookup();
    const [record] = [...lookup.papers()].map((paper) => exportRecord(lookup, paper));
    assert.equal(record.year, 2024);
    assert.equal(parseBibtex(exportPapers('bibtex', [record]))[0].fields.get('year'), '2024');
    assert.deepEqual((JSON.parse(exportPapers('csljson', [record])) as { issued?: unknown }[])[0].issued, { 'date-parts': [[2024]] });
    assert.match(exportPapers('ris', [record]), /\r\nPY  - 2024\r\n/);
    assert.equal(parseCsv(exportPapers('csv', [record]))[1][CSV_COLUMNS.indexOf('year')], '2024');
  });
});
