/**
 * `paperDigest/statistics` and `paperDigest/rollup` over stdio, as any client other than VS
 * Code's dashboard asks them: the numbers as data (of the workspace or of one digest, following
 * unsaved edits), and a week's papers as a digest file or Markdown.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { digest, entryLines } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type { DigestStatistics, RollupResult } from '../../server/src/protocol';

/** markdown-it (a devDependency), with raw HTML on, as a client might render the Markdown. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const markdownIt = require('markdown-it') as (options: object) => { render(text: string): string };

const HOSTILE = 'Evil </svg><script>alert(1)</script> "q" \u202Etxt';

describe('lsp: paperDigest/statistics and paperDigest/rollup', () => {
  let root: string;
  let client: LspClient;
  const uriOf = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const statistics = (params: unknown): Promise<DigestStatistics> => client.request('paperDigest/statistics', params);

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-lsp-stats-'));
    fs.writeFileSync(path.join(root, '2026-04-28.digest'), digest(entryLines('A'), entryLines('B', { topicHits: '专题命中 代码生成 ：code(abstract)；分类 cs.SE' })));
    fs.writeFileSync(path.join(root, '2026-05-01.digest'), digest(entryLines('A'), entryLines('C', { englishTitle: HOSTILE })));
    fs.writeFileSync(path.join(root, 'notes.digest'), digest(entryLines('D')));
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should answer the statistics of the workspace as data, each paper once, with the filters of the Papers view', async () => {
    const stats = await statistics({});
    assert.equal(stats.uri, undefined);
    assert.deepEqual([stats.fileCount, stats.entryCount, stats.paperCount, stats.undatedFiles], [3, 5, 4, 1]);
    assert.deepEqual(stats.topics.map((row) => [row.label, row.count, row.filter]), [['数学推理', 3, 'topic:数学推理'], ['代码生成', 1, 'topic:代码生成']]);
    assert.deepEqual(stats.dates.map((point) => [point.date, point.count, point.filter]), [['2026-04-28', 2, 'date:2026-04-28'], ['2026-05-01', 2, 'date:2026-05-01']]);
    assert.deepEqual(stats.weeks.map((week) => [week.period, week.count]), [['2026-W18', 3]]);
    assert.equal(stats.categories.find((row) => row.label === 'cs.SE')?.detail, 'Software Engineering · 软件工程');
    // Dates three days apart: no trends (nothing before the last 7 days to compare with).
    assert.deepEqual(stats.trends, []);
    // The server sends document text as it is: drawing it safely is the client's part.
    const tree = await client.request<{ distinctPaperCount: number }>('paperDigest/papersTree', { grouping: 'topic', filter: stats.topics[0].filter });
    assert.equal(tree.distinctPaperCount, stats.topics[0].count);
    // Bad parameters are the workspace's statistics.
    assert.equal((await statistics({ uri: 42 })).paperCount, 4);
    assert.equal((await statistics(null)).paperCount, 4);
  });

  test('Should answer the statistics of one digest, and follow its unsaved edits', async () => {
    const uri = uriOf('2026-05-01.digest');
    const one = await statistics({ uri });
    assert.deepEqual([one.uri, one.fileCount, one.paperCount], [uri, 1, 2]);
    client.openDocument(uri, digest(entryLines('A'), entryLines('C', { englishTitle: HOSTILE }), entryLines('E', { topicHits: '专题命中 格推理 ：lattice(title)；分类 cs.LO' })));
    const edited = await statistics({ uri });
    assert.equal(edited.paperCount, 3);
    assert.deepEqual(edited.topics.find((row) => row.label === '格推理')?.count, 1);
    assert.equal((await statistics({})).paperCount, 5);
    client.closeDocument(uri);
    assert.equal((await statistics({ uri: uriOf('nowhere.digest') })).paperCount, 0);
  });

  test('Should roll a week up as one digest or as Markdown, and nothing for a period that is not one', async () => {
    const week = await client.request<RollupResult>('paperDigest/rollup', { period: '2026-W18', format: 'digest' });
    assert.equal(week.paperCount, 3, 'A once, B and C');
    assert.match(week.text, /^大模型推理能力 · 2026-W18\n\n/);
    assert.equal(week.text.split(HOSTILE).length, 2, 'entries copied as they stand');
    const markdown = await client.request<RollupResult>('paperDigest/rollup', { period: '2026-05', format: 'markdown' });
    assert.equal(markdown.paperCount, 2);
    const html = markdownIt({ html: true }).render(markdown.text);
    assert.match(html, /^<h1>大模型推理能力 · 2026-05<\/h1>/);
    assert.match(html, /<h3>Evil &lt;\/svg&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;q&quot; \uFFFDtxt<\/h3>/, 'document text escaped for Markdown');
    assert.doesNotMatch(html, /<script|<\/svg/);
    assert.deepEqual(await client.request('paperDigest/rollup', { period: 'last week', format: 'digest' }), { text: '', paperCount: 0 });
    assert.deepEqual(await client.request('paperDigest/rollup', { period: 42 }), { text: '', paperCount: 0 });
    // A format it does not make: none, as exportPapers; without one, a digest.
    for (const format of ['pdf', 42, null]) {
      assert.deepEqual(await client.request('paperDigest/rollup', { period: '2026-W18', format }), { text: '', paperCount: 0 }, String(format));
    }
    assert.equal((await client.request<RollupResult>('paperDigest/rollup', { period: '2026-W18' })).text, week.text);
    // The dashboard on one digest: that digest's papers of the week alone.
    const one = await client.request<RollupResult>('paperDigest/rollup', { period: '2026-W18', format: 'markdown', uri: uriOf('2026-04-28.digest') });
    assert.equal(one.paperCount, 2);
  });

  test('Should know a digest by a file: URI in another encoding than its own', async () => {
    const name = "llm (v2)+'a'!@,;=&$[1] 2026-05-02.digest";
    fs.writeFileSync(path.join(root, name), digest(entryLines('F')));
    await client.request('paperDigest/rescanWorkspace', {});
    // As node writes it (`(`, `'`, `!` as they stand), and with every such character encoded.
    const light = uriOf(name);
    const full = 'file://' + path.join(root, name).split('/').map((part) => encodeURIComponent(part).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())).join('/');
    assert.notEqual(light, full);
    assert.equal((await statistics({ uri: light })).paperCount, 1);
    assert.equal((await statistics({ uri: full })).paperCount, 1);
    const rolled = await client.request<RollupResult>('paperDigest/rollup', { period: '2026-W18', format: 'markdown', uri: light });
    assert.equal(rolled.paperCount, 1);
    const exported = await client.request<{ count: number }>('paperDigest/exportPapers', { format: 'bibtex', scope: { uri: light } });
    assert.equal(exported.count, 1);
    fs.rmSync(path.join(root, name));
    await client.request('paperDigest/rescanWorkspace', {});
  });
});
