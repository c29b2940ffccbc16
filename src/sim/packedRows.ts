import type { Unpack } from './packedBatch';
import { chunkColumns, chunkColumnsSize, chunkRows, type Relative } from './columnLayout';
import { CHUNK_SHIFT, Rows, type TypedArray } from './rows';

/** How chunks are packed (deflated; where a worker does it, later) and read back. */
export interface ChunkCodec {
  pack(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  unpack: Unpack;
}

/**
 * Rows whose full chunks can be packed (deflated) once they have aged (issue 9: a long run's
 * memory; sim/packer.ts), laid out column by column as differences first (columnLayout.ts: a
 * chunk of message spans packs to about half of what its rows deflate to). A packed chunk is unpacked when a row of it is read or written; the last
 * `keep` chunks unpacked for reading stay so and the oldest of them is let go of (its packed bytes
 * are still there); one written to is no longer packed until `packBefore` packs it again.
 * A reader holding a chunk from `chunk()` may go on reading it: letting go of a chunk never
 * changes its array. Where a worker packs, a chunk's bytes swap in when they come back, unless it
 * was written to meanwhile.
 */
export class PackedRows<A extends TypedArray> extends Rows<A> {
  private readonly packed: Array<Uint8Array | undefined> = [];
  /** Per packed float chunk: how each column is kept (chunkColumns). */
  private readonly floats: Array<Uint8Array | null> = [];
  /** Chunks unpacked for reading whose packed bytes are kept, oldest first. */
  private readonly thawed: number[] = [];
  /** Writes per chunk (a packing that comes back after a write is stale). */
  private readonly writes: number[] = [];
  /** Chunks being packed (by a worker). */
  private readonly packing = new Set<number>();
  private readonly none: A;

  constructor(
    make: (length: number) => A,
    width: number,
    private readonly codec: ChunkCodec,
    /** Float columns packed against another of the same row (columnLayout.ts). */
    private readonly relative: Relative = [],
    /** Chunks kept unpacked for reading. */
    private readonly keep = 3,
  ) {
    super(make, width);
    this.none = make(0);
  }

  /** Rows that pack, holding `rows`' rows (which is not used again). */
  static from<A extends TypedArray>(rows: Rows<A>, make: (length: number) => A, codec: ChunkCodec, relative: Relative = [], keep = 3): PackedRows<A> {
    const to = new PackedRows(make, rows.width, codec, relative, keep);
    const from = rows as PackedRows<A>; // its fields, as a Rows
    to.chunks.length = 0;
    to.chunks.push(...from.chunks);
    to.n = from.n;
    to.dropped = from.dropped;
    return to;
  }

  /** Packs the full chunks before chunk `end` that are not packed. */
  packBefore(end: number): void {
    const last = Math.min(end, this.chunks.length - 1); // the last chunk may still grow
    for (let c = 0; c < last; c++) {
      const a = this.chunks[c];
      if (a.length === 0 || this.packing.has(c)) continue; // packed, let go of, or being packed
      if (this.packed[c] !== undefined) {
        this.letGo(c); // unpacked to be read, unchanged: its bytes are still there
        continue;
      }
      const written = this.writes[c] ?? 0;
      const laid = chunkColumns(a, this.width, this.relative);
      const swap = (bytes: Uint8Array): void => {
        this.packing.delete(c);
        if ((this.writes[c] ?? 0) !== written) return; // stale: packed again next time
        this.packed[c] = bytes;
        this.floats[c] = laid.floats;
        this.letGo(c);
      };
      this.packing.add(c);
      const r = this.codec.pack(laid.bytes);
      if (r instanceof Promise) r.then(swap, () => this.packing.delete(c));
      else swap(r);
    }
  }

  private letGo(c: number): void {
    this.chunks[c] = this.none;
    const t = this.thawed.indexOf(c);
    if (t >= 0) this.thawed.splice(t, 1);
  }

  override chunk(row: number): A {
    const c = row >>> CHUNK_SHIFT;
    const a = this.chunks[c];
    return a.length !== 0 || this.packed[c] === undefined ? a : this.unpack(c);
  }

  override get(row: number, col = 0): number {
    return this.chunk(row)[this.off(row) + col];
  }

  override set(row: number, col: number, x: number): void {
    const c = row >>> CHUNK_SHIFT;
    const a = this.chunk(row);
    this.writes[c] = (this.writes[c] ?? 0) + 1;
    if (this.packed[c] !== undefined) {
      // Written to: its packed bytes are stale, and it stays unpacked until packed again.
      this.packed[c] = undefined;
      this.thawed.splice(this.thawed.indexOf(c), 1);
    }
    a[this.off(row) + col] = x;
  }

  /** Bytes held: the unpacked chunks' and the packed ones'. */
  override get byteLength(): number {
    let n = super.byteLength;
    for (const p of this.packed) n += p?.byteLength ?? 0;
    return n;
  }

  private unpack(c: number): A {
    const a = this.make((1 << CHUNK_SHIFT) * this.width);
    const floats = this.floats[c] ?? null;
    chunkRows(this.codec.unpack(this.packed[c]!, new Uint8Array(chunkColumnsSize(a, 1 << CHUNK_SHIFT, this.width, floats))), floats, a, this.width, this.relative);
    this.chunks[c] = a;
    this.thawed.push(c);
    if (this.thawed.length > this.keep) this.chunks[this.thawed.shift()!] = this.none;
    return a;
  }
}
