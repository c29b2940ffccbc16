import type { NodeId } from '../../sim/types';
import type { StrategyContext } from '../strategy';
import type { Consumers } from './consumer';
import type { Controller } from './controller';
import type { Followers } from './follower';
import type { KafkaPsConfig } from './knobs';
import type { Leaders } from './leader';
import type { KafkaObserver } from './observer';
import type { Producers } from './producer';
import { ReplicaLog } from './replicaLog';
import { MAX_FETCH_BYTES, type Broker, type LeaderState, type PartMeta, type Payload } from './types';

/** The roles of kafka-ps, one module each; they call one another through this table. */
export interface KafkaRoles {
  controller: Controller;
  leaders: Leaders;
  followers: Followers;
  producers: Producers;
  consumers: Consumers;
  obs: KafkaObserver;
}

/**
 * What the roles of kafka-ps share: the configuration, the controller's metadata, the brokers'
 * replicas and how a message goes out. Each role module owns the state of its nodes; this holds
 * the brokers' (both broker roles work on it) and the metadata (the controller writes it, and in
 * this model every broker and client reads it at once).
 */
export class KafkaCluster {
  readonly brokers: NodeId[];
  readonly rf: number;
  /** Number of topic partitions. */
  readonly P: number;
  readonly acks: KafkaPsConfig['acks'];
  readonly minIsr: number;
  readonly recBytes: number;
  /** Records per fetch response (replica.fetch.max.bytes). */
  readonly maxRecs: number;
  readonly meta: PartMeta[] = [];
  readonly b = new Map<NodeId, Broker>();
  /** Topic partitions each broker holds a replica of (fixed assignment). */
  readonly held = new Map<NodeId, number[]>();

  constructor(
    readonly ctx: StrategyContext,
    readonly cfg: KafkaPsConfig,
    brokers: number,
  ) {
    if (ctx.servers.length < 1) throw new Error('kafka-ps needs a PS replica (cluster.servers ≥ 1)');
    if (brokers < 1) throw new Error('kafka-ps needs a broker (cluster.brokers ≥ 1)');
    this.brokers = Array.from({ length: brokers }, (_, i) => `b${i}`);
    this.rf = cfg['replication.factor'] ?? Math.min(3, brokers);
    if (this.rf > brokers) throw new Error(`replication.factor ${this.rf} needs ${this.rf} brokers (cluster has ${brokers})`);
    this.P = cfg['num.partitions'];
    this.acks = cfg.acks;
    this.minIsr = cfg['min.insync.replicas'];
    this.recBytes = ctx.paramCount * 4;
    this.maxRecs = Math.max(1, Math.floor(MAX_FETCH_BYTES / Math.max(1, this.recBytes)));
    for (let p = 0; p < this.P; p++) {
      const replicas = Array.from({ length: this.rf }, (_, i) => this.brokers[(p + i) % brokers]);
      this.meta.push({ replicas, leader: replicas[0], lastLeader: replicas[0], epoch: 0, isr: [...replicas], committed: 0 });
    }
    for (const id of this.brokers) {
      this.held.set(id, this.meta.flatMap((m, p) => (m.replicas.includes(id) ? [p] : [])));
      this.b.set(id, { parts: this.meta.map(() => new ReplicaLog()), leading: new Map(), following: new Map(), offline: new Set() });
    }
  }

  /** w_i writes to topic partition i mod num.partitions. */
  partitionOf(w: NodeId): number {
    return this.ctx.workers.indexOf(w) % this.P;
  }

  leaderOf(x: NodeId, p: number): LeaderState | undefined {
    return this.b.get(x)?.leading.get(p);
  }

  /** The broker whose log lag and loss are measured against: the leader, or the last one while offline. */
  referenceBroker(p: number): NodeId {
    const m = this.meta[p];
    return m.leader ?? m.lastLeader;
  }

  /**
   * Every HW change goes through here: the broker's facts change (it may not be the event's node
   * when the controller shrank an ISR), and so does every consumer's lag when it is the HW that
   * lag is measured against.
   */
  setHw(x: NodeId, p: number, hw: number): void {
    const part = this.b.get(x)!.parts[p];
    if (part.hw === hw) return;
    part.hw = hw;
    this.ctx.touch(x);
    if (this.referenceBroker(p) === x) this.touchConsumers();
  }

  touchReplicas(p: number): void {
    for (const x of this.meta[p].replicas) this.ctx.touch(x);
  }

  /** The PS replicas (consumers), whose lag depends on the reference HW. */
  touchConsumers(): void {
    for (const s of this.ctx.servers) this.ctx.touch(s);
  }

  /** A broker's or PS replica's answer (the message kind follows from the payload). */
  reply(from: NodeId, to: NodeId, m: Payload): void {
    const bytes = 'records' in m ? m.records.length * this.recBytes : m.t === 'params' ? this.recBytes : 0;
    const kind = m.t === 'produce-resp' ? 'ack' : m.t === 'fetch-resp' ? 'append' : m.t === 'cfetch-resp' ? 'records' : m.t === 'params' ? 'params' : 'fetch';
    this.ctx.send(from, to, kind, m, bytes);
  }
}
