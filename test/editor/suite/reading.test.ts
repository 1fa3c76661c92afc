/**
 * The reading workflow in a real editor: state commands and what the Papers view, its badge and
 * the title-line icons show; the reading groupings; mark-all-read of a file; next / previous
 * digest; export to a document; triage; CodeLenses; a corrupt state file; keybindings that clash
 * with none of VS Code's. Runs on a copy of test/editor/workspace (dated digests in digests/,
 * interests in .vscode/settings.json). Every step waits for a state, never for a time.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID, workspaceFile } from './helpers';
import { waitUntil } from './waiting';

const REWARD = 'Reward Shaping for Sparse Robotic Manipulation';
const CURRICULUM = 'Curriculum Sampling for Offline Policy Learning';
const VALUE = 'Value Ensembles for Safe Exploration';

/** A tooltip's text as a reader sees it: the escapes of `appendText` undone. */
function plain(tooltip: unknown): string {
  const value = tooltip instanceof vscode.MarkdownString ? tooltip.value : String(tooltip);
  // The text a reader sees: every escaped ASCII punctuation mark and character reference undone.
  const entities: Record<string, string> = { '&nbsp;': ' ', '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
  return value.replace(/\\([!-/:-@[-`{-~])|&(?:nbsp|lt|gt|amp|quot|#39);/g, (match, escaped: string | undefined) => escaped ?? entities[match]);
}

function iconId(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

describe('Reading workflow in the editor', function () {
  let api: any;
  let view: any;
  let reading: any;
  const day1 = () => workspaceFile('digests/2026-05-01.digest');
  const day2 = () => workspaceFile('digests/2026-05-02.digest');

  /** The papers of every file group of the current grouping, as [file label, element] pairs. */
  async function papersByFile(): Promise<{ file: string; element: any; item: vscode.TreeItem }[]> {
    const out: { file: string; element: any; item: vscode.TreeItem }[] = [];
    for (const group of await view.getChildren()) {
      for (const element of await view.getChildren(group)) {
        if (element.node.kind === 'paper') {
          out.push({ file: group.node.label, element, item: view.getTreeItem(element) });
        }
      }
    }
    return out;
  }

  /** Waits until the file grouping shows `title` of `file` in a way `accept` likes. */
  async function paperShown(file: string, title: string, accept: (item: vscode.TreeItem, node: any) => boolean, what: string): Promise<vscode.TreeItem> {
    let seen = '';
    try {
      return await waitUntil(
        async () => {
          const papers = await papersByFile();
          const found = papers.find((paper) => paper.file === file && paper.element.node.title === title);
          seen = found ? JSON.stringify({ icon: iconId(found.item), description: found.item.description, context: found.item.contextValue }) : `not in ${papers.map((p) => `${p.file}:${p.element.node.title}`).join(', ')}`;
          return found && accept(found.item, found.element.node) ? found.item : undefined;
        },
        what,
        [reading.state.onDidChange, view.onDidChangeIndex],
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last seen: ${seen}`);
    }
  }

  before(async function () {
    this.timeout(120_000);
    api = await activateExtension();
    view = api.papersView;
    reading = api.reading;
    await view.setGrouping('file');
    view.setFilter('');
    // The index has the dated digests once the file grouping lists them.
    await waitUntil(
      async () => ((await view.getChildren()).some((group: any) => group.node.label === '2026-05-02.digest') ? true : undefined),
      'the dated digests in the Papers view',
      [view.onDidChangeIndex],
    );
    await waitUntil(() => (reading.state.status.generation >= 0 ? true : undefined), 'the first reading state', [reading.state.onDidChange]);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await view.setGrouping('topic');
  });

  it('Should say that no paper is starred yet in an empty Starred view, not that the workspace has no digests', async () => {
    await reading.state.change({ starredOnly: true }, { starred: false });
    try {
      await view.setGrouping('starred');
      await waitUntil(async () => ((await view.getChildren()).length === 0 ? true : undefined), 'an empty Starred view', [reading.state.onDidChange, view.onDidChangeIndex]);
      assert.strictEqual(view.treeView.message, 'No starred papers yet.');
    } finally {
      await view.setGrouping('file');
    }
    await view.getChildren();
    assert.strictEqual(view.treeView.message, undefined);
  });

  it('Should mark the paper under the cursor read and starred, in the view, its badge and the title line', async () => {
    const unreadBefore: number = reading.state.status.unreadCount;
    assert.ok(unreadBefore >= 5, `unread count ${unreadBefore}`);
    assert.strictEqual(view.treeView.badge?.value, unreadBefore);
    const unread = await paperShown('2026-05-01.digest', REWARD, (item) => iconId(item) === 'circle-filled', 'an unread paper');
    assert.match(String(unread.contextValue), /\.unread(\.|$)/);

    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(day1()));
    editor.selection = new vscode.Selection(4, 0, 4, 0); // the Chinese title of the first entry
    const result = await vscode.commands.executeCommand<any>('paperDigest.markRead');
    assert.strictEqual(result?.changed, 1, JSON.stringify(result));
    const read = await paperShown('2026-05-01.digest', REWARD, (item) => iconId(item) === 'pass', 'the paper shown read');
    assert.match(String(read.contextValue), /\.read(\.|$)/);
    await waitUntil(() => (view.treeView.badge?.value === unreadBefore - 1 ? true : undefined), `the badge to count ${unreadBefore - 1}`, [reading.state.onDidChange]);

    await vscode.commands.executeCommand('paperDigest.star');
    const starred = await paperShown('2026-05-01.digest', REWARD, (item) => iconId(item) === 'star-full', 'the paper shown starred');
    assert.match(String(starred.contextValue), /\.starred(\.|$)/);
    const tooltip = starred.tooltip as vscode.MarkdownString;
    assert.ok(!tooltip.isTrusted && !tooltip.supportHtml);
    assert.match(plain(tooltip), /starred · read/);

    // The title line (line 2) carries the star in the gutter; the other entry's title the unread dot.
    const uri = day1().toString();
    const lines = await waitUntil(
      () => {
        const applied = reading.decorations.applied.get(uri);
        return applied && applied.starred.includes(2) ? applied : undefined;
      },
      'the star on the title line',
      [reading.decorations.onDidApply],
    );
    assert.deepStrictEqual(lines.unread, [14]);
    assert.deepStrictEqual(lines.read, []);
  });

  it('Should add a tag and a note, then mark unread and unstar again from the view', async () => {
    const [paper] = (await papersByFile()).filter((p) => p.file === '2026-05-01.digest' && p.element.node.title === CURRICULUM);
    assert.ok(paper, 'the second paper of the first digest');
    await reading.state.change({ keys: [paper.element.node.paperKey] }, { addTags: ['to-read'], note: 'compare with BC' });
    const tagged = await paperShown('2026-05-01.digest', CURRICULUM, (item) => String(item.description).includes('#to-read'), 'the tag in the description');
    assert.match(plain(tagged.tooltip), /Note: compare with BC/);
    const info = await reading.state.info();
    assert.ok(info.tags.includes('to-read'), JSON.stringify(info.tags));

    // As the view's context menu runs them: the clicked element and the selection.
    const fresh = (await papersByFile()).find((p) => p.file === '2026-05-01.digest' && p.element.node.title === CURRICULUM)!;
    await vscode.commands.executeCommand('paperDigest.star', fresh.element, [fresh.element]);
    await paperShown('2026-05-01.digest', CURRICULUM, (item) => iconId(item) === 'star-full', 'starred from the view');
    const again = (await papersByFile()).find((p) => p.file === '2026-05-01.digest' && p.element.node.title === CURRICULUM)!;
    await vscode.commands.executeCommand('paperDigest.unstar', again.element, [again.element]);
    await paperShown('2026-05-01.digest', CURRICULUM, (item) => iconId(item) === 'circle-filled', 'unstarred and still unread');
  });

  it('Should group the papers by Unread, Starred, For you and New only, and mark repeats', async () => {
    // A repeat: the second digest's copy of the paper first seen in the first digest.
    const repeat = await paperShown('2026-05-02.digest', CURRICULUM, () => true, 'the repeat');
    assert.match(String(repeat.description), /repeat/);
    assert.strictEqual(repeat.resourceUri?.path.split('/')[1], 'repeat');
    assert.match(plain(repeat.tooltip), /First seen in digests\/2026-05-01\.digest:15/);

    await view.setGrouping('starred');
    const starred = await papersByFile();
    assert.deepStrictEqual(starred.map((p) => p.element.node.title), [REWARD]);

    await view.setGrouping('unread');
    const unread = await papersByFile();
    assert.ok(!unread.some((p) => p.element.node.title === REWARD), 'the read paper is not listed');
    assert.ok(unread.some((p) => p.element.node.title === VALUE), unread.map((p) => p.element.node.title).join(', '));

    await view.setGrouping('new');
    const fresh = await papersByFile();
    assert.deepStrictEqual(
      fresh.filter((p) => p.element.node.title === CURRICULUM).map((p) => p.file),
      ['2026-05-01.digest'],
    );

    await view.setGrouping('forYou');
    const bands: any[] = await view.getChildren();
    assert.strictEqual(bands[0].node.label, 'Recommended');
    const top: any[] = await view.getChildren(bands[0]);
    const scores = top.map((element) => element.node.score);
    assert.deepStrictEqual([...scores].sort((a, b) => b - a), scores, 'highest score first');
    const first = view.getTreeItem(top[0]);
    assert.strictEqual(top[0].node.title, REWARD);
    assert.match(String(first.description), /^score \d/);
    assert.match(plain(first.tooltip), /reinforcement learning/);
    assert.match(plain(first.tooltip), /Tsinghua University/);
    await view.setGrouping('file');
  });

  it('Should mark every paper of a file read', async () => {
    const before: number = reading.state.status.unreadCount;
    const result = await vscode.commands.executeCommand<any>('paperDigest.markFileRead', day2());
    assert.strictEqual(result?.changed, 2, JSON.stringify(result));
    await waitUntil(() => (reading.state.status.unreadCount === before - 2 ? true : undefined), `unread count ${before - 2}`, [reading.state.onDidChange]);
    await paperShown('2026-05-02.digest', VALUE, (item) => iconId(item) === 'pass', 'the file read');
    // The same paper in the first digest is read too: state belongs to the paper, not the place.
    await paperShown('2026-05-01.digest', CURRICULUM, (item) => iconId(item) === 'pass', 'the repeat read in the other digest');
    await view.setGrouping('unread');
    assert.ok(!(await view.getChildren()).some((group: any) => group.node.label === '2026-05-02.digest'), 'no unread papers left in the file');
    await view.setGrouping('file');
  });

  it('Should move to the next and the previous dated digest', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(day1()));
    const next = await vscode.commands.executeCommand<vscode.TextEditor>('paperDigest.nextDigest');
    assert.strictEqual(next?.document.uri.toString(), day2().toString());
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), day2().toString());
    const previous = await vscode.commands.executeCommand<vscode.TextEditor>('paperDigest.previousDigest');
    assert.strictEqual(previous?.document.uri.toString(), day1().toString());
    // Before the oldest there is nothing.
    assert.strictEqual(await vscode.commands.executeCommand('paperDigest.previousDigest'), undefined);
  });

  it('Should export the starred papers to a Markdown document and BibTeX', async () => {
    const outcome = await vscode.commands.executeCommand<any>('paperDigest.exportPapers', { scope: { starredOnly: true }, format: 'markdown', to: 'untitled' });
    assert.strictEqual(outcome?.count, 1);
    const text: string = outcome.document.getText();
    assert.ok(outcome.document.isUntitled);
    assert.ok(text.includes(REWARD) && text.includes('稀疏机器人操作中的奖励塑形') && text.includes('Tsinghua University'), text);
    assert.ok(!text.includes(CURRICULUM), text);
    const bibtex = await vscode.commands.executeCommand<any>('paperDigest.exportPapers', { scope: { uri: day1().toString() }, format: 'bibtex', to: 'untitled' });
    assert.strictEqual(bibtex?.count, 2);
    assert.strictEqual((bibtex.document.getText().match(/^@\w+\{/gm) ?? []).length, 2, bibtex.document.getText());
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // To a file: written whole, then replaced whole, and no temporary file left beside it.
    const target = workspaceFile('exported-papers.bib');
    const folder = vscode.Uri.joinPath(target, '..');
    const before = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
    try {
      for (const scope of [{ uri: day1().toString() }, { starredOnly: true }]) {
        const written = await vscode.commands.executeCommand<any>('paperDigest.exportPapers', { scope, format: 'bibtex', to: target.toString() });
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
        assert.strictEqual((text.match(/^@\w+\{/gm) ?? []).length, written?.count, text);
        // The file replaced keeps its mode: it is renamed over, not deleted and made anew as
        // VS Code's file service replaces a file.
        if (scope.starredOnly) assert.strictEqual(fs.statSync(target.fsPath).mode & 0o777, 0o600);
        else fs.chmodSync(target.fsPath, 0o600);
      }
      const after = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
      assert.deepStrictEqual(after.filter((name) => !before.includes(name)), ['exported-papers.bib']);
    } finally {
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
    }
    // A CSV file starts with a byte order mark (Excel reads its Chinese cells by it); the
    // untitled editor's text has none.
    const csv = workspaceFile('exported-papers.csv');
    try {
      await vscode.commands.executeCommand<any>('paperDigest.exportPapers', { scope: { uri: day1().toString() }, format: 'csv', to: csv.toString() });
      const bytes = await vscode.workspace.fs.readFile(csv);
      assert.deepStrictEqual([...bytes.subarray(0, 8)], [0xef, 0xbb, 0xbf, ...new TextEncoder().encode('title')]);
    } finally {
      await vscode.workspace.fs.delete(csv).then(undefined, () => undefined);
    }
  });

  it('Should triage the unread papers in ranking order, one key each', async () => {
    const session = await vscode.commands.executeCommand<any>('paperDigest.triage');
    assert.ok(session, 'a triage started');
    try {
      const papers: any[] = session.papers;
      assert.ok(papers.length >= 3, `${papers.length} unread papers`);
      assert.ok(papers.every((paper) => !paper.read), 'only unread papers');
      const scores = papers.map((paper) => paper.score);
      assert.deepStrictEqual([...scores].sort((a, b) => b - a), scores, 'in ranking order');
      const [first, second, third] = papers;
      assert.strictEqual(session.current.paperKey, first.paperKey);
      // The paper's authors and institutions, as the server sends them with the ranked papers.
      assert.ok(first.authors.length > 0, `the ranked paper has its authors: ${JSON.stringify(first.authors)}`);
      const shown = (session.pick.items as vscode.QuickPickItem[]).map((item) => `${item.label}: ${item.description ?? ''}`);
      assert.ok(shown.some((line) => line.startsWith('Authors: ') && line.includes(first.authors[0])), `the authors shown: ${shown.join(' | ')}`);
      if (first.institutions.length > 0) {
        assert.ok(shown.some((line) => line.startsWith('Institutions: ') && line.includes(first.institutions[0].name)), `the institutions shown: ${shown.join(' | ')}`);
      }
      // The entry is open in the editor.
      await waitUntil(
        () => (vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === first.uri && e.selection.active.line === first.selectionRange.start.line) ? true : undefined),
        'the first paper open in the editor',
        [vscode.window.onDidChangeVisibleTextEditors, vscode.window.onDidChangeTextEditorSelection],
      );
      const unreadBefore: number = reading.state.status.unreadCount;
      await session.press('s');
      assert.strictEqual(session.current.paperKey, first.paperKey, 's stays on the paper');
      assert.ok(session.stateOf(first).starred);
      await session.press('n');
      assert.strictEqual(session.current.paperKey, second.paperKey, 'n goes on');
      await waitUntil(() => (reading.state.status.unreadCount === unreadBefore - 1 ? true : undefined), 'n to mark the first paper read', [reading.state.onDidChange]);
      await session.press('k');
      assert.strictEqual(session.current.paperKey, third.paperKey, 'k goes on');
      await session.press('b');
      assert.strictEqual(session.current.paperKey, second.paperKey, 'b goes back');
      assert.strictEqual(reading.state.status.unreadCount, unreadBefore - 1, 'k left the second paper unread');
      await view.setGrouping('starred');
      const starred = (await papersByFile()).map((p) => p.element.node.paperKey);
      assert.ok(starred.includes(first.paperKey), `starred: ${starred.join(', ')}`);
      await view.setGrouping('file');
      await session.press('q');
      await session.done;
      assert.strictEqual(session.current, undefined);
    } finally {
      session.dispose();
    }
  });

  it('Should show the CodeLenses above each title and run their commands; the setting turns them off', async () => {
    const uri = day1();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lenses = await waitUntil(
      async () => {
        const result = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
        return result && result.length >= 8 ? result : undefined;
      },
      'four CodeLenses per paper',
      [reading.state.onDidChange, vscode.workspace.onDidChangeTextDocument],
    );
    const onFirst = lenses.filter((lens) => lens.range.start.line === 2).map((lens) => lens.command?.command);
    assert.deepStrictEqual(onFirst.sort(), ['paperDigest.copyBibtex', 'paperDigest.markUnread', 'paperDigest.openOnArxiv', 'paperDigest.unstar'].sort(), JSON.stringify(onFirst));
    const copy = lenses.find((lens) => lens.range.start.line === 2 && lens.command?.command === 'paperDigest.copyBibtex')!;
    const text = await vscode.commands.executeCommand<string>(copy.command!.command, ...(copy.command!.arguments ?? []));
    assert.match(text ?? '', /^@\w+\{/);
    assert.match(text ?? '', /Reward Shaping/);

    const settings = vscode.workspace.getConfiguration('paperDigest');
    await settings.update('codeLens.enable', false, vscode.ConfigurationTarget.Workspace);
    try {
      await waitUntil(
        async () => {
          const result = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
          return result.length === 0 ? true : undefined;
        },
        'no CodeLenses with the setting off',
        [vscode.workspace.onDidChangeConfiguration, reading.state.onDidChange],
      );
    } finally {
      await settings.update('codeLens.enable', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('Should use keybindings that no default VS Code keybinding uses', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const ours: { key: string; command: string }[] = extension.packageJSON.contributes.keybindings;
    assert.ok(ours.length >= 4);
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const document = await waitUntil(
      () => {
        const active = vscode.window.activeTextEditor?.document;
        return active && /"key":/.test(active.getText()) ? active : undefined;
      },
      'the default keybindings',
      [vscode.window.onDidChangeActiveTextEditor, vscode.workspace.onDidChangeTextDocument],
    );
    const text = document.getText();
    const defaults = [...text.matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].filter((match) => !match[2].startsWith('paperDigest.'));
    assert.ok(defaults.length > 200, `${defaults.length} default keybindings read`);
    for (const { key } of ours) {
      const clash = defaults.filter((match) => match[1] === key || match[1].startsWith(`${key} `));
      const taken = [...new Set(defaults.map((match) => match[1]).filter((k) => k.startsWith('ctrl+alt+')))].sort().join(' ');
      assert.deepStrictEqual(clash.map((match) => `${match[1]} ${match[2]}`), [], `${key} is taken (taken ctrl+alt keys: ${taken})`);
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Should report a corrupt state file once and keep it untouched', async () => {
    const file = workspaceFile('.paper-digest/state.json');
    const corrupt = '{ "version": 1, "papers": {  ';
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(corrupt));
    const status = await waitUntil(() => (reading.state.status.problem ? reading.state.status : undefined), 'the problem of the state file', [reading.state.onDidChange]);
    assert.ok(status.readOnly);
    assert.deepStrictEqual(reading.state.problemsShown, [status.problem]);
    assert.match(status.problem, /state\.json/);
    const result = await reading.state.change({ uri: day1().toString() }, { read: false });
    assert.ok(result.readOnly && result.changed === 0, JSON.stringify(result));
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), corrupt);
    // Told once: later notifications with the same problem show nothing new.
    assert.deepStrictEqual(reading.state.problemsShown, [status.problem]);
  });
});
