/**
 * Problems of the whole workspace in a real editor: digests that were never opened have their
 * problems in the Problems panel (pull diagnostics, `workspace/diagnostic`), and a duplicated
 * paper is reported once, with an action that opens the other copy.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeOf, isOpen, workspaceFile } from './helpers';
import { diagnosticsOf, waitUntil } from './waiting';

describe('Paper Digest: problems of the workspace', () => {
  before(async () => {
    await activateExtension();
  });

  it('Should list the problems of a digest that was never opened, and drop them when it is deleted', async () => {
    // A digest written now, so that no other test has opened it: a copy of a paper of
    // papers.digest (later by name, so this copy is reported) with an unknown category.
    const uri = workspaceFile('zz-unopened.digest');
    const text = [
      '大模型推理能力',
      'Sparse Probes for Arithmetic Circuits in Small Transformers',
      '小型Transformer中算术电路的稀疏探针',
      'Mei Tanaka, Omar Haddad, Lin Qiu',
      '专题命中 数学推理 ：reasoning(abstract)；分类 cs.QQQ',
      'AI总结 本文用稀疏探针定位小型Transformer中的加法电路。',
      '',
    ].join('\n\n');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    try {
      const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'unknown-category') && d.some((x) => codeOf(x) === 'duplicate-paper'));
      const duplicate = diagnostics.find((d) => codeOf(d) === 'duplicate-paper')!;
      assert.strictEqual(duplicate.severity, vscode.DiagnosticSeverity.Information);
      const related = (duplicate.relatedInformation ?? []).map((info) => info.location.uri.path.split('/').pop()).sort();
      assert.deepStrictEqual(related, ['papers.digest', 'second.digest']);
      assert.ok(!isOpen(uri), 'reading its problems did not open it');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
    await diagnosticsOf(uri, (d) => d.length === 0);
  });

  it('Should open the other copy of a duplicated paper from its code action', async () => {
    const uri = workspaceFile('second.digest');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'duplicate-paper'));
    const duplicate = diagnostics.find((d) => codeOf(d) === 'duplicate-paper')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, duplicate.range, vscode.CodeActionKind.QuickFix.value);
    const open = actions.find((a) => a.command?.command === 'paperDigest.openLocation');
    assert.ok(open?.command, `no action opens the other copy among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.match(open.title, /papers\.digest, line 3/);
    await vscode.commands.executeCommand(open.command.command, ...(open.command.arguments ?? []));
    const editor = await waitUntil(
      () => {
        const active = vscode.window.activeTextEditor;
        return active && active.document.uri.path.endsWith('/papers.digest') ? active : undefined;
      },
      'papers.digest to be the active editor',
      [vscode.window.onDidChangeActiveTextEditor],
    );
    assert.strictEqual(editor.selection.start.line, 2);
    assert.strictEqual(editor.document.getText(editor.selection), 'Sparse Probes for Arithmetic Circuits in Small Transformers');
  });
});
