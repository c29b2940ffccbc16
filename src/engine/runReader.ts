import type { CapClass } from '../protocols';
import type { Scenario } from '../scenario/schema';
import type { RowsSlice } from '../sim/packedBatch';
import type { Action, ActionKind, HistoryEvent, NodeId, SimTime } from '../sim/types';
import type { Evaluation } from '../train/types';
import type { ExpectationResult, NodeView } from './api';
import type { RunIndex } from './index/runIndex';
import type { RunState, RunStatic } from './index/runState';

/**
 * What the views read of a run, whichever thread its engine is on: a Simulation in this thread (the
 * CLI, the tests) and a RemoteRun following one in the engine's worker (the app) both are one.
 * Only reads: what changes a run is the app's (RemoteRun's asynchronous requests). The links and
 * the metrics are read from the history at t (`stateAt`), not live.
 */
export interface RunReader {
  readonly scenario: Scenario;
  readonly durationMs: number;
  readonly cap: CapClass;
  readonly strategyKind: string;
  readonly history: RunHistory;
  readonly done: boolean;
  readonly failure: string | null;
  readonly eventsProcessed: number;
  now(): SimTime;
  nextEventTime(): SimTime | null;
  acceptsAction(kind: ActionKind, node: NodeId): boolean;
  userActions(): Array<{ t: SimTime; action: Action }>;
  expectations(): ExpectationResult[];
  nodes(): NodeView[];
  runStatic(): RunStatic;
  index(): RunIndex;
  stateAt(t: SimTime): RunState;
  backendFor(node: NodeId): string;
  gridAt(node: NodeId, t: SimTime, res: number): Promise<Float32Array | null>;
  /** A worker's evaluation at t: at once where the engine is here, answered by its worker where it is not. */
  evaluationAt(node: NodeId, t: SimTime): Evaluation | null | Promise<Evaluation | null>;
}

/** A run's history as the views and exports read it (History here, RowsHistory on the page). */
export interface RunHistory {
  readonly length: number;
  at(i: number): HistoryEvent;
  rowSlices(): Array<() => RowsSlice>;
}
