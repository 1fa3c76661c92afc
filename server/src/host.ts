/**
 * What the Node server does its own way: its connection (stdio or node IPC), reading the
 * workspace's files from disk, and where the rule pages are. The web extension's bundle
 * (esbuild.mjs) puts browser/host.ts in this module's place; everything else is shared.
 */
import { promises as fsPromises } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import type { ConnectionOptions } from 'vscode-languageserver/node';
import type { StateFileSource } from './clientStateDisk';
import type { WorkspaceFiles } from './clientWorkspace';
import { rulesDocsBase } from './docsBase';
import { decodeUtf8Text } from './fs/utf8Text';
import { KeptIndexStore, keptIndexStore } from './keptIndexDisk';
import type { WorkspaceIndex } from './service/workspaceIndex';
import type { Log } from './service/cliMessages';
import { WorkspaceDigests } from './workspace';
import { FrameGuard, MAX_MESSAGE_BYTES } from './frameGuard';
import { firstTransport, SERVER_USAGE, transportProblem } from './transportArgs';

/**
 * The server's connection, as `node dist/server.js --stdio` (or `--node-ipc`, `--socket=PORT`,
 * `--pipe=NAME`) asks; `options` as lifecycle.ts gives them. Without one of those (or with a bad
 * one) the server says why on stderr and ends with status 2 (`--help`: the usage, status 0). Over
 * stdio what the client sends is checked frame by frame first (frameGuard.ts).
 */
export function createServerConnection(options?: ConnectionOptions) {
  const verdict = transportProblem(process.argv.slice(2), typeof process.send === 'function');
  if (verdict) {
    const help = 'help' in verdict;
    process.stderr.write(help ? `${SERVER_USAGE}\n` : `paper-digest server: ${verdict.problem}\n${SERVER_USAGE}\n`);
    process.exit(help ? 0 : 2);
  }
  const transport = firstTransport(process.argv.slice(2));
  if (transport !== 'help' && transport?.name === '--stdio') {
    // The library reads `process.stdin` for `--stdio` (and keeps stdout for the protocol, sending
    // `console` output to the client's log): it is given the guarded stream under that name.
    const guarded = process.stdin.pipe(
      new FrameGuard({
        onDropped: (bytes) => process.stderr.write(`paper-digest server: a message of ${bytes} bytes was passed over: over the ${MAX_MESSAGE_BYTES} bytes the server reads\n`),
        onBroken: (why) => {
          process.stderr.write(`paper-digest server: the client sent ${why}; where the next message starts is not known, so the server stops\n`);
          process.exit(2);
        },
      }),
    );
    Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => guarded });
  }
  return createConnection(ProposedFeatures.all, options);
}

export type ServerConnection = ReturnType<typeof createServerConnection>;

/** The digest files of the workspace folders, read from disk (workspace.ts). */
export function createWorkspaceFiles(
  index: WorkspaceIndex,
  _connection: ServerConnection,
  options: { readonly log?: Log; readonly idle?: () => Promise<void>; readonly beforeFullScan?: () => Promise<void> },
): WorkspaceFiles {
  return new WorkspaceDigests(index, { ...options, decode: decodeUtf8Text });
}

/** The index kept between starts in `folder` (keptIndexDisk.ts); the web extension keeps none. */
export function createKeptIndexStore(folder: string, log: Log): KeptIndexStore | undefined {
  return keptIndexStore(folder, log);
}

/** The docs/rules/ folder shipped beside the bundle, for the diagnostics' links. */
export function rulesPagesBase(): string {
  return rulesDocsBase(__dirname);
}

/** Files bigger than this are not read for their diagnostics (the scan's limit). */
const MAX_READ_BYTES = 32 * 1024 * 1024;

/**
 * The text of a workspace file that is not open, for the workspace's pulled diagnostics: a
 * regular file of up to 32 MB, else undefined.
 */
export function createTextReader(_connection: ServerConnection): (uri: string) => Promise<string | undefined> {
  return async (uri) => {
    try {
      const file = fileURLToPath(uri);
      const stat = await fsPromises.stat(file);
      if (!stat.isFile() || stat.size > MAX_READ_BYTES) {
        return undefined;
      }
      // Not UTF-8 text: not checked (the scan skips it too).
      const bytes = await fsPromises.readFile(file);
      return decodeUtf8Text(bytes);
    } catch {
      return undefined;
    }
  };
}

/** The reading state's files through the client: never for the Node server, which uses the disk (stateDisk.ts). */
export function createStateFileSource(_connection: ServerConnection): StateFileSource | undefined {
  return undefined;
}

/** Whether files that are not open are read through the client (references and rename over them). */
export const readsFilesThroughClient: boolean = false;
