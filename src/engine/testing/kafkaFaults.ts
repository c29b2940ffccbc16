import { rngFor } from '../../sim/rng';
import type { Action } from '../../sim/types';
import { Simulation } from '../simulation';
import { InstantTrainer } from './instantTrainer';
import { testScenario } from './scenarios';

/**
 * Random leader crashes for kafka-ps (tests and the loss measurement in bench/kafkaLoss.ts): each
 * episode finds partition 0's current leader, with probability 0.6 first cuts it off from the other
 * brokers for up to 2 s (so its tail is not replicated, or the ISR shrinks to it), crashes it, and
 * restarts it and heals 0.5–2.5 s later. Seeded, so a seed names one run.
 */
export async function runWithLeaderCrashes(seed: number, knobs: Record<string, unknown>, durationMs = 12000): Promise<Simulation> {
  const sc = testScenario({
    seed,
    durationMs,
    cluster: { workers: 4, servers: 2, brokers: 3 },
    strategy: { kind: 'kafka-ps', 'replica.lag.time.max.ms': 1000, 'broker.session.timeout.ms': 500, 'request.timeout.ms': 1000, ...knobs } as never,
  });
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0 });
  const rng = rngFor(seed, 'kafka-faults');
  const episodes = rng.int(1, 3);
  let t = 500;
  for (let i = 0; i < episodes && t < durationMs - 3000; i++) {
    t += rng.int(500, 2500);
    await sim.advanceTo(t);
    const leader = sim.liveNodeStates().find((n) => n.up && n.facts?.kind === 'kafka-broker' && n.facts.parts.some((p) => p.p === 0 && p.role === 'leader'))?.id;
    if (!leader) continue;
    const others = sim.nodes().filter((n) => n.role === 'broker' && n.id !== leader).map((n) => n.id);
    const act = (a: Action) => sim.apply(a, 'timeline');
    if (rng.next() < 0.6) {
      for (const o of others) act({ do: 'cut', from: leader, to: o });
      t += rng.int(0, 2000);
      await sim.advanceTo(t);
    }
    act({ do: 'crash', node: leader });
    t += rng.int(500, 2500);
    await sim.advanceTo(t);
    act({ do: 'heal' });
    act({ do: 'restart', node: leader });
  }
  await sim.advanceTo(durationMs);
  return sim;
}
