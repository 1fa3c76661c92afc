/**
 * The digest files of the workspace folders, kept in the workspace index: a bounded scan of the
 * folders at start, then file events (created, changed, deleted; a rename is a delete and a
 * create), open documents (which override the file on disk while open) and folder changes.
 *
 * This is the one part of the server that reads files; the index itself stays pure.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileChangeType, FileEvent } from 'vscode-languageserver/node';
import type { DigestDocument } from './service/model';
import type { WorkspaceIndex } from './service/workspaceIndex';

/** Limits of the scan, so that a huge or deep workspace cannot stall the server. */
export interface ScanLimits {
  /** At most this many digest files are indexed per scan. */
  readonly maxFiles: number;
  /** Bigger files are skipped. */
  readonly maxFileBytes: number;
  /** Folders deeper than this below a workspace folder are not entered. */
  readonly maxDepth: number;
  /** At most this many directories are read per scan. */
  readonly maxDirectories: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  maxFiles: 20_000,
  maxFileBytes: 32 * 1024 * 1024,
  maxDepth: 24,
  maxDirectories: 50_000,
};

/** Folder names never entered. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** Whether a file name is a digest's: `*.digest` or `*.digest.txt`. */
export function isDigestFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('.digest') || lower.endsWith('.digest.txt');
}

/**
 * Keeps the index in step with the digest files of the workspace folders.
 *
 * @example
 * const files = new WorkspaceDigests(index);
 * await files.setFolders(['file:///home/me/papers']);
 * files.filesChanged([{ uri: 'file:///home/me/papers/new.digest', type: FileChangeType.Created }]);
 */
export class WorkspaceDigests {
  private folders: string[] = [];
  /** The latest operation on each URI; a read that finishes after a newer operation is dropped. */
  private readonly operations = new Map<string, number>();
  private operationCount = 0;
  private readonly pendingDocuments = new Map<string, { timer: NodeJS.Timeout; model: () => DigestDocument }>();
  private scanning: Promise<void> = Promise.resolve();
  /** Modification times of the digest files read, for the digest order (reading workflow). */
  private readonly mtimes = new Map<string, number>();

  constructor(
    private readonly index: WorkspaceIndex,
    private readonly options: {
      readonly limits?: ScanLimits;
      /** How long an edited document waits before it is indexed again, in milliseconds. */
      readonly documentDelay?: number;
      readonly log?: (message: string) => void;
    } = {},
  ) {}

  /** Settles when the latest scan of the folders has finished. */
  get ready(): Promise<void> {
    return this.scanning;
  }

  /** The modification time (ms) of a digest file when it was last read, if it was read from disk. */
  mtimeOf(uri: string): number | undefined {
    return this.mtimes.get(uri);
  }

  /** The workspace folder URIs. */
  get folderUris(): readonly string[] {
    return this.folders;
  }

  /** Replaces the workspace folders and scans them; files of folders no longer there are forgotten. */
  setFolders(uris: readonly string[]): Promise<void> {
    const next = uris.map(canonicalUri).filter((uri): uri is string => uri !== undefined);
    for (const old of this.folders) {
      if (!next.includes(old)) {
        this.index.remove(old);
      }
    }
    const added = next.filter((uri) => !this.folders.includes(uri));
    this.folders = next;
    return this.scan(added);
  }

  /**
   * Scans the workspace folders again, re-reading every digest file and forgetting files that
   * are gone: for changes the file events missed (a folder moved in, a network drive).
   */
  async rescan(): Promise<void> {
    const seen = new Set<string>();
    const previous = this.scanning;
    this.scanning = previous.then(() => this.scanFolders(this.folders, seen)).catch((error: unknown) => {
      this.options.log?.(`Paper Digest: scanning the workspace failed: ${String(error)}`);
    });
    await this.scanning;
    for (const uri of this.index.diskUris()) {
      if (!seen.has(uri) && this.inWorkspace(uri)) {
        this.index.remove(uri);
      }
    }
  }

  /** Adds and removes workspace folders (`workspace/didChangeWorkspaceFolders`). */
  changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    const removedSet = new Set(removed.map(canonicalUri));
    const remaining = this.folders.filter((uri) => !removedSet.has(uri));
    return this.setFolders([...remaining, ...added]);
  }

  /** Applies file events (`workspace/didChangeWatchedFiles`). Settles when the files are read. */
  async filesChanged(changes: readonly FileEvent[]): Promise<void> {
    const reads: Promise<void>[] = [];
    for (const change of changes) {
      const uri = canonicalUri(change.uri);
      if (!uri || !this.inWorkspace(uri)) {
        continue;
      }
      if (change.type === FileChangeType.Deleted) {
        // A read still under way is dropped; a deleted folder takes its digests with it.
        this.operations.delete(uri);
        this.index.remove(uri);
      } else if (isDigestFileName(uri.slice(uri.lastIndexOf('/') + 1))) {
        reads.push(this.readInto(uri, this.nextOperation(uri)));
      } else if (change.type === FileChangeType.Created) {
        // A folder moved or copied in brings its digests.
        reads.push(this.scanIfFolder(uri));
      }
    }
    await Promise.all(reads);
  }

  /**
   * An open document changed (or was opened): it is indexed after a short delay, so that typing
   * does not rebuild the index on every key. `model` is asked only then.
   */
  documentChanged(uri: string, model: () => DigestDocument): void {
    const key = canonicalUri(uri) ?? uri;
    if (!this.inWorkspace(key)) {
      return;
    }
    const pending = this.pendingDocuments.get(key);
    if (pending) {
      clearTimeout(pending.timer);
    }
    const timer = setTimeout(() => this.flushDocument(key), this.options.documentDelay ?? 200);
    this.pendingDocuments.set(key, { timer, model });
  }

  /** An open document was closed: the index falls back to the file on disk. */
  documentClosed(uri: string): void {
    const key = canonicalUri(uri) ?? uri;
    const pending = this.pendingDocuments.get(key);
    if (pending) {
      clearTimeout(pending.timer);
      this.pendingDocuments.delete(key);
    }
    this.index.closeOpen(key);
  }

  /** Indexes the pending document edits now, e.g. before answering a request. */
  flush(): void {
    for (const uri of [...this.pendingDocuments.keys()]) {
      this.flushDocument(uri);
    }
  }

  /** Stops the pending timers. */
  dispose(): void {
    for (const pending of this.pendingDocuments.values()) {
      clearTimeout(pending.timer);
    }
    this.pendingDocuments.clear();
  }

  /** Whether a URI is inside a workspace folder (or the server has no folders at all). */
  inWorkspace(uri: string): boolean {
    if (this.folders.length === 0) {
      return true;
    }
    return this.folders.some((folder) => uri === folder || uri.startsWith(folder.endsWith('/') ? folder : folder + '/'));
  }

  private flushDocument(uri: string): void {
    const pending = this.pendingDocuments.get(uri);
    if (!pending) {
      return;
    }
    clearTimeout(pending.timer);
    this.pendingDocuments.delete(uri);
    this.index.updateOpen(uri, pending.model());
  }

  private nextOperation(uri: string): number {
    const operation = ++this.operationCount;
    this.operations.set(uri, operation);
    return operation;
  }

  /** Reads a file and indexes it, unless a newer operation on it came meanwhile. */
  private async readInto(uri: string, operation: number): Promise<void> {
    let text: string | undefined;
    let mtime: number | undefined;
    try {
      const file = fileURLToPath(uri);
      const stat = await fs.stat(file);
      if (!stat.isFile() || stat.size > this.limits.maxFileBytes) {
        text = undefined;
      } else {
        text = await fs.readFile(file, 'utf8');
        mtime = stat.mtimeMs;
      }
    } catch {
      text = undefined;
    }
    if (this.operations.get(uri) !== operation) {
      return;
    }
    this.operations.delete(uri);
    if (text === undefined || !this.inWorkspace(uri)) {
      this.mtimes.delete(uri);
      this.index.remove(uri);
    } else {
      this.mtimes.set(uri, mtime!);
      this.index.update(uri, text);
    }
  }

  private async scanIfFolder(uri: string): Promise<void> {
    try {
      if ((await fs.stat(fileURLToPath(uri))).isDirectory()) {
        await this.scan([uri]);
      }
    } catch {
      // Gone already.
    }
  }

  private get limits(): ScanLimits {
    return this.options.limits ?? DEFAULT_SCAN_LIMITS;
  }

  /** Scans folders one directory at a time, yielding to the event loop between files. */
  private scan(folderUris: readonly string[]): Promise<void> {
    const previous = this.scanning;
    this.scanning = previous.then(() => this.scanFolders(folderUris)).catch((error: unknown) => {
      this.options.log?.(`Paper Digest: scanning the workspace failed: ${String(error)}`);
    });
    return this.scanning;
  }

  /**
   * Walks the folders and reads their digest files: only files not indexed yet, or, with
   * `seen`, every file (and `seen` collects their URIs).
   */
  private async scanFolders(folderUris: readonly string[], seen?: Set<string>): Promise<void> {
    const limits = this.limits;
    let files = 0;
    let directories = 0;
    const started = Date.now();
    for (const folderUri of folderUris) {
      if (!this.inWorkspace(folderUri)) {
        continue;
      }
      let root: string;
      try {
        root = fileURLToPath(folderUri);
      } catch {
        continue;
      }
      const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
      while (queue.length > 0 && files < limits.maxFiles && directories < limits.maxDirectories) {
        const { dir, depth } = queue.shift()!;
        directories++;
        let entries: import('node:fs').Dirent[];
        try {
          entries = await fs.readdir(dir, { withFileTypes: true });
        } catch {
          continue;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            if (!SKIPPED_FOLDERS.has(entry.name) && depth < limits.maxDepth) {
              queue.push({ dir: full, depth: depth + 1 });
            }
          } else if ((entry.isFile() || entry.isSymbolicLink()) && isDigestFileName(entry.name)) {
            if (files >= limits.maxFiles) {
              this.options.log?.(`Paper Digest: indexed the first ${limits.maxFiles} digest files only.`);
              break;
            }
            files++;
            const uri = fileUri(full);
            seen?.add(uri);
            if (seen || !this.index.hasOnDisk(uri)) {
              await this.readInto(uri, this.nextOperation(uri));
            }
            // Let requests and edits through between files.
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (!this.inWorkspace(folderUri)) {
              // The folder was removed meanwhile.
              queue.length = 0;
              break;
            }
          }
        }
      }
    }
    this.options.log?.(`Paper Digest: indexed ${files} digest files (${this.index.paperCount} papers) in ${Date.now() - started} ms.`);
  }
}

/**
 * The URI of a file path, encoded as VS Code encodes it, so that URIs of files found on disk
 * equal those of the same files opened in the editor.
 *
 * @example
 * fileUri('/home/me/papers/May 1.digest') // 'file:///home/me/papers/May%201.digest'
 * fileUri('C:\\papers\\a.digest')          // 'file:///c%3A/papers/a.digest' (on Windows)
 */
export function fileUri(filePath: string): string {
  let p = filePath;
  if (process.platform === 'win32') {
    p = p.replace(/\\/g, '/');
  }
  if (/^[A-Za-z]:/.test(p)) {
    p = '/' + p.charAt(0).toLowerCase() + p.slice(1);
  }
  if (!p.startsWith('/')) {
    p = '/' + p;
  }
  return 'file://' + p.replace(/[^A-Za-z0-9\-._~/]+/g, (run) => encodeURIComponent(run).replace(/[!'()*:]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()));
}

/** A `file:` URI in the encoding of `fileUri`; other URIs as they are; undefined if unreadable. */
export function canonicalUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) {
    return uri;
  }
  try {
    const canonical = fileUri(fileURLToPath(uri));
    return canonical.length > 'file:///'.length ? canonical.replace(/\/+$/, '') : canonical;
  } catch {
    return undefined;
  }
}
