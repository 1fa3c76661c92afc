/**
 * The manifest's strings come from package.nls.json, translated in package.nls.zh-cn.json: every
 * user-visible string of package.json is a `%key%`, every key is in both files, and no key of
 * either file is left unused.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/fixtures';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const readJson = (file: string): Json => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Json;
const manifest = readJson('package.json') as { [key: string]: Json };
const english = readJson('package.nls.json') as Record<string, string>;
const chinese = readJson('package.nls.zh-cn.json') as Record<string, string>;

/** Each string of `value` with the path that leads to it, e.g. `contributes.commands.3.title`. */
function* strings(value: Json, at: string[] = []): Generator<{ path: string[]; text: string }> {
  if (typeof value === 'string') yield { path: at, text: value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* strings(item, [...at, String(index)]);
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) yield* strings(item, [...at, key]);
}

/** Whether the string at `at` is shown to the user, by the contribution point it belongs to. */
function userVisible(at: string[]): boolean {
  const [top, point, ...rest] = at;
  const last = at[at.length - 1];
  const parent = at[at.length - 2];
  if (top === 'displayName' || top === 'description') return at.length === 1;
  if (top === 'capabilities') return last === 'description';
  if (top !== 'contributes') return false;
  switch (point) {
    case 'commands': return last === 'title' || last === 'shortTitle' || last === 'category';
    case 'views': return last === 'name' || last === 'contextualTitle';
    case 'viewsContainers': return last === 'title';
    case 'viewsWelcome': return last === 'contents';
    case 'submenus': return last === 'label';
    case 'walkthroughs': return ['title', 'description', 'altText'].includes(last);
    case 'semanticTokenTypes': case 'semanticTokenModifiers': return last === 'description';
    case 'configuration':
      return (rest.length === 1 && last === 'title') || ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage'].includes(last)
        || parent === 'enumDescriptions' || parent === 'markdownEnumDescriptions';
    default: return false;
  }
}

const KEY = /^%([^%]+)%$/;
const used = new Set([...strings(manifest)].map((s) => KEY.exec(s.text)?.[1]).filter((key): key is string => key !== undefined));

describe('The manifest in English and Chinese', () => {
  test('Should take every user-visible string of package.json from package.nls.json', () => {
    const literal = [...strings(manifest)].filter((s) => userVisible(s.path) && !KEY.test(s.text)).map((s) => `${s.path.join('.')}: ${s.text}`);
    assert.deepEqual(literal, [], 'strings written in package.json instead of package.nls.json');
    // The walk finds the strings it should: the commands' titles at least.
    assert.ok([...strings(manifest)].filter((s) => userVisible(s.path)).length > 50);
  });

  test('Should have every key used in package.json in both package.nls.json and package.nls.zh-cn.json', () => {
    assert.deepEqual([...used].filter((key) => typeof english[key] !== 'string' || english[key].trim() === ''), [], 'missing from package.nls.json');
    assert.deepEqual([...used].filter((key) => typeof chinese[key] !== 'string' || chinese[key].trim() === ''), [], 'missing from package.nls.zh-cn.json');
  });

  test('Should have no key in either file that package.json does not use', () => {
    assert.deepEqual(Object.keys(english).filter((key) => !used.has(key)), [], 'unused in package.nls.json');
    assert.deepEqual(Object.keys(chinese).filter((key) => !used.has(key)), [], 'unused in package.nls.zh-cn.json');
  });

  test('Should translate: a Chinese string for each English one that is not a name, with the same command links and code spans', () => {
    const names = new Set(['Paper Digest']);
    const untranslated = Object.keys(english).filter((key) => !names.has(english[key]) && !/[\u4e00-\u9fff]/.test(chinese[key] ?? ''));
    assert.deepEqual(untranslated, [], 'no Chinese in these translations');
    const marks = (text: string): string[] => [...text.matchAll(/\(command:[^)]+\)|`[^`]*`|\$\([a-z-]+\)/g)].map((m) => m[0]).sort();
    for (const key of Object.keys(english)) assert.deepEqual(marks(chinese[key] ?? ''), marks(english[key]), `${key}: links, code and icons kept`);
  });

  test('Should package both files', () => {
    const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const result = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(result.status, 0, `vsce ls failed: ${result.stderr}`);
    const files = result.stdout.split('\n').map((line) => line.trim());
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) assert.ok(files.includes(file), `${file} is packaged (got ${files.join(', ')})`);
  });
});
