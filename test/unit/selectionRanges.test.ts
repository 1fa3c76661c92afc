import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { SelectionRange } from 'vscode-languageserver-types';
import { selectionRanges } from '../../server/src/service/features/selectionRanges';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';
import { cursor } from '../support/workspaceTerms';

/** The texts of the chain at the `|`, innermost first; the entry and the file as markers. */
function chain(textWithBar: string): string[] {
  const { text, position } = cursor(textWithBar);
  const doc = parseDigest(text);
  const [first] = selectionRanges(doc, [position]);
  const texts: string[] = [];
  for (let each: SelectionRange | undefined = first; each; each = each.parent) {
    const { start, end } = each.range;
    if (start.line !== end.line) {
      texts.push(start.line === 0 && start.character === 0 && end.line === doc.lines.length - 1 ? '<file>' : `<lines ${start.line}-${end.line}>`);
    } else {
      texts.push(doc.lines[start.line].text.slice(start.character, end.character));
    }
  }
  return texts;
}

describe('selectionRanges: word → value → field → entry → file', () => {
  test('Should grow from a word of an institution to its name, item, items, line, entry and file', () => {
    const text = digest(entryLines('X', { institutions: '机构 * Kyo|to University（京都大学） ； ExampleLab 纠错' }));
    assert.deepEqual(chain(text), ['Kyoto', 'Kyoto University', 'Kyoto University（京都大学）', 'Kyoto University（京都大学） ； ExampleLab', '机构 * Kyoto University（京都大学） ； ExampleLab 纠错', '<lines 2-16>', '<file>']);
  });

  test('Should grow from a keyword to its hit, the hits and the line', () => {
    const text = digest(entryLines('X', { topicHits: '专题命中 数学推理 ：math rea|soning(title)；reasoning(abstract)；分类 cs.LG' }));
    assert.deepEqual(chain(text).slice(0, 5), ['reasoning', 'math reasoning', 'math reasoning(title)', 'math reasoning(title)；reasoning(abstract)', '专题命中 数学推理 ：math reasoning(title)；reasoning(abstract)；分类 cs.LG']);
  });

  test('Should grow from a word of a title or an author to the value and the line', () => {
    assert.deepEqual(chain(digest(entryLines('X', { englishTitle: 'Sparse Pro|bes for Circuits' }))).slice(0, 2), ['Probes', 'Sparse Probes for Circuits']);
    assert.deepEqual(chain(digest(entryLines('X', { authors: 'Mei Tanaka, Omar Had|dad, Lin Qiu' }))).slice(0, 4), ['Haddad', 'Omar Haddad', 'Mei Tanaka, Omar Haddad, Lin Qiu', '<lines 2-16>']);
  });

  test('Should answer an empty list for a position past the end, and ranges for a broken entry', () => {
    const doc = parseDigest(digest(entryLines('X')));
    assert.deepEqual(selectionRanges(doc, [{ line: 999, character: 0 }]), []);
    assert.deepEqual(selectionRanges(doc, [{ line: 0, character: 999 }]), []);
    const broken = parseDigest('题\n\n机构 * （（（ ；；\n专题命中 ：：(((\n');
    for (let character = 0; character < 12; character++) {
      const [range] = selectionRanges(broken, [{ line: 2, character: Math.min(character, 11) }]);
      assert.ok(range);
    }
  });
});
