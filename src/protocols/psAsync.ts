import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import type { NodeFacts, Strategy, StrategyContext, StepResult } from './strategy';
import { updatesBody, updatesOf, type WireCodec } from './wire';
import type { PsAsyncConfig } from './psAsyncKnobs';

interface Update {
  seq: number;
  grad: Float32Array;
  basedOn: number;
}
interface PushMsg {
  updates: Update[];
  /** Request id, echoed in the reply: the read operation this push began (linearizability checker). */
  readOp: number;
}
interface ParamsMsg {
  /** Highest seq of this worker the server has applied (0 for a plain pull). */
  ackedSeq: number;
  params: Float32Array;
  version: number;
  readOp: number;
}

interface WorkerState {
  nextSeq: number;
  unacked: Update[];
  inFlight: boolean;
  /** Version of the server parameters last adopted. */
  synced: number;
  /** Local steps applied since. */
  local: number;
  /** After a restart: no parameters until the first pull is answered. */
  needsParams: boolean;
  ackedMax: number;
  /** Identifies the push in flight, so a stale timeout does not resend a newer one. */
  pushId: number;
  /** Waiting for the server's answer before the next step (only while the server is reachable). */
  waiting: boolean;
  /** False after a push timed out: train locally without waiting until an answer arrives again. */
  reachable: boolean;
  /** Client operations for the checker: update op per unacked seq, reads awaiting a reply. */
  updateOps: Map<number, number>;
  openReads: Set<number>;
}

interface ServerState {
  params: Float32Array;
  version: number;
  applied: Map<NodeId, number>;
}

/** Pushes carry (seq, basedOn, gradient) per update; parameters carry (version, ackedSeq, parameters). */
export const psAsyncWire: WireCodec = {
  read(kind, payload, from, to) {
    if (kind === 'gradient') return updatesBody(from, (payload as PushMsg).updates, (u) => u.seq);
    if (kind === 'params') {
      const m = payload as ParamsMsg;
      return { worker: to, step: m.version, labels: [m.ackedSeq], vectors: [m.params] };
    }
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') return { ...(payload as PushMsg), updates: updatesOf(body).map((u) => ({ seq: u.label, basedOn: u.basedOn, grad: u.grad })) } satisfies PushMsg;
    return { ...(payload as ParamsMsg), version: body.step, ackedSeq: body.labels[0] ?? 0, params: body.vectors[0] } satisfies ParamsMsg;
  },
};

/**
 * Asynchronous parameter server (ASP, the unbounded-delay mode of Li et al., OSDI 2014): a worker
 * pushes its gradient, the server applies gradients in arrival order and answers with its current
 * parameters, and the worker computes its next step on them. A worker waits for its own answer but
 * never for another worker, so with N equal workers a gradient is about N−1 versions stale.
 * If the answer does not come within `pushTimeoutMs`, the worker stops waiting and trains on its
 * local copy (applying its own gradients) while it keeps retrying: A is kept. Under a partition the
 * cut-off side drifts from the server: C is lost (PA/EL).
 *
 * Delivery: a push carries every gradient not yet acknowledged, tagged (worker, seq); the server
 * applies only seqs above the last one it applied for that worker, so retries and network
 * duplicates are applied once. One push is in flight at a time; an unanswered push is resent after
 * `pushTimeoutMs`. The server checkpoints (params, version, applied seqs) every
 * `checkpointEveryMs`; a crash loses what came after, and acknowledged updates lost that way are
 * counted in lostUpdates.
 */
export class PsAsyncStrategy implements Strategy {
  readonly kind = 'ps-async';
  readonly wire = psAsyncWire;
  private readonly server: NodeId;
  private srv: ServerState;
  private checkpoint: ServerState;
  private readonly w = new Map<NodeId, WorkerState>();
  private lost = 0;
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: PsAsyncConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('ps-async needs a server (cluster.servers ≥ 1)');
    this.server = ctx.servers[0];
    this.srv = { params: ctx.initialParams(), version: 0, applied: new Map() };
    this.checkpoint = copyServer(this.srv);
    for (const id of ctx.workers) this.w.set(id, freshWorker());
  }

  topology(): Array<[NodeId, NodeId]> {
    return this.ctx.workers.map((w) => [w, this.server] as [NodeId, NodeId]);
  }

  start(): void {
    for (const id of this.ctx.workers) this.ctx.startStep(id);
    if (this.cfg.checkpointEveryMs > 0) this.ctx.setTimer(this.server, this.cfg.checkpointEveryMs, 'checkpoint');
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.w.get(worker)!;
    // Train on the local copy at once (this is what keeps A), and queue the gradient for the server.
    const rep = this.ctx.replica(worker);
    const params = rep.params.slice();
    axpy(params, -this.ctx.learningRate, r.grad);
    s.local++;
    this.ctx.setReplica(worker, params, s.synced + s.local, s.synced, 'fresh');
    this.ctx.counted(worker);
    s.unacked.push({ seq: ++s.nextSeq, grad: r.grad, basedOn: r.basedOn });
    s.updateOps.set(s.nextSeq, this.ctx.op(worker, 'invoke', 'update'));
    this.push(worker, s);
    if (s.reachable) s.waiting = true;
    else this.stepLocally(worker);
  }

  /**
   * A step on the local copy reads parameters the server may never have held: recorded as a read
   * of the worker's replica (this is where ASP gives up C; the checker shows the pair).
   */
  private stepLocally(worker: NodeId): void {
    if (!this.ctx.startStep(worker)) return;
    const rep = this.ctx.replica(worker);
    this.ctx.op(worker, 'ok', 'read', this.ctx.op(worker, 'invoke', 'read'), rep.version, rep.params);
  }

  private push(worker: NodeId, s: WorkerState): void {
    if (s.inFlight || (s.unacked.length === 0 && !s.needsParams)) return;
    s.inFlight = true;
    const readOp = this.ctx.op(worker, 'invoke', 'read');
    s.openReads.add(readOp);
    const msg: PushMsg = { updates: s.unacked.slice(), readOp };
    const bytes = msg.updates.length * this.ctx.paramCount * 4;
    this.ctx.send(worker, this.server, msg.updates.length ? 'gradient' : 'pull', msg, bytes);
    this.ctx.setTimer(worker, this.cfg.pushTimeoutMs, 'push-timeout', ++s.pushId);
  }

  onMessage(msg: Message): void {
    if (msg.to === this.server) return this.onServer(msg);
    const s = this.w.get(msg.to);
    if (!s || msg.kind !== 'params') return;
    const m = msg.payload as ParamsMsg;
    // Replies arrive in order (FIFO link), and a restored server may legitimately answer with a
    // lower seq and version than before: adopt every answer, it is the authoritative state.
    s.ackedMax = Math.max(s.ackedMax, m.ackedSeq);
    for (const [seq, id] of s.updateOps) {
      if (seq > m.ackedSeq) continue;
      this.ctx.op(msg.to, 'ok', 'update', id);
      s.updateOps.delete(seq);
    }
    s.unacked = s.unacked.filter((u) => u.seq > m.ackedSeq);
    s.inFlight = false;
    // Adopt the server's parameters: they include every update of ours up to ackedSeq.
    s.synced = m.version;
    s.local = 0;
    this.ctx.setReplica(msg.to, m.params, m.version, m.version, 'fresh'); // the server's reply, made for this message
    if (s.openReads.delete(m.readOp)) this.ctx.op(msg.to, 'ok', 'read', m.readOp, m.version, m.params);
    s.reachable = true;
    if (s.needsParams) {
      // After a restart the worker learns from the server where its sequence numbers stand.
      s.nextSeq = Math.max(s.nextSeq, m.ackedSeq);
      s.needsParams = false;
      s.waiting = true;
    }
    if (s.unacked.length > 0) this.push(msg.to, s);
    if (s.waiting) {
      s.waiting = false;
      this.ctx.startStep(msg.to);
    }
  }

  private onServer(msg: Message): void {
    const worker = msg.from;
    const m = msg.payload as PushMsg;
    let last = this.srv.applied.get(worker) ?? 0;
    for (const u of m.updates) {
      if (u.seq <= last) {
        this.duplicates++; // already applied: a retry or a network duplicate, skipped
        continue;
      }
      const tau = this.srv.version - u.basedOn;
      const lr = this.cfg.lrStaleness === 'inverse' ? this.ctx.learningRate / Math.max(1, tau) : this.ctx.learningRate;
      axpy(this.srv.params, -lr, u.grad);
      this.srv.version++;
      last = u.seq;
      this.ctx.note('apply', this.server, { worker, seq: u.seq, staleness: tau });
    }
    this.srv.applied.set(worker, last);
    const reply: ParamsMsg = { ackedSeq: last, params: this.srv.params.slice(), version: this.srv.version, readOp: m.readOp };
    this.ctx.send(this.server, worker, 'params', reply, reply.params.length * 4);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (tag === 'checkpoint') {
      this.checkpoint = copyServer(this.srv);
      this.ctx.note('checkpoint', node, { version: this.srv.version });
      this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'checkpoint');
      return;
    }
    const s = this.w.get(node);
    if (tag === 'push-timeout' && s && s.inFlight && data === s.pushId) {
      s.inFlight = false;
      this.ctx.note('pushTimeout', node, { unacked: s.unacked.length });
      if (s.waiting && !s.needsParams) {
        // The server is out of reach: keep training on the local copy (this is what keeps A).
        s.reachable = false;
        s.waiting = false;
        this.stepLocally(node);
      }
      this.push(node, s);
    }
  }

  onCrash(node: NodeId): void {
    if (node === this.server) {
      // Volatile parameters are lost; only the checkpoint survives. (Reading the workers' ackedMax
      // here is the metric's bookkeeping, an observer's view, not protocol knowledge.)
      for (const [worker, s] of this.w) {
        const kept = this.checkpoint.applied.get(worker) ?? 0;
        if (s.ackedMax > kept) this.lost += s.ackedMax - kept;
      }
      this.srv = copyServer(this.checkpoint);
      return;
    }
    if (!this.w.has(node)) return; // a server this strategy does not use (a cluster may have more: switching from Raft keeps five)
    this.w.set(node, freshWorker());
  }

  onRestart(node: NodeId): void {
    if (node === this.server) {
      if (this.cfg.checkpointEveryMs > 0) this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'checkpoint');
      return;
    }
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use
    // Its parameters were lost with the process: pull fresh ones before training again.
    s.needsParams = true;
    this.push(node, s);
  }

  authoritativeVersion(): number {
    return this.srv.version;
  }

  nodeVersion(node: NodeId): number {
    return node === this.server ? this.srv.version : this.ctx.replica(node).version;
  }

  /**
   * Server: its version. Worker: what it does and how many of its updates wait for an
   * acknowledgement. A node's facts change only in events addressed to it (its messages, timers,
   * steps, crash and restart): the server's apply reaches a worker only as a reply. Null while down.
   */
  facts(node: NodeId): NodeFacts | null {
    if (!this.ctx.isUp(node)) return null;
    if (node === this.server) return { kind: 'ps-server', version: this.srv.version };
    const s = this.w.get(node);
    if (!s) return null;
    const unacked = s.unacked.length;
    if (s.needsParams) return { kind: 'ps-worker', state: 'pulling', unacked };
    if (!s.reachable) return { kind: 'ps-worker', state: 'unreachable', unacked };
    if (s.waiting) return { kind: 'ps-worker', state: 'waiting', waitFor: 'params', unacked };
    return { kind: 'ps-worker', state: 'training', unacked };
  }

  lostUpdates(): number {
    return this.lost;
  }

  duplicateUpdates(): number {
    return 0; // duplicates are detected and skipped (counted separately as rejected)
  }

  /** Retries and network duplicates the server recognised and skipped. */
  duplicatesSkipped(): number {
    return this.duplicates;
  }
}

function freshWorker(): WorkerState {
  return {
    nextSeq: 0,
    unacked: [],
    inFlight: false,
    synced: 0,
    local: 0,
    needsParams: false,
    ackedMax: 0,
    pushId: 0,
    waiting: false,
    reachable: true,
    updateOps: new Map(),
    openReads: new Set(),
  };
}

function copyServer(s: ServerState): ServerState {
  return { params: s.params.slice(), version: s.version, applied: new Map(s.applied) };
}
