import type { NodeId } from '../../sim/types';
import { axpy } from '../../sim/vectors';
import { SeqTable } from './seqTable';

/**
 * Raft server state (Ongaro & Ousterhout 2014, Figure 2), split the way a crash splits it:
 * `p` is what the server has on stable storage before it answers any RPC (it survives a crash);
 * `v` is volatile and is rebuilt after a restart. The replicated state machine is volatile too:
 * a restarted server re-applies its log once it learns the commit index again.
 */

export type EntryKind = 'update' | 'noop' | 'read';

/** One log entry. Immutable once created: servers share the same object, as a byte copy would be equal. */
export interface LogEntry {
  readonly term: number;
  readonly kind: EntryKind;
  /** update / read: the client (worker) that sent it. */
  readonly worker?: NodeId;
  /** update: the client's sequence number; (worker, seq) identifies the update across retries. */
  readonly seq?: number;
  readonly grad?: Float32Array;
  /** update: version of the parameters the gradient was computed on. */
  readonly basedOn?: number;
  /** read (readMode "log"): the client's read id. */
  readonly readId?: number;
  /** Observer-only identity for the invariant checks; the protocol never reads it. */
  readonly uid: number;
}

/**
 * What the rules need of any log entry: its term, and an observer-only identity (the invariant
 * checker's "same entry"). The parameter server's entries (LogEntry) and the coordination service's
 * commands are both RaftEntries, so one set of rules serves both.
 */
export interface RaftEntry {
  readonly term: number;
  readonly uid: number;
}

export type Role = 'follower' | 'candidate' | 'leader';

export interface Persistent<E extends RaftEntry = LogEntry> {
  currentTerm: number;
  votedFor: NodeId | null;
  /** log[i - 1] is the entry at index i (Raft indices start at 1). */
  log: E[];
}

export interface Volatile {
  role: Role;
  commitIndex: number;
  lastApplied: number;
  /** Who this server believes leads its current term (a hint for redirecting clients). */
  leaderId: NodeId | null;
  /** Candidate: votes received in the current term (itself included). */
  votes: Set<NodeId>;
  /** Leader: next index to send to each follower, highest index known replicated on it. */
  nextIndex: Map<NodeId, number>;
  matchIndex: Map<NodeId, number>;
}

/** The slice of a server the pure rules work on. */
export interface RaftCore<E extends RaftEntry = LogEntry> {
  readonly id: NodeId;
  /** Every other server of the cluster. */
  readonly peers: readonly NodeId[];
  p: Persistent<E>;
  v: Volatile;
}

export function freshPersistent<E extends RaftEntry = LogEntry>(): Persistent<E> {
  return { currentTerm: 0, votedFor: null, log: [] };
}

export function freshVolatile(): Volatile {
  return { role: 'follower', commitIndex: 0, lastApplied: 0, leaderId: null, votes: new Set(), nextIndex: new Map(), matchIndex: new Map() };
}

export function lastIndex(log: readonly RaftEntry[]): number {
  return log.length;
}

export function lastTerm(log: readonly RaftEntry[]): number {
  return log.length ? log[log.length - 1].term : 0;
}

/** Term of the entry at `index`; 0 for index 0, undefined past the end. */
export function termAt(log: readonly RaftEntry[], index: number): number | undefined {
  if (index === 0) return 0;
  return log[index - 1]?.term;
}

export function entryAt<E extends RaftEntry>(log: readonly E[], index: number): E | undefined {
  return index >= 1 ? log[index - 1] : undefined;
}

export function majority(clusterSize: number): number {
  return Math.floor(clusterSize / 2) + 1;
}

/**
 * The replicated state machine: the parameter vector. Applying an update entry is one SGD step;
 * its version is the number of distinct updates applied. (worker, seq) pairs already applied are
 * skipped, so a retried update that was appended twice changes the parameters once (Raft §8,
 * client sessions).
 */
export class ParamMachine {
  params: Float32Array;
  version = 0;
  /** (worker, seq) → the version its application produced (versions count from 1). */
  readonly applied = new SeqTable();
  skipped = 0;

  constructor(initial: Float32Array) {
    this.params = initial;
  }

  /** Applies an update; returns the version it produced, or null if it was a duplicate. */
  apply(e: LogEntry, lr: number): number | null {
    if (e.kind !== 'update' || !e.grad || e.worker === undefined || e.seq === undefined) return null;
    if (this.applied.has(e.worker, e.seq)) {
      this.skipped++;
      return null;
    }
    axpy(this.params, -lr, e.grad);
    this.version++;
    this.applied.set(e.worker, e.seq, this.version);
    return this.version;
  }
}
