import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { looksLikeDigest, OpenTracker } from '../../client/src/detection';

describe('Content detection', () => {
  test('Should take text with two digest labels at line starts for a digest, and not one label', () => {
    assert.equal(looksLikeDigest(['主题', '', 'Title', '', '标题', '', '专题命中 x ：a(title)；分类 cs.CL', '', 'AI总结 本文。'].join('\n')), true);
    assert.equal(looksLikeDigest(['notes', '', 'AI总结 本文。'].join('\n')), false);
  });

  test('Should tell a language change (close and open of the same document) from a reopen', () => {
    const opens = new OpenTracker<{ uri: string }>();
    const document = { uri: 'file:///notes.txt' };
    assert.equal(opens.opened(document), true, 'a first open is genuine');
    // The user picks Plain Text: the same document object is closed and opened again.
    opens.closed(document);
    assert.equal(opens.opened(document), false, 'a language change is not an open');
    // Another change of the same object is not one either.
    opens.closed(document);
    assert.equal(opens.opened(document), false);
    // Closing the file and opening it again gives a new document object.
    opens.closed(document);
    const reopened = { uri: 'file:///notes.txt' };
    assert.equal(opens.opened(reopened), true, 'a reopen is genuine');
  });
});
