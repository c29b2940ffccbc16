import { describe, expect, it } from 'vitest';
import { endLabels, type Series } from './LossCharts';

const line = (key: string, end: number): Series => ({ key, colour: null, points: [[0, 0], [10, end]] });
const id = (v: number): number => v;

describe('chart end labels', () => {
  it('push labels of lines that end together apart, inside the plot', () => {
    const out = endLabels([line('w0', 50), line('w1', 51), line('w2', 52)], id, id, 10, 0, 100);
    expect(out.map((l) => [l.key, l.y])).toEqual([['w0', 50], ['w1', 60], ['w2', 70]]);
  });
  it('label every k-th line, first and last kept, when the plot holds fewer labels than lines', () => {
    const many = Array.from({ length: 16 }, (_, i) => line(`w${i}`, 40 + i));
    const out = endLabels(many, id, id, 10, 20, 60); // room for 5 labels in 40 px
    expect(out).toHaveLength(5);
    expect(out[0].key).toBe('w0');
    expect(out[out.length - 1].key).toBe('w15');
    for (const l of out) expect(l.y).toBeGreaterThanOrEqual(20);
    for (const l of out) expect(l.y).toBeLessThanOrEqual(60);
  });
});
