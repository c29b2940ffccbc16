/**
 * Growable typed columns for the history index (issue 9): one number per row in a typed array
 * instead of one object per row, so a long run's index grows by bytes, not by objects.
 */
export class F64Column {
  private a: Float64Array;
  length = 0;
  constructor(capacity = 16) {
    this.a = new Float64Array(capacity);
  }
  push(x: number): number {
    if (this.length === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length] = x;
    return this.length++;
  }
  get(i: number): number {
    return this.a[i];
  }
  /** Largest row whose value is ≤ x (the column ascending), or -1. */
  lastAtOrBefore(x: number): number {
    let lo = 0;
    let hi = this.length - 1;
    let ans = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.a[mid] <= x) {
        ans = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return ans;
  }
}

export class I32Column {
  private a: Int32Array;
  length = 0;
  constructor(capacity = 16) {
    this.a = new Int32Array(capacity);
  }
  push(x: number): number {
    if (this.length === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length] = x;
    return this.length++;
  }
  get(i: number): number {
    return this.a[i];
  }
  set(i: number, x: number): void {
    this.a[i] = x;
  }
  /** Grows to at least `n` rows, new rows holding `fill`. */
  ensure(n: number, fill: number): void {
    if (n <= this.length) return;
    if (n > this.a.length) {
      let size = this.a.length * 2;
      while (size < n) size *= 2;
      const b = new Int32Array(size);
      b.set(this.a.subarray(0, this.length));
      this.a = b;
    }
    this.a.fill(fill, this.length, n);
    this.length = n;
  }
}
