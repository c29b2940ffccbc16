import { interpolatePuOr, rgb as d3rgb } from 'd3';
import { describe, expect, it } from 'vitest';
import { gridDecision, probColour, probColourTable } from './boundary';
import { RunIndex } from '../../engine/index/runIndex';
import type { HistoryEvent } from '../../sim/types';
import { finiteMax, metricSeries, Strided, thin } from './chartModel';
import { laneOrder, laneStretches, timeDomain } from './timelineModel';

describe('timeline model', () => {
  it('shows short runs whole and long runs as a sliding window', () => {
    expect(timeDomain(5000, 20000)).toEqual([0, 20000]);
    expect(timeDomain(10000, 600000)).toEqual([0, 30000]);
    expect(timeDomain(100000, 600000)).toEqual([70000, 100000]);
    // Long runs: the window moves in 5 s steps, with the live edge in its last step.
    expect(timeDomain(100001, 600000)).toEqual([75000, 105000]);
    expect(timeDomain(104999, 600000)).toEqual([75000, 105000]);
  });
  it('splits a lane into up and down stretches', () => {
    expect(laneStretches([{ start: 100, end: 200 }, { start: 300, end: null }], 0, 400)).toEqual([
      { start: 0, end: 100, up: true },
      { start: 100, end: 200, up: false },
      { start: 200, end: 300, up: true },
      { start: 300, end: 400, up: false },
    ]);
    expect(laneStretches(undefined, 0, 50)).toEqual([{ start: 0, end: 50, up: true }]);
    expect(laneStretches([{ start: 10, end: 20 }], 30, 50)).toEqual([{ start: 30, end: 50, up: true }]);
  });
  it('orders lanes workers, servers, brokers by index', () => {
    expect(laneOrder(['s0', 'w10', 'b0', 'w2'])).toEqual(['w2', 'w10', 's0', 'b0']);
  });
});

describe('chart model', () => {
  it('reads the engine samples incrementally, NaN for missing values and while a worker is down', () => {
    const ix = new RunIndex(['w0', 'w1', 's0']);
    const sample = (t: number, div: number | null, w1: number): HistoryEvent => ({ t, type: 'metrics', v: { cluster: { divergence: div }, nodes: { w0: { staleness: 0 }, w1: { staleness: w1 } } } });
    const events: HistoryEvent[] = [sample(0, 0, 0), sample(250, null, 2)];
    ix.sync(events);
    const s = metricSeries(ix, ['w0', 'w1']);
    expect(s.t).toEqual([0, 250]);
    expect(s.divergence[0]).toBe(0);
    expect(s.divergence[1]).toBeNaN();
    expect(s.staleness.get('w1')).toEqual([0, 2]);
    events.push({ t: 300, type: 'crash', node: 'w1' }, sample(500, 0.5, 3));
    ix.sync(events);
    expect(metricSeries(ix, ['w0', 'w1'])).toBe(s);
    expect(s.t).toEqual([0, 250, 500]);
    expect(s.divergence[2]).toBe(0.5);
    expect(s.staleness.get('w1')![2]).toBeNaN();
    expect(s.staleness.get('w0')).toEqual([0, 0, 0]);
  });
  it('thin keeps the last point and bounds the count', () => {
    const xs = Array.from({ length: 1001 }, (_, i) => i);
    const th = thin(xs, 100);
    expect(th.length).toBeLessThanOrEqual(102);
    expect(th[th.length - 1]).toBe(1000);
    expect(finiteMax([NaN, 3, Infinity, 2], 0)).toBe(3);
  });
  it('Strided thins a growing list incrementally: bounded, evenly strided, the newest kept, the same as in one go', () => {
    const xs = Array.from({ length: 1001 }, (_, i) => (i === 300 ? NaN : i % 97));
    const inc = new Strided<number>(100, (v) => v);
    for (let n = 0; n <= xs.length; n += 7) inc.update(xs, n);
    inc.update(xs);
    const once = new Strided<number>(100, (v) => v).update(xs);
    const pts = inc.points(xs);
    expect(pts).toEqual(once.points(xs));
    // 1001 items, at most 100 kept: stride 16 (every multiple of 16 up to 992), then the newest.
    expect(pts.length).toBe(64);
    expect(pts.slice(0, -1)).toEqual(Array.from({ length: 63 }, (_, j) => xs[j * 16]));
    expect(pts[pts.length - 1]).toBe(xs[1000]);
    expect(inc.maxValue(xs)).toBe(finiteMax(pts, 0));
    expect(() => inc.update(xs, 10)).toThrow(/shrank/);
    expect(new Strided<number>(100).points([])).toEqual([]);
  });
});

describe('replica boundary helpers', () => {
  it('throttles: one request in flight, at most every 250 ms, only on change', () => {
    const slot = { have: 'v1', pending: null, lastRequest: 1000 };
    expect(gridDecision(slot, 'v1', 5000)).toBe('no');
    expect(gridDecision(slot, 'v2', 1100)).toBe(150);
    expect(gridDecision(slot, 'v2', 1300)).toBe('now');
    expect(gridDecision({ ...slot, pending: 'v2' }, 'v3', 9000)).toBe('no');
  });
  it('maps probabilities to distinct washed colours', () => {
    const lo = probColour(0);
    const hi = probColour(1);
    expect(lo).not.toEqual(hi);
    for (const c of [...lo, ...hi]) expect(c).toBeGreaterThanOrEqual(0);
  });
  it('the written-out PuOr is d3.interpolatePuOr', () => {
    for (let i = 0; i <= 20; i++) {
      const c = d3rgb(interpolatePuOr(1 - i / 20));
      expect(probColour(i / 20)).toEqual([c.r + (255 - c.r) / 2, c.g + (255 - c.g) / 2, c.b + (255 - c.b) / 2]);
    }
  });
  it('the 256-level table is probColour at each level, in bytes', () => {
    const table = probColourTable();
    for (const i of [0, 1, 64, 128, 200, 255]) {
      // Bytes round to nearest (half to even): each within half a level of the exact colour.
      probColour(i / 255).forEach((c, k) => expect(Math.abs(table[3 * i + k] - c)).toBeLessThanOrEqual(0.5));
    }
  });
});
