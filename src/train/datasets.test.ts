import { describe, expect, it } from 'vitest';
import { toyDatasetKinds } from '../scenario/schema';
import { EVAL_SAMPLES, makeDataset, makeEvalSet } from './datasets';

const spec = (dataset: (typeof toyDatasetKinds)[number], noise = 0.1, samples = 600) => ({ dataset, noise, samples });

/** FNV-1a over the bytes: a fingerprint that changes if generation changes at all. */
function fingerprint(...arrays: Float32Array[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

describe('datasets', () => {
  for (const kind of toyDatasetKinds) {
    it(`${kind}: shapes, labels, bounds, determinism`, () => {
      const d = makeDataset(spec(kind), 42);
      expect(d.n).toBe(600);
      expect(d.x.length).toBe(1200);
      expect(d.y.length).toBe(600);
      expect([...d.y].every((v) => v === 0 || v === 1)).toBe(true);
      const ones = d.y.reduce((a, b) => a + b, 0);
      expect(ones).toBeGreaterThan(200);
      expect(ones).toBeLessThan(400);
      for (const v of d.x) {
        expect(Number.isFinite(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(d.bounds.xMin);
        expect(v).toBeLessThanOrEqual(d.bounds.xMax);
      }
      expect(Math.max(...d.x.map(Math.abs))).toBeGreaterThan(0.5); // about unit scale, not squashed
      const again = makeDataset(spec(kind), 42);
      expect(again.x).toEqual(d.x);
      expect(again.y).toEqual(d.y);
      const other = makeDataset(spec(kind), 43);
      expect(other.x).not.toEqual(d.x);
      const ev = makeEvalSet(spec(kind), 42);
      expect(ev.n).toBe(EVAL_SAMPLES);
      expect(ev.x.length).toBe(2 * EVAL_SAMPLES);
      expect(ev.x.subarray(0, 20)).not.toEqual(d.x.subarray(0, 20));
      expect(makeEvalSet(spec(kind), 42).x).toEqual(ev.x);
    });
  }

  it('geometry at zero noise matches each dataset’s rule', () => {
    const c = makeDataset(spec('circles', 0), 1);
    const x = makeDataset(spec('xor', 0), 1);
    const g = makeDataset(spec('gaussians', 0), 1);
    for (let i = 0; i < 600; i++) {
      const r = Math.hypot(c.x[2 * i], c.x[2 * i + 1]);
      expect(c.y[i]).toBe(r < 2.5 * 0.4 ? 1 : 0);
      expect(r < 2.5 * 0.4 + 1e-6 || r > 3.5 * 0.4 - 1e-6).toBe(true); // the gap between disc and ring
      expect(x.y[i]).toBe(x.x[2 * i] * x.x[2 * i + 1] >= 0 ? 1 : 0);
      if (g.y[i] === 1) expect(g.x[2 * i] + g.x[2 * i + 1]).toBeGreaterThan(-1.5); // blob at (+2,+2)·0.4
    }
  });

  it('odd sample counts give exactly n points', () => {
    for (const kind of toyDatasetKinds) expect(makeDataset(spec(kind, 0.2, 101), 5).y.length).toBe(101);
  });

  it('generation is frozen: scenario expectations depend on these exact bytes', () => {
    const prints = toyDatasetKinds.map((k) => {
      const d = makeDataset(spec(k), 2024);
      return `${k}:${fingerprint(d.x, d.y)}`;
    });
    expect(prints).toMatchInlineSnapshot(`
      [
        "spiral:75ce7918",
        "circles:b8641c1a",
        "xor:d43f8a65",
        "gaussians:1d9db4ea",
      ]
    `);
  });
});
