import type { Rng } from '../../sim/rng';
import type { MessageKind, NodeId } from '../../sim/types';
import type { NoteData, NoteName } from '../notes';
import type { PendingRead } from './requests';
import type { RaftServer } from './server';
import type { RaftEntry } from './state';

/**
 * The contract between a Raft group (group.ts) and its owner — raft-ps or the etcd-like
 * coordination service: the environment it runs in, its settings, and the hooks that give the
 * log its meaning (entries, state machine, reads).
 */

/** What the group needs of its environment (a StrategyContext, or the coordination service's). */
export interface RaftIo {
  now(): number;
  isUp(node: NodeId): boolean;
  send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): void;
  setTimer(node: NodeId, delayMs: number, tag: string, data?: unknown): void;
  note<K extends NoteName>(what: K, node: NodeId | undefined, data: NoteData[K]): void;
  rng(stream: string): Rng;
}

export interface RaftGroupConfig {
  /** Election timeout drawn uniformly from [min, max] ms each time the timer is reset (§5.2). */
  electionTimeoutMs: readonly [number, number];
  heartbeatMs: number;
  /** Leader lease reads: answered without a heartbeat round while a majority acknowledged one recently. */
  leaseReads: boolean;
  /** A new leader appends a no-op of its term so that earlier entries commit (§8). */
  leaderNoop: boolean;
  /** A leader that has not heard from a majority for an election timeout steps down (etcd). */
  checkQuorum: boolean;
  /** Pre-Vote before each election (thesis §9.6; etcd's default since 3.5). */
  preVote?: boolean;
  /** Modelled fdatasync of new log entries: a follower answers, and a leader counts itself, only after it. */
  fsyncMs?: number;
  /**
   * Log compaction (§7): a server snapshots its state machine once it has applied this many entries
   * past its last snapshot, and drops them from its log. 0 or absent: never (also without `cloneMachine`).
   */
  snapshotEvery?: number;
}

export interface RaftHooks<E extends RaftEntry, M> {
  /** A fresh (empty) state machine: at start, and after a crash of a server without a snapshot (the log is re-applied). */
  machine(): M;
  /**
   * An independent copy of a state machine (§7): the snapshot a server keeps, and the machine it
   * restores from one after a crash or an InstallSnapshot. Without it the group never compacts.
   */
  cloneMachine?(m: M): M;
  /** Bytes of a snapshot on the wire (InstallSnapshot). */
  snapshotBytes?(m: M): number;
  /** A new leader's no-op entry (without its uid). */
  noop(term: number): Omit<E, 'uid'>;
  /** Payload bytes an entry adds to an AppendEntries. */
  entryBytes(e: E): number;
  /** Observer: `s` wrote `e` into its log. */
  stored?(s: RaftServer<E, M>, e: E): void;
  /** Observer: conflict truncation removed these entries from `s`'s log. */
  truncated?(s: RaftServer<E, M>, entries: readonly E[]): void;
  /** Observer: index `i` is committed for the first time anywhere (in order, at the committing server). */
  firstCommit?(s: RaftServer<E, M>, i: number, e: E): void;
  /** Apply a committed entry to `s`'s state machine (in index order). */
  apply(s: RaftServer<E, M>, index: number, e: E, firstAnywhere: boolean): void;
  /** A ReadIndex / lease read is ready: leadership confirmed and the read index applied. */
  answerRead(s: RaftServer<E, M>, r: PendingRead): void;
  /** `s` stopped leading (its clients retry elsewhere). */
  steppedDown?(s: RaftServer<E, M>): void;
  /** `s` won an election. */
  elected?(s: RaftServer<E, M>): void;
}
