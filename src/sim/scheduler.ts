import type { SimTime } from './types';

/**
 * Discrete-event queue: a binary heap ordered by (time, priority, insertion order).
 * Insertion order breaks ties, so the schedule never depends on heap internals.
 * Priority lets probes (samples, expectation checks) see the state after every event at their time.
 */
export interface Scheduled<E> {
  time: SimTime;
  prio: number;
  seq: number;
  event: E;
}

export class EventQueue<E> {
  private heap: Scheduled<E>[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time: SimTime, event: E, prio = 0): Scheduled<E> {
    if (!Number.isFinite(time)) throw new Error(`cannot schedule at ${time}`);
    const item = { time, prio, seq: this.nextSeq++, event };
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
    return item;
  }

  peek(): Scheduled<E> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<E> | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop() as Scheduled<E>;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function before<E>(a: Scheduled<E>, b: Scheduled<E>): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.prio !== b.prio) return a.prio < b.prio;
  return a.seq < b.seq;
}
