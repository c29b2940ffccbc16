import type { MetricSample, SimTime } from '../../sim/types';
import { F64Column, I32Column } from './columns';
import { firstAtOrAfter, lastAtOrBefore } from './series';
import { eventOf, type EventReader } from './tracks';

/**
 * A run's metric samples in time order (the history's `metrics` events), as a lesson's verdict,
 * the charts and the explanations read them: each sample's time, the sample itself, and a number
 * per sample for one metric (`column`).
 */
export interface SampleSeries extends Iterable<{ t: SimTime; value: MetricSample }> {
  readonly length: number;
  t(k: number): SimTime;
  value(k: number): MetricSample;
  /** The newest sample at or before t (its position), or -1. */
  lastAtOrBefore(t: SimTime): number;
  /** The first sample at or after t (its position; `length` if none). */
  firstAtOrAfter(t: SimTime): number;
  /**
   * One number per sample, `read` from each (NaN where it has none), under a key naming what
   * `read` reads: a scan over a run's samples (a metric's peak so far, a lesson's crossing) reads
   * this, not the samples.
   */
  column(key: string, read: (s: MetricSample) => number): ArrayLike<number>;
  /** A cluster metric per sample (NaN where it is null, missing or not finite): the index keeps these as samples come, so a scan never reads old samples back. */
  cluster(metric: string): ArrayLike<number>;
}

/** Columns by key, each extended when asked (from the samples it has not read yet) and as samples come. */
abstract class Columns {
  private readonly cols = new Map<string, { read: (s: MetricSample) => number; values: number[] }>();
  abstract readonly length: number;
  abstract value(k: number): MetricSample;

  column(key: string, read: (s: MetricSample) => number): ArrayLike<number> {
    let c = this.cols.get(key);
    if (!c) this.cols.set(key, (c = { read, values: [] }));
    for (let k = c.values.length; k < this.length; k++) c.values.push(c.read(this.value(k)));
    return c.values;
  }

  cluster(metric: string): ArrayLike<number> {
    return this.column(`cluster:${metric}`, (s) => finiteOrNaN(s.cluster[metric]));
  }

  /** Sample k came (the columns asked for so far take their number from it). */
  protected extend(k: number, s: MetricSample): void {
    for (const c of this.cols.values()) if (c.values.length === k) c.values.push(c.read(s));
  }

  abstract lastAtOrBefore(t: SimTime): number;
  abstract firstAtOrAfter(t: SimTime): number;
  abstract t(k: number): SimTime;

  *[Symbol.iterator](): Iterator<{ t: SimTime; value: MetricSample }> {
    for (let k = 0; k < this.length; k++) yield { t: this.t(k), value: this.value(k) };
  }
}

const CACHE = 16;

/**
 * The samples as the history index keeps them (issue 9: a sample — a cluster's metrics and each
 * node's — parsed as an object was ~2 KB, 241 a simulated minute in a busy raft-ps run): the time
 * and event number of each, a sample read back from the history when asked (the last few kept, so
 * the live edge reads one object frame after frame), every cluster metric as a column (~20 numbers
 * a sample: a metric's peak over a long run never reads its old samples back, which would unpack
 * the packed history), and the other columns scans ask for.
 */
export class MetricSamples extends Columns implements SampleSeries {
  private readonly ts = new F64Column();
  private readonly evs = new I32Column();
  private readonly cacheK = new Int32Array(CACHE).fill(-1);
  private readonly cacheV: Array<MetricSample | undefined> = new Array<MetricSample | undefined>(CACHE);

  constructor(private readonly read: EventReader) {
    super();
  }

  get length(): number {
    return this.ts.length;
  }

  /** Event `ev` of the history, a sample `s` taken at t. */
  push(t: SimTime, s: MetricSample, ev: number): void {
    const k = this.ts.push(t);
    this.evs.push(ev);
    this.remember(k, s);
    this.extend(k, s);
    for (const name in s.cluster) this.cluster(name);
  }

  t(k: number): SimTime {
    return this.ts.get(k);
  }

  lastAtOrBefore(t: SimTime): number {
    return this.ts.lastAtOrBefore(t);
  }

  firstAtOrAfter(t: SimTime): number {
    return this.ts.firstAtOrAfter(t);
  }

  value(k: number): MetricSample {
    const slot = k % CACHE;
    if (this.cacheK[slot] === k) return this.cacheV[slot]!;
    return this.remember(k, eventOf(this.read, this.evs.get(k), 'metrics').v);
  }

  private remember(k: number, s: MetricSample): MetricSample {
    this.cacheK[k % CACHE] = k;
    this.cacheV[k % CACHE] = s;
    return s;
  }
}

/** Samples held as a list (a CLI run's, a test's). */
export class SampleList extends Columns implements SampleSeries {
  constructor(private readonly list: ReadonlyArray<{ t: SimTime; value: MetricSample }>) {
    super();
  }

  get length(): number {
    return this.list.length;
  }

  t(k: number): SimTime {
    return this.list[k].t;
  }

  value(k: number): MetricSample {
    return this.list[k].value;
  }

  lastAtOrBefore(t: SimTime): number {
    return lastAtOrBefore(this.list, t, (x) => x.t);
  }

  firstAtOrAfter(t: SimTime): number {
    return firstAtOrAfter(this.list, t, (x) => x.t);
  }
}

/** The newest sample at or before t, with its time (undefined before the first). */
export function sampleAt(series: SampleSeries, t: SimTime): { t: SimTime; value: MetricSample } | undefined {
  const k = series.lastAtOrBefore(t);
  return k < 0 ? undefined : { t: series.t(k), value: series.value(k) };
}

/** A sample's number as a column holds it: NaN where it is null, missing or not finite. */
export function finiteOrNaN(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}
