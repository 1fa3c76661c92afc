/**
 * The client's answers to a server without disk access (the web extension's server in a web
 * worker): the workspace's digest files, found with `vscode.workspace.findFiles` and read with
 * `vscode.workspace.fs`, so that virtual file systems (github.dev, vscode.dev, a remote) work as
 * a local disk does. Only files inside the workspace folders are read, and only regular files
 * (a symbolic link is never followed, as on disk).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import {
  FindDigestFilesRequest,
  FindDigestFilesResult,
  ReadDigestFile,
  ReadDigestFilesRequest,
  ReadDigestFilesResult,
} from '../../server/src/workspaceFilesProtocol';
import { DIGEST_FILE_GLOB } from '../../server/src/digestFiles';

/** Files read at the same time. */
const PARALLEL_READS = 8;
/** Folders never searched, as the Node server's scan skips them. */
const EXCLUDED = '**/{node_modules,.git}/**';

/** Registers the answers to the server's file requests; call it before the client starts. */
export function registerWorkspaceFiles(client: BaseLanguageClient): void {
  client.onRequest(FindDigestFilesRequest, (params, token) => findDigestFiles(params.folder, params.maxResults, token));
  client.onRequest(ReadDigestFilesRequest, (params) => readDigestFiles(params.uris, params.maxBytes));
}

async function findDigestFiles(folder: string, maxResults: number, token: vscode.CancellationToken): Promise<FindDigestFilesResult> {
  const base = parseUri(folder);
  if (!base || !vscode.workspace.getWorkspaceFolder(base) || !Number.isFinite(maxResults) || maxResults <= 0 || !(await isFolder(base))) {
    return { uris: [] };
  }
  // The endings in any case, as the Node server's scan takes them (isDigestFileName).
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(base, DIGEST_FILE_GLOB), EXCLUDED, Math.floor(maxResults), token);
  return { uris: found.map((uri) => uri.toString()) };
}

/**
 * Whether a URI is a folder, not a link to one (never followed, as on disk): a file created in
 * the workspace is asked about as a folder that may have been moved in, and a search below a
 * file fails (`spawn ENOTDIR`).
 */
async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    const { type } = await vscode.workspace.fs.stat(uri);
    return (type & vscode.FileType.Directory) !== 0 && (type & vscode.FileType.SymbolicLink) === 0;
  } catch {
    return false;
  }
}

async function readDigestFiles(uris: readonly string[], maxBytes: number): Promise<ReadDigestFilesResult> {
  const files: ReadDigestFile[] = new Array(uris.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < uris.length) {
      const at = next++;
      files[at] = await readDigestFile(String(uris[at]), maxBytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, uris.length) }, worker));
  return { files };
}

/**
 * Fatal: a file that is not UTF-8 text (a binary named `.digest`) is not read, as the CLI and the
 * Node server skip it. A byte order mark is dropped, as the editor shows the file.
 */
const decoder = new TextDecoder('utf-8', { fatal: true });

async function readDigestFile(text: string, maxBytes: number): Promise<ReadDigestFile> {
  const uri = parseUri(text);
  if (!uri || !vscode.workspace.getWorkspaceFolder(uri)) {
    return { uri: text, problem: 'outside' };
  }
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink) {
      return { uri: text, problem: 'link' };
    }
    if (stat.type & vscode.FileType.Directory) {
      return { uri: text, problem: 'folder' };
    }
    if (!(stat.type & vscode.FileType.File)) {
      return { uri: text, problem: 'special' };
    }
    if (stat.size > maxBytes) {
      return { uri: text, problem: 'too-big' };
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > maxBytes) {
      return { uri: text, problem: 'too-big' };
    }
    let decoded: string;
    try {
      decoded = decoder.decode(bytes);
    } catch {
      return { uri: text, problem: 'not-utf8' };
    }
    return { uri: text, text: decoded, mtime: stat.mtime };
  } catch (error) {
    return { uri: text, problem: error instanceof vscode.FileSystemError && error.code === 'FileNotFound' ? 'missing' : 'unreadable' };
  }
}

function parseUri(text: string): vscode.Uri | undefined {
  try {
    return typeof text === 'string' ? vscode.Uri.parse(text, true) : undefined;
  } catch {
    return undefined;
  }
}
