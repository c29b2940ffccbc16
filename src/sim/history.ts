import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { CompactMessages } from './compactMessages';
import { EventHashes } from './eventHashes';
import type { HistoryEvent } from './types';

/**
 * The append-only history (DESIGN rule 4). Every view, metric and export derives from it.
 * Two running SHA-256 digests are kept as events arrive:
 *  - the schedule hash omits training values (`v`), so it is equal across backends and
 *    between Node and the browser;
 *  - the event-log hash covers everything, so it is equal across runs on one backend.
 * Both hash the events' JSON lines (eventHashes.ts); the lines are buffered and fed to SHA-256 in
 * large chunks, which gives the same digest as hashing line by line at a fraction of the cost.
 */
/** Compact rows are stored as -1 - (row + ROW_OFFSET): send rows are ≥ 0, deliver rows < 0. */
const ROW_OFFSET = 1 << 30;

/** An incremental SHA-256. The default is @noble/hashes (pure JS, runs everywhere); Node callers
 * may pass node:crypto's native one — same digest, several times faster. */
export interface Sha256Stream {
  update(data: Uint8Array): unknown;
  /** Digest of everything so far, as lowercase hex, leaving the stream usable. */
  peekHex(): string;
}
export type Sha256Factory = () => Sha256Stream;

export const nobleSha256: Sha256Factory = () => {
  const h = sha256.create();
  return {
    update: (d) => h.update(d),
    peekHex: () => bytesToHex(h.clone().digest()),
  };
};

export class History {
  /** Events that do not fit the compact columns, as objects. */
  private readonly objects: HistoryEvent[] = [];
  private readonly messages = new CompactMessages();
  /** Per event: where it is — ≥ 0 an index into `objects`, else -1 - (a CompactMessages row + 2^30). */
  private refs = new Int32Array(1024);
  private n = 0;
  private materialized: HistoryEvent[] | null = null;
  private readonly hashes: EventHashes;
  private listeners: Array<(e: HistoryEvent) => void> = [];

  constructor(sha: Sha256Factory = nobleSha256) {
    this.hashes = new EventHashes(sha);
  }

  append(e: HistoryEvent): void {
    if (this.n === this.refs.length) {
      const r = new Int32Array(this.refs.length * 2);
      r.set(this.refs);
      this.refs = r;
    }
    const row = this.messages.add(e);
    if (row === null) {
      this.refs[this.n++] = this.objects.length;
      this.objects.push(e);
    } else {
      this.refs[this.n++] = -1 - (row + ROW_OFFSET);
    }
    this.materialized = null;
    this.hashes.add(e);
    for (const l of this.listeners) l(e);
  }

  /** How many events the history holds. */
  get length(): number {
    return this.n;
  }

  /** The i-th event (0-based). Compactly stored events come back as fresh objects, equal field for field. */
  at(i: number): HistoryEvent {
    if (i < 0 || i >= this.n) throw new RangeError(`history: no event ${i} (it holds ${this.n})`);
    const ref = this.refs[i];
    return ref >= 0 ? this.objects[ref] : this.messages.get(-1 - ref - ROW_OFFSET);
  }

  /**
   * Every event, as an array (for export, checks and tests; built on demand and kept until the next
   * append). Per-frame code reads `length` and `at` instead.
   */
  get events(): readonly HistoryEvent[] {
    if (this.materialized) return this.materialized;
    const out = new Array<HistoryEvent>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.at(i);
    return (this.materialized = out);
  }

  onAppend(listener: (e: HistoryEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  scheduleHash(): string {
    return this.hashes.scheduleHex();
  }

  eventLogHash(): string {
    return this.hashes.logHex();
  }
}
