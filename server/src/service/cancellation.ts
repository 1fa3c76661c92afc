/**
 * The one thing features need of a cancellation token. LSP's `CancellationToken` satisfies it,
 * so the service stays free of the LSP library.
 */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/** A token that is never cancelled, for callers without one (the command line, tests). */
export const NEVER_CANCELLED: Cancellation = { isCancellationRequested: false };
