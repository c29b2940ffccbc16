import type { Evaluation } from '../train/types';

/**
 * Parameter snapshots of one worker (one per engine sample), thinned as they age so that a
 * lecture-long run keeps O(log age) of them instead of one per sample (issue 9): the last
 * `recentMs` keep every sample; older ones keep one per `age / perDoubling` of simulated time,
 * so each doubling of age holds about `perDoubling` snapshots. A scrubbed screen far in the past
 * shows the nearest older snapshot. Thinning depends on simulated time only (deterministic).
 */
export interface Snapshot {
  t: number;
  params: Float32Array;
  /** The sample's evaluation of exactly these parameters (the image datasets' replica tiles draw it). */
  eval?: Evaluation;
}

export class SnapshotSeries {
  private readonly list: Snapshot[] = [];
  private sinceThin = 0;

  constructor(
    private readonly recentMs = 60_000,
    private readonly perDoubling = 16,
  ) {}

  push(s: Snapshot): void {
    const last = this.list[this.list.length - 1];
    if (last && s.t < last.t) throw new Error(`snapshots: t ${s.t} comes before ${last.t}`);
    this.list.push(s);
    // A pass every 32 pushes: its cost (the kept list, logarithmic in age) spreads thin.
    if (++this.sinceThin >= 32) this.thin(s.t);
  }

  /** The newest snapshot at or before t. */
  at(t: number): Snapshot | undefined {
    const l = this.list;
    let lo = 0;
    let hi = l.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (l[mid].t <= t) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best < 0 ? undefined : l[best];
  }

  get length(): number {
    return this.list.length;
  }

  private thin(now: number): void {
    this.sinceThin = 0;
    const l = this.list;
    const out: Snapshot[] = [];
    // Oldest first: keep a snapshot when it is far enough from the last kept one for its age;
    // the first (the run's start) and everything recent always stay.
    for (const s of l) {
      const age = now - s.t;
      const prev = out[out.length - 1];
      if (!prev || age < this.recentMs || s.t - prev.t >= age / this.perDoubling) out.push(s);
    }
    if (out.length === l.length) return;
    l.length = 0;
    for (const s of out) l.push(s);
  }
}
