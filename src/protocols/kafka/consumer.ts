import { axpy } from '../../sim/vectors';
import type { NodeId } from '../../sim/types';
import type { KafkaCluster, KafkaRoles } from './cluster';
import { FETCH_RETRY_MS, type Consumer, type PayloadOf } from './types';

/**
 * PS replicas s0… are consumers: each polls every consumerPollMs, reads records below the HW,
 * applies them in log order and serves its parameters to the workers that read from it. Versions
 * are offsets applied. A PS replica keeps no checkpoint and replays the log from offset 0 after a
 * restart (a simplification on purpose).
 */
export class Consumers {
  private readonly cons = new Map<NodeId, Consumer>();

  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {
    for (const s of k.ctx.servers) this.cons.set(s, this.fresh());
  }

  state(s: NodeId): Consumer | undefined {
    return this.cons.get(s);
  }

  all(): IterableIterator<[NodeId, Consumer]> {
    return this.cons.entries();
  }

  start(): void {
    for (const s of this.k.ctx.servers) this.k.ctx.setTimer(s, this.k.cfg.consumerPollMs, 'poll');
  }

  /** Parameters were in memory only: it must replay the log (and says so when it has caught up). */
  onCrash(s: NodeId): void {
    this.cons.set(s, { ...this.fresh(), caughtUp: false });
    this.r.obs.serversChanged();
  }

  onRestart(s: NodeId): void {
    this.k.ctx.setTimer(s, this.k.cfg.consumerPollMs, 'poll');
  }

  /** New metadata for partition p: fetch from its new leader at the next poll. */
  onMetadata(p: number): void {
    for (const [s, c] of this.cons) if (this.k.ctx.isUp(s)) c.fetching[p] = null;
  }

  offsetOf(c: Consumer): number {
    return c.pos.reduce((a, x) => a + x, 0);
  }

  private fresh(): Consumer {
    return { params: this.k.ctx.initialParams(), pos: this.k.meta.map(() => 0), fetching: this.k.meta.map(() => null), nextReq: 0, caughtUp: true };
  }

  onPollTimer(s: NodeId): void {
    const { ctx, P, meta } = this.k;
    const c = this.cons.get(s)!;
    for (let p = 0; p < P; p++) {
      const f = c.fetching[p];
      if (f && ctx.now() - f.sentAt < FETCH_RETRY_MS) continue;
      const leader = meta[p].leader;
      if (leader === null) continue;
      const reqId = ++c.nextReq;
      c.fetching[p] = { reqId, sentAt: ctx.now() };
      ctx.send(s, leader, 'fetch', { t: 'cfetch', p, reqId, offset: c.pos[p] } satisfies PayloadOf<'cfetch'>, 0);
    }
    ctx.setTimer(s, this.k.cfg.consumerPollMs, 'poll');
  }

  onRecords(s: NodeId, r: PayloadOf<'cfetch-resp'>): void {
    const { ctx } = this.k;
    const c = this.cons.get(s)!;
    if (c.fetching[r.p]?.reqId !== r.reqId) return;
    c.fetching[r.p] = null;
    if (r.error === 'OffsetOutOfRange') {
      // The log was truncated below what this replica applied (an unclean election): its
      // parameters keep updates the log no longer has. It continues from the new end.
      ctx.note('offsetOutOfRange', s, { partition: r.p, applied: c.pos[r.p], leo: r.leo ?? 0 });
      c.pos[r.p] = r.leo ?? 0;
      this.r.obs.serversChanged();
      return;
    }
    if (r.error || r.offset !== c.pos[r.p]) return;
    for (const rec of r.records) {
      const tau = this.offsetOf(c) - rec.basedOn;
      axpy(c.params, -ctx.learningRate, rec.grad);
      c.pos[r.p]++;
      if (this.r.producers.readFrom.get(rec.worker) === s) ctx.note('apply', s, { worker: rec.worker, seq: rec.seq, staleness: tau });
    }
    if (r.records.length) this.r.obs.serversChanged();
    const behind = c.pos[r.p] < r.hw;
    if (!behind && !c.caughtUp) ctx.note('consumerCaughtUp', s, {});
    c.caughtUp = !behind;
  }

  onPull(s: NodeId, from: NodeId, m: PayloadOf<'pull'>): void {
    const c = this.cons.get(s)!;
    this.k.reply(s, from, { t: 'params', reqId: m.reqId, params: c.params.slice(), offset: this.offsetOf(c) });
  }
}
