import { afterEach, describe, expect, it, vi } from 'vitest';
import { bumpFrame, frameSource, get, MAX_SPEED_PANEL_MS, PANEL_MS, set, useApp } from './store';

describe('engine frames and the panels\' ten-a-second frames', () => {
  afterEach(() => {
    vi.useRealTimers();
    set({ status: 'idle', speed: 1 });
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

  it('at speed max the panels follow four times a second, not ten; a user\'s action still shows at once', () => {
    vi.useFakeTimers();
    set({ status: 'running', speed: 'max' });
    vi.advanceTimersByTime(MAX_SPEED_PANEL_MS);
    bumpFrame();
    const p0 = get().panelFrame;
    // Frames every 66 ms (the driver's rate at max): the panels wait past PANEL_MS…
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(66);
      bumpFrame();
    }
    expect(get().panelFrame).toBe(p0);
    // …until MAX_SPEED_PANEL_MS has passed.
    vi.advanceTimersByTime(MAX_SPEED_PANEL_MS - 3 * 66);
    expect(get().panelFrame).toBe(get().frame);
    vi.advanceTimersByTime(10);
    bumpFrame(true);
    expect(get().panelFrame).toBe(get().frame);
  });
});
