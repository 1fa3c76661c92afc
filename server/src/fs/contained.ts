/**
 * Where a path really is: real paths and whether one lies inside a folder, so that neither the
 * workspace scan nor the command line follows a link out of the folder it was given.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Whether `child` is `root` or below it; both real (or both logical) absolute paths. */
export function isInside(root: string, child: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..' + path.sep) && relative !== '..' && !path.isAbsolute(relative));
}

/** The real path (links resolved), or undefined when it cannot be resolved (dangling, gone). */
export function realPathSync(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** `realPathSync` without blocking. */
export async function realPath(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.realpath(file);
  } catch {
    return undefined;
  }
}
