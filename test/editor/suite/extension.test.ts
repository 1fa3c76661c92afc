/**
 * The extension in a real editor: language, outline, hover, diagnostics and a quick fix, the
 * Papers view's data and workspace symbols, on the workspace test/editor/workspace.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activateExtension, codeOf, EXTENSION_ID, documentSymbolsOf, hoverText, workspaceFile } from './helpers';
import { diagnosticsOf, waitUntil } from './waiting';

describe('Paper Digest in the editor', () => {
  let api: any;

  before(async () => {
    api = await activateExtension();
  });

  it('Should keep the index of the workspace for the next start in its storage folder', async () => {
    const folder: string | undefined = api.keptIndexFolder;
    assert.ok(folder, 'a storage folder for the workspace');
    const file = path.join(folder, 'papers-index.json');
    // Written once the server has read the workspace and is idle.
    const text = await waitUntil(() => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined), `${file} to be written`, []);
    assert.match(text, /^\{"format":"paper-digest-kept-index"/);
    assert.ok(text.includes(JSON.stringify(workspaceFile('papers.digest').toString())), 'papers.digest is kept');
    // By this build of the server (a file left by an earlier run would name another).
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const build = createHash('sha256').update(fs.readFileSync(path.join(extension.extensionPath, 'dist', 'server.js'))).digest('hex').slice(0, 32);
    assert.strictEqual((JSON.parse(text) as { build: string }).build, build);
    // The server was told which grouping the view starts in (by topic in a new workspace; the
    // one it was left in otherwise, as a run reusing its user data may have), which it reads the
    // digests for first.
    assert.match(String(api.client.clientOptions.initializationOptions.papersGrouping), /^(topic|category|institution|file|unread|starred|forYou|new)$/);
  });

  it('Should set the digest language on .digest files', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile('papers.digest'));
    assert.strictEqual(document.languageId, 'paper-digest');
  });

  it('Should switch a .txt file that reads like a digest, and only such a file', async () => {
    const plain = await vscode.workspace.openTextDocument(workspaceFile('plain.txt'));
    await vscode.window.showTextDocument(plain);
    const notesUri = workspaceFile('notes.txt');
    const switched = waitUntil(
      () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === notesUri.toString() && d.languageId === 'paper-digest'),
      'notes.txt to switch to paper-digest',
      [vscode.workspace.onDidOpenTextDocument],
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(notesUri));
    await switched;
    assert.strictEqual(plain.languageId, 'plaintext');
  });

  it('Should give the outline: heading, one symbol per paper named by both titles, no fields', async () => {
    const uri = workspaceFile('papers.digest');
    await vscode.workspace.openTextDocument(uri);
    const symbols = await documentSymbolsOf(uri);
    assert.strictEqual(symbols[0].name, '大模型推理能力');
    assert.deepStrictEqual(
      symbols[0].children.map((c) => c.name),
      ['Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针', 'Chain-of-Thought Distillation with Verifier Feedback · 基于验证器反馈的思维链蒸馏'],
    );
    assert.deepStrictEqual(symbols[0].children[0].children, []);
  });

  it('Should show the taxonomy name of a category on hover, in English and Chinese', async () => {
    const uri = workspaceFile('papers.digest');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document.lineAt(10).text;
    const position = new vscode.Position(10, line.indexOf('cs.CL') + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
    const text = hoverText(hovers);
    assert.match(text, /Computation and Language/);
    assert.match(text, /计算与语言/);
  });

  it('Should show the Chinese title when hovering the English title', async () => {
    const uri = workspaceFile('papers.digest');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(2, 3));
    assert.match(hoverText(hovers), /小型Transformer中算术电路的稀疏探针/);
  });

  it('Should report an unknown category and fix it with a quick fix', async () => {
    const uri = workspaceFile('papers.digest');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'unknown-category'));
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-category')!;
    assert.strictEqual(unknown.range.start.line, 22);
    assert.strictEqual(document.getText(unknown.range), 'cs.XYZ');
    // The first paper is also in second.digest, which comes later: the duplicate is reported
    // there, once, and nothing outside the broken entry here.
    const outside = diagnostics.filter((d) => d.range.start.line < 14);
    assert.deepStrictEqual(outside.map((d) => codeOf(d)), []);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, unknown.range, vscode.CodeActionKind.QuickFix.value);
    // The nearest known categories are offered; take the first.
    const fix = actions.find((a) => a.edit && a.kind?.value === 'quickfix' && /cs\.[A-Z]{2}/.test(a.title));
    assert.ok(fix, `no quick fix among ${JSON.stringify(actions.map((a) => [a.title, a.kind?.value, !!a.edit, a.diagnostics?.map(codeOf)]))}`);
    const before = document.getText();
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    const after = document.getText();
    assert.notStrictEqual(after, before);
    assert.strictEqual(after.split('\n').length, before.split('\n').length);
    await diagnosticsOf(uri, (d) => !d.some((x) => codeOf(x) === 'unknown-category'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('Should find papers of files that are not open through workspace symbols', async () => {
    const symbols = await waitUntil(
      async () => {
        const result = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', '潜在搜索树');
        return result && result.length > 0 ? result : undefined;
      },
      'workspace symbols',
      [vscode.languages.onDidChangeDiagnostics, vscode.workspace.onDidOpenTextDocument],
    );
    assert.strictEqual(path.basename(symbols[0].location.uri.fsPath), 'second.digest');
    // The symbol is named by the title that matched, the other title is its container.
    assert.strictEqual(symbols[0].name, '基于潜在搜索树的工具使用');
    assert.strictEqual(symbols[0].containerName, 'Latent Search Trees for Tool Use');
  });

  it('Should show every paper of the workspace in the Papers view, by topic, keyword and file', async () => {
    const view = api.papersView;
    const roots: any[] = await waitUntil(
      async () => {
        const result: any[] = await view.getChildren();
        return result.length >= 2 ? result : undefined;
      },
      'the Papers view to list both topics',
      [view.onDidChangeIndex],
    );
    const labels = roots.map((r) => r.node.label);
    assert.ok(labels.includes('数学推理') && labels.includes('智能体规划'), labels.join(', '));
    const reasoning = roots.find((r) => r.node.label === '数学推理');
    assert.strictEqual(reasoning.node.count, 2);
    assert.match(String(view.getTreeItem(reasoning).description), /^2\b/);
    const keywords: any[] = await view.getChildren(reasoning);
    const keyword = keywords.find((k) => k.node.label === 'reasoning');
    assert.ok(keyword, keywords.map((k) => k.node.label).join(', '));
    const [paper] = await view.getChildren(keyword);
    const item: vscode.TreeItem = view.getTreeItem(paper);
    assert.strictEqual(item.label, 'Sparse Probes for Arithmetic Circuits in Small Transformers');
    assert.match(String(item.description), /小型Transformer中算术电路的稀疏探针/);
    assert.ok(paper.node.duplicate, 'the paper is in two files and is marked');
    const tooltip = item.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString && !tooltip.isTrusted && !tooltip.supportHtml);
    assert.match(tooltip.value, /稀疏探针/);
    assert.strictEqual(item.command?.command, 'vscode.open');

    await view.setGrouping('file');
    const files: any[] = await view.getChildren();
    // notes.txt is open and was switched to the digest language, so its paper is listed too.
    assert.deepStrictEqual(files.map((f) => f.node.label).sort(), ['2026-05-01.digest', '2026-05-02.digest', 'notes.txt', 'papers.digest', 'second.digest']);
    view.setFilter('Natarajan');
    const filtered: any[] = await view.getChildren();
    assert.deepStrictEqual(filtered.map((f) => f.node.label), ['second.digest']);
    const [only] = await view.getChildren(filtered[0]);
    assert.strictEqual(only.node.title, 'Latent Search Trees for Tool Use');
    view.setFilter('');
    await view.setGrouping('topic');
  });

  it('Should reveal the paper under the cursor in the Papers view', async () => {
    const view = api.papersView;
    await vscode.commands.executeCommand('paperDigest.papers.focus');
    const document = await vscode.workspace.openTextDocument(workspaceFile('second.digest'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(16, 0, 16, 0);
    const revealed = await view.follow(editor);
    assert.ok(revealed, 'nothing revealed');
    assert.strictEqual(revealed.node.title, 'Latent Search Trees for Tool Use');
    await waitUntil(() => (view.treeView.selection[0]?.id === revealed.id ? true : undefined), 'the revealed paper to be selected', [view.treeView.onDidChangeSelection]);
  });

  it('Should hand the tests the running language client', () => {
    assert.ok(api && api.client, 'activate() returns the client');
  });
});

