/**
 * The editing help in a real editor: completion of an institution another digest names, on a
 * `机构` line, and a rename of an institution across two files (one open, one only on disk).
 * The suite writes its own two digests into a folder of the workspace and removes it after.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension } from './helpers';
import { waitUntil } from './waiting';

/** A digest with one paper whose 机构 line is `institutions`. */
function digestWith(title: string, institutions: string): string {
  return [
    '大模型推理能力',
    title,
    '关于推理的论文',
    'Mei Tanaka, Lin Qiu',
    institutions,
    '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG',
    'AI总结 本文研究推理。',
  ].join('\n\n') + '\n';
}

describe('Editing help in the editor', () => {
  let api: any;
  let folder: vscode.Uri;
  let source: vscode.Uri;
  let target: vscode.Uri;

  before(async () => {
    api = await activateExtension();
    const root = vscode.workspace.workspaceFolders?.[0];
    assert.ok(root, 'the tests need the workspace test/editor/workspace open');
    folder = vscode.Uri.joinPath(root.uri, 'editing-help');
    source = vscode.Uri.joinPath(folder, 'source.digest');
    target = vscode.Uri.joinPath(folder, 'target.digest');
    const encode = (text: string) => new TextEncoder().encode(text);
    await vscode.workspace.fs.writeFile(source, encode(digestWith('Graph Probes for Reasoning', '机构 * Zhejiang University（浙江大学） ； Kyoto University（京都大学） 纠错')));
    await vscode.workspace.fs.writeFile(target, encode(digestWith('Sparse Circuits for Planning', '机构 * Zhe')));
    // File events for a folder created meanwhile can come late or not at all on a busy machine:
    // read the workspace's digests again, so the server knows both files before the tests ask.
    await api.papersView.rescan();
  });

  after(async () => {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.toString().startsWith(folder.toString()) && document.isDirty) {
        await document.save();
      }
    }
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
  });

  it('Should complete on a 机构 line an institution that another digest names, with its translation', async () => {
    const document = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(document);
    const position = new vscode.Position(8, '机构 * Zhe'.length);
    // The other digest is indexed once the server has seen it: ask again on each index change.
    const item = await waitUntil(
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', target, position);
        return list?.items.find((each) => (typeof each.label === 'string' ? each.label : each.label.label) === 'Zhejiang University');
      },
      'the completion of Zhejiang University',
      [api.papersView.onDidChangeIndex, vscode.languages.onDidChangeDiagnostics],
    );
    const edit = item.textEdit as vscode.TextEdit | undefined;
    const inserted = edit?.newText ?? (typeof item.insertText === 'string' ? item.insertText : item.insertText?.value);
    assert.strictEqual(inserted, 'Zhejiang University（浙江大学）');
    assert.match(String(item.detail), /浙江大学 · once/);
    const workspaceEdit = new vscode.WorkspaceEdit();
    workspaceEdit.replace(target, edit?.range ?? new vscode.Range(8, 5, 8, position.character), inserted);
    assert.ok(await vscode.workspace.applyEdit(workspaceEdit));
    assert.strictEqual(document.lineAt(8).text, '机构 * Zhejiang University（浙江大学）');
  });

  it('Should rename an institution in the open digest and in the one on disk', async () => {
    const document = await vscode.workspace.openTextDocument(target);
    const position = new vscode.Position(8, 8);
    // The completed line reaches the server as a change: ask until the rename sees the new name.
    await waitUntil(
      async () => {
        const prepared = await vscode.commands.executeCommand<{ range: vscode.Range; placeholder: string } | vscode.Range>('vscode.prepareRename', target, position).then(
          (value) => value,
          () => undefined,
        );
        return prepared && 'placeholder' in prepared && prepared.placeholder === 'Zhejiang University' ? prepared : undefined;
      },
      'rename to be possible on Zhejiang University',
      [vscode.languages.onDidChangeDiagnostics, api.papersView.onDidChangeIndex],
    );
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', target, position, 'Zhejiang University, Hangzhou');
    assert.ok(edit, 'no rename edit');
    const files = edit.entries().map(([uri]) => uri.toString()).sort();
    assert.deepStrictEqual(files, [source.toString(), target.toString()].sort());
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.strictEqual(document.lineAt(8).text, '机构 * Zhejiang University, Hangzhou（浙江大学）');
    const other = await vscode.workspace.openTextDocument(source);
    assert.strictEqual(other.lineAt(8).text, '机构 * Zhejiang University, Hangzhou（浙江大学） ； Kyoto University（京都大学） 纠错');
  });
});
