import type { NodeId, TamperAttack } from '../sim/types';
import type { AggregationRule } from './aggregationRules';

/**
 * The typed notes a strategy (and the engine) records as protocol events happen (DESIGN rule 6):
 * each is a `note` history event with a name and typed data, never prose. Node state lives in
 * facts.ts; notes are what happened. `noteNames` is the one run-time part: the scenario validator
 * checks timeline `on` triggers against it.
 */

/**
 * The strategy's notes (CURRICULUM §C.6 names where they apply), with typed data. Narration and
 * timeline `on` triggers match on `what`; the app turns them into words.
 */
export interface NoteData {
  // Raft (and Kafka's controller for leaderElected)
  electionStarted: { term: number };
  leaderElected: { term: number; partition?: number; clean?: boolean };
  /**
   * `term`: Raft's new term, Paxos's own ballot; `from`: the server whose message carried the higher
   * term or ballot (none: CheckQuorum); `seen`: Paxos's higher ballot.
   */
  leaderStepDown: { term: number; from?: NodeId; seen?: number };
  commit: { index: number };
  entryOverwritten: { index: number; count: number };
  /** Log compaction (§7): the server's state machine up to `index` went to a snapshot, and the log before it. */
  snapshotTaken: { index: number };
  /** The leader had compacted entries this server needed: it installed the leader's snapshot up to `index`. */
  snapshotInstalled: { index: number; from: NodeId };
  updateAbandoned: { seq: number };
  /** A read returned an older version than one committed before it began (parameters, or metadata `key`). */
  staleRead: { version: number; newest: number; server: NodeId; key?: string };
  timeoutIgnored: { reason: 'leader' };
  // parameter servers
  apply: { worker: NodeId; seq: number; staleness: number };
  checkpoint: { version: number };
  pushTimeout: { unacked: number };
  pullTimeout: Record<string, never>;
  barrierBlocked: { round: number };
  lateGradient: { worker: NodeId; round: number };
  retransmit: { round: number; k?: number };
  sspBlocked: { clock: number; need: number };
  // Kafka
  brokerFenced: Record<string, never>;
  isrShrink: { partition: number; isr: NodeId[] };
  isrExpand: { partition: number; isr: NodeId[] };
  partitionOffline: { partition: number };
  uncleanElection: { partition: number; lostFrom: number; committed: number };
  notEnoughReplicas: { partition: number; isr: number };
  truncate: { partition: number; from: number; to: number };
  offlinePartition: { partition: number };
  produceError: { error: string };
  offsetOutOfRange: { partition: number; applied: number; leo: number };
  consumerCaughtUp: Record<string, never>;
  // degrade
  partitionDetected: { side: NodeId[]; epoch: number };
  modeSwitch: { to: 'eventual' | 'strong'; epoch: number };
  merge: { rule: 'discard' | 'average' | 'replay'; epoch: number; lostWork: number; replayed: number };
  mergeAborted: { epoch: number; reachable: NodeId[] };
  /**
   * A message or write carrying an older epoch than the receiver's was refused (degrade); or, at a
   * parameter server with fencing, a read or write carrying a lock token older than the newest it
   * has seen (`token`, `newest`).
   */
  fenced:
    | { what: 'ring' | 'contribution' | 'merged' | 'checkpoint'; from?: NodeId; epoch: number; current: number }
    | { what: 'write' | 'read'; from: NodeId; token: number; newest: number };
  /** A stale write the store accepted: an older epoch (degrade), or an older lock token at a PS without fencing. */
  staleWriteAccepted: { epoch: number; storeEpoch: number } | { from: NodeId; token: number; newest: number };
  /** degrade with a coordination service: the epoch it asked the service for, and the side that holds it. */
  epochGranted: { epoch: number; side: NodeId[]; ours: boolean };
  // parameter servers under a coordination-service lock (ps-async writeLock "lease")
  /** A worker read the parameters (under its lock when there is one; `token`: the lock's fencing token). */
  paramsRead: { version: number; token?: number };
  /** A request larger than the server's limit was refused (etcd: "request is too large"). */
  requestTooLarge: { from: NodeId; bytes: number; limit: number };
  // coordination service (CURRICULUM §C.6); the node is the client unless said otherwise
  /** The client holds the lock now; `token` is the fencing token (etcd revision, ZooKeeper zxid). */
  lockAcquired: { lock: string; token: number };
  lockReleased: { lock: string; token: number };
  /** The leader expired the client's lease (etcd) or session (ZooKeeper); its lock keys are deleted. */
  leaseExpired: { lease: number; server: NodeId };
  /** The client learned that its lease or session is gone (it opens a new one). */
  sessionLost: { lease: number };
  /** A metadata key was written through the service (putMeta); node: the leader. */
  metaWritten: { key: string; version: number; value: string };
  /** A client read a metadata key (`stale`: older than a version committed before the read began). */
  metaRead: { key: string; version: number; value: string | null; server: NodeId; stale: boolean };
  /** A coordination client switched to another server (its own did not answer). */
  coordFailover: { from: NodeId; to: NodeId };
  // two-phase commit (2pc-ps); the coordinator's notes carry its node, a participant's its own
  /** The coordinator sent PREPARE for `tx` to every participant (CURRICULUM §C.6). */
  '2pc.prepareSent': { tx: number; participants: number };
  /** A prepared participant's decision did not come: it is in doubt and blocks, asking the others (§C.6). */
  '2pc.inDoubt': { tx: number };
  /**
   * The coordinator decided and wrote the decision to its stable log before sending it. `reason`:
   * every vote was yes; a vote was no; the vote timeout fired; or, after a restart, a transaction it
   * had begun but not decided is aborted (presumed abort).
   */
  '2pc.decided': { tx: number; decision: 'commit' | 'abort'; reason: 'all-yes' | 'vote-no' | 'vote-timeout' | 'recovery' };
  /** A participant that was in doubt learned the outcome, from the coordinator or a peer (cooperative termination). */
  '2pc.resolved': { tx: number; decision: 'commit' | 'abort'; from: NodeId };
  // Multi-Paxos (paxos-ps) also uses electionStarted / leaderElected / leaderStepDown (term = ballot) and commit (index = slot)
  /** A new leader finished phase 1: it re-proposes `recovered` previously accepted values and fills `noops` gaps with no-ops. */
  'paxos.recovered': { ballot: number; from: number; recovered: number; noops: number };
  // security (engine/security; the observer's notes: it knows which messages an attacker touched)
  /** A message a man-in-the-middle altered passed the receiver's check (`check`: the integrity in force) and was applied. */
  tamperAccepted: { from: NodeId; kind: string; step?: number; attack: TamperAttack; check: 'none' | 'sha256' | 'hmac' | 'tls' };
  /** The receiver's check refused an altered message (under TLS: the record failed authentication). */
  tamperRejected: { from: NodeId; kind: string; step?: number; attack: TamperAttack; check: 'none' | 'sha256' | 'hmac' | 'tls' };
  /** A replayed genuine message passed every check and was applied again. */
  replayAccepted: { from: NodeId; kind: string; step?: number };
  /** A replayed message was refused: by its sequence number (`sequence`), or by TLS record authentication. */
  replayRejected: { from: NodeId; kind: string; step?: number; check: 'none' | 'sha256' | 'hmac' | 'tls' | 'sequence' };
  /**
   * The aggregation rule left a Byzantine worker's gradient out of a round (note's node: that
   * worker): Krum did not select it, or a coordinate-wise rule treated it as an outlier in `share`
   * (> ½) of the coordinates. Observer's note: the server cannot know who is Byzantine.
   */
  byzantineOutlierDropped: { rule: AggregationRule; round: number; share: number };
  // engine
  transient: { step: number; slowdown: number };
  targetReached: { steps: number };
  /** A timeline action whose selector matched no node when it fired. */
  actionSkipped: { selector: string };
  /**
   * A `timeout` on a node without an election timer; a `submit` where no worker is a manual client
   * (raft-ps clientMode "manual"); a `putMeta` without a coordination service or its leader.
   */
  actionIgnored: { reason: 'no-election-timer' | 'no-manual-client' | 'no-coordination-service' | 'no-leader' };
  /** A paused process resumed (after a `pause` action): it handles its queued events now. */
  resumed: { pausedMs: number; queued: number };
}

export type NoteName = keyof NoteData;

/** A note as stored in the history (`node` is absent for cluster-wide notes). */
export type Note = { [K in NoteName]: { what: K; node?: NodeId; data: NoteData[K] } }[NoteName];

/**
 * Every note name at run time: timeline `on` triggers and narration are checked against it. The
 * type makes it complete — a note added to NoteData without a row here does not compile.
 */
const noteNameRows: { [K in NoteName]: true } = {
  electionStarted: true,
  leaderElected: true,
  leaderStepDown: true,
  commit: true,
  entryOverwritten: true,
  snapshotTaken: true,
  snapshotInstalled: true,
  updateAbandoned: true,
  staleRead: true,
  timeoutIgnored: true,
  apply: true,
  checkpoint: true,
  pushTimeout: true,
  pullTimeout: true,
  barrierBlocked: true,
  lateGradient: true,
  retransmit: true,
  sspBlocked: true,
  brokerFenced: true,
  isrShrink: true,
  isrExpand: true,
  partitionOffline: true,
  uncleanElection: true,
  notEnoughReplicas: true,
  truncate: true,
  offlinePartition: true,
  produceError: true,
  offsetOutOfRange: true,
  consumerCaughtUp: true,
  partitionDetected: true,
  modeSwitch: true,
  merge: true,
  mergeAborted: true,
  fenced: true,
  staleWriteAccepted: true,
  epochGranted: true,
  paramsRead: true,
  requestTooLarge: true,
  lockAcquired: true,
  lockReleased: true,
  leaseExpired: true,
  sessionLost: true,
  metaWritten: true,
  metaRead: true,
  coordFailover: true,
  '2pc.prepareSent': true,
  '2pc.inDoubt': true,
  '2pc.decided': true,
  '2pc.resolved': true,
  'paxos.recovered': true,
  tamperAccepted: true,
  tamperRejected: true,
  replayAccepted: true,
  replayRejected: true,
  byzantineOutlierDropped: true,
  transient: true,
  targetReached: true,
  actionSkipped: true,
  actionIgnored: true,
  resumed: true,
};
export const noteNames: readonly NoteName[] = Object.keys(noteNameRows) as NoteName[];
