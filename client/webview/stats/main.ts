/**
 * The statistics dashboard, inside its webview: it draws the numbers the extension sends (the
 * language server's `paperDigest/statistics`) and nothing else. Every text from a digest becomes
 * a text node, never markup; the page loads nothing but this script (by nonce) and its style.
 *
 * Messages from the extension: `{ type: 'statistics', stats, scope, scopeName }`.
 * Messages to the extension: `ready`, `filter` (a bar or point was clicked: its Papers filter),
 * `rollup` (export a week or month), `scope` (workspace or the active digest), and, for the
 * tests, `rendered` (what was drawn) and `probed` (what the page holds, asked by `probe`).
 */
import './stats.css';
import type { DigestStatistics, PeriodRow } from '../../../server/src/service/features/statistics';
import { Chart, CHART_WORDS, chartWords, dashboardCharts, dashboardSummary, displayText, Mark, topicLabel } from '../../../server/src/service/charts';
import { PUNCTUATION, type MessageLanguage } from '../../../server/src/service/messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
let current: { stats: DigestStatistics; scope: 'workspace' | 'file'; scopeName: string; language: MessageLanguage } | undefined;

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as { type?: string; stats?: DigestStatistics; scope?: 'workspace' | 'file'; scopeName?: string; language?: unknown; id?: unknown };
  if (message?.type === 'statistics' && message.stats) {
    const language: MessageLanguage = message.language === 'en' || message.language === 'zh-cn' ? message.language : 'both';
    current = { stats: message.stats, scope: message.scope === 'file' ? 'file' : 'workspace', scopeName: String(message.scopeName ?? ''), language };
    render();
  } else if (message?.type === 'probe') {
    vscode.postMessage({ type: 'probed', id: message.id, ...probe() });
  }
});

/**
 * What the page holds, for the tests: its elements' names, scripts and style sheets, its Content
 * Security Policy, the texts of the charts' labels and tooltips as the DOM has them, and the
 * theme's colours as drawn.
 */
function probe(): Record<string, unknown> {
  const all = Array.from(document.querySelectorAll('*'));
  const fill = (selector: string, property: 'fill' | 'stroke'): string => {
    const node = document.querySelector(selector);
    return node ? getComputedStyle(node)[property] : '';
  };
  const ownText = (node: Element): string => Array.from(node.childNodes).filter((child) => child.nodeType === Node.TEXT_NODE).map((child) => child.textContent).join('');
  return {
    elements: [...new Set(all.map((node) => node.localName))].sort(),
    scripts: Array.from(document.scripts).map((script) => ({ id: script.id, src: script.src, nonce: script.nonce !== '', inline: script.textContent !== '' })),
    styles: Array.from(document.querySelectorAll('link')).map((link) => ({ rel: link.rel, href: link.href })),
    csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    labels: Array.from(document.querySelectorAll('#root svg text, #root a')).map(ownText),
    tooltips: Array.from(document.querySelectorAll('#root svg title')).map((title) => title.textContent ?? ''),
    themeKind: document.body.getAttribute('data-vscode-theme-kind') ?? document.body.className,
    labelFill: fill('#root text.pd-label', 'fill'),
    barStroke: fill('#root rect.pd-bar', 'stroke'),
  };
}

let resizeTimer: number | undefined;
window.addEventListener('resize', () => {
  window.clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(render, 100);
});

vscode.postMessage({ type: 'ready' });

function render(): void {
  if (!current) {
    return;
  }
  const { stats, scope, scopeName, language } = current;
  const say = (words: { en: string; zh: string }): string => chartWords(words, language);
  document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  const root = document.getElementById('root')!;
  root.replaceChildren();

  const header = element('header');
  const heading = say(CHART_WORDS.pageTitle);
  header.append(element('h1', heading));
  header.append(element('p', dashboardSummary(stats, language)));
  const scopes = element('div');
  scopes.className = 'scopes';
  for (const [value, label] of [['workspace', say(CHART_WORDS.workspace)], ['file', say(CHART_WORDS.activeDigest)]] as const) {
    const button = element('button', label);
    button.setAttribute('aria-pressed', String(scope === value));
    button.addEventListener('click', () => vscode.postMessage({ type: 'scope', scope: value }));
    scopes.append(button);
  }
  if (scope === 'file' && scopeName) {
    scopes.append(element('span', displayText(scopeName, 120)));
  }
  header.append(scopes);
  root.append(header);

  const width = Math.max(320, Math.min(1400, document.body.clientWidth - 32));
  const charts = dashboardCharts(stats, width, language);
  const grid = element('div');
  grid.className = 'charts';
  for (const chart of charts) {
    const section = element('section');
    section.append(drawChart(chart));
    grid.append(section);
  }
  root.append(grid);
  root.append(rollupTable(say(CHART_WORDS.weeklyRollup), stats.weeks, language), rollupTable(say(CHART_WORDS.monthlyRollup), stats.months, language));

  vscode.postMessage({
    type: 'rendered',
    heading,
    charts: charts.map((chart) => ({ id: chart.id, title: chart.title, clickable: chart.marks.filter((mark) => 'filter' in mark && mark.filter).length, svgElements: document.querySelectorAll(`#chart-${chart.id} *`).length })),
  });
}

function drawChart(chart: Chart): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('id', `chart-${chart.id}`);
  svg.setAttribute('class', 'pd-chart');
  svg.setAttribute('width', String(chart.width));
  svg.setAttribute('height', String(chart.height));
  svg.setAttribute('viewBox', `0 0 ${chart.width} ${chart.height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', chart.title);
  for (const mark of chart.marks) {
    svg.append(drawMark(mark));
  }
  return svg;
}

function drawMark(mark: Mark): SVGElement {
  let node: SVGElement;
  switch (mark.kind) {
    case 'rect':
      node = svgElement('rect', { x: mark.x, y: mark.y, width: mark.width, height: mark.height });
      break;
    case 'circle':
      node = svgElement('circle', { cx: mark.x, cy: mark.y, r: mark.r });
      break;
    case 'line':
      node = svgElement('polyline', { points: mark.points.map(([x, y]) => `${x},${y}`).join(' ') });
      break;
    case 'text':
      node = svgElement('text', { x: mark.x, y: mark.y, 'text-anchor': mark.anchor });
      node.textContent = mark.text;
      break;
  }
  node.setAttribute('class', `pd-${mark.tone}`);
  if ('tip' in mark && mark.tip) {
    const title = document.createElementNS(SVG, 'title');
    title.textContent = mark.tip;
    node.prepend(title);
  }
  if ('filter' in mark && mark.filter) {
    const filter = mark.filter;
    node.setAttribute('data-filter', filter);
    node.setAttribute('tabindex', '0');
    node.setAttribute('role', 'button');
    node.classList.add('clickable');
    node.addEventListener('click', () => vscode.postMessage({ type: 'filter', filter }));
    node.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Enter' || (event as KeyboardEvent).key === ' ') {
        vscode.postMessage({ type: 'filter', filter });
      }
    });
  }
  return node;
}

function rollupTable(title: string, periods: readonly PeriodRow[], language: MessageLanguage): HTMLElement {
  const say = (words: { en: string; zh: string }): string => chartWords(words, language);
  const section = element('section');
  section.className = 'rollup';
  section.append(element('h2', title));
  if (periods.length === 0) {
    section.append(element('p', say(CHART_WORDS.noDatedDigests)));
    return section;
  }
  const table = element('table');
  const head = element('tr');
  for (const name of [CHART_WORDS.period, CHART_WORDS.dates, CHART_WORDS.papers, CHART_WORDS.topics, CHART_WORDS.export]) {
    head.append(element('th', say(name)));
  }
  table.append(head);
  for (const period of [...periods].reverse()) {
    const row = element('tr');
    const name = element('td');
    name.append(link(period.period, period.filter));
    row.append(name, element('td', `${period.first} – ${period.last}`), element('td', String(period.count)));
    const topics = element('td');
    period.topics.forEach((topic, i) => {
      if (i > 0) {
        topics.append(document.createTextNode(PUNCTUATION.comma(language)));
      }
      topics.append(link(`${displayText(topicLabel(topic, language), 40)} ${topic.count}`, topic.filter));
    });
    row.append(topics);
    const exports = element('td');
    for (const [format, label] of [['digest', say(CHART_WORDS.digestFile)], ['markdown', 'Markdown']] as const) {
      const button = element('button', label);
      button.addEventListener('click', () => vscode.postMessage({ type: 'rollup', period: period.period, format }));
      exports.append(button);
    }
    row.append(exports);
    table.append(row);
  }
  section.append(table);
  return section;
}

function link(text: string, filter: string): HTMLElement {
  const anchor = element('a', text);
  anchor.setAttribute('href', '#');
  anchor.setAttribute('data-filter', filter);
  anchor.addEventListener('click', (event) => {
    event.preventDefault();
    vscode.postMessage({ type: 'filter', filter });
  });
  return anchor;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

function svgElement(tag: string, attributes: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, String(Number.isFinite(value) || typeof value === 'string' ? value : 0));
  }
  return node;
}
