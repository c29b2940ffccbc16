import type { NodeId } from '../../sim/types';
import { updateKey } from '../paramMachine';

/**
 * A number per update, by (worker, sequence number): one Int32 in a per-worker array indexed by
 * the sequence number (issue 9: a map entry with a string key per update cost a long run hundreds
 * of bytes per update, in every server's state machine and in the observer's tables). Sequence
 * numbers count up from 1; any other key goes to a map. 0 reads as "none".
 */
export class SeqTable {
  private readonly rows = new Map<NodeId, Int32Array>();
  private readonly other = new Map<string, number>();
  private n = 0;

  get(worker: NodeId, seq: number): number {
    if (!dense(seq)) return this.other.get(updateKey(worker, seq)) ?? 0;
    const row = this.rows.get(worker);
    return row && seq < row.length ? row[seq] : 0;
  }

  has(worker: NodeId, seq: number): boolean {
    return this.get(worker, seq) !== 0;
  }

  /** How many (worker, seq) pairs hold a number other than 0. */
  get size(): number {
    return this.n;
  }

  set(worker: NodeId, seq: number, x: number): void {
    this.put(worker, seq, x, this.get(worker, seq));
  }

  /** Adds d to the number (never below 0); returns the new one. */
  add(worker: NodeId, seq: number, d: number): number {
    const was = this.get(worker, seq);
    const x = Math.max(0, was + d);
    this.put(worker, seq, x, was);
    return x;
  }

  /** Sets the number to x, `was` before (one lookup per write: the observer writes on every log change). */
  private put(worker: NodeId, seq: number, x: number, was: number): void {
    if (!Number.isInteger(x) || x < 0 || x > 0x7fffffff) throw new RangeError(`SeqTable: ${x} is not a count`);
    this.n += (x !== 0 ? 1 : 0) - (was !== 0 ? 1 : 0);
    if (!dense(seq)) {
      const k = updateKey(worker, seq);
      if (x !== 0) this.other.set(k, x);
      else this.other.delete(k);
      return;
    }
    let row = this.rows.get(worker);
    if (!row || seq >= row.length) {
      if (x === 0) return;
      const grown = new Int32Array(Math.max(64, 2 ** Math.ceil(Math.log2(seq + 1))));
      if (row) grown.set(row);
      this.rows.set(worker, (row = grown));
    }
    row[seq] = x;
  }

  /** An independent copy (a snapshot of a state machine holds one, §7). */
  copy(): SeqTable {
    const c = new SeqTable();
    for (const [worker, row] of this.rows) c.rows.set(worker, row.slice());
    for (const [k, x] of this.other) c.other.set(k, x);
    c.n = this.n;
    return c;
  }

  /** Every pair with a number other than 0, as [updateKey, number] (the dense ones by worker, then by seq). */
  *entries(): IterableIterator<[string, number]> {
    for (const [worker, row] of this.rows) for (let seq = 0; seq < row.length; seq++) if (row[seq] !== 0) yield [updateKey(worker, seq), row[seq]];
    yield* this.other;
  }
}

function dense(seq: number): boolean {
  return Number.isInteger(seq) && seq >= 0 && seq < 1 << 24;
}
