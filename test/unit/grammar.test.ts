import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { loadEnv } from '../editor/codeServer';
import { REPO_ROOT } from '../support/fixtures';

let grammar: textmate.IGrammar;

/** Tokenises lines and returns, for each token, its text and its innermost scope. */
function tokenize(lines: string[]): { text: string; scopes: string[] }[][] {
  let state = textmate.INITIAL;
  return lines.map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes }));
  });
}

/** The scopes of the token that holds `text` on the line. */
function scopesOf(line: string, text: string): string[] {
  const tokens = tokenize([line])[0];
  const start = line.indexOf(text);
  assert.ok(start >= 0, `${text} not in ${line}`);
  let offset = 0;
  for (const token of tokens) {
    if (offset <= start && start < offset + token.text.length) {
      assert.ok(token.text.includes(text) || text.includes(token.text), `token ${JSON.stringify(token.text)} does not hold ${JSON.stringify(text)}`);
      return token.scopes;
    }
    offset += token.text.length;
  }
  assert.fail(`no token at ${start}`);
}

before(async () => {
  const wasm = fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(path.join(REPO_ROOT, 'syntaxes', 'paper-digest.tmLanguage.json'), 'utf8'), 'paper-digest.tmLanguage.json'),
  });
  const loaded = await registry.loadGrammar('text.paper-digest');
  assert.ok(loaded);
  grammar = loaded;
});

describe('TextMate grammar', () => {
  const institutions = '机构 * Kyoto University（京都大学） ； Noah Lab (Montreal)（诺亚实验室（蒙特利尔）） 纠错';
  const hits = '专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 cs.LG、math.OC';

  test('Should scope the labels of every labelled field', () => {
    assert.ok(scopesOf(institutions, '机构').includes('keyword.other.label.institutions.paper-digest'));
    assert.ok(scopesOf(hits, '专题命中').includes('keyword.other.label.topic-hits.paper-digest'));
    assert.ok(scopesOf(hits, '分类').includes('keyword.other.label.categories.paper-digest'));
    assert.ok(scopesOf('AI总结 本文提出方法。', 'AI总结').includes('keyword.other.label.summary.paper-digest'));
    assert.ok(scopesOf('Comments 12 pages', 'Comments').includes('keyword.other.label.comments.paper-digest'));
    assert.ok(scopesOf('Journal ref Proc. X, 2026', 'Journal ref').includes('keyword.other.label.journal-ref.paper-digest'));
  });

  test('Should scope separators, translations and the report marker on the institutions line', () => {
    assert.ok(scopesOf(institutions, ' ； ').includes('punctuation.separator.institution.paper-digest'));
    assert.ok(scopesOf(institutions, '京都大学').includes('string.unquoted.translation.paper-digest'));
    assert.ok(scopesOf(institutions, '蒙特利尔').includes('string.unquoted.translation.paper-digest'), 'nested translation');
    assert.ok(!scopesOf(institutions, 'Montreal').includes('string.unquoted.translation.paper-digest'), 'half-width brackets in a name are not a translation');
    assert.ok(scopesOf(institutions, '纠错').includes('comment.line.report-marker.paper-digest'));
  });

  test('Should scope the topic, keywords, hit fields and categories', () => {
    assert.ok(scopesOf(hits, '数学推理').includes('entity.name.function.topic.paper-digest'));
    assert.ok(scopesOf(hits, 'math reasoning').includes('entity.name.tag.keyword.paper-digest'));
    assert.ok(scopesOf(hits, 'abstract').includes('variable.parameter.hit-field.paper-digest'));
    assert.ok(scopesOf(hits, 'cs.LG').includes('constant.language.category.paper-digest'));
    assert.ok(scopesOf(hits, 'math.OC').includes('constant.language.category.paper-digest'));
    assert.ok(scopesOf(hits, '、').includes('punctuation.separator.category.paper-digest'));
  });

  test('Should scope a topic with brackets of its own whole, as the parser reads it, a colon inside them too', () => {
    for (const [line, topic] of [
      ['专题命中 数学（几何：平面） ：reasoning(abstract)；分类 cs.LG', '数学（几何：平面） '],
      ['专题命中 LLM (agents) ：reasoning(abstract)；分类 cs.AI', 'LLM (agents) '],
      ['专题命中 数学（几何（平面））：reasoning(abstract)', '数学（几何（平面））'],
    ]) {
      const token = tokenize([line])[0].find((each) => each.scopes.includes('entity.name.function.topic.paper-digest'));
      assert.equal(token?.text, topic, line);
      assert.ok(scopesOf(line, 'reasoning').includes('entity.name.tag.keyword.paper-digest'), line);
    }
  });

  test('Should scope URLs and arXiv ids in comments', () => {
    const line = 'Comments 12 pages. Code: https://example.org/probes（见附录） and arXiv:2401.01234v2';
    assert.ok(scopesOf(line, 'https://example.org/probes').includes('markup.underline.link.paper-digest'));
    assert.equal(tokenize([line])[0].find((t) => t.scopes.includes('markup.underline.link.paper-digest'))?.text, 'https://example.org/probes');
    assert.ok(scopesOf(line, 'arXiv:2401.01234v2').includes('constant.numeric.arxiv-id.paper-digest'));
  });

  test('Should leave titles and authors to the semantic tokens', () => {
    // A Chinese title that starts with 机构 (institutional investors) is a title, as the parser reads it.
    for (const line of ['Sparse Probes for Arithmetic Circuits', '小型Transformer中算术电路的稀疏探针', 'Mei Tanaka, Omar Haddad', '机构投资者与市场流动性']) {
      const tokens = tokenize([line])[0];
      assert.ok(tokens.every((t) => t.scopes.join(' ') === 'text.paper-digest'), `${line}: ${JSON.stringify(tokens)}`);
    }
  });

  test('Should not carry a field over to the next line', () => {
    const [, second] = tokenize(['机构 * Kyoto University（京都大学', '专题命中 推理 ：x(title)']);
    assert.ok(second[0].scopes.includes('keyword.other.label.topic-hits.paper-digest'));
  });
});

// ---------------------------------------------------------------------------------------------
// The default themes colour what the grammar and the semantic tokens scope.

interface ThemeRule {
  scope?: string | string[];
  settings: { foreground?: string; fontStyle?: string };
}

/** The theme files VS Code ships, from the code-server the editor tests install. */
function themesFolder(): string {
  const env = loadEnv();
  return path.join(path.dirname(env.codeServerEntry), '..', '..', 'lib', 'vscode', 'extensions', 'theme-defaults', 'themes');
}

/** A theme file's token colours, with those of the themes it includes first, and its editor foreground. */
function loadTheme(file: string): { rules: ThemeRule[]; foreground: string | undefined } {
  const theme = JSON.parse(fs.readFileSync(file, 'utf8')) as { include?: string; tokenColors?: ThemeRule[] | string; colors?: Record<string, string> };
  const base = theme.include ? loadTheme(path.join(path.dirname(file), theme.include)) : { rules: [], foreground: undefined };
  const own = typeof theme.tokenColors === 'string' ? loadTheme(path.join(path.dirname(file), theme.tokenColors)).rules : (theme.tokenColors ?? []);
  return { rules: [...base.rules, ...own], foreground: theme.colors?.['editor.foreground'] ?? base.foreground };
}

const THEMES: [string, string, string][] = [
  // name, file, the foreground VS Code falls back to when the theme names none
  ['Dark Modern', 'dark_modern.json', '#D4D4D4'],
  ['Light Modern', 'light_modern.json', '#000000'],
  ['Dark High Contrast', 'hc_black.json', '#FFFFFF'],
  ['Light High Contrast', 'hc_light.json', '#292929'],
];

const MANIFEST = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { semanticTokenTypes: { id: string }[]; semanticTokenScopes: { scopes: Record<string, string[]> }[] };
};
const SEMANTIC_SCOPES = MANIFEST.contributes.semanticTokenScopes[0].scopes;
/** Every scope a semantic token type maps to, each the name of one word `wN` of a probe grammar. */
const PROBE_SCOPES = [...new Set(Object.values(SEMANTIC_SCOPES).flat())];

interface Themed {
  grammar: textmate.IGrammar;
  probe: textmate.IGrammar;
  registry: textmate.Registry;
  foreground: string;
}

/** Our grammar and a probe grammar of the semantic tokens' scopes, coloured by a theme. */
async function themedGrammar(themeFile: string): Promise<Themed> {
  const theme = loadTheme(themeFile);
  const foreground = (theme.foreground ?? THEMES.find(([, file]) => themeFile.endsWith(file))![2]).toUpperCase();
  const probe = { scopeName: 'source.probe', patterns: PROBE_SCOPES.map((scope, i) => ({ match: `\\bw${i}\\b`, name: scope })) };
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scopeName) =>
      scopeName === 'text.paper-digest'
        ? textmate.parseRawGrammar(fs.readFileSync(path.join(REPO_ROOT, 'syntaxes', 'paper-digest.tmLanguage.json'), 'utf8'), 'paper-digest.tmLanguage.json')
        : scopeName === 'source.probe'
          ? textmate.parseRawGrammar(JSON.stringify(probe), 'probe.json')
          : null,
  });
  registry.setTheme({ settings: [{ settings: { foreground } }, ...theme.rules] } as textmate.IRawTheme);
  const grammar = await registry.loadGrammar('text.paper-digest');
  const probeGrammar = await registry.loadGrammar('source.probe');
  assert.ok(grammar && probeGrammar);
  return { grammar, probe: probeGrammar, registry, foreground };
}

/** The foreground colour (upper case) the theme gives the text `part` of a line. */
function foregroundOf(themed: Themed, line: string, part: string, grammar = themed.grammar): string {
  const start = line.indexOf(part);
  assert.ok(start >= 0, `${part} not in ${line}`);
  const tokens = grammar.tokenizeLine2(line, textmate.INITIAL).tokens;
  const colors = themed.registry.getColorMap();
  const found = new Set<string>();
  for (let i = 0; i < tokens.length; i += 2) {
    const tokenStart = tokens[i];
    const tokenEnd = i + 2 < tokens.length ? tokens[i + 2] : line.length;
    if (tokenEnd > start && tokenStart < start + part.length) {
      found.add(colors[(tokens[i + 1] & FOREGROUND_MASK) >>> FOREGROUND_OFFSET].toUpperCase());
    }
  }
  assert.equal(found.size, 1, `${JSON.stringify(part)} has ${found.size} colours: ${[...found].join(', ')}`);
  return [...found][0];
}

/** The foreground a theme gives a token of one scope (and nothing around it). */
function foregroundOfScope(themed: Themed, scope: string): string {
  const word = `w${PROBE_SCOPES.indexOf(scope)}`;
  return foregroundOf(themed, word, word, themed.probe);
}

// vscode-textmate's encoded token metadata: bits 15-23 hold the foreground's index in the colour map.
const FOREGROUND_MASK = 0b00000000111111111000000000000000;
const FOREGROUND_OFFSET = 15;

describe('Colours in the default themes', () => {
  const hits = '专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 cs.LG、math.OC';
  const institutions = '机构 * Kyoto University（京都大学） ； Noah Lab 纠错';
  const comments = 'Comments 12 pages, see arXiv:2401.01234v2';
  const parts: [string, string, string][] = [
    ['the topic', hits, '数学推理'],
    ['a keyword', hits, 'math reasoning'],
    ['a hit field with its brackets', hits, '(abstract)'],
    ['a category', hits, 'cs.LG'],
    ['the topic label', hits, '专题命中'],
    ['the categories label', hits, '分类'],
    ['an institution translation', institutions, '京都大学'],
    ['the report marker', institutions, '纠错'],
    ['an arXiv id', comments, 'arXiv:2401.01234v2'],
  ];

  for (const [name, file] of THEMES) {
    test(`Should colour topics, keywords, hit fields, categories, labels and arXiv ids in ${name}`, async () => {
      const themed = await themedGrammar(path.join(themesFolder(), file));
      const plain = parts.filter(([, line, part]) => foregroundOf(themed, line, part) === themed.foreground).map(([what]) => what);
      assert.deepEqual(plain, [], `${name} leaves these in the editor's foreground ${themed.foreground}`);
    });

    test(`Should map every semantic token type to a scope that ${name} colours`, async () => {
      const themed = await themedGrammar(path.join(themesFolder(), file));
      for (const { id } of MANIFEST.contributes.semanticTokenTypes) {
        // VS Code colours a semantic token by the first of its type's scopes the theme colours.
        const scopes = SEMANTIC_SCOPES[id] ?? [];
        const colored = scopes.find((scope) => foregroundOfScope(themed, scope) !== themed.foreground);
        assert.ok(colored, `${name} colours none of the scopes of ${id}: ${scopes.join(', ') || 'none'}`);
      }
    });
  }
});
