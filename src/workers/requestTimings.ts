/**
 * Where a gradient request's wall time went, on the clock the page and its workers share
 * (sharedClock.ts): handed to the worker, taken up there, answered, and the answer read on the page.
 * The pool records them when asked (`WorkerPool.create(…, { timings: true })`); `npm run bench`
 * reports them for the browser's cluster, whose ratio to bare tfjs is bound by these waits.
 */
export interface RequestTiming {
  /** The pool's worker that served it. */
  worker: number;
  sent: number;
  taken: number;
  replied: number;
  answered: number;
}

export interface Spread {
  p50: number;
  p90: number;
}

export interface TimingSummary {
  requests: number;
  /** From the first request sent to the last answer read. */
  wallMs: number;
  /** Each worker's share of that wall time spent on requests (taken → replied), by worker index. */
  busy: Record<number, number>;
  /** Sent → taken: the message's way to the worker and its wait behind the requests before it. */
  toWorker: Spread;
  /** Taken → replied: the gradient itself. */
  compute: Spread;
  /** Replied → answered: the answer's way back, and its wait for the page's thread. */
  back: Spread;
}

function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p90: at(0.9) };
}

/** Null for no requests. */
export function summarizeTimings(ts: readonly RequestTiming[]): TimingSummary | null {
  if (ts.length === 0) return null;
  const start = Math.min(...ts.map((t) => t.sent));
  const wallMs = Math.max(...ts.map((t) => t.answered)) - start;
  const busy: Record<number, number> = {};
  for (const t of ts) busy[t.worker] = (busy[t.worker] ?? 0) + t.replied - t.taken;
  for (const w of Object.keys(busy)) busy[Number(w)] = wallMs > 0 ? busy[Number(w)] / wallMs : 0;
  return {
    requests: ts.length,
    wallMs,
    busy,
    toWorker: spread(ts.map((t) => t.taken - t.sent)),
    compute: spread(ts.map((t) => t.replied - t.taken)),
    back: spread(ts.map((t) => t.answered - t.replied)),
  };
}
