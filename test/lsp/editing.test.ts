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
import type { TextEdit } from 'vscode-languageserver-types';
import { applyEdits } from '../../server/src/service/edits';
import { DOCUMENT_LIMITS } from '../../server/src/service/limits';
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
    assert.match(resolved.documentation.value, /Named 2 times in the workspace/);
  });

  test('Should complete an institution typed a moment ago in another open document', async () => {
    const typedUri = pathToFileURL(path.join(root, 'typed.digest')).href;
    const typedText = digest(entryLines('T', { institutions: '机构 * Kyoto University（京都大学） 纠错' }));
    client.openDocument(typedUri, typedText);
    await client.request('textDocument/documentSymbol', { textDocument: { uri: typedUri } });
    const at = { line: 8, character: '机构 * Kyoto University（京都大学）'.length };
    client.notify('textDocument/didChange', { textDocument: { uri: typedUri, version: 2 }, contentChanges: [{ range: { start: at, end: at }, text: ' ； Zeta Institute（泽塔研究所）' }] });
    const line = openText.split('\n')[8];
    const list = await client.request('textDocument/completion', { textDocument: { uri: openUri() }, position: { line: 8, character: line.length } });
    assert.ok(list.items.some((item: { label: string }) => item.label === 'Zeta Institute'), JSON.stringify(list.items.map((item: { label: string }) => item.label)));
    client.notify('textDocument/didClose', { textDocument: { uri: typedUri } });
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

describe('lsp: fix-all raises no problem in another file', () => {
  let root: string;
  let client: LspClient;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const kyoto = (tag: string, form: string) => entryLines(tag, { institutions: `机构 * Kyoto University（${form} 纠错` });

  before(async () => {
    // Two papers of one file translate it 京都大学, one of another 京大: the first file is clean.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-fix-across-'));
    fs.writeFileSync(path.join(root, 'b.digest'), digest(kyoto('B1', '京都大学）'), kyoto('B2', '京都大学）')));
    fs.writeFileSync(path.join(root, 'c.digest'), digest(kyoto('C1', '京大）')));
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should leave the brackets that would make another file\u2019s translations the minority, and fix the rest', async () => {
    // Two 京大 brackets left open: closed, 京大 would be used three times against two, and the
    // clean file would get two problems. A third paper's authors are fixed all the same.
    const text = digest(kyoto('A1', '京大'), kyoto('A2', '京大'), entryLines('A3', { authors: 'Mei Tanaka，Omar Haddad', institutions: '机构 * Tsinghua University（清华大学） 纠错' }));
    client.openDocument(uri('a.digest'), text);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await client.request<{ edit: { documentChanges: { edits: TextEdit[] }[] } }[]>('textDocument/codeAction', { textDocument: { uri: uri('a.digest') }, range, context: { diagnostics: [], only: ['source.fixAll'] } });
    const fixed = applyEdits(text, actions[0]?.edit.documentChanges[0].edits ?? []);
    assert.notEqual(fixed, text, 'something fixed');
    assert.match(fixed, /Mei Tanaka, Omar Haddad/);
    assert.equal((fixed.match(/（京大 纠错/g) ?? []).length, 2, 'the brackets left open');
  });
  test('Should fix an untitled document\u2019s brackets, whose forms no file of the workspace counts', async () => {
    const text = digest(kyoto('U1', '京大'), kyoto('U2', '京大'), kyoto('U3', '京大'));
    const untitled = 'untitled:Untitled-1';
    client.openDocument(untitled, text);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await client.request<{ edit: { documentChanges: { edits: TextEdit[] }[] } }[]>('textDocument/codeAction', { textDocument: { uri: untitled }, range, context: { diagnostics: [], only: ['source.fixAll'] } });
    const fixed = applyEdits(text, actions[0]?.edit.documentChanges[0].edits ?? []);
    assert.equal((fixed.match(/（京大） 纠错/g) ?? []).length, 3, fixed);
    client.closeDocument(untitled);
  });

  test('Should weigh another open document\u2019s unsaved forms as they are when fix-all is asked right after its edit', async () => {
    // c, open, now translates it 京大 twice (unsaved): closed, a's brackets 京都大学 would make
    // them the minority against b's two and a's.
    client.openDocument(uri('c.digest'), digest(kyoto('C1', '京大）')));
    client.notify('textDocument/didChange', { textDocument: { uri: uri('c.digest'), version: 2 }, contentChanges: [{ text: digest(kyoto('C1', '京大）'), kyoto('C2', '京大）'), kyoto('C3', '京大）')) }] });
    const text = digest(kyoto('D1', '京都大学'), kyoto('D2', '京都大学'));
    client.openDocument(uri('d.digest'), text);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await client.request<{ edit: { documentChanges: { edits: TextEdit[] }[] } }[] | null>('textDocument/codeAction', { textDocument: { uri: uri('d.digest') }, range, context: { diagnostics: [], only: ['source.fixAll'] } });
    assert.deepEqual(actions ?? [], [], 'held back: with the unsaved 京大 ×3, 京都大学 ×4 would be the majority and c reported three times');
    client.closeDocument(uri('d.digest'));
    client.closeDocument(uri('c.digest'));
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

  test('Should find and rename a translation, a topic and a keyword, and find a category, in the files on disk that name them', async () => {
    const lines = digest(fudan('D', 'Fudan University')).split('\n');
    const at = (line: number, text: string) => ({ line, character: lines[line].indexOf(text) + 1 });
    const everywhere = [uri('disk.digest'), uri('open.digest'), uri('unrelated.digest'), UNTITLED].sort();
    const cases: [string, { line: number; character: number }, string[], string | undefined][] = [
      ['translation', at(8, '复旦大学'), [uri('disk.digest'), uri('open.digest'), UNTITLED].sort(), '复旦'],
      ['topic', at(10, '数学推理'), everywhere, '数学推理能力'],
      ['keyword', at(10, 'math reasoning'), everywhere, 'mathematical reasoning'],
      ['category', at(10, 'cs.CL'), everywhere, undefined],
    ];
    for (const [kind, position, uris, newName] of cases) {
      const textDocument = { uri: uri('open.digest') };
      const locations = await client.request('textDocument/references', { textDocument, position, context: { includeDeclaration: true } });
      assert.deepEqual([...new Set(locations.map((l: { uri: string }) => l.uri))].sort(), uris, kind);
      if (newName) {
        const edit = await client.request('textDocument/rename', { textDocument, position, newName });
        assert.deepEqual(edit.documentChanges.map((c: { textDocument: { uri: string } }) => c.textDocument.uri).sort(), uris, kind);
      }
    }
  });

  test('Should answer references and rename of the open document as it is after an edit made while files on disk were read', async () => {
    const racing = uri('racing.digest'); // open only, never on disk
    client.openDocument(racing, digest(fudan('R', 'Fudan University')));
    const at = { textDocument: { uri: racing }, position: { line: 8, character: 8 } };
    // Each request is followed at once by an edit (two lines at the top), which the server reads
    // while the request waits for disk.digest.
    const edit = (version: number) =>
      client.notify('textDocument/didChange', { textDocument: { uri: racing, version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n\n' }] });
    const references = client.request('textDocument/references', { ...at, context: { includeDeclaration: true } });
    edit(2);
    const found = (await references) as { uri: string; range: { start: { line: number } } }[];
    assert.ok(found.some((location) => location.uri === uri('disk.digest')), JSON.stringify(found));
    // Found in the racing document itself, at the line of whichever version was current.
    const own = found.filter((location) => location.uri === racing);
    assert.equal(own.length, 1, JSON.stringify(found));
    assert.ok([8, 10].includes(own[0].range.start.line), JSON.stringify(own));
    // The rename is read after the first edit (sent before it), whichever version the references
    // were found in: the name is on line 10 then.
    const rename = client.request('textDocument/rename', { textDocument: { uri: racing }, position: { line: 10, character: 8 }, newName: 'Fudan U' });
    edit(3);
    const changes = ((await rename) as { documentChanges: { textDocument: { uri: string } }[] }).documentChanges.map((change) => change.textDocument.uri);
    assert.ok(changes.includes(racing) && changes.includes(uri('disk.digest')), JSON.stringify(changes));
    client.closeDocument(racing);
    // A file on disk, open when asked and closed at once (while another file is read): taken from the disk then.
    fs.writeFileSync(path.join(root, 'another.digest'), digest(fudan('N', 'Fudan University')));
    await client.request('paperDigest/rescanWorkspace');
    const onDisk = uri('disk.digest');
    client.openDocument(onDisk, fs.readFileSync(path.join(root, 'disk.digest'), 'utf8'));
    const asked = client.request('textDocument/references', { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 }, context: { includeDeclaration: true } });
    client.closeDocument(onDisk);
    const withClosed = (await asked) as { uri: string }[];
    assert.ok(withClosed.some((location) => location.uri === onDisk), JSON.stringify(withClosed));
    assert.ok(withClosed.some((location) => location.uri === uri('another.digest')), JSON.stringify(withClosed));
    fs.rmSync(path.join(root, 'another.digest'));
    await client.request('paperDigest/rescanWorkspace');
  });

  test('Should take a file that is open with unsaved changes from its text, at its version, and not also from the disk', async () => {
    // disk.digest names Fudan on line 8; its open, unsaved text names it on lines 24 and 40 instead.
    const unsaved = digest(entryLines('B'), fudan('A', 'Fudan University'), fudan('F', 'FUDAN UNIVERSITY'));
    client.openDocument(uri('disk.digest'), unsaved, 'paper-digest', 7);
    try {
      const at = { textDocument: { uri: uri('open.digest') }, position: { line: 8, character: 8 } };
      const locations = await client.request('textDocument/references', { ...at, context: { includeDeclaration: true } });
      assert.deepEqual(locations.filter((l: { uri: string }) => l.uri === uri('disk.digest')).map((l: { range: { start: { line: number } } }) => l.range.start.line), [24, 40]);
      const edit = await client.request('textDocument/rename', { ...at, newName: 'Fudan University, Shanghai' });
      const changes = (edit.documentChanges as { textDocument: { uri: string; version: number | null }; edits: TextEdit[] }[]).filter((c) => c.textDocument.uri === uri('disk.digest'));
      assert.deepEqual(changes.map((c) => c.textDocument.version), [7], 'one change of the open document, at its version');
      const renamed = applyEdits(unsaved, changes[0].edits);
      assert.deepEqual(renamed.split('\n').filter((line) => line.startsWith('机构 * ') && line.includes('Shanghai')), ['机构 * Fudan University, Shanghai（复旦大学） 纠错', '机构 * Fudan University, Shanghai（复旦大学） 纠错']);
      assert.ok(!/fudan university（/i.test(renamed), renamed);
    } finally {
      client.closeDocument(uri('disk.digest'));
    }
  });
});

describe('lsp: the editing help on bad input over stdio', () => {
  let root: string;
  let client: LspClient;
  const uri = (name: string): string => pathToFileURL(path.join(root, name)).href;
  /** A 机构 line of 27,500 characters that ends in `Tsi`: long, but within the limits. */
  const longLine = '机构 * ' + 'Kyoto University（京都大学） ； '.repeat(1_100) + 'Tsi';
  /** A document past the limits: a line longer than the longest the server reads. */
  const tooLong = '机构 * ' + 'Lab ； '.repeat(DOCUMENT_LIMITS.maxLineLength / 6 + 1);
  const BROKEN = '大模型推理能力\n\n标题\n机构 * （（（ ；；Fud\n专题命中 ：：(((；分类 、、\n\nAI总结\n\n机构 Fudan） ；（ 纠错 纠错\n';

  /** Every position request of the editing help at one position, answered (an error rejects). */
  const ask = (name: string, position: { line: number; character: number }) => {
    const textDocument = { uri: uri(name) };
    return Promise.all([
      client.request('textDocument/completion', { textDocument, position }),
      client.request('textDocument/selectionRange', { textDocument, positions: [position] }),
      client.request('textDocument/references', { textDocument, position, context: { includeDeclaration: true } }),
      client.request('textDocument/documentHighlight', { textDocument, position }),
      client.request('textDocument/prepareRename', { textDocument, position }),
      client.request('textDocument/rename', { textDocument, position, newName: 'Fudan University' }),
    ]).then(([completion, selection, references, highlights, prepared, rename]) => ({ completion, selection, references, highlights, prepared, rename }));
  };

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-bad-input-'));
    fs.writeFileSync(path.join(root, 'disk.digest'), DISK_DIGEST);
    client = await LspClient.start({ rootUri: pathToFileURL(root).href });
    await client.request('paperDigest/rescanWorkspace');
    client.openDocument(uri('good.digest'), DISK_DIGEST);
    client.openDocument(uri('broken.digest'), BROKEN);
    client.openDocument(uri('long-line.digest'), digest(entryLines('L', { institutions: longLine })));
    client.openDocument(uri('too-large.digest'), digest(entryLines('A'), entryLines('B', { institutions: tooLong })));
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should answer every request past the end of the text, or of a line, with an empty answer', async () => {
    const lines = DISK_DIGEST.split('\n');
    for (const position of [{ line: lines.length + 5, character: 0 }, { line: 9_999_999, character: 9_999_999 }, { line: 8, character: lines[8].length + 1 }, { line: 0, character: 500 }]) {
      const answers = await ask('good.digest', position);
      assert.deepEqual(answers, { completion: { isIncomplete: false, items: [] }, selection: [], references: [], highlights: [], prepared: null, rename: null }, JSON.stringify(position));
    }
  });

  test('Should answer every request at every position of a broken entry, never with an error', async () => {
    const lines = BROKEN.split('\n');
    for (let line = 0; line < lines.length; line++) {
      for (let character = 0; character <= lines[line].length; character++) {
        const { completion, selection, references, highlights } = await ask('broken.digest', { line, character });
        const where = `${line}:${character}`;
        assert.ok(Array.isArray(completion.items) && Array.isArray(references) && Array.isArray(highlights), where);
        assert.equal(selection.length, 1, where);
        for (const item of completion.items as { textEdit: TextEdit }[]) {
          const { start, end } = item.textEdit.range;
          assert.ok(start.line === line && end.line === line && start.character <= character && character <= end.character && end.character <= lines[line].length, `${where}: ${JSON.stringify(item.textEdit)}`);
        }
      }
    }
  });

  test('Should answer an empty completion on a line of more than 20,000 characters, and nothing in a document past the limits', async () => {
    const long = await client.request('textDocument/completion', { textDocument: { uri: uri('long-line.digest') }, position: { line: 8, character: longLine.length } });
    assert.deepEqual(long, { isIncomplete: false, items: [] });
    for (const position of [{ line: 24, character: 10 }, { line: 8, character: 8 }]) {
      assert.deepEqual(await ask('too-large.digest', position), { completion: null, selection: null, references: [], highlights: [], prepared: null, rename: null }, JSON.stringify(position));
    }
    assert.equal(await client.request('textDocument/documentLink', { textDocument: { uri: uri('too-large.digest') } }), null);
  });

  test('Should resolve an item it did not make, or one with bad data, to itself', async () => {
    for (const item of [{ label: 'x' }, { label: 'x', data: 'junk' }, { label: 'x', data: { kind: 'institution', key: 5 } }, { label: 'x', data: { kind: 'category', code: 'xx.YY' } }, { label: 'x', data: { kind: 'nothing' } }, { label: 'x', data: null }]) {
      assert.deepEqual(await client.request('completionItem/resolve', item), item);
    }
  });
});

describe('lsp: author completion right after an edit', () => {
  // The authors offered come from the workspace index, whose papers of an open document read their
  // content from the entries of the model they were indexed with; an edit changes those entries in
  // place, and the index takes the edit a moment later. Completion, asked right after the
  // keystroke, must see the document as it is, and not offer the name being typed.
  let client: LspClient;
  const uri = 'file:///virtual/authors.digest';
  const papers = [0, 1, 2, 3].map((i) => entryLines(`P${i}`, { authors: `Alice Smith${i}, Bob Jones${i}`, institutions: '机构 * Fudan University（复旦大学） 纠错' }));
  const text = digest(...papers);
  const lines = text.split('\n');
  const authorsLine = (i: number): number => lines.indexOf(`Alice Smith${i}, Bob Jones${i}`);

  before(async () => {
    client = await LspClient.start({ rootUri: null });
    client.openDocument(uri, text);
    // Indexed and checked, as after a pause in typing.
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    await client.request('paperDigest/papersTree', { grouping: 'topic', filter: '' });
  });

  after(async () => {
    await client?.shutdown();
  });

  test('Should offer the authors of the document as edited, not the text of the entries before the edit', async () => {
    // `Carol Wu, ` typed at the start of paper 1's authors, then completion after paper 3's first author.
    const line1 = authorsLine(1);
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: line1, character: 0 }, end: { line: line1, character: 0 } }, text: 'Carol Wu, ' }] });
    const line3 = authorsLine(3);
    const list = await client.request<{ items: { label: string }[] }>('textDocument/completion', { textDocument: { uri }, position: { line: line3, character: 'Alice Smith3, '.length } });
    const labels = list.items.map((item) => item.label).sort();
    assert.deepEqual(labels, ['Alice Smith0', 'Alice Smith1', 'Alice Smith2', 'Bob Jones0', 'Bob Jones1', 'Bob Jones2', 'Carol Wu']);
  });

  test('Should not offer the name being typed', async () => {
    // `, Al` typed at the end of paper 2's authors, then completion there.
    const line2 = authorsLine(2);
    const end = lines[line2].length;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: line2, character: end }, end: { line: line2, character: end } }, text: ', Al' }] });
    const list = await client.request<{ items: { label: string }[] }>('textDocument/completion', { textDocument: { uri }, position: { line: line2, character: end + 4 } });
    const labels = list.items.map((item) => item.label).sort();
    assert.deepEqual(labels, ['Alice Smith0', 'Alice Smith1', 'Alice Smith3']);
  });
});
