import type { Action, HistoryEvent, NodeId, SimTime } from '../../sim/types';

/**
 * Derived, incrementally maintained indexes over the append-only history, shared by the timeline,
 * the charts and the topology. A 20-s run has tens of thousands of events: scanning them all every
 * frame would eat the frame budget, so each index remembers how far it has read and only
 * consumes the new tail. Pure TypeScript (no DOM), unit-tested in Node.
 */

export interface MessageSpan {
  id: number;
  from: NodeId;
  to: NodeId;
  kind: string;
  sentAt: SimTime;
  due: SimTime;
  /** Delivery or drop time; null while on the wire. */
  end: SimTime | null;
  dropped: boolean;
}

export interface VersionMark {
  node: NodeId;
  version: number;
  synced: number;
  t: SimTime;
}

export interface Period {
  start: SimTime;
  /** null while still open. */
  end: SimTime | null;
}

export interface PartitionPeriod extends Period {
  groups: NodeId[][];
}

export interface CutPeriod extends Period {
  from: NodeId;
  to: NodeId;
}

export interface Sample {
  t: SimTime;
  steps: number;
  version: number;
  loss: number;
  accuracy: number;
}

export interface StepSpan {
  t: SimTime;
  due: SimTime;
}

export interface DropMark {
  t: SimTime;
  id: number;
  from: NodeId;
  to: NodeId;
  kind: string;
  sentAt: SimTime;
}

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

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

export class HistoryIndex {
  private read = 0;
  /** Every message, ordered by send time. */
  readonly messages: MessageSpan[] = [];
  private readonly pending = new Map<number, MessageSpan>();
  readonly drops: DropMark[] = [];
  readonly versions: VersionMark[] = [];
  readonly versionsByNode = new Map<NodeId, VersionMark[]>();
  readonly partitions: PartitionPeriod[] = [];
  readonly cuts: CutPeriod[] = [];
  /** Down periods per node (crash → restart). */
  readonly downs = new Map<NodeId, Period[]>();
  readonly samples = new Map<NodeId, Sample[]>();
  readonly stepStarts = new Map<NodeId, StepSpan[]>();
  /** Message kinds seen so far, in first-seen order (legend order stays stable). */
  readonly kinds: string[] = [];
  /** Time of the newest event consumed. */
  lastT = 0;

  /** Consume events appended since the last call. Returns whether anything new was read. */
  sync(events: readonly HistoryEvent[]): boolean {
    if (events.length < this.read) {
      // The history was replaced (should not happen: it is append-only); start over rather than lie.
      throw new Error('history shrank; use a fresh HistoryIndex');
    }
    const start = this.read;
    for (let i = start; i < events.length; i++) this.consume(events[i]);
    this.read = events.length;
    return events.length > start;
  }

  get eventsRead(): number {
    return this.read;
  }

  private consume(e: HistoryEvent): void {
    this.lastT = e.t;
    switch (e.type) {
      case 'send': {
        const m: MessageSpan = { id: e.id, from: e.from, to: e.to, kind: e.kind, sentAt: e.t, due: e.due, end: null, dropped: false };
        this.messages.push(m);
        this.pending.set(e.id, m);
        if (!this.kinds.includes(e.kind)) this.kinds.push(e.kind);
        break;
      }
      case 'deliver':
      case 'drop': {
        const m = this.pending.get(e.id);
        // A duplicated delivery reuses the id: the first one closes the span, later ones are ignored.
        if (m) {
          m.end = e.t;
          m.dropped = e.type === 'drop';
          this.pending.delete(e.id);
        }
        if (e.type === 'drop') this.drops.push({ t: e.t, id: e.id, from: e.from, to: e.to, kind: e.kind, sentAt: e.sentAt });
        break;
      }
      case 'version': {
        const v: VersionMark = { node: e.node, version: e.version, synced: e.synced, t: e.t };
        this.versions.push(v);
        push(this.versionsByNode, e.node, v);
        break;
      }
      case 'crash':
        push(this.downs, e.node, { start: e.t, end: null });
        break;
      case 'restart': {
        const d = this.downs.get(e.node);
        const open = d?.[d.length - 1];
        if (open && open.end === null) open.end = e.t;
        break;
      }
      case 'metrics': {
        const steps = e.v.cluster.steps ?? 0;
        for (const [node, m] of Object.entries(e.v.nodes)) {
          if (m.loss === undefined || m.loss === null) continue;
          push(this.samples, node, { t: e.t, steps, version: m.version ?? 0, loss: m.loss, accuracy: m.accuracy ?? 0 });
        }
        break;
      }
      case 'stepStart':
        push(this.stepStarts, e.node, { t: e.t, due: e.due });
        break;
      case 'action':
        this.action(e.t, e.action);
        break;
      default:
        break;
    }
  }

  private closePartition(t: SimTime): void {
    const open = this.partitions[this.partitions.length - 1];
    if (open && open.end === null) open.end = t;
  }

  private closeCut(t: SimTime, from: NodeId, to: NodeId): void {
    for (const c of this.cuts) if (c.end === null && c.from === from && c.to === to) c.end = t;
  }

  private openCut(t: SimTime, from: NodeId, to: NodeId): void {
    if (this.cuts.some((c) => c.end === null && c.from === from && c.to === to)) return;
    this.cuts.push({ start: t, end: null, from, to });
  }

  private action(t: SimTime, a: Action): void {
    switch (a.do) {
      case 'partition':
        // A new partition replaces the current one (the network holds one partition at a time).
        this.closePartition(t);
        this.partitions.push({ start: t, end: null, groups: a.groups.map((g) => [...g]) });
        break;
      case 'heal':
        this.closePartition(t);
        for (const c of this.cuts) if (c.end === null) c.end = t;
        break;
      case 'cut':
        this.openCut(t, a.from, a.to);
        if (!a.oneWay) this.openCut(t, a.to, a.from);
        break;
      case 'restore':
        this.closeCut(t, a.from, a.to);
        if (!a.oneWay) this.closeCut(t, a.to, a.from);
        break;
      default:
        break;
    }
  }

  /** The partition in force at t (null when none). */
  partitionAt(t: SimTime): PartitionPeriod | null {
    const i = lastAtOrBefore(this.partitions, t, (p) => p.start);
    if (i < 0) return null;
    const p = this.partitions[i];
    return p.end === null || t < p.end ? p : null;
  }

  /** Newest sample of a node at or before t. */
  sampleAt(node: NodeId, t: SimTime): Sample | null {
    const s = this.samples.get(node);
    if (!s) return null;
    const i = lastAtOrBefore(s, t, (x) => x.t);
    return i < 0 ? null : s[i];
  }

  /** The step a node is computing at t, if any (for the progress ring). */
  stepAt(node: NodeId, t: SimTime): StepSpan | null {
    const s = this.stepStarts.get(node);
    if (!s) return null;
    const i = lastAtOrBefore(s, t, (x) => x.t);
    if (i < 0) return null;
    return s[i].due > t ? s[i] : null;
  }

  /** Drops in (t - windowMs, t]. */
  dropsNear(t: SimTime, windowMs: number): DropMark[] {
    const hi = lastAtOrBefore(this.drops, t, (d) => d.t);
    const out: DropMark[] = [];
    for (let i = hi; i >= 0 && this.drops[i].t > t - windowMs; i--) out.push(this.drops[i]);
    return out;
  }

  /** The span of a message by id (linear from the end: asked only for recent drops). */
  messageById(id: number): MessageSpan | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i].id === id) return this.messages[i];
    return undefined;
  }
}

/**
 * Groups of the partition in force at t, derived directly from the history: the latest
 * 'partition' or 'heal' action at or before t. Unlisted nodes join the first group
 * (CONTRACTS §1). Returns null when there is no partition at t.
 */
export function partitionGroupsAt(events: readonly HistoryEvent[], t: SimTime, allNodes: readonly NodeId[]): NodeId[][] | null {
  let groups: NodeId[][] | null = null;
  for (const e of events) {
    if (e.t > t) break;
    if (e.type !== 'action') continue;
    if (e.action.do === 'partition') groups = e.action.groups;
    else if (e.action.do === 'heal') groups = null;
  }
  return groups ? completeGroups(groups, allNodes) : null;
}

/** Adds nodes missing from every group to the first group (CONTRACTS §1); drops unknown ids. */
export function completeGroups(groups: readonly (readonly NodeId[])[], allNodes: readonly NodeId[]): NodeId[][] {
  const known = new Set(allNodes);
  const out = groups.map((g) => g.filter((n) => known.has(n)));
  const listed = new Set(out.flat());
  if (out.length === 0) out.push([]);
  for (const n of allNodes) if (!listed.has(n)) out[0].push(n);
  return out.filter((g) => g.length > 0);
}

/** One index per history; the history object outlives any view that reads it. */
const indexes = new WeakMap<object, HistoryIndex>();

export function indexFor(history: { readonly events: readonly HistoryEvent[] }): HistoryIndex {
  let ix = indexes.get(history);
  if (!ix) {
    ix = new HistoryIndex();
    indexes.set(history, ix);
  }
  ix.sync(history.events);
  return ix;
}
