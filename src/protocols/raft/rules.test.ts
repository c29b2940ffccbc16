import { describe, expect, it } from 'vitest';
import {
  advanceCommit,
  becomeCandidate,
  becomeLeader,
  buildAppend,
  checkQuorum,
  disregardsVote,
  handleAppendEntries,
  handleAppendReply,
  handlePreVote,
  handleRequestVote,
  handleVoteReply,
  leaderAppend,
  leaderRecent,
  logUpToDate,
  preVoteRequest,
  storedOnMajority,
  type AppendEntries,
} from './rules';
import { freshVolatile, wholeLog, type LogEntry, type RaftCore } from './state';

let uid = 0;
const entry = (term: number, label = ''): LogEntry => ({ term, kind: label ? 'update' : 'noop', worker: label || undefined, seq: label ? 1 : undefined, uid: ++uid });
const log = (...terms: number[]): LogEntry[] => terms.map((t) => entry(t));
const terms = (s: RaftCore) => s.p.log.map((e) => e.term);

const SERVERS = ['s0', 's1', 's2', 's3', 's4'];
function core(id: string, logTerms: number[] = [], currentTerm = 0, n = 5): RaftCore {
  const all = SERVERS.slice(0, n);
  return { id, peers: all.filter((p) => p !== id), p: { currentTerm, votedFor: null, log: log(...logTerms), snapIndex: 0, snapTerm: 0 }, v: freshVolatile() };
}

describe('the up-to-date check (§5.4.1)', () => {
  it.each([
    // candidate (lastIndex, lastTerm) vs voter's log terms → up to date?
    [3, 2, [1, 1, 2], true, 'identical last entry'],
    [4, 2, [1, 1, 2], true, 'same last term, longer'],
    [2, 2, [1, 1, 2], false, 'same last term, shorter'],
    [1, 3, [1, 1, 2], true, 'later last term wins even when shorter'],
    [9, 1, [1, 1, 2], false, 'earlier last term loses even when longer'],
    [0, 0, [], true, 'both empty'],
    [0, 0, [1], false, 'empty candidate, voter has entries'],
  ])('candidate (%i, term %i) vs voter %j → %s (%s)', (ci, ct, voter, ok) => {
    expect(logUpToDate(ci, ct, wholeLog(log(...voter)))).toBe(ok);
  });
});

describe('RequestVote', () => {
  const rv = (term: number, candidateId: string, lastLogIndex: number, lastLogTerm: number) => ({ term, candidateId, lastLogIndex, lastLogTerm });

  it.each([
    ['fresh term, equal logs', () => core('s1', [1, 1], 1), rv(2, 's0', 2, 1), true, 2],
    ['older term', () => core('s1', [1, 1], 3), rv(2, 's0', 2, 1), false, 3],
    ['candidate log behind (shorter, same last term)', () => core('s1', [1, 1, 1], 1), rv(2, 's0', 2, 1), false, 2],
    ['candidate log behind (earlier last term)', () => core('s1', [1, 2], 2), rv(3, 's0', 5, 1), false, 3],
    ['candidate log ahead by last term', () => core('s1', [1, 1, 1], 1), rv(2, 's0', 2, 2), true, 2],
  ] as const)('%s', (_name, make, req, granted, term) => {
    const s = make();
    const reply = handleRequestVote(s, req);
    expect(reply).toEqual({ term, voteGranted: granted });
    expect(s.p.votedFor).toBe(granted ? 's0' : null);
  });

  it('one vote per term: a second candidate of the same term is refused, a retransmission is granted again', () => {
    const s = core('s2', [1], 1);
    expect(handleRequestVote(s, rv(2, 's0', 1, 1)).voteGranted).toBe(true);
    expect(handleRequestVote(s, rv(2, 's1', 1, 1)).voteGranted).toBe(false);
    expect(handleRequestVote(s, rv(2, 's0', 1, 1)).voteGranted).toBe(true);
    expect(s.p.votedFor).toBe('s0');
    // A new term frees the vote.
    expect(handleRequestVote(s, rv(3, 's1', 1, 1)).voteGranted).toBe(true);
    expect(s.p.votedFor).toBe('s1');
  });

  it('a higher term makes a leader step down, even when the vote is refused', () => {
    const s = core('s0', [1, 1], 1);
    becomeLeader(s);
    const reply = handleRequestVote(s, rv(2, 's1', 1, 1));
    expect(reply).toEqual({ term: 2, voteGranted: false });
    expect(s.v.role).toBe('follower');
  });

  it('a candidate wins with a majority of the cluster, itself included; stale replies do not count', () => {
    const s = core('s0', [], 0);
    becomeCandidate(s);
    expect(s.p).toMatchObject({ currentTerm: 1, votedFor: 's0' });
    expect(handleVoteReply(s, 's1', { term: 0, voteGranted: true })).toBe('none'); // an older term's reply
    expect(handleVoteReply(s, 's1', { term: 1, voteGranted: false })).toBe('none');
    expect(handleVoteReply(s, 's2', { term: 1, voteGranted: true })).toBe('none'); // 2 of 5
    expect(handleVoteReply(s, 's2', { term: 1, voteGranted: true })).toBe('none'); // duplicate: still 2
    expect(handleVoteReply(s, 's3', { term: 1, voteGranted: true })).toBe('won'); // 3 of 5
  });

  it('a reply with a higher term ends the candidacy', () => {
    const s = core('s0', [], 4);
    becomeCandidate(s);
    expect(handleVoteReply(s, 's1', { term: 7, voteGranted: false })).toBe('stepdown');
    expect(s.v.role).toBe('follower');
    expect(s.p).toMatchObject({ currentTerm: 7, votedFor: null });
  });
});

describe('leader stickiness (thesis §4.2.3)', () => {
  const rv = (term: number) => ({ term, candidateId: 's4', lastLogIndex: 9, lastLogTerm: 9 });
  const MIN = 150;

  it.each([
    // role, currentTerm, request term, ms since it heard a leader → disregarded?
    ['follower', 2, 3, 40, true, 'heard a leader 40 ms ago: a higher term is ignored'],
    ['follower', 2, 3, 149, true, 'just inside the minimum election timeout'],
    ['follower', 2, 3, 150, false, 'a full minimum timeout without a leader: it may vote'],
    ['follower', 2, 3, Infinity, false, 'never heard a leader'],
    ['follower', 2, 2, 40, false, 'same term: the normal rules answer (and refuse a second vote)'],
    ['follower', 5, 3, 40, false, 'older term: the normal rules answer with the newer term'],
    ['leader', 2, 3, Infinity, true, 'a leader ignores higher terms while it leads'],
    ['candidate', 2, 3, Infinity, false, 'a candidate knows no live leader'],
  ] as const)('%s in term %i, RequestVote of term %i, leader heard %s ms ago → %s (%s)', (role, term, reqTerm, since, ignored, _why) => {
    const s = core('s1', [1], term);
    s.v.role = role;
    expect(disregardsVote(s, rv(reqTerm), since, MIN)).toBe(ignored);
    expect(s.p.currentTerm).toBe(term); // the rule only decides; it never adopts the term
  });
});

describe('Pre-Vote (thesis §9.6)', () => {
  it('the probe names the term it would campaign in and its log end, and changes nothing', () => {
    const s = core('s1', [1, 2], 3);
    const before = JSON.stringify([s.p, s.v.role]);
    expect(preVoteRequest(s)).toEqual({ term: 4, candidateId: 's1', lastLogIndex: 2, lastLogTerm: 2 });
    expect(JSON.stringify([s.p, s.v.role])).toBe(before);
  });

  it.each([
    // voter's log terms, voter's term, probe (term, lastIndex, lastTerm), voter heard a leader recently → granted
    [[1, 2], 3, [4, 2, 2], false, true, 'up-to-date log, newer term, no leader heard: granted'],
    [[1, 2], 3, [4, 2, 2], true, false, 'heard a leader recently: refused (a healthy leader is not unseated)'],
    [[1, 2, 2], 3, [4, 2, 2], false, false, 'the candidate’s log is behind: refused'],
    [[1, 2], 4, [4, 2, 2], false, false, 'not a newer term: refused'],
    [[1, 2], 2, [9, 5, 3], false, true, 'a much newer term with a later last entry: granted'],
  ] as const)('voter log %j in term %i, probe %j, leader heard %s → %s (%s)', (logTerms, term, [reqTerm, lastIndex, lastTerm], heard, granted, _why) => {
    const s = core('s2', [...logTerms], term);
    s.p.votedFor = 's0';
    const reply = handlePreVote(s, { term: reqTerm, candidateId: 's1', lastLogIndex: lastIndex, lastLogTerm: lastTerm }, heard);
    // A grant echoes the probed term; a refusal tells the voter's own.
    expect(reply).toEqual({ term: granted ? reqTerm : term, voteGranted: granted });
    // Answering a pre-vote never changes the voter: no new term, no vote cast.
    expect([s.p.currentTerm, s.p.votedFor]).toEqual([term, 's0']);
  });

  it('leaderRecent: a leader, or a server that heard one within the minimum election timeout', () => {
    const s = core('s1', [1], 2);
    expect(leaderRecent(s, 149, 150)).toBe(true);
    expect(leaderRecent(s, 150, 150)).toBe(false);
    s.v.role = 'leader';
    expect(leaderRecent(s, Infinity, 150)).toBe(true);
  });
});

describe('CheckQuorum', () => {
  it.each([
    // cluster size, followers heard from since the last check → outcome
    [5, [], 'stepdown'],
    [5, ['s1'], 'stepdown'],
    [5, ['s1', 's2'], 'stay'],
    [5, ['s1', 's2', 's3', 's4'], 'stay'],
    [3, ['s2'], 'stay'],
    [3, [], 'stepdown'],
    [1, [], 'stay'],
  ] as const)('%i servers, heard from %j → %s', (n, heard, outcome) => {
    const s = core('s0', [1], 1, n);
    becomeLeader(s);
    const set = new Set<string>(heard);
    expect(checkQuorum(s, set)).toBe(outcome);
    if (outcome === 'stepdown') {
      expect(s.v).toMatchObject({ role: 'follower', leaderId: null });
      expect(s.p.currentTerm).toBe(1); // it keeps its term: nobody deposed it, it stops claiming
    } else {
      expect(s.v.role).toBe('leader');
      expect(set.size).toBe(0); // counting starts again for the next election timeout
    }
  });

  it('means nothing to a follower', () => {
    const s = core('s0', [1], 1);
    expect(checkQuorum(s, new Set())).toBe('none');
    expect(s.v.role).toBe('follower');
  });
});

describe('AppendEntries', () => {
  const ae = (over: Partial<AppendEntries>): AppendEntries => ({ term: 2, leaderId: 's0', prevLogIndex: 0, prevLogTerm: 0, entries: [], leaderCommit: 0, ...over });

  it('rejects an older term and answers with its own', () => {
    const s = core('s1', [1], 3);
    const out = handleAppendEntries(s, ae({ term: 2 }));
    expect(out.reply).toMatchObject({ term: 3, success: false });
    expect(out.fromLeader).toBe(false);
  });

  it.each([
    ['prevLogIndex past the end', [1, 1], 3, 1],
    ['prevLogTerm differs', [1, 1, 1], 3, 2],
  ] as const)('log matching: rejects when %s', (_n, followerTerms, prevLogIndex, prevLogTerm) => {
    const s = core('s1', [...followerTerms], 1);
    const out = handleAppendEntries(s, ae({ prevLogIndex, prevLogTerm, entries: [entry(2)] }));
    expect(out.reply).toMatchObject({ success: false, lastLogIndex: followerTerms.length, prevLogIndex });
    expect(out.fromLeader).toBe(true); // still a current leader: the follower resets its timer
    expect(terms(s)).toEqual(followerTerms);
  });

  it('deletes a conflicting entry and everything after it, then appends', () => {
    const s = core('s1', [1, 1, 2, 2, 2], 2);
    const out = handleAppendEntries(s, ae({ term: 3, prevLogIndex: 2, prevLogTerm: 1, entries: [entry(3), entry(3)] }));
    expect(out.reply).toMatchObject({ success: true, matchIndex: 4 });
    expect(terms(s)).toEqual([1, 1, 3, 3]);
    expect(out.truncated.map((e) => e.term)).toEqual([2, 2, 2]);
    expect(out.stored).toEqual([3, 4]);
  });

  it('never truncates on a delayed or duplicated request whose entries are already there', () => {
    const s = core('s1', [], 2);
    const e1 = entry(2);
    const e2 = entry(2);
    handleAppendEntries(s, ae({ entries: [e1, e2] }));
    const stale = handleAppendEntries(s, ae({ entries: [e1] })); // the older request arrives late
    expect(stale.reply).toMatchObject({ success: true, matchIndex: 1 });
    expect(stale.truncated).toEqual([]);
    expect(s.p.log).toEqual([e1, e2]);
  });

  it('commitIndex = min(leaderCommit, index of the last new entry), and never decreases', () => {
    const s = core('s1', [1, 1, 1, 1], 1);
    handleAppendEntries(s, ae({ prevLogIndex: 2, prevLogTerm: 1, leaderCommit: 4 }));
    expect(s.v.commitIndex).toBe(2); // the follower only vouches for what the request covered
    handleAppendEntries(s, ae({ prevLogIndex: 3, prevLogTerm: 1, entries: [entry(2)], leaderCommit: 9 }));
    expect(s.v.commitIndex).toBe(4);
    handleAppendEntries(s, ae({ prevLogIndex: 1, prevLogTerm: 1, leaderCommit: 9 }));
    expect(s.v.commitIndex).toBe(4);
  });

  it('a candidate of the same term recognises the leader; a higher term is adopted', () => {
    const c = core('s1', [1], 1);
    becomeCandidate(c); // term 2
    handleAppendEntries(c, ae({ term: 2, prevLogIndex: 1, prevLogTerm: 1 }));
    expect(c.v).toMatchObject({ role: 'follower', leaderId: 's0' });
    expect(c.p.votedFor).toBe('s1'); // its vote in term 2 stands
    const f = core('s2', [1], 1);
    handleAppendEntries(f, ae({ term: 5, prevLogIndex: 1, prevLogTerm: 1 }));
    expect(f.p).toMatchObject({ currentTerm: 5, votedFor: null });
  });
});

describe('leader side: nextIndex back-off and the commit rule', () => {
  it('backs nextIndex off on a mismatch and ignores answers to older probes', () => {
    const s = core('s0', [1, 1, 1, 2, 2], 2);
    becomeLeader(s);
    expect(buildAppend(s, 's1', 64)).toMatchObject({ prevLogIndex: 5, prevLogTerm: 2, entries: [] });
    // s1 has only 2 entries: the leader may jump to its end + 1.
    expect(handleAppendReply(s, 's1', { term: 2, success: false, matchIndex: 0, prevLogIndex: 5, lastLogIndex: 2 })).toBe('retry');
    expect(s.v.nextIndex.get('s1')).toBe(3);
    // s2 has a long conflicting log: one step back at a time.
    expect(handleAppendReply(s, 's2', { term: 2, success: false, matchIndex: 0, prevLogIndex: 5, lastLogIndex: 9 })).toBe('retry');
    expect(s.v.nextIndex.get('s2')).toBe(5);
    expect(handleAppendReply(s, 's2', { term: 2, success: false, matchIndex: 0, prevLogIndex: 5, lastLogIndex: 9 })).toBe('none'); // duplicate answer
    expect(s.v.nextIndex.get('s2')).toBe(5);
    expect(handleAppendReply(s, 's2', { term: 2, success: true, matchIndex: 5, prevLogIndex: 4, lastLogIndex: 5 })).toBe('progress');
    expect(s.v.matchIndex.get('s2')).toBe(5);
    expect(handleAppendReply(s, 's2', { term: 2, success: true, matchIndex: 3, prevLogIndex: 3, lastLogIndex: 5 })).toBe('none'); // stale success
    expect(s.v.matchIndex.get('s2')).toBe(5);
    expect(s.v.nextIndex.get('s2')).toBe(6);
  });

  it('commits the highest current-term index stored on a majority', () => {
    const s = core('s0', [1], 1);
    becomeCandidate(s);
    becomeLeader(s, entry(2));
    leaderAppend(s, entry(2));
    s.v.matchIndex.set('s1', 3);
    expect(advanceCommit(s)).toBe(0); // 2 of 5
    s.v.matchIndex.set('s2', 2);
    expect(advanceCommit(s)).toBe(2); // index 2 on s0, s1, s2; index 3 only on s0, s1
    s.v.matchIndex.set('s3', 3);
    expect(advanceCommit(s)).toBe(3);
  });

  it('a reply with a higher term deposes the leader', () => {
    const s = core('s0', [1], 1);
    becomeLeader(s);
    expect(handleAppendReply(s, 's1', { term: 4, success: false, matchIndex: 0, prevLogIndex: 1, lastLogIndex: 0 })).toBe('stepdown');
    expect(s.v.role).toBe('follower');
    expect(s.p.currentTerm).toBe(4);
  });
});

/**
 * Raft paper, Figure 8 (S1…S5 = s0…s4), driven through the rules only. An entry of term 2 ends
 * up on a majority while the leader is in term 4: it must not commit by counting, and the term-3
 * candidate can then still win and overwrite it — which is safe only because it never committed.
 */
describe('Figure 8: stored on a majority is not committed', () => {
  function deliver(leader: RaftCore, follower: RaftCore) {
    const req = buildAppend(leader, follower.id, 64)!;
    const out = handleAppendEntries(follower, req);
    handleAppendReply(leader, follower.id, out.reply);
    return out;
  }
  function elect(c: RaftCore, voters: RaftCore[]) {
    const req = becomeCandidate(c);
    let won = false;
    for (const v of voters) if (handleVoteReply(c, v.id, handleRequestVote(v, req)) === 'won') won = true;
    if (won) becomeLeader(c);
    return won;
  }

  function setup() {
    const S = SERVERS.map((id) => core(id));
    const [s0, s1, s2, s3, s4] = S;
    // Term 1: s0 leads and replicates index 1 everywhere, committed.
    expect(elect(s0, [s1, s2])).toBe(true);
    leaderAppend(s0, entry(1, 'w0'));
    for (const f of [s1, s2, s3, s4]) deliver(s0, f);
    expect(advanceCommit(s0)).toBe(1);
    // (a) Term 2: s0 leads again, appends index 2, which reaches only s1.
    expect(elect(s0, [s1, s2])).toBe(true);
    expect(s0.p.currentTerm).toBe(2);
    leaderAppend(s0, entry(2, 'w0'));
    deliver(s0, s1);
    expect(terms(s0)).toEqual([1, 2]);
    expect(terms(s1)).toEqual([1, 2]);
    // (b) s0 crashes. s4 is elected in term 3 by s2, s3 (and itself), appends a different index 2.
    s0.v = freshVolatile();
    s4.p.currentTerm = 2;
    expect(elect(s4, [s2, s3])).toBe(true);
    expect(s4.p.currentTerm).toBe(3);
    leaderAppend(s4, entry(3, 'w1'));
    // (c) s4 crashes; s0 restarts and is elected in term 4 (s1, s2 vote), replicates index 2 (term 2) to s2
    // and appends index 3 of term 4, which reaches nobody yet.
    s4.v = freshVolatile();
    s0.p.currentTerm = 3; // it timed out once in term 3 without winning
    expect(elect(s0, [s1, s2, s3])).toBe(true);
    expect(s0.p.currentTerm).toBe(4);
    leaderAppend(s0, entry(4, 'w0'));
    // Only index 2 goes out (the term-4 entry reaches nobody yet); s1 confirms it holds it too.
    for (const f of [s1, s2]) {
      const req = { ...buildAppend(s0, f.id, 64)!, prevLogIndex: 1, prevLogTerm: 1, entries: [s0.p.log[1]] };
      handleAppendReply(s0, f.id, handleAppendEntries(f, req).reply);
    }
    return { S, s0, s1, s2, s3, s4 };
  }

  it('(c) the term-2 entry sits on s0, s1, s2 — a majority — yet the term-4 leader does not commit it', () => {
    const { s0, s2 } = setup();
    expect(terms(s2)).toEqual([1, 2]);
    expect(storedOnMajority(s0, 2)).toBe(true);
    expect(advanceCommit(s0)).toBe(0); // unchanged since its restart: index 2 is not committed by counting
  });

  it('(d) s0 crashes; s4 (last term 3) wins votes from s1, s2, s3 and overwrites index 2 everywhere', () => {
    const { s0, s1, s2, s3, s4 } = setup();
    s0.v = freshVolatile();
    s4.p.currentTerm = 4; // it learnt term 4 when it restarted
    // s4's last term 3 beats the voters' last term 2: the up-to-date check lets it win.
    expect(elect(s4, [s1, s2, s3])).toBe(true);
    expect(s4.p.currentTerm).toBe(5);
    let overwritten = 0;
    for (const f of [s1, s2, s3]) {
      let out = deliver(s4, f);
      while (!out.reply.success) out = deliver(s4, f); // nextIndex back-off
      overwritten += out.truncated.length;
    }
    expect(overwritten).toBe(2); // index 2 of term 2 on s1 and s2
    for (const f of [s1, s2, s3]) expect(terms(f)).toEqual([1, 3]);
    // Now the term-3 entry is on a majority but is still not committed by counting (s4 is in term 5) …
    expect(advanceCommit(s4)).toBe(0); // (its commitIndex is volatile: 0 since its crash)
    // … until an entry of term 5 commits after it.
    leaderAppend(s4, entry(5));
    for (const f of [s1, s2]) deliver(s4, f);
    expect(advanceCommit(s4)).toBe(3);
  });

  it('(e) if s0 first replicates its term-4 entry to a majority, everything up to it commits and s4 can no longer win', () => {
    const { s0, s1, s2, s3, s4 } = setup();
    deliver(s0, s1);
    deliver(s0, s2);
    expect(advanceCommit(s0)).toBe(3); // index 2 (term 2) commits indirectly, as a prefix of index 3
    s0.v = freshVolatile();
    s4.p.currentTerm = 4;
    expect(elect(s4, [s1, s2, s3])).toBe(false); // s1 and s2 hold last term 4 > 3
  });
});

describe('modelled fsync: the leader counts itself once its own disk has the entry', () => {
  it('with a follower ahead of the leader’s disk, commit waits for the leader’s sync (selfMatch)', () => {
    const s = core('s0', [1, 1], 1, 3);
    becomeLeader(s);
    s.v.matchIndex.set('s1', 2);
    expect(s.v.commitIndex).toBe(0);
    expect(advanceCommit(s, 1)).toBe(1); // s1 has 2, but the leader's disk only 1: index 2 has one copy
    expect(advanceCommit(s, 2)).toBe(2); // synced: the leader and s1 are a majority of three
    const t = core('s0', [1, 1], 1, 3);
    becomeLeader(t);
    t.v.matchIndex.set('s1', 2);
    expect(advanceCommit(t)).toBe(2); // without fsync modelled, its whole log counts
  });
});
