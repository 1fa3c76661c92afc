/**
 * Feedback for Fix All: how many problems it fixed and how many remain.
 *
 * The counts come from the server's diagnostics of the document's versions before and after the
 * fix. VS Code's diagnostics API carries no version, so `DiagnosticsArrivals` watches them where
 * the version is known: pushed diagnostics (`textDocument/publishDiagnostics` carries `version`)
 * through the connection's message strategy, pulled ones (`textDocument/diagnostic`) through the
 * client middleware, with the version of the document the client asked for.
 */
import * as vscode from 'vscode';
import type { Message, MessageStrategy, Middleware, NotificationMessage } from 'vscode-languageclient';
import type { FixAllResult } from '../../server/src/protocol';
import { showInformation, showWarning } from './notifications';

/** Diagnostics of one version of a document, as the server reported them. */
export interface DiagnosticsArrival {
  readonly uri: string;
  /** The document version they are for (undefined when the server did not say). */
  readonly version: number | undefined;
  /** How many diagnostics the server reported. */
  readonly count: number;
}

/** The canonical string of a URI, so the server's and the editor's spellings compare equal. */
function uriKey(uri: string | vscode.Uri): string {
  return (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri).toString();
}

/**
 * Remembers, per document, the latest diagnostics the server reported and their version.
 *
 * @example
 * const arrivals = new DiagnosticsArrivals();
 * clientOptions.connectionOptions = { messageStrategy: arrivals.messageStrategy };
 * const remaining = await arrivals.countOf(document.uri, document.version);
 */
export class DiagnosticsArrivals implements vscode.Disposable {
  private readonly latest = new Map<string, DiagnosticsArrival>();
  private readonly emitter = new vscode.EventEmitter<DiagnosticsArrival>();
  /** Fires for each set of diagnostics the server reports. */
  readonly onDidArrive = this.emitter.event;

  /** Sees pushed diagnostics, with their version, before the client handles them. */
  readonly messageStrategy: MessageStrategy = {
    handleMessage: (message: Message, next: (message: Message) => void | Promise<void>) => {
      // A notification: a method and no id (the shared client code imports nothing of the Node client).
      if ((message as Partial<NotificationMessage>).method === 'textDocument/publishDiagnostics' && !('id' in message)) {
        const params = (message as NotificationMessage).params as { uri?: unknown; version?: unknown; diagnostics?: unknown } | undefined;
        if (params && typeof params.uri === 'string' && Array.isArray(params.diagnostics)) {
          this.record({ uri: uriKey(params.uri), version: typeof params.version === 'number' ? params.version : undefined, count: params.diagnostics.length });
        }
      }
      return next(message);
    },
  };

  /** Sees pulled diagnostics, with the version of the document they were asked for. */
  readonly middleware: Pick<Middleware, 'provideDiagnostics'> = {
    provideDiagnostics: async (document, previousResultId, token, next) => {
      const version = document instanceof vscode.Uri ? undefined : document.version;
      const uri = uriKey(document instanceof vscode.Uri ? document : document.uri);
      const report = await next(document, previousResultId, token);
      if (report && !token.isCancellationRequested) {
        const count = report.kind === 'full' ? report.items.length : this.latest.get(uri)?.count;
        if (count !== undefined) {
          this.record({ uri, version, count });
        }
      }
      return report;
    },
  };

  private record(arrival: DiagnosticsArrival): void {
    this.latest.set(arrival.uri, arrival);
    this.emitter.fire(arrival);
  }

  /** The latest diagnostics reported for a document, if any. */
  latestOf(uri: vscode.Uri): DiagnosticsArrival | undefined {
    return this.latest.get(uriKey(uri));
  }

  /**
   * How many diagnostics the server reports for a version of a document (or a later one):
   * resolves at once when they are in, otherwise when they arrive; rejects after `timeoutMs`.
   */
  countOf(uri: vscode.Uri, version: number, timeoutMs = 30_000): Promise<number> {
    const key = uriKey(uri);
    const matches = (arrival: DiagnosticsArrival | undefined): arrival is DiagnosticsArrival => arrival !== undefined && arrival.uri === key && arrival.version !== undefined && arrival.version >= version;
    const known = this.latest.get(key);
    if (matches(known)) {
      return Promise.resolve(known.count);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`no diagnostics for version ${version} of ${key} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = this.onDidArrive((arrival) => {
        if (matches(arrival)) {
          clearTimeout(timer);
          listener.dispose();
          resolve(arrival.count);
        }
      });
    });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** What Fix All answers to a caller of the command: the server's result and the counts. */
export interface FixAllFeedback extends FixAllResult {
  /** Problems of the version fixed minus problems of the fixed version. */
  readonly fixed: number;
  /** Problems of the fixed version. */
  readonly remaining: number;
  /** The message shown. */
  readonly message: string;
}

/** The messages of Fix All, in one place (through vscode.l10n). */
const TEXT = {
  openADigest: (): string => vscode.l10n.t('Paper Digest: open a digest to fix its problems.'),
  nothingToFix: (): string => vscode.l10n.t('Paper Digest: no problems to fix.'),
  problems: (count: number): string => (count === 1 ? vscode.l10n.t('1 problem') : vscode.l10n.t('{0} problems', count)),
  noneFixed: (remaining: string): string => vscode.l10n.t('Paper Digest: nothing could be fixed automatically; {0} left.', remaining),
  allFixed: (fixed: string): string => vscode.l10n.t('Paper Digest: fixed {0}; none left.', fixed),
  someFixed: (fixed: string, remaining: string): string => vscode.l10n.t('Paper Digest: fixed {0}; {1} left.', fixed, remaining),
  tooMany: (max: number): string => vscode.l10n.t('Paper Digest: this digest has more than {0} problems, more than Fix All works on at once; nothing was changed. Fix some of them first (a quick fix, or Replace All).', max.toLocaleString()),
  uncounted: (edits: number): string => (edits === 1 ? vscode.l10n.t('Paper Digest: fixed what could be fixed (1 edit).') : vscode.l10n.t('Paper Digest: fixed what could be fixed ({0} edits).', edits)),
};

/** The message shown when Fix All is asked for without a digest in the active editor. */
export const openADigestMessage = TEXT.openADigest;

/**
 * The message after Fix All.
 *
 * @example
 * fixAllMessage(5, 2) // 'Paper Digest: fixed 5 problems; 2 problems left.'
 */
export function fixAllMessage(fixed: number, remaining: number): string {
  if (fixed === 0) {
    return remaining === 0 ? TEXT.nothingToFix() : TEXT.noneFixed(TEXT.problems(remaining));
  }
  return remaining === 0 ? TEXT.allFixed(TEXT.problems(fixed)) : TEXT.someFixed(TEXT.problems(fixed), TEXT.problems(remaining));
}

/**
 * Runs the server's fix-all on a document and says what it did: waits for the diagnostics of
 * the version fixed and of the fixed version (never a fixed delay), shows the counts and
 * resolves with them.
 */
export async function fixAllWithFeedback(
  document: vscode.TextDocument,
  arrivals: DiagnosticsArrivals,
  run: (uri: string, version: number) => Promise<FixAllResult | undefined>,
): Promise<FixAllFeedback | undefined> {
  // The problems of the version to fix: they come within moments of the last change.
  const problemsBefore = await arrivals.countOf(document.uri, document.version, 10_000).catch(() => undefined);
  const result = await run(document.uri.toString(), document.version);
  if (!result) {
    return undefined;
  }
  if (typeof result.tooManyProblems === 'number') {
    const message = TEXT.tooMany(result.tooManyProblems);
    void showWarning(message);
    return { ...result, fixed: 0, remaining: problemsBefore ?? vscode.languages.getDiagnostics(document.uri).length, message };
  }
  // The edit is in once the command answers; wait for the problems of the fixed version.
  const remaining = await arrivals.countOf(document.uri, document.version).catch(() => undefined);
  if (problemsBefore === undefined || remaining === undefined) {
    const message = result.applied ? TEXT.uncounted(result.edits) : TEXT.nothingToFix();
    void showInformation(message);
    return { ...result, fixed: 0, remaining: remaining ?? vscode.languages.getDiagnostics(document.uri).length, message };
  }
  const fixed = result.applied ? Math.max(0, problemsBefore - remaining) : 0;
  const message = fixAllMessage(fixed, remaining);
  void showInformation(message);
  return { ...result, fixed, remaining, message };
}
