import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { documentLinks, validUrl } from '../../server/src/service/features/links';
import type { MessageLanguage } from '../../server/src/service/messages';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';

/** The links of a one-entry digest with this Comments line, as [linked text, target]. */
function linksOf(comments: string, summary?: string): [string, string][] {
  const text = digest(entryLines('X', { comments, ...(summary ? { summary } : {}) }));
  const doc = parseDigest(text);
  return documentLinks(doc).map((link) => [doc.lines[link.range.start.line].text.slice(link.range.start.character, link.range.end.character), link.target!]);
}

describe('links: arXiv identifiers and Comments URLs', () => {
  test('Should link new-style, versioned and old-style identifiers to their abstract pages', () => {
    assert.deepEqual(linksOf('Comments Extends arXiv:2507.07996 and 2507.07996v2; see cs/0112017 and math.GT/0309136.'), [
      ['arXiv:2507.07996', 'https://arxiv.org/abs/2507.07996'],
      ['2507.07996v2', 'https://arxiv.org/abs/2507.07996v2'],
      ['cs/0112017', 'https://arxiv.org/abs/cs/0112017'],
      ['math.GT/0309136', 'https://arxiv.org/abs/math.GT/0309136'],
    ]);
  });

  test('Should link identifiers in the summary and the journal ref too', () => {
    assert.deepEqual(linksOf('Comments 9 pages', 'AI总结 本文扩展了 arXiv:2401.01234 的方法。'), [['arXiv:2401.01234', 'https://arxiv.org/abs/2401.01234']]);
  });

  test('Should not link what only looks like an identifier', () => {
    assert.deepEqual(linksOf('Comments pages 2513.12345, 2507.0799, 1401.12345, 1.2507.07996, foo/0112017, cs/0113017, 2026.05.01, 2507.00000, 1401.0000, cs/0112000, 2501.00001v0, cs/0112017v01'), []);
  });

  test('Should link http and https URLs of Comments, and no other scheme', () => {
    assert.deepEqual(linksOf('Comments Code: https://example.org/probes, page http://example.org/a?b=c. Not command:workbench.action.quit nor javascript:alert(1) nor file:///etc/passwd'), [
      ['https://example.org/probes', 'https://example.org/probes'],
      ['http://example.org/a?b=c', 'http://example.org/a?b=c'],
    ]);
  });

  test('Should leave an identifier inside a URL to the URL', () => {
    assert.deepEqual(linksOf('Comments https://arxiv.org/abs/2507.07996'), [['https://arxiv.org/abs/2507.07996', 'https://arxiv.org/abs/2507.07996']]);
    // Brackets that open and close within a URL are its own; those around it are the text's.
    assert.deepEqual(linksOf('Comments See (https://en.wikipedia.org/wiki/Probe_(x)_set). Also https://e.org/a(b)c(d) and https://e.org/(open'), [
      ['https://en.wikipedia.org/wiki/Probe_(x)_set', 'https://en.wikipedia.org/wiki/Probe_(x)_set'],
      ['https://e.org/a(b)c(d)', 'https://e.org/a(b)c(d)'],
      ['https://e.org/', 'https://e.org/'],
    ]);
  });

  test('Should reject URLs with credentials, without a host or with control characters', () => {
    assert.equal(validUrl('https://user:pw@example.org/'), undefined);
    assert.equal(validUrl('https://'), undefined);
    assert.equal(validUrl('https://exa\u202emple.org'), undefined);
    assert.equal(validUrl('HTTPS://example.org/x'), 'https://example.org/x');
  });

  test('Should give no target for a URL of any scheme but http and https', () => {
    for (const text of ['command:workbench.action.quit', 'command:paperDigest.markRead?%5B%5D', 'javascript:alert(1)', 'file:///etc/passwd', 'vscode://ms-vscode.test', 'data:text/html,x', 'ftp://example.org/a', 'http:/example.org', 'https:example.org']) {
      assert.equal(validUrl(text), undefined, text);
    }
  });

  test('Should title an identifier\u2019s link in the message language', () => {
    const doc = parseDigest(digest(entryLines('X', { comments: 'Comments See arXiv:2507.07996.' })));
    const tooltips = (language?: MessageLanguage) => documentLinks(doc, undefined, language).filter((link) => link.target!.startsWith('https://arxiv.org/')).map((link) => link.tooltip);
    assert.deepEqual(tooltips('en'), ['arXiv abstract page of 2507.07996']);
    assert.deepEqual(tooltips('zh-cn'), ['2507.07996 的 arXiv 摘要页']);
    assert.deepEqual(tooltips(), ['arXiv abstract page of 2507.07996 — 2507.07996 的 arXiv 摘要页']);
  });

  test('Should answer no links for a digest without entries or with a broken one', () => {
    assert.deepEqual(documentLinks(parseDigest('')), []);
    assert.doesNotThrow(() => documentLinks(parseDigest('题\n\nComments arXiv:2507.07996 （（（\n')));
  });
});
