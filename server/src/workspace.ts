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
import { realPath } from './fs/contained';
import { readFileSnapshot, SafeFileError } from './fs/safeFile';
import { folderChange, isDigestFileName, isDigestUri, isInFolder, isInFolders } from './digestFiles';
import { PendingDocuments } from './pendingDocuments';
import type { DigestDocument } from './service/model';
import type { WorkspaceIndex } from './service/workspaceIndex';
import { wellFormed, withoutTrailingSlashes } from './service/text';

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

/** Why a digest file was not indexed. */
type SkipReason = 'too-big' | 'special' | 'link' | 'another-name' | 'missing' | 'unreadable' | 'not-utf8';

/** What reading a file came to: indexed, skipped, a folder now, or overtaken by a newer event. */
type ReadOutcome = 'indexed' | 'folder' | 'superseded' | SkipReason;

const SKIP_DESCRIPTIONS: Record<SkipReason, string> = {
  'too-big': 'too big',
  special: 'not regular files (FIFOs, sockets, devices)',
  link: 'symbolic links (never followed)',
  'another-name': 'other names (hard links) of files indexed',
  missing: 'gone meanwhile',
  unreadable: 'unreadable',
  'not-utf8': 'not UTF-8 text',
};

const SKIP_OF_ERROR: Record<SafeFileError['code'], SkipReason> = {
  missing: 'missing',
  'not-regular': 'special',
  'too-big': 'too-big',
  symlink: 'link',
  changed: 'unreadable',
  io: 'unreadable',
};

/** Folder names never entered. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export { isDigestFileName };

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
  private readonly pendingDocuments: PendingDocuments;
  private scanning: Promise<void> = Promise.resolve();
  /** Modification times of the digest files read, for the digest order (reading workflow). */
  private readonly mtimes = new Map<string, number>();
  /**
   * The file (device and inode) each digest read from disk is, and the URI a file was first
   * indexed under: a hard link to an indexed file is another name of it, not another digest (no
   * false `duplicate-paper`).
   */
  private readonly fileOfUri = new Map<string, string>();
  private readonly uriOfFile = new Map<string, string>();
  /** The real path of each workspace folder, resolved once. */
  private readonly realRoots = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly index: WorkspaceIndex,
    private readonly options: {
      readonly limits?: ScanLimits;
      /** How long an edited document waits before it is indexed again, in milliseconds. */
      readonly documentDelay?: number;
      readonly log?: (message: string) => void;
      /**
       * Awaited before an edited document is indexed after its delay (the server waits for its
       * answers to be sent, so that indexing a big document does not hold them up).
       */
      readonly idle?: () => Promise<void>;
      /**
       * The text of a file's bytes, undefined when they are not UTF-8 text (the file is then
       * skipped), as a strict `TextDecoder` (the default) decodes them: the Node server's host
       * passes a faster one (fs/utf8Text.ts).
       */
      readonly decode?: (bytes: Buffer) => string | undefined;
    } = {},
  ) {
    this.pendingDocuments = new PendingDocuments(index, options.documentDelay ?? 200, options.idle);
  }

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
    const { gone, scan } = folderChange(this.folders, next);
    for (const old of gone) {
      this.index.remove(old);
    }
    this.folders = next;
    this.realRoots.clear();
    return this.scan(scan);
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
    this.index.removeMany(this.index.diskUris().filter((uri) => !seen.has(uri) && this.inWorkspace(uri)));
  }

  /** Adds and removes workspace folders (`workspace/didChangeWorkspaceFolders`). */
  changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    const removedSet = new Set(removed.map(canonicalUri));
    const remaining = this.folders.filter((uri) => !removedSet.has(uri));
    return this.setFolders([...remaining, ...added]);
  }

  /**
   * Applies file events (`workspace/didChangeWatchedFiles`). Settles when the files are read.
   * Deletions are applied in one change of the index, linear in their number.
   */
  async filesChanged(changes: readonly FileEvent[]): Promise<void> {
    const reads: Promise<void>[] = [];
    const deleted: string[] = [];
    for (const change of changes) {
      const uri = canonicalUri(change.uri);
      if (!uri || !this.inWorkspace(uri)) {
        continue;
      }
      if (change.type === FileChangeType.Deleted) {
        // A read still under way is dropped; a deleted folder takes its digests with it. The
        // reads started here settle after the deletions below, so the batch keeps its order.
        this.operations.delete(uri);
        deleted.push(uri);
      } else if (isDigestUri(uri)) {
        // A digest's name may now be a folder's (a file replaced by a folder): scan it then.
        reads.push(this.readInto(uri, this.nextOperation(uri), true).then((outcome) => (outcome === 'folder' ? this.scan([uri]) : undefined)));
      } else if (change.type === FileChangeType.Created) {
        // A folder moved or copied in brings its digests.
        reads.push(this.scanIfFolder(uri));
      }
    }
    if (deleted.length > 0) {
      this.index.removeMany(deleted);
    }
    await Promise.all(reads);
  }

  /**
   * An open document changed (or was opened): it is indexed after a short delay, so that typing
   * does not rebuild the index on every key. `model` is asked only then.
   */
  documentChanged(uri: string, model: () => DigestDocument): void {
    const key = indexUri(uri);
    if (this.inWorkspace(key)) {
      this.pendingDocuments.changed(key, model);
    }
  }

  /** An open document was closed: the index falls back to the file on disk. */
  documentClosed(uri: string): void {
    this.pendingDocuments.closed(indexUri(uri));
  }

  /** Indexes the pending document edits now, e.g. before answering a request. */
  flush(): void {
    this.pendingDocuments.flush();
  }

  /** Stops the pending timers. */
  dispose(): void {
    this.pendingDocuments.dispose();
  }

  /** Whether a URI is inside a workspace folder (or the server has no folders at all). */
  inWorkspace(uri: string): boolean {
    return isInFolders(uri, this.folders);
  }

  private nextOperation(uri: string): number {
    const operation = ++this.operationCount;
    this.operations.set(uri, operation);
    return operation;
  }

  /**
   * Reads a file and indexes it, unless a newer operation on it came meanwhile. Only regular
   * files within the size limit are read (a FIFO or a device is never opened); a symbolic link
   * is never followed. With `checkPath` (a file event), the path is first checked to lie really
   * inside its workspace folder, no link on the way; files the scan finds are so already.
   */
  private async readInto(uri: string, operation: number, checkPath: boolean): Promise<ReadOutcome> {
    let text: string | undefined;
    let mtime: number | undefined;
    let outcome: ReadOutcome;
    try {
      const file = fileURLToPath(uri);
      const stat = checkPath ? await fs.lstat(file) : undefined;
      if (stat?.isDirectory()) {
        outcome = (await this.reallyInside(uri, file)) ? 'folder' : 'link';
      } else if (stat?.isSymbolicLink()) {
        outcome = 'link';
      } else if (stat && !(await this.reallyInside(uri, file))) {
        outcome = 'link';
      } else {
        const { bytes, snapshot } = await readFileSnapshot(file, { maxBytes: this.limits.maxFileBytes, followSymlinks: false, hash: false });
        const identity = `${snapshot.dev}:${snapshot.ino}`;
        const first = this.uriOfFile.get(identity);
        if (first !== undefined && first !== uri && this.fileOfUri.get(first) === identity && this.index.hasOnDisk(first)) {
          outcome = 'another-name';
        } else {
          text = (this.options.decode ?? strictUtf8)(bytes);
          if (text === undefined) {
            // A binary named `.digest`: not read as thousands of broken papers (the CLI refuses it too).
            outcome = 'not-utf8';
          } else {
            this.uriOfFile.set(identity, uri);
            this.fileOfUri.set(uri, identity);
            mtime = snapshot.mtimeMs;
            outcome = 'indexed';
          }
        }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      outcome = error instanceof SafeFileError ? SKIP_OF_ERROR[error.code] : code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
    }
    if (this.operations.get(uri) !== operation) {
      return 'superseded';
    }
    this.operations.delete(uri);
    if (text !== undefined && this.inWorkspace(uri)) {
      this.mtimes.set(uri, mtime!);
      this.index.update(uri, text);
      return outcome;
    }
    this.mtimes.delete(uri);
    if (outcome === 'missing' || outcome === 'folder') {
      // Gone, or a folder now: nothing of the file (nor of an older folder there) stays.
      this.index.remove(uri);
    } else if (this.index.hasOnDisk(uri)) {
      this.index.remove(uri);
    }
    return outcome === 'indexed' ? 'unreadable' : outcome;
  }

  /**
   * Whether a path below a workspace folder is really there: its real path is the folder's real
   * path joined with the rest, so no symbolic link lies on the way (in or out of the workspace).
   * Without workspace folders there is nothing to compare with, and only the file is looked at.
   */
  private async reallyInside(uri: string, file: string): Promise<boolean> {
    const folder = this.folderOf(uri);
    if (folder === undefined) {
      return this.folders.length === 0;
    }
    const root = fileURLToPath(folder);
    let realRoot = this.realRoots.get(folder);
    if (!realRoot) {
      realRoot = realPath(root);
      this.realRoots.set(folder, realRoot);
    }
    const [rootReal, real] = await Promise.all([realRoot, realPath(file)]);
    return rootReal !== undefined && real !== undefined && real === path.join(rootReal, path.relative(root, file));
  }

  /** The innermost workspace folder holding a URI. */
  private folderOf(uri: string): string | undefined {
    let found: string | undefined;
    for (const folder of this.folders) {
      if (isInFolder(uri, folder) && (found === undefined || folder.length > found.length)) {
        found = folder;
      }
    }
    return found;
  }

  /** Scans a folder created in the workspace; a link to a folder is never followed. */
  private async scanIfFolder(uri: string): Promise<void> {
    try {
      const file = fileURLToPath(uri);
      if ((await fs.lstat(file)).isDirectory() && (await this.reallyInside(uri, file))) {
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
    let indexed = 0;
    let directories = 0;
    const skipped = new Map<SkipReason, number>();
    const skip = (reason: SkipReason): void => {
      skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    };
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
      // The folder itself may be reached through a link; nothing below it is.
      const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
      while (queue.length > 0 && indexed < limits.maxFiles && directories < limits.maxDirectories) {
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
            continue;
          }
          if (!isDigestFileName(entry.name)) {
            // Not a digest; links to folders are never followed.
            continue;
          }
          if (entry.isSymbolicLink()) {
            // Never followed: its real file is indexed under its own name if it is in the workspace.
            skip('link');
            continue;
          }
          if (!entry.isFile()) {
            // A FIFO, a socket or a device: never opened.
            skip('special');
            continue;
          }
          if (indexed >= limits.maxFiles) {
            this.options.log?.(`Paper Digest: indexed the first ${limits.maxFiles} digest files only.`);
            break;
          }
          const uri = fileUri(full);
          const outcome = seen || !this.index.hasOnDisk(uri) ? await this.readInto(uri, this.nextOperation(uri), false) : 'indexed';
          if (outcome === 'indexed') {
            indexed++;
            seen?.add(uri);
          } else if (outcome === 'folder') {
            queue.push({ dir: full, depth: depth + 1 });
          } else if (outcome !== 'superseded') {
            skip(outcome);
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
    const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
    const reasons = [...skipped].map(([reason, count]) => `${count} ${SKIP_DESCRIPTIONS[reason]}`).join(', ');
    this.options.log?.(
      `Paper Digest: indexed ${indexed} digest files (${this.index.paperCount} papers) in ${Date.now() - started} ms` +
        (skippedCount > 0 ? `; skipped ${skippedCount}: ${reasons}.` : '.'),
    );
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
  return 'file://' + p.replace(/[^A-Za-z0-9\-._~/]+/g, (run) => encodeURIComponent(wellFormed(run)).replace(/[!'()*:]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()));
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text less a byte order mark (as an editor shows the file), undefined when they are not UTF-8. */
function strictUtf8(bytes: Buffer): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `canonicalUri`, or the URI as it is when it cannot be read: the form the index keeps files under. */
export function indexUri(uri: string): string {
  return canonicalUri(uri) ?? uri;
}

/** A `file:` URI in the encoding of `fileUri`; other URIs as they are; undefined if unreadable. */
export function canonicalUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) {
    return uri;
  }
  try {
    const canonical = fileUri(fileURLToPath(uri));
    return canonical.length > 'file:///'.length ? withoutTrailingSlashes(canonical) : canonical;
  } catch {
    return undefined;
  }
}
