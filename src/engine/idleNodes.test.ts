import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

/**
 * A cluster may have nodes its strategy does not use: a scenario file may list more servers than a
 * single parameter server needs, or brokers beside Raft. Faults on such a node are the user's to
 * make and must leave the run going (a crash of s1 under ps-sync stopped the engine: "Cannot read
 * properties of undefined"; degrade failed on any server's crash; Raft on a broker's).
 */
const strategies = [
  { kind: 'allreduce', servers: 2 },
  { kind: 'ps-async', servers: 3 },
  { kind: 'ps-async', servers: 3, writeLock: 'lease' },
  { kind: 'ps-sync', servers: 3 },
  { kind: 'ssp', servers: 3 },
  { kind: 'degrade', servers: 2 },
] as const;

/** Brokers belong to Kafka alone; a scenario switched from a Kafka lesson to Raft kept them (crash b1 stopped the engine). */
const brokerless = [
  { kind: 'allreduce', servers: 0 },
  { kind: 'ps-async', servers: 1 },
  { kind: 'ps-sync', servers: 1 },
  { kind: 'ssp', servers: 1 },
  { kind: 'degrade', servers: 0 },
  { kind: 'raft-ps', servers: 3 },
  { kind: 'paxos-ps', servers: 3 },
  { kind: '2pc-ps', servers: 3 },
] as const;

describe('faults on a broker the strategy does not use', () => {
  for (const { kind, servers } of brokerless) {
    it(`${kind}: crash, restart, pause and a partition of b0 leave the run going`, async () => {
      const timeline: NonNullable<ScenarioInput['timeline']> = [
        { at: 800, do: 'crash', node: 'b0' },
        { at: 1500, do: 'restart', node: 'b0' },
        { at: 1800, do: 'pause', node: 'b0', ms: 400 },
        { at: 2500, do: 'slow', node: 'b0', factor: 3 },
        { at: 3000, do: 'partition', groups: [['w0', 'w1', 'b0'], ['w2', 'w3']] },
        { at: 3500, do: 'heal' },
        { at: 3600, do: 'crash', node: 'b0' },
      ];
      const sc = testScenario({ cluster: { workers: 4, servers, brokers: 1 }, strategy: { kind }, durationMs: 5000, timeline });
      const sim = await Simulation.create(sc, { trainer: new InstantTrainer() });
      await sim.runToEnd();
      expect(sim.failure).toBeNull();
      expect(sim.history.events.filter((e) => e.type === 'send' && e.from === 'b0')).toEqual([]);
    });
  }
});

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
