/**
 * Open documents' edits waiting to be indexed: an edited document is indexed after a short
 * delay, so that typing does not rebuild the workspace index on every key, and its model is
 * asked only then. Shared by the Node workspace (workspace.ts) and the client-backed one
 * (clientWorkspace.ts); the caller turns URIs into its keys and decides which are in the
 * workspace. No Node imports: the browser bundle uses it.
 */
import type { DigestDocument } from './service/model';
import type { WorkspaceIndex } from './service/workspaceIndex';

/**
 * @example
 * const pending = new PendingDocuments(index, 200);
 * pending.changed(uri, () => cache.get(document)); // indexed 200 ms after the last change
 * pending.flush();                                 // or now, before answering a request
 */
export class PendingDocuments {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; model: () => DigestDocument }>();

  /**
   * `delay`: how long an edited document waits before it is indexed again, in milliseconds;
   * `idle`, if given, is awaited after that (the server waits for its answers to be sent, so that
   * indexing a big document does not hold them up).
   */
  constructor(
    private readonly index: WorkspaceIndex,
    private readonly delay: number,
    private readonly idle?: () => Promise<void>,
  ) {}

  /** A document changed (or was opened): it is indexed `delay` ms after its last change. */
  changed(key: string, model: () => DigestDocument): void {
    const pending = this.pending.get(key);
    if (pending) {
      clearTimeout(pending.timer);
    }
    const idle = this.idle;
    const timer = setTimeout(() => (idle ? void idle().then(() => this.flushDocument(key, timer)) : this.flushDocument(key)), this.delay);
    this.pending.set(key, { timer, model });
  }

  /** A document was closed: its pending edit is dropped and the index falls back to the file. */
  closed(key: string): void {
    const pending = this.pending.get(key);
    if (pending) {
      clearTimeout(pending.timer);
      this.pending.delete(key);
    }
    this.index.closeOpen(key);
  }

  /** Indexes the pending edits now. */
  flush(): void {
    for (const key of [...this.pending.keys()]) {
      this.flushDocument(key);
    }
  }

  /** Stops the pending timers; their edits are dropped. */
  dispose(): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
    }
    this.pending.clear();
  }

  /** Indexes a pending edit; with `timer`, only the edit that timer was set for. */
  private flushDocument(key: string, timer?: ReturnType<typeof setTimeout>): void {
    const pending = this.pending.get(key);
    if (!pending || (timer !== undefined && pending.timer !== timer)) {
      return;
    }
    clearTimeout(pending.timer);
    this.pending.delete(key);
    this.index.updateOpen(key, pending.model());
  }
}
