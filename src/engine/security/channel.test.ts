import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import type { WireBody } from '../../protocols/wire';
import type { SecurityConfig } from '../../scenario/schema';
import { constantTimeEqual, Integrity, ReplayWindows, SeqCounters, tlsOverhead } from './channel';
import { encodeMessage } from './encoding';

const utf8 = (s: string) => new TextEncoder().encode(s);
const body = (over: Partial<WireBody> = {}): WireBody => ({ worker: 'w1', step: 41, labels: [], vectors: [Float32Array.from([0.5, -2])], ...over });
const cfg = (over: Partial<SecurityConfig>): SecurityConfig => ({ integrity: 'hmac', replayProtection: false, keys: 'per-worker', ...over });
const isWorker = (n: string) => n.startsWith('w');
const sealed = (i: Integrity, b: WireBody, seq = 1, from = 'w1', to = 's0') => {
  const sec = { session: [0, 0] as const, seq };
  return { kind: 'gradient', from, to, body: b, sec: { ...sec, tag: i.tag({ kind: 'gradient', from, to, body: b, sec }) } };
};

describe('primitives', () => {
  it('HMAC-SHA-256 is the real one (RFC 4231, test case 2)', () => {
    expect(bytesToHex(hmac(sha256, utf8('Jefe'), utf8('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('compares tags in constant time, and correctly', () => {
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(true);
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 4))).toBe(false);
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toBe(false);
  });

  it('TLS costs 22 bytes per record of up to 16 KiB (RFC 8446 §5.2)', () => {
    expect(tlsOverhead(0)).toBe(22);
    expect(tlsOverhead(16384)).toBe(22);
    expect(tlsOverhead(16385)).toBe(44);
  });
});

describe('canonical encoding', () => {
  it('is fixed, little-endian, and covers (worker, step) only with the header', () => {
    const bare = encodeMessage('gradient', body(), null);
    expect(bytesToHex(bare)).toBe(
      // "CAPW1", flags 0, u16 8 "gradient", u32 1 vector, u32 length 2, 0.5f, -2f
      '4341505731' + '00' + '0800' + bytesToHex(utf8('gradient')) + '01000000' + '02000000' + '0000003f' + '000000c0',
    );
    expect(encodeMessage('gradient', body({ step: 99, worker: 'w2' }), null)).toEqual(bare);
    const header = { from: 'w1', to: 's0', session: [1, 2] as const, seq: 7 };
    const full = encodeMessage('gradient', body(), header);
    expect(full).not.toEqual(encodeMessage('gradient', body({ step: 42 }), header));
    expect(full).not.toEqual(encodeMessage('gradient', body({ worker: 'w2' }), header));
    expect(full).not.toEqual(encodeMessage('gradient', body(), { ...header, seq: 8 }));
    expect(full).not.toEqual(encodeMessage('gradient', body({ labels: [3] }), header));
  });
});

describe('integrity', () => {
  it('sha256: anyone can recompute the digest, so an altered message with a fresh digest verifies', () => {
    const i = new Integrity(cfg({ integrity: 'sha256' }), 1, isWorker);
    const m = sealed(i, body());
    expect(bytesToHex(m.sec.tag!)).toBe(bytesToHex(sha256(encodeMessage('gradient', body(), null))));
    const altered = body({ vectors: [Float32Array.from([-5, 20])] });
    expect(i.verify({ ...m, body: altered })).toBe(false); // an accident is detected …
    const attackerDigest = sha256(encodeMessage('gradient', altered, null)); // … an attacker just recomputes
    expect(i.verify({ ...m, body: altered, sec: { ...m.sec, tag: attackerDigest } })).toBe(true);
  });

  it('hmac: an altered message fails, and no digest the attacker can compute passes', () => {
    const i = new Integrity(cfg({}), 1, isWorker);
    const m = sealed(i, body());
    expect(i.verify(m)).toBe(true);
    const altered = body({ vectors: [Float32Array.from([-5, 20])] });
    expect(i.verify({ ...m, body: altered })).toBe(false);
    expect(i.verify({ ...m, body: altered, sec: { ...m.sec, tag: sha256(encodeMessage('gradient', altered, null)) } })).toBe(false);
    // A key from another seed is another key.
    expect(new Integrity(cfg({}), 2, isWorker).verify(m)).toBe(false);
  });

  it('hmac without replay protection: the tag survives relabelling (worker, step); with it, it does not', () => {
    const plain = new Integrity(cfg({}), 1, isWorker);
    const m = sealed(plain, body());
    expect(plain.verify({ ...m, body: body({ step: 77 }) })).toBe(true);
    const stepped = new Integrity(cfg({ replayProtection: true }), 1, isWorker);
    const n = sealed(stepped, body());
    expect(stepped.verify(n)).toBe(true);
    expect(stepped.verify({ ...n, body: body({ step: 77 }) })).toBe(false);
    expect(stepped.verify({ ...n, sec: { ...n.sec, seq: 2 } })).toBe(false);
  });

  it('per-worker keys bind the tag to the worker; one shared key does not', () => {
    for (const keys of ['per-worker', 'shared'] as const) {
      const i = new Integrity(cfg({ keys }), 1, isWorker);
      const fromW1 = sealed(i, body(), 1, 'w1', 's0');
      // Presented as w2's message on w2's link:
      const asW2 = { ...fromW1, from: 'w2' };
      expect(i.verify(asW2)).toBe(keys === 'shared');
    }
  });

  it('protects updates and parameters; TLS protects every record, control messages too', () => {
    expect(new Integrity(cfg({ integrity: 'none' }), 1, isWorker).protects(body())).toBe(false);
    expect(new Integrity(cfg({ integrity: 'hmac' }), 1, isWorker).protects(null)).toBe(false);
    expect(new Integrity(cfg({ integrity: 'tls' }), 1, isWorker).protects(null)).toBe(true);
    expect(new Integrity(cfg({ integrity: 'hmac' }), 1, isWorker).overhead(132, body())).toBe(32);
    expect(new Integrity(cfg({ integrity: 'tls' }), 1, isWorker).overhead(0, null)).toBe(22);
  });
});

describe('anti-replay windows and sequence numbers', () => {
  it('accept each (session, seq) once and in order; a new sender session starts over; an old receiver session is refused', () => {
    const w = new ReplayWindows();
    const env = (s: number, r: number, seq: number) => ({ session: [s, r] as const, seq });
    expect(w.accept('w1', 's0', env(0, 0, 1), 0)).toBe(true);
    expect(w.accept('w1', 's0', env(0, 0, 2), 0)).toBe(true);
    expect(w.accept('w1', 's0', env(0, 0, 2), 0)).toBe(false); // replay
    expect(w.accept('w1', 's0', env(0, 0, 1), 0)).toBe(false); // older
    expect(w.accept('w2', 's0', env(0, 0, 1), 0)).toBe(true); // another link
    expect(w.accept('w1', 's0', env(2, 0, 1), 0)).toBe(true); // the sender restarted
    expect(w.accept('w1', 's0', env(0, 0, 9), 0)).toBe(false); // its old session
    expect(w.accept('w1', 's0', env(2, 0, 2), 2)).toBe(false); // sent before the receiver restarted
    w.forget('s0');
    expect(w.accept('w1', 's0', env(2, 2, 1), 2)).toBe(true);
  });

  it('number messages per link and session from 1', () => {
    const c = new SeqCounters();
    expect([c.take('w1', 's0', [0, 0]), c.take('w1', 's0', [0, 0]), c.take('w2', 's0', [0, 0]), c.take('w1', 's0', [2, 0])]).toEqual([1, 2, 1, 1]);
  });
});
