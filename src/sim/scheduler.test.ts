import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from './scheduler';

describe('EventQueue', () => {
  it('pops in (time, priority, insertion) order', () => {
    const q = new EventQueue<string>();
    q.push(5, 'e');
    q.push(1, 'a-probe', 1);
    q.push(1, 'a');
    q.push(3, 'c1');
    q.push(3, 'c2');
    q.push(0, 'z');
    const out: string[] = [];
    for (let x = q.pop(); x; x = q.pop()) out.push(x.event);
    expect(out).toEqual(['z', 'a', 'a-probe', 'c1', 'c2', 'e']);
  });

  it('matches a stable sort for any input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 2 }))), (items) => {
        const q = new EventQueue<number>();
        items.forEach(([t, p], i) => q.push(t, i, p));
        const got: number[] = [];
        for (let x = q.pop(); x; x = q.pop()) got.push(x.event);
        const want = items
          .map(([t, p], i) => ({ t, p, i }))
          .sort((a, b) => a.t - b.t || a.p - b.p || a.i - b.i)
          .map((x) => x.i);
        expect(got).toEqual(want);
      }),
    );
  });

  it('refuses non-finite times', () => {
    expect(() => new EventQueue<number>().push(NaN, 1)).toThrow();
  });
});
