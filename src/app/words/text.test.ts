import { describe, expect, it } from 'vitest';
import { list, ranged, setOf } from './text';

describe('node lists', () => {
  it('five or more consecutive ids of one role read as a range, in the order given', () => {
    const side = ['w0', 'w1', 'w2', 'w3', 'w6', 'w7', 'w8', 'w9', 'w10', 'w11', 'w12', 'w13', 'w14', 'w15'];
    expect(setOf(side)).toBe('{w0, w1, w2, w3, w6–w15}');
    expect(list(side, 'zh')).toBe('w0、w1、w2、w3、w6–w15');
    expect(list(['s0', 's1', 's2', 's3', 's4'], 'en')).toBe('s0–s4');
  });
  it('shorter runs, other orders and other roles stay as they are', () => {
    expect(setOf(['b1', 'b2', 'b0'])).toBe('{b1, b2, b0}');
    expect(ranged(['w4', 'w3', 'w2', 'w1', 'w0'])).toEqual(['w4', 'w3', 'w2', 'w1', 'w0']);
    expect(ranged(['w0', 'w1', 'w2', 'w3', 's4', 's5'])).toEqual(['w0', 'w1', 'w2', 'w3', 's4', 's5']);
    expect(ranged(['w0', 'w1', 'w2', 'w3', 'w4', 'x5'])).toEqual(['w0–w4', 'x5']);
    expect(ranged([])).toEqual([]);
  });
});
