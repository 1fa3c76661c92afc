/**
 * The Node implementation of `StateDisk`: the state file `<folder>/.paper-digest/state.json`,
 * read synchronously (it is small) and replaced atomically — a temporary file in the same
 * folder, flushed, given the old file's mode, then renamed over it — and only when the file is
 * still what the store last read. The file is never written through a link: when
 * `.paper-digest` or `state.json` is a symbolic link, or the folder resolves outside the
 * workspace folder, the store is refused (read-only).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StateDisk } from './service/reading/stateStore';

export const STATE_FOLDER = '.paper-digest';
export const STATE_FILE = 'state.json';
export const INTERESTS_FILE = 'interests.json';

/** State files bigger than this are not read (a state file of 100,000 papers is about 20 MB). */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/**
 * @example
 * const disk = new NodeStateDisk('/home/me/papers');
 * disk.read();                 // the text of /home/me/papers/.paper-digest/state.json, or undefined
 * disk.write(text, previous);  // false if someone changed it since `previous` was read
 */
export class NodeStateDisk implements StateDisk {
  readonly folder: string;
  readonly file: string;

  constructor(readonly root: string) {
    this.folder = path.join(root, STATE_FOLDER);
    this.file = path.join(this.folder, STATE_FILE);
  }

  get location(): string {
    return this.file;
  }

  read(): string | undefined {
    this.checkNoLinks();
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
    if (!stat.isFile()) {
      throw new Error('it is not a file');
    }
    if (stat.size > MAX_STATE_BYTES) {
      throw new Error(`it is bigger than ${MAX_STATE_BYTES / 1024 / 1024} MB`);
    }
    return fs.readFileSync(this.file, 'utf8');
  }

  write(text: string, expected: string | undefined): boolean {
    this.checkNoLinks();
    fs.mkdirSync(this.folder, { recursive: true });
    this.checkNoLinks();
    let mode = 0o644;
    try {
      mode = fs.statSync(this.file).mode & 0o7777;
    } catch {
      // A new file.
    }
    const temporary = path.join(this.folder, `.${STATE_FILE}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
    const descriptor = fs.openSync(temporary, 'wx', mode);
    try {
      try {
        fs.writeFileSync(descriptor, text, 'utf8');
        fs.fchmodSync(descriptor, mode);
        fs.fsyncSync(descriptor);
      } finally {
        fs.closeSync(descriptor);
      }
      // The last look before the rename: someone else's change since our read wins a retry.
      if (this.currentText() !== expected) {
        fs.rmSync(temporary, { force: true });
        return false;
      }
      fs.renameSync(temporary, this.file);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw error;
    }
    return true;
  }

  private currentText(): string | undefined {
    try {
      return fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }

  /** Refuses a state folder or file that is a link (it could point out of the workspace folder). */
  private checkNoLinks(): void {
    for (const each of [this.folder, this.file]) {
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(each);
      } catch {
        continue;
      }
      if (stat.isSymbolicLink()) {
        throw new Error(`${each} is a symbolic link, which Paper Digest does not follow`);
      }
    }
  }
}

/** The text of `<root>/.paper-digest/interests.json`, or undefined when there is none (or it is a link). */
export function readInterestsFile(root: string): string | undefined {
  const file = path.join(root, STATE_FOLDER, INTERESTS_FILE);
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || stat.size > 1024 * 1024) {
      return undefined;
    }
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
