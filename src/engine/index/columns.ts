/**
 * Growable typed columns for the history index (issue 9): one number per row in a typed array
 * instead of one object per row, so a long run's index grows by bytes, not by objects.
 */
import { Rows } from '../../sim/rows';

type Typed = Float64Array | Int32Array;

abstract class Column<A extends Typed> {
  // Chunked (sim/rows.ts): growing never copies the column.
  protected readonly a: Rows<A>;
  constructor(make: (n: number) => A, capacity: number) {
    this.a = new Rows(make, 1, capacity);
  }
  get length(): number {
    return this.a.length;
  }
  push(x: number): number {
    const r = this.a.add();
    this.a.set(r, 0, x);
    return r;
  }
  get(i: number): number {
    return this.a.get(i);
  }
}

export class F64Column extends Column<Float64Array> {
  constructor(capacity = 16) {
    super((n) => new Float64Array(n), capacity);
  }
  /** Largest row whose value is ≤ x (the column ascending), or -1. */
  lastAtOrBefore(x: number): number {
    let lo = 0;
    let hi = this.length - 1;
    let ans = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.a.get(mid) <= x) {
        ans = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return ans;
  }
  /** Smallest row whose value is ≥ x (the column ascending), or `length`. */
  firstAtOrAfter(x: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.a.get(mid) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export class I32Column extends Column<Int32Array> {
  constructor(capacity = 16) {
    super((n) => new Int32Array(n), capacity);
  }
  set(i: number, x: number): void {
    this.a.set(i, 0, x);
  }
  /** Grows to at least `n` rows, new rows holding `fill`. */
  ensure(n: number, fill: number): void {
    while (this.length < n) this.push(fill);
  }
}
