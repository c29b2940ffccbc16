import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveVariant, validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import { LocalTrainer } from '../train/localTrainer';
import type { Trainer } from '../train/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * L8 (CURRICULUM §L8) on seeds it was not calibrated on: its shapes are properties of the
 * protocols, not of seed 61. 2PC stops whenever any participant is down and blocks in doubt when
 * the coordinator fails after PREPARE; the majority protocol keeps choosing while a majority lives
 * and stops without one. Availability is about which steps commit, so the stand-in trainer (the
 * same parameter count, no tfjs) runs the same schedule.
 */
const file = new URL('../../public/scenarios/paxos-vs-2pc.json', import.meta.url);

function lesson(): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(file, 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

async function failures(sc: Scenario): Promise<string[]> {
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(105, sc.model.samples), sampleEveryMs: 0 });
  const s = await sim.runToEnd();
  return s.expectations.filter((e) => !e.pass).map((e) => `${e.metric} ${e.op} ${e.value} at ${e.at}: ${e.actual}`);
}

describe('L8 paxos-vs-2pc: the shapes hold on fresh seeds', () => {
  const base = lesson();
  const tpc = resolveVariant(base, '2pc');
  if (!tpc.ok) throw new Error(tpc.errors.join('\n'));

  it.each([1, 2, 3, 1009, 4242, 90001])('seed %i: majority (Multi-Paxos) and 2pc meet every expectation', async (seed) => {
    expect(await failures({ ...base, seed })).toEqual([]);
    expect(await failures({ ...tpc.scenario, seed })).toEqual([]);
  });

  it('the stand-in trainer runs the lesson’s own schedule: the schedule hash equals the tfjs run’s', async () => {
    const hash = async (trainer: Trainer) => {
      const sim = await Simulation.create(base, { trainer });
      await sim.runToEnd();
      return sim.scheduleHash();
    };
    const real = await LocalTrainer.create({ model: base.model, seed: base.seed, backend: 'cpu' });
    expect(await hash(new InstantTrainer(real.paramCount, real.samples))).toBe(await hash(real));
  });
});
