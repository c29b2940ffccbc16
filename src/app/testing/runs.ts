import { loadBuiltin } from '../../cli/builtins';
import type { RunState } from '../../engine/index/runState';
import { Simulation } from '../../engine/simulation';
import type { Scenario } from '../../scenario/schema';
import { InstantTrainer } from '../../engine/testing/instantTrainer';
import { deriveExplainState, loadExplain, loadExplainSecurity, type ExplainState } from '../explain';
import { indexOf, stateAt, staticOf } from '../views/runView';
import { loadNoteWords } from '../words/noteWords';

/**
 * Real runs for the app's text tests: a built-in scenario simulated to its end with stand-in
 * gradients (safety and protocol state do not depend on gradient values), then read at any t
 * the way the screen reads it (its explanation's module and note words loaded, as the app loads them with the run).
 */
export async function runBuiltin(id: string, patch?: (s: Scenario) => Scenario): Promise<Simulation> {
  const v = loadBuiltin(id);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const sc = patch ? patch(v.scenario) : v.scenario;
  const [sim] = await Promise.all([Simulation.create(sc, { trainer: new InstantTrainer() }), loadExplain(sc.strategy), loadExplainSecurity(), loadNoteWords(sc)]);
  await sim.runToEnd();
  return sim;
}

/** The times worth reading a run at: the start, just after each scripted action, between them, the end. */
export function interestingTimes(sim: Simulation): number[] {
  const end = sim.durationMs;
  const out = new Set<number>([0, 1, Math.round(end / 3), Math.round(end / 2), end]);
  // Just after each action as it happened (scripted at a time, or fired 'on' an event).
  for (const a of indexOf(sim).actions) for (const dt of [50, 400, 1500]) out.add(Math.min(end, a.t + dt));
  // The first few of each turning point, and just after them.
  const seen = new Map<string, number>();
  for (const n of indexOf(sim).notes) {
    if (!['leaderElected', 'electionStarted', 'uncleanElection', 'modeSwitch', 'merge', 'notEnoughReplicas', 'isrShrink', 'partitionOffline', 'sspBlocked', 'fenced', 'staleWriteAccepted', '2pc.inDoubt', '2pc.resolved', 'paxos.recovered', 'leaseExpired', 'resumed', 'staleRead', 'requestTooLarge', 'epochGranted', 'metaWritten', 'lockAcquired'].includes(n.what)) continue;
    const k = seen.get(n.what) ?? 0;
    if (k >= 3) continue;
    seen.set(n.what, k + 1);
    out.add(n.t);
    out.add(Math.min(end, n.t + 120));
  }
  return [...out].sort((a, b) => a - b);
}

export function explainAt(sim: Simulation, t: number): { state: RunState; st: ExplainState } {
  const state = stateAt(sim, t);
  return { state, st: deriveExplainState({ cfg: sim.scenario.strategy, coordination: sim.scenario.coordination, security: sim.scenario.security, ix: indexOf(sim), static: staticOf(sim), state, done: t >= sim.durationMs, stepMs: sim.scenario.compute.stepMs }) };
}
