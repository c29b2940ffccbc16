/**
 * Growable typed columns for the history index (issue 9): one number per row in a typed array
 * instead of one object per row, so a long run's index grows by bytes, not by objects.
 */
type Typed = Float64Array | Int32Array;

abstract class Column<A extends Typed> {
  protected a: A;
  length = 0;
  constructor(
    private readonly make: (n: number) => A,
    capacity: number,
  ) {
    this.a = make(capacity);
  }
  push(x: number): number {
    if (this.length === this.a.length) this.grow(this.a.length * 2);
    this.a[this.length] = x;
    return this.length++;
  }
  get(i: number): number {
    return this.a[i];
  }
  protected grow(size: number): void {
    const b = this.make(size);
    b.set(this.a.subarray(0, this.length));
    this.a = b;
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
      if (this.a[mid] <= x) {
        ans = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return ans;
  }
}

export class I32Column extends Column<Int32Array> {
  constructor(capacity = 16) {
    super((n) => new Int32Array(n), capacity);
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
      this.grow(size);
    }
    this.a.fill(fill, this.length, n);
    this.length = n;
  }
}
