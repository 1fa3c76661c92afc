/**
 * The index kept between starts over stdio: the bundled server, given a storage folder
 * (`initializationOptions.keptIndexFolder`), keeps its index there after the scan, takes the
 * files unchanged since from it at the next start, and answers the Papers tree's first level
 * as the scan does. (That the early answer equals the scan's for every kind of change is
 * test/unit/keptIndex.test.ts; here, the wiring.)
 */
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type { PapersTreeResult } from '../../server/src/protocol';
import { KEPT_INDEX_FILE } from '../../server/src/keptIndexDisk';

const GROUPINGS = ['topic', 'category', 'institution', 'file'] as const;
const NEW_DIGEST = ['新专题', 'Graph Rewriting for Query Planning', '面向查询规划的图重写', 'Ines Duarte, Pavel Novak', '专题命中 数据库 ：query planning(title)；分类 cs.DB', ''].join('\n\n');

describe('lsp: the index kept between starts', () => {
  const made: string[] = [];
  const folder = (prefix: string): string => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(root);
    return root;
  };
  after(() => made.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  /**
   * A server on `root` keeping its index in `storage`; with `hold`, its first scan waits after the
   * kept index until `paperDigest/debug/releaseScan`; `papersGrouping`, the grouping the client
   * says its Papers view shows.
   */
  async function start(root: string, storage: string, hold = false, papersGrouping?: string): Promise<LspClient> {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    return LspClient.start({ rootUri: pathToFileURL(root).href, args: ['--debug-requests'], initializationOptions: { watchesFiles: true, keptIndexFolder: storage, debugHoldScan: hold, papersGrouping } });
  }

  /** A copy of the fixture workspace, its files written an hour ago (a file written in the last two seconds is not kept). */
  function workspace(): string {
    const root = folder('paper-digest-kept-ws-');
    fs.cpSync(path.join(FIXTURES, 'workspace'), root, { recursive: true });
    anHourAgo(root);
    return root;
  }

  function anHourAgo(file: string): void {
    const then = new Date(Date.now() - 3_600_000);
    if (fs.statSync(file).isDirectory()) {
      for (const entry of fs.readdirSync(file)) anHourAgo(path.join(file, entry));
    }
    fs.utimesSync(file, then, then);
  }

  /** The first level of each grouping, asked at once after the start. */
  const firstLevels = (client: LspClient): Promise<PapersTreeResult[]> => Promise.all(GROUPINGS.map((grouping) => client.request<PapersTreeResult>('paperDigest/papersTree', { grouping, filter: '' })));
  /** What does not depend on when it was asked. */
  const comparable = (results: PapersTreeResult[]): unknown => results.map(({ nodes, paperCount, distinctPaperCount, indexedPaperCount }) => ({ nodes, paperCount, distinctPaperCount, indexedPaperCount }));
  const logged = (client: LspClient, pattern: RegExp): Promise<{ message: string }> => client.waitForNotification<{ message: string }>('window/logMessage', (params) => pattern.test(params.message), undefined, true);

  test('Should keep the index after the scan, and answer the first level from it at the next start as the scan does', async () => {
    const root = workspace();
    const storage = path.join(folder('paper-digest-kept-storage-'), 'workspace-1');

    let client = await start(root, storage);
    const scanned = comparable(await firstLevels(client));
    // The first start says that nothing was kept, not that none of the files was.
    assert.match((await logged(client, /digest file/)).message, /no index was kept at an earlier start \(the first start, or one after an update\): (\d+) of the \1 digest files were read/);
    // Asked deeper, the scan answers: once it is done, the index is kept.
    await client.request<PapersTreeResult>('paperDigest/papersTree', { grouping: 'topic', filter: '', parentId: (scanned as { nodes: { id: string }[] }[])[0].nodes[0].id });
    await client.shutdown();
    const kept = path.join(storage, KEPT_INDEX_FILE);
    assert.ok(fs.statSync(kept).size > 0, 'kept once the scan was done');

    // The next start, its scan held: the first level comes from the kept index alone.
    client = await start(root, storage, true);
    try {
      const early = await firstLevels(client);
      const { message } = await logged(client, /index kept at the last start has/);
      const [, unchanged, all] = /has (\d+) of the (\d+) digest files/.exec(message)!;
      assert.equal(Number(unchanged), Number(all), message);
      assert.deepEqual(comparable(early), scanned);
      // Asked deeper, the scan answers (once it goes on).
      const deeper = client.request<PapersTreeResult>('paperDigest/papersTree', { grouping: 'topic', filter: '', parentId: (early[0].nodes[0] as { id: string }).id });
      await client.request('paperDigest/debug/releaseScan');
      assert.ok((await deeper).nodes.length > 0);
    } finally {
      await client.shutdown();
    }

    // A new digest since: read before the first level is answered, for the grouping the client
    // says its view shows (by category): that grouping's first level (and the one by file) comes
    // before the scan, another's waits for it.
    fs.writeFileSync(path.join(root, 'new.digest'), NEW_DIGEST);
    anHourAgo(path.join(root, 'new.digest'));
    client = await start(root, storage, true, 'category');
    try {
      const waiting = new Set<string>();
      const waited = ['topic', 'institution'].map((grouping) => {
        waiting.add(grouping);
        return client.request<PapersTreeResult>('paperDigest/papersTree', { grouping, filter: '' }).finally(() => waiting.delete(grouping));
      });
      const early = await Promise.all(['category', 'file'].map((grouping) => client.request<PapersTreeResult>('paperDigest/papersTree', { grouping, filter: '' })));
      const { message } = await logged(client, /index kept at the last start has/);
      const [, unchanged, all] = /has (\d+) of the (\d+) digest files/.exec(message)!;
      assert.equal(Number(all), Number(unchanged) + 1, message);
      assert.ok(early[0].nodes.some((node) => node.kind === 'group' && node.label === 'cs.DB'));
      assert.ok(early[1].nodes.some((node) => node.kind === 'group' && node.label === 'new.digest'));
      // Asked before those two were answered, and the scan is held.
      assert.deepEqual([...waiting], ['topic', 'institution'], 'the first levels by topic and by institution wait for the scan');
      await client.request('paperDigest/debug/releaseScan');
      const [byTopic, byInstitution] = await Promise.all(waited);
      await client.request('paperDigest/rescanWorkspace', {});
      assert.deepEqual(comparable([byTopic, early[0], byInstitution, early[1]]), comparable(await firstLevels(client)));
    } finally {
      await client.shutdown();
    }
    // Kept again with the new file.
    assert.match(fs.readFileSync(kept, 'utf8'), /new\.digest/);
  });

  test('Should say so of a kept index it cannot use, read the workspace in full, and keep a new one', async () => {
    const root = workspace();
    const storage = folder('paper-digest-kept-storage-');
    fs.writeFileSync(path.join(storage, KEPT_INDEX_FILE), '{"format":"paper-digest-kept-index","version":1,"build":');
    const client = await start(root, storage);
    try {
      const answers = await firstLevels(client);
      await logged(client, /is not used: it is not whole; it is made again/);
      await client.request('paperDigest/rescanWorkspace', {});
      assert.deepEqual(comparable(answers), comparable(await firstLevels(client)));
    } finally {
      await client.shutdown();
    }
    assert.match(fs.readFileSync(path.join(storage, KEPT_INDEX_FILE), 'utf8'), /agents\.digest/);
  });
});
