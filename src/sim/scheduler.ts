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
    // Sift up by moving parents down into the hole, then place the item once.
    const h = this.heap;
    let i = h.length;
    h.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p];
      if (!before(item, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = item;
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
    const n = h.length;
    if (n > 0) {
      // Sift the last item down from the root: the smaller child moves up into the hole.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && before(h[r], h[l]) ? r : l;
        const child = h[m];
        if (!before(child, last)) break;
        h[i] = child;
        i = m;
      }
      h[i] = last;
    }
    return top;
  }
}

function before<E>(a: Scheduled<E>, b: Scheduled<E>): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.prio !== b.prio) return a.prio < b.prio;
  return a.seq < b.seq;
}
