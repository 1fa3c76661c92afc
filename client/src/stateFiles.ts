/**
 * The client's answers to the web extension's server for the reading workflow's files
 * (`.paper-digest/state.json`, `interests.json`): read and written through `vscode.workspace.fs`
 * (server/src/stateFileAccess.ts has the checks and the compare-before-write), so that Mark
 * Read, Star, tags and notes work on virtual file systems too.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import type { StateFs, StateFsStat } from '../../server/src/stateFileAccess';
import { readStateFile, writeStateFile } from '../../server/src/stateFileAccess';
import { ReadStateFileRequest, WriteStateFileRequest } from '../../server/src/stateFilesProtocol';

function parse(uri: string): vscode.Uri {
  return vscode.Uri.parse(uri, true);
}

/** `vscode.workspace.fs` as stateFileAccess.ts wants it. */
export const workspaceStateFs: StateFs = {
  inWorkspace: (uri) => {
    try {
      return vscode.workspace.getWorkspaceFolder(parse(uri)) !== undefined;
    } catch {
      return false;
    }
  },
  stat: async (uri): Promise<StateFsStat | undefined> => {
    try {
      const stat = await vscode.workspace.fs.stat(parse(uri));
      const kind = stat.type & vscode.FileType.SymbolicLink ? 'link' : stat.type & vscode.FileType.Directory ? 'folder' : stat.type & vscode.FileType.File ? 'file' : 'other';
      return { kind, mtime: stat.mtime, size: stat.size };
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
        return undefined;
      }
      throw error;
    }
  },
  readFile: (uri) => Promise.resolve(vscode.workspace.fs.readFile(parse(uri))),
  writeFile: (uri, bytes) => Promise.resolve(vscode.workspace.fs.writeFile(parse(uri), bytes)),
  rename: (from, to) => Promise.resolve(vscode.workspace.fs.rename(parse(from), parse(to), { overwrite: true })),
  delete: (uri) => Promise.resolve(vscode.workspace.fs.delete(parse(uri), { useTrash: false })),
  createDirectory: (uri) => Promise.resolve(vscode.workspace.fs.createDirectory(parse(uri))),
};

/** Registers the answers to the server's state file requests; call it before the client starts. */
export function registerStateFiles(client: BaseLanguageClient): void {
  client.onRequest(ReadStateFileRequest, (params) => readStateFile(workspaceStateFs, params?.uri, Number(params?.maxBytes) || 0));
  client.onRequest(WriteStateFileRequest, (params) => writeStateFile(workspaceStateFs, params?.uri, params?.text, params?.expected ?? null));
}
