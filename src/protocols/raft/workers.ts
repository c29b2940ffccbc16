import type { NodeId } from '../../sim/types';
import type { NodeFacts } from '../facts';
import type { StepResult, StrategyContext } from '../strategy';
import { recordAck, recordRead, type ClientSide } from './clientSide';
import { beginRead, beginUpdate, freshClient, onAck, onParams, onRedirect, onRetry, onTooLarge, target, type ClientState } from './client';
import type { RaftPsConfig } from './knobs';
import type { ClientMsg, RaftMsg } from './messages';
import type { RaftObserver } from './observer';
import { clientFacts } from './view';

/**
 * The workers of raft-ps are Raft clients: read the parameters → compute a gradient → send the
 * update to the server believed to lead (followers redirect with a leader hint; unknown leader →
 * next server, retry every `clientRetryMs`) → wait for the leader's acknowledgement after commit →
 * read. An update not acknowledged within `updateTimeoutMs` is abandoned (its outcome is unknown:
 * it may still commit, exactly once). This class does the I/O; the decisions are client.ts's.
 */
export class RaftClients implements ClientSide {
  readonly manual = false;
  private readonly wk = new Map<NodeId, ClientState>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
    private readonly obs: RaftObserver,
    /** The newest committed version anywhere (observer: the floor a read is stale below). */
    private readonly newest: () => number,
  ) {
    for (const id of ctx.workers) this.wk.set(id, freshClient());
  }

  facts(worker: NodeId): NodeFacts | null {
    const c = this.wk.get(worker);
    return c ? clientFacts(c) : null;
  }

  /** Training clients update on their own; `submit` means nothing to them. */
  submit(): boolean {
    return false;
  }

  onTimer(worker: NodeId, tag: string, data: unknown): void {
    if (tag === 'retry') this.onRetryTimer(worker, data);
  }

  /** Every replica starts from the same initial parameters (version 0), so workers compute at once. */
  start(): void {
    for (const w of this.ctx.workers) {
      this.wk.get(w)!.phase = 'computing';
      this.ctx.startStep(w);
    }
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const c = this.wk.get(worker)!;
    beginUpdate(c, { grad: r.grad, basedOn: r.basedOn, opId: this.ctx.op(worker, 'invoke', 'update'), since: this.ctx.now() });
    this.sendUpdate(worker, c);
  }

  onMessage(worker: NodeId, from: NodeId, m: ClientMsg): void {
    const c = this.wk.get(worker)!;
    switch (m.t) {
      case 'redirect': {
        if (onRedirect(c, m.op, m.id, m.hint, from, this.ctx.servers.length) !== 'follow') return;
        if (m.op === 'update') this.sendUpdate(worker, c);
        else this.sendRead(worker, c);
        return;
      }
      case 'tooLarge': {
        const refused = onTooLarge(c, m.seq);
        if (!refused) return;
        this.ctx.op(worker, 'fail', 'update', refused.opId);
        return this.startRead(worker, c);
      }
      case 'ack': {
        const done = onAck(c, m.seq, from);
        if (!done) return;
        recordAck(this.ctx, this.obs, worker, m.seq, done.opId, m.version);
        return this.startRead(worker, c);
      }
      case 'params': {
        const done = onParams(c, m.readId);
        if (!done) return;
        recordRead(this.ctx, this.obs, worker, from, m, done);
        this.ctx.startStep(worker);
        return;
      }
    }
  }

  onRetryTimer(worker: NodeId, token: unknown): void {
    const c = this.wk.get(worker)!;
    const d = onRetry(c, token, this.ctx.now(), this.cfg.updateTimeoutMs, this.ctx.servers);
    switch (d.do) {
      case 'abandon':
        // Train on fresh parameters; the abandoned update may still commit, exactly once.
        this.ctx.op(worker, 'info', 'update', d.opId);
        this.ctx.note('updateAbandoned', worker, { seq: d.seq });
        return this.startRead(worker, c);
      case 'resend-update':
        return this.sendUpdate(worker, c);
      case 'resend-read':
        return this.sendRead(worker, c);
    }
  }

  /** The process is gone: its pending operations have unknown outcomes; its counters survive. */
  onCrash(worker: NodeId): void {
    const c = this.wk.get(worker)!;
    if (c.upd) this.ctx.op(worker, 'info', 'update', c.upd.opId);
    if (c.read) this.ctx.op(worker, 'info', 'read', c.read.opId);
    this.wk.set(worker, freshClient(c));
  }

  /** The process lost its parameters: read before training again. */
  onRestart(worker: NodeId): void {
    this.startRead(worker, this.wk.get(worker)!);
  }

  private armRetry(worker: NodeId, c: ClientState): void {
    this.ctx.setTimer(worker, this.cfg.clientRetryMs, 'retry', ++c.token);
  }

  private sendUpdate(worker: NodeId, c: ClientState): void {
    const u = c.upd!;
    const msg: RaftMsg = { t: 'update', seq: u.seq, grad: u.grad, basedOn: u.basedOn };
    this.ctx.send(worker, target(c, this.ctx.servers), 'gradient', msg, this.ctx.paramCount * 4);
    this.armRetry(worker, c);
  }

  private startRead(worker: NodeId, c: ClientState): void {
    beginRead(c, this.ctx.op(worker, 'invoke', 'read'), this.newest());
    this.sendRead(worker, c);
  }

  private sendRead(worker: NodeId, c: ClientState): void {
    this.ctx.send(worker, target(c, this.ctx.servers), 'pull', { t: 'read', readId: c.read!.readId } satisfies RaftMsg, 0);
    this.armRetry(worker, c);
  }
}
