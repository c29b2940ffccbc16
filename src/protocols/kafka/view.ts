import type { NodeId } from '../../sim/types';
import type { LogItem, NodeFacts, NodeLog } from '../facts';
import type { KafkaCluster, KafkaRoles } from './cluster';
import type { Broker, Rec } from './types';

type PartFacts = Extract<NodeFacts, { kind: 'kafka-broker' }>['parts'][number];

/**
 * What kafka-ps shows of its nodes and cluster: typed facts (facts.ts), the replicated log, the
 * metrics it defines and, until the app reads only facts, the status line and detail card.
 */
export class KafkaView {
  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {}

  /**
   * A broker's facts are its own knowledge: its replicas' LEO and HW, the leader epoch it learnt,
   * whom it follows, and the ISR it leads (or the ISR the controller keeps for a partition it
   * knows to be offline). A crashed broker keeps its logs, HWs and epochs; it leads and follows
   * nothing until it registers again.
   */
  facts(node: NodeId): NodeFacts | null {
    const br = this.k.b.get(node);
    if (br) return { kind: 'kafka-broker', parts: this.k.held.get(node)!.map((p) => this.partFacts(br, p)) };
    const c = this.r.consumers.state(node);
    if (c) return { kind: 'kafka-consumer', offset: this.r.consumers.offsetOf(c), lag: this.lagOf(node), caughtUp: c.caughtUp };
    const pr = this.r.producers.state(node);
    if (!pr) return null;
    let unacked = pr.accum.length;
    for (const q of pr.inflight.values()) unacked += q.records.length;
    return { kind: 'kafka-producer', phase: pr.phase, readsFrom: this.r.producers.readFrom.get(node)!, partition: this.k.partitionOf(node), unacked };
  }

  private partFacts(br: Broker, p: number): PartFacts {
    const part = br.parts[p];
    const [leo, hw, epoch] = [part.leo, part.hw, part.epoch];
    if (br.leading.has(p)) return { p, role: 'leader', leo, hw, epoch, isr: [...this.k.meta[p].isr] };
    const f = br.following.get(p);
    if (f) return { p, role: 'follower', leo, hw, epoch, leader: f.leader };
    if (br.offline.has(p)) return { p, role: 'follower', leo, hw, epoch, isr: [...this.k.meta[p].isr], offline: true };
    return { p, role: 'follower', leo, hw, epoch };
  }

  /** Topic partition 0's log on a broker that holds a replica of it (offsets from 0). */
  logOf(node: NodeId): NodeLog<Rec> | null {
    const br = this.k.b.get(node);
    if (!br || !this.k.meta[0].replicas.includes(node)) return null;
    return { base: 0, entries: br.parts[0].records, item: recItem };
  }

  /** The HW consumer lag is measured against: the leader's, or the last leader's while offline. */
  private hwOf(p: number): number {
    return this.k.b.get(this.k.referenceBroker(p))!.parts[p].hw;
  }

  lagOf(s: NodeId): number {
    const c = this.r.consumers.state(s)!;
    let lag = 0;
    for (let p = 0; p < this.k.P; p++) lag += Math.max(0, this.hwOf(p) - c.pos[p]);
    return lag;
  }

  /** Newest parameters a live PS replica holds (offsets applied). */
  authoritativeVersion(): number {
    let best = 0;
    for (const [s, c] of this.r.consumers.all()) if (this.k.ctx.isUp(s)) best = Math.max(best, this.r.consumers.offsetOf(c));
    return best;
  }

  nodeVersion(node: NodeId): number {
    const c = this.r.consumers.state(node);
    if (c) return this.r.consumers.offsetOf(c);
    const br = this.k.b.get(node);
    if (br) return br.parts.reduce((a, x) => a + x.leo, 0);
    return 0;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    const { k, r } = this;
    switch (name) {
      case 'consumerLag':
        if (node) return r.consumers.state(node) ? this.lagOf(node) : null;
        return Math.max(0, ...k.ctx.servers.filter((s) => k.ctx.isUp(s)).map((s) => this.lagOf(s)));
      case 'serverConflicts':
        return r.obs.serverConflicts();
      case 'isrSize':
        return Math.min(...k.meta.map((m) => m.isr.length));
      case 'rejectedWrites':
        return r.obs.rejectedWrites;
      case 'uncleanElections':
        return r.obs.uncleanElections;
      case 'logLength':
      case 'commitIndex': {
        const br = node ? k.b.get(node) : undefined;
        if (node && !br) return null;
        const logs = br ? [br] : [...k.b.values()];
        const f = (x: Broker) => x.parts.reduce((a, q) => a + (name === 'logLength' ? q.leo : q.hw), 0);
        return Math.max(...logs.map(f));
      }
      default:
        return undefined;
    }
  }

}

function recItem(rec: Rec): LogItem {
  return { term: rec.epoch, kind: 'record', worker: rec.worker, seq: rec.seq };
}
