import type { NodeId } from '../../sim/types';
import { entryAt, lastIndex, lastTerm, majority, termAt, type LogEntry, type LogState, type RaftCore, type RaftEntry } from './state';

/**
 * Raft's rules as guarded transitions (Ongaro & Ousterhout 2014, Figure 2), in the style of
 * RaftScope: each function takes a server's state and one input, checks the guards, changes only
 * that state and returns what the server must send. No clock, no network, no randomness: the
 * group (group.ts) owns timers and messages, the tests drive these directly.
 */

export interface RequestVote {
  term: number;
  candidateId: NodeId;
  lastLogIndex: number;
  lastLogTerm: number;
}

export interface VoteReply {
  term: number;
  voteGranted: boolean;
}

export interface AppendEntries<E extends RaftEntry = LogEntry> {
  term: number;
  leaderId: NodeId;
  prevLogIndex: number;
  prevLogTerm: number;
  entries: readonly E[];
  leaderCommit: number;
}

export interface AppendReply {
  term: number;
  success: boolean;
  /** On success: prevLogIndex + entries.length, the highest index known to match the leader's log. */
  matchIndex: number;
  /** Echo of the request's prevLogIndex, so the leader can ignore an answer to an older probe. */
  prevLogIndex: number;
  /** The follower's last log index, which lets the leader skip back faster than one by one. */
  lastLogIndex: number;
}

/**
 * InstallSnapshot (§7, Figure 13), sent in one piece: the leader has compacted the entries a
 * follower still needs. The snapshot's state itself travels beside these fields (the owner's).
 */
export interface InstallSnapshot {
  term: number;
  leaderId: NodeId;
  lastIncludedIndex: number;
  lastIncludedTerm: number;
}

/**
 * §5.4.1 election restriction: a voter grants its vote only to a candidate whose log is at least
 * as up to date as its own — a later last term, or the same last term and a log at least as long.
 */
export function logUpToDate(candLastIndex: number, candLastTerm: number, log: LogState): boolean {
  const myTerm = lastTerm(log);
  return candLastTerm > myTerm || (candLastTerm === myTerm && candLastIndex >= lastIndex(log));
}

/** §5.1: any message with a higher term makes the server adopt it and become a follower. */
export function observeTerm<E extends RaftEntry>(s: RaftCore<E>, term: number): boolean {
  if (term <= s.p.currentTerm) return false;
  s.p.currentTerm = term;
  s.p.votedFor = null;
  s.v.role = 'follower';
  s.v.leaderId = null;
  s.v.votes = new Set();
  return true;
}

/** Election timeout fired (§5.2): a new term, a vote for itself, RequestVote to everyone. */
export function becomeCandidate<E extends RaftEntry>(s: RaftCore<E>): RequestVote {
  s.p.currentTerm++;
  s.p.votedFor = s.id;
  s.v.role = 'candidate';
  s.v.leaderId = null;
  s.v.votes = new Set([s.id]);
  return { term: s.p.currentTerm, candidateId: s.id, lastLogIndex: lastIndex(s.p), lastLogTerm: lastTerm(s.p) };
}

/** RequestVote receiver: at most one vote per term, and only for an up-to-date log. */
export function handleRequestVote<E extends RaftEntry>(s: RaftCore<E>, req: RequestVote): VoteReply {
  observeTerm(s, req.term);
  const granted =
    req.term === s.p.currentTerm &&
    (s.p.votedFor === null || s.p.votedFor === req.candidateId) &&
    logUpToDate(req.lastLogIndex, req.lastLogTerm, s.p);
  if (granted) s.p.votedFor = req.candidateId;
  return { term: s.p.currentTerm, voteGranted: granted };
}

/**
 * Whether a server counts as hearing from a current leader: it leads, or heard from one less than
 * the minimum election timeout ago (`sinceLeaderMs`). Such a server refuses to help unseat that
 * leader — it disregards RequestVote under leader stickiness and denies Pre-Vote.
 */
export function leaderRecent<E extends RaftEntry>(s: RaftCore<E>, sinceLeaderMs: number, minElectionTimeoutMs: number): boolean {
  return s.v.role === 'leader' || sinceLeaderMs < minElectionTimeoutMs;
}

/**
 * Leader stickiness (thesis §4.2.3; etcd does this with CheckQuorum): a server that leads, or heard
 * from a leader less than the minimum election timeout ago, disregards a RequestVote of a higher
 * term — no reply, and it keeps its term — so a server returning from a partition cannot depose a
 * leader that still has a majority. Lease reads are safe only with it. The strategy enables it
 * (with CheckQuorum or lease reads); `sinceLeaderMs` is the time since it last heard from a leader.
 */
export function disregardsVote<E extends RaftEntry>(s: RaftCore<E>, req: RequestVote, sinceLeaderMs: number, minElectionTimeoutMs: number): boolean {
  if (req.term <= s.p.currentTerm) return false;
  return leaderRecent(s, sinceLeaderMs, minElectionTimeoutMs);
}

/**
 * CheckQuorum (etcd; thesis §6.2), once per election timeout on a leader: without an answer from a
 * majority (itself included) since the last check it stops claiming leadership — it keeps its term
 * and becomes a follower without a known leader; otherwise it starts counting again.
 * `heardFrom`: the followers that answered in this leadership since the last check.
 */
export function checkQuorum<E extends RaftEntry>(s: RaftCore<E>, heardFrom: Set<NodeId>): 'stay' | 'stepdown' | 'none' {
  if (s.v.role !== 'leader') return 'none';
  if (heardFrom.size + 1 < majority(s.peers.length + 1)) {
    s.v.role = 'follower';
    s.v.leaderId = null;
    return 'stepdown';
  }
  heardFrom.clear();
  return 'stay';
}

/** A vote reply at the candidate: 'won' once a majority of the cluster voted for it. */
export function handleVoteReply<E extends RaftEntry>(s: RaftCore<E>, from: NodeId, reply: VoteReply): 'won' | 'stepdown' | 'none' {
  if (observeTerm(s, reply.term)) return 'stepdown';
  if (s.v.role !== 'candidate' || reply.term !== s.p.currentTerm || !reply.voteGranted) return 'none';
  s.v.votes.add(from);
  return s.v.votes.size >= majority(s.peers.length + 1) ? 'won' : 'none';
}

/**
 * Pre-Vote (Ongaro's thesis §9.6; etcd enables it by default since 3.5): before a real election a
 * server asks whether it *would* win at term + 1. The request and its answer change no state, so a
 * server that cannot win (cut off, or only slow to hear the leader) never raises its term and never
 * forces a healthy leader to step down when its messages arrive. A voter grants it when it would
 * grant a vote — the candidate's log is up to date and the term is newer — and it has not heard
 * from a leader recently (`heardLeader`: leaderRecent, etcd's CheckQuorum lease).
 */
export function handlePreVote<E extends RaftEntry>(s: RaftCore<E>, req: RequestVote, heardLeader: boolean): VoteReply {
  const granted = !heardLeader && req.term > s.p.currentTerm && logUpToDate(req.lastLogIndex, req.lastLogTerm, s.p);
  // A grant echoes the probed term (so the pre-candidate does not mistake it for a newer one).
  return { term: granted ? req.term : s.p.currentTerm, voteGranted: granted };
}

/** The probe a pre-candidate sends: the term it would campaign in, and its log's end. */
export function preVoteRequest<E extends RaftEntry>(s: RaftCore<E>): RequestVote {
  return { term: s.p.currentTerm + 1, candidateId: s.id, lastLogIndex: lastIndex(s.p), lastLogTerm: lastTerm(s.p) };
}

/** Winning an election: reinitialise nextIndex/matchIndex; optionally append a no-op of the new term (§8). */
export function becomeLeader<E extends RaftEntry>(s: RaftCore<E>, noop?: E): void {
  s.v.role = 'leader';
  s.v.leaderId = s.id;
  s.v.votes = new Set();
  for (const peer of s.peers) {
    s.v.nextIndex.set(peer, lastIndex(s.p) + 1); // the last index at election: the no-op goes out in the first round
    s.v.matchIndex.set(peer, 0);
  }
  if (noop) s.p.log.push(noop);
}

/** A leader appends a client's entry to its own log (it never overwrites or deletes its entries). */
export function leaderAppend<E extends RaftEntry>(s: RaftCore<E>, entry: E): number {
  s.p.log.push(entry);
  return lastIndex(s.p);
}

/**
 * The AppendEntries a leader sends a follower now: everything from nextIndex (up to `maxEntries`);
 * null when the entry before nextIndex was compacted (§7): the follower needs the snapshot.
 */
export function buildAppend<E extends RaftEntry>(s: RaftCore<E>, peer: NodeId, maxEntries: number): AppendEntries<E> | null {
  const next = s.v.nextIndex.get(peer) ?? lastIndex(s.p) + 1;
  const prev = next - 1;
  const prevLogTerm = termAt(s.p, prev);
  if (prevLogTerm === undefined && prev < s.p.snapIndex) return null;
  const from = prev - s.p.snapIndex;
  return {
    term: s.p.currentTerm,
    leaderId: s.id,
    prevLogIndex: prev,
    prevLogTerm: prevLogTerm ?? 0,
    entries: s.p.log.slice(from, from + maxEntries),
    leaderCommit: s.v.commitIndex,
  };
}

/**
 * The heartbeat of a follower that needs the snapshot (§7): empty, checked at the start of the
 * leader's log. It keeps the follower's election timer reset, and its answer tells the leader the
 * follower is there (or, where it matches, that no snapshot is needed after all).
 */
export function probeAppend<E extends RaftEntry>(s: RaftCore<E>): AppendEntries<E> {
  return { term: s.p.currentTerm, leaderId: s.id, prevLogIndex: s.p.snapIndex, prevLogTerm: s.p.snapTerm, entries: [], leaderCommit: s.v.commitIndex };
}

export interface AppendOutcome<E extends RaftEntry = LogEntry> {
  reply: AppendReply;
  /** The request came from a current leader (reset the election timer, remember the leader). */
  fromLeader: boolean;
  /** Entries removed by conflict truncation (§5.3), oldest first. */
  truncated: E[];
  /** Indices written into the log by this request. */
  stored: number[];
  /** commitIndex before the request (it may have advanced). */
  commitBefore: number;
}

/**
 * AppendEntries receiver (§5.3): reject an older term; reject unless the log holds prevLogIndex
 * with prevLogTerm (log matching); delete an existing entry that conflicts with a new one and all
 * that follow it; append what is new; commitIndex = min(leaderCommit, index of last new entry).
 * An entry already present with the same term is kept, so a delayed or duplicated request never
 * truncates entries a later request added.
 */
export function handleAppendEntries<E extends RaftEntry>(s: RaftCore<E>, req: AppendEntries<E>): AppendOutcome<E> {
  const commitBefore = s.v.commitIndex;
  const fail = (fromLeader: boolean): AppendOutcome<E> => ({
    reply: { term: s.p.currentTerm, success: false, matchIndex: 0, prevLogIndex: req.prevLogIndex, lastLogIndex: lastIndex(s.p) },
    fromLeader,
    truncated: [],
    stored: [],
    commitBefore,
  });
  if (!followLeader(s, req.term, req.leaderId)) return fail(false);
  const p = s.p;
  // Entries up to snapIndex are committed and in the snapshot (§7): a current leader holds the same
  // ones (leader completeness), so they match, and the consistency check moves past them.
  const skip = Math.max(0, Math.min(req.entries.length, p.snapIndex - req.prevLogIndex));
  const prevIndex = req.prevLogIndex + skip;
  if (prevIndex >= p.snapIndex) {
    const t = termAt(p, prevIndex);
    if (t === undefined || t !== (skip > 0 ? req.entries[skip - 1].term : req.prevLogTerm)) return fail(true);
  }
  const truncated: E[] = [];
  const stored: number[] = [];
  for (let k = skip; k < req.entries.length; k++) {
    const e = req.entries[k];
    const index = req.prevLogIndex + 1 + k;
    const existing = entryAt(p, index);
    if (existing && existing.term === e.term) continue; // same index and term: the same entry (log matching)
    if (existing) truncated.push(...p.log.splice(index - p.snapIndex - 1));
    p.log.push(e);
    stored.push(index);
  }
  const lastNew = req.prevLogIndex + req.entries.length;
  if (req.leaderCommit > s.v.commitIndex) s.v.commitIndex = Math.max(s.v.commitIndex, Math.min(req.leaderCommit, lastNew));
  return {
    reply: { term: p.currentTerm, success: true, matchIndex: lastNew, prevLogIndex: req.prevLogIndex, lastLogIndex: lastIndex(p) },
    fromLeader: true,
    truncated,
    stored,
    commitBefore,
  };
}

/**
 * What AppendEntries and InstallSnapshot receivers do first: refuse an older term (false); adopt a
 * newer one; a leader refuses too (two leaders in one term: impossible, the checker reports it);
 * anyone else follows the sender — a candidate of the same term recognises the winner.
 */
function followLeader<E extends RaftEntry>(s: RaftCore<E>, term: number, leaderId: NodeId): boolean {
  if (term < s.p.currentTerm) return false;
  observeTerm(s, term);
  if (s.v.role === 'leader') return false;
  s.v.role = 'follower';
  s.v.votes = new Set();
  s.v.leaderId = leaderId;
  return true;
}

export interface SnapshotOutcome<E extends RaftEntry = LogEntry> {
  /** Answered as an AppendEntries success up to lastIncludedIndex, so the leader's reply rule serves both. */
  reply: AppendReply;
  fromLeader: boolean;
  /** The follower's state machine must become the snapshot's (it held less). */
  install: boolean;
  /**
   * The uncommitted entries the log lost (Figure 13, step 7), from index `discardedFrom`. Those up to
   * lastIncludedIndex may be the very entries the snapshot holds; only an observer can tell.
   */
  discarded: E[];
  discardedFrom: number;
}

/**
 * InstallSnapshot receiver (§7, Figure 13). A snapshot of what the follower has already committed
 * changes nothing. Otherwise, if the log holds the snapshot's last entry (same index and term), the
 * entries after it stay; if not, the whole log goes. The snapshot's entries are committed and
 * applied; the caller then replaces the state machine.
 */
export function handleInstallSnapshot<E extends RaftEntry>(s: RaftCore<E>, req: InstallSnapshot): SnapshotOutcome<E> {
  const last = req.lastIncludedIndex;
  const p = s.p;
  const discardedFrom = s.v.commitIndex + 1;
  const answer = (success: boolean, fromLeader: boolean, install: boolean, discarded: E[] = []): SnapshotOutcome<E> => ({
    reply: { term: p.currentTerm, success, matchIndex: success ? last : 0, prevLogIndex: last, lastLogIndex: lastIndex(p) },
    fromLeader,
    install,
    discarded,
    discardedFrom,
  });
  if (!followLeader(s, req.term, req.leaderId)) return answer(false, false, false);
  if (last <= s.v.commitIndex) return answer(true, true, false);
  let discarded: E[] = [];
  if (termAt(p, last) === req.lastIncludedTerm) {
    p.log.splice(0, last - p.snapIndex); // the entries after the snapshot's last one stay
  } else {
    discarded = p.log.slice(s.v.commitIndex - p.snapIndex); // the committed ones are the snapshot's
    p.log.length = 0;
  }
  p.snapIndex = last;
  p.snapTerm = req.lastIncludedTerm;
  s.v.commitIndex = last;
  s.v.lastApplied = last;
  return answer(true, true, true, discarded);
}

/**
 * AppendEntries reply at the leader. Success raises matchIndex (never lowers it: replies may be
 * stale) and sets nextIndex after it; a log mismatch backs nextIndex off and asks for a retry.
 */
export function handleAppendReply<E extends RaftEntry>(s: RaftCore<E>, from: NodeId, reply: AppendReply): 'stepdown' | 'retry' | 'progress' | 'none' {
  if (observeTerm(s, reply.term)) return 'stepdown';
  if (s.v.role !== 'leader' || reply.term !== s.p.currentTerm) return 'none';
  const match = s.v.matchIndex.get(from) ?? 0;
  const next = s.v.nextIndex.get(from) ?? lastIndex(s.p) + 1;
  if (reply.success) {
    const m = Math.max(match, reply.matchIndex);
    s.v.matchIndex.set(from, m);
    s.v.nextIndex.set(from, m + 1);
    return m > match ? 'progress' : 'none';
  }
  if (reply.prevLogIndex !== next - 1) return 'none'; // the answer to an older probe
  s.v.nextIndex.set(from, Math.max(match + 1, 1, Math.min(next - 1, reply.lastLogIndex + 1)));
  return 'retry';
}

/**
 * Leader commit rule (§5.3, §5.4.2): the largest N > commitIndex stored on a majority (the
 * leader counts itself) **and** with log[N].term == currentTerm. Entries of older terms are never
 * committed by counting replicas (Figure 8); they commit indirectly, as a prefix of such an N.
 */
export function advanceCommit<E extends RaftEntry>(s: RaftCore<E>, selfMatch: number = lastIndex(s.p)): number {
  if (s.v.role !== 'leader') return s.v.commitIndex;
  const need = majority(s.peers.length + 1);
  for (let n = lastIndex(s.p); n > s.v.commitIndex; n--) {
    if (termAt(s.p, n) !== s.p.currentTerm) break; // terms only decrease going back: nothing older qualifies
    // The leader counts itself once the entry is on its own stable storage (`selfMatch`: the
    // highest index its disk has synced; its whole log when syncing is not modelled).
    let count = n <= selfMatch ? 1 : 0;
    for (const peer of s.peers) if ((s.v.matchIndex.get(peer) ?? 0) >= n) count++;
    if (count >= need) {
      s.v.commitIndex = n;
      break;
    }
  }
  return s.v.commitIndex;
}

/** Whether an entry at `index` sits on a majority (what Figure 8 shows is *not* enough to commit it). */
export function storedOnMajority<E extends RaftEntry>(s: RaftCore<E>, index: number): boolean {
  let count = lastIndex(s.p) >= index ? 1 : 0;
  for (const peer of s.peers) if ((s.v.matchIndex.get(peer) ?? 0) >= index) count++;
  return count >= majority(s.peers.length + 1);
}
