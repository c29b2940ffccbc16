import type { NodeId } from '../../sim/types';
import { GAP, majority, type Accepted, type PaxosCore, type PromiseReply, type Value } from './state';

/**
 * Multi-Paxos as guarded transitions (Lamport, "Paxos Made Simple", 2001): each function takes one
 * server's state and one input, checks the guards, changes only that state and returns what the
 * server must send. No clock, no network, no randomness: paxosPs.ts owns timers and messages, the
 * tests drive these directly.
 *
 * Phase 1 runs once per leadership, for every slot from `fromSlot` on (§3: "a proposer can begin
 * phase 1 for infinitely many instances at once"); phase 2 runs per slot. A value is chosen when a
 * majority of acceptors has accepted it in one ballot.
 */

export interface Prepare {
  ballot: number;
  /** The first slot the new proposer does not know chosen: acceptors report what they accepted from here. */
  fromSlot: number;
}

export interface Accept {
  ballot: number;
  slot: number;
  value: Value;
}

export interface AcceptedReply {
  ballot: number;
  slot: number;
  ok: boolean;
  /** On a refusal: the higher ballot the acceptor promised. */
  promised: number;
}

// ================================================================ acceptor

/**
 * Phase 1b (§2.2, P1a): promise never to accept a ballot below `ballot`, and report every value
 * accepted in a slot ≥ fromSlot with its ballot — or refuse, naming the higher promise. A repeated
 * request for the promised ballot is answered again (retransmission).
 */
export function onPrepare(s: PaxosCore, req: Prepare): PromiseReply {
  if (req.ballot < s.d.promised) return { ballot: req.ballot, ok: false, promised: s.d.promised, accepted: [] };
  s.d.promised = req.ballot;
  const accepted: PromiseReply['accepted'] = [];
  for (let slot = Math.max(1, req.fromSlot); slot <= s.d.accepted.length; slot++) {
    const a = s.d.accepted[slot - 1];
    if (a.value !== null) accepted.push({ slot, ballot: a.ballot, value: a.value });
  }
  return { ballot: req.ballot, ok: true, promised: s.d.promised, accepted };
}

/**
 * Phase 2b (P1a): accept unless it promised a higher ballot. Accepting b is also a promise of b.
 * Re-accepting the same value in the same ballot keeps the stored object, so the log does not churn.
 */
export function onAccept(s: PaxosCore, req: Accept): AcceptedReply {
  if (req.ballot < s.d.promised) return { ballot: req.ballot, slot: req.slot, ok: false, promised: s.d.promised };
  s.d.promised = req.ballot;
  const acc = s.d.accepted;
  while (acc.length < req.slot) acc.push(GAP);
  const cur = acc[req.slot - 1];
  if (cur.ballot !== req.ballot || cur.value !== req.value) acc[req.slot - 1] = { ballot: req.ballot, value: req.value } satisfies Accepted;
  return { ballot: req.ballot, slot: req.slot, ok: true, promised: s.d.promised };
}

/** A heartbeat of ballot b: the acceptor follows it (and promises b) unless it promised higher. */
export function onHeartbeat(s: PaxosCore, ballot: number): boolean {
  if (ballot < s.d.promised) return false;
  s.d.promised = ballot;
  return true;
}

// ================================================================ proposer

/** The smallest ballot above `floor` (and above 0, which means none) that belongs to server `index` of `n`. */
export function nextBallot(floor: number, n: number, index: number): number {
  let b = floor - (floor % n) + index;
  if (b <= floor) b += n;
  return b === 0 ? n : b;
}

/**
 * Becomes a candidate: a fresh ballot above every ballot it knows of, recorded on stable storage
 * before it is used; phase 1 asks from the first slot it does not know chosen.
 */
export function startPhase1(s: PaxosCore): Prepare {
  const index = s.servers.indexOf(s.id);
  const ballot = nextBallot(Math.max(s.d.promised, s.d.lastBallot, s.v.maxSeen), s.servers.length, index);
  s.d.lastBallot = ballot;
  s.v.role = 'candidate';
  s.v.ballot = ballot;
  s.v.leaderId = null;
  s.v.promises = new Map();
  s.v.pending = new Map();
  s.v.fromSlot = s.d.chosen.length + 1;
  return { ballot, fromSlot: s.v.fromSlot };
}

/** A phase-1b reply at the candidate: 'won' with promises from a majority, 'lost' on a refusal. */
export function onPromise(s: PaxosCore, from: NodeId, reply: PromiseReply): 'won' | 'lost' | 'none' {
  if (s.v.role !== 'candidate' || reply.ballot !== s.v.ballot) return 'none';
  if (!reply.ok) {
    s.v.maxSeen = Math.max(s.v.maxSeen, reply.promised);
    s.v.role = 'follower';
    return 'lost';
  }
  s.v.promises.set(from, reply);
  return s.v.promises.size >= majority(s.servers.length) ? 'won' : 'none';
}

/**
 * What the new leader must propose before anything new (§3): for every slot from `fromSlot` to the
 * highest slot any promise reports, the value accepted in the highest ballot among the promises
 * (P2c), or null where none reports one — a gap the leader fills with a no-op.
 */
export function recoverSlots(promises: Iterable<PromiseReply>, fromSlot: number): Array<{ slot: number; value: Value | null }> {
  const best = new Map<number, { ballot: number; value: Value }>();
  let max = fromSlot - 1;
  for (const p of promises) {
    for (const a of p.accepted) {
      max = Math.max(max, a.slot);
      const cur = best.get(a.slot);
      if (!cur || a.ballot > cur.ballot) best.set(a.slot, { ballot: a.ballot, value: a.value });
    }
  }
  const out: Array<{ slot: number; value: Value | null }> = [];
  for (let slot = fromSlot; slot <= max; slot++) out.push({ slot, value: best.get(slot)?.value ?? null });
  return out;
}

/** Phase 1 done: leads `ballot`; new values go after every recovered slot. */
export function becomeLeader(s: PaxosCore, lastRecoveredSlot: number): void {
  s.v.role = 'leader';
  s.v.leaderId = s.id;
  s.v.promises = new Map();
  s.v.nextSlot = Math.max(lastRecoveredSlot, s.d.chosen.length) + 1;
}

/** A phase-2b reply at the leader: 'chosen' once a majority accepted the slot's value in its ballot. */
export function onAcceptedReply(s: PaxosCore, from: NodeId, reply: AcceptedReply): 'chosen' | 'stepdown' | 'none' {
  if (!reply.ok) {
    s.v.maxSeen = Math.max(s.v.maxSeen, reply.promised);
    if (s.v.role !== 'follower' && reply.promised > s.v.ballot) return 'stepdown';
    return 'none';
  }
  if (s.v.role !== 'leader' || reply.ballot !== s.v.ballot) return 'none';
  const p = s.v.pending.get(reply.slot);
  if (!p) return 'none';
  p.acks.add(from);
  return p.acks.size >= majority(s.servers.length) ? 'chosen' : 'none';
}

/** A proposer that learned of a higher ballot stops proposing. */
export function stepDown(s: PaxosCore): void {
  s.v.role = 'follower';
  s.v.leaderId = null;
  s.v.promises = new Map();
  s.v.pending = new Map();
}

// ================================================================ learner

/**
 * `slot` is chosen with `entry` (its value, and the ballot it was chosen in): record it and return
 * the entries that now extend the contiguous chosen prefix, in slot order (applied in that order).
 */
export function learn(s: PaxosCore, slot: number, entry: Accepted): Accepted[] {
  const chosen = s.d.chosen;
  if (slot <= chosen.length) return [];
  if (slot > chosen.length + 1) {
    s.v.ahead.set(slot, entry);
    return [];
  }
  const out: Accepted[] = [entry];
  chosen.push(entry);
  for (let next = s.v.ahead.get(chosen.length + 1); next !== undefined; next = s.v.ahead.get(chosen.length + 1)) {
    s.v.ahead.delete(chosen.length + 1);
    chosen.push(next);
    out.push(next);
  }
  return out;
}

/**
 * A leader of `ballot` says slots up to `through` are chosen. A slot this acceptor accepted in that
 * very ballot holds the value chosen there (a proposer proposes one value per slot and ballot, and
 * the leader proposes only slots it does not know chosen). Returns the slots learned this way; the
 * first slot it cannot learn so is where it must ask the leader for chosen values (null: none).
 */
export function learnFromCommitPoint(s: PaxosCore, through: number, ballot: number): { learned: Array<{ slot: number; entry: Accepted }>; missing: number | null } {
  const learned: Array<{ slot: number; entry: Accepted }> = [];
  for (let slot = s.d.chosen.length + 1; slot <= through; slot++) {
    const a = s.d.accepted[slot - 1];
    const entry = s.v.ahead.get(slot) ?? (a && a.value !== null && a.ballot === ballot ? a : null);
    if (entry === null) return { learned, missing: slot };
    learned.push({ slot, entry });
  }
  return { learned, missing: null };
}
