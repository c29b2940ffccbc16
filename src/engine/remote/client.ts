import type { CapClass } from '../../protocols';
import type { Scenario } from '../../scenario/schema';
import type { RunDigests } from '../../sim/history';
import { RowsHistory } from '../../sim/rowsHistory';
import type { Action, ActionKind, NodeId, SimTime } from '../../sim/types';
import type { Evaluation, TrainerSpec } from '../../train/types';
import type { FaultMode } from '../../workers/protocol';
import type { ActionResult, ExpectationResult, NodeView, RunSummary } from '../api';
import { runIndexFor, type RunIndex } from '../index/runIndex';
import { runStateAt, type RunState, type RunStatic } from '../index/runState';
import type { EnginePort, FromHost, RunFacts, RunStatus, RunUpdate, ToHost, TrainerPool } from './protocol';

type Answer = Extract<FromHost, { ok: true }>;

/**
 * The page's end of engine/remote: the requests of every run on one engine worker, each answered
 * in order. Keeps nothing of the runs itself (RemoteRun does).
 */
export class EngineClient {
  private nextReq = 1;
  private nextRun = 1;
  private nextTrainer = 1;
  private readonly waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();

  /** Why the engine's worker cannot answer any more (it failed to load, or died), once it is known. */
  private lostWhy: Error | null = null;

  constructor(
    private readonly port: EnginePort<FromHost, ToHost>,
    /** Called once, when the worker is found lost (to let go of it). */
    private readonly onLost?: () => void,
  ) {
    port.onmessage = (e) => {
      const a = e.data;
      if (a.req === 0 && !a.ok) return this.fail(a.error);
      const w = this.waiting.get(a.req);
      if (!w) return;
      this.waiting.delete(a.req);
      if (a.ok) w.resolve(a);
      else w.reject(new Error(a.error));
    };
  }

  /** Starts a trainer (a pool of training workers) in the engine's worker. */
  async trainer(spec: TrainerSpec, pool: TrainerPool): Promise<RemoteTrainer> {
    const trainer = this.nextTrainer++;
    await this.ask((req) => ({ op: 'trainer', trainer, req, spec, pool }));
    return new RemoteTrainer(this, trainer);
  }

  /** Loads the code a run of `scenario` needs in the worker (memoised there: `create` then finds it). */
  async prepare(scenario: Scenario): Promise<void> {
    await this.ask((req) => ({ op: 'prepare', req, scenario }));
  }

  /** Starts a run of `scenario` (validated) on `trainer` in the worker and follows it. */
  async create(scenario: Scenario, trainer: RemoteTrainer, opts: { sampleEveryMs?: number } = {}): Promise<RemoteRun> {
    const run = this.nextRun++;
    const a = await this.ask((req) => ({ op: 'create', run, req, scenario, trainer: trainer.id, ...opts }));
    if (!a.created || !a.update) throw new Error('engine worker: a run was created without its facts');
    return new RemoteRun(this, run, scenario, trainer, a.created, a.update);
  }

  /** Asks the worker's check `name` (app/checks) with `args`; its answer as it came. */
  async check(name: string, args: unknown[]): Promise<unknown> {
    return (await this.ask((req) => ({ op: 'check', req, name, args }))).checked;
  }

  /** Whether the engine's worker has stopped answering (`fail`). */
  get lost(): boolean {
    return this.lostWhy !== null;
  }

  /** The engine's worker is gone (`why`): every request waiting and every later one fails with it. */
  fail(why: string): void {
    if (!this.lostWhy) {
      this.lostWhy = new Error(`the engine's worker stopped: ${why}`);
      this.onLost?.();
    }
    for (const w of this.waiting.values()) w.reject(this.lostWhy);
    this.waiting.clear();
  }

  /** @internal RemoteRun's requests. */
  ask(make: (req: number) => ToHost): Promise<Answer> {
    if (this.lostWhy) return Promise.reject(this.lostWhy);
    const req = this.nextReq++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(req, { resolve, reject });
      this.port.postMessage(make(req), []);
    });
  }
}

/**
 * A trainer in the engine's worker, as the page holds it: runs are made on it, and the page lets
 * go of it when no run it shows uses it any more (a fork shares its run's; a lesson's variants of
 * one model share one).
 */
export class RemoteTrainer {
  private disposed: Promise<void> | null = null;

  constructor(
    private readonly client: EngineClient,
    readonly id: number,
  ) {}

  /** The next gradient for `node` fails in its training worker ('throw') or kills it ('crash'): tests. */
  async injectFault(node: NodeId, mode: FaultMode = 'throw'): Promise<void> {
    await this.client.ask((req) => ({ op: 'fault', trainer: this.id, req, node, mode }));
  }

  /** Stops its training workers (once, however often asked). */
  dispose(): Promise<void> {
    this.disposed ??= this.client.ask((req) => ({ op: 'disposeTrainer', trainer: this.id, req })).then(() => undefined);
    return this.disposed;
  }
}

/**
 * A run whose engine is in a worker, as the page reads it: its history rebuilt from the rows each
 * answer brings (RowsHistory), indexed as the engine's own is, and the live figures of the last
 * answer. The reading half of Simulation's surface; what changes the run (advancing, actions)
 * answers asynchronously, after the worker has done it.
 */
export class RemoteRun {
  readonly history = new RowsHistory();
  readonly durationMs: number;
  readonly cap: CapClass;
  readonly strategyKind: string;
  private readonly static_: RunStatic;
  private status: RunStatus;
  private readonly nodeIds: NodeId[];

  constructor(
    private readonly client: EngineClient,
    private readonly run: number,
    readonly scenario: Scenario,
    /** The trainer it runs on (its own, or shared: the page disposes of it). */
    readonly trainer: RemoteTrainer,
    facts: RunFacts,
    first: RunUpdate,
  ) {
    this.durationMs = facts.durationMs;
    this.cap = facts.cap;
    this.strategyKind = facts.strategyKind;
    this.static_ = facts.runStatic;
    this.status = first.status as RunStatus; // the first answer sends every part
    this.nodeIds = this.status.nodes.map((n) => n.id);
    this.history.add(first.rows);
  }

  now(): SimTime {
    return this.status.now;
  }

  get done(): boolean {
    return this.status.done;
  }

  get failure(): string | null {
    return this.status.failure;
  }

  get eventsProcessed(): number {
    return this.status.eventsProcessed;
  }

  nextEventTime(): SimTime | null {
    return this.status.nextEventTime;
  }

  /**
   * Processes events up to `until` in the worker (a slice of at most `wallBudgetMs` there).
   * `interrupt` (the page's pending input, Simulation.advanceTo's) does not cross threads: the
   * worker's slice never holds up the page's input.
   */
  async advanceTo(until: SimTime, opts: { wallBudgetMs?: number; interrupt?: () => boolean } = {}): Promise<void> {
    const budget = opts.wallBudgetMs;
    await this.request((req) => ({ op: 'advance', run: this.run, req, until, ...(budget === undefined ? {} : { wallBudgetMs: budget }) }));
  }

  async stepEvent(): Promise<void> {
    await this.request((req) => ({ op: 'step', run: this.run, req }));
  }

  /** Applies a user's action now (`at` undefined) or at simulated time `at`; the worker's answer says whether it was taken. */
  async apply(action: Action, at?: SimTime): Promise<ActionResult> {
    const a = await this.request((req) => ({ op: 'apply', run: this.run, req, action, ...(at === undefined ? {} : { at }) }));
    if (!a.result) throw new Error('engine worker: an action came back without its result');
    return a.result;
  }

  private endDigests: RunDigests | null = null;

  /** The history's digests so far (the engine's worker hashes it); a finished run's are kept. */
  async digests(): Promise<RunDigests> {
    if (this.endDigests) return this.endDigests;
    const a = await this.request((req) => ({ op: 'digests', run: this.run, req }));
    if (!a.digests) throw new Error('engine worker: digests asked, none came back');
    if (this.done) this.endDigests = a.digests;
    return a.digests;
  }

  /** The finished run's digests if `digests()` has already delivered them, else null (synchronous readers: the test hooks). */
  finalDigests(): RunDigests | null {
    return this.endDigests;
  }

  /** The run's summary (the CLI's `--json` object). */
  async summary(): Promise<RunSummary> {
    const a = await this.request((req) => ({ op: 'summary', run: this.run, req }));
    if (!a.summary) throw new Error('engine worker: a summary asked, none came back');
    return a.summary;
  }

  /** Worker `node`'s decision-boundary grid (res × res) from its parameters at t; null before its first sample. */
  async gridAt(node: NodeId, t: SimTime, res: number): Promise<Float32Array | null> {
    const a = await this.request((req) => ({ op: 'grid', run: this.run, req, node, t, res }));
    return a.grid ?? null;
  }

  /** Worker `node`'s evaluation taken with its parameters at t; null before its first sample. */
  async evaluationAt(node: NodeId, t: SimTime): Promise<Evaluation | null> {
    const a = await this.request((req) => ({ op: 'evaluation', run: this.run, req, node, t }));
    return a.evaluation ?? null;
  }

  async dispose(): Promise<void> {
    await this.request((req) => ({ op: 'dispose', run: this.run, req }));
  }

  acceptsAction(kind: ActionKind, node: NodeId): boolean {
    return this.status.accepts.find(([n]) => n === node)?.[1].includes(kind) ?? false;
  }

  userActions(): Array<{ t: SimTime; action: Action }> {
    return this.status.userActions;
  }

  expectations(): ExpectationResult[] {
    return this.status.expectations;
  }

  nodes(): NodeView[] {
    return this.status.nodes;
  }

  /** The tfjs backend computing worker `node`'s gradients ('' for another role), as of the last answer. */
  backendFor(node: NodeId): string {
    const n = this.status.nodes.find((x) => x.id === node);
    if (!n) throw new Error(`unknown node ${node}`);
    return n.backend;
  }

  runStatic(): RunStatic {
    return this.static_;
  }

  index(): RunIndex {
    return runIndexFor(this.history, this.nodeIds);
  }

  stateAt(t: SimTime): RunState {
    return runStateAt(this.index(), this.static_, t);
  }

  /** Every answer brings the rows since the last one, in order, and the status after the request. */
  private async request(make: (req: number) => ToHost): Promise<Answer> {
    const a = await this.client.ask(make);
    if (!a.update) throw new Error('engine worker: a run’s answer came without its rows');
    this.history.add(a.update.rows);
    this.status = { ...this.status, ...a.update.status };
    return a;
  }
}
