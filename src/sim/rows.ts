/**
 * Growable typed storage in fixed-size chunks: rows of `width` numbers, 2^CHUNK_SHIFT rows per
 * chunk. Growing adds a chunk and never copies what is stored. A single typed array grown by
 * doubling copied everything on each growth: late in a long run (millions of messages, tens of MB
 * per column) one such copy was a pause of ~100 ms that grew with the run (issue 9: per-frame cost
 * independent of the run's length). The first chunk starts small and doubles up to full size, so
 * a short or sparse column stays small.
 */

export type TypedArray = Float64Array | Int32Array | Uint8Array;

export const CHUNK_SHIFT = 14;
/** Rows per chunk. */
export const CHUNK_ROWS = 1 << CHUNK_SHIFT;
const MASK = CHUNK_ROWS - 1;

/** A typed array's bytes (a view, not a copy). */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export class Rows<A extends TypedArray> {
  protected readonly chunks: A[];
  protected n = 0;
  /** Chunks let go of (dropBefore). */
  protected dropped = 0;

  constructor(
    protected readonly make: (length: number) => A,
    /** Numbers per row. */
    readonly width: number,
    initialRows = 16,
  ) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`Rows: width must be a positive integer, got ${width}`);
    this.chunks = [make(Math.min(CHUNK_ROWS, Math.max(1, initialRows)) * width)];
  }

  get length(): number {
    return this.n;
  }

  /** Bytes its chunks hold. */
  get byteLength(): number {
    let n = 0;
    for (const a of this.chunks) n += a.byteLength;
    return n;
  }

  /** Appends a row (zero-filled) and returns its index. */
  add(): number {
    const r = this.n;
    const c = r >>> CHUNK_SHIFT;
    if (c === this.chunks.length) this.chunks.push(this.make(CHUNK_ROWS * this.width));
    else if (c === 0 && r * this.width === this.chunks[0].length) {
      // The first chunk grows by doubling up to full size (a copy of at most one chunk).
      const b = this.make(Math.min(CHUNK_ROWS, 2 * r) * this.width);
      b.set(this.chunks[0]);
      this.chunks[0] = b;
    }
    this.n++;
    return r;
  }

  /** The chunk holding `row`: read its numbers at off(row) + column. */
  chunk(row: number): A {
    return this.chunks[row >>> CHUNK_SHIFT];
  }

  /** Where `row` starts in its chunk. */
  off(row: number): number {
    return (row & MASK) * this.width;
  }

  get(row: number, col = 0): number {
    return this.chunks[row >>> CHUNK_SHIFT][(row & MASK) * this.width + col];
  }

  /** Rows [from, to) as one flat array (a copy: it may be sent to another thread). */
  copy(from: number, to: number): A {
    const w = this.width;
    const out = this.make((to - from) * w);
    for (let r = from; r < to; ) {
      const c = this.chunk(r);
      const end = Math.min(to, ((r >>> CHUNK_SHIFT) + 1) << CHUNK_SHIFT);
      out.set(c.subarray((r & MASK) * w, (r & MASK) * w + (end - r) * w), (r - from) * w);
      r = end;
    }
    return out;
  }

  /**
   * Lets go of the chunks wholly before `row` (their rows read as undefined or 0 from then on: the
   * caller no longer reads them). The chunk holding `row` stays.
   */
  dropBefore(row: number): void {
    const end = Math.min(row >>> CHUNK_SHIFT, this.chunks.length - 1);
    for (let c = this.dropped; c < end; c++) this.chunks[c] = this.make(0);
    this.dropped = Math.max(this.dropped, end);
  }

  set(row: number, col: number, x: number): void {
    this.chunks[row >>> CHUNK_SHIFT][(row & MASK) * this.width + col] = x;
  }
}
