import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';

/** The temporary folders of one test file, removed once its tests are done. */
export interface TemporaryFolders {
  /** Makes a new empty folder under the system's temporary folder, named from the prefix. */
  make(prefix: string): string;
  /** Removes the folder (made elsewhere) with the others; returns it. */
  keep(root: string): string;
}

/** Call at the top level of a test file: the folders it gives out are removed after its tests. */
export function temporaryFolders(): TemporaryFolders {
  const roots: string[] = [];
  after(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));
  const keep = (root: string): string => {
    roots.push(root);
    return root;
  };
  return { keep, make: (prefix) => keep(fs.mkdtempSync(path.join(os.tmpdir(), prefix))) };
}
