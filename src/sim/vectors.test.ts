import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, copyRange, fingerprint } from './vectors';

describe('fingerprint', () => {
  const base = Float32Array.from({ length: 103 }, (_, i) => Math.sin(i) * 0.01);

  it('changes with any one parameter, in every lane and in the tail', () => {
    const seen = new Set([fingerprint(base)]);
    for (let i = 0; i < base.length; i++) {
      const p = base.slice();
      p[i] = Math.fround(p[i] + 1e-6);
      seen.add(fingerprint(p));
    }
    expect(seen.size).toBe(base.length + 1);
  });

  it('tells apart swapped parameters, other lengths, -0 from 0, and views at an offset hash their own elements', () => {
    const swapped = base.slice();
    [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
    expect(fingerprint(swapped)).not.toBe(fingerprint(base));
    expect(fingerprint(base.subarray(0, 100))).not.toBe(fingerprint(base));
    expect(fingerprint(new Float32Array([0, 0, 0, 0]))).not.toBe(fingerprint(new Float32Array([0, 0, 0, 0, 0])));
    expect(fingerprint(new Float32Array([-0]))).not.toBe(fingerprint(new Float32Array([0])));
    expect(fingerprint(base.subarray(3, 50))).toBe(fingerprint(base.slice(3, 50)));
    expect(fingerprint(base)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('copyRange', () => {
  it('is slice(from, to), for a ring chunk of a few floats and for a large one, and a copy', () => {
    const a = Float32Array.from({ length: 300 }, (_, i) => i / 7);
    for (const [from, to] of [[0, 0], [5, 7], [10, 74], [10, 75], [0, 300]]) expect(copyRange(a, from, to)).toEqual(a.slice(from, to));
    const c = copyRange(a, 1, 3);
    c[0] = -1;
    expect(a[1]).toBe(Math.fround(1 / 7));
  });
});

describe('axpy', () => {
  it('gives, element for element, what a ← a + k·x one element at a time gives, at every length (the unrolled turns and the tail)', () => {
    const f32 = fc.float({ noDefaultInfinity: true, noNaN: true, min: -1e6, max: 1e6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(f32, f32), { maxLength: 23 }), f32, (pairs, k) => {
        const a = Float32Array.from(pairs, ([x]) => x);
        const x = Float32Array.from(pairs, ([, y]) => y);
        const want = a.slice();
        for (let i = 0; i < want.length; i++) want[i] = want[i] + k * x[i];
        axpy(a, k, x);
        expect([...a]).toEqual([...want]);
      }),
    );
  });
});
