/**
 * The file-event part of `npm run bench`: one `workspace/didChangeWatchedFiles` with a burst of
 * deletions (20,000 files, as when a folder of a year of digests is deleted file by file),
 * applied to the workspace index in process. The floor is the same burst of one tenth the size
 * measured in the same round: linear work takes about ten times the floor, the old per-deletion
 * scan of every indexed URI took about a hundred. Target: at most 20× the tenth, and under 1 s.
 * Reported, never an exit code.
 */
import { performance } from 'node:perf_hooks';
import { FileChangeType } from 'vscode-languageserver/node';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { WorkspaceDigests } from '../../server/src/workspace';
import type { BenchSize } from './e2e';
import { generatedEntry } from './generate';

const SIZES: Record<BenchSize, { files: number; rounds: number }> = {
  small: { files: 2_000, rounds: 3 },
  full: { files: 20_000, rounds: 3 },
};

/** Milliseconds to apply `count` deletions of `count` indexed files. */
async function deletionBurst(count: number): Promise<number> {
  const index = new WorkspaceIndex();
  const files = new WorkspaceDigests(index);
  await files.setFolders(['file:///bench-events']);
  const uris = Array.from({ length: count }, (_, i) => `file:///bench-events/${i % 100}/${i}.digest`);
  uris.forEach((uri, i) => index.update(uri, parseDigest(['大模型推理能力', ...generatedEntry(i)].join('\n\n') + '\n')));
  const started = performance.now();
  await files.filesChanged(uris.map((uri) => ({ uri, type: FileChangeType.Deleted })));
  const elapsed = performance.now() - started;
  if (index.files().length !== 0) {
    throw new Error(`deletions left ${index.files().length} files indexed`);
  }
  return elapsed;
}

export async function runEventsBench(size: BenchSize): Promise<void> {
  const { files, rounds } = SIZES[size];
  const tenth: number[] = [];
  const full: number[] = [];
  await deletionBurst(Math.floor(files / 10));
  for (let round = 0; round < rounds; round++) {
    tenth.push(await deletionBurst(Math.floor(files / 10)));
    full.push(await deletionBurst(files));
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const growth = median(full) / Math.max(median(tenth), 0.01);
  const met = growth <= 20 && median(full) <= 1000;
  console.log(`\nfile events: one didChangeWatchedFiles with ${files.toLocaleString('en')} deletions, median of ${rounds}`);
  console.log(
    `  ${files.toLocaleString('en')} deletions ${median(full).toFixed(1)} ms, ${(files / 10).toLocaleString('en')} deletions ${median(tenth).toFixed(1)} ms: ${growth.toFixed(1)}× for 10× the events  target ≤ 20× and ≤ 1000 ms: ${met ? 'met' : 'MISSED'}`,
  );
}
