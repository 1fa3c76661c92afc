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

/** A digest of hostile text: markup, quotes and a bidirectional override in its topic, keyword and institution. */
function hostileDigest(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder');
  return vscode.Uri.joinPath(folder.uri, '2031-01-03.digest');
}
const HOSTILE_TOPIC = '</svg><script>alert(1)</script>"&\'\u202E坏';
const HOSTILE_INSTITUTION = 'Evil </svg><script>alert(2)</script> "Lab" \u202Egnp.exe';
const HOSTILE_TEXT = [
  '大模型推理能力',
  'Hostile <img src=x onerror=alert(3)> Paper',
  '恶意标题的论文',
  'Mei Tanaka',
  `机构 * ${HOSTILE_INSTITUTION}（<b>坏</b>） 纠错`,
  `专题命中 ${HOSTILE_TOPIC} ：<iframe src=x>(title)；分类 cs.LO`,
  'AI总结 检验仪表板把摘要里的文字当作文字。',
].join('\n\n') + '\n';
/** What charts.ts's displayText makes of a text: the override replaced by U+FFFD. */
const shown = (text: string): string => text.replace(/\u202E/g, '\uFFFD');

describe('The statistics dashboard', () => {
  let api: any;

  before(async () => {
    api = await activateExtension();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api?.papersView.setFilter('');
    await vscode.workspace.fs.delete(addedDigest(), { useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(hostileDigest(), { useTrash: false }).then(undefined, () => undefined);
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
    assert.strictEqual(drawn.heading, 'Paper Digest statistics · Paper Digest 统计');
    assert.strictEqual(topics.title, 'Papers per topic · 各专题论文数');
  });

  it('Should draw its heading and chart titles in Chinese alone when the message language is zh-cn', async () => {
    const config = vscode.workspace.getConfiguration('paperDigest');
    const first = waitForEvent<any>(api.statistics.onDidRender, () => true, 'the dashboard to draw', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    await first;
    const chinese = waitForEvent<any>(api.statistics.onDidRender, (value) => value.heading === 'Paper Digest 统计', 'the dashboard to draw in Chinese', 60_000);
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

  it('Should show the active digest alone with the file scope, and the workspace again without it', async () => {
    const document = await vscode.workspace.openTextDocument(addedDigest());
    await vscode.window.showTextDocument(document);
    const uri = document.uri.toString();
    const ofFile = waitForEvent<any>(api.statistics.onDidRender, () => api.statistics.statistics?.uri === uri, 'the dashboard of the active digest', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics', 'file');
    await ofFile;
    const stats = api.statistics.statistics;
    assert.deepStrictEqual([stats.fileCount, stats.paperCount, stats.topics.map((row: any) => row.label)], [1, 1, ['格推理']]);
    const ofWorkspace = waitForEvent<any>(api.statistics.onDidRender, () => api.statistics.statistics?.uri === undefined, 'the dashboard of the workspace', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    await ofWorkspace;
    assert.ok(api.statistics.statistics.fileCount > 1);
    // The page's Active digest button, clicked with the dashboard focused (no text editor active):
    // the digest in the editor last, another than the file scope's before.
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const other = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'second.digest'));
    await vscode.window.showTextDocument(other);
    const ofOther = waitForEvent<any>(api.statistics.onDidRender, () => api.statistics.statistics?.uri === other.uri.toString(), 'the dashboard of the digest in the editor last', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    await api.statistics.receive({ type: 'scope', scope: 'file' });
    await ofOther;
    // Back to the workspace, for the tests after this one.
    const again = waitForEvent<any>(api.statistics.onDidRender, () => api.statistics.statistics?.uri === undefined, 'the dashboard of the workspace again', 60_000);
    await vscode.commands.executeCommand('paperDigest.showStatistics');
    await again;
  });

  it('Should draw hostile digest text as text, under a strict Content Security Policy with its own script by nonce', async () => {
    const drawn = waitForEvent<any>(
      api.statistics.onDidRender,
      () => api.statistics.statistics?.topics.some((row: any) => row.label === HOSTILE_TOPIC) === true,
      'the dashboard to draw the hostile digest',
      60_000,
    );
    await vscode.workspace.fs.writeFile(hostileDigest(), Buffer.from(HOSTILE_TEXT, 'utf8'));
    await drawn;
    const probe = await waitUntil(() => api.statistics.probe(), 'the page to answer a probe', []);
    // Only the page's own elements: no script, image, frame or bold from the digest.
    assert.deepStrictEqual(
      probe.elements.filter((name: string) => !['html', 'head', 'meta', 'link', 'style', 'title', 'body', 'main', 'header', 'h1', 'h2', 'p', 'div', 'span', 'button', 'section', 'table', 'tr', 'th', 'td', 'a', 'svg', 'text', 'rect', 'circle', 'polyline', 'script'].includes(name)),
      [],
    );
    // The page's one script, by nonce, beside the one VS Code puts into every webview (acquireVsCodeApi).
    const scripts = probe.scripts.filter((script: any) => script.id !== '_vscodeApiScript');
    assert.strictEqual(scripts.length, 1, JSON.stringify(probe.scripts));
    assert.ok(scripts[0].nonce && !scripts[0].inline && scripts[0].src.endsWith('/dist/webview/stats.js'), JSON.stringify(probe.scripts));
    assert.deepStrictEqual(probe.styles.map((style: any) => [style.rel, style.href.endsWith('/dist/webview/stats.css')]), [['stylesheet', true]]);
    const csp = new Map<string, string>(probe.csp.split(';').map((part: string) => part.trim().split(/\s+/)).map(([name, ...values]: string[]) => [name, values.join(' ')]));
    assert.strictEqual(csp.get('default-src'), "'none'", probe.csp);
    assert.match(csp.get('script-src') ?? '', /^'nonce-[A-Za-z0-9+/=]{16,}'$/, probe.csp);
    assert.doesNotMatch(probe.csp, /unsafe|https?:\/\/(?!\S*vscode-cdn\.net)|\*(?!\.vscode-cdn\.net)/, probe.csp);
    // The hostile words are there, as text: the whole of each in its tooltip, the labels cut to fit.
    const tips = probe.tooltips.join('\n');
    assert.ok(tips.includes(`${shown(HOSTILE_TOPIC)}: 1 paper · 1 篇`), tips);
    assert.ok(tips.includes(`${shown(HOSTILE_INSTITUTION)} (<b>坏</b>): 1 paper · 1 篇`), tips);
    assert.ok(tips.includes('<iframe src=x>: 1 paper · 1 篇'), tips);
    assert.ok(probe.labels.some((label: string) => label.startsWith('</svg><script>')), probe.labels.join(' | '));
    assert.ok(!probe.labels.concat(probe.tooltips).some((text: string) => text.includes('\u202E')), 'no bidirectional override is drawn');
  });

  it('Should follow the colour theme: light, dark and high contrast', async () => {
    const workbench = vscode.workspace.getConfiguration('workbench');
    const themes = [['Default Light Modern', 'vscode-light'], ['Default Dark Modern', 'vscode-dark'], ['Default High Contrast', 'vscode-high-contrast']];
    const seen = new Map<string, any>();
    try {
      for (const [theme, kind] of themes) {
        await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        const probe = await waitUntil(
          async () => {
            const answer = await api.statistics.probe();
            return answer?.themeKind === kind && answer.labelFill ? answer : undefined;
          },
          `the dashboard in ${theme}`,
          [],
          30_000,
        );
        seen.set(kind, probe);
      }
    } finally {
      await workbench.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
    // A label is drawn in each theme's foreground: three different colours.
    const fills = themes.map(([, kind]) => seen.get(kind).labelFill);
    assert.strictEqual(new Set(fills).size, 3, fills.join(', '));
    // High contrast outlines the bars with its contrast border; the others do not.
    assert.match(seen.get('vscode-high-contrast').barStroke, /^rgb/, seen.get('vscode-high-contrast').barStroke);
    assert.strictEqual(seen.get('vscode-light').barStroke, 'none');
  });
});
