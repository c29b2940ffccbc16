import type { SimTime } from '../../sim/types';
import { F64Column } from './columns';

/** Loss/accuracy of one worker at one engine sample (the loss charts' points). */
export interface Sample {
  t: SimTime;
  steps: number;
  version: number;
  loss: number;
  accuracy: number;
}

/**
 * One worker's loss samples in time order, as typed columns (issue 9: an object per worker per
 * sample was ~0.1 MB of a busy 8-worker run's heap a simulated minute). `at` builds the sample;
 * the charts read the time and loss columns directly.
 */
export class LossSamples {
  private readonly ts = new F64Column();
  private readonly stepsCol = new F64Column();
  private readonly versions = new F64Column();
  private readonly losses = new F64Column();
  private readonly accuracies = new F64Column();

  get length(): number {
    return this.ts.length;
  }

  push(s: Sample): void {
    this.ts.push(s.t);
    this.stepsCol.push(s.steps);
    this.versions.push(s.version);
    this.losses.push(s.loss);
    this.accuracies.push(s.accuracy);
  }

  t(k: number): SimTime {
    return this.ts.get(k);
  }

  loss(k: number): number {
    return this.losses.get(k);
  }

  /** Sample k, as a fresh object (undefined out of range, as an array's `at`). */
  at(k: number): Sample | undefined {
    if (!(k >= 0 && k < this.length)) return undefined;
    return { t: this.ts.get(k), steps: this.stepsCol.get(k), version: this.versions.get(k), loss: this.losses.get(k), accuracy: this.accuracies.get(k) };
  }

  /** The newest sample at or before t (its position), or -1. */
  lastAtOrBefore(t: SimTime): number {
    return this.ts.lastAtOrBefore(t);
  }

  /** The first sample at or after t (its position; `length` if none). */
  firstAtOrAfter(t: SimTime): number {
    return this.ts.firstAtOrAfter(t);
  }
}
