// `npm start`: builds the extension and opens it on the example workspace (examples/workspace).
// With VS Code's `code` command on the PATH, it starts VS Code with the extension under
// development. Without it (as on machines that cannot download VS Code), it packages the
// extension, installs it into code-server (a real VS Code served to the browser, installed from
// the npm registry by .ci/install-code-server.sh) and prints the address to open.
// `--port PORT` serves code-server on 127.0.0.1:PORT instead of a free port (scripts/startOptions.mjs).
import { spawnSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkPortFree, parseStartOptions, StartOptionError } from './startOptions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workspace = path.join(root, 'examples', 'workspace');

let options;
try {
  options = parseStartOptions(process.argv.slice(2), process.env);
  if (options.port !== undefined) {
    await checkPortFree(options.port);
  }
} catch (error) {
  if (!(error instanceof StartOptionError)) {
    throw error;
  }
  console.error(`npm start: ${error.message}`);
  process.exit(2);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm start: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

const hasCode = spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
if (hasCode && !process.env.PAPER_DIGEST_CODE_SERVER && options.port === undefined) {
  run('node', ['esbuild.mjs']);
  spawn('code', ['--extensionDevelopmentPath=' + root, workspace], { stdio: 'inherit', detached: true }).unref();
  console.log('Opened VS Code with Paper Digest on examples/workspace.');
} else {
  run('npx', ['tsc', '-b']);
  run('npm', ['run', 'package']);
  run('bash', ['.ci/install-code-server.sh']);
  const require = createRequire(import.meta.url);
  const { startCodeServer } = require(path.join(root, 'out', 'test', 'editor', 'codeServer.js'));
  const server = await startCodeServer({ workspace, vsix: [path.join(root, 'paper-digest.vsix')], skipBuiltins: [], port: options.port });
  console.log(
    [
      '',
      'Paper Digest is running in code-server on examples/workspace:',
      '',
      `  ${server.workbenchUrl()}`,
      '',
      `Open it in a browser on this machine. It listens on 127.0.0.1 only; from another machine, forward the port first, e.g. \`ssh -N -L ${server.port}:127.0.0.1:${server.port} you@this-host\`, then open the same address there (README: "On a remote machine").`,
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
