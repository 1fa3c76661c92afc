/**
 * Which files are digests and which URIs lie in the workspace folders, shared by the Node
 * server's disk scan (workspace.ts), the client-backed workspace of the web extension
 * (clientWorkspace.ts) and the client's file search and watcher, so that all of them take the
 * same files. No Node imports: the browser bundle uses it.
 */
import { decodeUriText } from './service/text';

/** The endings of a digest's file name, lower-case; a name matches them in any case. */
const DIGEST_ENDINGS = ['.digest', '.digest.txt'] as const;

/**
 * Whether a file name is a digest's: `*.digest` or `*.digest.txt`, in any case.
 *
 * @example
 * isDigestFileName('notes.DIGEST.txt') // true
 * isDigestFileName('a.digest.bak')     // false
 */
export function isDigestFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return DIGEST_ENDINGS.some((ending) => lower.endsWith(ending));
}

/** Whether a URI's last segment is a digest's file name. */
export function isDigestUri(uri: string): boolean {
  return isDigestFileName(uri.slice(uri.lastIndexOf('/') + 1));
}

/** A glob segment matching one ending in any case: `.digest` → `.[dD][iI][gG][eE][sS][tT]`. */
function anyCase(ending: string): string {
  return ending.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

/**
 * The glob of the digest files below a folder, in any case, for `vscode.workspace.findFiles`
 * and file watchers, whose globs match case-sensitively: the same names as `isDigestFileName`.
 * Below any folder, a name ending in `{.[dD][iI][gG][eE][sS][tT],.[dD]…[tT][xX][tT]}`.
 */
export const DIGEST_FILE_GLOB = `**/*{${DIGEST_ENDINGS.map(anyCase).join(',')}}`;

/** Whether a URI is a folder's URI or lies below it. */
export function isInFolder(uri: string, folder: string): boolean {
  return uri === folder || uri.startsWith(folder.endsWith('/') ? folder : folder + '/');
}

/**
 * The workspace folders less those removed, each removed once: a folder given twice (or as two
 * spellings of one URI, once canonical) and removed once stays a folder once.
 *
 * @example withoutFolders(['file:///w', 'file:///w'], ['file:///w']) // ['file:///w']
 */
export function withoutFolders(folders: readonly string[], removed: readonly (string | undefined)[]): string[] {
  const remaining = [...folders];
  for (const uri of removed) {
    const at = uri === undefined ? -1 : remaining.indexOf(uri);
    if (at >= 0) remaining.splice(at, 1);
  }
  return remaining;
}

/** The folders a scan does not walk, wherever they are. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Whether a URI lies in a folder the scan does not walk (`node_modules`, `.git`) below its
 * workspace folder (below the root, with no workspace folder), or is such a folder: what a file
 * event tells of it is not indexed, as the scan would not index it. A digest named `.git` is
 * still one.
 *
 * @example inSkippedFolder('file:///w/node_modules/p/a.digest', ['file:///w']) // true
 * @example inSkippedFolder('file:///w/node_modules/a.digest', ['file:///w/node_modules']) // false
 */
export function inSkippedFolder(uri: string, folders: readonly string[]): boolean {
  let base = '';
  for (const folder of folders) {
    if (isInFolder(uri, folder) && folder.length > base.length) base = folder;
  }
  const parts = uri.slice(base.length).split('/');
  const skipped = (part: string): boolean => SKIPPED_FOLDERS.has(decodeUriText(part));
  return parts.slice(0, -1).some(skipped) || (!isDigestUri(uri) && skipped(parts[parts.length - 1]));
}

/** Whether a URI lies in one of the workspace folders (or there are no folders at all). */
export function isInFolders(uri: string, folders: readonly string[]): boolean {
  return folders.length === 0 || isInAFolder(uri, folders);
}

/** Whether a URI is one of the folders or lies below one (false when there is none). */
export function isInAFolder(uri: string, folders: readonly string[]): boolean {
  return folders.some((folder) => isInFolder(uri, folder));
}

/**
 * What a change of the workspace folders from `before` to `after` asks of a scan: the folders
 * gone (their files forgotten), and those to scan, the new ones and those that stay and hold a
 * folder gone or lie within one (nested folders: scanned again, so that they keep the files they
 * hold, and only those their own scan takes).
 *
 * @example folderChange(['file:///w', 'file:///w/sub'], ['file:///w']) // { gone: ['file:///w/sub'], scan: ['file:///w'] }
 */
export function folderChange(before: readonly string[], after: readonly string[]): { gone: string[]; scan: string[] } {
  const gone = before.filter((folder) => !after.includes(folder));
  const added = after.filter((folder) => !before.includes(folder));
  const overlapping = after.filter((folder) => before.includes(folder) && gone.some((old) => isInFolder(folder, old) || isInFolder(old, folder)));
  return { gone, scan: [...added, ...overlapping] };
}

/**
 * Forgets the reads under way below folders removed from the workspace (`operations`: the
 * latest operation on each URI): a read that finds its operation gone is dropped, not put in the
 * index the folder's files just left.
 */
export function dropOperationsIn(operations: Map<string, number>, gone: readonly string[]): void {
  if (gone.length === 0) return;
  for (const uri of [...operations.keys()]) {
    if (isInAFolder(uri, gone)) operations.delete(uri);
  }
}

/**
 * What file events read or scan while rescans run, so that a rescan forgets only the files it
 * neither read nor saw an event read (a digest written while it runs, whose own read gave way to
 * the event's, is not forgotten). Both workspaces' `rescan` and `filesChanged` use it.
 *
 * @example
 * const gone = await events.rescan(() => scanFolders(folders, seen), () => index.diskUris(), seen, inWorkspace);
 * index.removeMany(gone);
 */
export class RescanEvents {
  /** The URIs (files, folders) told by events during each rescan under way. */
  private readonly watching = new Set<Set<string>>();

  /** A file or folder an event reads or scans now. */
  told(uri: string): void {
    for (const touched of this.watching) touched.add(uri);
  }

  /**
   * Runs a rescan (`scan`, which puts each file it reads in `seen`), and gives the files of
   * `diskUris` in the workspace then that it did not read and no event told, nor one of their
   * folders: those that are gone.
   */
  async rescan(scan: () => Promise<unknown>, diskUris: () => readonly string[], seen: ReadonlySet<string>, inWorkspace: (uri: string) => boolean): Promise<string[]> {
    const touched = new Set<string>();
    this.watching.add(touched);
    try {
      await scan();
    } finally {
      this.watching.delete(touched);
    }
    const told = [...touched];
    return diskUris().filter((uri) => !seen.has(uri) && inWorkspace(uri) && !told.some((each) => isInFolder(uri, each)));
  }
}

/** Creations are looked at once none came for this long (`CreationBatches`)… */
const CREATED_SETTLE_MS = 100;
/** …or this long after the first of them, while they keep coming. */
const CREATED_MAX_WAIT_MS = 1_000;

/**
 * What file events say was created (not digests: folders, maybe, that hold some), looked at
 * once the creations settle (none for `CREATED_SETTLE_MS`, or `CREATED_MAX_WAIT_MS` after the
 * first), and then only the outermost of them: a tree of thousands of folders and files written
 * one by one (a virtual environment, a build) is walked once, not once per folder of its depth,
 * whatever batches the events come in. `add` settles when what it added was looked at.
 *
 * @example
 * const created = new CreationBatches((uris) => scanFolders(uris));
 * await Promise.all([created.add('file:///w/env'), created.add('file:///w/env/lib')]); // scans file:///w/env once
 */
export class CreationBatches {
  private batch: { uris: Set<string>; anywhere: boolean; firstAt: number; settled: Promise<void>; done: () => void; timer: ReturnType<typeof setTimeout> | undefined } | undefined;

  constructor(private readonly look: (uris: string[], anywhere: boolean) => Promise<void>) {}

  add(uri: string, anywhere = false): Promise<void> {
    let batch = this.batch;
    if (!batch) {
      let done!: () => void;
      const settled = new Promise<void>((resolve) => (done = resolve));
      batch = this.batch = { uris: new Set(), anywhere, firstAt: Date.now(), settled, done, timer: undefined };
    }
    batch.uris.add(uri);
    batch.anywhere ||= anywhere;
    clearTimeout(batch.timer);
    const current = batch;
    const wait = Math.max(0, Math.min(CREATED_SETTLE_MS, current.firstAt + CREATED_MAX_WAIT_MS - Date.now()));
    current.timer = setTimeout(() => {
      if (this.batch === current) this.batch = undefined;
      this.look(outermost(current.uris), current.anywhere).then(current.done, current.done);
    }, wait);
    return current.settled;
  }

  /** Looks at nothing more; what waits settles. */
  dispose(): void {
    const batch = this.batch;
    this.batch = undefined;
    clearTimeout(batch?.timer);
    batch?.done();
  }
}

/**
 * The URIs of a set that lie in no other of them: the outermost of what was created.
 *
 * @example outermost(new Set(['file:///w/a', 'file:///w/a/b', 'file:///w/a-b'])) // ['file:///w/a', 'file:///w/a-b']
 */
export function outermost(uris: ReadonlySet<string>): string[] {
  return [...uris].filter((uri) => {
    for (let at = uri.lastIndexOf('/'); at > 0; at = uri.lastIndexOf('/', at - 1)) {
      if (uris.has(uri.slice(0, at))) return false;
    }
    return true;
  });
}
