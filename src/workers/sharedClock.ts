/** This thread's time origin: on the wall clock, fixed for the thread's life (read once: a getter call costs as much as `now()`). */
const origin = performance.timeOrigin;

/**
 * Milliseconds on a clock the page and its workers share: each thread's `performance.now()`
 * counts from its own time origin, and the origin itself is on the wall clock.
 */
export function sharedClock(): number {
  return origin + performance.now();
}
