import { describe, expect, it } from 'vitest';
import { InstantTrainer } from '../testing/instantTrainer';
import { testScenario } from '../testing/scenarios';
import { Simulation } from '../simulation';

/**
 * The history index takes an action's network effect from sim/faults.ts, as the engine's network
 * does: the links it derives for a time t equal what the live run had at t.
 */
describe('links at t', () => {
  it('equal the history index and the live network at every action time', async () => {
    const sc = testScenario({
      strategy: { kind: 'ps-async' },
      cluster: { workers: 4, servers: 1 },
      durationMs: 3000,
      timeline: [
        { at: 300, do: 'cut', from: 'w1', to: 's0', oneWay: true },
        { at: 600, do: 'link', from: 'w2', to: 's0', latencyMs: 30, loss: 0.1 },
        { at: 900, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] },
        { at: 1200, do: 'restore', from: 'w1', to: 's0' },
        { at: 1500, do: 'heal' },
        { at: 1800, do: 'link', from: 'w2', to: 's0', oneWay: true, jitterMs: 0 },
      ],
    });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0 });
    const live = new Map<number, unknown>();
    const view = (ls: ReadonlyArray<{ from: string; to: string; cut: boolean; partitioned: boolean; props: object }>) =>
      ls.map((l) => ({ from: l.from, to: l.to, cut: l.cut, partitioned: l.partitioned, props: l.props }));
    for (const t of [100, 300, 600, 900, 1200, 1500, 1800, 2500]) {
      await sim.advanceTo(t);
      live.set(t, view(sim.links()));
    }
    await sim.runToEnd();
    for (const [t, links] of live) {
      expect(view(sim.stateAt(t).links), `t=${t}`).toEqual(links);
    }
    // The test can fail: the run did change the network.
    expect(live.get(900)).not.toEqual(live.get(100));
    // Built once per change of the faults (a view reads them every frame), and still right
    // when read out of order, as a scrub does.
    expect(sim.stateAt(700).links).toBe(sim.stateAt(650).links);
    expect(sim.stateAt(950).links).not.toBe(sim.stateAt(700).links);
    for (const t of [2500, 100, 1200, 900, 1800, 300]) expect(view(sim.stateAt(t).links), `again t=${t}`).toEqual(live.get(t));
  });
});
