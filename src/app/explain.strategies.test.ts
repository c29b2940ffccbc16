import { describe, expect, it } from 'vitest';
import type { LinkView, NodeView } from '../engine/api';
import type { NodeDetail } from '../protocols/strategy';
import { deriveExplainState, explain, isrFromLines, type ExplainInput, type HistorySummary } from './explain';

/**
 * "WHAT YOU SEE" for the strategies beyond the spine: one test per state a lesson shows, each
 * checking the sentence names the right nodes and says the right thing about C, A and quorums
 * (TRUTHS.md), in English and Chinese.
 */

const props = { latencyMs: 5, jitterMs: 1, bandwidthMbps: 100, loss: 0, duplicate: 0 };

function node(id: string, over: Partial<NodeView> = {}, detail?: NodeDetail): NodeView {
  return {
    id,
    role: id.startsWith('w') ? 'worker' : id.startsWith('b') ? 'broker' : 'server',
    up: true,
    version: 10,
    synced: 10,
    steps: 10,
    slowFactor: 1,
    computing: false,
    status: '',
    backend: '',
    ...(detail ? { detail } : {}),
    ...over,
  };
}

const workers = ['w0', 'w1', 'w2', 'w3'].map((id) => node(id));
const noHistory: HistorySummary = { notes: {}, crashedAt: {}, firstViolation: null };

function input(over: Partial<ExplainInput>): ExplainInput {
  return {
    strategy: 'raft-ps',
    now: 5000,
    done: false,
    nodes: workers,
    links: [],
    lastRepairAt: null,
    metrics: { availability: 1, staleness: 0, versionConflicts: 0, divergence: 0, violations: 0 },
    config: {},
    partition: null,
    history: noHistory,
    ...over,
  };
}

function both(i: ExplainInput): { en: string; zh: string } {
  const st = deriveExplainState(i);
  return { en: explain(st, 'en'), zh: explain(st, 'zh') };
}

const raftSrv = (id: string, role: string, term: number, up = true) => node(id, { up }, { role, term, commitIndex: 5, log: [], lines: [] });

describe('explain: raft-ps', () => {
  it('healthy: names the leader, its term and the majority; PC/EC', () => {
    const t = both(input({ nodes: [...workers, raftSrv('s0', 'leader', 2), raftSrv('s1', 'follower', 2), raftSrv('s2', 'follower', 2)] }));
    expect(t.en).toContain('Leader s0 (term 2)');
    expect(t.en).toContain('majority (2 of 3)');
    expect(t.en).toContain('PC/EC');
    expect(t.zh).toContain('领导者 s0（任期 2）');
    expect(t.zh).toContain('多数派');
  });

  it('election in progress: the candidate, its term and the votes it needs', () => {
    const t = both(input({ nodes: [...workers, raftSrv('s0', 'crashed', 1, false), raftSrv('s1', 'candidate', 2), raftSrv('s2', 'follower', 1)] }));
    expect(t.en).toContain('Election in progress: s1 is a candidate for term 2');
    expect(t.en).toContain('needs 2 of 3');
    expect(t.zh).toContain('选举进行中');
    expect(t.zh).toContain('候选者');
  });

  it('leader crash before anyone times out: no leader, waiting for the election timeout', () => {
    const t = both(input({ nodes: [...workers, raftSrv('s0', 'crashed', 1, false), raftSrv('s1', 'follower', 1), raftSrv('s2', 'follower', 1)], config: { electionTimeoutMs: [150, 300] } }));
    expect(t.en).toContain('No leader: s0 crashed');
    expect(t.en).toContain('150–300 ms');
    expect(t.zh).toContain('选举超时');
  });

  it('new leader just elected: the pause was about one election timeout', () => {
    const history: HistorySummary = { notes: { leaderElected: { t: 4400, node: 's2', data: { term: 3 } } }, crashedAt: { s0: 4000 }, firstViolation: null };
    const t = both(input({ history, metrics: { maxCommitGapMs: 312 }, nodes: [...workers, raftSrv('s0', 'crashed', 2, false), raftSrv('s1', 'follower', 3), raftSrv('s2', 'leader', 3)] }));
    expect(t.en).toContain('s2 won the election for term 3');
    expect(t.en).toContain('312 ms');
    expect(t.zh).toContain('赢得任期 3 的选举');
  });

  it('partition: majority side commits, minority never commits, the stale leader is named', () => {
    const partition = [['s0', 'w0', 'w1'], ['s1', 's2', 'w2', 'w3']];
    const t = both(input({ partition, nodes: [...workers, raftSrv('s0', 'leader', 1), raftSrv('s1', 'leader', 2), raftSrv('s2', 'follower', 2)] }));
    expect(t.en).toContain('{s1, s2} are a majority (2 of 3)');
    expect(t.en).toContain('leader s1 (term 2)');
    expect(t.en).toContain('s0 on the minority side never commits');
    expect(t.en).toContain('w0, w1 there wait');
    expect(t.en).toContain('s0 still believes it leads (term 1)');
    expect(t.zh).toContain('少数派');
    expect(t.zh).toContain('永远无法提交');
  });

  it('partition without a majority anywhere: nothing commits', () => {
    const five = ['s0', 's1', 's2', 's3', 's4'].map((id) => raftSrv(id, 'follower', 1));
    const partition = [['s0', 's1', 'w0', 'w1'], ['s2', 's3', 'w2', 'w3'], ['s4']];
    const t = both(input({ partition, nodes: [...workers, ...five] }));
    expect(t.en).toContain('no side holds a majority of the 5 servers (3 needed)');
  });

  it('a follower crash leaves a majority: training continues', () => {
    const t = both(input({ nodes: [...workers, raftSrv('s0', 'leader', 1), raftSrv('s1', 'follower', 1), raftSrv('s2', 'crashed', 1, false)] }));
    expect(t.en).toContain('s2 crashed, but 2 of 3 servers are still a majority');
    expect(t.en).toContain('f = 1');
  });
});

const broker = (id: string, role: string, up = true, isr = 'b0,b1,b2') =>
  node(id, { up }, { role, term: 1, commitIndex: 10, log: [], lines: role === 'leader' ? [`p0 leader · LEO 12 · HW 10 · ISR {${isr}} · epoch 1`] : ['p0 follower · LEO 10 · HW 10'] });
const consumers = [node('s0', {}, { role: 'consumer', lines: ['offset 10, lag 0'] })];

describe('explain: kafka-ps', () => {
  it('healthy: the log is totally ordered; stale reads make it eventual, not Kafka', () => {
    const t = both(input({ strategy: 'kafka-ps', config: { acks: 'all', 'min.insync.replicas': 2 }, metrics: { consumerLag: 3, staleness: 2 }, nodes: [...workers, ...consumers, broker('b0', 'leader'), broker('b1', 'follower'), broker('b2', 'follower')] }));
    expect(t.en).toContain("b0's partition log");
    expect(t.en).toContain('ISR {b0, b1, b2}');
    expect(t.en).toContain('totally ordered');
    expect(t.en).toContain('reading parameters from a replica that is behind');
    expect(t.zh).toContain('全序');
    expect(t.zh).toContain('消费滞后');
  });

  const crashed: HistorySummary = { notes: { leaderElected: { t: 4700, node: 'b1' } }, crashedAt: { b0: 4000 }, firstViolation: null };
  const afterCrash = [...workers, ...consumers, broker('b0', 'follower', false), broker('b1', 'leader', true, 'b1,b2'), broker('b2', 'follower')];

  it('leader crash with acks=1: the unreplicated tail is lost', () => {
    const t = both(input({ strategy: 'kafka-ps', config: { acks: '1' }, history: crashed, metrics: { lostUpdates: 7 }, nodes: afterCrash }));
    expect(t.en).toContain('Leader b0 crashed with acks=1');
    expect(t.en).toContain('lost updates 7');
    expect(t.zh).toContain('acks=1');
    expect(t.zh).toContain('丢失的更新 7');
  });

  it('leader crash with acks=all: nothing acknowledged is lost', () => {
    const t = both(input({ strategy: 'kafka-ps', config: { acks: 'all', 'min.insync.replicas': 2 }, history: crashed, metrics: { lostUpdates: 0 }, nodes: afterCrash }));
    expect(t.en).toContain('b1, an in-sync replica, took over');
    expect(t.en).toContain('nothing acknowledged is lost');
  });

  it('ISR below min.insync.replicas: writes refused, C over A', () => {
    const history: HistorySummary = { notes: { notEnoughReplicas: { t: 4900, node: 'b0' } }, crashedAt: {}, firstViolation: null };
    const t = both(input({ strategy: 'kafka-ps', config: { acks: 'all', 'min.insync.replicas': 2 }, history, metrics: { rejectedWrites: 12 }, nodes: [...workers, ...consumers, broker('b0', 'leader', true, 'b0'), broker('b1', 'follower'), broker('b2', 'follower')] }));
    expect(t.en).toContain('ISR shrank to {b0}, fewer than min.insync.replicas=2');
    expect(t.en).toContain('rejected writes 12');
    expect(t.en).toContain('C over A');
    expect(t.zh).toContain('拒绝写入');
  });

  it('no live in-sync replica and unclean election off: offline, waits', () => {
    const t = both(input({ strategy: 'kafka-ps', config: { acks: 'all' }, nodes: [...workers, ...consumers, broker('b0', 'leader', false), broker('b1', 'follower', false), broker('b2', 'follower', false)] }));
    expect(t.en).toContain('partition is offline');
    expect(t.en).toContain('unclean.leader.election.enable=false');
  });

  it('unclean election: committed records lost', () => {
    const history: HistorySummary = { notes: { uncleanElection: { t: 4900, node: 'b2' } }, crashedAt: {}, firstViolation: null };
    const t = both(input({ strategy: 'kafka-ps', config: { acks: 'all', 'unclean.leader.election.enable': true }, history, metrics: { lostUpdates: 4 }, nodes: [...workers, ...consumers, broker('b2', 'leader')] }));
    expect(t.en).toContain('Unclean leader election: b2');
    expect(t.zh).toContain('unclean 领导者选举');
  });

  it('reads ISR from a broker line', () => {
    expect(isrFromLines(['p0 leader · LEO 3 · HW 2 · ISR {b0,b2} · epoch 4'])).toEqual(['b0', 'b2']);
    expect(isrFromLines(['p0 follower'])).toBeNull();
  });
});

describe('explain: ssp, ps-sync, degrade', () => {
  const srvLinks = (cut: string[]): LinkView[] =>
    ['w0', 'w1', 'w2', 'w3'].flatMap((w) => [
      { from: w, to: 's0', cut: false, partitioned: cut.includes(w), props },
      { from: 's0', to: w, cut: false, partitioned: cut.includes(w), props },
    ]);

  it('ssp: blocked at the bound under a partition', () => {
    const blockedStatus = { status: 'clock 7: blocked until the slowest worker reaches clock 4' };
    const nodes = [node('w0', blockedStatus), node('w1', blockedStatus), node('w2', blockedStatus), node('w3'), node('s0')];
    const t = both(input({ strategy: 'ssp', config: { staleness: 3 }, nodes, links: srvLinks(['w2', 'w3']), metrics: { maxClockGap: 3 } }));
    expect(t.en).toContain('w2, w3 cannot reach s0');
    expect(t.en).toContain('block at the bound (w0, w1 waiting)');
    expect(t.en).toContain('staleness ≤ s');
    expect(t.zh).toContain('界限');
  });

  it('ssp: healthy names s and the BSP/ASP ends', () => {
    const t = both(input({ strategy: 'ssp', now: 0, config: { staleness: 2 }, nodes: [...workers, node('s0')] }));
    expect(t.en).toContain('s = 2');
    expect(t.en).toContain('s = 0 is BSP');
  });

  it('ps-sync: a cut-off worker stalls the barrier; backup workers absorb it', () => {
    const base = input({ strategy: 'ps-sync', nodes: [...workers, node('s0')], links: srvLinks(['w3']), metrics: { availability: 0 } });
    expect(both(base).en).toContain('the round never closes and every worker waits');
    expect(both({ ...base, config: { backupWorkers: 1 } }).en).toContain('closes with the first 3 gradients');
  });

  it('degrade: degraded with a majority side and fenced writes', () => {
    const nodes = workers.map((w) => node(w.id, {}, { role: 'eventual', term: 2 }));
    const t = both(input({ strategy: 'degrade', partition: [['w0', 'w1', 'w2'], ['w3']], nodes, metrics: { degradedWorkers: 4, fencedWrites: 2, divergence: 0.3 } }));
    expect(t.en).toContain('4 workers switched to eventual mode');
    expect(t.en).toContain('A kept, C lost');
    expect(t.en).toContain('majority side {w0, w1, w2}');
    expect(t.en).toContain('fenced writes 2');
    expect(t.zh).toContain('纪元号');
  });

  it('degrade: merging names the rule and its cost', () => {
    const nodes = workers.map((w) => node(w.id, { status: 'healed: merging (discard)' }, { role: 'eventual', term: 2 }));
    const t = both(input({ strategy: 'degrade', config: { merge: 'discard' }, nodes, metrics: { degradedWorkers: 4, lostWork: 9 } }));
    expect(t.en).toContain('are merging');
    expect(t.en).toContain('lost work 9');
    expect(t.zh).toContain('丢弃');
  });

  it('degrade: cut but not yet detected: waiting for the failure detector', () => {
    const t = both(input({ strategy: 'degrade', config: { detectTimeoutMs: 600 }, partition: [['w0', 'w1'], ['w2', 'w3']], nodes: workers.map((w) => node(w.id, {}, { role: 'strong', term: 1 })), metrics: { degradedWorkers: 0 } }));
    expect(t.en).toContain('failure detector');
    expect(t.en).toContain('600 ms');
  });
});

describe('explain: across strategies', () => {
  it('puts a broken invariant first, with its detail', () => {
    const history: HistorySummary = { notes: {}, crashedAt: {}, firstViolation: { invariant: 'election-safety', detail: 'two leaders in term 3' } };
    const t = both(input({ history, metrics: { violations: 1 }, nodes: [...workers, raftSrv('s0', 'leader', 3), raftSrv('s1', 'leader', 3), raftSrv('s2', 'follower', 3)] }));
    expect(t.en.startsWith('⚠ Invariant broken (1; first: election-safety: two leaders in term 3)')).toBe(true);
    expect(t.zh.startsWith('⚠ 不变量被破坏')).toBe(true);
  });

  it('never calls a strategy "CA", and every Chinese sentence is Chinese', () => {
    const cases: ExplainInput[] = [
      input({ nodes: [...workers, raftSrv('s0', 'leader', 2), raftSrv('s1', 'follower', 2), raftSrv('s2', 'follower', 2)] }),
      input({ strategy: 'kafka-ps', nodes: [...workers, ...consumers, broker('b0', 'leader')] }),
      input({ strategy: 'ssp', nodes: [...workers, node('s0')] }),
      input({ strategy: 'ps-sync', nodes: [...workers, node('s0')] }),
      input({ strategy: 'degrade', nodes: workers }),
    ];
    for (const c of cases)
      for (const now of [0, 5000]) {
        const t = both({ ...c, now });
        expect(t.en).not.toMatch(/(^|[^"“])\bCA\b/);
        expect(t.zh).toMatch(/[\u4e00-\u9fff]/);
      }
  });
});
