import { interpolateCividis } from 'd3';
import { describe, expect, it } from 'vitest';
import { RunIndex } from '../../engine/index/runIndex';
import { runStateAt, type RunStatic } from '../../engine/index/runState';
import type { LogItem, NodeFacts } from '../../protocols/facts';
import { strategySchema } from '../../protocols';
import type { HistoryEvent } from '../../sim/types';
import { serverPanelModel, showServers, termColour, termText, zabCommitted } from './serverModel';

/** A synthetic history: the panel model must read facts and logs at t, whatever produced them. */
const props = { latencyMs: 5, jitterMs: 1, bandwidthMbps: 100, loss: 0, duplicate: 0 };
function runStatic(ids: string[]): RunStatic {
  return { nodes: ids.map((id) => ({ id, role: id[0] === 'w' ? 'worker' : id[0] === 's' ? 'server' : id[0] === 'c' ? 'coord' : 'broker' })), edges: [], network: props, stragglers: [] };
}
const raftCfg = strategySchema.parse({ kind: 'raft-ps' });
const kafkaCfg = strategySchema.parse({ kind: 'kafka-ps' });

function raft(role: 'leader' | 'follower' | 'candidate', term: number, commitIndex: number, leader: string | null = 's0'): NodeFacts {
  return { kind: 'raft-server', role, term, votedFor: leader, leader, commitIndex, lastApplied: commitIndex, version: commitIndex };
}
const entries = (n: number, term: number): LogItem[] => Array.from({ length: n }, (_, i) => ({ term, kind: 'update', worker: 'w0', seq: i + 1 }));

function build(ids: string[], events: HistoryEvent[]): RunIndex {
  const ix = new RunIndex(ids);
  ix.sync(events);
  return ix;
}

describe('servers panel model', () => {
  it('shows for Raft servers and Kafka brokers, not for parameter servers', () => {
    expect(showServers(build(['w0', 's0'], [{ t: 0, type: 'facts', node: 's0', f: raft('leader', 1, 0) }]))).toBe(true);
    expect(showServers(build(['w0', 's0'], [{ t: 0, type: 'facts', node: 's0', f: { kind: 'ps-server', version: 0, minClock: 0, staleness: 3 } }]))).toBe(false);
    expect(showServers(build(['w0', 's0'], []))).toBe(false);
  });

  it('aligns every row on one index window ending at the newest entry, committed per each server', () => {
    const ids = ['w0', 's0', 's1'];
    const ix = build(ids, [
      { t: 0, type: 'facts', node: 's0', f: raft('leader', 2, 9) },
      { t: 0, type: 'facts', node: 's1', f: raft('follower', 2, 7) },
      { t: 10, type: 'log', node: 's0', from: 1, add: entries(12, 2) },
      { t: 10, type: 'log', node: 's1', from: 1, add: entries(10, 2) },
    ]);
    const m = serverPanelModel(runStateAt(ix, runStatic(ids), 20), ix, 5, { workers: 1, servers: 2, cfg: raftCfg }, 'en');
    expect(m.kafka).toBe(false);
    expect(m.window).toEqual({ lo: 8, hi: 12 });
    expect(m.rows.map((r) => r.id)).toEqual(['s0', 's1']);
    expect(m.rows[0].log.map((b) => [b.index, b.committed])).toEqual([
      [8, true],
      [9, true],
      [10, false],
      [11, false],
      [12, false],
    ]);
    expect(m.rows[1].log.map((b) => b.index)).toEqual([8, 9, 10]);
    expect(m.rows[1].log.every((b) => !b.committed)).toBe(true); // s1 knows commit index 7 only
    expect(m.rows[0].log[0].label).toBe('w0#8');
    expect(m.rows[1].facts).toBe('leader s0 · voted for s0');
  });

  it("says where a row's log ends when all of it lies before the window (a deposed leader), and marks an empty log", () => {
    const ids = ['w0', 's0', 's1', 's2'];
    const ix = build(ids, [
      { t: 0, type: 'facts', node: 's0', f: raft('leader', 2, 4) },
      { t: 0, type: 'facts', node: 's1', f: raft('leader', 3, 20, 's1') },
      { t: 0, type: 'facts', node: 's2', f: raft('follower', 1, 0) },
      { t: 10, type: 'log', node: 's0', from: 1, add: entries(6, 2) },
      { t: 10, type: 'log', node: 's1', from: 1, add: [...entries(4, 2), ...entries(20, 3)] },
    ]);
    const m = serverPanelModel(runStateAt(ix, runStatic(ids), 20), ix, 8, { workers: 1, servers: 3, cfg: raftCfg }, 'en');
    expect(m.window).toEqual({ lo: 17, hi: 24 });
    const [s0, s1, s2] = m.rows;
    expect(s0.log).toEqual([]);
    expect(s0.tail).toEqual({ index: 6, term: 2, committed: false, label: 'w0#6' });
    expect(s1.tail).toBeNull(); // it shows boxes
    expect(s2.tail).toBe('empty');
    // Once the window reaches back to s0's entries, they show as boxes and the tail goes.
    const wide = serverPanelModel(runStateAt(ix, runStatic(ids), 20), ix, 24, { workers: 1, servers: 3, cfg: raftCfg }, 'en');
    expect(wide.rows[0].log.map((b) => b.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(wide.rows[0].tail).toBeNull();
  });

  it('a scrubbed t shows the log, role and term as they stood then (an overwritten suffix included)', () => {
    const ids = ['w0', 's0', 's1', 's2'];
    const ix = build(ids, [
      { t: 0, type: 'facts', node: 's1', f: raft('leader', 1, 1, 's1') },
      { t: 10, type: 'log', node: 's1', from: 1, add: entries(3, 1) },
      { t: 100, type: 'crash', node: 's1' },
      { t: 200, type: 'restart', node: 's1' },
      { t: 210, type: 'facts', node: 's1', f: raft('follower', 2, 1, 's2') },
      { t: 220, type: 'log', node: 's1', from: 2, add: entries(1, 2) },
    ]);
    const ctx = { workers: 1, servers: 3, cfg: raftCfg };
    const before = serverPanelModel(runStateAt(ix, runStatic(ids), 50), ix, 10, ctx, 'en').rows[0];
    expect([before.role, before.term]).toEqual(['leader', 1]);
    expect(before.log.map((b) => b.term)).toEqual([1, 1, 1]);
    expect(serverPanelModel(runStateAt(ix, runStatic(ids), 150), ix, 10, ctx, 'en').rows[0].role).toBe('crashed');
    const after = serverPanelModel(runStateAt(ix, runStatic(ids), 300), ix, 10, ctx, 'zh').rows[0];
    expect([after.role, after.term]).toEqual(['follower', 2]);
    expect(after.log.map((b) => b.term)).toEqual([1, 2]);
    expect(after.facts).toBe('领导者 s2 · 投票给 s2');
  });

  it('Kafka: epoch and HW of topic partition 0, ISR on the leader, records below the HW committed, consumers last', () => {
    const ids = ['w0', 's0', 'b0', 'b1'];
    const ix = build(ids, [
      { t: 0, type: 'facts', node: 's0', f: { kind: 'kafka-consumer', offset: 10, lag: 2, caughtUp: true } },
      { t: 0, type: 'facts', node: 'b0', f: { kind: 'kafka-broker', parts: [{ p: 0, role: 'leader', leo: 12, hw: 10, epoch: 1, isr: ['b0', 'b1'] }] } },
      { t: 0, type: 'facts', node: 'b1', f: { kind: 'kafka-broker', parts: [{ p: 0, role: 'follower', leo: 11, hw: 10, epoch: 1, leader: 'b0' }] } },
      { t: 5, type: 'log', node: 'b0', from: 0, add: Array.from({ length: 12 }, (_, i) => ({ term: 1, kind: 'record' as const, worker: 'w0', seq: i })) },
    ]);
    const m = serverPanelModel(runStateAt(ix, runStatic(ids), 10), ix, 4, { workers: 1, servers: 1, cfg: kafkaCfg }, 'en');
    expect(m.kafka).toBe(true);
    expect(m.rows.map((r) => [r.id, r.role, r.term, r.commitIndex])).toEqual([
      ['b0', 'leader', 1, 10],
      ['b1', 'follower', 1, 10],
      ['s0', 'consumer', null, null],
    ]);
    expect(m.window).toEqual({ lo: 8, hi: 11 });
    expect(m.rows[0].log.map((b) => [b.index, b.committed])).toEqual([
      [8, true],
      [9, true],
      [10, false],
      [11, false],
    ]);
    expect(m.rows[0].facts).toBe('ISR {b0, b1} · LEO 12');
    expect(m.rows[2].facts).toBe('offset 10 · lag 2 · caught up at last fetch'); // its own view: the log has moved on since
  });

  it('term colours are the six cividis steps d3 computes, cycling from term 1', () => {
    for (let step = 0; step < 6; step++) {
      expect(termColour(step + 1)).toBe(interpolateCividis(0.08 + (step / 5) * 0.84));
      expect(termColour(step + 7)).toBe(termColour(step + 1));
    }
  });

  it('neighbouring terms get different colours with readable text', () => {
    for (let t = 1; t < 12; t++) {
      expect(termColour(t)).not.toBe(termColour(t + 1));
      expect(['#111', '#fff']).toContain(termText(t));
    }
  });

  it('coordination servers: their own rows (ZooKeeper: epochs, the committed prefix from the zxid; a paused one says so), titled for the service', () => {
    const zxid = (epoch: number, counter: number) => epoch * 2 ** 32 + counter;
    const zk = (role: 'leader' | 'follower' | 'looking', commit: number): NodeFacts => ({
      kind: 'coord-server',
      service: 'zookeeper',
      role,
      term: 2,
      leader: role === 'looking' ? null : 'c0',
      commit,
      revision: commit,
      leases: [{ id: 1, owner: 'w0' }],
      locks: [{ name: 'params', holder: 'w0', token: zxid(2, 3), waiting: ['w1'] }],
      meta: [],
    });
    // Epoch 1 left 2 transactions; epoch 2 proposed 3 so far: the leader committed 0x200000002, c1 only 0x100000002.
    const log: LogItem[] = [...Array.from({ length: 2 }, () => ({ term: 1, kind: 'record' as const })), ...Array.from({ length: 3 }, () => ({ term: 2, kind: 'record' as const }))];
    const ids = ['w0', 's0', 'c0', 'c1'];
    const ix = build(ids, [
      { t: 0, type: 'facts', node: 's0', f: { kind: 'ps-server', version: 0 } },
      { t: 0, type: 'facts', node: 'c0', f: zk('leader', zxid(2, 2)) },
      { t: 0, type: 'facts', node: 'c1', f: zk('follower', zxid(1, 2)) },
      { t: 10, type: 'log', node: 'c0', from: 1, add: log },
      { t: 10, type: 'log', node: 'c1', from: 1, add: log },
      { t: 20, type: 'action', source: 'timeline', action: { do: 'pause', node: 'c1', ms: 100 } },
    ]);
    expect(showServers(ix)).toBe(true);
    const ctx = { workers: 1, servers: 1, cfg: strategySchema.parse({ kind: 'ps-async' }), coord: 'zookeeper' as const };
    const m = serverPanelModel(runStateAt(ix, runStatic(ids), 50), ix, 10, ctx, 'en');
    expect(m.flavor).toBe('zab');
    expect(m.coordOnly).toBe('zookeeper');
    expect(m.rows.map((r) => [r.id, r.kind, r.role, r.term, r.commitIndex])).toEqual([
      ['c0', 'coord', 'leader', 2, 4],
      ['c1', 'coord', 'paused', 2, 2],
    ]);
    expect(m.rows[0].log.map((b) => b.committed)).toEqual([true, true, true, true, false]);
    expect(m.rows[0].facts).toContain('lock: w0, token 0x200000003, 1 queued');
    expect(m.rows[1].lines[0]).toMatch(/^paused since 0\.02 s/);
    // After the pause, c1 follows again.
    expect(serverPanelModel(runStateAt(ix, runStatic(ids), 200), ix, 10, ctx, 'en').rows[1].role).toBe('follower');
  });

  it('zabCommitted: older epochs are committed, of the commit epoch the first `counter` entries', () => {
    const rows = (terms: number[]) => terms.map((term, i) => ({ index: i + 1, item: { term, kind: 'record' as const } }));
    expect(zabCommitted(rows([1, 1, 2, 2, 2]), 2 * 2 ** 32 + 1)).toBe(3);
    expect(zabCommitted(rows([1, 1, 2, 2, 2]), 1 * 2 ** 32 + 1)).toBe(1);
    expect(zabCommitted(rows([1, 1, 3]), 3 * 2 ** 32 + 1)).toBe(3);
    expect(zabCommitted(rows([1, 1]), 0)).toBe(0);
  });
});
