/**
 * The client-backed `AsyncStateDisk`: the state file of a workspace folder read and written
 * through the client's `workspace.fs` (stateFilesProtocol.ts), for the web extension's server.
 * It remembers the version of what it read last, so that a write names the version it
 * replaces: the client refuses it when the file changed meanwhile, and the store then reads,
 * merges and tries again (stateStore.ts). Nothing is ever written over a change it has not read.
 */
import { message, MessageError, MessageRef } from './service/cliMessages';
import type { AsyncStateDisk } from './service/reading/stateStore';
import { emptyJustNow, MAX_STATE_BYTES } from './service/reading/stateFile';
import type { ReadStateFileResult, StateFileProblemResult, StateFileVersion, WriteStateFileResult } from './stateFilesProtocol';
import { withoutTrailingSlashes } from './service/text';

/** The two requests, or a test's own file. */
export interface StateFileSource {
  readStateFile(uri: string, maxBytes: number): Promise<ReadStateFileResult>;
  writeStateFile(uri: string, text: string, expected: StateFileVersion | null): Promise<WriteStateFileResult>;
}

/** State files bigger than this are not read (as the Node disk's limit, stateDisk.ts). */

/** `<folder>/.paper-digest/<name>` of a folder URI, whatever its scheme. */
export function folderFileUri(folder: string, name: string): string {
  return `${withoutTrailingSlashes(folder)}/.paper-digest/${name}`;
}

/**
 * @example
 * const disk = new ClientStateDisk('vscode-vfs://github/me/papers', source);
 * await disk.read();                // the text of .../.paper-digest/state.json, or undefined
 * await disk.write(text, previous); // false when the file is no longer `previous`
 */
export class ClientStateDisk implements AsyncStateDisk {
  readonly asynchronous = true;
  readonly location: string;
  private last: { readonly text: string; readonly version: StateFileVersion } | undefined;

  constructor(
    folder: string,
    private readonly source: StateFileSource,
    /** The time now, in milliseconds (tests give another). */
    private readonly now: () => number = Date.now,
  ) {
    this.location = folderFileUri(folder, 'state.json');
  }

  async read(): Promise<string | undefined> {
    const read = await this.readNow();
    this.last = read;
    // As the Node disk: an empty file changed a moment ago is being written, not an empty state.
    const justNow = read && emptyJustNow(read.text, read.version.mtime, this.now());
    if (justNow) {
      throw new MessageError(justNow);
    }
    return read?.text;
  }

  async write(text: string, expected: string | undefined): Promise<boolean> {
    let version: StateFileVersion | null;
    if (expected === undefined) {
      version = null;
    } else if (this.last && this.last.text === expected) {
      version = this.last.version;
    } else {
      // Not what was read last: compare with the file as it is now.
      const now = await this.readNow();
      if (now?.text !== expected) {
        return false;
      }
      version = now.version;
    }
    const result = await this.source.writeStateFile(this.location, text, version);
    if (result.written) {
      this.last = { text, version: result.version };
      return true;
    }
    this.last = undefined;
    if ('changed' in result) {
      return false;
    }
    throw new MessageError(problemReason(result, this.location));
  }

  private async readNow(): Promise<{ text: string; version: StateFileVersion } | undefined> {
    const result = await this.source.readStateFile(this.location, MAX_STATE_BYTES);
    if ('missing' in result) {
      return undefined;
    }
    if ('problem' in result) {
      throw new MessageError(problemReason(result, this.location));
    }
    return { text: result.text, version: result.version };
  }
}

/**
 * Why the client did not read or write the file, as a message of the table, so that the store
 * words it in the message language: by the kind of problem and the URI the client names (an
 * older client that names none: the state file), the file system's own text kept as it is.
 */
export function problemReason(result: StateFileProblemResult, location: string): MessageRef {
  const at = typeof result.at === 'string' ? result.at : location;
  switch (result.problem) {
    case 'outside':
      return message('notAStateFile', { path: at });
    case 'link':
      return message('linkNotFollowed', { path: at });
    case 'not-file':
      return message(/\/\.paper-digest\/?$/.test(at) ? 'notAFolderPath' : 'notARegularFile', { path: at });
    case 'too-big':
      return message('biggerThanBytes', { path: at, max: MAX_STATE_BYTES });
    case 'not-utf8':
      return message('notUtf8');
    case 'folder-gone':
      return message('workspaceFolderGone', { root: at });
    default:
      return message('systemOther', { detail: typeof result.detail === 'string' ? result.detail : String(result.message) });
  }
}

/** The text of `<folder>/.paper-digest/interests.json` through the client, or undefined. */
export async function readClientInterests(folder: string, source: StateFileSource): Promise<string | undefined> {
  try {
    const result = await source.readStateFile(folderFileUri(folder, 'interests.json'), 1024 * 1024);
    return 'text' in result ? result.text : undefined;
  } catch {
    return undefined;
  }
}
