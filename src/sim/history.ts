import { CompactMessages, type MessagesMark } from './compactMessages';
import { CompactValues } from './compactValues';
import type { ValuesMark } from './valueWords';
import { EventHashes } from './eventHashes';
import { MESSAGE, OBJECT, VALUE, type RowsBatch, type RowsDigester } from './historyRows';
import { Rows } from './rows';
import type { HistoryEvent, HistoryEventType } from './types';

/**
 * The append-only history (DESIGN rule 4). Every view, metric and export derives from it.
 * Two running SHA-256 digests are kept as events arrive:
 *  - the schedule hash omits training values (`v`), so it is equal across backends and
 *    between Node and the browser;
 *  - the event-log hash covers everything, so it is equal across runs on one backend.
 * Both hash the events' JSON lines (eventHashes.ts); the lines are buffered and fed to SHA-256 in
 * large chunks, which gives the same digest as hashing line by line at a fraction of the cost.
 * The SHA-256 is the caller's (`Sha256Factory`): node:crypto in the CLI, @noble/hashes by default
 * (nobleSha256.ts), a worker of its own in the page (workers/workerSha256.ts), where hashing
 * every event was a tenth of the main thread's time at speed max. A factory with `rows` takes the
 * lines off this thread too: the history then sends its compact rows in batches and the other side
 * writes the lines (historyRows.ts).
 */
/**
 * Events kept as objects: the index (engine/index) holds these very objects (violations, actions:
 * a few a run), so words would only add a copy. Every other event that is plain data goes to the
 * compact stores — notes and metric samples too: a busy run makes thousands of notes and hundreds
 * of samples a minute, and the index keeps their times as columns and reads each back from the
 * history when a view asks (engine/index/noteList.ts, metricSamples.ts).
 */
const keptAsObjects: ReadonlySet<HistoryEventType> = new Set(['violation', 'action']);

/**
 * An incremental SHA-256: every implementation gives the same digest. `update` may keep `data`
 * only for the call (the history reuses the buffer).
 */
export interface Sha256Stream {
  update(data: Uint8Array): unknown;
  /**
   * Digest of everything so far, as lowercase hex, leaving the stream usable: at once where the
   * hashing runs on this thread, as a promise where it runs in a worker.
   */
  peekHex(): string | Promise<string>;
}
export type Sha256Factory = (() => Sha256Stream) & {
  /** Where present: the digests are taken from the history's rows, by this digester (historyRows.ts). */
  readonly rows?: () => RowsDigester;
};

/** Events per batch of rows (a batch is also sent whenever the digests are asked for). */
const ROWS_BATCH = 4096;

/**
 * Events per slice of `rowSlices`: one slice's copies took 5–35 ms on a 2-core machine, where a
 * whole 10-minute run's (1.5 M events) took 240 ms in one task, and grew with the run.
 */
export const ROWS_SLICE = 1 << 16;

/** Where a reader of the history's rows has got: the next event it takes, and where the stores stood then. */
interface RowsCursor {
  n: number;
  marks: StoreMarks;
}

interface StoreMarks {
  m: MessagesMark;
  v: ValuesMark;
  /** Events kept as objects so far. */
  o: number;
}

/** The run's two digests (History says what each covers). */
export interface RunDigests {
  scheduleHash: string;
  eventLogHash: string;
}

export class History {
  /** Events that do not fit the compact stores, as objects (undefined once forgotten). */
  private readonly objects: Array<HistoryEvent | undefined> = [];
  private readonly messages = new CompactMessages();
  private readonly values = new CompactValues();
  /** Per event: which store holds it (OBJECT, MESSAGE, VALUE) and where — an index into `objects`, a CompactMessages row, a CompactValues offset. */
  // Chunked (rows.ts): a long run's millions of events grow them without a copy.
  private readonly where = new Rows((n) => new Uint8Array(n), 1, 1024);
  private readonly refs = new Rows((n) => new Int32Array(n), 1, 1024);
  private n = 0;
  /**
   * The last `events` array, held weakly: a finished run's history is not appended to again, and a
   * strong reference would keep every event decoded (the whole run as objects) once exported.
   */
  private materialized: WeakRef<HistoryEvent[]> | null = null;
  /** The lines written and hashed here, or… */
  private readonly hashes: EventHashes | null = null;
  /** …the rows sent to a digester, from event `sent.n` on. */
  private readonly rows: RowsDigester | null = null;
  private readonly sent: RowsCursor = { n: 0, marks: this.marks() };
  /** Where the stores stood before event k × ROWS_SLICE (for `rowSlices`; a few per million events). */
  private readonly sliceMarks: StoreMarks[] = [];
  private listeners: Array<(e: HistoryEvent) => void> = [];
  /** `takeRows`' own place (a copy of the history elsewhere), apart from the digester's. */
  private readonly taken: RowsCursor = { n: 0, marks: this.marks() };
  /** Events before this one are forgotten (forgetTaken); so are the objects before `objectsForgotten`. */
  private forgotten = 0;
  private objectsForgotten = 0;

  constructor(sha: Sha256Factory) {
    const rows = sha.rows?.();
    if (rows) this.rows = rows;
    else this.hashes = new EventHashes(sha);
  }

  append(e: HistoryEvent): void {
    const i = this.n++;
    if (i % ROWS_SLICE === 0) this.sliceMarks.push(this.marks());
    this.where.add();
    this.refs.add();
    const row = this.messages.add(e);
    const offset = row === null && !keptAsObjects.has(e.type) ? this.values.add(e) : -1;
    if (row !== null) {
      this.where.set(i, 0, MESSAGE);
      this.refs.set(i, 0, row);
    } else if (offset >= 0) {
      this.where.set(i, 0, VALUE);
      this.refs.set(i, 0, offset);
    } else {
      this.where.set(i, 0, OBJECT);
      this.refs.set(i, 0, this.objects.length);
      this.objects.push(e);
    }
    this.materialized = null;
    if (this.hashes) this.hashes.add(e);
    else if (this.n - this.sent.n >= ROWS_BATCH) this.sendRows();
    for (const l of this.listeners) l(e);
  }

  /** How many events the history holds. */
  get length(): number {
    return this.n;
  }

  /**
   * The i-th event (0-based). Compactly stored events come back as fresh objects, equal field for
   * field with the same key order; those kept as objects come back as the very object appended.
   */
  at(i: number): HistoryEvent {
    if (i < 0 || i >= this.n) throw new RangeError(`history: no event ${i} (it holds ${this.n})`);
    if (i < this.forgotten) throw new RangeError(`history: event ${i} was handed over and forgotten (forgetTaken)`);
    const ref = this.refs.get(i);
    switch (this.where.get(i)) {
      case MESSAGE:
        return this.messages.get(ref);
      case VALUE:
        return this.values.get(ref) as HistoryEvent;
      default:
        return this.objects[ref]!;
    }
  }

  /**
   * Every event, as an array (for export, checks and tests; built on demand and reused until the
   * next append while someone still holds it). Per-frame code reads `length` and `at` instead.
   */
  get events(): readonly HistoryEvent[] {
    const held = this.materialized?.deref();
    if (held) return held;
    const out = new Array<HistoryEvent>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.at(i);
    this.materialized = new WeakRef(out);
    return out;
  }

  onAppend(listener: (e: HistoryEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** The schedule hash, where the SHA-256 answers at once (Node, tests); `digests()` anywhere. */
  scheduleHash(): string {
    return this.hashes ? settled(this.hashes.scheduleHex()) : settled(this.rowDigests()).scheduleHash;
  }

  /** The event-log hash, where the SHA-256 answers at once (Node, tests); `digests()` anywhere. */
  eventLogHash(): string {
    return this.hashes ? settled(this.hashes.logHex()) : settled(this.rowDigests()).eventLogHash;
  }

  /** Both digests of the events so far, whichever thread hashes them. */
  async digests(): Promise<RunDigests> {
    return this.hashes ? this.hashes.digests() : this.rowDigests();
  }

  private rowDigests(): RunDigests | Promise<RunDigests> {
    this.sendRows();
    return this.rows!.digests();
  }

  /** Hands the events stored since the last batch to the digester, as rows (historyRows.ts). */
  private sendRows(): void {
    if (this.n === this.sent.n || !this.rows) return;
    this.rows.add(this.since(this.sent));
  }

  /**
   * The events stored since the last call, as rows, for a copy of this history on another thread
   * (sim/rowsHistory.ts) that takes every batch in order. Apart from the digests' batches: both may
   * be taken from one history.
   */
  takeRows(): RowsBatch {
    return this.since(this.taken);
  }

  /**
   * Lets go of the events both readers of its rows have taken — the digester's batches (where the
   * rows are hashed elsewhere) and `takeRows`' — for a history whose copy is kept elsewhere: the
   * engine's worker, whose page holds the run's history, draws and exports it. The length, the
   * digests and the batches still to come are unchanged; a forgotten event cannot be read, nor can
   * `rowSlices` or `events` be asked any more.
   */
  forgetTaken(): void {
    const c = this.hashes || this.sent.n >= this.taken.n ? this.taken : this.sent;
    if (c.n <= this.forgotten) return;
    this.where.dropBefore(c.n);
    this.refs.dropBefore(c.n);
    this.messages.forgetBefore(c.marks.m);
    this.values.forgetBefore(c.marks.v);
    for (; this.objectsForgotten < c.marks.o; this.objectsForgotten++) this.objects[this.objectsForgotten] = undefined;
    this.forgotten = c.n;
  }

  private marks(): StoreMarks {
    return { m: this.messages.mark(), v: this.values.mark(), o: this.objects.length };
  }

  /** The events stored since `cursor`, as rows; the cursor moves to now. */
  private since(cursor: RowsCursor): RowsBatch {
    const until = this.marks();
    const b = this.batch(cursor.n, this.n, cursor.marks.m, cursor.marks.v, until);
    cursor.n = this.n;
    cursor.marks = until;
    return b;
  }

  /**
   * The events so far, as they are now, in slices of ROWS_SLICE events: each call of a slice copies
   * its rows then (a RowsReader reads the slices in order, as one batch), so a caller may
   * make them one task at a time while the run goes on — the page's export, whose single batch
   * was a long task that grew with the run.
   */
  rowSlices(): Array<() => RowsBatch> {
    if (this.forgotten > 0) throw new Error('history: its first events were handed over and forgotten (forgetTaken): export the copy that took them');
    const end = { n: this.n, marks: this.marks() };
    const slices: Array<() => RowsBatch> = [];
    // One slice at least: an empty history's is empty, from the stores' first marks (the end's).
    for (let k = 0; k === 0 || k * ROWS_SLICE < end.n; k++) {
      const from = k * ROWS_SLICE;
      const to = Math.min(end.n, from + ROWS_SLICE);
      const start = this.sliceMarks[k] ?? end.marks;
      // Event `to` was appended (its marks taken) only where it is older than the end.
      slices.push(() => this.batch(from, to, start.m, start.v, to < end.n ? this.sliceMarks[k + 1] : end.marks));
    }
    return slices;
  }

  /** Events [from, to) as rows; the stores' deltas from the marks where event `from` found them to `until` (now). */
  private batch(from: number, to: number, m: MessagesMark, v: ValuesMark, until?: StoreMarks): RowsBatch {
    const where = this.where.copy(from, to);
    const refs = this.refs.copy(from, to);
    const objects: string[] = [];
    for (let i = 0; i < where.length; i++) if (where[i] === OBJECT) objects.push(JSON.stringify(this.objects[refs[i]]));
    return { where, refs, messages: this.messages.delta(m, until?.m), values: this.values.delta(v, until?.v), objects };
  }
}

function settled<T>(x: T | Promise<T>): T {
  if (x instanceof Promise) throw new Error('this history is hashed in a worker: read its digests with digests()');
  return x;
}
