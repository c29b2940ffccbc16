import type { RunSummary } from '../engine/api';
import type { Run } from './engine';
import type { Action, SimTime } from '../sim/types';
import type { FaultMode } from '../workers/protocol';
import { act } from './act';
import { driver } from './driver';
import { get, set } from './store';
import { getLesson } from './lesson/store';

/**
 * `window.capPlayground`: a small, stable surface for Playwright tests and `npm run replay`
 * (e2e/fixtures.ts wraps it): what no button offers precisely — running to an exact simulated
 * time, scrubbing to one, reading the run's summary and the user's actions, and making a training
 * worker fail for real. Not used by the app itself.
 */
export interface TestHooks {
  /** The next gradient request for `node` fails in its worker ('throw') or kills it ('crash'). */
  injectFault(node: string, mode?: FaultMode): Promise<void>;
  /** The same path as every menu and key: parseAction, then the run applies it (or a fork when scrubbed back); whether it was taken. */
  act(action: Action): Promise<boolean>;
  /** Runs unpaced until simulated time `ms` (every event at `ms` included), then pauses. */
  runTo(ms: number): Promise<void>;
  /** Puts the scrub cursor at `ms` (null: follow the run), as dragging on the timeline does; returns where it went (capped at now). */
  scrubTo(ms: number | null): number | null;
  /** The loaded run in brief (cheap: no hashing), or null before one is loaded. */
  run(): { scenario: string; durationMs: number; now: number; done: boolean } | null;
  /** The current run's summary (the CLI's `--json` object), or null before a run is loaded. */
  summary(): Promise<RunSummary | null>;
  /** The user's actions on the current branch, with the simulated times they applied. */
  userActions(): Array<{ t: SimTime; action: Action }>;
  /** The branches of a forked run: id, the branch and time each left, current or not. */
  branches(): Array<{ id: number; parent: { id: number; t: number } | null; current: boolean; now: number }>;
  /**
   * The open lesson (guided mode): where it is, and each shown variant's run, or null. A run's
   * hash is null until it is done and the hash worker has answered (a later call sees it).
   */
  lesson(): {
    id: string;
    mode: string;
    focus: string;
    pos: { act: number; step: number };
    waiting: { at: number; variant: string } | null;
    runs: Array<{ id: string; now: number; done: boolean; scheduleHash: string | null }>;
    /** The copies computing ahead off screen (lesson/ahead.ts): a hash once one has got to its `until`. */
    ahead: Array<{ id: string; until: number | 'end'; now: number; done: boolean; stopped: string | null; scheduleHash: string | null }>;
  } | null;
}

declare global {
  interface Window {
    capPlayground?: TestHooks;
  }
}

export function installTestHooks(): void {
  window.capPlayground = {
    async injectFault(node, mode = 'throw') {
      const trainer = get().sim?.trainer;
      if (!trainer) throw new Error('no run is loaded');
      await trainer.injectFault(node, mode);
    },
    act,
    runTo: (ms) => driver.runTo(ms),
    scrubTo(ms) {
      const sim = get().sim;
      if (!sim) throw new Error('no run is loaded');
      const cursor = ms === null ? null : Math.max(0, Math.min(ms, sim.now()));
      set({ cursor });
      return cursor;
    },
    run() {
      const sim = get().sim;
      return sim ? { scenario: sim.scenario.id, durationMs: sim.durationMs, now: sim.now(), done: sim.done } : null;
    },
    summary: async () => (await get().sim?.summary()) ?? null,
    userActions: () => get().sim?.userActions() ?? [],
    branches: () => get().branches.map((b) => ({ id: b.id, parent: b.parent, current: b.id === get().branchId, now: b.sim.now() })),
    lesson() {
      const st = getLesson();
      if (!st.lesson) return null;
      return {
        id: st.lesson.id,
        mode: st.mode,
        focus: st.focus,
        pos: st.pos,
        waiting: st.waiting ? { at: st.waiting.at, variant: st.waiting.variant } : null,
        runs: st.runs.map((r) => ({ id: r.id, now: r.sim.now(), done: r.sim.done, scheduleHash: finalHash(r.sim) })),
        ahead: st.ahead.map((r) => ({ id: r.id, until: r.until, now: r.sim.now(), done: r.sim.done, stopped: r.stopped ?? null, scheduleHash: r.reached ? hashAt(r.sim, r.until) : null })),
      };
    },
  };
}

/** A copy's hash at its `until`: null while the request is out (one request per copy, not one per poll). */
const untilHashes = new WeakMap<Run, string | null>();

/**
 * The schedule hash of a copy that has reached `until` (the events up to it: the CLI's `--until`),
 * asked for the first time; a copy to the end is a finished run's.
 */
function hashAt(sim: Run, until: number | 'end'): string | null {
  if (until === 'end' || until >= sim.durationMs) return finalHash(sim);
  const known = untilHashes.get(sim);
  if (known !== undefined) return known;
  untilHashes.set(sim, null);
  void sim.digests().then(
    (d) => untilHashes.set(sim, d.scheduleHash),
    () => untilHashes.delete(sim), // asked again on the next poll
  );
  return null;
}

/** A finished run's schedule hash once the hash worker has given it (asking for it the first time), else null. */
function finalHash(sim: Run): string | null {
  if (!sim.done) return null;
  void sim.digests().catch(() => undefined); // computed once per run; a failure shows in the run bar
  return sim.finalDigests()?.scheduleHash ?? null;
}
