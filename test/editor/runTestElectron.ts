/**
 * Fallback path (`npm run test:vscode`): runs the editor suite through @vscode/test-electron, which
 * downloads a VS Code build and starts it with this repository as the extension under
 * development. It needs a network that reaches VS Code's download servers (and, on Linux without
 * a display, xvfb-run), so it cannot run on the project's CI machines; there the same suite runs
 * in code-server through runInCodeServer.ts.
 *
 *   node out/test/editor/runTestElectron.js [--suite <compiled suite index.js>] [--workspace <dir>]
 *
 * VSCODE_TEST_VERSION picks the VS Code version (default: "stable").
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';

async function main(argv: string[]): Promise<number> {
  // out/test/editor/runTestElectron.js -> repository root
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  let suite = path.join(repoRoot, 'out', 'test', 'editor', 'suite', 'index.js');
  let workspace = path.join(repoRoot, 'test', 'editor', 'workspace');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--suite' && argv[i + 1]) suite = path.resolve(argv[++i]);
    else if (argv[i] === '--workspace' && argv[i + 1]) workspace = path.resolve(argv[++i]);
    else {
      console.error(`runTestElectron: unknown argument ${argv[i]}`);
      return 2;
    }
  }
  if (!fs.existsSync(suite)) {
    console.error(`runTestElectron: suite not found: ${suite} (compile first: npx tsc -b)`);
    return 2;
  }
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'client.js'))) {
    console.error('runTestElectron: dist/client.js is missing (build first: npm run build)');
    return 2;
  }
  try {
    await runTests({
      version: process.env.VSCODE_TEST_VERSION || 'stable',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: suite,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
    return 0;
  } catch (e) {
    console.error(`runTestElectron: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
