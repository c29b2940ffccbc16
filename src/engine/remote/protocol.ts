import type { CapClass } from '../../protocols';
import type { Scenario } from '../../scenario/schema';
import type { RunDigests } from '../../sim/history';
import type { RowsBatch } from '../../sim/historyRows';
import type { Action, ActionKind, NodeId, SimTime } from '../../sim/types';
import type { Evaluation, TrainerSpec } from '../../train/types';
import type { FaultMode } from '../../workers/protocol';
import type { ActionResult, ExpectationResult, NodeView, RunSummary } from '../api';
import type { RunStatic } from '../index/runState';

/**
 * What crosses between a page and an engine running in a worker (engine/remote: issue 9, the
 * engine off the main thread). Typed facts only, never prose the app would have to parse: the
 * history as the rows its History hands out (sim/rowsHistory.ts reads them back), the run's
 * live figures as a snapshot after every request. Each run has a number (a lesson shows several),
 * and so has each trainer (a pool of training workers), which the page starts and lets go of
 * itself: a fork and the run it left, a lesson's variants of one model, share one.
 */

export type ToHost =
  /** Starts a trainer (a pool, in the app's engine worker: `nodes` logical workers, or `size` workers exactly). */
  | { op: 'trainer'; trainer: number; req: number; spec: TrainerSpec; pool: TrainerPool }
  /** Makes trainer `trainer`'s next gradient for `node` fail in its worker (tests: a worker that dies). */
  | { op: 'fault'; trainer: number; req: number; node: NodeId; mode: FaultMode }
  | { op: 'disposeTrainer'; trainer: number; req: number }
  /** Loads the code a run of `scenario` needs (its strategy …) ahead of `create`, while its trainer starts. */
  | { op: 'prepare'; req: number; scenario: Scenario }
  /** A check the host's table answers (app/checks: a scenario, an edit, actions, a knob's value), by name. */
  | { op: 'check'; req: number; name: string; args: unknown[] }
  | { op: 'create'; run: number; req: number; scenario: Scenario; trainer: number; sampleEveryMs?: number }
  | { op: 'advance'; run: number; req: number; until: SimTime; wallBudgetMs?: number }
  | { op: 'step'; run: number; req: number }
  | { op: 'apply'; run: number; req: number; action: Action; at?: SimTime }
  | { op: 'digests'; run: number; req: number }
  /** The run's summary (the CLI's `--json` object: test hooks). */
  | { op: 'summary'; run: number; req: number }
  /** A worker's decision-boundary grid (res × res) from its parameters at t, as the replica tiles draw it. */
  | { op: 'grid'; run: number; req: number; node: NodeId; t: SimTime; res: number }
  /** A worker's evaluation taken with its parameters at t (an image dataset's tile). */
  | { op: 'evaluation'; run: number; req: number; node: NodeId; t: SimTime }
  | { op: 'dispose'; run: number; req: number };

export type FromHost =
  | { req: number; ok: true; update?: RunUpdate; created?: RunFacts; result?: ActionResult; digests?: RunDigests; summary?: RunSummary; grid?: Float32Array | null; evaluation?: Evaluation | null; checked?: unknown }
  /** Request 0: the worker itself failed (its engine did not load); every request fails with it. */
  | { req: number; ok: false; error: string };

/** A trainer's workers: one per logical node up to the cores (`nodes`), or exactly `size`. */
export interface TrainerPool {
  nodes?: number;
  size?: number;
}

/** What does not change over a run, sent once. */
export interface RunFacts {
  durationMs: number;
  cap: CapClass;
  strategyKind: string;
  runStatic: RunStatic;
}

/**
 * The run's live figures after a request. Not the links or the metrics: the page reads those from
 * the history, at any t (runState), as the views always did — the live metric sample alone took
 * ~0.4 ms an answer to compute and write on a 16-worker run, for no reader.
 */
export interface RunStatus {
  now: SimTime;
  done: boolean;
  failure: string | null;
  nextEventTime: SimTime | null;
  eventsProcessed: number;
  nodes: NodeView[];
  expectations: ExpectationResult[];
  userActions: Array<{ t: SimTime; action: Action }>;
  /** The strategy-specific actions (Raft's `timeout`) each node's strategy would act on now. */
  accepts: Array<[NodeId, ActionKind[]]>;
}

/** The status's parts that change seldom (a node fails, an action is taken, a check is decided): sent when they changed. */
export type StatusPart = 'nodes' | 'expectations' | 'userActions' | 'accepts';
export const statusParts: readonly StatusPart[] = ['nodes', 'expectations', 'userActions', 'accepts'];

/**
 * Every answer carries the history's new rows and the status after the request: its clock and
 * counters always, each of its other parts only when it differs from the last one sent (a page
 * following a run at 60 answers a second would otherwise copy them all each time).
 */
export interface RunUpdate {
  rows: RowsBatch;
  status: Omit<RunStatus, StatusPart> & Partial<Pick<RunStatus, StatusPart>>;
}

/** The end of a channel (a Worker, a worker's own scope, a MessagePort). */
export interface EnginePort<In, Out> {
  postMessage(m: Out, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<In>) => void) | null;
}
