import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MessageSpans } from '../engine/index/messageSpans';
import { unpack } from './packCodec';
import { loadPacker, packWith } from './packer';
import { deflate, localPacking } from './packLocal';
import { PackedRows } from './packedRows';
import { CHUNK_ROWS, Rows } from './rows';

beforeAll(async () => {
  packWith(() => localPacking);
  expect(await loadPacker()).toBe(true);
});

describe('PackedRows (chunks packed once they have aged)', () => {
  it('reads and writes as Rows does, whatever chunks were packed and whichever were read since', () => {
    const n = 5 * CHUNK_ROWS + 77;
    const op = fc.oneof(
      fc.record({ do: fc.constant('pack' as const), before: fc.nat(7) }),
      fc.record({ do: fc.constant('set' as const), row: fc.nat(n - 1), x: fc.integer() }),
      fc.record({ do: fc.constant('get' as const), row: fc.nat(n - 1) }),
      fc.record({ do: fc.constant('copy' as const), from: fc.nat(n - 1), len: fc.nat(3 * CHUNK_ROWS) }),
    );
    const plain = new Rows((k) => new Int32Array(k), 2, 8);
    const packed = new PackedRows((k) => new Int32Array(k), 2, { pack: deflate, unpack }, [], 2);
    for (let r = 0; r < n; r++) {
      plain.add();
      packed.add();
      for (const rows of [plain, packed]) {
        rows.set(r, 0, r * 7);
        rows.set(r, 1, r % 13);
      }
    }
    const full = packed.byteLength;
    const last = CHUNK_ROWS * 2 * 4; // the last chunk (77 rows, a chunk's room) stays as it is
    packed.packBefore(99);
    expect(packed.byteLength - last).toBeLessThan((full - last) / 2);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        for (const o of ops) {
          if (o.do === 'pack') packed.packBefore(o.before);
          else if (o.do === 'set') {
            plain.set(o.row, 1, o.x);
            packed.set(o.row, 1, o.x);
          } else if (o.do === 'get') {
            expect([packed.get(o.row, 0), packed.get(o.row, 1)]).toEqual([plain.get(o.row, 0), plain.get(o.row, 1)]);
            const c = packed.chunk(o.row);
            expect(c[packed.off(o.row) + 1]).toBe(plain.get(o.row, 1));
          } else {
            const to = Math.min(n, o.from + o.len);
            expect(packed.copy(o.from, to)).toEqual(plain.copy(o.from, to));
          }
        }
      }),
      { numRuns: 40, seed: 3 },
    );
    packed.packBefore(99);
    let bad = 0;
    for (let r = 0; r < n; r++) if (packed.get(r, 0) !== plain.get(r, 0) || packed.get(r, 1) !== plain.get(r, 1)) bad++;
    expect(bad).toBe(0);
  });
});

describe('MessageSpans over packed chunks', () => {
  it('packs all but its last two chunks, finds a send time as a scan does, and settles a message long on the wire', () => {
    const spans = new MessageSpans();
    const n = 4 * CHUNK_ROWS + 500;
    const sentAt = (id: number): number => Math.floor(id / 3) * 0.25; // three messages a time step
    for (let id = 0; id < n; id++) {
      spans.push(id, `w${id % 4}`, 's0', id % 2 ? 'ae' : 'aer', 100 + (id % 9), sentAt(id), sentAt(id) + 2);
      if (id >= 2 && id % 5 !== 0) spans.settle(id - 2, sentAt(id - 2) + 2, id % 7 === 0);
    }
    // 32 bytes of floats and 20 of ints a message, unpacked: the last two chunks so, the three before in less than a third.
    expect(spans.byteLength - 2 * CHUNK_ROWS * 52).toBeLessThan((3 * CHUNK_ROWS * 52) / 3);
    spans.settle(5, 99_999, true); // a message from the first (packed) chunk, delivered at last
    expect(spans.get(5)).toEqual({ id: 5, from: 'w1', to: 's0', kind: 'ae', bytes: 105, sentAt: sentAt(5), due: sentAt(5) + 2, end: 99_999, dropped: true });
    expect(spans.get(8)).toEqual({ id: 8, from: 'w0', to: 's0', kind: 'aer', bytes: 108, sentAt: sentAt(8), due: sentAt(8) + 2, end: null, dropped: false }); // never settled
    expect(spans.get(14)?.end).toBe(sentAt(14) + 2);
    for (const q of [-1, 0, 0.1, 0.25, 1000.3, sentAt(CHUNK_ROWS), sentAt(CHUNK_ROWS) - 0.01, sentAt(3 * CHUNK_ROWS + 1), sentAt(n - 1), sentAt(n - 1) + 1]) {
      let first = 0;
      while (first < n && sentAt(first) < q) first++;
      let last = n - 1;
      while (last >= 0 && sentAt(last) > q) last--;
      expect([spans.firstSentAtOrAfter(q), spans.lastSentAtOrBefore(q)]).toEqual([first, last]);
    }
  });
});
