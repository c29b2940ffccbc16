import type { NodeId } from '../../sim/types';
import type { ReadMode } from './knobs';
import type { SeqTable } from './seqTable';
import { entryAt, lastIndex, majority, termAt, type RaftCore, type RaftEntry } from './state';

/**
 * How a Raft server answers its clients, as guarded rules (thesis §6.3 client sessions, §6.4
 * read-only queries): each takes the server's state and one request, changes only that state and
 * says what to do; the strategy sends. Redirects carry the server's leader hint.
 */

export interface PendingRead {
  /** The client that asked (a worker). */
  worker: NodeId;
  readId: number;
  /** Set when a follower asked on the client's behalf (etcd's MsgReadIndex): the read index goes to it. */
  via?: NodeId;
  /** null until the leader has committed an entry of its own term (thesis §6.4 step 1). */
  readIndex: number | null;
  /** Heartbeat round that must reach a majority before answering (0: none started). */
  round: number;
}

/** A leader's bookkeeping for reads that are not log entries (readIndex, lease). Volatile. */
export interface ReadState {
  pendingReads: PendingRead[];
  /** Heartbeat rounds started to confirm leadership; every AppendEntries carries the current one. */
  round: number;
  /** Per follower: the newest round it answered, and the send time of the newest request it answered. */
  ackedRound: Map<NodeId, number>;
  ackedSentAt: Map<NodeId, number>;
}

export type UpdateDecision =
  /** Larger than the server accepts (etcd: "request is too large"): refused before anything else, never proposed. */
  | { do: 'tooLarge' }
  | { do: 'redirect'; hint: NodeId | null }
  /** Already applied: acknowledge again with the version its application produced. */
  | { do: 'ack'; version: number }
  /** A retry of an entry this leader appended in its own term and has not committed yet: acknowledged when applied. */
  | { do: 'wait' }
  | { do: 'append' };

/**
 * A client's update (worker, seq) at a server. Only the leader takes it; (worker, seq) already
 * applied is acknowledged again instead of appended. A copy from an older term is appended again
 * (thesis §6.3): the old one may commit only with a newer entry after it, and the state machine
 * skips whichever copy comes second. With `size.limit`, a request larger than it is refused first,
 * as etcd checks the size before proposing.
 */
export function admitUpdate(s: RaftCore, applied: Pick<SeqTable, 'get'>, worker: NodeId, seq: number, size?: { bytes: number; limit?: number }): UpdateDecision {
  if (size?.limit !== undefined && size.bytes > size.limit) return { do: 'tooLarge' };
  if (s.v.role !== 'leader') return { do: 'redirect', hint: s.v.leaderId };
  const done = applied.get(worker, seq);
  if (done !== 0) return { do: 'ack', version: done };
  if (inOwnUncommittedSuffix(s, (e) => e.kind === 'update' && e.worker === worker && e.seq === seq)) return { do: 'wait' };
  return { do: 'append' };
}

export type ReadDecision =
  /** readMode "local": any server answers from its own state machine now. */
  | { do: 'answer' }
  | { do: 'redirect'; hint: NodeId | null }
  /** readMode "log": the read's entry is already in this leader's uncommitted suffix. */
  | { do: 'wait' }
  /** readMode "log": append a read entry; it is answered when applied. */
  | { do: 'append' }
  /** readIndex / lease: the read is pending (now, or already was); serve what can be served. */
  | { do: 'serve' };

/** A client's read at a server, per read mode. A retransmitted read is never queued twice. */
export function admitRead(s: RaftCore, r: ReadState, mode: ReadMode, worker: NodeId, readId: number): ReadDecision {
  if (mode === 'local') return { do: 'answer' };
  if (s.v.role !== 'leader') return { do: 'redirect', hint: s.v.leaderId };
  if (mode === 'log') return inOwnUncommittedSuffix(s, (e) => e.kind === 'read' && e.worker === worker && e.readId === readId) ? { do: 'wait' } : { do: 'append' };
  queueRead(r, worker, readId);
  return { do: 'serve' };
}

/** A ReadIndex / lease read joins the leader's queue, once (a retransmission, or a repeated forward, is not queued twice). */
export function queueRead(r: ReadState, worker: NodeId, readId: number, via?: NodeId): void {
  if (r.pendingReads.some((q) => q.worker === worker && q.readId === readId && q.via === via)) return;
  r.pendingReads.push(via === undefined ? { worker, readId, readIndex: null, round: 0 } : { worker, readId, via, readIndex: null, round: 0 });
}

/** Whether an entry of this leader's term after its commit index matches (newest first; terms only decrease going back). */
function inOwnUncommittedSuffix(s: RaftCore, match: (e: RaftCore['p']['log'][number]) => boolean): boolean {
  for (let i = lastIndex(s.p); i > s.v.commitIndex; i--) {
    const e = entryAt(s.p, i)!; // after commitIndex: never compacted
    if (e.term !== s.p.currentTerm) break;
    if (match(e)) return true;
  }
  return false;
}

/** A follower answered an AppendEntries of this leader's term that carried `round` and was sent at `sentAt`. */
export function followerAnswered(r: ReadState, from: NodeId, round: number, sentAt: number): void {
  r.ackedRound.set(from, Math.max(r.ackedRound.get(from) ?? 0, round));
  r.ackedSentAt.set(from, Math.max(r.ackedSentAt.get(from) ?? -Infinity, sentAt));
}

/** Lease: a majority (the leader included) answered requests sent less than the minimum election timeout ago. */
export function leaseValid<E extends RaftEntry>(s: RaftCore<E>, r: ReadState, now: number, minElectionTimeoutMs: number): boolean {
  const sent = s.peers.map((p) => r.ackedSentAt.get(p) ?? -Infinity).sort((a, b) => b - a);
  const need = majority(s.peers.length + 1) - 1;
  if (need === 0) return true;
  return now < sent[need - 1] + minElectionTimeoutMs;
}

/** A majority (the leader included) answered heartbeat round `round` or a later one. */
export function roundConfirmed<E extends RaftEntry>(s: RaftCore<E>, r: ReadState, round: number): boolean {
  let n = 1;
  for (const p of s.peers) if ((r.ackedRound.get(p) ?? 0) >= round) n++;
  return n >= majority(s.peers.length + 1);
}

/**
 * ReadIndex and lease reads (thesis §6.4), run whenever something they wait for may have changed.
 * A pending read takes the commit index as its readIndex once an entry of the leader's term has
 * committed; it is answered once leadership is confirmed — by a heartbeat round that a majority
 * answered, or by a valid lease — and the state machine has applied readIndex. Reads that need a
 * round share one new round; `heartbeat` says to send it now. Answers come in arrival order.
 * `lease`: lease reads are on (readMode "lease"); otherwise every read waits for a round.
 */
export function serveReads<E extends RaftEntry>(s: RaftCore<E>, r: ReadState, o: { lease: boolean; now: number; minElectionTimeoutMs: number }): { answer: PendingRead[]; heartbeat: boolean } {
  if (s.v.role !== 'leader' || r.pendingReads.length === 0) return { answer: [], heartbeat: false };
  const committedInTerm = termAt(s.p, s.v.commitIndex) === s.p.currentTerm;
  let newRound = 0;
  const lease = o.lease && leaseValid(s, r, o.now, o.minElectionTimeoutMs);
  const answer: PendingRead[] = [];
  r.pendingReads = r.pendingReads.filter((q) => {
    if (q.readIndex === null) {
      if (!committedInTerm) return true; // wait for an entry of this term to commit first
      q.readIndex = s.v.commitIndex;
      if (!lease) {
        if (!newRound) newRound = ++r.round;
        q.round = newRound;
      }
    }
    const confirmed = lease || (q.round > 0 && roundConfirmed(s, r, q.round));
    if (!confirmed || s.v.lastApplied < q.readIndex) return true;
    answer.push(q);
    return false;
  });
  // A lease that expired while reads waited: fall back to a heartbeat round for them.
  for (const q of r.pendingReads) {
    if (q.readIndex !== null && q.round === 0 && !lease) {
      if (!newRound) newRound = ++r.round;
      q.round = newRound;
    }
  }
  return { answer, heartbeat: newRound > 0 };
}
