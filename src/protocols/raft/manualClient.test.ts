import { describe, expect, it } from 'vitest';
import { beginManualRead, freshManual, learnHint, manualPhase, onManualAck, onManualParams, onReadRedirect, onReadRetry, readTarget, submit, takeSubmit } from './manualClient';

const grad = (x: number) => new Float32Array([x]);
let ids = 0;
const opId = () => ++ids;

describe('manual Raft client (clientMode "manual")', () => {
  it('a submit waits for a ready gradient; each update takes the next seq and stays pending until acknowledged', () => {
    const c = freshManual();
    submit(c, 2);
    expect(takeSubmit(c, 10, opId)).toBeNull(); // nothing computed yet
    c.ready = { grad: grad(1), basedOn: 0 };
    const a = takeSubmit(c, 20, opId)!;
    expect(a).toMatchObject({ seq: 1, basedOn: 0, since: 20 });
    expect(c.ready).toBeNull();
    expect(takeSubmit(c, 21, opId)).toBeNull(); // the second submit waits for the next gradient
    c.ready = { grad: grad(2), basedOn: 1 };
    const b = takeSubmit(c, 30, opId)!;
    expect(b.seq).toBe(2);
    expect([...c.pending.keys()]).toEqual([1, 2]);
    expect(c.queued).toBe(0);
    expect(manualPhase(c)).toBe('updating');
    // Acknowledgements in any order; a repeated one completes nothing.
    expect(onManualAck(c, 2, 's3')).toEqual({ opId: b.opId });
    expect(onManualAck(c, 2, 's3')).toBeNull();
    expect(c.guess).toBe('s3');
    expect(onManualAck(c, 1, 's3')).toEqual({ opId: a.opId });
    expect(manualPhase(c)).toBe('idle');
  });

  it('a redirect of an update only teaches the leader hint (the update went to every server)', () => {
    const c = freshManual();
    learnHint(c, null);
    expect(c.guess).toBeNull();
    learnHint(c, 's2');
    expect(c.guess).toBe('s2');
  });

  it('reads: one at a time, to the guess; a hint is followed, a retry moves on; old answers are ignored', () => {
    const c = freshManual();
    const servers = ['s0', 's1', 's2'];
    const r1 = beginManualRead(c, opId, 5)!;
    expect(beginManualRead(c, opId, 5)).toBeNull(); // one read in flight
    expect(readTarget(c, servers)).toBe('s0');
    expect(onReadRedirect(c, r1, 's2', 's0', 3)).toBe('follow');
    expect(c.guess).toBe('s2');
    expect(onReadRedirect(c, r1, null, 's2', 3)).toBe('wait');
    expect(onReadRedirect(c, r1 + 1, 's1', 's2', 3)).toBe('stale');
    expect(onReadRetry(c, c.token + 1, servers)).toBe(false); // a stale timer
    expect(onReadRetry(c, c.token, servers)).toBe(true);
    expect(c.guess).toBe('s0'); // after s2, wrapping round
    expect(manualPhase(c)).toBe('reading');
    expect(onManualParams(c, r1 + 1)).toBeNull();
    expect(onManualParams(c, r1)).toMatchObject({ floor: 5 });
    expect(onReadRetry(c, c.token, servers)).toBe(false); // no read any more
  });

  it('a crash keeps the sequence numbers only', () => {
    const c = freshManual();
    submit(c, 1);
    c.ready = { grad: grad(1), basedOn: 0 };
    takeSubmit(c, 0, opId);
    const after = freshManual(c);
    expect(after).toMatchObject({ seq: 1, queued: 0, ready: null, read: null });
    expect(after.pending.size).toBe(0);
  });
});
