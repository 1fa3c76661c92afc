/**
 * The statistics dashboard in a real editor: the command opens the webview, the page draws every
 * chart from the server's numbers, and a filter it sends narrows the Papers view to what it
 * counted. (The click itself, in the page, is made by takeScreenshots.ts through the workbench.)
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension } from './helpers';
import { waitForEvent, waitUntil } from './waiting';

/** A digest the tests add to the workspace (and remove afterwards). */
function addedDigest(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder');
  return vscode.Uri.joinPath(folder.uri, '2031-01-02.digest');
}

const ADDED_TEXT = [
  '大模型推理能力',
  'Statistics Test Paper on Lattice Reasoning',
  '格推理的统计测试论文',
  'Mei Tanaka',
  '机构 * Kyoto University（京都大学） 纠错',
  '专题命中 格推理 ：lattice reasoning(title)；分类 cs.LO',
  'AI总结 用于检验仪表板随摘要变化而更新的论文。',
].join('\n\n') + '\n';

describe('The statistics dashboard', () => {
  let api: any;

  before(async () => {
    api = await activateExtension();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api?.papersView.setFilter('');
    await vscode.workspace.fs.delete(addedDigest(), { useTrash: false }).then(undefined, () => undefined);
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
    // The page's words in the message language: both by default.
    assert.strictEqual(drawn.heading, 'Paper Digest statistics · 论文摘要统计');
    assert.strictEqual(topics.title, 'Papers per topic · 各专题论文数');
  });

  it('Should draw its heading and chart titles in Chinese alone when the message language is zh-cn', async () => {
    const config = vscode.workspace.getConfiguration('paperDigest');
    const first = waitForEvent<any>(api.statistics.onDidRender, () => true, 'the dashboard to draw', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    await first;
    const chinese = waitForEvent<any>(api.statistics.onDidRender, (value) => value.heading === '论文摘要统计', 'the dashboard to draw in Chinese', 60_000);
    await config.update('messageLanguage', 'zh-cn', vscode.ConfigurationTarget.Workspace);
    try {
      const drawn = await chinese.catch((error) => {
        throw new Error(`${(error as Error).message}; last drawn: ${JSON.stringify(api.statistics.rendered)}`);
      });
      const titles = drawn.charts.map((chart: any) => chart.title);
      assert.deepStrictEqual(titles.slice(2, 6), ['各专题论文数', '各关键词论文数', '各 arXiv 分类论文数', '论文最多的机构'], JSON.stringify(titles));
      for (const title of titles) assert.doesNotMatch(title.replace('arXiv', ''), /[A-Za-z]{4,}/, title);
    } finally {
      await config.update('messageLanguage', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('Should draw again when a digest is added, with its date and topic', async () => {
    const redrawn = waitForEvent<any>(
      api.statistics.onDidRender,
      () => api.statistics.statistics?.dates.some((point: any) => point.date === '2031-01-02') === true,
      'the dashboard to draw the new digest',
      60_000,
    );
    await vscode.workspace.fs.writeFile(addedDigest(), Buffer.from(ADDED_TEXT, 'utf8'));
    await redrawn;
    const stats = api.statistics.statistics;
    const topic = stats.topics.find((row: any) => row.label === '格推理');
    assert.deepStrictEqual([topic?.count, topic?.filter], [1, 'topic:格推理']);
    assert.strictEqual(stats.dates.at(-1).date, '2031-01-02');
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
