import type { RunIndex } from '../../engine/index/runIndex';
import { lastAtOrBefore } from '../../engine/index/series';
import type { NodeId } from '../../sim/types';

/**
 * The charts' metric series, read from the engine's samples in the history (taken on the
 * simulated clock: a fixed period, every expectation time, the end) — never computed by the
 * screen, so they do not depend on frame rate and `npm run sim -- --samples` writes the same
 * points. Extracted incrementally: each frame reads only the samples added since the last one.
 */
export interface MetricSeries {
  t: number[];
  /** Cluster divergence: the largest distance between two *forked* replicas (lagging ones count as staleness). */
  divergence: number[];
  /** Per worker; NaN while the worker is down (a crashed replica serves nothing). */
  staleness: Map<NodeId, number[]>;
  /** How many of the index's samples have been read. */
  read: number;
}

const cache = new WeakMap<RunIndex, MetricSeries>();

function downAt(ix: RunIndex, node: NodeId, t: number): boolean {
  const d = ix.downs.get(node);
  if (!d) return false;
  const i = lastAtOrBefore(d, t, (p) => p.start);
  return i >= 0 && (d[i].end === null || d[i].end! > t);
}

export function metricSeries(ix: RunIndex, workers: readonly NodeId[]): MetricSeries {
  let s = cache.get(ix);
  if (!s) {
    s = { t: [], divergence: [], staleness: new Map(workers.map((w) => [w, []])), read: 0 };
    cache.set(ix, s);
  }
  for (; s.read < ix.metrics.length; s.read++) {
    const { t, value } = ix.metrics[s.read];
    s.t.push(t);
    s.divergence.push(value.cluster.divergence ?? NaN);
    for (const [w, arr] of s.staleness) arr.push(downAt(ix, w, t) ? NaN : (value.nodes[w]?.staleness ?? NaN));
  }
  return s;
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
