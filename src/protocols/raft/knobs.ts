import { z } from 'zod/mini';
import { ruleIssue } from '../../scenario/problems';

/**
 * Knobs of `raft-ps` (Ongaro & Ousterhout 2014; the thesis for reads and client sessions; etcd's
 * CheckQuorum and PreVote; etcd for fsyncMs and maxRequestBytes). The strategy itself is described in raftPs.ts.
 *
 * Reads (`readMode`): "readIndex" (default; thesis §6.4: the leader records commitIndex, confirms
 * it still leads with a heartbeat round to a majority, then answers once applied ≥ readIndex),
 * "log" (the read is a log entry, answered when applied), "lease" (the leader answers without the
 * round while a majority acknowledged a heartbeat sent less than the minimum election timeout ago;
 * safe only with bounded clock drift — this simulation has none — and only because followers then
 * refuse to vote within that time of hearing from a leader, thesis §4.2.3), "local" (whichever
 * server the worker asks answers from its own state machine: stale reads).
 */
export const raftPsKnobs = z.strictObject({
  kind: z.literal('raft-ps'),
  /** Election timeout drawn uniformly from [min, max] ms each time the timer is reset (§5.2; the paper uses 150–300). */
  electionTimeoutMs: z._default(
    z.tuple([z.number().check(z.positive()), z.number().check(z.positive())]).check(z.refine(([lo, hi]) => lo <= hi, ruleIssue({ kind: 'rangeOrder' }))),
    [150, 300],
  ),
  heartbeatMs: z._default(z.number().check(z.positive()), 50),
  readMode: z._default(z.enum(['readIndex', 'log', 'lease', 'local']), 'readIndex'),
  /**
   * A new leader appends a no-op of its term so that earlier entries commit (§8). Without it,
   * nothing of an earlier term commits — and no ReadIndex read is answered — until a client's
   * entry of the new term commits.
   */
  leaderNoop: z._default(z.boolean(), true),
  /** etcd's CheckQuorum: a leader that has not heard from a majority for an election timeout steps down. */
  checkQuorum: z._default(z.boolean(), false),
  /**
   * Pre-vote (thesis §9.6; etcd's PreVote): a server whose timer fires first asks whether a majority
   * would vote for it, and raises its term only if so. Off, as in the paper's core algorithm: a
   * server cut off from the majority keeps raising its term and, on rejoining, deposes the leader.
   */
  preVote: z._default(z.boolean(), false),
  /**
   * "training": workers loop read → compute → update. "manual": a worker updates only when the
   * timeline or the learner says `submit` (CURRICULUM L7, Figure 8 scripted step by step).
   */
  clientMode: z._default(z.enum(['training', 'manual']), 'training'),
  clientRetryMs: z._default(z.number().check(z.positive()), 100),
  /** A training worker abandons an update not acknowledged within this time and reads fresh parameters (a manual client never does). */
  updateTimeoutMs: z._default(z.number().check(z.positive()), 1000),
  /** Scale each gradient's learning rate by 1/max(1, τ), τ its staleness at apply (Zhang et al. 2016). */
  lrStaleness: z._default(z.enum(['none', 'inverse']), 'none'),
  /**
   * Modelled fdatasync of new log entries (ms): a follower acknowledges, and the leader counts
   * itself, only once they are on disk — etcd's commit latency is a round trip plus an fsync.
   */
  fsyncMs: z._default(z.number().check(z.nonnegative()), 0),
  /**
   * Largest client request a server accepts, in bytes (etcd's --max-request-bytes, 1.5 MiB by
   * default). A larger update is refused with "request is too large" (rejectedWrites). None by default.
   */
  maxRequestBytes: z.optional(z.int().check(z.positive())),
  /**
   * Log compaction (§7): a server snapshots its parameters once it has applied this many entries past
   * its last snapshot, and drops the entries more than this many before it from its log; a follower
   * that needs dropped entries gets the snapshot (InstallSnapshot). etcd's --snapshot-count does this,
   * by default every 100 000 entries since 3.2 (10 000 before). 0: never compact.
   */
  snapshotEvery: z._default(z.int().check(z.nonnegative()), 1000),
});
export type RaftPsConfig = z.infer<typeof raftPsKnobs>;
export type ReadMode = RaftPsConfig['readMode'];
