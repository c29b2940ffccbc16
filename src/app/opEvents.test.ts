import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../sim/types';
import { opEventsUpTo } from './opEvents';

/** Sends with an op every third event, times rising by 1 ms (two events share each instant). */
function history(n: number): HistoryEvent[] {
  return Array.from({ length: n }, (_, i): HistoryEvent =>
    i % 3 === 0
      ? { t: i >> 1, type: 'op', op: 'invoke', opId: i, process: 'w0', f: 'update' }
      : { t: i >> 1, type: 'send', id: i, from: 'w0', to: 's0', kind: 'push', bytes: 8, due: (i >> 1) + 1 },
  );
}

describe('the linearizability check’s operations, read in slices', () => {
  it('are the op events at or before t, in order', async () => {
    const events = history(5000);
    const h = { length: events.length, at: (i: number) => events[i] };
    for (const t of [-1, 0, 1, 777, 1249.5, 2499, 10_000]) expect(await opEventsUpTo(h, t)).toEqual(events.filter((e) => e.type === 'op' && e.t <= t));
  });

  it('let the page run between slices on a long history', async () => {
    const events = history(20_000);
    const h = { length: events.length, at: (i: number) => events[i] };
    let ranBetween = false;
    setTimeout(() => (ranBetween = true), 0);
    const ops = await opEventsUpTo(h, Infinity, 0); // a slice ends at its first look at the clock
    expect(ops).toHaveLength(Math.ceil(20_000 / 3));
    expect(ranBetween).toBe(true);
    // A short history is read in one task.
    let ranMeanwhile = false;
    setTimeout(() => (ranMeanwhile = true), 0);
    await opEventsUpTo({ length: 100, at: (i) => events[i] }, Infinity, 0);
    expect(ranMeanwhile).toBe(false);
  });
});
