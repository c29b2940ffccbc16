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
