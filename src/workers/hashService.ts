import type { RunDigests, Sha256Factory, Sha256Stream } from '../sim/history';
import type { RowsBatch } from '../sim/historyRows';
import { RowsRebuilder } from '../sim/rowsDigests';

/**
 * The hash worker's protocol (hashWorker.ts runs it, workerSha256.ts is the page's side). One
 * worker hashes every stream of the page; a stream is a number. Messages on one port arrive in
 * order, so a digest request answers for every update posted before it. A history may instead send
 * its rows (`rows`), whose lines the worker writes (sim/historyRows.ts), and ask for both digests.
 */
export type HashRequest =
  | { op: 'update'; id: number; data: ArrayBuffer }
  | { op: 'digest'; id: number; req: number }
  | { op: 'rows'; id: number; batch: RowsBatch }
  | { op: 'rowDigests'; id: number; req: number }
  | { op: 'drop'; id: number };

export type HashReply = { req: number; hex: string } | { req: number; digests: RunDigests } | { req: number; error: string };

/** The worker's state: a SHA-256 per stream id, or a rebuilder per history sending rows, created on its first message. */
export class HashService {
  private readonly streams = new Map<number, Sha256Stream>();
  private readonly rebuilders = new Map<number, RowsRebuilder>();
  /** Histories whose rows could not be read: why, answered to their next digest request. */
  private readonly broken = new Map<number, string>();

  constructor(private readonly sha: Sha256Factory) {}

  handle(m: HashRequest): HashReply | Promise<HashReply> | null {
    if (m.op === 'drop') {
      this.streams.delete(m.id);
      this.rebuilders.delete(m.id);
      this.broken.delete(m.id);
      return null;
    }
    if (m.op === 'rows' || m.op === 'rowDigests') return this.rows(m);
    const s = this.stream(m.id);
    if (m.op === 'update') {
      s.update(new Uint8Array(m.data));
      return null;
    }
    const req = m.req;
    try {
      const hex = s.peekHex();
      return typeof hex === 'string' ? { req, hex } : hex.then((h) => ({ req, hex: h }));
    } catch (e) {
      return { req, error: why(e) };
    }
  }

  private rows(m: Extract<HashRequest, { op: 'rows' | 'rowDigests' }>): HashReply | Promise<HashReply> | null {
    let r = this.rebuilders.get(m.id);
    if (!r) this.rebuilders.set(m.id, (r = new RowsRebuilder(this.sha)));
    if (m.op === 'rows') {
      // Thrown here it would end the worker for every history: kept for this one's digests instead.
      try {
        if (!this.broken.has(m.id)) r.add(m.batch);
      } catch (e) {
        this.broken.set(m.id, `the history's rows could not be read: ${why(e)}`);
      }
      return null;
    }
    const req = m.req;
    const failed = (e: unknown): HashReply => ({ req, error: why(e) });
    const broken = this.broken.get(m.id);
    if (broken) return { req, error: broken };
    try {
      const d = r.digests();
      return d instanceof Promise ? d.then((digests) => ({ req, digests }), failed) : { req, digests: d };
    } catch (e) {
      return failed(e);
    }
  }

  /** Streams and rebuilders held (tests: a dropped one is let go). */
  get size(): number {
    return this.streams.size + this.rebuilders.size;
  }

  private stream(id: number): Sha256Stream {
    let s = this.streams.get(id);
    if (!s) this.streams.set(id, (s = this.sha()));
    return s;
  }
}

const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));
