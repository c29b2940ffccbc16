import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noteNames } from '../../protocols/notes';
import type { HistoryEvent } from '../../sim/types';
import { NoteList, type NoteEvent } from './noteList';

/** The notes as columns read back from the history: the same answers as the array of notes they replace. */
describe('NoteList', () => {
  const note = fc.record({
    dt: fc.constantFrom(0, 0.001, 0.5, 3),
    what: fc.constantFrom(...noteNames),
    node: fc.option(fc.constantFrom('s0', 's1', 'w0', 'c0'), { nil: undefined }),
    k: fc.nat(99),
  });

  it('answers as a scan of the notes does: times, names, nodes, the notes themselves and both searches', () => {
    fc.assert(
      fc.property(fc.array(note, { maxLength: 200 }), fc.array(fc.double({ min: -1, max: 400, noNaN: true }), { maxLength: 10 }), (spec, probes) => {
        // A history with other events between the notes: a note's event number is its place there.
        const events: HistoryEvent[] = [];
        const notes: NoteEvent[] = [];
        let t = 0;
        for (const s of spec) {
          t += s.dt;
          events.push({ t, type: 'restart', node: 'w9' });
          const n = { t, type: 'note', what: s.what, data: { k: s.k }, ...(s.node !== undefined ? { node: s.node } : {}) } as unknown as NoteEvent;
          notes.push(n);
          events.push(n);
        }
        const list = new NoteList((i) => structuredClone(events[i])); // fresh objects, as a decoding history gives
        events.forEach((e, i) => {
          if (e.type === 'note') list.push(e, i);
        });
        expect(list.length).toBe(notes.length);
        notes.forEach((n, k) => {
          expect([list.t(k), list.what(k), list.node(k)]).toEqual([n.t, n.what, n.node]);
          expect(list.at(k)).toEqual(n);
          expect(list.at(k)).toBe(list.at(k)); // read twice: the same object
        });
        expect([...list]).toEqual(notes);
        for (const p of probes) {
          let last = -1;
          notes.forEach((n, k) => {
            if (n.t <= p) last = k;
          });
          expect(list.lastAtOrBefore(p)).toBe(last);
          const first = notes.findIndex((n) => n.t >= p);
          expect(list.firstAtOrAfter(p)).toBe(first < 0 ? notes.length : first);
        }
      }),
    );
  });

  it('refuses an event number that is not a note', () => {
    const list = new NoteList(() => ({ t: 0, type: 'restart', node: 'w0' }));
    list.push({ t: 0, type: 'note', what: 'commit', node: 's0', data: { index: 1 } }, 0);
    expect(() => list.at(0)).toThrow(/expected note/);
  });
});
