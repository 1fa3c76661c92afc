/**
 * The digest files of the workspace folders, kept in the workspace index: a bounded scan of the
 * folders at start, then file events (created, changed, deleted; a rename is a delete and a
 * create), open documents (which override the file on disk while open) and folder changes.
 *
 * This is the one part of the server that reads files; the index itself stays pure.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileChangeType, FileEvent } from 'vscode-languageserver/node';
import { realPath } from './fs/contained';
import { ReadResult, readFileSnapshot, SafeFileError } from './fs/safeFile';
import { EarlyFiles } from './earlyFiles';
import { FirstLevelReader, FirstLevelTask } from './firstLevelRead';
import { namesNotUtf8Async } from './fs/fileNames';
import type { KeptIndexStore } from './keptIndexDisk';
import { FileFingerprint, KeptFile, sameFingerprint } from './service/keptIndex';
import { CreationBatches, dropOperationsIn, RescanEvents, folderChange, inSkippedFolder, isDigestFileName, isDigestUri, isInAFolder, isInFolder, isInFolders, SKIPPED_FOLDERS, withoutFolders } from './digestFiles';
import { PendingDocuments } from './pendingDocuments';
import type { DigestDocument } from './service/model';
import { FileSummary, FirstLevelPart, WorkspaceIndex } from './service/workspaceIndex';
import { wellFormed, withoutTrailingSlashes } from './service/text';
import { CliMessageKey, Log, message, detailOf, skippedPart } from './service/cliMessages';

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
type SkipReason = 'too-big' | 'special' | 'link' | 'another-name' | 'missing' | 'unreadable' | 'not-utf8' | 'name-not-utf8';

/** What reading a file came to: indexed, skipped, a folder now, or overtaken by a newer event. */
type ReadOutcome = 'indexed' | 'folder' | 'superseded' | SkipReason;

/** What the log says of the files skipped for a reason (logMessages.ts). */
const SKIP_MESSAGES: Record<SkipReason, CliMessageKey> = {
  'too-big': 'skipTooBig',
  special: 'skipSpecial',
  link: 'skipLink',
  'another-name': 'skipAnotherName',
  missing: 'skipMissing',
  unreadable: 'skipUnreadable',
  'not-utf8': 'skipNotUtf8',
  'name-not-utf8': 'skipNameNotUtf8',
};

const SKIP_OF_ERROR: Record<SafeFileError['code'], SkipReason> = {
  missing: 'missing',
  'not-regular': 'special',
  'too-big': 'too-big',
  symlink: 'link',
  changed: 'unreadable',
  io: 'unreadable',
};

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
  /** Where the index is kept between starts, once the client has said (`keepIndexWith`). */
  private keptStore: KeptIndexStore | undefined;
  /** What the files read for the first level before the first scan take of each paper (`keepIndexWith`). */
  private firstLevelPart: FirstLevelPart = 'topic';
  /** What each digest read from disk was when it was read, for the index kept between starts. */
  private readonly fingerprints = new Map<string, FileFingerprint>();
  /** Whether the folders were set once: only their first scan is preceded by the files kept at the last start. */
  private firstScanStarted = false;
  /** Scans started and not finished: the index is kept only when none runs. */
  private scansRunning = 0;
  /** While the first scan runs: the files taken from the index kept at the last start, and what happened since. */
  private early: EarlyFiles | undefined;
  /** Settles when `early` has every file the kept index has unchanged (or there is none). */
  private earlyRead: Promise<void> = Promise.resolve();
  /** What the index kept was written for (or read as), to write it only when that changed. */
  private keptSignature: string | undefined;
  /**
   * Whether the walk before the first scan has met every file kept at the last start (until then,
   * nothing is written while the scan runs: what was kept of the files not met would be lost).
   */
  private keptMet = false;
  private keepTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Digests read within two seconds of their last write (`keepable`), whose fingerprints are not
   * kept: read again before the index is kept, once their time is old enough. With each, a hash
   * of the bytes read, their time and the summary the index made of them: read again with the
   * same bytes and time while the index still has that summary, the file keeps it (its
   * fingerprint is kept now); a new time alone is a change (undated digests are ordered by it).
   * Every save of a digest was indexed twice, and the second time made the answers kept for the
   * first (trees, symbols) garbage that stayed until asked again.
   */
  private readonly racy = new Map<string, { readonly hash: string; readonly mtime: number; readonly summary: FileSummary | undefined }>();
  /** Whether the kept index is being made (`writeKept`). */
  private writingKept = false;
  private disposed = false;

  constructor(
    private readonly index: WorkspaceIndex,
    private readonly options: {
      readonly limits?: ScanLimits;
      /** How long an edited document waits before it is indexed again, in milliseconds. */
      readonly documentDelay?: number;
      readonly log?: Log;
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
      /**
       * Awaited between the look at the index kept at the last start and the scan that reads
       * the files in full (the server's tests hold the scan there, to see what is answered meanwhile).
       */
      readonly beforeFullScan?: () => Promise<void>;
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

  /**
   * Keeps the index between starts in `store`: before the first scan reads the files in full, the
   * files unchanged since the last start are taken from it (`earlyIndex`), and it is written again
   * after each scan and after files change. Called before the first scan, else it applies from the
   * next change on.
   *
   * @param firstLevelPart what the files not kept (all of them at a first start) are read for
   *   before the scan (`FirstLevelPart`): what the grouping the client will ask first groups by
   *   (about a third of the time of `all`), or `all` (every grouping's first level); the early
   *   index answers only the first level of the groupings that part covers
   */
  keepIndexWith(store: KeptIndexStore, firstLevelPart: FirstLevelPart = 'topic'): void {
    this.keptStore = store;
    this.firstLevelPart = firstLevelPart;
  }

  /**
   * While the first scan runs, once the files kept at the last start are looked at: an index of
   * the workspace as the scan will find it, made of the files kept then and unchanged since, the
   * others read now, and what the index has already (open documents, files read). Its papers
   * from the kept files have no titles, ranges or summaries (`NotKeptError`): it answers the
   * Papers tree's first level, nothing else (at the first start, with nothing kept, every file was
   * read so, `readEarly`). Undefined once the scan is done, when the early index was given up, or
   * when the files read at this start were not read for what `wanted` says the grouping needs.
   */
  async earlyIndex(wanted: FirstLevelPart = 'all'): Promise<WorkspaceIndex | undefined> {
    await Promise.race([this.earlyRead, this.scanning]);
    const early = this.early;
    // The folders changed since the scan began, or a folder was moved in: the scan will not come to what was kept.
    if (!early || early.abandoned || early.folders.join('\n') !== this.folders.join('\n')) {
      return undefined;
    }
    // The files read at this start were read for another grouping: the scan answers.
    if (!early.covers(wanted)) {
      return undefined;
    }
    this.pendingDocuments.flush();
    return early.index(
      this.index,
      (uri) => this.inWorkspace(uri),
      (identity, uri) => this.indexedUnderAnotherName(identity, uri),
    );
  }

  /** Whether the file (`dev:ino`) is indexed, as read last, under another URI than `uri`. */
  private indexedUnderAnotherName(identity: string, uri: string): boolean {
    const first = this.uriOfFile.get(identity);
    return first !== undefined && first !== uri && this.fileOfUri.get(first) === identity && this.index.hasOnDisk(first);
  }

  /**
   * Whether a file just read (`dev:ino`) is another name (a hard link) of a file indexed under
   * another URI, and still that file: the other may have been replaced since it was read, and
   * its inode number given to this new file.
   */
  private async isAnotherName(identity: string, uri: string): Promise<boolean> {
    if (!this.indexedUnderAnotherName(identity, uri)) {
      return false;
    }
    try {
      const other = await fs.lstat(fileURLToPath(this.uriOfFile.get(identity)!));
      return fileIdentity(other) === identity;
    } catch {
      return false;
    }
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
    dropOperationsIn(this.operations, gone);
    this.folders = next;
    this.realRoots.clear();
    const first = !this.firstScanStarted;
    this.firstScanStarted = true;
    return this.scan(scan, first);
  }

  /**
   * Scans the workspace folders again, re-reading every digest file and forgetting files that
   * are gone: for changes the file events missed (a folder moved in, a network drive).
   */
  async rescan(): Promise<void> {
    const seen = new Set<string>();
    const scan = (): Promise<void> => {
      this.scansRunning++;
      this.scanning = this.scanning
        .then(() => this.scanFolders(this.folders, seen))
        .catch((error: unknown) => {
          this.options.log?.(message('logScanFailed', { reason: detailOf(error) }));
        })
        .finally(() => this.scansRunning--);
      return this.scanning;
    };
    // What file events read or scan meanwhile is as read as what the rescan reads itself.
    this.index.removeMany(await this.rescanEvents.rescan(scan, () => this.index.diskUris(), seen, (uri) => this.inWorkspace(uri)));
    this.scheduleKeep(KEEP_AFTER_SCAN_MS);
  }

  /** What file events read or scan while a rescan runs (`RescanEvents`). */
  private readonly rescanEvents = new RescanEvents();

  /**
   * Adds and removes workspace folders (`workspace/didChangeWorkspaceFolders`). A folder removed
   * is taken out once: given twice (or as two spellings of one URI), it stays a folder once.
   */
  changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    return this.setFolders([...withoutFolders(this.folders, removed.map(canonicalUri)), ...added]);
  }

  /**
   * Applies file events (`workspace/didChangeWatchedFiles`). Settles when the files are read.
   * Deletions are applied in one change of the index, linear in their number.
   */
  async filesChanged(changes: readonly FileEvent[]): Promise<void> {
    const reads: Promise<void>[] = [];
    const deleted: string[] = [];
    // A folder found now is walked while it is in a workspace folder, or, with none open now,
    // while there is none (then any file is in the workspace).
    const anywhere = this.folders.length === 0;
    // The same event told twice in a row for a file (a digest created matches two of a client's
    // watchers) is read once; Created, Deleted, Created are all three applied, in their order.
    const last = new Map<string, number>();
    for (const change of changes) {
      const uri = canonicalUri(change.uri);
      if (!uri || !this.inWorkspace(uri) || last.get(uri) === change.type) {
        continue;
      }
      last.set(uri, change.type);
      if (change.type !== FileChangeType.Deleted && (this.beyondDepth(uri, !isDigestUri(uri)) || inSkippedFolder(uri, this.folders))) {
        // Deeper than the scan goes, or in a folder it does not walk (`node_modules`, `.git`):
        // what a rescan would not index, an event does not either.
        continue;
      }
      if (change.type !== FileChangeType.Deleted) {
        this.rescanEvents.told(uri);
      }
      if (change.type === FileChangeType.Deleted) {
        // What was kept of it (or of the files of a folder deleted) is no more.
        this.early?.forget(uri);
        this.fingerprints.delete(uri);
        // A read still under way of it, or of a file of a folder deleted, is dropped; a deleted
        // folder takes its digests with it. The reads started here settle after the deletions
        // below, so the batch keeps its order.
        dropOperationsIn(this.operations, [uri]);
        deleted.push(uri);
      } else if (isDigestUri(uri)) {
        this.early?.touch(uri);
        // A digest's name may now be a folder's (a file replaced by a folder): scan it then.
        reads.push(this.readInto(uri, this.nextOperation(uri), true).then((outcome) => (outcome === 'folder' ? this.scan([uri], false, anywhere) : undefined)));
      } else if (change.type === FileChangeType.Created) {
        // A folder moved or copied in brings its digests (looked at once the creations settle).
        reads.push(this.created.add(uri, anywhere));
      }
    }
    if (deleted.length > 0) {
      this.index.removeMany(deleted);
    }
    await Promise.all(reads);
    this.scheduleKeep(KEEP_DELAY_MS);
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

  /** Stops the pending timers; an index to keep is written now. */
  dispose(): void {
    this.pendingDocuments.dispose();
    this.created.dispose();
    clearTimeout(this.keepTimer);
    this.keepTimer = undefined;
    // Whatever was pending (a timer, a wait for the server to be idle, a write under way).
    this.writeKeptNow();
    this.disposed = true;
    // A write under way gives way (it would rename an older index over this one), and its
    // temporary file goes now: the process may end before that write does.
    this.keptStore?.abandon();
  }

  /** Whether a URI is inside a workspace folder (or the server has no folders at all). */
  inWorkspace(uri: string): boolean {
    return isInFolders(uri, this.folders);
  }

  /** Whether a URI is a workspace folder or in one (false when there is none). */
  private inAFolder(uri: string): boolean {
    return isInAFolder(uri, this.folders);
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
    let readFingerprint: FileFingerprint | undefined;
    let fingerprint: FileFingerprint | undefined;
    let racy = false;
    let hash: string | undefined;
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
        const begun = Date.now();
        const read = await readFileSnapshot(file, this.readOptions);
        const { bytes, snapshot } = read;
        const identity = fileIdentity(snapshot);
        if (await this.isAnotherName(identity, uri)) {
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
            readFingerprint = snapshot;
            // Kept for the next start only when what was read is what the fingerprint says.
            fingerprint = keepable(read, begun) ? snapshot : undefined;
            racy = fingerprint === undefined;
            if (racy || this.racy.has(uri)) hash = createHash('sha256').update(bytes).digest('base64');
            outcome = 'indexed';
          }
        }
      }
    } catch (error) {
      outcome = skipOf(error);
    }
    if (this.operations.get(uri) !== operation) {
      return 'superseded';
    }
    this.operations.delete(uri);
    if (text !== undefined && this.inWorkspace(uri)) {
      this.mtimes.set(uri, mtime!);
      if (fingerprint) {
        this.fingerprints.set(uri, fingerprint);
      } else {
        this.fingerprints.delete(uri);
      }
      const before = this.racy.get(uri);
      if (!before || before.hash !== hash || before.mtime !== mtime || before.summary === undefined || this.index.diskFile(uri) !== before.summary) {
        this.index.update(uri, text);
      }
      if (racy && this.keptStore) {
        this.racy.set(uri, { hash: hash!, mtime: mtime!, summary: this.index.diskFile(uri) });
      } else {
        this.racy.delete(uri);
      }
      // A file taken from the kept index: the early index has it as read from now on when it
      // changed meanwhile; when what was kept of it was wrong, the kept index is written again.
      if (this.early && readFingerprint && !this.early.read(uri, readFingerprint, this.index.diskFile(uri))) {
        this.keptSignature = undefined;
      }
      return outcome;
    }
    this.mtimes.delete(uri);
    this.fingerprints.delete(uri);
    this.racy.delete(uri);
    this.early?.forget(uri);
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

  /** Creations (not of digests) looked at once they settle, the outermost only (`CreationBatches`). */
  private readonly created = new CreationBatches((uris, anywhere) => Promise.all(uris.map((uri) => this.scanIfFolder(uri, anywhere))).then(() => undefined));

  /** Scans a folder created in the workspace; a link to a folder is never followed. */
  private async scanIfFolder(uri: string, anywhere: boolean): Promise<void> {
    try {
      const file = fileURLToPath(uri);
      if ((await fs.lstat(file)).isDirectory() && (await this.reallyInside(uri, file))) {
        // A folder moved in during the first scan is read after it: until then, the early index
        // would lack its digests, and the first level waits for the scan instead.
        this.early?.abandon();
        await this.scan([uri], false, anywhere);
      }
    } catch {
      // Gone already.
    }
  }

  private get limits(): ScanLimits {
    return this.options.limits ?? DEFAULT_SCAN_LIMITS;
  }

  private get readOptions(): { maxBytes: number; followSymlinks: false; hash: false } {
    return { maxBytes: this.limits.maxFileBytes, followSymlinks: false, hash: false };
  }

  /**
   * Scans folders one directory at a time, yielding to the event loop between files. The first
   * scan, where an index is kept between starts, first looks at what was kept (`readEarly`).
   * Folders are walked only while they are (or are in) a workspace folder; `anywhere`, a folder
   * a file event found (moved in, or a digest's name now a folder's) when no workspace folder was
   * open, while that is so (any file is in the workspace then).
   */
  private scan(folderUris: readonly string[], first = false, anywhere = false): Promise<void> {
    const previous = this.scanning;
    const store = first ? this.keptStore : undefined;
    let before = previous;
    if (store) {
      const early = new EarlyFiles(this.folders.slice());
      this.early = early;
      this.earlyRead = previous
        .then(() => this.readEarly(folderUris, store, early))
        .catch((error: unknown) => {
          this.early = undefined;
          this.options.log?.(message('logEarlyFailed', { reason: detailOf(error) }));
        });
      before = this.earlyRead.then(() => this.options.beforeFullScan?.());
    }
    this.scansRunning++;
    this.scanning = before
      .then(() => this.scanFolders(folderUris, undefined, anywhere))
      .catch((error: unknown) => {
        this.options.log?.(message('logScanFailed', { reason: detailOf(error) }));
      })
      .finally(() => {
        this.scansRunning--;
        this.early = undefined;
        this.scheduleKeep(KEEP_AFTER_SCAN_MS);
      });
    return this.scanning;
  }

  /**
   * Walks the folders and reads their digest files: only files not indexed yet, or, with
   * `seen`, every file (and `seen` collects their URIs).
   */
  private async scanFolders(folderUris: readonly string[], seen?: Set<string>, anywhere = false): Promise<void> {
    if (folderUris.length === 0) {
      // Folders removed, none added: nothing to read, and nothing to say ("indexed 0 digest files").
      return;
    }
    const started = Date.now();
    /** The papers of the files this scan indexed (as on disk: not an open document's unsaved ones). */
    let papers = 0;
    const { indexed, skipped, tooDeep, filesLeftOut, foldersLeftOut } = await this.walk(folderUris, async (uri) => {
      const outcome = seen || !this.index.hasOnDisk(uri) ? await this.readInto(uri, this.nextOperation(uri), false) : 'indexed';
      if (outcome === 'indexed') {
        seen?.add(uri);
        papers += this.index.diskFile(uri)?.papers.length ?? 0;
      }
      return outcome;
    }, anywhere);
    if (filesLeftOut) this.options.log?.(message('logFirstFilesOnly', { max: this.limits.maxFiles }));
    if (foldersLeftOut) this.options.log?.(message('logFirstFoldersOnly', { max: this.limits.maxDirectories }));
    if (tooDeep > 0) this.options.log?.(message('logTooDeep', { count: tooDeep, max: this.limits.maxDepth }));
    this.options.log?.(message('logIndexed', { files: indexed, papers, ms: Date.now() - started, skipped: skippedPart(skipped, SKIP_MESSAGES) }));
  }

  /**
   * Before the first scan: the digest files kept at the last start and unchanged since (the same
   * size, times and inode) into `early`, the others read for the Papers tree's first level only
   * (firstLevelRead.ts, with a worker thread when they are many: the first start has nothing
   * kept), in the order and within the limits of the scan, which then reads them all in full. A
   * file that cannot be read so is read in full now.
   */
  private async readEarly(folderUris: readonly string[], store: KeptIndexStore, early: EarlyFiles): Promise<void> {
    const started = Date.now();
    const reader = new FirstLevelReader({ maxBytes: this.limits.maxFileBytes, decode: this.options.decode ?? strictUtf8, part: this.firstLevelPart, log: this.options.log, cancelled: () => this.disposed });
    try {
      await this.readEarlyWith(folderUris, store, early, reader, started);
    } finally {
      reader.stop();
    }
  }

  private async readEarlyWith(folderUris: readonly string[], store: KeptIndexStore, early: EarlyFiles, reader: FirstLevelReader, started: number): Promise<void> {
    const kept = await store.read();
    // Nothing kept (the first start): the index is written after the scan, even of no file.
    this.keptSignature = kept ? keptSignature(kept.values()) : undefined;
    let unchanged = 0;
    /** The first URI the walk met each file (`dev:ino`) under. */
    const seenFiles = new Map<string, string>();
    const toRead: (FirstLevelTask & { identity: string })[] = [];
    let bytesToRead = 0;
    const { indexed } = await this.walk(folderUris, async (uri, file) => {
      let stat: import('node:fs').Stats;
      try {
        stat = await fs.lstat(file);
        // What the scan checks before it reads a file, so as not to keep what it would skip.
        if (stat.size > this.limits.maxFileBytes) {
          return 'too-big';
        }
        await fs.access(file, fsConstants.R_OK);
      } catch (error) {
        return skipOf(error);
      }
      const identity = fileIdentity(stat);
      const first = seenFiles.get(identity);
      if (first !== undefined) {
        // Another name of a file met before (the walk meets each name once), which the scan
        // indexes under that name, or under this one should that name go first.
        early.hasOtherNames(first);
        return 'another-name';
      }
      seenFiles.set(identity, uri);
      early.counted(uri);
      const known = kept?.get(uri);
      if (known && sameFingerprint(known.fingerprint, stat)) {
        early.keep(uri, known, identity);
        unchanged++;
      } else if (!this.index.hasOnDisk(uri)) {
        toRead.push({ uri, file, identity });
        bytesToRead += stat.size;
        // The worker starts while the walk goes on, once it is worth it.
        reader.expect(toRead.length, bytesToRead);
      }
      return 'indexed';
    });
    if (this.disposed) {
      return;
    }
    if (indexed >= this.limits.maxFiles) {
      // The walk counted the files read for the first level as the scan will index them: one
      // that cannot be read (or changes, or goes) may change which files the scan comes to.
      early.reachedLimit();
    }
    // Every file kept is met: from now on, a server that goes before the scan is done keeps them.
    this.keptMet = true;
    const { files: read, byWorker } = await reader.read(toRead, bytesToRead);
    let inFull = 0;
    /** Files read in full that are not digests after all (not UTF-8 text, gone, a folder now): not counted as digest files. */
    const skipped = new Map<SkipReason | 'folder', number>();
    for (const { uri, identity } of toRead) {
      const file = read.get(uri);
      if (this.disposed || this.index.hasOnDisk(uri)) {
        // Read meanwhile (a file event).
      } else if (file && fileIdentity(file.fingerprint) === identity) {
        // Kept for the next start (should the server go before the scan reads it) when written
        // long enough before this start.
        early.keep(uri, file, identity, writtenLongBefore(file.fingerprint.mtimeMs, started), this.firstLevelPart);
      } else {
        const outcome = await this.readInto(uri, this.nextOperation(uri), false);
        if (outcome === 'indexed' || outcome === 'superseded') {
          inFull++;
        } else {
          skipped.set(outcome, (skipped.get(outcome) ?? 0) + 1);
        }
      }
    }
    const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
    const others = toRead.length - inFull - skippedCount;
    const digests = indexed - skippedCount;
    const counts = {
      others,
      byWorker,
      inFull,
      ms: Date.now() - started,
      // A file that is a folder now is not a digest file: not listed.
      skipped: skippedPart(skipped, SKIP_MESSAGES),
    };
    // With nothing kept, every file is read: not 'others' beside those kept.
    this.options.log?.(kept ? message('logEarlyRead', { kept: message('logEarlyKept', { unchanged, digests }), ...counts }) : message('logEarlyReadNoneKept', { digests, ...counts }));
  }

  /**
   * Writes the index to keep after `delay` ms (soon after a scan, later after file events), once
   * the server is idle and no scan runs.
   */
  private scheduleKeep(delay: number): void {
    if (!this.keptStore || this.keepTimer !== undefined || this.disposed) {
      return;
    }
    this.keepTimer = setTimeout(() => {
      this.keepTimer = undefined;
      void (this.options.idle?.() ?? Promise.resolve())
        .then(() => this.readRacyAgain())
        .then(() => this.writeKept());
    }, delay);
  }

  /**
   * Reads again the digests read within two seconds of their last write (a file saved, or synced
   * in, while the server runs), once that write is two seconds old, so that their fingerprints
   * are kept: else the next start would read them all again. Those still too recent wait for the
   * next time the index is kept.
   */
  private async readRacyAgain(): Promise<void> {
    for (const uri of [...this.racy.keys()]) {
      if (this.disposed || this.scansRunning > 0) {
        return;
      }
      const age = Date.now() - (this.mtimes.get(uri) ?? Number.NaN);
      if (age >= RACY_MS) {
        await this.readInto(uri, this.nextOperation(uri), true);
      } else if (!(age > -RACY_MS)) {
        // Written in the future (another machine's clock), or gone: never old enough to keep.
        this.racy.delete(uri);
      }
    }
  }

  /** The digests read from disk as they are to be kept, and what they are as a string. */
  private keptFiles(): { files: KeptFile[]; signature: string } {
    const files: KeptFile[] = [];
    const uris = this.index.diskUris().sort();
    if (this.fingerprints.size > uris.length) {
      // Of files no more indexed (a folder removed).
      const indexed = new Set(uris);
      for (const uri of this.fingerprints.keys()) if (!indexed.has(uri)) this.fingerprints.delete(uri);
    }
    for (const uri of uris) {
      const summary = this.index.diskFile(uri);
      const fingerprint = this.fingerprints.get(uri);
      if (summary && fingerprint) {
        files.push({ summary, fingerprint });
      }
    }
    return { files, signature: keptSignature(files) };
  }

  /**
   * Writes the digests read from disk to the kept index, when they are not what it holds already:
   * made a file at a time with a turn of the event loop between files (100,000 papers take about
   * 100 ms), written at once.
   */
  private async writeKept(): Promise<void> {
    const store = this.keptStore;
    if (!store || this.scansRunning > 0 || this.writingKept || this.disposed) {
      return;
    }
    const { files, signature } = this.keptFiles();
    if (signature === this.keptSignature) {
      if (this.racy.size > 0) {
        this.scheduleKeep(KEEP_DELAY_MS);
      }
      return;
    }
    if (!store.writable()) {
      return;
    }
    this.writingKept = true;
    try {
      const writer = store.writer();
      for (const file of files) {
        writer.add(file);
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.disposed) {
          return;
        }
      }
      if (await store.writeAsync(writer, () => !this.disposed)) {
        this.keptSignature = signature;
      }
    } finally {
      this.writingKept = false;
    }
    // Files changed while it was made, or read too soon after their last write: again, later.
    if (this.keptFiles().signature !== signature || this.racy.size > 0) {
      this.scheduleKeep(KEEP_DELAY_MS);
    }
  }

  /** `writeKept` at once, all in one go: when the server goes. */
  private writeKeptNow(): void {
    const store = this.keptStore;
    if (!store) {
      return;
    }
    let { files, signature } = this.keptFiles();
    if (this.scansRunning > 0) {
      // While a scan runs, only the first, once its walk has met every file kept (what was kept
      // of the others would be lost), with the files it has not read yet as kept (or as read for
      // the first level).
      const early = this.early;
      if (!early || !this.keptMet) {
        return;
      }
      const unread = early.unread(this.index, (uri) => this.inWorkspace(uri), (identity, uri) => this.indexedUnderAnotherName(identity, uri));
      if (unread.length > 0) {
        files = [...files, ...unread].sort((a, b) => (a.summary.uri < b.summary.uri ? -1 : a.summary.uri > b.summary.uri ? 1 : 0));
        signature = keptSignature(files);
      }
    }
    if (signature !== this.keptSignature && store.writable()) {
      const writer = store.writer();
      files.forEach((file) => writer.add(file));
      if (store.write(writer)) {
        this.keptSignature = signature;
      }
    }
  }

  /**
   * Visits the digest files of the folders in order (directories by name, breadth first), within
   * the limits, yielding to the event loop between files: the regular files only (links and
   * special files are skipped); `visit` says what came of each.
   */
  private async walk(folderUris: readonly string[], visit: (uri: string, file: string) => Promise<ReadOutcome>, anywhere = false): Promise<WalkResult> {
    // Folders are walked while they are (or are in) a workspace folder; `anywhere`, a folder an
    // event found with no workspace folder open, while that is so.
    const inScope = (uri: string): boolean => (anywhere ? this.inWorkspace(uri) : this.inAFolder(uri));
    const limits = this.limits;
    let indexed = 0;
    let directories = 0;
    /** Folders not entered for their depth (one a nested workspace folder's walk enters is not counted at the end); whether a digest file was met past the file limit. */
    const tooDeep = new Set<string>();
    let filesLeftOut = false;
    let foldersLeftOut = false;
    const skipped = new Map<SkipReason, number>();
    const skip = (reason: SkipReason): void => {
      // Past the file limit the walk only looks for one more digest file: what it meets is not counted.
      if (indexed >= limits.maxFiles) return;
      skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    };
    // A workspace folder inside another is walked once, and each file met once: the folders
    // walked, at the least depth they were met at, and the files.
    const walkedAt = new Map<string, number>();
    const met = new Set<string>();
    for (const folderUri of folderUris) {
      // Removed since the scan was asked: not walked (with no folder left, `inWorkspace` takes
      // any file in). A file being read as it is removed is dropped (`dropOperationsIn`).
      if (!inScope(folderUri)) {
        continue;
      }
      let root: string;
      try {
        root = fileURLToPath(folderUri);
      } catch {
        continue;
      }
      if (filesLeftOut) {
        break;
      }
      // The folder itself may be reached through a link; nothing below it is. A folder an event
      // found is as deep as it lies below its workspace folder (a folder named `x.digest` too).
      const startDepth = this.depthBelowFolder(folderUri);
      if (startDepth > limits.maxDepth) {
        tooDeep.add(root);
        continue;
      }
      const queue: { dir: string; depth: number }[] = [{ dir: root, depth: startDepth }];
      // Past the file limit, the walk goes on only until it meets one more digest file: then the
      // files left out are said to be (and with exactly as many files as the limit, they are not).
      while (queue.length > 0 && !filesLeftOut && directories < limits.maxDirectories) {
        const { dir, depth } = queue.shift()!;
        if ((walkedAt.get(dir) ?? Infinity) <= depth) {
          continue;
        }
        walkedAt.set(dir, depth);
        directories++;
        let entries: import('node:fs').Dirent[];
        try {
          entries = await fs.readdir(dir, { withFileTypes: true });
        } catch {
          continue;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const undecodable = namesNotUtf8Async(dir);
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            // Not a folder whose name is not UTF-8: the name listed does not open it (it may open
            // another folder, whose name holds U+FFFD, met on its own).
            if (!SKIPPED_FOLDERS.has(entry.name) && !(await undecodable.take(entry))) {
              if (depth < limits.maxDepth) queue.push({ dir: full, depth: depth + 1 });
              else tooDeep.add(full);
            }
            continue;
          }
          if (!isDigestFileName(entry.name)) {
            // Not a digest; links to folders are never followed.
            continue;
          }
          if (await undecodable.take(entry)) {
            // Cannot be opened by the name the listing gives (not "gone").
            skip('name-not-utf8');
            continue;
          }
          if (met.has(full)) {
            // Met already, in a workspace folder this one is inside, or inside this one.
            continue;
          }
          met.add(full);
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
            filesLeftOut = true;
            break;
          }
          if (this.disposed) {
            return { indexed, skipped, tooDeep: 0, filesLeftOut, foldersLeftOut: false };
          }
          const outcome = await visit(fileUri(full), full);
          if (outcome === 'indexed') {
            indexed++;
          } else if (outcome === 'folder') {
            if (depth < limits.maxDepth) queue.push({ dir: full, depth: depth + 1 });
            else tooDeep.add(full);
          } else if (outcome !== 'superseded') {
            skip(outcome);
          }
          // Let requests and edits through between files.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (!inScope(folderUri)) {
            // The folder was removed meanwhile.
            queue.length = 0;
            break;
          }
        }
      }
      if (queue.length > 0 && directories >= limits.maxDirectories) {
        foldersLeftOut = true;
        break;
      }
    }
    // A folder too deep below one workspace folder may be walked from another inside it.
    let notWalked = 0;
    for (const dir of tooDeep) if (!walkedAt.has(dir)) notWalked++;
    return { indexed, skipped, tooDeep: notWalked, filesLeftOut, foldersLeftOut };
  }

  /** How many folders below its workspace folder a folder is (0 for the workspace folder itself, or with none). */
  private depthBelowFolder(uri: string): number {
    const folder = this.folderOf(uri);
    if (folder === undefined || folder === uri) {
      return 0;
    }
    try {
      const relative = path.relative(fileURLToPath(folder), fileURLToPath(uri));
      return relative === '' ? 0 : relative.split(path.sep).length;
    } catch {
      return 0;
    }
  }

  /** Whether a file event's digest or folder lies deeper below its workspace folder than the scan goes. */
  private beyondDepth(uri: string, isFolder: boolean): boolean {
    // A file is in the folder one level up; the scan enters folders up to `maxDepth` deep.
    return this.depthBelowFolder(uri) - (isFolder ? 0 : 1) > this.limits.maxDepth;
  }
}

/** What a walk came to: files indexed and skipped, folders not entered for their depth, and whether a limit left files or folders out. */
interface WalkResult {
  readonly indexed: number;
  readonly skipped: Map<SkipReason, number>;
  readonly tooDeep: number;
  readonly filesLeftOut: boolean;
  readonly foldersLeftOut: boolean;
}

/** Why reading a file failed, as a reason to skip it. */
function skipOf(error: unknown): SkipReason {
  const code = (error as NodeJS.ErrnoException).code;
  return error instanceof SafeFileError ? SKIP_OF_ERROR[error.code] : code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
}

/**
 * Whether a file as read may be kept for the next start by its fingerprint: unchanged while it
 * was read, and last written at least `RACY_MS` before the read `begun` (a file written again
 * within the same tick of a coarse clock, FAT's two seconds, keeps its time and may keep its
 * size). The change time is in the fingerprint but not judged here: a file whose contents were
 * written long ago and whose time was set since (`cp -p`, an archive unpacked) changes its
 * change time with any later write, where the clock is fine enough to tell.
 */
function keepable(read: ReadResult, begun: number): boolean {
  return read.steady && writtenLongBefore(read.snapshot.mtimeMs, begun);
}

/** Whether a file last written at `mtimeMs` was so at least `RACY_MS` before `begun`. */
function writtenLongBefore(mtimeMs: number, begun: number): boolean {
  return begun - mtimeMs >= RACY_MS;
}

/** Which file a stat is of (`dev:ino`): two names with the same are hard links of one file. */
function fileIdentity(stat: { readonly dev: number; readonly ino: number }): string {
  return `${stat.dev}:${stat.ino}`;
}

/** How long ago a file must have been written for its fingerprint to be kept. */
const RACY_MS = 2_000;

/** What a kept index holds, as a hash: its files and their fingerprints. */
function keptSignature(files: Iterable<KeptFile>): string {
  const parts: string[] = [];
  for (const { summary, fingerprint } of files) {
    // Not the device, as `sameFingerprint`: a network mount's changes are no change of the files.
    parts.push(`${summary.uri}\u0000${fingerprint.size}:${fingerprint.mtimeMs}:${fingerprint.ctimeMs}:${fingerprint.ino}`);
  }
  return createHash('sha256').update(parts.sort().join('\n')).digest('hex');
}

/** How long after files change the index is kept again, in ms. */
const KEEP_DELAY_MS = 5_000;
/** How long after a scan the index is kept, in ms: the answers the scan held up go first. */
const KEEP_AFTER_SCAN_MS = 1_000;

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
