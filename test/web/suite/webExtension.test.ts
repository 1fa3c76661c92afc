/**
 * The web extension in VS Code's web worker extension host: its client in the worker extension
 * host, its server in a web worker, the workspace's files read through the client. The same
 * workspace as the editor suite (test/editor/workspace), served by code-server as a
 * vscode-remote file system, which the web worker reaches only through `vscode.workspace.fs`.
 */
import * as vscode from 'vscode';
import { activateExtension, codeOf, documentSymbolsOf, EXTENSION_ID, hoverText, isOpen, workspaceFile } from '../../editor/suite/helpers';
import { diagnosticsOf, waitForEvent, waitUntil } from '../../editor/suite/waiting';

function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

function equal<T>(actual: T, expected: T, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) {
    throw new Error(`${what}: expected ${e}, got ${a}`);
  }
}

describe('Paper Digest as a web extension', () => {
  let api: any;

  before(async () => {
    api = await activateExtension();
  });

  it('Should run in the web worker extension host, with no Node', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    // In code-server a Node extension runs on the remote (Workspace); a web one in the browser (UI).
    equal(extension.extensionKind, vscode.ExtensionKind.UI, 'extensionKind');
    check(typeof (globalThis as { importScripts?: unknown }).importScripts === 'function', 'the suite runs in a web worker');
    check((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === undefined, 'there is no Node here');
    check(workspaceFile().scheme !== 'file', `the workspace is a virtual file system here (${workspaceFile().toString()})`);
    check(api && api.client && api.client.isRunning(), 'activate() returns the running client');
  });

  it('Should list the papers of files that are not open in the Papers view', async () => {
    const view = api.papersView;
    const unopened = [workspaceFile('second.digest'), workspaceFile('digests', '2026-05-01.digest'), workspaceFile('digests', '2026-05-02.digest')];
    check(unopened.every((uri) => !isOpen(uri)), 'the files are not open');
    await view.setGrouping('file');
    const files: any[] = await waitUntil(
      async () => {
        const result: any[] = await view.getChildren();
        return result.length >= 4 ? result : undefined;
      },
      'the Papers view to list the workspace files',
      [view.onDidChangeIndex],
    );
    equal(files.map((f) => f.node.label).sort(), ['2026-05-01.digest', '2026-05-02.digest', 'papers.digest', 'second.digest'], 'files in the Papers view');
    check(unopened.every((uri) => !isOpen(uri)), 'listing them opened none of them');
    view.setFilter('Natarajan');
    const filtered: any[] = await view.getChildren();
    equal(filtered.map((f) => f.node.label), ['second.digest'], 'files with a paper by Natarajan');
    const [only] = await view.getChildren(filtered[0]);
    equal(only.node.title, 'Latent Search Trees for Tool Use', 'the paper by Natarajan');
    const item: vscode.TreeItem = view.getTreeItem(only);
    equal(item.command?.command, 'vscode.open', 'the paper opens on click');
    equal((item.command?.arguments?.[0] as vscode.Uri).toString(), workspaceFile('second.digest').toString(), 'it opens its file');
    view.setFilter('');
    await view.setGrouping('topic');
  });

  it('Should give the outline of a digest', async () => {
    const uri = workspaceFile('papers.digest');
    await vscode.workspace.openTextDocument(uri);
    const symbols = await documentSymbolsOf(uri);
    equal(symbols[0].name, '大模型推理能力', 'the heading');
    equal(
      symbols[0].children.map((c) => c.name),
      ['Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针', 'Chain-of-Thought Distillation with Verifier Feedback · 基于验证器反馈的思维链蒸馏'],
      'the papers',
    );
  });

  it('Should show the taxonomy name of a category and the Chinese title on hover', async () => {
    const uri = workspaceFile('papers.digest');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document.lineAt(10).text;
    const category = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(10, line.indexOf('cs.CL') + 2)));
    check(/Computation and Language/.test(category) && /计算与语言/.test(category), `hover of cs.CL: ${category}`);
    const title = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(2, 3)));
    check(/小型Transformer中算术电路的稀疏探针/.test(title), `hover of the title: ${title}`);
  });

  it('Should report an unknown category and fix it with a quick fix', async () => {
    const uri = workspaceFile('papers.digest');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'unknown-category'));
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-category')!;
    equal(document.getText(unknown.range), 'cs.XYZ', 'the unknown category');
    const href = typeof unknown.code === 'object' ? unknown.code.target.toString() : '';
    check(/^https:\/\/github\.com\/.+\/docs\/rules\/unknown-category\.md$/.test(href), `the rule's page is linked: ${href}`);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, unknown.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.edit && a.kind?.value === 'quickfix' && /cs\.[A-Z]{2}/.test(a.title));
    check(fix, `no quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    const before = diagnostics.filter((d) => codeOf(d) !== 'unknown-category').map((d) => `${codeOf(d)}@${d.range.start.line}`);
    check(await vscode.workspace.applyEdit(fix.edit!), 'the fix applies');
    const after = await diagnosticsOf(uri, (d) => !d.some((x) => codeOf(x) === 'unknown-category'));
    // The problem went away and no new one came.
    equal(after.map((d) => `${codeOf(d)}@${d.range.start.line}`), before, 'the other problems');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('Should list the problems of a digest that was never opened, read through the client', async () => {
    const uri = workspaceFile('zz-web-unopened.digest');
    const text = ['大模型推理能力', 'A Paper Only the Web Test Writes', '只有网页测试写的论文', 'Mei Tanaka', '专题命中 数学推理 ：reasoning(abstract)；分类 cs.QQQ', 'AI总结 一篇测试论文。', ''].join('\n\n');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    try {
      const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'unknown-category'));
      const unknown = diagnostics.find((x) => codeOf(x) === 'unknown-category')!;
      equal(unknown.range.start.line, 8, 'the line of the unknown category');
      check(!isOpen(uri), 'the digest was not opened to get its problems');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
    await diagnosticsOf(uri, (d) => d.length === 0);
  });

  it('Should index a digest written to the workspace, through the file events', async () => {
    const view = api.papersView;
    const uri = workspaceFile('digests', 'written-by-the-web-test.digest');
    const text = (await vscode.workspace.fs.readFile(workspaceFile('second.digest'))).slice();
    const written = new TextDecoder().decode(text).replace('Latent Search Trees for Tool Use', 'Latent Search Forests for Tool Use');
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.digest', false, true, true);
    const created = waitForEvent(watcher.onDidCreate, (each) => each.toString() === uri.toString(), 'the file event of the written digest');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(written));
    try {
      await created.finally(() => watcher.dispose());
      await view.setGrouping('file');
      const files: any[] = await waitUntil(
        async () => {
          const result: any[] = await view.getChildren();
          return result.some((f) => f.node.label === 'written-by-the-web-test.digest') ? result : undefined;
        },
        'the written digest in the Papers view',
        [view.onDidChangeIndex],
      );
      const file = files.find((f) => f.node.label === 'written-by-the-web-test.digest');
      const papers: any[] = await view.getChildren(file);
      check(papers.some((p) => p.node.title === 'Latent Search Forests for Tool Use'), `papers: ${papers.map((p) => p.node.title).join(', ')}`);
    } finally {
      await vscode.workspace.fs.delete(uri);
      await view.setGrouping('topic');
    }
  });
});
