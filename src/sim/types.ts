import type { LogItem, NodeFacts, Note } from '../protocols/facts';

/**
 * Core vocabulary of the simulator. Everything here is plain data: no DOM, no tfjs, no clock.
 * Layers above (protocols, train, scenario, app, cli) speak these types.
 */

export type NodeId = string; // workers w0…, servers s0…, brokers b0…, coordination nodes c0…
export type NodeRole = 'worker' | 'server' | 'broker' | 'coord';
export type SimTime = number; // simulated milliseconds

/** Link properties of one directed link. */
export interface LinkProps {
  latencyMs: number;
  jitterMs: number;
  bandwidthMbps: number;
  loss: number; // probability a message is lost, 0..1
  duplicate: number; // probability a message is delivered twice, 0..1
}

/** Actions a user, a scenario timeline or a test can apply (DESIGN rule 5). */
export type Action =
  | { do: 'partition'; groups: NodeId[][] }
  | { do: 'heal' }
  | { do: 'cut'; from: NodeId; to: NodeId; oneWay?: boolean }
  | { do: 'restore'; from: NodeId; to: NodeId; oneWay?: boolean }
  | { do: 'crash'; node: NodeId }
  | { do: 'restart'; node: NodeId }
  | { do: 'slow'; node: NodeId; factor: number }
  /** Fire a node's election timer now (Raft, like RaftScope's "timeout"); strategies that elect handle it. */
  | { do: 'timeout'; node: NodeId }
  /**
   * Freeze a process for `ms` (a GC pause, a VM freeze): it handles no events, its timers and its
   * computation stop, incoming messages queue; then it resumes unaware. Unlike crash, state is kept.
   */
  | { do: 'pause'; node: NodeId; ms: number }
  /** Write a metadata key through the coordination service's leader (e.g. the checkpoint pointer). */
  | { do: 'putMeta'; key: string; value: string }
  | {
      do: 'link';
      from: NodeId;
      to: NodeId;
      oneWay?: boolean;
      latencyMs?: number;
      jitterMs?: number;
      bandwidthMbps?: number;
      loss?: number;
      duplicate?: number;
    };
export type ActionKind = Action['do'];

/** Message kinds, coloured by kind in the views. */
export type MessageKind = 'chunk' | 'gradient' | 'params' | 'pull' | 'ack' | 'state' | 'vote' | 'append' | string;

export interface Message<P = unknown> {
  id: number;
  from: NodeId;
  to: NodeId;
  kind: MessageKind;
  bytes: number; // payload bytes (4 per float32), headers excluded
  payload: P;
  sentAt: SimTime;
}

/**
 * One entry of the append-only history. `v` holds training *values* (losses, parameter hashes):
 * they are excluded from the schedule hash, so the schedule is equal across backends.
 */
export type HistoryEvent =
  /** `on`: the timeline entry fired on this event trigger (its `t` is when it fired). */
  | { t: SimTime; type: 'action'; action: Action; source: 'timeline' | 'user'; on?: { event: string; node?: NodeId; after?: number } }
  | {
      t: SimTime;
      type: 'send';
      id: number;
      from: NodeId;
      to: NodeId;
      kind: MessageKind;
      bytes: number;
      due: SimTime;
      /** Set on a copy the network made of message `dupOf` (duplication fault). */
      dupOf?: number;
    }
  | { t: SimTime; type: 'deliver'; id: number; from: NodeId; to: NodeId; kind: MessageKind; sentAt: SimTime }
  | {
      t: SimTime;
      type: 'drop';
      id: number;
      from: NodeId;
      to: NodeId;
      kind: MessageKind;
      reason: 'loss' | 'cut' | 'partition' | 'down';
      sentAt: SimTime;
    }
  | { t: SimTime; type: 'stepStart'; node: NodeId; step: number; version: number; due: SimTime }
  | { t: SimTime; type: 'stepDone'; node: NodeId; step: number; version: number; v: { loss: number } }
  | { t: SimTime; type: 'version'; node: NodeId; version: number; synced: number; v: { hash: string } }
  | { t: SimTime; type: 'counted'; node: NodeId }
  /** `error`: the training worker's error message when its worker failed (a thrown error), else absent. */
  | { t: SimTime; type: 'crash'; node: NodeId; error?: string }
  | { t: SimTime; type: 'restart'; node: NodeId }
  | ({ t: SimTime; type: 'note' } & Note)
  /** A node's typed facts changed (protocols/facts.ts); the whole new value, so a seek needs only the latest. */
  | { t: SimTime; type: 'facts'; node: NodeId; f: NodeFacts | null }
  /** A node's replicated log changed: entries at index ≥ `from` were removed, then `add` appended from `from`. */
  | { t: SimTime; type: 'log'; node: NodeId; from: number; add: LogItem[] }
  /**
   * The engine's metric sample on the simulated clock (a fixed period, every expectation time and
   * the end). Values only, so the schedule hash does not depend on them; the charts plot these.
   */
  | { t: SimTime; type: 'metrics'; v: MetricSample }
  /**
   * A client operation on the replicated parameters, for linearizability checking (Jepsen style).
   * `version` is the version a read returned or an update produced; the parameter hash is a value.
   */
  | {
      t: SimTime;
      type: 'op';
      process: NodeId;
      op: 'invoke' | 'ok' | 'fail' | 'info';
      f: 'read' | 'update';
      opId: number;
      version?: number;
      v?: { hash: string };
      /** A metadata key of the coordination service (absent: the parameters). */
      key?: string;
    }
  /** An invariant the run broke (Raft election safety, SSP bound, lost acknowledged update …). */
  | { t: SimTime; type: 'violation'; invariant: string; detail: string }
  | { t: SimTime; type: 'end' };
export type HistoryEventType = HistoryEvent['type'];

/** Metric values at one sample time: cluster-wide, and per node for the metrics that have a node form. */
export interface MetricSample {
  cluster: Record<string, number | null>;
  nodes: Record<NodeId, Record<string, number | null>>;
}
