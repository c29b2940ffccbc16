import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnconfirmedAcks } from './unconfirmedAcks';

describe('UnconfirmedAcks', () => {
  it('equals the full count (acknowledged and not confirmed) at every step, whatever the order', () => {
    const step = fc.oneof(
      fc.record({ ack: fc.nat(30) }),
      fc.record({ confirm: fc.nat(30) }),
      fc.record({ count: fc.constant(true) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const acked = new Set<string>();
        const confirmed = new Set<string>();
        const u = new UnconfirmedAcks(acked, (k) => confirmed.has(k));
        for (const s of steps) {
          if ('ack' in s) acked.add(`k${s.ack}`);
          else if ('confirm' in s) confirmed.add(`k${s.confirm}`);
          else expect(u.count()).toBe([...acked].filter((k) => !confirmed.has(k)).length);
        }
        expect(u.count()).toBe([...acked].filter((k) => !confirmed.has(k)).length);
      }),
      { numRuns: 300, seed: 9 },
    );
  });

  it('fails loudly when the acknowledged set shrinks', () => {
    const acked = new Set(['a', 'b']);
    const u = new UnconfirmedAcks(acked, () => false);
    expect(u.count()).toBe(2);
    acked.delete('a');
    expect(() => u.count()).toThrow(/shrank/);
  });
});
