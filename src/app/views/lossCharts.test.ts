import { describe, expect, it } from 'vitest';
import * as d3 from 'd3';
import { chartGrid, chartTitle, columnsFor, endLabels, fittedPx, fittedTitlePx } from './chartLayout';
import type { Series } from './chartSpecs';
import { xTickAnchor, xTickCount, yTickValues } from './chartTicks';
import { textWidth } from './hooks';

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
  it('keep each band on the line it labelled while lines cross within the band', () => {
    const ends = (order: number[]): Series[] => order.map((w, rank) => line(`w${w}`, 40 + rank));
    const first = endLabels(ends([...Array(16).keys()]), id, id, 10, 20, 60);
    const shown = new Set(first.map((l) => l.key));
    expect([...shown]).toEqual(['w0', 'w4', 'w8', 'w11', 'w15']);
    // w4 and w5, w7 and w8, w14 and w15 swap heights, each pair inside its band.
    const crossed = [0, 1, 2, 3, 5, 4, 6, 8, 7, 9, 10, 11, 12, 13, 15, 14];
    expect(endLabels(ends(crossed), id, id, 10, 20, 60, shown).map((l) => l.key)).toEqual(['w0', 'w4', 'w8', 'w11', 'w15']);
    // Picked afresh, every k-th by height, three of the five names moved to other lines.
    expect(endLabels(ends(crossed), id, id, 10, 20, 60).map((l) => l.key)).toEqual(['w0', 'w5', 'w7', 'w11', 'w14']);
    // A line that leaves its band hands the label over: w0 falls to the bottom.
    const fallen = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];
    expect(endLabels(ends(fallen), id, id, 10, 20, 60, shown).map((l) => l.key)).toEqual(['w1', 'w4', 'w8', 'w11', 'w15']);
  });
  it('label each line once at most, whatever was shown before', () => {
    for (let n = 2; n <= 20; n++) {
      for (const room of [1, 2, 3, 4, 5]) {
        const many = Array.from({ length: n }, (_, i) => line(`w${i}`, i));
        const shown = new Set(many.filter((_, i) => i % 3 === 0).map((s) => s.key));
        const out = endLabels(many, id, id, 1, 0, room - 1, shown);
        expect(out).toHaveLength(Math.min(n, room));
        expect(new Set(out.map((l) => l.key)).size).toBe(out.length);
      }
    }
  });
});

describe('chart x ticks', () => {
  it('steps come whole: never more ticks than steps, so none falls between two', () => {
    for (const xMax of [0, 1, 2, 3, 7, 40, 1000]) {
      const n = xTickCount(300, false, xMax);
      const ticks = d3.scaleLinear().domain([0, Math.max(1, xMax)]).ticks(n);
      expect(ticks.every(Number.isInteger), `${xMax}: ${ticks.join(' ')}`).toBe(true);
    }
  });
  it('time keeps one tick per 70 px', () => {
    expect(xTickCount(700, true, 1)).toBe(10);
  });
  it("a label that would run past the right edge ends at its tick; the others stay centred", () => {
    // "30 s" at 24 px is about 60 px wide: centred 14 px before the edge, it ran 16 px past it.
    expect(xTickAnchor(586, '30 s', 24, 600)).toBe('end');
    expect(xTickAnchor(500, '25 s', 24, 600)).toBeNull();
    expect(xTickAnchor(40, '0 s', 24, 600)).toBeNull();
  });
});

describe('chart y ticks', () => {
  it('keep a line of type between labels: fewer ticks in a short plot, then the ends, then the top', () => {
    // Roomy: d3's own ticks.
    expect(yTickValues([0, 1], 3, 120, 17, false)).toEqual([0, 0.5, 1]);
    // A lesson panel at 1024 presenter: 25 px for a 17-px type. d3 gives three ticks for 2 ("1.0" over "0.50").
    expect(d3.ticks(0, 1, 2)).toHaveLength(3);
    expect(yTickValues([0, 1], 2, 25, 17, false)).toEqual([0, 1]);
    // Less than a line: the top value alone.
    expect(yTickValues([0, 1], 2, 12, 17, false)).toEqual([1]);
    // Whole numbers stay whole (versions behind).
    expect(yTickValues([0, 3], 3, 40, 17, true).every(Number.isInteger)).toBe(true);
    for (const [h, n] of [[25, 2], [60, 3], [200, 6]] as const) {
      const ts = yTickValues([0, 0.8], n, h, 17, false);
      if (ts.length > 1) expect(((ts[1] - ts[0]) / 0.8) * h).toBeGreaterThanOrEqual(17);
    }
  });
});

describe('fittedTitlePx', () => {
  it('keeps the stylesheet size where the title fits, shrinks it to the chart where not, never below 9 px', () => {
    expect(fittedTitlePx('Loss vs steps', 15, 300, '')).toBeNull();
    const px = fittedTitlePx('Replica divergence', 17, 120, '');
    expect(px).not.toBeNull();
    expect(px!).toBeLessThan(0.867 * 17);
    // At that size the (estimated) title fits the chart's width less its 4 px margins.
    expect(textWidth('Replica divergence', px!)).toBeLessThanOrEqual(112);
    expect(fittedTitlePx('Replica divergence', 17, 30, '')).toBe(9);
  });

  it('says the short title only where even 9 px of the whole one would overrun the chart', () => {
    // A one-run lesson at 1024 px: 96-px charts in 15-px type.
    const narrow = chartTitle('Replica divergence', 'Divergence', 15, 96, '');
    expect(narrow.text).toBe('Divergence');
    expect(textWidth('Divergence', narrow.px ?? 0.867 * 15)).toBeLessThanOrEqual(88);
    // Where the whole title fits, shrunk or not, it stays.
    expect(chartTitle('Replica divergence', 'Divergence', 15, 300, '')).toEqual({ text: 'Replica divergence', px: null });
    expect(chartTitle('Replica divergence', 'Divergence', 17, 140, '').text).toBe('Replica divergence');
    // No short title: the whole one at 9 px, as before.
    expect(chartTitle('Replica divergence', null, 15, 96, '')).toEqual({ text: 'Replica divergence', px: 9 });
  });

  it("a chart's note shrinks the same way (at a 1024-px presenter it was dropped whole)", () => {
    // 20 px type, a 180-px chart: "forked replicas, not lagging" at 0.75 em is ~244 px.
    const px = fittedPx('forked replicas, not lagging', 0.75, 20, 180, '');
    expect(px).not.toBeNull();
    expect(px!).toBeGreaterThan(9);
    expect(textWidth('forked replicas, not lagging', px!)).toBeLessThanOrEqual(172);
  });
});

describe('columnsFor', () => {
  it('four in a row on a wide panel; two by two on a narrow, tall one; a row where two rows would be too short', () => {
    expect(columnsFor(900, 150, 15)).toBe(4);
    // A phone: 360 px wide, the charts given 24 rem.
    expect(columnsFor(360, 360, 15)).toBe(2);
    // A lesson in presenter mode at 1280×720: 510 × 115 px at 17 px type.
    expect(columnsFor(510, 115, 17)).toBe(4);
    // Too narrow for a row of four even so: two by two, and the panel scrolls.
    expect(columnsFor(300, 115, 17)).toBe(2);
  });
});

describe('chartGrid', () => {
  it('fills the panel where the charts fit it', () => {
    expect(chartGrid(900, 150, 15, 4)).toEqual({ cols: 4, w: 220, h: 150, scroll: false });
    expect(chartGrid(360, 360, 15, 4)).toEqual({ cols: 2, w: 177, h: 177, scroll: false });
  });

  it('keeps each chart 6.5 em tall and scrolls where two rows would squeeze them (a one-run lesson at 1024 presenter)', () => {
    const g = chartGrid(365, 120, 17, 4);
    expect(g.cols).toBe(2);
    expect(g.scroll).toBe(true);
    expect(g.h).toBe(Math.round(6.5 * 17));
    expect(g.w * 2 + 6).toBeLessThanOrEqual(365 - 16); // room for the scrollbar
    // Two charts in one row never scroll.
    expect(chartGrid(365, 120, 17, 2).scroll).toBe(false);
  });
});
