import type { NodeId, SimTime } from '../../sim/types';
import { Interner } from '../../sim/interner';

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

/**
 * Every message of the run, ordered by send time, in typed columns (issue 9: one object per
 * message was a large share of a long run's heap). Node ids and kinds are interned. `get` returns
 * a snapshot object; the views hold row indices for messages still on the wire.
 */
export class MessageSpans {
  private f = new Float64Array(1024 * F);
  private i = new Int32Array(1024 * I);
  private n = 0;
  private readonly names = new Interner();

  get length(): number {
    return this.n;
  }


  /** Appends a message (sent after every one before it); returns its row. */
  push(id: number, from: NodeId, to: NodeId, kind: string, bytes: number, sentAt: SimTime, due: SimTime): number {
    if (this.n * F === this.f.length) {
      const f = new Float64Array(this.f.length * 2);
      f.set(this.f);
      this.f = f;
      const i = new Int32Array(this.i.length * 2);
      i.set(this.i);
      this.i = i;
    }
    const r = this.n++;
    const f = this.f;
    const i = this.i;
    f[r * F] = bytes;
    f[r * F + 1] = sentAt;
    f[r * F + 2] = due;
    f[r * F + 3] = NaN;
    i[r * I] = id;
    i[r * I + 1] = this.names.id(from);
    i[r * I + 2] = this.names.id(to);
    i[r * I + 3] = this.names.id(kind);
    i[r * I + 4] = 0;
    return r;
  }

  /** The message at `row` was delivered (or dropped) at `end`. */
  settle(row: number, end: SimTime, dropped: boolean): void {
    this.f[row * F + 3] = end;
    this.i[row * I + 4] = dropped ? 1 : 0;
  }

  id(row: number): number {
    return this.i[row * I];
  }

  sentAt(row: number): SimTime {
    return this.f[row * F + 1];
  }

  /** Delivery or drop time, or null while on the wire. */
  end(row: number): SimTime | null {
    const e = this.f[row * F + 3];
    return Number.isNaN(e) ? null : e;
  }

  kind(row: number): string {
    return this.names.at(this.i[row * I + 3]);
  }

  get(row: number): MessageSpan {
    if (row < 0 || row >= this.n) throw new RangeError(`messages: no row ${row} (there are ${this.n})`);
    const f = this.f;
    const i = this.i;
    return {
      id: i[row * I],
      from: this.names.at(i[row * I + 1]),
      to: this.names.at(i[row * I + 2]),
      kind: this.names.at(i[row * I + 3]),
      bytes: f[row * F],
      sentAt: f[row * F + 1],
      due: f[row * F + 2],
      end: this.end(row),
      dropped: i[row * I + 4] === 1,
    };
  }

  /** Smallest row sent at or after t (or length). */
  firstSentAtOrAfter(t: SimTime): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sentAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Largest row sent at or before t, or -1. */
  lastSentAtOrBefore(t: SimTime): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sentAt(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}
