import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import { History } from './history';
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

describe('History: send and deliver events in typed columns', () => {
  it('gives back every event equal field for field and in the same key order (its JSON line), whatever the mix', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sendArb, deliverArb, otherArb), { maxLength: 400 }), (events) => {
        const h = new History();
        for (const e of events) h.append(e);
        expect(h.length).toBe(events.length);
        events.forEach((e, i) => expect(JSON.stringify(h.at(i))).toBe(JSON.stringify(e)));
        expect(h.events.map((e) => JSON.stringify(e))).toEqual(events.map((e) => JSON.stringify(e)));
      }),
      { numRuns: 100, seed: 9 },
    );
  });

  it('an out-of-range index fails loudly', () => {
    const h = new History();
    h.append({ t: 0, type: 'deliver', id: 1, from: 'a', to: 'b', kind: 'ack', sentAt: 0 });
    expect(() => h.at(1)).toThrow(/no event 1/);
  });

  it('a whole run read back hashes to the same schedule and event-log hashes', async () => {
    const sc = testScenario({ cluster: { workers: 4, servers: 3 }, durationMs: 4000, strategy: { kind: 'raft-ps' } as never, timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }] as never });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer() });
    await sim.runToEnd();
    const again = new History();
    for (const e of sim.history.events) again.append(e);
    expect(sim.history.events.filter((e) => e.type === 'send').length).toBeGreaterThan(500);
    expect(again.scheduleHash()).toBe(sim.scheduleHash());
    expect(again.eventLogHash()).toBe(sim.history.eventLogHash());
  });
});
