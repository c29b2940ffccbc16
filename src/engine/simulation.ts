import type { CapClass, Strategy } from '../protocols';
import { CLIENT_TIMER } from '../protocols/coord/api';
import { loadCoordService, type CoordServiceFactory } from '../protocols/coord/create';
import { createStrategy, loadStrategy } from '../protocols/factory';
import type { StepResult } from '../protocols/strategy';
import { isComparison, type MetricName, type PlainExpectation, type Scenario } from '../scenario/schema';
import { hasLessonVerdicts, lessonSampleTimes } from '../scenario/lessonRefs';
import { baseIdOf, expectationsFor } from '../scenario/variants';
import { compare } from '../scenario/expectations';
import type { History, RunDigests, Sha256Factory } from '../sim/history';
import { quantize } from '../sim/network';
import type { Action, ActionKind, MetricSample, NodeId, SimTime } from '../sim/types';
import type { Evaluation, GradientResult, Trainer } from '../train/types';
import type { ExpectationResult, InFlight, LinkView, NodeView, RunSummary } from './api';
import { EngineCore } from './core';
import { FactsRecorder } from './factsRecorder';
import { FaultInjection } from './faultInjection';
import type { RunIndex } from './index/runIndex';
import type { NodeState, RunState, RunStatic } from './index/runState';
import { checkInvariants, coordContext, factsSource, securityHost, strategyContext } from './ports';
import { ReadModel } from './readModel';
import { SnapshotSeries } from './snapshots';
import { loadSecurity, scenarioNeedsSecurity } from './security/load';
import { SecurityPort } from './security/port';
import { PRIO_END, PRIO_EXPECT, PRIO_SAMPLE, PRIO_USER, stretched, type Ev } from './runtime';

export { stretched } from './runtime';

/**
 * The co-simulation engine: a discrete-event loop over the simulated network, one strategy
 * plugin and a Trainer that computes real gradients (DESIGN "The co-simulation loop").
 * Compute *durations* are modelled from the scenario and seeded draws; compute *values* come
 * from tfjs. A step's completion event is held until its value has arrived, so a slow machine
 * changes the pace of the animation, never the outcome.
 *
 * This module is the event loop and the engine's public surface. Its parts: core.ts (state and
 * primitives: network, timers, steps), ports.ts (what the strategy and the coordination service
 * see), faultInjection.ts (what actions do, pauses included), readModel.ts (metrics, views, the
 * history-derived state at any t), security/ (the layer every message passes: integrity, replay
 * protection, men-in-the-middle; Byzantine workers).
 */

export interface SimulationOptions {
  trainer: Trainer;
  /** Simulated ms between loss/accuracy samples of every worker (0: none). Default 250. */
  sampleEveryMs?: number;
  /**
   * SHA-256 implementation for the hashes (default: @noble/hashes, loaded when needed; Node may
   * pass its native one, the page a worker's).
   */
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
  readonly cap: CapClass;
  readonly trainer: Trainer;
  private readonly c: EngineCore;
  // Kept as fields of their own: tests reach the running strategy through `strategy`.
  private readonly strategy: Strategy;
  private readonly faults: FaultInjection;
  private readonly read: ReadModel;
  private readonly verifyFacts: boolean;
  private busy = false;
  private ended = false;
  failure: string | null = null;

  /**
   * The one way to build a run: it loads the code the scenario needs — its strategy, and the
   * coordination service if the cluster has one — which the page fetches only then (issue 9).
   */
  static async create(scenario: Scenario, opts: SimulationOptions): Promise<Simulation> {
    const [coord, sha256] = await Promise.all([Simulation.loadCode(scenario), opts.sha256 ?? defaultSha256()]);
    return new Simulation(scenario, { ...opts, sha256 }, coord);
  }

  /**
   * Loads the code a run of `scenario` needs — its strategy, with c-nodes the coordination
   * service, and with a security block or a tamper or Byzantine entry the security code (memoised:
   * calling it early, e.g. while the training workers start, makes `create` find it loaded).
   */
  static async loadCode(scenario: Scenario): Promise<CoordServiceFactory | null> {
    const [coord] = await Promise.all([
      scenario.cluster.coord > 0 ? loadCoordService(scenario.coordination) : null,
      loadStrategy(scenario.strategy),
      scenarioNeedsSecurity(scenario) ? loadSecurity() : null,
    ]);
    return coord;
  }

  private constructor(
    readonly scenario: Scenario,
    opts: SimulationOptions & { sha256: Sha256Factory },
    coordService: CoordServiceFactory | null,
  ) {
    this.trainer = opts.trainer;
    const c = (this.c = new EngineCore(scenario, opts.trainer, opts.sha256));
    this.history = c.history;
    this.durationMs = c.durationMs;
    this.cap = c.cap;
    // The base run holds the expectations without `variant` (and "*"); a variant's run gets its own.
    // Comparisons with another run or time are judged after the runs, from the samples (lessonVerdict.ts).
    const results = expectationsFor(scenario.expect, null, baseIdOf(scenario))
      .filter((e): e is PlainExpectation & { variant?: string } => !isComparison(e) && e.value !== undefined)
      .map((e) => ({
        ...e,
        time: e.at === 'end' ? this.durationMs : Math.min(e.at, this.durationMs),
        actual: null,
        pass: null,
      }));
    const read = (this.read = new ReadModel(c, results));
    this.faults = new FaultInjection(c);
    c.coord = coordService ? coordService(coordContext(c)) : null;
    this.strategy = c.strategy = createStrategy(scenario.strategy, strategyContext(c));
    c.security = new SecurityPort(scenario.security, securityHost(c));
    c.recorder = new FactsRecorder(factsSource(c), c.allIds, (e) => c.history.append(e));
    this.verifyFacts = opts.verifyFacts ?? false;
    this.history.onAppend((e) => {
      read.rounds?.onEvent(e);
      if (this.faults.hasTriggers && (e.type === 'note' || e.type === 'action')) this.faults.fireTriggers(e);
      if (e.type !== 'note') return;
      if (e.what === 'apply') read.appliedTaus.push({ t: e.t, node: e.data.worker, tau: e.data.staleness });
      else if (e.what === 'merge') read.losses.onMerge(e.t);
    });
    for (const entry of scenario.timeline) {
      // `who` (who did it, in a live room's export) is a label for people; the engine ignores it.
      const { at, on, by, who: _who, ...rest } = entry;
      const action = rest as Action;
      if (on) this.faults.addTrigger(on, action);
      else if (at !== undefined && by === 'user') c.queue.push(at, { k: 'action', action, source: 'user' }, PRIO_USER);
      else if (at !== undefined) c.queue.push(at, { k: 'action', action, source: 'timeline' });
    }
    results.forEach((r, index) => c.queue.push(r.time, { k: 'expect', index }, PRIO_EXPECT));
    // Metrics are sampled on the simulated clock — a fixed period, every expectation time, every
    // time the lesson reads (lessonRefs.ts) and the end — never by the screen: the charts,
    // `--samples` and the lesson's comparisons read the same points.
    const every = opts.sampleEveryMs ?? 250;
    const times = new Set<number>();
    const lessonTimes = lessonSampleTimes(scenario).filter((t) => t <= this.durationMs);
    if (every > 0) {
      for (let s = 0; s <= this.durationMs; s += every) times.add(s);
      for (const r of results) times.add(r.time);
      for (const t of lessonTimes) times.add(t);
      times.add(this.durationMs);
    } else if (hasLessonVerdicts(scenario) || (scenario.sampleAt?.length ?? 0) > 0) {
      // Without the period, still every time a comparison reads (a variant carries them in sampleAt).
      for (const t of lessonTimes) times.add(t);
      times.add(this.durationMs);
    }
    for (const s of [...times].sort((a, b) => a - b)) c.queue.push(s, { k: 'sample' }, PRIO_SAMPLE);
    c.queue.push(this.durationMs, { k: 'end' }, PRIO_END);
    c.coord?.start();
    this.strategy.start();
    c.recorder.touchAll();
    c.recorder.flush(0);
  }

  now(): SimTime {
    return this.c.t;
  }

  get done(): boolean {
    return this.ended;
  }

  get strategyKind(): string {
    return this.strategy.kind;
  }

  // ---------------------------------------------------------------- the event loop

  /**
   * Process events up to simulated time `until` (capped at the end), within a wall-clock budget.
   * `interrupt` (the page: is a user's input waiting?) ends the slice early, as the budget does:
   * between two instants, so it changes where a slice ends, never which events run or in what order.
   */
  async advanceTo(until: SimTime, opts: { wallBudgetMs?: number; interrupt?: () => boolean } = {}): Promise<void> {
    if (this.busy || this.ended || this.failure) return;
    this.busy = true;
    const c = this.c;
    const target = quantize(Math.min(until, this.durationMs));
    const budget = opts.wallBudgetMs ?? Infinity;
    const interrupt = opts.interrupt;
    const start = wallNow();
    try {
      let n = 0;
      let overBudget = false;
      for (;;) {
        const next = c.queue.peek();
        if (!next || next.time > target) {
          if (target > c.t) c.t = target;
          break;
        }
        // Out of budget: stop, but only between two instants, never inside one — then every event
        // at or before now has run whenever the user can act (see PRIO_USER).
        if (overBudget && next.time > c.t) break;
        const pending = this.processNext();
        // An event that waited for a worker may have taken a frame's worth of wall time alone:
        // look at the clock after each one (reading it after every cheap event would cost more).
        if (pending) await pending;
        if (this.ended || this.failure) break;
        if ((++n % 16 === 0 || pending) && (wallNow() - start > budget || interrupt?.())) overBudget = true;
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

  /** Events the scheduler has run so far (deliveries, timers, steps, probes…): the history records only some of them. */
  get eventsProcessed(): number {
    return this.c.eventSeq;
  }

  nextEventTime(): SimTime | null {
    return this.c.queue.peek()?.time ?? null;
  }

  async runToEnd(opts: { untilMs?: number; onProgress?: (t: number) => void } = {}): Promise<RunSummary> {
    const until = Math.min(opts.untilMs ?? this.durationMs, this.durationMs);
    // Loop on what is left to process, not on the clock: when a time slice ends at `until` with
    // events still due at that very time (expectations, the end), they must run too.
    while (!this.ended && !this.failure) {
      const next = this.nextEventTime();
      if (next === null || next > until) {
        if (until > this.c.t) this.c.t = until;
        break;
      }
      await this.advanceTo(until, { wallBudgetMs: 200 });
      opts.onProgress?.(this.c.t);
    }
    if (this.failure) throw new Error(this.failure);
    if (!this.ended) await this.evaluateWorkers(); // stopped early with --until
    return this.summaryAsync();
  }

  /**
   * Processes one event. Most events are handled synchronously; only those that wait for a tfjs
   * value return a promise — awaiting every event would cost a microtask turn each.
   */
  private processNext(): void | Promise<void> {
    const item = this.c.queue.pop();
    if (!item) return;
    this.c.t = item.time;
    this.c.eventSeq++;
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
    const c = this.c;
    try {
      c.recorder.flush(c.t);
      if (this.verifyFacts) c.recorder.verifyAll(c.t);
      if (this.strategy.checkInvariants || c.coord) checkInvariants(c);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failure = `simulation error at t=${Math.round(this.c.t)} ms: ${err instanceof Error ? err.message : String(err)}`;
  }

  private handle(ev: Ev): void | Promise<void> {
    const c = this.c;
    switch (ev.k) {
      case 'action':
        this.faults.applyNow(ev.action, ev.source, ev.on);
        return;
      case 'deliver': {
        const { msg } = ev;
        if (!ev.arrived) {
          const blocked = c.network.blocked(msg.from, msg.to);
          if (blocked) return c.drop(msg, blocked); // the partition began while it was in flight
        }
        const to = c.node(msg.to);
        if (!to.up) return c.drop(msg, 'down');
        if (to.paused) return void to.paused.held.push({ ...ev, arrived: true }); // in its socket buffer until it resumes
        // Checked once, when the process takes it (a held message is checked on resume, in order).
        const verdict = c.security.incoming(msg);
        if (verdict !== 'ok') return c.drop(msg, verdict); // refused by its integrity check or replay protection
        c.inflight.delete(msg.id);
        c.history.append({ t: c.t, type: 'deliver', id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, sentAt: msg.sentAt });
        c.recorder.touch(msg.to);
        if (c.coord && (c.node(msg.to).role === 'coord' || c.node(msg.from).role === 'coord')) c.coord.onMessage(msg);
        else this.strategy.onMessage(msg);
        return;
      }
      case 'lost':
        return c.drop(ev.msg, 'loss');
      case 'timer': {
        const n = c.node(ev.node);
        if (n.up && n.inc === ev.inc) {
          if (n.paused) return void n.paused.held.push(ev); // its timers fire late, after it resumes
          c.recorder.touch(ev.node);
          if (c.coord && (n.role === 'coord' || ev.tag.startsWith(CLIENT_TIMER))) c.coord.onTimer(ev.node, ev.tag, ev.data);
          else this.strategy.onTimer(ev.node, ev.tag, ev.data);
        }
        return;
      }
      case 'resume':
        return this.faults.resume(ev.node, ev.inc);
      case 'stepDone': {
        const n = c.node(ev.node);
        if (n.up && n.inc === ev.inc) {
          if (n.paused) return void n.paused.held.push(ev); // a frozen process computes nothing
          // A pause during the computation stretches it by the time the process stood still.
          const done = stretched(ev.startedAt, ev.due, n.pauses);
          if (done > c.t) return void c.queue.push(done, ev);
        }
        return this.completeStep(ev);
      }
      case 'sample':
        return this.sample();
      case 'expect':
        return this.checkExpectation(ev.index);
      case 'end':
        return this.evaluateWorkers().then(() => {
          c.history.append({ t: c.t, type: 'end' });
          this.ended = true;
        });
    }
  }

  private async completeStep(ev: Extract<Ev, { k: 'stepDone' }>): Promise<void> {
    const c = this.c;
    const n = c.node(ev.node);
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
    c.history.append({ t: c.t, type: 'stepDone', node: ev.node, step: ev.step, version: ev.basedOn, v: { loss: r.loss } });
    c.recorder.touch(ev.node);
    // A Byzantine worker's program sends the attack's gradient instead of the true one.
    const grad = c.adversaries.gradient(ev.node, r.grad);
    const result: StepResult = { step: ev.step, grad, loss: r.loss, basedOn: ev.basedOn, ...(ev.transient ? { transient: true } : {}) };
    this.read.roundDelays.onStep(ev.node, ev.basedOn, ev.transient);
    this.strategy.onStepDone(ev.node, result);
  }

  /** A worker whose training code threw: mark it failed (and down) and carry on without it. */
  private failNode(id: NodeId, message: string): void {
    const n = this.c.node(id);
    n.failed = message;
    this.faults.crash(id, message);
  }

  private async sample(): Promise<void> {
    const c = this.c;
    const live = c.workerIds.map((id) => c.node(id)).filter((n) => n.up);
    const evals = await Promise.all(live.map((n) => this.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
    live.forEach((n, i) => {
      const e = evals[i];
      if (!e) return;
      n.eval = e;
      let snaps = this.read.snapshots.get(n.id);
      if (!snaps) this.read.snapshots.set(n.id, (snaps = new SnapshotSeries()));
      snaps.push({ t: c.t, params: n.replica.params.slice(), eval: e });
    });
    const sampled = evals.filter((e): e is Evaluation => !!e);
    const clusterLoss = sampled.length ? sampled.reduce((a, e) => a + e.loss, 0) / sampled.length : null;
    if (this.read.losses.onSample(c.t, c.totalSteps(), clusterLoss)) {
      c.history.append({ t: c.t, type: 'note', what: 'targetReached', data: { steps: c.totalSteps() } });
    }
    c.history.append({ t: c.t, type: 'metrics', v: this.read.metricSample() });
  }

  private async evaluateWorkers(): Promise<void> {
    const c = this.c;
    const live = c.workerIds.map((id) => c.node(id)).filter((n) => n.up);
    const evals = await Promise.all(live.map((n) => this.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
    live.forEach((n, i) => {
      if (evals[i]) n.eval = evals[i]!;
    });
  }

  private async checkExpectation(index: number): Promise<void> {
    const r = this.read.results[index];
    if (r.metric === 'loss' || r.metric === 'accuracy') await this.evaluateWorkers();
    const actual = this.read.metric(r.metric, r.node);
    r.actual = actual;
    r.pass = compare(actual, r.op, r.value, r.tolerance ?? 0);
  }

  // ---------------------------------------------------------------- actions (DESIGN rule 5)

  /**
   * Apply an action now (a user's, or a test's). Invalid actions are refused with a message and
   * change nothing. The action is queued at the current instant after everything else due then
   * (PRIO_USER) and runs at once unless an advance is in flight, which then runs it in order —
   * so a run with user actions replays exactly from its exported timeline.
   */
  apply(action: Action, source: 'user' | 'timeline' = 'user'): { ok: true } | { ok: false; error: string } {
    const parsed = this.faults.validate(action);
    if (!parsed.ok) return parsed;
    if (this.ended) return { ok: false, error: 'the run has ended; restart it to try actions' };
    this.c.queue.push(this.c.t, { k: 'action', action: parsed.action, source }, PRIO_USER);
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
    const now = this.c.t;
    if (at < now) return { ok: false, error: `at: ${at} is before now (${now}); an action cannot apply in the past` };
    if (at > this.durationMs) return { ok: false, error: `at: ${at} is after the end of the run (${this.durationMs})` };
    if (this.ended) return { ok: false, error: 'the run has ended; restart it to try actions' };
    // Node selectors resolve when the action fires, as they do for timeline entries.
    const parsed = this.faults.validateDeferred(action);
    if (!parsed.ok) return parsed;
    this.c.queue.push(at, { k: 'action', action: parsed.action, source: 'user' }, PRIO_USER);
    if (at === now && !this.busy) this.drainNow();
    return { ok: true };
  }

  /** Runs what is due at the current instant (the action just queued, and what it causes now). */
  private drainNow(): void {
    const q = this.c.queue;
    for (let next = q.peek(); next && next.time <= this.c.t && !this.ended && !this.failure; next = q.peek()) {
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
    return this.faults.userActions();
  }

  // ---------------------------------------------------------------- views and metrics (readModel.ts)

  metric(name: MetricName, node?: NodeId): number | null {
    return this.read.metric(name, node);
  }

  metrics(): Partial<Record<MetricName, number | null>> {
    return this.read.metrics();
  }

  /** Every metric the run defines now: cluster-wide, and per node where the metric has a node form. */
  metricSample(): MetricSample {
    return this.read.metricSample();
  }

  expectations(): ExpectationResult[] {
    return this.read.results.map((r) => ({ ...r }));
  }

  nodes(): NodeView[] {
    return this.read.nodes();
  }

  links(): LinkView[] {
    return this.read.links();
  }

  partitionGroups(): NodeId[][] | null {
    return this.c.network.partitionGroups();
  }

  inFlight(): InFlight[] {
    return [...this.c.inflight.values()];
  }

  params(node: NodeId): Float32Array {
    return this.c.node(node).replica.params.slice();
  }

  /** Latest sampled evaluation of a worker (what the UI shows between samples). */
  evaluation(node: NodeId): Evaluation | undefined {
    return this.c.node(node).eval;
  }

  /** What the history index needs beyond the history itself (cluster, strategy links, defaults). */
  runStatic(): RunStatic {
    return this.read.runStatic();
  }

  /** The history, indexed (kept up to date incrementally). Views read the run at any t from here. */
  index(): RunIndex {
    return this.read.index();
  }

  /** The run's state at t, from the history alone (t = now is the live screen). */
  stateAt(t: SimTime): RunState {
    return this.read.stateAt(t);
  }

  /** The engine's live node states from its runtime objects (tests compare them with `stateAt(now)`). */
  liveNodeStates(): Array<Omit<NodeState, 'computing'> & { computing: boolean }> {
    return this.read.liveNodeStates();
  }

  /** Terms of the node's live replicated log (tests compare them with the history's). */
  liveLog(node: NodeId): number[] | null {
    return this.read.liveLog(node);
  }

  /** The parameters a worker held at its newest loss sample at or before t (the replica tiles). */
  paramsAt(node: NodeId, t: SimTime): Float32Array | null {
    return this.read.paramsAt(node, t);
  }

  /** The evaluation of the same snapshot as `paramsAt` (what an image dataset's replica tile shows at t). */
  evaluationAt(node: NodeId, t: SimTime): Evaluation | null {
    return this.read.evaluationAt(node, t);
  }

  /** Where the SHA-256 answers at once (Node, tests): the page hashes in a worker, see `digests`. */
  scheduleHash(): string {
    return this.history.scheduleHash();
  }

  /** Where the SHA-256 answers at once (Node, tests); `summaryAsync` anywhere. */
  summary(): RunSummary {
    return this.read.summary();
  }

  /** The summary, its digests from wherever the history is hashed (the page: its hash worker). */
  async summaryAsync(): Promise<RunSummary> {
    return this.read.summary(await this.digests());
  }

  private endDigests: { digests: Promise<RunDigests>; value: RunDigests | null } | null = null;

  /** The history's digests so far; once the run is over, computed once and kept. */
  digests(): Promise<RunDigests> {
    if (!this.done) return this.history.digests();
    if (!this.endDigests) {
      const memo: { digests: Promise<RunDigests>; value: RunDigests | null } = { digests: this.history.digests(), value: null };
      void memo.digests.then((d) => (memo.value = d)).catch(() => undefined);
      this.endDigests = memo;
    }
    return this.endDigests.digests;
  }

  /** The finished run's digests if `digests()` has already delivered them, else null (synchronous readers: the test hooks). */
  finalDigests(): RunDigests | null {
    return this.done ? (this.endDigests?.value ?? null) : null;
  }
}

/** @noble/hashes, loaded only for a run whose caller brought no SHA-256 (the page brings its worker's). */
async function defaultSha256(): Promise<Sha256Factory> {
  return (await import('../sim/nobleSha256')).nobleSha256;
}

/** Wall clock for time-slicing only: it decides how much work fits in a frame, never what happens. */
function wallNow(): number {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}
