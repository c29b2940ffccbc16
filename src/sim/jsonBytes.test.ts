import { describe, expect, it } from 'vitest';
import { JsonBytes } from './jsonBytes';
import { rngFor } from './rng';

const decoder = new TextDecoder();
const written = (v: unknown, skipKey?: string) => {
  const w = new JsonBytes();
  w.value(v, skipKey);
  return w.buf.slice(0, w.n);
};
const encoded = (json: string) => new TextEncoder().encode(json);

describe('JsonBytes', () => {
  it('writes the bytes of JSON.stringify for every kind of value an event can hold', () => {
    class Point {
      x = 1;
      y = 'two';
    }
    const nullProto = Object.assign(Object.create(null) as object, { a: 1, b: [true] });
    const values: unknown[] = [
      0, -0, 1, -1, 7, 10, 12, 99, 100, 1000, 123456789, 999999999, 2147483647, 2147483648, -2147483648, 4294967295, 2 ** 53 - 1, 2 ** 53, 2 ** 60, 1e21, 1.5e300, -1e-7, 5e-324,
      NaN, Infinity, -Infinity, 45.148, -45.148, 0.001, -0.001, 0.1, 0.25, 999999.999, 1e9 + 0.5, 0.1 + 0.2, 1 / 3, Math.PI,
      '', 'w0', 'chunk', 'quote " and \\ backslash', 'tab\tnew\nline\u0001', '中文', 'emoji 😀', 'lone \ud800 surrogate', '\u007f',
      true, false, null,
      [], [1, 'a', null, undefined, () => 1, Symbol('s'), [2, [3]]],
      {}, { a: undefined, b: () => 1, c: Symbol('s'), d: 1 }, { '2': 'b', '1': 'a', z: 0, y: { x: [] } },
      { toJSON: () => 'custom' }, new Date(0), new Point(), new Float32Array([1.5, 2]), new Map([[1, 2]]), nullProto,
      { t: 45.148, type: 'send', id: 3, from: 'w0', to: 'w1', kind: 'chunk', bytes: 8, due: 50.622 },
      { t: 1, type: 'facts', node: 's0', f: { kind: 'ps-server', clock: [1, 2, 3], waitingFor: null, note: 'a"b' } },
    ];
    values.forEach((v, i) => {
      expect(decoder.decode(written(v)), `value ${i}`).toBe(JSON.stringify(v));
      expect(written(v), `value ${i}`).toEqual(encoded(JSON.stringify(v)));
    });
  });

  it('writes quantized times, integers and arbitrary doubles as String(x) does', () => {
    const rng = rngFor(1, 'jsonBytes');
    const w = new JsonBytes();
    const expected: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const scale = [1, 1e3, 1e6, 1e9, 1e12][i % 5];
      const raw = (rng.next() - 0.2) * scale;
      const x = i % 3 === 0 ? raw : i % 3 === 1 ? Math.round(raw * 1000) / 1000 : Math.round(raw);
      w.value(x);
      w.byte(0x0a);
      expected.push(JSON.stringify(x));
    }
    expect(decoder.decode(w.buf.subarray(0, w.n))).toBe(expected.join('\n') + '\n');
  });

  it('leaves out the skipped key of the top-level object only', () => {
    const e = { t: 1.25, type: 'stepDone', node: 'w0', v: { loss: 0.5, v: 2 }, step: 3 };
    const { v: _v, ...rest } = e;
    expect(decoder.decode(written(e, 'v'))).toBe(JSON.stringify(rest));
    const dated = { v: 1, at: new Date(0) };
    expect(decoder.decode(written(dated, 'v'))).toBe(JSON.stringify({ at: dated.at }));
  });

  it('nests deeper than its own limit as JSON does, and reports a cycle as JSON does', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = i % 2 ? [deep] : { d: deep };
    expect(decoder.decode(written(deep))).toBe(JSON.stringify(deep));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { inner: cyclic };
    expect(() => written(cyclic)).toThrow(TypeError);
    expect(() => written({ big: 1n })).toThrow(TypeError);
  });

  it('grows its buffer', () => {
    const a = new JsonBytes();
    const long = 'x'.repeat(300_000);
    a.value({ long });
    a.value([1]);
    expect(decoder.decode(a.buf.subarray(0, a.n))).toBe(JSON.stringify({ long }) + JSON.stringify([1]));
    const tiny = new JsonBytes(2);
    const event = { t: 1234.567, type: 'facts', node: 'w0', f: { kind: 'ring-worker', round: 12, phase: 'rs', k: 3, waitingFor: 'w63' } };
    tiny.value(event);
    expect(decoder.decode(tiny.buf.subarray(0, tiny.n))).toBe(JSON.stringify(event));
  });
});
