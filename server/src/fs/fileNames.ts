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

/**
 * The entries of a folder whose names are not UTF-8, told apart as a walk meets them: `take(name)`
 * is true for a name, as the listing gave it, that stands for one of them (once for each), false
 * for the others (a name that does hold U+FFFD is a name). The folder is listed again, as bytes,
 * the first time a name with U+FFFD is met.
 *
 * @example
 * const undecodable = namesNotUtf8(folder);
 * for (const entry of fs.readdirSync(folder)) if (undecodable.take(entry)) report(entry);
 */
export function namesNotUtf8(folder: string): { take(name: string): boolean } {
  let counts: Map<string, number> | undefined;
  return {
    take: (name) => {
      if (!name.includes(REPLACEMENT)) {
        return false;
      }
      counts ??= countNotUtf8(listedAsBytes(folder));
      return takeOne(counts, name);
    },
  };
}

/** `namesNotUtf8`, without blocking the thread. */
export function namesNotUtf8Async(folder: string): { take(name: string): Promise<boolean> } {
  let counts: Promise<Map<string, number>> | undefined;
  return {
    take: async (name) => {
      if (!name.includes(REPLACEMENT)) {
        return false;
      }
      counts ??= fs.promises.readdir(folder, { encoding: 'buffer' }).then(countNotUtf8, () => new Map<string, number>());
      return takeOne(await counts, name);
    },
  };
}

function listedAsBytes(folder: string): Buffer[] {
  try {
    return fs.readdirSync(folder, { encoding: 'buffer' });
  } catch {
    return [];
  }
}

/** The names that are not UTF-8, as text, by how many there are of each. */
function countNotUtf8(names: readonly Buffer[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) {
    if (!isUtf8(name)) {
      const text = name.toString('utf8');
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  }
  return counts;
}

function takeOne(counts: Map<string, number>, name: string): boolean {
  const left = counts.get(name) ?? 0;
  if (left === 0) {
    return false;
  }
  counts.set(name, left - 1);
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
