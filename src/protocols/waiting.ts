import type { NodeId } from '../sim/types';
import type { StrategyContext } from './strategy';

/** A worker's blocked-time bookkeeping (barrier, SSP bound): the `waitFraction` metric. */
export interface WaitClock {
  /** Simulated time the worker started waiting (null: not waiting). */
  waitingSince: number | null;
  waitedMs: number;
  /** Start of the current live period (reset on restart). */
  liveSince: number;
  /** Live time of earlier incarnations. */
  liveMs: number;
}

export function freshWaitClock(now: number): WaitClock {
  return { waitingSince: null, waitedMs: 0, liveSince: now, liveMs: 0 };
}

export function startWaiting(c: WaitClock, now: number): void {
  if (c.waitingSince === null) c.waitingSince = now;
}

export function stopWaiting(c: WaitClock, now: number): void {
  if (c.waitingSince === null) return;
  c.waitedMs += now - c.waitingSince;
  c.waitingSince = null;
}

/** Closes the live period at a crash: what the next incarnation carries over. */
export function crashedWaitClock(c: WaitClock, now: number): WaitClock {
  stopWaiting(c, now);
  return { waitingSince: null, waitedMs: c.waitedMs, liveSince: now, liveMs: c.liveMs + (now - c.liveSince) };
}

/** Fraction of live simulated time spent blocked (per worker; cluster: mean over live workers). */
export function waitFraction(ctx: StrategyContext, clocks: (id: NodeId) => WaitClock | undefined, node?: NodeId): number | null {
  const now = ctx.now();
  const one = (id: NodeId): number | null => {
    const s = clocks(id);
    if (!s) return null;
    const up = ctx.isUp(id);
    const live = s.liveMs + (up ? now - s.liveSince : 0);
    const waited = s.waitedMs + (up && s.waitingSince !== null ? now - s.waitingSince : 0);
    return live > 0 ? waited / live : 0;
  };
  if (node) return one(node);
  const live = ctx.workers.filter((id) => ctx.isUp(id));
  return live.length ? live.reduce((a, id) => a + (one(id) ?? 0), 0) / live.length : 0;
}
