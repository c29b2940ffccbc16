import type { Rng } from '../../sim/rng';
import type { NodeId } from '../../sim/types';
import type { ReadState } from './requests';
import { ParamMachine, type RaftCore } from './state';

/** Volatile server state beyond Figure 2's: timers, leader bookkeeping, the state machine. */
export interface ServerX extends ReadState {
  sm: ParamMachine;
  /** When the election timer is due; `armedDue` is the engine timer armed for it (one at a time). */
  deadline: number;
  timerToken: number;
  armedDue: number | null;
  lastHeardLeader: number;
  aeSeq: number;
  /** Leader: the entry-carrying AppendEntries in flight to each follower. */
  inflight: Map<NodeId, { id: number; at: number }>;
  /** Leader: followers that answered since the last CheckQuorum. */
  quorumActive: Set<NodeId>;
}

export interface Server extends RaftCore {
  x: ServerX;
  rng: Rng;
}

export function freshServerX(initialParams: Float32Array): ServerX {
  return {
    sm: new ParamMachine(initialParams),
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
  };
}
