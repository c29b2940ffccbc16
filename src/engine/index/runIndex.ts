import type { Note, NoteName } from '../../protocols/notes';
import { applyNetAction, noFaults, partitionGroups, type NetFaults } from '../../sim/faults';
import type { Action, ByzantineAttack, HistoryEvent, MetricSample, NodeId, SimTime } from '../../sim/types';
import { quantize } from '../../sim/network';
import { MessageSpans, type MessageSpan } from './messageSpans';
import { LossSamples } from './lossSamples';
import { MetricSamples } from './metricSamples';
import { NoteList } from './noteList';
import { pushTo } from './series';
import { FactsSeries, LogTrack, StepTrack, type StepSpan, type Timed } from './tracks';

export type { MessageSpan, StepSpan, Timed };
export { FactsSeries, LogTrack, StepTrack };

/**
 * The run's history, indexed by entity and time (DESIGN rule 4: one history, many views). Every
 * view of the app and every sentence it writes reads the state at a time t from here — the live
 * edge is just t = now — so a scrubbed screen cannot differ from the live one.
 *
 * Each entity keeps a time-ordered series of its changes (a node's versions, facts, steps, crash
 * periods; each log slot's entries; the network's fault state after each network action), so the
 * state at any t is one binary search per entity: seeking stays O(nodes · log events) however
 * long the run, with no replay from the start and no periodic checkpoints to keep.
 *
 * The index consumes the append-only history incrementally: `sync` reads only what is new.
 */

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

export interface DownPeriod extends Period {
  /** Set when the node's training worker failed (its error message). */
  error?: string;
}

/** A `pause` of a process (a GC pause): from `start` until `until`, or until a crash ends it sooner. */
export interface PausePeriod {
  start: SimTime;
  /** When it resumes: extended by a pause of the paused process, cut short by a crash. */
  until: SimTime;
}

export interface PartitionPeriod extends Period {
  groups: NodeId[][];
}

export interface CutPeriod extends Period {
  from: NodeId;
  to: NodeId;
}

export interface DropMark {
  t: SimTime;
  id: number;
  from: NodeId;
  to: NodeId;
  kind: string;
  sentAt: SimTime;
}

export type { Sample } from './lossSamples';

export interface ActionMark {
  t: SimTime;
  action: Action;
  source: 'timeline' | 'user';
}

/** An array of events, or the History itself (which stores most events compactly). */
export interface EventSource {
  readonly length: number;
  at(i: number): HistoryEvent | undefined;
}

export type OpEvent = Extract<HistoryEvent, { type: 'op' }>;
export type ViolationEvent = Extract<HistoryEvent, { type: 'violation' }>;
export type { NoteEvent } from './noteList';

export class RunIndex {
  private read = 0;
  /** Time of the newest event consumed. */
  lastT = 0;

  /** Every message, ordered by send time (typed columns). */
  readonly messages = new MessageSpans();
  /** Rows of the messages still on the wire, by id. */
  private readonly pending = new Map<number, number>();
  /** Longest flight of a finished message (bounds the look-back of in-flight queries). */
  maxFlightMs = 0;
  readonly drops: DropMark[] = [];
  /** Message kinds seen so far, in first-seen order (legend order stays stable). */
  readonly kinds: string[] = [];

  readonly versions: VersionMark[] = [];
  readonly versionsByNode = new Map<NodeId, VersionMark[]>();
  /** Down periods per node (crash → restart). */
  readonly downs = new Map<NodeId, DownPeriod[]>();
  /** Per node, its steps: each start (and due time), its completed count after each stepDone. */
  readonly steps = new Map<NodeId, StepTrack>();
  /** `slow` factors per node (the action's factor, before persistent stragglers). */
  readonly slows = new Map<NodeId, Array<Timed<number>>>();
  /** Per worker, its Byzantine attack from each `byzantine` action (null from each `honest`). */
  readonly byzantine = new Map<NodeId, Array<Timed<{ attack: ByzantineAttack; scale?: number } | null>>>();
  /** Pauses per node, in time order (the engine's rules: a paused process's pause extends it; a down one ignores it). */
  readonly pauses = new Map<NodeId, PausePeriod[]>();
  /** Per node, its facts after each change (read back from the history on demand). */
  readonly facts = new Map<NodeId, FactsSeries>();
  /** Per node, its replicated log over time (entries read back from the history on demand). */
  readonly logs = new Map<NodeId, LogTrack>();

  /** The network's faults after each network action (the first entry: none, from t = 0). */
  readonly net: Array<Timed<NetFaults>> = [{ t: 0, value: noFaults }];
  readonly partitions: PartitionPeriod[] = [];
  readonly cuts: CutPeriod[] = [];

  /** Every metric sample: times and columns, each sample read back from the history on demand (metricSamples.ts). */
  readonly metrics: MetricSamples;
  /** Per worker, its loss/accuracy at each sample. */
  readonly samples = new Map<NodeId, LossSamples>();
  /** Every note, as columns read back from the history on demand (noteList.ts). */
  readonly notes: NoteList;
  /** The notes again, per name: the newest of one name is a binary search, not a scan of them all. */
  readonly notesByWhat = new Map<NoteName, NoteList>();
  readonly actions: ActionMark[] = [];
  readonly violations: ViolationEvent[] = [];
  /** The history followed (the latest one given to `sync`): facts and log entries are read back from it. */
  private source: EventSource | null = null;
  private readonly readEvent = (i: number): HistoryEvent | undefined => this.source?.at(i);

  constructor(private readonly nodeIds: readonly NodeId[]) {
    this.notes = new NoteList(this.readEvent);
    this.metrics = new MetricSamples(this.readEvent);
  }

  /** Consume events appended since the last call. Returns whether anything new was read. */
  sync(events: EventSource): boolean {
    if (events.length < this.read) throw new Error('history shrank; use a fresh RunIndex');
    this.source = events;
    const start = this.read;
    for (let i = start; i < events.length; i++) this.consume(events.at(i)!, i);
    this.read = events.length;
    return events.length > start;
  }

  get eventsRead(): number {
    return this.read;
  }

  private consume(e: HistoryEvent, i: number): void {
    this.lastT = e.t;
    switch (e.type) {
      case 'send': {
        this.pending.set(e.id, this.messages.push(e.id, e.from, e.to, e.kind, e.bytes, e.t, e.due));
        if (!this.kinds.includes(e.kind)) this.kinds.push(e.kind);
        break;
      }
      case 'deliver':
      case 'drop': {
        const row = this.pending.get(e.id);
        if (row !== undefined) {
          this.messages.settle(row, e.t, e.type === 'drop');
          this.pending.delete(e.id);
          this.maxFlightMs = Math.max(this.maxFlightMs, e.t - this.messages.sentAt(row));
        }
        if (e.type === 'drop') this.drops.push({ t: e.t, id: e.id, from: e.from, to: e.to, kind: e.kind, sentAt: e.sentAt });
        break;
      }
      case 'version': {
        const v: VersionMark = { node: e.node, version: e.version, synced: e.synced, t: e.t };
        this.versions.push(v);
        pushTo(this.versionsByNode, e.node, v);
        break;
      }
      case 'stepStart':
        this.stepTrack(e.node).started(e.t, e.due);
        break;
      case 'stepDone':
        this.stepTrack(e.node).completed(e.t, e.step);
        break;
      case 'crash': {
        pushTo(this.downs, e.node, e.error ? { start: e.t, end: null, error: e.error } : { start: e.t, end: null });
        // A crash ends a pause: the process is gone, and so is its frozen state.
        const p = this.pauses.get(e.node)?.at(-1);
        if (p && p.until > e.t) p.until = e.t;
        break;
      }
      case 'restart': {
        const d = this.downs.get(e.node);
        const open = d?.[d.length - 1];
        if (open && open.end === null) open.end = e.t;
        break;
      }
      case 'facts': {
        let series = this.facts.get(e.node);
        if (!series) this.facts.set(e.node, (series = new FactsSeries(this.readEvent)));
        series.push(e.t, i);
        break;
      }
      case 'log': {
        let track = this.logs.get(e.node);
        // The first change of a log starts at its first index (1 for Raft, 0 for Kafka offsets).
        if (!track) this.logs.set(e.node, (track = new LogTrack(this.readEvent, e.from)));
        track.push(e.t, i, e.from, e.add.length);
        break;
      }
      case 'metrics':
        this.metrics.push(e.t, e.v, i);
        this.sampleLosses(e.t, e.v);
        break;
      case 'note': {
        this.notes.push(e, i);
        let of = this.notesByWhat.get(e.what);
        if (!of) this.notesByWhat.set(e.what, (of = new NoteList(this.readEvent)));
        of.push(e, i);
        break;
      }
      case 'violation':
        this.violations.push(e);
        break;
      case 'action':
        this.action(e.t, e.action, e.source);
        break;
      default:
        break;
    }
  }

  private stepTrack(node: NodeId): StepTrack {
    let track = this.steps.get(node);
    if (!track) this.steps.set(node, (track = new StepTrack()));
    return track;
  }

  private sampleLosses(t: SimTime, s: MetricSample): void {
    const steps = s.cluster.steps ?? 0;
    for (const [node, m] of Object.entries(s.nodes)) {
      if (m.loss === undefined || m.loss === null) continue;
      let col = this.samples.get(node);
      if (!col) this.samples.set(node, (col = new LossSamples()));
      col.push({ t, steps, version: m.version ?? 0, loss: m.loss, accuracy: m.accuracy ?? 0 });
    }
  }

  private action(t: SimTime, a: Action, source: 'timeline' | 'user'): void {
    this.actions.push({ t, action: a, source });
    if (a.do === 'slow') pushTo(this.slows, a.node, { t, value: a.factor });
    if (a.do === 'byzantine') pushTo(this.byzantine, a.node, { t, value: { attack: a.attack, ...(a.scale !== undefined ? { scale: a.scale } : {}) } });
    if (a.do === 'honest') pushTo(this.byzantine, a.node, { t, value: null });
    if (a.do === 'pause') this.pause(t, a.node, a.ms);
    const before = this.net[this.net.length - 1].value;
    const after = applyNetAction(before, a, this.nodeIds);
    if (after === before) return;
    this.net.push({ t, value: after });
    // Periods for the timeline's bands, read off the faults (every node placed in its group).
    if (after.groups !== before.groups) {
      this.closePartition(t);
      const groups = partitionGroups(after, this.nodeIds);
      if (groups) this.partitions.push({ start: t, end: null, groups });
    }
    this.updateCuts(t, before, after);
  }

  private pause(t: SimTime, node: NodeId, ms: number): void {
    if (this.downs.get(node)?.at(-1)?.end === null) return; // a down process cannot be paused
    const until = quantize(t + ms);
    const open = this.pauses.get(node)?.at(-1);
    if (open && open.until > t) open.until = Math.max(open.until, until);
    else pushTo(this.pauses, node, { start: t, until });
  }

  private closePartition(t: SimTime): void {
    const open = this.partitions[this.partitions.length - 1];
    if (open && open.end === null) open.end = t;
  }

  private updateCuts(t: SimTime, before: NetFaults, after: NetFaults): void {
    for (const k of before.cuts) {
      if (after.cuts.has(k)) continue;
      for (const c of this.cuts) if (c.end === null && `${c.from}>${c.to}` === k) c.end = t;
    }
    for (const k of after.cuts) {
      if (before.cuts.has(k)) continue;
      const [from, to] = k.split('>');
      this.cuts.push({ start: t, end: null, from, to });
    }
  }

  /** Rows of the messages still on the wire now (their spans stay open until delivery or drop). */
  pendingRows(): Iterable<number> {
    return this.pending.values();
  }
}

/** One index per history; the history object outlives any view that reads it. */
const indexes = new WeakMap<object, RunIndex>();

export function runIndexFor(history: EventSource, nodeIds: readonly NodeId[]): RunIndex {
  let ix = indexes.get(history);
  if (!ix) {
    ix = new RunIndex(nodeIds);
    indexes.set(history, ix);
  }
  ix.sync(history);
  return ix;
}

export type { Note };
