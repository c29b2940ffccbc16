import { runStateAt } from '../src/engine/index/runState';
import { Simulation } from '../src/engine/simulation';
import { InstantTrainer } from '../src/engine/testing/instantTrainer';
import { testScenario } from '../src/engine/testing/scenarios';
import { loadExplain } from '../src/app/explain';
import { viewModelAt } from '../src/app/views/viewModel';
import { rngFor } from '../src/sim/rng';
import type { Sha256Factory } from '../src/sim/history';

/**
 * Seeking (scrubbing) in a long run: a 60 s, 16-worker raft-ps run (5 servers, a leader crash and
 * a partition), then the state at random times — the history index answers each with one binary
 * search per entity, no replay — and the whole screen's data at those times (every view model and
 * sentence). Milliseconds per seek, mean and worst; the first seek also builds the index.
 */
export async function seekBench(sha256?: Sha256Factory) {
  const sc = testScenario({
    durationMs: 60_000,
    cluster: { workers: 16, servers: 5 },
    strategy: { kind: 'raft-ps' },
    timeline: [
      { at: 15_000, do: 'crash', node: '@leader' },
      { at: 25_000, do: 'restart', node: '@crashed' },
      { at: 35_000, do: 'partition', groups: [['s0', 's1', 'w0', 'w1', 'w2', 'w3'], ['s2', 's3', 's4']] },
      { at: 45_000, do: 'heal' },
    ],
  });
  const [sim] = await Promise.all([Simulation.create(sc, { trainer: new InstantTrainer(), sha256 }), loadExplain(sc.strategy)]);
  await sim.runToEnd();
  const t0 = performance.now();
  const ix = sim.index();
  const indexMs = performance.now() - t0;
  const rng = rngFor(1, 'seek');
  const times = Array.from({ length: 200 }, () => Math.floor(rng.next() * sim.durationMs));
  const st = sim.runStatic();
  const seek: number[] = [];
  for (const t of times) {
    const a = performance.now();
    runStateAt(ix, st, t);
    seek.push(performance.now() - a);
  }
  const view: number[] = [];
  for (const t of times.slice(0, 50)) {
    const a = performance.now();
    viewModelAt(sim, t, 'en');
    view.push(performance.now() - a);
  }
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  return {
    events: sim.history.length,
    indexMs: Number(indexMs.toFixed(1)),
    seekMeanMs: Number(mean(seek).toFixed(3)),
    seekMaxMs: Number(Math.max(...seek).toFixed(3)),
    screenMeanMs: Number(mean(view).toFixed(3)),
    screenMaxMs: Number(Math.max(...view).toFixed(3)),
  };
}
