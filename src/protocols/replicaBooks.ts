import type { NodeId } from '../sim/types';

/**
 * Observer bookkeeping shared by the replicated parameter servers that apply (worker, seq) updates
 * to a replica per server (paxos-ps, 2pc-ps): duplicated updates and the longest gap between
 * commits. It only counts; the protocol never reads it.
 */
export class ReplicaBooks {
  /** Per server, the updates that changed its replica since it last started; a second change is a duplicate. */
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;
  private lastCommitAt: number | null = null;
  private maxGap = 0;

  /** The update `key` ("worker#seq") changed `node`'s replica. */
  changed(node: NodeId, key: string): void {
    const eff = this.effective.get(node) ?? new Set<string>();
    if (eff.has(key)) this.duplicates++;
    this.effective.set(node, eff.add(key));
  }

  /** A replica rebuilt by replaying `keys` after a crash: only those have changed it since. */
  replayed(node: NodeId, keys: Iterable<string>): void {
    this.effective.set(node, new Set(keys));
  }

  /** An update was applied for the first time anywhere, at `now`. */
  firstApply(now: number): void {
    if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
    this.lastCommitAt = now;
  }

  get maxCommitGapMs(): number {
    return this.maxGap;
  }

  /** Updates that changed one replica twice. */
  get duplicateUpdates(): number {
    return this.duplicates;
  }
}
