import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LogItem } from '../../protocols/facts';
import type { HistoryEvent } from '../../sim/types';
import { FactsSeries, LogTrack } from './tracks';

/** The index's former representation, as the reference: each slot's writes, and the end after each change. */
function reference(changes: Array<{ t: number; from: number; add: LogItem[] }>) {
  const slots: Array<Array<{ t: number; item: LogItem }>> = [];
  const ends: Array<{ t: number; end: number }> = [];
  for (const c of changes) {
    c.add.forEach((item, k) => (slots[c.from + k] ??= []).push({ t: c.t, item }));
    ends.push({ t: c.t, end: c.from + c.add.length });
  }
  const newest = <T extends { t: number }>(a: T[] | undefined, t: number) => a?.filter((x) => x.t <= t).at(-1);
  return { end: (t: number) => newest(ends, t)?.end, item: (i: number, t: number) => newest(slots[i], t)?.item };
}

const item: fc.Arbitrary<LogItem> = fc.record({ term: fc.nat(9), kind: fc.constantFrom('update', 'noop'), worker: fc.constantFrom('w0', 'w1'), seq: fc.nat(50) }, { requiredKeys: ['term', 'kind'] });

describe('LogTrack: a log over time in columns', () => {
  it('gives every slot the entry, and the log the end, that the per-slot lists gave, at every time', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ dt: fc.constantFrom(0, 0.5, 1, 3), from: fc.nat(12), add: fc.array(item, { maxLength: 6 }) }), { minLength: 1, maxLength: 40 }), (raw) => {
        let t = 0;
        const changes = raw.map((c) => ({ t: (t += c.dt), from: c.from + 1, add: c.add }));
        const events: HistoryEvent[] = changes.map((c) => ({ t: c.t, type: 'log', node: 's0', from: c.from, add: c.add }));
        const track = new LogTrack((i) => events[i], changes[0].from);
        changes.forEach((c, i) => track.push(c.t, i, c.from, c.add.length));
        const ref = reference(changes);
        for (let q = -1; q <= t + 1; q += 0.5) {
          expect(track.endAt(q)).toBe(ref.end(q));
          for (let i = 0; i < 20; i++) expect(track.itemAt(i, q)).toBe(ref.item(i, q));
        }
        expect(track.base).toBe(Math.min(...changes.map((c) => c.from)));
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});

describe('FactsSeries: a node facts over time', () => {
  const events: HistoryEvent[] = [
    { t: 0, type: 'facts', node: 's0', f: { kind: 'raft-client', phase: 'idle', asking: null, seq: 0 } },
    { t: 0, type: 'note', what: 'commit', node: 's0', data: { index: 1 } },
    { t: 5, type: 'facts', node: 's0', f: { kind: 'raft-client', phase: 'computing', asking: 's1', seq: 1 } },
    { t: 9, type: 'facts', node: 's0', f: null },
  ];
  const series = () => {
    const s = new FactsSeries((i) => events[i]);
    for (const i of [0, 2, 3]) s.push(events[i].t, i);
    return s;
  };

  it('the value at t is the newest change at or before t, and the same object when read again', () => {
    const s = series();
    expect(s.at(-1)).toBeUndefined();
    expect(s.at(4)?.value).toEqual({ kind: 'raft-client', phase: 'idle', asking: null, seq: 0 });
    expect(s.at(7)?.value).toEqual({ kind: 'raft-client', phase: 'computing', asking: 's1', seq: 1 });
    expect(s.at(9)).toEqual({ t: 9, value: null });
    expect(s.at(6)?.value).toBe(s.at(5)?.value);
    expect(s.find((x) => x.value?.kind === 'raft-client')).toBe(s.at(0));
    expect(s.find((x) => x.t > 100)).toBeUndefined();
    expect(s.length).toBe(3);
  });

  it('an event number that is not a facts event fails loudly', () => {
    const s = new FactsSeries((i) => events[i]);
    s.push(0, 1);
    expect(() => s.at(0)).toThrow(/event 1 is note, expected facts/);
  });
});
