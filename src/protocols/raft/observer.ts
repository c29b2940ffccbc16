import type { NodeId } from '../../sim/types';
import { SeqTable } from './seqTable';
import { majority, type LogEntry } from './state';

/**
 * Observer bookkeeping for raft-ps: metrics (stale reads, the longest gap between commits) and the
 * lost / duplicated update counts. It sees every server; the protocol never reads it. What every
 * Raft group observes — the invariant checker, entry identities, overwritten entries — is the
 * group's (group.ts), which calls in here through its hooks.
 */
export class RaftObserver {
  private readonly staleReads = new Map<NodeId, number>();
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  /** Updates acknowledged to workers (1 each); add through `ack`. */
  private readonly acked = new SeqTable();
  /** Per server: how many copies of each update its log holds. */
  private readonly logKeys = new Map<NodeId, SeqTable>();
  /**
   * How many servers hold at least one copy of each update, and how many acknowledged updates are
   * held by fewer than a majority — kept as logs change, so `lostUpdates` costs the same at any
   * point of a run instead of a pass over every update ever acknowledged.
   */
  private readonly holders = new SeqTable();
  private lost = 0;
  /** Per server: the updates that changed its state machine since its last restart (1 each). */
  private readonly effective = new Map<NodeId, SeqTable>();
  private duplicates = 0;

  constructor(private readonly servers: readonly NodeId[]) {
    for (const id of servers) {
      this.logKeys.set(id, new SeqTable());
      this.effective.set(id, new SeqTable());
    }
  }

  /** `node` wrote `e` into its log (key counts for lostUpdates). */
  stored(node: NodeId, e: LogEntry): void {
    if (e.kind === 'update') this.copies(node, e.worker!, e.seq!, 1);
  }

  /** The updates acknowledged so far, as keys "w#seq" (a set made on each call: the tests', the checks'). */
  ackedKeys(): Set<string> {
    return new Set(Array.from(this.acked.entries(), ([k]) => k));
  }

  /** The worker's update `seq` was acknowledged to it. */
  ack(worker: NodeId, seq: number): void {
    if (this.acked.has(worker, seq)) return;
    this.acked.set(worker, seq, 1);
    if (this.holders.get(worker, seq) < majority(this.servers.length)) this.lost++;
  }

  /** Conflict truncation removed these entries from `node`'s log. */
  truncated(node: NodeId, removed: readonly LogEntry[]): void {
    for (const e of removed) if (e.kind === 'update') this.copies(node, e.worker!, e.seq!, -1);
  }

  /** `node`'s log gained (d = 1) or lost (d = -1) a copy of the worker's update `seq`. */
  private copies(node: NodeId, worker: NodeId, seq: number, d: number): void {
    const counts = this.logKeys.get(node)!;
    const before = counts.get(worker, seq);
    const after = counts.add(worker, seq, d);
    if ((before > 0) === (after > 0)) return;
    const need = majority(this.servers.length);
    const h0 = this.holders.get(worker, seq);
    const h1 = this.holders.add(worker, seq, after > 0 ? 1 : -1);
    if (this.acked.has(worker, seq) && h0 < need !== h1 < need) this.lost += h1 < need ? 1 : -1;
  }

  /** `e` is committed for the first time anywhere, at `now` (the gap between update commits). */
  firstCommit(e: LogEntry, now: number): void {
    if (e.kind !== 'update') return;
    if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
    this.lastCommitAt = now;
  }

  /** The worker's update `seq` changed `node`'s state machine (a second time since its restart is a duplicate). */
  effectiveUpdate(node: NodeId, worker: NodeId, seq: number): void {
    const eff = this.effective.get(node)!;
    if (eff.get(worker, seq) > 0) this.duplicates++;
    else eff.add(worker, seq, 1);
  }

  /** A crash wipes the state machine: what changed it starts over. */
  serverCrashed(node: NodeId): void {
    this.effective.set(node, new SeqTable());
  }

  staleRead(worker: NodeId): void {
    this.staleReads.set(worker, (this.staleReads.get(worker) ?? 0) + 1);
  }

  get maxCommitGapMs(): number {
    return this.maxGap;
  }

  staleReadsOf(worker?: NodeId): number {
    return worker ? (this.staleReads.get(worker) ?? 0) : sum(this.staleReads.values());
  }

  /**
   * Acknowledged updates no longer stored on a majority of the servers' logs. A committed entry
   * sits on a majority and Raft never removes it from there, so this stays 0 unless safety broke.
   */
  lostUpdates(): number {
    return this.lost;
  }

  duplicateUpdates(): number {
    return this.duplicates;
  }
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}
