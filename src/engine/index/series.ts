/**
 * Sorted-series helpers for the history indexes: every per-entity series is appended in time
 * order, so "the value at t" is a binary search, never a scan of the history.
 */

/** Largest index i with key(arr[i]) <= t, or -1. `arr` must be sorted by key. */
export function lastAtOrBefore<T>(arr: readonly T[], t: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = arr.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (key(arr[mid]) <= t) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Smallest index i with key(arr[i]) >= t, or arr.length. */
export function firstAtOrAfter<T>(arr: readonly T[], t: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(arr[mid]) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value of a time series at t (the newest entry at or before t), or undefined. */
export function valueAt<T extends { t: number }>(arr: readonly T[] | undefined, t: number): T | undefined {
  if (!arr) return undefined;
  const i = lastAtOrBefore(arr, t, (x) => x.t);
  return i < 0 ? undefined : arr[i];
}

export function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
