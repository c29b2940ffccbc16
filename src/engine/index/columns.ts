/**
 * Growable typed columns for the history index (issue 9): one number per row in a typed array
 * instead of one object per row, so a long run's index grows by bytes, not by objects.
 *
 * Where a packer is here (the app, sim/packer.ts), a column's full chunks are packed as the next
 * one starts: a busy Raft run's index — the times and event numbers of every fact, log change and
 * note — grew by ~1 MB a simulated minute unpacked. A packed chunk is unpacked when a row of it is
 * read (the last one read stays so): the live edge reads the newest chunk, and a time column keeps
 * each chunk's first value aside so that finding a time unpacks only the chunk it falls in.
 */
import { packerNow } from '../../sim/packer';
import type { PackedRows } from '../../sim/packedRows';
import { CHUNK_ROWS, CHUNK_SHIFT, Rows } from '../../sim/rows';

type Typed = Float64Array | Int32Array;

abstract class Column<A extends Typed> {
  // Chunked (sim/rows.ts): growing never copies the column.
  protected a: Rows<A>;
  private packs = false;
  constructor(
    private readonly make: (n: number) => A,
    capacity: number,
  ) {
    this.a = new Rows(make, 1, capacity);
  }
  get length(): number {
    return this.a.length;
  }
  push(x: number): number {
    const r = this.a.add();
    this.a.set(r, 0, x);
    if ((r & (CHUNK_ROWS - 1)) === 0) this.chunkStarts(r, x);
    return r;
  }
  get(i: number): number {
    return this.a.get(i);
  }
  /** Bytes held (packed chunks as packed). */
  get byteLength(): number {
    return this.a.byteLength;
  }
  /** Row r, the first of a chunk, holds x: the chunks before it are full. */
  protected chunkStarts(r: number, _x: number): void {
    if (r === 0) return;
    const p = packerNow();
    if (!p) return;
    if (!this.packs) {
      this.a = p.codec.PackedRows.from(this.a, this.make, { pack: p.pack.bytes, unpack: p.codec.unpack }, [], 1);
      this.packs = true;
    }
    (this.a as PackedRows<A>).packBefore(r >>> CHUNK_SHIFT);
  }
}

export class F64Column extends Column<Float64Array> {
  /** Each chunk's first value (a time column's searches pick the chunk from these). */
  private readonly firsts: number[] = [];
  constructor(capacity = 16) {
    super((n) => new Float64Array(n), capacity);
  }
  protected override chunkStarts(r: number, x: number): void {
    this.firsts.push(x);
    super.chunkStarts(r, x);
  }
  /** Largest row whose value is ≤ x (the column ascending), or -1. */
  lastAtOrBefore(x: number): number {
    const c = this.lastChunk((f) => f <= x);
    if (c < 0) return -1;
    // Chunks after c start above x: the row is in chunk c, at or after its first.
    let lo = c << CHUNK_SHIFT;
    let hi = Math.min(this.length, lo + CHUNK_ROWS) - 1;
    let ans = lo;
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
    const c = this.lastChunk((f) => f < x);
    if (c < 0) return 0;
    // Chunks before c end below x: the row is in chunk c after its first, or starts the next.
    let lo = (c << CHUNK_SHIFT) + 1;
    let hi = Math.min(this.length, (c << CHUNK_SHIFT) + CHUNK_ROWS);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.a.get(mid) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  /** The last chunk whose first value passes `ok` (which holds for a prefix of the chunks), or -1. */
  private lastChunk(ok: (first: number) => boolean): number {
    let lo = 0;
    let hi = this.firsts.length - 1;
    let c = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ok(this.firsts[mid])) {
        c = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return c;
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
