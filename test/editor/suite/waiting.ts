/**
 * Waiting on editor states with a bound, never on fixed sleeps: each wait looks again on the
 * events that may change its state and every quarter second, and says on failure what it saw.
 */
import * as vscode from 'vscode';

/** Resolves with the first event that satisfies `accept`, or rejects after `timeoutMs`. */
export function waitForEvent<T>(event: vscode.Event<T>, accept: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const listener = event((value) => {
      if (accept(value)) {
        clearTimeout(timer);
        listener.dispose();
        resolve(value);
      }
    });
  });
}

/** How often `waitUntil` looks again besides its events: an event a busy editor fires late or never is no reason to fail. */
const RECHECK_MS = 250;

/**
 * Resolves once `check` returns a value other than undefined, checking now, on each event of
 * the given sources (diagnostics, documents, editors) and every quarter second; rejects after
 * `timeoutMs` with what `seen` says of the state then, or when the first check fails.
 */
export function waitUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  events: vscode.Event<unknown>[],
  timeoutMs = 30_000,
  seen?: () => string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let checking = false;
    let again = false;
    let first = true;
    let failure: string | undefined;
    const listeners: vscode.Disposable[] = [];
    const done = (error?: Error, value?: T): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      listeners.forEach((l) => l.dispose());
      if (error) reject(error);
      else resolve(value as T);
    };
    // One check at a time; a request for another while one runs is served right after it.
    const attempt = (): void => {
      if (settled) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      const isFirst = first;
      first = false;
      void Promise.resolve()
        .then(check)
        .then(
          (value) => {
            if (value !== undefined) done(undefined, value);
          },
          (error: unknown) => {
            if (isFirst) {
              done(error instanceof Error ? error : new Error(String(error)));
            }
            // A later one: not yet (a provider may fail while the server starts); told on timeout.
            failure = error instanceof Error ? error.message : String(error);
          },
        )
        .finally(() => {
          checking = false;
          if (again) {
            again = false;
            attempt();
          }
        });
    };
    const timer = setTimeout(() => {
      let state = '';
      try {
        state = seen ? `; seen: ${seen()}` : '';
      } catch (error) {
        state = `; seen: (could not tell: ${String(error)})`;
      }
      done(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}${failure ? `; the last check failed: ${failure}` : ''}`));
    }, timeoutMs);
    const poll = setInterval(attempt, RECHECK_MS);
    // Listening before the first check: an event that comes while the first (asynchronous) check
    // is under way is not missed.
    for (const event of events) {
      listeners.push(event(attempt));
    }
    attempt();
  });
}

/** The diagnostics of a document once the server has published a non-empty set for it. */
export function diagnosticsOf(uri: vscode.Uri, accept: (d: readonly vscode.Diagnostic[]) => boolean = (d) => d.length > 0): Promise<readonly vscode.Diagnostic[]> {
  return waitUntil(
    () => {
      const current = vscode.languages.getDiagnostics(uri);
      return accept(current) ? current : undefined;
    },
    `diagnostics of ${uri.toString()}`,
    [vscode.languages.onDidChangeDiagnostics],
    30_000,
    () => JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => [typeof d.code === 'object' ? d.code.value : d.code, d.range.start.line, d.message.slice(0, 80)])),
  );
}
