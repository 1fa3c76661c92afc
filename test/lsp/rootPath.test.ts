/**
 * A client that names its workspace by LSP's deprecated `rootPath` alone (no `rootUri`, no
 * `workspaceFolders`) gets that folder indexed, as one that names it by `rootUri`.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { digest, entryLines } from '../support/fixtures';
import { DEFAULT_CAPABILITIES, LspClient } from '../support/lspClient';
import { fileUriOfPath } from '../../server/src/requestShapes';
import type { PapersTreeResult } from '../../server/src/protocol';

describe('A workspace named by rootPath alone', () => {
  let root: string;
  let client: LspClient;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest root path '));
    fs.writeFileSync(path.join(root, '2026-05-01.digest'), digest(entryLines('A'), entryLines('B')));
    fs.writeFileSync(path.join(root, '2026-05-02.digest'), digest(entryLines('C')));
    client = LspClient.spawn();
    client.initializeResult = await client.request('initialize', { processId: process.pid, rootPath: root, rootUri: null, capabilities: DEFAULT_CAPABILITIES });
    client.notify('initialized', {});
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should index the folder rootPath names', async () => {
    const tree = await client.request<PapersTreeResult>('paperDigest/papersTree', { grouping: 'file', filter: '' });
    assert.equal(tree.indexedPaperCount, 3);
    assert.equal(tree.nodes.length, 2);
  });

  test('Should make the file URI of an absolute path only', () => {
    assert.equal(fileUriOfPath('/home/a b/c#d%e'), 'file:///home/a%20b/c%23d%25e');
    assert.equal(fileUriOfPath('/研究/摘要'), 'file:///%E7%A0%94%E7%A9%B6/%E6%91%98%E8%A6%81');
    assert.equal(fileUriOfPath('C:\\Users\\x y'), 'file:///C:/Users/x%20y');
    assert.equal(fileUriOfPath('D:/w'), 'file:///D:/w');
    assert.equal(fileUriOfPath('relative/x'), undefined);
    assert.equal(fileUriOfPath(''), undefined);
    // Runs of slashes as one (POSIX's `//tmp` is `/tmp`); a UNC path as its host and share.
    assert.equal(fileUriOfPath('//tmp//papers'), 'file:///tmp/papers');
    assert.equal(fileUriOfPath('\\\\server\\share\\papers'), 'file://server/share/papers');
    // A lone surrogate: no URI (encodeURIComponent throws on it); no device path, host that is
    // none, nor `.` or `..` (a path to make whole first).
    assert.equal(fileUriOfPath('/tmp/x\ud800y'), undefined);
    for (const path of ['\\\\?\\C:\\w', '\\\\.\\C:\\w', '\\\\se rver\\share', '\\\\server\\..\\x', '/tmp/../etc', '/tmp/./x']) {
      assert.equal(fileUriOfPath(path), undefined, path);
    }
    for (const uri of [fileUriOfPath('/home/a b/c#d%e'), fileUriOfPath('\\\\Server\\share\\p'), fileUriOfPath('C:\\x')]) {
      assert.ok(uri && new URL(uri).protocol === 'file:', uri);
    }
  });

  test('Should initialize with a rootPath that is no URI, with no folder', async () => {
    const other = LspClient.spawn();
    try {
      const result = await other.request<{ capabilities?: unknown }>('initialize', { processId: process.pid, rootPath: '/tmp/x\ud800y', rootUri: null, capabilities: DEFAULT_CAPABILITIES });
      assert.ok(result.capabilities);
      other.notify('initialized', {});
      const tree = await other.request<PapersTreeResult>('paperDigest/papersTree', { grouping: 'file', filter: '' });
      assert.equal(tree.indexedPaperCount, 0);
    } finally {
      await other.shutdown();
    }
  });
});
