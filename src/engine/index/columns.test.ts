import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPacker, packWith } from '../../sim/packer';
import { localPacking } from '../../sim/packLocal';
import { CHUNK_ROWS } from '../../sim/rows';
import { lastAtOrBefore, firstAtOrAfter } from './series';
import { F64Column, I32Column } from './columns';

describe('index columns, packed as they age', () => {
  beforeAll(async () => {
    packWith(() => localPacking);
    await loadPacker();
  });

  it('answer as an array does across packed chunks: rows, and both searches over equal times at chunk edges', () => {
    const rows = 3 * CHUNK_ROWS + 123;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.double({ min: -1, max: rows, noNaN: true }), { maxLength: 12 }), fc.nat(rows - 1), (runs, probes, at) => {
        // Times in whole microseconds with runs of equal values, some across chunk edges.
        const ts = Array.from({ length: rows }, (_, i) => Math.floor(i / runs) / 1000 + (i >= CHUNK_ROWS ? 1 : 0));
        const t = new F64Column();
        const ev = new I32Column();
        ts.forEach((x, i) => {
          t.push(x);
          ev.push(i * 7);
        });
        expect(t.get(at)).toBe(ts[at]);
        expect(ev.get(at)).toBe(at * 7);
        for (const p of [...probes, ts[at], ts[CHUNK_ROWS], ts[CHUNK_ROWS - 1], ts[2 * CHUNK_ROWS]]) {
          expect(t.lastAtOrBefore(p)).toBe(lastAtOrBefore(ts, p, (x) => x));
          expect(t.firstAtOrAfter(p)).toBe(firstAtOrAfter(ts, p, (x) => x));
        }
      }),
      { numRuns: 12, seed: 2 },
    );
  });

  it('hold a long time column in a fraction of its bytes, and a write into a packed chunk reads back', () => {
    const t = new F64Column();
    const ev = new I32Column();
    for (let i = 0; i < 4 * CHUNK_ROWS; i++) {
      t.push((i * 37) / 1000);
      ev.push(i);
    }
    expect(t.byteLength).toBeLessThan(1.2 * CHUNK_ROWS * 8); // the newest chunk, and three packed to little
    expect(ev.byteLength).toBeLessThan(1.2 * CHUNK_ROWS * 4);
    ev.set(5, -1);
    expect(ev.get(5)).toBe(-1);
    expect(ev.get(6)).toBe(6);
    expect(t.lastAtOrBefore(0.037 * 5)).toBe(5);
  });
});
