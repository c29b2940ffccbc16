import type { NodeId } from '../../sim/types';

/**
 * Metric series the charts sample once per frame (divergence and staleness are current-state
 * metrics, not history events). Kept per simulation object, so remounting a chart — switching
 * layout, changing language — does not lose what was already sampled.
 */
export interface SampledSeries {
  t: number[];
  divergence: number[];
  staleness: Map<NodeId, number[]>;
}

export interface MetricSource {
  now(): number;
  metric(name: 'divergence' | 'staleness', node?: string): number | null;
}

const store = new WeakMap<object, SampledSeries>();

export function seriesFor(sim: object): SampledSeries {
  let s = store.get(sim);
  if (!s) {
    s = { t: [], divergence: [], staleness: new Map() };
    store.set(sim, s);
  }
  return s;
}

/**
 * Appends one sample at sim.now() if time moved forward since the last one (a paused or scrubbed
 * view adds nothing). Missing values (no live workers, …) are stored as NaN: a gap in the line.
 */
export function sampleMetrics(series: SampledSeries, sim: MetricSource, workers: readonly NodeId[], isUp: (w: NodeId) => boolean = () => true): boolean {
  const now = sim.now();
  const last = series.t.length ? series.t[series.t.length - 1] : -Infinity;
  if (!(now > last)) return false;
  const n = series.t.length;
  series.t.push(now);
  series.divergence.push(sim.metric('divergence') ?? NaN);
  for (const w of workers) {
    let arr = series.staleness.get(w);
    if (!arr) {
      // A worker first seen late gets NaN for the samples before it.
      arr = new Array<number>(n).fill(NaN);
      series.staleness.set(w, arr);
    }
    // A crashed replica serves nothing, so its staleness means nothing: leave a gap.
    arr.push(isUp(w) ? (sim.metric('staleness', w) ?? NaN) : NaN);
  }
  for (const [w, arr] of series.staleness) if (!workers.includes(w)) arr.push(NaN);
  return true;
}

/** Largest finite value, or `floor` when there is none or all are below it. */
export function finiteMax(values: Iterable<number>, floor: number): number {
  let m = floor;
  for (const v of values) if (Number.isFinite(v) && v > m) m = v;
  return m;
}

/**
 * Thins a series to at most `max` points by keeping every k-th (and the last), so a long run
 * still draws in a fraction of a millisecond. Good enough for lines at chart resolution.
 */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const k = Math.ceil(points.length / max);
  const out: T[] = [];
  for (let i = 0; i < points.length; i += k) out.push(points[i]);
  if (out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1]);
  return out;
}
