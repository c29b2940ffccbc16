import { nobleSha256 } from '../sim/nobleSha256';
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
    const c = new EngineCore(testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 2, servers: 1 } }), new InstantTrainer(), nobleSha256);
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

describe('strategy context: setReplica', () => {
  it("keeps a copy, unless the caller hands over a fresh array", () => {
    const c = new EngineCore(testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 2, servers: 1 } }), new InstantTrainer(), nobleSha256);
    const ctx = strategyContext(c);
    const p = new Float32Array(105).fill(0.25);
    ctx.setReplica('w0', p, 1, 1);
    expect(ctx.replica('w0').params).not.toBe(p);
    p[0] = 9;
    expect(ctx.replica('w0').params[0]).toBe(0.25);
    const q = new Float32Array(105).fill(0.5);
    ctx.setReplica('w1', q, 1, 1, 'fresh');
    expect(ctx.replica('w1').params).toBe(q);
  });

  it('a lockstep strategy: two live workers at one version with different parameters are a violation, equal ones are not', () => {
    const c = new EngineCore(testScenario({ strategy: { kind: 'allreduce' }, cluster: { workers: 3 } }), new InstantTrainer(), nobleSha256);
    const ctx = strategyContext(c);
    const violations = () => c.history.events.filter((e) => e.type === 'violation' && e.invariant === 'same-version-same-params').length;
    const p = new Float32Array(105).fill(0.25);
    ctx.setReplica('w0', p, 1, 1);
    ctx.setReplica('w1', p.slice(), 1, 1);
    expect(violations()).toBe(0);
    const other = p.slice();
    other[104] = 0.5;
    ctx.setReplica('w2', other, 1, 1);
    expect(violations()).toBe(2); // w2 differs from w0 and from w1
    // -0 and 0 are the same parameter value, though not the same bits (another fingerprint).
    const negZero = new Float32Array(105).fill(0.25);
    negZero[7] = -0;
    const zero = negZero.slice();
    zero[7] = 0;
    ctx.setReplica('w0', zero, 2, 2);
    ctx.setReplica('w1', negZero, 2, 2);
    expect(violations()).toBe(2);
  });
});
