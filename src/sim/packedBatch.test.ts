import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { History } from './history';
import type { RowsBatch } from './historyRows';
import { batchFrame, packColumns, unpackBatch, type PackedBatch } from './packedBatch';
import { unpack } from './packCodec';
import { deflate } from './packLocal';
import type { HistoryEvent } from './types';

const pack = (b: RowsBatch): PackedBatch => ({ ...packColumns(b, deflate), frame: batchFrame(b) });

/** The batch's arrays as plain lists (Object.is per number: −0 and NaN must come back as they were). */
const plain = (b: RowsBatch): unknown => JSON.parse(JSON.stringify(b, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, (x) => (Object.is(x, -0) ? '-0' : Number.isNaN(x) ? 'NaN' : x)) : v)));

describe('packBatch / unpackBatch', () => {
  it('gives back the batch it packed, whole microseconds or not, −0, NaN, huge and tiny times', () => {
    const time = fc.oneof(
      fc.integer({ min: 0, max: 2e9 }).map((k) => k / 1000),
      fc.double({ noDefaultInfinity: false }),
      fc.constantFrom(-0, 0, NaN, 0.0005, 1e15, -1e-9, Number.MAX_SAFE_INTEGER / 1000),
    );
    const ev = fc.oneof(
      fc.record({ t: time, id: fc.integer({ min: 0, max: 2 ** 31 - 1 }), bytes: fc.oneof(fc.nat(), time), due: time }).map((e) => ({ t: e.t, type: 'send', id: e.id, from: 'w0', to: 's0', kind: 'append', bytes: e.bytes, due: e.due })),
      fc.record({ t: time, id: fc.nat(), sentAt: time }).map((e) => ({ t: e.t, type: 'deliver', id: e.id, from: 's0', to: 'w1', kind: 'ack', sentAt: e.sentAt })),
      fc.record({ t: time, x: fc.double() }).map((e) => ({ t: e.t, type: 'facts', node: 'w0', facts: { x: e.x } })),
      fc.record({ t: time }).map((e) => ({ t: e.t, type: 'note', node: 's1', text: 'n' })),
    );
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 200 }), (events) => {
        const h = new History(nodeSha256);
        for (const e of events) h.append(e as HistoryEvent);
        const b = h.takeRows();
        const back = unpackBatch(pack(b), unpack);
        expect(plain(back)).toEqual(plain(b));
      }),
      { numRuns: 300, seed: 21 },
    );
  });

  it('packs a steady stream of messages in whole microseconds to well under what deflate alone gives', () => {
    const h = new History(nodeSha256);
    for (let i = 0; i < 8000; i++) {
      // Whole microseconds, as the network quantizes times.
      const us = i * 137 + (i % 7);
      const [t, due] = [us / 1000, (us + 1234) / 1000];
      h.append({ t, type: 'send', id: i, from: `w${i % 8}`, to: 's0', kind: i % 3 ? 'append' : 'ack', bytes: 420 + (i % 5), due } as HistoryEvent);
      h.append({ t: due, type: 'deliver', id: i, from: `w${i % 8}`, to: 's0', kind: i % 3 ? 'append' : 'ack', sentAt: t } as HistoryEvent);
    }
    const b = h.takeRows();
    const p = pack(b);
    expect(p.micros).toEqual([true, true, true, true, true]);
    const raw = [b.where, b.refs, b.messages.sends.f64, b.messages.sends.i32, b.messages.delivers.f64, b.messages.delivers.i32];
    const deflated = deflate(new Uint8Array(raw.flatMap((a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)))));
    expect(p.bytes.length).toBeLessThan(deflated.length * 0.6);
  });
});
