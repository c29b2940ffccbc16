import type { NoteEvent, RunIndex, ViolationEvent } from '../../engine/index/runIndex';
import type { LinkState, NodeState, RunState, RunStatic } from '../../engine/index/runState';
import { lastAtOrBefore } from '../../engine/index/series';
import { capOf, strategyInfo } from '../../protocols/registry';
import type { CapClass, StrategyConfig } from '../../protocols';
import type { CoordinationConfig, ReadMode } from '../../protocols/coord/config';
import { readModeOf } from '../../protocols/coord/readMode';
import type { NoteName } from '../../protocols/notes';
import type { NodeFacts } from '../../protocols/facts';
import type { ByzantineAttack, NodeId } from '../../sim/types';
import type { TamperSpec } from '../../sim/faults';
import type { SecurityConfig } from '../../scenario/schema';

/**
 * What the "What you see" line knows about the run at a time t: the state at t (RunState: nodes
 * with their typed facts, links, partition, the engine's metric sample), the recent typed notes,
 * and the class of the *running configuration* (capOf). Plain data, derived from the history
 * alone, so the sentence for a scrubbed t is the one the live run showed at t.
 */

/** How long a note counts as "just happened" for the sentence (simulated ms). */
export const recentMs = 2500;

/** How long after a repair the "after heal" sentence stays up (simulated ms). */
export const healWindowMs = 3000;

export interface ExplainInput {
  cfg: StrategyConfig;
  /** The scenario's coordination block, when a service runs beside the strategy (cluster.coord > 0). */
  coordination?: CoordinationConfig;
  /** The scenario's per-message protection (absent: none). */
  security?: SecurityConfig;
  ix: RunIndex;
  static: RunStatic;
  /** The run at the cursor time. */
  state: RunState;
  /** The run has finished and the cursor is at its end. */
  done: boolean;
  stepMs: number;
}

export interface ExplainState {
  cfg: StrategyConfig;
  /** Null for a strategy the registry does not know (it gets the generic sentence). */
  cap: CapClass | null;
  t: number;
  started: boolean;
  done: boolean;
  workers: NodeState[];
  /** Parameter servers, Raft servers, Kafka's PS replicas (cluster role `server`). */
  servers: NodeState[];
  brokers: NodeState[];
  /** The coordination service's servers (c0…) and how the workers use it; null without one. */
  coord: { service: CoordinationConfig['service']; reads: ReadMode; leaseTtlMs: number; metaKey: string | null; servers: NodeState[] } | null;
  /** The partition in force at t, every node placed; null when none. */
  partition: NodeId[][] | null;
  /** A strategy link is cut or crosses the partition at t. */
  networkFault: boolean;
  /** The directed strategy links that are cut or partitioned at t. */
  brokenLinks: LinkState[];
  /** Workers with a broken link to the (first) server: they cannot reach it. */
  isolated: NodeId[];
  crashedWorkers: NodeId[];
  /** The messages' protection: the scenario's security block, or null without one (no check). */
  security: SecurityConfig | null;
  /** Links a man-in-the-middle holds at t, and what it does there (not one that has spent its `count`). */
  tampered: Array<{ from: NodeId; to: NodeId } & TamperSpec>;
  /** Workers that are Byzantine at t (authenticated, malicious). */
  byzantine: Array<{ node: NodeId; attack: ByzantineAttack; scale?: number }>;
  /** An attacker is at work at t (a tampered link or a Byzantine worker): "healthy" is not the word. */
  attacked: boolean;
  serverDown: boolean;
  slow: Array<{ node: NodeId; factor: number }>;
  /** A heal, restore or restart ended a fault within healWindowMs before t, and none is in force. */
  recentlyHealed: boolean;
  /** The newest repair at or before t (what recentlyHealed refers to). */
  lastRepair: Repair | null;
  /** The newest partition that ended at or before t: who was cut off from whom, and when it ended. */
  lastPartition: { groups: readonly (readonly NodeId[])[]; start: number; end: number } | null;
  /** The engine's cluster metrics at the newest sample ≤ t (samples lag events by up to one period). */
  metrics: Record<string, number | null>;
  /** When that sample was taken (null: none yet). */
  sampledAt: number | null;
  /**
   * How many notes of a name (and matching `pred`) happened at or before `at` (default t): exact,
   * where a sampled metric lags. At `sampledAt` it matches a counter metric the strip shows.
   */
  countNotes: (what: NoteName, pred?: (n: NoteEvent) => boolean, at?: number) => number;
  /** The newest note of a name (and matching `pred`) at or before t, however long ago (null: none). */
  lastNote: (what: NoteName, pred?: (n: NoteEvent) => boolean) => NoteEvent | null;
  /**
   * Whether a link was cut or the network partitioned at any moment in [from, to]; with `among`,
   * only a cut between two of those nodes or a partition that puts them on different sides.
   */
  netFaultDuring: (from: number, to: number, among?: readonly NodeId[]) => boolean;
  /** The directed links cut ("from>to") in force at `at`, or just before it with `before`. */
  cutsAt: (at: number, before?: boolean) => ReadonlyArray<readonly [NodeId, NodeId]>;
  /** The partition in force at `at` (every node placed), or null: `partition` at another time. */
  partitionAt: (at: number) => ReadonlyArray<readonly NodeId[]> | null;
  /** Nodes a `slow` action (factor > 1) had slowed at some moment in [from, to]. */
  slowDuring: (from: number, to: number) => NodeId[];
  /** The highest value a cluster metric took in the samples up to the one shown (null: never a number). */
  metricPeak: (name: string) => number | null;
  availability: number | null;
  /** Live workers that counted as unavailable (node availability 0) at the sample. */
  unavailableWorkers: NodeId[];
  staleness: number | null;
  divergence: number | null;
  /** The newest note of each name within recentMs before t. */
  recent: Partial<Record<NoteName, NoteEvent>>;
  /** When each node last crashed, at or before t. */
  crashedAt: Record<NodeId, number>;
  /** Whether a node was down (crashed, not yet restarted) at `at`. */
  downAt: (id: NodeId, at: number) => boolean;
  /** Whether a node's process was paused (it sends and handles nothing) at `at`. */
  pausedAt: (id: NodeId, at: number) => boolean;
  /** A node's facts as they stood at `at` (its last change at or before it). */
  factsAt: (id: NodeId, at: number) => NodeFacts | null;
  /** Each node's pauses that overlap [from, to] (`until` may lie after t: the pause it is in). */
  pausesDuring: (from: number, to: number) => Array<{ id: NodeId; start: number; until: number }>;
  firstViolation: ViolationEvent | null;
  stepMs: number;
  /**
   * Where `node`'s candidacy for `term` came from a forced `timeout` action (the script's or the
   * user's) rather than its own election timer: that action's source; null otherwise.
   */
  forcedElection: (node: NodeId, term: number) => 'timeline' | 'user' | null;
}

function broken(l: LinkState): boolean {
  return l.cut || l.partitioned;
}

export interface Repair {
  t: number;
  /** heal/restore: a network fault ended; restart: a crashed node came back. */
  kind: 'heal' | 'restore' | 'restart';
  node?: NodeId;
}

function partitionAt(ix: RunIndex, at: number): NodeId[][] | null {
  for (let k = ix.partitions.length - 1; k >= 0; k--) {
    const p = ix.partitions[k];
    if (p.start <= at) return p.end === null || p.end > at ? p.groups : null;
  }
  return null;
}

function lastEndedPartition(ix: RunIndex, t: number): { groups: NodeId[][]; start: number; end: number } | null {
  for (let k = ix.partitions.length - 1; k >= 0; k--) {
    const p = ix.partitions[k];
    if (p.end !== null && p.end <= t) return { groups: p.groups, start: p.start, end: p.end };
  }
  return null;
}

/** The last network state set before `at` (several actions at one instant each add one). */
function lastBefore(ix: RunIndex, at: number): number {
  let i = lastAtOrBefore(ix.net, at, (x) => x.t);
  while (i >= 0 && ix.net[i].t >= at) i--;
  return i;
}

/** Whether the network's faults just before `at` included something that is gone at `at`. */
function repairedAt(ix: RunIndex, at: number): boolean {
  const i = lastAtOrBefore(ix.net, at, (x) => x.t);
  const b = lastBefore(ix, at);
  if (i < 0 || b < 0 || ix.net[i].t !== at) return false;
  const [before, after] = [ix.net[b].value, ix.net[i].value];
  return (before.groups !== null && after.groups === null) || [...before.cuts].some((k) => !after.cuts.has(k));
}

function lastRepairAt(ix: RunIndex, t: number): Repair | null {
  let last: Repair | null = null;
  for (let k = lastAtOrBefore(ix.actions, t, (a) => a.t); k >= 0; k--) {
    const a = ix.actions[k].action;
    // A heal with nothing cut (the H key on a whole network) repairs nothing: no "Healed: …" for it.
    if ((a.do === 'heal' || a.do === 'restore') && repairedAt(ix, ix.actions[k].t)) {
      last = { t: ix.actions[k].t, kind: a.do };
      break;
    }
  }
  // Restarts from the down periods (a restart action may name a selector such as @crashed).
  for (const [node, downs] of ix.downs) for (const d of downs) if (d.end !== null && d.end <= t && (last === null || d.end > last.t)) last = { t: d.end, kind: 'restart', node };
  return last;
}

export function deriveExplainState(input: ExplainInput): ExplainState {
  const { state, ix, cfg } = input;
  const t = state.t;
  const workers = state.nodes.filter((n) => n.role === 'worker');
  const servers = state.nodes.filter((n) => n.role === 'server');
  const brokers = state.nodes.filter((n) => n.role === 'broker');
  const coordServers = state.nodes.filter((n) => n.role === 'coord');
  const c = input.coordination;
  const coord = c && coordServers.length > 0 ? { service: c.service, reads: readModeOf(c), leaseTtlMs: c.leaseTtlMs, metaKey: c.readMeta?.key ?? null, servers: coordServers } : null;
  const server = servers[0] ?? null;
  const faulty = state.links.filter(broken);
  const isolated = server ? workers.filter((w) => faulty.some((l) => (l.from === w.id && l.to === server.id) || (l.from === server.id && l.to === w.id))).map((w) => w.id) : [];
  const networkFault = faulty.length > 0;
  const faultNow = networkFault || state.nodes.some((n) => !n.up);
  const repair = lastRepairAt(ix, t);
  const recent: Partial<Record<NoteName, NoteEvent>> = {};
  // The columns say each note's name: only the newest of each name is read back from the history.
  for (let i = ix.notes.lastAtOrBefore(t); i >= 0 && ix.notes.t(i) >= t - recentMs; i--) {
    const what = ix.notes.what(i);
    if (!recent[what]) (recent as Record<NoteName, NoteEvent>)[what] = ix.notes.at(i);
  }
  const crashedAt: Record<NodeId, number> = {};
  for (const [id, downs] of ix.downs) {
    const i = lastAtOrBefore(downs, t, (d) => d.start);
    if (i >= 0) crashedAt[id] = downs[i].start;
  }
  const v = ix.violations[0];
  // Per name (RunIndex.notesByWhat): a count reads the notes of its name only, not every note.
  const countNotes = (what: NoteName, pred?: (n: NoteEvent) => boolean, at = t): number => {
    const of = ix.notesByWhat.get(what);
    if (!of) return 0;
    const last = of.lastAtOrBefore(at);
    if (!pred) return last + 1;
    let k = 0;
    for (let i = last; i >= 0; i--) if (pred(of.at(i))) k++;
    return k;
  };
  const lastNote = (what: NoteName, pred?: (n: NoteEvent) => boolean): NoteEvent | null => {
    const of = ix.notesByWhat.get(what);
    if (!of) return null;
    for (let i = of.lastAtOrBefore(t); i >= 0; i--) if (!pred || pred(of.at(i))) return of.at(i);
    return null;
  };
  const netFaultDuring = (from: number, to: number, among?: readonly NodeId[]): boolean => {
    const inside = among ? new Set(among) : null;
    const splits = (f: (typeof ix.net)[number]['value']): boolean => {
      if (!inside) return f.cuts.size > 0 || f.groups !== null;
      if ([...f.cuts].some((k) => k.split('>').every((id) => inside.has(id)))) return true;
      return f.groups !== null && new Set([...inside].map((id) => f.groups!.get(id) ?? 0)).size > 1;
    };
    // The faults in force at `from`, and every change up to `to`.
    for (let i = Math.max(0, lastAtOrBefore(ix.net, from, (x) => x.t)); i < ix.net.length && ix.net[i].t <= to; i++) if (splits(ix.net[i].value)) return true;
    return false;
  };
  const cutsAt = (at: number, before = false): Array<[NodeId, NodeId]> => {
    const k = before ? lastBefore(ix, at) : lastAtOrBefore(ix.net, at, (x) => x.t);
    if (k < 0) return [];
    return [...ix.net[k].value.cuts].map((key) => key.split('>') as [NodeId, NodeId]);
  };
  const slowDuring = (from: number, to: number): NodeId[] => {
    const slowed = new Map<NodeId, number>(); // node → since when (its latest slow action > 1 so far)
    const out = new Set<NodeId>();
    for (let k = 0; k < ix.actions.length && ix.actions[k].t <= to; k++) {
      const { t: at, action: a } = ix.actions[k];
      if (a.do !== 'slow') continue;
      // A change at or after `from` ends (or starts) a slow spell inside the window.
      if (slowed.has(a.node) && at >= from) out.add(a.node);
      if (a.factor > 1) slowed.set(a.node, at);
      else slowed.delete(a.node);
    }
    for (const id of slowed.keys()) out.add(id);
    return [...out].filter((id) => !id.startsWith('@')); // a selector names no one in particular
  };
  const metricPeak = (name: string): number | null => {
    let peak: number | null = null;
    const col = ix.metrics.cluster(name);
    for (let i = ix.metrics.lastAtOrBefore(t); i >= 0; i--) {
      const v = col[i];
      if (!Number.isNaN(v) && (peak === null || v > peak)) peak = v;
    }
    return peak;
  };
  // A man-in-the-middle with a message budget (`count`) stops once it has spent it, though the
  // link keeps its spec until an untamper: from then on it is not at work.
  const spent = (from: NodeId, to: NodeId, count: number | undefined, replay: boolean): boolean => {
    if (count === undefined) return false;
    const onLink = (n: NoteEvent): boolean => n.node === to && 'from' in n.data && n.data.from === from;
    const names: NoteName[] = replay ? ['replayAccepted', 'replayRejected'] : ['tamperAccepted', 'tamperRejected'];
    return names.reduce((k, what) => k + countNotes(what, onLink), 0) >= count;
  };
  const forcedElection = (node: NodeId, term: number): 'timeline' | 'user' | null => {
    let started: number | null = null;
    const elections = ix.notesByWhat.get('electionStarted');
    for (let i = elections ? elections.lastAtOrBefore(t) : -1; i >= 0 && started === null; i--) {
      if (elections!.node(i) !== node) continue;
      const n = elections!.at(i);
      if ('term' in n.data && n.data.term === term) started = n.t;
    }
    if (started === null) return null;
    // becomeCandidate runs in the action's own event, so a forced candidacy starts at its time —
    // or, forced while the server was paused, at its resume (the action waited in its queue).
    const resumed = lastNote('resumed', (n) => n.node === node && n.t === started);
    const from = resumed && resumed.what === 'resumed' ? started - resumed.data.pausedMs : started;
    for (let k = lastAtOrBefore(ix.actions, started, (a) => a.t); k >= 0 && ix.actions[k].t >= from; k--) {
      const a = ix.actions[k];
      if (a.action.do === 'timeout' && (a.action.node === node || a.action.node.startsWith('@'))) return a.source;
    }
    return null;
  };
  const tampered = state.links.flatMap((l) => (l.tamper && !spent(l.from, l.to, l.tamper.count, l.tamper.attack === 'replay') ? [{ from: l.from, to: l.to, ...l.tamper }] : []));
  const byzantine = state.nodes.flatMap((n) => (n.byzantine ? [{ node: n.id, ...n.byzantine }] : []));
  return {
    cfg,
    cap: strategyInfo(cfg.kind) ? capOf(cfg) : null,
    t,
    started: t > 0,
    done: input.done,
    workers,
    servers,
    brokers,
    coord,
    partition: state.partition,
    networkFault,
    brokenLinks: faulty,
    isolated,
    crashedWorkers: workers.filter((w) => !w.up).map((w) => w.id),
    security: input.security ?? null,
    tampered,
    byzantine,
    attacked: tampered.length > 0 || byzantine.length > 0,
    serverDown: server !== null && !server.up,
    slow: state.nodes.filter((n) => n.up && n.slowFactor > 1).map((n) => ({ node: n.id, factor: n.slowFactor })),
    recentlyHealed: !faultNow && repair !== null && t - repair.t <= healWindowMs,
    lastRepair: repair,
    lastPartition: lastEndedPartition(ix, t),
    metrics: state.metrics?.cluster ?? {},
    sampledAt: state.sampledAt,
    countNotes,
    metricPeak,
    lastNote,
    netFaultDuring,
    cutsAt,
    partitionAt: (at) => partitionAt(ix, at),
    slowDuring,
    availability: state.metrics?.cluster.availability ?? null,
    unavailableWorkers: workers.filter((w) => w.up && state.metrics?.nodes[w.id]?.availability === 0).map((w) => w.id),
    staleness: state.metrics?.cluster.staleness ?? null,
    divergence: state.metrics?.cluster.divergence ?? null,
    recent,
    crashedAt,
    downAt: (id, at) => (ix.downs.get(id) ?? []).some((d) => d.start <= at && (d.end === null || d.end > at)),
    pausedAt: (id, at) => (ix.pauses.get(id) ?? []).some((p) => p.start <= at && p.until > at),
    factsAt: (id, at) => ix.facts.get(id)?.at(at)?.value ?? null,
    pausesDuring: (from, to) => [...ix.pauses].flatMap(([id, ps]) => ps.filter((p) => p.start <= to && p.until > from).map((p) => ({ id, start: p.start, until: p.until }))),
    firstViolation: v && v.t <= t ? v : null,
    stepMs: input.stepMs,
    forcedElection,
  };
}

/** A metric's value at t, or null when the run does not define it (or it is not finite). */
export function metric(st: ExplainState, name: string): number | null {
  const v = st.metrics[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The partition group holding `id` (groups are complete: every node is in one). */
export function groupOf(st: ExplainState, id: NodeId): NodeId[] | null {
  return st.partition?.find((g) => g.includes(id)) ?? null;
}
