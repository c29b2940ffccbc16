import type { HistoryEvent, MessageKind, NodeId } from './types';
import { Interner } from './interner';

/**
 * Send and deliver events — two thirds of a long run's history — kept in typed columns instead of
 * one object each (issue 9: a lecture-long run must not grow by tens of MB a minute). Node ids and
 * message kinds are interned; an event is rebuilt, with its fields in the engine's order, when
 * read. Events with optional fields (dupOf, forged) are not compacted: History keeps them as
 * objects.
 */
type Send = Extract<HistoryEvent, { type: 'send' }>;
type Deliver = Extract<HistoryEvent, { type: 'deliver' }>;

class Grow {
  f64: Float64Array;
  i32: Int32Array;
  n = 0;
  constructor(
    private readonly floats: number,
    ints: number,
  ) {
    this.f64 = new Float64Array(256 * floats);
    this.i32 = new Int32Array(256 * ints);
  }

  /** Index of a new row (columns interleaved per row: one growth, one cache line per event). */
  row(): number {
    if ((this.n + 1) * this.floats > this.f64.length) {
      const f = new Float64Array(this.f64.length * 2);
      f.set(this.f64);
      this.f64 = f;
      const i = new Int32Array(this.i32.length * 2);
      i.set(this.i32);
      this.i32 = i;
    }
    return this.n++;
  }
}

const INT32_MAX = 0x7fffffff;

export class CompactMessages {
  private readonly names = new Interner();
  // send: floats t, bytes, due; ints id, from, to, kind
  private readonly sends = new Grow(3, 4);
  // deliver: floats t, sentAt; ints id, from, to, kind
  private readonly delivers = new Grow(2, 4);


  /** Stores `e` and returns its row (send rows ≥ 0, deliver rows as -1 - row), or null if it does not fit the columns. */
  add(e: HistoryEvent): number | null {
    if (e.type === 'send') {
      if (e.dupOf !== undefined || e.forged !== undefined || !Number.isInteger(e.id) || e.id < 0 || e.id > INT32_MAX) return null;
      const g = this.sends;
      const r = g.row();
      g.f64[r * 3] = e.t;
      g.f64[r * 3 + 1] = e.bytes;
      g.f64[r * 3 + 2] = e.due;
      g.i32[r * 4] = e.id;
      g.i32[r * 4 + 1] = this.names.id(e.from);
      g.i32[r * 4 + 2] = this.names.id(e.to);
      g.i32[r * 4 + 3] = this.names.id(e.kind);
      return r;
    }
    if (e.type === 'deliver') {
      if (!Number.isInteger(e.id) || e.id < 0 || e.id > INT32_MAX) return null;
      const g = this.delivers;
      const r = g.row();
      g.f64[r * 2] = e.t;
      g.f64[r * 2 + 1] = e.sentAt;
      g.i32[r * 4] = e.id;
      g.i32[r * 4 + 1] = this.names.id(e.from);
      g.i32[r * 4 + 2] = this.names.id(e.to);
      g.i32[r * 4 + 3] = this.names.id(e.kind);
      return -1 - r;
    }
    return null;
  }

  /** The event stored at `row` (as `add` returned it), rebuilt with the engine's field order. */
  get(row: number): HistoryEvent {
    if (row >= 0) {
      const { f64, i32 } = this.sends;
      const s: Send = {
        t: f64[row * 3],
        type: 'send',
        id: i32[row * 4],
        from: this.names.at(i32[row * 4 + 1]) as NodeId,
        to: this.names.at(i32[row * 4 + 2]) as NodeId,
        kind: this.names.at(i32[row * 4 + 3]) as MessageKind,
        bytes: f64[row * 3 + 1],
        due: f64[row * 3 + 2],
      };
      return s;
    }
    const r = -1 - row;
    const { f64, i32 } = this.delivers;
    const d: Deliver = {
      t: f64[r * 2],
      type: 'deliver',
      id: i32[r * 4],
      from: this.names.at(i32[r * 4 + 1]) as NodeId,
      to: this.names.at(i32[r * 4 + 2]) as NodeId,
      kind: this.names.at(i32[r * 4 + 3]) as MessageKind,
      sentAt: f64[r * 2 + 1],
    };
    return d;
  }
}
