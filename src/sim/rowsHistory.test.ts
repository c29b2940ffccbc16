import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { RunIndex } from '../engine/index/runIndex';
import { runStateAt } from '../engine/index/runState';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import { History } from './history';
import { RowsReader } from './historyRows';
import { sliceBatch } from './packCodec';
import { loadPacker, packWith } from './packer';
import { localPacking } from './packLocal';
import { rowsHere } from './rowsDigests';
import { RowsHistory } from './rowsHistory';
import { anyEvent } from './testing/historyEvents';

/** Every event of both, as JSON lines (what the digests and the exports see). */
const lines = (h: { length: number; at(i: number): unknown }): string[] => Array.from({ length: h.length }, (_, i) => JSON.stringify(h.at(i)));

describe('RowsHistory: a history read back from the rows History.takeRows hands out', () => {
  // The packer loads on demand; here it is loaded first, so that aged batches are packed.
  beforeAll(async () => {
    packWith(() => localPacking);
    expect(await loadPacker()).toBe(true);
  });

  it('holds every event as the history does, whatever the mix and wherever the batches were taken, beside the digests’ own batches, packed or not', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 40 }), fc.boolean(), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 3 }), (events, cuts, digestsFromRows, joinBatches, joinEvents, keepUnpacked) => {
        const h = new History(digestsFromRows ? rowsHere(nodeSha256) : nodeSha256);
        // Batches joined after a few of them or a few events (RowsHistory's own thresholds are larger).
        const copy = new RowsHistory({ joinBatches, joinEvents, keepUnpacked, packFrom: 0 });
        events.forEach((e, i) => {
          h.append(e);
          if (cuts.includes(i)) {
            copy.add(structuredClone(h.takeRows())); // another thread gets a copy
            if (digestsFromRows && i % 2 === 0) void h.scheduleHash(); // the digester's batch, in between
          }
        });
        copy.add(structuredClone(h.takeRows()));
        copy.add(structuredClone(h.takeRows())); // an empty batch changes nothing
        expect(copy.length).toBe(events.length);
        // Slices are the history at the time they were asked for, read however much comes after.
        const asked = copy.rowSlices();
        for (const e of events.slice(0, 60)) {
          h.append(e);
          copy.add(structuredClone(h.takeRows()));
        }
        const then: string[] = [];
        const earlier = new RowsReader();
        for (const slice of asked) earlier.forEach(sliceBatch(slice()), (e) => then.push(JSON.stringify(e)));
        expect(then).toEqual(lines(h).slice(0, events.length));
        expect(lines(copy)).toEqual(lines(h));
        // Again from the end back (every packed batch unpacked again, in another order).
        expect(Array.from({ length: copy.length }, (_, i) => JSON.stringify(copy.at(copy.length - 1 - i))).reverse()).toEqual(lines(h));
        // An export reads the slices in order, on a reader of its own.
        const reader = new RowsReader();
        const read: string[] = [];
        for (const slice of copy.rowSlices()) reader.forEach(sliceBatch(slice()), (e) => read.push(JSON.stringify(e)));
        expect(read).toEqual(lines(h));
      }),
      { numRuns: 150, seed: 9 },
    );
  });

  it('a history that forgets what was taken hands out the same batches and digests as one that keeps it all', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 40 }), fc.boolean(), (events, cuts, digestsFromRows) => {
        const sha = digestsFromRows ? rowsHere(nodeSha256) : nodeSha256;
        const whole = new History(sha);
        const forgetting = new History(sha);
        const copy = new RowsHistory();
        events.forEach((e, i) => {
          whole.append(e);
          forgetting.append(e);
          if (cuts.includes(i)) {
            copy.add(structuredClone(forgetting.takeRows()));
            if (i % 3 === 0) void forgetting.digests(); // the digester's batch moves its own cursor
            forgetting.forgetTaken();
          }
        });
        copy.add(structuredClone(forgetting.takeRows()));
        expect(lines(copy)).toEqual(lines(whole));
        expect(forgetting.length).toBe(whole.length);
        expect(forgetting.scheduleHash()).toBe(whole.scheduleHash());
        expect(forgetting.eventLogHash()).toBe(whole.eventLogHash());
      }),
      { numRuns: 100, seed: 11 },
    );
  });

  it('forgets whole chunks of a long history once taken, and refuses to read or export what it forgot', () => {
    const h = new History(rowsHere(nodeSha256));
    const copy = new RowsHistory();
    for (let i = 0; i < 60_000; i++) {
      h.append({ t: i, type: 'send', id: i, from: `w${i % 3}`, to: 's0', kind: 'push', bytes: 420, due: i + 1 });
      h.append({ t: i + 0.5, type: 'stepDone', node: `w${i % 3}`, step: i, version: i, v: { loss: 1 / (i + 1) } });
      if (i % 5000 === 4999) {
        copy.add(structuredClone(h.takeRows()));
        void h.digests();
        h.forgetTaken();
      }
    }
    expect(() => h.at(0)).toThrow(/forgotten/);
    expect(() => h.rowSlices()).toThrow(/forgotten/);
    expect(() => h.events).toThrow(/forgotten/);
    h.append({ t: 70_000, type: 'end' });
    expect(h.at(h.length - 1)).toEqual({ t: 70_000, type: 'end' });
    copy.add(structuredClone(h.takeRows()));
    expect(copy.length).toBe(120_001);
    expect(JSON.stringify(copy.at(0))).toBe(JSON.stringify({ t: 0, type: 'send', id: 0, from: 'w0', to: 's0', kind: 'push', bytes: 420, due: 1 }));
  });

  it('packs the batches that have aged: a run of stepping workers takes less than a third of its bytes, and reads and exports the same', () => {
    const h = new History(nodeSha256);
    const packed = new RowsHistory({ packFrom: 1e6 });
    const loose = new RowsHistory({ joinEvents: Infinity, joinBatches: Infinity });
    const small = new RowsHistory(); // packs from 4 MB: this run's 5 MB, only at the end
    for (let i = 0; i < 40_000; i++) {
      h.append({ t: i, type: 'send', id: i, from: `w${i % 3}`, to: 's0', kind: 'push', bytes: 420, due: i + 1.25 });
      h.append({ t: i + 1.25, type: 'deliver', id: i, from: `w${i % 3}`, to: 's0', kind: 'push', sentAt: i });
      h.append({ t: i + 0.5, type: 'stepDone', node: `w${i % 3}`, step: i, version: i, v: { loss: 1 / (i + 1) } });
      if (i % 997 === 0) h.append({ t: i + 0.5, type: 'note', what: 'leaderElected', node: 's0', term: i } as never);
      if (i % 500 === 499) {
        const b = h.takeRows();
        packed.add(structuredClone(b));
        loose.add(structuredClone(b));
        if (i < 20_000) small.add(structuredClone(b));
      }
    }
    expect(packed.byteLength).toBeLessThan(loose.byteLength / 3);
    expect(small.byteLength).toBeGreaterThan(loose.byteLength / 2.5); // half the run, not packed
    expect(lines(packed)).toEqual(lines(h));
    const reader = new RowsReader();
    const read: string[] = [];
    for (const slice of packed.rowSlices()) reader.forEach(sliceBatch(slice()), (e) => read.push(JSON.stringify(e)));
    expect(read).toEqual(lines(h));
  });

  it('reads any event at any time, in any order, and refuses one it does not hold', () => {
    const h = new History(nodeSha256);
    const copy = new RowsHistory();
    // Joined every three batches: the values' words pass a chunk's end (65,536 words) inside a joined batch.
    const joined = new RowsHistory({ joinBatches: 3 });
    const n = 14_000;
    for (let i = 0; i < n; i++) {
      h.append({ t: i, type: 'send', id: i, from: `w${i % 3}`, to: 's0', kind: 'push', bytes: 420, due: i + 1 });
      h.append({ t: i + 0.5, type: 'stepDone', node: `w${i % 3}`, step: i, version: i, v: { loss: 1 / (i + 1) + i / n } });
      if (i % 700 === 0) {
        const b = h.takeRows();
        copy.add(structuredClone(b));
        joined.add(structuredClone(b));
      }
    }
    const b = h.takeRows();
    copy.add(structuredClone(b));
    joined.add(structuredClone(b));
    for (const i of [2 * n - 1, 0, 4321, 1, 2 * n - 2, 1400, 1401]) expect(JSON.stringify(copy.at(i))).toBe(JSON.stringify(h.at(i)));
    expect(() => copy.at(2 * n)).toThrow(RangeError);
    expect(() => copy.at(-1)).toThrow(RangeError);
    expect(lines(copy)).toEqual(lines(h));
    expect(lines(joined)).toEqual(lines(h));
    expect(joined.rowSlices()).toHaveLength(7); // 21 batches taken, joined three by three
    // An empty history still gives one (empty) slice, as History does: an export writes its log from the slices.
    const none = new RowsHistory().rowSlices();
    expect(none).toHaveLength(1);
    expect(sliceBatch(none[0]()).where.length).toBe(0);
    expect(new History(nodeSha256).rowSlices()).toHaveLength(1);
  });

  it('indexes a run as the engine’s own history does: the state at any time is the same (a Raft run with a leader crash, followed slice by slice)', async () => {
    const sc = testScenario({
      cluster: { workers: 4, servers: 3 },
      durationMs: 8000,
      strategy: { kind: 'raft-ps' } as never,
      timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }, { at: 4000, do: 'partition', groups: [['w0', 's0'], ['w1', 'w2', 'w3', 's1', 's2']] }] as never,
    });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: nodeSha256 });
    const copy = new RowsHistory();
    const index = new RunIndex(sim.nodes().map((n) => n.id));
    for (let t = 250; !sim.done; t += 250) {
      await sim.advanceTo(t);
      copy.add(structuredClone(sim.history.takeRows()));
      index.sync(copy);
      expect(copy.length).toBe(sim.history.length);
    }
    expect(lines(copy)).toEqual(lines(sim.history));
    const st = sim.runStatic();
    for (const t of [0, 900, 1500, 1501, 2600, 4000.5, 6100, sim.now()]) expect(runStateAt(index, st, t)).toEqual(sim.stateAt(t));
  });
});
