import type { LogItem, NodeFacts } from '../../protocols/facts';
import { isPartitioned, linkKey, linkProps, partitionGroups, tamperOn, type NetFaults, type TamperSpec } from '../../sim/faults';
import type { ByzantineAttack, LinkProps, MetricSample, NodeId, NodeRole, SimTime } from '../../sim/types';
import type { MessageSpan, NoteEvent, PausePeriod, RunIndex, StepSpan } from './runIndex';
import { sampleAt } from './metricSamples';
import { lastAtOrBefore, valueAt } from './series';

/**
 * The state of a run at simulated time t, read from a RunIndex: what every view draws and every
 * sentence is built from. Pure functions; the live screen asks for t = now.
 */

/** What the index needs to know beyond the history: the cluster, the strategy's links, defaults. */
export interface RunStatic {
  nodes: ReadonlyArray<{ id: NodeId; role: NodeRole }>;
  /** Undirected edges the strategy communicates over. */
  edges: ReadonlyArray<readonly [NodeId, NodeId]>;
  network: LinkProps;
  stragglers: ReadonlyArray<{ node: NodeId; slowdown: number }>;
}

export interface NodeState {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  /** The worker error that took it down, when a training worker failed. */
  failed?: string;
  version: number;
  synced: number;
  steps: number;
  /** Step-time multiplier from `slow` actions and persistent stragglers (1 = normal). */
  slowFactor: number;
  /** The step in progress, if any (for the progress ring). */
  computing: StepSpan | null;
  facts: NodeFacts | null;
  /** Present while the engine drives this worker as Byzantine (`byzantine` … `honest`). */
  byzantine?: { attack: ByzantineAttack; scale?: number };
  /** Present while its process is paused (a `pause`: a GC pause): since when. It handles nothing meanwhile. */
  paused?: { since: SimTime };
}

export interface LinkState {
  from: NodeId;
  to: NodeId;
  cut: boolean;
  partitioned: boolean;
  props: LinkProps;
  /** Present while a man-in-the-middle is on this direction (`tamper` … `untamper`). */
  tamper?: TamperSpec;
}

export interface RunState {
  t: SimTime;
  nodes: NodeState[];
  links: readonly LinkState[];
  inFlight: MessageSpan[];
  /** The partition in force (every node placed), or null. */
  partition: NodeId[][] | null;
  /** The newest engine sample at or before t, if any. */
  metrics: MetricSample | null;
  /** Time of that sample. */
  sampledAt: SimTime | null;
}

export function faultsAt(ix: RunIndex, t: SimTime): NetFaults {
  return valueAt(ix.net, t)!.value;
}

export function nodeAt(ix: RunIndex, st: RunStatic, id: NodeId, role: NodeRole, t: SimTime): NodeState {
  const v = valueAt(ix.versionsByNode.get(id), t);
  const downs = ix.downs.get(id);
  const di = downs ? lastAtOrBefore(downs, t, (d) => d.start) : -1;
  const down = di >= 0 && (downs![di].end === null || downs![di].end! > t) ? downs![di] : null;
  const straggler = st.stragglers.filter((s) => s.node === id).reduce((a, s) => a * s.slowdown, 1);
  const slow = valueAt(ix.slows.get(id), t)?.value ?? 1;
  const byzantine = valueAt(ix.byzantine.get(id), t)?.value ?? null;
  const pause = pausedAt(ix, id, t);
  return {
    id,
    role,
    up: down === null,
    ...(down?.error ? { failed: down.error } : {}),
    version: v?.version ?? 0,
    synced: v?.synced ?? 0,
    steps: ix.steps.get(id)?.stepsAt(t) ?? 0,
    slowFactor: slow * straggler,
    computing: down ? null : stepAt(ix, id, t),
    facts: ix.facts.get(id)?.at(t)?.value ?? null,
    ...(byzantine ? { byzantine } : {}),
    ...(pause ? { paused: { since: pause.start } } : {}),
  };
}

/** The pause in force at t, if any: started at or before t, not yet over. */
function pausedAt(ix: RunIndex, id: NodeId, t: SimTime): PausePeriod | null {
  const ps = ix.pauses.get(id);
  const i = ps ? lastAtOrBefore(ps, t, (p) => p.start) : -1;
  return i >= 0 && t < ps![i].until ? ps![i] : null;
}

/** The step a node is computing at t: started at or before t, due after it, no crash since. */
export function stepAt(ix: RunIndex, id: NodeId, t: SimTime): StepSpan | null {
  const s = ix.steps.get(id)?.startedAt(t);
  if (!s || s.due <= t) return null;
  const downs = ix.downs.get(id);
  if (downs?.some((d) => d.start >= s.t && d.start <= t)) return null;
  return s;
}

/**
 * The links as a run's faults left them, per faults value: the index makes a new NetFaults for
 * each change (runIndex.action), so the links are built once per change rather than on every
 * frame (180 objects and their props a frame at 16 workers: 7 % of the page's allocation).
 * The array is shared: read-only to every caller.
 */
const linksByFaults = new WeakMap<NetFaults, { st: RunStatic; links: readonly LinkState[] }>();

export function linksAt(ix: RunIndex, st: RunStatic, t: SimTime): readonly LinkState[] {
  const f = faultsAt(ix, t);
  const hit = linksByFaults.get(f);
  if (hit?.st === st) return hit.links;
  const out: LinkState[] = [];
  for (const [a, b] of st.edges) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ]) {
      const tamper = tamperOn(f, from, to);
      out.push({ from, to, cut: f.cuts.has(linkKey(from, to)), partitioned: isPartitioned(f, from, to), props: linkProps(f, st.network, from, to), ...(tamper ? { tamper } : {}) });
    }
  }
  linksByFaults.set(f, { st, links: out });
  return out;
}

/** Messages on the wire at t: sent at or before t, not delivered or dropped by t. */
export function inFlightAt(ix: RunIndex, t: SimTime): MessageSpan[] {
  const ms = ix.messages;
  const hi = ms.lastSentAtOrBefore(t);
  const lo = ms.firstSentAtOrAfter(t - ix.maxFlightMs);
  const out: MessageSpan[] = [];
  const seen = new Set<number>();
  for (let i = lo; i <= hi; i++) {
    const end = ms.end(i);
    if (end === null || end > t) {
      out.push(ms.get(i));
      seen.add(i);
    }
  }
  // Messages still pending now may have left before the look-back window.
  for (const r of ix.pendingRows()) if (ms.sentAt(r) <= t && !seen.has(r)) out.push(ms.get(r));
  return out.sort((a, b) => a.sentAt - b.sentAt || a.id - b.id);
}

export function runStateAt(ix: RunIndex, st: RunStatic, t: SimTime): RunState {
  const sample = sampleAt(ix.metrics, t);
  return {
    t,
    nodes: st.nodes.map((n) => nodeAt(ix, st, n.id, n.role, t)),
    links: linksAt(ix, st, t),
    inFlight: inFlightAt(ix, t),
    partition: partitionGroups(faultsAt(ix, t), st.nodes.map((n) => n.id)),
    metrics: sample?.value ?? null,
    sampledAt: sample?.t ?? null,
  };
}

/** One slot of a log as it stood at t. */
export interface LogRow {
  index: number;
  item: LogItem;
}

/** The exclusive end index of a node's log at t (its base when empty), or null if it has none. */
export function logEndAt(ix: RunIndex, node: NodeId, t: SimTime): number | null {
  const track = ix.logs.get(node);
  if (!track) return null;
  return track.endAt(t) ?? track.base;
}

/** A node's log entries with index in [lo, hi) as they stood at t. */
export function logAt(ix: RunIndex, node: NodeId, t: SimTime, lo = -Infinity, hi = Infinity): LogRow[] {
  const track = ix.logs.get(node);
  const end = logEndAt(ix, node, t);
  if (!track || end === null) return [];
  const out: LogRow[] = [];
  for (let i = Math.max(track.base, lo); i < Math.min(end, hi); i++) {
    const item = track.itemAt(i, t);
    if (item) out.push({ index: i, item });
  }
  return out;
}

/** Notes in (t0, t1], oldest first. */
export function notesBetween(ix: RunIndex, t0: SimTime, t1: SimTime): NoteEvent[] {
  const notes = ix.notes;
  const out: NoteEvent[] = [];
  for (let i = notes.firstAtOrAfter(t0); i < notes.length && notes.t(i) <= t1; i++) if (notes.t(i) > t0) out.push(notes.at(i));
  return out;
}

/** Items of a time-ordered list up to t (a prefix: cheap to slice for the few lists that need it). */
export function upTo<T extends { t: number }>(arr: readonly T[], t: SimTime): readonly T[] {
  const i = lastAtOrBefore(arr, t, (x) => x.t);
  return arr.slice(0, i + 1);
}
