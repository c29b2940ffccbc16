import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP_MS, frameGate } from './hooks';

describe('frameGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws every frame that would change something', () => {
    const draw = vi.fn();
    const gate = frameGate(draw, () => false);
    for (let i = 0; i < 5; i++) gate.onFrame();
    expect(draw).toHaveBeenCalledTimes(5);
  });

  it('skips still frames and draws the last of them once, CATCH_UP_MS later, when no frame drew since (the run paused)', () => {
    vi.useFakeTimers();
    const draw = vi.fn();
    const gate = frameGate(draw, () => true);
    for (let i = 0; i < 3; i++) gate.onFrame();
    expect(draw).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CATCH_UP_MS - 1);
    expect(draw).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(draw).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * CATCH_UP_MS);
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it('a frame that draws cancels the pending catch-up; dispose cancels it too', () => {
    vi.useFakeTimers();
    const draw = vi.fn();
    let still = true;
    const gate = frameGate(draw, () => still);
    gate.onFrame();
    still = false;
    gate.onFrame();
    expect(draw).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2 * CATCH_UP_MS);
    expect(draw).toHaveBeenCalledTimes(1);
    still = true;
    gate.onFrame();
    gate.dispose();
    vi.advanceTimersByTime(2 * CATCH_UP_MS);
    expect(draw).toHaveBeenCalledTimes(1);
  });
});
