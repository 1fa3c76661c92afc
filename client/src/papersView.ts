/**
 * The Papers view: every paper of every digest of the workspace, as the server groups them
 * (`paperDigest/papersTree`), one level at a time. The view follows the cursor, filters, switches
 * grouping, and re-asks the server when the index changes, but only while it is visible.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  IndexChangedParams,
  LANGUAGE_ID,
  PaperAtRequest,
  PaperNode,
  PapersGroupNode,
  PapersGrouping,
  PapersTreeItem,
  PapersTreeRequest,
  RescanWorkspaceRequest,
} from '../../server/src/protocol';
import { PapersExpansion } from './papersExpansion';
import { decoratePaperItem } from './reading/paperItems';
import { fileGroupTooltip, paperDescription, paperTooltipMarkdown } from './tooltip';
import { onIndexChanged } from './indexChanges';
import { escapeMarkdown, labelSafe } from '../../server/src/service/text';
import { filterProblem } from '../../server/src/service/filterTerms';

export const PAPERS_VIEW_ID = 'paperDigest.papers';
/** Context key holding the current grouping, for the toolbar's `when` clauses. */
export const GROUPING_CONTEXT_KEY = 'paperDigest.papersGrouping';
/** Context key set while a filter is active. */
export const FILTERED_CONTEXT_KEY = 'paperDigest.papersFiltered';

const GROUPING_STATE_KEY = 'paperDigest.papers.grouping';

export const GROUPING_COMMANDS: Record<PapersGrouping, string> = {
  topic: 'paperDigest.groupByTopic',
  category: 'paperDigest.groupByCategory',
  institution: 'paperDigest.groupByInstitution',
  file: 'paperDigest.groupByFile',
  unread: 'paperDigest.groupByUnread',
  starred: 'paperDigest.groupByStarred',
  forYou: 'paperDigest.groupForYou',
  new: 'paperDigest.groupByNew',
};

/**
 * The grouping the view was left in in this workspace (by topic at first): what it shows at the
 * start, and what the server reads the digests for first (`initializationOptions.papersGrouping`).
 */
export function savedGrouping(state: vscode.Memento): PapersGrouping {
  const saved = state.get<PapersGrouping>(GROUPING_STATE_KEY);
  return saved && Object.prototype.hasOwnProperty.call(GROUPING_COMMANDS, saved) ? saved : 'topic';
}

/** The grouping as the view's description shows it. */
export function groupingName(grouping: PapersGrouping): string {
  switch (grouping) {
    case 'topic': return vscode.l10n.t('by topic');
    case 'category': return vscode.l10n.t('by category');
    case 'institution': return vscode.l10n.t('by institution');
    case 'file': return vscode.l10n.t('by file');
    case 'unread': return vscode.l10n.t('unread');
    case 'starred': return vscode.l10n.t('starred');
    case 'forYou': return vscode.l10n.t('for you');
    case 'new': return vscode.l10n.t('new only');
  }
}

const GROUP_ICONS: Record<PapersGroupNode['groupKind'], string> = {
  topic: 'tag',
  keyword: 'symbol-keyword',
  category: 'symbol-enum',
  institution: 'organization',
  file: 'file',
  page: 'list-flat',
  score: 'sparkle',
};

/** One element of the view: a server node, kept by id so that `reveal` finds the same object. */
export class PapersElement {
  constructor(
    public node: PapersTreeItem,
    public parent: PapersElement | undefined,
  ) {}

  get id(): string {
    return this.node.id;
  }
}

/**
 * The tree data provider of the Papers view.
 *
 * @example
 * const view = registerPapersView(context, client);
 * const roots = await view.getChildren();   // the topics
 * await view.setGrouping('file');
 */
export class PapersView implements vscode.TreeDataProvider<PapersElement>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<PapersElement | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly indexEmitter = new vscode.EventEmitter<IndexChangedParams>();
  /** Fires when the server reports a change of the workspace index. */
  readonly onDidChangeIndex = this.indexEmitter.event;
  private readonly elements = new Map<string, PapersElement>();
  private readonly disposables: vscode.Disposable[] = [];
  private stale = false;
  private followTimer: NodeJS.Timeout | undefined;
  private groupingValue: PapersGrouping;
  private filterValue = '';
  /** How many distinct papers matched in the last answer (copies of a paper in several places count once). */
  paperCount: number | undefined;
  /** How many papers the workspace holds, as the last answer said. */
  private indexedPaperCount: number | undefined;
  readonly treeView: vscode.TreeView<PapersElement>;
  /** The groups expanded, kept over switches of grouping and filter. */
  readonly expansion: PapersExpansion;
  /**
   * Settles once VS Code has the roots of the last refresh: a reveal while it loads them would
   * leave the revealed paper's groups with only the path to it.
   */
  private rootsLoaded: Promise<void> = Promise.resolve();
  private resolveRoots: (() => void) | undefined;

  constructor(
    private readonly client: LanguageClient,
    private readonly state: vscode.Memento,
  ) {
    this.groupingValue = savedGrouping(state);
    this.treeView = vscode.window.createTreeView(PAPERS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.expansion = new PapersExpansion(this.treeView);
    this.rootsPending();
    this.disposables.push(
      this.treeView,
      this.expansion,
      this.changeEmitter,
      this.indexEmitter,
      this.treeView.onDidChangeVisibility((event) => {
        if (event.visible && this.stale) {
          this.refresh();
        }
        if (event.visible) {
          this.followActiveEditor();
        }
      }),
      onIndexChanged(client, (params) => {
        this.indexEmitter.fire(params);
        if (this.treeView.visible) {
          this.refresh();
          // A paper revealed while the tree was being asked again may not have been selected:
          // the paper under the cursor is revealed again once the new tree is in (nothing is
          // asked when it is selected already).
          this.followActiveEditor();
        } else {
          this.stale = true;
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => this.scheduleFollow(event.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && this.scheduleFollow(editor)),
    );
    this.updateTitle();
  }

  get grouping(): PapersGrouping {
    return this.groupingValue;
  }

  get filter(): string {
    return this.filterValue;
  }

  async setGrouping(grouping: PapersGrouping): Promise<void> {
    this.groupingValue = grouping;
    await this.state.update(GROUPING_STATE_KEY, grouping);
    this.elements.clear();
    // The counts of the answer before are not this grouping's: none until it comes.
    this.paperCount = undefined;
    this.updateTitle();
    this.refresh();
    this.followActiveEditor();
  }

  setFilter(filter: string): void {
    this.filterValue = filter.trim();
    this.elements.clear();
    this.paperCount = undefined;
    this.updateTitle();
    this.refresh();
  }

  /** Asks the server for the tree again. */
  refresh(): void {
    this.stale = false;
    this.rootsPending();
    this.changeEmitter.fire(undefined);
  }

  private rootsPending(): void {
    if (!this.resolveRoots) {
      this.rootsLoaded = new Promise((resolve) => {
        this.resolveRoots = resolve;
      });
    }
  }

  /** Refreshes now when the view is visible, else when it shows again (the reading state changed). */
  invalidate(): void {
    if (this.treeView.visible) {
      this.refresh();
      // As after an index change: a paper revealed while the tree was being asked again may not
      // have been selected (nothing is asked when it is selected already).
      this.followActiveEditor();
    } else {
      this.stale = true;
    }
  }

  /** Reads the workspace's digest files again, then refreshes. */
  async rescan(): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: PAPERS_VIEW_ID } }, () => this.client.sendRequest(RescanWorkspaceRequest));
    this.refresh();
  }

  getTreeItem(element: PapersElement): vscode.TreeItem {
    const node = element.node;
    return node.kind === 'group' ? groupItem(node, this.expansion.stateOf(node.id)) : decoratePaperItem(paperItem(node, !inFileGroup(element)), node, this.groupingValue);
  }

  async getChildren(element?: PapersElement): Promise<PapersElement[]> {
    if (element && element.node.kind !== 'group') {
      return [];
    }
    const grouping = this.groupingValue;
    const filter = this.filterValue;
    const result = await this.client.sendRequest(PapersTreeRequest, { grouping, filter, parentId: element?.id });
    if (grouping !== this.groupingValue || filter !== this.filterValue) {
      return [];
    }
    const elements = result.nodes.map((node) => this.intern(node, element));
    if (!element) {
      this.paperCount = result.distinctPaperCount ?? result.paperCount;
      this.indexedPaperCount = result.indexedPaperCount;
      this.updateMessage();
      const resolve = this.resolveRoots;
      this.resolveRoots = undefined;
      resolve?.();
    }
    return elements;
  }

  getParent(element: PapersElement): PapersElement | undefined {
    return element.parent;
  }

  /**
   * Reveals and selects the paper under the editor's cursor, when the view is visible and the
   * selected paper is not already that one (`again`: once more when the tree changed under the
   * reveal). Resolves with the revealed element, if any.
   */
  async follow(editor: vscode.TextEditor, again = true): Promise<PapersElement | undefined> {
    if (!this.treeView.visible || editor.document.languageId !== LANGUAGE_ID) {
      return undefined;
    }
    const uri = editor.document.uri.toString();
    const position = editor.selection.active;
    // The selection may be a row of the tree before a switch of grouping or filter.
    const current = this.treeView.selection[0];
    const selected = current && this.elements.get(current.id) === current ? current.node : undefined;
    if (selected?.kind === 'paper' && selected.uri === uri && position.line >= selected.range.start.line && position.line <= selected.range.end.line) {
      return this.treeView.selection[0];
    }
    const grouping = this.groupingValue;
    const filter = this.filterValue;
    const result = await this.client.sendRequest(PaperAtRequest, { uri, position: { line: position.line, character: position.character }, grouping, filter });
    // The cursor moved or another editor came up meanwhile: the follow that this started goes on.
    if (!result || grouping !== this.groupingValue || filter !== this.filterValue || !editor.selection.active.isEqual(position) || vscode.window.activeTextEditor !== editor) {
      return undefined;
    }
    let parent: PapersElement | undefined;
    for (const node of result.path) {
      parent = this.intern(node, parent);
    }
    if (parent) {
      const before = this.treeView.selection[0];
      try {
        await this.treeView.reveal(parent, { select: true, focus: false, expand: false });
      } catch (error) {
        // The tree was being asked again meanwhile (an index change) and did not hold the row:
        // followed once more, from the server's path in the new tree, once its roots are in.
        if (!again) {
          throw error;
        }
        await this.rootsLoaded;
        return this.follow(editor, false);
      }
      // A reveal the tree lost without a word (its roots asked again, or the view just shown,
      // while it ran) selects nothing: followed once more. Not when something else was selected
      // meanwhile (the user's click).
      if (again && (await this.selectionAfterReveal(parent, before)) === 'none') {
        await this.rootsLoaded;
        return this.follow(editor, false);
      }
    }
    return parent;
  }

  /**
   * What the selection became after a reveal of `element`: that element, another one than it and
   * than the one selected `before` (someone chose it), or neither within two seconds.
   */
  private selectionAfterReveal(element: PapersElement, before: PapersElement | undefined): Promise<'revealed' | 'other' | 'none'> {
    const now = (): 'revealed' | 'other' | undefined => {
      const selection = this.treeView.selection[0];
      return selection === element ? 'revealed' : selection === undefined || selection === before ? undefined : 'other';
    };
    const known = now();
    if (known) {
      return Promise.resolve(known);
    }
    return new Promise((resolve) => {
      const settle = (value: 'revealed' | 'other' | 'none'): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve(value);
      };
      const timer = setTimeout(() => settle('none'), 2_000);
      const listener = this.treeView.onDidChangeSelection(() => {
        const value = now();
        if (value) settle(value);
      });
    });
  }

  dispose(): void {
    if (this.followTimer) {
      clearTimeout(this.followTimer);
    }
    this.disposables.forEach((disposable) => disposable.dispose());
  }

  /** Reveals the paper under the active editor's cursor now, when following is on. */
  private followActiveEditor(): void {
    if (!this.following()) {
      return;
    }
    this.rootsLoaded
      .then(() => {
        // The editor active once the roots are in, not the one active when asked.
        const editor = vscode.window.activeTextEditor;
        return editor ? this.follow(editor) : undefined;
      })
      .catch(() => undefined);
  }

  private following(): boolean {
    return vscode.workspace.getConfiguration('paperDigest').get<boolean>('papers.followCursor', true);
  }

  private scheduleFollow(editor: vscode.TextEditor): void {
    if (!this.treeView.visible || editor.document.languageId !== LANGUAGE_ID) {
      return;
    }
    if (!this.following()) {
      return;
    }
    if (this.followTimer) {
      clearTimeout(this.followTimer);
    }
    this.followTimer = setTimeout(() => {
      this.followTimer = undefined;
      this.follow(editor).catch(() => undefined);
    }, 250);
  }

  /** The element of a node, the same object for the same id, updated with the latest data. */
  private intern(node: PapersTreeItem, parent: PapersElement | undefined): PapersElement {
    const known = this.elements.get(node.id);
    if (known) {
      known.node = node;
      known.parent = parent;
      return known;
    }
    const element = new PapersElement(node, parent);
    this.elements.set(node.id, element);
    return element;
  }

  private updateTitle(): void {
    this.updateDescription();
    void vscode.commands.executeCommand('setContext', GROUPING_CONTEXT_KEY, this.groupingValue);
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT_KEY, this.filterValue !== '');
    this.updateMessage();
  }

  /** The view's description: the grouping, and with a filter how many papers match. */
  private updateDescription(): void {
    const grouping = groupingName(this.groupingValue);
    this.treeView.description = this.filterValue && this.paperCount !== undefined ? `${grouping} · ${papersText(this.paperCount)}` : grouping;
  }

  private updateMessage(): void {
    this.updateDescription();
    const count = this.paperCount;
    if (!this.filterValue && count === 0 && (this.indexedPaperCount ?? 0) > 0) {
      // Papers in the workspace, none in this grouping (nothing starred yet): said so, rather
      // than the welcome content of a workspace without digests (a message hides it).
      this.treeView.message = emptyGroupingMessage(this.groupingValue);
      return;
    }
    // With no match there is no message: VS Code shows the welcome content of an empty view
    // only without one, and that says "No papers match" and offers to clear the filter.
    if (!this.filterValue || count === 0) {
      this.treeView.message = undefined;
      return;
    }
    this.treeView.message = count === undefined ? vscode.l10n.t('Filter: “{0}”', this.filterValue) : vscode.l10n.t('Filter: “{0}” — {1}', this.filterValue, papersText(count));
  }
}

/** What an empty grouping of a workspace with papers says. */
function emptyGroupingMessage(grouping: PapersGrouping): string {
  switch (grouping) {
    case 'unread':
      return vscode.l10n.t('No unread papers: every paper is read.');
    case 'starred':
      return vscode.l10n.t('No starred papers yet.');
    case 'new':
      return vscode.l10n.t('No new papers: every paper was in an earlier digest.');
    default:
      return vscode.l10n.t('No papers in this grouping.');
  }
}

function groupItem(node: PapersGroupNode, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, state);
  item.id = node.id;
  const count = `${node.count}`;
  item.description = node.detail ? `${count} · ${node.detail}` : count;
  item.contextValue = `paperDigest.group.${node.groupKind}`;
  if (node.groupKind === 'file' && node.uri) {
    item.resourceUri = vscode.Uri.parse(node.uri);
    item.iconPath = vscode.ThemeIcon.File;
    item.tooltip = fileGroupTooltip(vscode.workspace.asRelativePath(item.resourceUri), papersText(node.count));
  } else {
    item.iconPath = new vscode.ThemeIcon(node.missing ? 'question' : GROUP_ICONS[node.groupKind]);
    item.tooltip = `${node.label}${node.detail ? ` (${node.detail})` : ''} — ${papersText(node.count)}`;
  }
  item.accessibilityInformation = { label: `${node.label}, ${papersText(node.count)}` };
  return item;
}

/** Whether an element is below a file's group (by file, unread, starred, new only): the group names the file. */
function inFileGroup(element: PapersElement): boolean {
  for (let parent = element.parent; parent; parent = parent.parent) {
    if (parent.node.kind === 'group' && parent.node.groupKind === 'file') {
      return true;
    }
  }
  return false;
}

/** A paper's row; `showFile` adds the name of its file (all but below a file's group). */
function paperItem(node: PaperNode, showFile: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = paperDescription(node, showFile ? vscode.Uri.parse(node.uri).path : undefined, node.duplicate ? duplicateText(node) : undefined);
  item.iconPath = node.duplicate ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('book');
  item.contextValue = node.duplicate ? 'paperDigest.paper.duplicate' : 'paperDigest.paper';
  item.tooltip = paperTooltip(node);
  const selection = new vscode.Range(node.selectionRange.start.line, node.selectionRange.start.character, node.selectionRange.start.line, node.selectionRange.start.character);
  item.command = { command: 'vscode.open', title: vscode.l10n.t('Open Paper'), arguments: [vscode.Uri.parse(node.uri), { selection, preview: true } satisfies vscode.TextDocumentShowOptions] };
  item.accessibilityInformation = { label: [node.title, node.chineseTitle, node.duplicate ? duplicateText(node) : ''].filter((part) => part).join(', ') };
  return item;
}

/**
 * The tooltip of a paper: titles and summary as escaped text (tooltip.ts), and where its
 * duplicates are. Never trusted, no HTML.
 */
export function paperTooltip(node: PaperNode): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(
    paperTooltipMarkdown(
      node,
      (location) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(location.uri))}:${location.range.start.line + 1}`,
      (places, more) => (more > 0 ? vscode.l10n.t('Same English title also at {0} and {1} more', places, more) : vscode.l10n.t('Same English title also at {0}', places)),
    ),
    false,
  );
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  // Where the paper is: its file and line.
  markdown.appendMarkdown(`\n\n---\n\n${escapeMarkdown(`${vscode.workspace.asRelativePath(vscode.Uri.parse(node.uri))}:${node.range.start.line + 1}`)}`);
  return markdown;
}

function duplicateText(node: PaperNode): string {
  return node.duplicateCount === 1 ? vscode.l10n.t('duplicate') : vscode.l10n.t('duplicate ×{0}', node.duplicateCount + 1);
}

function papersText(count: number): string {
  return count === 1 ? vscode.l10n.t('1 paper') : vscode.l10n.t('{0} papers', count);
}

/**
 * Why the Filter Papers box cannot take a filter: one that no paper can pass whatever the
 * workspace holds (`week:2026-W99`, `month:2026-13`, more terms than are read). Undefined when it
 * may keep papers.
 *
 * @example filterInputProblem('week:2026-W99') // '“week:2026-W99” is not an ISO week from 1900 to 2999: write week:YYYY-Www, …'
 */
export function filterInputProblem(filter: string): string | undefined {
  const problem = filterProblem(filter);
  if (!problem) {
    return undefined;
  }
  if (problem.kind === 'tooManyTerms') {
    return vscode.l10n.t('A filter reads at most {0} field:value terms', problem.max);
  }
  // The user's own text, shown without the controls that could reorder it.
  const term = labelSafe(`${problem.field}:${problem.value}`);
  switch (problem.field) {
    case 'date':
      return vscode.l10n.t('“{0}” is not a day from 1900-01-01 to 2999-12-31: write date:YYYY-MM-DD, e.g. date:{1}', term, problem.example);
    case 'week':
      return vscode.l10n.t('“{0}” is not an ISO week from 1900 to 2999: write week:YYYY-Www, W01 to W52 (W53 in the years that have one), e.g. week:{1}', term, problem.example);
    case 'month':
      return vscode.l10n.t('“{0}” is not a month from 1900 to 2999: write month:YYYY-MM, e.g. month:{1}', term, problem.example);
  }
}

/**
 * Creates the Papers view and its commands. Call once the client is running.
 *
 * @example
 * await client.start();
 * const papersView = registerPapersView(context, client);
 */
export function registerPapersView(context: vscode.ExtensionContext, client: LanguageClient): PapersView {
  const view = new PapersView(client, context.workspaceState);
  context.subscriptions.push(
    view,
    ...(Object.entries(GROUPING_COMMANDS) as [PapersGrouping, string][]).map(([grouping, command]) => vscode.commands.registerCommand(command, () => view.setGrouping(grouping))),
    vscode.commands.registerCommand('paperDigest.filterPapers', async () => {
      const filter = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter Papers'),
        prompt: vscode.l10n.t('Keep papers whose English or Chinese title, authors or institutions contain this text, or whose field has a value (topic:, keyword:, category:, institution:, author:, date:, week:, month:, file:)'),
        placeHolder: vscode.l10n.t('e.g. reasoning, 清华, Tanaka, category:cs.CL, week:2026-W18'),
        value: view.filter,
        validateInput: filterInputProblem,
      });
      if (filter !== undefined) {
        view.setFilter(filter);
      }
    }),
    vscode.commands.registerCommand('paperDigest.clearFilter', () => view.setFilter('')),
    vscode.commands.registerCommand('paperDigest.refreshPapers', () => view.rescan()),
  );
  return view;
}
