/**
 * The engine's public surface, shared by the app (browser), the CLI (Node) and tests.
 * The engine wires a scenario to the discrete-event simulator, a strategy plugin and a Trainer.
 */
import type { Action, ByzantineAttack, HistoryEvent, LinkProps, MessageKind, NodeId, NodeRole, SimTime } from '../sim/types';
import type { ComparisonOp, MetricName, PlainExpectation } from '../scenario/schema';
import type { TamperSpec } from '../sim/faults';
import type { ScenarioProblem } from '../scenario/problems';

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
  backend: string;
  /** Present while the engine drives this worker as Byzantine. */
  byzantine?: { attack: ByzantineAttack; scale?: number };
}

export interface LinkView {
  from: NodeId;
  to: NodeId;
  /** Cut by a `cut` action (this direction). */
  cut: boolean;
  /** Separated by the current partition. */
  partitioned: boolean;
  props: LinkProps;
  /** Present while a man-in-the-middle is on this direction of the link. */
  tamper?: TamperSpec;
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

/** A plain expectation as the engine checks it while it runs (comparisons: engine/lessonVerdict.ts). */
export interface ExpectationResult extends PlainExpectation {
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
  expectations: SummaryExpectation[];
  pass: boolean;
  /** One entry per variant of the scenario (CURRICULUM §C.7, CONTRACTS §5); `pass` above then needs every one. */
  variants?: VariantSummary[];
  /** Shape expectations over the variants (CURRICULUM §C.7); `pass` above needs every one. */
  shapes?: ShapeSummary[];
}

export interface SummaryExpectation {
  at: number | 'end';
  metric: MetricName;
  node?: NodeId;
  op: ComparisonOp;
  /** Absent on a comparison (CURRICULUM §C.7), which has `than`/`thanAt`, `factor`, `offset` and `other`. */
  value?: number;
  tolerance?: number;
  than?: string;
  thanAt?: number | 'end';
  factor?: number;
  offset?: number;
  /** A comparison's other value: the same metric in run `than` or at `thanAt`. */
  other?: number | null;
  actual: number | null;
  pass: boolean;
}

/** A shape expectation's result (`shapes` in `--json`): the values in the listed order and whether they have the shape. */
export interface ShapeSummary {
  metric: string;
  node?: string;
  at: number | 'end';
  variants: string[];
  shape: 'u' | 'increasing' | 'decreasing';
  tolerance?: number;
  values: Array<number | null>;
  pass: boolean;
}

/** A variant's run, as `--json` reports it: `{ id, scheduleHash, eventLogHash, metrics, expectations, pass }`. */
export interface VariantSummary {
  id: string;
  /** The variant's own run hashes: a browser run of it (`&variant=`) gives the same. */
  scheduleHash: string;
  eventLogHash: string;
  metrics: RunSummary['metrics'];
  expectations: SummaryExpectation[];
  pass: boolean;
}

export type { Action, HistoryEvent };

/**
 * Why the engine refused a live action (Simulation.apply, schedule), as facts the app words in
 * the reader's language; `error` beside it says the same in English, for the CLI, a room's log
 * and tests.
 */
export type ActionRefusal =
  | { refusal: 'ended' }
  /** A selector such as "@leader" matches no node now (an election under way, nothing crashed). */
  | { refusal: 'no-match'; selector: string }
  /** A link's two ends, selectors resolved, are one node now. */
  | { refusal: 'same-node'; from: string; to: string; node: NodeId }
  /** The action itself is malformed or cannot apply to this run: its problems, paths from the action. */
  | { refusal: 'invalid'; problems: readonly ScenarioProblem[] }
  /** Simulation.schedule's time `at` is not a time, already past (`now`) or after the run's `end`. */
  | { refusal: 'time'; at: number; now: number; end: number }
  /** The code this action runs (the security module) has not arrived yet; the app waits for it (act.ts). */
  | { refusal: 'loading'; action: string };

export type ActionResult = { ok: true } | { ok: false; error: string; refusal: ActionRefusal };
