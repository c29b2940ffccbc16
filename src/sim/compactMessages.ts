import type { HistoryEvent, MessageKind, NodeId } from './types';
import { Interner } from './interner';
import { Rows } from './rows';

/**
 * Send and deliver events — two thirds of a long run's history — kept in typed columns instead of
 * one object each (issue 9: a lecture-long run must not grow by tens of MB a minute). Node ids and
 * message kinds are interned; an event is rebuilt, with its fields in the engine's order, when
 * read. Events with optional fields (dupOf, forged) are not compacted: History keeps them as
 * objects.
 */
type Send = Extract<HistoryEvent, { type: 'send' }>;
type Deliver = Extract<HistoryEvent, { type: 'deliver' }>;

/** Rows of floats and of ints, added together (chunked: growing never copies, sim/rows.ts). */
class Grow {
  readonly f64: Rows<Float64Array>;
  readonly i32: Rows<Int32Array>;
  constructor(floats: number, ints: number) {
    this.f64 = new Rows((n) => new Float64Array(n), floats, 256);
    this.i32 = new Rows((n) => new Int32Array(n), ints, 256);
  }

  row(): number {
    this.i32.add();
    return this.f64.add();
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
      const f = g.f64.chunk(r);
      const fo = g.f64.off(r);
      f[fo] = e.t;
      f[fo + 1] = e.bytes;
      f[fo + 2] = e.due;
      this.putRoute(g, r, e);
      return r;
    }
    if (e.type === 'deliver') {
      if (!Number.isInteger(e.id) || e.id < 0 || e.id > INT32_MAX) return null;
      const g = this.delivers;
      const r = g.row();
      const f = g.f64.chunk(r);
      const fo = g.f64.off(r);
      f[fo] = e.t;
      f[fo + 1] = e.sentAt;
      this.putRoute(g, r, e);
      return -1 - r;
    }
    return null;
  }

  /** A send's or delivery's integer columns: message id, then from, to and kind as interned names. */
  private putRoute(g: Grow, r: number, e: { id: number; from: string; to: string; kind: string }): void {
    const i = g.i32.chunk(r);
    const io = g.i32.off(r);
    i[io] = e.id;
    i[io + 1] = this.names.id(e.from);
    i[io + 2] = this.names.id(e.to);
    i[io + 3] = this.names.id(e.kind);
  }

  /** The event stored at `row` (as `add` returned it), rebuilt with the engine's field order. */
  get(row: number): HistoryEvent {
    if (row >= 0) {
      const f = this.sends.f64.chunk(row);
      const fo = this.sends.f64.off(row);
      const i = this.sends.i32.chunk(row);
      const io = this.sends.i32.off(row);
      const s: Send = {
        t: f[fo],
        type: 'send',
        id: i[io],
        from: this.names.at(i[io + 1]) as NodeId,
        to: this.names.at(i[io + 2]) as NodeId,
        kind: this.names.at(i[io + 3]) as MessageKind,
        bytes: f[fo + 1],
        due: f[fo + 2],
      };
      return s;
    }
    const r = -1 - row;
    const f = this.delivers.f64.chunk(r);
    const fo = this.delivers.f64.off(r);
    const i = this.delivers.i32.chunk(r);
    const io = this.delivers.i32.off(r);
    const d: Deliver = {
      t: f[fo],
      type: 'deliver',
      id: i[io],
      from: this.names.at(i[io + 1]) as NodeId,
      to: this.names.at(i[io + 2]) as NodeId,
      kind: this.names.at(i[io + 3]) as MessageKind,
      sentAt: f[fo + 1],
    };
    return d;
  }
}
