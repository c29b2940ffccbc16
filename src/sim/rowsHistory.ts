import { MessageDecoder } from './compactMessages';
import { batchArrays, concatBatches, MESSAGE, OBJECT, VALUE, type RowsBatch } from './historyRows';
import type { PackedBatch, PackedColumns, RowsSlice } from './packedBatch';
import { codecNow, packerNow } from './packer';
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
 *
 * What has aged of a long run is packed (issue 9: a long run's memory), where a packer is set (the
 * app): once the joined batches' columns hold `packFrom` bytes, each joined batch but the newest
 * has its columns deflated (packedBatch.ts) — the views read the new events once, as they come; an
 * old one is read where a view shows a past state, and by an export — and unpacked when read, the
 * last `keepUnpacked` of them kept so. An object event is kept parsed only: its JSON line is written
 * again for an export (the same line: JSON keeps key order and numbers round-trip).
 */
export class RowsHistory {
  private readonly joinBatches: number;
  private readonly joinEvents: number;
  private readonly keepUnpacked: number;
  /** The first batch not yet joined with those after it. */
  private open = 0;
  private openEvents = 0;
  private readonly packFrom: number;
  /** Batches before this one are packed, or on their way to the packer. */
  private packedTo = 0;
  /** Bytes of the joined batches' columns (packed or not). */
  private joinedBytes = 0;

  constructor(opts: { joinBatches?: number; joinEvents?: number; keepUnpacked?: number; packFrom?: number } = {}) {
    this.joinBatches = opts.joinBatches ?? 64;
    this.joinEvents = opts.joinEvents ?? 8192;
    this.keepUnpacked = opts.keepUnpacked ?? 2;
    // ~100,000 events: about 40 simulated seconds of a busy 8-worker Raft run, minutes of a lesson's.
    this.packFrom = opts.packFrom ?? 4e6;
  }

  private readonly messages = new MessageDecoder();
  private readonly values = new ValueDecoder();
  private readonly batches: Array<RowsBatch | PackedBatch> = [];
  /** Packed batches read lately, unpacked, the latest last. */
  private readonly unpacked = new Map<number, RowsBatch>();
  /** Index of each batch's first event, and of its first object (its objects are those up to the next batch's). */
  private readonly starts: number[] = [];
  private readonly objectStarts: number[] = [];
  /** The events kept as objects, parsed once, in order; an OBJECT row's ref is its index here. */
  private readonly objects: HistoryEvent[] = [];
  private n = 0;

  /** Takes the next batch (batches must come in the order they were taken: each teaches the decoders what the next ones use). */
  add(b: RowsBatch): void {
    this.messages.names.learn(b.messages.names);
    this.values.learn(b.values);
    let k = 0;
    const firstObject = this.objects.length;
    for (let i = 0; i < b.where.length; i++) {
      if (b.where[i] !== OBJECT) continue;
      b.refs[i] = this.objects.length; // an object's ref is unused in a batch (historyRows.ts)
      this.objects.push(JSON.parse(b.objects[k++]) as HistoryEvent);
    }
    if (b.where.length === 0) return;
    this.batches.push(b.objects.length === 0 ? b : { ...b, objects: [] });
    this.starts.push(this.n);
    this.objectStarts.push(firstObject);
    this.n += b.where.length;
    this.openEvents += b.where.length;
    if (this.batches.length - this.open >= this.joinBatches || this.openEvents >= this.joinEvents) this.join();
  }

  /** The open batches become one (a batch already large enough stays as it is); the joined ones before it are packed. */
  private join(): void {
    const tail = this.batches.splice(this.open) as RowsBatch[];
    this.starts.splice(this.open + 1);
    this.objectStarts.splice(this.open + 1);
    this.batches.push(concatBatches(tail));
    this.open = this.batches.length;
    this.openEvents = 0;
    this.joinedBytes += columnBytes(this.batches[this.open - 1] as RowsBatch);
    if (this.joinedBytes >= this.packFrom) this.pack(this.open - 1);
  }

  /**
   * Packs the batches before `end` not packed yet (none until the packer has loaded). Where a
   * worker packs, each swaps in when its bytes come back; until then it is read as it is.
   */
  private pack(end: number): void {
    const packer = packerNow();
    if (!packer) return;
    for (; this.packedTo < end; this.packedTo++) {
      const k = this.packedTo;
      const b = this.batches[k];
      if ('bytes' in b) continue;
      const frame = packer.codec.batchFrame(b);
      const swap = (c: PackedColumns): void => {
        if (this.batches[k] === b) this.batches[k] = { ...c, frame };
      };
      const r = packer.pack.batch(b);
      if (r instanceof Promise) r.then(swap, () => undefined); // not packed: it stays as it is
      else swap(r);
    }
  }

  /** Batch `k` with its columns, unpacked if it was packed. */
  private rows(k: number): RowsBatch {
    const b = this.batches[k];
    if (!('bytes' in b)) return b;
    let r = this.unpacked.get(k);
    if (r) {
      this.unpacked.delete(k);
    } else {
      r = codecNow().unpackBatch(b, codecNow().unpack);
      if (this.unpacked.size >= this.keepUnpacked) this.unpacked.delete(this.unpacked.keys().next().value!);
    }
    this.unpacked.set(k, r);
    return r;
  }

  get length(): number {
    return this.n;
  }

  /** Bytes its columns hold: the batches' as they are (packed or not), not those unpacked to be read. */
  get byteLength(): number {
    let n = 0;
    for (const b of this.batches) n += 'bytes' in b ? b.bytes.byteLength : columnBytes(b);
    return n;
  }

  /** The i-th event (0-based), rebuilt; one kept as an object comes back as the same object each time. */
  at(i: number): HistoryEvent {
    if (!(i >= 0 && i < this.n)) throw new RangeError(`history: no event ${i} (it holds ${this.n})`);
    const b = this.batchOf(i);
    const j = i - this.starts[b];
    const batch = this.rows(b);
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
   * export reads them in order on its worker, which may take the copies' buffers), its objects'
   * JSON lines written again. A packed batch goes packed: the export's worker unpacks it.
   */
  rowSlices(): Array<() => RowsSlice> {
    // One slice at least, as History gives: an empty history's is empty.
    if (this.batches.length === 0) return [emptyBatch];
    // As the history is now: the run goes on while the slices are read (batches join, objects come).
    const ends = [...this.objectStarts.slice(1), this.objects.length];
    return this.batches.map((b, k) => {
      const [from, to] = [this.objectStarts[k], ends[k]];
      return () => {
        const objects = this.objects.slice(from, to).map((o) => JSON.stringify(o));
        return 'bytes' in b ? { ...b, bytes: b.bytes.slice(), frame: { ...b.frame, objects } } : { ...structuredClone(b), objects };
      };
    });
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

function columnBytes(b: RowsBatch): number {
  return batchArrays(b).reduce((n, a) => n + a.byteLength, 0);
}
