/**
 * The file watchers: an editor that registers them only when asked (Neovim, Helix, eglot) gets
 * them from the server; VS Code's client, which watches the files itself, says so and gets none.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { LspClient } from '../support/lspClient';
import { digest, entryLines } from '../support/fixtures';
import type { PapersTreeResult } from '../../server/src/protocol';

const CAPABILITIES = {
  workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
  textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
};

interface Registration {
  readonly method: string;
  readonly registerOptions?: { readonly watchers?: readonly { readonly globPattern: string; readonly kind?: number }[] };
}

/**
 * Starts a server with the options, and what it registered by the time a request is answered;
 * `saves`, whether it asked to be told of saves.
 */
async function registrations(initializationOptions?: unknown, capabilities: object = CAPABILITIES): Promise<Registration[] & { saves?: boolean }> {
  const registered: Registration[] & { saves?: boolean } = [];
  const client = await LspClient.start({
    rootUri: null,
    capabilities,
    initializationOptions,
    onServerRequest: (method, params) => {
      if (method === 'client/registerCapability') registered.push(...(params as { registrations: Registration[] }).registrations);
      return null;
    },
  });
  try {
    // A request answered after `initialized`: the registration, sent then, came before it.
    await client.request('workspace/symbol', { query: 'x' });
    registered.saves = (client.initializeResult.capabilities.textDocumentSync as { save?: unknown } | undefined)?.save !== undefined;
    return registered;
  } finally {
    await client.shutdown();
  }
}

describe('lsp: file watchers', () => {
  test('Should register watchers of the digests, the state files and deletions for a client that can register them', async () => {
    const [watchers] = await registrations();
    assert.equal(watchers?.method, 'workspace/didChangeWatchedFiles');
    const globs = watchers.registerOptions?.watchers?.map((watcher) => [watcher.globPattern, watcher.kind]);
    assert.ok(globs?.some(([glob]) => typeof glob === 'string' && glob.includes('digest')), JSON.stringify(globs));
    assert.ok(globs?.some(([glob]) => glob === '**/.paper-digest/*.json'));
    // Created (1) and Deleted (4): a folder renamed, moved or copied in is told as itself alone.
    assert.ok(globs?.some(([glob, kind]) => glob === '**/*' && kind === 5), 'folders created and deleted');
  });

  test('Should register none for a client that watches the files itself', async () => {
    assert.deepEqual([...(await registrations({ watchesFiles: true }))], []);
  });

  test('Should ask to be told of saves by a client that does not watch the files itself', async () => {
    assert.equal((await registrations()).saves, true, 'it may refuse the watchers it is asked to register');
    assert.equal((await registrations({ watchesFiles: true })).saves, false, 'the client watches');
    assert.equal((await registrations(undefined, { ...CAPABILITIES, workspace: { workspaceFolders: true } })).saves, true, 'no file events: saves told');
  });

  test('Should read a saved digest again when the client refuses the watchers it said it could register', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-refused-'));
    const file = path.join(root, '2026-05-01.digest');
    fs.writeFileSync(file, digest(entryLines('A')));
    const client = await LspClient.start({
      rootUri: pathToFileURL(root).href,
      capabilities: CAPABILITIES,
      onServerRequest: (method) => {
        if (method === 'client/registerCapability') throw new Error('not now');
        return null;
      },
    });
    try {
      const count = async (): Promise<number | undefined> => (await client.request<PapersTreeResult>('paperDigest/papersTree', { grouping: 'file', filter: '' })).indexedPaperCount;
      assert.equal(await count(), 1);
      const uri = pathToFileURL(file).href;
      const saved = digest(entryLines('A'), entryLines('B'));
      client.openDocument(uri, fs.readFileSync(file, 'utf8'));
      client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: saved }] });
      fs.writeFileSync(file, saved);
      client.notify('textDocument/didSave', { textDocument: { uri } });
      client.closeDocument(uri);
      // Closed: the index holds the file as on disk, read again at the save.
      const deadline = Date.now() + 10_000;
      while ((await count()) !== 2 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await count(), 2);
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
