import { bytesOf, packerNow } from './packer';
import { CHUNK_SHIFT, Rows, type TypedArray } from './rows';

/**
 * Rows whose full chunks can be packed (deflated) once they have aged (issue 9: a long run's
 * memory; sim/packer.ts). A packed chunk is unpacked when a row of it is read or written; the last
 * `keep` chunks unpacked for reading stay so and the oldest of them is let go of (its packed bytes
 * are still there); one written to is no longer packed until `packBefore` packs it again.
 * A reader holding a chunk from `chunk()` may go on reading it: letting go of a chunk never
 * changes its array.
 */
export class PackedRows<A extends TypedArray> extends Rows<A> {
  private readonly packed: Array<Uint8Array | undefined> = [];
  /** Chunks unpacked for reading whose packed bytes are kept, oldest first. */
  private readonly thawed: number[] = [];
  private readonly none: A;

  constructor(
    make: (length: number) => A,
    width: number,
    initialRows?: number,
    private readonly keep = 3,
  ) {
    super(make, width, initialRows);
    this.none = make(0);
  }

  /** Packs the full chunks before chunk `end` that are not packed (none until the packer has loaded). */
  packBefore(end: number): void {
    const packer = packerNow();
    if (!packer) return;
    const last = Math.min(end, this.chunks.length - 1); // the last chunk may still grow
    for (let c = 0; c < last; c++) {
      const a = this.chunks[c];
      if (a.length === 0) continue; // packed, or let go of
      this.packed[c] ??= packer.pack(bytesOf(a));
      this.chunks[c] = this.none;
      const t = this.thawed.indexOf(c);
      if (t >= 0) this.thawed.splice(t, 1);
    }
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
    if (this.packed[c] !== undefined) {
      // Written to: its packed bytes are stale, and it stays unpacked until packed again.
      this.packed[c] = undefined;
      this.thawed.splice(this.thawed.indexOf(c), 1);
    }
    a[this.off(row) + col] = x;
  }

  /** Bytes held: the unpacked chunks' and the packed ones'. */
  get byteLength(): number {
    let n = 0;
    for (const a of this.chunks) n += a.byteLength;
    for (const p of this.packed) n += p?.byteLength ?? 0;
    return n;
  }

  private unpack(c: number): A {
    const a = this.make((1 << CHUNK_SHIFT) * this.width);
    packerNow()!.unpack(this.packed[c]!, bytesOf(a)); // a chunk is packed only once the packer is here
    this.chunks[c] = a;
    this.thawed.push(c);
    if (this.thawed.length > this.keep) this.chunks[this.thawed.shift()!] = this.none;
    return a;
  }
}
