import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { builtinIndex, loadBuiltinFile } from '../engine/testing/lessonRuns';
import { testScenario } from '../engine/testing/scenarios';
import { History } from './history';
import { rowsHere } from './rowsDigests';
import { nobleSha256 } from './nobleSha256';
import type { HistoryEvent } from './types';

const node = fc.constantFrom('w0', 'w1', 's0', 's1', 'leader-of-a-long-name');
const kind = fc.constantFrom('chunk', 'append', 'vote', 'gradient');
const time = fc.double({ min: 0, max: 1e7, noNaN: true });
const sendArb: fc.Arbitrary<HistoryEvent> = fc
  .record({ t: time, id: fc.integer({ min: 0, max: 2 ** 31 + 10 }), from: node, to: node, kind, bytes: fc.double({ min: 0, max: 1e9, noNaN: true }), due: time, dupOf: fc.option(fc.nat(), { nil: undefined }), forged: fc.option(fc.constant(true as const), { nil: undefined }) })
  .map(({ t, id, from, to, kind, bytes, due, dupOf, forged }) => {
    const e = { t, type: 'send' as const, id, from, to, kind, bytes, due };
    const marked = forged ? { ...e, forged } : e;
    return dupOf === undefined ? marked : { ...marked, dupOf };
  });
const deliverArb: fc.Arbitrary<HistoryEvent> = fc.record({ t: time, id: fc.integer({ min: -3, max: 2 ** 31 + 10 }), from: node, to: node, kind, sentAt: time }).map(({ t, id, from, to, kind, sentAt }) => ({ t, type: 'deliver' as const, id, from, to, kind, sentAt }));
const otherArb: fc.Arbitrary<HistoryEvent> = fc.record({ t: time, node, step: fc.nat(), version: fc.nat(), loss: fc.double({ noNaN: true, min: 0, max: 10 }) }).map(({ t, node, step, version, loss }) => ({ t, type: 'stepDone' as const, node, step, version, v: { loss } }));

/** Keys in order at every level (toStrictEqual ignores key order; JSON lines and hashes do not). */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return v;
}

describe('History: send and deliver events in typed columns', () => {
  it('gives back every event equal field for field and in the same key order (its JSON line), whatever the mix', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sendArb, deliverArb, otherArb), { maxLength: 400 }), (events) => {
        const h = new History(nobleSha256);
        for (const e of events) h.append(e);
        expect(h.length).toBe(events.length);
        events.forEach((e, i) => expect(JSON.stringify(h.at(i))).toBe(JSON.stringify(e)));
        expect(h.events.map((e) => JSON.stringify(e))).toEqual(events.map((e) => JSON.stringify(e)));
      }),
      { numRuns: 100, seed: 9 },
    );
  });

  it('an out-of-range index fails loudly', () => {
    const h = new History(nobleSha256);
    h.append({ t: 0, type: 'deliver', id: 1, from: 'a', to: 'b', kind: 'ack', sentAt: 0 });
    expect(() => h.at(1)).toThrow(/no event 1/);
  });

  it('a whole run read back hashes to the same schedule and event-log hashes', async () => {
    const sc = testScenario({ cluster: { workers: 4, servers: 3 }, durationMs: 4000, strategy: { kind: 'raft-ps' } as never, timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }] as never });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer() });
    await sim.runToEnd();
    const again = new History(nobleSha256);
    for (const e of sim.history.events) again.append(e);
    expect(sim.history.events.filter((e) => e.type === 'send').length).toBeGreaterThan(500);
    expect(again.scheduleHash()).toBe(sim.scheduleHash());
    expect(again.eventLogHash()).toBe(sim.history.eventLogHash());
  });

  // Facts, log, op, step and version events are kept as words (compactValues.ts): every event of
  // every built-in reads back as the object the engine appended, field for field, in key order.
  it.each(builtinIndex())('%s: every event reads back equal to the one appended, and the hashes are those of the events appended', async (id) => {
    const sc = loadBuiltinFile(id);
    const sim = await Simulation.create({ ...sc, durationMs: Math.min(sc.durationMs, 20_000) }, { trainer: new InstantTrainer() });
    const appended: HistoryEvent[] = [];
    sim.history.onAppend((e) => appended.push(structuredClone(e)));
    await sim.runToEnd();
    const h = sim.history;
    // The engine appends a few events (t = 0) before a listener can attach; from there on, all.
    const skip = h.length - appended.length;
    expect(skip).toBeLessThan(200);
    const types = new Set<string>();
    for (let i = 0; i < appended.length; i++) {
      const back = h.at(skip + i);
      types.add(back.type);
      expect(back).toStrictEqual(appended[i]);
      expect(keyOrder(back)).toStrictEqual(keyOrder(appended[i]));
    }
    expect(types.has('facts') || types.has('log')).toBe(true);
    const again = new History(nobleSha256);
    for (let i = 0; i < h.length; i++) again.append(h.at(i));
    expect(again.scheduleHash()).toBe(sim.scheduleHash());
    expect(again.eventLogHash()).toBe(h.eventLogHash());
    // The same events with their lines written from the rows, in batches cut where the digests are asked.
    const fromRows = new History(rowsHere(nobleSha256));
    for (let i = 0; i < h.length; i++) {
      fromRows.append(h.at(i));
      if (i % 5003 === 17) fromRows.scheduleHash();
    }
    expect(fromRows.scheduleHash()).toBe(sim.scheduleHash());
    expect(fromRows.eventLogHash()).toBe(h.eventLogHash());
  });
});
