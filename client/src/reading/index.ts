/**
 * The reading workflow in VS Code: state commands, the Papers view's state and badge, title-line
 * icons in the editor, triage, digest navigation, export, and the CodeLens commands. The server
 * keeps the state; everything here asks it.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { PapersView } from '../papersView';
import { registerDigestNavigation } from './digestNavigation';
import { registerExporting } from './exporting';
import { RepeatDecorations } from './paperItems';
import { ReadingState } from './readingState';
import { registerStateCommands } from './stateCommands';
import { TitleDecorations } from './titleDecorations';
import { registerTriage, TriageSession } from './triage';

/** What the reading workflow hands the tests. */
export interface ReadingApi {
  readonly state: ReadingState;
  readonly decorations: TitleDecorations;
  /** The triage under way, if any. */
  triage(): TriageSession | undefined;
}

/**
 * Wires the reading workflow into the editor. Call once the client is running and the Papers
 * view exists.
 *
 * @example
 * const reading = registerReading(context, client, papersView);
 */
export function registerReading(context: vscode.ExtensionContext, client: LanguageClient, view: PapersView): ReadingApi {
  const state = new ReadingState(client);
  const decorations = new TitleDecorations(context, client, state);
  context.subscriptions.push(
    state,
    decorations,
    vscode.window.registerFileDecorationProvider(new RepeatDecorations()),
    state.onDidChange((status) => {
      view.treeView.badge = status.unreadCount > 0 ? { value: status.unreadCount, tooltip: status.unreadCount === 1 ? vscode.l10n.t('1 unread paper') : vscode.l10n.t('{0} unread papers', status.unreadCount) } : undefined;
      view.invalidate();
    }),
  );
  registerStateCommands(context, client, view, state);
  registerExporting(context, client, view, state, decorations);
  registerDigestNavigation(context, client);
  const triage = registerTriage(context, client, state);
  void state.start();
  return { state, decorations, triage: triage.session };
}
