/**
 * The commands that change the reading state: Mark Read / Unread, Star / Unstar and their
 * toggles, Add Tag…, Remove Tag…, Edit Note…, and Mark All Read for a file, a group of the Papers
 * view and what the view's filter shows. Each works from the palette, the Papers view, the editor
 * (the entry under the cursor) and the server's CodeLenses.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID, PAPER_COMMANDS } from '../../../server/src/protocol';
import type { PaperScope, PaperStateChange, SetPaperStateResult } from '../../../server/src/protocol';
import type { PapersElement, PapersView } from '../papersView';
import type { ReadingState } from './readingState';
import { PaperTargets, paperTargets } from './targets';
import { showInformation } from '../notifications';
import { notificationText, pickText } from '../tooltip';

/**
 * A tag offered in a quick pick: shown as `pickText` shows it (a `$(name)` in a tag, which may come
 * from a state file in a cloned repository, shows as written, not as an icon), taken as written.
 */
interface TagItem extends vscode.QuickPickItem {
  readonly tag: string;
}

export const STATE_COMMANDS = {
  ...PAPER_COMMANDS,
  toggleRead: 'paperDigest.toggleRead',
  toggleStar: 'paperDigest.toggleStar',
  addTag: 'paperDigest.addTag',
  removeTag: 'paperDigest.removeTag',
  editNote: 'paperDigest.editNote',
  markFileRead: 'paperDigest.markFileRead',
  markGroupRead: 'paperDigest.markGroupRead',
  markShownRead: 'paperDigest.markShownRead',
} as const;

/** The part of a scope that says what the view shows besides its groups: its filter and grouping. */
export function shownQuery(view: PapersView): PaperScope {
  // The grouping brings its own condition (the unread, starred or new papers only; For you
  // without the papers the interests hide), as the view's tree has it.
  return { filter: view.filter, grouping: view.grouping };
}

/** The scope of a group of the Papers view, as the view shows it. */
export function groupScope(view: PapersView, group: PapersElement): PaperScope {
  return { ...shownQuery(view), grouping: view.grouping, groupId: group.id };
}

function isGroupElement(value: unknown): value is PapersElement {
  return typeof value === 'object' && value !== null && 'node' in value && (value as PapersElement).node?.kind === 'group';
}

/**
 * The digest file a file command is about: the explorer's or editor title's URI argument, else
 * the active digest editor.
 */
export function fileArgument(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) {
    return arg;
  }
  const document = vscode.window.activeTextEditor?.document;
  return document && document.languageId === LANGUAGE_ID ? document.uri : undefined;
}

/**
 * Registers the state commands.
 *
 * @example
 * registerStateCommands(context, client, papersView, state);
 * await vscode.commands.executeCommand('paperDigest.markRead');   // the entry under the cursor
 */
export function registerStateCommands(context: vscode.ExtensionContext, client: LanguageClient, view: PapersView, state: ReadingState): void {
  /** Runs `action` on the command's targets, or says that there is no paper to act on. */
  const onTargets =
    (action: (targets: PaperTargets) => Promise<SetPaperStateResult | undefined>) =>
    async (...args: unknown[]): Promise<SetPaperStateResult | undefined> => {
      const targets = await paperTargets(client, view, args);
      if (!targets || targets.keys.length === 0) {
        void showInformation(vscode.l10n.t('Paper Digest: put the cursor on a paper of a digest, or select papers in the Papers view.'));
        return undefined;
      }
      return action(targets);
    };
  const set = (change: PaperStateChange) => onTargets((targets) => state.change({ keys: targets.keys }, change));

  context.subscriptions.push(
    vscode.commands.registerCommand(STATE_COMMANDS.markRead, set({ read: true })),
    vscode.commands.registerCommand(STATE_COMMANDS.markUnread, set({ read: false })),
    vscode.commands.registerCommand(STATE_COMMANDS.star, set({ starred: true })),
    vscode.commands.registerCommand(STATE_COMMANDS.unstar, set({ starred: false })),
    vscode.commands.registerCommand(
      STATE_COMMANDS.toggleRead,
      onTargets((targets) => state.change({ keys: targets.keys }, { read: !(targets.nodes.length > 0 && targets.nodes.every((node) => node.read)) })),
    ),
    vscode.commands.registerCommand(
      STATE_COMMANDS.toggleStar,
      onTargets((targets) => state.change({ keys: targets.keys }, { starred: !(targets.nodes.length > 0 && targets.nodes.every((node) => node.starred)) })),
    ),
    vscode.commands.registerCommand(
      STATE_COMMANDS.addTag,
      onTargets(async (targets) => {
        const tag = await pickTag(state, targets);
        return tag === undefined ? undefined : state.change({ keys: targets.keys }, { addTags: [tag] });
      }),
    ),
    vscode.commands.registerCommand(
      STATE_COMMANDS.removeTag,
      onTargets(async (targets) => {
        const tags = [...new Set(targets.nodes.flatMap((node) => node.tags))].sort();
        if (tags.length === 0) {
          void showInformation(vscode.l10n.t('Paper Digest: the paper has no tags.'));
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(tags.map((tag): TagItem => ({ label: pickText(tag), tag })), { title: vscode.l10n.t('Remove Tag'), placeHolder: vscode.l10n.t('The tag to remove') });
        return picked === undefined ? undefined : state.change({ keys: targets.keys }, { removeTags: [picked.tag] });
      }),
    ),
    vscode.commands.registerCommand(
      STATE_COMMANDS.editNote,
      onTargets(async (targets) => {
        const note = await vscode.window.showInputBox({
          title: targets.nodes.length === 1 ? vscode.l10n.t('Note on “{0}”', targets.nodes[0].title) : vscode.l10n.t('Note on {0} papers', targets.keys.length),
          prompt: vscode.l10n.t('A short note kept with the reading state (empty removes it)'),
          value: targets.nodes[0]?.note ?? '',
          validateInput: (value) => (value.length > 4000 ? vscode.l10n.t('At most 4,000 characters') : undefined),
        });
        return note === undefined ? undefined : state.change({ keys: targets.keys }, { note: note.trim() === '' ? null : note });
      }),
    ),
    vscode.commands.registerCommand(STATE_COMMANDS.markFileRead, async (arg?: unknown) => {
      const uri = fileArgument(arg);
      if (!uri) {
        void showInformation(vscode.l10n.t('Paper Digest: open a digest to mark its papers read.'));
        return undefined;
      }
      return reportMarked(await state.change({ uri: uri.toString() }, { read: true }), markedIn(vscode.workspace.asRelativePath(uri)));
    }),
    vscode.commands.registerCommand(STATE_COMMANDS.markGroupRead, async (arg?: unknown) => {
      const group = isGroupElement(arg) ? arg : view.treeView.selection.find(isGroupElement);
      if (!group) {
        void showInformation(vscode.l10n.t('Paper Digest: choose a group in the Papers view.'));
        return undefined;
      }
      return reportMarked(await state.change(groupScope(view, group), { read: true }), markedIn(group.node.kind === 'group' ? group.node.label : ''));
    }),
    vscode.commands.registerCommand(STATE_COMMANDS.markShownRead, async () => {
      const what = view.filter ? vscode.l10n.t('papers matching “{0}”', view.filter) : vscode.l10n.t('the papers shown');
      // Every paper of the view at once, from a toolbar button beside Refresh: asked first.
      const mark = vscode.l10n.t('Mark All Read');
      // The filter may be document text (a dashboard row's topic): shown as every notification is.
      const answer = await vscode.window.showWarningMessage(notificationText(vscode.l10n.t('Mark all {0} read?', what)), { modal: true, detail: vscode.l10n.t('Their read state is kept in the state file; Mark Unread takes it back one paper at a time.') }, mark);
      const filter = view.filter;
      const marked = (count: number): string =>
        filter
          ? count === 1
            ? vscode.l10n.t('Paper Digest: marked 1 paper matching “{0}” read.', filter)
            : vscode.l10n.t('Paper Digest: marked {0} papers matching “{1}” read.', count, filter)
          : count === 1
            ? vscode.l10n.t('Paper Digest: marked 1 shown paper read.')
            : vscode.l10n.t('Paper Digest: marked {0} shown papers read.', count);
      return answer === mark ? reportMarked(await state.change(shownQuery(view), { read: true }), marked) : undefined;
    }),
  );
}

/** What marking the papers of a file or a group says: how many, and where. */
function markedIn(where: string): (count: number) => string {
  return (count) => (count === 1 ? vscode.l10n.t('Paper Digest: marked 1 paper read in {0}.', where) : vscode.l10n.t('Paper Digest: marked {0} papers read in {1}.', count, where));
}

function reportMarked(result: SetPaperStateResult, marked: (count: number) => string): SetPaperStateResult {
  if (!result.readOnly && result.changed > 0) {
    void showInformation(marked(result.changed));
  }
  return result;
}

/**
 * Asks for a tag, offering the tags already used (those the papers have are left out); typing
 * a new one offers it too.
 */
async function pickTag(state: ReadingState, targets: PaperTargets): Promise<string | undefined> {
  const info = await state.info();
  const have = new Set(targets.nodes.length > 0 ? targets.nodes.map((node) => node.tags).reduce((a, b) => a.filter((tag) => b.includes(tag))) : []);
  const known = (info?.tags ?? []).filter((tag) => !have.has(tag));
  const pick = vscode.window.createQuickPick<TagItem>();
  // Which paper, as the note's prompt says it.
  pick.title = targets.nodes.length === 1 ? vscode.l10n.t('Add Tag to “{0}”', pickText(targets.nodes[0].title)) : targets.keys.length > 1 ? vscode.l10n.t('Add Tag to {0} papers', targets.keys.length) : vscode.l10n.t('Add Tag');
  pick.placeholder = known.length > 0 ? vscode.l10n.t('Choose a tag or type a new one') : vscode.l10n.t('Type a new tag');
  const knownItems = known.map((tag): TagItem => ({ label: pickText(tag), tag }));
  pick.items = knownItems;
  pick.onDidChangeValue((value) => {
    const typed = value.trim();
    const fresh: TagItem[] = typed !== '' && !known.includes(typed) ? [{ label: pickText(typed), description: vscode.l10n.t('new tag'), tag: typed }] : [];
    pick.items = [...fresh, ...knownItems];
  });
  return new Promise<string | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0]?.tag ?? pick.value.trim();
      // Not cut short: a tag past the limit is refused by the server, with a message, never stored cut.
      resolve(chosen === '' ? undefined : chosen);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}
