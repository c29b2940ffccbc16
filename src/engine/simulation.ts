import { capOf, createStrategy, type CapClass, type Strategy, type StrategyContext } from '../protocols';
import type { Replica, StepResult } from '../protocols/strategy';
import { coreMetricNames, nodeMetricNames, strategyMetricNames, type MetricName, type Scenario } from '../scenario/schema';
import { History, type Sha256Factory } from '../sim/history';
import { Network, quantize, type DropReason } from '../sim/network';
import { rngFor, type Rng } from '../sim/rng';
import { EventQueue } from '../sim/scheduler';
import type { Action, ActionKind, HistoryEvent, MessageKind, Message, MetricSample, NodeId, NodeRole, SimTime } from '../sim/types';
import { equalVectors, fingerprint } from '../sim/vectors';
import type { Evaluation, GradientResult, Trainer } from '../train/types';
import type { ExpectationResult, InFlight, LinkView, NodeView, RunSummary } from './api';
import { parseAction } from '../scenario/actions';
import { noWire } from '../scenario/validate';
import { compare } from '../scenario/expectations';
import { clusterMetric, nodeMetric, type MetricState } from './metrics';
import { LossTracker, RoundDelays } from './targets';
import { FactsRecorder } from './factsRecorder';
import { runIndexFor, type RunIndex } from './index/runIndex';
import { runStateAt, type NodeState, type RunState, type RunStatic } from './index/runState';
import { SnapshotSeries } from './snapshots';
import { SecurityLayer } from './security/layer';
import { Adversaries } from './security/byzantine';
import type { Outgoing } from './security/mitm';
import { expectationsFor } from '../scenario/variants';

/** A timeline entry's `on` (CURRICULUM §C.1): the event that fires it. */
type Trigger = { event: string; node?: NodeId; after?: number };

/**
 * The co-simulation engine: a discrete-event loop over the simulated network, one strategy
 * plugin and a Trainer that computes real gradients (DESIGN "The co-simulation loop").
 * Compute *durations* are modelled from the scenario and seeded draws; compute *values* come
 * from tfjs. A step's completion event is held until its value has arrived, so a slow machine
 * changes the pace of the animation, never the outcome.
 */

type Ev =
  | { k: 'action'; action: Action; source: 'timeline' | 'user'; on?: Trigger }
  | { k: 'deliver'; msg: Message }
  | { k: 'lost'; msg: Message }
  | { k: 'stepDone'; node: NodeId; step: number; basedOn: number; inc: number; pending: Promise<GradientResult>; transient: boolean }
  | { k: 'timer'; node: NodeId; tag: string; data: unknown; inc: number }
  | { k: 'sample' }
  | { k: 'expect'; index: number }
  | { k: 'end' };

/** A timeline action fired by an event runs right after that event, before others due at the same time. */
const PRIO_TRIGGERED = -1;
/** Probes run after every ordinary event at their time, so they see the settled state. */
const PRIO_SAMPLE = 1;
const PRIO_EXPECT = 2;
const PRIO_END = 3;
/**
 * A user's action applies after everything else due at its time: when the user acted, the live
 * run had processed every event up to that instant, so a replay of the exported run (where it is a
 * timeline entry marked "by": "user") must order it the same way to reproduce the schedule.
 */
const PRIO_USER = 4;

interface NodeRt {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  failed?: string;
  /** Bumped on crash and restart: timers and steps of an earlier incarnation are void. */
  inc: number;
  slowFactor: number;
  straggler: number;
  steps: number;
  computing: boolean;
  replica: ReplicaRt;
  /** Times of steps that count for availability (ascending). */
  counted: number[];
  eval?: Evaluation;
  bytesSent: number;
  computeRng: Rng;
  /** Its own stream, so scenarios without compute.transient keep their schedules. */
  transientRng: Rng;
}

interface ReplicaRt {
  params: Float32Array;
  version: number;
  synced: number;
  /**
   * Holds exactly the state the authoritative lineage had at `version` (synced, no local steps
   * on top, same parameters as the first replica seen at that version). Two such replicas only
   * lag one another: the divergence metrics do not count them (metrics.ts).
   */
  onLineage: boolean;
}

export interface SimulationOptions {
  trainer: Trainer;
  /** Simulated ms between loss/accuracy samples of every worker (0: none). Default 250. */
  sampleEveryMs?: number;
  /** SHA-256 implementation for the hashes (default: pure JS; Node may pass its native one). */
  sha256?: Sha256Factory;
  /**
   * Tests: after every event, check that every node's facts and log equal what the history
   * recorded (a strategy that changed another node without `ctx.touch` then fails the run).
   */
  verifyFacts?: boolean;
}

export class Simulation {
  readonly history: History;
  readonly durationMs: number;
  private readonly queue = new EventQueue<Ev>();
  private readonly network: Network;
  private readonly strategy: Strategy;
  private readonly rt = new Map<NodeId, NodeRt>();
  private readonly workerIds: NodeId[];
  private readonly serverIds: NodeId[];
  private readonly brokerIds: NodeId[];
  private readonly init: Float32Array;
  private readonly inflight = new Map<number, InFlight>();
  private readonly results: ExpectationResult[];
  private readonly snapshots = new Map<NodeId, SnapshotSeries>();
  private readonly appliedTaus: Array<{ t: number; node: NodeId; tau: number }> = [];
  private readonly losses: LossTracker;
  private readonly roundDelays = new RoundDelays();
  private readonly recorder: FactsRecorder;
  private readonly verifyFacts: boolean;
  /** Integrity, replay protection and men-in-the-middle between the strategy and the network. */
  private readonly security: SecurityLayer;
  /** Workers the engine drives as Byzantine (their gradients are replaced before the strategy sends them). */
  private readonly adversaries: Adversaries;
  /** Timeline entries waiting for their `on` event; each fires once, at the first match. */
  private readonly triggers: Array<{ on: Trigger; action: Action; fired: boolean }> = [];
  /** Fingerprint of the first replica seen at each authoritative version (see ReplicaRt.onLineage). */
  private readonly lineage = new Map<number, string>();
  /** The user's actions as recorded in the history (`action` events with source 'user'). */
  private readonly userActionLog: Array<{ t: SimTime; action: Action }> = [];
  readonly cap: CapClass;
  private t = 0;
  private nextMsgId = 0;
  private nextOpId = 0;
  private violations = 0;
  private messages = 0;
  private bytes = 0;
  private dropped = 0;
  private busy = false;
  private ended = false;
  failure: string | null = null;

  static async create(scenario: Scenario, opts: SimulationOptions): Promise<Simulation> {
    return new Simulation(scenario, opts);
  }

  private constructor(
    readonly scenario: Scenario,
    opts: SimulationOptions,
  ) {
    this.trainer = opts.trainer;
    this.history = new History(opts.sha256);
    this.durationMs = scenario.durationMs;
    const c = scenario.cluster;
    this.workerIds = range(c.workers).map((i) => `w${i}`);
    this.serverIds = range(c.servers).map((i) => `s${i}`);
    this.brokerIds = range(c.brokers).map((i) => `b${i}`);
    const all = [...this.workerIds, ...this.serverIds, ...this.brokerIds];
    this.init = opts.trainer.initialParams();
    if (this.init.length !== opts.trainer.paramCount) throw new Error('trainer returned a wrong parameter count');
    this.lineage.set(0, fingerprint(this.init));
    this.cap = capOf(scenario.strategy);
    const seed = scenario.seed;
    this.network = new Network(all, { ...scenario.network }, rngFor(seed, 'network'));
    for (const id of all) {
      const role: NodeRole = id[0] === 'w' ? 'worker' : id[0] === 's' ? 'server' : 'broker';
      const straggler = scenario.compute.stragglers.filter((s) => s.node === id).reduce((a, s) => a * s.slowdown, 1);
      this.rt.set(id, {
        id,
        role,
        up: true,
        inc: 0,
        slowFactor: 1,
        straggler,
        steps: 0,
        computing: false,
        replica: { params: this.init.slice(), version: 0, synced: 0, onLineage: true },
        counted: [],
        bytesSent: 0,
        computeRng: rngFor(seed, `compute:${id}`),
        transientRng: rngFor(seed, `transient:${id}`),
      });
    }
    this.losses = new LossTracker(scenario.model.targetLoss, 10 * scenario.compute.stepMs);
    this.adversaries = new Adversaries(this.workerIds, (n) => rngFor(seed, `byzantine:${n}`));
    this.strategy = createStrategy(scenario.strategy, this.context());
    this.security = new SecurityLayer(scenario.security, {
      seed,
      workers: this.workerIds,
      codec: this.strategy.wire,
      incarnation: (n) => this.node(n).inc,
      tamperOn: (from, to) => this.network.tamper(from, to),
      note: (what, node, data) => this.history.append({ t: this.t, type: 'note', node, what, data } as HistoryEvent),
    });
    this.recorder = new FactsRecorder(this.strategy, all, (e) => this.history.append(e));
    this.verifyFacts = opts.verifyFacts ?? false;
    this.history.onAppend((e) => {
      if (this.triggers.length > 0 && (e.type === 'note' || e.type === 'action')) this.fireTriggers(e);
      if (e.type !== 'note') return;
      if (e.what === 'apply') this.appliedTaus.push({ t: e.t, node: e.data.worker, tau: e.data.staleness });
      else if (e.what === 'merge') this.losses.onMerge(e.t);
    });
    for (const entry of scenario.timeline) {
      // `who` (who did it, in a live room's export) is a label for people; the engine ignores it.
      const { at, on, by, who: _who, ...rest } = entry;
      const action = rest as Action;
      if (on) this.triggers.push({ on, action, fired: false });
      else if (at !== undefined && by === 'user') this.queue.push(at, { k: 'action', action, source: 'user' }, PRIO_USER);
      else if (at !== undefined) this.queue.push(at, { k: 'action', action, source: 'timeline' });
    }
    // The base run holds the expectations without `variant` (and "*"); a variant's run gets its own.
    this.results = expectationsFor(scenario.expect, null).map((e) => ({
      ...e,
      time: e.at === 'end' ? this.durationMs : Math.min(e.at, this.durationMs),
      actual: null,
      pass: null,
    }));
    this.results.forEach((r, index) => this.queue.push(r.time, { k: 'expect', index }, PRIO_EXPECT));
    // Metrics are sampled on the simulated clock — a fixed period, every expectation time and the
    // end — never by the screen: the charts and `--samples` plot the same points.
    const every = opts.sampleEveryMs ?? 250;
    if (every > 0) {
      const times = new Set<number>();
      for (let s = 0; s <= this.durationMs; s += every) times.add(s);
      for (const r of this.results) times.add(r.time);
      times.add(this.durationMs);
      for (const s of [...times].sort((a, b) => a - b)) this.queue.push(s, { k: 'sample' }, PRIO_SAMPLE);
    }
    this.queue.push(this.durationMs, { k: 'end' }, PRIO_END);
    this.strategy.start();
    this.recorder.touchAll();
    this.recorder.flush(0);
  }

  readonly trainer: Trainer;

  now(): SimTime {
    return this.t;
  }

  get done(): boolean {
    return this.ended;
  }

  get strategyKind(): string {
    return this.strategy.kind;
  }


  // ---------------------------------------------------------------- the strategy's view of the world

  private context(): StrategyContext {
    const sc = this.scenario;
    return {
      workers: this.workerIds,
      servers: this.serverIds,
      brokers: this.brokerIds,
      paramCount: this.init.length,
      learningRate: sc.model.learningRate,
      stepMs: sc.compute.stepMs,
      now: () => this.t,
      isUp: (n) => this.node(n).up,
      send: (from, to, kind, payload, bytes) => this.send(from, to, kind, payload, bytes),
      setTimer: (node, delay, tag, data) => {
        this.queue.push(quantize(this.t + delay), { k: 'timer', node, tag, data, inc: this.node(node).inc });
      },
      startStep: (w, key) => this.startStep(w, key),
      isComputing: (w) => this.node(w).computing,
      replica: (w): Replica => this.node(w).replica,
      setReplica: (w, params, version, synced) => {
        const n = this.node(w);
        const copy = params.slice();
        const hash = fingerprint(copy);
        if (version === synced && !this.lineage.has(version)) this.lineage.set(version, hash);
        n.replica = { params: copy, version, synced, onLineage: version === synced && this.lineage.get(version) === hash };
        this.history.append({ t: this.t, type: 'version', node: w, version, synced, v: { hash } });
        if (this.promisesOneStatePerVersion()) this.checkSameVersionSameParams(w);
      },
      counted: (w) => {
        this.node(w).counted.push(this.t);
        this.history.append({ t: this.t, type: 'counted', node: w });
      },
      // The generic K cannot be narrowed to one member of the Note union; the parameters' types tie it.
      note: (what, node, data) => this.history.append({ t: this.t, type: 'note', node, what, data } as HistoryEvent),
      touch: (node) => this.recorder.touch(node),
      initialParams: () => this.init.slice(),
      rng: (stream) => rngFor(sc.seed, `strategy:${stream}`),
      op: (process, op, f, opId, version, params) => {
        const id = opId ?? ++this.nextOpId;
        const e = { t: this.t, type: 'op' as const, process, op, f, opId: id };
        const withVersion = version === undefined ? e : { ...e, version };
        this.history.append(params ? { ...withVersion, v: { hash: fingerprint(params) } } : withVersion);
        return id;
      },
      violation: (invariant, detail) => this.recordViolation(invariant, detail),
      isByzantine: (w) => this.adversaries.isByzantine(w),
    };
  }

  /** Strategies whose replicas at one version must hold identical parameters (checked on every version change). */
  private promisesOneStatePerVersion(): boolean {
    const c = this.cap.consistency;
    return c === 'linearizable' || c === 'lockstep' || c === 'committed-prefix';
  }

  private recordViolation(invariant: string, detail: string): void {
    this.violations++;
    this.history.append({ t: this.t, type: 'violation', invariant, detail });
  }

  /** Invariants checked after every event: the strategy's own, and C for strategies that promise it. */
  private checkInvariants(): void {
    const found = this.strategy.checkInvariants?.();
    if (found) for (const v of found) this.recordViolation(v.invariant, v.detail);
  }

  /** A strong strategy promises: live workers at one version hold identical parameters. */
  private checkSameVersionSameParams(w: NodeId): void {
    const me = this.node(w).replica;
    for (const id of this.workerIds) {
      if (id === w) continue;
      const o = this.node(id);
      if (o.up && o.replica.version === me.version && !equalVectors(o.replica.params, me.params)) {
        this.recordViolation('same-version-same-params', `${w} and ${id} hold different parameters at version ${me.version}`);
      }
    }
  }

  private node(id: NodeId): NodeRt {
    const n = this.rt.get(id);
    if (!n) throw new Error(`unknown node ${id}`);
    return n;
  }

  private startStep(w: NodeId, batchKey?: number): boolean {
    const n = this.node(w);
    if (!n.up || n.computing) return false;
    const sc = this.scenario;
    n.computing = true;
    const step = n.steps + 1;
    const u = n.computeRng.next();
    const tr = sc.compute.transient;
    const transient = tr !== undefined && n.transientRng.chance(tr.p);
    const duration = sc.compute.stepMs * n.slowFactor * n.straggler * (transient ? tr.slowdown : 1) * (1 + sc.compute.jitter * (2 * u - 1));
    const batchRng = rngFor(sc.seed, `batch:${w}:${batchKey ?? step}`);
    const batch = new Uint32Array(sc.model.batchSize);
    for (let i = 0; i < batch.length; i++) batch[i] = batchRng.int(0, this.trainer.samples - 1);
    const due = quantize(this.t + duration);
    const basedOn = n.replica.version;
    const pending = this.trainer.gradient({ node: w, params: n.replica.params.slice(), batch, priority: due });
    pending.catch(() => undefined); // handled when the completion event is processed
    this.history.append({ t: this.t, type: 'stepStart', node: w, step, version: basedOn, due });
    if (transient) this.history.append({ t: this.t, type: 'note', node: w, what: 'transient', data: { step, slowdown: tr.slowdown } });
    this.queue.push(due, { k: 'stepDone', node: w, step, basedOn, inc: n.inc, pending, transient });
    return true;
  }

  private send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): void {
    if (!this.node(from).up) return;
    this.node(to); // unknown destination is a protocol bug: fail loudly
    // The security layer seals the message; an attacker on the link may alter it or put a replay before it.
    for (const out of this.security.outgoing(from, to, kind, payload, bytes)) this.transmit(from, to, out);
  }

  private transmit(from: NodeId, to: NodeId, out: Outgoing): void {
    const tx = this.network.transmit(from, to, out.bytes, this.t);
    const msg: Message = { id: ++this.nextMsgId, from, to, kind: out.kind, bytes: out.bytes, payload: out.payload, sentAt: this.t };
    if (out.sec) msg.sec = out.sec;
    if (out.tampered) msg.tampered = out.tampered;
    this.recordSend(msg, tx.due, undefined, out.forged);
    if (tx.dropped === 'cut' || tx.dropped === 'partition') {
      this.drop(msg, tx.dropped);
    } else if (tx.dropped === 'loss') {
      this.queue.push(tx.due, { k: 'lost', msg });
    } else {
      this.queue.push(tx.due, { k: 'deliver', msg });
      if (tx.duplicateDue !== undefined) {
        const copy: Message = { ...msg, id: ++this.nextMsgId };
        this.recordSend(copy, tx.duplicateDue, msg.id, out.forged);
        this.queue.push(tx.duplicateDue, { k: 'deliver', msg: copy });
      }
    }
  }

  private recordSend(msg: Message, due: number, dupOf?: number, forged?: true): void {
    this.messages++;
    this.bytes += msg.bytes;
    // A forged message is on the wire, but its sender did not send it.
    if (!forged) this.node(msg.from).bytesSent += msg.bytes;
    const e = { t: this.t, type: 'send' as const, id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, bytes: msg.bytes, due };
    const marked = forged ? { ...e, forged } : e;
    this.history.append(dupOf === undefined ? marked : { ...marked, dupOf });
    this.inflight.set(msg.id, { id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, bytes: msg.bytes, sentAt: this.t, due });
  }

  private drop(msg: Message, reason: DropReason): void {
    this.dropped++;
    this.inflight.delete(msg.id);
    this.history.append({ t: this.t, type: 'drop', id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, reason, sentAt: msg.sentAt });
  }

  // ---------------------------------------------------------------- the event loop

  /** Process events up to simulated time `until` (capped at the end), within a wall-clock budget. */
  async advanceTo(until: SimTime, opts: { wallBudgetMs?: number } = {}): Promise<void> {
    if (this.busy || this.ended || this.failure) return;
    this.busy = true;
    const target = quantize(Math.min(until, this.durationMs));
    const budget = opts.wallBudgetMs ?? Infinity;
    const start = wallNow();
    try {
      let n = 0;
      let overBudget = false;
      for (;;) {
        const next = this.queue.peek();
        if (!next || next.time > target) {
          if (target > this.t) this.t = target;
          break;
        }
        // Out of budget: stop, but only between two instants, never inside one — then every event
        // at or before now has run whenever the user can act (see PRIO_USER).
        if (overBudget && next.time > this.t) break;
        const pending = this.processNext();
        if (pending) await pending;
        if (this.ended || this.failure) break;
        if (++n % 16 === 0 && wallNow() - start > budget) overBudget = true;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Process exactly one event (the single-step control). */
  async stepEvent(): Promise<void> {
    if (this.busy || this.ended || this.failure) return;
    this.busy = true;
    try {
      const pending = this.processNext();
      if (pending) await pending;
    } finally {
      this.busy = false;
    }
  }

  nextEventTime(): SimTime | null {
    return this.queue.peek()?.time ?? null;
  }

  async runToEnd(opts: { untilMs?: number; onProgress?: (t: number) => void } = {}): Promise<RunSummary> {
    const until = Math.min(opts.untilMs ?? this.durationMs, this.durationMs);
    // Loop on what is left to process, not on the clock: when a time slice ends at `until` with
    // events still due at that very time (expectations, the end), they must run too.
    while (!this.ended && !this.failure) {
      const next = this.nextEventTime();
      if (next === null || next > until) {
        if (until > this.t) this.t = until;
        break;
      }
      await this.advanceTo(until, { wallBudgetMs: 200 });
      opts.onProgress?.(this.t);
    }
    if (this.failure) throw new Error(this.failure);
    if (!this.ended) await this.evaluateWorkers(); // stopped early with --until
    return this.summary();
  }

  /**
   * Processes one event. Most events are handled synchronously; only those that wait for a tfjs
   * value return a promise — awaiting every event would cost a microtask turn each.
   */
  private processNext(): void | Promise<void> {
    const item = this.queue.pop();
    if (!item) return;
    this.t = item.time;
    let pending: void | Promise<void>;
    try {
      pending = this.handle(item.event);
    } catch (err) {
      return this.fail(err);
    }
    if (pending) return pending.then(() => this.afterEvent(), (err: unknown) => this.fail(err));
    this.afterEvent();
  }

  private afterEvent(): void {
    try {
      this.recorder.flush(this.t);
      if (this.verifyFacts) this.recorder.verifyAll(this.t);
      if (this.strategy.checkInvariants) this.checkInvariants();
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failure = `simulation error at t=${Math.round(this.t)} ms: ${err instanceof Error ? err.message : String(err)}`;
  }

  private handle(ev: Ev): void | Promise<void> {
    switch (ev.k) {
      case 'action':
        this.applyNow(ev.action, ev.source, ev.on);
        return;
      case 'deliver': {
        const { msg } = ev;
        const blocked = this.network.blocked(msg.from, msg.to);
        if (blocked) return this.drop(msg, blocked); // the partition began while it was in flight
        if (!this.node(msg.to).up) return this.drop(msg, 'down');
        const verdict = this.security.incoming(msg);
        if (verdict !== 'ok') return this.drop(msg, verdict); // refused by its integrity check or replay protection
        this.inflight.delete(msg.id);
        this.history.append({ t: this.t, type: 'deliver', id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, sentAt: msg.sentAt });
        this.recorder.touch(msg.to);
        this.strategy.onMessage(msg);
        return;
      }
      case 'lost':
        return this.drop(ev.msg, 'loss');
      case 'timer': {
        const n = this.node(ev.node);
        if (n.up && n.inc === ev.inc) {
          this.recorder.touch(ev.node);
          this.strategy.onTimer(ev.node, ev.tag, ev.data);
        }
        return;
      }
      case 'stepDone':
        return this.completeStep(ev);
      case 'sample':
        return this.sample();
      case 'expect':
        return this.checkExpectation(ev.index);
      case 'end':
        return this.evaluateWorkers().then(() => {
          this.history.append({ t: this.t, type: 'end' });
          this.ended = true;
        });
    }
  }

  private async completeStep(ev: Extract<Ev, { k: 'stepDone' }>): Promise<void> {
    const n = this.node(ev.node);
    if (!n.up || n.inc !== ev.inc) return; // the node crashed meanwhile: the result is lost with it
    let r: GradientResult;
    try {
      r = await ev.pending;
    } catch (err) {
      this.failNode(ev.node, err instanceof Error ? err.message : String(err));
      return;
    }
    n.computing = false;
    n.steps = ev.step;
    this.history.append({ t: this.t, type: 'stepDone', node: ev.node, step: ev.step, version: ev.basedOn, v: { loss: r.loss } });
    this.recorder.touch(ev.node);
    // A Byzantine worker's program sends the attack's gradient instead of the true one.
    const grad = this.adversaries.gradient(ev.node, r.grad);
    const result: StepResult = { step: ev.step, grad, loss: r.loss, basedOn: ev.basedOn, ...(ev.transient ? { transient: true } : {}) };
    this.roundDelays.onStep(ev.node, ev.basedOn, ev.transient);
    this.strategy.onStepDone(ev.node, result);
  }

  /** A worker whose training code threw: mark it failed (and down) and carry on without it. */
  private failNode(id: NodeId, message: string): void {
    const n = this.node(id);
    n.failed = message;
    this.crash(id, message);
  }

  private async sample(): Promise<void> {
    const live = this.workerIds.map((id) => this.node(id)).filter((n) => n.up);
    const evals = await Promise.all(live.map((n) => this.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
    live.forEach((n, i) => {
      const e = evals[i];
      if (!e) return;
      n.eval = e;
      let snaps = this.snapshots.get(n.id);
      if (!snaps) this.snapshots.set(n.id, (snaps = new SnapshotSeries()));
      snaps.push({ t: this.t, params: n.replica.params.slice() });
    });
    const sampled = evals.filter((e): e is Evaluation => !!e);
    const clusterLoss = sampled.length ? sampled.reduce((a, e) => a + e.loss, 0) / sampled.length : null;
    if (this.losses.onSample(this.t, this.totalSteps(), clusterLoss)) {
      this.history.append({ t: this.t, type: 'note', what: 'targetReached', data: { steps: this.totalSteps() } });
    }
    this.history.append({ t: this.t, type: 'metrics', v: this.metricSample() });
  }

  /** Every metric the run defines now: cluster-wide, and per node where the metric has a node form. */
  metricSample(): MetricSample {
    // One instant: the engine's state (and the strategy's counters) is read once for every metric.
    const st = this.oneMetricState();
    const cluster: Record<string, number | null> = {};
    const all = this.metrics(st);
    for (const k of Object.keys(all) as MetricName[]) cluster[k] = all[k] ?? null;
    const nodes: Record<NodeId, Record<string, number | null>> = {};
    for (const id of this.rt.keys()) {
      const row: Record<string, number | null> = {};
      for (const m of nodeMetricNames) {
        const v = this.metricIn(st, m, id);
        if (v !== null) row[m] = v;
      }
      nodes[id] = row;
    }
    return { cluster, nodes };
  }

  private async evaluateWorkers(): Promise<void> {
    const live = this.workerIds.map((id) => this.node(id)).filter((n) => n.up);
    const evals = await Promise.all(live.map((n) => this.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
    live.forEach((n, i) => {
      if (evals[i]) n.eval = evals[i]!;
    });
  }

  private async checkExpectation(index: number): Promise<void> {
    const r = this.results[index];
    if (r.metric === 'loss' || r.metric === 'accuracy') await this.evaluateWorkers();
    const actual = this.metric(r.metric, r.node);
    r.actual = actual;
    r.pass = compare(actual, r.op, r.value, r.tolerance ?? 0);
  }

  private totalSteps(): number {
    let s = 0;
    for (const id of this.workerIds) s += this.node(id).steps;
    return s;
  }

  // ---------------------------------------------------------------- actions (DESIGN rule 5)

  /** Apply an action now. Invalid actions are refused with a message and change nothing. */
  /**
   * Apply an action now (a user's, or a test's). Invalid actions are refused with a message and
   * change nothing. The action is queued at the current instant after everything else due then
   * (PRIO_USER) and runs at once unless an advance is in flight, which then runs it in order —
   * so a run with user actions replays exactly from its exported timeline.
   */
  apply(action: Action, source: 'user' | 'timeline' = 'user'): { ok: true } | { ok: false; error: string } {
    const resolved = this.resolveSelectors(action);
    if (typeof resolved === 'string') return { ok: false, error: resolved };
    const parsed = parseAction(resolved, [...this.rt.keys()]);
    if (!parsed.ok) return parsed;
    if (parsed.action.do === 'tamper' && !this.strategy.wire) return { ok: false, error: `tamper: ${noWire(this.strategy.kind, 'alter')}` };
    if (this.ended) return { ok: false, error: 'the run has ended; restart it to try actions' };
    this.queue.push(this.t, { k: 'action', action: parsed.action, source }, PRIO_USER);
    if (!this.busy) this.drainNow();
    return { ok: true };
  }

  /**
   * Queue an action to apply at simulated time `at` (≥ now), after everything else due at that
   * instant — the same slot a timeline entry marked "by": "user" takes, so the run equals the
   * replay of its export. A live room uses it: the teacher's device picks a time a little ahead of
   * every device's clock, and each device schedules the action there. Refused (nothing queued) if
   * `at` is in the past, past the end, or the action is invalid.
   */
  schedule(action: Action, at: SimTime): { ok: true } | { ok: false; error: string } {
    if (!Number.isFinite(at)) return { ok: false, error: `at: ${at} is not a time` };
    if (at < this.t) return { ok: false, error: `at: ${at} is before now (${this.t}); an action cannot apply in the past` };
    if (at > this.durationMs) return { ok: false, error: `at: ${at} is after the end of the run (${this.durationMs})` };
    if (this.ended) return { ok: false, error: 'the run has ended; restart it to try actions' };
    // Node selectors resolve when the action fires, as they do for timeline entries.
    const parsed = parseAction(action, [...this.rt.keys()]);
    if (!parsed.ok) return parsed;
    this.queue.push(at, { k: 'action', action: parsed.action, source: 'user' }, PRIO_USER);
    if (at === this.t && !this.busy) this.drainNow();
    return { ok: true };
  }

  /** Runs what is due at the current instant (the action just queued, and what it causes now). */
  private drainNow(): void {
    for (let next = this.queue.peek(); next && next.time <= this.t && !this.ended && !this.failure; next = this.queue.peek()) {
      const pending = this.processNext();
      if (pending) {
        // Only a completed step waits for a value, and none is due in the instant of an action;
        // should one be, the next advance finishes it in order.
        this.busy = true;
        void pending.finally(() => (this.busy = false));
        return;
      }
    }
  }

  /**
   * Would the strategy act on a strategy-specific action (Raft's `timeout`) for this node? The
   * app offers such actions in menus and keys only where it would.
   */
  acceptsAction(kind: ActionKind, node: NodeId): boolean {
    return this.strategy.acceptsAction?.(kind, node) ?? false;
  }

  /** The user's actions so far, with the simulated times they applied (for export and share). */
  userActions(): Array<{ t: SimTime; action: Action }> {
    // Kept as they are recorded: the share dialog asks on every frame, and the history grows.
    return this.userActionLog.map((a) => ({ ...a }));
  }

  /** Node selectors such as "@leader" resolve when the action fires (CURRICULUM §C.1). */
  private resolveSelectors(action: Action): Action | string {
    if (action.do === 'partition') {
      const groups: NodeId[][] = [];
      for (const g of action.groups) {
        const resolved: NodeId[] = [];
        for (const id of g) {
          const r = id.startsWith('@') ? this.resolveOne(id) : id;
          if (r.startsWith('no ')) return r;
          if (!groups.some((x) => x.includes(r)) && !resolved.includes(r)) resolved.push(r);
        }
        groups.push(resolved);
      }
      return { ...action, groups };
    }
    if (action.do === 'cut' || action.do === 'restore' || action.do === 'link') {
      const from = action.from.startsWith('@') ? this.resolveOne(action.from) : action.from;
      if (from.startsWith('no ')) return from;
      const to = action.to.startsWith('@') ? this.resolveOne(action.to) : action.to;
      if (to.startsWith('no ')) return to;
      if (from === to) return `to: "${action.from}" and "${action.to}" are the same node now (${from}); a link joins two nodes`;
      return { ...action, from, to };
    }
    if (!('node' in action) || typeof action.node !== 'string' || !action.node.startsWith('@')) return action;
    const r = this.resolveOne(action.node);
    return r.startsWith('no ') ? r : { ...action, node: r };
  }

  /** A node id, or a message starting with "no " when the selector matches nothing now. */
  private resolveOne(sel: string): string {
    if (sel === '@crashed') return [...this.rt.values()].find((n) => !n.up)?.id ?? 'no crashed node for "@crashed"';
    return this.strategy.resolveSelector?.(sel) ?? `no node matches "${sel}" now`;
  }

  /**
   * Timeline `on` (CURRICULUM §C.1): a note named `event`, or an action event `action:<do>`, on
   * `node` if given, at or after `after`, fires the entry once; it runs at this simulated time,
   * right after the event being handled. Deterministic, because the history is.
   */
  private fireTriggers(e: Extract<HistoryEvent, { type: 'note' } | { type: 'action' }>): void {
    const name = e.type === 'note' ? e.what : `action:${e.action.do}`;
    const node = e.type === 'note' ? e.node : 'node' in e.action ? e.action.node : undefined;
    for (const tr of this.triggers) {
      if (tr.fired || tr.on.event !== name || e.t < (tr.on.after ?? 0)) continue;
      if (tr.on.node !== undefined && tr.on.node !== node) continue;
      tr.fired = true;
      this.queue.push(this.t, { k: 'action', action: tr.action, source: 'timeline', on: tr.on }, PRIO_TRIGGERED);
    }
  }

  private applyNow(requested: Action, source: 'user' | 'timeline', on?: Trigger): void {
    const resolved = this.resolveSelectors(requested);
    if (typeof resolved === 'string') {
      this.history.append({ t: this.t, type: 'note', what: 'actionSkipped', data: { selector: selectorOf(requested) } });
      return;
    }
    const action = resolved;
    this.history.append(on ? { t: this.t, type: 'action', action, source, on } : { t: this.t, type: 'action', action, source });
    if (source === 'user') this.userActionLog.push({ t: this.t, action });
    switch (action.do) {
      case 'partition':
      case 'heal':
      case 'cut':
      case 'restore':
      case 'link':
      case 'untamper':
        return this.network.apply(action);
      case 'tamper':
        this.network.apply(action);
        this.security.onTamper(action.from, action.to);
        return;
      case 'byzantine':
        this.adversaries.set(action.node, { attack: action.attack, ...(action.scale !== undefined ? { scale: action.scale } : {}) });
        this.recorder.touch(action.node);
        return;
      case 'honest':
        this.adversaries.clear(action.node);
        this.recorder.touch(action.node);
        return;
      case 'crash':
        return this.crash(action.node);
      case 'restart':
        return this.restart(action.node);
      case 'slow':
        this.node(action.node).slowFactor = action.factor;
        return;
      case 'timeout':
        this.recorder.touch(action.node);
        if (this.node(action.node).up && !this.strategy.onAction?.(action)) {
          this.history.append({ t: this.t, type: 'note', node: action.node, what: 'actionIgnored', data: { reason: 'no-election-timer' } });
        }
        return;
    }
  }

  private crash(id: NodeId, error?: string): void {
    const n = this.node(id);
    if (!n.up) return;
    n.up = false;
    n.inc++;
    n.computing = false;
    this.history.append(error ? { t: this.t, type: 'crash', node: id, error } : { t: this.t, type: 'crash', node: id });
    this.recorder.touch(id);
    this.strategy.onCrash(id);
  }

  private restart(id: NodeId): void {
    const n = this.node(id);
    if (n.up) return;
    n.up = true;
    n.failed = undefined;
    n.inc++;
    // The process starts empty: the strategy fetches state for it.
    n.replica = { params: this.init.slice(), version: 0, synced: 0, onLineage: true };
    this.history.append({ t: this.t, type: 'restart', node: id });
    this.security.onRestart(id);
    // The empty replica is a version change like any other: the history says so explicitly.
    if (n.role === 'worker') this.history.append({ t: this.t, type: 'version', node: id, version: 0, synced: 0, v: { hash: this.lineage.get(0)! } });
    this.recorder.touch(id);
    this.strategy.onRestart(id);
  }

  // ---------------------------------------------------------------- views and metrics

  /** The metric state, built on first use and then reused: for many metrics read at one instant. */
  private oneMetricState(): () => MetricState {
    let st: MetricState | null = null;
    return () => (st ??= this.metricState());
  }

  private metricState(): MetricState {
    return {
      now: this.t,
      windowMs: 10 * this.scenario.compute.stepMs,
      workers: this.workerIds.map((id) => this.node(id)),
      authoritative: this.strategy.authoritativeVersion(),
      nodeVersion: (id) => (this.node(id).role === 'worker' ? this.node(id).replica.version : this.strategy.nodeVersion(id)),
      allNodes: [...this.rt.values()],
      counters: {
        bytes: this.bytes,
        messages: this.messages,
        dropped: this.dropped,
        lostUpdates: this.strategy.lostUpdates(),
        // Replays an attacker got accepted are old updates applied again.
        duplicateUpdates: this.strategy.duplicateUpdates() + this.security.replaysAccepted,
      },
      appliedTaus: this.appliedTaus,
    };
  }

  metric(name: MetricName, node?: NodeId): number | null {
    return this.metricIn(() => this.metricState(), name, node);
  }

  /** A metric, with the engine's state built by `state` only if a generic metric needs it. */
  private metricIn(state: () => MetricState, name: MetricName, node?: NodeId): number | null {
    if (node) this.node(node); // unknown node: fail loudly
    if (name === 'violations') return this.violations;
    const own = this.strategy.metric?.(name, node);
    if (own !== undefined) return own;
    const derived = this.derivedMetric(name);
    if (derived !== undefined) return derived;
    const st = state();
    return node ? nodeMetric(st, name, this.node(node)) : clusterMetric(st, name);
  }

  /** Metrics derived from loss samples and step draws (targets.ts); undefined for other names. */
  private derivedMetric(name: MetricName): number | null | undefined {
    switch (name) {
      case 'timeToTarget':
        return this.losses.timeToTarget();
      case 'stepsToTarget':
        return this.losses.stepsToTarget();
      case 'mergeLossSpike':
        return this.losses.mergeLossSpike();
      case 'tamperedAccepted':
        return this.security.tamperedAccepted;
      case 'tamperedRejected':
        return this.security.tamperedRejected;
      case 'replayRejected':
        return this.security.replayRejected;
      case 'delayedRounds':
        // Lock-step rounds (all-reduce): round r is computed on version r by every worker.
        return this.cap.consistency === 'lockstep' && this.scenario.compute.transient ? this.roundDelays.fraction(this.strategy.authoritativeVersion()) : undefined;
      default:
        return undefined;
    }
  }

  metrics(state?: () => MetricState): Partial<Record<MetricName, number | null>> {
    const st = state ?? this.oneMetricState();
    const out: Partial<Record<MetricName, number | null>> = {};
    for (const m of coreMetricNames) out[m] = this.metricIn(st, m);
    for (const m of strategyMetricNames) {
      if (out[m] !== undefined) continue;
      const own = this.strategy.metric?.(m);
      const v = own !== undefined ? own : this.derivedMetric(m);
      if (v !== undefined) out[m] = v;
    }
    return out;
  }

  expectations(): ExpectationResult[] {
    return this.results.map((r) => ({ ...r }));
  }

  nodes(): NodeView[] {
    return [...this.rt.values()].map((n) => ({
      id: n.id,
      role: n.role,
      up: n.up,
      ...(n.failed ? { failed: n.failed } : {}),
      version: n.role === 'worker' ? n.replica.version : this.strategy.nodeVersion(n.id),
      synced: n.replica.synced,
      steps: n.steps,
      slowFactor: n.slowFactor * n.straggler,
      computing: n.computing,
      backend: n.role === 'worker' ? this.trainer.backendFor(n.id) : '',
      ...(this.adversaries.spec(n.id) ? { byzantine: { ...this.adversaries.spec(n.id)! } } : {}),
    }));
  }

  links(): LinkView[] {
    const out: LinkView[] = [];
    for (const [a, b] of this.strategy.topology()) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ]) {
        const tamper = this.network.tamper(from, to);
        out.push({ from, to, cut: this.network.isCut(from, to), partitioned: this.network.isPartitioned(from, to), props: { ...this.network.props(from, to) }, ...(tamper ? { tamper: { ...tamper } } : {}) });
      }
    }
    return out;
  }

  partitionGroups(): NodeId[][] | null {
    return this.network.partitionGroups();
  }

  inFlight(): InFlight[] {
    return [...this.inflight.values()];
  }

  params(node: NodeId): Float32Array {
    return this.node(node).replica.params.slice();
  }

  /** Latest sampled evaluation of a worker (what the UI shows between samples). */
  evaluation(node: NodeId): Evaluation | undefined {
    return this.node(node).eval;
  }

  // ---------------------------------------------------------------- the history-derived read model

  /** What the history index needs beyond the history itself (cluster, strategy links, defaults). */
  runStatic(): RunStatic {
    return {
      nodes: [...this.rt.values()].map((n) => ({ id: n.id, role: n.role })),
      edges: this.strategy.topology(),
      network: { ...this.scenario.network },
      stragglers: this.scenario.compute.stragglers,
    };
  }

  /** The history, indexed (kept up to date incrementally). Views read the run at any t from here. */
  index(): RunIndex {
    return runIndexFor(this.history, [...this.rt.keys()]);
  }

  /** The run's state at t, from the history alone (t = now is the live screen). */
  stateAt(t: SimTime): RunState {
    return runStateAt(this.index(), this.runStatic(), t);
  }

  /**
   * The engine's own live node states, built from its runtime objects rather than the history:
   * tests compare them with `stateAt(now)` to prove the history holds everything a view shows.
   */
  liveNodeStates(): Array<Omit<NodeState, 'computing'> & { computing: boolean }> {
    return [...this.rt.values()].map((n) => ({
      id: n.id,
      role: n.role,
      up: n.up,
      ...(n.failed ? { failed: n.failed } : {}),
      version: n.replica.version,
      synced: n.replica.synced,
      steps: n.steps,
      slowFactor: n.slowFactor * n.straggler,
      computing: n.computing,
      facts: this.strategy.facts?.(n.id) ?? null,
      ...(this.adversaries.spec(n.id) ? { byzantine: { ...this.adversaries.spec(n.id)! } } : {}),
    }));
  }

  /** Terms of the node's live replicated log (tests compare them with the history's). */
  liveLog(node: NodeId): number[] | null {
    const l = this.strategy.logOf?.(node);
    return l ? l.entries.map((e) => l.item(e).term) : null;
  }

  /** The parameters a worker held at its newest loss sample at or before t (the replica tiles). */
  paramsAt(node: NodeId, t: SimTime): Float32Array | null {
    const best = this.snapshots.get(node)?.at(t);
    return best ? best.params.slice() : null;
  }

  scheduleHash(): string {
    return this.history.scheduleHash();
  }

  summary(): RunSummary {
    const metrics: RunSummary['metrics'] = {};
    const m = this.metrics();
    for (const k of Object.keys(m) as MetricName[]) {
      const v = m[k];
      if (v !== null && v !== undefined) metrics[k] = v;
    }
    const expectations = this.results.map((r) => ({
      at: r.at,
      metric: r.metric,
      ...(r.node ? { node: r.node } : {}),
      op: r.op,
      value: r.value,
      ...(r.tolerance !== undefined ? { tolerance: r.tolerance } : {}),
      actual: r.actual,
      pass: r.pass === true,
    }));
    return {
      scenario: this.scenario.id,
      seed: this.scenario.seed,
      strategy: this.scenario.strategy.kind,
      simTimeMs: this.t,
      events: this.history.length,
      params: this.init.length,
      scheduleHash: this.history.scheduleHash(),
      eventLogHash: this.history.eventLogHash(),
      metrics,
      nodes: [...this.rt.values()].map((n) => ({
        id: n.id,
        role: n.role,
        up: n.up,
        version: n.role === 'worker' ? n.replica.version : this.strategy.nodeVersion(n.id),
        steps: n.steps,
        ...(n.role === 'worker' && n.eval ? { loss: n.eval.loss, accuracy: n.eval.accuracy } : {}),
      })),
      expectations,
      pass: expectations.every((e) => e.pass),
    };
  }
}


/** The selector an action named where it takes a node (for the actionSkipped note). */
function selectorOf(a: Action): string {
  if ('node' in a && typeof a.node === 'string' && a.node.startsWith('@')) return a.node;
  if (a.do === 'partition') return a.groups.flat().find((id) => id.startsWith('@')) ?? '';
  if (a.do === 'cut' || a.do === 'restore' || a.do === 'link') return [a.from, a.to].find((id) => id.startsWith('@')) ?? '';
  return '';
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** Wall clock for time-slicing only: it decides how much work fits in a frame, never what happens. */
function wallNow(): number {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}
