import type { NodeId } from '../../sim/types';
import type { KafkaCluster } from './cluster';
import { truncationOffset } from './rules';
import { FETCH_RETRY_MS, type Payload, type PayloadOf } from './types';

/**
 * A broker as a follower of a partition (Kafka's replica fetcher): it fetches from the leader from
 * its LEO with the epoch of its last record; a leader that finds the follower's log diverging
 * answers with its end offset for that epoch, and the follower truncates there (KIP-101/279) —
 * not to its HW, the pre-0.11 rule that KIP-101 showed can lose committed data.
 */
export class Followers {
  constructor(private readonly k: KafkaCluster) {}

  /** LeaderAndIsr named another broker leader of `p` (or none): follow it, fetching at once if it is new. */
  follow(x: NodeId, p: number): void {
    const m = this.k.meta[p];
    const br = this.k.b.get(x)!;
    br.leading.delete(p);
    const f = br.following.get(p);
    if (m.leader === null) {
      br.following.delete(p);
    } else if (!f || f.leader !== m.leader || f.epoch !== m.epoch) {
      br.following.set(p, { leader: m.leader, epoch: m.epoch, reqId: f?.reqId ?? 0 });
      this.sendFetch(x, p);
    }
  }

  onFetchResp(x: NodeId, r: PayloadOf<'fetch-resp'>): void {
    const br = this.k.b.get(x)!;
    const f = br.following.get(r.p);
    if (!f || r.reqId !== f.reqId) return;
    const part = br.parts[r.p];
    if (r.diverging) {
      const to = truncationOffset(part, r.diverging);
      this.k.ctx.note('truncate', x, { partition: r.p, from: part.leo, to });
      part.truncate(to);
      this.k.setHw(x, r.p, Math.min(part.hw, to));
    } else if (r.offset === part.leo) {
      for (const rec of r.records) part.append(rec);
      this.k.setHw(x, r.p, Math.min(r.hw, part.leo));
    }
    this.sendFetch(x, r.p);
  }

  onFetchRetry(x: NodeId, d: { p: number; reqId: number }): void {
    if (this.k.b.get(x)!.following.get(d.p)?.reqId === d.reqId) this.sendFetch(x, d.p);
  }

  private sendFetch(x: NodeId, p: number): void {
    const br = this.k.b.get(x)!;
    const f = br.following.get(p);
    if (!f) return;
    const part = br.parts[p];
    f.reqId++;
    const msg: Payload = { t: 'fetch', p, reqId: f.reqId, epoch: f.epoch, offset: part.leo, lastEpoch: part.lastEpoch };
    this.k.ctx.send(x, f.leader, 'fetch', msg, 0);
    this.k.ctx.setTimer(x, FETCH_RETRY_MS, 'fetch-retry', { p, reqId: f.reqId });
  }
}
