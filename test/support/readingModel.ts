/**
 * A reading model over an in-memory workspace for unit tests: digests given as texts, one
 * state store on an in-memory disk, interests as the setting gives them.
 */
import type { InterestsInput } from '../../server/src/service/reading/interests';
import { parseInterests } from '../../server/src/service/reading/interests';
import { ReadingModel } from '../../server/src/service/reading/model';
import type { StateDisk } from '../../server/src/service/reading/stateStore';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { entryLines } from './fixtures';

/** A state file held in memory, replaced only when it still holds what was read. */
export class MemoryDisk implements StateDisk {
  readonly location: string = 'memory:/w/.paper-digest/state.json';
  constructor(public text: string | undefined = undefined) {}
  read(): string | undefined {
    return this.text;
  }
  write(text: string, expected: string | undefined): boolean {
    if (this.text !== expected) return false;
    this.text = text;
    return true;
  }
}

export interface TestWorkspace {
  readonly index: WorkspaceIndex;
  readonly store: StateStore;
  readonly disk: MemoryDisk;
  readonly model: ReadingModel;
}

/**
 * @example
 * const w = testWorkspace({ 'file:///w/2026-05-01.digest': text }, { keywords: ['probes'] });
 * rankPapers(w.model.lookup(), {})
 */
export function testWorkspace(files: Record<string, string>, interests?: InterestsInput, mtimes: Record<string, number> = {}, stateText?: string): TestWorkspace {
  const index = new WorkspaceIndex();
  for (const [uri, text] of Object.entries(files)) {
    index.update(uri, text);
  }
  const disk = new MemoryDisk(stateText);
  const store = new StateStore(disk, () => new Date('2026-05-02T08:00:00Z'));
  store.load();
  const parsed = parseInterests(interests);
  const model = new ReadingModel(index, { storeFor: () => store, interestsFor: () => parsed, mtimeOf: (uri) => mtimes[uri] });
  return { index, store, disk, model };
}

/** A paper on reinforcement learning that the interests of the reading tests score. */
export const RL = entryLines('RL', {
  englishTitle: 'Reinforcement Learning for Theorem Proving',
  chineseTitle: '用于定理证明的强化学习',
  authors: 'Alice Smith, Bo Li',
  institutions: '机构 * Tsinghua University（清华大学） 纠错',
  topicHits: '专题命中 数学推理 ：theorem(title)；分类 cs.LG',
  summary: 'AI总结 用强化学习训练定理证明器。',
});
