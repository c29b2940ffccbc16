import type { NodeId } from '../../sim/types';
import { axpy } from '../../sim/vectors';
import { SeqTable } from './seqTable';

/**
 * Raft server state (Ongaro & Ousterhout 2014, Figure 2), split the way a crash splits it:
 * `p` is what the server has on stable storage before it answers any RPC (it survives a crash);
 * `v` is volatile and is rebuilt after a restart. The replicated state machine is volatile too:
 * a restarted server restores its latest snapshot (§7) and re-applies the log after it once it
 * learns the commit index again.
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

/**
 * A log after compaction (§7, Figure 12): the entries up to `snapIndex` were replaced by a snapshot
 * of the state machine, and `log[i - snapIndex - 1]` is the entry at index i (Raft indices start
 * at 1; snapIndex is 0 before any snapshot). `snapTerm` is the term of the entry at snapIndex, kept
 * for the consistency check of the entry after it.
 */
export interface LogState<E extends RaftEntry = RaftEntry> {
  readonly log: readonly E[];
  readonly snapIndex: number;
  readonly snapTerm: number;
}

export interface Persistent<E extends RaftEntry = LogEntry> extends LogState<E> {
  currentTerm: number;
  votedFor: NodeId | null;
  log: E[];
  snapIndex: number;
  snapTerm: number;
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
  return { currentTerm: 0, votedFor: null, log: [], snapIndex: 0, snapTerm: 0 };
}

export function freshVolatile(): Volatile {
  return { role: 'follower', commitIndex: 0, lastApplied: 0, leaderId: null, votes: new Set(), nextIndex: new Map(), matchIndex: new Map() };
}

export function lastIndex(p: LogState): number {
  return p.snapIndex + p.log.length;
}

export function lastTerm(p: LogState): number {
  return p.log.length ? p.log[p.log.length - 1].term : p.snapTerm;
}

/** Term of the entry at `index`: 0 for index 0, snapTerm at snapIndex, undefined before it (compacted) or past the end. */
export function termAt(p: LogState, index: number): number | undefined {
  if (index === p.snapIndex) return p.snapTerm;
  if (index < p.snapIndex) return undefined;
  return p.log[index - p.snapIndex - 1]?.term;
}

/** The entry at `index`; undefined where it was compacted into the snapshot or is past the end. */
export function entryAt<E extends RaftEntry>(p: LogState<E>, index: number): E | undefined {
  return index > p.snapIndex ? p.log[index - p.snapIndex - 1] : undefined;
}

/** A log that was never compacted (Zab's history, the checker's tests), as LogState. */
export function wholeLog<E extends RaftEntry>(log: readonly E[]): LogState<E> {
  return { log, snapIndex: 0, snapTerm: 0 };
}

/**
 * Log compaction (§7): the entries up to `index` (≤ lastIndex) leave the log for a snapshot taken
 * at it. The caller keeps the snapshot of the state machine that has applied exactly them.
 */
export function compactLog<E extends RaftEntry>(p: Persistent<E>, index: number): void {
  if (index <= p.snapIndex) return;
  const term = termAt(p, index);
  if (term === undefined) throw new Error(`compactLog: index ${index} is past the log's end ${lastIndex(p)}`);
  p.log.splice(0, index - p.snapIndex);
  p.snapIndex = index;
  p.snapTerm = term;
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
  readonly applied: SeqTable;
  skipped = 0;

  constructor(initial: Float32Array, applied = new SeqTable()) {
    this.params = initial;
    this.applied = applied;
  }

  /** An independent copy: a snapshot (§7) is one, and a server restoring a snapshot takes another. */
  clone(): ParamMachine {
    const m = new ParamMachine(this.params.slice(), this.applied.copy());
    m.version = this.version;
    m.skipped = this.skipped;
    return m;
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
