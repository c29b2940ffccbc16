import type { Act, Step } from '../../scenario/lesson';
import { driver } from '../driver';
import { get, set, useApp } from '../store';
import { focusVariant, stops } from './runtime';
import { stepKey, type Position } from './script';
import { getLesson, setLesson, useLesson } from './store';
import { stepAt } from './when';
import { recordProgress } from './progress';
import { actStart, playhead, resetTimes, timesOf } from './playhead';
import { pendingGates, takeWait } from './waits';

/**
 * Guided mode at run time: which step is current as the play-head moves, where it must stop
 * (a step that pauses, an `interactive` entry waiting for the learner), the learner's moves —
 * next, previous, choose, reveal, do it, do it for me — and how a learner's action at a wait is
 * taken: not applied now, but as the scripted entry at its own time, so the run is the one the
 * CLI computes. Stepping back and forth only moves the cursor: nothing is re-run. This module
 * follows the run and moves between steps; the play-head and step times are playhead.ts,
 * predictions predictions.ts, waits and the learner's actions waits.ts.
 */

/** Does the step hold the play-head when reached by playing? */
function pauses(act: Act, step: Step): boolean {
  if (step.pause) return true;
  return step.predict !== undefined && getLesson().answers[stepKey(act, step)] === undefined;
}

// ------------------------------------------------------------------------------------ stops

function nextStop(): { t: number; inclusive: boolean } | null {
  const st = getLesson();
  let best: { t: number; inclusive: boolean } | null = null;
  for (const g of pendingGates()) if (!best || g.at < best.t) best = { t: g.at, inclusive: false };
  // A pausing step at a known time: the runs stop there, so no later frame is computed before
  // the class has answered (a spoiler in the charts).
  const act = st.acts[st.pos.act];
  if (act) {
    const times = timesOf(st.pos.act);
    for (let i = st.pos.step + 1; i < act.steps.length; i++) {
      const t = times[i];
      if (t === null) break;
      if (pauses(act, act.steps[i]) && 'at' in act.steps[i].when && t > playhead() && (!best || t < best.t)) best = { t, inclusive: true };
    }
  }
  return best;
}
stops.next = nextStop;

// ------------------------------------------------------------------------------------ tracking

let lastT = 0;
/** Set by navigation: the step shown while the play-head stays at its time (ties between steps). */
let pinned: { pos: Position; t: number } | null = null;
let inTick = false;
/** While goTo runs the runs forward to a step, steps on the way do not stop them. */
let navigating = false;

/** Runs after every change of the run or the cursor: steps fire, waits begin, the play-head stops. */
function tick(): void {
  const st = getLesson();
  const app = get();
  if (!st.lesson || st.mode !== 'guided' || !app.sim || inTick) return;
  inTick = true;
  try {
    const t = playhead();
    const prevT = lastT;
    lastT = t;
    let { act: a, step } = st.pos;
    const act = st.acts[a];
    const times = timesOf(a);
    if (pinned && pinned.t === t && pinned.pos.act === a) step = pinned.pos.step;
    else {
      pinned = null;
      step = stepAt(times, t);
      // Playing across a step that pauses stops there (a frame may carry the runs past it).
      if (app.status === 'running' && t > prevT && !navigating) {
        for (let i = stepAt(times, prevT) + 1; i <= step; i++) {
          if (pauses(act, act.steps[i])) {
            step = i;
            driver.pause();
            const at = times[i]!;
            if (at < t) set({ cursor: at });
            lastT = at;
            pinned = { pos: { act: a, step: i }, t: at };
            break;
          }
        }
      }
      // Acts without a rewind continue on the same clock: play walks into the next one.
      const next = st.acts[a + 1];
      if (next && next.rewindTo === undefined && step === act.steps.length - 1) {
        const nt = timesOf(a + 1);
        const ns = stepAt(nt, t);
        if (ns >= 0) {
          a += 1;
          step = ns;
        }
      }
    }
    if (a !== st.pos.act || step !== st.pos.step) {
      setLesson({ pos: { act: a, step } });
      recordProgress(st.lesson.id, st.acts, { act: a, step });
    }
    // An interactive entry ahead: the runs stop just before it and wait for the learner.
    const waitAt = pendingGates().reduce<number | null>((m, g) => (m === null || g.at < m ? g.at : m), null);
    const edge = driver.edge(app.sim);
    if (waitAt !== null && app.cursor === null && edge >= waitAt - 0.002) {
      if (!st.waiting || st.waiting.at !== waitAt) {
        const gates = pendingGates().filter((g) => g.at === waitAt);
        const shown = gates.find((g) => g.variant === st.focus) ?? gates[0];
        setLesson({ waiting: { index: shown.index, at: shown.at, action: shown.action, variant: shown.variant }, refused: null });
      }
      if (get().status === 'running') driver.pause();
    } else if (st.waiting && (waitAt === null || waitAt !== st.waiting.at)) setLesson({ waiting: null });
  } finally {
    inTick = false;
  }
}

let unsubscribe: (() => void) | null = null;
/** Starts following the run (once per page). */
export function startController(): void {
  if (unsubscribe) return;
  const u1 = useApp.subscribe((st, prev) => {
    if (st.frame !== prev.frame || st.cursor !== prev.cursor || st.sim !== prev.sim || st.status !== prev.status) tick();
  });
  const u2 = useLesson.subscribe((st, prev) => {
    if (st.pos !== prev.pos || st.mode !== prev.mode || st.gatesDone !== prev.gatesDone || st.lesson !== prev.lesson) tick();
  });
  unsubscribe = () => {
    u1();
    u2();
  };
}

/** Resets the tracking for a freshly opened lesson. */
export function resetTracking(): void {
  lastT = 0;
  pinned = null;
  resetTimes();
}

// ------------------------------------------------------------------------------------ moves

/** How long a run forward to a step goes before the step card says so (see goTo). */
const GOING_TO_NOTE_MS = 400;

/**
 * Puts the play-head on a step: the cursor goes to its time, running forward first if needed.
 * A wait on the way stops there (the learner acts, or "do it for me") — unless `skipWaits` (a
 * link to a later step): then the script takes each wait, as ▶ would.
 */
export async function goTo(p: Position, opts: { skipWaits?: boolean } = {}): Promise<void> {
  const st = getLesson();
  const act = st.acts[p.act];
  if (!act || !get().sim) return;
  driver.pause();
  if (p.act !== st.pos.act) {
    setLesson({ pos: { act: p.act, step: -1 } });
    // An act's own variants come on screen; a single one fills the stage.
    const stage = act.show.length > 1 ? 'multiples' : 'single';
    if (!act.show.includes(st.focus)) await focusVariant(act.show[0], stage);
    else setLesson({ stage });
  }
  const step = Math.max(-1, Math.min(p.step, act.steps.length - 1));
  if (step < 0) {
    const start = actStart(p.act);
    moveCursor(start);
    pinned = { pos: { act: p.act, step: -1 }, t: start };
    setLesson({ pos: { act: p.act, step: -1 } });
    return;
  }
  const sim = get().sim!;
  const reached = () => {
    const ft = timesOf(p.act)[step];
    return ft !== null && ft <= driver.edge(sim);
  };
  navigating = true;
  // Said at once where the card has no step to show; after a moment where it has (a → pressed
  // early runs forward for a fraction of a second: the note would only flicker).
  let slow: ReturnType<typeof setTimeout> | undefined;
  if (!reached()) {
    const to = { act: p.act, step };
    if (getLesson().pos.step < 0) setLesson({ goingTo: to });
    else slow = setTimeout(() => navigating && setLesson({ goingTo: to }), GOING_TO_NOTE_MS);
  }
  try {
    while (!reached()) {
      // Not reached yet: run (unpaced) until the step fires, or a wait or the end stops the runs.
      await driver.runTo(timesOf(p.act)[step] ?? Number.MAX_SAFE_INTEGER, reached);
      if (reached() || get().sim !== sim) break;
      const gate = pendingGates().find((g) => driver.edge(sim) >= g.at - 0.002);
      if (!gate || !opts.skipWaits) break;
      takeWait(gate.at);
    }
  } finally {
    navigating = false;
    clearTimeout(slow);
    if (getLesson().goingTo) setLesson({ goingTo: null });
  }
  const t = timesOf(p.act)[step];
  if (t === null || t > driver.edge(sim)) {
    tick();
    return; // stopped short (a wait): the step panel shows the wait
  }
  moveCursor(t);
  pinned = { pos: { act: p.act, step }, t };
  lastT = t;
  setLesson({ pos: { act: p.act, step } });
  recordProgress(st.lesson!.id, st.acts, { act: p.act, step });
}

function moveCursor(t: number): void {
  const sim = get().sim;
  if (!sim) return;
  const edge = driver.edge(sim);
  set({ cursor: t >= edge ? null : t, status: get().status === 'running' ? 'paused' : get().status });
}

/**
 * Moves queue: a key pressed while the runs go forward to a step counts from that step, and the
 * moves happen in order (three quick → are three steps, not one).
 */
let queue: Promise<void> = Promise.resolve();
let target: Position | null = null;

function enqueue(p: Position): Promise<void> {
  target = p;
  queue = queue
    .then(() => goTo(p))
    .catch(() => undefined)
    .finally(() => {
      if (target === p) target = null;
    });
  return queue;
}

function stepAfter({ act, step }: Position): Position | null {
  const acts = getLesson().acts;
  if (!acts[act]) return null;
  if (step + 1 < acts[act].steps.length) return { act, step: step + 1 };
  if (act + 1 < acts.length) return { act: act + 1, step: 0 };
  return null;
}

function stepBefore({ act, step }: Position): Position {
  const acts = getLesson().acts;
  if (step > 0) return { act, step: step - 1 };
  if (act > 0) return { act: act - 1, step: acts[act - 1].steps.length - 1 };
  return { act, step: -1 };
}

export function next(): Promise<void> {
  const p = stepAfter(target ?? getLesson().pos);
  return p ? enqueue(p) : queue;
}

export function prev(): Promise<void> {
  return enqueue(stepBefore(target ?? getLesson().pos));
}
