import type { Message, MessageKind, NodeId, SimTime } from '../sim/types';

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
}

export interface StrategyContext {
  readonly workers: readonly NodeId[];
  readonly servers: readonly NodeId[];
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
  /** Replaces the worker's parameters (copied) and records a version event. */
  setReplica(worker: NodeId, params: Float32Array, version: number, synced: number): void;
  /** The worker completed a step that counts for availability under this strategy. */
  counted(worker: NodeId): void;
  /** A strategy-specific history note, e.g. 'blocked' or 'retransmit'. */
  note(what: string, node?: NodeId, data?: Record<string, number | string | boolean>): void;
  /** A fresh copy of the broadcast initial parameters. */
  initialParams(): Float32Array;
}

export interface CapClass {
  /** What it keeps under a partition. */
  underPartition: 'C' | 'A';
  pacelc: 'PC/EC' | 'PA/EL' | 'PA/EC' | 'PC/EL';
}

export interface Strategy {
  readonly kind: string;
  readonly cap: CapClass;
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
  /** One line for the node's tooltip/status, e.g. "waiting for chunk 2 from w1". */
  status(node: NodeId): string;
  lostUpdates(): number;
  duplicateUpdates(): number;
}
