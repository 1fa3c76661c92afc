/**
 * The digest files of the workspace folders for a server without disk access: the web
 * extension's server in a web worker. The same job as `WorkspaceDigests` (workspace.ts) — a
 * bounded scan at start, then file events, open documents and folder changes keep the index
 * current — but the files come through a `DigestFileSource`, which the client answers with
 * `vscode.workspace.findFiles` and `vscode.workspace.fs` (workspaceFilesProtocol.ts). URIs of
 * any scheme work (vscode-vfs, vscode-remote, file); none is ever turned into a path.
 */
import { FileChangeType, FileEvent } from 'vscode-languageserver-protocol';
import { CreationBatches, dropOperationsIn, folderChange, inSkippedFolder, isDigestUri, isInAFolder, isInFolders, RescanEvents, withoutFolders } from './digestFiles';
import { PendingDocuments } from './pendingDocuments';
import type { DigestDocument } from './service/model';
import type { WorkspaceIndex } from './service/workspaceIndex';
import type { FileReadProblem, ReadDigestFile } from './workspaceFilesProtocol';
import type { ScanLimits, WorkspaceDigests } from './workspace';
import { withoutTrailingSlashes } from './service/text';
import { CliMessageKey, Log, message, detailOf, skippedPart } from './service/cliMessages';

/** What the server asks of the workspace's files, whichever way they are read. */
export type WorkspaceFiles = Pick<
  WorkspaceDigests,
  | 'ready'
  | 'folderUris'
  | 'mtimeOf'
  | 'setFolders'
  | 'rescan'
  | 'changeFolders'
  | 'filesChanged'
  | 'documentChanged'
  | 'documentClosed'
  | 'flush'
  | 'dispose'
  | 'inWorkspace'
  | 'keepIndexWith'
  | 'earlyIndex'
>;

/** Where the files come from: the client, or a test's own files. */
export interface DigestFileSource {
  /** The digest files below a folder URI, at most `maxResults`. */
  findDigestFiles(folder: string, maxResults: number): Promise<readonly string[]>;
  /** The text of each file, or why it was not read; one answer per URI, in order. */
  readDigestFiles(uris: readonly string[], maxBytes: number): Promise<readonly ReadDigestFile[]>;
}

/** The scan's limits where the client does the walking (it has no depth or directory count). */
export const CLIENT_SCAN_LIMITS: ScanLimits = {
  maxFiles: 20_000,
  maxFileBytes: 32 * 1024 * 1024,
  maxDepth: 24,
  maxDirectories: 50_000,
};

/** A file of a folder's `.paper-digest` folder (its state and interests files): no folder of digests. */
const IN_STATE_FOLDER = /\/\.paper-digest\/[^/]*$/;

/** Files asked in one request: enough to hide the round trip, few enough to keep a message small. */
const READ_BATCH = 32;

/** What the log says of the files skipped for a reason (logMessages.ts). */
const PROBLEM_MESSAGES: Record<FileReadProblem, CliMessageKey> = {
  'too-big': 'skipTooBig',
  special: 'skipSpecial',
  link: 'skipLink',
  missing: 'skipMissing',
  unreadable: 'skipUnreadable',
  'not-utf8': 'skipNotUtf8',
  folder: 'skipFolderNow',
  outside: 'skipOutside',
};

/** A URI without a trailing slash (but `scheme:///` stays). */
export function trimmedUri(uri: string): string {
  const trimmed = withoutTrailingSlashes(uri);
  return trimmed.length === 0 ? uri : trimmed;
}

/**
 * @example
 * const files = new ClientWorkspaceDigests(index, connectionFileSource(connection));
 * await files.setFolders(['vscode-vfs://github/me/papers']);
 */
export class ClientWorkspaceDigests implements WorkspaceFiles {
  private folders: string[] = [];
  /** The latest operation on each URI; a read that finishes after a newer operation is dropped. */
  private readonly operations = new Map<string, number>();
  private operationCount = 0;
  private readonly pendingDocuments: PendingDocuments;
  private scanning: Promise<void> = Promise.resolve();
  private readonly mtimes = new Map<string, number>();

  constructor(
    private readonly index: WorkspaceIndex,
    private readonly source: DigestFileSource,
    private readonly options: {
      readonly limits?: ScanLimits;
      readonly documentDelay?: number;
      readonly log?: Log;
    } = {},
  ) {
    this.pendingDocuments = new PendingDocuments(index, options.documentDelay ?? 200);
  }

  get ready(): Promise<void> {
    return this.scanning;
  }

  get folderUris(): readonly string[] {
    return this.folders;
  }

  mtimeOf(uri: string): number | undefined {
    return this.mtimes.get(uri);
  }

  setFolders(uris: readonly string[]): Promise<void> {
    const next = uris.map(trimmedUri);
    const { gone, scan } = folderChange(this.folders, next);
    for (const old of gone) {
      this.index.remove(old);
    }
    dropOperationsIn(this.operations, gone);
    this.folders = next;
    return this.scan(scan, undefined);
  }

  async rescan(): Promise<void> {
    const seen = new Set<string>();
    // What file events read or scan meanwhile counts as read (`RescanEvents`).
    this.index.removeMany(await this.rescanEvents.rescan(() => this.scan(this.folders, seen), () => this.index.diskUris(), seen, (uri) => this.inWorkspace(uri)));
  }

  /** What file events read or scan while a rescan runs (`RescanEvents`). */
  private readonly rescanEvents = new RescanEvents();

  changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    return this.setFolders([...withoutFolders(this.folders, removed.map(trimmedUri)), ...added]);
  }

  async filesChanged(changes: readonly FileEvent[]): Promise<void> {
    const deleted: string[] = [];
    const files: string[] = [];
    const folders: string[] = [];
    // A folder found now is read while it is in a workspace folder, or, with none open now, while
    // there is none (then any file is in the workspace).
    const anywhere = this.folders.length === 0;
    // An event told twice in a row for a file is read once (workspace.ts has it so too).
    const last = new Map<string, number>();
    for (const change of changes) {
      const uri = trimmedUri(change.uri);
      if (!this.inWorkspace(uri) || last.get(uri) === change.type) {
        continue;
      }
      last.set(uri, change.type);
      if (change.type !== FileChangeType.Deleted) {
        // What the scan would not index (`node_modules`, `.git`), an event does not either.
        if (inSkippedFolder(uri, this.folders)) continue;
        this.rescanEvents.told(uri);
      }
      if (change.type === FileChangeType.Deleted) {
        // The reads under way of it, or of the files of a folder deleted, are dropped.
        dropOperationsIn(this.operations, [uri]);
        deleted.push(uri);
      } else if (isDigestUri(uri)) {
        files.push(uri);
      } else if (change.type === FileChangeType.Created && !IN_STATE_FOLDER.test(uri)) {
        // Maybe a folder moved or copied in, bringing its digests (not a state or interests
        // file the reading workflow made, which the client watches too).
        folders.push(uri);
      }
    }
    if (deleted.length > 0) {
      this.index.removeMany(deleted);
    }
    // Each file read once (created, deleted and created again: deleted first, then read).
    const toRead = [...new Set(files)];
    // What else was created is looked at once the creations settle, the outermost only.
    const created = Promise.all(folders.map((uri) => this.created.add(uri, anywhere)));
    const outcomes = await this.readAll(toRead, undefined);
    // A digest's name that is a folder's now: scan it.
    const scans = toRead.filter((_, i) => outcomes[i] === 'folder');
    if (scans.length > 0) {
      await this.scan(scans, undefined, anywhere);
    }
    await created;
  }

  /** Creations (not of digests) looked at once they settle, the outermost only (`CreationBatches`). */
  private readonly created = new CreationBatches((uris, anywhere) => this.scan(uris, undefined, anywhere));

  documentChanged(uri: string, model: () => DigestDocument): void {
    const key = trimmedUri(uri);
    if (this.inWorkspace(key)) {
      this.pendingDocuments.changed(key, model);
    }
  }

  documentClosed(uri: string): void {
    this.pendingDocuments.closed(trimmedUri(uri));
  }

  flush(): void {
    this.pendingDocuments.flush();
  }

  dispose(): void {
    this.pendingDocuments.dispose();
    this.created.dispose();
  }

  /** The web extension keeps no index between starts: its files come through the client, read in full at each start. */
  keepIndexWith(): void {}

  earlyIndex(): Promise<WorkspaceIndex | undefined> {
    return Promise.resolve(undefined);
  }

  inWorkspace(uri: string): boolean {
    return isInFolders(uri, this.folders);
  }

  private get limits(): ScanLimits {
    return this.options.limits ?? CLIENT_SCAN_LIMITS;
  }

  /**
   * Queues a scan of folders after the scans before it; `seen` re-reads every file and collects
   * them. Folders are read only while they are (or are in) a workspace folder; `anywhere`,
   * folders a file event found when no workspace folder was open, while that is so (any file is
   * in the workspace then).
   */
  private scan(folderUris: readonly string[], seen: Set<string> | undefined, anywhere = false): Promise<void> {
    this.scanning = this.scanning
      .then(() => this.scanFolders(folderUris, seen, anywhere))
      .catch((error: unknown) => {
        this.options.log?.(message('logScanFailed', { reason: detailOf(error) }));
      });
    return this.scanning;
  }

  private async scanFolders(folderUris: readonly string[], seen: Set<string> | undefined, anywhere: boolean): Promise<void> {
    if (folderUris.length === 0) {
      // Folders removed, none added: nothing to read, and nothing to say ("indexed 0 digest files").
      return;
    }
    const started = Date.now();
    const limits = this.limits;
    const skipped = new Map<FileReadProblem, number>();
    let indexed = 0;
    /** The papers of the files this scan indexed (as read: not an open document's unsaved ones). */
    let papers = 0;
    const papersOf = (uri: string): number => this.index.diskFile(uri)?.papers.length ?? 0;
    for (const folder of folderUris) {
      // Removed since the scan was asked, or while the client lists or reads it: not read (with
      // no folder left, `inWorkspace` takes any file in).
      const inScope = (): boolean => (anywhere ? this.inWorkspace(folder) : isInAFolder(folder, this.folders));
      if (!inScope() || indexed >= limits.maxFiles) {
        continue;
      }
      const listed = await this.source.findDigestFiles(folder, limits.maxFiles - indexed);
      if (!inScope()) {
        continue;
      }
      const found = [...listed]
        .map(trimmedUri)
        .filter((uri) => isDigestUri(uri) && this.inWorkspace(uri))
        .sort();
      const wanted = seen ? found : found.filter((uri) => !this.index.hasOnDisk(uri));
      const outcomes = await this.readAll(wanted, seen, inScope);
      outcomes.forEach((outcome, i) => {
        if (outcome === 'indexed') {
          indexed++;
          papers += papersOf(wanted[i]);
        } else if (outcome !== 'superseded') {
          skipped.set(outcome, (skipped.get(outcome) ?? 0) + 1);
        }
      });
      // Indexed already: counted as indexed by this scan.
      indexed += found.length - wanted.length;
      if (wanted.length < found.length) {
        const read = new Set(wanted);
        for (const uri of found) if (!read.has(uri)) papers += papersOf(uri);
      }
    }
    if (indexed >= limits.maxFiles) {
      this.options.log?.(message('logFirstFilesOnly', { max: limits.maxFiles }));
    }
    this.options.log?.(message('logIndexedThroughClient', { files: indexed, papers, ms: Date.now() - started, skipped: skippedPart(skipped, PROBLEM_MESSAGES) }));
  }

  /** Reads files in batches and indexes each, unless a newer operation on it came meanwhile. */
  private async readAll(uris: readonly string[], seen: Set<string> | undefined, inScope: () => boolean = () => true): Promise<(FileReadProblem | 'indexed' | 'superseded')[]> {
    const outcomes: (FileReadProblem | 'indexed' | 'superseded')[] = [];
    for (let start = 0; start < uris.length; start += READ_BATCH) {
      if (!inScope()) {
        // The folder was removed meanwhile: the files not asked yet are not read.
        for (let i = start; i < uris.length; i++) outcomes.push('superseded');
        break;
      }
      const batch = uris.slice(start, start + READ_BATCH);
      const operations = batch.map((uri) => {
        const operation = ++this.operationCount;
        this.operations.set(uri, operation);
        return operation;
      });
      let answers: readonly ReadDigestFile[];
      try {
        answers = await this.source.readDigestFiles(batch, this.limits.maxFileBytes);
      } catch (error) {
        this.options.log?.(message('logReadBatchFailed', { count: batch.length, reason: detailOf(error) }));
        answers = [];
      }
      batch.forEach((uri, i) => {
        const answer = answers[i];
        if (this.operations.get(uri) !== operations[i]) {
          outcomes.push('superseded');
          return;
        }
        this.operations.delete(uri);
        if (answer && answer.uri === uri && 'text' in answer && typeof answer.text === 'string' && this.inWorkspace(uri)) {
          this.mtimes.set(uri, typeof answer.mtime === 'number' ? answer.mtime : Date.now());
          this.index.update(uri, answer.text);
          seen?.add(uri);
          outcomes.push('indexed');
          return;
        }
        const problem: FileReadProblem = answer && answer.uri === uri && 'problem' in answer ? answer.problem : 'unreadable';
        this.mtimes.delete(uri);
        if (problem === 'missing' || problem === 'folder' || this.index.hasOnDisk(uri)) {
          this.index.remove(uri);
        }
        outcomes.push(problem);
      });
    }
    return outcomes;
  }
}
