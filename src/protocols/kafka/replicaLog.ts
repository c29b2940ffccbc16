import { keyOf, type Rec } from './types';
import type { EpochCache, EpochRun } from './rules';

/** Told of every record a log gains or loses (the observer follows the log it measures loss against). */
export interface LogListener {
  appended(rec: Rec): void;
  removed(rec: Rec): void;
}

/**
 * A broker's replica of one topic partition, kept across crashes: the records, the HW, the newest
 * leader epoch the broker learnt, and two indexes kept as records come and go, so no request has
 * to scan the log: the leader-epoch cache (KIP-101) and, per producer record, the offsets holding
 * it (the idempotent producer's duplicate check). Records are appended and truncated in place:
 * the engine follows the array by identity.
 */
export class ReplicaLog implements EpochCache {
  readonly records: Rec[] = [];
  hw = 0;
  epoch = 0;
  readonly runs: EpochRun[] = [];
  private readonly offsets = new Map<string, number[]>();
  listener: LogListener | null = null;

  get leo(): number {
    return this.records.length;
  }

  /** Epoch of the last record, -1 when empty (what a follower's fetch carries). */
  get lastEpoch(): number {
    return this.records.length ? this.records[this.records.length - 1].epoch : -1;
  }

  append(rec: Rec): void {
    const offset = this.records.length;
    this.records.push(rec);
    const run = this.runs[this.runs.length - 1];
    if (!run || run.epoch !== rec.epoch) this.runs.push({ epoch: rec.epoch, start: offset });
    const k = keyOf(rec);
    const at = this.offsets.get(k);
    if (at) at.push(offset);
    else this.offsets.set(k, [offset]);
    this.listener?.appended(rec);
  }

  /** Removes every record from offset `to` on (newest first). */
  truncate(to: number): void {
    while (this.records.length > to) {
      const rec = this.records.pop()!;
      const k = keyOf(rec);
      const at = this.offsets.get(k)!;
      at.pop();
      if (at.length === 0) this.offsets.delete(k);
      this.listener?.removed(rec);
    }
    while (this.runs.length && this.runs[this.runs.length - 1].start >= to) this.runs.pop();
  }

  /** The newest offset holding the producer's record (pid, seq), or -1. */
  lastOffsetOf(pid: string, seq: number): number {
    const at = this.offsets.get(keyOf({ pid, seq }));
    return at ? at[at.length - 1] : -1;
  }

  /** How many copies of a record (by producer key) the log holds. */
  copies(key: string): number {
    return this.offsets.get(key)?.length ?? 0;
  }

  /** Every producer key in the log and its number of copies. */
  keys(): IterableIterator<[string, readonly number[]]> {
    return this.offsets.entries();
  }
}
