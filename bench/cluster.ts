import { Simulation } from '../src/engine/simulation';
import type { Scenario } from '../src/scenario/schema';
import { rngFor } from '../src/sim/rng';
import { loadModelData } from '../src/train/modelData';
import type { Trainer } from '../src/train/types';
import type { Sha256Factory } from '../src/sim/history';
import { benchBatches } from './batches';

/**
 * Cluster training throughput at "max" speed — every simulation, protocol and messaging cost
 * included — in gradient steps per wall-clock second. Loss sampling for the charts is off (the
 * bare loop evaluates nothing either). Shared by the Node bench and the browser bench page.
 */
export async function clusterStepsPerSec(
  scenario: Scenario,
  trainer: Trainer,
  sha256?: Sha256Factory,
): Promise<{ stepsPerSec: number; steps: number; wallMs: number; events: number }> {
  const sim = await Simulation.create(scenario, { trainer, sampleEveryMs: 0, sha256 });
  const t0 = performance.now();
  await sim.runToEnd();
  const wallMs = performance.now() - t0;
  const steps = sim.metric('steps') ?? 0;
  return { stepsPerSec: (steps / wallMs) * 1000, steps, wallMs, events: sim.history.length };
}

/**
 * Runs the cluster until it has taken at least `steps` gradient steps (one run at least), so that
 * the engine's code is compiled before it is timed as the bare loop's is, by a turn of as many
 * steps: after one 2-s run (34 steps) V8 was still optimising it — four 20-s runs in a row took
 * 583, 165, 79 and 36 µs a step of engine time (Node, allreduce with a stand-in gradient).
 */
export async function warmUp(scenario: Scenario, trainer: Trainer, steps: number, sha256?: Sha256Factory): Promise<void> {
  for (let done = 0; done < steps; ) {
    const r = await clusterStepsPerSec(scenario, trainer, sha256);
    if (r.steps === 0) return;
    done += r.steps;
  }
}

/** A fault-free training scenario: the throughput workload, optionally with other hidden layers. */
export function throughputScenario(base: Scenario, durationMs: number, hidden?: number[]): Scenario {
  const model = hidden ? { ...base.model, hidden } : base.model;
  return { ...base, id: `${base.id}-throughput`, durationMs, model, timeline: [], expect: [] };
}

export async function bareStepsPerSec(scenario: Scenario, steps: number, run: (draws: Uint32Array[]) => Promise<number>): Promise<number> {
  // The training set has model.samples rows for every dataset (a prefix of the image subset).
  const draws = benchBatches(steps, scenario.model.batchSize, scenario.model.samples, rngFor(scenario.seed, 'bench'));
  return run(draws);
}

/** The bare loop on this thread (Node). Imported here, not above: the bench page shares this module and keeps tfjs off its main thread. */
export async function bareInProcess(scenario: Scenario) {
  const [{ train }, { bareTrainingLoop }] = await Promise.all([loadModelData(scenario.model, scenario.seed), import('../src/train/bareLoop')]);
  return (draws: Uint32Array[]) => bareTrainingLoop(scenario.model, train, draws, scenario.seed);
}
