/**
 * What a daily reader meets in the editor (issue 17): the language picked by the user wins over
 * content detection, the Papers view's filter without a match, the file of each paper row,
 * expansion and the revealed paper over a switch of grouping, Fix All's counts, rule pages in
 * the Markdown preview, the palette and the context menu of papers, and the language status.
 *
 * Every document these tests make is untitled or written here and deleted, and every setting of
 * the view is put back, so the other suites see the workspace as it was.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { diagnosticsOf, waitForEvent, waitUntil } from './waiting';

const EXTENSION_ID = 'paper-digest.paper-digest';
const SPARSE = 'Sparse Probes for Arithmetic Circuits in Small Transformers';
const SPARSE_ZH = '小型Transformer中算术电路的稀疏探针';
const LATENT = 'Latent Search Trees for Tool Use';

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need the workspace test/editor/workspace open');
  return vscode.Uri.joinPath(folder.uri, name);
}

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'paper-digest');
}

/** A digest-like text (two labels at line starts) whose only paper has a title of its own. */
function digestText(title: string): string {
  return ['每日笔记', title, '每日的中文标题', 'Ada Lovelace', '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG', 'AI总结 一段总结。', ''].join('\n\n');
}

/** Ends an untitled or scratch document's part in the server: a language change closes it there. */
async function retire(document: vscode.TextDocument): Promise<void> {
  if (document.languageId !== 'plaintext') {
    await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
  }
  if (vscode.window.activeTextEditor?.document === document) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

interface Manifest {
  contributes: {
    menus: Record<string, { command?: string; when?: string; group?: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
  };
}

describe('Paper Digest for a daily reader', () => {
  let api: any;
  let manifest: Manifest;

  before(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not installed`);
    api = await extension.activate();
    manifest = extension.packageJSON as Manifest;
  });

  afterEach(async () => {
    api.papersView.setFilter('');
    await api.papersView.setGrouping('topic');
  });

  it('Should keep Plain Text when the user picks it for a detected .txt', async () => {
    const first = workspaceFile('zz-detected-first.txt');
    const second = workspaceFile('zz-detected-second.txt');
    await vscode.workspace.fs.writeFile(first, Buffer.from(digestText('A First Detected Note About Probes'), 'utf8'));
    await vscode.workspace.fs.writeFile(second, Buffer.from(digestText('A Second Detected Note About Probes'), 'utf8'));
    const documents: vscode.TextDocument[] = [];
    try {
      const detectedFirst = waitUntil(
        () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === first.toString() && d.languageId === 'paper-digest'),
        'the first .txt to be detected as a digest',
        [vscode.workspace.onDidOpenTextDocument],
      );
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(first));
      documents.push(await detectedFirst);
      // The user picks Plain Text in the language picker.
      const plain = await vscode.languages.setTextDocumentLanguage(documents[0], 'plaintext');
      assert.strictEqual(plain.languageId, 'plaintext');
      // Detection of another file, switched after the first one's language change was seen: had
      // detection taken that change for an open, its switch back would have come before.
      const detectedSecond = waitUntil(
        () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === second.toString() && d.languageId === 'paper-digest'),
        'the second .txt to be detected as a digest',
        [vscode.workspace.onDidOpenTextDocument],
      );
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(second));
      documents.push(await detectedSecond);
      const firstNow = vscode.workspace.textDocuments.find((d) => d.uri.toString() === first.toString());
      assert.strictEqual(firstNow?.languageId, 'plaintext', 'the language the user picked was replaced');
    } finally {
      for (const document of documents) {
        await retire(document);
      }
      await vscode.workspace.fs.delete(first);
      await vscode.workspace.fs.delete(second);
    }
  });

  it('Should follow a folder of digests renamed on disk, told as the folder alone', async () => {
    const view = api.papersView;
    await view.setGrouping('file');
    const folder = workspaceFile('zz-moving-folder');
    const renamed = workspaceFile('zz-moved-folder');
    // The file groups' ids hold their files' URIs (a label is the file's name alone).
    const labels = async (): Promise<string[]> => (await view.getChildren()).map((element: { id: string }) => element.id);
    try {
      await vscode.workspace.fs.createDirectory(folder);
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, '2026-05-09.digest'), Buffer.from(digestText('A Paper In A Folder That Moves'), 'utf8'));
      await waitUntil(async () => ((await labels()).some((label) => label.includes('zz-moving-folder')) ? true : undefined), 'the new folder\u2019s digest in the view', [view.onDidChangeIndex]);
      await vscode.workspace.fs.rename(folder, renamed);
      await waitUntil(
        async () => {
          const now = await labels();
          return now.some((label) => label.includes('zz-moved-folder')) && !now.some((label) => label.includes('zz-moving-folder')) ? true : undefined;
        },
        'the renamed folder\u2019s digest in the view, under its new name',
        [view.onDidChangeIndex],
      );
    } finally {
      for (const each of [folder, renamed]) await vscode.workspace.fs.delete(each, { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('Should say "0 papers" and show the Clear Filter welcome when the filter matches nothing, and count each paper once', async () => {
    const view = api.papersView;
    view.setFilter('zz no paper is called this');
    assert.deepStrictEqual(await view.getChildren(), []);
    assert.strictEqual(view.treeView.description, 'by topic · 0 papers');
    // VS Code shows the welcome content of an empty view only when it has no message.
    assert.strictEqual(view.treeView.message, undefined);
    const welcome = manifest.contributes.viewsWelcome.find((entry) => entry.view === 'paperDigest.papers' && entry.when === 'paperDigest.papersFiltered');
    assert.ok(welcome, 'no welcome content for a filter without a match');
    assert.match(welcome.contents, /\[[^\]]+\]\(command:paperDigest\.clearFilter\)/);
    // Sparse Probes is in papers.digest and in second.digest: one paper.
    view.setFilter('Sparse Probes');
    const groups = await view.getChildren();
    assert.ok(groups.length > 0);
    assert.strictEqual(view.treeView.description, 'by topic · 1 paper');
    assert.strictEqual(view.treeView.message, 'Filter: “Sparse Probes” — 1 paper');
    await vscode.commands.executeCommand('paperDigest.clearFilter');
    assert.strictEqual(view.filter, '');
    assert.strictEqual(view.treeView.description, 'by topic');
    assert.strictEqual(view.treeView.message, undefined);
  });

  it('Should name the file of each paper row, except in the file grouping', async () => {
    const view = api.papersView;
    // Both copies of Sparse Probes name Kyoto University.
    view.setFilter('Sparse Probes');
    await view.setGrouping('institution');
    const institutions: any[] = await view.getChildren();
    const kyoto = institutions.find((group) => group.node.label === 'Kyoto University');
    assert.ok(kyoto, institutions.map((group) => group.node.label).join(', '));
    const papers: any[] = await view.getChildren(kyoto);
    // The Chinese title, the file, the duplicate mark (and the reading state's words after them).
    const descriptions = papers.map((paper) => String(view.getTreeItem(paper).description));
    const files = descriptions.map((description) => /^(.+?) · ([^ ]+\.digest) · duplicate\b/.exec(description)).map((match, i) => {
      assert.ok(match && match[1] === SPARSE_ZH, `description ${descriptions[i]}`);
      return match[2];
    });
    assert.deepStrictEqual(files.sort(), ['papers.digest', 'second.digest']);
    await view.setGrouping('file');
    const groups: any[] = await view.getChildren();
    const [inFile] = await view.getChildren(groups[0]);
    const description = String(view.getTreeItem(inFile).description);
    assert.ok(description.startsWith(`${SPARSE_ZH} · duplicate`) && !description.includes('.digest'), description);
    // The reading groupings list papers by file too: no file name in their rows either.
    view.setFilter('');
    await view.setGrouping('unread');
    const unreadFiles: any[] = await view.getChildren();
    assert.ok(unreadFiles.length > 0 && unreadFiles.every((group) => group.node.groupKind === 'file'));
    const [unread] = await view.getChildren(unreadFiles[0]);
    assert.ok(!String(view.getTreeItem(unread).description).includes('.digest'), String(view.getTreeItem(unread).description));
  });

  it('Should keep groups expanded over a switch of grouping and reveal the paper under the cursor at once', async () => {
    const view = api.papersView;
    await vscode.commands.executeCommand('paperDigest.papers.focus');
    await waitUntil(() => (view.treeView.visible ? true : undefined), 'the Papers view to be visible', [view.treeView.onDidChangeVisibility]);
    const roots: any[] = await view.getChildren();
    const topic = roots.find((root) => root.node.label === '数学推理');
    assert.ok(topic, roots.map((root) => root.node.label).join(', '));
    const expanded = waitForEvent(view.treeView.onDidExpandElement, (event: any) => event.element.id === topic.id, 'the topic to expand');
    await view.treeView.reveal(topic, { expand: true, select: false, focus: false });
    await expanded;
    await view.setGrouping('category');
    await view.setGrouping('topic');
    const again: any[] = await view.getChildren();
    const topicAgain = again.find((root) => root.node.id === topic.id);
    assert.strictEqual(view.getTreeItem(topicAgain).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the topic was collapsed by the switch');
    const other = again.find((root) => root.node.id !== topic.id);
    assert.strictEqual(view.getTreeItem(other).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);

    // The cursor on a paper: it is revealed, then revealed again in the new grouping without a move.
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile('second.digest')));
    editor.selection = new vscode.Selection(16, 0, 16, 0);
    const selectedPaper = (grouping: string) =>
      waitUntil(
        () => {
          const selected = view.treeView.selection[0];
          // A row of the tree of that grouping: its id starts with the grouping's root group.
          return view.grouping === grouping && selected?.id.startsWith(`${grouping}:`) && selected.node.kind === 'paper' && selected.node.title === LATENT ? selected : undefined;
        },
        `${LATENT} to be selected in the ${grouping} grouping (selected: ${view.treeView.selection[0]?.id})`,
        [view.treeView.onDidChangeSelection],
      );
    await selectedPaper('topic');
    await view.setGrouping('category');
    await selectedPaper('category');
    assert.strictEqual(vscode.window.activeTextEditor?.selection.active.line, 16, 'the cursor did not move');
  });

  it('Should say how many problems Fix All fixed and how many remain', async () => {
    // A miscased category and a missing 纠错 can be fixed; an unknown category cannot.
    const text = ['每日笔记', 'Counting Fixes in a Daily Digest', '日常摘要中的修复计数', 'Ada Lovelace', '机构 * Kyoto University（京都大学）', '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg、cs.QQQ', 'AI总结 一段总结。', ''].join('\n\n');
    const document = await vscode.workspace.openTextDocument({ language: 'paper-digest', content: text });
    await vscode.window.showTextDocument(document);
    try {
      const before = await diagnosticsOf(document.uri, (d) => d.some((x) => codeOf(x) === 'category-case') && d.some((x) => codeOf(x) === 'unknown-category'));
      const beforeCount = before.filter((d) => d.source === 'paper-digest').length;
      const result = await vscode.commands.executeCommand<{ applied: boolean; fixed: number; remaining: number; message: string }>('paperDigest.fixAll');
      assert.ok(result, 'Fix All gave no answer');
      assert.ok(result.applied, JSON.stringify(result));
      const after = await diagnosticsOf(document.uri, (d) => !d.some((x) => codeOf(x) === 'category-case') && d.some((x) => codeOf(x) === 'unknown-category'));
      const afterCount = after.filter((d) => d.source === 'paper-digest').length;
      assert.strictEqual(result.remaining, afterCount, JSON.stringify({ result, after: after.map(codeOf) }));
      assert.strictEqual(result.fixed, beforeCount - afterCount, JSON.stringify({ result, before: before.map(codeOf), after: after.map(codeOf) }));
      assert.ok(result.fixed >= 2, JSON.stringify(result));
      const problems = (n: number) => `${n} ${n === 1 ? 'problem' : 'problems'}`;
      assert.strictEqual(result.message, `Paper Digest: fixed ${problems(result.fixed)}; ${problems(result.remaining)} left.`);
      assert.match(document.getText(), /分类 cs\.LG、cs\.QQQ/);
    } finally {
      await retire(document);
    }
  });

  it('Should open rule pages in the Markdown preview, from a diagnostic link and by code', async () => {
    const isPreviewOf = (name: string) => (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType) && tab.label.includes(name);
    const tabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    const uri = workspaceFile('papers.digest');
    const diagnostics = await diagnosticsOf(uri, (d) => d.some((x) => codeOf(x) === 'unknown-category'));
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-category')!;
    const page = typeof unknown.code === 'object' ? unknown.code.target : undefined;
    assert.ok(page && page.path.endsWith('/docs/rules/unknown-category.md'), `the problem links to ${page}`);
    // The Problems panel and the hover open the link as a file.
    await vscode.commands.executeCommand('vscode.open', page);
    await waitUntil(
      () => (tabs().some(isPreviewOf('unknown-category')) && !tabs().some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.path === page.path) ? true : undefined),
      `the preview of unknown-category.md, without its text (tabs: ${tabs().map((tab) => tab.label).join(', ')})`,
      [vscode.window.tabGroups.onDidChangeTabs],
    );
    await vscode.commands.executeCommand('paperDigest.openRule', 'category-case');
    await waitUntil(() => (tabs().some(isPreviewOf('category-case')) ? true : undefined), 'the preview of category-case.md', [vscode.window.tabGroups.onDidChangeTabs]);
    await vscode.window.tabGroups.close(tabs().filter((tab) => tab.input instanceof vscode.TabInputWebview));
  });

  it('Should offer Clear Papers Filter in the palette only with a filter, and a context menu on papers that works', async () => {
    const palette = manifest.contributes.menus.commandPalette;
    assert.strictEqual(palette.find((item) => item.command === 'paperDigest.clearFilter')?.when, 'paperDigest.papersFiltered');
    const view = api.papersView;
    await view.setGrouping('file');
    const files: any[] = await view.getChildren();
    const papersFile = files.find((file) => file.node.label === 'papers.digest');
    const [paper] = await view.getChildren(papersFile);
    assert.strictEqual(paper.node.title, SPARSE);
    // Each menu entry shows on this row: its `when` matches the row's context value.
    const contextValue = String(view.getTreeItem(paper).contextValue);
    const menu = manifest.contributes.menus['view/item/context'];
    for (const command of ['paperDigest.openPaper', 'paperDigest.openPaperToSide', 'paperDigest.copyPaperTitle', 'paperDigest.copyPaperTitles', 'paperDigest.revealPaperInFile']) {
      const item = menu.find((entry) => entry.command === command);
      assert.ok(item?.when, `${command} is not in the context menu`);
      const pattern = /viewItem =~ \/(.+?)\/(?: |$)/.exec(item.when)?.[1];
      assert.ok(pattern && new RegExp(pattern).test(contextValue), `${command}: ${item.when} does not match ${contextValue}`);
      assert.strictEqual(palette.find((entry) => entry.command === command)?.when, 'false', `${command} needs a paper`);
    }

    await vscode.commands.executeCommand('paperDigest.copyPaperTitle', paper);
    assert.strictEqual(await vscode.env.clipboard.readText(), SPARSE);
    await vscode.commands.executeCommand('paperDigest.copyPaperTitles', paper);
    assert.strictEqual(await vscode.env.clipboard.readText(), `${SPARSE}\n${SPARSE_ZH}`);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('paperDigest.openPaper', paper);
    const opened = vscode.window.activeTextEditor;
    assert.ok(opened && opened.document.uri.path.endsWith('/papers.digest'));
    assert.strictEqual(opened.selection.active.line, 2);
    assert.ok(opened.selection.isEmpty);

    await vscode.commands.executeCommand('paperDigest.revealPaperInFile', paper);
    const revealed = vscode.window.activeTextEditor!;
    assert.strictEqual(revealed.document.getText(revealed.selection), SPARSE);

    await vscode.commands.executeCommand('paperDigest.openPaperToSide', paper);
    const side = vscode.window.activeTextEditor!;
    assert.ok(side.document.uri.path.endsWith('/papers.digest'));
    assert.strictEqual(side.viewColumn, vscode.ViewColumn.Two);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Should show the papers and problems of the digest and the index in the language status', async () => {
    const status = api.languageStatus;
    const stats = await api.client.sendRequest('paperDigest/documentStats', { uri: '' });
    const uri = workspaceFile('papers.digest');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await diagnosticsOf(uri, (d) => d.some((x) => x.source === 'paper-digest'));
    const expected = (papers: number) => `${papers} ${papers === 1 ? 'paper' : 'papers'}, ${ours(uri).length} ${ours(uri).length === 1 ? 'problem' : 'problems'}`;
    await waitUntil(() => (status.documentItem.text === expected(2) ? true : undefined), `the status to read "${expected(2)}" (reads "${status.documentItem.text}")`, [status.onDidUpdate]);
    assert.strictEqual(status.indexItem.text, `${stats.index.fileCount} digests, ${stats.index.paperCount} papers`);
    assert.strictEqual(status.indexItem.busy, false);
    assert.strictEqual(status.documentItem.command?.command, 'paperDigest.papers.focus');
    assert.strictEqual(status.indexItem.command?.command, 'paperDigest.showServerOutput');
    assert.deepStrictEqual(status.documentItem.selector, { language: 'paper-digest' });

    // An untitled digest: its papers as they are typed.
    const document = await vscode.workspace.openTextDocument({ language: 'paper-digest', content: digestText('One Paper Typed in an Untitled Digest') });
    const editor = await vscode.window.showTextDocument(document);
    try {
      await waitUntil(() => (status.documentItem.text.startsWith('1 paper,') ? true : undefined), `the status to count 1 paper (reads "${status.documentItem.text}")`, [status.onDidUpdate]);
      await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), `\n${digestText('A Second Paper Typed in an Untitled Digest').split('\n\n').slice(1).join('\n\n')}`));
      await waitUntil(() => (status.documentItem.text.startsWith('2 papers,') ? true : undefined), `the status to count 2 papers (reads "${status.documentItem.text}")`, [status.onDidUpdate]);
    } finally {
      await retire(document);
    }
    await vscode.commands.executeCommand('paperDigest.showServerOutput');
  });
});
