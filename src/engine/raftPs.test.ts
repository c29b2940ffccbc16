import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RaftPsStrategy } from '../protocols/raft/raftPs';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { validateScenario } from '../scenario/validate';

type Over = Parameters<typeof testScenario>[0];
type RaftKnobs = Partial<Extract<NonNullable<Over>['strategy'], { kind: 'raft-ps' }>>;

const raftScenario = (over: Over = {}, knobs: RaftKnobs = {}) =>
  testScenario({ cluster: { workers: 4, servers: 5 }, durationMs: 8000, strategy: { kind: 'raft-ps', ...knobs }, ...over });

const make = (over: Over = {}, knobs: RaftKnobs = {}) => Simulation.create(raftScenario(over, knobs), { trainer: new InstantTrainer(), sampleEveryMs: 0 });

/** The strategy behind a simulation, for white-box checks of Raft state (tests only). */
const raftOf = (sim: Simulation) => (sim as unknown as { strategy: RaftPsStrategy }).strategy;

const notes = (sim: Simulation, what: string) =>
  sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);

/** Times at which worker updates committed (the first apply anywhere happens at commit, on the leader). */
const commitTimes = (sim: Simulation) => notes(sim, 'apply').map((e) => e.t);

const leader = (sim: Simulation) => raftOf(sim).resolveSelector('@leader');

describe('raft-ps: elections', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: one leader within 2× the maximum election timeout, then steady commits', async (seed) => {
    const sim = await make({ seed, durationMs: 3000 });
    await sim.advanceTo(3000);
    const elected = notes(sim, 'leaderElected');
    expect(elected.length).toBeGreaterThanOrEqual(1);
    expect(elected[0].t).toBeLessThan(600);
    expect(elected[0].t).toBeGreaterThanOrEqual(150); // nobody times out before the minimum
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('staleness')!).toBeLessThanOrEqual(4);
    // Every server agrees on the parameters at every version it has applied (state-machine safety).
    expect(sim.metric('versionConflicts')).toBe(0);
  });

  it('a leader crash stops commits for about an election timeout; a new leader takes over (failover measured)', async () => {
    const sim = await make({ durationMs: 6000 });
    await sim.advanceTo(3000);
    const old = leader(sim)!;
    sim.apply({ do: 'crash', node: old });
    await sim.advanceTo(6000);
    const after = commitTimes(sim).filter((t) => t > 3000);
    const failover = after[0] - 3000;
    // Followers heard the last heartbeat ≤ heartbeatMs before the crash, then wait ≥ 150 ms; the
    // worker's retry and one replication round follow the election.
    expect(failover).toBeGreaterThan(150 - 50);
    expect(failover).toBeLessThan(300 + 100 + 100 + 50);
    const elected = notes(sim, 'leaderElected').filter((e) => e.t > 3000);
    expect(elected[0].node).not.toBe(old);
    expect(elected[0].t - 3000).toBeGreaterThan(100);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('maxCommitGapMs')!).toBeGreaterThanOrEqual(failover - 1);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });

  it('the timeout action starts an election at once (RaftScope "timeout")', async () => {
    const sim = await make({ durationMs: 3000 });
    await sim.advanceTo(1000);
    const before = sim.metric('term')!;
    const follower = ['s0', 's1', 's2', 's3', 's4'].find((s) => s !== leader(sim))!;
    expect(sim.apply({ do: 'timeout', node: follower })).toEqual({ ok: true });
    expect(sim.metric('term', follower)).toBe(before + 1);
    expect(sim.liveNodeStates().find((n) => n.id === follower)!.facts).toMatchObject({ kind: 'raft-server', role: 'candidate', term: before + 1, votes: 1 });
    await sim.advanceTo(3000);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
  });
});

/** Partition 3|2 with the leader (and one follower, w0, w1) in the minority at 2 s, healed at 6 s. */
async function minorityLeaderRun(knobs: RaftKnobs = {}, seed = 7) {
  const sim = await make({ seed, durationMs: 9000 }, knobs);
  await sim.advanceTo(2000);
  const old = leader(sim)!;
  const servers = ['s0', 's1', 's2', 's3', 's4'];
  const buddy = servers.find((s) => s !== old)!;
  const majority = servers.filter((s) => s !== old && s !== buddy);
  sim.apply({ do: 'partition', groups: [[...majority, 'w2', 'w3'], [old, buddy, 'w0', 'w1']] });
  const raft = raftOf(sim);
  const atCut = { commit: sim.metric('commitIndex', old)!, term: sim.metric('term', old)!, steps: sim.metric('steps', 'w2')! };
  return { sim, raft, old, buddy, majority, atCut };
}

describe('raft-ps: partitions', () => {
  it('3|2 with the leader in the minority: the majority elects and continues, the minority commits nothing, its uncommitted entries vanish after heal', async () => {
    const { sim, raft, old, buddy, majority, atCut } = await minorityLeaderRun();
    await sim.advanceTo(5900);
    // Majority side: a new leader in a higher term, commits and steps grow.
    const newLeader = leader(sim)!;
    expect(majority).toContain(newLeader);
    expect(sim.metric('term', newLeader)!).toBeGreaterThan(atCut.term);
    expect(sim.metric('commitIndex', newLeader)!).toBeGreaterThan(atCut.commit + 20);
    expect(sim.metric('steps', 'w2')!).toBeGreaterThan(atCut.steps + 10);
    expect(sim.metric('availability', 'w2')).toBe(1);
    // Minority side: the old leader still believes it leads, appends, but commits nothing new.
    expect(sim.metric('leaders')).toBe(2);
    expect(sim.metric('leaders', old)).toBe(1);
    expect(sim.metric('commitIndex', old)).toBe(atCut.commit);
    expect(sim.metric('commitIndex', buddy)!).toBeLessThanOrEqual(atCut.commit);
    expect(sim.metric('availability', 'w0')).toBe(0);
    expect(sim.metric('availability', 'w1')).toBe(0);
    const oldLog = raft.server(old).p.log;
    const uncommitted = oldLog.slice(atCut.commit).filter((e) => e.term === atCut.term && e.kind === 'update');
    expect(uncommitted.length).toBeGreaterThan(0);
    expect(sim.metric('versionConflicts')).toBe(0);
    sim.apply({ do: 'heal' });
    await sim.advanceTo(9000);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('overwrittenEntries')!).toBeGreaterThanOrEqual(uncommitted.length);
    for (const s of ['s0', 's1', 's2', 's3', 's4']) {
      const uids = new Set(raft.server(s).p.log.map((e) => e.uid));
      for (const e of uncommitted) expect(uids.has(e.uid)).toBe(false);
    }
    expect(sim.metric('availability', 'w0')).toBe(1); // the minority's workers are served again
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });

  it.each([
    ['local', true],
    ['readIndex', false],
    ['lease', false],
    ['log', false],
  ] as const)('readMode %s: stale reads under the partition? %s', async (readMode, stale) => {
    const { sim } = await minorityLeaderRun({ readMode });
    await sim.advanceTo(9000);
    if (stale) expect(sim.metric('staleReads')!).toBeGreaterThan(0);
    else expect(sim.metric('staleReads')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('versionConflicts')).toBe(0); // stale, never conflicting: same version ⇒ same parameters
  });

  it.each([false, true])('a follower cut off alone, preVote %s: its term climbs and deposes the leader on the heal only without PreVote (thesis §9.6)', async (preVote) => {
    const sim = await make({ durationMs: 9000 }, { preVote });
    await sim.advanceTo(1000);
    const before = leader(sim)!;
    const term = sim.metric('term', before)!;
    const lone = ['s0', 's1', 's2', 's3', 's4'].find((s) => s !== before)!;
    const rest = ['s0', 's1', 's2', 's3', 's4', 'w0', 'w1', 'w2', 'w3'].filter((x) => x !== lone);
    sim.apply({ do: 'partition', groups: [rest, [lone]] });
    await sim.advanceTo(4000);
    if (preVote) expect(sim.metric('term', lone)).toBe(term);
    else expect(sim.metric('term', lone)!).toBeGreaterThan(term + 5);
    expect(leader(sim)).toBe(before); // the majority side never noticed
    const loneTerm = sim.metric('term', lone)!;
    sim.apply({ do: 'heal' });
    await sim.advanceTo(6000);
    const downs = notes(sim, 'leaderStepDown').filter((n) => n.t >= 4000);
    expect(downs.length).toBe(preVote ? 0 : 1);
    if (preVote) expect(leader(sim)).toBe(before);
    // Without PreVote the next leader's term is above the one the lone server climbed to.
    if (preVote) expect(sim.metric('term')).toBe(term);
    else expect(sim.metric('term', leader(sim)!)!).toBeGreaterThan(loneTerm);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
  });

  it('CheckQuorum makes the isolated leader step down', async () => {
    const { sim, old } = await minorityLeaderRun({ checkQuorum: true });
    await sim.advanceTo(5900);
    expect(sim.metric('leaders', old)).toBe(0);
    expect(sim.metric('leaders')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('raft-ps: crash and restart', () => {
  it('a server keeps currentTerm, votedFor and its log across a crash; commit index and state machine are rebuilt', async () => {
    const sim = await make({ durationMs: 6000 });
    await sim.advanceTo(2000);
    const raft = raftOf(sim);
    const victim = ['s0', 's1', 's2', 's3', 's4'].find((s) => s !== leader(sim))!;
    const before = raft.server(victim);
    const kept = { term: before.p.currentTerm, votedFor: before.p.votedFor, log: before.p.log.slice() };
    expect(kept.log.length).toBeGreaterThan(10);
    sim.apply({ do: 'crash', node: victim });
    await sim.advanceTo(3000);
    sim.apply({ do: 'restart', node: victim });
    const after = raft.server(victim);
    expect(after.p.currentTerm).toBe(kept.term);
    expect(after.p.votedFor).toBe(kept.votedFor);
    expect(after.p.log).toEqual(kept.log);
    expect(after.v.commitIndex).toBe(0);
    expect(sim.metric('version', victim)).toBe(0);
    await sim.advanceTo(4000);
    const lead = leader(sim)!;
    expect(sim.metric('version', victim)!).toBeGreaterThan(sim.metric('version', lead)! - 5);
    // Re-applying its log rebuilt the same state machine: every update at the version the leader gave it.
    const reapplied = raft.server(victim).applied;
    expect(reapplied.size).toBeGreaterThan(10);
    const leaders = new Map(raft.server(lead).applied.entries());
    for (const [k, v] of reapplied.entries()) expect(leaders.get(k), k).toBe(v);
    expect(sim.metric('violations')).toBe(0);
  });

  it('a worker restarts, reads the parameters and continues with fresh sequence numbers', async () => {
    const sim = await make({ durationMs: 5000, timeline: [{ at: 1500, do: 'crash', node: 'w1' }, { at: 2500, do: 'restart', node: 'w1' }] });
    await sim.advanceTo(5000);
    expect(sim.metric('availability', 'w1')).toBe(1);
    expect(sim.metric('staleness', 'w1')!).toBeLessThanOrEqual(4);
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('raft-ps: retries and duplicates', () => {
  it('applies every update at most once despite loss and duplication; every acknowledged update is applied', async () => {
    const sim = await make({ durationMs: 8000, network: { latencyMs: 5, jitterMs: 2, bandwidthMbps: 100, loss: 0.05, duplicate: 0.1 } });
    await sim.advanceTo(8000);
    const raft = raftOf(sim);
    expect(sim.metric('dropped')!).toBeGreaterThan(0);
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(raft.acknowledged().size).toBeGreaterThan(50);
    const l = leader(sim)!;
    const applied = new Set([...raft.server(l).applied.entries()].map(([k]) => k));
    for (const k of raft.acknowledged()) expect(applied.has(k), k).toBe(true);
    expect(sim.metric('violations')).toBe(0);
  });

  it('bytes: a gradient per update sent and per entry shipped, parameters per read reply, nothing for votes and heartbeats', async () => {
    const sim = await make({ durationMs: 2000, cluster: { workers: 1, servers: 3 } });
    await sim.advanceTo(2000);
    const P = 105 * 4;
    let expected = 0;
    for (const e of sim.history.events) {
      if (e.type !== 'send') continue;
      if (e.kind === 'vote' || e.kind === 'ack' || e.kind === 'pull' || e.kind === 'nack') expect(e.bytes).toBe(0);
      if (e.kind === 'gradient' || e.kind === 'params') expect(e.bytes).toBe(P);
      if (e.kind === 'append') expect(e.bytes % P).toBe(0);
      expected += e.bytes;
    }
    expect(sim.metric('bytes')).toBe(expected);
  });
});

describe('raft-ps: randomized faults (checker)', () => {
  it('no violation and no lost acknowledged update over seeds × partitions × crashes × pauses × forced timeouts × loss × duplication, with and without PreVote, with and without log compaction', async () => {
    const serverId = fc.constantFrom('s0', 's1', 's2', 's3', 's4');
    const fault = fc.oneof(
      fc.record({ do: fc.constant('crash' as const), node: fc.oneof(serverId, fc.constant('@leader'), fc.constantFrom('w0', 'w1')) }),
      fc.record({ do: fc.constant('restart' as const), node: fc.constant('@crashed') }),
      fc.record({ do: fc.constant('partition' as const), groups: fc.shuffledSubarray(['s0', 's1', 's2', 's3', 's4', 'w0', 'w1', 'w2'], { minLength: 1, maxLength: 4 }).map((g) => [g, ['w3']]) }),
      fc.record({ do: fc.constant('heal' as const) }),
      fc.record({ do: fc.constant('timeout' as const), node: serverId }),
      // A process freeze (GC pause): its messages, timers and forced timeouts wait for the resume,
      // so vote replies can make it leader of an old term after a newer one committed more.
      fc.record({ do: fc.constant('pause' as const), node: fc.oneof(serverId, fc.constant('@leader')), ms: fc.integer({ min: 100, max: 2500 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.tuple(fc.integer({ min: 200, max: 5500 }), fault), { maxLength: 8 }),
        fc.constantFrom(0, 0.05, 0.2),
        fc.constantFrom(0, 0.1),
        fc.constantFrom('readIndex', 'lease', 'log', 'local'),
        fc.boolean(),
        fc.boolean(),
        // Snapshots every few entries: lagging, crashed and cut-off servers meet InstallSnapshot.
        fc.constantFrom(0, 2, 8, 1000),
        async (seed, faults, loss, duplicate, readMode, leaderNoop, preVote, snapshotEvery) => {
          const timeline = faults.map(([at, a]) => ({ at, ...a })).sort((a, b) => a.at - b.at);
          timeline.push({ at: 5600, do: 'heal' }, { at: 5600, do: 'restart', node: '@crashed' });
          const sc = raftScenario(
            { seed, durationMs: 6000, network: { latencyMs: 5, jitterMs: 3, bandwidthMbps: 100, loss, duplicate }, timeline: timeline as NonNullable<Over>['timeline'] },
            { readMode, leaderNoop, preVote, snapshotEvery },
          );
          const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0 });
          await sim.advanceTo(6000);
          expect(sim.failure).toBeNull();
          const v = sim.history.events.filter((e) => e.type === 'violation');
          expect(v).toEqual([]);
          expect(sim.metric('lostUpdates')).toBe(0);
          expect(sim.metric('duplicateUpdates')).toBe(0);
          expect(sim.metric('versionConflicts')).toBe(0);
          if (readMode !== 'local') expect(sim.metric('staleReads')).toBe(0);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 40), seed: Number(process.env.FC_SEED ?? 20240601) },
    );
  }, 120_000);
});

describe('node selectors in actions', () => {
  it('"@leader" in partition groups resolves to the leader when the action fires, and is recorded resolved', async () => {
    const sim = await make({ durationMs: 3000, timeline: [{ at: 1500, do: 'partition', groups: [['@leader'], ['w0', 'w1', 'w2', 'w3']] }] });
    await sim.advanceTo(1499);
    const leader = sim.liveNodeStates().find((n) => n.up && n.facts?.kind === 'raft-server' && n.facts.role === 'leader')?.id;
    expect(leader).toMatch(/^s\d$/);
    await sim.advanceTo(1500);
    const action = sim.history.events.find((e): e is Extract<HistoryEvent, { type: 'action' }> => e.type === 'action');
    expect(action?.action).toEqual({ do: 'partition', groups: [[leader], ['w0', 'w1', 'w2', 'w3']] });
  });

  it('selectors work in a cut’s, a restore’s and a link’s from/to (scenario file and sim.apply), recorded resolved', async () => {
    const sc = {
      durationMs: 3000,
      timeline: [
        { at: 1500, do: 'cut' as const, from: '@leader', to: 'w0' },
        { at: 1600, do: 'link' as const, from: 'w1', to: '@leader', latencyMs: 40 },
        { at: 1700, do: 'restore' as const, from: '@leader', to: 'w0', oneWay: true },
      ],
    };
    // The file form validates: selectors are accepted in from/to.
    expect(validateScenario({ schema: 1, id: 'x', seed: 1, cluster: { workers: 4, servers: 3 }, strategy: { kind: 'raft-ps' }, ...sc }).ok).toBe(true);
    const sim = await make(sc);
    await sim.advanceTo(1499);
    const leader = sim.liveNodeStates().find((n) => n.up && n.facts?.kind === 'raft-server' && n.facts.role === 'leader')?.id;
    expect(leader).toMatch(/^s\d$/);
    await sim.advanceTo(1800);
    const actions = sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'action' }> => e.type === 'action').map((e) => e.action);
    expect(actions).toEqual([
      { do: 'cut', from: leader, to: 'w0' },
      { do: 'link', from: 'w1', to: leader, latencyMs: 40 },
      { do: 'restore', from: leader, to: 'w0', oneWay: true },
    ]);
    // The network holds what the resolved actions say: w0→leader still cut, leader→w0 restored.
    const link = (from: string, to: string) => sim.links().find((l) => l.from === from && l.to === to)!;
    expect(link('w0', leader!).cut).toBe(true);
    expect(link(leader!, 'w0').cut).toBe(false);
    expect(link('w1', leader!).props.latencyMs).toBe(40);
    // A user's action takes a selector too; one that names a single node twice is refused.
    expect(sim.apply({ do: 'cut', from: '@leader', to: 'w3' })).toEqual({ ok: true });
    expect(sim.apply({ do: 'cut', from: '@leader', to: leader! })).toEqual({
      ok: false,
      error: `to: "@leader" and "${leader}" are the same node now (${leader}); a link joins two nodes`,
      refusal: { refusal: 'same-node', from: '@leader', to: leader, node: leader },
    });
    expect(sim.history.events.at(-1)).toMatchObject({ type: 'action', action: { do: 'cut', from: leader, to: 'w3' }, source: 'user' });
  });

  it('a link selector that resolves to the other end is skipped with a note naming it', async () => {
    const sim = await make({ durationMs: 3000, timeline: [{ at: 200, do: 'crash', node: 's1' }, { at: 1500, do: 'cut', from: '@crashed', to: 's1' }] });
    await sim.advanceTo(2000);
    expect(sim.history.events.filter((e) => e.type === 'note' && e.what === 'actionSkipped').map((e) => (e.type === 'note' ? e.data : null))).toEqual([{ selector: '@crashed' }]);
    expect(sim.links().every((l) => !l.cut)).toBe(true);
  });

  it('"@crashed" restarts the crashed node; a selector that matches nothing is skipped with a note', async () => {
    const sim = await make({
      durationMs: 3000,
      timeline: [
        { at: 500, do: 'restart', node: '@crashed' },
        { at: 1000, do: 'crash', node: 's2' },
        { at: 1500, do: 'restart', node: '@crashed' },
      ],
    });
    await sim.advanceTo(3000);
    const skipped = sim.history.events.filter((e) => e.type === 'note' && e.what === 'actionSkipped');
    expect(skipped).toHaveLength(1);
    expect(sim.nodes().find((n) => n.id === 's2')?.up).toBe(true);
  });
});

describe('raft-ps: modelled fsync (fsyncMs)', () => {
  /** Mean time from a worker's update invoke to its acknowledgement, with no faults. */
  async function meanCommitLatency(fsyncMs: number): Promise<number> {
    const sim = await make({ durationMs: 3000, network: { latencyMs: 2, jitterMs: 0, bandwidthMbps: 1000 } }, { fsyncMs });
    await sim.runToEnd();
    expect(sim.metric('violations')).toBe(0);
    const invoked = new Map<number, number>();
    const took: number[] = [];
    for (const e of sim.history.events) {
      if (e.type !== 'op' || e.f !== 'update') continue;
      if (e.op === 'invoke') invoked.set(e.opId, e.t);
      else if (e.op === 'ok' && invoked.has(e.opId)) took.push(e.t - invoked.get(e.opId)!);
    }
    expect(took.length).toBeGreaterThan(20);
    return took.reduce((a, b) => a + b, 0) / took.length;
  }

  it('commit waits for the disk: the leader counts itself, and followers answer, only after fsyncMs (latency = round trip + fsync)', async () => {
    const none = await meanCommitLatency(0);
    const synced = await meanCommitLatency(10);
    // One sync on the leader and one on the followers run in parallel with replication; each
    // commit waits for at least one of them (≈ 10 ms), never for the two in sequence.
    expect(synced - none).toBeGreaterThan(8);
    expect(synced - none).toBeLessThan(25);
  });
});
