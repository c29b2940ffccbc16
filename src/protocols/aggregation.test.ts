import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregate, krumScores, type AggregationParams } from './aggregation';
import { krumProblem } from './aggregationRules';

const f32 = (...xs: number[]) => Float32Array.from(xs);
const rule = (r: AggregationParams['rule'], over: Partial<AggregationParams> = {}): AggregationParams => ({ rule: r, trim: 0.1, f: 1, ...over });

describe('aggregation rules', () => {
  it('mean, median and trimmed mean per coordinate', () => {
    const g = [f32(1, 10), f32(2, 20), f32(3, 30), f32(4, 40), f32(100, -1000)];
    expect([...aggregate(g, rule('mean')).vector]).toEqual([22, -180]);
    expect([...aggregate(g, rule('median')).vector]).toEqual([3, 20]);
    // β = 0.2 of 5: one value cut from each end of every coordinate.
    expect([...aggregate(g, rule('trimmed-mean', { trim: 0.2 })).vector]).toEqual([3, 20]);
    // β = 0.1 of 5 cuts nothing: the plain mean.
    expect([...aggregate(g, rule('trimmed-mean')).vector]).toEqual([22, -180]);
    expect([...aggregate([f32(1), f32(2), f32(4), f32(8)], rule('median')).vector]).toEqual([3]);
  });

  it('Krum picks the gradient closest to its n − f − 2 neighbours; multi-Krum averages the n − f best', () => {
    const g = [f32(0, 0), f32(1, 0), f32(0, 1), f32(1, 1), f32(0.4, 0.6), f32(50, -50)];
    expect(krumScores(g, 1).map((s) => Math.round(s * 100) / 100)).toEqual([2.52, 2.72, 2.32, 2.52, 1.36, 14903]);
    const krum = aggregate(g, rule('krum'));
    expect([...krum.vector].map((x) => Math.round(x * 100) / 100)).toEqual([0.4, 0.6]);
    expect(krum.leftOut).toEqual([1, 1, 1, 1, 0, 1]);
    const multi = aggregate(g, rule('multi-krum'));
    expect(multi.leftOut).toEqual([0, 0, 0, 0, 0, 1]);
    expect([...multi.vector].map((x) => Math.round(x * 100) / 100)).toEqual([0.48, 0.52]);
  });

  it('refuses Krum when n ≤ 2f + 2, naming the rule and the bound (Blanchard et al. 2017)', () => {
    expect(krumProblem('krum', 4, 1)).toBe('krum needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = 1 that is at least 5, got n = 4');
    expect(krumProblem('multi-krum', 6, 2)).toMatch(/^multi-krum needs n > 2f \+ 2 .* at least 7, got n = 6$/);
    expect(krumProblem('krum', 5, 1)).toBeNull();
    expect(krumProblem('median', 2, 1)).toBeNull();
    expect(() => aggregate([f32(1), f32(2), f32(3), f32(4)], rule('krum'))).toThrow(/n > 2f \+ 2/);
  });

  it('reports which inputs a coordinate-wise rule treated as outliers', () => {
    const g = [f32(1, 1, 1, 1), f32(2, 2, 2, 2), f32(3, 3, 3, 3), f32(-90, 90, -90, -90), f32(4, 4, 4, 4)];
    const r = aggregate(g, rule('median'));
    // f = 1: the lowest and the highest value of each coordinate are the outliers.
    expect(r.leftOut[3]).toBe(1);
    expect(r.leftOut[2]).toBe(0);
    expect(aggregate(g, rule('mean')).leftOut).toEqual([0, 0, 0, 0, 0]);
  });
});

/** n gradients of dimension d: `bad` of them arbitrary (Byzantine), the rest honest. */
const scenario = (maxN: number) =>
  fc
    .record({ n: fc.integer({ min: 3, max: maxN }), d: fc.integer({ min: 1, max: 6 }) })
    .chain(({ n, d }) =>
      fc.record({
        bad: fc.integer({ min: 0, max: Math.floor((n - 1) / 2) }),
        grads: fc.array(fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: d, maxLength: d }), { minLength: n, maxLength: n }),
        attack: fc.array(fc.float({ min: -1e6, max: 1e6, noNaN: true }), { minLength: d, maxLength: d }),
      }),
    );

function within(values: number[], x: number): boolean {
  return x >= Math.min(...values) - 1e-6 && x <= Math.max(...values) + 1e-6;
}

describe('robustness properties (Yin et al. 2018; Blanchard et al. 2017)', () => {
  it('with fewer than half Byzantine, the median lies between the honest values in every coordinate', () => {
    fc.assert(
      fc.property(scenario(9), ({ bad, grads, attack }) => {
        const all = grads.map((g, i) => (i < bad ? Float32Array.from(attack) : Float32Array.from(g)));
        const out = aggregate(all, rule('median')).vector;
        for (let k = 0; k < out.length; k++) {
          const honest = grads.slice(bad).map((g) => Math.fround(g[k]));
          if (!within(honest, out[k])) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('the β-trimmed mean lies between the honest values when at most ⌊βn⌋ are Byzantine', () => {
    fc.assert(
      fc.property(scenario(11), fc.float({ min: Math.fround(0.05), max: Math.fround(0.45), noNaN: true }), ({ grads, attack }, beta) => {
        const n = grads.length;
        const bad = Math.floor(beta * n);
        const all = grads.map((g, i) => (i < bad ? Float32Array.from(attack) : Float32Array.from(g)));
        const out = aggregate(all, rule('trimmed-mean', { trim: beta })).vector;
        for (let k = 0; k < out.length; k++) {
          const honest = grads.slice(bad).map((g) => Math.fround(g[k]));
          if (!within(honest, out[k])) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('Krum picks an honest gradient against f far outliers when n > 2f + 2', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((f) =>
          fc.record({
            f: fc.constant(f),
            n: fc.integer({ min: 2 * f + 3, max: 2 * f + 7 }),
            center: fc.array(fc.float({ min: -5, max: 5, noNaN: true }), { minLength: 4, maxLength: 4 }),
            far: fc.array(fc.float({ min: 1000, max: 1e5, noNaN: true }), { minLength: 4, maxLength: 4 }),
            seed: fc.integer(),
          }),
        ),
        ({ f, n, center, far, seed }) => {
          // Honest gradients within ±1 of a centre; the f Byzantine ones together, far away.
          let s = seed;
          const jitter = () => ((s = (Math.imul(s, 1103515245) + 12345) | 0) / 2 ** 31) % 1;
          const grads = Array.from({ length: n }, (_, i) => (i < f ? Float32Array.from(far) : Float32Array.from(center, (c) => c + jitter())));
          for (const r of ['krum', 'multi-krum'] as const) {
            const res = aggregate(grads, rule(r, { f }));
            for (let i = 0; i < f; i++) if (res.leftOut[i] !== 1) return false;
            for (let k = 0; k < 4; k++) if (Math.abs(res.vector[k] - center[k]) > 1.0001) return false;
          }
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one Byzantine gradient moves the mean as far as it likes (Blanchard et al., Lemma 1)', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }), fc.float({ min: -1e4, max: 1e4, noNaN: true }), (honest, target) => {
        // The attacker solves for the value that puts the mean exactly on its target.
        const n = honest.length + 1;
        const evil = n * target - honest.reduce((a, b) => a + Math.fround(b), 0);
        const out = aggregate([...honest.map((h) => f32(h)), f32(evil)], rule('mean')).vector[0];
        return Math.abs(out - target) <= 1e-3 * Math.max(1, Math.abs(target));
      }),
    );
  });

  it('every rule returns the common gradient when all workers agree', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 5, max: 9 }), (g, n) => {
        const grads = Array.from({ length: n }, () => Float32Array.from(g));
        for (const r of ['mean', 'median', 'trimmed-mean', 'krum', 'multi-krum'] as const) {
          const out = aggregate(grads, rule(r, { trim: 0.2 })).vector;
          if (!out.every((x, k) => x === Math.fround(g[k]))) return false;
        }
        return true;
      }),
    );
  });
});
