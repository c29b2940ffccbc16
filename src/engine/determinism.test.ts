import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import { LocalTrainer } from '../train/localTrainer';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';

function builtin(id: string): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(new URL(`../../public/scenarios/${id}.json`, import.meta.url), 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

async function run(sc: Scenario, backend: 'cpu' | 'wasm' | 'instant' = 'cpu') {
  const trainer = backend === 'instant' ? new InstantTrainer(105, sc.model.samples) : await LocalTrainer.create({ model: sc.model, seed: sc.seed, backend });
  const sim = await Simulation.create(sc, { trainer });
  return sim.runToEnd();
}

describe.each(['allreduce-partition', 'async-partition'])('determinism of %s', (id) => {
  it('same scenario and seed ⇒ the same schedule and event-log hashes', async () => {
    const sc = builtin(id);
    const a = await run(sc);
    const b = await run(sc);
    expect(a.scheduleHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.scheduleHash).toBe(a.scheduleHash);
    expect(b.eventLogHash).toBe(a.eventLogHash);
    expect(b.metrics).toEqual(a.metrics);
  });

  it('another seed ⇒ other hashes', async () => {
    const sc = builtin(id);
    const a = await run(sc);
    const b = await run({ ...sc, seed: sc.seed + 1 });
    expect(b.scheduleHash).not.toBe(a.scheduleHash);
    expect(b.eventLogHash).not.toBe(a.eventLogHash);
  });

  it('the schedule does not depend on training values: real tfjs and a stand-in trainer agree', async () => {
    // The schedule hash leaves out every value (losses, parameter fingerprints), so it must be equal
    // whatever computes the gradients — which is why it can be compared across backends and browsers.
    const sc = builtin(id);
    const real = await run(sc, 'cpu');
    const stand = await run(sc, 'instant');
    expect(stand.scheduleHash).toBe(real.scheduleHash);
    expect(stand.eventLogHash).not.toBe(real.eventLogHash);
  });
});
