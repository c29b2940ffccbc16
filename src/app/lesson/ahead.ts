import { get, reportError } from '../store';
import { ls } from '../i18n/lessonStrings';
import { variantTitle } from './script';
import { getLesson, setLesson, type AheadRun } from './store';

/**
 * Runs the lesson's copies ahead (store.AheadRun), off screen and unpaced, in short slices so a
 * frame is never held up: each to the latest time its lesson reads. They are not on screen, so
 * the rule that no run shown runs ahead of the others does not bind them; what they compute is
 * what the run on screen will show there (same scenario, same seed: DESIGN rule 1).
 */

/** Wall time a slice may take at most, and at least (when the page is never idle). */
const SLICE_MAX_MS = 12;
const SLICE_MIN_MS = 3;
/** Progress is announced at most this often (captions say how far the runs have got). */
const TICK_MS = 250;

/**
 * The page's idle time after a frame (the runs on screen and their drawing come first), or every
 * 50 ms on a page that is never idle; a browser without requestIdleCallback gets a frame's gap.
 */
function idle(): Promise<number> {
  return new Promise((go) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback((d) => go(d.timeRemaining()), { timeout: 50 });
    else setTimeout(() => go(SLICE_MIN_MS), 16);
  });
}

export function runAhead(runs: readonly AheadRun[]): void {
  for (const r of runs) void advance(r);
}

async function advance(r: AheadRun): Promise<void> {
  const { sim } = r;
  const until = r.until === 'end' ? sim.durationMs : r.until;
  // Still this lesson's copy: closing or reopening the lesson stops it.
  const mine = (): boolean => getLesson().ahead.includes(r);
  let told = 0;
  try {
    while (mine() && !sim.done && sim.now() < until) {
      const spare = await idle();
      await sim.advanceTo(until, { wallBudgetMs: Math.min(SLICE_MAX_MS, Math.max(SLICE_MIN_MS, spare - 1)) });
      if (sim.failure) return stop(r, sim.failure);
      // Read between slices only: inside one, now() may already be `until` while that instant's
      // events still run (an event that waits for a worker), and a digest taken then is partial.
      const reached = sim.done || sim.now() >= until;
      if (reached) r.reached = true;
      if (reached || performance.now() - told >= TICK_MS) {
        told = performance.now();
        if (mine()) setLesson((st) => ({ aheadTick: st.aheadTick + 1 }));
      }
    }
  } catch (e) {
    // Its workers went: with the lesson (closed meanwhile: nothing is left to show it), or not.
    stop(r, e instanceof Error ? e.message : String(e));
  }
}

/**
 * A copy that cannot reach its time: what reads it says so instead of waiting for good, and the
 * error panel says why, as for a run on screen.
 */
function stop(r: AheadRun, why: string): void {
  const st = getLesson();
  if (!st.ahead.includes(r) || !st.lesson) return;
  r.stopped = why;
  const lang = get().lang;
  reportError(ls(lang, 'aheadStopped', { run: variantTitle(st.lesson, r.id)[lang], cause: why }), undefined, `ahead:${r.id}:${why}`);
  setLesson((s) => ({ aheadTick: s.aheadTick + 1 }));
}
