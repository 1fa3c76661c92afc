/**
 * The transport floor of the end-to-end benchmark (e2e.ts): a stand-in server that does only what
 * every server over stdio must do, and nothing a digest needs. It reads each message and decodes
 * its JSON (the didOpen of 8.6 MB too), and answers `textDocument/documentSymbol` with the bytes of
 * a given answer (our server's outline of the same digest, as our server sends it), every
 * `textDocument/diagnostic` with no diagnostics, everything else with null. What the benchmark's
 * client waits for from it is the pipe, the framing and the JSON at both ends: no server sending
 * that answer can answer sooner on this machine.
 *
 * `node out/test/bench/transportFloor.js --stdio ANSWER_FILE` (the file: the outline's JSON).
 */
import * as fs from 'node:fs';

/** Runs the stand-in on this process's stdin and stdout until `exit`. */
function serve(answerFile: string): void {
  const answer = fs.readFileSync(answerFile);
  let chunks: Buffer[] = [];
  let received = 0;
  let awaited = 0;
  let buffer = Buffer.alloc(0);
  const send = (id: unknown, result: Buffer): void => {
    const body = Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), result, Buffer.from('}')]);
    process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
    process.stdout.write(body);
  };
  const handle = (message: { id?: unknown; method?: string }): void => {
    if (message.method === 'exit') {
      process.exit(0);
    }
    if (message.id === undefined || message.method === undefined) {
      return;
    }
    switch (message.method) {
      case 'initialize':
        send(message.id, Buffer.from(JSON.stringify({ capabilities: { textDocumentSync: 2, documentSymbolProvider: true, diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } })));
        break;
      case 'textDocument/documentSymbol':
        send(message.id, answer);
        break;
      case 'textDocument/diagnostic':
        send(message.id, Buffer.from('{"kind":"full","items":[]}'));
        break;
      default:
        send(message.id, Buffer.from('null'));
    }
  };
  process.stdin.on('data', (chunk: Buffer) => {
    // As a server's reader does: the chunks of a message are joined once it has arrived.
    chunks.push(chunk);
    received += chunk.length;
    if (received < awaited) {
      return;
    }
    buffer = Buffer.concat([buffer, ...chunks]);
    chunks = [];
    awaited = 0;
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        break;
      }
      const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'))?.[1] ?? NaN);
      const start = headerEnd + 4;
      if (buffer.length < start + length) {
        awaited = start + length;
        break;
      }
      handle(JSON.parse(buffer.subarray(start, start + length).toString('utf8')) as { id?: unknown; method?: string });
      buffer = buffer.subarray(start + length);
    }
    received = buffer.length;
  });
}

if (require.main === module) {
  const answerFile = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (!answerFile) {
    process.stderr.write('usage: transportFloor.js --stdio ANSWER_FILE\n');
    process.exit(2);
  }
  serve(answerFile);
}
