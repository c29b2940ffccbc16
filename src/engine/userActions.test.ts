import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/schema';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { Simulation } from './simulation';

/**
 * A run with a user's actions, exported as a scenario whose timeline holds them ("by": "user" at
 * the simulated time each applied), replays to the same schedule: CONTRACTS §5.
 */

const sc = (over: Partial<Scenario> = {}): Scenario => ({ ...testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 4, servers: 1 }, durationMs: 4000 }), ...over });

async function make(s: Scenario): Promise<Simulation> {
  return Simulation.create(s, { trainer: new InstantTrainer(), sampleEveryMs: 250 });
}

function exported(s: Scenario, sim: Simulation): Scenario {
  const user = sim.userActions().map(({ t, action }) => ({ at: t, by: 'user' as const, ...action }));
  return { ...s, timeline: [...s.timeline, ...user] };
}

describe('user actions replay from the exported run', () => {
  it('acting between frames (paced advances with a tiny wall budget) reproduces the hash', async () => {
    const s = sc();
    const sim = await make(s);
    let acted = 0;
    // Small budgets stop advances mid-run; the user acts whenever the page gets control.
    while (!sim.done) {
      await sim.advanceTo(sim.now() + 37.3, { wallBudgetMs: 0.01 });
      if (acted === 0 && sim.now() > 1000) acted += Number(sim.apply({ do: 'cut', from: 'w1', to: 's0' }).ok);
      if (acted === 1 && sim.now() > 2500) acted += Number(sim.apply({ do: 'crash', node: 'w2' }).ok);
      if (acted === 2 && sim.now() > 3000) acted += Number(sim.apply({ do: 'heal' }).ok);
    }
    expect(acted).toBe(3);
    const replay = await make(exported(s, sim));
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    expect(replay.userActions()).toEqual(sim.userActions());
  });

  it('acting while an advance waits for a gradient applies after that instant, as the replay does', async () => {
    const s = sc();
    const sim = await make(s);
    await sim.advanceTo(1500);
    // An advance in flight: it stops at its first completed step and awaits the value.
    const inFlight = sim.advanceTo(2500);
    expect(sim.apply({ do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3']] }).ok).toBe(true);
    await inFlight;
    await sim.runToEnd();
    const replay = await make(exported(s, sim));
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    expect(sim.userActions()).toHaveLength(1);
  });

  it('a run whose user acted differs from the scripted one (the test can fail)', async () => {
    const s = sc();
    const plain = await make(s);
    await plain.runToEnd();
    const sim = await make(s);
    await sim.advanceTo(1000);
    sim.apply({ do: 'crash', node: 'w3' });
    await sim.runToEnd();
    expect(sim.scheduleHash()).not.toBe(plain.scheduleHash());
  });
});
