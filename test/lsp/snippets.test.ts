/**
 * Placeholders as snippets over stdio: a client that declares
 * `workspace.workspaceEdit.snippetEditSupport` gets the missing-field quick fix as a snippet edit
 * with tab stops; one that does not gets plain text. Either way the edit, applied, leaves no
 * problem in the entry.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import { applyEdits } from '../../server/src/service/edits';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';

const CAPABILITIES = (snippets: boolean): unknown => ({
  workspace: { configuration: false, workspaceEdit: { documentChanges: true, snippetEditSupport: snippets } },
  textDocument: { publishDiagnostics: { dataSupport: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } },
});

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText?: string;
  snippet?: { kind: string; value: string };
}

async function missingTopicFix(snippets: boolean): Promise<{ text: string; edit: Edit }> {
  assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
  const client = await LspClient.start({ rootUri: null, capabilities: CAPABILITIES(snippets) });
  try {
    const uri = 'file:///virtual/snippets.digest';
    const text = digest(entryLines('A'), entryLines('B', { topicHits: null }));
    client.openDocument(uri, text);
    const published = await client.waitForNotification<{ uri: string; diagnostics: { code: string; range: Edit['range'] }[] }>('textDocument/publishDiagnostics', (p) => p.uri === uri, undefined, true);
    const diagnostic = published.diagnostics.find((d) => d.code === 'missing-field')!;
    assert.ok(diagnostic, JSON.stringify(published.diagnostics));
    const actions = await client.request<{ title: string; edit: { documentChanges: { edits: Edit[] }[] } }[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    const [edit] = actions[0].edit.documentChanges[0].edits;
    return { text, edit };
  } finally {
    await client.shutdown();
  }
}

describe('lsp: placeholders as snippets', () => {
  test('Should send tab stops to a client that takes snippet edits', async () => {
    const { text, edit } = await missingTopicFix(true);
    assert.equal(edit.snippet?.kind, 'snippet');
    assert.match(edit.snippet!.value, /专题命中 \$\{1:数学推理\} ：\$\{2:keyword\}\(\$\{3:abstract\}\)；分类 \$\{4:cs\.LG\}\$0/);
    // The snippet's default expansion is a complete paragraph.
    const expanded = edit.snippet!.value.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$0/g, '');
    const fixed = applyEdits(text, [{ range: edit.range, newText: expanded }]);
    assert.deepEqual(computeDiagnostics(parseDigest(fixed)).map((d) => d.code), []);
  });

  test('Should send plain text to a client that does not', async () => {
    const { text, edit } = await missingTopicFix(false);
    assert.equal(edit.snippet, undefined);
    const fixed = applyEdits(text, [{ range: edit.range, newText: edit.newText! }]);
    assert.deepEqual(computeDiagnostics(parseDigest(fixed)).map((d) => d.code), []);
  });
});
