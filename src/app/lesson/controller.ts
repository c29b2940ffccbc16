import type { Act, Step } from '../../scenario/lesson';
import type { Simulation } from '../../engine/simulation';
import type { Action } from '../../sim/types';
import { describeAction } from '../../scenario/actions';
import { driver } from '../driver';
import { get, set, useApp } from '../store';
import { stateAt } from '../views/runView';
import { roleOf } from '../words/nodeWords';
import { allGates, focusVariant, stops } from './runtime';
import { sameAction } from '../../scenario/actionMatch';
import { stepKey, type Gate, type Position } from './script';
import { getLesson, setLesson, useLesson } from './store';
import { revealTime, stepAt, stepTimes, type RunFacts } from './when';
import { recordProgress } from './progress';

/**
 * Guided mode at run time: which step is current as the play-head moves, where it must stop
 * (a step that pauses, an `interactive` entry waiting for the learner), the learner's moves —
 * next, previous, choose, reveal, do it, do it for me — and how a learner's action at a wait is
 * taken: not applied now, but as the scripted entry at its own time, so the run is the one the
 * CLI computes. Stepping back and forth only moves the cursor: nothing is re-run.
 */

/** The run a variant id stands for: the focused one is the app's `sim` (a fork of it, after one). */
export function simOf(id: string): Simulation | null {
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

export function currentAct(): Act | undefined {
  const st = getLesson();
  return st.acts[st.pos.act];
}

export function currentStep(): Step | undefined {
  const st = getLesson();
  return st.acts[st.pos.act]?.steps[st.pos.step];
}

/** A predict step's reveal time (null: not known yet). */
export function revealAt(act: Act, stepIndex: number): number | null {
  const step = act.steps[stepIndex];
  const actIndex = getLesson().acts.indexOf(act);
  const times = timesOf(actIndex);
  const t = times[stepIndex];
  if (!step?.predict || t === null) return null;
  return revealTime(step.predict.reveal.when, act, t, factsOf, (id) => times[act.steps.findIndex((s) => s.id === id)] ?? null);
}

export function isRevealed(act: Act, stepIndex: number): boolean {
  const step = act.steps[stepIndex];
  if (!step?.predict) return false;
  if (getLesson().revealed[stepKey(act, step)]) return true;
  const r = revealAt(act, stepIndex);
  return r !== null && playhead() >= r;
}

/** Does the step hold the play-head when reached by playing? */
function pauses(act: Act, step: Step): boolean {
  if (step.pause) return true;
  return step.predict !== undefined && getLesson().answers[stepKey(act, step)] === undefined;
}

// ------------------------------------------------------------------------------------ stops

/** Gates not yet taken and not yet passed by their run. */
function pendingGates() {
  const done = getLesson().gatesDone;
  return allGates().filter((g) => !done[`${g.variant}:${g.index}`] && g.sim.now() < g.at);
}

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
  cache = { key: '', times: [] };
}

// ------------------------------------------------------------------------------------ moves

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

/**
 * The prediction on screen: the latest predict step of the act at or before the current step,
 * from its own step until the step during which its answer is revealed (a reveal usually comes
 * a few steps later, when the run shows it: L1 asks at 5.5 s and reveals at 9 s).
 */
export function visiblePredict(): { act: Act; step: number } | null {
  const st = getLesson();
  const act = st.acts[st.pos.act];
  if (!act || st.pos.step < 0) return null;
  const times = timesOf(st.pos.act);
  const now = times[st.pos.step];
  for (let i = st.pos.step; i >= 0; i--) {
    if (!act.steps[i].predict) continue;
    if (i === st.pos.step) return { act, step: i };
    const r = revealAt(act, i);
    return r === null || now === null || r >= now ? { act, step: i } : null;
  }
  return null;
}

/** Picks option `i` (0-based) of the prediction on screen, until it is revealed. */
export function choose(i: number): void {
  const v = visiblePredict();
  const st = getLesson();
  const step = v?.act.steps[v.step];
  if (!v || !step?.predict || i < 0 || i >= step.predict.options.length) return;
  if (isRevealed(v.act, v.step)) return;
  const key = stepKey(v.act, step);
  setLesson({ answers: { ...st.answers, [key]: i } });
  recordProgress(st.lesson!.id, st.acts, st.pos, { [key]: i });
}

/** Reveals the prediction on screen now (the presenter's R). */
export function reveal(): void {
  const v = visiblePredict();
  const st = getLesson();
  const step = v?.act.steps[v.step];
  if (!v || !step?.predict) return;
  setLesson({ revealed: { ...st.revealed, [stepKey(v.act, step)]: true } });
}

/** The `interactive` entry a "try" step is about (same action), in any run, if one exists. */
export function gateForTry(step: Step): (Gate & { variant: string; done: boolean }) | null {
  if (!step.try) return null;
  const sim = get().sim;
  const nodes = sim ? sim.nodes().map((n) => n.id) : [];
  const done = getLesson().gatesDone;
  const g = allGates().find((x) => sameAction(x.action, step.try!.action as unknown as Action, nodes, resolveSelector));
  return g ? { index: g.index, at: g.at, action: g.action, variant: g.variant, done: !!done[`${g.variant}:${g.index}`] || g.sim.now() >= g.at } : null;
}

/** Takes the wait: every run's entry at that time is left to fire as scripted; play resumes. */
function takeWait(at: number): void {
  const done = { ...getLesson().gatesDone };
  for (const g of allGates()) if (g.at === at) done[`${g.variant}:${g.index}`] = true;
  setLesson({ gatesDone: done, waiting: null, refused: null });
}

export function doItForMe(): void {
  const w = getLesson().waiting;
  if (!w) return;
  takeWait(w.at);
  driver.play();
}

// ▶ at a wait does it for the learner (the lesson's hint: "or press ▶ and the script does it").
stops.beforePlay = () => {
  if (!getLesson().waiting) return false;
  doItForMe();
  return true;
};

/** `@leader` / `@crashed` as the focused run shows them at the play-head (for matching a learner's node). */
function resolveSelector(selector: string): string[] {
  const sim = get().sim;
  if (!sim) return [];
  const nodes = stateAt(sim, playhead()).nodes;
  if (selector === '@leader') return nodes.filter((n) => roleOf(n) === 'leader').map((n) => n.id);
  if (selector === '@crashed') return nodes.filter((n) => !n.up).map((n) => n.id);
  return [];
}

/**
 * A learner's action in guided mode (act.ts asks first). The action an `interactive` entry ahead
 * scripts is taken as that entry — it fires at its own time, as in the CLI's run — whether the
 * play-head waits there already or not; at a wait, any other action is refused with what the
 * lesson expects. Elsewhere the action is the learner's own (free play): it applies, and the
 * lesson's checks no longer apply to the run. Returns true when it handled the action.
 */
export function interceptAction(actions: readonly Action[]): boolean {
  const st = getLesson();
  const sim = get().sim;
  if (!st.lesson || st.mode !== 'guided' || !sim) return false;
  const nodes = sim.nodes().map((n) => n.id);
  const gates = pendingGates();
  const match = actions.length === 1 ? gates.find((g) => sameAction(g.action, actions[0], nodes, resolveSelector)) : undefined;
  if (match) {
    const waitingHere = st.waiting?.at === match.at;
    takeWait(match.at);
    if (waitingHere) driver.play();
    return true;
  }
  if (st.waiting) {
    const lang = get().lang;
    setLesson({ refused: actions.map((a) => describeAction(a, lang)).join('; ') });
    return true;
  }
  setLesson({ offScript: true });
  return false;
}
