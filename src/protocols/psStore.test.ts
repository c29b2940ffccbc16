import { describe, expect, it } from 'vitest';
import { ParamStore } from './psStore';

const vec = (x: number) => new Float32Array([x, x]);

describe('parameter store under a lock', () => {
  it('without fencing, a write computed from an old read is accepted and loses what was written since', () => {
    const s = new ParamStore(vec(0), false);
    expect(s.read(5)).toEqual({ ok: true }); // w0 reads at node 0 with token 5
    s.read(6); // w1 takes the lock later and reads
    const w1 = s.write({ worker: 'w1', seq: 1, set: vec(1), basedOnNode: 0, token: 6, updates: ['w1#1'] });
    expect(w1.t).toBe('applied');
    s.acknowledged(['w1#1']);
    const w0 = s.write({ worker: 'w0', seq: 1, set: vec(2), basedOnNode: 0, token: 5, updates: ['w0#1'] });
    expect(w0).toMatchObject({ t: 'applied', stale: true });
    s.acknowledged(['w0#1']);
    expect(s.staleAccepted).toBe(1);
    expect(s.lost()).toBe(1); // w1's update is not in w0's lineage
    expect(s.overwrites).toBe(1);
  });

  it('with fencing, the older token is refused on the write and on the read; nothing is lost', () => {
    const s = new ParamStore(vec(0), true);
    s.read(5);
    s.read(6);
    s.write({ worker: 'w1', seq: 1, set: vec(1), basedOnNode: 0, token: 6, updates: ['w1#1'] });
    s.acknowledged(['w1#1']);
    expect(s.write({ worker: 'w0', seq: 1, set: vec(2), basedOnNode: 0, token: 5, updates: ['w0#1'] })).toEqual({ t: 'fenced', newest: 6 });
    expect(s.read(5)).toEqual({ ok: false, newest: 6 });
    expect(s.fenced).toBe(1);
    expect(s.fencedReads).toBe(1);
    expect(s.lastFencedToken).toBe(5);
    expect(s.lost()).toBe(0);
    expect(s.overwrites).toBe(0);
  });

  it('a retry is applied once; a restore keeps the newest token and counts what it threw away', () => {
    const s = new ParamStore(vec(0), true);
    const snap = s.snapshot();
    s.read(3);
    expect(s.write({ worker: 'w0', seq: 1, set: vec(1), basedOnNode: 0, token: 3, updates: ['w0#1'] }).t).toBe('applied');
    expect(s.write({ worker: 'w0', seq: 1, set: vec(1), basedOnNode: 0, token: 3, updates: ['w0#1'] }).t).toBe('duplicate');
    s.acknowledged(['w0#1']);
    s.restore(snap);
    expect(s.s.newestToken).toBe(3);
    expect(s.lost()).toBe(1);
    // A write computed before the crash from the discarded state is not an overwrite.
    s.write({ worker: 'w1', seq: 1, set: vec(2), basedOnNode: 1, token: 4, updates: ['w1#1'] });
    expect(s.overwrites).toBe(0);
  });
});
