import type { MessageSpan, NoteEvent, Period, RunIndex, VersionMark } from '../../engine/index/runIndex';
import { firstAtOrAfter, lastAtOrBefore } from '../../engine/index/series';
import type { NodeId } from '../../sim/types';
import { timelineNotes } from '../words/noteWords';

/**
 * Pure helpers of the version timeline (time-space diagram): which time window to show, which
 * messages to draw, how a lane splits into up/down stretches, which marks get a label.
 */

/** Runs up to this long are shown whole on a fixed axis (calm on a projector: nothing slides). */
export const WHOLE_RUN_MAX_MS = 60_000;
/** Longer runs show a sliding window of this length ending at the live edge. */
export const WINDOW_MS = 30_000;

export function timeDomain(now: number, durationMs: number): [number, number] {
  if (durationMs <= WHOLE_RUN_MAX_MS) return [0, durationMs];
  const end = Math.max(now, WINDOW_MS);
  return [end - WINDOW_MS, end];
}

/** Longest flight we look back for when culling (messages sent before the window that land in it). */
const MAX_FLIGHT_LOOKBACK_MS = 5_000;

/**
 * Messages worth drawing in [t0, t1] as of time t: sent at or before t and not finished before
 * t0, newest `limit` only (older ones are where the eye is not, and this bounds frame time).
 */
export function visibleMessages(messages: readonly MessageSpan[], t0: number, t1: number, t: number, limit: number, hidden?: ReadonlySet<string>): MessageSpan[] {
  const hi = lastAtOrBefore(messages, Math.min(t, t1), (m) => m.sentAt);
  const lo = firstAtOrAfter(messages, t0 - MAX_FLIGHT_LOOKBACK_MS, (m) => m.sentAt);
  const out: MessageSpan[] = [];
  for (let i = hi; i >= lo && out.length < limit; i--) {
    const m = messages[i];
    if (hidden?.has(m.kind)) continue;
    const end = m.end ?? Infinity;
    if (end < t0) continue;
    out.push(m);
  }
  return out.reverse();
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

/** Marks of one lane that get a version label: at least `minGapPx` from the previous labelled one. */
export function labelledMarks(marks: readonly VersionMark[], x: (t: number) => number, minGapPx: number): Set<VersionMark> {
  const out = new Set<VersionMark>();
  let last = -Infinity;
  for (const m of marks) {
    const px = x(m.t);
    if (px - last >= minGapPx) {
      out.add(m);
      last = px;
    }
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
  for (; c.read < ix.notes.length; c.read++) if (timelineNotes.has(ix.notes[c.read].what)) c.list.push(ix.notes[c.read]);
  return c.list;
}
