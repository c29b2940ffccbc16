import { describe, expect, it } from 'vitest';
import { buildCheckScenario, strategyConfig } from '../check/runner';
import type { KafkaCluster, KafkaRoles } from '../protocols/kafka/cluster';
import { keyOf } from '../protocols/kafka/types';
import { validateScenario } from '../scenario/validate';
import { Simulation } from './simulation';
import { strategyOf } from './testing/historyFold';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * kafka-ps counts lost and duplicated records incrementally, as the reference logs grow and shrink
 * (observer.ts). Here the counts are recomputed from scratch — every acknowledged record against
 * every reference log, as the strategy once did after every event — at many points of runs with
 * crashes, unclean elections and duplicates, and must agree.
 */
function recount(sim: Simulation): { lost: number; dups: number } {
  const { k, r } = strategyOf(sim) as unknown as { k: KafkaCluster; r: KafkaRoles };
  const acked = (r.obs as unknown as { acked: Map<string, number> }).acked;
  const keys = k.meta.map((_, p) => k.b.get(k.referenceBroker(p))!.parts[p].records.map(keyOf));
  let lost = 0;
  for (const [key, p] of acked) if (!keys[p].includes(key)) lost++;
  const dups = keys.reduce((n, ks) => n + ks.length - new Set(ks).size, 0);
  return { lost, dups };
}

describe('kafka-ps: incremental loss and duplicate counts equal a full recount', () => {
  it.each<[Record<string, unknown>]>([
    [{ acks: '1', 'unclean.leader.election.enable': true, 'enable.idempotence': false, 'request.timeout.ms': 300, 'replica.lag.time.max.ms': 1000, 'broker.session.timeout.ms': 500 }],
    [{ acks: '0', 'num.partitions': 2, 'unclean.leader.election.enable': true, 'broker.session.timeout.ms': 500 }],
  ])('%j', async (config) => {
    let sawLoss = false;
    let sawDups = false;
    for (let seed = 1; seed <= 8; seed++) {
      const conf = strategyConfig('kafka-ps', config);
      if (!conf.ok) throw new Error(conf.error);
      const { scenario, schedule } = buildCheckScenario({ kind: 'kafka-ps', seed, config, crashServers: true }, conf.cfg);
      const v = validateScenario({ ...(scenario as object), durationMs: schedule.healAt + 2000 });
      if (!v.ok) throw new Error(v.errors.join('; '));
      const sim = await Simulation.create(v.scenario, { trainer: new InstantTrainer(16, 50), sampleEveryMs: 0 });
      for (let t = 250; t <= v.scenario.durationMs; t += 250) {
        await sim.advanceTo(t);
        const want = recount(sim);
        expect({ lost: sim.metric('lostUpdates'), dups: sim.metric('duplicateUpdates') }, `seed ${seed} at ${t} ms`).toEqual({ lost: want.lost, dups: want.dups });
        sawLoss ||= want.lost > 0;
        sawDups ||= want.dups > 0;
      }
    }
    expect(sawLoss).toBe(true); // the runs exercise what they check
    if (config['enable.idempotence'] === false) expect(sawDups).toBe(true);
  });
});
