/**
 * The web worker's side of host.ts, put in its place by the browser bundle (esbuild.mjs): the
 * connection is the worker's message port, the workspace's files come through the client
 * (clientWorkspace.ts), and the rule pages are the repository's.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import type { DataCallback, Disposable, Message, MessageReader } from 'vscode-languageserver/browser';
import { shapedIncoming } from '../requestShapes';
import { ClientWorkspaceDigests, DigestFileSource, WorkspaceFiles } from '../clientWorkspace';
import type * as NodeHost from '../host';
import type { WorkspaceIndex } from '../service/workspaceIndex';
import type { StateFileSource } from '../clientStateDisk';
import { ReadStateFileRequest, WriteStateFileRequest } from '../stateFilesProtocol';
import { FindDigestFilesRequest, ReadDigestFilesRequest } from '../workspaceFilesProtocol';

/** The worker's global scope (the lib has no web worker types here). */
interface WorkerScope {
  addEventListener(type: 'error' | 'unhandledrejection', listener: (event: { error?: unknown; reason?: unknown; message?: string; preventDefault(): void }) => void): void;
}
declare const self: WorkerScope;

/** The server's connection: messages from and to the client's `Worker`. */
export const createServerConnection: typeof NodeHost.createServerConnection = (options) => {
  const connection = createConnection(ProposedFeatures.all, new ShapedReader(new BrowserMessageReader(self as never)), new BrowserMessageWriter(self as never), options);
  // Whatever a document holds, the server lives on (as server.ts does for Node's process).
  const describe = (value: unknown): string => (value instanceof Error ? value.stack ?? value.message : String(value));
  self.addEventListener('error', (event) => {
    event.preventDefault();
    connection.console.error(`Uncaught: ${describe(event.error ?? event.message)}`);
  });
  self.addEventListener('unhandledrejection', (event) => {
    event.preventDefault();
    connection.console.error(`Unhandled rejection: ${describe(event.reason)}`);
  });
  return connection;
};

/**
 * The worker's messages as the Node server gets them (serialised.ts): an `initialize` or a
 * folder change of the wrong shape (`capabilities: null`, folders that are not a list) is shaped
 * before the protocol library reads it (`shapedIncoming`), which otherwise failed with a
 * TypeError and left the server unable to start.
 */
class ShapedReader implements MessageReader {
  constructor(private readonly inner: MessageReader) {}

  get onError(): MessageReader['onError'] {
    return this.inner.onError;
  }

  get onClose(): MessageReader['onClose'] {
    return this.inner.onClose;
  }

  get onPartialMessage(): MessageReader['onPartialMessage'] {
    return this.inner.onPartialMessage;
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => callback(shapedIncoming(message) as Message));
  }

  dispose(): void {
    this.inner.dispose();
  }
}

/** No index is kept between starts in the web extension (its files come through the client). */
export const createKeptIndexStore: typeof NodeHost.createKeptIndexStore = () => undefined;

/** The requests of workspaceFilesProtocol.ts on a connection. */
export function connectionFileSource(connection: NodeHost.ServerConnection): DigestFileSource {
  return {
    findDigestFiles: async (folder, maxResults) => (await connection.sendRequest(FindDigestFilesRequest, { folder, maxResults })).uris,
    readDigestFiles: async (uris, maxBytes) => (await connection.sendRequest(ReadDigestFilesRequest, { uris, maxBytes })).files,
  };
}

export const createWorkspaceFiles: typeof NodeHost.createWorkspaceFiles = (index: WorkspaceIndex, connection, options): WorkspaceFiles =>
  new ClientWorkspaceDigests(index, connectionFileSource(connection), options);

/** The rule pages in the repository: a web extension has no file: folder of its own to link to. */
export const rulesPagesBase: typeof NodeHost.rulesPagesBase = () => 'https://github.com/paper-digest/paper-digest/blob/main/docs/rules/';

/** Reads a file that is not open through the client, as the workspace index does. */
export const createTextReader: typeof NodeHost.createTextReader = (connection) => {
  const source = connectionFileSource(connection);
  return async (uri) => {
    try {
      const [file] = await source.readDigestFiles([uri], 32 * 1024 * 1024);
      return file && 'text' in file ? file.text : undefined;
    } catch {
      return undefined;
    }
  };
};

/** The state and interests files through the client's workspace.fs (stateFilesProtocol.ts). */
export const createStateFileSource: typeof NodeHost.createStateFileSource = (connection): StateFileSource => ({
  readStateFile: (uri, maxBytes) => connection.sendRequest(ReadStateFileRequest, { uri, maxBytes }),
  writeStateFile: (uri, text, expected) => connection.sendRequest(WriteStateFileRequest, { uri, text, expected }),
});

export const readsFilesThroughClient: typeof NodeHost.readsFilesThroughClient = true;
