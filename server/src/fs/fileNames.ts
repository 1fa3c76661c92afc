/**
 * File names that are not UTF-8. A folder's listing gives each name as text: bytes that are not
 * UTF-8 (a name written on another system, or in another encoding) come out as U+FFFD, and the
 * name so made is not the file's, so the file cannot be opened by it (or another file, whose name
 * holds U+FFFD, is). Such a file is named as what it is (the command line says to rename it, the
 * workspace scan counts it), not as gone, and not read as another.
 */
import * as fs from 'node:fs';

/** The character a listing puts for bytes that are not UTF-8. */
const REPLACEMENT = '\ufffd';

/** What a listing says an entry is, as far as telling two entries of one name apart goes. */
type EntryKind = 'folder' | 'link' | 'file' | 'other';

/** An entry of a listing, as text (`fs.Dirent`). */
interface ListedEntry {
  readonly name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFile(): boolean;
}

function kindOf(entry: { isDirectory(): boolean; isSymbolicLink(): boolean; isFile(): boolean }): EntryKind {
  return entry.isDirectory() ? 'folder' : entry.isSymbolicLink() ? 'link' : entry.isFile() ? 'file' : 'other';
}

/**
 * The entries of a folder whose names are not UTF-8, told apart as a walk meets them:
 * `take(entry)` is true for an entry, as the listing gave it, that stands for one of them (once
 * for each such name and kind: a folder, a link, a file), false for the others (a name that does
 * hold U+FFFD is a name). The folder is listed again, as bytes, the first time a name with U+FFFD
 * is met. Two entries of one kind and one name as listed are the same to the walk (the name opens
 * the one whose name it is): which of them is taken does not matter.
 *
 * @example
 * const undecodable = namesNotUtf8(folder);
 * for (const entry of fs.readdirSync(folder, { withFileTypes: true })) if (undecodable.take(entry)) report(entry.name);
 */
export function namesNotUtf8(folder: string): { take(entry: ListedEntry): boolean } {
  let counts: Map<string, number> | undefined;
  return {
    take: (entry) => {
      if (!entry.name.includes(REPLACEMENT)) {
        return false;
      }
      counts ??= countNotUtf8(listedAsBytes(folder));
      return takeOne(counts, entry);
    },
  };
}

/** `namesNotUtf8`, without blocking the thread. */
export function namesNotUtf8Async(folder: string): { take(entry: ListedEntry): Promise<boolean> } {
  let counts: Promise<Map<string, number>> | undefined;
  return {
    take: async (entry) => {
      if (!entry.name.includes(REPLACEMENT)) {
        return false;
      }
      counts ??= fs.promises.readdir(folder, { withFileTypes: true, encoding: 'buffer' }).then(countNotUtf8, () => new Map<string, number>());
      return takeOne(await counts, entry);
    },
  };
}

function listedAsBytes(folder: string): fs.Dirent<Buffer>[] {
  try {
    return fs.readdirSync(folder, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return [];
  }
}

/** The entries whose names are not UTF-8, by kind and name as text, how many of each. */
function countNotUtf8(entries: readonly fs.Dirent<Buffer>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const name = entry.name as unknown as Buffer;
    if (!isUtf8(name)) {
      const key = kindOf(entry) + '/' + name.toString('utf8');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

function takeOne(counts: Map<string, number>, entry: ListedEntry): boolean {
  const key = kindOf(entry) + '/' + entry.name;
  const left = counts.get(key) ?? 0;
  if (left === 0) {
    return false;
  }
  counts.set(key, left - 1);
  return true;
}

const STRICT = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    STRICT.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a path given as text (a command-line argument) may name a file whose name is not
 * UTF-8: it holds U+FFFD, which such a name comes out as.
 */
export function mayBeNotUtf8(text: string): boolean {
  return text.includes(REPLACEMENT);
}
