import type { NodeId } from '../../sim/types';
import { majority, UpdateKeys, type LogEntry } from './state';

/**
 * Observer bookkeeping for raft-ps: metrics (stale reads, the longest gap between commits) and the
 * lost / duplicated update counts. It sees every server; the protocol never reads it. What every
 * Raft group observes — the invariant checker, entry identities, overwritten entries — is the
 * group's (group.ts), which calls in here through its hooks.
 */
export class RaftObserver {
  /** The update keys every table here and the servers' state machines share. */
  readonly keys = new UpdateKeys();
  private readonly staleReads = new Map<NodeId, number>();
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  /** Updates acknowledged to workers (keys "w#seq"); add through `ack`. */
  readonly acked: ReadonlySet<string> = new Set<string>();
  /** Per server: how many copies of each update its log holds. */
  private readonly logKeys = new Map<NodeId, Map<string, number>>();
  /**
   * How many servers hold at least one copy of each update, and how many acknowledged updates are
   * held by fewer than a majority — kept as logs change, so `lostUpdates` costs the same at any
   * point of a run instead of a pass over every update ever acknowledged.
   */
  private readonly holders = new Map<string, number>();
  private lost = 0;
  /** Per server: the updates that changed its state machine since its last restart. */
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;

  constructor(private readonly servers: readonly NodeId[]) {
    for (const id of servers) {
      this.logKeys.set(id, new Map());
      this.effective.set(id, new Set());
    }
  }

  /** `node` wrote `e` into its log (key counts for lostUpdates). */
  stored(node: NodeId, e: LogEntry): void {
    if (e.kind === 'update') this.copies(node, this.keys.key(e.worker!, e.seq!), 1);
  }

  /** The update was acknowledged to its worker. */
  ack(key: string): void {
    const acked = this.acked as Set<string>;
    if (acked.has(key)) return;
    acked.add(key);
    if ((this.holders.get(key) ?? 0) < majority(this.servers.length)) this.lost++;
  }

  /** Conflict truncation removed these entries from `node`'s log. */
  truncated(node: NodeId, removed: readonly LogEntry[]): void {
    for (const e of removed) if (e.kind === 'update') this.copies(node, this.keys.key(e.worker!, e.seq!), -1);
  }

  /** `node`'s log gained (d = 1) or lost (d = -1) a copy of update `key`. */
  private copies(node: NodeId, key: string, d: number): void {
    const keys = this.logKeys.get(node)!;
    const before = keys.get(key) ?? 0;
    bump(keys, key, d);
    const after = keys.get(key) ?? 0;
    if ((before > 0) === (after > 0)) return;
    const need = majority(this.servers.length);
    const h0 = this.holders.get(key) ?? 0;
    const h1 = h0 + (after > 0 ? 1 : -1);
    bump(this.holders, key, h1 - h0);
    if (this.acked.has(key) && h0 < need !== h1 < need) this.lost += h1 < need ? 1 : -1;
  }

  /** `e` is committed for the first time anywhere, at `now` (the gap between update commits). */
  firstCommit(e: LogEntry, now: number): void {
    if (e.kind !== 'update') return;
    if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
    this.lastCommitAt = now;
  }

  /** The update changed `node`'s state machine (a second time since its restart is a duplicate). */
  effectiveUpdate(node: NodeId, key: string): void {
    const eff = this.effective.get(node)!;
    if (eff.has(key)) this.duplicates++;
    eff.add(key);
  }

  /** A crash wipes the state machine: what changed it starts over. */
  serverCrashed(node: NodeId): void {
    this.effective.set(node, new Set());
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

function bump(m: Map<string, number>, key: string, d: number): void {
  const n = (m.get(key) ?? 0) + d;
  if (n > 0) m.set(key, n);
  else m.delete(key);
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}
