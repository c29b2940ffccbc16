import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactValues } from './compactValues';

/** Keys in order at every level (toStrictEqual ignores key order; JSON lines and hashes do not). */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return v;
}

const leaf = fc.oneof(
  fc.double(), // NaN, ±Infinity, -0 and subnormals included
  fc.integer({ min: -(2 ** 31) - 3, max: 2 ** 31 + 3 }),
  fc.integer({ min: -1e9, max: 1e9 }).map((k) => k / 1000), // simulated times: whole microseconds
  fc.constantFrom(-2147483648, -2147483647, -2147483646, -2147483645, 2147483647),
  fc.string(),
  fc.constantFrom('w0', 's1', 'leader', '', '"quoted\\', 'ü中'),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const key = fc.oneof(fc.string(), fc.constantFrom('t', 'type', 'node', '0', '12', '"', '\\', ':', ',', '}', 'a"b'));
const plain = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(key.filter((k) => k !== '__proto__'), tie('value'), { maxKeys: 6 }).map((d) => ({ ...d })),
})).value;

describe('CompactValues: plain data as words', () => {
  it('reads every value back equal, with the same keys in the same order and the same JSON, however many are stored', () => {
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 60 }), (values) => {
        const s = new CompactValues();
        const at = values.map((v) => s.add(v));
        at.forEach((offset, i) => {
          expect(offset).toBeGreaterThanOrEqual(0);
          const back = s.get(offset);
          expect(back).toStrictEqual(values[i]);
          expect(keyOrder(back)).toStrictEqual(keyOrder(values[i]));
          expect(JSON.stringify(back)).toBe(JSON.stringify(values[i]));
        });
      }),
      { numRuns: 300, seed: 9 },
    );
  });

  it('values that share a `type` (the fast path by remembered shape) read back the same, however their shapes vary', () => {
    // Few types and few keys, so shapes repeat, differ in one field's kind, or in key order.
    const event = fc
      .record({ type: fc.constantFrom('send', 'facts'), t: leaf, node: fc.oneof(leaf, fc.constantFrom('w0', 'w1')), f: plain }, { requiredKeys: ['type'] })
      .chain((e) => fc.constantFrom({ ...e }, { ...e, extra: 1 }, Object.fromEntries(Object.entries(e).reverse())));
    fc.assert(
      fc.property(fc.array(event, { maxLength: 80 }), (values) => {
        const s = new CompactValues();
        const at = values.map((v) => s.add(v));
        at.forEach((offset, i) => {
          const back = s.get(offset);
          expect(keyOrder(back)).toStrictEqual(keyOrder(values[i]));
          expect(JSON.stringify(back)).toBe(JSON.stringify(values[i]));
        });
      }),
      { numRuns: 300, seed: 11 },
    );
    // A remembered shape does not let a value that is not plain data through.
    const s = new CompactValues();
    expect(s.add({ type: 'facts', f: { x: 1 } })).toBeGreaterThanOrEqual(0);
    expect(s.add({ type: 'facts', f: new Date(0) })).toBe(-1);
    expect(s.add({ type: 'facts', f: { x: [1, new Map()] } })).toBe(-1);
    expect(s.get(s.add({ type: 'facts', f: { x: 2 } }))).toStrictEqual({ type: 'facts', f: { x: 2 } });
  });

  it('gives back a fresh object each time (a reader cannot change what is stored)', () => {
    const s = new CompactValues();
    const at = s.add({ kind: 'raft-server', parts: [{ p: 0, isr: ['b0', 'b1'] }] });
    const a = s.get(at) as { parts: Array<{ isr: string[] }> };
    a.parts[0].isr.push('b2');
    expect(s.get(at)).toStrictEqual({ kind: 'raft-server', parts: [{ p: 0, isr: ['b0', 'b1'] }] });
  });

  it('refuses what is not plain data, storing nothing', () => {
    const s = new CompactValues();
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    class Point {
      x = 1;
    }
    const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
    for (const v of [new Float32Array(2), new Map(), new Point(), { f: () => 1 }, { deep: [new Set()] }, proto, sparse, 1n, Symbol('s')]) expect(s.add(v)).toBe(-1);
    expect(s.size).toBe(0);
    expect(s.get(s.add({ a: 1 }))).toStrictEqual({ a: 1 });
  });

  it('an offset it never gave fails loudly', () => {
    const s = new CompactValues();
    s.add(1);
    expect(() => s.get(5)).toThrow(/no value at 5/);
  });
});
