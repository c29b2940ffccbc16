import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

/**
 * A cluster may have servers its strategy does not use: switching raft-ps-majority's strategy to
 * ps-sync keeps its five servers, and a scenario file may list more. Faults on such a server are
 * the user's to make and must leave the run going (a crash of s1 under ps-sync stopped the
 * engine: "Cannot read properties of undefined"; degrade failed on any server's crash).
 */
const strategies = [
  { kind: 'allreduce', servers: 2 },
  { kind: 'ps-async', servers: 3 },
  { kind: 'ps-async', servers: 3, writeLock: 'lease' },
  { kind: 'ps-sync', servers: 3 },
  { kind: 'ssp', servers: 3 },
  { kind: 'degrade', servers: 2 },
] as const;

describe('faults on a server the strategy does not use', () => {
  for (const { kind, servers, ...knobs } of strategies) {
    const lock = 'writeLock' in knobs;
    it(`${kind}${lock ? ' under a lock' : ''}: crash, restart, pause, slow and cuts of s${servers - 1} leave the run going and the workers training`, async () => {
      const idle = `s${servers - 1}`;
      const timeline: NonNullable<ScenarioInput['timeline']> = [
        { at: 800, do: 'crash', node: idle },
        { at: 1500, do: 'restart', node: idle },
        { at: 1800, do: 'pause', node: idle, ms: 400 },
        { at: 2500, do: 'slow', node: idle, factor: 3 },
        { at: 2700, do: 'cut', from: idle, to: 'w0' },
        { at: 3000, do: 'partition', groups: [['w0', 'w1', idle], ['w2', 'w3']] },
        { at: 3500, do: 'heal' },
        { at: 3600, do: 'crash', node: idle },
      ];
      const sc = testScenario({ cluster: { workers: 4, servers, ...(lock ? { coord: 3 } : {}) }, strategy: { kind, ...knobs }, durationMs: 5000, timeline });
      const sim = await Simulation.create(sc, { trainer: new InstantTrainer() });
      await sim.runToEnd();
      expect(sim.failure).toBeNull();
      // It stays idle: a restart does not make it act as a worker (ps-async's did: it pulled from s0).
      expect(sim.history.events.filter((e) => e.type === 'send' && e.from === idle)).toEqual([]);
      // Training went on past the faults: every worker stepped after the last crash of the idle server.
      for (const w of ['w0', 'w1', 'w2', 'w3']) {
        const steps = sim.history.events.filter((e) => e.type === 'stepDone' && e.node === w && e.t > 3700);
        expect(steps.length, w).toBeGreaterThan(0);
      }
    });
  }
});
