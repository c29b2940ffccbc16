import type { Rng } from '../../sim/rng';
import type { NodeId } from '../../sim/types';
import type { ReadState } from './requests';
import type { LogEntry, ParamMachine, RaftCore, RaftEntry } from './state';

/** Volatile server state beyond Figure 2's: timers, leader bookkeeping, the owner's state machine M. */
export interface ServerX<M> extends ReadState {
  sm: M;
  /** When the election timer is due; `armedDue` is the engine timer armed for it (one at a time). */
  deadline: number;
  timerToken: number;
  armedDue: number | null;
  lastHeardLeader: number;
  aeSeq: number;
  /** Leader: the entry-carrying AppendEntries (or InstallSnapshot: `snap`) in flight to each follower. */
  inflight: Map<NodeId, { id: number; at: number; snap?: true }>;
  /** Leader: followers that answered since the last CheckQuorum. */
  quorumActive: Set<NodeId>;
  /** Pre-candidate: pre-votes granted for the term it probes (null: not probing). */
  preVotes: Set<NodeId> | null;
  /** Highest index on its own stable storage (tracked only when fsync is modelled). */
  durable: number;
}

/** A server of a Raft group over entries E with state machine M (group.ts). */
export interface RaftServer<E extends RaftEntry, M> extends RaftCore<E> {
  x: ServerX<M>;
  /**
   * On stable storage with `p`: the latest snapshot (§7), the state machine after applying the
   * entries up to `index` (never mutated), and that entry's term. The log may still hold some of
   * those entries (p.snapIndex ≤ index): a follower a little behind catches up from them.
   */
  snap: { index: number; term: number; machine: M } | null;
  rng: Rng;
}

/** A raft-ps server: parameter-update entries, the parameter vector as its state machine. */
export type Server = RaftServer<LogEntry, ParamMachine>;

export function freshServerX<M>(sm: M): ServerX<M> {
  return {
    sm,
    deadline: 0,
    timerToken: 0,
    armedDue: null,
    lastHeardLeader: -Infinity,
    aeSeq: 0,
    inflight: new Map(),
    round: 0,
    ackedRound: new Map(),
    ackedSentAt: new Map(),
    quorumActive: new Set(),
    pendingReads: [],
    preVotes: null,
    durable: 0,
  };
}
