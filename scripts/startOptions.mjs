// The options of `npm start`, read before anything is built so that a bad one fails at once.
//
//   npm start -- --port 8080     (or --port=8080)
//   npm start --port 8080        (npm keeps `--port` for itself, as npm_config_port=true, and
//                                 hands the script only `8080`)
//
// A port makes `npm start` serve code-server on 127.0.0.1:PORT, even where VS Code's `code`
// command exists: that is the way to use it on a remote machine, through a forwarded port.
import * as net from 'node:net';

/** A bad option: its message is one line for stderr. */
export class StartOptionError extends Error {}

function parsePort(text) {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new StartOptionError(`--port needs a port number from 1 to 65535, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * The options from the command line and npm's environment: `{ port }`, port undefined when none
 * was given. Throws StartOptionError for anything else.
 */
export function parseStartOptions(argv, env) {
  let port;
  const fromNpm = env.npm_config_port;
  if (fromNpm === 'true' && argv.length === 1 && !argv[0].startsWith('-')) {
    // `npm start --port 8080`: npm took the flag and passed on its value alone.
    return { port: parsePort(argv[0]) };
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') {
      if (i + 1 >= argv.length) {
        throw new StartOptionError('--port needs a port number, e.g. --port 8080');
      }
      port = parsePort(argv[++i]);
    } else if (arg.startsWith('--port=')) {
      port = parsePort(arg.slice('--port='.length));
    } else {
      throw new StartOptionError(`unknown option ${JSON.stringify(arg)} (the only option is --port PORT)`);
    }
  }
  // `npm start --port=8080` sets npm_config_port=8080; a bare `npm start --port` sets it to "true".
  if (port === undefined && fromNpm !== undefined && fromNpm !== '') {
    if (fromNpm === 'true') {
      throw new StartOptionError('--port needs a port number, e.g. npm start --port 8080');
    }
    port = parsePort(fromNpm);
  }
  return { port };
}

/** Resolves when the port can be listened on at 127.0.0.1; throws StartOptionError when it is taken. */
export function checkPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) => {
      reject(new StartOptionError(error.code === 'EADDRINUSE' ? `port ${port} is in use on 127.0.0.1; choose another with --port` : `cannot listen on 127.0.0.1:${port}: ${error.message}`));
    });
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve()));
  });
}
