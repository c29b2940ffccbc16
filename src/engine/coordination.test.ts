import { describe, expect, it } from 'vitest';
import type { CoordServerFacts } from '../protocols/facts';
import type { ScenarioInput } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = Partial<ScenarioInput>;
type Coordination = NonNullable<ScenarioInput['coordination']>;

const make = (coordination: Coordination, over: Over = {}) =>
  Simulation.create(
    testScenario({
      durationMs: 7000,
      cluster: { workers: 4, servers: 1, coord: 3 },
      compute: { stepMs: 200, jitter: 0.1 },
      network: { latencyMs: 2, jitterMs: 0.5, bandwidthMbps: 1000 },
      strategy: { kind: 'ps-async' },
      coordination: { leaseTtlMs: 1000, sessions: { w0: 'c0', w1: 'c1', w2: 'c2', w3: 'c0' }, readMeta: { key: '/ckpt/latest', everyMs: 100 }, ...coordination },
      ...over,
    }),
    { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true },
  );

const notes = (sim: Simulation, what: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);
const coordFacts = (sim: Simulation, id: string) => sim.liveNodeStates().find((n) => n.id === id)!.facts as CoordServerFacts;

/** Follower c2 hears the leader 1.5 s late from 2 s; the pointer moves at 3 s (L11 act 2, compressed). */
const lagging = [
  { at: 2000, do: 'link' as const, from: 'c0', to: 'c2', latencyMs: 1500 },
  { at: 3000, do: 'putMeta' as const, key: '/ckpt/latest', value: 'ckpt-3000' },
  { at: 6000, do: 'link' as const, from: 'c0', to: 'c2', latencyMs: 2 },
];

describe('coordination service: reads of a lagging server', () => {
  it.each([
    ['zookeeper', 'local', true],
    ['zookeeper', 'sync-then-local', false],
    ['etcd', 'serializable', true],
    ['etcd', 'linearizable', false],
  ] as const)('%s %s reads: stale reads %s', async (service, reads, stale) => {
    const sim = await make({ service, reads }, { timeline: lagging, durationMs: 9000 });
    await sim.runToEnd();
    const staleReads = sim.metric('staleReads')!;
    if (stale) {
      // Mostly w2, whose session is on the lagging c2 (another follower can be stale for the moment
      // between the leader's commit and its own).
      const byW2 = notes(sim, 'staleRead').filter((e) => e.node === 'w2').length;
      expect(byW2).toBeGreaterThan(staleReads / 2);
      expect(byW2).toBeGreaterThanOrEqual(3);
    } else expect(staleReads).toBe(0);
    // Every worker eventually reads the new pointer.
    for (const w of ['w0', 'w1', 'w2', 'w3']) expect(notes(sim, 'metaRead').some((e) => e.node === w && (e.data as { version: number }).version === 1)).toBe(true);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe.each(['etcd', 'zookeeper'] as const)('coordination service (%s): failures', (service) => {
  it('c0 starts as leader; after it crashes another server leads, and writes and locks go on', async () => {
    const sim = await make({ service }, { durationMs: 12000, strategy: { kind: 'ps-async', writeLock: 'lease', writeMode: 'set', fencing: true }, timeline: [{ at: 2000, do: 'crash', node: 'c0' }, { at: 8000, do: 'putMeta', key: '/ckpt/latest', value: 'after' }] });
    await sim.advanceTo(1900);
    expect(coordFacts(sim, 'c0')).toMatchObject({ kind: 'coord-server', service, role: 'leader', term: 1, leader: 'c0' });
    expect(coordFacts(sim, 'c1')).toMatchObject({ role: 'follower', leader: 'c0' });
    await sim.runToEnd();
    const elected = notes(sim, 'leaderElected').filter((e) => e.t > 2000);
    expect(elected.length).toBeGreaterThan(0);
    expect(elected[0].node).not.toBe('c0');
    expect(notes(sim, 'metaWritten').some((e) => e.t > 8000)).toBe(true);
    const grants = notes(sim, 'lockAcquired');
    expect(grants.some((e) => e.t > 7000)).toBe(true);
    // A token belongs to one client. (Clients may *hear* of grants out of token order — a lagging
    // server grants from an old view — which is exactly why the store must check tokens; the
    // service's own holder order is checked by the fencing-token-order invariant.)
    const owner = new Map<number, string>();
    for (const g of grants) {
      const t = (g.data as { token: number }).token;
      expect(owner.get(t) ?? g.node).toBe(g.node);
      owner.set(t, g.node!);
    }
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
  });

  it('a crashed holder keeps the lock until its lease expires (≈ the TTL), then the next waiter gets it', async () => {
    const sim = await make({ service }, { durationMs: 6000, strategy: { kind: 'ps-async', writeLock: 'lease', writeMode: 'set', fencing: true } });
    // Find the holder at 2 s and crash it.
    await sim.advanceTo(2000);
    const holder = coordFacts(sim, 'c0').locks[0].holder;
    sim.apply({ do: 'crash', node: holder });
    await sim.runToEnd();
    const expired = notes(sim, 'leaseExpired').find((e) => e.node === holder && e.t > 2000)!;
    expect(expired.t - 2000).toBeGreaterThanOrEqual(1000 - 400); // its last keep-alive was at most a third of the TTL before the crash
    expect(expired.t - 2000).toBeLessThan(1000 + 200);
    const next = notes(sim, 'lockAcquired').find((e) => e.t > 2000)!;
    expect(next.t).toBeGreaterThanOrEqual(expired.t);
    expect(next.node).not.toBe(holder);
  });
});

describe('coordination: scenario checks and the engine', () => {
  const file = (over: Record<string, unknown>) => ({ schema: 1, id: 'x', seed: 1, durationMs: 1000, cluster: { workers: 2, servers: 1, coord: 3 }, strategy: { kind: 'ps-async' }, ...over });
  const errors = (f: unknown) => {
    const r = validateScenario(f);
    return r.ok ? [] : r.errors;
  };

  it('names what is wrong with the coordination block', () => {
    expect(errors(file({ coordination: { service: 'etcd', reads: 'local' } }))).toEqual(['coordination.reads: "local" is a ZooKeeper read; etcd reads are "linearizable" or "serializable"']);
    expect(errors(file({ coordination: { service: 'zookeeper', reads: 'serializable' } }))).toEqual(['coordination.reads: "serializable" is an etcd read; ZooKeeper reads are "local" or "sync-then-local"']);
    expect(errors(file({ coordination: { sessions: { w5: 'c0', w1: 'c7' } } }))).toEqual([
      'coordination.sessions.w5: node "w5" does not exist (cluster has w0-w1, s0, c0-c2)',
      'coordination.sessions.w1: node "c7" does not exist (cluster has w0-w1, s0, c0-c2)',
    ]);
    expect(errors(file({ cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async', writeLock: 'lease' } }))).toEqual([
      'strategy.writeLock: "lease" takes its locks from a coordination service: set cluster.coord (3 is usual)',
    ]);
    expect(errors(file({ strategy: { kind: 'ps-async', fencing: true } }))).toEqual(['strategy.fencing: fencing checks the tokens of lock grants: it needs writeLock "lease"']);
    expect(errors(file({ timeline: [{ at: 10, do: 'pause', node: 'c3', ms: 100 }] }))).toEqual(['timeline[0].node: node "c3" does not exist (cluster has w0-w1, s0, c0-c2)']);
  });

  it('putMeta without a service is ignored, with a note saying why', async () => {
    const sim = await Simulation.create(testScenario({ cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async' }, timeline: [{ at: 100, do: 'putMeta', key: '/a', value: 'b' }] }), { trainer: new InstantTrainer(), sampleEveryMs: 0 });
    await sim.advanceTo(200);
    expect(notes(sim, 'actionIgnored').map((e) => e.data)).toEqual([{ reason: 'no-coordination-service' }]);
  });

  it('model.virtualParams charges every payload at the modelled size, and a too-small one is refused', async () => {
    const run = async (virtualParams?: number) => {
      const sim = await Simulation.create(
        testScenario({ durationMs: 1500, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async' }, ...(virtualParams ? { model: { dataset: 'circles', hidden: [8, 8], virtualParams } } : {}) }),
        { trainer: new InstantTrainer(105), sampleEveryMs: 0 },
      );
      await sim.runToEnd();
      return sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'send' }> => e.type === 'send' && e.kind === 'params')[0].bytes;
    };
    expect(await run()).toBe(105 * 4);
    expect(await run(1050)).toBe(1050 * 4);
    await expect(Simulation.create(testScenario({ model: { virtualParams: 10 } }), { trainer: new InstantTrainer(105) })).rejects.toThrow('model.virtualParams: 10 is below the model\'s 105 real parameters');
  });

  it('raft-ps refuses requests over maxRequestBytes: "request is too large", nothing commits', async () => {
    const sim = await Simulation.create(
      testScenario({ durationMs: 3000, cluster: { workers: 2, servers: 3 }, model: { dataset: 'circles', hidden: [8, 8], virtualParams: 1_048_576 }, strategy: { kind: 'raft-ps', maxRequestBytes: 1_572_864, fsyncMs: 10 } }),
      { trainer: new InstantTrainer(105), sampleEveryMs: 0 },
    );
    await sim.runToEnd();
    const refused = notes(sim, 'requestTooLarge');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].data).toMatchObject({ bytes: 4_194_304, limit: 1_572_864 });
    expect(sim.metric('rejectedWrites')).toBe(refused.length);
    expect(sim.metric('availability')).toBe(0);
    expect(notes(sim, 'apply')).toEqual([]);
  });
});
