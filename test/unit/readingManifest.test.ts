/**
 * The reading workflow's contributions in package.json: every command a menu or keybinding names
 * is declared and registered by the client, keybindings are scoped to digests or the Papers view,
 * and the view's `when` clauses tell the paper items' states apart.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/fixtures';

interface Contributes {
  commands: { command: string; title: string }[];
  menus: Record<string, { command?: string; submenu?: string; when?: string; group?: string }[]>;
  keybindings: { command: string; key: string; when: string }[];
  configuration: { properties: Record<string, unknown> };
}

const contributes = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { contributes: Contributes }).contributes;

/** The text of every client source file and of the protocol (where command ids are declared). */
function sources(): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  walk(path.join(REPO_ROOT, 'client', 'src'));
  walk(path.join(REPO_ROOT, 'server', 'src'));
  return files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** The regular expressions a `when` clause tests `viewItem` with. */
function viewItemPatterns(when: string): RegExp[] {
  return [...when.matchAll(/viewItem =~ \/((?:[^/\\]|\\.)+)\//g)].map((match) => new RegExp(match[1]));
}

describe('The reading workflow in package.json', () => {
  test('Should declare every command that a menu or keybinding names, and the client should name each', () => {
    const declared = new Set(contributes.commands.map((command) => command.command));
    const named = [...Object.values(contributes.menus).flat().map((item) => item.command), ...contributes.keybindings.map((binding) => binding.command)].filter((command): command is string => !!command);
    for (const command of named) {
      assert.ok(declared.has(command), `${command} is declared`);
    }
    const text = sources();
    for (const command of declared) {
      assert.ok(text.includes(`'${command}'`), `${command} is named in the client or the protocol`);
    }
  });

  test('Should scope each keybinding to digests or the Papers view', () => {
    assert.ok(contributes.keybindings.length >= 4);
    for (const binding of contributes.keybindings) {
      assert.match(binding.when, /editorLangId == paper-digest|focusedView == paperDigest\.papers/, `${binding.key} → ${binding.command}`);
    }
  });

  test('Should offer Star or Unstar, Mark Read or Mark Unread, by the paper item state', () => {
    const inline = contributes.menus['view/item/context'].filter((item) => item.group?.startsWith('inline'));
    const offered = (contextValue: string): string[] =>
      inline.filter((item) => item.when && item.when.includes('view == paperDigest.papers') && viewItemPatterns(item.when).every((pattern) => pattern.test(contextValue))).map((item) => item.command!).sort();
    assert.deepEqual(offered('paperDigest.paper.unread.unstarred'), ['paperDigest.markRead', 'paperDigest.star']);
    assert.deepEqual(offered('paperDigest.paper.duplicate.read.starred.tagged'), ['paperDigest.markUnread', 'paperDigest.unstar']);
    assert.deepEqual(offered('paperDigest.paper.read.unstarred'), ['paperDigest.markUnread', 'paperDigest.star']);
    assert.deepEqual(offered('paperDigest.group.file'), ['paperDigest.markGroupRead']);
  });

  test('Should declare the CodeLens setting', () => {
    assert.deepEqual((contributes.configuration.properties['paperDigest.codeLens.enable'] as { default: boolean }).default, true);
  });
});
