import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../engine';
import { chartPending, describeRef, liveValue, pendingWords } from './liveValues';
import { initialLesson, useLesson, type AheadRun } from './store';

describe('a live value in words', () => {
  it('says what it reads: variant, metric (and node), time', () => {
    expect(describeRef({ variant: 'acks-1', metric: 'lostUpdates', at: 'end' }, 'en')).toBe('acks-1 · lost updates · at the end');
    expect(describeRef({ variant: 'v', metric: 'staleness', node: 'w2', at: 7900 }, 'en')).toBe('v · staleness (w2) · at 7.9 s');
    expect(describeRef({ variant: 'v', metric: 'lostUpdates', at: 'now' }, 'zh')).toMatch(/ · 此刻$/);
  });

  it('a "—" waiting for its run says until when, and where the run is', () => {
    expect(pendingWords({ value: null, waitsFor: { at: 13000, end: true }, now: 6500 }, 'en')).toBe('Shown when the run ends at 13.0 s (it is at 6.5 s).');
    expect(pendingWords({ value: null, waitsFor: { at: 7900, end: false }, now: 5000 }, 'zh')).toBe('运行到 7.9 秒时显示（当前 5.0 秒）。');
    // Defined, or undefined for good (a metric without a value): nothing to wait for.
    expect(pendingWords({ value: 3 }, 'en')).toBeNull();
    expect(pendingWords({ value: null }, 'en')).toBeNull();
  });
});

/** A copy that got to `now` and no further: what liveValue reads of a run. */
function copyAt(now: number, failure: string | null = null): Run {
  return { now: () => now, done: false, durationMs: 30_000, failure, index: () => ({ metrics: [] }) } as unknown as Run;
}

describe('a value whose copy stopped', () => {
  afterEach(() => useLesson.setState({ ...initialLesson }));

  it('says it stopped, for good, instead of waiting (a sweep must not read it as never reached)', () => {
    const stopped: AheadRun = { id: 'ssp-2', scenario: {} as AheadRun['scenario'], sim: copyAt(6500), until: 29_900, stopped: 'worker pool disposed' };
    const running: AheadRun = { id: 'ssp-8', scenario: {} as AheadRun['scenario'], sim: copyAt(7000), until: 29_900 };
    useLesson.setState({ ahead: [stopped, running] });
    const v = liveValue({ variant: 'ssp-2', metric: 'timeToTarget', at: 29_900 });
    expect(v).toEqual({ value: null, stopped: { now: 6500, why: 'worker pool disposed' } });
    expect(pendingWords(v, 'en')).toBe('Not known: the run stopped at 6.5 s with an error (the error panel says which).');
    expect(pendingWords(v, 'zh')).toBe('无法得出：运行在 6.5 秒因错误停止（错误面板有详情）。');
    // The other copy still waits; the caption says both.
    expect(liveValue({ variant: 'ssp-8', metric: 'timeToTarget', at: 29_900 }).waitsFor).toEqual({ at: 29_900, end: false });
    expect(chartPending(['ssp-2', 'ssp-8'], 'timeToTarget', 29_900, 'en')).toBe('runs at 7.0 s so far · ssp-2 stopped with an error');
  });

  it("a simulation's own failure counts the same", () => {
    useLesson.setState({ ahead: [{ id: 'a', scenario: {} as AheadRun['scenario'], sim: copyAt(3000, 'simulation error at t=3000 ms: boom'), until: 'end' }] });
    expect(liveValue({ variant: 'a', metric: 'loss', at: 'end' }).stopped).toEqual({ now: 3000, why: 'simulation error at t=3000 ms: boom' });
  });
});
