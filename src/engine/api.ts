/*
 * ENGINE API (the lead is implementing it in `src/engine/simulation.ts` right now; it will be committed within ~40 minutes — poll with `ls src/engine/simulation.ts` / `git log`; meanwhile code against this):
 * 
 * ```ts
 * import { Simulation } from '../engine/simulation';
 * // views types: src/engine/api.ts (NodeView, LinkView, InFlight, ExpectationResult, RunSummary) — read it
 * // history types: src/sim/types.ts (HistoryEvent, Action, NodeId) — read it
 * class Simulation {
 *   static create(scenario: Scenario, opts: { trainer: Trainer; sampleEveryMs?: number }): Promise<Simulation>;
 *   readonly scenario: Scenario;          // src/scenario/schema.ts
 *   readonly trainer: Trainer;            // src/train/types.ts: predictGrid(params, res) → Promise<Float32Array> (class-1 prob, res×res, row-major, top row = max y), evaluate(params)
 *   readonly history: { readonly events: readonly HistoryEvent[] };  // append-only; 'sample' events every sampleEveryMs hold {node, version, steps, v:{loss, accuracy}} per worker
 *   now(): number;                        // simulated ms
 *   readonly durationMs: number;
 *   readonly done: boolean;
 *   readonly failure: string | null;      // fatal engine error, if any
 *   nodes(): NodeView[];                  // workers then servers; version, up, failed, slowFactor, computing, status text, backend
 *   links(): LinkView[];                  // directed links of the strategy's topology (ring edges for allreduce, worker<->server for ps-async), both directions
 *   inFlight(): InFlight[];               // messages on the wire now: animate at (now-sentAt)/(due-sentAt)
 *   params(node: string): Float32Array;   // copy of the node's current parameters
 *   metric(name: MetricName, node?: string): number | null;
 *   metrics(): Partial<Record<MetricName, number | null>>;
 *   expectations(): ExpectationResult[];  // pass null until its time is reached
 *   apply(action: Action, source?: 'user' | 'timeline'): { ok: true } | { ok: false; error: string };  // takes effect at now()
 *   advanceTo(t: number, opts?: { wallBudgetMs?: number }): Promise<void>;  // process events up to t (capped at durationMs); returns early when the wall budget is spent
 *   stepEvent(): Promise<void>;           // process exactly one event (single-step button)
 *   runToEnd(opts?: { untilMs?: number; onProgress?: (t: number) => void }): Promise<RunSummary>;
 *   summary(): RunSummary;                // includes scheduleHash (what data-testid="schedule-hash" shows once done)
 *   // scrubbing (views are functions of (state, t)): derived from the history, valid for t <= now()
 *   nodesAt(t: number): NodeView[];
 *   inFlightAt(t: number): InFlight[];
 *   paramsAt(node: string, t: number): Float32Array | null;  // newest sampled snapshot at or before t
 *   linksAt(t: number): LinkView[];
 * }
 * ```
 * Events of interest for the version timeline: 'version' {node, version, synced} (a node's parameters changed to that version), 'send'/'deliver'/'drop' {id, from, to, kind, bytes, sentAt/due}, 'action' {action} (partition/heal/cut/... — shade partition periods between partition and heal), 'crash'/'restart', 'stepStart'/'stepDone' {node, step}, 'counted' (a step that counts for availability).
 * The trainer in the browser is `WorkerPool.create(spec, { nodes })` from `src/workers/pool.ts` (another engineer is writing it; `spec = { model: scenario.model, seed: scenario.seed, backend }`), implementing the Trainer interface.
 */
/**
 * The engine's public surface, shared by the app (browser), the CLI (Node) and tests.
 * The engine wires a scenario to the discrete-event simulator, a strategy plugin and a Trainer.
 */
import type { Action, HistoryEvent, LinkProps, MessageKind, NodeId, NodeRole, SimTime } from '../sim/types';
import type { ComparisonOp, Expectation, MetricName } from '../scenario/schema';
import type { NodeDetail } from '../protocols/strategy';
export type { NodeDetail };

export interface NodeView {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  /** Set when the node's training worker failed (a thrown error); the node is then down for good. */
  failed?: string;
  version: number;
  /** Authoritative version the replica last synced to (workers). */
  synced: number;
  steps: number;
  /** Step-time multiplier from `slow` actions and stragglers (1 = normal). */
  slowFactor: number;
  /** True while a training step is in progress. */
  computing: boolean;
  /** Protocol-specific status line, e.g. "waiting for chunk 2/3 from w1". */
  status: string;
  backend: string;
  /** Strategy-specific state: Raft role, term, log and commit index; Kafka offsets … */
  detail?: NodeDetail;
}

export interface LinkView {
  from: NodeId;
  to: NodeId;
  /** Cut by a `cut` action (this direction). */
  cut: boolean;
  /** Separated by the current partition. */
  partitioned: boolean;
  props: LinkProps;
}

/** A message on the wire at the current time, for animation: position = (now - sentAt) / (due - sentAt). */
export interface InFlight {
  id: number;
  from: NodeId;
  to: NodeId;
  kind: MessageKind;
  bytes: number;
  sentAt: SimTime;
  due: SimTime;
}

export interface ExpectationResult extends Expectation {
  /** Resolved time ("end" → durationMs). */
  time: SimTime;
  actual: number | null;
  /** null until the time has been reached. */
  pass: boolean | null;
}

export interface NodeSummary {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  version: number;
  steps: number;
  loss?: number;
  accuracy?: number;
}

/** Exactly the CLI `--json` object of CONTRACTS.md §2. */
export interface RunSummary {
  scenario: string;
  seed: number;
  strategy: string;
  simTimeMs: number;
  events: number;
  params: number;
  scheduleHash: string;
  eventLogHash: string;
  metrics: Partial<Record<MetricName, number>>;
  nodes: NodeSummary[];
  expectations: Array<{ at: number | 'end'; metric: MetricName; node?: NodeId; op: ComparisonOp; value: number; tolerance?: number; actual: number | null; pass: boolean }>;
  pass: boolean;
}

export type { Action, HistoryEvent };
