/**
 * The statistics dashboard in a real editor: the command opens the webview, the page draws every
 * chart from the server's numbers, and a filter it sends narrows the Papers view to what it
 * counted. (The click itself, in the page, is made by takeScreenshots.ts through the workbench.)
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { waitForEvent, waitUntil } from './waiting';

const EXTENSION_ID = 'paper-digest.paper-digest';

describe('The statistics dashboard', () => {
  let api: any;

  before(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not installed`);
    api = await extension.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api?.papersView.setFilter('');
  });

  it('Should open from the command and draw every chart from the server numbers', async () => {
    const rendered = waitForEvent<any>(api.statistics.onDidRender, (value) => value.charts.length > 0, 'the dashboard to draw', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    const drawn = await rendered;
    assert.deepStrictEqual(
      drawn.charts.map((chart: any) => chart.id),
      ['dates', 'trends', 'topics', 'keywords', 'categories', 'institutions', 'weeks', 'months'],
    );
    const stats = api.statistics.statistics;
    assert.ok(stats && stats.paperCount > 0, 'the server sent statistics');
    const topics = drawn.charts.find((chart: any) => chart.id === 'topics');
    // Each topic is a clickable label and a clickable bar, drawn as SVG elements in the page.
    assert.strictEqual(topics.clickable, 2 * Math.min(stats.topics.length, 15));
    assert.ok(topics.svgElements > topics.clickable);
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((each) => each.label === 'Paper Digest Statistics');
    assert.ok(tab, 'the dashboard is open as an editor tab');
  });

  it('Should narrow the Papers view to the papers a bar counts', async () => {
    const stats = await waitUntil(() => api.statistics.statistics, 'statistics', [api.statistics.onDidRender]);
    const topic = stats.topics[0];
    api.papersView.setFilter(topic.filter);
    const roots = await waitUntil(
      async () => {
        const children = await api.papersView.getChildren();
        return children.length > 0 && api.papersView.filter === topic.filter ? children : undefined;
      },
      'the filtered Papers view',
      [api.papersView.onDidChangeTreeData],
    );
    // In the topic grouping, the filtered tree holds the one topic, and as many distinct papers
    // (by English title, as the statistics tell papers apart) as the bar counts.
    await api.papersView.setGrouping('topic');
    const groups = await api.papersView.getChildren();
    assert.ok(roots.length > 0);
    assert.strictEqual(groups.length, 1);
    assert.strictEqual(groups[0].node.label, topic.label);
    const titles = new Set<string>();
    const collect = async (element: any): Promise<void> => {
      for (const child of await api.papersView.getChildren(element)) {
        if (child.node.kind === 'paper') {
          titles.add(child.node.title.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim());
        } else {
          await collect(child);
        }
      }
    };
    await collect(groups[0]);
    assert.strictEqual(titles.size, topic.count);
  });
});
