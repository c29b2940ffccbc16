import type { LogItem, NodeFacts } from '../../protocols/facts';
import type { HistoryEvent, SimTime } from '../../sim/types';
import { F64Column, I32Column } from './columns';

/**
 * A node's facts and its replicated log over time, as history event numbers in typed columns
 * (issue 9): the values stay in the history (which keeps them compactly) and are read back from it
 * when a view asks, so a long run's index holds no object per change. Reads are cached so that the
 * same change read twice (every frame at the live edge) is the same object: views number facts by
 * identity.
 */

/** Reads event i of the history the index follows. */
export type EventReader = (i: number) => HistoryEvent | undefined;

export interface Timed<T> {
  t: SimTime;
  value: T;
}

type FactsEvent = Extract<HistoryEvent, { type: 'facts' }>;
type LogEvent = Extract<HistoryEvent, { type: 'log' }>;

export function eventOf<T extends HistoryEvent['type']>(read: EventReader, i: number, type: T): Extract<HistoryEvent, { type: T }> {
  const e = read(i);
  if (!e || e.type !== type) throw new Error(`history index: event ${i} is ${e ? e.type : 'missing'}, expected ${type}`);
  return e as Extract<HistoryEvent, { type: T }>;
}

/** One node's facts after each change. */
export class FactsSeries {
  private readonly ts = new F64Column();
  private readonly evs = new I32Column();
  private first: Timed<NodeFacts | null> | null = null;
  private last: { k: number; v: Timed<NodeFacts | null> } | null = null;

  constructor(private readonly read: EventReader) {}

  get length(): number {
    return this.ts.length;
  }

  /** The facts event number `ev` changed them at t (appended in time order). */
  push(t: SimTime, ev: number): void {
    this.ts.push(t);
    this.evs.push(ev);
  }

  /** The facts at t: the newest change at or before t, or undefined before the first. */
  at(t: SimTime): Timed<NodeFacts | null> | undefined {
    const k = this.ts.lastAtOrBefore(t);
    return k < 0 ? undefined : this.entry(k);
  }

  /** The first change (oldest first) that satisfies `pred`, like Array.prototype.find. */
  find(pred: (x: Timed<NodeFacts | null>) => boolean): Timed<NodeFacts | null> | undefined {
    for (let k = 0; k < this.ts.length; k++) {
      const x = this.entry(k);
      if (pred(x)) return x;
    }
    return undefined;
  }

  private entry(k: number): Timed<NodeFacts | null> {
    if (k === 0 && this.first) return this.first;
    if (this.last?.k === k) return this.last.v;
    const e: FactsEvent = eventOf(this.read, this.evs.get(k), 'facts');
    const v = { t: this.ts.get(k), value: e.f };
    if (k === 0) this.first = v;
    else this.last = { k, v };
    return v;
  }
}

const CACHE = 64;

/** A node's replicated log over time: its end after each change, and what each slot held when. */
export class LogTrack {
  /** Index of the first slot (1 for Raft, 0 for Kafka), from the first change. */
  base: number;
  // One row per change (a log event): its time, event number, first index and exclusive end.
  private readonly ct = new F64Column();
  private readonly cev = new I32Column();
  private readonly cfrom = new I32Column();
  private readonly cend = new I32Column();
  // One row per slot written: the change that wrote it, and the slot's previous write (-1: none).
  private readonly wChange = new I32Column();
  private readonly wPrev = new I32Column();
  /** Per log index: its newest write (-1: never written). */
  private readonly slotLast = new I32Column();
  /** Entries of recently read log events (direct-mapped by event number). */
  private readonly cacheEv = new Int32Array(CACHE).fill(-1);
  private readonly cacheAdd: Array<LogItem[] | undefined> = new Array<LogItem[] | undefined>(CACHE);

  constructor(
    private readonly read: EventReader,
    base: number,
  ) {
    this.base = base;
  }

  /** Log event number `ev` at t removed the entries from `from` on and appended `count`. */
  push(t: SimTime, ev: number, from: number, count: number): void {
    if (!Number.isInteger(from) || from < 0 || from + count > 0x7fffffff) throw new RangeError(`history index: log index ${from} out of range`);
    this.base = Math.min(this.base, from);
    const c = this.ct.push(t);
    this.cev.push(ev);
    this.cfrom.push(from);
    this.cend.push(from + count);
    this.slotLast.ensure(from + count, -1);
    for (let i = from; i < from + count; i++) {
      const w = this.wChange.push(c);
      this.wPrev.push(this.slotLast.get(i));
      this.slotLast.set(i, w);
    }
  }

  /** The exclusive end index at t, or undefined before the first change. */
  endAt(t: SimTime): number | undefined {
    const c = this.ct.lastAtOrBefore(t);
    return c < 0 ? undefined : this.cend.get(c);
  }

  /** The entry slot `index` held at t (its newest write at or before t), or undefined. */
  itemAt(index: number, t: SimTime): LogItem | undefined {
    if (index < 0 || index >= this.slotLast.length) return undefined;
    let w = this.slotLast.get(index);
    while (w >= 0 && this.ct.get(this.wChange.get(w)) > t) w = this.wPrev.get(w);
    if (w < 0) return undefined;
    const c = this.wChange.get(w);
    return this.added(this.cev.get(c))[index - this.cfrom.get(c)];
  }

  private added(ev: number): LogItem[] {
    const slot = ev % CACHE;
    if (this.cacheEv[slot] === ev) return this.cacheAdd[slot]!;
    const add = eventOf(this.read, ev, 'log').add as LogEvent['add'];
    this.cacheEv[slot] = ev;
    this.cacheAdd[slot] = add;
    return add;
  }
}

/** A step a node started: when, and when it is due. */
export interface StepSpan {
  t: SimTime;
  due: SimTime;
}

/**
 * A node's steps: when each started and was due, and its completed count after each completion,
 * in columns. The span read last is kept, so reading it again gives the same object.
 */
export class StepTrack {
  private readonly startT = new F64Column();
  private readonly due = new F64Column();
  private readonly doneT = new F64Column();
  private readonly done = new F64Column();
  private last: { k: number; v: StepSpan } | null = null;

  started(t: SimTime, due: SimTime): void {
    this.startT.push(t);
    this.due.push(due);
  }

  completed(t: SimTime, step: number): void {
    this.doneT.push(t);
    this.done.push(step);
  }

  /** The newest step started at or before t, or undefined. */
  startedAt(t: SimTime): StepSpan | undefined {
    const k = this.startT.lastAtOrBefore(t);
    if (k < 0) return undefined;
    if (this.last?.k !== k) this.last = { k, v: { t: this.startT.get(k), due: this.due.get(k) } };
    return this.last.v;
  }

  /** Steps completed at t (0 before the first completion). */
  stepsAt(t: SimTime): number {
    const k = this.doneT.lastAtOrBefore(t);
    return k < 0 ? 0 : this.done.get(k);
  }
}
