import { nextTask } from '../check/nextTask';
import type { HistoryEvent } from '../sim/types';

type OpEvent = Extract<HistoryEvent, { type: 'op' }>;

/** Events read between two looks at the clock (a clock read per event would cost more than the event). */
const PER_LOOK = 512;

/**
 * The clients' operations (`op` events) at or before t, read from a run's history in slices of
 * `sliceMs`: the page's copy of a history rebuilds each event it is asked for, and a ten-minute
 * run's million events read in one go held the page for half a second when the linearizability
 * check was asked for.
 */
export async function opEventsUpTo(h: { readonly length: number; at(i: number): HistoryEvent }, t: number, sliceMs = 8): Promise<OpEvent[]> {
  const out: OpEvent[] = [];
  const n = h.length; // events appended meanwhile come after t's, or are its instant's next run
  let i = 0;
  while (i < n) {
    const end = performance.now() + sliceMs;
    while (i < n) {
      const e = h.at(i++);
      if (e.t > t) return out;
      if (e.type === 'op') out.push(e);
      if (i % PER_LOOK === 0 && performance.now() > end) break;
    }
    if (i < n) await nextTask();
  }
  return out;
}
