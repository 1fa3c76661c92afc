/**
 * The Papers view's strings are document text: the server cleans and cuts every title, summary,
 * label and detail of the tree (no control or bidirectional characters, bounded length), and the
 * client's tooltip escapes them, so that rendered by a GFM renderer with linkify (markdown-it, as
 * strict as VS Code's) no link, autolink, image or HTML appears.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { fileGroupTooltip, fileLabel, notificationText, paperDescription, paperTooltipMarkdown, pickText, tooltipText, wrapText } from '../../client/src/tooltip';
import { MAX_LABEL_LENGTH, MAX_SUMMARY_LENGTH, MAX_TITLE_LENGTH, PAPERS_GROUPINGS, PapersTreeNode, PaperNode, papersTree } from '../../server/src/service/features/tree';
import { plainLabel, quotedText, wellFormed } from '../../server/src/service/text';
import { arxivSearchUrl } from '../../server/src/service/reading/paperInfo';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines, REPO_ROOT } from '../support/fixtures';

type Renderer = { render(markdown: string): string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const GFM: Renderer = (require('markdown-it') as (options: object) => Renderer)({ html: true, linkify: true });

const BIDI_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HOSTILE_LINKS = 'see https://evil.example/x, www.evil.example, name@example.com, <https://evil.example/y>, [x](command:workbench.action.terminal.new), ![i](https://evil.example/i.png), <img src=x onerror=alert(1)>, $(zap) `code`';

/** A workspace with one hostile paper among canonical ones. */
function hostileIndex(): WorkspaceIndex {
  const index = new WorkspaceIndex();
  const long = 'Sparse '.repeat(90_000 / 7);
  const hostile = entryLines('H', {
    englishTitle: `Evil \u202Egnp.exe\u2066 title \ud800 lone ${HOSTILE_LINKS} ${long}`,
    chineseTitle: `恶意\u202E标题\u200F\udc00 ${HOSTILE_LINKS} ${'标题'.repeat(45_000)}`,
    institutions: `机构 * Evil Lab \u202Ebal\u202C（恶意\u2067实验室） ； ${'Huge Lab '.repeat(10_000)}（巨大） 纠错`,
    topicHits: `专题命中 推理\u202E ${'话题'.repeat(20_000)} ：www.evil.example(abstract)；lone\ud800(title)；分类 cs.LG`,
    summary: `AI总结 ${HOSTILE_LINKS} \u202E${'总结'.repeat(45_000)}`,
  });
  index.update('file:///ws/a.digest', digest(entryLines('A'), hostile, entryLines('B')));
  index.update('file:///ws/b\u202Egnp.digest', digest(hostile));
  return index;
}

function walk(nodes: readonly PapersTreeNode[], visit: (node: PapersTreeNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.kind === 'group') walk(node.children, visit);
  }
}

describe('Papers view: output safety', () => {
  test('Should clean and cut every label, description, title and summary of the tree, in every grouping', () => {
    const index = hostileIndex();
    let papers = 0;
    for (const grouping of PAPERS_GROUPINGS) {
      walk(papersTree(index, grouping, '').roots, (node) => {
        const fields: [string, string, number][] =
          node.kind === 'group'
            ? [
                ['label', node.label, MAX_LABEL_LENGTH],
                ['detail', node.detail, MAX_LABEL_LENGTH],
              ]
            : [
                ['title', node.title, MAX_TITLE_LENGTH],
                ['chineseTitle', node.chineseTitle, MAX_TITLE_LENGTH],
                ['summary', node.summary, MAX_SUMMARY_LENGTH],
              ];
        if (node.kind === 'paper') papers++;
        for (const [name, value, max] of fields) {
          assert.doesNotMatch(value, BIDI_OR_CONTROL, `${grouping}: a control or bidi character in ${name} ${JSON.stringify(value.slice(0, 80))}`);
          assert.ok(value.length <= max, `${grouping}: ${name} of ${value.length} characters`);
        }
      });
    }
    assert.ok(papers > 0);
  });

  test('Should render tooltips with a GFM renderer as text only: no link, autolink, image, HTML or bidi override', () => {
    const index = hostileIndex();
    const seen: PaperNode[] = [];
    walk(papersTree(index, 'topic', '').roots, (node) => {
      if (node.kind === 'paper') seen.push(node);
    });
    assert.ok(seen.some((node) => node.duplicate), 'the hostile paper is a duplicate, so its tooltip lists places');
    for (const node of seen) {
      const markdown = paperTooltipMarkdown(node, (location) => location.uri);
      const html = GFM.render(markdown);
      assert.doesNotMatch(html, /<a[\s>]/, `a link in:\n${html.slice(0, 2000)}`);
      for (const [tag, name, attributes] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
        assert.ok(['p', 'hr'].includes(name) && attributes.trim() === '', `unexpected HTML ${tag}`);
      }
      assert.doesNotMatch(html, /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/, 'a bidi character in the rendered tooltip');
      assert.doesNotMatch(markdown, /\$\(/, 'a theme icon');
      assert.ok(markdown.length < 4 * (2 * MAX_TITLE_LENGTH + MAX_SUMMARY_LENGTH) + 4_000, `a tooltip of ${markdown.length} characters`);
      // What the reader sees is the text itself.
      if (node.title.startsWith('Evil')) {
        const text = html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
        assert.ok(text.includes('https://evil.example/x'), 'the address shows as text');
        assert.ok(text.includes('name@example.com'));
      }
    }
  });

  test('Should leave no link in a notification that quotes document text, as VS Code finds links in one', () => {
    // The pattern VS Code's notifications turn into links (a command link runs with its arguments).
    const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
    const hostile = [
      'marked 2 papers read in [Run](command:workbench.action.terminal.new).',
      'papers matching “topic:[kw](https://evil.example/x) [f](FILE:///etc/passwd)”',
      `exported 1 paper to [a](command:x?${encodeURIComponent('["y"]')}) \u202Efdp.exe\n[b](command:z)`,
    ];
    for (const message of hostile) {
      const shown = notificationText(message);
      assert.equal(shown.match(NOTIFICATION_LINK), null, shown);
      assert.ok(!BIDI_OR_CONTROL.test(shown), JSON.stringify(shown));
      // It reads the same: only a word joiner between `]` and `(`.
      assert.equal(shown.replace(/\u2060/g, ''), plainLabel(message, 2_000));
    }
    assert.equal(notificationText('Paper Digest: this is the newest digest.'), 'Paper Digest: this is the newest digest.');
    assert.equal(notificationText('x'.repeat(10_000)).length, 2_000);
  });

  test('Should render a tooltip paragraph of a note, tag or reason as one line of text only', () => {
    const shown = tooltipText(`Note: ${HOSTILE_LINKS}\n\n    indented \u202E line ${'x'.repeat(5_000)}`, 1_000);
    const html = GFM.render(shown);
    assert.ok(!/<(?:a|img|code|pre|script|h\d|ul|ol)\b/.test(html), html);
    assert.ok(!BIDI_OR_CONTROL.test(html.trim().replace(/\n/g, '')), html);
    assert.ok(shown.length < 1_400);
    assert.ok(html.includes('command\u003a') || html.includes('command:'), 'the text is still there');
  });

  test('Should give every paper of a title with a lone surrogate its arXiv search, encoded as U+FFFD', () => {
    const papers: PaperNode[] = [];
    walk(papersTree(hostileIndex(), 'file', '').roots, (node) => {
      if (node.kind === 'paper') papers.push(node);
    });
    const evil = papers.find((node) => node.title.startsWith('Evil'));
    assert.ok(evil?.arxivSearchUrl?.includes('%EF%BF%BD%20lone'), evil?.arxivSearchUrl?.slice(0, 200));
    assert.equal(arxivSearchUrl('a\udc00b \ud83d\ude00'), 'https://arxiv.org/search/?query=a%EF%BF%BDb%20%F0%9F%98%80&searchtype=title');
    assert.equal(wellFormed('\ud800\ud83d\ude00\udc00x'), '\ufffd\ud83d\ude00\ufffdx');
  });

  test('Should replace bidi and control characters and cut long text on a code-point boundary', () => {
    assert.equal(plainLabel('evil\u202Etxt.exe\nnext', 80), 'evil\ufffdtxt.exe\ufffdnext');
    assert.equal(plainLabel('lone \ud800 and \udc00', 80), 'lone \ufffd and \ufffd');
    assert.equal(plainLabel('x'.repeat(100_000), 5), 'xxxx…');
    assert.equal(plainLabel('abc😀def', 5), 'abc…', 'the emoji is not split');
  });

  test('Should clean and cut the file names the view adds to rows and file groups, as VS Code decodes them', () => {
    // The file names a row or a file group shows come from URIs, which VS Code decodes: a name may
    // hold a line break, U+202E, a lone surrogate (as U+FFFD after decoding) and any length.
    const names = ['b%E2%80%AEgnp.exe%0A.digest', 'fake%0A%0Aa.digest:1:1%20error', 'x%E2%81%A6%7F%C2%85.digest', encodeURIComponent('长'.repeat(50_000)) + '.digest'];
    for (const name of names) {
      const path = decodeURIComponent(`/ws/dir/${name}`);
      for (const [what, text] of [
        ['file label', fileLabel(path)],
        ['description', paperDescription({ chineseTitle: '稀疏探针' }, path, 'duplicate')],
        ['file group tooltip', fileGroupTooltip(path.slice(1), '3 papers')],
      ]) {
        assert.doesNotMatch(text, BIDI_OR_CONTROL, `${what} of ${name}`);
        assert.ok(text.length <= MAX_LABEL_LENGTH + 40, `${what} of ${name}: ${text.length} characters`);
      }
    }
    assert.equal(fileLabel('/ws/a.digest'), 'a.digest');
    assert.equal(paperDescription({ chineseTitle: '稀疏探针' }, '/ws/a.digest', undefined), '稀疏探针 · a.digest');
    assert.equal(paperDescription({ chineseTitle: '' }, undefined, 'duplicate'), 'duplicate');
  });
});

describe('Quick picks and the status bar: document text and file names', () => {
  test('Should draw no icon from $(…), and keep one bounded line without control or bidirectional characters', () => {
    const name = '2026-05-04 $(warning) Security alert: run $(terminal) fix\u202E.digest\nnext line';
    const shown = pickText(name);
    assert.doesNotMatch(shown, /\$\(/, shown);
    assert.doesNotMatch(shown, BIDI_OR_CONTROL, shown);
    assert.equal(shown.replace(/\u200b/g, ''), '2026-05-04 $(warning) Security alert: run $(terminal) fix .digest next line');
    assert.ok(pickText('x'.repeat(5_000)).length <= 300);
  });
});

describe('notifications', () => {
  test('Should show every message of the client through notificationText (notifications.ts), the modal ones too', () => {
    // A message may hold document text (a filter a dashboard row set, a title): a call of its own
    // to VS Code would show its bidirectional characters and link syntax as they are.
    const folder = path.join(REPO_ROOT, 'client', 'src');
    const direct: string[] = [];
    const walk = (dir: string): void => {
      for (const name of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, name.name);
        if (name.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && name.name !== 'notifications.ts') {
          for (const match of fs.readFileSync(file, 'utf8').matchAll(/window\.show(?:Information|Warning|Error)Message\(\s*([^,)]*)/g)) {
            if (!match[1].startsWith('notificationText(')) direct.push(`${path.relative(REPO_ROOT, file)}: ${match[0]}`);
          }
        }
      }
    };
    walk(folder);
    assert.deepEqual(direct, []);
  });
});

describe('wrapText (the triage’s summary rows)', () => {
  // Columns as the function counts them: a CJK character or a full-width mark two.
  const columns = (line: string): number => [...line].reduce((sum, c) => sum + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{10ffff}]/u.test(c) ? 2 : 1), 0);
  test('Should cut a Chinese summary into rows that fit, keeping all of it that fits in the rows, and say when some is left', () => {
    // A Chinese summary has no spaces: it was cut every 90 characters, 180 columns, which the
    // quick pick cut again, and the middle of every summary was never shown.
    const summary = '本文提出一种基于稀疏探针的方法，用于定位小型Transformer中执行算术运算的电路，并通过干预实验验证其因果作用。';
    const lines = wrapText(summary, 40, 6);
    assert.ok(lines.every((line) => columns(line) <= 40), JSON.stringify(lines));
    assert.equal(lines.join(''), summary);
    // pickText, which it starts from, cuts before a pair, not inside it.
    assert.equal(pickText('aaa😀😀a', 7), 'aaa😀…');
    assert.equal(pickText('aaaaa😀a', 7), 'aaaaa…');
    const long = wrapText(summary.repeat(10), 40, 3);
    assert.equal(long.length, 3);
    assert.ok(long[2].endsWith('…') && columns(long[2]) <= 40, JSON.stringify(long));
  });

  test('Should give rows of at most the width, at spaces where there are some, never splitting a pair, for any text', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '中', '文', '，', '😀', 'Ｘ', '-');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }).map((parts) => parts.join('')), fc.integer({ min: 2, max: 100 }), fc.integer({ min: 1, max: 8 }), (text, width, maxLines) => {
        const lines = wrapText(text, width, maxLines);
        assert.ok(lines.length <= maxLines);
        for (const line of lines) {
          assert.ok(columns(line) <= width, `${JSON.stringify(line)} is ${columns(line)} columns`);
          assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(line), JSON.stringify(line));
        }
        // What is shown is the text from its start, its spaces aside.
        const shown = lines.join('').replace(/ /g, '');
        const all = pickText(text, Infinity).replace(/ /g, '');
        if (shown.endsWith('…')) assert.ok(all.startsWith(shown.slice(0, -1)), `${JSON.stringify(shown)} of ${JSON.stringify(all)}`);
        else assert.equal(shown, all);
      }),
      // A fixed seed: the suite is the same every run (it once found `aaa😀😀a` cut inside a pair).
      { numRuns: 500, seed: 20261207 },
    );
  });

  test('Should quote document text in a message within its length, never half a character, no control, separator or bidirectional character (property)', () => {
    const unit = fc.oneof(fc.constantFrom('😀', '\ud800', '\udc00', '\u2028', '\u202e', '\u0007', '中', 'a', ' '), fc.string({ minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 90 }).map((units) => units.join('')), fc.constantFrom(40, 60), (text, max) => {
        const quoted = quotedText(text, max);
        assert.ok(quoted.length <= max, `${quoted.length} > ${max}`);
        assert.equal(quoted, wellFormed(quoted), 'a lone surrogate');
        assert.doesNotMatch(quoted, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        if (text.length <= max) assert.equal(quoted.length, text.length);
        else assert.ok(quoted.endsWith('…'));
      }),
      { numRuns: 500, seed: 20261208 },
    );
  });
});
