import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/fixtures';

interface Manifest {
  icon?: string;
  repository?: { url?: string };
  keywords?: string[];
  galleryBanner?: { color?: string; theme?: string };
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;

/** The files `vsce` would put into the .vsix, as `vsce ls` lists them. */
function packagedFiles(): string[] {
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, `vsce ls failed: ${result.stderr}`);
  return result.stdout.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

describe('The packaged extension', () => {
  test('Should carry an icon, a banner, keywords and a repository, without --allow-missing-repository', () => {
    assert.ok(manifest.icon && fs.existsSync(path.join(REPO_ROOT, manifest.icon)), 'the icon file exists');
    const png = fs.readFileSync(path.join(REPO_ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    // Width and height of the IHDR chunk: the Marketplace wants at least 128 × 128.
    assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128);
    assert.match(manifest.repository?.url ?? '', /^https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    assert.ok((manifest.keywords ?? []).length >= 5 && (manifest.keywords ?? []).length <= 30);
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.doesNotMatch(manifest.scripts.package, /--allow-missing-repository/);
  });

  test('Should decide for every dependency install script in allowScripts', () => {
    const result = spawnSync('npm', ['install-scripts', 'ls'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (result.status !== 0 && /Unknown command|not a valid npm command/i.test(result.stderr + result.stdout)) {
      // npm before 11 has no install-script approvals; nothing to decide there.
      assert.ok(manifest.allowScripts, 'allowScripts is declared for npm 11');
      return;
    }
    assert.doesNotMatch(result.stdout + result.stderr, /not yet covered/, result.stdout + result.stderr);
  });

  test('Should package the bundles, the grammar, the rule pages, the images and the changelog, and no sources or tests', () => {
    const files = packagedFiles();
    for (const required of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/client.js', 'dist/server.js', 'dist/firstLevelWorker.js', 'dist/cli.js', 'dist/browser/client.js', 'dist/browser/server.js', 'dist/webview/stats.js', 'dist/webview/stats.css', 'syntaxes/paper-digest.tmLanguage.json', 'images/icon.png', 'docs/rules/README.md']) {
      assert.ok(files.includes(required), `${required} is packaged (got ${files.join(', ')})`);
    }
    // Every image the README shows is in the package.
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const match of readme.matchAll(/!\[[^\]]*\]\((images\/[^)\s]+)\)/g)) {
      assert.ok(files.includes(match[1]), `${match[1]} (shown in the README) is packaged`);
    }
    const unwanted = files.filter((file) => /\.ts$|\.map$|^(test|out|client|server|scripts|\.ci|examples|node_modules)\//.test(file));
    assert.deepEqual(unwanted, []);
  });
});
