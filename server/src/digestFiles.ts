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
