import { range } from 'd3';
import type { RunIndex } from '../../engine/index/runIndex';
import { lastAtOrBefore } from '../../engine/index/series';
import type { NodeId } from '../../sim/types';
import { colourOf } from '../palette';
import { finiteMax, lossPoints, thin, type MetricSeries } from './chartModel';
import type { ViewStringKey } from './strings';
import { timeDomain } from './timelineModel';

/**
 * What the four loss charts plot: each chart's series, domains and partition periods, built from
 * the run's index and its sampled metric series. Pure: no DOM; chartDraw.ts draws a spec.
 */

export type XY = [number, number];

export interface Series {
  key: string;
  /** null = neutral (cluster-wide series). */
  colour: string | null;
  points: XY[];
}

export interface ChartSpec {
  id: string;
  title: ViewStringKey;
  /** Said instead of the title where even 9 px of it would overrun the chart (a 96-px chart). */
  shortTitle?: ViewStringKey;
  /** A second line under the title saying what is plotted (divergence: forks, not lag). */
  note?: ViewStringKey;
  xLabel: ViewStringKey;
  xDomain: [number, number];
  yDomain: [number, number];
  /** Integer ticks (steps, versions behind). */
  yInt?: boolean;
  xIsTime: boolean;
  series: Series[];
  periods: [number, number][];
}

const MAX_POINTS = 600;

/** The four charts' specs, in chartIds order, over the run up to `now` (its newest sample). */
export function chartSpecs(ix: RunIndex, workers: readonly NodeId[], sampled: MetricSeries, now: number, durationMs: number): ChartSpec[] {
  const timeDom = timeDomain(now, durationMs);
  const periods: [number, number][] = ix.partitions
    .filter((q) => q.start <= now)
    .map((q) => [Math.max(q.start, timeDom[0]), q.end ?? now]);

  const lossSteps: Series[] = [];
  const lossTime: Series[] = [];
  let maxLoss = 0;
  let maxSteps = 1;
  for (const w of workers) {
    // Loss against steps: the whole run, thinned incrementally (a redraw reads only the new
    // samples). Loss against time: the time window only, so its cost and its detail do not
    // depend on how long the run has gone (thinning the whole run left a late window ten points).
    const whole = lossPoints(ix, w, MAX_POINTS);
    lossSteps.push({ key: w, colour: colourOf(w), points: whole.points.map((s) => [s.steps, s.loss]) });
    const all = ix.samples.get(w);
    const inWindow = all ? thin(range(all.firstAtOrAfter(timeDom[0]), all.lastAtOrBefore(now) + 1), MAX_POINTS) : [];
    lossTime.push({ key: w, colour: colourOf(w), points: inWindow.map((k) => [all!.t(k), all!.loss(k)]) });
    maxLoss = Math.max(maxLoss, whole.maxLoss);
    const newest = whole.points[whole.points.length - 1];
    if (newest) maxSteps = Math.max(maxSteps, newest.steps);
  }

  // Like the timeline, the charts keep the whole run so far and mark a scrubbed t with a
  // cursor: the shape of the curve is what tells the story, the cursor says where we are.
  const n = sampled.t.length;
  const lo = lastAtOrBefore(sampled.t, timeDom[0], (v) => v) + 1;
  const idx = thin(range(Math.max(0, lo - 1), n), MAX_POINTS);
  const div: XY[] = idx.map((i) => [sampled.t[i], sampled.divergence[i]]);
  const stale: Series[] = workers.map((w) => {
    const arr = sampled.staleness.get(w) ?? [];
    return { key: w, colour: colourOf(w), points: idx.map((i): XY => [sampled.t[i], arr[i] ?? NaN]) };
  });

  return [
    { id: 'loss-steps', title: 'lossVsSteps', xLabel: 'steps', xDomain: [0, maxSteps], yDomain: [0, maxLoss || 1], xIsTime: false, series: lossSteps, periods: [] },
    { id: 'loss-time', title: 'lossVsTime', xLabel: 'timeSec', xDomain: timeDom, yDomain: [0, maxLoss || 1], xIsTime: true, series: lossTime, periods },
    {
      id: 'divergence',
      title: 'divergence',
      shortTitle: 'divergenceShort',
      note: 'divergenceNote',
      xLabel: 'timeSec',
      xDomain: timeDom,
      yDomain: [0, finiteMax(div.map((d) => d[1]), 0) || 1],
      xIsTime: true,
      series: [{ key: 'divergence', colour: null, points: div }],
      periods,
    },
    {
      id: 'staleness',
      title: 'staleness',
      note: 'stalenessNote',
      xLabel: 'timeSec',
      xDomain: timeDom,
      yDomain: [0, Math.max(1, finiteMax(stale.flatMap((s) => s.points.map((q) => q[1])), 0))],
      yInt: true,
      xIsTime: true,
      series: stale,
      periods,
    },
  ];
}
