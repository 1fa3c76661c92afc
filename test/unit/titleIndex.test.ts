/**
 * The entries by title that the duplicate check keeps from one version of a document to the next
 * (titleIndex.ts), against the same map made from a fresh parse, after random edits that add,
 * remove and retitle whole papers among a few titles (so that most titles are listed more than
 * once, and copies come in before and after the others), and the duplicate diagnostics with it.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { entriesByTitle, titleIndexStatistics } from '../../server/src/service/features/titleIndex';
import { updateDigest } from '../../server/src/service/incremental';
import type { DigestDocument, Entry } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';

const TITLES = ['Sparse Probes for Arithmetic', 'Latent Search Trees', 'SPARSE  probes for arithmetic', 'Graph Rewriting'];

/** A paper's paragraphs with one of the titles (the third is the first's key: case and spaces ignored). */
function paper(title: number, tag: number): string[] {
  return entryLines(`T${tag}`, { englishTitle: TITLES[title], comments: `Comments copy ${tag}` });
}

/** Each key with the indexes of its entries, in order. */
function described(map: ReadonlyMap<string, Entry | readonly Entry[]>): string[] {
  return [...map.entries()].map(([key, each]) => `${key}: ${(Array.isArray(each) ? (each as readonly Entry[]) : [each as Entry]).map((entry) => entry.index).join(',')}`).sort();
}

/** The line each entry starts on, and where the last one ends. */
function entryStarts(model: DigestDocument): number[] {
  return model.entries.map((entry) => entry.range.start.line);
}

const action = fc.record({
  kind: fc.constantFrom('insert', 'remove', 'retitle'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  title: fc.nat(TITLES.length - 1),
});

describe('entries by title, kept across edits', () => {
  test('Should give the map of a fresh parse after any edits of whole papers, and the same duplicate diagnostics', () => {
    let tag = 1000;
    const changedBefore = titleIndexStatistics.changed;
    fc.assert(
      fc.property(fc.array(fc.nat(TITLES.length - 1), { minLength: 1, maxLength: 40 }), fc.array(action, { minLength: 1, maxLength: 15 }), (titles, actions) => {
        let document = TextDocument.create('file:///w/a.digest', 'paper-digest', 1, digest(...titles.map((title, i) => paper(title, i))));
        let model = parseDigest(document.getText());
        computeDiagnostics(model, { uri: 'file:///w/a.digest' });
        for (const [k, step] of actions.entries()) {
          const starts = entryStarts(model);
          const which = Math.min(starts.length - 1, Math.floor(step.at * starts.length));
          let change;
          if (step.kind === 'insert' || starts.length === 0) {
            // A whole paper before another (or at the end), with its blank line.
            const line = starts.length === 0 || step.at > 0.9 ? document.lineCount : starts[which];
            change = { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: (line === document.lineCount ? '\n' : '') + paper(step.title, tag++).join('\n\n') + (line === document.lineCount ? '\n' : '\n\n') };
          } else if (step.kind === 'remove') {
            const end = which + 1 < starts.length ? starts[which + 1] : document.lineCount;
            change = { range: { start: { line: starts[which], character: 0 }, end: { line: end, character: 0 } }, text: '' };
          } else {
            const line = starts[which];
            change = { range: { start: { line, character: 0 }, end: { line, character: document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '').length } }, text: TITLES[step.title] };
          }
          document = TextDocument.update(document, [change], document.version + 1);
          model = updateDigest(model, [change], document.getText());
          const fresh = parseDigest(document.getText());
          assert.deepEqual(described(entriesByTitle(model)), described(entriesByTitle(fresh)), `after step ${k} (${step.kind})`);
          const duplicates = (doc: DigestDocument): string[] => computeDiagnostics(doc, { uri: 'file:///w/a.digest' }).filter((d) => d.code === 'duplicate-paper').map((d) => `${d.range.start.line}: ${d.message}`);
          assert.deepEqual(duplicates(model), duplicates(fresh), `duplicates after step ${k} (${step.kind})`);
        }
      }),
      { numRuns: 150 },
    );
    assert.ok(titleIndexStatistics.changed > changedBefore + 100, `the kept map was changed, not made again (${titleIndexStatistics.changed - changedBefore} times)`);
  });
});
