import { describe, expect, it } from 'vitest';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { Simulation } from './simulation';

/**
 * `advanceTo`'s `interrupt` (the page: a user's input is waiting) ends a slice early, like the wall
 * budget: between two instants, so the run's schedule is the same however often it fires.
 */

const scenario = testScenario({ strategy: { kind: 'raft-ps' }, cluster: { workers: 4, servers: 3 }, durationMs: 3000 });
const make = (): Promise<Simulation> => Simulation.create(scenario, { trainer: new InstantTrainer(), sampleEveryMs: 250 });

describe('an interrupted advance', () => {
  it('stops between instants and leaves the schedule as an uninterrupted run makes it', async () => {
    const plain = await make();
    await plain.runToEnd();

    const sim = await make();
    // A fixed pseudo-random pattern of "input waiting" answers (an LCG: the test is reproducible).
    let x = 12345;
    const interrupt = (): boolean => ((x = (x * 1103515245 + 12345) % 2 ** 31) & 7) === 0;
    let slices = 0;
    let cutShort = 0;
    while (!sim.done) {
      const target = Math.min(sim.now() + 500, sim.durationMs);
      await sim.advanceTo(target, { interrupt });
      slices++;
      const next = sim.nextEventTime();
      if (sim.now() < target && !sim.done) {
        cutShort++;
        // Every event at or before the instant it stopped at has run.
        expect(next === null || next > sim.now()).toBe(true);
      }
    }
    expect(cutShort).toBeGreaterThan(10); // the interrupt did cut slices
    expect(slices).toBeGreaterThan(cutShort);
    expect(sim.scheduleHash()).toBe(plain.scheduleHash());
  });

  it('an interrupt that never fires leaves the slice to the target', async () => {
    const sim = await make();
    await sim.advanceTo(1000, { interrupt: () => false });
    expect(sim.now()).toBe(1000);
  });
});
