/**
 * `npm start --port`: bad options fail at once with one line and exit 2, before anything is
 * built; a port in use is refused; code-server serves on the port asked for.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { freePort, startCodeServer } from '../editor/codeServer';
import { REPO_ROOT } from '../support/fixtures';

const START = path.join(REPO_ROOT, 'scripts', 'start.mjs');

/** Runs scripts/start.mjs as npm would, with npm's port option when given. */
function start(args: string[], npmPort?: string): { status: number | null; stderr: string; stdout: string } {
  const env = { ...process.env };
  delete env.npm_config_port;
  if (npmPort !== undefined) {
    env.npm_config_port = npmPort;
  }
  // A bound, so that a start that went on to build (the defect) fails here instead of hanging.
  const result = spawnSync(process.execPath, [START, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

function assertRefused(result: { status: number | null; stderr: string; stdout: string }, message: RegExp): void {
  assert.equal(result.status, 2, `exit status; stderr: ${result.stderr}`);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr: ${JSON.stringify(result.stderr)}`);
  assert.match(lines[0], message);
  assert.equal(result.stdout, '', 'nothing was built or started');
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('npm start --port', () => {
  test('Should refuse a port that is not a number from 1 to 65535, in any spelling', () => {
    for (const args of [['--port', 'abc'], ['--port=0'], ['--port', '65536'], ['--port', '80.5'], ['--port']]) {
      assertRefused(start(args), /^npm start: --port needs a port number/);
    }
    // `npm start --port abc`: npm keeps the flag (npm_config_port=true) and passes on `abc`.
    assertRefused(start(['abc'], 'true'), /^npm start: --port needs a port number from 1 to 65535, not "abc"$/);
    assertRefused(start([], 'true'), /^npm start: --port needs a port number/);
    assertRefused(start([], 'x1'), /^npm start: --port needs a port number from 1 to 65535, not "x1"$/);
  });

  test('Should refuse an unknown option', () => {
    assertRefused(start(['--host', '0.0.0.0']), /^npm start: unknown option "--host"/);
  });

  test('Should refuse a port already in use on 127.0.0.1', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      // The kernel holds the listening socket while spawnSync blocks this process.
      assertRefused(start(['--port', `${port}`]), new RegExp(`^npm start: port ${port} is in use on 127\\.0\\.0\\.1`));
      assertRefused(start([`${port}`], 'true'), new RegExp(`port ${port} is in use`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('Should serve code-server on the port asked for', async () => {
    const port = await freePort();
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-start-'));
    const server = await startCodeServer({ workspace, port, skipBuiltins: [] });
    try {
      assert.equal(server.port, port);
      assert.equal(server.origin, `http://127.0.0.1:${port}`);
      assert.ok(server.workbenchUrl().startsWith(`http://127.0.0.1:${port}/?folder=`), server.workbenchUrl());
      assert.equal(await get(`http://127.0.0.1:${port}/healthz`), 200);
    } finally {
      await server.stop();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
