/**
 * A client that declares less than VS Code (plain-text hovers and documentation, flat symbols,
 * workspace edits as `changes`) gets the same answers in the forms it reads (clientForms.ts);
 * the other LSP tests run with VS Code's forms.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { digest, entryLines } from '../support/fixtures';
import { LspClient } from '../support/lspClient';
import { applyEdits } from '../../server/src/service/edits';

/** What a minimal client declares: plain text, flat symbols, no documentChanges. */
const MINIMAL_CAPABILITIES = {
  workspace: { workspaceFolders: true, configuration: false, workspaceEdit: { documentChanges: false } },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    hover: { contentFormat: ['plaintext'] },
    completion: { completionItem: { documentationFormat: ['plaintext'] } },
    documentSymbol: { hierarchicalDocumentSymbolSupport: false },
  },
};

describe('lsp: a client of plain text, flat symbols and changes', () => {
  let root: string;
  let client: LspClient;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const HOSTILE = 'Probes *for* [Circuits](http://evil.example) <b>x</b> \\ `code` & co';
  /** The `workspace/applyEdit` requests the server sent. */
  const applied: { edit: any }[] = [];
  const fudan = (tag: string) => entryLines(tag, { institutions: '机构 * Fudan University（复旦大学） ； Tsinghua University（清华大学） 纠错' });

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-forms-'));
    fs.writeFileSync(path.join(root, 'disk.digest'), digest(fudan('A')));
    client = await LspClient.start({
      rootUri: pathToFileURL(root).href,
      capabilities: MINIMAL_CAPABILITIES,
      onServerRequest: (method, params: any) => {
        if (method === 'workspace/applyEdit') {
          applied.push(params);
          return { applied: true };
        }
        return null;
      },
    });
    await client.request('paperDigest/rescanWorkspace');
    const lines = fudan('B');
    lines[0] = HOSTILE;
    client.openDocument(uri('open.digest'), digest(lines, fudan('C')));
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should answer the outline as flat symbols under the heading', async () => {
    const symbols = await client.request<{ name: string; kind: number; location: { uri: string; range: unknown }; containerName?: string; children?: unknown }[]>('textDocument/documentSymbol', { textDocument: { uri: uri('open.digest') } });
    assert.equal(symbols.length, 3, JSON.stringify(symbols));
    assert.equal(symbols[0].containerName, undefined);
    assert.ok(symbols.every((symbol) => symbol.location.uri === uri('open.digest') && symbol.children === undefined));
    assert.deepEqual(symbols.slice(1).map((symbol) => symbol.containerName), [symbols[0].name, symbols[0].name]);
    assert.ok(symbols[1].name.startsWith(HOSTILE), symbols[1].name);
  });

  test('Should answer a hover in plain text that reads as the document does', async () => {
    // The Chinese title's hover gives the English title.
    const title = await client.request<{ contents: { kind: string; value: string } }>('textDocument/hover', { textDocument: { uri: uri('open.digest') }, position: { line: 4, character: 3 } });
    assert.equal(title.contents.kind, 'plaintext');
    assert.ok(title.contents.value.includes(HOSTILE), title.contents.value);
    const institution = await client.request<{ contents: { kind: string; value: string } }>('textDocument/hover', { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 } });
    assert.equal(institution.contents.kind, 'plaintext');
    assert.equal(institution.contents.value, '复旦大学 · 中文名 Chinese name\n\nInstitution 1 of 2 · 机构');
    assert.ok(!/\*\*|\\[!-/:-@[-`{-~]|&lt;/.test(institution.contents.value), institution.contents.value);
  });

  test('Should answer a rename as changes by URI, files on disk included', async () => {
    const edit = await client.request<{ changes?: Record<string, { newText: string }[]>; documentChanges?: unknown }>('textDocument/rename', { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 }, newName: 'Fudan University, Shanghai' });
    assert.equal(edit.documentChanges, undefined);
    assert.deepEqual(Object.keys(edit.changes ?? {}).sort(), [uri('disk.digest'), uri('open.digest')].sort());
    assert.ok(Object.values(edit.changes!).every((edits) => edits.every((each) => each.newText === 'Fudan University, Shanghai')));
    assert.equal(edit.changes![uri('open.digest')].length, 2);
  });

  test('Should give quick fixes as commands that apply their edits as changes, to the version they were made for', async () => {
    // A half-width separator between two institutions: a fix the format's rules make.
    const text = digest(entryLines('D', { institutions: '机构 * Fudan University（复旦大学）; Tsinghua University（清华大学） 纠错' }));
    client.openDocument(uri('fix.digest'), text);
    const published = await client.waitForNotification<{ uri: string; diagnostics: { code: string; range: unknown }[] }>('textDocument/publishDiagnostics', (params) => params.uri === uri('fix.digest') && params.diagnostics.length > 0);
    const diagnostic = published.diagnostics[0];
    // No code action literals declared (LSP before 3.8): commands, not CodeAction objects.
    const actions = await client.request<{ title: string; command?: string; arguments?: unknown[]; kind?: string; edit?: unknown }[]>('textDocument/codeAction', { textDocument: { uri: uri('fix.digest') }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    assert.ok(actions.length > 0 && actions.every((action) => typeof action.command === 'string' && action.kind === undefined && action.edit === undefined), JSON.stringify(actions));
    const fix = actions.find((action) => action.command === 'paperDigest.applyFix')!;
    assert.deepEqual(fix.arguments!.slice(0, 2), [uri('fix.digest'), 1]);
    const result = await client.request<{ applied: boolean; edits: number }>('workspace/executeCommand', { command: fix.command, arguments: fix.arguments });
    assert.deepEqual(result, { applied: true, edits: 1 });
    const edit = applied[applied.length - 1].edit;
    assert.equal(edit.documentChanges, undefined);
    assert.equal(applyEdits(text, edit.changes[uri('fix.digest')]), text.replace('）; Tsinghua', '） ； Tsinghua'));
    // Edits that cannot be applied as they read are not sent: a range ending before it starts,
    // one past the document's lines, two that overlap.
    const before = applied.length;
    const at = (line: number, character: number): { line: number; character: number } => ({ line, character });
    for (const edits of [
      [{ range: { start: at(3, 5), end: at(3, 2) }, newText: 'x' }],
      [{ range: { start: at(999, 0), end: at(999, 0) }, newText: 'x' }],
      [{ range: { start: at(2, 0), end: at(0, 0) }, newText: 'x' }],
      [
        { range: { start: at(2, 0), end: at(2, 6) }, newText: 'x' },
        { range: { start: at(2, 4), end: at(2, 8) }, newText: 'y' },
      ],
    ]) {
      assert.deepEqual(await client.request('workspace/executeCommand', { command: fix.command, arguments: [uri('fix.digest'), 1, edits] }), { applied: false, edits: 0 }, JSON.stringify(edits));
    }
    assert.equal(applied.length, before, 'none sent');
    // Two inserts at one place are edits a client applies.
    const inserts = [
      { range: { start: at(2, 0), end: at(2, 0) }, newText: 'a' },
      { range: { start: at(2, 0), end: at(2, 0) }, newText: 'b' },
    ];
    assert.deepEqual(await client.request('workspace/executeCommand', { command: fix.command, arguments: [uri('fix.digest'), 1, inserts] }), { applied: true, edits: 2 });
    // Once the document changed, the fix made for the version before applies nothing.
    client.notify('textDocument/didChange', { textDocument: { uri: uri('fix.digest'), version: 2 }, contentChanges: [{ text: text + '\n' }] });
    const sent = applied.length;
    assert.deepEqual(await client.request('workspace/executeCommand', { command: fix.command, arguments: fix.arguments }), { applied: false, edits: 0 });
    assert.equal(applied.length, sent);
  });

  test('Should resolve completion documentation in plain text', async () => {
    client.openDocument(uri('complete.digest'), digest(entryLines('E', { institutions: '机构 * Fu 纠错' })));
    const list = await client.request<{ items: { label: string; data?: unknown }[] } | { label: string }[]>('textDocument/completion', { textDocument: { uri: uri('complete.digest') }, position: { line: 8, character: 7 } });
    const items = Array.isArray(list) ? list : list.items;
    const fudanItem = items.find((item) => item.label.startsWith('Fudan University'));
    assert.ok(fudanItem, JSON.stringify(items.map((item) => item.label)));
    const resolved = await client.request<{ documentation?: { kind: string; value: string } }>('completionItem/resolve', fudanItem);
    assert.equal(resolved.documentation?.kind, 'plaintext');
    assert.ok(resolved.documentation!.value.startsWith('Fudan University · 复旦大学'), resolved.documentation!.value);
  });
});
