/**
 * The editing help over stdio: completion (with resolve), document links and selection ranges
 * of the bundled server, on a temporary workspace of two digests written by the test.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { digest, entryLines } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';

/** The other digest on disk: Tsinghua twice, Fudan once. */
export const DISK_DIGEST = digest(
  entryLines('A', { authors: 'Wei Zhang, Lin Qiu', institutions: '机构 * Tsinghua University（清华大学） ； Fudan University（复旦大学） 纠错' }),
  entryLines('B', { authors: 'Wei Zhang, Sofia Rossi', institutions: '机构 * Tsinghua University（清华大学） 纠错', comments: 'Comments See arXiv:2507.07996 and https://example.org/code' }),
);

describe('lsp: completion, links and selection ranges over stdio', () => {
  let root: string;
  let client: LspClient;
  const openUri = (): string => pathToFileURL(path.join(root, 'open.digest')).href;
  /** The open document: its 机构 line (line 8) holds `机构 * Kyoto University（京都大学） ； `. */
  const openText = digest(entryLines('X', { institutions: '机构 * Kyoto University（京都大学） ； ' }));

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-editing-'));
    fs.writeFileSync(path.join(root, 'disk.digest'), DISK_DIGEST);
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
    client.openDocument(openUri(), openText);
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should announce completion with resolve, links and selection ranges', () => {
    const capabilities = client.initializeResult.capabilities;
    assert.equal(capabilities.completionProvider.resolveProvider, true);
    assert.ok(capabilities.completionProvider.triggerCharacters.includes('；'));
    assert.ok(capabilities.documentLinkProvider);
    assert.equal(capabilities.selectionRangeProvider, true);
  });

  test('Should complete institutions of the other file on the 机构 line, and resolve their documentation', async () => {
    const line = openText.split('\n')[8];
    const list = await client.request('textDocument/completion', { textDocument: { uri: openUri() }, position: { line: 8, character: line.length } });
    assert.deepEqual(list.items.map((item: { label: string }) => item.label), ['Tsinghua University', 'Fudan University']);
    assert.equal(list.items[0].textEdit.newText, 'Tsinghua University（清华大学）');
    const resolved = await client.request('completionItem/resolve', list.items[0]);
    assert.match(resolved.documentation.value, /\*\*Tsinghua University\*\* · \*\*清华大学\*\*/);
    assert.match(resolved.documentation.value, /Named by 2 papers/);
  });

  test('Should answer an empty completion past the end and for an unknown document', async () => {
    const past = await client.request('textDocument/completion', { textDocument: { uri: openUri() }, position: { line: 9999, character: 3 } });
    assert.deepEqual(past.items, []);
    const unknown = await client.request('textDocument/completion', { textDocument: { uri: 'file:///nowhere.digest' }, position: { line: 0, character: 0 } });
    assert.equal(unknown, null);
  });

  test('Should answer the document links of an open digest', async () => {
    const uri = pathToFileURL(path.join(root, 'disk.digest')).href;
    client.openDocument(uri, DISK_DIGEST);
    const links = await client.request('textDocument/documentLink', { textDocument: { uri } });
    assert.deepEqual(links.map((link: { target: string }) => link.target), ['https://example.org/probes', 'https://arxiv.org/abs/2507.07996', 'https://example.org/code']);
    client.closeDocument(uri);
  });

  test('Should answer selection ranges from the word to the file, and none past the end', async () => {
    const [range] = await client.request('textDocument/selectionRange', { textDocument: { uri: openUri() }, positions: [{ line: 8, character: 7 }] });
    const chain: unknown[] = [];
    for (let each = range; each; each = each.parent) chain.push(each.range);
    assert.deepEqual(chain[0], { start: { line: 8, character: 5 }, end: { line: 8, character: 10 } });
    assert.ok(chain.length >= 5, `chain: ${JSON.stringify(chain)}`);
    const none = await client.request('textDocument/selectionRange', { textDocument: { uri: openUri() }, positions: [{ line: 500, character: 0 }] });
    assert.deepEqual(none, []);
  });
});

describe('lsp: consistency of translations over stdio', () => {
  let root: string;
  let client: LspClient;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const fudan = (tag: string, translation: string) => entryLines(tag, { institutions: `机构 * Fudan University（${translation}） 纠错` });
  type Published = { uri: string; diagnostics: { code: string; range: { start: { line: number; character: number } }; data: unknown }[] };
  const published = (name: string, predicate: (codes: string[]) => boolean) =>
    client.waitForNotification<Published>('textDocument/publishDiagnostics', (params) => params.uri === uri(name) && predicate(params.diagnostics.map((d) => d.code)), undefined, true);

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-consistency-'));
    fs.writeFileSync(path.join(root, 'disk.digest'), digest(fudan('A', '复旦大学'), fudan('B', '复旦大学')));
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should report a translation that differs from another file\u2019s and fix it to the majority', async () => {
    const text = digest(fudan('C', '复旦'));
    client.openDocument(uri('open.digest'), text);
    const params = await published('open.digest', (codes) => codes.includes('inconsistent-translation'));
    const diagnostic = params.diagnostics.find((d) => d.code === 'inconsistent-translation')!;
    assert.deepEqual(diagnostic.range.start, { line: 8, character: 22 });
    const actions = await client.request('textDocument/codeAction', { textDocument: { uri: uri('open.digest') }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    assert.deepEqual(actions.map((action: { title: string }) => action.title), ["Use '复旦大学' — 改为“复旦大学”"]);
    const edit = actions[0].edit.documentChanges[0].edits[0];
    assert.equal(edit.newText, '复旦大学');
  });

  test('Should refresh an open file\u2019s problems when another file changes its translations', async () => {
    fs.writeFileSync(path.join(root, 'disk.digest'), digest(fudan('A', '复旦'), fudan('B', '复旦')));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('disk.digest'), type: 2 }] });
    const params = await client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri('open.digest') && !p.diagnostics.some((d) => d.code === 'inconsistent-translation'));
    assert.ok(params.diagnostics.every((d) => d.code !== 'inconsistent-translation'));
  });

  test('Should offer the fix of a problem that another file\u2019s change raised in an unchanged open file', async () => {
    // Asked while the file is consistent, then another file makes it inconsistent.
    const none = await client.request('textDocument/codeAction', { textDocument: { uri: uri('open.digest') }, range: { start: { line: 8, character: 22 }, end: { line: 8, character: 24 } }, context: { diagnostics: [] } });
    assert.deepEqual(none, []);
    fs.writeFileSync(path.join(root, 'disk.digest'), digest(fudan('A', '复旦大学'), fudan('B', '复旦大学')));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('disk.digest'), type: 2 }] });
    const params = await client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri('open.digest') && p.diagnostics.some((d) => d.code === 'inconsistent-translation'));
    const diagnostic = params.diagnostics.find((d) => d.code === 'inconsistent-translation')!;
    const actions = await client.request('textDocument/codeAction', { textDocument: { uri: uri('open.digest') }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    assert.deepEqual(actions.map((action: { title: string }) => action.title), ["Use '复旦大学' — 改为“复旦大学”"]);
  });
});

describe('lsp: references, highlights and rename over stdio', () => {
  let root: string;
  let client: LspClient;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const fudan = (tag: string, name: string) => entryLines(tag, { authors: 'Wei Zhang, Lin Qiu', institutions: `机构 * ${name}（复旦大学） 纠错` });
  const UNTITLED = 'untitled:Untitled-1';

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-rename-'));
    fs.writeFileSync(path.join(root, 'disk.digest'), digest(fudan('A', 'FUDAN  University'), entryLines('B')));
    fs.writeFileSync(path.join(root, 'unrelated.digest'), digest(entryLines('C')));
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
    client.openDocument(uri('open.digest'), digest(fudan('D', 'Fudan University')));
    // An untitled document with unsaved text is renamed in too.
    client.openDocument(UNTITLED, digest(fudan('E', 'fudan university')));
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should announce references, highlights and rename with prepareRename', () => {
    const capabilities = client.initializeResult.capabilities;
    assert.equal(capabilities.referencesProvider, true);
    assert.equal(capabilities.documentHighlightProvider, true);
    assert.deepEqual(capabilities.renameProvider, { prepareProvider: true });
  });

  test('Should find an institution in open, untitled and disk files, and an author\u2019s papers', async () => {
    const at = { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 }, context: { includeDeclaration: true } };
    const locations = await client.request('textDocument/references', at);
    assert.deepEqual(locations.map((l: { uri: string }) => l.uri).sort(), [uri('disk.digest'), uri('open.digest'), UNTITLED].sort());
    const authors = await client.request('textDocument/references', { ...at, position: { line: 6, character: 2 } });
    assert.equal(authors.filter((l: { uri: string }) => l.uri === uri('disk.digest')).length, 1);
    assert.equal(authors.length, 3);
    const none = await client.request('textDocument/references', { ...at, position: { line: 900, character: 2 } });
    assert.deepEqual(none, []);
  });

  test('Should highlight the name in its file', async () => {
    const highlights = await client.request('textDocument/documentHighlight', { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 } });
    assert.deepEqual(highlights.map((h: { range: unknown }) => h.range), [{ start: { line: 8, character: 5 }, end: { line: 8, character: 21 } }]);
  });

  test('Should prepare and rename an institution in every digest with one workspace edit', async () => {
    const position = { line: 8, character: 8 };
    const prepared = await client.request('textDocument/prepareRename', { textDocument: { uri: uri('open.digest') }, position });
    assert.equal(prepared.placeholder, 'Fudan University');
    const edit = await client.request('textDocument/rename', { textDocument: { uri: uri('open.digest') }, position, newName: 'Fudan University, Shanghai' });
    const changes = edit.documentChanges as { textDocument: { uri: string; version: number | null }; edits: { newText: string }[] }[];
    assert.deepEqual(changes.map((c) => [c.textDocument.uri, c.textDocument.version]).sort(), [[uri('disk.digest'), null], [uri('open.digest'), 1], [UNTITLED, 1]].sort());
    assert.ok(changes.every((c) => c.edits.every((e) => e.newText === 'Fudan University, Shanghai')));
  });

  test('Should refuse a new name that would break the line, and answer null where nothing can be renamed', async () => {
    const request = client.request('textDocument/rename', { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 }, newName: 'A（甲）' });
    await assert.rejects(request, /cannot contain/);
    const nothing = await client.request('textDocument/prepareRename', { textDocument: { uri: uri('open.digest') }, position: { line: 0, character: 1 } });
    assert.equal(nothing, null);
    const past = await client.request('textDocument/rename', { textDocument: { uri: uri('open.digest') }, position: { line: 999, character: 1 }, newName: 'x' });
    assert.equal(past, null);
  });
});
