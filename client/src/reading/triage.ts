/**
 * *Paper Digest: Triage Unread Papers*: walks the unread papers one at a time in ranking order
 * (`paperDigest/rankedPapers`), in a quick pick that shows the paper (both titles, authors,
 * institutions, summary, score and reasons) and takes one key each:
 *
 * - `n` Next: go on; the paper is marked read (unless `r` made it unread again);
 * - `s` Star: star or unstar it, and stay;
 * - `r` Read: mark it read or unread again, and stay;
 * - `k` Skip: go on, leaving it as it is (unread: it comes back next time);
 * - `b` Back: the previous paper;
 * - `q` Quit.
 *
 * Each action is an item whose label starts with its key, so Enter on it does the same. The
 * entry is opened in the editor as the walk goes. Document text is shown as text: `$(` is
 * broken so that no title turns into an icon.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { RankedPapersRequest } from '../../../server/src/protocol';
import type { PaperNode } from '../../../server/src/protocol';
import { scoreText } from './paperItems';
import type { ReadingState } from './readingState';
import { showError, showInformation } from '../notifications';
import { pickText, wrapText } from '../tooltip';

export const TRIAGE_COMMAND = 'paperDigest.triage';

/** At most this many papers in one triage. */
const TRIAGE_LIMIT = 2000;

export type TriageKey = 'n' | 's' | 'r' | 'k' | 'b' | 'q';

interface TriageAction extends vscode.QuickPickItem {
  readonly key: TriageKey;
}

/** The keys of the triage, worded in the display language. */
function actions(): readonly TriageAction[] {
  return [
    { key: 'n', label: `n  ${vscode.l10n.t('Next')}`, description: vscode.l10n.t('mark read and show the next paper') },
    { key: 's', label: `s  ${vscode.l10n.t('Star')}`, description: vscode.l10n.t('star or unstar this paper') },
    { key: 'r', label: `r  ${vscode.l10n.t('Read')}`, description: vscode.l10n.t('mark this paper read or unread') },
    { key: 'k', label: `k  ${vscode.l10n.t('Skip')}`, description: vscode.l10n.t('leave it unread and show the next paper') },
    { key: 'b', label: `b  ${vscode.l10n.t('Back')}`, description: vscode.l10n.t('the previous paper') },
    { key: 'q', label: `q  ${vscode.l10n.t('Quit')}`, description: vscode.l10n.t('end the triage') },
  ];
}


/** One walk through the unread papers. */
export class TriageSession implements vscode.Disposable {
  private readonly pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  private index = 0;
  /** The papers' state as changed during the walk, by key. */
  private readonly read = new Map<string, boolean>();
  private readonly starred = new Map<string, boolean>();
  /** Keys whose read state the reader set with `r`: `n` leaves those as they are. */
  private readonly readChosen = new Set<string>();
  private readonly showEmitter = new vscode.EventEmitter<PaperNode | undefined>();
  /** Fires when a paper is shown (undefined when the walk has ended). */
  readonly onDidShow = this.showEmitter.event;
  private ended = false;
  private finish!: () => void;
  /** Resolves when the walk has ended. */
  readonly done = new Promise<void>((resolve) => (this.finish = resolve));
  private busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: ReadingState,
    readonly papers: readonly PaperNode[],
    private readonly total: number,
  ) {
    this.pick.ignoreFocusOut = true;
    this.pick.matchOnDescription = false;
    this.pick.matchOnDetail = false;
    this.pick.onDidChangeValue((value) => {
      const key = value.trim().toLowerCase();
      if (key.length === 1 && actions().some((action) => action.key === key)) {
        this.pick.value = '';
        void this.press(key as TriageKey);
      }
    });
    this.pick.onDidAccept(() => {
      const item = this.pick.activeItems[0] as Partial<TriageAction> | undefined;
      if (item?.key) {
        void this.press(item.key);
      }
    });
    this.pick.onDidHide(() => this.end());
  }

  /** The paper shown now, if any. */
  get current(): PaperNode | undefined {
    return this.ended ? undefined : this.papers[this.index];
  }

  /** Where the walk is: the index of the paper shown. */
  get position(): number {
    return this.index;
  }

  /** The read / starred state of the paper shown, with the changes of this walk. */
  stateOf(paper: PaperNode): { read: boolean; starred: boolean } {
    return { read: this.read.get(paper.paperKey) ?? paper.read, starred: this.starred.get(paper.paperKey) ?? paper.starred };
  }

  async start(): Promise<void> {
    this.pick.show();
    await this.showCurrent();
  }

  /** Does what a key does; resolves once the next screen is shown. Keys are handled in order. */
  press(key: TriageKey): Promise<void> {
    this.busy = this.busy.then(() => this.act(key)).catch((error: Error) => {
      void showError(vscode.l10n.t('Paper Digest: triage: {0}', error.message));
    });
    return this.busy;
  }

  dispose(): void {
    this.end();
  }

  private async act(key: TriageKey): Promise<void> {
    const paper = this.current;
    if (!paper) {
      return;
    }
    const now = this.stateOf(paper);
    switch (key) {
      case 'n':
        if (!now.read && !this.readChosen.has(paper.paperKey)) {
          await this.change(paper, { read: true });
        }
        return this.go(1);
      case 'k':
        return this.go(1);
      case 'b':
        return this.index > 0 ? this.go(-1) : undefined;
      case 's':
        await this.change(paper, { starred: !now.starred });
        return this.showCurrent();
      case 'r':
        this.readChosen.add(paper.paperKey);
        await this.change(paper, { read: !now.read });
        return this.showCurrent();
      case 'q':
        this.pick.hide();
        return;
    }
  }

  private async change(paper: PaperNode, change: { read?: boolean; starred?: boolean }): Promise<void> {
    const result = await this.state.change({ keys: [paper.paperKey] }, change);
    // Refused (read-only, or not written for a reason the message gives): nothing to show.
    if (result.readOnly || (result.changed === 0 && result.message)) {
      return;
    }
    if (change.read !== undefined) {
      this.read.set(paper.paperKey, change.read);
    }
    if (change.starred !== undefined) {
      this.starred.set(paper.paperKey, change.starred);
    }
  }

  private async go(step: 1 | -1): Promise<void> {
    this.index += step;
    if (this.index >= this.papers.length) {
      void showInformation(
        this.papers.length < this.total
          ? vscode.l10n.t('Paper Digest: triage done — {0} papers (the first {0} of {1}).', this.papers.length, this.total)
          : vscode.l10n.t('Paper Digest: triage done — {0} papers.', this.papers.length),
      );
      this.pick.hide();
      return;
    }
    await this.showCurrent();
  }

  private async showCurrent(): Promise<void> {
    const paper = this.current;
    if (!paper) {
      return;
    }
    const { read, starred } = this.stateOf(paper);
    const flags = [starred ? `★ ${vscode.l10n.t('starred')}` : '', read ? vscode.l10n.t('read') : vscode.l10n.t('unread'), paper.isNew ? vscode.l10n.t('new') : vscode.l10n.t('repeat')].filter((flag) => flag).join(' · ');
    this.pick.title = vscode.l10n.t('Triage {0} of {1} · score {2} · {3}', this.index + 1, this.total, scoreText(paper.score), flags);
    // The keys alone: the title is the first line below (with it, the keys were cut off).
    this.pick.placeholder = vscode.l10n.t('n next · s star · r read · k skip · b back · q quit');
    const info: vscode.QuickPickItem[] = [{ label: vscode.l10n.t('Paper'), kind: vscode.QuickPickItemKind.Separator }];
    info.push({ label: pickText(paper.title), detail: paper.chineseTitle ? pickText(paper.chineseTitle) : undefined, alwaysShow: true });
    // Authors and institutions come with the ranked papers (older servers did not send them).
    const people = paper as PaperNode & { authors?: readonly string[]; institutions?: readonly { name: string; nameZh?: string }[] };
    const authors = people.authors ?? [];
    if (authors.length > 0) {
      info.push({ label: vscode.l10n.t('Authors'), description: pickText(authors.join(', ')), alwaysShow: true });
    }
    const institutions = people.institutions ?? [];
    if (institutions.length > 0) {
      info.push({ label: vscode.l10n.t('Institutions'), description: pickText(institutions.map((item) => (item.nameZh ? `${item.name}（${item.nameZh}）` : item.name)).join('; ')), alwaysShow: true });
    }
    // Lines of 90 columns, a Chinese character two: the quick pick cuts a longer row.
    const summary = wrapText(paper.summary, 90, 6);
    summary.forEach((line, index) => info.push({ label: index === 0 ? vscode.l10n.t('Summary') : '', description: line, alwaysShow: true }));
    info.push({ label: vscode.l10n.t('Score {0}', scoreText(paper.score)), kind: vscode.QuickPickItemKind.Separator });
    if (paper.reasons.length === 0) {
      info.push({ label: vscode.l10n.t('No interest matched'), alwaysShow: true });
    }
    for (const reason of paper.reasons.slice(0, 12)) {
      info.push({ label: '•', description: pickText(reason), alwaysShow: true });
    }
    this.pick.items = [...actions().map((action) => ({ ...action, alwaysShow: true })), ...info];
    this.pick.activeItems = [this.pick.items[0]];
    await this.reveal(paper);
    this.showEmitter.fire(paper);
  }

  private async reveal(paper: PaperNode): Promise<void> {
    const start = new vscode.Position(paper.selectionRange.start.line, paper.selectionRange.start.character);
    try {
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(paper.uri), { preserveFocus: true, preview: true, selection: new vscode.Range(start, start) });
      editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.AtTop);
    } catch {
      // A file that is gone: the quick pick still shows the paper.
    }
  }

  private end(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.pick.dispose();
    this.showEmitter.fire(undefined);
    this.showEmitter.dispose();
    this.finish();
  }
}

/** Registers the triage command; `session()` is the walk under way, for the tests. */
export function registerTriage(context: vscode.ExtensionContext, client: LanguageClient, state: ReadingState): { session(): TriageSession | undefined } {
  let current: TriageSession | undefined;
  context.subscriptions.push(
    { dispose: () => current?.dispose() },
    vscode.commands.registerCommand(TRIAGE_COMMAND, async (): Promise<TriageSession | undefined> => {
      current?.dispose();
      const result = await client.sendRequest(RankedPapersRequest, { unreadOnly: true, limit: TRIAGE_LIMIT });
      if (result.papers.length === 0) {
        void showInformation(vscode.l10n.t('Paper Digest: no unread papers to triage.'));
        return undefined;
      }
      const session = new TriageSession(state, result.papers, result.total);
      current = session;
      void session.done.then(() => {
        if (current === session) {
          current = undefined;
        }
      });
      await session.start();
      return session;
    }),
  );
  return { session: () => current };
}
