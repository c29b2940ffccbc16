import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimited } from './rateLimited';

describe('rateLimited', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A clock the test moves, and timers that move with it. */
  function clock(): { now: () => number; pass(ms: number): void } {
    vi.useFakeTimers();
    let t = 1000;
    return {
      now: () => t,
      pass(ms) {
        t += ms;
        vi.advanceTimersByTime(ms);
      },
    };
  }

  it('while the run advances, writes at most once per period, the latest write of those offered', () => {
    const c = clock();
    const rl = rateLimited(100, c.now);
    const wrote: number[] = [];
    rl.offer(true, true, () => wrote.push(1));
    expect(wrote).toEqual([1]);
    c.pass(16);
    rl.offer(true, true, () => wrote.push(2));
    c.pass(16);
    rl.offer(true, true, () => wrote.push(3));
    expect(wrote).toEqual([1]);
    // A frame with nothing new of its own still replaces what waits (its write knows the latest
    // layout), and that is written when the period ends.
    c.pass(60);
    rl.offer(true, false, () => wrote.push(4));
    expect(wrote).toEqual([1]);
    c.pass(8);
    expect(wrote).toEqual([1, 4]);
    // Nothing waits and nothing is new: nothing to write.
    c.pass(100);
    rl.offer(true, false, () => wrote.push(5));
    expect(wrote).toEqual([1, 4]);
  });

  it('writes at once when the run does not advance (paused, a scrub)', () => {
    const c = clock();
    const rl = rateLimited(100, c.now);
    const wrote: number[] = [];
    rl.offer(true, true, () => wrote.push(1));
    c.pass(10);
    rl.offer(false, true, () => wrote.push(2));
    c.pass(10);
    rl.offer(false, true, () => wrote.push(3));
    expect(wrote).toEqual([1, 2, 3]);
  });

  it('a write kept when no frame follows (the run paused) runs when its period ends; dispose drops it', () => {
    const c = clock();
    const rl = rateLimited(100, c.now);
    const wrote: number[] = [];
    rl.offer(true, true, () => wrote.push(1));
    c.pass(40);
    rl.offer(true, true, () => wrote.push(2));
    c.pass(59);
    expect(wrote).toEqual([1]);
    c.pass(1);
    expect(wrote).toEqual([1, 2]);
    c.pass(500);
    expect(wrote).toEqual([1, 2]);
    c.pass(10);
    rl.offer(true, true, () => wrote.push(3));
    c.pass(10);
    rl.offer(true, true, () => wrote.push(4));
    rl.dispose();
    c.pass(500);
    expect(wrote).toEqual([1, 2, 3]);
  });

  it('on a stepped clock (the panels\' redraws), writes with its next step; its timer waits twice the period of real time', () => {
    const c = clock();
    let step = 0;
    const rl = rateLimited(100, () => step * 100, true);
    const wrote: number[] = [];
    rl.offer(true, true, () => wrote.push(1));
    // Frames go by; the clock has not stepped: the writes wait, past the period of real time.
    for (let i = 2; i <= 8; i++) {
      c.pass(16);
      rl.offer(true, true, () => wrote.push(i));
    }
    expect(wrote).toEqual([1]);
    // The panels redraw: this frame writes the latest.
    step += 7;
    rl.offer(true, false, () => wrote.push(9));
    expect(wrote).toEqual([1, 9]);
    // The run stops between frames: the timer writes, 200 ms after the write was kept.
    c.pass(16);
    rl.offer(true, true, () => wrote.push(10));
    c.pass(199);
    expect(wrote).toEqual([1, 9]);
    c.pass(1);
    expect(wrote).toEqual([1, 9, 10]);
  });
});
