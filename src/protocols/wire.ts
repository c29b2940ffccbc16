import type { MessageKind, NodeId } from '../sim/types';

/**
 * The protected body of a message, as the engine's security layer sees it (engine/security): the
 * values it carries and the header fields that say whose and which they are. A strategy that
 * wants its updates protected (and attackable) declares a `WireCodec` for its message kinds; the
 * layer then tags, verifies, tampers with and replays those messages for every strategy alike,
 * over one canonical byte encoding (engine/security/encoding.ts).
 */
export interface WireBody {
  /** The worker whose update (worker → server) or parameters (server → worker) this is. */
  worker: NodeId;
  /** The training step, round or clock the message belongs to (what a replay relabels). */
  step: number;
  /** Further header numbers (per-update sequence numbers, versions, acknowledgements). */
  labels: readonly number[];
  /** The float32 values it carries: gradients or parameters, in order. */
  vectors: readonly Float32Array[];
}

export interface WireCodec {
  /** The protected body of a message of this strategy, or null for messages that carry none (pulls, acks, votes). */
  read(kind: MessageKind, payload: unknown, from: NodeId, to: NodeId): WireBody | null;
  /**
   * A payload like `payload` but carrying `body`'s header and values (what an attacker forges:
   * altered values, or a recorded message relabelled). Fields outside the body are kept. Must
   * return a new object and never change `payload`; `write(read(p), p)` is equivalent to p.
   */
  write(kind: MessageKind, payload: unknown, body: WireBody): unknown;
}

/**
 * The body of a push that carries a list of updates, each `{ [label]: number, grad, basedOn }`
 * (ps-async's seq, ssp's clock): the step is the newest update's label.
 */
export function updatesBody<U extends { grad: Float32Array; basedOn: number }>(worker: NodeId, updates: readonly U[], label: (u: U) => number): WireBody | null {
  if (updates.length === 0) return null;
  const labels: number[] = [];
  for (const u of updates) labels.push(label(u), u.basedOn);
  return { worker, step: label(updates[updates.length - 1]), labels, vectors: updates.map((u) => u.grad) };
}

/** The updates a body describes (labels come in pairs: the update's own label, then basedOn). */
export function updatesOf(body: WireBody): Array<{ label: number; basedOn: number; grad: Float32Array }> {
  return body.vectors.map((grad, i) => ({ label: body.labels[2 * i] ?? body.step, basedOn: body.labels[2 * i + 1] ?? 0, grad }));
}

/**
 * The strategies that declare a WireCodec (a test checks this list against their instances). For
 * the others (ring all-reduce, degrade) there are no parameter-server updates to protect: only
 * `tls` means something there, and a `tamper` has nothing to alter.
 */
export const strategiesWithWire: readonly string[] = ['ps-sync', 'ps-async', 'ssp', 'raft-ps', 'kafka-ps', 'paxos-ps', '2pc-ps'];

/** A replicated parameter server's client messages (raft-ps; paxos-ps and 2pc-ps through rsmClient). */
type ClientUpdate = { t: 'update'; seq: number; grad: Float32Array; basedOn: number };
type ClientParams = { t: 'params'; readId: number; params: Float32Array; version: number };

/**
 * What the security layer protects of a replicated parameter server (raft-ps, paxos-ps, 2pc-ps):
 * a client's update (seq, basedOn, gradient) to the leader or coordinator, and the parameters a
 * server answers a read with (version, parameters). The servers' own consensus messages are not
 * covered (the replicated log is the servers' business).
 */
export const replicatedClientWire: WireCodec = {
  read(kind, payload, from, to) {
    const m = payload as { t?: string };
    if (kind === 'gradient' && m.t === 'update') {
      const u = m as ClientUpdate;
      return { worker: from, step: u.seq, labels: [u.basedOn], vectors: [u.grad] };
    }
    if (kind === 'params' && m.t === 'params') {
      const p = m as ClientParams;
      return { worker: to, step: p.version, labels: [p.readId], vectors: [p.params] };
    }
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') return { ...(payload as ClientUpdate), seq: body.step, basedOn: body.labels[0] ?? 0, grad: body.vectors[0] } satisfies ClientUpdate;
    return { ...(payload as ClientParams), version: body.step, readId: body.labels[0] ?? 0, params: body.vectors[0] } satisfies ClientParams;
  },
};
