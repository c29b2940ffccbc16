import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLang } from './i18n/catalog';
import { builtin, clearRequestLimit, raftWithRequestLimit } from './testing/edits';
import { leftOutNotes } from './editNotes';
import { withStrategy } from './strategySwitch';

/** The notice's sentences for real edits: each names what the edit left out, and why. */
describe('what an edit left out, in the notice', () => {
  beforeAll(() => ensureLang('zh'));

  it('a knob that turns a measurement off: the checks on it, as no longer measured', () => {
    const left = { ...clearRequestLimit(raftWithRequestLimit), cause: 'settings' as const };
    expect(leftOutNotes('en', left)).toEqual(['Left out 2 expectations on metrics this run no longer measures (rejectedWrites).']);
    expect(leftOutNotes('zh', left)).toEqual(['已略去 2 条针对这个运行不再测量的指标（rejectedWrites）的预期。']);
  });

  it('a strategy switch: the old strategy’s variant, its metrics (leaders where nothing leads) and the lesson', () => {
    const left = { ...withStrategy(builtin('raft-ps-majority'), 'ps-sync')!, cause: 'strategy' as const };
    expect(leftOutNotes('en', left)).toEqual([
      'Left out the variant local-reads, written for the previous strategy: it does not apply to this one.',
      'Left out 7 expectations on metrics of the previous strategy (maxCommitGapMs, staleReads, leaders).',
      "The lesson's steps are left out: they were written for the previous strategy.",
    ]);
    expect(leftOutNotes('zh', left)[1]).toBe('已略去 7 条针对原先的策略特有指标（maxCommitGapMs、staleReads、leaders）的预期。');
  });
});
