import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotSeries } from './snapshots';

const snap = (t: number) => ({ t, params: new Float32Array([t]) });

describe('SnapshotSeries', () => {
  it('keeps every sample of the last minute and O(log age) older ones; at(t) is the newest kept at or before t', () => {
    const s = new SnapshotSeries(60_000, 16);
    const every = 250;
    const hour = 3_600_000;
    for (let t = 0; t <= hour; t += every) s.push(snap(t));
    // 240 recent + about 16 per doubling of age beyond a minute (log2(60) ≈ 6): far below 14 400.
    expect(s.length).toBeLessThan(240 + 16 * 8 + 40);
    for (let t = hour - 60_000 + every; t <= hour; t += every) expect(s.at(t)!.t).toBe(t);
    expect(s.at(0)!.t).toBe(0);
    expect(s.at(-1)).toBeUndefined();
  });

  it('at(t) never answers from the future, and the gap it leaves grows at most in proportion to age', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 2_000_000 }), (n, q) => {
        const s = new SnapshotSeries(10_000, 8);
        const now = n * 1000;
        for (let t = 0; t <= now; t += 1000) s.push(snap(t));
        const t = Math.min(q, now);
        const got = s.at(t)!;
        expect(got.t).toBeLessThanOrEqual(t);
        expect(got.params[0]).toBe(got.t);
        // Within the newest 10 s exact (the last thinning may be up to 32 samples old); older, kept
        // neighbours are about age/8 apart (a pass keeps the first candidate past that, from a list
        // an earlier pass had thinned: at most twice that).
        if (now - t < 10_000) expect(got.t).toBe(Math.floor(t / 1000) * 1000);
        expect(t - got.t).toBeLessThanOrEqual((now - got.t) / 4 + 2000);
      }),
      { numRuns: 200, seed: 9 },
    );
  });

  it('rejects a snapshot older than the last', () => {
    const s = new SnapshotSeries();
    s.push(snap(10));
    expect(() => s.push(snap(5))).toThrow(/comes before/);
  });
});
