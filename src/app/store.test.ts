import { afterEach, describe, expect, it, vi } from 'vitest';
import { bumpFrame, frameSource, get, PANEL_MS, set, useApp } from './store';

describe('engine frames and the panels\' ten-a-second frames', () => {
  afterEach(() => {
    vi.useRealTimers();
    set({ status: 'idle' });
  });

  it('a frame that redraws the panels moves both counters in one update; frames between wait for it, and a trailing timer shows the last', () => {
    vi.useFakeTimers();
    set({ status: 'running' });
    // Long enough since any earlier panel frame: the next frame redraws them.
    vi.advanceTimersByTime(PANEL_MS);
    const seen: Array<[number, number]> = [];
    const off = useApp.subscribe((st) => void seen.push([st.frame, st.panelFrame]));
    const f0 = get().frame;
    bumpFrame();
    // One store update, both counters at the new frame: a view drawing on it sees the panels' clock step.
    expect(seen).toEqual([[f0 + 1, f0 + 1]]);
    const clock = frameSource(() => 0).textClock!;
    const ticked = clock();
    vi.advanceTimersByTime(16);
    bumpFrame();
    expect(seen.at(-1)).toEqual([f0 + 2, f0 + 1]);
    expect(clock()).toBe(ticked);
    // No frame follows (the run stalls): the panels catch up when their period ends.
    vi.advanceTimersByTime(PANEL_MS);
    expect(seen.at(-1)).toEqual([f0 + 2, f0 + 2]);
    expect(clock()).toBeGreaterThan(ticked);
    off();
  });
});
