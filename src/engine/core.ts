import { capOf, type CapClass, type Strategy } from '../protocols';
import type { CoordServiceRuntime } from '../protocols/coord/api';
import type { Scenario } from '../scenario/schema';
import { History, type Sha256Factory } from '../sim/history';
import { Network, quantize, type DropReason } from '../sim/network';
import { rngFor } from '../sim/rng';
import { EventQueue } from '../sim/scheduler';
import type { Message, MessageKind, NodeId, NodeRole } from '../sim/types';
import { fingerprint } from '../sim/vectors';
import type { Trainer } from '../train/types';
import type { InFlight } from './api';
import type { FactsRecorder } from './factsRecorder';
import type { Ev, NodeRt } from './runtime';
import { Adversaries } from './security/adversaries';
import type { Outgoing } from './security/mitm';
import type { SecurityPort } from './security/port';

/**
 * The engine's state and the primitives every part of it uses: the clock, the event queue, the
 * network, the nodes' runtime records, the history, and sending, dropping, timers, steps and
 * violations. Every message passes the security layer (security/) on its way out and in. The
 * event loop (eventLoop.ts) drives it; ports.ts, faultInjection.ts and readModel.ts work on it.
 */
export class EngineCore {
  readonly history: History;
  readonly durationMs: number;
  readonly queue = new EventQueue<Ev>();
  readonly network: Network;
  readonly rt = new Map<NodeId, NodeRt>();
  readonly workerIds: NodeId[];
  readonly serverIds: NodeId[];
  readonly brokerIds: NodeId[];
  readonly coordIds: NodeId[];
  readonly allIds: NodeId[];
  readonly init: Float32Array;
  /** model.virtualParams / real parameters: every payload is charged at the modelled size. */
  readonly byteScale: number;
  readonly inflight = new Map<number, InFlight>();
  /** Fingerprint of the first replica seen at each authoritative version (see ReplicaRt.onLineage). */
  readonly lineage = new Map<number, string>();
  readonly cap: CapClass;
  // The strategy, the coordination service and the facts recorder are built on this core (their
  // contexts read it), so they are attached right after it, before any event runs (Simulation).
  strategy!: Strategy;
  /** The coordination service on the `coord` nodes, when the cluster has them. */
  coord: CoordServiceRuntime | null = null;
  recorder!: FactsRecorder;
  /** Integrity, replay protection and men-in-the-middle between the protocols and the network (built on the strategy's codec). */
  security!: SecurityPort;
  /** Workers the engine drives as Byzantine (their gradients are replaced before the strategy sends them). */
  readonly adversaries: Adversaries;
  t = 0;
  nextMsgId = 0;
  nextOpId = 0;
  /** Events processed so far (the event loop counts them): "within one event" for the ports' memos. */
  eventSeq = 0;
  violations = 0;
  messages = 0;
  bytes = 0;
  dropped = 0;

  constructor(
    readonly scenario: Scenario,
    readonly trainer: Trainer,
    sha256: Sha256Factory,
  ) {
    this.history = new History(sha256);
    this.durationMs = scenario.durationMs;
    const c = scenario.cluster;
    this.workerIds = range(c.workers).map((i) => `w${i}`);
    this.serverIds = range(c.servers).map((i) => `s${i}`);
    this.brokerIds = range(c.brokers).map((i) => `b${i}`);
    this.coordIds = range(c.coord).map((i) => `c${i}`);
    const all = (this.allIds = [...this.workerIds, ...this.serverIds, ...this.brokerIds, ...this.coordIds]);
    this.init = trainer.initialParams();
    if (this.init.length !== trainer.paramCount) throw new Error('trainer returned a wrong parameter count');
    const vp = scenario.model.virtualParams;
    if (vp !== undefined && vp < this.init.length) throw new Error(`model.virtualParams: ${vp} is below the model's ${this.init.length} real parameters (it is the modelled size, at least the real one)`);
    this.byteScale = vp !== undefined ? vp / this.init.length : 1;
    this.lineage.set(0, fingerprint(this.init));
    this.cap = capOf(scenario.strategy);
    const seed = scenario.seed;
    const { nicMbps, ...linkDefaults } = scenario.network;
    this.network = new Network(all, linkDefaults, rngFor(seed, 'network'), nicMbps);
    this.adversaries = new Adversaries(this.workerIds, (n) => rngFor(seed, `byzantine:${n}`));
    for (const id of all) {
      const role: NodeRole = id[0] === 'w' ? 'worker' : id[0] === 's' ? 'server' : id[0] === 'c' ? 'coord' : 'broker';
      const straggler = scenario.compute.stragglers.filter((s) => s.node === id).reduce((a, s) => a * s.slowdown, 1);
      this.rt.set(id, {
        id,
        role,
        up: true,
        inc: 0,
        slowFactor: 1,
        straggler,
        steps: 0,
        computing: false,
        replica: { params: this.init.slice(), version: 0, synced: 0, onLineage: true, hash: this.lineage.get(0)! },
        counted: [],
        bytesSent: 0,
        computeRng: rngFor(seed, `compute:${id}`),
        transientRng: rngFor(seed, `transient:${id}`),
        paused: null,
        pauses: [],
      });
    }
  }

  node(id: NodeId): NodeRt {
    const n = this.rt.get(id);
    if (!n) throw new Error(`unknown node ${id}`);
    return n;
  }

  isCoordNode(node: NodeId): boolean {
    return this.coord !== null && this.node(node).role === 'coord';
  }

  recordViolation(invariant: string, detail: string): void {
    this.violations++;
    this.history.append({ t: this.t, type: 'violation', invariant, detail });
  }

  /** A timer of the node's current incarnation (void after a crash or restart). */
  setTimer(node: NodeId, delay: number, tag: string, data: unknown): void {
    this.queue.push(quantize(this.t + delay), { k: 'timer', node, tag, data, inc: this.node(node).inc });
  }

  startStep(w: NodeId, batchKey?: number): boolean {
    const n = this.node(w);
    if (!n.up || n.computing) return false;
    const sc = this.scenario;
    n.computing = true;
    const step = n.steps + 1;
    const u = n.computeRng.next();
    const tr = sc.compute.transient;
    const transient = tr !== undefined && n.transientRng.chance(tr.p);
    const duration = sc.compute.stepMs * n.slowFactor * n.straggler * (transient ? tr.slowdown : 1) * (1 + sc.compute.jitter * (2 * u - 1));
    const batchRng = rngFor(sc.seed, `batch:${w}:${batchKey ?? step}`);
    const batch = new Uint32Array(sc.model.batchSize);
    for (let i = 0; i < batch.length; i++) batch[i] = batchRng.int(0, this.trainer.samples - 1);
    const due = quantize(this.t + duration);
    const basedOn = n.replica.version;
    const pending = this.trainer.gradient({ node: w, params: n.replica.params, batch, priority: due });
    pending.catch(() => undefined); // handled when the completion event is processed
    this.history.append({ t: this.t, type: 'stepStart', node: w, step, version: basedOn, due });
    if (transient) this.history.append({ t: this.t, type: 'note', node: w, what: 'transient', data: { step, slowdown: tr.slowdown } });
    this.queue.push(due, { k: 'stepDone', node: w, step, basedOn, inc: n.inc, pending, transient, startedAt: this.t, due });
    return true;
  }

  send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, rawBytes: number): void {
    if (!this.node(from).up) return;
    this.node(to); // unknown destination is a protocol bug: fail loudly
    // Charged at the modelled size (model.virtualParams): payloads are 4 bytes per parameter.
    const bytes = this.byteScale === 1 ? rawBytes : Math.round(rawBytes * this.byteScale);
    // Nothing on the way can change it (the common case): sent as it is, without the layer's wrapping.
    if (this.security.idle(from, to)) return this.transmit(from, to, kind, payload, bytes, undefined);
    // The security layer seals the message; an attacker on the link may alter it or put a replay before it.
    for (const out of this.security.outgoing(from, to, kind, payload, bytes)) this.transmit(from, to, out.kind, out.payload, out.bytes, out);
  }

  private transmit(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number, out: Outgoing | undefined): void {
    const tx = this.network.transmit(from, to, bytes, this.t);
    const msg: Message = { id: ++this.nextMsgId, from, to, kind, bytes, payload, sentAt: this.t };
    if (out?.sec) msg.sec = out.sec;
    if (out?.tampered) msg.tampered = out.tampered;
    this.recordSend(msg, tx.due, undefined, out?.forged);
    if (tx.dropped === 'cut' || tx.dropped === 'partition') {
      this.drop(msg, tx.dropped);
    } else if (tx.dropped === 'loss') {
      this.queue.push(tx.due, { k: 'lost', msg });
    } else {
      this.queue.push(tx.due, { k: 'deliver', msg });
      if (tx.duplicateDue !== undefined) {
        const copy: Message = { ...msg, id: ++this.nextMsgId };
        this.recordSend(copy, tx.duplicateDue, msg.id, out?.forged);
        this.queue.push(tx.duplicateDue, { k: 'deliver', msg: copy });
      }
    }
  }

  private recordSend(msg: Message, due: number, dupOf?: number, forged?: true): void {
    this.messages++;
    this.bytes += msg.bytes;
    // A forged message is on the wire, but its sender did not send it.
    if (!forged) this.node(msg.from).bytesSent += msg.bytes;
    const e = { t: this.t, type: 'send' as const, id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, bytes: msg.bytes, due };
    const marked = forged ? { ...e, forged } : e;
    this.history.append(dupOf === undefined ? marked : { ...marked, dupOf });
    this.inflight.set(msg.id, { id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, bytes: msg.bytes, sentAt: this.t, due });
  }

  drop(msg: Message, reason: DropReason): void {
    this.dropped++;
    this.inflight.delete(msg.id);
    this.history.append({ t: this.t, type: 'drop', id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, reason, sentAt: msg.sentAt });
  }

  totalSteps(): number {
    let s = 0;
    for (const id of this.workerIds) s += this.node(id).steps;
    return s;
  }
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
