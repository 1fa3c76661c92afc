/**
 * File names that are not UTF-8. A folder's listing gives each name as text: bytes that are not
 * UTF-8 (a name written on another system, or in another encoding) come out as U+FFFD, and no
 * file has the name so made, so the file cannot be opened by it. Such a file is named as what it
 * is (the command line says to rename it, the workspace scan counts it), not as gone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The character a listing puts for bytes that are not UTF-8. */
const REPLACEMENT = '\ufffd';

/**
 * Whether `name`, as a listing of `folder` gave it, is not the file's name (its name is not
 * UTF-8): it has U+FFFD and no file of the folder has it. A name that does hold U+FFFD is a name.
 *
 * @example nameNotUtf8('/w', 'caf\ufffd.digest') // true when the file's name is `caf` and the byte 0xE9
 */
export function nameNotUtf8(folder: string, name: string): boolean {
  if (!name.includes(REPLACEMENT)) {
    return false;
  }
  try {
    fs.lstatSync(path.join(folder, name));
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** `nameNotUtf8`, without blocking the thread. */
export async function nameNotUtf8Async(folder: string, name: string): Promise<boolean> {
  if (!name.includes(REPLACEMENT)) {
    return false;
  }
  try {
    await fs.promises.lstat(path.join(folder, name));
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
