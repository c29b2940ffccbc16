import type { NodeId } from '../../sim/types';

/**
 * Kafka's replication rules as pure functions (Kafka replication design; KIP-101/279 leader
 * epochs; ReplicaManager / Partition in the broker). The strategy wires them to messages and
 * timers; here they are small enough to test as a decision table.
 */

export type Acks = '0' | '1' | 'all';

/** What the leader tracks per follower (Kafka's Replica.updateFetchState). */
export interface FollowerFetchState {
  /** The follower's log-end offset, as its last fetch request said. */
  leo: number;
  lastCaughtUpMs: number;
  lastFetchMs: number;
  /** Leader's LEO when it answered the previous fetch of this follower. */
  lastFetchLeaderLeo: number;
}

/**
 * A fetch at `fetchOffset` arriving at `now`, when the leader's LEO is `leaderLeo`. A follower is
 * caught up when it asks for the leader's end; or, if it asked for at least what the leader had at
 * its previous fetch, it was caught up *then* (so a follower that keeps up with a busy leader is
 * never declared lagging just because new records keep arriving).
 */
export function onFollowerFetch(s: FollowerFetchState, fetchOffset: number, leaderLeo: number, now: number): FollowerFetchState {
  let caught = s.lastCaughtUpMs;
  if (fetchOffset >= leaderLeo) caught = Math.max(caught, now);
  else if (fetchOffset >= s.lastFetchLeaderLeo) caught = Math.max(caught, s.lastFetchMs);
  return { leo: fetchOffset, lastCaughtUpMs: caught, lastFetchMs: now, lastFetchLeaderLeo: leaderLeo };
}

/** Followers in the ISR that have not caught up within replica.lag.time.max.ms: they leave it. */
export function laggingFollowers(isr: readonly NodeId[], leader: NodeId, followers: ReadonlyMap<NodeId, FollowerFetchState>, now: number, lagMaxMs: number): NodeId[] {
  return isr.filter((b) => b !== leader && now - (followers.get(b)?.lastCaughtUpMs ?? -Infinity) > lagMaxMs);
}

/**
 * A follower outside the ISR rejoins once its LEO reaches the leader's high watermark and the start
 * of the leader's current epoch (so it holds everything committed under this leader).
 */
export function mayJoinIsr(followerLeo: number, leaderHw: number, epochStartOffset: number): boolean {
  return followerLeo >= leaderHw && followerLeo >= epochStartOffset;
}

/**
 * High watermark: the minimum LEO over the ISR (the leader's own LEO included). On a leader it only
 * ever moves forward; an unknown follower LEO (not fetched yet under this leader) holds it back.
 */
export function highWatermark(currentHw: number, isr: readonly NodeId[], leoOf: (b: NodeId) => number | undefined): number {
  let min = Infinity;
  for (const b of isr) {
    const leo = leoOf(b);
    if (leo === undefined) return currentHw;
    min = Math.min(min, leo);
  }
  return Number.isFinite(min) ? Math.max(currentHw, min) : currentHw;
}

export type ProduceCheck = { ok: true } | { ok: false; error: 'NotEnoughReplicas' };

/** Before appending: acks=all refuses when the ISR is smaller than min.insync.replicas. */
export function checkProduce(acks: Acks, isrSize: number, minIsr: number): ProduceCheck {
  if (acks === 'all' && isrSize < minIsr) return { ok: false, error: 'NotEnoughReplicas' };
  return { ok: true };
}

export type AckDecision = 'ack-now' | 'no-response' | 'wait';

/** After the append: who answers when (acks=0: nobody; 1: the leader at once; all: at the HW). */
export function ackAfterAppend(acks: Acks): AckDecision {
  return acks === '0' ? 'no-response' : acks === '1' ? 'ack-now' : 'wait';
}

export type PendingOutcome = 'wait' | 'ack' | 'NotEnoughReplicasAfterAppend';

/** A waiting acks=all request once the HW moved: ack when its last record is below the HW and the ISR is big enough. */
export function pendingOutcome(lastOffset: number, hw: number, isrSize: number, minIsr: number): PendingOutcome {
  if (hw <= lastOffset) return 'wait';
  return isrSize >= minIsr ? 'ack' : 'NotEnoughReplicasAfterAppend';
}

export type Election =
  | { kind: 'clean'; leader: NodeId; isr: NodeId[] }
  | { kind: 'unclean'; leader: NodeId; isr: NodeId[] }
  | { kind: 'offline'; isr: NodeId[] };

/**
 * The controller's choice of a partition leader: the first live ISR member in assignment order
 * (clean). With none, unclean.leader.election.enable decides: the first live replica outside the
 * ISR becomes leader and the ISR restarts as just that replica; otherwise the partition is offline
 * and the ISR keeps its last members (Kafka never shrinks an ISR to empty).
 */
export function electLeader(assignment: readonly NodeId[], isr: readonly NodeId[], live: (b: NodeId) => boolean, unclean: boolean): Election {
  const clean = assignment.find((b) => isr.includes(b) && live(b));
  if (clean !== undefined) return { kind: 'clean', leader: clean, isr: isr.filter((b) => live(b)) };
  if (unclean) {
    const any = assignment.find((b) => live(b));
    if (any !== undefined) return { kind: 'unclean', leader: any, isr: [any] };
  }
  return { kind: 'offline', isr: [...isr] };
}

/** Removes brokers from an ISR, never emptying it (the last member stays, as in Kafka). */
export function shrinkIsr(isr: readonly NodeId[], remove: readonly NodeId[]): NodeId[] {
  const out = isr.filter((b) => !remove.includes(b));
  return out.length > 0 ? out : [...isr.filter((b) => remove.includes(b)).slice(0, 1)];
}

/**
 * Kafka's leader-epoch cache (LeaderEpochFileCache): for each run of records of one epoch, in log
 * order, the epoch and the offset where the run starts; `leo` ends the last run. The rules below
 * read it instead of every record's epoch, so a fetch costs the number of epochs, not the log.
 */
export interface EpochRun {
  epoch: number;
  start: number;
}
export interface EpochCache {
  runs: readonly EpochRun[];
  leo: number;
}

/** The cache of a log given as one epoch per record (`epochs[i]` of the record at offset i). */
export function epochCacheOf(epochs: readonly number[]): EpochCache {
  const runs: EpochRun[] = [];
  epochs.forEach((epoch, start) => {
    if (runs.length === 0 || runs[runs.length - 1].epoch !== epoch) runs.push({ epoch, start });
  });
  return { runs, leo: epochs.length };
}

/**
 * Leader-epoch truncation (KIP-101, KIP-279): the end offset the leader has for `epoch`, i.e. the
 * start of the first later epoch in its log, or its LEO when no later epoch exists.
 */
export function endOffsetForEpoch(log: EpochCache, epoch: number): number {
  // Epochs are non-decreasing along a log: the first record of a later epoch ends `epoch`.
  for (const r of log.runs) if (r.epoch > epoch) return r.start;
  return log.leo;
}

/**
 * The leader's answer to a follower whose last record has epoch `followerLastEpoch` (KIP-279): the
 * largest epoch it has that is ≤ that one, and where that epoch ends in the leader's log.
 */
export function leaderEpochAnswer(leader: EpochCache, followerLastEpoch: number): { epoch: number; endOffset: number } {
  let epoch = -1;
  for (const r of leader.runs) if (r.epoch <= followerLastEpoch && r.epoch > epoch) epoch = r.epoch;
  return { epoch, endOffset: endOffsetForEpoch(leader, epoch) };
}

/** Whether a follower at (leo, lastEpoch) must truncate before it may fetch (its log is not a prefix of the leader's). */
export function diverges(leader: EpochCache, followerLeo: number, followerLastEpoch: number): boolean {
  if (followerLeo === 0) return false;
  const a = leaderEpochAnswer(leader, followerLastEpoch);
  return a.epoch !== followerLastEpoch || a.endOffset < followerLeo;
}

/** The follower truncates to the smaller of the leader's end for that epoch and its own. */
export function truncationOffset(follower: EpochCache, answer: { epoch: number; endOffset: number }): number {
  return Math.min(answer.endOffset, endOffsetForEpoch(follower, answer.epoch), follower.leo);
}
