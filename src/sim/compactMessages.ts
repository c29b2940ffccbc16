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

/** Where a store stood (`CompactMessages.mark`). */
export interface MessagesMark {
  names: number;
  sends: number;
  delivers: number;
}

/**
 * What a store took in since a mark, for a copy of its decoder on another thread: the new names in
 * order and the new rows of each table as flat columns (sends from row `sends.first`, deliveries
 * from `delivers.first`).
 */
export interface MessagesDelta {
  names: string[];
  sends: { first: number; f64: Float64Array; i32: Int32Array };
  delivers: { first: number; f64: Float64Array; i32: Int32Array };
}

/** Rebuilds sends and deliveries from their columns, with the engine's field order; `names` as the store numbered them. */
export class MessageDecoder {
  readonly names = new Interner();

  send(f: Float64Array, fo: number, i: Int32Array, io: number): HistoryEvent {
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

  deliver(f: Float64Array, fo: number, i: Int32Array, io: number): HistoryEvent {
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

  /** The event at `row` (as `CompactMessages.add` returned it) in a delta. */
  readIn(d: MessagesDelta, row: number): HistoryEvent {
    if (row >= 0) {
      const r = row - d.sends.first;
      if (r < 0 || (r + 1) * SEND_INTS > d.sends.i32.length) throw new RangeError(`compact messages: no send row ${row} in this delta`);
      return this.send(d.sends.f64, r * SEND_FLOATS, d.sends.i32, r * SEND_INTS);
    }
    const r = -1 - row - d.delivers.first;
    if (r < 0 || (r + 1) * DELIVER_INTS > d.delivers.i32.length) throw new RangeError(`compact messages: no delivery row ${-1 - row} in this delta`);
    return this.deliver(d.delivers.f64, r * DELIVER_FLOATS, d.delivers.i32, r * DELIVER_INTS);
  }
}

/** Floats and ints per send row and per delivery row (a batch's tables are these columns: historyRows.concatBatches, packedBatch.ts). */
export const SEND_FLOATS = 3;
export const SEND_INTS = 4;
export const DELIVER_FLOATS = 2;
export const DELIVER_INTS = 4;

export class CompactMessages {
  private readonly decoder = new MessageDecoder();
  private readonly names = this.decoder.names;
  // send: floats t, bytes, due; ints id, from, to, kind
  private readonly sends = new Grow(SEND_FLOATS, SEND_INTS);
  // deliver: floats t, sentAt; ints id, from, to, kind
  private readonly delivers = new Grow(DELIVER_FLOATS, DELIVER_INTS);

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
    const g = row >= 0 ? this.sends : this.delivers;
    const r = row >= 0 ? row : -1 - row;
    const f = g.f64.chunk(r);
    const i = g.i32.chunk(r);
    return row >= 0 ? this.decoder.send(f, g.f64.off(r), i, g.i32.off(r)) : this.decoder.deliver(f, g.f64.off(r), i, g.i32.off(r));
  }

  /** Where the store stands now. */
  mark(): MessagesMark {
    return { names: this.names.size, sends: this.sends.f64.length, delivers: this.delivers.f64.length };
  }

  /** Lets go of the rows stored before mark `m` (whole chunks of them): no one reads them any more. */
  forgetBefore(m: MessagesMark): void {
    for (const g of [this.sends, this.delivers]) {
      const row = g === this.sends ? m.sends : m.delivers;
      g.f64.dropBefore(row);
      g.i32.dropBefore(row);
    }
  }

  /** What was stored since `m`, up to `until` (now by default) (copies: a delta may be sent to another thread). */
  delta(m: MessagesMark, until: MessagesMark = this.mark()): MessagesDelta {
    const table = (g: Grow, first: number, end: number) => ({ first, f64: g.f64.copy(first, end), i32: g.i32.copy(first, end) });
    return { names: this.names.since(m.names, until.names), sends: table(this.sends, m.sends, until.sends), delivers: table(this.delivers, m.delivers, until.delivers) };
  }
}
