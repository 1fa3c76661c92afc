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

  it('Should open the statistics dashboard and draw its charts', async () => {
    const rendered = waitForEvent<any>(api.statistics.onDidRender, (value) => value.charts.length > 0, 'the dashboard to draw', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    const drawn = await rendered;
    equal(drawn.charts.map((chart: any) => chart.id), ['dates', 'trends', 'topics', 'keywords', 'categories', 'institutions', 'weeks', 'months'], 'the charts drawn');
    check(api.statistics.statistics?.paperCount > 0, 'the server sent statistics');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
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
      // Its papers leave the index (and the unread count) before the next test counts them.
      await waitUntil(
        async () => ((await view.getChildren()).some((f: any) => f.node.label === 'written-by-the-web-test.digest') ? undefined : true),
        'the deleted digest gone from the Papers view',
        [view.onDidChangeIndex],
      );
      await view.setGrouping('topic');
    }
  });
  it('Should find the references of an author in a file that is not open, read through the client', async () => {
    const second = workspaceFile('second.digest');
    check(!isOpen(second), 'second.digest is not open');
    const uri = workspaceFile('papers.digest');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document.lineAt(6).text;
    check(line.startsWith('Mei Tanaka'), `line 7 of papers.digest: ${line}`);
    const locations = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, new vscode.Position(6, 2));
    const seen = locations.map((l) => `${l.uri.path.split('/').pop()}:${l.range.start.line}:${l.range.start.character}`).sort();
    check(seen.includes('second.digest:6:0'), `references of Mei Tanaka: ${JSON.stringify(seen)}`);
    check(seen.includes('papers.digest:6:0'), `references of Mei Tanaka: ${JSON.stringify(seen)}`);
    // Rename of an institution reaches it too: the edit changes the file that is not open (it is not applied here).
    const institution = document.lineAt(8).text;
    check(institution.startsWith('机构 * Kyoto University'), `line 9 of papers.digest: ${institution}`);
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', uri, new vscode.Position(8, 8), 'Kyoto University, Kyoto');
    const renamed = edit.entries().map(([each, edits]) => `${each.path.split('/').pop()}:${edits.map((e) => `${e.range.start.line}:${e.newText}`).join(',')}`).sort();
    check(renamed.some((each) => each.startsWith('second.digest:8:') && each.includes('Kyoto University, Kyoto')), `the rename's edits: ${JSON.stringify(renamed)}`);
    check(!isOpen(second), 'finding them opened no file');
  });

  it('Should mark a paper read and starred through workspace.fs: the state file, the Unread grouping and the badge', async () => {
    const view = api.papersView;
    const reading = api.reading;
    const TITLE = 'Reward Shaping for Sparse Robotic Manipulation';
    const day1 = workspaceFile('digests', '2026-05-01.digest');
    const stateUri = workspaceFile('.paper-digest', 'state.json');
    const readState = async (): Promise<any> => {
      try {
        return JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(stateUri)));
      } catch {
        return undefined;
      }
    };
    /** The titles of every paper below the groups of the current grouping. */
    const paperTitles = async (): Promise<string[]> => {
      const titles: string[] = [];
      const walk = async (element: any, depth: number): Promise<void> => {
        for (const child of await view.getChildren(element)) {
          if (child.node.kind === 'paper') titles.push(child.node.title);
          else if (depth < 3) await walk(child, depth + 1);
        }
      };
      await walk(undefined, 0);
      return titles;
    };
    check((await readState()) === undefined, 'no state file before the first change');
    await waitUntil(() => (reading.state.status.generation >= 0 ? true : undefined), 'the first reading state', [reading.state.onDidChange]);
    await view.setGrouping('unread');
    let titles: string[] = [];
    await waitUntil(
      async () => ((titles = await paperTitles()).includes(TITLE) ? true : undefined),
      'the paper in the Unread grouping',
      [view.onDidChangeIndex, reading.state.onDidChange],
      30_000,
      () => JSON.stringify(titles),
    );
    const unreadBefore: number = reading.state.status.unreadCount;
    check(unreadBefore >= 2, `unread count ${unreadBefore}`);
    check(!titles.includes('Latent Search Forests for Tool Use'), `the digest the previous test deleted is gone: ${JSON.stringify(titles)}`);
    equal(view.treeView.badge?.value, unreadBefore, 'the badge before');
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(day1));
      editor.selection = new vscode.Selection(4, 0, 4, 0); // the Chinese title of the first entry
      const read = await vscode.commands.executeCommand<any>('paperDigest.markRead');
      equal(read?.changed, 1, 'papers marked read');
      const starred = await vscode.commands.executeCommand<any>('paperDigest.star');
      equal(starred?.changed, 1, 'papers starred');
      // Written through workspace.fs into the workspace, which the worker reaches no other way.
      let state: any;
      await waitUntil(
        async () => {
          state = await readState();
          const papers = Object.values(state?.papers ?? {}) as any[];
          return papers.some((p) => p.title === TITLE && p.read === true && p.starred === true) ? true : undefined;
        },
        'the state file with the paper read and starred',
        [reading.state.onDidChange],
        30_000,
        () => JSON.stringify(state),
      );
      equal(state.version, 1, 'the state file version');
      await waitUntil(() => (view.treeView.badge?.value === unreadBefore - 1 ? true : undefined), `the badge to count ${unreadBefore - 1}`, [reading.state.onDidChange], 30_000, () => String(view.treeView.badge?.value));
      await waitUntil(
        async () => ((titles = await paperTitles()).includes(TITLE) ? undefined : true),
        'the paper gone from the Unread grouping',
        [view.onDidChangeIndex, reading.state.onDidChange],
        30_000,
        () => JSON.stringify(titles),
      );
      await view.setGrouping('starred');
      titles = await paperTitles();
      check(titles.includes(TITLE), `the Starred grouping: ${JSON.stringify(titles)}`);
    } finally {
      await view.setGrouping('topic');
    }
    // And back, from the editor again: the file is read, merged and written once more.
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(day1));
    editor.selection = new vscode.Selection(4, 0, 4, 0);
    const unread = await vscode.commands.executeCommand<any>('paperDigest.markUnread', 'editor');
    const unstarred = await vscode.commands.executeCommand<any>('paperDigest.unstar', 'editor');
    const results = JSON.stringify({ unread, unstarred, active: vscode.window.activeTextEditor?.document.uri.toString() });
    await waitUntil(() => (view.treeView.badge?.value === unreadBefore ? true : undefined), `the badge back at ${unreadBefore} (${results})`, [reading.state.onDidChange], 30_000, () => String(view.treeView.badge?.value));
    const after = await readState();
    check(!Object.values(after?.papers ?? {}).some((p: any) => p.title === TITLE && (p.read || p.starred)), `the state file after: ${JSON.stringify(after)}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
