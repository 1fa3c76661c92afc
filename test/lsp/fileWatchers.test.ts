/**
 * The file watchers: an editor that registers them only when asked (Neovim, Helix, eglot) gets
 * them from the server; VS Code's client, which watches the files itself, says so and gets none.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LspClient } from '../support/lspClient';

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
    assert.ok(globs?.some(([glob, kind]) => glob === '**/*' && kind === 4), 'deletions of folders');
  });

  test('Should register none for a client that watches the files itself', async () => {
    assert.deepEqual([...(await registrations({ watchesFiles: true }))], []);
  });

  test('Should ask to be told of saves only by a client that tells no file events', async () => {
    assert.equal((await registrations()).saves, false, 'the watchers it registers tell a save');
    assert.equal((await registrations({ watchesFiles: true })).saves, false, 'the client watches');
    assert.equal((await registrations(undefined, { ...CAPABILITIES, workspace: { workspaceFolders: true } })).saves, true, 'no file events: saves told');
  });
});
