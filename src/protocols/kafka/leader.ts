import type { NodeId } from '../../sim/types';
import type { KafkaCluster, KafkaRoles } from './cluster';
import {
  ackAfterAppend,
  checkProduce,
  diverges,
  highWatermark,
  laggingFollowers,
  leaderEpochAnswer,
  mayJoinIsr,
  onFollowerFetch,
  pendingOutcome,
  shrinkIsr,
  type FollowerFetchState,
} from './rules';
import { FETCH_WAIT_MS, type LeaderState, type PayloadOf } from './types';

/**
 * A broker as the leader of a partition (Kafka's Partition / ReplicaManager): it appends produced
 * records in its epoch and answers per `acks`, serves follower fetches (long poll), tracks each
 * follower's fetch offset, asks the controller to shrink the ISR after replica.lag.time.max.ms
 * without catching up and to grow it when a follower reaches the HW, and advances the HW to the
 * minimum LEO over the ISR. PS replicas consume from it below the HW.
 */
export class Leaders {
  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {}

  /** LeaderAndIsr named `x` leader of `p` (a new epoch starts unless it already leads this one). */
  lead(x: NodeId, p: number): void {
    const { ctx, meta, b } = this.k;
    const m = meta[p];
    const br = b.get(x)!;
    if (br.leading.get(p)?.epoch === m.epoch) return;
    br.following.delete(p);
    const followers = new Map<NodeId, FollowerFetchState>();
    // Kafka resets the ISR members' caught-up time when a leader starts.
    for (const y of m.isr) if (y !== x) followers.set(y, { leo: -1, lastCaughtUpMs: ctx.now(), lastFetchMs: ctx.now(), lastFetchLeaderLeo: 0 });
    br.leading.set(p, { epoch: m.epoch, epochStart: br.parts[p].leo, followers, parked: [], pending: [] });
    this.advanceHw(x, p);
  }

  advanceHw(x: NodeId, p: number): void {
    const L = this.k.leaderOf(x, p)!;
    const part = this.k.b.get(x)!.parts[p];
    const m = this.k.meta[p];
    const hw = highWatermark(part.hw, m.isr, (y) => (y === x ? part.leo : (L.followers.get(y)?.leo ?? -1) >= 0 ? L.followers.get(y)!.leo : undefined));
    if (hw < part.hw) this.k.ctx.violation('hw-monotonic', `partition ${p}: HW on leader ${x} went from ${part.hw} to ${hw}`);
    if (hw > part.hw) {
      this.k.setHw(x, p, hw);
      m.committed = Math.max(m.committed, hw);
      this.wakeParked(x, p, true);
    }
    this.resolvePending(x, p);
  }

  private resolvePending(x: NodeId, p: number): void {
    const L = this.k.leaderOf(x, p)!;
    const hw = this.k.b.get(x)!.parts[p].hw;
    const isr = this.k.meta[p].isr.length;
    L.pending = L.pending.filter((q) => {
      const out = pendingOutcome(q.lastOffset, hw, isr, this.k.minIsr);
      if (out === 'wait') return true;
      this.k.reply(x, q.from, { t: 'produce-resp', p, reqId: q.reqId, attempt: -1, ...(out === 'ack' ? {} : { error: out }) });
      return false;
    });
  }

  onProduce(x: NodeId, from: NodeId, q: PayloadOf<'produce'>): void {
    const { k } = this;
    const L = k.leaderOf(x, q.p);
    const resp = (error?: string) => {
      if (k.acks !== '0') k.reply(x, from, { t: 'produce-resp', p: q.p, reqId: q.reqId, attempt: q.attempt, ...(error ? { error } : {}) });
    };
    if (!L) return resp('NotLeaderOrFollower');
    const m = k.meta[q.p];
    const check = checkProduce(k.acks, m.isr.length, k.minIsr);
    if (!check.ok) {
      this.r.obs.rejectedWrite();
      k.ctx.note('notEnoughReplicas', x, { partition: q.p, isr: m.isr.length });
      return resp(check.error);
    }
    const part = k.b.get(x)!.parts[q.p];
    let lastOffset = -1;
    for (const r of q.records) {
      const at = k.cfg['enable.idempotence'] ? part.lastOffsetOf(r.pid, r.seq) : -1;
      if (at >= 0) {
        lastOffset = Math.max(lastOffset, at); // a retry of a record already in the log: acknowledged, not appended
        continue;
      }
      part.append({ ...r, epoch: L.epoch });
      lastOffset = part.leo - 1;
    }
    this.wakeParked(x, q.p, false);
    const d = ackAfterAppend(k.acks);
    if (d === 'ack-now') resp();
    else if (d === 'wait') L.pending.push({ from, reqId: q.reqId, lastOffset });
    this.advanceHw(x, q.p);
  }

  onReplicaFetch(x: NodeId, from: NodeId, f: PayloadOf<'fetch'>): void {
    const { k } = this;
    const L = k.leaderOf(x, f.p);
    if (!L || f.epoch !== L.epoch) return; // the follower retries; metadata will point it right
    const part = k.b.get(x)!.parts[f.p];
    if (diverges(part, f.offset, f.lastEpoch)) {
      k.reply(x, from, { t: 'fetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: part.hw, diverging: leaderEpochAnswer(part, f.lastEpoch) });
      return;
    }
    const prev = L.followers.get(from) ?? { leo: -1, lastCaughtUpMs: -Infinity, lastFetchMs: -Infinity, lastFetchLeaderLeo: Infinity };
    L.followers.set(from, onFollowerFetch(prev, f.offset, part.leo, k.ctx.now()));
    const m = k.meta[f.p];
    if (!m.isr.includes(from) && mayJoinIsr(f.offset, part.hw, L.epochStart)) this.r.controller.setIsr(f.p, [...m.isr, from]);
    this.advanceHw(x, f.p);
    if (f.offset < part.leo) this.answerFetch(x, from, f.p, f.reqId, f.offset, false);
    else this.park(x, L, { from, reqId: f.reqId, consumer: false, offset: f.offset }, f.p);
  }

  onConsumerFetch(x: NodeId, from: NodeId, f: PayloadOf<'cfetch'>): void {
    const { k } = this;
    const L = k.leaderOf(x, f.p);
    if (!L) return k.reply(x, from, { t: 'cfetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: 0, error: 'NotLeader' });
    const part = k.b.get(x)!.parts[f.p];
    if (f.offset > part.leo) {
      k.reply(x, from, { t: 'cfetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: part.hw, error: 'OffsetOutOfRange', leo: part.leo });
      return;
    }
    if (f.offset < part.hw) this.answerFetch(x, from, f.p, f.reqId, f.offset, true);
    else this.park(x, L, { from, reqId: f.reqId, consumer: true, offset: f.offset }, f.p);
  }

  /** The long poll ran out: answer the parked fetch with what there is (nothing). */
  onFetchWait(x: NodeId, d: { p: number; from: NodeId; reqId: number }): void {
    const L = this.k.leaderOf(x, d.p);
    if (!L) return;
    const i = L.parked.findIndex((q) => q.from === d.from && q.reqId === d.reqId);
    if (i < 0) return;
    const [q] = L.parked.splice(i, 1);
    this.k.reply(x, q.from, { t: q.consumer ? 'cfetch-resp' : 'fetch-resp', p: d.p, reqId: q.reqId, offset: q.offset, records: [], hw: this.k.b.get(x)!.parts[d.p].hw });
  }

  /** The ISR-shrink task: followers that have not caught up within replica.lag.time.max.ms leave the ISR. */
  onIsrCheck(x: NodeId): void {
    const { k } = this;
    const br = k.b.get(x)!;
    for (const [p, L] of br.leading) {
      const lag = laggingFollowers(k.meta[p].isr, x, L.followers, k.ctx.now(), k.cfg['replica.lag.time.max.ms']);
      if (lag.length) this.r.controller.setIsr(p, shrinkIsr(k.meta[p].isr, lag));
    }
    k.ctx.setTimer(x, this.r.controller.isrCheckMs(), 'isr-check');
  }

  private park(x: NodeId, L: LeaderState, q: LeaderState['parked'][number], p: number): void {
    L.parked.push(q);
    this.k.ctx.setTimer(x, FETCH_WAIT_MS, 'fetch-wait', { p, from: q.from, reqId: q.reqId });
  }

  /** New records wake parked follower fetches; a higher HW wakes parked consumer fetches. */
  private wakeParked(x: NodeId, p: number, consumers: boolean): void {
    const L = this.k.leaderOf(x, p)!;
    const part = this.k.b.get(x)!.parts[p];
    L.parked = L.parked.filter((q) => {
      if (q.consumer !== consumers) return true;
      const limit = consumers ? part.hw : part.leo;
      if (q.offset >= limit) return true;
      this.answerFetch(x, q.from, p, q.reqId, q.offset, consumers);
      return false;
    });
  }

  private answerFetch(x: NodeId, to: NodeId, p: number, reqId: number, offset: number, consumer: boolean): void {
    const part = this.k.b.get(x)!.parts[p];
    const end = Math.min(consumer ? part.hw : part.leo, offset + this.k.maxRecs);
    const records = part.records.slice(offset, end);
    this.k.reply(x, to, { t: consumer ? 'cfetch-resp' : 'fetch-resp', p, reqId, offset, records, hw: part.hw });
  }
}
