import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import { floatColumns, intColumns } from './columnLayout';
import { DELIVER_FLOATS, DELIVER_INTS, SEND_FLOATS, SEND_INTS } from './compactMessages';
import { History } from './history';
import type { RowsBatch } from './historyRows';
import { batchFrame, packColumns, unpackBatch, type PackedBatch } from './packedBatch';
import { unpack } from './packCodec';
import { deflate } from './packLocal';
import type { HistoryEvent } from './types';

/** The batch's columns as row-to-row differences only (the layout before links, ref streams and shape groups), deflated. */
function rowDifferences(b: RowsBatch): Uint8Array {
  const m = b.messages;
  const cols = [...floatColumns(m.sends.f64, SEND_FLOATS), ...floatColumns(m.delivers.f64, DELIVER_FLOATS), ...intColumns(m.sends.i32, SEND_INTS), ...intColumns(m.delivers.i32, DELIVER_INTS), ...intColumns(b.refs, 1), ...b.values.pieces.map((p) => p.words), b.where];
  return deflate(new Uint8Array(cols.flatMap((a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)))));
}

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
    expect(p.links).toEqual({ latency: true, deliveries: true });
    const raw = [b.where, b.refs, b.messages.sends.f64, b.messages.sends.i32, b.messages.delivers.f64, b.messages.delivers.i32];
    const deflated = deflate(new Uint8Array(raw.flatMap((a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)))));
    // Each delivery is its send's due time and route: its columns are zeros.
    expect(p.bytes.length).toBeLessThan(deflated.length * 0.25);
    expect(plain(unpackBatch(p, unpack))).toEqual(plain(b));
  });

  it('gives back deliveries read against their sends whatever they hold: a send in an earlier batch, two sends of one id, a delivery held past its due time, latencies past an Int32 of microseconds', () => {
    const us = fc.oneof(fc.integer({ min: 0, max: 5e9 }), fc.constant(2 ** 31 + 7));
    const ev = fc.oneof(
      fc.record({ id: fc.integer({ min: 0, max: 12 }), t: us, lat: fc.oneof(fc.integer({ min: 0, max: 5000 }), us), from: fc.constantFrom('w0', 'w1', 's0'), kind: fc.constantFrom('append', 'ack') }).map((e) => ({ t: e.t / 1000, type: 'send', id: e.id, from: e.from, to: 's0', kind: e.kind, bytes: 64, due: (e.t + e.lat) / 1000 })),
      fc.record({ id: fc.integer({ min: 0, max: 12 }), t: us, sentAt: us, to: fc.constantFrom('w0', 's0', 's1') }).map((e) => ({ t: e.t / 1000, type: 'deliver', id: e.id, from: 'w0', to: e.to, kind: 'append', sentAt: e.sentAt / 1000 })),
    );
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 60 }), fc.array(ev, { maxLength: 60 }), (first, second) => {
        const h = new History(nodeSha256);
        for (const e of first) h.append(e as HistoryEvent);
        h.takeRows();
        for (const e of second) h.append(e as HistoryEvent);
        const b = h.takeRows();
        expect(plain(unpackBatch(pack(b), unpack))).toEqual(plain(b));
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('gives back every batch of a Raft run with a crash and a partition, packed to under 0.6 of its columns as row-to-row differences', async () => {
    const sc = testScenario({
      cluster: { workers: 8, servers: 3 },
      durationMs: 20_000,
      strategy: { kind: 'raft-ps' } as never,
      timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }, { at: 4000, do: 'partition', groups: [['w0', 's0'], ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 's1', 's2']] }, { at: 9000, do: 'heal' }] as never,
    });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: nodeSha256 });
    let bytes = 0;
    let rowDiffs = 0;
    let events = 0;
    for (let t = 5000; !sim.done; t += 5000) {
      await sim.advanceTo(t);
      const b = sim.history.takeRows();
      const p = pack(b);
      expect(plain(unpackBatch(p, unpack))).toEqual(plain(b));
      bytes += p.bytes.length;
      rowDiffs += rowDifferences(b).length;
      events += p.events;
    }
    expect(events).toBeGreaterThan(10_000);
    expect(bytes / rowDiffs).toBeLessThan(0.6);
  });
});
