import type { NodeId, SimTime } from '../../sim/types';
import { Interner } from '../../sim/interner';
import type { PackedRows } from '../../sim/packedRows';
import { packerNow } from '../../sim/packer';
import { CHUNK_ROWS, CHUNK_SHIFT, Rows } from '../../sim/rows';

/** One message's flight, as the views read it. */
export interface MessageSpan {
  id: number;
  from: NodeId;
  to: NodeId;
  kind: string;
  bytes: number;
  sentAt: SimTime;
  due: SimTime;
  /** Delivery or drop time; null while on the wire. */
  end: SimTime | null;
  dropped: boolean;
}

const F = 4; // floats per row: bytes, sentAt, due, end (NaN while on the wire)
const I = 5; // ints per row: id, from, to, kind, dropped
/** Packed, due is kept as due - sentAt (the latency) and end as end - due (zero unless held or dropped). */
const LATENCIES = [
  [2, 1],
  [3, 2],
] as const;

/**
 * Every message of the run, ordered by send time, in typed columns (issue 9: one object per
 * message was a large share of a long run's heap). Node ids and kinds are interned. `get` returns
 * a snapshot object; the views hold row indices for messages still on the wire.
 *
 * Chunked (sim/rows.ts: growing never copies the run's messages). Once there are three chunks,
 * those before the last two are packed (sim/packedRows.ts, where a packer is set: the app): the
 * views read the messages near the time they show, so an old chunk is unpacked where a past time is
 * shown. The send time of each chunk's first row is kept aside, so that finding a time unpacks only
 * the chunk it falls in.
 */
export class MessageSpans {
  private f: Rows<Float64Array> = new Rows((n) => new Float64Array(n), F, 1024);
  private i: Rows<Int32Array> = new Rows((n) => new Int32Array(n), I, 1024);
  /** The same rows, once they pack. */
  private packing: { f: PackedRows<Float64Array>; i: PackedRows<Int32Array> } | null = null;
  private n = 0;
  /** The send time of each chunk's first row. */
  private readonly chunkSent: number[] = [];
  private readonly names = new Interner();

  get length(): number {
    return this.n;
  }


  /** Appends a message (sent after every one before it); returns its row. */
  push(id: number, from: NodeId, to: NodeId, kind: string, bytes: number, sentAt: SimTime, due: SimTime): number {
    const r = this.n++;
    this.f.add();
    this.i.add();
    if ((r & (CHUNK_ROWS - 1)) === 0) {
      this.chunkSent.push(sentAt);
      // A message stays on the wire for a while: its chunk and the one before stay unpacked.
      if (r >= 2 * CHUNK_ROWS) this.pack((r >>> CHUNK_SHIFT) - 1);
    }
    const f = this.f.chunk(r);
    const fo = this.f.off(r);
    const i = this.i.chunk(r);
    const io = this.i.off(r);
    f[fo] = bytes;
    f[fo + 1] = sentAt;
    f[fo + 2] = due;
    f[fo + 3] = NaN;
    i[io] = id;
    i[io + 1] = this.names.id(from);
    i[io + 2] = this.names.id(to);
    i[io + 3] = this.names.id(kind);
    i[io + 4] = 0;
    return r;
  }

  /** The message at `row` was delivered (or dropped) at `end`. */
  settle(row: number, end: SimTime, dropped: boolean): void {
    this.f.set(row, 3, end);
    this.i.set(row, 4, dropped ? 1 : 0);
  }

  id(row: number): number {
    return this.i.get(row, 0);
  }

  sentAt(row: number): SimTime {
    return this.f.get(row, 1);
  }

  /** Delivery or drop time, or null while on the wire. */
  end(row: number): SimTime | null {
    const e = this.f.get(row, 3);
    return Number.isNaN(e) ? null : e;
  }

  kind(row: number): string {
    return this.names.at(this.i.get(row, 3));
  }

  get(row: number): MessageSpan {
    if (row < 0 || row >= this.n) throw new RangeError(`messages: no row ${row} (there are ${this.n})`);
    const f = this.f.chunk(row);
    const fo = this.f.off(row);
    const i = this.i.chunk(row);
    const io = this.i.off(row);
    return {
      id: i[io],
      from: this.names.at(i[io + 1]),
      to: this.names.at(i[io + 2]),
      kind: this.names.at(i[io + 3]),
      bytes: f[fo],
      sentAt: f[fo + 1],
      due: f[fo + 2],
      end: this.end(row),
      dropped: i[io + 4] === 1,
    };
  }

  /** Smallest row sent at or after t (or length). */
  firstSentAtOrAfter(t: SimTime): number {
    return this.countSent((x) => x < t);
  }

  /** Largest row sent at or before t, or -1. */
  lastSentAtOrBefore(t: SimTime): number {
    return this.countSent((x) => x <= t) - 1;
  }

  /** How many rows' send times pass `before` (true for a prefix of the rows): the chunk, then the row. */
  private countSent(before: (sentAt: SimTime) => boolean): number {
    let lo = 0;
    let hi = this.chunkSent.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.chunkSent[mid])) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 0; // not even the first row
    lo = (lo - 1) << CHUNK_SHIFT;
    hi = Math.min(this.n, lo + CHUNK_ROWS);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.sentAt(mid))) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Packs the chunks before `end` (where the packer is here and not held: until then they wait). */
  private pack(end: number): void {
    const p = packerNow();
    if (!p) return;
    if (!this.packing) {
      const codec = { pack: p.pack.bytes, unpack: p.codec.unpack };
      this.packing = { f: p.codec.PackedRows.from(this.f, (n) => new Float64Array(n), codec, LATENCIES), i: p.codec.PackedRows.from(this.i, (n) => new Int32Array(n), codec) };
      this.f = this.packing.f;
      this.i = this.packing.i;
    }
    this.packing.f.packBefore(end);
    this.packing.i.packBefore(end);
  }

  /** Bytes its columns hold (packed or not). */
  get byteLength(): number {
    return this.f.byteLength + this.i.byteLength;
  }
}
