import { ticks } from 'd3';

/** How many ticks a chart's axes carry, by the room their labels need. Pure; unit-tested (lossCharts.test.ts). */

/** Ticks on a chart's x axis: one per 70 px; steps come whole, so no more ticks than steps (an idle chart read "0 500m 1"). */
export function xTickCount(width: number, xIsTime: boolean, xMax: number): number {
  const n = Math.max(2, Math.floor(width / 70));
  return xIsTime ? n : Math.min(n, Math.max(1, Math.floor(xMax)));
}

/**
 * The y axis's tick values: as many as `count` asks, fewer where their labels would crowd (d3's
 * ticks for 2 on [0, 1] are three, and a lesson's 1024-px presenter panel left them 25 px: "1.0"
 * over "0.50"), down to the axis's two ends, or its top alone in a sliver of a chart.
 */
export function yTickValues(domain: readonly [number, number], count: number, plotH: number, linePx: number, int: boolean): number[] {
  const [lo, hi] = domain;
  const pxPer = hi > lo ? plotH / (hi - lo) : 0;
  for (let c = count; c >= 1; c--) {
    const ts = ticks(lo, hi, c).filter((v) => !int || Number.isInteger(v));
    if (ts.length < 2) break;
    if ((ts[1] - ts[0]) * pxPer >= linePx) return ts;
  }
  return plotH >= linePx ? [lo, hi] : [hi];
}

/**
 * The text-anchor of an x tick's label: `end` where a label centred on its tick would run past
 * `right` (the view's edge: "30 s" was cut at 1920 presenter), else the axis's own (middle). The
 * label's width is estimated from its length (no layout read in a frame).
 */
export function xTickAnchor(tickX: number, label: string, fontPx: number, right: number): 'end' | null {
  return tickX + (label.length * 0.62 * fontPx) / 2 > right ? 'end' : null;
}
