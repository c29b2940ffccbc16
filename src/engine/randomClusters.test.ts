import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strategies } from '../protocols';
import { validateScenario } from '../scenario/validate';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { valuedButUnmeasured } from './testing/measuredCheck';

/**
 * Any valid scenario runs to its end: random clusters — servers and brokers beyond what the
 * strategy uses, a coordination service or none, an integrity setting — under random faults on any
 * node (crashes, restarts, pauses, slow nodes, cuts, partitions, lossy links, forced timeouts,
 * tampering, Byzantine workers, metadata writes). The checker (src/check) judges protocols on
 * their own clusters; this asks only that no user-made scenario stops the engine (a crash of an
 * idle server under ps-sync, or of a broker under Raft, did), and that every metric it gives a
 * value to is one an expectation may name. Invalid draws are skipped: the validator names those.
 */
const ACTIONS = ['crash', 'restart', 'pause', 'slow', 'cut', 'restore', 'partition', 'heal', 'link', 'timeout', 'tamper', 'untamper', 'byzantine', 'honest', 'putMeta'] as const;

const draw = fc.record({
  kind: fc.constantFrom(...strategies.map((s) => s.kind)),
  workers: fc.integer({ min: 2, max: 7 }),
  extraServers: fc.integer({ min: 0, max: 2 }),
  extraBrokers: fc.integer({ min: 0, max: 1 }),
  coord: fc.option(fc.constantFrom('etcd', 'zookeeper'), { nil: undefined }),
  integrity: fc.option(fc.constantFrom('sha256', 'hmac', 'tls'), { nil: undefined }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  // Each fault: when, what, and two nodes and a split picked by index from the cluster's list.
  // Crashes and restarts drawn most often: what a node does when it comes back is where runs broke.
  faults: fc.array(fc.record({ at: fc.integer({ min: 100, max: 5000 }), what: fc.oneof({ weight: 2, arbitrary: fc.constantFrom('crash', 'restart') }, { weight: 3, arbitrary: fc.constantFrom(...ACTIONS) }), a: fc.nat(), b: fc.nat(), split: fc.nat() }), { maxLength: 10 }),
});

type Draw = typeof draw extends fc.Arbitrary<infer T> ? T : never;

function scenarioOf(d: Draw): unknown {
  const info = strategies.find((s) => s.kind === d.kind)!;
  const servers = (info.needs.servers ?? 0) + d.extraServers;
  const brokers = (info.needs.brokers ? 3 : 0) + d.extraBrokers;
  const coord = d.coord ? 3 : 0;
  const ids = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`);
  const workers = ids('w', d.workers);
  const nodes = [...workers, ...ids('s', servers), ...ids('b', brokers), ...ids('c', coord)];
  const timeline = d.faults
    .map((f) => {
      const n = nodes[f.a % nodes.length];
      const others = nodes.filter((x) => x !== n);
      const m = others[f.b % others.length];
      const w = workers[f.a % workers.length];
      switch (f.what) {
        case 'crash':
        case 'restart':
        case 'timeout':
          return { at: f.at, do: f.what, node: n };
        case 'pause':
          return { at: f.at, do: 'pause', node: n, ms: 300 };
        case 'slow':
          return { at: f.at, do: 'slow', node: n, factor: 3 };
        case 'cut':
        case 'restore':
        case 'untamper':
          return { at: f.at, do: f.what, from: n, to: m };
        case 'link':
          return { at: f.at, do: 'link', from: n, to: m, loss: 0.2, duplicate: 0.1 };
        case 'partition': {
          const a = nodes.filter((_, i) => (f.split >> i) & 1);
          const b = nodes.filter((x) => !a.includes(x));
          return a.length && b.length ? { at: f.at, do: 'partition', groups: [a, b] } : { at: f.at, do: 'heal' };
        }
        case 'heal':
          return { at: f.at, do: 'heal' };
        case 'tamper':
          return { at: f.at, do: 'tamper', from: w, to: m === w ? n : m, attack: 'flip' };
        case 'byzantine':
          return { at: f.at, do: 'byzantine', node: w, attack: 'sign-flip' };
        case 'honest':
          return { at: f.at, do: 'honest', node: w };
        case 'putMeta':
          return coord ? { at: f.at, do: 'putMeta', key: '/k', value: 'v' } : { at: f.at, do: 'heal' };
      }
    })
    .sort((x, y) => x.at - y.at);
  return {
    schema: 1,
    id: 'random-cluster',
    seed: d.seed,
    durationMs: 6000,
    cluster: { workers: d.workers, servers, brokers, ...(coord ? { coord } : {}) },
    ...(d.coord ? { coordination: { service: d.coord } } : {}),
    ...(d.integrity ? { security: { integrity: d.integrity } } : {}),
    model: { dataset: 'xor', hidden: [2], batchSize: 4, learningRate: 0.1, samples: 50 },
    compute: { stepMs: 100, jitter: 0.2 },
    strategy: { kind: d.kind },
    timeline,
  };
}

describe('random clusters under random faults', () => {
  it('every valid draw runs to its end without stopping the engine', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(draw, async (d) => {
        const v = validateScenario(scenarioOf(d));
        if (!v.ok) return;
        ran++;
        const sim = await Simulation.create(v.scenario, { trainer: new InstantTrainer(16, 50), sampleEveryMs: 200 });
        await sim.runToEnd();
        expect(sim.failure).toBeNull();
        // And what it measured is what the validator lets an expectation name (scenario/measured.ts).
        expect(valuedButUnmeasured(v.scenario, sim.index().metrics)).toEqual([]);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 120), seed: Number(process.env.FC_SEED ?? 20261206) },
    );
    // Most draws are valid (a tamper needs a parameter server's updates, a link two nodes): the property is not vacuous.
    expect(ran).toBeGreaterThan(Number(process.env.FC_RUNS ?? 120) / 2);
  });
});
