import type { Run } from '../engine';
import { driver } from '../driver';
import { get } from '../store';
import { getLesson } from './store';
import { stepTimes, type RunFacts } from './when';

/**
 * Where guided mode stands in time: the run a variant id names, the play-head, and when each
 * act begins and its steps fire (cached per run progress; the controller resets the cache when a
 * lesson opens).
 */

/** The run a variant id stands for: the focused one is the app's `sim` (a fork of it, after one). */
export function simOf(id: string): Run | null {
  const st = getLesson();
  if (id === st.focus) return get().sim;
  return st.runs.find((r) => r.id === id)?.sim ?? null;
}

export function factsOf(id: string): RunFacts | null {
  const sim = simOf(id);
  if (!sim) return null;
  const ix = sim.index();
  return { notes: ix.notes, actions: ix.actions, metrics: ix.metrics, now: sim.now(), done: sim.done, durationMs: sim.durationMs };
}

/** The play-head: the cursor, or the live edge of the runs (the slowest of them). */
export function playhead(): number {
  const { cursor, sim } = get();
  if (cursor !== null) return cursor;
  return sim ? driver.edge(sim) : 0;
}

/** When act `i` begins: its rewindTo, else where the act before it fired its last step. */
export function actStart(i: number): number {
  const acts = getLesson().acts;
  const a = acts[i];
  if (!a) return 0;
  if (a.rewindTo !== undefined) return a.rewindTo;
  if (i === 0) return 0;
  const before = timesOf(i - 1);
  for (let k = before.length - 1; k >= 0; k--) if (before[k] !== null) return before[k]!;
  return actStart(i - 1);
}

/** Firing times of act `i`'s steps (null: not known yet). Cached per run progress. */
let cache: { key: string; times: Array<Array<number | null>> } = { key: '', times: [] };
export function timesOf(i: number): Array<number | null> {
  const st = getLesson();
  const key = st.runs.map((r) => `${simOf(r.id)?.history.length ?? 0}`).join(',') + `|${st.focus}|${get().sim?.history.length ?? 0}`;
  if (cache.key !== key) cache = { key, times: [] };
  let t = cache.times[i];
  if (!t) {
    const act = st.acts[i];
    t = act ? stepTimes(act, actStart(i), factsOf) : [];
    cache.times[i] = t;
  }
  return t;
}

/** Forgets the cached firing times (a freshly opened lesson). */
export function resetTimes(): void {
  cache = { key: '', times: [] };
}
