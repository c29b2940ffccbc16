import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastAtOrBefore, firstAtOrAfter } from './series';
import { LossSamples, type Sample } from './lossSamples';

describe('LossSamples', () => {
  it('answers as the list of samples it replaces: each sample, and both searches (equal times too)', () => {
    const step = fc.record({ dt: fc.constantFrom(0, 0.25, 250), loss: fc.double({ min: 0, max: 5, noNaN: true }), accuracy: fc.double({ min: 0, max: 1, noNaN: true }), version: fc.nat(50) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), fc.array(fc.double({ min: -1, max: 30_000, noNaN: true }), { maxLength: 8 }), (spec, probes) => {
        const list: Sample[] = [];
        const cols = new LossSamples();
        let t = 0;
        spec.forEach((s, k) => {
          t += s.dt;
          const x = { t, steps: k * 3, version: s.version, loss: s.loss, accuracy: s.accuracy };
          list.push(x);
          cols.push(x);
        });
        expect(cols.length).toBe(list.length);
        expect(Array.from({ length: list.length + 2 }, (_, k) => cols.at(k - 1))).toEqual([undefined, ...list, undefined]);
        for (const p of [...probes, ...list.map((s) => s.t)]) {
          expect(cols.lastAtOrBefore(p)).toBe(lastAtOrBefore(list, p, (s) => s.t));
          expect(cols.firstAtOrAfter(p)).toBe(firstAtOrAfter(list, p, (s) => s.t));
        }
      }),
      { numRuns: 200, seed: 4 },
    );
  });
});
