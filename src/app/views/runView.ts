import type { ExpectationResult } from '../../engine/api';
import type { RunIndex } from '../../engine/index/runIndex';
import { runStateAt, type RunState, type RunStatic } from '../../engine/index/runState';
import type { RunReader } from '../../engine/runReader';

/**
 * The one door through which the views read a run: the history index and the state at a time t
 * (DESIGN rule 4). The live screen is t = now; a scrubbed one is any earlier t — same code, so
 * they cannot disagree. Several views draw the same frame: the state at (run, history length, t)
 * is built once and shared.
 */

export type RunSource = Pick<RunReader, 'index' | 'runStatic' | 'history' | 'now'>;

const statics = new WeakMap<object, RunStatic>();
const lastState = new WeakMap<object, { events: number; t: number; state: RunState }>();

/** The cluster and the strategy's links: fixed for the lifetime of a run. */
export function staticOf(sim: RunSource): RunStatic {
  let st = statics.get(sim);
  if (!st) {
    st = sim.runStatic();
    statics.set(sim, st);
  }
  return st;
}

export function indexOf(sim: RunSource): RunIndex {
  return sim.index();
}

/** The run's state at t, from the history alone (cached for the frame). */
export function stateAt(sim: RunSource, t: number): RunState {
  const ix = sim.index();
  const events = ix.eventsRead;
  const hit = lastState.get(sim);
  if (hit && hit.events === events && hit.t === t) return hit.state;
  const state = runStateAt(ix, staticOf(sim), t);
  lastState.set(sim, { events, t, state });
  return state;
}

/** Is t the live edge (not a scrub cursor in the past)? */
export function isLive(sim: Pick<RunReader, 'now'>, t: number): boolean {
  return t >= sim.now() - 1e-6;
}

/**
 * The expectations as of t: one whose time lies after a scrubbed cursor is still pending there.
 * Here, not in the Expectations component: Node-side code (bench/seek.ts) reads it without a UI runtime.
 */
export function expectationsAt(sim: Pick<RunReader, 'expectations'>, t: number): ExpectationResult[] {
  return sim.expectations().map((e) => (e.time > t ? { ...e, actual: null, pass: null } : e));
}
