/**
 * `paper-digest papers` and `paper-digest mark`, run as the built command line (dist/cli.js)
 * on a temporary folder of digests with a state file and interests.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, test } from 'node:test';
import Ajv from 'ajv';
import { GRAPH_REWRITING, PROTEIN, readingWorkspace, SELF_VERIFYING, SPARSE_PROBES, digestText } from '../support/readingFixtures';
import { digest, entryLines, REPO_ROOT } from '../support/fixtures';
import { run, Run, runAsync } from '../support/builtCli';
import { stateRootOfFolder } from '../../server/src/cliReading';
import { temporaryFolders } from '../support/tempFolders';

const validateState = new Ajv({ strict: true }).compile(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schemas', 'state-file.schema.json'), 'utf8')));

const SPARSE = 'sparse probes for arithmetic circuits in small transformers';
const HOSTILE = 'Evil\u202Egnp.exe </script> "q", =cmd {x}';

function ok(result: Run): string {
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

function json(result: Run): Record<string, unknown>[] {
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** Exit 2 with exactly one line on stderr and nothing on stdout. */
function assertUsage(result: Run, pattern: RegExp): void {
  assert.equal(result.status, 2, `exit 2 expected: ${JSON.stringify(result)}`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^paper-digest: [^\n]+\n$/, `one line: ${JSON.stringify(result.stderr)}`);
  assert.match(result.stderr, pattern);
}

const temp = temporaryFolders();

let work: string;
const stateFile = (): string => path.join(work, '.paper-digest', 'state.json');

beforeEach(() => {
  work = temp.keep(readingWorkspace());
  fs.mkdirSync(path.join(work, '.paper-digest'));
  fs.writeFileSync(
    path.join(work, '.paper-digest', 'interests.json'),
    JSON.stringify({ keywords: [{ term: 'arithmetic', weight: 2 }], institutions: ['Tsinghua University'], categories: [{ term: 'q-bio.BM', weight: -1 }] }),
  );
  fs.writeFileSync(path.join(work, 'notes.digest'), digestText(['杂项', HOSTILE, '恶意标题', 'Ann Other', '专题命中 杂项 ：x(title)；分类 cs.CL', 'AI总结 无。']));
});

describe('paper-digest papers', () => {
  test('Should list each paper once as JSON with its state, score, reasons and place, highest score first', () => {
    const papers = json(run(['papers', '--format', 'json'], work));
    assert.deepEqual(
      papers.map((paper) => [paper.title, paper.score]),
      [
        [SPARSE_PROBES[0], 5],
        [SELF_VERIFYING[0], 1],
        // Score 0: the newest digest first (notes.digest has no date: its mtime, today), then file order.
        [HOSTILE, 0],
        [GRAPH_REWRITING[0], 0],
        [PROTEIN[0], -1],
      ],
    );
    const sparse = papers[0];
    for (const field of ['id', 'title', 'titleZh', 'authors', 'moreAuthors', 'institutions', 'topic', 'hits', 'categories', 'summary', 'arxivId', 'year', 'file', 'line', 'read', 'starred', 'tags', 'note', 'new', 'score', 'reasons']) {
      assert.ok(field in sparse, `field ${field}`);
    }
    assert.equal(sparse.id, SPARSE);
    assert.equal(sparse.year, 2026, 'the year of its journal ref');
    assert.equal(papers.find((paper) => paper.title === GRAPH_REWRITING[0])?.year, null, 'no journal ref, no arXiv id: no year');
    assert.equal(sparse.titleZh, SPARSE_PROBES[1]);
    assert.deepEqual(sparse.authors, ['Mei Tanaka', 'Omar Haddad', 'Lin Qiu']);
    assert.deepEqual(sparse.institutions, [{ name: 'Kyoto University', nameZh: '京都大学' }, { name: 'Tsinghua University', nameZh: '清华大学' }]);
    assert.deepEqual(sparse.categories, ['cs.LG', 'cs.CL']);
    assert.equal(sparse.topic, '数学推理');
    assert.equal(sparse.file, '2026-05-02.digest.txt', 'each paper at its place in the newest digest');
    assert.equal(sparse.line, 3, 'one-based line of the title');
    assert.equal(sparse.new, false, 'a repeat of the day before');
    assert.deepEqual(sparse.reasons, ["keyword 'arithmetic' in the title, counted double (+4) · 标题含关键词", 'institution Tsinghua University (+1) · 机构 清华大学']);
    assert.equal(sparse.read, false);
    assert.deepEqual(sparse.tags, []);
    assert.equal(sparse.note, null);
    assert.equal(papers.find((paper) => paper.title === GRAPH_REWRITING[0])?.new, true);
  });

  test('Should filter by state, tag, text and newness, and sort in file order', () => {
    assert.equal(run(['mark', 'star', '--title', GRAPH_REWRITING[0], '--tag', 'db'], work).status, 0);
    assert.equal(run(['mark', 'read', '--title', 'noisy labels in PROTEIN folding benchmarks'], work).status, 0);
    const titles = (args: string[]): unknown[] => json(run(['papers', '--format', 'json', ...args], work)).map((paper) => paper.title);
    assert.deepEqual(titles(['--starred']), [GRAPH_REWRITING[0]]);
    assert.deepEqual(titles(['--tag', 'db']), [GRAPH_REWRITING[0]]);
    assert.ok(!titles(['--unread']).includes(PROTEIN[0]));
    assert.equal(titles(['--unread']).length, 4);
    assert.deepEqual(titles(['--filter', '多伦多']), [SELF_VERIFYING[0]], 'the filter finds Chinese institution names');
    // Each paper at the digest it was new in: the repeated one at the day before.
    const fresh = json(run(['papers', '--format', 'json', '--new', '--sort', 'file'], work));
    assert.deepEqual(fresh.map((paper) => `${paper.file}:${paper.line}:${paper.new}`), ['2026-05-01.digest:3:true', '2026-05-01.digest:19:true', '2026-05-01.digest:33:true', '2026-05-02.digest.txt:19:true', 'notes.digest:3:true']);
    // New since yesterday: one file named alone is seen among the digests of its state folder,
    // so the paper of the day before is a repeat there; its state is the folder's.
    assert.deepEqual(titles(['--new', '2026-05-02.digest.txt']), [GRAPH_REWRITING[0]]);
    assert.deepEqual(titles(['--starred', '2026-05-02.digest.txt']), [GRAPH_REWRITING[0]]);
    assert.deepEqual(titles(['2026-05-01.digest', '--sort', 'file']), [SPARSE_PROBES[0], SELF_VERIFYING[0], PROTEIN[0]], 'only the papers of the file named');
    const order = json(run(['papers', '--format', 'json', '--sort', 'file'], work)).map((paper) => `${paper.file}:${paper.line}`);
    assert.deepEqual(order, ['2026-05-01.digest:19', '2026-05-01.digest:33', '2026-05-02.digest.txt:3', '2026-05-02.digest.txt:19', 'notes.digest:3']);
  });

  test('Should print one plain line per paper with the state marks, control characters escaped', () => {
    run(['mark', 'star', '--title', SPARSE_PROBES[0], '--tag', 'to-read'], work);
    const result = run(['papers', '--lang', 'en'], work);
    assert.equal(result.status, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 6);
    assert.match(lines[0], /^·★ {6}5 {2}2026-05-02\.digest\.txt:3 {2}Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针 {2}#to-read$/);
    assert.match(lines[3], /^· \+ {5}0 {2}2026-05-02\.digest\.txt:19 {2}Graph Rewriting for Query Planning · 面向查询规划的图重写$/);
    assert.doesNotMatch(result.stdout, /\u202E/);
    assert.match(result.stdout, /Evil\\u202egnp\.exe <\/script> "q", =cmd \{x\}/);
    assert.equal(lines[5], '5 papers (5 unread, 1 starred). ✓ read, ★ starred, + new.');
  });

  test('Should name a paper without either title by its place in the --lang language, and in English in the JSON', () => {
    fs.writeFileSync(path.join(work, 'untitled.digest'), digest(entryLines('U', { englishTitle: null, chineseTitle: null, authors: null })));
    const line = (lang: string): string | undefined => run(['papers', 'untitled.digest', '--lang', lang], work).stdout.split('\n')[0];
    assert.match(line('en')!, /untitled\.digest:\d+ {2}\(untitled paper 1\)$/);
    assert.equal(line('both'), line('en'));
    assert.match(line('zh-cn')!, /untitled\.digest:\d+ {2}（无题论文 1）$/);
    assert.deepEqual(json(run(['papers', 'untitled.digest', '--format', 'json'], work)).map((paper) => paper.title), ['(untitled paper 1)']);
  });

  test('Should word the count line in English for both and en, in Chinese for zh-cn (--lang)', () => {
    run(['mark', 'star', '--title', SPARSE_PROBES[0]], work);
    const last = (args: string[]): string => {
      const result = run(['papers', ...args], work);
      assert.equal(result.status, 0, result.stderr);
      return result.stdout.trimEnd().split('\n').at(-1)!;
    };
    assert.equal(last([]), '5 papers (5 unread, 1 starred). ✓ read, ★ starred, + new.');
    assert.equal(last(['--lang', 'both']), '5 papers (5 unread, 1 starred). ✓ read, ★ starred, + new.');
    assert.equal(last(['--lang=en']), '5 papers (5 unread, 1 starred). ✓ read, ★ starred, + new.');
    assert.equal(last(['--lang', 'zh-cn']), '5 篇论文（5 篇未读，1 篇已加星标）。✓ 已读，★ 已加星标，+ 新论文。');
    // The papers' lines are the digests' text, the same in every language.
    const lines = (lang: string): string[] => run(['papers', '--lang', lang], work).stdout.split('\n').slice(0, 5);
    assert.deepEqual(lines('zh-cn'), lines('en'));
    assertUsage(run(['papers', '--lang', 'fr'], work), /unknown language 'fr': use both, en, zh-cn or auto/);
    assertUsage(run(['papers', '--lang'], work), /--lang needs a value/);
  });

  test('Should export the listed papers in every format', () => {
    run(['mark', 'star', '--title', SPARSE_PROBES[0]], work);
    const bibtex = run(['papers', '--starred', '--format', 'bibtex'], work);
    assert.equal(bibtex.status, 0, bibtex.stderr);
    assert.equal((bibtex.stdout.match(/^@misc\{/gm) ?? []).length, 1);
    assert.match(bibtex.stdout, /title = \{\{Sparse Probes for Arithmetic Circuits in Small Transformers\}\}/);
    const csl = JSON.parse(run(['papers', '--format', 'csljson'], work).stdout);
    assert.equal(csl.length, 5);
    const csv = run(['papers', '--format=csv'], work).stdout;
    assert.equal(csv.split('\r\n').filter(Boolean).length, 6);
    assert.match(csv, /\r\n"Evilgnp\.exe <\/script> ""q"", =cmd \{x\}",/, 'the override removed, the quotes doubled');
    assert.match(run(['papers', '--format', 'ris'], work).stdout, /^TY {2}- GEN\r\n/);
    assert.match(run(['papers', '--format', 'markdown'], work).stdout, /^# Reading list · 阅读清单\n\n5 papers/);
  });

  test('Should report a corrupt state file and still list the papers, with exit 2', () => {
    fs.writeFileSync(stateFile(), '{ "version": 1, "papers": ');
    const result = run(['papers', '--format', 'json'], work);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /state\.json is corrupt: not valid JSON .*left untouched/);
    assert.equal(JSON.parse(result.stdout).length, 5);
  });

  test('Should list the papers with their state from a state file it may not write, exit 0 (papers writes nothing); mark refuses', () => {
    fs.mkdirSync(path.dirname(stateFile()), { recursive: true });
    fs.writeFileSync(stateFile(), JSON.stringify({ version: 1, papers: { [SPARSE]: { starred: true } } }));
    fs.chmodSync(stateFile(), 0o444);
    try {
      const result = run(['papers', '--format', 'json', '--starred'], work);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.equal(json(result).length, 1);
      const mark = run(['mark', 'read', '--title', SPARSE, '--lang', 'en'], work);
      assert.equal(mark.status, 2);
      assert.match(mark.stderr, /state\.json cannot be written: it is read-only/);
    } finally {
      fs.chmodSync(stateFile(), 0o644);
      fs.rmSync(stateFile());
    }
  });

  test('Should escape a file name once in what papers and mark say of it, as check does', () => {
    for (const name of ['a\\b.digest', 'evil\n\u001b[31mFAKE\u202e.digest']) {
      const shown = "'" + name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\u001b/g, '\\x1b').replace(/\u202e/g, '\\u202e') + "'";
      const check = run(['check', '--lang', 'en', name], work);
      assert.ok(check.stderr.includes(`cannot read ${shown}`), check.stderr);
      for (const args of [['papers', '--lang', 'en', name], ['mark', 'read', '--title', 'x', '--lang', 'en', name]]) {
        const result = run(args, work);
        assert.equal(result.status, 2, args.join(' '));
        assert.ok(result.stderr.includes(`cannot read ${shown}`), `${args[0]}: ${result.stderr}`);
        assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      }
    }
  });

  test('Should refuse bad usage with exit 2 and one line', () => {
    assertUsage(run(['papers', '--format', 'yaml'], work), /unknown format 'yaml': use text, json, bibtex, csljson, ris, csv or markdown/);
    assertUsage(run(['papers', '--sort'], work), /--sort needs a value/);
    assertUsage(run(['papers', '--sort', 'date'], work), /unknown sort 'date'/);
    // An empty tag names none, as for `mark --tag`.
    assertUsage(run(['papers', '--tag', ''], work), /--tag needs a tag/);
    assertUsage(run(['papers', '--tag=  '], work), /--tag needs a tag/);
    // A filter no paper can pass says why instead of listing none.
    assertUsage(run(['papers', '--lang', 'en', '--filter', 'topic:x week:2026-W99'], work), /^paper-digest: --filter: 'week:2026-W99' is not an ISO week from 1900 to 2999: write week:YYYY-Www, W01 to W52 \(W53 in the years that have one\), e\.g\. week:2026-W18/);
    assertUsage(run(['papers', '--lang', 'zh-cn', '--filter=month:2026-13'], work), /^paper-digest: --filter：“month:2026-13”不是 1900 至 2999 年间的月份：请写成 month:YYYY-MM，如 month:2026-05/);
    assertUsage(run(['papers', '--lang', 'en', '--filter', 'date:2026-02-30'], work), /is not a day from 1900-01-01 to 2999-12-31: write date:YYYY-MM-DD, e\.g\. date:2026-05-01/);
    assertUsage(run(['papers', '--lang', 'en', '--filter', Array.from({ length: 33 }, (_, i) => `topic:t${i}`).join(' ')], work), /--filter has more than 32 field:value terms/);
    // Weeks, months and days that exist are filters like any other (`2026-w53`: 2026 has 53 weeks).
    for (const filter of ['week:2026-w53', 'month:2026-12', 'date:2026-02-28', 'date:', 'week:']) {
      assert.equal(run(['papers', '--filter', filter], work).status, 0, filter);
    }
    assertUsage(run(['papers', '--bogus\u001b[31m'], work), /unknown option '--bogus\\x1b\[31m' for papers/);
    assertUsage(run(['mark', 'read', '--title', 'protein', '--id', 'x', '--lang', 'en'], work), /^paper-digest: mark takes --title or --id, not both/);
    assertUsage(run(['mark', 'read', '--lang', 'en'], work), /^paper-digest: mark needs one of --title TITLE or --id ID/);
    assert.match(run(['papers', '--help'], work).stdout, /^Usage: paper-digest papers/);
    assert.match(run(['--help'], work).stdout, /paper-digest papers \[PATH\.\.\.\]/);
    // An option without its value does not take the next option for it: --lang still counts.
    assertUsage(run(['papers', '--tag', '--lang', 'zh-cn'], work), /^paper-digest: --tag 需要一个值/);
    assertUsage(run(['papers', '--filter', '--format=json', '--lang', 'en'], work), /^paper-digest: --filter needs a value/);
    assertUsage(run(['mark', 'tag', '--title', 'protein', '--tag', '--lang', 'zh-cn'], work), /^paper-digest: --tag 需要一个值/);
    assertUsage(run(['stats', '--format', '--lang', 'zh-cn'], work), /^paper-digest: --format 需要一个值/);
    assertUsage(run(['check', '--format', '--lang', 'zh-cn', '.'], work), /^paper-digest: --format 需要一个值/);
    // A value that starts so is written with `=`; another command's option is a value.
    assert.equal(run(['papers', '--filter=--lang', '--format', 'json'], work).status, 0);
    assert.equal(run(['papers', '--filter', '--id', '--format', 'json'], work).status, 0);
  });
});

describe('paper-digest mark', () => {
  test('Should star a paper by its title, ignoring case and spaces, writing a state file that validates', () => {
    const result = run(['mark', 'star', '--lang', 'en', '--title', '  sparse   PROBES for arithmetic circuits in small transformers', '--tag', 'circuits', '--note', 'Try on our model'], work);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'Starred, tagged #circuits, note set: Sparse Probes for Arithmetic Circuits in Small Transformers\n');
    const state = JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as { papers: Record<string, Record<string, unknown>> };
    assert.ok(validateState(state), JSON.stringify(validateState.errors));
    assert.deepEqual({ ...state.papers[SPARSE], updated: undefined }, { title: SPARSE_PROBES[0], starred: true, tags: ['circuits'], note: 'Try on our model', updated: undefined });
    // Both places of the paper show it.
    const listed = json(run(['papers', '--format', 'json', '--starred'], work));
    assert.deepEqual(listed.map((paper) => paper.id), [SPARSE]);
    // Again: nothing to change.
    assert.equal(run(['mark', 'star', '--title', SPARSE_PROBES[0], '--lang', 'en'], work).stdout, `Unchanged (already so): ${SPARSE_PROBES[0]}\n`);
    // Unstar, untag, remove the note: the paper has no state left and leaves the file.
    assert.equal(run(['mark', 'unstar', '--id', SPARSE, '--untag', 'circuits', '--note', ''], work).status, 0);
    assert.deepEqual(JSON.parse(fs.readFileSync(stateFile(), 'utf8')).papers, {});
  });

  test('Should take the folder as a file: URL, as check, papers and stats do, its state file that folder\'s', () => {
    const url = pathToFileURL(work).href;
    const elsewhere = temp.make('paper-digest-cwd-');
    const result = run(['mark', 'star', '--lang', 'en', '--title', SPARSE_PROBES[0], url], elsewhere);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(stateFile(), 'utf8')).papers[SPARSE]?.starred, true);
    assert.deepEqual(json(run(['papers', '--format', 'json', '--starred', url], elsewhere)).map((paper) => paper.id), [SPARSE]);
    assertUsage(run(['mark', 'star', '--lang', 'en', '--title', SPARSE_PROBES[0], 'file://elsewhere/x'], elsewhere), /cannot read 'file:\/\/elsewhere\/x': it is not a file URL of this machine/);
  });

  test('Should give the papers of a folder inside another folder given the outer one\'s state, in whatever order they are given', () => {
    fs.mkdirSync(path.join(work, 'sub'));
    fs.writeFileSync(path.join(work, 'sub', '2026-05-03.digest'), digestText(['大模型推理能力', ...SPARSE_PROBES]));
    assert.equal(run(['mark', 'star', '--title', SPARSE_PROBES[0]], work).status, 0);
    const listed = (args: string[]): string => ok(run(['papers', '--format', 'json', ...args], work));
    const inOrder = listed(['.', 'sub']);
    assert.equal(listed(['sub', '.']), inOrder);
    const papers = JSON.parse(inOrder) as { id: string; starred: boolean; file: string }[];
    assert.equal(papers.find((paper) => paper.id === SPARSE)?.starred, true);
    assert.equal(papers.find((paper) => paper.id === SPARSE)?.file, 'sub/2026-05-03.digest', 'at its place in the newest digest');
    assert.deepEqual(JSON.parse(listed(['--starred', 'sub', '.'])).map((paper: { id: string }) => paper.id), [SPARSE]);
    // A file named by itself beside a folder given that holds it takes that folder's state too,
    // not the state file of its own folder (which marking the folder alone made).
    fs.mkdirSync(path.join(work, 'other', '.paper-digest'), { recursive: true });
    fs.writeFileSync(path.join(work, 'other', '2026-05-04.digest'), digestText(['大模型推理能力', ...PROTEIN]));
    assert.equal(run(['mark', 'star', '--title', PROTEIN[0], 'other'], work).status, 0);
    assert.ok(fs.existsSync(path.join(work, 'other', '.paper-digest', 'state.json')));
    assert.equal(listed(['other/2026-05-04.digest', '.']), listed(['.', 'other/2026-05-04.digest']));
    assert.deepEqual(JSON.parse(listed(['--starred', 'other/2026-05-04.digest', '.'])).map((paper: { id: string }) => paper.id), [SPARSE]);
  });

  test('Should mark in a subfolder of a workspace the workspace\u2019s state file, which the editor and the workspace\u2019s listing show', () => {
    fs.mkdirSync(path.join(work, 'sub'));
    fs.writeFileSync(path.join(work, 'sub', '2026-05-03.digest'), digestText(['大模型推理能力', ...PROTEIN]));
    assert.equal(run(['mark', 'star', '--title', SPARSE_PROBES[0]], work).status, 0);
    // Run in the subfolder, with no PATH and with it given: no second state file is started.
    assert.equal(run(['mark', 'star', '--title', PROTEIN[0]], path.join(work, 'sub')).status, 0);
    assert.equal(run(['mark', 'tag', '--tag', 'later', '--title', PROTEIN[0], 'sub'], work).status, 0);
    assert.equal(fs.existsSync(path.join(work, 'sub', '.paper-digest')), false);
    const starred = (args: string[], cwd: string): string[] => json(run(['papers', '--format', 'json', '--starred', ...args], cwd)).map((paper) => String(paper.id)).sort();
    assert.deepEqual(starred([], work), [SPARSE, PROTEIN[0].toLowerCase()].sort());
    assert.deepEqual(starred([], path.join(work, 'sub')), [PROTEIN[0].toLowerCase()]);
    assert.deepEqual(JSON.parse(fs.readFileSync(stateFile(), 'utf8')).papers[PROTEIN[0].toLowerCase()]?.tags, ['later']);
  });

  test('Should not take a .paper-digest folder above that another user owns, as git refuses their repository', () => {
    fs.mkdirSync(path.join(work, 'sub', 'deeper'), { recursive: true });
    const me = fs.statSync(work).uid;
    // The workspace's own `.paper-digest` (made by a mark) is the user's: taken from below.
    assert.equal(run(['mark', 'star', '--title', SPARSE_PROBES[0]], work).status, 0);
    assert.equal(stateRootOfFolder(path.join(work, 'sub', 'deeper'), me), work);
    // Owned by another user: the search ends with the folder itself; the folder given is taken as it is.
    assert.equal(stateRootOfFolder(path.join(work, 'sub', 'deeper'), me + 1), path.join(work, 'sub', 'deeper'));
    assert.equal(stateRootOfFolder(work, me + 1), work);
    // Where there are no users (Windows): the nearest one.
    assert.equal(stateRootOfFolder(path.join(work, 'sub'), undefined), work);
    if (process.getuid?.() !== 0) {
      return;
    }
    // As root (CI): the workspace's `.paper-digest` handed to another user; a mark in a subfolder
    // starts the subfolder's own state file and leaves the other user's untouched.
    const before = fs.readFileSync(stateFile(), 'utf8');
    fs.chownSync(path.join(work, '.paper-digest'), 65534, 65534);
    fs.writeFileSync(path.join(work, 'sub', '2026-05-03.digest'), digestText(['大模型推理能力', ...PROTEIN]));
    const marked = run(['mark', 'star', '--note', 'private', '--title', PROTEIN[0]], path.join(work, 'sub'));
    assert.equal(marked.status, 0, marked.stderr);
    assert.equal(fs.readFileSync(stateFile(), 'utf8'), before);
    assert.equal(JSON.parse(fs.readFileSync(path.join(work, 'sub', '.paper-digest', 'state.json'), 'utf8')).papers[PROTEIN[0].toLowerCase()]?.note, 'private');
  });

  test('Should say a refusal of the state file as its other problems, in English for both, and one of what was asked in both languages', () => {
    // A folder where the lock should be: the state file refuses every change at once.
    fs.mkdirSync(`${stateFile()}.lock`, { recursive: true });
    const refused = run(['mark', 'star', '--lang', 'both', '--title', SPARSE_PROBES[0]], work);
    assertUsage(refused, /could not be written: .*nothing was changed\n$/);
    assert.doesNotMatch(refused.stderr, /[\u4e00-\u9fff]/, 'English alone, as the corrupt file is said');
    assertUsage(run(['mark', 'star', '--lang', 'zh-cn', '--title', SPARSE_PROBES[0]], work), /无法写入/);
    fs.rmSync(`${stateFile()}.lock`, { recursive: true });
    assertUsage(run(['mark', 'tag', '--lang', 'both', '--title', SPARSE_PROBES[0], '--tag', 'x'.repeat(65)], work), /longer than 64 characters; nothing was changed — .*超过 64 个字符/);
  });

  test('Should say what it changed, or why it cannot, in English for both and en, in Chinese for zh-cn (--lang)', () => {
    const star = run(['mark', 'star', '--lang', 'zh-cn', '--title', SPARSE_PROBES[0], '--tag', 'circuits', '--note', 'x'], work);
    assert.equal(star.status, 0, star.stderr);
    assert.equal(star.stdout, `已加星标，已加标签 #circuits，已设置笔记：${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'star', '--lang', 'zh-cn', '--title', SPARSE_PROBES[0]], work).stdout, `未更改（已是此状态）：${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'star', '--lang', 'both', '--title', SPARSE_PROBES[0]], work).stdout, `Unchanged (already so): ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'unstar', '--lang', 'en', '--title', SPARSE_PROBES[0], '--untag', 'circuits', '--note', ''], work).stdout, `Unstarred, untagged #circuits, note removed: ${SPARSE_PROBES[0]}\n`);
    // Only what changed: a tag the paper does not have is not said to be removed, nor one it has added.
    assert.equal(run(['mark', 'tag', '--lang', 'en', '--title', SPARSE_PROBES[0], '--tag', 'kept', '--untag', 'never-had'], work).stdout, `Tagged #kept: ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'tag', '--lang', 'en', '--title', SPARSE_PROBES[0], '--tag', 'kept', '--tag', 'new', '--untag', 'never-had'], work).stdout, `Tagged #new: ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'tag', '--lang', 'en', '--title', SPARSE_PROBES[0], '--untag', 'never-had'], work).stdout, `Unchanged (already so): ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'star', '--lang', 'en', '--title', SPARSE_PROBES[0], '--untag', 'kept', '--untag', 'new'], work).stdout, `Starred, untagged #kept #new: ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'star', '--lang', 'en', '--title', SPARSE_PROBES[0], '--tag', 'again'], work).stdout, `Tagged #again: ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'unstar', '--lang', 'en', '--title', SPARSE_PROBES[0], '--untag', 'again'], work).stdout, `Unstarred, untagged #again: ${SPARSE_PROBES[0]}\n`);
    assert.equal(run(['mark', 'read', '--lang=zh-cn', '--id', SPARSE], work).stdout, `已标记为已读：${SPARSE_PROBES[0]}\n`);
    assertUsage(run(['mark', 'read', '--lang', 'zh-cn', '--title', 'no such paper'], work), /^paper-digest: 没有标题是或包含“no such paper”的论文\n$/);
    assertUsage(run(['mark', 'read', '--lang', 'zh-cn', '--title', 'for'], work), /^paper-digest: 3 篇论文与“for”相符：'Sparse Probes[^']*'、'Self-Verifying[^']*'、'Graph Rewriting[^']*'；请写出更多标题，或用 --id\n$/);
    assertUsage(run(['mark', 'read', '--lang', 'zh-cn', '--id', 'nope'], work), /没有 id 为“nope”的论文/);
    assertUsage(run(['mark', 'read', '--lang', 'en', '--id', 'nope'], work), /no paper has the id 'nope'/);
    assertUsage(run(['mark', 'read', '--lang', 'xx', '--id', 'nope'], work), /unknown language 'xx': use both, en, zh-cn or auto/);
  });

  test('Should name a paper with a Chinese title only by that title, never by its state key', () => {
    fs.writeFileSync(path.join(work, 'zh.digest'), digestText(['杂项', '一种仅有中文标题的论文', 'Ann Other', '专题命中 杂项 ：x(title)；分类 cs.CL', 'AI总结 无。']));
    const result = run(['mark', 'star', '--lang', 'en', '--title', '一种仅有中文标题的论文'], work);
    assert.equal(result.stdout, 'Starred: 一种仅有中文标题的论文\n', result.stderr);
    assert.equal(run(['mark', 'read', '--lang', 'en', '--id', 'zh:一种仅有中文标题的论文'], work).stdout, 'Marked read: 一种仅有中文标题的论文\n');
  });

  test('Should find a paper by its Chinese title or by a unique part of a title, and by id', () => {
    assert.equal(run(['mark', 'read', '--title', '面向奥赛几何的自验证思维链'], work).status, 0);
    assert.equal(run(['mark', 'read', '--title', 'protein folding'], work).status, 0);
    assert.equal(run(['mark', 'tag', '--id', 'graph rewriting for query planning', '--tag', 'db', '--tag', 'later'], work).status, 0);
    const papers = JSON.parse(fs.readFileSync(stateFile(), 'utf8')).papers;
    assert.equal(papers['self-verifying chains of thought for olympiad geometry'].read, true);
    assert.equal(papers['noisy labels in protein folding benchmarks'].read, true);
    assert.deepEqual(papers['graph rewriting for query planning'].tags, ['db', 'later']);
    assert.equal(papers['graph rewriting for query planning'].read, undefined, 'tag changes only the tags');
  });

  test('Should refuse, with exit 2 and one line, no match, several matches and bad usage, writing nothing', () => {
    const before = fs.existsSync(stateFile());
    assertUsage(run(['mark', 'read', '--title', 'no such paper'], work), /no paper's title is or contains 'no such paper'/);
    assertUsage(run(['mark', 'read', '--title', 'for', '--lang', 'en'], work), /^paper-digest: 3 papers match 'for': 'Sparse Probes[^']*', 'Self-Verifying[^']*', 'Graph Rewriting[^']*'; give more of the title, or --id\n$/);
    assertUsage(run(['mark', 'read', '--id', 'nope'], work), /no paper has the id 'nope'/);
    // A title or id of 100,000 characters is cut in the message (it was repeated whole, in both languages).
    const long = run(['mark', 'read', '--title', 't'.repeat(100_000)], work);
    assertUsage(long, new RegExp(`no paper's title is or contains '${'t'.repeat(119)}…' — 没有标题是或包含“${'t'.repeat(119)}…”的论文`));
    assert.ok(long.stderr.length < 1_000, `${long.stderr.length} characters`);
    assertUsage(run(['mark', 'read', '--id', '9'.repeat(10_000)], work), new RegExp(`no paper has the id '${'9'.repeat(119)}…'`));
    assertUsage(run(['mark', 'read'], work), /mark needs one of --title TITLE or --id ID/);
    assertUsage(run(['mark', 'read', '--title', 'a', '--id', 'b'], work), /mark takes --title or --id, not both/);
    assertUsage(run(['mark', 'burn', '--title', 'a'], work), /unknown change 'burn': use read, unread, star, unstar or tag/);
    assertUsage(run(['mark', 'tag', '--title', 'protein'], work), /mark tag needs --tag, --untag or --note/);
    assertUsage(run(['mark', 'read', '--title'], work), /--title needs a value/);
    assertUsage(run(['mark', 'read', '--title', 'protein', 'a', 'b'], work), /mark takes one folder/);
    assertUsage(run(['mark', 'read', '--title', 'protein', '2026-05-01.digest'], work), /'2026-05-01\.digest' is not a folder/);
    assertUsage(run(['mark'], work), /mark needs a change/);
    // The folder's own problems, not "no paper matches".
    assertUsage(run(['mark', 'read', '--title', 'protein', ''], work), /cannot read '': an empty path names no file/);
    assertUsage(run(['mark', 'read', '--title', 'protein', 'nowhere'], work), /cannot read 'nowhere': no such file or folder/);
    fs.mkdirSync(path.join(work, 'empty'));
    assertUsage(run(['mark', 'read', '--title', 'protein', 'empty'], work), /no digest files in 'empty'/);
    assert.equal(fs.existsSync(stateFile()), before, 'nothing written');
    // No digest read: papers says why and lists nothing (no "0 papers" line), in every format.
    for (const format of ['text', 'json', 'csv']) {
      assertUsage(run(['papers', '--format', format, 'empty'], work), /no digest files in 'empty'/);
      assertUsage(run(['papers', '--format', format, 'nowhere'], work), /cannot read 'nowhere'/);
    }
  });

  test('Should leave a corrupt or newer state file untouched and exit 2', () => {
    for (const text of ['{ "version": 1, "papers": ', '{ "version": 2, "papers": {} }']) {
      fs.writeFileSync(stateFile(), text);
      const result = run(['mark', 'read', '--title', 'protein'], work);
      assertUsage(result, /state\.json (is corrupt|cannot be used).*left untouched/);
      assert.equal(fs.readFileSync(stateFile(), 'utf8'), text);
    }
  });

  test('Should list the papers hideBelow hides too, in both orders and every format (it hides them from For you and triage only)', () => {
    fs.writeFileSync(path.join(work, '.paper-digest', 'interests.json'), JSON.stringify({ keywords: [{ term: 'arithmetic', weight: 2 }], categories: [{ term: 'q-bio.BM', weight: -1 }], hideBelow: 0 }));
    ok(run(['mark', 'star', '--title', PROTEIN[0]], work));
    for (const sort of ['rank', 'file']) {
      const starred = json(run(['papers', '--starred', '--sort', sort, '--format', 'json'], work));
      assert.deepEqual(starred.map((paper) => [paper.title, paper.score]), [[PROTEIN[0], -1]], sort);
      const all = json(run(['papers', '--sort', sort, '--format', 'json'], work));
      assert.equal(all.length, 5, sort);
      const bibtex = ok(run(['papers', '--starred', '--sort', sort, '--format', 'bibtex'], work));
      assert.match(bibtex, /Noisy Labels/, sort);
    }
  });

  test('Should count in its summary line what --unread and --starred list when a paper is in folders of two state files', () => {
    const root = temp.make('paper-digest-two-folders-');
    const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];
    const papers = (): string => digest(entryLines('1', { englishTitle: 'Sparse Probes Revisited' }), entryLines('2', { englishTitle: 'Chain of Thought at Scale' }));
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    fs.writeFileSync(path.join(a, '2026-11-16.digest'), papers());
    fs.writeFileSync(path.join(b, '2026-12-01.digest'), papers());
    // Starred in the older folder; read in the older folder, unread in the newer.
    ok(run(['mark', 'star', '--title', 'Sparse Probes Revisited', '--tag', 'x', a], root));
    ok(run(['mark', 'tag', '--title', 'Sparse Probes Revisited', '--tag', 'y', b], root));
    ok(run(['mark', 'read', '--title', 'Chain of Thought at Scale', a], root));
    const listed = (args: string[]): Record<string, unknown>[] => json(run(['papers', '--format', 'json', ...args, a, b], root));
    const all = listed([]);
    assert.deepEqual(all.map((paper) => [paper.title, paper.read, paper.starred]).sort(), [
      ['Chain of Thought at Scale', false, false],
      ['Sparse Probes Revisited', false, true],
    ]);
    assert.deepEqual(all.find((paper) => paper.title === 'Sparse Probes Revisited')?.tags, ['x', 'y']);
    assert.equal(listed(['--unread']).length, 2);
    assert.deepEqual(listed(['--starred']).map((paper) => paper.title), ['Sparse Probes Revisited']);
    // Filters together take the same state (a star in one folder, a tag in the other).
    for (const filters of [['--unread', '--starred'], ['--starred', '--tag', 'y'], ['--unread', '--tag', 'x']]) {
      assert.deepEqual(listed(filters).map((paper) => paper.title), ['Sparse Probes Revisited'], filters.join(' '));
    }
    const summary = ok(run(['papers', '--lang', 'en', a, b], root)).trim().split('\n').at(-1);
    assert.match(summary ?? '', /^2 papers \(2 unread, 1 starred\)/);
  });

  test('Should give each paper the same cite key in BibTeX and CSL-JSON whatever the order (rank or file)', () => {
    const folder = temp.make('paper-digest-keys-');
    // Three papers of one first author and first word; the interests rank the last first.
    fs.writeFileSync(
      path.join(folder, '2026-05-01.digest'),
      digest(
        entryLines('1', { englishTitle: 'Sparse Probes Revisited', authors: 'Mei Tanaka, Lin Qiu' }),
        entryLines('2', { englishTitle: 'Sparse Coding of Circuits', authors: 'Mei Tanaka' }),
        entryLines('3', { englishTitle: 'Sparse Autoencoders at Scale', authors: 'Mei Tanaka, et al.' }),
      ),
    );
    fs.mkdirSync(path.join(folder, '.paper-digest'));
    fs.writeFileSync(path.join(folder, '.paper-digest', 'interests.json'), JSON.stringify({ keywords: ['autoencoders'] }));
    const keys = (sort: string, format: string): Map<string, string> => {
      const text = ok(run(['papers', '--sort', sort, '--format', format, folder], folder));
      const pairs = format === 'bibtex' ? [...text.matchAll(/@misc\{(\w+),\n {2}title = \{\{([^}]*)\}\}/g)].map((m) => [m[2], m[1]] as [string, string]) : (JSON.parse(text) as { id: string; title: string }[]).map((item) => [item.title, item.id] as [string, string]);
      assert.equal(pairs.length, 3, `${sort} ${format}: ${text.slice(0, 300)}`);
      return new Map(pairs);
    };
    const byFile = keys('file', 'bibtex');
    assert.equal(new Set(byFile.values()).size, 3);
    assert.deepEqual(keys('rank', 'bibtex'), byFile);
    assert.deepEqual(keys('rank', 'csljson'), byFile);
    assert.deepEqual(keys('file', 'csljson'), byFile);
    // `et al.` is no author: BibTeX says `and others`, the JSON `moreAuthors`.
    assert.match(ok(run(['papers', '--format', 'bibtex', '--filter', 'autoencoders', folder], folder)), /author = \{Mei Tanaka and others\}/);
    assert.deepEqual(
      json(run(['papers', '--format', 'json', '--filter', 'autoencoders', folder], folder)).map((paper) => [paper.authors, paper.moreAuthors]),
      [[['Mei Tanaka'], true]],
    );
  });

  test('Should say why an interests.json cannot be used (a link, a folder, a FIFO, over 1 MB, not UTF-8), exit 2, and read one with a byte order mark', () => {
    const interests = path.join(work, '.paper-digest', 'interests.json');
    const outside = path.join(temp.make('paper-digest-outside-'), 'interests.json');
    fs.renameSync(interests, outside);
    const cases: [string, () => void, RegExp][] = [
      ['a link', () => fs.symlinkSync(outside, interests), /interests\.json cannot be read \(.*symbolic link.*\); papers are not ranked by it/],
      ['a folder', () => fs.mkdirSync(interests), /interests\.json cannot be read \(.*folder.*\)/],
      ['a FIFO', () => execFileSync('mkfifo', [interests]), /interests\.json cannot be read \(.*FIFO.*\)/],
      ['over 1 MB', () => fs.writeFileSync(interests, JSON.stringify({ keywords: ['x'.repeat(1_100_000)] })), /interests\.json cannot be read \(.*MB/],
      ['not UTF-8', () => fs.writeFileSync(interests, Buffer.from([0x7b, 0xff, 0x7d])), /interests\.json cannot be read \(it is not UTF-8 text\)/],
    ];
    for (const [what, make, pattern] of cases) {
      make();
      const result = run(['papers'], work);
      assert.equal(result.status, 2, `${what}: ${result.stderr}`);
      assert.match(result.stderr, pattern, what);
      assert.doesNotMatch(result.stderr, /\n\s+at /, `${what}: no stack trace`);
      fs.rmSync(interests, { recursive: true, force: true });
    }
    fs.writeFileSync(interests, '\uFEFF' + JSON.stringify({ keywords: [{ term: 'arithmetic', weight: 2 }] }));
    const ranked = json(run(['papers', '--format', 'json'], work));
    assert.deepEqual(ranked[0].title, SPARSE_PROBES[0]);
    assert.equal(ranked[0].score, 4);
  });

  test('Should never write through a state folder that links out of the folder', () => {
    const outside = temp.make('paper-digest-outside-');
    fs.renameSync(path.join(work, '.paper-digest', 'interests.json'), path.join(outside, 'interests.json'));
    fs.rmSync(path.join(work, '.paper-digest'), { recursive: true });
    fs.symlinkSync(outside, path.join(work, '.paper-digest'));
    const result = run(['mark', 'star', '--title', 'protein'], work);
    assertUsage(result, /symbolic link/);
    assert.deepEqual(fs.readdirSync(outside), ['interests.json']);
  });

  test('Should refuse a tag or a note past the limits, and more tags than a paper may have, with exit 2, changing nothing', () => {
    ok(run(['mark', 'tag', '--title', 'protein', '--tag', 'kept'], work));
    const before = fs.readFileSync(stateFile(), 'utf8');
    assertUsage(run(['mark', 'tag', '--title', 'protein', '--tag', 't'.repeat(100) + 'X', '--lang', 'en'], work), /the tag 't+…' is longer than 64 characters; nothing was changed/);
    assertUsage(run(['mark', 'tag', '--title', 'protein', '--note', 'n'.repeat(5000) + 'END', '--lang', 'en'], work), /the note is longer than 4000 characters \(5003\); nothing was changed/);
    const many = Array.from({ length: 70 }, (_, i) => ['--tag', `tag${i}`]).flat();
    assertUsage(run(['mark', 'tag', '--title', 'protein', ...many, '--lang', 'zh-cn'], work), /一篇论文的标签将超过 64 个；未做任何更改/);
    // In both languages under both, as usage errors are.
    assertUsage(run(['mark', 'tag', '--title', 'protein', '--tag', 'x', '--untag', 'x'], work), /both added and removed; nothing was changed — .*未做任何更改/);
    assert.equal(fs.readFileSync(stateFile(), 'utf8'), before);
  });

  test('Should leave a state file that is not UTF-8 byte for byte and exit 2', () => {
    const bytes = Buffer.concat([Buffer.from('{"version":1,"papers":{"other":{"note":"caf'), Buffer.from([0xe9]), Buffer.from('"}}}')]);
    fs.writeFileSync(stateFile(), bytes);
    assertUsage(run(['mark', 'star', '--title', 'protein', '--lang', 'en'], work), /state\.json cannot be read \(it is not UTF-8 text\); reading state is read-only/);
    assert.ok(fs.readFileSync(stateFile()).equals(bytes));
  });

  test('Should keep every change when several mark commands run at once (merged, none lost)', async () => {
    const titles = [SPARSE_PROBES[0], SELF_VERIFYING[0], PROTEIN[0], GRAPH_REWRITING[0]];
    const results = await Promise.all(titles.map((title, i) => runAsync(['mark', i % 2 === 0 ? 'star' : 'read', '--title', title, '--tag', `t${i}`], work)));
    for (const result of results) assert.equal(result.status, 0, result.stderr);
    const papers = JSON.parse(fs.readFileSync(stateFile(), 'utf8')).papers;
    assert.deepEqual(Object.keys(papers).length, 4, JSON.stringify(papers));
    titles.forEach((title, i) => {
      const paper = Object.values(papers).find((each) => (each as { title?: string }).title === title) as Record<string, unknown>;
      assert.ok(paper, `${title} kept`);
      assert.equal(paper[i % 2 === 0 ? 'starred' : 'read'], true);
      assert.deepEqual(paper.tags, [`t${i}`]);
    });
  });
});
