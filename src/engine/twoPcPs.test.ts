import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TwoPcPsStrategy } from '../protocols/twopc/twoPcPs';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = NonNullable<Parameters<typeof testScenario>[0]>;
const SERVERS = ['s0', 's1', 's2', 's3', 's4'];

const scenario = (over: Over = {}, knobs: Record<string, unknown> = {}) =>
  testScenario({ cluster: { workers: 4, servers: 5 }, durationMs: 8000, strategy: { kind: '2pc-ps', ...knobs } as never, ...over });

const make = (over: Over = {}, knobs: Record<string, unknown> = {}) => Simulation.create(scenario(over, knobs), { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true });

const tpc = (sim: Simulation) => (sim as unknown as { strategy: TwoPcPsStrategy }).strategy;
type Note = Extract<HistoryEvent, { type: 'note' }>;
const notes = <K extends Note['what']>(sim: Simulation, what: K, from = 0, to = Infinity) =>
  sim.history.events.filter((e): e is Extract<Note, { what: K }> => e.type === 'note' && e.what === what && e.t >= from && e.t <= to);
const decisions = (sim: Simulation, from = 0, to = Infinity) => notes(sim, '2pc.decided', from, to).map((e) => e.data);
const facts = (sim: Simulation, node: string) => [...sim.history.events].reverse().find((e): e is Extract<HistoryEvent, { type: 'facts' }> => e.type === 'facts' && e.node === node)?.f;

describe('2pc-ps: every participant up', () => {
  it('every transaction commits; every replica applies the same updates; reads see every commit', async () => {
    const sim = await make({ durationMs: 3000 });
    await sim.advanceTo(3000);
    const ds = decisions(sim);
    expect(ds.length).toBeGreaterThan(40);
    expect(ds.every((d) => d.decision === 'commit' && d.reason === 'all-yes')).toBe(true);
    expect(notes(sim, '2pc.prepareSent').length).toBe(ds.length + (tpc(sim).coordinatorState().current ? 1 : 0));
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('rejectedWrites')).toBe(0);
    expect(sim.metric('staleReads')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('versionConflicts')).toBe(0);
    // Participants lag the coordinator by at most the transaction in flight.
    const v0 = sim.metric('version', 's0')!;
    for (const s of SERVERS) expect(v0 - sim.metric('version', s)!).toBeLessThanOrEqual(1);
    expect(facts(sim, 's0')).toMatchObject({ kind: '2pc-server', coordinator: true, participants: 5, blocked: false });
    expect(facts(sim, 's3')).toMatchObject({ kind: '2pc-server', coordinator: false, blocked: false });
    expect(facts(sim, 'w1')).toMatchObject({ kind: '2pc-client', aborted: 0 });
  });
});

describe('2pc-ps: one participant down', () => {
  it('nothing commits while it is down: every transaction misses its vote and aborts at the vote timeout; commits resume after its restart', async () => {
    // Availability looks back 2 s (10 × stepMs): at 2.9 s it sees only the time s3 was down.
    const sim = await make({ durationMs: 6000, timeline: [{ at: 800, do: 'crash', node: 's3' }, { at: 3000, do: 'restart', node: 's3' }] });
    await sim.advanceTo(2900);
    const during = decisions(sim, 820, 2900);
    expect(during.length).toBeGreaterThan(3);
    expect(during.every((d) => d.decision === 'abort' && d.reason === 'vote-timeout')).toBe(true);
    expect(notes(sim, 'apply', 820, 2900)).toEqual([]);
    expect(sim.metric('availability')).toBe(0);
    expect(sim.metric('rejectedWrites')!).toBeGreaterThanOrEqual(during.length);
    expect(facts(sim, 'w0')).toMatchObject({ kind: '2pc-client' });
    await sim.advanceTo(6000);
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('version', 's3')).toBe(sim.metric('version', 's0'));
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('2pc-ps: the coordinator fails', () => {
  it('right after PREPARE: every participant votes yes and is in doubt — blocked, even when they ask each other — until the coordinator’s log resolves them', async () => {
    const sim = await make({
      durationMs: 8000,
      timeline: [
        { on: { event: '2pc.prepareSent', node: 's0', after: 2000 }, do: 'crash', node: 's0' },
        { at: 5000, do: 'restart', node: 's0' },
      ],
    });
    await sim.advanceTo(4900);
    const crashAt = sim.history.events.find((e) => e.type === 'crash')!.t;
    const tx = notes(sim, '2pc.prepareSent').at(-1)!.data.tx;
    expect(sim.metric('inDoubt')).toBe(4);
    expect(notes(sim, '2pc.inDoubt').map((e) => [e.node, e.data.tx]).sort()).toEqual(['s1', 's2', 's3', 's4'].map((s) => [s, tx]));
    for (const s of ['s1', 's2', 's3', 's4']) {
      expect(facts(sim, s)).toMatchObject({ prepared: tx, blocked: true });
      expect(tpc(sim).server(s).part.prepared?.tx).toBe(tx);
    }
    // They asked one another (cooperative termination), and nobody could answer.
    const asks = sim.history.events.filter((e) => e.type === 'send' && e.kind === 'ask' && e.t > crashAt && e.to !== 's0');
    expect(asks.length).toBeGreaterThan(12);
    expect(notes(sim, '2pc.resolved', crashAt, 4900)).toEqual([]);
    expect(notes(sim, 'apply', crashAt, 4900)).toEqual([]);
    expect(sim.metric('availability')).toBe(0);
    await sim.advanceTo(8000);
    // Presumed abort: begun, never decided.
    expect(decisions(sim, 5000, 5000)).toEqual([{ tx, decision: 'abort', reason: 'recovery' }]);
    expect(notes(sim, '2pc.resolved', 5000).filter((e) => e.data.tx === tx).map((e) => [e.node, e.data.decision, e.data.from]).sort()).toEqual(
      ['s1', 's2', 's3', 's4'].map((s) => [s, 'abort', 's0']),
    );
    expect(sim.metric('inDoubt')!).toBeLessThanOrEqual(4); // only transactions in flight now
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });

  it('after deciding commit, with the decision lost: participants stay in doubt until it restarts and answers from its log', async () => {
    // Right after a decision (its COMMIT messages on the wire), every link from s0 to a participant is cut.
    const on = { event: '2pc.decided', node: 's0', after: 2000 };
    const cut = SERVERS.slice(1).map((to) => ({ on, do: 'cut' as const, from: 's0', to, oneWay: true }));
    const sim = await make({
      durationMs: 8000,
      timeline: [...cut, { at: 3500, do: 'crash', node: 's0' }, { at: 3600, do: 'heal' }, { at: 4000, do: 'restart', node: 's0' }],
    });
    await sim.advanceTo(3500);
    const committed = decisions(sim, 2000, 3500)[0];
    expect(committed.decision).toBe('commit');
    const stuck = committed.tx;
    for (const s of ['s1', 's2', 's3', 's4']) expect(tpc(sim).server(s).part.prepared?.tx).toBe(stuck);
    expect(notes(sim, '2pc.inDoubt', 2000, 3500).length).toBe(4);
    await sim.advanceTo(8000);
    const resolved = notes(sim, '2pc.resolved', 4000).filter((e) => e.data.tx === stuck);
    expect(resolved.map((e) => [e.node, e.data.decision, e.data.from]).sort()).toEqual(['s1', 's2', 's3', 's4'].map((s) => [s, 'commit', 's0']));
    for (const s of SERVERS) expect(tpc(sim).server(s).part.decisions.get(stuck)).toBe('commit');
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });

  it('a participant that missed the decision learns it from a peer (cooperative termination)', async () => {
    // The link s0 → s2 is cut right after a decision: s2 misses it, and the coordinator's answers.
    const sim = await make({ durationMs: 4000, timeline: [{ on: { event: '2pc.decided', after: 1500 }, do: 'cut', from: 's0', to: 's2', oneWay: true }] });
    await sim.advanceTo(4000);
    const first = notes(sim, '2pc.resolved').find((e) => e.node === 's2');
    expect(first).toBeDefined();
    expect(['s1', 's3', 's4']).toContain(first!.data.from);
    expect(tpc(sim).server('s2').part.decisions.get(first!.data.tx)).toBe(decisions(sim).find((d) => d.tx === first!.data.tx)?.decision);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('2pc-ps: nodes it does not use', () => {
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

describe('2pc-ps: stable storage', () => {
  it('a participant that crashes prepared restarts prepared, asks, and rebuilds its replica from its log', async () => {
    const sim = await make({ durationMs: 6000 });
    // Step until s2 holds a prepared transaction, then crash it there.
    while (!tpc(sim).server('s2').part.prepared) await sim.stepEvent();
    const tx = tpc(sim).server('s2').part.prepared!.tx;
    const t = sim.now();
    sim.apply({ do: 'crash', node: 's2' });
    await sim.advanceTo(t + 1000);
    const logged = tpc(sim).server('s2').part.log.length;
    sim.apply({ do: 'restart', node: 's2' });
    expect(notes(sim, '2pc.inDoubt', sim.now()).map((e) => [e.node, e.data.tx])).toEqual([['s2', tx]]);
    expect(tpc(sim).server('s2').part.log.length).toBe(logged);
    await sim.advanceTo(6000);
    expect(tpc(sim).server('s2').part.decisions.get(tx)).toBe(tpc(sim).coordinatorState().decisions.get(tx));
    expect(Math.abs(sim.metric('version', 's2')! - sim.metric('version', 's0')!)).toBeLessThanOrEqual(1);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('2pc-ps: randomized faults', () => {
  it('no violation, no lost update, and never a commit while some participant was down from PREPARE to decision', async () => {
    const node = fc.constantFrom(...SERVERS, 'w0', 'w1');
    const fault = fc.oneof(
      fc.record({ do: fc.constant('crash' as const), node }),
      fc.record({ do: fc.constant('restart' as const), node: fc.constant('@crashed') }),
      fc.record({ do: fc.constant('partition' as const), groups: fc.shuffledSubarray([...SERVERS, 'w0', 'w1', 'w2'], { minLength: 1, maxLength: 4 }).map((g) => [g, ['w3']]) }),
      fc.record({ do: fc.constant('heal' as const) }),
      // A process freeze (the coordinator too): votes and decisions wait in its queue for the resume.
      fc.record({ do: fc.constant('pause' as const), node, ms: fc.integer({ min: 100, max: 2500 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.tuple(fc.integer({ min: 200, max: 5500 }), fault), { maxLength: 8 }),
        fc.constantFrom(0, 0.05, 0.2),
        fc.constantFrom(0, 0.1),
        async (seed, faults, loss, duplicate) => {
          const timeline = faults.map(([at, a]) => ({ at, ...a })).sort((a, b) => a.at - b.at);
          for (const s of [...SERVERS, 'w0', 'w1']) timeline.push({ at: 5600, do: 'restart', node: s } as never);
          timeline.push({ at: 5600, do: 'heal' });
          const sc = scenario({ seed, durationMs: 6000, network: { latencyMs: 5, jitterMs: 3, bandwidthMbps: 100, loss, duplicate }, timeline: timeline as Over['timeline'] });
          const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true });
          await sim.advanceTo(6000);
          expect(sim.failure).toBeNull();
          expect(sim.history.events.filter((e) => e.type === 'violation')).toEqual([]);
          expect(sim.metric('lostUpdates')).toBe(0);
          expect(sim.metric('duplicateUpdates')).toBe(0);
          expect(sim.metric('versionConflicts')).toBe(0);
          expect(sim.metric('staleReads')).toBe(0);
          // The truth of L8: a participant that is down through the whole voting window cannot vote yes.
          const downSince = new Map<string, number>();
          const prepared = new Map<number, number>();
          for (const e of sim.history.events) {
            if (e.type === 'crash') downSince.set(e.node, e.t);
            else if (e.type === 'restart') downSince.delete(e.node);
            else if (e.type === 'note' && e.what === '2pc.prepareSent') prepared.set(e.data.tx, e.t);
            else if (e.type === 'note' && e.what === '2pc.decided' && e.data.decision === 'commit') {
              const since = prepared.get(e.data.tx)!;
              for (const [n, t] of downSince) if (n[0] === 's') expect(t, `${n} down since ${t}, tx ${e.data.tx} prepared at ${since}`).toBeGreaterThan(since);
            }
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 40), seed: Number(process.env.FC_SEED ?? 20240607) },
    );
  }, 120_000);
});
