import { MessageDecoder } from './compactMessages';
import { concatBatches, MESSAGE, OBJECT, VALUE, type RowsBatch } from './historyRows';
import type { HistoryEvent } from './types';
import { ValueDecoder } from './valueWords';

/**
 * A run's history read back from the rows its History hands out (`History.takeRows`), batch after
 * batch, on another thread than the engine's: what a page needs to index and draw a run whose
 * engine runs in a worker (issue 9: the engine off the main thread). It keeps the rows as they
 * came — the same compact words and columns the engine's History holds — and rebuilds an event
 * when it is read, equal field for field to the engine's (`History.at`). Read-only: an
 * `EventSource` for RunIndex.
 *
 * A page following a run at speed 1 gets a small batch a frame; the last few batches are joined
 * into one once they are `joinBatches` or hold `joinEvents` events (concatBatches), so that a run
 * of an hour keeps thousands of batches, each a few typed arrays, not hundreds of thousands.
 */
export class RowsHistory {
  private readonly joinBatches: number;
  private readonly joinEvents: number;
  /** The first batch not yet joined with those after it. */
  private open = 0;
  private openEvents = 0;

  constructor(opts: { joinBatches?: number; joinEvents?: number } = {}) {
    this.joinBatches = opts.joinBatches ?? 64;
    this.joinEvents = opts.joinEvents ?? 8192;
  }

  private readonly messages = new MessageDecoder();
  private readonly values = new ValueDecoder();
  private readonly batches: RowsBatch[] = [];
  /** Index of each batch's first event. */
  private readonly starts: number[] = [];
  /** The events kept as objects, parsed once, in order; an OBJECT row's ref is its index here. */
  private readonly objects: HistoryEvent[] = [];
  private n = 0;

  /** Takes the next batch (batches must come in the order they were taken: each teaches the decoders what the next ones use). */
  add(b: RowsBatch): void {
    this.messages.names.learn(b.messages.names);
    this.values.learn(b.values);
    let k = 0;
    for (let i = 0; i < b.where.length; i++) {
      if (b.where[i] !== OBJECT) continue;
      b.refs[i] = this.objects.length; // an object's ref is unused in a batch (historyRows.ts)
      this.objects.push(JSON.parse(b.objects[k++]) as HistoryEvent);
    }
    if (b.where.length === 0) return;
    this.batches.push(b);
    this.starts.push(this.n);
    this.n += b.where.length;
    this.openEvents += b.where.length;
    if (this.batches.length - this.open >= this.joinBatches || this.openEvents >= this.joinEvents) this.join();
  }

  /** The open batches become one (a batch already large enough stays as it is). */
  private join(): void {
    const tail = this.batches.splice(this.open);
    this.starts.splice(this.open + 1);
    this.batches.push(concatBatches(tail));
    this.open = this.batches.length;
    this.openEvents = 0;
  }

  get length(): number {
    return this.n;
  }

  /** The i-th event (0-based), rebuilt; one kept as an object comes back as the same object each time. */
  at(i: number): HistoryEvent {
    if (!(i >= 0 && i < this.n)) throw new RangeError(`history: no event ${i} (it holds ${this.n})`);
    const b = this.batchOf(i);
    const batch = this.batches[b];
    const j = i - this.starts[b];
    const ref = batch.refs[j];
    switch (batch.where[j]) {
      case MESSAGE:
        return this.messages.readIn(batch.messages, ref);
      case VALUE:
        return this.values.readIn(batch.values.pieces, ref) as HistoryEvent;
      default:
        return this.objects[ref];
    }
  }

  /**
   * The history as the batches it came in, each as a fresh copy (History.rowSlices' form: a run's
   * export reads them in order on its worker, which may take the copies' buffers).
   */
  rowSlices(): Array<() => RowsBatch> {
    // One slice at least, as History gives: an empty history's is empty.
    return this.batches.length === 0 ? [emptyBatch] : this.batches.map((b) => () => structuredClone(b));
  }

  /** The batch holding event i: the last whose first event is at or before i (binary search). */
  private batchOf(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

function emptyBatch(): RowsBatch {
  const table = { first: 0, f64: new Float64Array(0), i32: new Int32Array(0) };
  return { where: new Uint8Array(0), refs: new Int32Array(0), messages: { names: [], sends: table, delivers: { ...table } }, values: { strings: [], shapes: [], pieces: [] }, objects: [] };
}
