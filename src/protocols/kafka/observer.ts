import { equalVectors } from '../../sim/vectors';
import type { KafkaCluster, KafkaRoles } from './cluster';
import type { ReplicaLog } from './replicaLog';
import { keyOf, type Rec } from './types';

/**
 * Observer bookkeeping for kafka-ps — metrics and invariants, never read by the protocol:
 * acknowledged records, refused writes, unclean elections, acknowledged records missing from the
 * log (lost), records in it twice (duplicates), and PS replicas at one offset with different
 * parameters. Loss and duplicates are measured against each partition's reference log (its
 * leader's, or its last leader's while offline) and kept up to date record by record as that log
 * grows and shrinks, so checking them after every event costs nothing; only a change of leader
 * recounts.
 */
export class KafkaObserver {
  /** Acknowledged records (producer key → partition). */
  private readonly acked = new Map<string, number>();
  private rejected = 0;
  private unclean = 0;
  private lost = 0;
  private dups = 0;
  private reportedLost = 0;
  /** The log each partition's loss is measured against (the one this observer listens to). */
  private readonly ref: Array<ReplicaLog | null>;
  private serversDirty = true;
  private conflictsCache = 0;

  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {
    this.ref = k.meta.map(() => null);
    for (let p = 0; p < k.P; p++) this.attach(p);
  }

  /** The controller changed partition p's leader (or took it offline): follow the new reference log. */
  referenceChanged(p: number): void {
    if (this.attach(p)) this.recount();
  }

  /** Listens to partition p's reference log; false if it already did. */
  private attach(p: number): boolean {
    const log = this.k.b.get(this.k.referenceBroker(p))!.parts[p];
    const old = this.ref[p];
    if (old === log) return false;
    if (old) old.listener = null;
    this.ref[p] = log;
    log.listener = { appended: (rec) => this.appended(p, log, rec), removed: (rec) => this.removed(p, log, rec) };
    return true;
  }

  private recount(): void {
    this.lost = 0;
    for (const [key, p] of this.acked) if (this.ref[p]!.copies(key) === 0) this.lost++;
    this.dups = 0;
    for (const log of this.ref) for (const [, at] of log!.keys()) this.dups += at.length - 1;
  }

  private appended(p: number, log: ReplicaLog, rec: Rec): void {
    const key = keyOf(rec);
    if (log.copies(key) > 1) this.dups++;
    else if (this.acked.get(key) === p) this.lost--;
  }

  private removed(p: number, log: ReplicaLog, rec: Rec): void {
    const key = keyOf(rec);
    if (log.copies(key) > 0) this.dups--;
    else if (this.acked.get(key) === p) this.lost++;
  }

  /** The producer was told that `rec` (of partition p) is written. */
  acknowledged(rec: Rec, p: number): void {
    const key = keyOf(rec);
    if (this.acked.has(key)) return;
    this.acked.set(key, p);
    if (this.ref[p]!.copies(key) === 0) this.lost++;
  }

  rejectedWrite(): void {
    this.rejected++;
  }

  uncleanElection(): void {
    this.unclean++;
  }

  /** A PS replica's offsets or parameters changed. */
  serversChanged(): void {
    this.serversDirty = true;
  }

  get rejectedWrites(): number {
    return this.rejected;
  }

  get uncleanElections(): number {
    return this.unclean;
  }

  lostUpdates(): number {
    return this.lost;
  }

  duplicateUpdates(): number {
    return this.dups;
  }

  /** Pairs of live PS replicas at the same offsets holding different parameters. */
  serverConflicts(): number {
    if (!this.serversDirty) return this.conflictsCache;
    this.serversDirty = false;
    const cs = [...this.r.consumers.all()].filter(([s]) => this.k.ctx.isUp(s)).map(([, c]) => c);
    let n = 0;
    for (let i = 0; i < cs.length; i++)
      for (let j = i + 1; j < cs.length; j++)
        if (cs[i].pos.every((x, p) => x === cs[j].pos[p]) && !equalVectors(cs[i].params, cs[j].params)) n++;
    this.conflictsCache = n;
    return n;
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    const out: Array<{ invariant: string; detail: string }> = [];
    if ((this.serversDirty || this.conflictsCache > 0) && this.unclean === 0 && this.k.P === 1) {
      const before = this.conflictsCache;
      const n = this.serverConflicts();
      if (n > before) out.push({ invariant: 'same-offset-same-params', detail: `${n} pairs of PS replicas at one offset hold different parameters` });
    }
    if (this.lost > this.reportedLost) {
      const { cfg, minIsr } = this.k;
      const durable = cfg.acks === 'all' && minIsr >= 2 && !cfg['unclean.leader.election.enable'];
      if (durable) out.push({ invariant: 'no-acknowledged-write-lost', detail: `${this.lost - this.reportedLost} acknowledged records missing from the log (acks=all, min.insync.replicas=${minIsr}, unclean off)` });
      this.reportedLost = this.lost;
    }
    return out;
  }
}
