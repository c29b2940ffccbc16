import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageSpans, type MessageSpan } from './messageSpans';

describe('MessageSpans (typed columns)', () => {
  it('reads back what an array of span objects holds, settles included, and its binary searches agree with a scan', () => {
    const msg = fc.record({ gap: fc.constantFrom(0, 0, 0.5, 3), from: fc.constantFrom('w0', 'w1', 's0'), to: fc.constantFrom('w0', 's1'), kind: fc.constantFrom('ae', 'aer', 'gradient'), bytes: fc.nat(1e6), flight: fc.double({ min: 0, max: 50, noNaN: true }), settle: fc.constantFrom('no', 'deliver', 'drop') });
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 3000 }), fc.double({ min: -5, max: 5000, noNaN: true }), (ms, q) => {
        const cols = new MessageSpans();
        const ref: MessageSpan[] = [];
        let t = 0;
        ms.forEach((m, id) => {
          t += m.gap;
          const row = cols.push(id, m.from, m.to, m.kind, m.bytes, t, t + m.flight);
          expect(row).toBe(ref.length);
          ref.push({ id, from: m.from, to: m.to, kind: m.kind, bytes: m.bytes, sentAt: t, due: t + m.flight, end: null, dropped: false });
        });
        ms.forEach((m, row) => {
          if (m.settle === 'no') return;
          cols.settle(row, ref[row].due, m.settle === 'drop');
          ref[row].end = ref[row].due;
          ref[row].dropped = m.settle === 'drop';
        });
        expect(cols.length).toBe(ref.length);
        ref.forEach((r, row) => expect(cols.get(row)).toEqual(r));
        const first = ref.findIndex((r) => r.sentAt >= q);
        expect(cols.firstSentAtOrAfter(q)).toBe(first < 0 ? ref.length : first);
        let last = -1;
        ref.forEach((r, i) => {
          if (r.sentAt <= q) last = i;
        });
        expect(cols.lastSentAtOrBefore(q)).toBe(last);
      }),
      { numRuns: 60, seed: 9 },
    );
  });
});
