import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { WireBody } from '../../protocols/wire';
import type { SecurityConfig } from '../../scenario/schema';
import { rngFor } from '../../sim/rng';
import type { MessageKind, NodeId, SecEnvelope } from '../../sim/types';
import { encodeMessage, type CoveredHeader } from './encoding';

/**
 * Per-message integrity and replay protection (CURRICULUM §C.1 `security`), with real
 * primitives from @noble/hashes: SHA-256 (FIPS 180-4), HMAC-SHA-256 (RFC 2104), HKDF (RFC 5869).
 *
 * - `sha256`: an unkeyed digest of the message. Anyone can compute it, so an attacker who alters
 *   the message simply attaches the new digest: it detects accidents, not attackers.
 * - `hmac`: a tag under a secret key. Without `replayProtection` it covers the values only; with
 *   it, the whole message — (worker, step), the link, a session and a sequence number — and the
 *   receiver accepts each (session, seq) once, in increasing order (RFC 4303-style anti-replay).
 * - `tls`: every record on the link is authenticated under a per-connection key with implicit
 *   sequence numbers (RFC 8446); a record that fails is dropped, so tampering becomes loss. The
 *   AEAD tag is modelled by an HMAC over the same record bytes.
 *
 * Keys are derived with HKDF from a master secret drawn from the run's seed (the attacker never
 * holds them). Tags are compared in constant time.
 */

/** Bytes of a SHA-256 digest or an HMAC-SHA-256 tag. */
export const TAG_BYTES = 32;
/** TLS 1.3 record overhead (RFC 8446 §5.2): 5-byte header, 1-byte inner content type, 16-byte AEAD tag. */
export const TLS_RECORD_OVERHEAD = 22;
export const TLS_MAX_RECORD = 16384;

export function tlsOverhead(bytes: number): number {
  return TLS_RECORD_OVERHEAD * Math.max(1, Math.ceil(bytes / TLS_MAX_RECORD));
}

export type Verdict = 'ok' | 'auth' | 'replay';

export class Keyring {
  private readonly master: Uint8Array;
  private readonly cache = new Map<string, Uint8Array>();

  constructor(
    seed: number,
    private readonly mode: SecurityConfig['keys'],
  ) {
    const rng = rngFor(seed, 'security:master');
    this.master = new Uint8Array(32);
    for (let i = 0; i < 32; i++) this.master[i] = rng.int(0, 255);
  }

  /** The key one worker shares with the servers (per-worker), or the one key everyone holds (shared). */
  workerKey(worker: NodeId): Uint8Array {
    return this.derive(this.mode === 'shared' ? 'cap-playground key shared' : `cap-playground key worker ${worker}`);
  }

  /** A TLS connection's key (one per unordered pair of nodes). */
  connectionKey(a: NodeId, b: NodeId): Uint8Array {
    const [x, y] = a < b ? [a, b] : [b, a];
    return this.derive(`cap-playground tls ${x} ${y}`);
  }

  private derive(info: string): Uint8Array {
    let k = this.cache.get(info);
    if (!k) {
      k = hkdf(sha256, this.master, undefined, new TextEncoder().encode(info), 32);
      this.cache.set(info, k);
    }
    return k;
  }
}

export interface Sealed {
  kind: MessageKind;
  from: NodeId;
  to: NodeId;
  body: WireBody | null;
  sec: SecEnvelope;
}

export class Integrity {
  readonly keys: Keyring;

  constructor(
    readonly cfg: SecurityConfig,
    seed: number,
    private readonly isWorker: (n: NodeId) => boolean,
  ) {
    this.keys = new Keyring(seed, cfg.keys);
  }

  /** TLS protects every record; the others protect messages that carry a body (updates, parameters). */
  protects(body: WireBody | null): boolean {
    if (this.cfg.integrity === 'tls') return true;
    return body !== null && (this.cfg.integrity !== 'none' || this.cfg.replayProtection);
  }

  /** Whether the header — (worker, step), link, session, seq — is inside the tag. */
  get headerCovered(): boolean {
    return this.cfg.replayProtection || this.cfg.integrity === 'tls';
  }

  /** Whether the receiver refuses a (session, seq) it has passed. */
  get checksReplays(): boolean {
    return this.headerCovered;
  }

  /** Whether computing a valid tag needs a key the attacker lacks. */
  get keyed(): boolean {
    return this.cfg.integrity === 'hmac' || this.cfg.integrity === 'tls';
  }

  /** Extra payload bytes on the wire for a message of `bytes` payload bytes. */
  overhead(bytes: number, body: WireBody | null): number {
    if (this.cfg.integrity === 'tls') return tlsOverhead(bytes);
    if (body !== null && (this.cfg.integrity === 'sha256' || this.cfg.integrity === 'hmac')) return TAG_BYTES;
    return 0;
  }

  /** The tag a holder of the right key (or, for sha256, anyone) computes for this message; undefined under `none`. */
  tag(m: Omit<Sealed, 'sec'> & { sec: Omit<SecEnvelope, 'tag'> }): Uint8Array | undefined {
    const integrity = this.cfg.integrity;
    if (integrity === 'none') return undefined;
    const header: CoveredHeader | null = this.headerCovered ? { from: m.from, to: m.to, session: m.sec.session, seq: m.sec.seq } : null;
    const bytes = encodeMessage(m.kind, m.body, header);
    if (integrity === 'sha256') return sha256(bytes);
    return hmac(sha256, this.keyFor(m.from, m.to), bytes);
  }

  /** The receiver's integrity check. */
  verify(m: Sealed): boolean {
    if (this.cfg.integrity === 'none') return true;
    const expected = this.tag(m);
    return m.sec.tag !== undefined && expected !== undefined && constantTimeEqual(m.sec.tag, expected);
  }

  private keyFor(from: NodeId, to: NodeId): Uint8Array {
    if (this.cfg.integrity === 'tls') return this.keys.connectionKey(from, to);
    // The key of the worker on the link (a worker's own channel to the servers).
    return this.keys.workerKey(this.isWorker(from) ? from : to);
  }
}

/** Compares two tags without an early exit, so the time taken says nothing about where they differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * The receivers' anti-replay windows: per directed link, the newest (session, seq) accepted. With
 * FIFO links a window of one suffices: a genuine message always carries a higher seq than the last.
 * A receiver's windows are volatile, but its incarnation is part of the session, so messages of a
 * session it no longer has (sent before it restarted) are refused as well.
 */
export class ReplayWindows {
  private readonly last = new Map<string, { sender: number; seq: number }>();

  /** Accepts (and remembers) the envelope if it is fresh for `receiverInc`. */
  accept(from: NodeId, to: NodeId, sec: SecEnvelope, receiverInc: number): boolean {
    if (sec.session[1] !== receiverInc) return false;
    const k = `${from}>${to}`;
    const w = this.last.get(k);
    if (w && (sec.session[0] < w.sender || (sec.session[0] === w.sender && sec.seq <= w.seq))) return false;
    this.last.set(k, { sender: sec.session[0], seq: sec.seq });
    return true;
  }

  /** A receiver's restart loses its windows. */
  forget(receiver: NodeId): void {
    for (const k of [...this.last.keys()]) if (k.endsWith(`>${receiver}`)) this.last.delete(k);
  }
}

/** Per directed link and session, the sender's next sequence number. */
export class SeqCounters {
  private readonly next = new Map<string, { session: string; seq: number }>();

  take(from: NodeId, to: NodeId, session: readonly [number, number]): number {
    const k = `${from}>${to}`;
    const s = `${session[0]}.${session[1]}`;
    const c = this.next.get(k);
    if (!c || c.session !== s) {
      this.next.set(k, { session: s, seq: 2 });
      return 1;
    }
    return c.seq++;
  }
}
