import type { Act } from '../../scenario/lesson';
import { stepKey } from './script';
import { getLesson, setLesson } from './store';
import { revealTime } from './when';
import { recordProgress } from './progress';
import { factsOf, playhead, timesOf } from './playhead';

/**
 * Guided mode's predictions: when a predict step's answer is revealed, which prediction is on
 * screen, and the learner's (or presenter's) choose and reveal.
 */

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
