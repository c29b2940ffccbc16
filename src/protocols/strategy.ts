import type { Rng } from '../sim/rng';
import type { Action, ActionKind, Message, MessageKind, NodeId, SimTime } from '../sim/types';
import type { NodeFacts, NodeLog } from './facts';
import type { NoteData, NoteName } from './notes';
import type { CoordClient, CoordEvent } from './coord/api';
import type { WireCodec } from './wire';
export type { NodeFacts, NodeLog, NoteData, NoteName };
export type { CoordClient, CoordEvent };

/**
 * The one interface every synchronisation strategy implements (DESIGN rule 6).
 * A strategy reacts to events through the context: it never calls another node directly,
 * never reads a clock and never draws randomness except from `ctx.rng`.
 */

export interface Replica {
  /** Parameters the worker trains on now. Owned by the engine; replace via setReplica. */
  readonly params: Float32Array;
  /** Updates in the lineage of these parameters. */
  readonly version: number;
  /** Authoritative version these parameters were last synced to (for staleness). */
  readonly synced: number;
}

export interface StepResult {
  step: number;
  grad: Float32Array;
  loss: number;
  /** Version of the parameters the gradient was computed on. */
  basedOn: number;
  /**
   * The step drew a transient slowdown (scenario `compute.transient`). Observer bookkeeping for the
   * `delayedRounds` metric only: a real worker does not know it straggled.
   */
  transient?: boolean;
}

export interface StrategyContext {
  readonly workers: readonly NodeId[];
  readonly servers: readonly NodeId[];
  readonly brokers: readonly NodeId[];
  readonly paramCount: number;
  readonly learningRate: number;
  readonly stepMs: number;
  now(): SimTime;
  isUp(node: NodeId): boolean;
  /** Hands a message to the network. `bytes` = payload bytes (4 per float32). */
  send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): void;
  /** A timer on `node`; it never fires if the node crashes first (volatile state). */
  setTimer(node: NodeId, delayMs: number, tag: string, data?: unknown): void;
  /**
   * Starts a training step on the worker's current replica; false if down or busy.
   * The mini-batch is a seeded function of (worker, batchKey), default the step number. A strategy
   * that may have to recompute a lost step passes a key that identifies it (all-reduce: the round),
   * so the recomputed gradient is bit-identical to the lost one, as with a resumable data loader.
   */
  startStep(worker: NodeId, batchKey?: number): boolean;
  isComputing(worker: NodeId): boolean;
  replica(worker: NodeId): Replica;
  /**
   * Replaces the worker's parameters and records a version event. The engine keeps a copy, unless
   * `fresh`: no one changes `params` while it is the worker's replica (a copy the caller made for
   * this call, or a received message's payload made for that message), so it is kept as it is. A
   * copy of a 100 k-parameter vector per step was a tenth of the engine's time in Node, and a
   * fresh array costs about 1.5 ms in a browser.
   */
  setReplica(worker: NodeId, params: Float32Array, version: number, synced: number, fresh?: 'fresh'): void;
  /** The worker completed a step that counts for availability under this strategy. */
  counted(worker: NodeId): void;
  /** A typed protocol event for the history (CURRICULUM §C.6 names); narration and `on` triggers match on it. */
  note<K extends NoteName>(what: K, node: NodeId | undefined, data: NoteData[K]): void;
  /**
   * The event being handled changed `node`'s facts or log although it was not addressed to it
   * (e.g. Kafka's controller moving a partition's leadership). The engine re-reads the facts of
   * the event's own node by itself.
   */
  touch(node: NodeId): void;
  /** A fresh copy of the broadcast initial parameters. */
  initialParams(): Float32Array;
  /** Seeded randomness for this strategy (e.g. Raft election timeouts), one stream per name. */
  rng(stream: string): Rng;
  /**
   * Records a client operation for linearizability checking; returns its id (pass it back with
   * the completion). `hash` is the fingerprint of the parameters read or produced.
   */
  op(process: NodeId, op: 'invoke' | 'ok' | 'fail' | 'info', f: 'read' | 'update', opId?: number, version?: number, params?: Float32Array): number;
  /** Reports a broken invariant; it is counted in the `violations` metric and shown in the UI. */
  violation(invariant: string, detail: string): void;
  /**
   * The coordination service's client library (locks, create-if-absent), present when the cluster
   * has `coord` nodes. Its answers arrive through `Strategy.onCoord`.
   */
  readonly coord?: CoordClient;
  /**
   * Observer bookkeeping only (for notes such as `byzantineOutlierDropped`): whether the engine
   * currently drives this worker as Byzantine. A real server cannot know; never decide on it.
   */
  isByzantine(worker: NodeId): boolean;
}

/**
 * A strategy's place in CAP/PACELC, computed from its running configuration (TRUTHS: a class
 * belongs to a configuration, not to a product).
 */
export interface CapClass {
  /** What it favours under a partition: block or refuse (C side) or keep serving (A). */
  underPartition: 'C' | 'A';
  pacelc: 'PC/EC' | 'PA/EL' | 'PA/EC' | 'PC/EL';
  /**
   * What its consistency actually is, named for what it is (C in CAP is linearizability only):
   * - linearizable: every read sees every write acknowledged before it began;
   * - lockstep: every replica passes through the same sequence of versions, one round at a
   *   time; a replica may lag while a round's result reaches it;
   * - committed-prefix: reads return a committed prefix of one log, possibly stale;
   * - bounded-staleness: a reader is at most s clocks behind;
   * - eventual: replicas converge once updates stop; reads may be arbitrarily stale.
   */
  consistency: 'linearizable' | 'lockstep' | 'committed-prefix' | 'bounded-staleness' | 'eventual';
  /** Where the "C" it keeps under a partition is durability of acknowledged writes, not reads (Kafka acks=all). */
  partitionKeeps?: 'durability';
}

export interface Strategy {
  readonly kind: string;
  /** Undirected edges the strategy communicates over (drawn and clickable in the topology). */
  topology(): Array<[NodeId, NodeId]>;
  start(): void;
  onStepDone(worker: NodeId, r: StepResult): void;
  onMessage(msg: Message): void;
  onTimer(node: NodeId, tag: string, data: unknown): void;
  onCrash(node: NodeId): void;
  onRestart(node: NodeId): void;
  /** Newest authoritative version (server, or the ring's newest step): staleness is measured against it. */
  authoritativeVersion(): number;
  /** Version held by a non-worker node (servers); workers' versions come from their replicas. */
  nodeVersion(node: NodeId): number;
  lostUpdates(): number;
  duplicateUpdates(): number;

  /**
   * Metrics this strategy defines (CURRICULUM §C.4: leaders, term, commitIndex, consumerLag, isrSize …),
   * cluster form without `node`. Return undefined for a metric it does not define.
   */
  metric?(name: string, node?: NodeId): number | null | undefined;
  /** Invariants to check after every event the strategy handled; each string is one violation. */
  checkInvariants?(): Array<{ invariant: string; detail: string }>;
  /** Strategy-specific actions such as Raft's `timeout`; return false if the action means nothing here. */
  onAction?(a: Action): boolean;
  /**
   * Whether onAction would act on a strategy-specific action of this kind for this node (Raft:
   * `timeout` on a server). Menus and keys offer such actions only where this says true.
   */
  acceptsAction?(kind: ActionKind, node: NodeId): boolean;
  /** Resolves a node selector such as "@leader"; null when none matches. */
  resolveSelector?(selector: string): NodeId | null;
  /**
   * The node's typed facts now (null: nothing beyond what the engine knows). Called after every
   * event that touched the node; keep it cheap. Views and sentences are built from these.
   */
  facts?(node: NodeId): NodeFacts | null;
  /** The node's replicated log (Raft servers, Kafka brokers' topic partition 0); null if none. */
  logOf?(node: NodeId): NodeLog | null;
  /** An answer of the coordination service's client library to this worker (a lock grant, a create …). */
  onCoord?(worker: NodeId, ev: CoordEvent): void;
  /**
   * How its updates and parameters read on the wire (protocols/wire.ts): the engine's security
   * layer tags, verifies, tampers with and replays exactly these bodies. Absent: nothing protected.
   */
  readonly wire?: WireCodec;
}

/** The newest version any live worker holds: the authority of strategies without a server. */
export function newestLiveWorkerVersion(ctx: StrategyContext): number {
  let v = 0;
  for (const id of ctx.workers) if (ctx.isUp(id)) v = Math.max(v, ctx.replica(id).version);
  return v;
}
