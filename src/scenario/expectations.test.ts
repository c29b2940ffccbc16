import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compare, formatExpectation, formatSimTime, resolveAt } from './expectations';
import type { ComparisonOp } from './schema';

describe('compare', () => {
  const table: Array<[number | null, ComparisonOp, number, number, boolean]> = [
    [1, '==', 1, 0, true],
    [1.05, '==', 1, 0, false],
    [1.05, '==', 1, 0.1, true],
    [0.9, '==', 1, 0.1, true],
    [1, '!=', 1, 0, false],
    [1.2, '!=', 1, 0.1, true],
    [2, '<', 3, 0, true],
    [3, '<', 3, 0, false],
    [2.95, '<', 3, 0.1, false],
    [3, '<=', 3, 0, true],
    [3.05, '<=', 3, 0.1, true],
    [4, '>', 3, 0, true],
    [3.05, '>', 3, 0.1, false],
    [3, '>=', 3, 0, true],
    [2.95, '>=', 3, 0.1, true],
    [-Infinity, '<', 0, 0, true],
    [null, '==', 0, 0, false],
    [null, '!=', 0, 0, true],
    [null, '>', 1e300, 0, true],
    [null, '>=', 5, 0, true],
    [null, '<', 5, 0, false],
    [null, '<=', 5, 0, false],
    [NaN, '==', 0, 0, false],
  ];
  it.each(table)('%s %s %s ± %s → %s', (a, op, v, tol, want) => {
    expect(compare(a, op, v, tol)).toBe(want);
  });

  const num = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
  const tol = fc.double({ noNaN: true, min: 0, max: 10 });
  const maybeNull = fc.option(num, { nil: null });

  it('complement pairs: < / >=, > / <=, == / != (property, incl. tolerance and null)', () => {
    fc.assert(
      fc.property(maybeNull, num, tol, (a, v, t) => {
        expect(compare(a, '<', v, t)).toBe(!compare(a, '>=', v, t));
        expect(compare(a, '>', v, t)).toBe(!compare(a, '<=', v, t));
        expect(compare(a, '==', v, t)).toBe(!compare(a, '!=', v, t));
      }),
    );
  });

  it('without tolerance, matches the JavaScript operators on finite numbers (property)', () => {
    fc.assert(
      fc.property(num, num, (a, v) => {
        expect(compare(a, '<', v)).toBe(a < v);
        expect(compare(a, '<=', v)).toBe(a <= v);
        expect(compare(a, '>', v)).toBe(a > v);
        expect(compare(a, '>=', v)).toBe(a >= v);
        expect(compare(a, '==', v)).toBe(a === v);
      }),
    );
  });
});

describe('resolveAt and formatting', () => {
  it('resolves "end" to the duration', () => {
    expect(resolveAt('end', 20000)).toBe(20000);
    expect(resolveAt(5900, 20000)).toBe(5900);
  });

  it('formats times', () => {
    expect(formatSimTime(900)).toBe('900 ms');
    expect(formatSimTime(5900)).toBe('5.9 s');
    expect(formatSimTime(12900, 'zh')).toBe('12.9 秒');
  });

  it('formats expectations in both languages', () => {
    expect(formatExpectation({ at: 5900, metric: 'availability', op: '==', value: 1 }, 'en')).toBe('availability == 1 at 5.9 s');
    expect(formatExpectation({ at: 'end', metric: 'steps', node: 'w2', op: '>', value: 10 }, 'en')).toBe('steps[w2] > 10 at end');
    expect(formatExpectation({ at: 12900, metric: 'divergence', op: '==', value: 0, tolerance: 0.01 }, 'en')).toBe('divergence == 0 ± 0.01 at 12.9 s');
    expect(formatExpectation({ at: 5900, metric: 'availability', op: '==', value: 1 }, 'zh')).toBe('5.9 秒时：availability == 1');
    expect(formatExpectation({ at: 'end', metric: 'steps', node: 'w2', op: '>', value: 10 }, 'zh')).toBe('结束时：steps[w2] > 10');
  });
});
