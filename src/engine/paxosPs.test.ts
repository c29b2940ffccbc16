import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaxosPsStrategy } from '../protocols/paxos/paxosPs';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = NonNullable<Parameters<typeof testScenario>[0]>;
const SERVERS = ['s0', 's1', 's2', 's3', 's4'];

const scenario = (over: Over = {}, knobs: Record<string, unknown> = {}) =>
  testScenario({ cluster: { workers: 4, servers: 5 }, durationMs: 8000, strategy: { kind: 'paxos-ps', ...knobs } as never, ...over });

const make = (over: Over = {}, knobs: Record<string, unknown> = {}) => Simulation.create(scenario(over, knobs), { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true });

const paxos = (sim: Simulation) => (sim as unknown as { strategy: PaxosPsStrategy }).strategy;
type Note = Extract<HistoryEvent, { type: 'note' }>;
const notes = <K extends Note['what']>(sim: Simulation, what: K, from = 0, to = Infinity) =>
  sim.history.events.filter((e): e is Extract<Note, { what: K }> => e.type === 'note' && e.what === what && e.t >= from && e.t <= to);
const leader = (sim: Simulation) => paxos(sim).resolveSelector('@leader');
const facts = (sim: Simulation, node: string) => [...sim.history.events].reverse().find((e): e is Extract<HistoryEvent, { type: 'facts' }> => e.type === 'facts' && e.node === node)?.f;

describe('paxos-ps: leadership', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: one leader after phase 1, within 2× the maximum election timeout, then every update is chosen', async (seed) => {
    const sim = await make({ seed, durationMs: 3000 });
    await sim.advanceTo(3000);
    const elected = notes(sim, 'leaderElected');
    expect(elected.length).toBeGreaterThanOrEqual(1);
    expect(elected[0].t).toBeGreaterThanOrEqual(150);
    expect(elected[0].t).toBeLessThan(600);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('versionConflicts')).toBe(0);
    expect(sim.metric('commitIndex')!).toBeGreaterThan(40);
    const l = leader(sim)!;
    expect(facts(sim, l)).toMatchObject({ kind: 'paxos-server', role: 'leader', leader: l, ballot: paxos(sim).server(l).v.ballot });
    expect(facts(sim, 'w0')).toMatchObject({ kind: 'paxos-client' });
    // Followers learn the chosen prefix from the leader's next accept or heartbeat.
    for (const s of SERVERS) expect(sim.metric('commitIndex')! - sim.metric('commitIndex', s)!).toBeLessThanOrEqual(8);
  });

  it('the timeout action starts phase 1 on a follower with a higher ballot; a leader ignores it', async () => {
    const sim = await make({ durationMs: 3000 });
    await sim.advanceTo(1000);
    const l = leader(sim)!;
    const before = sim.metric('term')!;
    const f = SERVERS.find((s) => s !== l)!;
    expect(sim.apply({ do: 'timeout', node: l })).toEqual({ ok: true });
    expect(notes(sim, 'timeoutIgnored').map((e) => e.node)).toEqual([l]);
    sim.apply({ do: 'timeout', node: f });
    expect(paxos(sim).server(f).v.role).toBe('candidate');
    expect(paxos(sim).server(f).v.ballot).toBeGreaterThan(before);
    await sim.advanceTo(3000);
    expect(leader(sim)).toBe(f);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('paxos-ps: a majority is enough (2f + 1 tolerate f)', () => {
  it('with any f = 2 of 5 servers down it keeps choosing; with 3 down it stops; it resumes after restarts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100_000 }), fc.subarray(SERVERS, { minLength: 1, maxLength: 4 }), async (seed, down) => {
        const timeline: Over['timeline'] = [...down.map((node) => ({ at: 1000, do: 'crash' as const, node })), ...down.map((node) => ({ at: 5000, do: 'restart' as const, node }))];
        const sim = await make({ seed, durationMs: 8000, timeline });
        await sim.advanceTo(5000);
        const chosen = notes(sim, 'apply', 1100, 5000).length;
        if (down.length <= 2) {
          expect(sim.metric('availability'), `${down} down`).toBe(1);
          expect(chosen).toBeGreaterThan(30);
        } else {
          expect(chosen, `${down} down`).toBe(0);
          expect(sim.metric('availability')).toBe(0);
        }
        await sim.advanceTo(8000);
        expect(sim.metric('availability')).toBe(1);
        expect(sim.metric('violations')).toBe(0);
        expect(sim.metric('lostUpdates')).toBe(0);
      }),
      { numRuns: 16, seed: 61 },
    );
  }, 120_000);
});

describe('paxos-ps: a new leader', () => {
  it('recovers the values its predecessor had proposed (phase 1 over all slots) before proposing its own', async () => {
    let seen = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const sim = await make({ seed, durationMs: 5000 });
      await sim.advanceTo(1500);
      const old = leader(sim)!;
      // Crash the leader when one of its proposals has been accepted by a follower but is not chosen yet.
      const accepted = () => [...paxos(sim).server(old).v.pending.values()].some((p) => p.acks.size >= 2);
      while (!accepted()) await sim.stepEvent();
      const pendingUids = [...paxos(sim).server(old).v.pending.values()].filter((p) => p.acks.size >= 2).map((p) => p.value.uid);
      sim.apply({ do: 'crash', node: old });
      await sim.advanceTo(5000);
      const rec = notes(sim, 'paxos.recovered', 1500);
      expect(rec.length).toBeGreaterThanOrEqual(1);
      seen += rec[0].data.recovered;
      // Whatever a follower accepted was re-proposed by the next leader if a promise reported it, and
      // chosen: it is in every up-to-date learner's log.
      const l = leader(sim)!;
      const chosen = new Set(paxos(sim).server(l).d.chosen.map((c) => c.value.uid));
      if (rec[0].data.recovered > 0) expect(pendingUids.some((u) => chosen.has(u))).toBe(true);
      expect(sim.metric('violations')).toBe(0);
      expect(sim.metric('lostUpdates')).toBe(0);
      expect(sim.metric('availability')).toBe(1);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('fills with no-ops the slots no promise reports below one that is reported', async () => {
    // The leader is cut off with one follower, A, over a lossy link: A accepts some of its slots and
    // misses others; the leader crashes before it re-sends. A new leader whose promises include A's
    // sees slots with values above slots without: the gaps become no-ops.
    let noops = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const sim = await make({ seed, durationMs: 5000 });
      await sim.advanceTo(2000);
      const old = leader(sim)!;
      const a = SERVERS.find((x) => x !== old)!;
      sim.apply({ do: 'partition', groups: [[old, a, 'w0', 'w1', 'w2', 'w3'], SERVERS.filter((x) => x !== old && x !== a)] });
      sim.apply({ do: 'link', from: old, to: a, oneWay: true, loss: 0.6 });
      await sim.advanceTo(2140);
      sim.apply({ do: 'crash', node: old });
      sim.apply({ do: 'heal' });
      sim.apply({ do: 'link', from: old, to: a, oneWay: true, loss: 0 });
      await sim.advanceTo(5000);
      for (const r of notes(sim, 'paxos.recovered', 2140)) noops += r.data.noops;
      expect(sim.metric('violations')).toBe(0);
      expect(sim.metric('lostUpdates')).toBe(0);
      expect(sim.metric('availability')).toBe(1);
      // A no-op is chosen in the gap, and applied like any slot: every replica agrees on the order.
      expect(sim.metric('versionConflicts')).toBe(0);
    }
    expect(noops).toBeGreaterThan(0);
  });

  it('3|2 partition with the leader in the minority: the majority elects and chooses, the minority chooses nothing, and heals without conflict', async () => {
    const sim = await make({ durationMs: 9000 });
    await sim.advanceTo(2000);
    const old = leader(sim)!;
    const buddy = SERVERS.find((s) => s !== old)!;
    const major = SERVERS.filter((s) => s !== old && s !== buddy);
    sim.apply({ do: 'partition', groups: [[...major, 'w2', 'w3'], [old, buddy, 'w0', 'w1']] });
    const at = { chosen: sim.metric('commitIndex', old)!, steps: sim.metric('steps', 'w2')! };
    await sim.advanceTo(5900);
    const l = leader(sim)!;
    expect(major).toContain(l);
    expect(sim.metric('commitIndex', l)!).toBeGreaterThan(at.chosen + 20);
    expect(sim.metric('availability', 'w2')).toBe(1);
    expect(sim.metric('availability', 'w0')).toBe(0);
    expect(sim.metric('commitIndex', old)).toBe(at.chosen); // it may still think it leads; it chooses nothing
    expect(sim.metric('staleReads')).toBe(0); // its reads cannot confirm a majority: none answered
    sim.apply({ do: 'heal' });
    await sim.advanceTo(9000);
    expect(sim.metric('leaders')).toBe(1);
    expect(Math.abs(sim.metric('commitIndex', old)! - sim.metric('commitIndex', leader(sim)!)!)).toBeLessThanOrEqual(8);
    expect(sim.metric('availability', 'w0')).toBe(1);
    expect(sim.metric('versionConflicts')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('paxos-ps: nodes it does not use', () => {
  it('brokers left in the cluster (switching from kafka-ps) have empty views and survive crash and restart', async () => {
    const sim = await make({ cluster: { workers: 4, servers: 5, brokers: 2 }, durationMs: 2000, timeline: [{ at: 500, do: 'crash', node: 'b1' }, { at: 900, do: 'restart', node: 'b1' }] });
    await sim.advanceTo(2000);
    expect(sim.failure).toBeNull();
    const b0 = sim.liveNodeStates().find((n) => n.id === 'b0')!;
    expect(b0.up).toBe(true);
    expect(b0.facts).toBeNull();
    expect(sim.metric('availability')).toBe(1);
  });
});

describe('paxos-ps: stable storage', () => {
  it('a server keeps its promise, accepted values, ballot and chosen values across a crash; it replays its replica', async () => {
    const sim = await make({ durationMs: 5000 });
    await sim.advanceTo(2000);
    const f = SERVERS.find((s) => s !== leader(sim))!;
    const before = paxos(sim).server(f);
    const kept = { promised: before.d.promised, accepted: before.d.accepted.slice(), chosen: before.d.chosen.slice(), version: before.v.sm.version };
    expect(kept.chosen.length).toBeGreaterThan(20);
    sim.apply({ do: 'crash', node: f });
    await sim.advanceTo(3000);
    sim.apply({ do: 'restart', node: f });
    const after = paxos(sim).server(f);
    expect(after.d.promised).toBe(kept.promised);
    expect(after.d.accepted).toEqual(kept.accepted);
    expect(after.d.chosen).toEqual(kept.chosen);
    expect(after.v.sm.version).toBe(kept.version); // replayed from the chosen values
    expect(after.v.role).toBe('follower');
    await sim.advanceTo(5000);
    expect(sim.metric('commitIndex')! - sim.metric('commitIndex', f)!).toBeLessThanOrEqual(8);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('paxos-ps: randomized faults', () => {
  it('no violation, no lost update, no stale read over seeds × partitions × crashes × pauses × forced timeouts × loss × duplication; new leaders recover values', async () => {
    const serverId = fc.constantFrom(...SERVERS);
    const fault = fc.oneof(
      fc.record({ do: fc.constant('crash' as const), node: fc.oneof(serverId, fc.constant('@leader'), fc.constantFrom('w0', 'w1')) }),
      fc.record({ do: fc.constant('restart' as const), node: fc.constant('@crashed') }),
      fc.record({ do: fc.constant('partition' as const), groups: fc.shuffledSubarray([...SERVERS, 'w0', 'w1', 'w2'], { minLength: 1, maxLength: 4 }).map((g) => [g, ['w3']]) }),
      fc.record({ do: fc.constant('heal' as const) }),
      fc.record({ do: fc.constant('timeout' as const), node: serverId }),
      // A process freeze: what reaches it (promises, accepts, forced timeouts) waits for the resume.
      fc.record({ do: fc.constant('pause' as const), node: fc.oneof(serverId, fc.constant('@leader')), ms: fc.integer({ min: 100, max: 2500 }) }),
    );
    let recovered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.tuple(fc.integer({ min: 200, max: 5500 }), fault), { maxLength: 8 }),
        fc.constantFrom(0, 0.05, 0.2),
        fc.constantFrom(0, 0.1),
        async (seed, faults, loss, duplicate) => {
          const timeline = faults.map(([at, a]) => ({ at, ...a })).sort((a, b) => a.at - b.at);
          timeline.push({ at: 5600, do: 'heal' });
          for (const s of [...SERVERS, 'w0', 'w1']) timeline.push({ at: 5600, do: 'restart', node: s } as never);
          const sc = scenario({ seed, durationMs: 6000, network: { latencyMs: 5, jitterMs: 3, bandwidthMbps: 100, loss, duplicate }, timeline: timeline as Over['timeline'] });
          const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true });
          await sim.advanceTo(6000);
          expect(sim.failure).toBeNull();
          expect(sim.history.events.filter((e) => e.type === 'violation')).toEqual([]);
          expect(sim.metric('lostUpdates')).toBe(0);
          expect(sim.metric('duplicateUpdates')).toBe(0);
          expect(sim.metric('versionConflicts')).toBe(0);
          expect(sim.metric('staleReads')).toBe(0);
          for (const r of notes(sim, 'paxos.recovered')) recovered += r.data.recovered;
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 60), seed: Number(process.env.FC_SEED ?? 20240602) },
    );
    expect(recovered).toBeGreaterThan(0);
  }, 180_000);
});
