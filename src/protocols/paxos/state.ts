import type { NodeId } from '../../sim/types';
import { ParamMachine, type UpdateCommand } from '../paramMachine';

/**
 * Multi-Paxos state (Lamport, "Paxos Made Simple", 2001, §3), split the way a crash splits it.
 * Every server is an acceptor, a learner and a proposer. `d` is on stable storage before the
 * server answers (the acceptor's promise and accepted values, the proposer's highest ballot, the
 * learner's chosen values); `v` is volatile. The parameter replica is rebuilt after a restart by
 * replaying the chosen values in slot order.
 *
 * Ballots are integers; ballot b belongs to server s(b mod n), so two proposers never use the same
 * one (Lamport: "different proposers choose their numbers from disjoint sets"). 0 is no ballot.
 */

/** A command for one slot. Immutable and shared, as equal bytes would be; `uid` is observer-only. */
export type Value = { readonly kind: 'update'; readonly update: UpdateCommand; readonly uid: number } | { readonly kind: 'noop'; readonly uid: number };

/** What an acceptor holds for one slot: the value it accepted and in which ballot. Immutable. */
export interface Accepted {
  readonly ballot: number;
  readonly value: Value;
}

/** A slot below an acceptor's highest accepted one in which it has accepted nothing. One shared object. */
export const GAP: { readonly ballot: 0; readonly value: null } = Object.freeze({ ballot: 0, value: null });
export type Slot = Accepted | typeof GAP;

export interface Durable {
  /** Acceptor: the highest ballot it promised (never to accept a lower one). */
  promised: number;
  /** Acceptor: accepted[s - 1] is slot s (slots start at 1). */
  accepted: Slot[];
  /** Proposer: the highest ballot it has tried, so it never reuses one after a restart. */
  lastBallot: number;
  /**
   * Learner: the chosen values of slots 1…chosen.length, in order, with the ballot they were
   * chosen in. Append-only (what `logOf` shows).
   */
  chosen: Accepted[];
}

export type Role = 'follower' | 'candidate' | 'leader';

/** Phase 1b: a promise (ok) with the values accepted from `fromSlot` on, or a refusal naming the higher promise. */
export interface PromiseReply {
  ballot: number;
  ok: boolean;
  promised: number;
  accepted: Array<{ slot: number; ballot: number; value: Value }>;
}

export interface Volatile {
  role: Role;
  /** Candidate / leader: its own ballot. */
  ballot: number;
  /** The leader it last heard from with a ballot it accepts (a hint for clients). */
  leaderId: NodeId | null;
  /** Highest ballot seen in refusals: the next ballot must exceed it. */
  maxSeen: number;
  /** Candidate: promises for `ballot`, and the first slot phase 1 asks about. */
  promises: Map<NodeId, PromiseReply>;
  fromSlot: number;
  /** Leader: the next free slot, and the proposals in phase 2 (slot → value and who accepted it). */
  nextSlot: number;
  pending: Map<number, { value: Value; acks: Set<NodeId>; sentAt: number }>;
  /** Learner: values known chosen beyond the contiguous prefix (learned out of order). */
  ahead: Map<number, Accepted>;
  sm: ParamMachine;
}

export interface PaxosCore {
  readonly id: NodeId;
  /** Every server, this one included, in order: ballot b belongs to servers[b mod n]. */
  readonly servers: readonly NodeId[];
  d: Durable;
  v: Volatile;
}

export function freshDurable(): Durable {
  return { promised: 0, accepted: [], lastBallot: 0, chosen: [] };
}

/** Volatile state after a (re)start: a follower whose replica replays the chosen values. */
export function freshVolatile(d: Durable, initial: Float32Array, lr: number): Volatile {
  const sm = new ParamMachine(initial);
  for (const c of d.chosen) if (c.value.kind === 'update') sm.apply(c.value.update, lr);
  return { role: 'follower', ballot: 0, leaderId: null, maxSeen: 0, promises: new Map(), fromSlot: 1, nextSlot: d.chosen.length + 1, pending: new Map(), ahead: new Map(), sm };
}

export function majority(n: number): number {
  return Math.floor(n / 2) + 1;
}

export function proposerOf(ballot: number, servers: readonly NodeId[]): NodeId | null {
  return ballot > 0 ? servers[ballot % servers.length] : null;
}

