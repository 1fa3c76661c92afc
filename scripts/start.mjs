// `npm start`: builds the extension and opens it on the example workspace (examples/workspace).
// With VS Code's `code` command on the PATH, it starts VS Code with the extension under
// development. Without it (as on machines that cannot download VS Code), it packages the
// extension, installs it into code-server (a real VS Code served to the browser, installed from
// the npm registry by .ci/install-code-server.sh) and prints the address to open.
import { spawnSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workspace = path.join(root, 'examples', 'workspace');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm start: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

const hasCode = spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
if (hasCode && !process.env.PAPER_DIGEST_CODE_SERVER) {
  run('node', ['esbuild.mjs']);
  spawn('code', ['--extensionDevelopmentPath=' + root, workspace], { stdio: 'inherit', detached: true }).unref();
  console.log('Opened VS Code with Paper Digest on examples/workspace.');
} else {
  run('npx', ['tsc', '-b']);
  run('npm', ['run', 'package']);
  run('bash', ['.ci/install-code-server.sh']);
  const require = createRequire(import.meta.url);
  const { startCodeServer } = require(path.join(root, 'out', 'test', 'editor', 'codeServer.js'));
  const server = await startCodeServer({ workspace, vsix: [path.join(root, 'paper-digest.vsix')], skipBuiltins: [] });
  console.log(`\nPaper Digest is running in code-server on examples/workspace:\n\n  ${server.workbenchUrl()}\n\nOpen it in a browser on this machine; press Ctrl+C to stop.`);
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
