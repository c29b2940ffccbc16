import { describe, expect, it } from 'vitest';
import { PaxosChecker } from './invariants';
import type { Value } from './state';

let uid = 0;
const noop = (): Value => ({ kind: 'noop', uid: ++uid });
const update = (worker: string, seq: number): Value => ({ kind: 'update', update: { worker, seq, grad: new Float32Array(1), basedOn: 0, uid: ++uid }, uid: ++uid });
const names = (c: PaxosChecker) => c.drain().map((v) => v.invariant);

describe('Paxos invariants (the observer catches each broken property)', () => {
  it('a value accepted by a majority is chosen; learning and applying it pass', () => {
    const c = new PaxosChecker(3);
    const v = update('w0', 1);
    c.proposed(1, 5, v);
    c.accepted('s0', 1, 5, v);
    c.accepted('s1', 1, 5, v);
    expect(c.isChosen('w0#1')).toBe(false);
    c.accepted('s2', 1, 5, v);
    expect(c.isChosen('w0#1')).toBe(true);
    c.learned('s0', 1, v);
    c.appliedSlot('s0', 1, v);
    c.appliedSlot('s1', 1, v);
    // A later ballot re-proposing the chosen value is what Paxos does (P2b).
    c.proposed(1, 9, v);
    c.accepted('s3', 1, 9, v);
    expect(names(c)).toEqual([]);
  });

  it('two values chosen in one slot (in two ballots)', () => {
    const c = new PaxosChecker(2);
    const [a, b] = [noop(), noop()];
    for (const s of ['s0', 's1']) c.accepted(s, 1, 5, a);
    for (const s of ['s1', 's2']) c.accepted(s, 1, 8, b);
    expect(names(c)).toEqual(['at-most-one-value-chosen']);
  });

  it('a higher ballot proposing another value than the chosen one (P2b)', () => {
    const c = new PaxosChecker(2);
    const [a, b] = [noop(), noop()];
    for (const s of ['s0', 's1']) c.accepted(s, 1, 5, a);
    c.proposed(1, 8, b);
    c.proposed(1, 3, b); // a lower ballot: harmless, it cannot gather a majority any more
    expect(names(c)).toEqual(['chosen-never-changes']);
  });

  it('two values in one slot and ballot', () => {
    const c = new PaxosChecker(2);
    c.proposed(1, 5, noop());
    c.proposed(1, 5, noop());
    c.accepted('s1', 2, 5, noop());
    c.accepted('s2', 2, 5, noop());
    expect(names(c)).toEqual(['one-value-per-ballot', 'one-value-per-ballot']);
  });

  it('learning a value that is not chosen, and replicas applying different values or skipping a slot', () => {
    const c = new PaxosChecker(2);
    const [a, b] = [noop(), noop()];
    c.learned('s0', 1, a);
    c.accepted('s0', 1, 5, a);
    c.accepted('s1', 1, 5, a);
    c.learned('s2', 1, b);
    c.appliedSlot('s0', 1, a);
    c.appliedSlot('s1', 1, b);
    c.appliedSlot('s1', 3, a);
    expect(names(c)).toEqual(['learn-only-chosen', 'learn-only-chosen', 'state-machine-safety', 'state-machine-safety']);
  });
});
