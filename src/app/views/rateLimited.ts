/**
 * Writes that may wait: while the run advances, at most one every `ms`; otherwise (paused, a
 * scrub) at once. A drawing offers its write each frame it has something new; one offered too
 * soon is kept (the latest replaces it: it knows the latest layout) and run at the next due
 * frame, or by a timer when no frame comes (the run paused meanwhile). The topology's version
 * labels go through one (TopologyView, VERSION_TEXT_MS).
 */
export interface RateLimited {
  /** `changed`: the frame has something new to write; `write` writes everything pending too. */
  offer(advancing: boolean, changed: boolean, write: () => void): void;
  dispose(): void;
}

export function rateLimited(ms: number, now: () => number = () => performance.now(), stepped = false): RateLimited {
  // `stepped`: `now` moves in steps of at least `ms` (FrameSource.textClock, the panels' redraws),
  // so writes wait for its next step, and the timer is only for a run that stopped between frames:
  // it waits twice `ms` of real time, so no write comes from it while the frames go on.
  const wait = (): number => (stepped ? 2 * ms : Math.max(0, ms - (now() - at)));
  let at = -Infinity;
  let pending: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const write = pending;
    pending = null;
    at = now();
    write?.();
  };
  return {
    offer(advancing, changed, write) {
      if (!changed && pending === null) return;
      pending = write;
      if (!advancing || now() - at >= ms) run();
      else timer ??= setTimeout(run, wait());
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
