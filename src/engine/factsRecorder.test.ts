import { describe, expect, it } from 'vitest';
import type { NodeFacts } from '../protocols/facts';
import type { HistoryEvent } from '../sim/types';
import { FactsRecorder } from './factsRecorder';

/**
 * Feeds `seq` as one node's facts, one per flush; returns the flushes that recorded a facts event.
 * `verifyEach`: check the mirror after every flush (which writes its JSON), or only at the end, so
 * the JSON of flat facts that changed is written only when a later comparison needs it.
 */
function recordedAt(seq: unknown[], verifyEach = true): number[] {
  let current: unknown = null;
  const events: HistoryEvent[] = [];
  const rec = new FactsRecorder({ facts: () => current as NodeFacts | null }, ['w0'], (e) => events.push(e));
  const at: number[] = [];
  seq.forEach((f, i) => {
    current = f;
    const before = events.length;
    rec.touch('w0');
    rec.flush(i);
    if (events.length > before) at.push(i);
    if (verifyEach) rec.verifyAll(i); // the mirror holds exactly what was recorded
  });
  rec.verifyAll(seq.length);
  return at;
}

/** Where JSON.stringify of consecutive facts differs (the recorder's definition of a change). */
function jsonChanges(seq: unknown[]): number[] {
  const at: number[] = [];
  let last = 'null';
  seq.forEach((f, i) => {
    const json = JSON.stringify(f ?? null);
    if (json !== last) at.push(i);
    last = json;
  });
  return at;
}

describe('FactsRecorder', () => {
  it('records facts exactly when their JSON changes, flat or not', () => {
    const nested = { kind: 'ps-server', clock: [1, 2] };
    const seq: unknown[] = [
      null,
      { kind: 'ring-worker', round: 1, phase: 'compute', k: 0, waitingFor: null },
      { kind: 'ring-worker', round: 1, phase: 'compute', k: 0, waitingFor: null }, // same fields, new object
      { kind: 'ring-worker', round: 1, phase: 'rs', k: 1, waitingFor: 'w3' },
      { round: 1, kind: 'ring-worker', phase: 'rs', k: 1, waitingFor: 'w3' }, // key order changed
      { round: 1, kind: 'ring-worker', phase: 'rs', k: 1, waitingFor: 'w3', extra: undefined }, // JSON leaves it out
      { round: 1, kind: 'ring-worker', phase: 'rs', k: 1 },
      { a: 1, b: 1 },
      { b: 1, a: 1 }, // the same values in another key order
      { c: 1, a: 1 }, // another key
      { a: 0 },
      { a: -0 }, // JSON writes both as 0
      { a: NaN },
      { a: null }, // both null in JSON
      { a: Infinity },
      { a: '1' },
      { a: 1 },
      { a: true },
      { a: 1, toJSON: () => 'custom' },
      { a: 1, toJSON: () => 'custom' },
      nested,
      nested, // the same object, unchanged
      (nested.clock.push(3), nested), // the same object, changed inside
      { kind: 'ps-server', clock: [1, 2, 3] },
      { d: new Date(0) },
      { d: new Date(0) },
      {},
      null,
    ];
    expect(recordedAt(seq)).toEqual(jsonChanges(seq));
    expect(recordedAt(seq, false)).toEqual(jsonChanges(seq));
  });

  it('a run of flat changes, then facts that are not flat: compared with the last flat facts, not an older one', () => {
    // { a: NaN } is not flat (its value is not one JSON writes as itself) but writes {"a":null}: the same as the flat facts before it.
    const seq: unknown[] = [{ a: 1 }, { a: 2 }, { a: null }, { a: NaN }, { a: 3, l: [1] }, { a: 3, l: [1] }, { a: 3 }, { a: 4 }, { a: 4, l: [] }, { a: 4 }];
    expect(recordedAt(seq, false)).toEqual(jsonChanges(seq));
  });
});
