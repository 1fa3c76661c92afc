/**
 * The index summary of an open document revised per changed paper after an edit
 * (`reviseOpenSummary`) is the summary made from scratch: papers, names counted, the title map,
 * the duplicates and the workspace's names.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { updateDigest } from '../../server/src/service/incremental';
import type { DigestDocument } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { IndexChange, reviseOpenSummary, summariseDigest, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { WorkspaceTerms } from '../../server/src/service/workspaceTerms';
import { generatedDigest } from '../bench/generate';
import { FIXTURES } from '../support/fixtures';
import { applyEdit, applyEvent, DIGEST_MATERIAL } from '../support/modelChecks';
import { summaryValue } from '../support/summaries';

const OPEN = 'file:///w/open.digest';
const OTHER = 'file:///w/other.digest';

/** Digest fixtures and a generated digest, whose papers repeat titles and names. */
const BASES = [
  ...['parser', 'diagnostics'].flatMap((folder) =>
    fs
      .readdirSync(path.join(FIXTURES, folder))
      .filter((name) => name.endsWith('.digest'))
      .map((name) => fs.readFileSync(path.join(FIXTURES, folder, name), 'utf8')),
  ),
  generatedDigest(12) + generatedDigest(5).split('\n\n').slice(1).join('\n\n'),
];

/** Edits inside lines, mostly: where (a fraction of the text), how much to delete, what to insert. */
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 2 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 200 }) }),
  insert: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('x', 'X', '字', ' ', 'Kyoto University（京都大学）', '；', ' ； ', 'reasoning(abstract)', '、cs.AI', ', Lin Qiu') },
    { weight: 1, arbitrary: fc.constantFrom(...DIGEST_MATERIAL) },
  ),
});


/** What the index and the workspace's names say, in an order that does not depend on history. */
function stateOf(index: WorkspaceIndex, terms: WorkspaceTerms): unknown {
  const keys = new Set(index.files().flatMap((file) => file.papers.map((paper) => paper.titleKey)));
  const sortedMap = (map: Map<string, unknown>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    files: index.files().map(summaryValue),
    paperCount: index.paperCount,
    repeated: [...index.repeatedTitleKeys()].sort(),
    duplicates: [...keys].sort().map((key) => [key, index.duplicatesOf(key, OPEN), index.papersWithTitle(key).map((paper) => `${paper.uri}#${paper.entryIndex}`).sort()]),
    institutions: sortedMap(terms.institutions),
    authors: sortedMap(terms.authors),
    keywords: sortedMap(terms.keywords),
    topics: sortedMap(terms.topics),
    categories: sortedMap(terms.categories),
  };
}

/** An index with the other file on disk and the open document, as the server keeps them. */
function indexWith(openModel: DigestDocument, otherText: string): { index: WorkspaceIndex; terms: WorkspaceTerms } {
  const index = new WorkspaceIndex();
  const terms = new WorkspaceTerms(index);
  index.update(OTHER, otherText);
  index.updateOpen(OPEN, openModel);
  return { index, terms };
}

describe('the index summary of an open document, revised per changed paper', () => {
  test('Should equal the summary made from scratch after any sequence of edits, with the title map, duplicates and names', () => {
    let revised = 0;
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fc.nat(BASES.length - 1), fc.array(fc.array(edit, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 10 }), fc.boolean(), (base, other, events, readEach) => {
        let document = TextDocument.create(OPEN, 'paper-digest', 1, BASES[base]);
        let model = parseDigest(document.getText());
        // As in the server: the diagnostics have taken the names before the index does.
        computeDiagnostics(model, { uri: OPEN });
        const { index, terms } = indexWith(model, BASES[other]);
        for (const [k, edits] of events.entries()) {
          const event = applyEvent(document, edits);
          document = event.document;
          const changes = event.changes;
          const previous = index.file(OPEN)!;
          model = updateDigest(model, changes, document.getText());
          if (reviseOpenSummary(previous, model)) revised++;
          index.updateOpen(OPEN, model);
          // Read after every event, or only at the end: the papers of an open document work their
          // content out when first read, and a revision keeps the papers not read yet as they are.
          if (!readEach && k < events.length - 1) continue;
          const fresh = indexWith(parseDigest(document.getText()), BASES[other]);
          assert.deepEqual(summaryValue(index.file(OPEN)), summaryValue(summariseDigest(OPEN, parseDigest(document.getText()), 'open')), `after event ${k}: the summary`);
          assert.deepEqual(stateOf(index, terms), stateOf(fresh.index, fresh.terms), `after event ${k}: the index`);
        }
      }),
      { numRuns: 150 },
    );
    // Most of the edits are inside a paper: the revision must have been taken, not only the whole summary.
    assert.ok(revised > 100, `revised ${revised} times`);
  });

  test('Should summarise again only the paper a keystroke changed, and name only the files that share its title', () => {
    const text = generatedDigest(30);
    let document = TextDocument.create(OPEN, 'paper-digest', 1, text);
    let model = parseDigest(text);
    const index = new WorkspaceIndex();
    // The other file has paper 3 and paper 20 of the open one.
    const paragraphs = text.split('\n\n');
    index.update(OTHER, ['大模型推理能力', ...paragraphs.slice(1 + 3 * 7, 1 + 4 * 7), ...paragraphs.slice(1 + 20 * 7, 1 + 21 * 7)].join('\n\n') + '\n');
    index.update('file:///w/third.digest', ['大模型推理能力', ...paragraphs.slice(1 + 20 * 7, 1 + 21 * 7)].join('\n\n') + '\n');
    index.updateOpen(OPEN, model);
    const before = index.file(OPEN)!;
    const changes: IndexChange[] = [];
    index.onDidChange((change) => changes.push(change));

    // A character typed into the summary of paper 3 (its line 5).
    const line = 2 + 3 * 14 + 10;
    const applied = { change: { range: { start: { line, character: 10 }, end: { line, character: 10 } }, text: '字' } };
    document = TextDocument.update(document, [applied.change], document.version + 1);
    model = updateDigest(model, [applied.change], document.getText());
    // The update parses again from the entry before the edit on: paper 2 is a new entry too.
    const changed = reviseOpenSummary(before, model)?.changed;
    assert.ok(changed && changed.includes(3) && changed.every((i) => i === 2 || i === 3), JSON.stringify(changed));
    index.updateOpen(OPEN, model);
    const after = index.file(OPEN)!;
    assert.notEqual(after.papers[3], before.papers[3]);
    assert.ok(after.papers[3].summary.includes('字'));
    assert.deepEqual(
      after.papers.flatMap((paper, i) => (paper !== before.papers[i] ? [i] : [])),
      changed,
    );
    assert.equal(after.terms, before.terms, 'the summary named nothing: the counts are the same object');
    // Paper 3 is also in the other file; paper 20, in two other files, did not change.
    assert.deepEqual(changes.map((change) => [change.uris, change.affectedUris]), [[[OPEN], [OTHER]]]);
    assert.deepEqual(index.duplicatesOf(after.papers[3].titleKey, OTHER), [{ uri: OPEN, range: after.papers[3].selectionRange }]);
    assert.deepEqual(summaryValue(index.file(OPEN)), summaryValue(summariseDigest(OPEN, parseDigest(document.getText()), 'open')));
  });

  test('Should revise the paper whose title a keystroke changed, unless another paper had its title before or has it now', () => {
    const text = generatedDigest(6);
    let document = TextDocument.create(OPEN, 'paper-digest', 1, text);
    let model = parseDigest(text);
    const index = new WorkspaceIndex();
    index.updateOpen(OPEN, model);
    const type = (line: number, character: number, insert: string, remove = 0): ReturnType<typeof reviseOpenSummary> => {
      const change = { range: { start: { line, character }, end: { line, character: character + remove } }, text: insert };
      document = TextDocument.update(document, [change], document.version + 1);
      const applied = { change };
      const before = index.file(OPEN)!;
      model = updateDigest(model, [applied.change], document.getText());
      const revision = reviseOpenSummary(before, model);
      index.updateOpen(OPEN, model);
      assert.deepEqual(summaryValue(index.file(OPEN)), summaryValue(summariseDigest(OPEN, parseDigest(document.getText()), 'open')));
      return revision;
    };
    // Paper 2's English title gains a letter: its identity is its own, before and after.
    assert.ok(type(2 + 2 * 14, 0, 'X')?.changed.includes(2));
    assert.match(index.file(OPEN)!.papers[2].key, /^x.*#0$/);
    // Paper 4's title becomes paper 1's: the occurrence keys of the papers with it change.
    const title1 = document.getText().split('\n')[2 + 14];
    const line4 = 2 + 4 * 14;
    assert.equal(type(line4, 0, title1, document.getText().split('\n')[line4].length), undefined);
    assert.match(index.file(OPEN)!.papers[4].key, /#1$/);
  });

  test('Should summarise the whole document again when an edit adds a paper', () => {
    const text = generatedDigest(4);
    let document = TextDocument.create(OPEN, 'paper-digest', 1, text);
    let model = parseDigest(text);
    const index = new WorkspaceIndex();
    index.updateOpen(OPEN, model);
    // A new paper at the end.
    const added = applyEdit(document, { at: 1, remove: 0, insert: '\n' + generatedDigest(1).split('\n\n').slice(1).join('\n\n') });
    document = added.document;
    const before = index.file(OPEN)!;
    model = updateDigest(model, [added.change], document.getText());
    assert.equal(reviseOpenSummary(before, model), undefined);
    index.updateOpen(OPEN, model);
    assert.equal(index.file(OPEN)!.papers.length, 5);
    assert.deepEqual(summaryValue(index.file(OPEN)), summaryValue(summariseDigest(OPEN, parseDigest(document.getText()), 'open')));
  });
});
