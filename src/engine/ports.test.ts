import { describe, expect, it } from 'vitest';
import { EngineCore } from './core';
import { strategyContext } from './ports';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { fingerprint } from '../sim/vectors';

/** The `v.hash` of the last history event (an op or a version). */
function lastHash(c: EngineCore): string {
  const e = c.history.at(c.history.length - 1) as { v?: { hash?: string } };
  if (!e.v?.hash) throw new Error('last event carries no parameter hash');
  return e.v.hash;
}

describe('strategy context: parameter fingerprints', () => {
  const setUp = () => {
    const c = new EngineCore(testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 2, servers: 1 } }), new InstantTrainer());
    return { c, ctx: strategyContext(c) };
  };

  it("an op on what setReplica just took reports that version's hash, computed once", () => {
    const { c, ctx } = setUp();
    const p = new Float32Array(105).map((_, i) => i / 7);
    c.eventSeq = 1;
    ctx.setReplica('w0', p, 1, 1);
    const set = lastHash(c);
    expect(set).toBe(fingerprint(p));
    ctx.op('w0', 'ok', 'update', 1, 1, p);
    expect(lastHash(c)).toBe(set);
    // The engine's own copy, in a later event (it is never changed in place).
    c.eventSeq = 2;
    ctx.op('w0', 'ok', 'read', 2, 1, ctx.replica('w0').params);
    expect(lastHash(c)).toBe(set);
  });

  it('the array handed to setReplica is hashed afresh in a later event (the strategy may have changed it)', () => {
    const { c, ctx } = setUp();
    const p = new Float32Array(105).fill(0.5);
    c.eventSeq = 1;
    ctx.setReplica('w0', p, 1, 1);
    const set = lastHash(c);
    c.eventSeq = 2;
    p[3] = -1;
    ctx.op('w0', 'ok', 'read', 3, 1, p);
    expect(lastHash(c)).toBe(fingerprint(p));
    expect(lastHash(c)).not.toBe(set);
    // Another node's op on the same array is not answered from w0's memo either.
    c.eventSeq = 3;
    ctx.setReplica('w1', p, 1, 1);
    p[4] = 9;
    ctx.op('w0', 'ok', 'read', 4, 1, p);
    expect(lastHash(c)).toBe(fingerprint(p));
  });
});
