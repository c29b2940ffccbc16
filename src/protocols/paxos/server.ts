import type { Rng } from '../../sim/rng';
import type { NodeId } from '../../sim/types';
import type { ClientMsg } from '../rsmClient';
import type { AcceptedReply, Prepare } from './rules';
import type { Accepted, PaxosCore, PromiseReply, Value } from './state';

/**
 * What a paxos-ps server is beyond the protocol core (state.ts): the messages it exchanges and its
 * volatile bookkeeping — timers, read rounds, catch-up pacing.
 */

export type Msg =
  | ClientMsg
  | ({ t: 'p1a' } & Prepare)
  | ({ t: 'p1b' } & PromiseReply)
  /** Phase 2a, carrying the leader's chosen prefix (`chosen`) so followers learn without extra messages. */
  | { t: 'p2a'; ballot: number; slot: number; value: Value; chosen: number }
  | ({ t: 'p2b' } & AcceptedReply)
  /** Leadership, the chosen prefix, and (`round`) a read confirmation round. */
  | { t: 'hb'; ballot: number; chosen: number; round: number }
  | { t: 'hbr'; ballot: number; ok: boolean; promised: number; round: number }
  /** A learner asks the leader for the chosen values from slot `from` on. */
  | { t: 'catchup'; from: number }
  | { t: 'chosen'; from: number; entries: Accepted[] };

/** Slots per message when a learner catches up, and accepts re-sent per heartbeat. */
export const BATCH = 64;

/** Sends a paxos-ps message (`bytes`: the payload's modelled size beyond the header). */
export type Send = (from: NodeId, to: NodeId, kind: string, m: Msg, bytes?: number) => void;

interface PendingRead {
  worker: NodeId;
  readId: number;
  /** The highest slot assigned when the read arrived. */
  readIndex: number;
  round: number;
}

/** Volatile bookkeeping beyond the protocol state: timers, read rounds, catch-up pacing. */
interface ServerX {
  deadline: number;
  timerToken: number;
  armedDue: number | null;
  round: number;
  ackedRound: Map<NodeId, number>;
  reads: PendingRead[];
  /** Pending updates by worker#seq → slot, so a client's retry is not proposed twice. */
  pendingKeys: Map<string, number>;
  lastCatchup: number;
}

export interface Server extends PaxosCore {
  x: ServerX;
  rng: Rng;
}

export function freshX(): ServerX {
  return { deadline: 0, timerToken: 0, armedDue: null, round: 0, ackedRound: new Map(), reads: [], pendingKeys: new Map(), lastCatchup: -Infinity };
}
