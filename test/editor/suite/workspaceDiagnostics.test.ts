/**
 * Problems of the whole workspace in a real editor: digests that were never opened have their
 * problems in the Problems panel (pull diagnostics, `workspace/diagnostic`), and a duplicated
 * paper is reported once, with an action that opens the other copy.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { diagnosticsOf, waitUntil } from './waiting';

const EXTENSION_ID = 'paper-digest.paper-digest';

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need the workspace test/editor/workspace open');
  return vscode.Uri.joinPath(folder.uri, name);
}

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString());
}

describe('Paper Digest: problems of the workspace', () => {
  before(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not installed`);
    await extension.activate();
  });

  it('Should list the problems of a digest that was never opened', async () => {
    const uri = workspaceFile('digests/2026-05-02.digest');
    assert.ok(!isOpen(uri), 'the digest must not be open for this test');
    const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'duplicate-paper'));
    const duplicate = diagnostics.find((d) => codeOf(d) === 'duplicate-paper')!;
    assert.strictEqual(duplicate.severity, vscode.DiagnosticSeverity.Information);
    assert.strictEqual(duplicate.relatedInformation?.[0]?.location.uri.path.split('/').pop(), '2026-05-01.digest');
    assert.ok(!isOpen(uri), 'reading its problems did not open it');
    // The first copy is not reported: one problem per paper.
    const first = vscode.languages.getDiagnostics(workspaceFile('digests/2026-05-01.digest'));
    assert.deepStrictEqual(first.filter((d) => codeOf(d) === 'duplicate-paper'), [], JSON.stringify(first));
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
