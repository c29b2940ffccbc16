import type { RunIndex, Sample } from '../../engine/index/runIndex';
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
    const t = ix.metrics.t(s.read);
    const value = ix.metrics.value(s.read);
    s.t.push(t);
    s.divergence.push(value.cluster.divergence ?? NaN);
    for (const [w, arr] of s.staleness) arr.push(downAt(ix, w, t) ? NaN : (value.nodes[w]?.staleness ?? NaN));
  }
  return s;
}

/** A list read by position (an array, or the index's columns: engine/index/lossSamples.ts). */
export interface Indexed<T> {
  readonly length: number;
  at(k: number): T | undefined;
}

const none: Indexed<Sample> = [];

/**
 * A growing list thinned as it grows, for a chart that plots a whole run: it keeps the items whose
 * index is a multiple of a power-of-two stride and doubles the stride (every other kept item goes)
 * when more than `max` would be kept. Each update reads only the items added since the last, so a
 * redraw late in a long run costs what it cost early — thinning the whole prefix again on every
 * redraw (thin) made a chart's cost, and its garbage, grow with the run.
 */
export class Strided<T> {
  private kept: T[] = [];
  /** Each kept item's position in the list. */
  private keptAt: number[] = [];
  private stride = 1;
  private read = 0;
  /** Largest finite `value` of the kept items (the y domain of the thinned line). */
  private maxKept = 0;

  constructor(
    private readonly max: number,
    private readonly value: (x: T) => number = () => 0,
  ) {
    if (!(max >= 2)) throw new RangeError(`Strided: max must be at least 2, got ${max}`);
  }

  /** Takes in items[read, n): the list only grows (the index's arrays are append-only). */
  update(items: Indexed<T>, n = items.length): this {
    if (n < this.read) throw new RangeError(`Strided: the list shrank from ${this.read} to ${n}`);
    for (; this.read < n; this.read++) {
      if (this.read % this.stride !== 0) continue;
      const item = items.at(this.read)!;
      this.kept.push(item);
      this.keptAt.push(this.read);
      if (this.kept.length > this.max) {
        this.kept = this.kept.filter((_, j) => j % 2 === 0);
        this.keptAt = this.keptAt.filter((_, j) => j % 2 === 0);
        this.stride *= 2;
        this.maxKept = finiteMax(this.kept.map(this.value), 0);
      } else {
        const v = this.value(item);
        if (Number.isFinite(v) && v > this.maxKept) this.maxKept = v;
      }
    }
    return this;
  }

  /** The kept items, and the newest one read when it was not kept: at most max + 1. */
  points(items: Indexed<T>): T[] {
    if (this.read === 0) return [];
    return this.keptAt[this.keptAt.length - 1] === this.read - 1 ? this.kept.slice() : [...this.kept, items.at(this.read - 1)!];
  }

  /** Largest finite value over points() (0 when none is). */
  maxValue(items: Indexed<T>): number {
    if (this.read === 0) return 0;
    return finiteMax([this.value(items.at(this.read - 1)!)], this.maxKept);
  }
}

const lossCache = new WeakMap<RunIndex, Map<NodeId, Strided<Sample>>>();

/**
 * A worker's loss samples over the whole run so far, thinned to about `max` points (the loss-vs-steps
 * chart), kept up to date incrementally: the newest sample is always among them.
 */
export function lossPoints(ix: RunIndex, worker: NodeId, max: number): { points: Sample[]; maxLoss: number } {
  let byWorker = lossCache.get(ix);
  if (!byWorker) lossCache.set(ix, (byWorker = new Map()));
  let st = byWorker.get(worker);
  if (!st) byWorker.set(worker, (st = new Strided<Sample>(max, (s) => s.loss)));
  const all = ix.samples.get(worker) ?? none;
  st.update(all);
  return { points: st.points(all), maxLoss: st.maxValue(all) };
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
