/**
 * What the editor scripts run by hand or by `npm run test:editor` (takeScreenshots.ts,
 * checkChinese.ts) have in common: their arguments, a copy of the example workspace to work
 * on, and one way to end (exit 0, or exit 1 with one line on stderr).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { copyWorkspace } from './workspaceCopy';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const EXAMPLE_WORKSPACE = path.join(REPO_ROOT, 'examples', 'workspace');

/** The value after `name` on the command line, or `fallback`; throws when there is neither. */
export function argument(name: string, fallback?: string): string {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? process.argv[index + 1] : fallback;
  if (!value) {
    throw new Error(`missing ${name}`);
  }
  return value;
}

/**
 * A copy of the example workspace in a new temporary folder, removed when the process exits:
 * the scripts change reading state and settings, never the project's own files.
 */
export function copyOfExampleWorkspace(prefix: string): { folder: string; workspace: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const workspace = path.join(folder, 'workspace');
  copyWorkspace(EXAMPLE_WORKSPACE, workspace);
  process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  return { folder, workspace };
}

/** Runs a script's `main` and exits: 0 when it resolves, 1 with `<name> failed: <message>` when not. */
export function runScript(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`${name} failed: ${error.message}`);
      process.exit(1);
    },
  );
}
