import type { Message, NodeId } from '../sim/types';
import type { Contribution } from './degradeMerge';

/**
 * What a `degrade` worker holds (its persisted and volatile parts) and the messages of the merge
 * on heal (degradeHeal.ts). The strategy itself: degrade.ts.
 */

export type Mode = 'strong' | 'degraded' | 'merging' | 'down';

export interface ContributionMsg extends Contribution {
  epoch: number;
}
export interface MergedMsg {
  epoch: number;
  params: Float32Array;
  version: number;
  /** Local steps of each worker's merged contribution (its later steps are not in the merge). */
  included: Record<NodeId, number>;
  /** On a resend: the coordinator's epoch, when it has moved past this merge since (see adopt). */
  supersededBy?: number;
}

export interface WorkerState {
  mode: Mode;
  // ---- persisted (survive a crash, like Raft's currentTerm and a checkpoint file)
  epoch: number;
  /** Version the worker's current ring started from (its round 0). */
  base: number;
  /** Parameters after the last ring round or adopted merge; `fromRing`: the ring's own checkpoint holds the same. */
  ckpt: { params: Float32Array; version: number; fromRing: boolean };
  /** Mode when it crashed (restarts in it). */
  crashedIn: Mode;
  /** Coordinator: the last merge it made, written before it is sent (answers late contributors). */
  lastMerge: MergedMsg | null;
  // ---- volatile
  lastProgress: number;
  lastHeard: Map<NodeId, number>;
  side: NodeId[];
  quorum: boolean;
  grads: Array<{ grad: Float32Array; basedOn: number }>;
  /** Heard every worker continuously since (null: not). */
  stableSince: number | null;
  contributedAt: number;
  /** The worker its last contribution went to (merging). */
  coordinator: NodeId | null;
  /** Ring messages of a newer epoch that arrived before the merged parameters did. */
  early: Message[];
  /** Coordinator: contributions collected for the next merge. */
  contributions: Map<NodeId, ContributionMsg>;
  /** With a service: the epoch it asked for (side epoch, or a merge's), and the request's id. */
  epochAsk: { epoch: number; reqId: number; side: string; merge?: ContributionMsg[] } | null;
}

export function freshWorker(epoch: number, params: Float32Array): WorkerState {
  return {
    mode: 'strong',
    epoch,
    base: 0,
    ckpt: { params, version: 0, fromRing: false },
    crashedIn: 'strong',
    lastMerge: null,
    lastProgress: 0,
    lastHeard: new Map(),
    side: [],
    quorum: true,
    grads: [],
    stableSince: null,
    contributedAt: 0,
    coordinator: null,
    early: [],
    contributions: new Map(),
    epochAsk: null,
  };
}
