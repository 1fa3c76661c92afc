/**
 * The client's run-time strings go through `vscode.l10n.t`; `npm run l10n:export` (@vscode/l10n-dev)
 * extracts them into l10n/bundle.l10n.json, and l10n/bundle.l10n.zh-cn.json translates every one.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/fixtures';

const L10N = path.join(REPO_ROOT, 'l10n');
const readBundle = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;

/** The bundle as `l10n-dev export` makes it from client/src today. */
function exportedNow(): Record<string, string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-l10n-'));
  try {
    const cli = path.join(REPO_ROOT, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
    const result = spawnSync(process.execPath, [cli, 'export', '--outDir', out, path.join(REPO_ROOT, 'client', 'src')], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(result.status, 0, `l10n-dev export failed: ${result.stderr}${result.stdout}`);
    return readBundle(path.join(out, 'bundle.l10n.json'));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The fixed text of the string literal that starts at `from` (after its quote): a template's `${…}` left out. */
function fixedText(line: string, from: number, quote: string): string {
  let text = '';
  for (let i = from, depth = 0; i < line.length; i++) {
    if (depth > 0) {
      depth += line[i] === '{' ? 1 : line[i] === '}' ? -1 : 0;
    } else if (line[i] === '\\') {
      text += line[++i] ?? '';
    } else if (line[i] === quote) {
      break;
    } else if (quote === '`' && line.startsWith('${', i)) {
      depth = 1;
      i++;
    } else {
      text += line[i];
    }
  }
  return text;
}

const placeholders = (text: string): string[] => [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();

describe('The client in English and Chinese', () => {
  const english = readBundle(path.join(L10N, 'bundle.l10n.json'));
  const chinese = readBundle(path.join(L10N, 'bundle.l10n.zh-cn.json'));

  test('Should have l10n/bundle.l10n.json as l10n-dev exports it from client/src now (run npm run l10n:export)', () => {
    const now = exportedNow();
    assert.deepEqual(Object.keys(english).sort(), Object.keys(now).sort());
    assert.ok(Object.keys(now).length > 50, `${Object.keys(now).length} strings found`);
  });

  test('Should translate every string of the bundle into Chinese, with the same placeholders', () => {
    assert.deepEqual(Object.keys(english).filter((key) => typeof chinese[key] !== 'string' || chinese[key].trim() === ''), [], 'missing from bundle.l10n.zh-cn.json');
    assert.deepEqual(Object.keys(chinese).filter((key) => !(key in english)), [], 'in bundle.l10n.zh-cn.json but no longer in the client');
    for (const key of Object.keys(english)) {
      assert.deepEqual(placeholders(chinese[key]), placeholders(key), `${key} → ${chinese[key]}`);
      assert.match(chinese[key], /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/, `${key} has Chinese in its translation`);
    }
  });

  test('Should name the bundle folder in package.json and package it', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { l10n?: string; scripts: Record<string, string> };
    assert.equal(manifest.l10n, './l10n');
    assert.match(manifest.scripts['l10n:export'] ?? '', /^vscode-l10n-dev export --outDir \.\/l10n /);
    const ignore = fs.readFileSync(path.join(REPO_ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!l10n\/\*\.json$/m);
  });

  test('Should show no message, status text or quick pick wording that bypasses vscode.l10n.t', () => {
    // A call or property that shows text, followed by a string literal whose fixed part has words.
    const shown = /(show(?:Information|Warning|Error)Message|setStatusBarMessage)\(\s*(['`"])|\b(title|prompt|placeHolder|placeholder|tooltip|message)\s*[:=]\s*(['`"])/g;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts')) {
          fs.readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
            if (/^\s*(\*|\/\/)/.test(line)) return;
            for (const match of line.matchAll(shown)) {
              const fixed = fixedText(line, match.index + match[0].length, match[2] ?? match[4]);
              if (/[A-Za-z]{3}/.test(fixed)) found.push(`${path.relative(REPO_ROOT, file)}:${index + 1}: ${line.trim()}`);
            }
          });
        }
      }
    };
    walk(path.join(REPO_ROOT, 'client', 'src'));
    assert.deepEqual(found, []);
  });
});
