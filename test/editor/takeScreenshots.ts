/**
 * Drives the extension through the real VS Code workbench (code-server + Chromium) on the example
 * workspace and takes the README's screenshots: the outline, a hover translation, the Papers view,
 * a quick fix, the Problems panel and the statistics dashboard (whose topic bar it then clicks, and whose first week it exports as a digest and as Markdown); then it adds and removes a tag written like an icon (`$(alert)…`), which the quick picks must show as written. Each step waits for what it shows to be on screen, so a missing feature fails.
 *
 *   node out/test/editor/takeScreenshots.js --vsix paper-digest.vsix --out images
 */
import * as fs from 'fs';
import * as path from 'path';
import { launchBrowser, openFile, openWorkbench, Page, runCommand, screenshot, startCodeServer } from './codeServer';
import { argument, copyOfExampleWorkspace, EXAMPLE_WORKSPACE, REPO_ROOT, runScript } from './script';


/** The 1-based line and column of `needle` in a workspace file, for Go to Line. */
function positionOf(file: string, needle: string, offset = 0): string {
  const lines = fs.readFileSync(path.join(EXAMPLE_WORKSPACE, file), 'utf8').split('\n');
  const line = lines.findIndex((text) => text.includes(needle));
  if (line < 0) {
    throw new Error(`${needle} not in ${file}`);
  }
  return `${line + 1}:${lines[line].indexOf(needle) + 1 + offset}`;
}

/** The whole line of a workspace file that holds `needle`: a paper's English title. */
function lineOf(file: string, needle: string): string {
  const line = fs.readFileSync(path.join(EXAMPLE_WORKSPACE, file), 'utf8').split('\n').find((text) => text.includes(needle));
  if (line === undefined) {
    throw new Error(`${needle} not in ${file}`);
  }
  return line.trim();
}

async function goTo(page: Page, lineColumn: string): Promise<void> {
  const widget = page.locator('.quick-input-widget').first();
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget .quick-input-box input').first().waitFor({ state: 'visible', timeout: 20_000 });
  await page.keyboard.insertText(lineColumn);
  // Enter only once the box offers the line typed; the workbench may drop an early Enter, so
  // press it again while the box stays open.
  const [line, column] = lineColumn.split(':');
  await waitForText(page, '.quick-input-widget', `line ${line} at column ${column}`, 'Go to Line');
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.keyboard.press('Enter');
    try {
      await widget.waitFor({ state: 'hidden', timeout: 4_000 });
      return;
    } catch {
      // Still open: the Enter was dropped.
    }
  }
  throw new Error(`the Go to Line box stayed open after Enter (${lineColumn})`);
}

/**
 * Runs a command by its exact palette label: the palette's first row may be another command
 * (recently used, or the list not yet filtered), so the row with exactly that label is clicked.
 */
async function runExactCommand(page: Page, label: string, opens?: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await page.keyboard.insertText(label);
  await page.locator(`.quick-input-widget .quick-input-list .monaco-list-row .label-name >> text=${JSON.stringify(label)}`).first().click();
  if (opens) {
    // A command that asks in a quick pick of its own, in the same widget: its title shows.
    await waitForText(page, '.quick-input-widget .quick-input-title', opens, label);
  } else {
    await input.waitFor({ state: 'hidden', timeout: 20_000 });
  }
}

/** The text of the visible elements matching `selector`, as page source (it runs in the page). */
const visibleText = (selector: string): string =>
  `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).filter((e) => e.checkVisibility()).map((e) => e.innerText)`;

/**
 * Waits until a visible element matching `selector` shows `text` (a collapsed or hidden pane
 * does not count); on failure says what the visible ones showed.
 */
async function waitForText(page: Page, selector: string, text: string, what: string): Promise<void> {
  try {
    await page.waitForFunction(`${visibleText(selector)}.some((t) => t.includes(${JSON.stringify(text)}))`, undefined, { timeout: 60_000 });
  } catch (error) {
    const seen = ((await page.evaluate(visibleText(selector)).catch(() => [])) as string[]).join(' | ').replace(/\s+/g, ' ').slice(0, 400);
    throw new Error(`${what}: "${text}" never appeared in ${selector} (${(error as Error).message.split('\n')[0]}); seen: ${seen || 'no visible element'}`);
  }
}

/** Expands the tree row showing `label` (the last such row: the Papers view is below the explorer), clicking again if a click is dropped. */
async function expandRow(page: Page, label: string, what: string): Promise<void> {
  const row = page.locator('.pane-body .monaco-list-row', { hasText: label }).last();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  for (let attempt = 1; ; attempt++) {
    const expanded = await row.getAttribute('aria-expanded');
    if (expanded === 'true') {
      return;
    }
    if (attempt > 5) {
      throw new Error(`${what}: the row "${label}" did not expand after ${attempt - 1} clicks (aria-expanded: ${expanded})`);
    }
    await row.click();
    await page
      .locator('.pane-body .monaco-list-row[aria-expanded="true"]', { hasText: label })
      .last()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => undefined);
  }
}

/** Waits until the reading state file of the workspace says `accept` of the paper `title`. */
async function waitForState(workspace: string, title: string, accept: (paper: Record<string, unknown>) => boolean, what: string): Promise<void> {
  const file = path.join(workspace, '.paper-digest', 'state.json');
  const key = title.toLowerCase().replace(/\s+/g, ' ').trim();
  const deadline = Date.now() + 30_000;
  let seen = 'no state file';
  for (;;) {
    try {
      const paper = (JSON.parse(fs.readFileSync(file, 'utf8')) as { papers?: Record<string, Record<string, unknown>> }).papers?.[key];
      if (paper && accept(paper)) {
        return;
      }
      seen = paper ? JSON.stringify(paper) : `no entry "${key}"`;
    } catch (error) {
      seen = (error as Error).message;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: the state file never said so (seen: ${seen})`);
    }
    // Looked at again a little later: a poll of the file, not a wait for a time.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(): Promise<void> {
  const vsix = path.resolve(argument('--vsix'));
  const out = path.resolve(argument('--out', path.join(REPO_ROOT, 'test-results', 'screenshots')));
  // The reading steps change the workspace's reading state: work on a copy.
  const { workspace } = copyOfExampleWorkspace('paper-digest-screenshots-');
  const server = await startCodeServer({ workspace, vsix: [vsix] });
  const session = await launchBrowser({ viewport: { width: 1280, height: 760 } });
  const taken: string[] = [];
  try {
    const page = session.page;
    /** Runs one step; on failure, names it and keeps a screenshot of the screen as it was. */
    const step = async (name: string, action: () => Promise<unknown>): Promise<void> => {
      try {
        await action();
      } catch (error) {
        await screenshot(page, path.join(out, `failed-${name.replace(/\W+/g, '-')}.png`)).catch(() => undefined);
        throw new Error(`${name}: ${(error as Error).message.split('\n')[0]}`);
      }
    };
    await step('open the workbench', () => openWorkbench(page, server));

    await step('open a digest', () => openFile(page, 'reasoning-2026-12-01.digest'));
    await step('show the outline', async () => {
      await runCommand(page, 'Explorer: Focus on Outline View');
      await waitForText(page, '.pane-body', 'Sparse Probes for Arithmetic Circuits', 'outline');
    });
    taken.push(await screenshot(page, path.join(out, 'outline.png')));

    await step('hover an institution', async () => {
      await goTo(page, positionOf('reasoning-2026-12-01.digest', 'Kyoto University', 3));
      await runCommand(page, 'Show or Focus Hover');
      await waitForText(page, '.monaco-hover', '京都大学', 'hover');
    });
    taken.push(await screenshot(page, path.join(out, 'hover.png')));
    await page.keyboard.press('Escape');

    await step('show the Papers view', async () => {
      await runCommand(page, 'Explorer: Focus on Papers View');
      await waitForText(page, '.pane-body', '数学推理', 'Papers view');
      // Collapse the outline and expand the first topic and its keyword `math reasoning` (the
      // view has revealed the paper under the cursor, Sparse Probes, under `reasoning`).
      await page.locator('.pane-header >> text=Outline').first().click();
      await page.locator('.pane-header[aria-expanded="false"] >> text=Outline').first().waitFor({ state: 'visible', timeout: 20_000 });
      await expandRow(page, '数学推理', 'Papers view topic');
      await waitForText(page, '.pane-body', 'math reasoning', 'Papers view keywords');
      await expandRow(page, 'math reasoning', 'Papers view keyword');
      await waitForText(page, '.pane-body', 'Sparse Probes for Arithmetic', 'Papers view papers');
    });
    taken.push(await screenshot(page, path.join(out, 'papers.png')));

    await step('open the quick fixes of a miscased category', async () => {
      await page.locator('.explorer-folders-view .monaco-list-row >> text=agents-2026-12-01.digest').first().click();
      await page.locator('.tabs-container .tab[aria-label^="agents-2026-12-01.digest"]').first().waitFor({ state: 'visible', timeout: 45_000 });
      await goTo(page, positionOf('agents-2026-12-01.digest', 'CS.ai', 1));
      // The problems of a file just opened are pulled a moment after it opens: Ctrl+. before
      // they are in finds no fix and offers nothing. Ask again while the menu does not show.
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+.');
        try {
          await page.locator('.action-widget >> text=—').first().waitFor({ state: 'visible', timeout: 5_000 });
          break;
        } catch (error) {
          if (attempt === 6) {
            throw new Error(`quick fix menu: no fix offered after ${attempt} tries (${(error as Error).message.split('\n')[0]})`);
          }
          await page.keyboard.press('Escape');
        }
      }
    });
    taken.push(await screenshot(page, path.join(out, 'quickfix.png')));
    await page.keyboard.press('Escape');

    await step('show the Problems panel', async () => {
      await runCommand(page, 'View: Toggle Problems');
      await waitForText(page, '.part.panel', 'unknown-category', 'Problems panel');
    });
    taken.push(await screenshot(page, path.join(out, 'problems.png')));

    await step('star one paper and mark another read', async () => {
      await runCommand(page, 'View: Toggle Problems');
      await page.locator('.explorer-folders-view .monaco-list-row >> text=reasoning-2026-12-01.digest').first().click();
      await page.locator('.tabs-container .tab[aria-label^="reasoning-2026-12-01.digest"]').first().waitFor({ state: 'visible', timeout: 45_000 });
      await goTo(page, positionOf('reasoning-2026-12-01.digest', 'Chain-of-Thought Distillation'));
      await runExactCommand(page, 'Paper Digest: Star');
      await waitForState(workspace, lineOf('reasoning-2026-12-01.digest', 'Chain-of-Thought Distillation'), (paper) => paper.starred === true, 'the star');
      await goTo(page, positionOf('reasoning-2026-12-01.digest', 'Sparse Probes for Arithmetic'));
      await runExactCommand(page, 'Paper Digest: Mark Read');
      await waitForState(workspace, lineOf('reasoning-2026-12-01.digest', 'Sparse Probes for Arithmetic'), (paper) => paper.read === true, 'the paper read');
    });
    await step('show the Papers view For you', async () => {
      // A wider side bar, so that the descriptions (score, Chinese title) show.
      await runCommand(page, 'Explorer: Focus on Papers View');
      for (let i = 0; i < 6; i++) {
        await runExactCommand(page, 'Increase Current View Size');
      }
      await runExactCommand(page, 'Paper Digest: Group Papers: For You');
      await waitForText(page, '.pane-body', 'Recommended', 'For you bands');
      await expandRow(page, 'Recommended', 'For you band');
      await waitForText(page, '.pane-body', 'score', 'For you scores');
      // The paper rows carry their state icons; the tooltips' reasons are checked by the editor suite.
      await waitForText(page, '.pane-body', 'Chain-of-Thought Distillation', 'For you papers');
    });
    taken.push(await screenshot(page, path.join(out, 'papers-for-you.png')));
    await page.keyboard.press('Escape');

    await step('show the Papers view Unread', async () => {
      await runExactCommand(page, 'Paper Digest: Group Papers: Unread');
      await waitForText(page, '.pane-header', 'unread', 'the grouping in the title');
      for (const file of ['reasoning-2026-12-01.digest', 'agents-2026-12-01.digest']) {
        await expandRow(page, file, 'the unread papers of a file');
      }
      await waitForText(page, '.pane-body', 'Latent Search Trees', 'unread papers');
    });
    taken.push(await screenshot(page, path.join(out, 'papers-unread.png')));
    await page.keyboard.press('Escape');

    await step('show the statistics dashboard', async () => {
      if (await page.locator('.part.panel').first().isVisible()) {
        await runCommand(page, 'View: Close Panel');
        await page.locator('.part.panel').first().waitFor({ state: 'hidden', timeout: 20_000 });
      }
      await runCommand(page, 'Paper Digest: Show Statistics');
      // The webview's page is a frame inside the webview's iframe.
      const dashboard = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await dashboard.locator('#chart-dates circle.clickable').first().waitFor({ state: 'visible', timeout: 60_000 });
      await dashboard.locator('#chart-topics rect.clickable').first().waitFor({ state: 'visible', timeout: 60_000 });
      // The toasts of earlier steps (papers marked read) would cover the charts.
      await runCommand(page, 'Notifications: Clear All Notifications');
      await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden', timeout: 20_000 });
    });
    taken.push(await screenshot(page, path.join(out, 'statistics.png')));

    await step('click a topic bar: the Papers view shows its papers', async () => {
      const dashboard = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await dashboard.locator('#chart-topics rect.clickable').first().click();
      await waitForText(page, '.pane-body', 'topic:数学推理', 'the Papers view filtered by the clicked bar');
    });

    await step('export a week of the roll-up as a digest', async () => {
      const dashboard = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await dashboard.locator('section.rollup button >> text=Digest').first().click();
      // The roll-up opens beside the dashboard as a new digest document, headed by its week.
      await waitForText(page, '.editor-instance .view-lines', '2026-W49', 'the exported roll-up');
    });

    await step('export a week of the roll-up as Markdown', async () => {
      const dashboard = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await dashboard.locator('section.rollup button >> text=Markdown').first().click();
      // A bilingual reading list, its count line `N papers · N 篇论文` (no digest says 篇论文).
      await waitForText(page, '.editor-instance .view-lines', '篇论文', 'the roll-up exported as Markdown');
    });

    // After the screenshots: a tag that reads like an icon (`$(alert)`) shows as written in the
    // quick picks of Add Tag and Remove Tag, not as the icon.
    const iconTag = '$(alert)urgent';
    const showsAsWritten = async (what: string): Promise<void> => {
      const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
      await page
        .locator(rows, { hasText: '(alert)urgent' })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 })
        .catch(async (error: Error) => {
          const seen = await page.evaluate<string[]>(`Array.from(document.querySelectorAll(${JSON.stringify(rows)})).map((e) => e.innerText)`);
          throw new Error(`${what}: no row shows the tag as written (${error.message.split('\n')[0]}); rows: ${JSON.stringify(seen)}`);
        });
      const [text, icons] = await page.evaluate<[string, number]>(
        `((row) => row ? [row.innerText.replace(/\\u200b/g, ''), row.querySelectorAll('.codicon-alert').length] : ['', 0])(Array.from(document.querySelectorAll(${JSON.stringify(rows)})).find((e) => e.innerText.includes('(alert)urgent')))`,
      );
      if (!text.includes(iconTag) || icons > 0) {
        throw new Error(`${what}: the tag shows as ${JSON.stringify(text)} with ${icons} alert icon(s)`);
      }
    };
    await step('a tag like an icon shows as written when added', async () => {
      await page.locator('.explorer-folders-view .monaco-list-row >> text=reasoning-2026-12-01.digest').first().click();
      await page.locator('.tabs-container .tab[aria-label^="reasoning-2026-12-01.digest"]').first().waitFor({ state: 'visible', timeout: 45_000 });
      await goTo(page, positionOf('reasoning-2026-12-01.digest', 'Sparse Probes for Arithmetic'));
      await runExactCommand(page, 'Paper Digest: Add Tag…', 'Add Tag');
      await page.keyboard.insertText(iconTag);
      await showsAsWritten('Add Tag');
      await page.keyboard.press('Enter');
      await waitForState(workspace, lineOf('reasoning-2026-12-01.digest', 'Sparse Probes for Arithmetic'), (paper) => Array.isArray(paper.tags) && paper.tags.includes(iconTag), 'the tag');
    });
    await step('a tag like an icon shows as written when removed', async () => {
      await runExactCommand(page, 'Paper Digest: Remove Tag…', 'Remove Tag');
      await showsAsWritten('Remove Tag');
      await page.keyboard.press('Enter');
      await waitForState(workspace, lineOf('reasoning-2026-12-01.digest', 'Sparse Probes for Arithmetic'), (paper) => !Array.isArray(paper.tags) || !paper.tags.includes(iconTag), 'the tag removed');
    });
    console.log(`screenshots: ${taken.length} taken in ${out}`);
  } finally {
    await session.close();
    await server.stop();
  }
}

runScript('screenshots', main);
