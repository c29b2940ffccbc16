import type { Sha256Factory, Sha256Stream } from '../sim/history';

/**
 * The hash worker's protocol (hashWorker.ts runs it, workerSha256.ts is the page's side). One
 * worker hashes every stream of the page; a stream is a number. Messages on one port arrive in
 * order, so a digest request answers for every update posted before it.
 */
export type HashRequest =
  | { op: 'update'; id: number; data: ArrayBuffer }
  | { op: 'digest'; id: number; req: number }
  | { op: 'drop'; id: number };

export type HashReply = { req: number; hex: string } | { req: number; error: string };

/** The worker's state: a SHA-256 per stream id, created on its first message. */
export class HashService {
  private readonly streams = new Map<number, Sha256Stream>();

  constructor(private readonly sha: Sha256Factory) {}

  handle(m: HashRequest): HashReply | Promise<HashReply> | null {
    if (m.op === 'drop') {
      this.streams.delete(m.id);
      return null;
    }
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
      return { req, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Streams held (tests: a dropped stream is let go). */
  get size(): number {
    return this.streams.size;
  }

  private stream(id: number): Sha256Stream {
    let s = this.streams.get(id);
    if (!s) this.streams.set(id, (s = this.sha()));
    return s;
  }
}
