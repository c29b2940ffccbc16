import type { Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import type { Strategy, StrategyContext, StepResult } from '../strategy';
import { KafkaCluster, type KafkaRoles } from './cluster';
import { Consumers } from './consumer';
import { Controller } from './controller';
import { Followers } from './follower';
import type { KafkaPsConfig } from './knobs';
import { kafkaWire } from './wire';
import { Leaders } from './leader';
import { KafkaObserver } from './observer';
import { Producers } from './producer';
import type { Payload, Rec } from './types';
import { KafkaView } from './view';

/**
 * Parameter server fed through a replicated Kafka log (Kafka replication design; Kreps et al. 2011).
 *
 * Workers are producers (producer.ts) appending gradients to topic partitions; brokers b0… hold
 * the partition replicas (partition p on b_p, b_(p+1), …), as leader (leader.ts) or follower
 * (follower.ts); the controller (controller.ts) fences brokers, keeps ISRs and elects leaders;
 * PS replicas s0… are consumers (consumer.ts) that apply the records below the HW and serve their
 * parameters. Brokers keep their logs across a crash (a process crash). observer.ts keeps the
 * books (loss, duplicates, invariants), view.ts says what a node shows. The pure rules are in
 * rules.ts. This class wires the roles to the engine: lifecycle, messages and timers.
 */
export class KafkaPsStrategy implements Strategy {
  readonly kind = 'kafka-ps';
  readonly wire = kafkaWire;
  private readonly k: KafkaCluster;
  private readonly r: KafkaRoles;
  private readonly view: KafkaView;

  constructor(
    private readonly ctx: StrategyContext,
    cfg: KafkaPsConfig,
    brokers: number,
  ) {
    this.k = new KafkaCluster(ctx, cfg, brokers);
    // The roles call one another (a fetch grows the ISR, an election restarts fetches and
    // resends produce requests): each gets the table, filled before any event arrives.
    const r = {} as KafkaRoles;
    r.controller = new Controller(this.k, r);
    r.leaders = new Leaders(this.k, r);
    r.followers = new Followers(this.k);
    r.producers = new Producers(this.k, r);
    r.consumers = new Consumers(this.k, r);
    r.obs = new KafkaObserver(this.k, r);
    this.r = r;
    this.view = new KafkaView(this.k, r);
  }

  // ------------------------------------------------------------------ lifecycle

  topology(): Array<[NodeId, NodeId]> {
    const { k } = this;
    const edges: Array<[NodeId, NodeId]> = [];
    const seen = new Set<string>();
    const add = (a: NodeId, c: NodeId) => {
      const key = a < c ? `${a}|${c}` : `${c}|${a}`;
      if (a !== c && !seen.has(key)) {
        seen.add(key);
        edges.push([a, c]);
      }
    };
    for (const w of this.ctx.workers) {
      add(w, this.r.producers.readFrom.get(w)!);
      for (const b of k.meta[k.partitionOf(w)].replicas) add(w, b);
    }
    for (const m of k.meta) for (const x of m.replicas) for (const y of m.replicas) add(x, y);
    for (const s of this.ctx.servers) for (const m of k.meta) for (const b of m.replicas) add(s, b);
    return edges;
  }

  start(): void {
    for (const id of this.k.brokers) this.ctx.setTimer(id, this.r.controller.isrCheckMs(), 'isr-check');
    this.r.controller.start();
    this.r.consumers.start();
    this.r.producers.start();
  }

  onCrash(node: NodeId): void {
    const br = this.k.b.get(node);
    if (br) {
      br.leading.clear(); // pending requests and parked fetches die with the process
      br.following.clear();
      br.offline.clear();
      this.r.controller.brokerStopped(node);
      return;
    }
    if (this.r.consumers.state(node)) return this.r.consumers.onCrash(node);
    if (this.r.producers.state(node)) this.r.producers.onCrash(node);
  }

  onRestart(node: NodeId): void {
    if (this.k.b.has(node)) {
      this.ctx.setTimer(node, this.r.controller.isrCheckMs(), 'isr-check');
      this.r.controller.brokerStarted(node);
      return;
    }
    if (this.r.consumers.state(node)) return this.r.consumers.onRestart(node);
    if (this.r.producers.state(node)) this.r.producers.onRestart(node);
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    this.r.producers.onStepDone(worker, r);
  }

  // ------------------------------------------------------------------ dispatch

  onMessage(msg: Message): void {
    const m = msg.payload as Payload;
    const to = msg.to;
    const { leaders, followers, producers, consumers } = this.r;
    switch (m.t) {
      case 'produce':
        return leaders.onProduce(to, msg.from, m);
      case 'fetch':
        return leaders.onReplicaFetch(to, msg.from, m);
      case 'cfetch':
        return leaders.onConsumerFetch(to, msg.from, m);
      case 'fetch-resp':
        return followers.onFetchResp(to, m);
      case 'produce-resp':
        return producers.onProduceResp(to, m);
      case 'cfetch-resp':
        return consumers.onRecords(to, m);
      case 'pull':
        return consumers.onPull(to, msg.from, m);
      case 'params':
        return producers.onParams(to, m);
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const { controller, leaders, followers, producers, consumers } = this.r;
    switch (tag) {
      case 'isr-check':
        return leaders.onIsrCheck(node);
      case 'fence':
        return controller.onFenceTimer(data as { broker: NodeId; crash: number });
      case 'fetch-wait':
        return leaders.onFetchWait(node, data as { p: number; from: NodeId; reqId: number });
      case 'fetch-retry':
        return followers.onFetchRetry(node, data as { p: number; reqId: number });
      case 'poll':
        return consumers.onPollTimer(node);
      case 'linger':
        return producers.onLinger(node);
      case 'retry':
      case 'req-timeout':
        return producers.onRetry(node, data as { reqId: number; attempt: number });
      case 'pull-timeout':
        return producers.onPullTimeout(node, data);
    }
  }

  // ------------------------------------------------------------------ versions, metrics, views

  authoritativeVersion(): number {
    return this.view.authoritativeVersion();
  }

  nodeVersion(node: NodeId): number {
    return this.view.nodeVersion(node);
  }

  facts(node: NodeId): NodeFacts | null {
    return this.view.facts(node);
  }

  logOf(node: NodeId): NodeLog<Rec> | null {
    return this.view.logOf(node);
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    return this.view.metric(name, node);
  }

  lostUpdates(): number {
    return this.r.obs.lostUpdates();
  }

  duplicateUpdates(): number {
    return this.r.obs.duplicateUpdates();
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.r.obs.checkInvariants();
  }

  resolveSelector(selector: string): NodeId | null {
    return selector === '@leader' ? this.k.meta[0].leader : null;
  }
}
