import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
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
    assert.ok(scopesOf(hits, '数学推理').includes('entity.name.section.topic.paper-digest'));
    assert.ok(scopesOf(hits, 'math reasoning').includes('entity.name.tag.keyword.paper-digest'));
    assert.ok(scopesOf(hits, 'abstract').includes('variable.parameter.hit-field.paper-digest'));
    assert.ok(scopesOf(hits, 'cs.LG').includes('constant.language.category.paper-digest'));
    assert.ok(scopesOf(hits, 'math.OC').includes('constant.language.category.paper-digest'));
    assert.ok(scopesOf(hits, '、').includes('punctuation.separator.category.paper-digest'));
  });

  test('Should scope URLs and arXiv ids in comments', () => {
    const line = 'Comments 12 pages. Code: https://example.org/probes（见附录） and arXiv:2401.01234v2';
    assert.ok(scopesOf(line, 'https://example.org/probes').includes('markup.underline.link.paper-digest'));
    assert.equal(tokenize([line])[0].find((t) => t.scopes.includes('markup.underline.link.paper-digest'))?.text, 'https://example.org/probes');
    assert.ok(scopesOf(line, 'arXiv:2401.01234v2').includes('constant.other.arxiv-id.paper-digest'));
  });

  test('Should leave titles and authors to the semantic tokens', () => {
    for (const line of ['Sparse Probes for Arithmetic Circuits', '小型Transformer中算术电路的稀疏探针', 'Mei Tanaka, Omar Haddad']) {
      const tokens = tokenize([line])[0];
      assert.ok(tokens.every((t) => t.scopes.join(' ') === 'text.paper-digest'), `${line}: ${JSON.stringify(tokens)}`);
    }
  });

  test('Should not carry a field over to the next line', () => {
    const [, second] = tokenize(['机构 * Kyoto University（京都大学', '专题命中 推理 ：x(title)']);
    assert.ok(second[0].scopes.includes('keyword.other.label.topic-hits.paper-digest'));
  });
});
