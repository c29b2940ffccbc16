import type { NodeId } from '../sim/types';

/**
 * Metrics the engine derives from loss samples and step draws, kept out of simulation.ts:
 * timeToTarget / stepsToTarget (CURRICULUM §C.4: first sample where the cluster loss ≤
 * model.targetLoss), mergeLossSpike (largest cluster loss within 10 × stepMs after the last
 * 'merge' note minus the last sample before it) and the engine's fallback for delayedRounds
 * (strategies with their own notion of a counted step, ps-sync, define it themselves).
 */
export class LossTracker {
  /** Cluster loss (mean over live workers) at each sample time, ascending. */
  private readonly series: Array<{ t: number; loss: number }> = [];
  private reached: { t: number; steps: number } | null = null;
  private lastMerge: number | null = null;

  constructor(
    private readonly targetLoss: number | undefined,
    private readonly windowMs: number,
  ) {}

  /** One probe's cluster loss; returns true the first time it reaches the target. */
  onSample(t: number, steps: number, clusterLoss: number | null): boolean {
    if (clusterLoss === null) return false;
    this.series.push({ t, loss: clusterLoss });
    if (this.reached || this.targetLoss === undefined || clusterLoss > this.targetLoss) return false;
    this.reached = { t, steps };
    return true;
  }

  onMerge(t: number): void {
    this.lastMerge = t;
  }

  timeToTarget(): number | null {
    return this.reached ? this.reached.t : null;
  }

  stepsToTarget(): number | null {
    return this.reached ? this.reached.steps : null;
  }

  /** null before any merge, or while no sample before and after it exists yet. */
  mergeLossSpike(): number | null {
    return mergeLossSpike(this.series, this.lastMerge, this.windowMs);
  }
}

export function mergeLossSpike(series: ReadonlyArray<{ t: number; loss: number }>, mergeAt: number | null, windowMs: number): number | null {
  if (mergeAt === null) return null;
  let before: number | null = null;
  let after: number | null = null;
  for (const s of series) {
    if (s.t < mergeAt) before = s.loss;
    else if (s.t <= mergeAt + windowMs) after = after === null ? s.loss : Math.max(after, s.loss);
  }
  return before === null || after === null ? null : after - before;
}

/**
 * delayedRounds for lock-step strategies whose round r is computed on version r by every worker
 * (all-reduce): a round is delayed when any step computed on its version drew a transient slowdown.
 */
export class RoundDelays {
  private readonly delayed = new Set<number>();

  onStep(_node: NodeId, basedOn: number, transient: boolean): void {
    if (transient) this.delayed.add(basedOn);
  }

  /** Fraction of the `completed` rounds 0 … completed−1 that were delayed; null before the first. */
  fraction(completed: number): number | null {
    if (completed <= 0) return null;
    let d = 0;
    for (const r of this.delayed) if (r < completed) d++;
    return d / completed;
  }
}
