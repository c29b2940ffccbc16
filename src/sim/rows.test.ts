import { describe, expect, it } from 'vitest';
import { CHUNK_ROWS, Rows } from './rows';
import { CompactValues } from './compactValues';

describe('Rows (chunked typed storage)', () => {
  it('keeps every row across the first chunk’s doublings and later chunks', () => {
    const rows = new Rows((n) => new Float64Array(n), 3, 4);
    const n = 2 * CHUNK_ROWS + 123;
    let misnumbered = 0;
    for (let r = 0; r < n; r++) {
      if (rows.add() !== r) misnumbered++;
      rows.set(r, 0, r);
      rows.set(r, 1, -r);
      const c = rows.chunk(r);
      c[rows.off(r) + 2] = r / 2;
    }
    expect(misnumbered).toBe(0);
    expect(rows.length).toBe(n);
    for (const r of [0, 3, 4, 5, CHUNK_ROWS - 1, CHUNK_ROWS, CHUNK_ROWS + 1, n - 1]) {
      expect([rows.get(r, 0), rows.get(r, 1), rows.get(r, 2)]).toEqual([r, -r, r / 2]);
    }
    let bad = 0;
    for (let r = 0; r < n; r++) if (rows.get(r) !== r || rows.get(r, 2) !== r / 2) bad++;
    expect(bad).toBe(0);
  });
  it('refuses a width that is not a positive integer', () => {
    expect(() => new Rows((n) => new Int32Array(n), 0)).toThrow(/width/);
  });
});

describe('CompactValues across chunks', () => {
  it('reads back every value after the words outgrow the first chunk', () => {
    const cv = new CompactValues();
    const values = Array.from({ length: 30_000 }, (_, i) => ({ t: i * 0.25, node: `w${i % 9}`, v: { loss: 1 / (i + 1), xs: [i, i + 1, i + 2] } }));
    const offsets = values.map((v) => cv.add(v));
    expect(offsets.every((o) => o >= 0)).toBe(true);
    // More words than one chunk holds (65 536): the later values live in later chunks.
    expect(cv.size).toBeGreaterThan(1 << 16);
    let bad = 0;
    offsets.forEach((o, i) => {
      if (JSON.stringify(cv.get(o)) !== JSON.stringify(values[i])) bad++;
    });
    expect(bad).toBe(0);
    expect(() => cv.get(offsets[offsets.length - 1] + 100_000)).toThrow(/no value/);
  });
});
