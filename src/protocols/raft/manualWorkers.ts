import type { NodeId } from '../../sim/types';
import type { NodeFacts } from '../facts';
import type { StepResult, StrategyContext } from '../strategy';
import { recordAck, recordRead, type ClientSide } from './clientSide';
import type { RaftPsConfig } from './knobs';
import {
  beginManualRead,
  freshManual,
  learnHint,
  manualPhase,
  onManualAck,
  onManualParams,
  onReadRedirect,
  onReadRetry,
  readTarget,
  submit,
  takeSubmit,
  type ManualState,
  type PendingUpdate,
} from './manualClient';
import type { ClientMsg, RaftMsg } from './messages';
import type { RaftObserver } from './observer';

/** The I/O of manual clients (`clientMode: "manual"`); the decisions are manualClient.ts's. */
export class ManualClients implements ClientSide {
  readonly manual = true;
  private readonly wk = new Map<NodeId, ManualState>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
    private readonly obs: RaftObserver,
    /** The newest committed version anywhere (observer: the floor a read is stale below). */
    private readonly newest: () => number,
  ) {
    for (const id of ctx.workers) this.wk.set(id, freshManual());
  }

  /** Every replica starts from the same initial parameters: each worker computes its first gradient at once. */
  start(): void {
    for (const w of this.ctx.workers) this.compute(w, this.wk.get(w)!);
  }

  submit(worker: NodeId, count: number): boolean {
    const c = this.wk.get(worker);
    if (!c) return false;
    submit(c, count);
    this.pump(worker, c);
    return true;
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const c = this.wk.get(worker)!;
    c.computing = false;
    c.ready = { grad: r.grad, basedOn: r.basedOn };
    // Fresh parameters arrived while it computed: with nothing to submit yet, compute on them.
    if (c.queued === 0 && this.ctx.replica(worker).version > r.basedOn) return this.compute(worker, c);
    this.pump(worker, c);
  }

  onMessage(worker: NodeId, from: NodeId, m: ClientMsg): void {
    const c = this.wk.get(worker)!;
    switch (m.t) {
      case 'redirect':
        if (m.op === 'update') return learnHint(c, m.hint);
        if (onReadRedirect(c, m.id, m.hint, from, this.ctx.servers.length) === 'follow') this.sendRead(worker, c);
        return;
      case 'ack': {
        const done = onManualAck(c, m.seq, from);
        if (!done) return;
        recordAck(this.ctx, this.obs, worker, m.seq, done.opId, m.version);
        return this.startRead(worker, c);
      }
      case 'params': {
        const done = onManualParams(c, m.readId);
        if (!done) return;
        recordRead(this.ctx, this.obs, worker, from, m, done);
        // The next update should be computed on these parameters, not on older ones.
        if (!c.computing && (!c.ready || c.ready.basedOn < m.version)) this.compute(worker, c);
        return;
      }
    }
  }

  onTimer(worker: NodeId, tag: string, data: unknown): void {
    const c = this.wk.get(worker)!;
    if (tag === 'resubmit') {
      const seq = data as number;
      const u = c.pending.get(seq);
      if (u) this.offer(worker, seq, u);
    } else if (tag === 'retry' && onReadRetry(c, data, this.ctx.servers)) {
      this.sendRead(worker, c);
    }
  }

  /** The process is gone: its open operations have unknown outcomes; its counters survive. */
  onCrash(worker: NodeId): void {
    const c = this.wk.get(worker)!;
    for (const u of c.pending.values()) this.ctx.op(worker, 'info', 'update', u.opId);
    if (c.read) this.ctx.op(worker, 'info', 'read', c.read.opId);
    this.wk.set(worker, freshManual(c));
  }

  /** The process lost its parameters: read, then compute. */
  onRestart(worker: NodeId): void {
    this.startRead(worker, this.wk.get(worker)!);
  }

  facts(worker: NodeId): NodeFacts | null {
    const c = this.wk.get(worker);
    return c ? { kind: 'raft-client', phase: manualPhase(c), asking: c.guess, seq: c.seq, pending: c.pending.size } : null;
  }

  private compute(worker: NodeId, c: ManualState): void {
    if (!this.ctx.startStep(worker)) return;
    c.computing = true;
    c.ready = null;
  }

  /** Offers the queued submits that have a gradient; computes the next gradient at once. */
  private pump(worker: NodeId, c: ManualState): void {
    const u = takeSubmit(c, this.ctx.now(), () => this.ctx.op(worker, 'invoke', 'update'));
    if (!u) return;
    this.offer(worker, u.seq, u);
    if (!c.computing) this.compute(worker, c);
  }

  private offer(worker: NodeId, seq: number, u: PendingUpdate): void {
    const msg: RaftMsg = { t: 'update', seq, grad: u.grad, basedOn: u.basedOn };
    for (const s of this.ctx.servers) this.ctx.send(worker, s, 'gradient', msg, this.ctx.paramCount * 4);
    this.ctx.setTimer(worker, this.cfg.clientRetryMs, 'resubmit', seq);
  }

  private startRead(worker: NodeId, c: ManualState): void {
    if (beginManualRead(c, () => this.ctx.op(worker, 'invoke', 'read'), this.newest()) === null) return;
    this.sendRead(worker, c);
  }

  private sendRead(worker: NodeId, c: ManualState): void {
    this.ctx.send(worker, readTarget(c, this.ctx.servers), 'pull', { t: 'read', readId: c.read!.readId } satisfies RaftMsg, 0);
    this.ctx.setTimer(worker, this.cfg.clientRetryMs, 'retry', ++c.token);
  }
}
