/**
 * The extension in Chinese, in the real workbench: code-server runs with `--locale zh-cn` (the
 * display language VS Code reports as `vscode.env.language`), and this checks, through the page,
 * that the Papers view is named and described in Chinese, that its toolbar's actions carry the
 * Chinese titles of package.nls.zh-cn.json, that the command palette lists the commands by their
 * Chinese titles, and that the language server's problems follow the display language
 * (`paperDigest.messageLanguage: auto`). It then takes the README's screenshot in Chinese, and
 * last drives the confirmation dialog of *Mark All Shown Papers Read*: cancelled, then confirmed.
 *
 *   node out/test/editor/checkChinese.js --vsix paper-digest.vsix --out test-results/screenshots
 *
 * VS Code takes a display language only when a language pack declares it; there is none offline,
 * so test/editor/locale-pack-zh-cn is one that declares zh-cn and translates nothing of VS Code
 * itself (its own words, menus and the Explorer, stay English), packaged here with vsce and
 * installed beside the extension. The extension's strings come from its own files
 * (package.nls.zh-cn.json, l10n/bundle.l10n.zh-cn.json) whatever the pack.
 */
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { launchBrowser, openFile, openWorkbench, Page, runCommand, screenshot, startCodeServer } from './codeServer';
import { argument, copyOfExampleWorkspace, REPO_ROOT, runScript } from './script';

const NLS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
const NLS_EN = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const BUNDLE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

/** The texts (inner text, aria-label and title) of the elements matching `selector`. */
function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).flatMap((e) => [e.innerText, e.getAttribute('aria-label'), e.getAttribute('title')]).filter((t) => t)`,
  );
}

/** Waits until the elements matching `selector` show or are labelled with every one of `texts`; says what it saw when not. */
async function waitForTexts(page: Page, selector: string, texts: readonly string[], what: string, timeoutMs = 60_000): Promise<string[]> {
  const collect = `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).flatMap((e) => [e.innerText, e.getAttribute('aria-label'), e.getAttribute('title')]).filter((t) => t)`;
  const check = `((seen) => ${JSON.stringify(texts)}.every((text) => seen.some((s) => s.includes(text))))(${collect})`;
  try {
    await page.waitForFunction(check, undefined, { timeout: timeoutMs, polling: 200 });
  } catch (error) {
    const seen = await textsOf(page, selector);
    const missing = texts.filter((text) => !seen.some((s) => s.includes(text)));
    throw new Error(`${what}: never saw ${missing.map((t) => `"${t}"`).join(', ')} in ${selector}; saw ${JSON.stringify(seen.slice(0, 40))} (${(error as Error).message.split('\n')[0]})`);
  }
  return textsOf(page, selector);
}

async function main(): Promise<void> {
  const vsix = path.resolve(argument('--vsix'));
  const out = path.resolve(argument('--out', path.join(REPO_ROOT, 'test-results', 'screenshots')));
  const { folder: copy, workspace } = copyOfExampleWorkspace('paper-digest-zh-');
  const pack = path.join(copy, 'locale-pack-zh-cn.vsix');
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', pack], {
    cwd: path.join(REPO_ROOT, 'test', 'editor', 'locale-pack-zh-cn'),
    stdio: 'pipe',
  });
  const server = await startCodeServer({
    workspace,
    vsix: [pack, vsix],
    locale: 'zh-cn',
    settings: { 'paperDigest.messageLanguage': 'auto', 'workbench.view.alwaysShowHeaderActions': true },
  });
  const session = await launchBrowser({ viewport: { width: 1280, height: 760 } });
  let checks = 0;
  try {
    const page = session.page;
    const step = async (name: string, action: () => Promise<unknown>): Promise<void> => {
      try {
        await action();
        checks++;
        console.log(`  ✓ ${name}`);
      } catch (error) {
        await screenshot(page, path.join(out, `failed-zh-${name.replace(/\W+/g, '-')}.png`)).catch(() => undefined);
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    };
    await openWorkbench(page, server);

    await step('the Papers view is named 论文, described in Chinese and lists the topics', async () => {
      await waitForTexts(page, '.pane-header', [NLS['view.papers.name']], 'the view header');
      // Give the view the side bar: fold the folder's section, unfold the view.
      await page.locator('.pane-header >> text=workspace').first().click();
      await page.locator(`.pane-header >> text=${NLS['view.papers.name']}`).first().click();
      // The workspace is indexed once the view lists its topics.
      await waitForTexts(page, '.pane-body', ['数学推理'], 'the Papers view');
      // The grouping in the view's description comes from the client's bundle (vscode.l10n).
      await waitForTexts(page, '.pane-header', [BUNDLE['by topic']], 'the view description');
    });

    await step('the Papers view toolbar has the Chinese titles', async () => {
      const seen = await waitForTexts(
        page,
        '.pane-header .actions .action-label, .pane-header .actions .action-item a',
        [NLS['command.filterPapers.title'], NLS['command.refreshPapers.title'], NLS['command.markShownRead.title'], NLS['command.showStatistics.title'], NLS['submenu.papers.groupBy.label']],
        'the Papers view toolbar',
      );
      const english = [NLS_EN['command.filterPapers.title'], NLS_EN['command.refreshPapers.title']].filter((title) => seen.some((s) => s.includes(title)));
      if (english.length > 0) {
        throw new Error(`English titles in the toolbar: ${english.join(', ')}`);
      }
    });

    await step('the Filter Papers box says in Chinese why it refuses a week that does not exist', async () => {
      await page.locator(`.pane-header .actions [aria-label="${NLS['command.filterPapers.title']}"]`).first().click();
      const input = page.locator('.quick-input-widget .quick-input-box input').first();
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await page.keyboard.insertText('week:2026-W99');
      const refusal = BUNDLE['“{0}” is not an ISO week from 1900 to 2999: write week:YYYY-Www, W01 to W52 (W53 in the years that have one), e.g. week:{1}'].replace('{0}', 'week:2026-W99').replace('{1}', '2026-W18');
      await waitForTexts(page, '.quick-input-widget', [refusal], 'the Filter Papers box');
      // A week that exists is taken: the message goes.
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText('week:2026-W49');
      const gone = `!Array.from(document.querySelectorAll('.quick-input-widget')).some((e) => (e.innerText ?? '').includes(${JSON.stringify(refusal)}))`;
      await page.waitForFunction(gone, undefined, { timeout: 30_000, polling: 200 });
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 30_000 });
    });

    await step('the problems and CodeLenses of a digest follow the display language', async () => {
      await openFile(page, 'agents-2026-12-01.digest');
      // The reading CodeLenses above each title come from the server too.
      await waitForTexts(page, '.monaco-editor .codelens-decoration', ['☆ 加星标', '在 arXiv 上打开'], 'the CodeLenses');
      await runCommand(page, 'View: Toggle Problems');
      // The code of the problem is stable; its message must be the Chinese one alone.
      const seen = await waitForTexts(page, '.part.panel .monaco-list-row', ['unbalanced-brackets'], 'the Problems panel');
      const row = seen.find((text) => text.includes('unbalanced-brackets')) ?? '';
      if (!/[\u4e00-\u9fff]/.test(row.replace(/机构|纠错|专题命中|分类|AI总结/g, '')) || / — |never closed|closes nothing/.test(row)) {
        throw new Error(`the problem is not in Chinese alone: ${row}`);
      }
      await runCommand(page, 'View: Toggle Problems');
    });

    await step('the command palette lists the commands by their Chinese titles', async () => {
      // A row's aria-label is its command's label (and keybinding); VS Code adds the English title as a secondary line.
      const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget .quick-input-box input').first().waitFor({ state: 'visible', timeout: 30_000 });
      // Each title typed in full narrows the list to its command, wherever it sorts.
      for (const key of ['command.filterPapers.title', 'command.groupByCategory.title', 'command.triage.title', 'command.showStatistics.title', 'command.refreshPapers.title']) {
        // Ctrl+A takes the palette's '>' too: type it again.
        await page.keyboard.press('Control+A');
        await page.keyboard.insertText(`>${NLS[key]}`);
        await waitForTexts(page, rows, [NLS[key]], 'the command palette');
      }
      // Every command of the extension is labelled in Chinese (VS Code shows the English title only
      // as a secondary line, not as the label).
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText('>Paper Digest: ');
      await waitForTexts(page, rows, [NLS['command.refreshPapers.title']], 'the command palette');
      const labels: string[] = await page.evaluate(`Array.from(document.querySelectorAll(${JSON.stringify(rows)})).map((e) => e.getAttribute('aria-label') ?? '')`);
      const english = labels.filter((label) => label.startsWith('Paper Digest: ') && !/[\u4e00-\u9fff]/.test(label));
      if (english.length > 0) {
        throw new Error(`commands labelled in English in the palette: ${english.join(' | ')}`);
      }
    });
    const shot = await screenshot(page, path.join(out, 'l10n-zh-cn.png'));
    await page.keyboard.press('Escape');

    // After the screenshot: this marks every paper of the copy of the workspace read.
    await step('Mark All Shown Papers Read asks first, in Chinese, and cancelling marks nothing', async () => {
      const question = BUNDLE['Mark all {0} read?'].replace('{0}', BUNDLE['the papers shown']);
      const markShown = page.locator(`.pane-header .actions [aria-label="${NLS['command.markShownRead.title']}"]`).first();
      await markShown.click();
      await waitForTexts(page, '.monaco-dialog-box', [question, BUNDLE['Mark All Read']], 'the confirmation dialog');
      await page.keyboard.press('Escape');
      await page.locator('.monaco-dialog-box').first().waitFor({ state: 'detached', timeout: 30_000 });
      // A change after it (a star from a CodeLens) goes through the same server after any change
      // the dialog made: once the star shows, the state file says whether the dialog marked papers.
      await page.locator('.monaco-editor .codelens-decoration a', { hasText: '☆ 加星标' }).first().click();
      await waitForTexts(page, '.monaco-editor .codelens-decoration', ['★ 取消星标'], 'the CodeLenses after a star');
      const state = JSON.parse(fs.readFileSync(path.join(workspace, '.paper-digest', 'state.json'), 'utf8')) as { papers: Record<string, { read?: boolean; starred?: boolean }> };
      const papers = Object.values(state.papers);
      if (papers.some((paper) => paper.read) || papers.filter((paper) => paper.starred).length !== 1) {
        throw new Error(`after the cancelled dialog and one star the state file holds ${JSON.stringify(state.papers).slice(0, 400)}`);
      }
      // Asked again and confirmed: it marks the papers and says how many, in Chinese.
      await markShown.click();
      await waitForTexts(page, '.monaco-dialog-box', [question], 'the confirmation dialog, again');
      await page.locator('.monaco-dialog-box .monaco-button', { hasText: BUNDLE['Mark All Read'] }).first().click();
      const [before, after] = BUNDLE['Paper Digest: marked {0} shown papers read.'].split('{0}');
      await waitForTexts(page, '.notifications-toasts', [before, after], 'the notification of the papers marked');
      const toast = (await textsOf(page, '.notifications-toasts')).find((text) => text.includes(before)) ?? '';
      const count = Number(toast.slice(toast.indexOf(before) + before.length).split(after)[0]);
      if (!(count > 1)) {
        throw new Error(`marked ${count} papers: ${toast}`);
      }
      // The open digest's CodeLenses follow: every paper is read now.
      await waitForTexts(page, '.monaco-editor .codelens-decoration', ['标记为未读'], 'the CodeLenses');
    });
    console.log(`checkChinese: ${checks} checks passed; screenshot ${shot}`);
  } finally {
    await session.close();
    await server.stop();
  }
}

runScript('checkChinese', main);
