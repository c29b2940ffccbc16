import { describe, expect, it } from 'vitest';
import type { RaftPsStrategy } from '../protocols/raft/raftPs';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

/** raft-ps with log compaction (Raft §7): snapshots, InstallSnapshot, restarts from a snapshot. */

type Over = Parameters<typeof testScenario>[0];

const make = (over: Over, snapshotEvery: number) =>
  Simulation.create(testScenario({ cluster: { workers: 4, servers: 5 }, durationMs: 6000, strategy: { kind: 'raft-ps', snapshotEvery }, ...over }), {
    trainer: new InstantTrainer(),
    sampleEveryMs: 0,
  });

const raftOf = (sim: Simulation) => (sim as unknown as { strategy: RaftPsStrategy }).strategy;
const events = <T extends HistoryEvent['type']>(sim: Simulation, type: T) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: T }> => e.type === type);
const notes = (sim: Simulation, what: string) => events(sim, 'note').filter((e) => e.what === what);
const SERVERS = ['s0', 's1', 's2', 's3', 's4'];

function expectSafe(sim: Simulation): void {
  expect(sim.failure).toBeNull();
  expect(events(sim, 'violation')).toEqual([]);
  expect(sim.metric('lostUpdates')).toBe(0);
  expect(sim.metric('duplicateUpdates')).toBe(0);
  expect(sim.metric('versionConflicts')).toBe(0);
}

describe('raft-ps: log compaction (§7)', () => {
  it('every server snapshots as it applies, and its log keeps one snapshot interval of entries before its applied index, no more than two', async () => {
    const sim = await make({ durationMs: 3000 }, 16);
    await sim.advanceTo(3000);
    expectSafe(sim);
    const ps = raftOf(sim);
    for (const id of SERVERS) {
      const s = ps.server(id);
      expect(s.p.snapIndex).toBeGreaterThan(0);
      expect(s.p.snapIndex + s.p.log.length).toBe(sim.metric('logLength', id));
      expect(s.v.lastApplied - s.p.snapIndex).toBeGreaterThanOrEqual(16);
      expect(s.v.lastApplied - s.p.snapIndex).toBeLessThan(32);
      const taken = notes(sim, 'snapshotTaken').filter((n) => n.node === id);
      const last = taken.at(-1)!.data as { index: number };
      expect(last.index - s.p.snapIndex).toBe(16);
      expect(sim.liveNodeStates().find((n) => n.id === id)!.facts).toMatchObject({ snapshot: last.index, compacted: s.p.snapIndex });
    }
    // The log events keep the whole log for the views: the history still reaches back to index 1.
    const firsts = events(sim, 'log').filter((e) => e.node === 's0');
    expect(Math.min(...firsts.map((e) => e.from))).toBe(1);
  });

  it('never compacts with snapshotEvery 0', async () => {
    const sim = await make({ durationMs: 2000 }, 0);
    await sim.advanceTo(2000);
    expect(notes(sim, 'snapshotTaken')).toEqual([]);
    for (const id of SERVERS) expect(raftOf(sim).server(id).p.snapIndex).toBe(0);
  });

  it('a follower cut off while the leader compacted catches up by InstallSnapshot, to the same parameters', async () => {
    const sim = await make({ durationMs: 5000 }, 16);
    await sim.advanceTo(800);
    const ps = raftOf(sim);
    const lead = ps.resolveSelector('@leader')!;
    const cut = SERVERS.find((s) => s !== lead)!;
    sim.apply({ do: 'partition', groups: [[cut], SERVERS.filter((s) => s !== cut).concat(['w0', 'w1', 'w2', 'w3'])] });
    await sim.advanceTo(2500);
    const behind = ps.server(cut).v.commitIndex;
    expect(ps.server(lead).p.snapIndex).toBeGreaterThan(behind + 1); // what it lacks is gone from the leader's log
    sim.apply({ do: 'heal' });
    await sim.advanceTo(4000);
    for (const w of ['w0', 'w1', 'w2', 'w3']) sim.apply({ do: 'crash', node: w }); // no new updates: the servers converge
    await sim.advanceTo(5000);
    expectSafe(sim);
    const l = ps.server(lead);
    for (const id of SERVERS) {
      const s = ps.server(id);
      expect([id, s.v.lastApplied, s.version]).toEqual([id, l.v.lastApplied, l.version]);
      expect(Array.from(s.params)).toEqual(Array.from(l.params));
    }
    const installed = notes(sim, 'snapshotInstalled').filter((n) => n.node === cut);
    expect(installed.length).toBeGreaterThanOrEqual(1);
    expect(events(sim, 'send').some((e) => e.kind === 'snapshot' && e.to === cut && e.t > 2500)).toBe(true);
  });

  it('a server restarts from its snapshot: commit index, applied index and version are the snapshot’s', async () => {
    const sim = await make({ durationMs: 4000 }, 16);
    await sim.advanceTo(2000);
    const ps = raftOf(sim);
    const victim = SERVERS.find((s) => s !== ps.resolveSelector('@leader'))!;
    sim.apply({ do: 'crash', node: victim });
    const facts = sim.liveNodeStates().find((n) => n.id === victim)!.facts as { snapshot?: number; compacted?: number };
    const snap = facts.snapshot!;
    expect(snap).toBeGreaterThan(facts.compacted!);
    const s = ps.server(victim);
    expect(s.v.commitIndex).toBe(snap);
    expect(s.v.lastApplied).toBe(snap);
    expect(s.version).toBeGreaterThan(0);
    sim.apply({ do: 'restart', node: victim });
    await sim.advanceTo(4000);
    expectSafe(sim);
    expect(ps.server(victim).v.lastApplied).toBeGreaterThan(snap);
  });

  it('a crashed follower that needs the snapshot is sent it once, probed meanwhile, and sent it again once it answers', async () => {
    const sim = await make({ durationMs: 9000, timeline: [{ at: 1500, do: 'crash', node: 's4' }, { at: 6000, do: 'restart', node: 's4' }] }, 16);
    await sim.advanceTo(9000);
    expectSafe(sim);
    const toS4 = events(sim, 'send').filter((e) => e.to === 's4');
    const snaps = toS4.filter((e) => e.kind === 'snapshot');
    expect(snaps.filter((e) => e.t < 6000)).toHaveLength(1);
    expect(snaps.filter((e) => e.t >= 6000).length).toBeGreaterThanOrEqual(1);
    expect(snaps.filter((e) => e.t >= 6000).length).toBeLessThanOrEqual(2);
    // Probes (empty AppendEntries) went on as heartbeats while it was down.
    expect(toS4.filter((e) => e.kind === 'append' && e.t > 3000 && e.t < 6000).length).toBeGreaterThan(20);
    expect(notes(sim, 'snapshotInstalled').filter((n) => n.node === 's4')).toHaveLength(1);
  });
});
