import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDoc } from './connect';

/** A socket that is open at once and records what it is sent (y-websocket only needs these members). */
class OpenSocket {
  static readonly OPEN = 1;
  static sent = 0;
  readonly readyState = 1;
  binaryType = 'arraybuffer';
  onopen: (() => void) | null = null;
  onmessage: ((e: unknown) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(): void {
    OpenSocket.sent++;
  }
  close(): void {}
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('openDoc in Node (no global WebSocket, a polyfill given)', () => {
  it("survives y-websocket's resync timer, which reads the global WebSocket.OPEN, and resyncs", () => {
    vi.stubGlobal('WebSocket', undefined);
    vi.useFakeTimers();
    const open = openDoc({ origin: 'http://127.0.0.1:1', code: 'ABCD', credentials: { role: 'student', cid: 'c'.repeat(32) }, WebSocket: OpenSocket }, 'room-ABCD');
    try {
      const before = OpenSocket.sent;
      expect(() => vi.advanceTimersByTime(10_000)).not.toThrow();
      expect(OpenSocket.sent).toBeGreaterThan(before); // the resync's sync step 1 went out
    } finally {
      open.destroy();
    }
  });
});
