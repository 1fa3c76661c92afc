/**
 * The reading state as the client sees it: the server's `paperDigest/stateChanged` notifications
 * (unread count, read-only, problem), the requests that change the state, and the one message
 * shown when a state file is corrupt or read-only. The state itself lives in the server; this
 * module only asks and listens.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  PaperScope,
  PaperStateChange,
  SetPaperStateRequest,
  SetPaperStateResult,
  StateChangedNotification,
  StateChangedParams,
  StateInfoRequest,
  StateInfoResult,
} from '../../../server/src/protocol';
import { showInformation, showWarning } from '../notifications';

/** What the client last heard about the state: the unread count, read-only and the problem. */
export interface ReadingStatus {
  readonly generation: number;
  readonly unreadCount: number;
  readonly readOnly: boolean;
  readonly problem?: string;
}

/**
 * Listens to the server's state notifications and changes the state through it.
 *
 * @example
 * const state = new ReadingState(client);
 * await state.start();
 * await state.change({ keys: [node.paperKey] }, { read: true });
 */
export class ReadingState implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ReadingStatus>();
  /** Fires on every `stateChanged` (after the status is updated). */
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter];
  private statusValue: ReadingStatus = { generation: -1, unreadCount: 0, readOnly: false };
  /** The problems already shown to the user, so that each is shown once. */
  private readonly shownProblems = new Set<string>();
  /** The problems shown to the user so far, in order (for the tests). */
  readonly problemsShown: string[] = [];

  constructor(private readonly client: LanguageClient) {
    this.disposables.push(client.onNotification(StateChangedNotification, (params) => this.update(params)));
  }

  get status(): ReadingStatus {
    return this.statusValue;
  }

  /** Asks the server for the current state once (the notifications only say what changes). */
  async start(): Promise<void> {
    const info = await this.info();
    if (info && info.generation >= this.statusValue.generation) {
      this.update(info);
    }
  }

  /** The state files, tags and unread count; undefined when the server cannot answer. */
  async info(): Promise<StateInfoResult | undefined> {
    try {
      return await this.client.sendRequest(StateInfoRequest, {});
    } catch {
      return undefined;
    }
  }

  /**
   * Changes the state of every paper of `scope`. Tells the user when the state is read-only or
   * nothing changed for a reason; resolves with the server's answer.
   */
  async change(scope: PaperScope, change: PaperStateChange): Promise<SetPaperStateResult> {
    const result = await this.client.sendRequest(SetPaperStateRequest, { scope, change });
    if (result.readOnly) {
      void showWarning(vscode.l10n.t('Paper Digest: {0}', result.message ?? vscode.l10n.t('the reading state is read-only; nothing was changed.')));
    } else if (result.changed === 0 && result.message) {
      void showInformation(vscode.l10n.t('Paper Digest: {0}', result.message));
    }
    return result;
  }

  /** Resolves once the client has heard of a state of at least this generation. */
  whenGeneration(generation: number): Promise<ReadingStatus> {
    if (this.statusValue.generation >= generation) {
      return Promise.resolve(this.statusValue);
    }
    return new Promise((resolve) => {
      const listener = this.onDidChange((status) => {
        if (status.generation >= generation) {
          listener.dispose();
          resolve(status);
        }
      });
    });
  }

  dispose(): void {
    this.disposables.forEach((disposable) => disposable.dispose());
  }

  private update(params: StateChangedParams | StateInfoResult): void {
    this.statusValue = { generation: params.generation, unreadCount: params.unreadCount, readOnly: params.readOnly, problem: params.problem };
    this.changeEmitter.fire(this.statusValue);
    if (params.problem) {
      this.showProblemOnce(params.problem);
    } else {
      // Once the file is fine again, a later problem is news.
      this.shownProblems.clear();
    }
  }

  private showProblemOnce(problem: string): void {
    if (this.shownProblems.has(problem)) {
      return;
    }
    this.shownProblems.add(problem);
    this.problemsShown.push(problem);
    const open = vscode.l10n.t('Open State File');
    void showWarning(vscode.l10n.t('Paper Digest: {0}', problem), open).then(async (choice) => {
      if (choice !== open) {
        return;
      }
      const info = await this.info();
      const file = info?.stateFiles.find((candidate) => candidate.problem) ?? info?.stateFiles[0];
      if (file) {
        await vscode.window.showTextDocument(vscode.Uri.parse(file.stateFile));
      }
    });
  }
}
