/**
 * The built command line (dist/cli.js, by `node esbuild.mjs`) run as a user runs it, in a
 * folder, for the command-line tests.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './fixtures';

/** The bundled command line. */
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/** How a run ended and what it wrote. */
export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line in `cwd` and waits for it.
 *
 * @example
 * const result = run(['check', '.'], folder); // { status: 0, stdout: '…', stderr: '' }
 */
export function run(args: string[], cwd: string): Run {
  // Room for a listing of the first 10,000 problems (past a megabyte, the child would be ended).
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the command line in `cwd` without blocking, so that several runs can overlap. */
export function runAsync(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Runs the command line in `cwd` with its standard output or error closed before it writes
 * (as `| head -0` would), and resolves with its status.
 */
export function runWithClosed(stream: 'stdout' | 'stderr', args: string[], cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child[stream].destroy();
    const other = stream === 'stdout' ? child.stderr : child.stdout;
    other.resume();
    child.on('close', (status) => resolve(status));
  });
}
