import { describe, expect, it } from 'vitest';
import { admitRead, admitUpdate, followerAnswered, leaseValid, queueRead, roundConfirmed, serveReads, type ReadState } from './requests';
import { becomeLeader } from './rules';
import { SeqTable } from './seqTable';
import { freshVolatile, type LogEntry, type RaftCore } from './state';

let uid = 0;
const upd = (term: number, worker: string, seq: number): LogEntry => ({ term, kind: 'update', worker, seq, uid: ++uid });
const read = (term: number, worker: string, readId: number): LogEntry => ({ term, kind: 'read', worker, readId, uid: ++uid });
const noop = (term: number): LogEntry => ({ term, kind: 'noop', uid: ++uid });

const PEERS = ['s1', 's2', 's3', 's4'];
/** s0 in `term` with `log`, leader unless said otherwise, commit and apply index `commit`. */
function server(log: LogEntry[], term: number, commit: number, role: 'leader' | 'follower' = 'leader', leaderId: string | null = null): RaftCore {
  const s: RaftCore = { id: 's0', peers: PEERS, p: { currentTerm: term, votedFor: null, log, snapIndex: 0, snapTerm: 0 }, v: freshVolatile() };
  if (role === 'leader') becomeLeader(s);
  else s.v.leaderId = leaderId;
  s.v.commitIndex = commit;
  s.v.lastApplied = commit;
  return s;
}
const reads = (): ReadState => ({ pendingReads: [], round: 0, ackedRound: new Map(), ackedSentAt: new Map() });

describe('client sessions at the server (thesis §6.3)', () => {
  const applied = new SeqTable();
  applied.set('w0', 1, 7);

  it.each([
    ['a follower redirects with its leader hint', () => server([], 3, 0, 'follower', 's2'), 'w0', 5, { do: 'redirect', hint: 's2' }],
    ['a follower that knows no leader redirects without a hint', () => server([], 3, 0, 'follower'), 'w0', 5, { do: 'redirect', hint: null }],
    ['already applied: acknowledged again with the version it produced', () => server([], 3, 0), 'w0', 1, { do: 'ack', version: 7 }],
    ['a retry of an own-term uncommitted entry waits for that entry', () => server([noop(3), upd(3, 'w0', 5)], 3, 1), 'w0', 5, { do: 'wait' }],
    ['another client with the same seq is a different update', () => server([noop(3), upd(3, 'w1', 5)], 3, 1), 'w0', 5, { do: 'append' }],
    ['a copy from an older term is appended again (it may never commit)', () => server([upd(2, 'w0', 5), noop(3)], 3, 0), 'w0', 5, { do: 'append' }],
    ['a committed but not yet applied copy is not waited for: appended again, skipped at apply', () => server([noop(3), upd(3, 'w0', 5)], 3, 2), 'w0', 5, { do: 'append' }],
    ['new', () => server([noop(3)], 3, 1), 'w0', 6, { do: 'append' }],
  ] as const)('%s', (_name, make, worker, seq, decision) => {
    const s = make();
    const before = s.p.log.length;
    expect(admitUpdate(s, applied, worker, seq)).toEqual(decision);
    expect(s.p.log.length).toBe(before); // it decides; the strategy appends
  });
});

describe('the request-size limit (etcd --max-request-bytes)', () => {
  const applied = new SeqTable();
  it.each([
    ['larger than the limit: refused before anything else, even at a follower', 'follower', 4_194_304, 1_572_864, { do: 'tooLarge' }],
    ['larger than the limit at the leader: refused, never appended', 'leader', 4_194_304, 1_572_864, { do: 'tooLarge' }],
    ['exactly the limit: admitted', 'leader', 1_572_864, 1_572_864, { do: 'append' }],
    ['no limit: admitted', 'leader', 4_194_304, undefined, { do: 'append' }],
    ['within the limit at a follower: redirected as usual', 'follower', 100, 1_572_864, { do: 'redirect', hint: 's2' }],
  ] as const)('%s', (_name, role, bytes, limit, decision) => {
    const s = server([noop(3)], 3, 1, role, 's2');
    expect(admitUpdate(s, applied, 'w0', 1, { bytes, limit })).toEqual(decision);
  });
});

describe('queueing a read at the leader', () => {
  it('once per (worker, read id, forwarding member): a retransmission is not queued twice, a forward is its own entry', () => {
    const r = reads();
    queueRead(r, 'w0', 4);
    queueRead(r, 'w0', 4);
    queueRead(r, 'w0', 4, 's2');
    queueRead(r, 'w0', 4, 's2');
    queueRead(r, 'w1', 4);
    expect(r.pendingReads).toEqual([
      { worker: 'w0', readId: 4, readIndex: null, round: 0 },
      { worker: 'w0', readId: 4, via: 's2', readIndex: null, round: 0 },
      { worker: 'w1', readId: 4, readIndex: null, round: 0 },
    ]);
  });
});

describe('reads at the server, per read mode', () => {
  it.each([
    ['local', 'follower', [], { do: 'answer' }],
    ['local', 'leader', [], { do: 'answer' }],
    ['readIndex', 'follower', [], { do: 'redirect', hint: 's3' }],
    ['lease', 'follower', [], { do: 'redirect', hint: 's3' }],
    ['log', 'follower', [], { do: 'redirect', hint: 's3' }],
    ['log', 'leader', [noop(3)], { do: 'append' }],
    ['log', 'leader', [noop(3), read(3, 'w0', 4)], { do: 'wait' }],
    ['readIndex', 'leader', [noop(3)], { do: 'serve' }],
    ['lease', 'leader', [noop(3)], { do: 'serve' }],
  ] as const)('%s on a %s (log %j) → %j', (mode, role, log, decision) => {
    const s = server([...log], 3, 1, role, 's3');
    const r = reads();
    expect(admitRead(s, r, mode, 'w0', 4)).toEqual(decision);
    expect(r.pendingReads.length).toBe(decision.do === 'serve' ? 1 : 0);
  });

  it('a retransmitted read is queued once', () => {
    const s = server([noop(3)], 3, 1);
    const r = reads();
    admitRead(s, r, 'readIndex', 'w0', 4);
    admitRead(s, r, 'readIndex', 'w0', 4);
    admitRead(s, r, 'readIndex', 'w1', 4);
    expect(r.pendingReads.map((q) => [q.worker, q.readId])).toEqual([
      ['w0', 4],
      ['w1', 4],
    ]);
  });
});

describe('ReadIndex (thesis §6.4)', () => {
  const o = { lease: false, now: 1000, minElectionTimeoutMs: 150 };

  it('waits until an entry of the leader’s own term has committed, then takes the commit index and starts one round for all', () => {
    const s = server([upd(2, 'w1', 1), noop(3)], 3, 1); // the no-op of term 3 is not committed yet
    const r = reads();
    admitRead(s, r, 'readIndex', 'w0', 1);
    admitRead(s, r, 'readIndex', 'w1', 1);
    expect(serveReads(s, r, o)).toEqual({ answer: [], heartbeat: false });
    expect(r.pendingReads.every((q) => q.readIndex === null)).toBe(true);
    s.v.commitIndex = s.v.lastApplied = 2;
    expect(serveReads(s, r, o)).toEqual({ answer: [], heartbeat: true });
    expect(r.pendingReads.map((q) => [q.readIndex, q.round])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    expect(r.round).toBe(1);
  });

  it('answers once a majority answered the round (itself included) and readIndex is applied, in arrival order', () => {
    const s = server([noop(3)], 3, 1);
    const r = reads();
    admitRead(s, r, 'readIndex', 'w0', 1);
    admitRead(s, r, 'readIndex', 'w1', 1);
    serveReads(s, r, o);
    followerAnswered(r, 's1', 1, 990);
    expect(roundConfirmed(s, r, 1)).toBe(false); // 2 of 5
    expect(serveReads(s, r, o).answer).toEqual([]);
    followerAnswered(r, 's2', 1, 990);
    expect(roundConfirmed(s, r, 1)).toBe(true);
    s.v.lastApplied = 0; // confirmed, but the state machine is behind readIndex
    expect(serveReads(s, r, o).answer).toEqual([]);
    s.v.lastApplied = 1;
    const out = serveReads(s, r, o);
    expect(out.answer.map((q) => q.worker)).toEqual(['w0', 'w1']);
    expect(out.heartbeat).toBe(false);
    expect(r.pendingReads).toEqual([]);
  });

  it('an answer to an older round does not confirm a newer one; answers never move backwards', () => {
    const r = reads();
    followerAnswered(r, 's1', 3, 500);
    followerAnswered(r, 's1', 2, 400); // a late answer to an older request
    expect(r.ackedRound.get('s1')).toBe(3);
    expect(r.ackedSentAt.get('s1')).toBe(500);
    const s = server([noop(3)], 3, 1);
    followerAnswered(r, 's2', 3, 500);
    expect(roundConfirmed(s, r, 4)).toBe(false);
    expect(roundConfirmed(s, r, 3)).toBe(true);
  });

  it('a follower serves nothing (its pending reads were dropped when it stepped down)', () => {
    const s = server([noop(3)], 3, 1, 'follower');
    const r = reads();
    r.pendingReads.push({ worker: 'w0', readId: 1, readIndex: 1, round: 1 });
    expect(serveReads(s, r, o)).toEqual({ answer: [], heartbeat: false });
  });
});

describe('lease reads', () => {
  const o = (now: number) => ({ lease: true, now, minElectionTimeoutMs: 150 });

  it.each([
    // send times of the newest answered requests of s1..s4, now → lease valid?
    [[900, 880, -Infinity, -Infinity], 1000, true, 'two followers answered requests sent within 150 ms'],
    [[900, 800, -Infinity, -Infinity], 1000, false, 'the second-newest answer is 200 ms old'],
    [[900, -Infinity, -Infinity, -Infinity], 1000, false, 'one follower is not a majority of five'],
    [[999, 850, 851, 100], 1000, true, 'the majority’s oldest needed answer (851) counts'],
    [[999, 850, 851, 100], 1001, false, 'expires exactly at send time + minimum election timeout'],
  ] as const)('%j at %i → %s (%s)', (sent, now, valid, _why) => {
    const s = server([noop(3)], 3, 1);
    const r = reads();
    PEERS.forEach((p, i) => Number.isFinite(sent[i]) && followerAnswered(r, p, 0, sent[i]));
    expect(leaseValid(s, r, now, 150)).toBe(valid);
  });

  it('answers without a round while the lease holds; falls back to a round when it has expired', () => {
    const s = server([noop(3)], 3, 1);
    const r = reads();
    followerAnswered(r, 's1', 0, 900);
    followerAnswered(r, 's2', 0, 900);
    admitRead(s, r, 'lease', 'w0', 1);
    expect(serveReads(s, r, o(1000))).toMatchObject({ answer: [{ worker: 'w0' }], heartbeat: false });
    admitRead(s, r, 'lease', 'w1', 1);
    s.v.lastApplied = 0; // waits for apply under the lease: no round needed yet
    expect(serveReads(s, r, o(1000))).toEqual({ answer: [], heartbeat: false });
    expect(r.pendingReads[0]).toMatchObject({ readIndex: 1, round: 0 });
    s.v.lastApplied = 1;
    expect(serveReads(s, r, o(1100))).toEqual({ answer: [], heartbeat: true }); // lease gone: confirm by a round
    expect(r.pendingReads[0].round).toBe(1);
  });

  it('a one-server cluster needs nobody', () => {
    const s: RaftCore = { id: 's0', peers: [], p: { currentTerm: 1, votedFor: null, log: [noop(1)], snapIndex: 0, snapTerm: 0 }, v: freshVolatile() };
    expect(leaseValid(s, reads(), 1e9, 150)).toBe(true);
  });
});
