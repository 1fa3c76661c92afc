/**
 * While the first scan of a start runs: the digest files taken from the index kept at the last
 * start (service/keptIndex.ts) because they are unchanged since, and what happened to the files
 * meanwhile, made into an index of the workspace as the scan will find it (workspace.ts
 * `earlyIndex`), for the Papers tree's first level.
 */
import { FileFingerprint, KeptFile, sameFingerprint } from './service/keptIndex';
import type { FileSummary, FirstLevelPart, InstitutionSummary } from './service/workspaceIndex';
import { firstLevelPartCovers, WorkspaceIndex } from './service/workspaceIndex';

/**
 * A file taken from the kept index (or read for the first level at this start), which file it is
 * (`dev:ino`, for other names of it), whether it may be kept for the next start as it is, and
 * what of its papers it has (`FirstLevelPart`: `all` when kept).
 */
interface KeptHit extends KeptFile {
  readonly identity: string;
  readonly keepable: boolean;
  readonly part: FirstLevelPart;
}

export class EarlyFiles {
  private readonly kept = new Map<string, KeptHit>();
  /** Files and folders deleted, or found unreadable, since the start. */
  private readonly gone = new Set<string>();
  /** Files changed since the start: the index has them once read again. */
  private readonly changed = new Set<string>();
  /** The early index last made, of these parts (one a file, by URI), numbered by URI in `at`. */
  private last: { parts: FileSummary[]; at: Map<string, number>; index: WorkspaceIndex } | undefined;
  private abandonedValue = false;
  /** Whether the walk stopped at the scan's limit of files (`reachedLimit`). */
  private atLimit = false;
  /** The files the walk before the scan counted towards the scan's limit of files (`counted`). */
  private readonly countedFiles = new FilesAndFolders();
  /** Files the walk met under other names too (hard links), by the name met first (`hasOtherNames`). */
  private readonly linked = new FilesAndFolders();
  /** What the files read for the first level at this start have of their papers (`all` until one has less). */
  private readPart: FirstLevelPart = 'all';

  /** `folders`: the workspace folders the first scan walks. */
  constructor(readonly folders: readonly string[]) {}

  /** Whether the files of the kept index no longer tell what the scan will find (`abandon`). */
  get abandoned(): boolean {
    return this.abandonedValue;
  }

  /** What the scan will find cannot be told before it is done (a folder moved in meanwhile). */
  abandon(): void {
    this.abandonedValue = true;
  }

  /** A file the walk before the scan counted as one the scan will index. */
  counted(uri: string): void {
    this.countedFiles.add(uri);
  }

  /**
   * The walk before the scan stopped at the scan's limit of files. A digest that changes or is
   * made, or a file counted that goes, since the start (or from now on) may change which files
   * the scan comes to (it counts the files it indexes): the early index is then given up
   * (`abandon`).
   */
  reachedLimit(): void {
    this.atLimit = true;
    if (this.changed.size > 0 || [...this.gone].some((uri) => this.countedFiles.holds(uri))) {
      this.abandon();
    }
  }

  /**
   * A file found as the kept index has it, or read for the first level; `keepable`: whether it
   * may be kept for the next start as it is (read long enough after its last write); `part`: what
   * of its papers was read (a file read for one grouping only is never kept for the next start).
   */
  keep(uri: string, kept: KeptFile, identity: string, keepable = true, part: FirstLevelPart = 'all'): void {
    if (part !== 'all') this.readPart = part;
    this.kept.set(uri, { ...kept, identity, keepable: keepable && part === 'all', part });
  }

  /**
   * Whether the early index gives the first level of a grouping that needs `wanted` of each
   * paper: the files read for the first level at this start were read for it (or for all).
   */
  covers(wanted: FirstLevelPart): boolean {
    return firstLevelPartCovers(this.readPart, wanted);
  }

  /**
   * The walk met the file of `uri` under another name after it (a hard link), which it leaves to
   * `uri`. Should `uri` go or change (a file saved anew under it is another file), the scan
   * indexes the file under the other name, which nothing here has read: the early index is then
   * given up (`abandon`).
   */
  hasOtherNames(uri: string): void {
    this.linked.add(uri);
    if (this.changed.has(uri) || this.isGone(uri)) this.abandon();
  }

  /** A file or folder deleted, or a file that cannot be read (any more). */
  forget(uri: string): void {
    this.gone.add(uri);
    if (!this.abandonedValue && ((this.atLimit && this.countedFiles.holds(uri)) || this.linked.holds(uri))) this.abandon();
  }

  /** A file changed: what was kept of it stands until the index has it as read again. */
  touch(uri: string): void {
    this.changed.add(uri);
    if (this.atLimit || this.linked.hasFile(uri)) this.abandon();
  }

  /**
   * A file the index read, as `summary`, with this fingerprint, when it was taken from the kept
   * index (or read for the first level): the index has it from now on. When it is no longer what
   * was kept (it changed with no event yet), or what was kept of it is not what the file says
   * (then false: the kept index is to be written again), it counts as changed.
   */
  read(uri: string, fingerprint: FileFingerprint, summary: FileSummary | undefined): boolean {
    const hit = this.kept.get(uri);
    if (!hit) {
      return true;
    }
    const same = sameFingerprint(hit.fingerprint, fingerprint);
    const right = summary !== undefined && sameFirstLevel(hit.summary, summary, hit.part);
    if (!same || !right) {
      this.changed.add(uri);
    } else {
      // Read as kept: the index has it from now on, and what was kept of it is let go, so that
      // the scan does not hold the workspace twice; the early index made of it takes the file as
      // read (the same first level), and stays the one the next request gets.
      this.kept.delete(uri);
      const last = this.last;
      const at = last?.at.get(uri);
      if (last && at !== undefined && last.parts[at] === hit.summary && summary) {
        last.parts[at] = summary;
        last.index.adopt(summary);
      }
    }
    return !same || right;
  }

  /**
   * The files kept (or read for the first level) that the index has not read yet and that may
   * be kept as they are: neither gone nor changed, in the workspace, not another name of a file
   * the index has. What the kept index is to hold of them when the server goes before the scan
   * is done.
   */
  unread(index: WorkspaceIndex, inWorkspace: (uri: string) => boolean, anotherName: (identity: string, uri: string) => boolean): KeptFile[] {
    const files: KeptFile[] = [];
    for (const [uri, hit] of this.kept) {
      if (hit.keepable && !index.hasOnDisk(uri) && !this.changed.has(uri) && !this.isGone(uri) && inWorkspace(uri) && !anotherName(hit.identity, uri)) {
        files.push({ summary: hit.summary, fingerprint: hit.fingerprint });
      }
    }
    return files;
  }

  /**
   * The index of the workspace as the scan will find it: for each file, the open document, else
   * (when neither gone, changed and read again, nor another name of a file the index has) the
   * file as kept, else the file as the index has it. The same index while nothing of that changes.
   *
   * @param index what the scan and the events have read so far, and the open documents
   * @param inWorkspace whether a URI is in a workspace folder now
   * @param anotherName whether a file (`dev:ino`) is indexed under another URI
   */
  index(index: WorkspaceIndex, inWorkspace: (uri: string) => boolean, anotherName: (identity: string, uri: string) => boolean): WorkspaceIndex {
    const parts: FileSummary[] = [];
    const uris = new Set<string>(this.kept.keys());
    for (const file of index.files()) uris.add(file.uri);
    for (const uri of [...uris].sort()) {
      const read = index.file(uri);
      const hit = this.kept.get(uri);
      if (read?.source === 'open') {
        parts.push(read);
      } else if (hit && !(read && this.changed.has(uri)) && !this.isGone(uri) && inWorkspace(uri) && !anotherName(hit.identity, uri)) {
        parts.push(hit.summary);
      } else if (read) {
        parts.push(read);
      }
    }
    const last = this.last;
    if (last && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) {
      return last.index;
    }
    const early = new WorkspaceIndex();
    for (const part of parts) {
      early.adopt(part);
    }
    this.last = { parts, at: new Map(parts.map((part, i) => [part.uri, i])), index: early };
    return early;
  }

  /** Whether the file, or a folder it is in, is gone: linear in the depth of its path. */
  private isGone(uri: string): boolean {
    if (this.gone.size === 0) {
      return false;
    }
    for (let end = uri.length; end > 0; end = uri.lastIndexOf('/', end - 1)) {
      if (this.gone.has(uri.slice(0, end))) {
        return true;
      }
    }
    return false;
  }
}

/**
 * Whether two summaries of a file give the Papers tree's first level the same (what a kept file
 * has; of `part`, what `a` was read for).
 */
function sameFirstLevel(a: FileSummary, b: FileSummary, part: FirstLevelPart): boolean {
  if (a.heading !== b.heading || a.papers.length !== b.papers.length) {
    return false;
  }
  const sameList = <T>(x: readonly T[], y: readonly T[], same: (p: T, q: T) => boolean = (p, q) => p === q): boolean => x.length === y.length && x.every((each, i) => same(each, y[i]));
  const sameInstitution = (x: InstitutionSummary, y: InstitutionSummary): boolean => x.name === y.name && x.translation === y.translation;
  return a.papers.every((paper, i) => {
    const other = b.papers[i];
    return (
      paper.key === other.key &&
      paper.titleKey === other.titleKey &&
      paper.entryIndex === other.entryIndex &&
      (!firstLevelPartCovers(part, 'topic') || paper.topic === other.topic) &&
      (part !== 'all' || sameList(paper.keywords, other.keywords)) &&
      (!firstLevelPartCovers(part, 'categories') || sameList(paper.categories, other.categories)) &&
      (!firstLevelPartCovers(part, 'institutions') || sameList(paper.institutions, other.institutions, sameInstitution))
    );
  });
}

/**
 * File URIs, and the folders that hold them at every depth: whether a URI deleted is one of the
 * files or a folder holding one is a look-up, not a pass over the files.
 */
class FilesAndFolders {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();

  add(uri: string): void {
    this.files.add(uri);
    for (let end = uri.lastIndexOf('/'); end > 0; end = uri.lastIndexOf('/', end - 1)) {
      const folder = uri.slice(0, end);
      // Its own folders are there already.
      if (this.folders.has(folder)) break;
      this.folders.add(folder);
    }
  }

  hasFile(uri: string): boolean {
    return this.files.has(uri);
  }

  /** Whether `uri` is one of the files, or a folder holding one. */
  holds(uri: string): boolean {
    return this.files.has(uri) || this.folders.has(uri);
  }
}
