import { describe, expect, it } from 'vitest';
import { describeRef, pendingWords } from './liveValues';

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
