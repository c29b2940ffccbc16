import type { Step } from '../../scenario/lesson';
import type { Action } from '../../sim/types';
import { describeAction } from '../../scenario/describeAction';
import { driver } from '../driver';
import { get } from '../store';
import { stateAt } from '../views/runView';
import { roleOf } from '../words/nodeWords';
import { allGates, stops } from './runtime';
import { sameAction } from '../../scenario/actionMatch';
import type { Gate } from './script';
import { getLesson, setLesson } from './store';
import { playhead, timesOf } from './playhead';

/**
 * Guided mode's waits: the `interactive` entries (gates) still ahead, taking one ("do it for me",
 * ▶, or the learner's own matching action) and refusing any other action while the play-head waits.
 */

/** Gates not yet taken and not yet passed by their run. */
export function pendingGates() {
  const done = getLesson().gatesDone;
  return allGates().filter((g) => !done[`${g.variant}:${g.index}`] && g.sim.now() < g.at);
}

/** The `interactive` entry a "try" step is about (same action), in any run, if one exists. */
export function gateForTry(step: Step): (Gate & { variant: string; done: boolean }) | null {
  if (!step.try) return null;
  const sim = get().sim;
  const nodes = sim ? sim.nodes().map((n) => n.id) : [];
  const { gatesDone: done, pos, acts } = getLesson();
  const matching = allGates()
    .filter((x) => sameAction(x.action, step.try!.action as unknown as Action, nodes, resolveSelector))
    .sort((a, b) => a.at - b.at);
  // The entry at or after the step's own time, else the last before it: Paxos vs 2PC crashes s4
  // at 3 s and again at 8 s, and the 8-s step said "done: takes effect at 3.0 s".
  const i = acts[pos.act]?.steps.indexOf(step) ?? -1;
  const stepAt = i >= 0 ? timesOf(pos.act)[i] : null;
  const g = stepAt === null || stepAt === undefined ? matching[0] : (matching.find((x) => x.at >= stepAt) ?? matching.at(-1));
  return g ? { index: g.index, at: g.at, action: g.action, variant: g.variant, done: !!done[`${g.variant}:${g.index}`] || g.sim.now() >= g.at } : null;
}

/** Takes the wait: every run's entry at that time is left to fire as scripted; play resumes. */
export function takeWait(at: number): void {
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
