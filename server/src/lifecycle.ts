/**
 * The server's lifecycle as LSP states it: before `initialize` a request gets the error
 * ServerNotInitialized (-32002) and a notification is dropped (except `exit`); `initialize` is
 * answered once, and a second one gets InvalidRequest; after `shutdown` every request but `exit`
 * gets InvalidRequest. vscode-languageserver answers whatever comes, in any order, so the
 * connection's message strategy sees each message first and turns a refused request into one
 * for a method that answers only with its error.
 *
 * It works for every transport (stdio, node IPC, sockets, the web worker): it sits between the reader and the
 * handlers, after the messages are decoded.
 *
 * @example
 * const lifecycle = new Lifecycle();
 * const connection = createConnection(ProposedFeatures.all, lifecycle.options);
 * lifecycle.install(connection);
 */
import { ErrorCodes, Message, ResponseError } from 'vscode-languageserver/node';
import type { ConnectionOptions, RequestMessage } from 'vscode-languageserver/node';
import { UNDECODABLE_METHOD } from './protocol';
import { INVALID_REQUEST_METHOD } from './requestShapes';

/** The method a refused request is handed to; it answers with the refusal's error. */
const REFUSED = '$/paperDigest/refused';

interface Refusal {
  readonly code: number;
  readonly message: string;
}

/** What the lifecycle needs of the connection. */
interface RequestHandlers {
  onRequest(method: string, handler: (params: unknown) => unknown): unknown;
}

export class Lifecycle {
  private state: 'new' | 'initialized' | 'shutDown' = 'new';
  /** The refusals this lifecycle made: a client that names the method itself gets no say in the error. */
  private readonly refusals = new WeakSet<Refusal>();

  /** The connection options that let the lifecycle see each message first. */
  readonly options: ConnectionOptions = {
    messageStrategy: { handleMessage: (message, next) => this.handle(message, next) },
  };

  /** Registers the method refused requests are answered by. */
  install(connection: RequestHandlers): void {
    connection.onRequest(REFUSED, (params) => {
      if (typeof params === 'object' && params !== null && this.refusals.has(params as Refusal)) {
        const refusal = params as Refusal;
        throw new ResponseError(refusal.code, refusal.message);
      }
      throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${REFUSED}`);
    });
  }

  private handle(message: Message, next: (message: Message) => void): void {
    if (Message.isRequest(message)) {
      const refusal = this.refusal(message.method);
      if (refusal) {
        this.refusals.add(refusal);
        const refused: RequestMessage = { jsonrpc: message.jsonrpc, id: message.id, method: REFUSED, params: refusal };
        next(refused);
        return;
      }
      if (message.method === 'initialize') {
        this.state = 'initialized';
      } else if (message.method === 'shutdown') {
        this.state = 'shutDown';
      }
    } else if (Message.isNotification(message) && this.state === 'new' && message.method !== 'exit') {
      // Dropped, as LSP says: nothing happens before initialize but exit.
      return;
    }
    next(message);
  }

  private refusal(method: string): Refusal | undefined {
    if (method === INVALID_REQUEST_METHOD || method === UNDECODABLE_METHOD) {
      // What stands for a request that is none (no method name, not JSON): answered with its own
      // error (InvalidRequest, ParseError) whatever the state, never named.
      return undefined;
    }
    if (this.state === 'new') {
      return method === 'initialize' ? undefined : { code: ErrorCodes.ServerNotInitialized, message: `The server is not initialized: ${method} before initialize` };
    }
    if (method === 'initialize') {
      return { code: ErrorCodes.InvalidRequest, message: 'The server is initialized already: initialize is sent once' };
    }
    if (this.state === 'shutDown') {
      return { code: ErrorCodes.InvalidRequest, message: `The server is shut down: ${method} after shutdown` };
    }
    return undefined;
  }
}
