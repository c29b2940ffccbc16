import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { updateKey } from '../paramMachine';
import { SeqTable } from './seqTable';

describe('SeqTable (a number per (worker, seq))', () => {
  it('holds what a map by update key holds, dense sequence numbers or not', () => {
    const key = fc.record({ worker: fc.constantFrom('w0', 'w1', 'w10'), seq: fc.oneof(fc.nat(5000), fc.constantFrom(-1, 1.5, 2 ** 24, 2 ** 40)) });
    fc.assert(
      fc.property(fc.array(fc.record({ k: key, x: fc.oneof(fc.constant(0), fc.nat(1e6)), add: fc.boolean() }), { maxLength: 200 }), (ops) => {
        const t = new SeqTable();
        const ref = new Map<string, number>();
        for (const { k, x, add } of ops) {
          const id = updateKey(k.worker, k.seq);
          const next = add ? Math.max(0, (ref.get(id) ?? 0) + x - 500_000) : x;
          if (add) expect(t.add(k.worker, k.seq, x - 500_000)).toBe(next);
          else t.set(k.worker, k.seq, x);
          if (next === 0) ref.delete(id);
          else ref.set(id, next);
          expect(t.get(k.worker, k.seq)).toBe(next);
          expect(t.has(k.worker, k.seq)).toBe(next !== 0);
        }
        expect(t.size).toBe(ref.size);
        expect(new Map(t.entries())).toEqual(ref);
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it('refuses what is not a count', () => {
    const t = new SeqTable();
    for (const x of [-1, 0.5, 2 ** 31, NaN]) expect(() => t.set('w0', 1, x)).toThrow(/not a count/);
  });
});
