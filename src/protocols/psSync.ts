import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import type { NodeFacts, Strategy, StrategyContext, StepResult } from './strategy';
import type { WireCodec } from './wire';
import { aggregate } from './aggregation';
import { crashedWaitClock, freshWaitClock, startWaiting, stopWaiting, waitFraction, type WaitClock } from './waiting';
import { psSyncAggregationProblem, type PsSyncConfig } from './psSyncKnobs';

interface PushMsg {
  round: number;
  grad: Float32Array;
}
interface ParamsMsg {
  params: Float32Array;
  version: number;
}

interface WorkerState extends WaitClock {
  /** The round whose parameters the worker holds (= its version). */
  round: number;
  /** The gradient pushed for `round`, kept for retransmission until the next parameters arrive. */
  pushed: Float32Array | null;
  /** After a restart: no parameters until the server answers a pull. */
  needsParams: boolean;
  /** The update operation in flight (for the linearizability history), from push to new parameters. */
  op: number | null;
}

interface ServerState {
  params: Float32Array;
  version: number;
  /** Gradients of the current round (round = version), in arrival order. */
  received: Map<NodeId, Float32Array>;
}

/**
 * Bulk-synchronous parameter server (BSP) with a barrier, optionally with backup workers
 * (Chen et al., "Revisiting Distributed Synchronous SGD", 2016). Round r: every worker computes a
 * gradient on the round's parameters (version r) and pushes it to s0; the server aggregates the
 * first N − b gradients of round r that arrive, applies their mean (times the count under the
 * linear scaling rule, so the step equals all-reduce's sum), bumps the version and sends the new
 * parameters to every worker. Gradients of a finished round arrive late and are dropped (counted).
 * Every worker adopts the same parameters for one version, so C is kept; a partition or a dead
 * worker stops the barrier (more than b missing gradients), so A is given up: PC/EC. Even without
 * faults every round waits for the (N − b)-th fastest worker: the "else latency" of PACELC.
 *
 * Delivery over a lossy network: a waiting worker resends its push every `rtoMs`; the server
 * deduplicates by (worker, round) and answers a push of a finished round with the current
 * parameters (the worker evidently missed them). The server persists (params, version) when it
 * applies a round (a checkpoint per round): a server crash loses only the gradients of the round
 * in progress, which the waiting workers resend; nothing acknowledged is lost.
 *
 * Aggregation (CURRICULUM L13): the mean by default; `median`, `trimmed-mean`, `krum` and
 * `multi-krum` (protocols/aggregation.ts) replace it by a robust estimate of the mean that one
 * Byzantine worker cannot drag arbitrarily far, at the price of needing every gradient
 * individually (no summing on the way, as ring all-reduce does). Under the linear scaling rule
 * the robust estimate is scaled like the mean.
 */
export class PsSyncStrategy implements Strategy {
  readonly kind = 'ps-sync';
  readonly wire = psSyncWire;
  private readonly server: NodeId;
  private readonly n: number;
  /** How many gradients close a round. */
  private readonly quorum: number;
  private srv: ServerState;
  /** What survives a server crash: written when a round is applied. */
  private persisted: { params: Float32Array; version: number };
  private readonly w = new Map<NodeId, WorkerState>();
  private late = 0;
  private dupSkipped = 0;
  // Observer bookkeeping for delayedRounds (a real server does not know which steps straggled).
  private readonly transient = new Set<string>();
  private roundsDone = 0;
  private roundsDelayed = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: PsSyncConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('ps-sync needs a server (cluster.servers ≥ 1)');
    this.server = ctx.servers[0];
    this.n = ctx.workers.length;
    if (cfg.backupWorkers >= this.n) throw new Error(`ps-sync: backupWorkers (${cfg.backupWorkers}) must be below the number of workers (${this.n})`);
    this.quorum = this.n - cfg.backupWorkers;
    const problem = psSyncAggregationProblem(cfg, this.n);
    if (problem) throw new Error(`ps-sync: ${problem}`);
    this.srv = { params: ctx.initialParams(), version: 0, received: new Map() };
    this.persisted = { params: this.srv.params.slice(), version: 0 };
    for (const id of ctx.workers) this.w.set(id, freshWorker(0));
  }

  topology(): Array<[NodeId, NodeId]> {
    return this.ctx.workers.map((w) => [w, this.server] as [NodeId, NodeId]);
  }

  start(): void {
    for (const id of this.ctx.workers) this.ctx.startStep(id, 0);
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.w.get(worker)!;
    if (s.needsParams) return;
    if (r.transient) this.transient.add(`${worker}:${r.basedOn}`);
    if (r.basedOn !== s.round) {
      // A straggler whose round closed without it (backup workers): it still pushes, the server
      // drops the gradient as late, and the worker computes on the parameters it now holds.
      this.ctx.send(worker, this.server, 'gradient', { round: r.basedOn, grad: r.grad } satisfies PushMsg, r.grad.length * 4);
      this.ctx.startStep(worker, s.round);
      return;
    }
    s.pushed = r.grad;
    // The worker's part of the round's collective update: it completes when the round's
    // parameters come back (checked like all-reduce's rounds: in order, one set per version).
    s.op = this.ctx.op(worker, 'invoke', 'update');
    this.push(worker, s);
    startWaiting(s, this.ctx.now());
    this.ctx.note('barrierBlocked', worker, { round: s.round });
  }

  private push(worker: NodeId, s: WorkerState): void {
    if (s.pushed) {
      this.ctx.send(worker, this.server, 'gradient', { round: s.round, grad: s.pushed } satisfies PushMsg, s.pushed.length * 4);
    } else {
      this.ctx.send(worker, this.server, 'pull', null, 0);
    }
    this.ctx.setTimer(worker, this.cfg.rtoMs, 'rto', s.round);
  }

  onMessage(msg: Message): void {
    if (msg.to === this.server) return this.onServer(msg);
    const s = this.w.get(msg.to);
    if (!s || msg.kind !== 'params') return;
    const m = msg.payload as ParamsMsg;
    if (m.version <= s.round && !s.needsParams) return; // a duplicate or an answer to a retransmission
    s.round = m.version;
    s.pushed = null;
    s.needsParams = false;
    stopWaiting(s, this.ctx.now());
    this.ctx.setReplica(msg.to, m.params, m.version, m.version);
    if (s.op !== null) this.ctx.op(msg.to, 'ok', 'update', s.op, m.version, m.params);
    else this.ctx.op(msg.to, 'ok', 'read', this.ctx.op(msg.to, 'invoke', 'read'), m.version, m.params);
    s.op = null;
    this.ctx.counted(msg.to);
    // A straggler still computing the old round finishes it first (see onStepDone).
    if (!this.ctx.isComputing(msg.to)) this.ctx.startStep(msg.to, s.round);
  }

  private onServer(msg: Message): void {
    const worker = msg.from;
    if (msg.kind === 'pull') return this.sendParams(worker);
    if (msg.kind !== 'gradient') return;
    const m = msg.payload as PushMsg;
    if (m.round < this.srv.version) {
      // Late: a dropped straggler's gradient, or a retransmission by a worker that missed the
      // parameters. Either way it is not applied; the answer is the current parameters.
      this.late++;
      this.ctx.note('lateGradient', this.server, { worker, round: m.round });
      this.sendParams(worker);
      return;
    }
    if (m.round > this.srv.version) return; // impossible with a persisted server; ignore defensively
    if (this.srv.received.has(worker)) {
      this.dupSkipped++;
      return;
    }
    this.srv.received.set(worker, m.grad);
    if (this.srv.received.size >= this.quorum) this.closeRound();
  }

  private closeRound(): void {
    const round = this.srv.version;
    const grads = [...this.srv.received.entries()].slice(0, this.quorum);
    const k = grads.length;
    const agg = aggregate(
      grads.map(([, g]) => g),
      { rule: this.cfg.aggregation, trim: this.cfg.trim, f: this.cfg.f },
    );
    const scale = this.cfg.lrLinearScaling ? k : 1;
    axpy(this.srv.params, -this.ctx.learningRate * scale, agg.vector);
    this.srv.version = round + 1;
    this.srv.received = new Map();
    this.persisted = { params: this.srv.params.slice(), version: this.srv.version };
    let delayed = false;
    grads.forEach(([worker], i) => {
      // Observer's note: the rule kept a Byzantine worker's gradient out (Krum: not selected;
      // coordinate-wise rules: an outlier in most coordinates). The server itself cannot tell.
      const share = agg.leftOut[i];
      if (share > 0.5 && this.ctx.isByzantine(worker)) this.ctx.note('byzantineOutlierDropped', worker, { rule: this.cfg.aggregation, round, share });
    });
    for (const [worker] of grads) {
      this.ctx.note('apply', this.server, { worker, seq: round, staleness: 0 });
      if (this.transient.delete(`${worker}:${round}`)) delayed = true;
    }
    this.roundsDone++;
    if (delayed) this.roundsDelayed++;
    for (const worker of this.ctx.workers) this.sendParams(worker);
  }

  private sendParams(worker: NodeId): void {
    const msg: ParamsMsg = { params: this.srv.params.slice(), version: this.srv.version };
    this.ctx.send(this.server, worker, 'params', msg, msg.params.length * 4);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const s = this.w.get(node);
    if (tag !== 'rto' || !s) return;
    if (data !== s.round) return; // new parameters arrived meanwhile
    if (!s.pushed && !s.needsParams) return;
    this.ctx.note('retransmit', node, { round: s.round });
    this.push(node, s);
  }

  onCrash(node: NodeId): void {
    if (node === this.server) {
      // The round in progress is volatile; the applied rounds were persisted.
      this.srv = { params: this.persisted.params.slice(), version: this.persisted.version, received: new Map() };
      return;
    }
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use (a cluster may have more: switching from Raft keeps five)
    if (s.op !== null) this.ctx.op(node, 'info', 'update', s.op); // crashed at the barrier: outcome unknown to it
    this.w.set(node, { ...freshWorker(this.ctx.now()), ...crashedWaitClock(s, this.ctx.now()) });
  }

  onRestart(node: NodeId): void {
    if (node === this.server) return; // waiting workers resend their pushes
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use
    s.liveSince = this.ctx.now();
    // Parameters were lost with the process: pull the current ones, then compute that round.
    s.needsParams = true;
    s.round = -1;
    this.push(node, s);
  }

  authoritativeVersion(): number {
    return this.srv.version;
  }

  nodeVersion(node: NodeId): number {
    return node === this.server ? this.srv.version : this.ctx.replica(node).version;
  }

  /**
   * Server: rounds closed and the open round's gradients against the quorum. Worker: the round it
   * computes or waits in (1-based: finishing round r leaves version r), or pulling after a restart.
   * Closing a round changes no worker's facts until its parameters arrive (an event of the
   * worker's own), so no touch is needed. Null while down.
   */
  facts(node: NodeId): NodeFacts | null {
    if (!this.ctx.isUp(node)) return null;
    if (node === this.server) return { kind: 'ps-server', version: this.srv.version, received: this.srv.received.size, quorum: this.quorum };
    const s = this.w.get(node);
    if (!s) return null;
    if (s.needsParams) return { kind: 'ps-worker', state: 'pulling' };
    if (s.pushed) return { kind: 'ps-worker', state: 'waiting', waitFor: 'barrier', round: s.round + 1 };
    return { kind: 'ps-worker', state: 'training', round: s.round + 1 };
  }

  lostUpdates(): number {
    return 0; // a round is acknowledged (parameters sent) only after it was applied and persisted
  }

  duplicateUpdates(): number {
    return 0; // (worker, round) duplicates are skipped; late gradients are dropped, not applied
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    if (name === 'delayedRounds') return this.roundsDone ? this.roundsDelayed / this.roundsDone : null;
    if (name === 'waitFraction') return waitFraction(this.ctx, (id) => this.w.get(id), node);
    return undefined;
  }

  /** Gradients that arrived after their round closed (backup workers' dropped stragglers, retransmissions). */
  lateGradients(): number {
    return this.late;
  }
  duplicatesSkipped(): number {
    return this.dupSkipped;
  }
}

/** Pushes carry (round, gradient); parameters carry (version, parameters). Pulls carry nothing to protect. */
export const psSyncWire: WireCodec = {
  read(kind, payload, from, to) {
    if (kind === 'gradient') {
      const m = payload as PushMsg;
      return { worker: from, step: m.round, labels: [], vectors: [m.grad] };
    }
    if (kind === 'params') {
      const m = payload as ParamsMsg;
      return { worker: to, step: m.version, labels: [], vectors: [m.params] };
    }
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') return { ...(payload as PushMsg), round: body.step, grad: body.vectors[0] } satisfies PushMsg;
    return { ...(payload as ParamsMsg), version: body.step, params: body.vectors[0] } satisfies ParamsMsg;
  },
};

function freshWorker(now: number): WorkerState {
  return { round: 0, pushed: null, needsParams: false, op: null, ...freshWaitClock(now) };
}
