/**
 * The statistics dashboard: a webview that draws the language server's numbers
 * (`paperDigest/statistics`). A click on a bar or a point filters the Papers view to the papers it
 * counts; a week's or a month's roll-up opens as a new digest or Markdown document. The page has
 * a strict Content Security Policy: its own script by nonce, its own style sheet, nothing remote.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DigestStatistics, LANGUAGE_ID, RollupRequest, StatisticsRequest } from '../../server/src/protocol';
import type { PapersView } from './papersView';
import { CHART_WORDS, chartWords } from '../../server/src/service/charts';
import { MessageLanguage, resolveMessageLanguage } from '../../server/src/service/messages';

/**
 * The dashboard's language: the language server's, `paperDigest.messageLanguage` with `auto`
 * resolved by the display language, so that the page reads as the problems and `stats --lang` do.
 */
export function dashboardLanguage(): MessageLanguage {
  return resolveMessageLanguage(vscode.workspace.getConfiguration('paperDigest').get('messageLanguage'), vscode.env.language);
}
import { onIndexChanged } from './indexChanges';
import { showInformation } from './notifications';
import { randomHex } from './randomHex';

export const SHOW_STATISTICS_COMMAND = 'paperDigest.showStatistics';

/** What the page reported it drew, for the tests: per chart, its clickable marks and SVG elements. */
export interface RenderedCharts {
  /** The page's heading as drawn. */
  readonly heading: string;
  readonly charts: readonly { readonly id: string; readonly title: string; readonly clickable: number; readonly svgElements: number }[];
}

/** What the page holds, as it answers `probe` (for the tests). */
export interface PageProbe {
  /** The local names of every element of the page. */
  readonly elements: readonly string[];
  /** Every script, VS Code's own (`_vscodeApiScript`, which it puts into every webview) included. */
  readonly scripts: readonly { readonly id: string; readonly src: string; readonly nonce: boolean; readonly inline: boolean }[];
  readonly styles: readonly { readonly rel: string; readonly href: string }[];
  readonly csp: string;
  /** The own text of every chart label and table link, and of every tooltip. */
  readonly labels: readonly string[];
  readonly tooltips: readonly string[];
  /** `vscode-light`, `vscode-dark`, `vscode-high-contrast` or `vscode-high-contrast-light`. */
  readonly themeKind: string;
  /** The computed fill of a chart label and stroke of a bar. */
  readonly labelFill: string;
  readonly barStroke: string;
}

/**
 * Opens (or shows) the dashboard and keeps it current while it is open.
 *
 * @example
 * const dashboard = registerStatistics(context, client, papersView);
 * await vscode.commands.executeCommand('paperDigest.showStatistics');
 */
export class StatisticsDashboard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private scope: 'workspace' | 'file' = 'workspace';
  /** The digest the `file` scope shows: the active digest when the scope was chosen. */
  private scopeUri: vscode.Uri | undefined;
  /** The digest last in the active editor: the dashboard, once focused, has no active editor. */
  private lastDigest: vscode.Uri | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<RenderedCharts>();
  /** Fires each time the page has drawn the statistics. */
  readonly onDidRender = this.renderedEmitter.event;
  private lastRendered: RenderedCharts | undefined;
  private lastStatistics: DigestStatistics | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly probes = new Map<number, (probe: PageProbe) => void>();
  private probeId = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly client: LanguageClient,
    private readonly papersView: PapersView,
  ) {
    const noteDigest = (editor: vscode.TextEditor | undefined): void => {
      if (editor?.document.languageId === LANGUAGE_ID) {
        this.lastDigest = editor.document.uri;
      }
    };
    noteDigest(vscode.window.activeTextEditor);
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(noteDigest),
      this.renderedEmitter,
      onIndexChanged(client, () => {
        if (this.panel?.visible) {
          void this.update();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('paperDigest.messageLanguage') && this.panel?.visible) {
          void this.update();
        }
      }),
    );
  }

  /** What the page drew last, if it has drawn. */
  get rendered(): RenderedCharts | undefined {
    return this.lastRendered;
  }

  /** The statistics the page was sent last. */
  get statistics(): DigestStatistics | undefined {
    return this.lastStatistics;
  }

  /**
   * Asks the page what it holds (for the tests); undefined when the dashboard is closed or the
   * page does not answer within `timeoutMs`.
   */
  probe(timeoutMs = 10_000): Promise<PageProbe | undefined> {
    const panel = this.panel;
    if (!panel) {
      return Promise.resolve(undefined);
    }
    const id = ++this.probeId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.probes.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.probes.set(id, (probe) => {
        clearTimeout(timer);
        resolve(probe);
      });
      void panel.webview.postMessage({ type: 'probe', id });
    });
  }

  /** Opens the dashboard, of the workspace or of the active digest. */
  show(scope: 'workspace' | 'file' = 'workspace'): void {
    this.setScope(scope);
    if (this.panel) {
      this.panel.reveal();
      void this.update();
      return;
    }
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel('paperDigest.statistics', vscode.l10n.t('Paper Digest Statistics'), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [webviewRoot],
      retainContextWhenHidden: false,
    });
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'images', 'icon.png');
    panel.webview.html = this.html(panel.webview, webviewRoot);
    panel.onDidDispose(() => {
      this.panel = undefined;
    }, undefined, this.disposables);
    panel.onDidChangeViewState(() => {
      if (panel.visible) {
        void this.update();
      }
    }, undefined, this.disposables);
    panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message), undefined, this.disposables);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const disposable of this.disposables.splice(0)) {
      disposable.dispose();
    }
  }

  private setScope(scope: 'workspace' | 'file'): void {
    const active = vscode.window.activeTextEditor?.document;
    // The digest in the active editor, else the one there last (the dashboard's own button is
    // clicked with the dashboard focused, and no text editor active).
    // (Only while it is still open: a digest closed or deleted since is not "the active one".)
    const last = this.lastDigest && vscode.workspace.textDocuments.some((document) => document.uri.toString() === this.lastDigest!.toString()) ? this.lastDigest : undefined;
    const digest = active?.languageId === LANGUAGE_ID ? active.uri : last;
    if (scope === 'file' && digest) {
      this.scope = 'file';
      this.scopeUri = digest;
    } else if (scope === 'file' && this.scopeUri) {
      this.scope = 'file';
    } else {
      if (scope === 'file') {
        void showInformation(vscode.l10n.t('Paper Digest: open a digest to see its statistics.'));
      }
      this.scope = 'workspace';
    }
  }

  /** Asks the server for the numbers and sends them to the page. */
  private async update(): Promise<void> {
    const panel = this.panel;
    if (!panel) {
      return;
    }
    const uri = this.scope === 'file' ? this.scopeUri?.toString() : undefined;
    const stats = await this.client.sendRequest(StatisticsRequest, uri ? { uri } : {});
    this.lastStatistics = stats;
    const scopeName = this.scope === 'file' && this.scopeUri ? vscode.workspace.asRelativePath(this.scopeUri) : '';
    await panel.webview.postMessage({ type: 'statistics', stats, scope: this.scope, scopeName, language: dashboardLanguage() });
  }

  /** A message from the page: untrusted in shape, so every field is checked. */
  private async receive(message: unknown): Promise<void> {
    if (!message || typeof message !== 'object') {
      return;
    }
    const { type } = message as { type?: unknown };
    switch (type) {
      case 'ready':
        await this.update();
        return;
      case 'filter': {
        const filter = (message as { filter?: unknown }).filter;
        // Only a filter of the numbers the page was sent (a row's, however long its value).
        if (typeof filter === 'string' && this.lastStatistics && hasFilter(this.lastStatistics, filter)) {
          this.papersView.setFilter(filter);
          await vscode.commands.executeCommand('paperDigest.papers.focus');
        }
        return;
      }
      case 'scope': {
        const scope = (message as { scope?: unknown }).scope;
        this.setScope(scope === 'file' ? 'file' : 'workspace');
        await this.update();
        return;
      }
      case 'rollup': {
        const { period, format } = message as { period?: unknown; format?: unknown };
        if (typeof period === 'string' && (format === 'digest' || format === 'markdown')) {
          // The page's scope: on the active digest, the roll-up of its papers alone.
          const uri = this.scope === 'file' ? this.scopeUri?.toString() : undefined;
          const result = await this.client.sendRequest(RollupRequest, uri ? { period, format, uri } : { period, format });
          if (result.paperCount === 0) {
            void showInformation(vscode.l10n.t('Paper Digest: no papers in {0}.', period));
            return;
          }
          const document = await vscode.workspace.openTextDocument({ content: result.text, language: format === 'digest' ? LANGUAGE_ID : 'markdown' });
          await vscode.window.showTextDocument(document, vscode.ViewColumn.Beside);
        }
        return;
      }
      case 'probed': {
        const { id } = message as { id?: unknown };
        const answer = typeof id === 'number' ? this.probes.get(id) : undefined;
        if (answer) {
          this.probes.delete(id as number);
          answer(message as unknown as PageProbe);
        }
        return;
      }
      case 'rendered': {
        const { charts, heading } = message as { charts?: unknown; heading?: unknown };
        if (Array.isArray(charts)) {
          this.lastRendered = {
            heading: typeof heading === 'string' ? heading : '',
            charts: charts
              .filter((chart): chart is { id: string; title?: unknown; clickable: number; svgElements: number } => !!chart && typeof chart.id === 'string')
              .map((chart) => ({ id: chart.id, title: typeof chart.title === 'string' ? chart.title : '', clickable: Number(chart.clickable) || 0, svgElements: Number(chart.svgElements) || 0 })),
          };
          this.renderedEmitter.fire(this.lastRendered);
        }
        return;
      }
    }
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    const nonce = randomHex(16);
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, 'stats.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(root, 'stats.css'));
    const language = dashboardLanguage();
    const csp = [`default-src 'none'`, `img-src ${webview.cspSource}`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
    return `<!DOCTYPE html>
<html lang="${language === 'en' ? 'en' : 'zh-CN'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${escapeHtml(chartWords(CHART_WORDS.pageTitle, language))}</title>
</head>
<body>
<main id="root"><p>${escapeHtml(chartWords(CHART_WORDS.loading, language))}</p></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }
}

/** Text for the page's markup (its own words only: the page draws document text as text nodes). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Registers the dashboard and its command. */
export function registerStatistics(context: vscode.ExtensionContext, client: LanguageClient, papersView: PapersView): StatisticsDashboard {
  const dashboard = new StatisticsDashboard(context.extensionUri, client, papersView);
  context.subscriptions.push(
    dashboard,
    vscode.commands.registerCommand(SHOW_STATISTICS_COMMAND, (scope?: unknown) => dashboard.show(scope === 'file' ? 'file' : 'workspace')),
  );
  return dashboard;
}

/** Whether `filter` is the `filter` of a row somewhere in the statistics. */
function hasFilter(value: unknown, filter: string): boolean {
  if (Array.isArray(value)) {
    return value.some((item) => hasFilter(item, filter));
  }
  if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (key === 'filter' ? field === filter : hasFilter(field, filter)) {
        return true;
      }
    }
  }
  return false;
}
