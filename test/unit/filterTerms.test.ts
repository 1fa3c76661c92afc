/**
 * A Papers filter that no paper can pass whatever the workspace holds (`week:2026-W99`) is told
 * apart from one that keeps none today (`filterProblem`): the command line refuses it and the
 * Filter Papers box says why. Checked against the dates digests are grouped by: every week,
 * month and day some digest's name can carry is accepted, and nothing else.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addDays, isoWeekOf, monthOf } from '../../server/src/service/digestDates';
import { fieldTerms, filterProblem, MAX_FILTER_TERMS } from '../../server/src/service/filterTerms';
import { compilePaperFilter } from '../../server/src/service/paperFilter';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { digest, entryLines } from '../support/fixtures';

/** Every day of a year, as `YYYY-MM-DD`. */
function daysOf(year: number): string[] {
  const days: string[] = [];
  for (let day = `${year}-01-01`; day.startsWith(String(year)); day = addDays(day, 1)) days.push(day);
  return days;
}

describe('Filters that can keep no paper', () => {
  test('Should accept exactly the weeks, months and days that dates of a year fall in', () => {
    // A week's Thursday is in its year: the days of a year give all its weeks. The first and
    // last years a digest's name can carry give weeks of the years beside them too (3000-W01).
    const years = [1900, 2020, 2021, 2026, 2027, 2999];
    const days = years.flatMap(daysOf);
    const weeks = new Set(days.map(isoWeekOf));
    const months = new Set(days.map(monthOf));
    assert.ok(weeks.has('3000-W01') && weeks.has('2020-W53') && !weeks.has('2021-W53'));
    for (const year of [1899, ...years, 3000]) {
      for (let n = 0; n <= 99; n++) {
        const week = `${year}-W${String(n).padStart(2, '0')}`;
        assert.equal(filterProblem(`week:${week}`) === undefined, weeks.has(week), week);
        const month = `${year}-${String(n).padStart(2, '0')}`;
        assert.equal(filterProblem(`month:${month}`) === undefined, months.has(month), month);
      }
    }
    for (const day of days) assert.equal(filterProblem(`date:${day}`), undefined, day);
    for (const day of ['2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-5-1', '1899-12-31', '3000-01-01', 'today']) {
      assert.deepEqual(filterProblem(`date:${day}`), { kind: 'notADate', field: 'date', value: day, example: '2026-05-01' }, day);
    }
    assert.equal(filterProblem('date:2024-02-29'), undefined);
  });

  test('Should read a value as the filter reads it: any case, full-width digits, quoted, among other terms', () => {
    for (const ok of ['week:2026-w18', 'WEEK:２０２６-Ｗ18', 'week:" 2026-W18 "', 'topic:数学推理 week:2026-W18 keyword:math reasoning', 'month: 2026-05 ', 'date:', 'week:', 'month:', 'reasoning week:2026-W99', 'topic:2026-W99']) {
      assert.equal(filterProblem(ok), undefined, ok);
    }
    // Plain text is searched for, not read as terms ('reasoning week:…' above); a term after others is.
    assert.deepEqual(filterProblem('topic:数学推理 week:2026-W99 month:2026-13'), { kind: 'notADate', field: 'week', value: '2026-W99', example: '2026-W18' });
    assert.deepEqual(filterProblem('month:2026-13'), { kind: 'notADate', field: 'month', value: '2026-13', example: '2026-05' });
    assert.deepEqual(filterProblem('week:2026-W1'), { kind: 'notADate', field: 'week', value: '2026-W1', example: '2026-W18' });
  });

  test('Should refuse more terms than are read, and only then', () => {
    const terms = (n: number): string => Array.from({ length: n }, (_, i) => `topic:t${i}`).join(' ');
    assert.equal(filterProblem(terms(MAX_FILTER_TERMS)), undefined);
    assert.deepEqual(filterProblem(terms(MAX_FILTER_TERMS + 1)), { kind: 'tooManyTerms', max: MAX_FILTER_TERMS });
    assert.equal(fieldTerms(terms(MAX_FILTER_TERMS * 4))?.length, MAX_FILTER_TERMS + 1);
  });

  test('Should refuse only filters that keep no paper of a workspace with digests of every week of the year', () => {
    const index = new WorkspaceIndex();
    for (const day of daysOf(2026).filter((_, i) => i % 3 === 0)) index.update(`file:///ws/${day}.digest`, digest(entryLines(day)));
    const papers = index.files().flatMap((file) => file.papers);
    for (const filter of ['week:2026-W01', 'week:2026-W53', 'week:2026-W54', 'week:2026-W00', 'month:2026-12', 'month:2026-13', 'date:2026-01-01', 'date:2026-01-32']) {
      const keep = compilePaperFilter(filter)!;
      const kept = papers.filter((paper) => keep(paper)).length;
      assert.equal(filterProblem(filter) === undefined, kept > 0, `${filter}: keeps ${kept}`);
    }
  });
});
