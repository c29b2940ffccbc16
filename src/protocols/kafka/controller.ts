import type { NodeId } from '../../sim/types';
import type { KafkaCluster, KafkaRoles } from './cluster';
import { electLeader, shrinkIsr } from './rules';

/**
 * The controller (KRaft), modelled as a metadata quorum every broker and client reaches reliably —
 * its own failures are not simulated — hosted for timers on the lowest live broker. It fences a
 * broker broker.session.timeout.ms after the broker's process stops (missed heartbeats), removes
 * fenced brokers from ISRs and elects leaders: the first live ISR member (clean); with none,
 * unclean.leader.election.enable picks the first live replica (its missing records are lost) or
 * leaves the partition offline. A broker that restarts re-registers at once: its old incarnation
 * is fenced (it leaves the ISR, and loses leadership to another live ISR member if there is one).
 * ISR changes (AlterPartition) and metadata updates reach brokers and clients instantly, so every
 * change here touches the nodes whose facts it changes.
 */
export class Controller {
  /** Brokers registered and not fenced. */
  private readonly live = new Set<NodeId>();
  private readonly crashNo = new Map<NodeId, number>();
  private readonly crashedAt = new Map<NodeId, number>();

  constructor(
    private readonly k: KafkaCluster,
    private readonly r: KafkaRoles,
  ) {
    for (const id of k.brokers) this.live.add(id);
  }

  isrCheckMs(): number {
    return this.k.cfg['replica.lag.time.max.ms'] / 2; // Kafka's ISR-shrink task period
  }

  /** Tell every partition's replicas their roles. */
  start(): void {
    for (let p = 0; p < this.k.P; p++) this.notifyReplicas(p);
  }

  /** A broker's process stopped: it misses heartbeats from now on. */
  brokerStopped(x: NodeId): void {
    this.crashNo.set(x, (this.crashNo.get(x) ?? 0) + 1);
    this.crashedAt.set(x, this.k.ctx.now());
    this.scheduleFences();
  }

  brokerStarted(x: NodeId): void {
    this.register(x);
    this.scheduleFences();
  }

  /** The fence timer: the broker has missed heartbeats for the session timeout (and not come back since). */
  onFenceTimer(d: { broker: NodeId; crash: number }): void {
    if (!this.k.ctx.isUp(d.broker) && (this.crashNo.get(d.broker) ?? 0) === d.crash) this.fence(d.broker);
  }

  /** The controller's timers live on the lowest live broker. */
  private scheduleFences(): void {
    const { ctx, cfg } = this.k;
    const host = this.k.brokers.find((x) => ctx.isUp(x));
    if (!host) return;
    for (const x of this.k.brokers) {
      if (ctx.isUp(x) || !this.live.has(x)) continue;
      const due = (this.crashedAt.get(x) ?? 0) + cfg['broker.session.timeout.ms'] - ctx.now();
      ctx.setTimer(host, Math.max(0, due), 'fence', { broker: x, crash: this.crashNo.get(x) ?? 0 });
    }
  }

  private fence(x: NodeId): void {
    if (!this.live.delete(x)) return;
    this.k.ctx.note('brokerFenced', x, {});
    for (let p = 0; p < this.k.P; p++) {
      const m = this.k.meta[p];
      if (!m.replicas.includes(x)) continue;
      if (m.isr.includes(x)) this.setIsr(p, shrinkIsr(m.isr, [x]));
      if (m.leader === x) this.elect(p);
    }
  }

  /** A restarted broker registers again; its previous incarnation is fenced first. */
  private register(x: NodeId): void {
    const { P, meta } = this.k;
    if (this.live.has(x)) {
      for (let p = 0; p < P; p++) {
        const m = meta[p];
        if (!m.replicas.includes(x)) continue;
        if (m.isr.includes(x) && m.isr.length > 1) {
          this.setIsr(p, m.isr.filter((y) => y !== x));
          if (m.leader === x) this.elect(p);
        } else if (m.leader === x) {
          this.elect(p); // the sole in-sync replica comes back: it leads again, in a new epoch
        }
      }
    }
    this.live.add(x);
    for (let p = 0; p < P; p++) {
      const m = meta[p];
      if (!m.replicas.includes(x)) continue;
      if (m.leader === null) this.elect(p);
      else this.notifyReplicas(p);
    }
  }

  /** AlterPartition: the ISR of partition p becomes `isr` (the leader asks, or a broker was fenced). */
  setIsr(p: number, isr: NodeId[]): void {
    const { ctx, meta, b } = this.k;
    const m = meta[p];
    const shrunk = m.isr.filter((x) => !isr.includes(x));
    const grown = isr.filter((x) => !m.isr.includes(x));
    m.isr = isr;
    this.k.touchReplicas(p);
    for (const x of shrunk) ctx.note('isrShrink', x, { partition: p, isr: [...isr] });
    for (const x of grown) ctx.note('isrExpand', x, { partition: p, isr: [...isr] });
    // A smaller ISR may let the HW advance and decides waiting acks=all requests.
    if (m.leader && ctx.isUp(m.leader) && b.get(m.leader)!.leading.has(p)) this.r.leaders.advanceHw(m.leader, p);
  }

  private elect(p: number): void {
    const { ctx, cfg, meta, b } = this.k;
    const m = meta[p];
    const e = electLeader(m.replicas, m.isr, (x) => this.live.has(x), cfg['unclean.leader.election.enable']);
    this.k.touchReplicas(p);
    this.k.touchConsumers(); // their lag is measured against the new leader's HW
    if (e.kind === 'offline') {
      m.leader = null;
      m.isr = e.isr;
      ctx.note('partitionOffline', undefined, { partition: p });
    } else {
      m.leader = e.leader;
      m.lastLeader = e.leader;
      m.epoch++;
      m.isr = e.isr;
      ctx.note('leaderElected', e.leader, { partition: p, term: m.epoch, clean: e.kind === 'clean' });
      const leo = b.get(e.leader)!.parts[p].leo;
      if (e.kind === 'unclean') {
        this.r.obs.uncleanElection();
        ctx.note('uncleanElection', e.leader, { partition: p, lostFrom: leo, committed: m.committed });
        m.committed = Math.min(m.committed, leo);
      } else if (leo < m.committed) {
        ctx.violation('leader-completeness', `partition ${p}: clean leader ${e.leader} has LEO ${leo} < committed ${m.committed}`);
      }
    }
    this.r.obs.referenceChanged(p);
    this.notifyReplicas(p);
    this.notifyClients(p);
  }

  /** LeaderAndIsr: tell the partition's live replicas their role. */
  private notifyReplicas(p: number): void {
    const { ctx, meta, b } = this.k;
    const m = meta[p];
    for (const x of m.replicas) {
      if (!ctx.isUp(x) || !this.live.has(x)) continue;
      const br = b.get(x)!;
      ctx.touch(x);
      br.parts[p].epoch = m.epoch;
      if (m.leader === null) br.offline.add(p);
      else br.offline.delete(p);
      if (m.leader === x) this.r.leaders.lead(x, p);
      else this.r.followers.follow(x, p);
    }
  }

  /** Clients see the new metadata at once: producers resend to the new leader, consumers refetch. */
  private notifyClients(p: number): void {
    this.r.producers.onMetadata(p);
    this.r.consumers.onMetadata(p);
  }
}
