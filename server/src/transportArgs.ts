/**
 * How the Node server is told to talk to its client: `--stdio`, `--node-ipc`, `--socket=PORT`
 * (or `--socket PORT`) or `--pipe=NAME` (or `--pipe NAME`), as vscode-languageserver reads them.
 * Without one, or with a port that is not one, the library threw a raw error with its stack; with
 * `--node-ipc` and no IPC channel, the server ended at once without a word. This says why in one
 * line, with how to start the server (`--help` asks for that alone).
 */

/** What the server prints for `--help` and after a problem with its arguments. */
export const SERVER_USAGE = 'usage: node dist/server.js --stdio | --node-ipc | --socket=PORT | --pipe=NAME  (the language server; an editor starts it)';

/** A transport the arguments name: its option, and the value given with it (`--socket=6009`, `--pipe NAME`). */
export interface NamedTransport {
  readonly name: '--stdio' | '--node-ipc' | '--socket' | '--pipe';
  readonly value?: string;
}

/**
 * The first transport the arguments name, as the library takes it (the first one named);
 * `help` when `--help` (or `-h`) comes before any; undefined when none is named.
 *
 * @example firstTransport(['--debug-requests', '--socket', '6009']) // { name: '--socket', value: '6009' }
 */
export function firstTransport(argv: readonly string[]): NamedTransport | 'help' | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--stdio' || arg === '--node-ipc') return { name: arg };
    const [name, joined] = arg.split(/=(.*)/s, 2);
    if (name === '--socket' || name === '--pipe') return { name, value: arg.includes('=') ? joined : argv[i + 1] };
    if (arg === '--help' || arg === '-h') return 'help';
  }
  return undefined;
}

/**
 * What to do about the server's arguments: go on (`undefined`), print the usage and stop
 * (`help`), or stop with a problem (one sentence, exit status 2).
 *
 * @example transportProblem(['--socket=x'], false) // { problem: 'the port of --socket must be a number from 1 to 65535, not "x"' }
 * @example transportProblem(['--stdio'], false) // undefined
 */
export function transportProblem(argv: readonly string[], hasIpcChannel: boolean): { help: true } | { problem: string } | undefined {
  const transport = firstTransport(argv);
  if (transport === 'help') return { help: true };
  switch (transport?.name) {
    case '--stdio':
      return undefined;
    case '--node-ipc':
      return hasIpcChannel ? undefined : { problem: '--node-ipc needs the IPC channel of a node process started with child_process.fork' };
    case '--pipe':
      return transport.value ? undefined : { problem: '--pipe needs the name of a pipe' };
    case '--socket': {
      const value = transport.value;
      return /^\d{1,5}$/.test(value ?? '') && Number(value) >= 1 && Number(value) <= 65535 ? undefined : { problem: `the port of --socket must be a number from 1 to 65535, not ${JSON.stringify(value ?? '')}` };
    }
    default:
      return { problem: 'say how to talk to the client: --stdio, --node-ipc, --socket=PORT or --pipe=NAME' };
  }
}
