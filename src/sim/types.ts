import type { LogItem, NodeFacts } from '../protocols/facts';
import type { Note } from '../protocols/notes';

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

/**
 * What a man-in-the-middle does to the payloads on a link (CURRICULUM §C.2 `tamper`): negate
 * (and scale), scale, add noise, or re-send genuine messages it recorded earlier.
 */
export const tamperAttacks = ['flip', 'scale', 'noise', 'replay'] as const;
export type TamperAttack = (typeof tamperAttacks)[number];
/** What a Byzantine worker sends in place of its gradient (CURRICULUM §C.2 `byzantine`). */
export const byzantineAttacks = ['sign-flip', 'large-norm', 'random', 'alie'] as const;
export type ByzantineAttack = (typeof byzantineAttacks)[number];

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
  /** A man-in-the-middle on the directed link from → to (sim/faults.ts holds it; the engine's security layer acts). */
  | { do: 'tamper'; from: NodeId; to: NodeId; attack: TamperAttack; scale?: number; count?: number }
  | { do: 'untamper'; from: NodeId; to: NodeId }
  /** The worker, holding valid keys, sends malicious gradients from now on; `honest` ends it. */
  | { do: 'byzantine'; node: NodeId; attack: ByzantineAttack; scale?: number }
  | { do: 'honest'; node: NodeId }
  /** The worker pushes `count` (1) updates now: raft-ps with `clientMode: "manual"` (CURRICULUM §C.2, L7). */
  | { do: 'submit'; node: NodeId; count?: number }
  /** Change every link at once (CURRICULUM §C.2); fields left out keep their value. */
  | { do: 'network'; latencyMs?: number; jitterMs?: number; bandwidthMbps?: number; loss?: number }
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
  /**
   * What the sender's security layer attached (engine/security): an integrity tag over the
   * message's canonical bytes and, with replay protection, its session and sequence number.
   * Absent when the scenario has no `security` block. Strategies never read it.
   */
  sec?: SecEnvelope;
  /**
   * Observer bookkeeping (metrics, notes, views), never read by a receiver's logic: a
   * man-in-the-middle altered this message in flight, or ('replay') injected it in the sender's name.
   */
  tampered?: TamperAttack;
}

export interface SecEnvelope {
  /** SHA-256 digest or HMAC-SHA-256 tag (32 bytes); absent under TLS, whose records carry their own. */
  tag?: Uint8Array;
  /** The sender's and receiver's incarnations when it was sent (a new session after a restart). */
  session: readonly [number, number];
  /** Per directed link and session, 1, 2, 3 … (RFC 4303-style anti-replay). */
  seq: number;
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
      /** Set on a message a man-in-the-middle injected in `from`'s name (a `tamper` replay). */
      forged?: true;
    }
  | { t: SimTime; type: 'deliver'; id: number; from: NodeId; to: NodeId; kind: MessageKind; sentAt: SimTime }
  | {
      t: SimTime;
      type: 'drop';
      id: number;
      from: NodeId;
      to: NodeId;
      kind: MessageKind;
      /**
       * `auth`: the receiver's integrity check failed (a tampered message, or a TLS record that did
       * not authenticate); `replay`: its replay protection refused a sequence number it had seen.
       */
      reason: 'loss' | 'cut' | 'partition' | 'down' | 'auth' | 'replay';
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
