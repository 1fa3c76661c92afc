/**
 * The reading lookup after the index moves: an edit that changes no paper's key (typing in a
 * summary, a line added) keeps the first places worked out before (they are not worked out again
 * over every paper of the workspace); whatever the edits, the lookup says what a lookup made
 * afresh says of every paper (new or seen before, where first seen, its flags, the unread count).
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NO_INTERESTS } from '../../server/src/service/reading/interests';
import { ReadingModel } from '../../server/src/service/reading/model';
import { orderDigests } from '../../server/src/service/reading/digestOrder';
import { paperKeyOf } from '../../server/src/service/reading/paperInfo';
import type { PaperSummary } from '../../server/src/service/workspaceIndex';
import { updateDigest } from '../../server/src/service/incremental';
import { parseDigest } from '../../server/src/service/parser';
import { applyEdits } from '../../server/src/service/edits';
import type { DigestDocument } from '../../server/src/service/model';
import { digest, entryLines } from '../support/fixtures';
import { testWorkspace } from '../support/readingModel';

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TITLES = ['Sparse Probes', 'Circuit Tracing', 'Verifier Feedback', 'Latent Policy', 'Scaling Laws'];

function entry(title: string): string[] {
  return entryLines('X', { englishTitle: title });
}

describe('reading lookup: the first places kept across edits', () => {
  test('Should answer as a fresh lookup after random edits of an open digest, keeping the places when no key moved', () => {
    const A = 'file:///w/2026-05-01.digest';
    const B = 'file:///w/2026-05-02.digest';
    const C = 'file:///w/2026-05-03.digest';
    const w = testWorkspace({
      [A]: digest(entry('Sparse Probes'), entry('Circuit Tracing')),
      [C]: digest(entry('Verifier Feedback'), entry('Sparse Probes'), entry('Scaling Laws')),
    });
    let text = digest(entry('Circuit Tracing'), entry('Latent Policy'), entry('Verifier Feedback'));
    let model: DigestDocument = parseDigest(text);
    w.index.updateOpen(B, model);
    const next = random(16);
    let kept = 0;
    let lastId = w.model.lookup().orderWithoutPapers().id;
    for (let step = 0; step < 150; step++) {
      const lines = text.split('\n');
      const kind = next();
      let start: { line: number; character: number };
      let end: { line: number; character: number };
      let newText: string;
      if (kind < 0.45) {
        // A keystroke in a summary (no key moves).
        const line = lines.findIndex((l, i) => l.startsWith('AI总结') && next() < 0.5 + i / lines.length);
        const at = line >= 0 ? line : lines.findIndex((l) => l.startsWith('AI总结'));
        start = end = { line: at, character: 4 + Math.floor(next() * 3) };
        newText = next() < 0.5 ? '字' : 'x';
      } else if (kind < 0.7) {
        // Lines added or removed between entries (papers move, keys stay).
        const blank = lines.findIndex((l, i) => i > 2 && l === '' && next() < 0.3);
        start = end = { line: blank >= 0 ? blank : 1, character: 0 };
        newText = '\n\n';
      } else if (kind < 0.9) {
        // A title changed: keys move.
        const titles = lines.map((l, i) => [l, i] as const).filter(([l]) => TITLES.some((t) => l.startsWith(t)) || l.startsWith('X '));
        const [lineText, line] = titles[Math.floor(next() * titles.length)] ?? ['', 0];
        start = { line, character: 0 };
        end = { line, character: lineText.length };
        newText = TITLES[Math.floor(next() * TITLES.length)];
      } else {
        // A paper added at the end.
        start = end = { line: lines.length - 1, character: 0 };
        newText = `\n${entry(TITLES[Math.floor(next() * TITLES.length)]).join('\n\n')}\n`;
      }
      const change = { range: { start, end }, text: newText };
      text = applyEdits(text, [{ range: change.range, newText }]);
      model = updateDigest(model, [change], text);
      w.index.updateOpen(B, model);
      // The server lets go of its lookup when the index moves.
      if (next() < 0.8) w.model.forget();
      if (next() < 0.2) {
        const papers = w.index.files().flatMap((file) => file.papers);
        const paper = papers[Math.floor(next() * papers.length)];
        w.store.change([w.model.lookup().info(paper).paperKey], { read: next() < 0.5 });
        w.model.invalidate();
      }
      const lookup = w.model.lookup();
      const id = lookup.orderWithoutPapers().id;
      if (id === lastId) kept++;
      lastId = id;
      // A fresh lookup's flags and unread count (its `info` would replace the reading information
      // the kept lookup cached per paper, which this test checks), and where each key was first
      // seen, worked out here.
      const fresh = new ReadingModel(w.index, { storeFor: () => w.store, interestsFor: () => NO_INTERESTS, mtimeOf: () => undefined }).lookup();
      const firstOf = new Map<string, PaperSummary>();
      for (const { file } of orderDigests(w.index.files(), () => undefined)) {
        for (const paper of file.papers) {
          if (!firstOf.has(paperKeyOf(paper))) firstOf.set(paperKeyOf(paper), paper);
        }
      }
      for (const file of w.index.files()) {
        for (const paper of file.papers) {
          const got = lookup.info(paper);
          const first = firstOf.get(paperKeyOf(paper))!;
          const where = `step ${step}, ${paper.uri} #${paper.entryIndex} ${paper.englishTitle}`;
          // New in the digest that brought it, a copy there too; a repeat in a later one.
          const isNew = first.uri === paper.uri;
          assert.equal(got.isNew, isNew, where);
          assert.deepEqual(got.firstSeen, isNew ? undefined : { uri: first.uri, range: first.selectionRange }, where);
          assert.deepEqual(lookup.flags(paper), fresh.flags(paper), where);
        }
      }
      assert.equal(lookup.unreadCount(), fresh.unreadCount(), `step ${step}`);
    }
    assert.ok(kept > 40, `the places were kept across ${kept} index changes`);
  });
});
