import type { NoteEvent, Period, RunIndex } from '../../engine/index/runIndex';
import type { NodeId } from '../../sim/types';
import { timelineNotes } from '../words/noteWords';

/**
 * Pure helpers of the version timeline (time-space diagram): which time window to show, how a
 * lane splits into up/down stretches, lane order, the notes worth a mark.
 */

/** Runs up to this long are shown whole on a fixed axis (calm on a projector: nothing slides). */
export const WHOLE_RUN_MAX_MS = 60_000;
/** Longer runs show a window of this length around the live edge … */
export const WINDOW_MS = 30_000;
/**
 * … that moves in steps of this much, so the live edge stays in its last step: between two steps
 * nothing already drawn moves (calm on a projector, and the views only append to their drawing).
 */
export const WINDOW_STEP_MS = 5_000;

export function timeDomain(now: number, durationMs: number): [number, number] {
  if (durationMs <= WHOLE_RUN_MAX_MS) return [0, durationMs];
  const end = Math.max(WINDOW_MS, Math.ceil(now / WINDOW_STEP_MS) * WINDOW_STEP_MS);
  return [end - WINDOW_MS, end];
}

export interface LaneStretch {
  start: number;
  end: number;
  up: boolean;
}

/** A lane from t0 to t, split into up and down stretches by the node's crash periods. */
export function laneStretches(downs: readonly Period[] | undefined, t0: number, t: number): LaneStretch[] {
  if (t <= t0) return [];
  const out: LaneStretch[] = [];
  let cur = t0;
  for (const d of downs ?? []) {
    const dEnd = d.end ?? Infinity;
    if (dEnd <= t0 || d.start >= t) continue;
    const s = Math.max(d.start, t0);
    if (s > cur) out.push({ start: cur, end: s, up: true });
    const e = Math.min(dEnd, t);
    out.push({ start: s, end: e, up: false });
    cur = e;
  }
  if (cur < t) out.push({ start: cur, end: t, up: true });
  return out;
}

/** A node's pauses (GC pauses) from t0 to t, each cut at t: the stretches its lane shows frozen. */
export function pausedStretches(pauses: ReadonlyArray<{ start: number; until: number }> | undefined, t0: number, t: number): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const p of pauses ?? []) {
    if (p.until <= t0 || p.start >= t) continue;
    out.push({ start: Math.max(p.start, t0), end: Math.min(p.until, t) });
  }
  return out;
}

/** Lane order: workers first, then servers, then brokers, each by index. */
export function laneOrder(ids: readonly NodeId[]): NodeId[] {
  const rank = (id: NodeId): number => (id[0] === 'w' ? 0 : id[0] === 's' ? 1 : 2);
  return [...ids].sort((a, b) => rank(a) - rank(b) || Number(a.slice(1)) - Number(b.slice(1)));
}

const noteCache = new WeakMap<RunIndex, { read: number; list: NoteEvent[] }>();

/** The notes worth a timeline mark (timelineNotes), kept incrementally: O(new notes) per frame. */
export function keyNotes(ix: RunIndex): NoteEvent[] {
  let c = noteCache.get(ix);
  if (!c) {
    c = { read: 0, list: [] };
    noteCache.set(ix, c);
  }
  // The names are columns: only the notes kept are read back from the history.
  for (; c.read < ix.notes.length; c.read++) if (timelineNotes.has(ix.notes.what(c.read))) c.list.push(ix.notes.at(c.read));
  return c.list;
}
