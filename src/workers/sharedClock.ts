/**
 * Milliseconds on a clock the page and its workers share: each thread's `performance.now()`
 * counts from its own time origin, and the origin itself is on the wall clock.
 */
export function sharedClock(): number {
  return performance.timeOrigin + performance.now();
}
