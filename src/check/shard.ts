/**
 * Splitting a list of runs (seeds, sweep values) over N independent processes or machines:
 * shard I of N takes positions I−1, I−1+N, I−1+2N, … so the shards are disjoint, cover the list,
 * and stay balanced when run lengths drift along it. Pure; shared by `check` and `sweep`.
 */

/** `--shard i/n`: 1-based index and count. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses "i/n" (1 ≤ i ≤ n); the error names the flag and the value. */
export function parseShard(text: string, flag = '--shard'): { ok: true; shard: Shard } | { ok: false; error: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    return { ok: false, error: `${flag}: "${text}" is not I/N with 1 ≤ I ≤ N (e.g. 2/8)` };
  }
  return { ok: true, shard: { index, count } };
}

/** The items of a shard: positions I-1, I-1+N, I-1+2N, … of the list (all of it without a shard). */
export function shardOf<T>(items: readonly T[], shard?: Shard): T[] {
  if (!shard) return items.slice();
  return items.filter((_, k) => k % shard.count === shard.index - 1);
}
