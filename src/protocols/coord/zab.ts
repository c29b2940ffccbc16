import type { NodeId } from '../../sim/types';
import type { Routed } from './messages';

/**
 * Zab — ZooKeeper's atomic broadcast (Junqueira, Reed, Serafini, "Zab: High-performance broadcast
 * for primary-backup systems", DSN 2011) — as guarded transitions on one server's state, in the
 * style of raft/rules.ts: no clock, no network; the driver (zookeeper.ts) owns timers and messages.
 *
 * - Transactions carry a zxid = (epoch, counter): the epoch of the leader that proposed it and a
 *   counter within that epoch. As a number: epoch · 2³² + counter (ZooKeeper prints it in hex).
 * - Phase 1 (discovery): a prospective leader proposes a new epoch (NEWEPOCH); a server accepts it
 *   if it is newer than any it accepted and the candidate's history is at least as new as its own
 *   — (currentEpoch, last zxid) compared in that order, as ZooKeeper's election compares votes —
 *   and acknowledges with its own (ACKEPOCH). The candidate needs a quorum.
 *   (ZooKeeper elects with Fast Leader Election, exchanging votes; here the first up-to-date server
 *   whose timer fires asks, as in Raft. Both elect a server whose history covers a quorum's.)
 * - Phase 2 (synchronisation): the leader sends its history (NEWLEADER); a follower adopts it —
 *   truncating what it holds beyond it, ZooKeeper's TRUNC, and taking what it lacks, DIFF/SNAP —
 *   sets currentEpoch and acknowledges. With a quorum the leader commits its whole history.
 * - Phase 3 (broadcast): the leader proposes each write (PROPOSAL), followers log it and ACK, the
 *   leader commits in zxid order once a quorum (itself included) has logged it and sends COMMIT;
 *   every server applies committed transactions in order.
 */

export interface Txn {
  readonly zxid: number;
  /** The epoch of its zxid (what the shared log-matching and safety checker compares, as Raft's term). */
  readonly term: number;
  readonly cmd: Routed;
  /** Observer-only identity for the invariant checks; the protocol never reads it. */
  readonly uid: number;
}

export interface ZabPersistent {
  /** The newest epoch it promised (NEWEPOCH accepted, or proposed itself). */
  acceptedEpoch: number;
  /** The epoch of the leader whose history it adopted (NEWLEADER). */
  currentEpoch: number;
  history: Txn[];
}

export interface ZabVolatile {
  role: 'looking' | 'following' | 'leading';
  leader: NodeId | null;
  /** Follower: it adopted the current leader's history (phase 2) and takes proposals. */
  synced: boolean;
  /** Leader: phase 2 done (a quorum adopted its history), so it may propose. */
  established: boolean;
  /** Length of the history prefix it knows is committed, and how much of it it has applied. */
  committed: number;
  applied: number;
  /** Prospective leader: who acknowledged its epoch; leader: who adopted its history. */
  epochAcks: Set<NodeId>;
  ldAcks: Set<NodeId>;
  /** Leader: who has logged each proposal (by history index, 1-based). */
  acks: Map<number, Set<NodeId>>;
  /** Leader: its own log is synced up to this index (fsync). */
  durable: number;
}

export function freshZabPersistent(): ZabPersistent {
  return { acceptedEpoch: 0, currentEpoch: 0, history: [] };
}

export function freshZabVolatile(): ZabVolatile {
  return { role: 'looking', leader: null, synced: false, established: false, committed: 0, applied: 0, epochAcks: new Set(), ldAcks: new Set(), acks: new Map(), durable: 0 };
}

export interface ZabCore {
  readonly id: NodeId;
  readonly peers: readonly NodeId[];
  p: ZabPersistent;
  v: ZabVolatile;
}

const EPOCH = 2 ** 32;

export function zxidOf(epoch: number, counter: number): number {
  return epoch * EPOCH + counter;
}
export function epochOf(zxid: number): number {
  return Math.floor(zxid / EPOCH);
}
export function counterOf(zxid: number): number {
  return zxid % EPOCH;
}
/** ZooKeeper's notation: 0x<epoch><counter:8 hex digits>. */
export function zxidHex(zxid: number): string {
  return `0x${epochOf(zxid).toString(16)}${counterOf(zxid).toString(16).padStart(8, '0')}`;
}

export function lastZxid(p: ZabPersistent): number {
  return p.history.length ? p.history[p.history.length - 1].zxid : 0;
}

export function quorum(n: number): number {
  return Math.floor(n / 2) + 1;
}

/** (currentEpoch, last zxid) of a at least as new as b's. */
export function atLeastAsNew(aEpoch: number, aZxid: number, bEpoch: number, bZxid: number): boolean {
  return aEpoch > bEpoch || (aEpoch === bEpoch && aZxid >= bZxid);
}

// ---------------------------------------------------------------- phase 1

export interface NewEpoch {
  epoch: number;
  currentEpoch: number;
  lastZxid: number;
}
export type EpochReply = { ok: true; epoch: number; currentEpoch: number; lastZxid: number } | { ok: false; epoch: number; acceptedEpoch: number; leader: NodeId | null };

/** A looking server becomes a prospective leader of the next epoch. */
export function startCandidacy(s: ZabCore): NewEpoch {
  const epoch = Math.max(s.p.acceptedEpoch, s.p.currentEpoch) + 1;
  s.p.acceptedEpoch = epoch;
  s.v = { ...freshZabVolatile(), committed: s.v.committed, applied: s.v.applied, role: 'leading', leader: s.id, epochAcks: new Set([s.id]) };
  return { epoch, currentEpoch: s.p.currentEpoch, lastZxid: lastZxid(s.p) };
}

/**
 * NEWEPOCH at a server. `busy`: it follows or leads a live leader (heard within the sync limit) and
 * will not help unseat it. Accepting promises the epoch and makes it a follower of the candidate.
 */
export function handleNewEpoch(s: ZabCore, from: NodeId, m: NewEpoch, busy: boolean): EpochReply {
  const refuse: EpochReply = { ok: false, epoch: m.epoch, acceptedEpoch: s.p.acceptedEpoch, leader: s.v.role === 'looking' ? null : s.v.leader };
  if (busy || m.epoch <= s.p.acceptedEpoch) return refuse;
  if (!atLeastAsNew(m.currentEpoch, m.lastZxid, s.p.currentEpoch, lastZxid(s.p))) return refuse;
  s.p.acceptedEpoch = m.epoch;
  s.v = { ...freshZabVolatile(), committed: s.v.committed, applied: s.v.applied, role: 'following', leader: from };
  return { ok: true, epoch: m.epoch, currentEpoch: s.p.currentEpoch, lastZxid: lastZxid(s.p) };
}

/** ACKEPOCH at the prospective leader: 'quorum' once a quorum (itself included) promised its epoch. */
export function handleEpochReply(s: ZabCore, from: NodeId, r: EpochReply): 'quorum' | 'higher' | 'none' {
  if (!r.ok) {
    if (r.acceptedEpoch > s.p.acceptedEpoch) {
      s.p.acceptedEpoch = r.acceptedEpoch; // someone promised a newer epoch: a later try must outbid it
      return 'higher';
    }
    return 'none';
  }
  if (s.v.role !== 'leading' || s.v.established || r.epoch !== s.p.acceptedEpoch || s.v.ldAcks.size > 0) return 'none';
  s.v.epochAcks.add(from);
  return s.v.epochAcks.size >= quorum(s.peers.length + 1) ? 'quorum' : 'none';
}

// ---------------------------------------------------------------- phase 2

export interface NewLeader {
  epoch: number;
  history: readonly Txn[];
  /** How much of it the leader already knows committed (a follower joining an established leader). */
  committed: number;
}

/** The leader adopts its epoch and starts phase 2: its history goes to the followers. */
export function becomeLeader(s: ZabCore): NewLeader {
  s.p.currentEpoch = s.p.acceptedEpoch;
  s.v.ldAcks = new Set([s.id]);
  s.v.durable = s.p.history.length;
  return { epoch: s.p.currentEpoch, history: s.p.history.slice(), committed: s.v.committed };
}

export interface AdoptOutcome {
  ok: boolean;
  /** Entries of its own history it dropped (TRUNC), oldest first. */
  truncated: Txn[];
  /** Indices (1-based) written from the leader's history. */
  stored: number[];
}

/** NEWLEADER (or a resync) at a follower: adopt the leader's history when the epoch is the one it promised or newer. */
export function handleNewLeader(s: ZabCore, from: NodeId, m: NewLeader): AdoptOutcome {
  if (m.epoch < s.p.acceptedEpoch) return { ok: false, truncated: [], stored: [] };
  const h = s.p.history;
  let common = 0;
  while (common < h.length && common < m.history.length && h[common].uid === m.history[common].uid) common++;
  const truncated = h.splice(common);
  const stored: number[] = [];
  for (let i = common; i < m.history.length; i++) {
    h.push(m.history[i]);
    stored.push(i + 1);
  }
  s.p.acceptedEpoch = m.epoch;
  s.p.currentEpoch = m.epoch;
  const committed = Math.min(Math.max(m.committed, Math.min(s.v.committed, common)), h.length);
  const applied = Math.min(s.v.applied, common);
  s.v = { ...freshZabVolatile(), role: 'following', leader: from, synced: true, committed, applied };
  return { ok: true, truncated, stored };
}

/** ACK of NEWLEADER at the leader: 'established' once a quorum adopted its history (all of it commits). */
export function handleNewLeaderAck(s: ZabCore, from: NodeId, epoch: number): 'established' | 'none' {
  if (s.v.role !== 'leading' || epoch !== s.p.currentEpoch) return 'none';
  s.v.ldAcks.add(from);
  if (s.v.established || s.v.ldAcks.size < quorum(s.peers.length + 1)) return 'none';
  s.v.established = true;
  s.v.committed = s.p.history.length;
  return 'established';
}

// ---------------------------------------------------------------- phase 3

export interface Proposal {
  epoch: number;
  index: number;
  txn: Txn;
}

/** The established leader proposes a transaction: the next zxid of its epoch. */
export function leaderPropose(s: ZabCore, cmd: Routed, uid: number): Proposal {
  const last = lastZxid(s.p);
  const counter = epochOf(last) === s.p.currentEpoch ? counterOf(last) + 1 : 1;
  const txn: Txn = { zxid: zxidOf(s.p.currentEpoch, counter), term: s.p.currentEpoch, cmd, uid };
  s.p.history.push(txn);
  const index = s.p.history.length;
  s.v.acks.set(index, new Set());
  return { epoch: s.p.currentEpoch, index, txn };
}

/** A PROPOSAL at a synced follower of that leader: logged if it is the next one ('gap': it missed some, resync). */
export function handleProposal(s: ZabCore, from: NodeId, m: Proposal): 'logged' | 'gap' | 'ignored' {
  if (s.v.role !== 'following' || s.v.leader !== from || m.epoch !== s.p.currentEpoch) return 'ignored';
  if (!s.v.synced) return 'gap';
  const h = s.p.history;
  if (m.index <= h.length) return h[m.index - 1].uid === m.txn.uid ? 'logged' : 'gap';
  if (m.index !== h.length + 1) return 'gap';
  h.push(m.txn);
  return 'logged';
}

/** An ACK (a follower, or the leader itself once synced to disk) at the leader: the new commit point. */
export function handleAck(s: ZabCore, from: NodeId, epoch: number, index: number): number {
  if (s.v.role !== 'leading' || !s.v.established || epoch !== s.p.currentEpoch) return s.v.committed;
  // A follower logs proposals strictly in order (handleProposal), so its ACK of `index` vouches for
  // every earlier one too. Zab assumes FIFO channels (TCP): an ACK is never lost without the
  // connection, and a follower re-syncing through NEWLEADER. Here a cut can drop one ACK alone; counted
  // per index only, that transaction — and every later one — would never commit.
  for (let i = s.v.committed + 1; i <= Math.min(index, s.p.history.length); i++) s.v.acks.get(i)?.add(from);
  const need = quorum(s.peers.length + 1);
  // Commit strictly in zxid order: a transaction commits only after every earlier one.
  while (s.v.committed < s.p.history.length) {
    const next = s.v.committed + 1;
    const acks = s.v.acks.get(next);
    if (!acks || acks.size < need) break;
    s.v.committed = next;
    s.v.acks.delete(next);
  }
  return s.v.committed;
}

/**
 * A follower that (re)synchronised with the established leader holds the leader's history up to
 * `upTo`: that counts as its ACK for every proposal up to there (ZooKeeper's leader counts the
 * NEWLEADER ack the same way). Returns the new commit point.
 */
export function handleSyncedAck(s: ZabCore, from: NodeId, epoch: number, upTo: number): number {
  return handleAck(s, from, epoch, upTo);
}

/** COMMIT at a follower: everything up to the leader's commit point that it holds. */
export function handleCommit(s: ZabCore, from: NodeId, epoch: number, upTo: number): void {
  if (s.v.role !== 'following' || s.v.leader !== from || epoch !== s.p.currentEpoch || !s.v.synced) return;
  s.v.committed = Math.max(s.v.committed, Math.min(upTo, s.p.history.length));
}

/** Stops leading or following (lost its quorum, or its leader): looking again. Nothing persistent changes. */
export function lookAgain(s: ZabCore): void {
  s.v = { ...freshZabVolatile(), committed: s.v.committed, applied: s.v.applied };
}
