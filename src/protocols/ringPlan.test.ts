import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBounds, floatsSentBy, ownedChunk, recvChunk, sendChunk } from './ringPlan';

describe('ring all-reduce arithmetic', () => {
  it('chunks cover the vector exactly, sizes differ by at most one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 64 }), (m, n) => {
        const b = chunkBounds(m, n);
        expect(b).toHaveLength(n);
        expect(b[0][0]).toBe(0);
        expect(b[n - 1][1]).toBe(m);
        for (let c = 1; c < n; c++) expect(b[c][0]).toBe(b[c - 1][1]);
        const sizes = b.map(([s, e]) => e - s);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it.each([
    [105, 4],
    [105, 2],
    [105, 3],
    [105, 7],
    [100, 4],
    [1000, 16],
    [13, 16],
  ])('M=%i, N=%i: the ring moves 2(N−1)·M floats in total, 2(N−1)/N·M per node on average', (m, n) => {
    let total = 0;
    const perNode: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = floatsSentBy(i, m, n);
      perNode.push(f);
      total += f;
    }
    expect(total).toBe(2 * (n - 1) * m);
    const mean = (2 * (n - 1) * m) / n;
    // A node's own share differs from the mean by less than one float per phase.
    for (const f of perNode) expect(Math.abs(f - mean)).toBeLessThan(2);
    if (m % n === 0) for (const f of perNode) expect(f).toBe(mean);
  });

  it('what i sends at step k is what i+1 receives at step k; after reduce-scatter i owns chunk i+1', () => {
    for (const n of [2, 3, 4, 8]) {
      for (let i = 0; i < n; i++)
        for (let k = 0; k < n - 1; k++) {
          expect(recvChunk('rs', (i + 1) % n, k, n)).toBe(sendChunk('rs', i, k, n));
          expect(recvChunk('ag', (i + 1) % n, k, n)).toBe(sendChunk('ag', i, k, n));
        }
      for (let i = 0; i < n; i++) {
        // The last chunk received in reduce-scatter is the one the node owns fully reduced.
        expect(recvChunk('rs', i, n - 2, n)).toBe(ownedChunk(i, n));
        // It sends that chunk first in all-gather.
        expect(sendChunk('ag', i, 0, n)).toBe(ownedChunk(i, n));
      }
    }
  });
});
