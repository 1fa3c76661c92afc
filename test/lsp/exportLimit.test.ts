/**
 * The export's limit over stdio: a workspace of more papers than one export takes
 * (`MAX_EXPORT_PAPERS`) is refused with the count, at once and with no text, and a scope within
 * the limit is exported.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import { MAX_EXPORT_PAPERS } from '../../server/src/protocol';
import type { ExportPapersResult } from '../../server/src/protocol';
import { generatedEntry } from '../bench/generate';

/** Three dated digests of as many papers, one more than an export takes in all. */
const FILES = 3;

describe('lsp: the export of more papers than one export takes', () => {
  let root: string;
  let client: LspClient;

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-export-limit-'));
    const total = MAX_EXPORT_PAPERS + 1;
    for (let f = 0; f < FILES; f++) {
      const paragraphs = ['大模型推理能力'];
      for (let i = Math.floor((total * f) / FILES); i < Math.floor((total * (f + 1)) / FILES); i++) paragraphs.push(...generatedEntry(i));
      fs.writeFileSync(path.join(root, `2026-05-0${f + 1}.digest`), paragraphs.join('\n\n') + '\n');
    }
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should refuse an export of more papers than one takes, saying how many, and export a scope within it', async () => {
    for (const format of ['bibtex', 'csljson']) {
      const all = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format, scope: {} });
      assert.deepEqual(all, { text: '', count: 0, tooMany: { papers: MAX_EXPORT_PAPERS + 1, max: MAX_EXPORT_PAPERS } }, format);
    }
    const file = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format: 'ris', scope: { uri: pathToFileURL(path.join(root, '2026-05-01.digest')).href } });
    assert.equal(file.tooMany, undefined);
    assert.equal(file.count, Math.floor((MAX_EXPORT_PAPERS + 1) / FILES));
    assert.equal(file.text.match(/^TY {2}- /gm)?.length, file.count);
  });
});
