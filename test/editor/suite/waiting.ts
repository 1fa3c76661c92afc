/**
 * Waiting on editor events with a bound, never on fixed sleeps.
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

/**
 * Resolves once `check` returns a value other than undefined, checking now and on each event of
 * the given sources (diagnostics, documents, editors); rejects after `timeoutMs`.
 */
export function waitUntil<T>(check: () => T | undefined | Promise<T | undefined>, what: string, events: vscode.Event<unknown>[], timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const listeners: vscode.Disposable[] = [];
    const done = (error?: Error, value?: T): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      listeners.forEach((l) => l.dispose());
      if (error) reject(error);
      else resolve(value as T);
    };
    const attempt = (): void => {
      Promise.resolve()
        .then(check)
        .then(
          (value) => {
            if (value !== undefined) done(undefined, value);
          },
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        );
    };
    const timer = setTimeout(() => done(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
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
  );
}
