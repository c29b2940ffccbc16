import type { CapClass, Strategy } from '../protocols';
import { loadCoordService, type CoordServiceFactory } from '../protocols/coord/create';
import { loadStrategy } from '../protocols/factory';
import type { MetricName, Scenario } from '../scenario/schema';
import type { History, RunDigests, Sha256Factory } from '../sim/history';
import type { Action, ActionKind, MetricSample, NodeId, SimTime } from '../sim/types';
import type { Evaluation, Trainer } from '../train/types';
import type { ActionResult, ExpectationResult, InFlight, LinkView, NodeView, RunSummary } from './api';
import type { EngineCore } from './core';
import { EventLoop } from './eventLoop';
import type { FaultInjection } from './faultInjection';
import type { RunIndex } from './index/runIndex';
import type { NodeState, RunState, RunStatic } from './index/runState';
import type { ReadModel } from './readModel';
import { PRIO_USER } from './runtime';
import { assembleRun } from './runSetup';
import { evaluateWorkers } from './sampling';
import { loadSecurity, scenarioNeedsSecurity } from './security/load';

export { stretched } from './runtime';
import type { RunReader } from './runReader';

/**
 * The co-simulation engine: a discrete-event loop over the simulated network, one strategy
 * plugin and a Trainer that computes real gradients (DESIGN "The co-simulation loop").
 * Compute *durations* are modelled from the scenario and seeded draws; compute *values* come
 * from tfjs. A step's completion event is held until its value has arrived, so a slow machine
 * changes the pace of the animation, never the outcome.
 *
 * This module is the engine's public surface. Its parts: runSetup.ts (building a run and queueing
 * its first events), eventLoop.ts (the event loop and what each event does), sampling.ts (metric
 * samples and expectation checks), core.ts (state and primitives: network, timers, steps),
 * ports.ts (what the strategy and the coordination service see), faultInjection.ts (what actions
 * do, pauses included), readModel.ts (metrics, views, the history-derived state at any t),
 * security/ (the layer every message passes: integrity, replay protection, men-in-the-middle;
 * Byzantine workers).
 */

const ENDED: ActionResult = { ok: false, error: 'the run has ended; restart it to try actions', refusal: { refusal: 'ended' } };

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

export class Simulation implements RunReader {
  readonly history: History;
  readonly durationMs: number;
  readonly cap: CapClass;
  readonly trainer: Trainer;
  private readonly c: EngineCore;
  // Kept as fields of their own: tests reach the running strategy through `strategy`.
  private readonly strategy: Strategy;
  private readonly faults: FaultInjection;
  private readonly read: ReadModel;
  private readonly loop: EventLoop;

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
    const { c, strategy, faults, read } = assembleRun(scenario, opts, coordService);
    this.c = c;
    this.history = c.history;
    this.durationMs = c.durationMs;
    this.cap = c.cap;
    this.strategy = strategy;
    this.faults = faults;
    this.read = read;
    this.loop = new EventLoop(c, strategy, faults, read, opts.verifyFacts ?? false);
  }

  now(): SimTime {
    return this.c.t;
  }

  get done(): boolean {
    return this.loop.ended;
  }

  /** Why the run stopped, if an event threw (null while it runs or once it ended normally). */
  get failure(): string | null {
    return this.loop.failure;
  }

  get strategyKind(): string {
    return this.strategy.kind;
  }

  // ---------------------------------------------------------------- the event loop (eventLoop.ts)

  /**
   * Process events up to simulated time `until` (capped at the end), within a wall-clock budget.
   * `interrupt` (the page: is a user's input waiting?) ends the slice early, as the budget does:
   * between two instants, so it changes where a slice ends, never which events run or in what order.
   */
  advanceTo(until: SimTime, opts: { wallBudgetMs?: number; interrupt?: () => boolean } = {}): Promise<void> {
    return this.loop.advanceTo(until, opts);
  }

  /** Process exactly one event (the single-step control). */
  stepEvent(): Promise<void> {
    return this.loop.stepEvent();
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
    while (!this.loop.ended && !this.loop.failure) {
      const next = this.nextEventTime();
      if (next === null || next > until) {
        if (until > this.c.t) this.c.t = until;
        break;
      }
      await this.advanceTo(until, { wallBudgetMs: 200 });
      opts.onProgress?.(this.c.t);
    }
    if (this.loop.failure) throw new Error(this.loop.failure);
    if (!this.loop.ended) await evaluateWorkers(this.c); // stopped early with --until
    return this.summaryAsync();
  }

  // ---------------------------------------------------------------- actions (DESIGN rule 5)

  /**
   * Apply an action now (a user's, or a test's). Invalid actions are refused with a message and
   * change nothing. The action is queued at the current instant after everything else due then
   * (PRIO_USER) and runs at once unless an advance is in flight, which then runs it in order —
   * so a run with user actions replays exactly from its exported timeline.
   */
  apply(action: Action, source: 'user' | 'timeline' = 'user'): ActionResult {
    const parsed = this.faults.validate(action);
    if (!parsed.ok) return parsed;
    if (this.loop.ended) return ENDED;
    this.c.queue.push(this.c.t, { k: 'action', action: parsed.action, source }, PRIO_USER);
    if (!this.loop.busy) this.loop.drainNow();
    return { ok: true };
  }

  /**
   * Queue an action to apply at simulated time `at` (≥ now), after everything else due at that
   * instant — the same slot a timeline entry marked "by": "user" takes, so the run equals the
   * replay of its export. A live room uses it: the teacher's device picks a time a little ahead of
   * every device's clock, and each device schedules the action there. Refused (nothing queued) if
   * `at` is in the past, past the end, or the action is invalid.
   */
  schedule(action: Action, at: SimTime): ActionResult {
    const now = this.c.t;
    const refusal = { refusal: 'time', at, now, end: this.durationMs } as const;
    if (!Number.isFinite(at)) return { ok: false, error: `at: ${at} is not a time`, refusal };
    if (at < now) return { ok: false, error: `at: ${at} is before now (${now}); an action cannot apply in the past`, refusal };
    if (at > this.durationMs) return { ok: false, error: `at: ${at} is after the end of the run (${this.durationMs})`, refusal };
    if (this.loop.ended) return ENDED;
    // Node selectors resolve when the action fires, as they do for timeline entries.
    const parsed = this.faults.validateDeferred(action);
    if (!parsed.ok) return parsed;
    this.c.queue.push(at, { k: 'action', action: parsed.action, source: 'user' }, PRIO_USER);
    if (at === now && !this.loop.busy) this.loop.drainNow();
    return { ok: true };
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

  /** The tfjs backend computing worker `node`'s gradients ('' for another role), as `nodes()` gives it; a run in a worker answers it from its nodes. */
  backendFor(node: NodeId): string {
    return this.c.node(node).role === 'worker' ? this.trainer.backendFor(node) : '';
  }

  /**
   * Worker `node`'s decision-boundary grid (res × res) from its parameters at t (`paramsAt`), as
   * the replica tiles draw it; null before its first sample. Asynchronous as a run in a worker's
   * is (engine/remote): the trainer computes it.
   */
  async gridAt(node: NodeId, t: SimTime, res: number): Promise<Float32Array | null> {
    const params = this.paramsAt(node, t);
    return params ? this.trainer.predictGrid(params, res) : null;
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
