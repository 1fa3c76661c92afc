import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/fixtures';

interface MarkdownToken {
  type: string;
  content: string;
  children: MarkdownToken[] | null;
}
// markdown-it (a devDependency) with raw HTML on, as a settings editor that renders HTML would.
const markdown = (require('markdown-it') as (options: object) => { parse(text: string, env: object): MarkdownToken[] })({ html: true });

interface MenuItem {
  command?: string;
  submenu?: string;
  when?: string;
  group?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, MenuItem[]>;
    configuration: { properties: Record<string, Record<string, unknown>> };
  };
};
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
/** The manifest's strings (`%key%`) in English and Chinese. */
const NLS: [string, Record<string, string>][] = ['package.nls.json', 'package.nls.zh-cn.json'].map((file) => [file, JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, string>]);

/** A manifest string as each language shows it. */
function localized(text: string): [string, string][] {
  const key = /^%([^%]+)%$/.exec(text)?.[1];
  return key ? NLS.map(([file, strings]) => [file, strings[key] ?? '']) : [['package.json', text]];
}

/** Every `markdownDescription` of the settings, nested ones included, by the path to it. */
function markdownDescriptions(value: unknown, at: string, out: [string, string][] = []): [string, string][] {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'markdownDescription' && typeof child === 'string') {
        out.push([at, child]);
      } else {
        markdownDescriptions(child, `${at}.${key}`, out);
      }
    }
  }
  return out;
}

function htmlTokens(tokens: MarkdownToken[]): string[] {
  return tokens.flatMap((token) => [...(token.type.startsWith('html') ? [token.content] : []), ...htmlTokens(token.children ?? [])]);
}

describe('The extension manifest', () => {
  test('Should name every command the palette lists under the category Paper Digest, and no title with it in front', () => {
    const hidden = new Set((manifest.contributes.menus.commandPalette ?? []).filter((item) => item.when === 'false').map((item) => item.command));
    const listed = manifest.contributes.commands.filter((command) => !hidden.has(command.command));
    assert.ok(listed.length > 20, `${listed.length} commands in the palette`);
    for (const command of listed) {
      // In menus a title is shown alone; the palette puts the category in front of it.
      assert.equal(command.category, '%command.category%', command.command);
    }
    for (const command of manifest.contributes.commands) {
      for (const [file, title] of localized(command.title)) {
        assert.ok(title.length > 0, `${file}: ${command.command} has a title`);
        assert.doesNotMatch(title, /^Paper Digest\s*[:：]/, `${file}: ${command.command} is named in a menu without the category`);
      }
    }
    assert.deepEqual(localized('%command.category%').map(([, name]) => name), ['Paper Digest', 'Paper Digest']);
  });

  test('Should have no setting description whose text a Markdown renderer takes as HTML', () => {
    const descriptions = markdownDescriptions(manifest.contributes.configuration.properties, 'properties');
    assert.ok(descriptions.length > 0);
    for (const [at, description] of descriptions) {
      for (const [file, text] of localized(description)) {
        assert.ok(text.length > 0, `${at}: ${description} is not in ${file}`);
        assert.deepEqual(htmlTokens(markdown.parse(text, {})), [], `${at} (${file}): ${text}`);
      }
    }
  });

  test('Should show Clear Papers Filter in the palette only while a filter is set', () => {
    const palette = manifest.contributes.menus.commandPalette;
    assert.equal(palette.find((item) => item.command === 'paperDigest.clearFilter')?.when, 'paperDigest.papersFiltered');
  });

  test('Should give papers in the view a context menu, in named groups, hidden from the palette', () => {
    const items = manifest.contributes.menus['view/item/context'] ?? [];
    const commands = ['paperDigest.openPaper', 'paperDigest.openPaperToSide', 'paperDigest.copyPaperTitle', 'paperDigest.copyPaperTitles', 'paperDigest.revealPaperInFile'];
    for (const command of commands) {
      const item = items.find((candidate) => candidate.command === command);
      assert.ok(item, `${command} is not in the context menu`);
      assert.match(item.when ?? '', /view == paperDigest\.papers/);
      assert.match(item.when ?? '', /viewItem =~ \/\^paperDigest\\\.paper\(\\\.\|\$\)\//);
      assert.match(item.group ?? '', /^\d+_paper[A-Z]\w+@\d+$/);
      assert.equal(manifest.contributes.menus.commandPalette.find((entry) => entry.command === command)?.when, 'false', `${command} needs a paper: not in the palette`);
    }
  });

  test('Should declare every command a menu names, and list each in the README', () => {
    const declared = new Set(manifest.contributes.commands.map((command) => command.command));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items) {
        assert.ok(!item.command || declared.has(item.command), `${menu} names ${item.command}, which is not declared`);
      }
    }
    const commandsSection = readme.slice(readme.indexOf('## Commands'), readme.indexOf('\n## ', readme.indexOf('## Commands') + 1));
    for (const command of declared) {
      assert.ok(commandsSection.includes(`\`${command}\``), `${command} is not in the README's Commands table`);
    }
  });
});
