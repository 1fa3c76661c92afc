/**
 * `paperDigest/documentStats` over stdio (the language status item in VS Code): the papers of an
 * open digest, and the size of the workspace index once its first scan is done.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type { DocumentStatsResult } from '../../server/src/protocol';

const TWO_PAPERS = [
  '新专题',
  'Graph Rewriting for Query Planning',
  '面向查询规划的图重写',
  'Ines Duarte, Pavel Novak',
  '专题命中 数据库 ：query planning(title)；分类 cs.DB',
  'AI总结 用图重写规则搜索更优的查询计划。',
  'Learned Cardinality Estimates for Joins',
  '连接的学习式基数估计',
  'Ines Duarte',
  '专题命中 数据库 ：cardinality(abstract)；分类 cs.DB',
  'AI总结 学习连接的基数估计。',
  '我的笔记：下周再读第二篇。',
  '',
].join('\n\n');

describe('lsp: paperDigest/documentStats', () => {
  let root: string;
  let client: LspClient;
  const stats = (params: unknown): Promise<DocumentStatsResult> => client.request('paperDigest/documentStats', params);

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-stats-'));
    fs.cpSync(path.join(FIXTURES, 'workspace'), root, { recursive: true });
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should give the size of the index (Sparse Probes, in two digests, counted once), and no paper count for a document that is not open', async () => {
    const result = await stats({ uri: pathToFileURL(path.join(root, 'agents.digest')).href });
    assert.deepEqual(result, { paperCount: null, index: { fileCount: 3, paperCount: 6 } });
    assert.deepEqual(await stats({ uri: '' }), result);
  });

  test('Should count the papers of an open digest as they change, notes after the last entry not among them', async () => {
    const uri = pathToFileURL(path.join(root, 'scratch.digest')).href;
    client.openDocument(uri, TWO_PAPERS);
    assert.equal((await stats({ uri })).paperCount, 2);
    const oneMore = TWO_PAPERS.replace('我的笔记', 'Adaptive Indexes for Streams\n\n流上的自适应索引\n\nPavel Novak\n\n专题命中 数据库 ：index(title)；分类 cs.DB\n\nAI总结 流数据的自适应索引。\n\n我的笔记');
    client.changeDocument(uri, oneMore, 2);
    assert.equal((await stats({ uri })).paperCount, 3);
    client.closeDocument(uri);
    assert.equal((await stats({ uri })).paperCount, null);
  });

  test('Should count a paper the digest repeats once, and each paper without a title on its own, as its file group does', async () => {
    const uri = pathToFileURL(path.join(root, 'repeats.digest')).href;
    const first = TWO_PAPERS.split('\n\n').slice(1, 6).join('\n\n');
    const untitled = ['专题命中 数据库 ：x(title)；分类 cs.DB', 'AI总结 无标题。'].join('\n\n');
    // Graph Rewriting twice (the second in other case), Learned Cardinality, two untitled entries.
    const text = [TWO_PAPERS.replace('我的笔记：下周再读第二篇。', ''), first.replace('Graph Rewriting', 'GRAPH  rewriting'), untitled, untitled, ''].join('\n\n');
    client.openDocument(uri, text);
    assert.equal((await stats({ uri })).paperCount, 4);
    client.closeDocument(uri);
  });

  test('Should answer bad parameters with the index alone', async () => {
    for (const params of [null, {}, { uri: 42 }, 'file:///x.digest']) {
      assert.deepEqual(await stats(params), { paperCount: null, index: { fileCount: 3, paperCount: 6 } }, JSON.stringify(params));
    }
  });
});
