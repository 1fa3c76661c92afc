/**
 * The Papers tree over stdio: the bundled server (`node dist/server.js --stdio`, built by
 * `node esbuild.mjs`) scans a temporary copy of the fixture workspace, answers
 * `paperDigest/papersTree`, and follows file events, open documents and workspace folders.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type { IndexChangedParams, PaperAtResult, PapersTreeResult } from '../../server/src/protocol';
import type { PaperNode, PapersGroupNode } from '../../server/src/service/features/tree';

const CREATED = 1;
const DELETED = 3;

/** A temporary copy of test/fixtures/workspace, with digests in folders the scan must skip. */
function copyWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-ws-'));
  fs.cpSync(path.join(FIXTURES, 'workspace'), root, { recursive: true });
  for (const skipped of ['node_modules', '.git']) {
    fs.mkdirSync(path.join(root, skipped, 'deep'), { recursive: true });
    fs.copyFileSync(path.join(root, 'agents.digest'), path.join(root, skipped, 'deep', 'hidden.digest'));
  }
  return root;
}

function uriOf(root: string, relative: string): string {
  return pathToFileURL(path.join(root, relative)).href;
}

const NEW_DIGEST = ['新专题', 'Graph Rewriting for Query Planning', '面向查询规划的图重写', 'Ines Duarte, Pavel Novak', '专题命中 数据库 ：query planning(title)；分类 cs.DB', 'AI总结 用图重写规则搜索更优的查询计划。', ''].join('\n\n');

describe('lsp: the Papers tree over stdio', () => {
  let root: string;
  let client: LspClient;

  const tree = (grouping: string, parentId?: string, filter = ''): Promise<PapersTreeResult> => client.request('paperDigest/papersTree', { grouping, filter, parentId });
  const fileLabels = async (): Promise<string[]> => (await tree('file')).nodes.map((node) => (node as PapersGroupNode).label);
  /** Waits for the index to reach a file count, asking after the fact too. */
  const indexed = (fileCount: number): Promise<IndexChangedParams> => client.waitForNotification<IndexChangedParams>('paperDigest/indexChanged', (params) => params.fileCount === fileCount);

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = copyWorkspace();
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should announce workspace symbols and workspace folder support', () => {
    assert.equal(client.initializeResult.capabilities.workspaceSymbolProvider, true);
    assert.equal(client.initializeResult.capabilities.workspace.workspaceFolders.changeNotifications, true);
  });

  test('Should answer with the digest files of the workspace, skipping node_modules and .git', async () => {
    const result = await tree('file');
    assert.equal(result.paperCount, 7);
    assert.equal(result.distinctPaperCount, 6, 'Sparse Probes is in two digests: one paper');
    assert.deepEqual(
      result.nodes.map((node) => [(node as PapersGroupNode).label, (node as PapersGroupNode).count]),
      [
        ['2026-05-01.digest', 3],
        ['2026-05-02.digest.txt', 2],
        ['agents.digest', 2],
      ],
    );
    assert.ok(result.nodes.every((node) => !('children' in node)));
  });

  test('Should hand out a group’s children by its id, papers with ranges and duplicate marks', async () => {
    const roots = (await tree('file')).nodes;
    const papers = (await tree('file', roots[0].id)).nodes as PaperNode[];
    assert.equal(papers.length, 3);
    assert.equal(papers[0].uri, uriOf(root, 'reasoning/2026-05-01.digest'));
    assert.deepEqual(papers[0].selectionRange, { start: { line: 2, character: 0 }, end: { line: 2, character: 59 } });
    assert.equal(papers[0].duplicate, true);
    assert.deepEqual(papers[0].duplicates.map((d) => d.uri), [uriOf(root, 'reasoning/2026-05-02.digest.txt')]);
    assert.equal(papers[1].duplicate, false);
    assert.deepEqual((await tree('file', 'file:no-such-group')).nodes, []);
  });

  test('Should give the path to the paper under a position in the current grouping', async () => {
    const result = await client.request<PaperAtResult | null>('paperDigest/paperAt', {
      uri: uriOf(root, 'reasoning/2026-05-01.digest'),
      position: { line: 22, character: 1 },
      grouping: 'topic',
      filter: '',
    });
    assert.ok(result);
    assert.deepEqual(result.path.map((node) => (node.kind === 'group' ? node.label : node.title)), ['数学推理', 'reasoning', 'Self-Verifying Chains of Thought for Olympiad Geometry']);
    const nothing = await client.request('paperDigest/paperAt', { uri: uriOf(root, 'agents.digest'), position: { line: 0, character: 0 }, grouping: 'topic', filter: '' });
    assert.equal(nothing, null);
  });

  test('Should answer malformed tree, paperAt and workspace diagnostic requests with empty answers, and go on answering', async () => {
    for (const params of [null, {}, { grouping: 'topic', filter: 42 }, { grouping: 'colour', filter: '' }, { grouping: 'topic', filter: '', unreadOnly: 'yes' }, { grouping: 'topic', filter: '', parentId: 7 }]) {
      const answer = await client.request<PapersTreeResult>('paperDigest/papersTree', params);
      assert.deepEqual([answer.paperCount, answer.nodes], [0, []], JSON.stringify(params));
    }
    const uri = uriOf(root, 'reasoning/2026-05-01.digest');
    for (const params of [{}, { uri, grouping: 'topic', filter: '' }, { uri, position: { line: 'a', character: null }, grouping: 'topic', filter: '' }, { uri: 5, position: { line: 22, character: 1 }, grouping: 'topic', filter: '' }]) {
      assert.equal(await client.request('paperDigest/paperAt', params), null, JSON.stringify(params));
    }
    const report = await client.request<{ items: unknown[] }>('workspace/diagnostic', {});
    assert.ok(Array.isArray(report.items));
    assert.ok((await tree('topic')).nodes.length > 0, 'the tree is still answered');
  });

  test('Should find papers of files that are not open with workspace/symbol', async () => {
    const symbols = await client.request<{ name: string; location: { uri: string } }[]>('workspace/symbol', { query: '稀疏探针' });
    assert.deepEqual(symbols.map((s) => s.location.uri).sort(), [uriOf(root, 'reasoning/2026-05-01.digest'), uriOf(root, 'reasoning/2026-05-02.digest.txt')]);
  });

  test('Should add a created file and drop a deleted one after workspace/didChangeWatchedFiles', async () => {
    fs.writeFileSync(path.join(root, 'reasoning', 'new.digest'), NEW_DIGEST);
    const added = indexed(4);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(root, 'reasoning/new.digest'), type: CREATED }] });
    assert.equal((await added).paperCount, 8);
    assert.deepEqual(await fileLabels(), ['2026-05-01.digest', '2026-05-02.digest.txt', 'agents.digest', 'new.digest']);

    fs.rmSync(path.join(root, 'agents.digest'));
    const removed = indexed(3);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(root, 'agents.digest'), type: DELETED }] });
    assert.equal((await removed).paperCount, 6);
    assert.deepEqual(await fileLabels(), ['2026-05-01.digest', '2026-05-02.digest.txt', 'new.digest']);
  });

  test('Should follow a rename reported as a delete and a create, and drop the duplicate mark with a deleted copy', async () => {
    fs.renameSync(path.join(root, 'reasoning', '2026-05-02.digest.txt'), path.join(root, 'renamed.digest.txt'));
    // The delete applies at once and the create once the file is read: wait for both.
    const moved = indexed(3);
    client.notify('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uriOf(root, 'reasoning/2026-05-02.digest.txt'), type: DELETED },
        { uri: uriOf(root, 'renamed.digest.txt'), type: CREATED },
      ],
    });
    await moved;
    const result = await tree('file');
    assert.deepEqual(result.nodes.map((node) => (node as PapersGroupNode).label), ['2026-05-01.digest', 'new.digest', 'renamed.digest.txt']);
    assert.equal(result.paperCount, 6);

    fs.rmSync(path.join(root, 'renamed.digest.txt'));
    const removed = indexed(2);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(root, 'renamed.digest.txt'), type: DELETED }] });
    await removed;
    const first = (await tree('file')).nodes[0];
    const papers = (await tree('file', first.id)).nodes as PaperNode[];
    assert.equal(papers[0].duplicate, false);
  });

  test('Should let an open document override its file and fall back to the disk when closed', async () => {
    const uri = uriOf(root, 'reasoning/new.digest');
    const edited = NEW_DIGEST.replace('Graph Rewriting for Query Planning', 'Learned Cost Models for Query Planning');
    const opened = client.waitForNotification<IndexChangedParams>('paperDigest/indexChanged', () => true);
    client.openDocument(uri, edited);
    await opened;
    const symbols = await client.request<{ name: string }[]>('workspace/symbol', { query: 'query planning' });
    assert.deepEqual(symbols.map((s) => s.name), ['Learned Cost Models for Query Planning']);

    const closed = client.waitForNotification<IndexChangedParams>('paperDigest/indexChanged', () => true);
    client.closeDocument(uri);
    await closed;
    const again = await client.request<{ name: string }[]>('workspace/symbol', { query: 'query planning' });
    assert.deepEqual(again.map((s) => s.name), ['Graph Rewriting for Query Planning']);
  });

  test('Should pick up files changed behind its back on paperDigest/rescanWorkspace', async () => {
    fs.writeFileSync(path.join(root, 'unannounced.digest'), NEW_DIGEST.replace('Graph Rewriting', 'Unannounced Graph Rewriting'));
    fs.rmSync(path.join(root, 'reasoning', 'new.digest'));
    const result = await client.request<{ fileCount: number; paperCount: number }>('paperDigest/rescanWorkspace');
    assert.deepEqual(result, { fileCount: 2, paperCount: 4 });
    assert.deepEqual(await fileLabels(), ['2026-05-01.digest', 'unannounced.digest']);
  });

  test('Should index an added workspace folder and forget a removed one', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-ws2-'));
    try {
      fs.copyFileSync(path.join(FIXTURES, 'workspace', 'agents.digest'), path.join(other, 'more.digest'));
      const added = indexed(3);
      client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: pathToFileURL(other).href, name: 'other' }], removed: [] } });
      await added;
      assert.ok((await fileLabels()).includes('more.digest'));
      const removed = indexed(2);
      client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [{ uri: pathToFileURL(other).href, name: 'other' }] } });
      await removed;
      assert.ok(!(await fileLabels()).includes('more.digest'));
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
