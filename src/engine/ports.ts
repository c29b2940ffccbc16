import type { Strategy, StrategyContext } from '../protocols';
import type { CoordContext } from '../protocols/coord/api';
import type { NodeFacts, NodeLog } from '../protocols/facts';
import type { Replica } from '../protocols/strategy';
import { rngFor } from '../sim/rng';
import type { HistoryEvent, MessageKind, NodeId } from '../sim/types';
import { equalVectors, fingerprint } from '../sim/vectors';
import type { EngineCore } from './core';
import type { SecurityHost } from './security/layer';

/**
 * The ports through which the plugged-in protocols see the world: the strategy's context, the
 * coordination service's context, where facts and logs come from, and the invariants checked
 * after every event. Everything goes through the engine core, so the schedule is the engine's.
 */

/** What a strategy sees: its nodes, the clock, the network, timers, steps, replicas, the history. */
export function strategyContext(c: EngineCore): StrategyContext {
  const sc = c.scenario;
  // Strategies report the parameters they just set in an `op` right after (allreduce's update, a
  // PS reply's read), and hashing a 100 k-parameter vector twice per version was a tenth of the
  // main thread's time per step. The replica carries its fingerprint (never changed in place:
  // Replica.params belongs to the engine); the array handed to setReplica shares it within the
  // same event (a strategy does not edit what it just set), so that array is remembered per node.
  const lastSet = new Map<NodeId, { src: Float32Array; seq: number }>();
  const hashOf = (node: NodeId, params: Float32Array): string => {
    const r = c.node(node).replica;
    if (params === r.params) return r.hash;
    const m = lastSet.get(node);
    if (m && params === m.src && m.seq === c.eventSeq) return r.hash;
    return fingerprint(params);
  };
  return {
    workers: c.workerIds,
    servers: c.serverIds,
    brokers: c.brokerIds,
    paramCount: c.init.length,
    learningRate: sc.model.learningRate,
    stepMs: sc.compute.stepMs,
    now: () => c.t,
    isUp: (n) => c.node(n).up,
    send: (from, to, kind, payload, bytes) => c.send(from, to, kind, payload, bytes),
    setTimer: (node, delay, tag, data) => c.setTimer(node, delay, tag, data),
    startStep: (w, key) => c.startStep(w, key),
    isComputing: (w) => c.node(w).computing,
    replica: (w): Replica => c.node(w).replica,
    setReplica: (w, params, version, synced, fresh) => {
      const n = c.node(w);
      const copy = fresh === 'fresh' ? params : params.slice();
      const hash = fingerprint(copy);
      lastSet.set(w, { src: params, seq: c.eventSeq });
      if (version === synced && !c.lineage.has(version)) c.lineage.set(version, hash);
      n.replica = { params: copy, version, synced, onLineage: version === synced && c.lineage.get(version) === hash, hash };
      c.history.append({ t: c.t, type: 'version', node: w, version, synced, v: { hash } });
      if (promisesOneStatePerVersion(c)) checkSameVersionSameParams(c, w);
    },
    counted: (w) => {
      c.node(w).counted.push(c.t);
      c.history.append({ t: c.t, type: 'counted', node: w });
    },
    // The generic K cannot be narrowed to one member of the Note union; the parameters' types tie it.
    note: (what, node, data) => c.history.append({ t: c.t, type: 'note', node, what, data } as HistoryEvent),
    touch: (node) => c.recorder.touch(node),
    initialParams: () => c.init.slice(),
    rng: (stream) => rngFor(sc.seed, `strategy:${stream}`),
    op: (process, op, f, opId, version, params) => {
      const id = opId ?? ++c.nextOpId;
      const e = { t: c.t, type: 'op' as const, process, op, f, opId: id };
      const withVersion = version === undefined ? e : { ...e, version };
      c.history.append(params ? { ...withVersion, v: { hash: hashOf(process, params) } } : withVersion);
      return id;
    },
    violation: (invariant, detail) => c.recordViolation(invariant, detail),
    isByzantine: (w) => c.adversaries.isByzantine(w),
    ...(c.coord ? { coord: c.coord.client } : {}),
  };
}

/** What the coordination service sees: the network, timers, notes, and the way back to the app. */
export function coordContext(c: EngineCore): CoordContext {
  const sc = c.scenario;
  return {
    workers: c.workerIds,
    coord: c.coordIds,
    now: () => c.t,
    isUp: (n: NodeId) => c.node(n).up,
    send: (from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number) => c.send(from, to, kind, payload, bytes),
    setTimer: (node: NodeId, delay: number, tag: string, data?: unknown) => c.setTimer(node, delay, tag, data),
    note: ((what, node, data) => c.history.append({ t: c.t, type: 'note', node, what, data } as HistoryEvent)) as StrategyContext['note'],
    touch: (node: NodeId) => c.recorder.touch(node),
    rng: (stream: string) => rngFor(sc.seed, `coord:${stream}`),
    violation: (invariant: string, detail: string) => c.recordViolation(invariant, detail),
    op: (process, op, f, key, opId, version) => {
      const id = opId ?? ++c.nextOpId;
      const e = { t: c.t, type: 'op' as const, process, op, f, opId: id, key };
      c.history.append(version === undefined ? e : { ...e, version });
      return id;
    },
    toApp: (worker: NodeId, ev: Parameters<NonNullable<Strategy['onCoord']>>[1]) => {
      c.recorder.touch(worker);
      c.strategy.onCoord?.(worker, ev);
    },
  };
}

/**
 * What the security layer works with: the strategy's codec, for the strategy's own messages only.
 * The coordination service's messages (to and from c0…: locks, leases, metadata) carry no
 * updates: TLS seals them as it does every record, a digest or a tag has nothing of theirs to
 * cover, and a `tamper` on their links is refused (scenario/validate.ts, tamperFact).
 */
export function securityHost(c: EngineCore): SecurityHost {
  const codec = c.strategy.wire;
  const ofService = (from: NodeId, to: NodeId) => c.isCoordNode(from) || c.isCoordNode(to);
  return {
    seed: c.scenario.seed,
    workers: c.workerIds,
    codec: codec && c.coord ? { read: (kind, payload, from, to) => (ofService(from, to) ? null : codec.read(kind, payload, from, to)), write: (kind, payload, body) => codec.write(kind, payload, body) } : codec,
    incarnation: (n) => c.node(n).inc,
    tamperOn: (from, to) => c.network.tamper(from, to),
    // The generic K cannot be narrowed to one member of the Note union; the parameters' types tie it.
    note: (what, node, data) => c.history.append({ t: c.t, type: 'note', node, what, data } as HistoryEvent),
  };
}

/** Every node's facts and log as they are now. */
export interface LiveFacts {
  facts(node: NodeId): NodeFacts | null;
  logOf(node: NodeId): NodeLog | null;
}

/** Facts and logs: the coordination nodes' from the service, every other node's from the strategy. */
export function factsSource(c: EngineCore): LiveFacts {
  return {
    facts: (node) => (c.isCoordNode(node) ? c.coord!.facts(node) : (c.strategy.facts?.(node) ?? null)),
    logOf: (node) => (c.isCoordNode(node) ? c.coord!.logOf(node) : (c.strategy.logOf?.(node) ?? null)),
  };
}

/** Invariants checked after every event: the strategy's own, and the coordination service's. */
export function checkInvariants(c: EngineCore): void {
  const found = c.strategy.checkInvariants?.();
  if (found) for (const v of found) c.recordViolation(v.invariant, v.detail);
  if (c.coord) for (const v of c.coord.checkInvariants()) c.recordViolation(v.invariant, v.detail);
}

/** Strategies whose replicas at one version must hold identical parameters (checked on every version change). */
function promisesOneStatePerVersion(c: EngineCore): boolean {
  const k = c.cap.consistency;
  return k === 'linearizable' || k === 'lockstep' || k === 'committed-prefix';
}

/**
 * A strong strategy promises: live workers at one version hold identical parameters. Replicas with
 * the same fingerprint hold the same bits (a 2⁻³² chance aside) and are not compared again: in a
 * ring every worker reaching a round compared 100 k floats with each peer already there.
 */
function checkSameVersionSameParams(c: EngineCore, w: NodeId): void {
  const me = c.node(w).replica;
  for (const id of c.workerIds) {
    if (id === w) continue;
    const o = c.node(id);
    if (o.up && o.replica.version === me.version && o.replica.hash !== me.hash && !equalVectors(o.replica.params, me.params)) {
      c.recordViolation('same-version-same-params', `${w} and ${id} hold different parameters at version ${me.version}`);
    }
  }
}
