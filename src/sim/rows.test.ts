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

  it('lets go of the chunks wholly before a row, keeps the one holding it, and goes on growing', () => {
    const rows = new Rows((n) => new Int32Array(n), 2);
    for (let r = 0; r < 3 * CHUNK_ROWS + 5; r++) rows.set(rows.add(), 1, r);
    rows.dropBefore(2 * CHUNK_ROWS + 7);
    expect([0, CHUNK_ROWS, 2 * CHUNK_ROWS, 3 * CHUNK_ROWS].map((r) => rows.chunk(r).length)).toEqual([0, 0, 2 * CHUNK_ROWS, 2 * CHUNK_ROWS]);
    expect(rows.get(2 * CHUNK_ROWS, 1)).toBe(2 * CHUNK_ROWS);
    expect(rows.copy(2 * CHUNK_ROWS + 7, 3 * CHUNK_ROWS + 5)[1]).toBe(2 * CHUNK_ROWS + 7);
    rows.dropBefore(CHUNK_ROWS); // an earlier row changes nothing
    expect(rows.chunk(2 * CHUNK_ROWS).length).toBe(2 * CHUNK_ROWS);
    rows.set(rows.add(), 1, -1);
    expect(rows.get(3 * CHUNK_ROWS + 5, 1)).toBe(-1);
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
