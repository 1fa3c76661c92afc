/**
 * A client no one here wrote: Neovim's built-in LSP client, headless, started on
 * `dist/server.js --stdio`, gets the outline, a hover and the diagnostics of a fixture, and a
 * completion from another digest of its folder.
 * Needs `nvim` (Debian's neovim package) and `dist/` (npm run build); fails when either is missing.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { digest, entryLines, FIXTURES, REPO_ROOT } from '../support/fixtures';

interface NeovimResult {
  errors: string[];
  serverName?: string;
  symbols?: { name: string; children?: { name: string; detail?: string; children?: unknown[] }[] }[];
  hover?: { contents: { kind: string; value: string } | string };
  diagnostics?: { lnum: number; col: number; message: string; source: string; code: string }[];
  completion?: { label: string; newText: string }[];
}

describe('Neovim as the LSP client', () => {
  test('Should give Neovim the outline, a hover, the diagnostics and completion of a digest', () => {
    const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, 'nvim is not installed (apt-get install neovim)');
    const server = path.join(REPO_ROOT, 'dist', 'server.js');
    assert.ok(fs.existsSync(server), 'dist/server.js is missing: run npm run build');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-nvim-'));
    const fixture = path.join(dir, 'two-papers.digest');
    fs.copyFileSync(path.join(FIXTURES, 'lsp', 'two-papers.digest'), fixture);
    // Another digest of the folder, whose institution the completion offers.
    fs.writeFileSync(path.join(dir, 'other.digest'), digest(entryLines('Z', { institutions: '机构 * Zhejiang University（浙江大学） 纠错' })));
    const out = path.join(dir, 'result.json');
    const run = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${path.join(REPO_ROOT, 'test', 'neovim', 'lsp_check.lua')}`], {
      env: { ...process.env, PD_SERVER: server, PD_FIXTURE: fixture, PD_OUT: out, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.ok(fs.existsSync(out), `Neovim wrote no result (status ${run.status}): ${run.stderr}`);
    const result = JSON.parse(fs.readFileSync(out, 'utf8')) as NeovimResult;
    assert.deepEqual(result.errors, []);
    assert.equal(result.serverName, 'paper-digest');

    const root = result.symbols?.[0];
    assert.equal(root?.name, '大模型推理能力');
    assert.deepEqual(root?.children?.map((c) => c.name), ['Sparse Probes for Arithmetic Circuits in Small Transformers · 小型Transformer中算术电路的稀疏探针', 'Chain-of-Thought Distillation with Verifier Feedback · 基于验证器反馈的思维链蒸馏']);
    assert.equal(root?.children?.[0].children, undefined);

    const hover = result.hover?.contents;
    const hoverText = typeof hover === 'string' ? hover : hover?.value ?? '';
    assert.match(hoverText, /Computation and Language/);
    assert.match(hoverText, /计算与语言/);

    const diagnostics = result.diagnostics ?? [];
    assert.ok(diagnostics.length > 0, 'no diagnostics');
    assert.ok(diagnostics.every((d) => d.source === 'paper-digest'));
    assert.ok(diagnostics.every((d) => d.lnum >= 14), `a diagnostic outside the broken entry: ${JSON.stringify(diagnostics)}`);
    assert.ok(diagnostics.some((d) => d.lnum === 22 && /cs\.XYZ/.test(d.message)), JSON.stringify(diagnostics));

    assert.deepEqual(result.completion, [{ label: 'Zhejiang University', newText: 'Zhejiang University（浙江大学）' }]);
  });
});
