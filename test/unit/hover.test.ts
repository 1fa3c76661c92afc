import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import type { Hover, MarkupContent, Position, Range } from 'vscode-languageserver-types';
import { hover } from '../../server/src/service/features/hover';
import { documentLinks } from '../../server/src/service/features/links';
import { HEADING_MEANING, HIT_FIELDS, LABEL_MEANINGS, LabelMeaning, labelMeaning, hitFieldMeaning, TOPIC_MEANING } from '../../server/src/service/features/labels';
import { NEVER_CANCELLED } from '../../server/src/service/cancellation';
import type { MessageLanguage } from '../../server/src/service/messages';
import type { DigestDocument } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { ALL_CATEGORIES, categoryByCode, nearestCategories } from '../../server/src/service/taxonomy';
import { escapeMarkdown, hasCjk } from '../../server/src/service/text';
import { digest, entryLines, readFixture } from '../support/fixtures';
import { derive } from '../support/derive';

// ---- Helpers ----------------------------------------------------------------------------

/** A fixture's text and model. */
interface Loaded {
  readonly text: string;
  readonly doc: DigestDocument;
}

function load(text: string): Loaded {
  return { text, doc: parseDigest(text) };
}

const ENTRIES = load(readFixture('hover/entries.digest'));
const HOSTILE = load(readFixture('hover/hostile.digest'));

/**
 * The range of the `occurrence`-th appearance of `needle` in the text, computed from the raw
 * text (a BOM counts as a character of line 0, as in LSP), independently of the parser.
 */
function rangeOf(text: string, needle: string, occurrence = 0): Range {
  const lines = text.split(/\r\n|\n|\r/);
  let seen = 0;
  for (let line = 0; line < lines.length; line++) {
    let from = 0;
    for (;;) {
      const at = lines[line].indexOf(needle, from);
      if (at < 0) {
        break;
      }
      if (seen++ === occurrence) {
        return { start: { line, character: at }, end: { line, character: at + needle.length } };
      }
      from = at + 1;
    }
  }
  throw new Error(`"${needle}" (occurrence ${occurrence}) is not in the fixture`);
}

/** A position `offset` characters into the needle (the middle of it unless told). */
function positionIn(text: string, needle: string, occurrence = 0, offset?: number): Position {
  const range = rangeOf(text, needle, occurrence);
  return { line: range.start.line, character: range.start.character + (offset ?? Math.floor(needle.length / 2)) };
}

function markdown(result: Hover | null): string {
  assert.ok(result, 'expected a hover');
  const contents = result.contents as MarkupContent;
  assert.equal(contents.kind, 'markdown');
  return contents.value;
}

/**
 * Hovers over `needle` and checks that the hover's range is exactly the needle (or `part`, a
 * piece of the line the hover should cover instead). Returns the markdown.
 */
function hoverOver(loaded: Loaded, needle: string, options: { occurrence?: number; offset?: number; part?: string; partOccurrence?: number } = {}): string {
  const result = hover(loaded.doc, positionIn(loaded.text, needle, options.occurrence, options.offset));
  const value = markdown(result);
  const expected = options.part !== undefined ? rangeOf(loaded.text, options.part, options.partOccurrence ?? options.occurrence) : rangeOf(loaded.text, needle, options.occurrence);
  assert.deepEqual(result?.range, expected, `range of the hover over "${needle}"`);
  return value;
}

function assertShows(value: string, plain: string): void {
  assert.ok(value.includes(escapeMarkdown(plain)), `expected the hover to show "${plain}":\n${value}`);
}

/** markdown-it (a devDependency), with raw HTML and linkify on. */
type Renderer = { render(markdown: string): string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MARKDOWN_IT: Renderer = (require('markdown-it') as (options: object) => Renderer)({ html: true, linkify: true });

/** A link the hover builds itself: an arXiv abstract page of a well-formed identifier. */
const BUILT_LINK = /\]\(https:\/\/arxiv\.org\/abs\/(?:\d{4}\.\d{4,5}|[A-Za-z-]+(?:\.[A-Za-z]{2})?\/\d{7})(?:v\d+)?\)/g;

/** The markdown with each backslash escape replaced by `□`: what remains is live syntax. */
function liveSyntax(value: string): string {
  return value.replace(BUILT_LINK, '□').replace(/\\[!-/:-@[-`{-~]/g, '□');
}

/**
 * Asserts that markdown holds no link, image, HTML, code span, theme icon or autolink except the
 * arXiv links a hover builds, both on the text and, when markdown-it is there, on its rendering
 * with raw HTML and linkify enabled (stricter than VS Code's hover renderer).
 */
function assertInert(value: string): void {
  const live = liveSyntax(value);
  assert.doesNotMatch(live, /\]\(/, `a live link in:\n${value}`);
  assert.doesNotMatch(live, /!\[/, `a live image in:\n${value}`);
  assert.doesNotMatch(live, /[<>]/, `raw HTML in:\n${value}`);
  assert.doesNotMatch(live, /`/, `a code span in:\n${value}`);
  assert.doesNotMatch(live, /\$\(/, `a theme icon in:\n${value}`);
  assert.doesNotMatch(live, /\b(?:https?|ftp|file|javascript|command|data|vscode|mailto)[:：]/i, `a live scheme in:\n${value}`);
  assert.doesNotMatch(live, /www\./i, `a www. autolink in:\n${value}`);
  assert.doesNotMatch(live, /@/, `an e-mail autolink in:\n${value}`);
  assert.doesNotMatch(live, /&(?!(?:amp|lt|gt|quot|#39);)/, `a live entity in:\n${value}`);
  const html = MARKDOWN_IT.render(value);
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    const [tag, , name, attributes] = match;
    if (name === 'a') {
      assert.match(attributes, /^(?: href="https:\/\/arxiv\.org\/abs\/[A-Za-z0-9./-]+")?$/, `a link the hover did not build: ${tag}`);
    } else {
      assert.ok(['p', 'strong', 'em', 'hr'].includes(name) && attributes.trim() === '', `unexpected HTML ${tag} in:\n${html}`);
    }
  }
}

/** The text a reader sees: markdown-it's HTML without tags, entities decoded. */
function renderedText(value: string): string {
  return MARKDOWN_IT.render(value)
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

// ---- escapeMarkdown ---------------------------------------------------------------------

describe('escapeMarkdown', () => {
  test('Should turn hostile text into its exact inert form', () => {
    const cases: [string, string][] = [
      ['[x](command:workbench.action.terminal.new)', '\\[x\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)'],
      ['<img src=x onerror=alert(1)>', '&lt;img src\\=x onerror\\=alert\\(1\\)&gt;'],
      ['javascript:alert(1)', 'javascript\\:alert\\(1\\)'],
      ['file:///etc/passwd', 'file\\:\\/\\/\\/etc\\/passwd'],
      ['https://evil.example', 'https\\:\\/\\/evil\\.example'],
      ['www.evil.example', 'www\\.evil\\.example'],
      ['a@evil.example', 'a\\@evil\\.example'],
      ['![img](http://x)', '\\!\\[img\\]\\(http\\:\\/\\/x\\)'],
      ['``` code ``` and `x`', '\\`\\`\\` code \\`\\`\\` and \\`x\\`'],
      ['$(terminal)', '\\$\\(terminal\\)'],
      ['&lt;b&gt; & "q" \'s\'', '&amp;lt\\;b&amp;gt\\; &amp; &quot;q&quot; &#39;s&#39;'],
      ['a\\b', 'a\\\\b'],
      ['# 1. - + = | ~ _ * {}', '\\# 1\\. \\- \\+ \\= \\| \\~ \\_ \\* \\{\\}'],
      ['中文（括号）：全角', '中文（括号）：全角'],
    ];
    for (const [input, expected] of cases) {
      assert.equal(escapeMarkdown(input), expected, input);
    }
  });

  test('Should escape every ASCII punctuation character and nothing else of ASCII', () => {
    for (let code = 0x20; code < 0x7f; code++) {
      const c = String.fromCharCode(code);
      const escaped = escapeMarkdown(c);
      if (/[A-Za-z0-9 ]/.test(c)) {
        assert.equal(escaped, c);
      } else {
        assert.ok(escaped === '\\' + c || /^&(?:amp|lt|gt|quot|#39);$/.test(escaped), `${c} → ${escaped}`);
      }
    }
  });

  test('Should replace control and bidirectional override characters and keep tabs and line ends', () => {
    assert.equal(escapeMarkdown('a\u202eb\u2066c\u0000d\u001be\u0085f'), 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf');
    assert.equal(escapeMarkdown('a\tb\nc\rd'), 'a\tb\nc\rd');
    // Line and paragraph separators, bidirectional marks and lone surrogates, as in a label.
    assert.equal(escapeMarkdown('a\u2028b\u2029c\u200ed\u200fe\u061cf\ud800g\udc00h\ud83d\ude00'), 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg\ufffdh\ud83d\ude00');
  });

  test('Should render as exactly the text it escapes, with linkify and raw HTML on', () => {
    const alphabet = fc.constantFrom(
      ...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split(''),
      ...'abchtpswxyzHTW019'.split(''),
      '中', '文', '（', '）', '：', '、', '。', '．',
      'https://', 'www.', 'javascript:', 'command:', '](', '![', '<img ', '&lt;', '$(', '@', '\n', '\n=\n', '\n---\n', ' a@b.cn ',
    );
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 40 }), (raw) => {
        // One paragraph: no blank lines, no leading or trailing white space on any line.
        const input = raw
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line.length > 0)
          .join('\n');
        fc.pre(input.length > 0);
        const html = MARKDOWN_IT.render(escapeMarkdown(input));
        const expected = `<p>${input.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</p>\n`;
        assert.equal(html, expected);
      }),
      { numRuns: 400 },
    );
  });
});

// ---- labels -----------------------------------------------------------------------------

describe('labels glossary', () => {
  test('Should find labels as written, ignoring spaces and Latin case', () => {
    assert.equal(labelMeaning('AI 总结'), LABEL_MEANINGS.summary);
    assert.equal(labelMeaning('journal ref'), LABEL_MEANINGS.journalRef);
    assert.equal(labelMeaning('＊'), LABEL_MEANINGS.star);
    assert.equal(labelMeaning('摘要'), undefined);
  });

  test('Should translate the hit fields into Chinese', () => {
    assert.equal(hitFieldMeaning('abstract')?.chinese, '摘要');
    assert.equal(hitFieldMeaning(' Title ')?.chinese, '标题');
    assert.equal(hitFieldMeaning('comments')?.chinese, '备注');
    assert.equal(hitFieldMeaning('body'), undefined);
    assert.ok(HIT_FIELDS.every((field) => hasCjk(field.chinese)));
  });
});

// ---- Hovers by kind ---------------------------------------------------------------------

describe('hover: titles', () => {
  test('Should show the Chinese title on the English title, with the paper triage', () => {
    const value = hoverOver(ENTRIES, 'Sparse Probes for Arithmetic Circuits in Small Transformers');
    assertShows(value, '小型Transformer中算术电路的稀疏探针');
    // The topic, its hits with their fields in Chinese, the categories with their names.
    assertShows(value, '数学推理');
    assertShows(value, 'math reasoning (title 标题)');
    assertShows(value, 'reasoning (abstract 摘要)');
    assertShows(value, 'cs.LG Machine Learning · 机器学习');
    assertShows(value, 'cs.CL Computation and Language · 计算与语言');
    assertInert(value);
    // In Chinese alone, with Chinese punctuation: `；` between the hits, `（）` around a field.
    const chinese = markdown(hover(ENTRIES.doc, positionIn(ENTRIES.text, 'Sparse Probes for Arithmetic Circuits in Small Transformers'), NEVER_CANCELLED, 'zh-cn'));
    assert.ok(chinese.includes('命中：reasoning（abstract 摘要）；math reasoning（title 标题）'), chinese);
  });

  test('Should show only the first sentences of a long summary on a title', () => {
    const value = hoverOver(ENTRIES, 'Sparse Probes', { part: 'Sparse Probes for Arithmetic Circuits in Small Transformers' });
    const summary = ENTRIES.doc.entries[0].summary!.value.text;
    assertShows(value, '本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。');
    assert.ok(!value.includes(escapeMarkdown(summary)), 'the whole summary is shown');
    assert.match(value, /。…$/, 'the preview ends at a sentence end');
  });

  test('Should show the English title on the Chinese title', () => {
    const value = hoverOver(ENTRIES, '小型Transformer中算术电路的稀疏探针');
    assertShows(value, 'Sparse Probes for Arithmetic Circuits in Small Transformers');
    assertShows(value, '数学推理');
  });

  test('Should say so when the counterpart title is missing', () => {
    const loaded = load(digest(entryLines('A', { chineseTitle: null })));
    const value = hoverOver(loaded, 'A Sparse Probes for Arithmetic Circuits');
    assertShows(value, 'No Chinese title in this entry');
  });
});

describe('hover: institutions', () => {
  test('Should show the translation on an institution name and the name on its translation', () => {
    assertShows(hoverOver(ENTRIES, 'Kyoto University'), '京都大学');
    assertShows(hoverOver(ENTRIES, '京都大学'), 'Kyoto University');
    const tsinghua = hoverOver(ENTRIES, 'Tsinghua University');
    assertShows(tsinghua, '清华大学');
    assertShows(tsinghua, 'Institution 2 of 3');
    assertShows(hoverOver(ENTRIES, '清华大学'), 'Tsinghua University');
  });

  test('Should say when an institution has no translation', () => {
    // In both languages, the default, as the hover's other sentences.
    assertShows(hoverOver(ENTRIES, 'ExampleLab'), 'No Chinese name given for this institution · 此机构没有中文名');
  });

  test('Should say of a bracketed tag or a category code on the line that it is no institution, as its problem does', () => {
    const loaded = load(digest(entryLines('T', { institutions: '机构 * [cs.AI]（计算机科学与人工智能） ； cs.LG ； Kyoto University（京都大学） 纠错' })));
    const tag = hoverOver(loaded, '[cs.AI]');
    assertShows(tag, '计算机科学与人工智能');
    assertShows(tag, "'[cs.AI]' is a bracketed tag, not an institution");
    assert.ok(!tag.includes('Institution 1 of'), tag);
    assertShows(hoverOver(loaded, '计算机科学与人工智能'), "is a bracketed tag, not an institution");
    // A category code: named as the category it is.
    const code = hoverOver(loaded, 'cs.LG', { occurrence: 1 });
    assert.ok(!code.includes('No Chinese name given for this institution') && !code.includes('Institution 2 of'), code);
    assertShows(code, 'Machine Learning');
    // A real institution on the same line keeps its place.
    assertShows(hoverOver(loaded, 'Kyoto University'), 'Institution 3 of 3');
  });

  test('Should hover the item whose name ends right at the cursor', () => {
    const value = hoverOver(ENTRIES, 'Kyoto University', { offset: 'Kyoto University'.length });
    assertShows(value, '京都大学');
  });

  test('Should not hover the separators between items', () => {
    // Just after `）` and on `；`: the translation ends one character before.
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, '） ； ', 0, 1)), null);
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, '） ； ', 0, 2)), null);
  });
});

describe('hover: authors', () => {
  test('Should pair authors with the Chinese names the 机构 line gives by position, both ways', () => {
    // In the authors paragraph.
    assertShows(hoverOver(ENTRIES, 'Li Na', { occurrence: 0 }), '李娜');
    assertShows(hoverOver(ENTRIES, 'Chen Jie', { occurrence: 0 }), '陈杰');
    // On the 机构 line.
    assertShows(hoverOver(ENTRIES, 'Wei Zhang', { occurrence: 1 }), '张伟');
    const reverse = hoverOver(ENTRIES, '李娜');
    assertShows(reverse, 'Li Na');
    assertShows(reverse, 'Author 2 of 4');
  });

  test('Should say when the 机构 line has fewer Chinese names than names', () => {
    assertShows(hoverOver(ENTRIES, 'Ada Byron', { occurrence: 1 }), 'the 机构 line gives 4 names and 3 Chinese names');
    assertShows(hoverOver(ENTRIES, 'Ada Byron', { occurrence: 0 }), 'No Chinese name given for this author');
  });

  test('Should show a single author’s Chinese name given as the only 机构 item', () => {
    assertShows(hoverOver(ENTRIES, 'Hana Sato', { occurrence: 0 }), '佐藤花');
  });

  test('Should give an author without a Chinese name their position', () => {
    const value = hoverOver(ENTRIES, 'Omar Haddad');
    assertShows(value, 'No Chinese name given for this author');
    assertShows(value, 'Author 2 of 3');
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, 'Tanaka, Omar', 0, 'Tanaka,'.length)), null);
  });
});

describe('hover: categories', () => {
  test('Should name a category code in English and Chinese', () => {
    const value = hoverOver(ENTRIES, 'cs.CL', { occurrence: 0 });
    assertShows(value, 'Computation and Language · 计算与语言');
    assertShows(value, 'Computer Science · 计算机科学');
    assertShows(hoverOver(ENTRIES, 'q-bio.NC'), `${categoryByCode('q-bio.NC')!.name} · ${categoryByCode('q-bio.NC')!.nameZh}`);
  });

  test('Should give the correct spelling of a miscased code', () => {
    const value = hoverOver(ENTRIES, 'CS.lg');
    assertShows(value, 'not an arXiv code as written');
    assert.ok(value.includes(`**${escapeMarkdown('cs.LG')}**`));
  });

  test('Should count the papers of a topic as the Papers view groups them (case, width and white space aside)', () => {
    const topics = load(
      digest(
        entryLines('X', { topicHits: '专题命中 Math Reasoning ：x(title)；分类 cs.LG' }),
        entryLines('Y', { topicHits: '专题命中 math  reasoning ：y(title)；分类 cs.LG' }),
        entryLines('Z', { topicHits: '专题命中 ＭＡＴＨ　Reasoning ：z(title)；分类 cs.LG' }),
        entryLines('W', { topicHits: '专题命中 Logic ：w(title)；分类 cs.LG' }),
      ),
    );
    assertShows(hoverOver(topics, 'math  reasoning'), '3 of 4 papers in this file have the topic');
    assertShows(hoverOver(topics, 'Logic'), '1 of 4 papers in this file have the topic');
  });

  test('Should say an archive given as a category is one, with its categories', () => {
    const value = hoverOver(load(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 astro-ph、cs.LG' }))), 'astro-ph');
    assertShows(value, 'an arXiv archive, Astrophysics · 天体物理, not a category');
    assertShows(value, 'Its categories: astro-ph.CO, astro-ph.EP, astro-ph.GA, astro-ph.HE, astro-ph.IM, astro-ph.SR');
  });

  test('Should give the code a category in full-width characters stands for', () => {
    const wide = load(digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 ｃｓ．ＬＧ、cs.ＣＬ' })));
    for (const [needle, code] of [['ｃｓ．ＬＧ', 'cs.LG'], ['cs.ＣＬ', 'cs.CL']]) {
      const value = hoverOver(wide, needle);
      assertShows(value, 'not an arXiv code as written: it is in full-width characters');
      assert.ok(value.includes(`**${escapeMarkdown(code)}**`), value);
    }
  });

  test('Should suggest the nearest codes for an unknown code', () => {
    const value = hoverOver(ENTRIES, 'cs.XY');
    assertShows(value, 'not in the arXiv taxonomy');
    const nearest = nearestCategories('cs.XY', 3);
    assert.ok(nearest.length > 0);
    for (const category of nearest) {
      assertShows(value, `${category.code} ${category.name}`);
    }
  });

  test('Should name every code of the taxonomy, in Chinese too', () => {
    const codes = ALL_CATEGORIES.map((category) => category.code);
    const prefix = '专题命中 数学推理 ：reasoning(abstract)；分类 ';
    const loaded = load(digest(entryLines('A', { topicHits: prefix + codes.join('、') })));
    const line = rangeOf(loaded.text, prefix).start.line;
    let start = prefix.length;
    for (const category of ALL_CATEGORIES) {
      const result = hover(loaded.doc, { line, character: start + 1 });
      const value = markdown(result);
      assert.deepEqual(result?.range, { start: { line, character: start }, end: { line, character: start + category.code.length } }, category.code);
      assertShows(value, `${category.name} · ${category.nameZh}`);
      if (/^(?:cs|math|stat|eess)\./.test(category.code)) {
        assert.ok(hasCjk(category.nameZh), `${category.code} has no Chinese name`);
      }
      start += category.code.length + 1;
    }
  });
});

describe('hover: labels', () => {
  const cases: [string, keyof typeof LABEL_MEANINGS, number][] = [
    ['机构', 'institutions', 0],
    ['*', 'star', 0],
    ['纠错', 'reportMarker', 0],
    ['专题命中', 'topicHits', 0],
    ['分类', 'categories', 0],
    ['AI总结', 'summary', 0],
    ['Comments', 'comments', 0],
    ['Journal ref', 'journalRef', 0],
  ];
  for (const [label, name, occurrence] of cases) {
    test(`Should explain the label ${label}`, () => {
      const meaning = LABEL_MEANINGS[name];
      const value = hoverOver(ENTRIES, label, { occurrence, offset: 0 });
      assertShows(value, meaning.english);
      assertShows(value, meaning.explanation);
      assertInert(value);
    });
  }

  test('Should explain each label, the heading and a topic in the message language: English for en and both, Chinese for zh-cn', () => {
    const inLanguage = (needle: string, language: MessageLanguage, occurrence = 0, offset = 0): string =>
      markdown(hover(ENTRIES.doc, positionIn(ENTRIES.text, needle, occurrence, offset), NEVER_CANCELLED, language));
    const explained: [string, LabelMeaning, number, number][] = [
      ...cases.map(([label, name, occurrence]): [string, LabelMeaning, number, number] => [label, LABEL_MEANINGS[name], occurrence, 0]),
      ['大模型推理能力', HEADING_MEANING, 0, 0],
      ['数学推理', TOPIC_MEANING, 0, 1],
    ];
    for (const [needle, meaning, occurrence, offset] of explained) {
      assert.ok(hasCjk(meaning.explanationZh), `${needle}: a Chinese explanation`);
      for (const language of ['both', 'en'] as const) {
        const value = inLanguage(needle, language, occurrence, offset);
        assertShows(value, meaning.explanation);
        assert.ok(!value.includes(escapeMarkdown(meaning.explanationZh)), `${needle} (${language}): no Chinese explanation`);
      }
      const zh = inLanguage(needle, 'zh-cn', occurrence, offset);
      assertShows(zh, meaning.explanationZh);
      assert.ok(!zh.includes(escapeMarkdown(meaning.explanation)), `${needle} (zh-cn): no English explanation:\n${zh}`);
    }
  });

  test('Should explain `AI 总结` written with a space', () => {
    const loaded = load(digest(entryLines('A', { summary: 'AI 总结 一段总结。' })));
    assertShows(hoverOver(loaded, 'AI 总结'), LABEL_MEANINGS.summary.english);
  });

  test('Should translate the English labels into Chinese', () => {
    assertShows(hoverOver(ENTRIES, 'Comments'), '备注');
    assertShows(hoverOver(ENTRIES, 'Journal ref'), '期刊引用');
  });
});

describe('hover: topic, hits and heading', () => {
  test('Should explain the topic and count the papers that share it', () => {
    const value = hoverOver(ENTRIES, '数学推理', { occurrence: 0 });
    assertShows(value, 'Topic');
    assertShows(value, '2 of 3 papers in this file have the topic “数学推理”');
    assertShows(hoverOver(ENTRIES, '几何推理'), '1 of 3 papers');
  });

  test('Should count topics afresh for each model and not keep a count a cancelled hover left unfinished', () => {
    const loaded = load(digest(entryLines('A'), entryLines('B'), entryLines('C', { topicHits: '专题命中 几何推理 ：geometry(title)；分类 cs.AI' })));
    const position = positionIn(loaded.text, '数学推理');
    // Cancelled after the hover has started: while it counts.
    let checks = 0;
    const cancelledWhileCounting = {
      get isCancellationRequested(): boolean {
        return checks++ > 0;
      },
    };
    assert.equal(hover(loaded.doc, position, cancelledWhileCounting), null);
    assert.ok(checks >= 2, 'the count checked the token');
    assertShows(markdown(hover(loaded.doc, position)), '2 of 3 papers');
    const edited = load(loaded.text.replace('几何推理', '数学推理'));
    assertShows(markdown(hover(edited.doc, positionIn(edited.text, '数学推理'))), '3 of 3 papers');
  });

  test('Should translate the field a keyword matched in', () => {
    const abstract = hoverOver(ENTRIES, 'abstract', { occurrence: 0 });
    assert.ok(abstract.startsWith(`**摘要**`));
    assertShows(abstract, 'Where the keyword “reasoning” matched');
    assert.ok(hoverOver(ENTRIES, 'title', { occurrence: 0 }).startsWith('**标题**'));
    assert.ok(hoverOver(ENTRIES, 'comments', { occurrence: 0 }).startsWith('**备注**'));
    assertShows(hoverOver(ENTRIES, 'body'), 'not a field digests use');
  });

  test('Should say where a keyword matched', () => {
    assertShows(hoverOver(ENTRIES, 'math reasoning'), 'Matched in the paper’s title · 标题');
    assertShows(hoverOver(ENTRIES, 'chain of thought'), 'Matched in the arXiv comments field · 备注');
    assertShows(hoverOver(ENTRIES, 'solvers'), 'No (field) says where this keyword matched');
  });

  test('Should explain the heading', () => {
    const value = hoverOver(ENTRIES, '大模型推理能力', { occurrence: 0 });
    assertShows(value, 'Digest subject');
    assertShows(value, '3 papers in this file');
  });
});

describe('hover: arXiv references', () => {
  test('Should link a new-style arXiv id to its abstract page, built by the hover', () => {
    const value = hoverOver(ENTRIES, 'arXiv:2405.09673');
    assert.ok(value.endsWith(`[${escapeMarkdown('https://arxiv.org/abs/2405.09673')}](https://arxiv.org/abs/2405.09673)`), value);
    assertInert(value);
  });

  test('Should link an old-style arXiv id with its version', () => {
    const value = hoverOver(ENTRIES, 'arXiv:hep-th/9901001v2');
    assert.ok(value.endsWith('](https://arxiv.org/abs/hep-th/9901001v2)'), value);
  });

  test('Should build no link from an identifier that is not a well-formed arXiv id', () => {
    // The parser only produces well-formed ids; the hover checks again before building a link.
    const entry = ENTRIES.doc.entries[0];
    const comments = entry.comments!;
    const forged = derive(comments.links[0], { target: 'https://arxiv.org/abs/2405.09673)(command:workbench.action.terminal.new' });
    const forgedComments = derive(comments, { links: [forged, ...comments.links.slice(1)] });
    const doc: DigestDocument = derive(ENTRIES.doc, {
      entries: [derive(entry, { comments: forgedComments, fields: entry.fields.map((field) => (field === comments ? forgedComments : field)) }), ...ENTRIES.doc.entries.slice(1)],
    });
    assert.equal(hover(doc, positionIn(ENTRIES.text, 'arXiv:2405.09673')), null);
  });

  test('Should link only the identifiers the document links validate (no month 99 or 13, no five-digit number before 2015)', () => {
    const loaded = load(digest(entryLines('A', { comments: 'Comments see arXiv:9999.99999, arXiv:2413.00001, arXiv:1401.12345 and arXiv:2405.09673' })));
    for (const bad of ['arXiv:9999.99999', 'arXiv:2413.00001', 'arXiv:1401.12345']) {
      const found = hover(loaded.doc, positionIn(loaded.text, bad));
      assert.ok(!found || !JSON.stringify(found).includes('arxiv.org/abs'), `${bad}: ${JSON.stringify(found)}`);
    }
    assert.ok(hoverOver(loaded, 'arXiv:2405.09673').endsWith('](https://arxiv.org/abs/2405.09673)'));
    assert.deepEqual(
      documentLinks(loaded.doc).map((link) => link.target),
      ['https://arxiv.org/abs/2405.09673'],
      'the same ids as the document links',
    );
  });

  test('Should not hover a URL the document gives', () => {
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, 'https://example.org/probes')), null);
  });
});

describe('hover: nothing to say', () => {
  test('Should return null on blank lines, the summary text, past the end of a line and past the end of the file', () => {
    const blank = rangeOf(ENTRIES.text, 'Sparse Probes').start.line - 1;
    assert.equal(hover(ENTRIES.doc, { line: blank, character: 0 }), null);
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, '稀疏探针定位')), null);
    const title = rangeOf(ENTRIES.text, 'Sparse Probes for Arithmetic Circuits in Small Transformers');
    assert.equal(hover(ENTRIES.doc, { line: title.start.line, character: title.end.character + 5 }), null);
    assert.equal(hover(ENTRIES.doc, { line: 10_000, character: 0 }), null);
  });

  test('Should return null on a stray line', () => {
    const loaded = load(digest([...entryLines('A').slice(0, 5), '[cs.AI]', ...entryLines('A').slice(5)]));
    assert.equal(hover(loaded.doc, positionIn(loaded.text, '[cs.AI]')), null);
  });

  test('Should return null when the request is cancelled', () => {
    assert.equal(hover(ENTRIES.doc, positionIn(ENTRIES.text, 'Kyoto University'), { isCancellationRequested: true }), null);
  });
});

describe('hover: line ends and BOM', () => {
  test('Should give the same hovers, at the same ranges, with CRLF line ends and a BOM', () => {
    const loaded = load('\ufeff' + ENTRIES.text.replace(/\n/g, '\r\n'));
    const heading = hoverOver(loaded, '大模型推理能力', { occurrence: 0 });
    assert.equal(rangeOf(loaded.text, '大模型推理能力').start.character, 1);
    assertShows(heading, 'Digest subject');
    for (const [needle, counterpart] of [
      ['Kyoto University', '京都大学'],
      ['李娜', 'Li Na'],
      ['cs.CL', '计算与语言'],
    ]) {
      assertShows(hoverOver(loaded, needle), counterpart);
    }
  });
});

// ---- Hostile documents ------------------------------------------------------------------

describe('hover: hostile documents', () => {
  test('Should keep every hover of a hostile document inert, at every position', () => {
    const lines = HOSTILE.text.split('\n');
    let hovers = 0;
    for (let line = 0; line < lines.length; line++) {
      for (let character = 0; character <= lines[line].length; character++) {
        const result = hover(HOSTILE.doc, { line, character });
        if (result) {
          hovers++;
          assertInert(markdown(result));
        }
      }
    }
    assert.ok(hovers > 300, `only ${hovers} positions had a hover`);
  });

  test('Should show a hostile English title escaped exactly, on the Chinese title', () => {
    const value = hoverOver(HOSTILE, '标题 ![img]', { part: '标题 ![img](http://x) 与 `code` 以及 https://evil.example 和 www.evil.example' });
    assert.ok(
      value.startsWith('**\\[x\\]\\(command\\:workbench\\.action\\.terminal\\.new\\) and &lt;img src\\=x onerror\\=alert\\(1\\)&gt;**'),
      value,
    );
    assertInert(value);
  });

  test('Should show a hostile Chinese title and summary escaped, on the English title', () => {
    const value = hoverOver(HOSTILE, 'and <img', { part: '[x](command:workbench.action.terminal.new) and <img src=x onerror=alert(1)>' });
    assert.ok(value.includes('\\!\\[img\\]\\(http\\:\\/\\/x\\) 与 \\`code\\` 以及 https\\:\\/\\/evil\\.example 和 www\\.evil\\.example'), value);
    assert.ok(value.includes('**AI总结** 总结 \\[x\\]\\(command\\:workbench\\.action\\.terminal\\.new\\) \\!\\[img\\]'), value);
    assertInert(value);
  });

  test('Should render hostile text as the text itself, without links or HTML', () => {
    const title = '[x](command:workbench.action.terminal.new) and <img src=x onerror=alert(1)>';
    const value = hoverOver(HOSTILE, '标题 ![img]', { part: '标题 ![img](http://x) 与 `code` 以及 https://evil.example 和 www.evil.example' });
    assert.ok(renderedText(value).includes(title), renderedText(value));
    const html = MARKDOWN_IT.render(value);
    assert.doesNotMatch(html, /<a |<img|<b>|href/);
  });

  test('Should escape hostile institutions and their translations', () => {
    const scheme = hoverOver(HOSTILE, 'javascript:alert(1)', { occurrence: 0 });
    assert.ok(scheme.startsWith('**file\\:\\/\\/\\/etc\\/passwd**'), scheme);
    const file = hoverOver(HOSTILE, 'file:///etc/passwd');
    assert.ok(file.startsWith('**javascript\\:alert\\(1\\)**'), file);
    const html = hoverOver(HOSTILE, 'Evil Lab', { part: 'Evil Lab <script>alert(1)</script>' });
    assert.ok(html.startsWith('**&lt;img src\\=x onerror\\=alert\\(1\\)&gt;**'), html);
    const autolink = hoverOver(HOSTILE, 'www.evil.example', { occurrence: 1 });
    assert.ok(autolink.startsWith('**https\\:\\/\\/evil\\.example**'), autolink);
    for (const value of [scheme, file, html, autolink]) {
      assertInert(value);
    }
  });

  test('Should escape hostile Chinese names of authors', () => {
    const value = hoverOver(HOSTILE, 'Ann Lee', { occurrence: 1 });
    assert.ok(value.startsWith('**\\[李安\\]\\(command\\:x\\)**'), value);
    const reverse = hoverOver(HOSTILE, '<i>石鲍</i>');
    assert.ok(reverse.startsWith('**Bob Stone**'), reverse);
    assertInert(value);
  });

  test('Should escape hostile topics, keywords, fields and category codes', () => {
    assert.ok(hoverOver(HOSTILE, '[t](javascript:alert(1))').startsWith('**\\[t\\]\\(javascript\\:alert\\(1\\)\\)**'));
    assert.ok(hoverOver(HOSTILE, '**bold**').startsWith('**\\*\\*bold\\*\\***'));
    assert.ok(hoverOver(HOSTILE, '<b>x</b>').startsWith('**&lt;b&gt;x&lt;\\/b&gt;**'));
    assertShows(hoverOver(HOSTILE, '<b>推理</b>'), '“<b>推理</b>”');
  });

  test('Should not build a link from an arXiv id inside a document URL', () => {
    const inside = hover(HOSTILE.doc, positionIn(HOSTILE.text, 'arXiv:2401.00001'));
    assert.equal(inside, null);
    const value = hoverOver(HOSTILE, 'arXiv:2405.09673');
    assert.equal(value.match(/\]\(/g)?.length, 1);
    assert.ok(value.endsWith('](https://arxiv.org/abs/2405.09673)'));
  });

  test('Should cut very long document text in a hover', () => {
    const loaded = load(digest(entryLines('A', { chineseTitle: `标题${'长'.repeat(5000)}` })));
    const value = hoverOver(loaded, 'A Sparse Probes', { part: 'A Sparse Probes for Arithmetic Circuits' });
    assert.ok(value.length < 2000, `${value.length} characters`);
    assert.ok(!value.includes('长'.repeat(1000)));
  });
});
