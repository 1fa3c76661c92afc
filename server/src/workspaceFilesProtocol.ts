/**
 * The custom requests by which a server without disk access (the web extension's server in a
 * web worker) gets the workspace's digest files from the client, which reads them through
 * `vscode.workspace.findFiles` and `vscode.workspace.fs` — so that they work on virtual file
 * systems too (github.dev, vscode.dev, a remote). Both directions are server → client; the Node
 * server reads the disk itself and never sends them.
 */
import { RequestType } from 'vscode-languageserver-protocol';

/** Why a file was not read. */
export type FileReadProblem = 'missing' | 'folder' | 'link' | 'special' | 'too-big' | 'unreadable' | 'not-utf8' | 'outside';

export interface FindDigestFilesParams {
  /** A workspace folder's URI, or a folder inside one (a folder created in the workspace). */
  readonly folder: string;
  /** At most this many URIs are returned. */
  readonly maxResults: number;
}

export interface FindDigestFilesResult {
  /** The URIs of the `*.digest` and `*.digest.txt` files below the folder, outside `node_modules` and `.git`. */
  readonly uris: readonly string[];
}

/**
 * `paperDigest/workspace/findDigestFiles`, server → client: the digest files below a folder.
 *
 * @example
 * { folder: 'vscode-vfs://github/me/papers', maxResults: 20000 }
 * // → { uris: ['vscode-vfs://github/me/papers/2024/may.digest', ...] }
 */
export const FindDigestFilesRequest = new RequestType<FindDigestFilesParams, FindDigestFilesResult, void>('paperDigest/workspace/findDigestFiles');

export interface ReadDigestFilesParams {
  readonly uris: readonly string[];
  /** Files bigger than this are not read (`too-big`). */
  readonly maxBytes: number;
}

/** One file of `ReadDigestFilesResult`: its text and modification time (ms), or why it was not read. */
export type ReadDigestFile =
  | { readonly uri: string; readonly text: string; readonly mtime: number }
  | { readonly uri: string; readonly problem: FileReadProblem };

export interface ReadDigestFilesResult {
  /** One answer per URI asked, in the same order. */
  readonly files: readonly ReadDigestFile[];
}

/**
 * `paperDigest/workspace/readDigestFiles`, server → client: the text (UTF-8) of files in the
 * workspace folders. Only regular files are read: a symbolic link, a folder or anything outside
 * the workspace folders is answered with its problem instead.
 *
 * @example
 * { uris: ['vscode-vfs://github/me/papers/may.digest'], maxBytes: 33554432 }
 * // → { files: [{ uri: 'vscode-vfs://github/me/papers/may.digest', text: '…', mtime: 1717000000000 }] }
 */
export const ReadDigestFilesRequest = new RequestType<ReadDigestFilesParams, ReadDigestFilesResult, void>('paperDigest/workspace/readDigestFiles');
