import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkColumns, chunkColumnsSize, chunkRows } from './columnLayout';

/** A chunk laid out by columns comes back bit for bit, whatever its numbers. */
describe('chunk column layout (packed rows)', () => {
  const micros = fc.integer({ min: -1e9, max: 1e9 }).map((us) => us / 1000); // differences fit an Int32
  const anyDouble = fc.oneof(micros, fc.double(), fc.constantFrom(-0, NaN, Infinity, 1e300, 0.1 + 0.2));

  it('round-trips float chunks: whole-microsecond columns as differences, the others as floats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (width, rows, mixed) => {
        const a = new Float64Array(width * rows);
        const values = fc.sample(mixed ? anyDouble : micros, a.length);
        a.set(values);
        const laid = chunkColumns(a, width);
        expect(laid.bytes.length).toBe(chunkColumnsSize(a, rows, width, laid.floats));
        const out = new Float64Array(a.length);
        chunkRows(laid.bytes, laid.floats, out, width);
        for (let i = 0; i < a.length; i++) expect(Object.is(out[i], a[i]), `row ${Math.floor(i / width)} col ${i % width}: ${a[i]} → ${out[i]}`).toBe(true);
        if (!mixed) expect([...laid.floats!].every((f) => f === 0)).toBe(true);
      }),
    );
  });

  it('round-trips float columns read against another of the same row, and keeps each as such only where its differences fit', () => {
    const time = fc.oneof(fc.integer({ min: 0, max: 4e9 }).map((us) => us / 1000), fc.constantFrom(NaN, 0.0005, -0));
    fc.assert(
      fc.property(fc.array(fc.tuple(time, fc.integer({ min: 0, max: 3e6 }), fc.integer({ min: 0, max: 3e6 }), fc.boolean()), { minLength: 1, maxLength: 60 }), (rows) => {
        const a = new Float64Array(rows.length * 4);
        rows.forEach(([sent, lat, held, open], r) => a.set([420, sent, sent + lat / 1000, open ? NaN : sent + (lat + held) / 1000], r * 4));
        const relative = [[2, 1], [3, 2]] as const;
        const laid = chunkColumns(a, 4, relative);
        expect(laid.bytes.length).toBe(chunkColumnsSize(a, rows.length, 4, laid.floats));
        const out = new Float64Array(a.length);
        chunkRows(laid.bytes, laid.floats, out, 4, relative);
        for (let i = 0; i < a.length; i++) expect(Object.is(out[i], a[i]), `row ${Math.floor(i / 4)} col ${i % 4}: ${a[i]} → ${out[i]}`).toBe(true);
      }),
      { numRuns: 300, seed: 8 },
    );
    // Every send 1.5 ms on the wire, delivered when due: latencies and held times are constants.
    const a = new Float64Array(400 * 4);
    for (let r = 0; r < 400; r++) a.set([420, (r * 370) / 1000, (r * 370 + 1500) / 1000, (r * 370 + 1500) / 1000], r * 4);
    const laid = chunkColumns(a, 4, [[2, 1], [3, 2]]);
    expect([...laid.floats!]).toEqual([0, 0, 2, 2]);
    const col = (k: number) => [...new Int32Array(laid.bytes.buffer, laid.bytes.byteOffset + k * 1600, 400)];
    expect(new Set(col(2))).toEqual(new Set([1500]));
    expect(new Set(col(3))).toEqual(new Set([0]));
  });

  it('round-trips int chunks (differences wrap around), and leaves bytes as they are', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 200 }), (width, xs) => {
        const rows = Math.floor(xs.length / width) || 1;
        const a = new Int32Array(width * rows);
        a.set(xs.slice(0, a.length));
        const laid = chunkColumns(a, width);
        expect(laid.floats).toBeNull();
        const out = new Int32Array(a.length);
        chunkRows(laid.bytes, null, out, width);
        expect([...out]).toEqual([...a]);
        const b = Uint8Array.from(xs.slice(0, 10), (x) => x & 255);
        const back = new Uint8Array(b.length);
        chunkRows(chunkColumns(b, 1).bytes, null, back, 1);
        expect([...back]).toEqual([...b]);
      }),
    );
  });
});
