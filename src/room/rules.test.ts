import { describe, expect, it } from 'vitest';
import { applyTime, assignNodes, followTarget, leadMs, needsClock, RateLimit, studentRefusal, type RoomClock } from './rules';

describe('studentRefusal: a student acts on her own node and its links only', () => {
  it('allows her node and the links that touch it', () => {
    expect(studentRefusal({ do: 'crash', node: 'w2' }, 'w2')).toBeNull();
    expect(studentRefusal({ do: 'slow', node: 'w2', factor: 4 }, 'w2')).toBeNull();
    expect(studentRefusal({ do: 'cut', from: 'w2', to: 's0' }, 'w2')).toBeNull();
    expect(studentRefusal({ do: 'restore', from: 'w1', to: 'w2', oneWay: true }, 'w2')).toBeNull();
    expect(studentRefusal({ do: 'link', from: 's0', to: 'w2', latencyMs: 80 }, 'w2')).toBeNull();
  });
  it('refuses another node, another link, cluster-wide actions and selectors, naming the field', () => {
    expect(studentRefusal({ do: 'crash', node: 'w1' }, 'w2')).toEqual({ code: 'notYourNode', node: 'w2', target: 'w1' });
    expect(studentRefusal({ do: 'crash', node: '@leader' }, 'w2')).toEqual({ code: 'notYourNode', node: 'w2', target: '@leader' });
    expect(studentRefusal({ do: 'cut', from: 'w0', to: 'w1' }, 'w2')).toEqual({ code: 'notYourLink', node: 'w2', from: 'w0', to: 'w1' });
    expect(studentRefusal({ do: 'partition', groups: [['w2'], ['w0', 'w1']] }, 'w2')).toEqual({ code: 'teacherOnly', action: 'partition' });
    expect(studentRefusal({ do: 'heal' }, 'w2')).toEqual({ code: 'teacherOnly', action: 'heal' });
    expect(studentRefusal({ do: 'crash', node: 'w2' }, null)).toEqual({ code: 'watching' });
  });
  it('a node action added later follows the same rule by its shape', () => {
    const byzantine = (node: string) => ({ do: 'byzantine', node, mode: 'flip' }) as unknown as Parameters<typeof studentRefusal>[0];
    expect(studentRefusal(byzantine('w2'), 'w2')).toBeNull();
    expect(studentRefusal(byzantine('w3'), 'w2')).toEqual({ code: 'notYourNode', node: 'w2', target: 'w3' });
  });
});

describe('assignNodes', () => {
  const nodes = ['w0', 'w1', 'w2', 's0'];
  it('gives nodes in join order, workers first; extra students watch', () => {
    const m = assignNodes(
      [
        { pub: 'c', order: 3, node: null },
        { pub: 'a', order: 1, node: null },
        { pub: 'b', order: 2, node: null },
        { pub: 'd', order: 4, node: null },
        { pub: 'e', order: 5, node: null },
      ],
      nodes,
    );
    expect(Object.fromEntries(m)).toEqual({ a: 'w0', b: 'w1', c: 'w2', d: 's0', e: null });
  });
  it('keeps a node a student already has, and reassigns one the new lesson lacks', () => {
    const m = assignNodes(
      [
        { pub: 'a', order: 1, node: 'w3' }, // the new lesson has no w3
        { pub: 'b', order: 2, node: 'w0' },
      ],
      nodes,
    );
    expect(Object.fromEntries(m)).toEqual({ a: 'w1', b: 'w0' });
  });
  it('never gives one node to two students (the earlier keeps it)', () => {
    const m = assignNodes(
      [
        { pub: 'a', order: 1, node: 'w0' },
        { pub: 'b', order: 2, node: 'w0' },
      ],
      nodes,
    );
    expect(Object.fromEntries(m)).toEqual({ a: 'w0', b: 'w1' });
  });
});

describe('ordering in time', () => {
  it('lead grows with the speed within bounds', () => {
    expect(leadMs(1)).toBe(300);
    expect(leadMs(0.1)).toBe(100);
    expect(leadMs(100)).toBe(3000);
    expect(leadMs('max')).toBe(3000);
  });
  it('an action applies at now + lead, never before the horizon, on a whole ms, never at or after the end', () => {
    expect(applyTime(1000.4, 300, 900, 20000)).toBe(1301);
    expect(applyTime(1000, 300, 1800, 20000)).toBe(1800);
    expect(applyTime(19800, 300, 0, 20000)).toBeNull();
  });
  it('a following device runs at the room speed up to the horizon, and stands when paused', () => {
    const c: RoomClock = { run: 1, now: 1000, horizon: 1300, running: true, speed: 2 };
    expect(followTarget(c, 5000, 5000)).toBe(1000);
    expect(followTarget(c, 5000, 5100)).toBe(1200);
    expect(followTarget(c, 5000, 9000)).toBe(1300);
    expect(followTarget({ ...c, running: false }, 5000, 9000)).toBe(1000);
    expect(followTarget({ ...c, speed: 'max' }, 5000, 5000)).toBe(1300);
  });
  it('the clock is republished when the horizon runs short or the state changes, and its horizon never moves back', () => {
    const prev: RoomClock = { run: 1, now: 1000, horizon: 1300, running: true, speed: 1 };
    expect(needsClock(prev, { run: 1, now: 1100, running: true, speed: 1 }, 300, 20000)).toBeNull();
    expect(needsClock(prev, { run: 1, now: 1200, running: true, speed: 1 }, 300, 20000)).toEqual({ run: 1, now: 1200, horizon: 1500, running: true, speed: 1 });
    // Slowing down shortens the lead, but a device may already be at 1300.
    expect(needsClock(prev, { run: 1, now: 1010, running: true, speed: 0.1 }, 100, 20000)).toEqual({ run: 1, now: 1010, horizon: 1300, running: true, speed: 0.1 });
    expect(needsClock(prev, { run: 1, now: 1000, running: false, speed: 1 }, 300, 20000)?.running).toBe(false);
    expect(needsClock(prev, { run: 2, now: 0, running: false, speed: 1 }, 300, 20000)).toEqual({ run: 2, now: 0, horizon: 300, running: false, speed: 1 });
    expect(needsClock({ ...prev, now: 19900, horizon: 20000 }, { run: 1, now: 19990, running: true, speed: 1 }, 300, 20000)).toBeNull();
  });
});

describe('RateLimit', () => {
  it('allows max per window per key, then again once the window has passed', () => {
    const r = new RateLimit(2, 1000);
    expect([r.allow('a', 0), r.allow('a', 10), r.allow('a', 20), r.allow('b', 20)]).toEqual([true, true, false, true]);
    expect(r.allow('a', 1001)).toBe(true);
  });
});
