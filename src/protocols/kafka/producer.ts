import type { NodeId } from '../../sim/types';
import type { StepResult } from '../strategy';
import type { KafkaCluster, KafkaRoles } from './cluster';
import { PULL_TIMEOUT_MS, RETRY_BACKOFF_MS, type Payload, type PayloadOf, type Producer, type Rec, type Request } from './types';

/**
 * Workers are producers: each gradient is a record appended to the partition of its worker
 * (w_i → partition i mod num.partitions), batched by linger.ms / batch.size and acknowledged per
 * `acks`, with at most max.in.flight.requests.per.connection requests outstanding. A worker waits
 * for its acknowledgement (acks=1/all) before it reads fresh parameters from its PS replica and
 * computes again; with acks=0 it does not wait. A producer's sequence gap is accepted (no
 * OutOfOrderSequence), a simplification on purpose.
 */
export class Producers {
  private readonly prod = new Map<NodeId, Producer>();
  private readonly pidInc = new Map<NodeId, number>();
  /** Worker → the PS replica it reads parameters from. */
  readonly readFrom = new Map<NodeId, NodeId>();

  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {
    k.ctx.workers.forEach((w, i) => {
      this.readFrom.set(w, k.cfg.readFrom?.[w] ?? k.ctx.servers[i % k.ctx.servers.length]);
      this.prod.set(w, this.fresh(w));
    });
  }

  state(w: NodeId): Producer | undefined {
    return this.prod.get(w);
  }

  start(): void {
    for (const w of this.k.ctx.workers) this.pull(w);
  }

  /** A new process is a new idempotent producer: a new producer id, sequence numbers from 0. */
  onCrash(w: NodeId): void {
    this.prod.set(w, this.fresh(w));
  }

  onRestart(w: NodeId): void {
    this.pull(w);
  }

  private fresh(w: NodeId): Producer {
    const inc = (this.pidInc.get(w) ?? -1) + 1;
    this.pidInc.set(w, inc);
    return { pid: `${w}.${inc}`, nextSeq: 0, accum: [], accumOps: [], lingerArmed: false, inflight: new Map(), nextReq: 0, phase: 'pull', pullId: 0, pullOp: 0 };
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const { ctx, cfg } = this.k;
    const pr = this.prod.get(worker)!;
    const rec: Rec = { epoch: -1, pid: pr.pid, seq: pr.nextSeq++, worker, grad: r.grad, basedOn: r.basedOn };
    pr.accum.push(rec);
    pr.accumOps.push(ctx.op(worker, 'invoke', 'update'));
    if (pr.accum.length * this.k.recBytes >= cfg['batch.size']) this.flush(worker);
    else if (!pr.lingerArmed) {
      pr.lingerArmed = true;
      ctx.setTimer(worker, cfg['linger.ms'], 'linger');
    }
    if (this.k.acks === '0') this.pull(worker); // fire and forget
    else pr.phase = 'ack';
  }

  onLinger(w: NodeId): void {
    this.prod.get(w)!.lingerArmed = false;
    this.flush(w);
  }

  /** The retry backoff or the request timeout fired for an attempt: send it again, if still current. */
  onRetry(w: NodeId, d: { reqId: number; attempt: number }): void {
    const req = this.prod.get(w)!.inflight.get(d.reqId);
    if (req && req.attempt === d.attempt) this.sendRequest(w, req);
  }

  /** New metadata for partition p: requests sent elsewhere go to the new leader now. */
  onMetadata(p: number): void {
    const leader = this.k.meta[p].leader;
    for (const [w, pr] of this.prod) {
      if (!this.k.ctx.isUp(w)) continue;
      for (const r of pr.inflight.values()) {
        if (r.p !== p || r.sentTo === leader) continue;
        this.k.ctx.touch(w); // with acks=0 the resend is the acknowledgement
        this.sendRequest(w, r);
      }
    }
  }

  /** Turns the accumulator into a request when a slot is free (max.in.flight.requests.per.connection). */
  private flush(w: NodeId): void {
    const pr = this.prod.get(w)!;
    if (pr.accum.length === 0) return;
    if (this.k.acks !== '0' && pr.inflight.size >= this.k.cfg['max.in.flight.requests.per.connection']) return;
    const req: Request = { reqId: ++pr.nextReq, p: this.k.partitionOf(w), records: pr.accum, opIds: pr.accumOps, sentTo: null, attempt: 0 };
    pr.accum = [];
    pr.accumOps = [];
    pr.inflight.set(req.reqId, req);
    this.sendRequest(w, req);
  }

  private sendRequest(w: NodeId, req: Request): void {
    const { ctx } = this.k;
    const pr = this.prod.get(w)!;
    const leader = this.k.meta[req.p].leader;
    req.attempt++;
    if (leader === null) {
      // Offline partition: the write is refused; the producer retries after retry.backoff.ms.
      this.r.obs.rejectedWrite();
      ctx.note('offlinePartition', w, { partition: req.p });
      req.sentTo = null;
      ctx.setTimer(w, RETRY_BACKOFF_MS, 'retry', { reqId: req.reqId, attempt: req.attempt });
      return;
    }
    req.sentTo = leader;
    const msg: Payload = { t: 'produce', p: req.p, reqId: req.reqId, attempt: req.attempt, records: req.records };
    ctx.send(w, leader, 'gradient', msg, req.records.length * this.k.recBytes);
    if (this.k.acks === '0') {
      pr.inflight.delete(req.reqId);
      this.acknowledge(w, req); // acks=0: the send is the acknowledgement
      return;
    }
    ctx.setTimer(w, this.k.cfg['request.timeout.ms'], 'req-timeout', { reqId: req.reqId, attempt: req.attempt });
  }

  private acknowledge(w: NodeId, req: Request): void {
    req.records.forEach((r, i) => {
      this.r.obs.acknowledged(r, req.p);
      this.k.ctx.op(w, 'ok', 'update', req.opIds[i]);
      this.k.ctx.counted(w);
    });
  }

  onProduceResp(w: NodeId, r: PayloadOf<'produce-resp'>): void {
    const pr = this.prod.get(w)!;
    const req = pr.inflight.get(r.reqId);
    if (!req) return;
    if (r.error) {
      // Errors from an attempt we already replaced are stale; the newer attempt will answer.
      if (r.attempt !== -1 && r.attempt !== req.attempt) return;
      this.k.ctx.note('produceError', w, { error: r.error });
      this.k.ctx.setTimer(w, RETRY_BACKOFF_MS, 'retry', { reqId: req.reqId, attempt: req.attempt });
      return;
    }
    pr.inflight.delete(r.reqId);
    this.acknowledge(w, req);
    this.flush(w);
    if (pr.phase === 'ack' && pr.inflight.size === 0 && pr.accum.length === 0) this.pull(w);
  }

  private pull(w: NodeId): void {
    const { ctx } = this.k;
    const pr = this.prod.get(w)!;
    pr.phase = 'pull';
    pr.pullId++;
    pr.pullOp = ctx.op(w, 'invoke', 'read');
    ctx.send(w, this.readFrom.get(w)!, 'pull', { t: 'pull', reqId: pr.pullId } satisfies Payload, 0);
    ctx.setTimer(w, PULL_TIMEOUT_MS, 'pull-timeout', pr.pullId);
  }

  onParams(w: NodeId, m: PayloadOf<'params'>): void {
    const pr = this.prod.get(w)!;
    if (pr.phase !== 'pull' || m.reqId !== pr.pullId) return;
    this.k.ctx.setReplica(w, m.params, m.offset, m.offset);
    this.k.ctx.op(w, 'ok', 'read', pr.pullOp, m.offset, m.params);
    pr.phase = 'step';
    this.k.ctx.startStep(w);
  }

  /** The PS replica is out of reach: train on the parameters we have (staler every step). */
  onPullTimeout(w: NodeId, pullId: unknown): void {
    const pr = this.prod.get(w)!;
    if (pr.phase !== 'pull' || pr.pullId !== pullId) return;
    this.k.ctx.note('pullTimeout', w, {});
    this.k.ctx.op(w, 'fail', 'read', pr.pullOp);
    pr.phase = 'step';
    this.k.ctx.startStep(w);
  }
}
