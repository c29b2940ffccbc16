import type { Message, NodeId } from '../../sim/types';
import { axpy, equalVectors } from '../../sim/vectors';
import type { NodeDetail, Strategy, StrategyContext, StepResult } from '../strategy';
import type { KafkaPsConfig } from './knobs';
import { kafkaWire } from './wire';
import {
  ackAfterAppend,
  checkProduce,
  diverges,
  electLeader,
  highWatermark,
  laggingFollowers,
  leaderEpochAnswer,
  mayJoinIsr,
  onFollowerFetch,
  pendingOutcome,
  shrinkIsr,
  truncationOffset,
  type FollowerFetchState,
} from './rules';

/**
 * Parameter server fed through a replicated Kafka log (Kafka replication design; Kreps et al. 2011).
 *
 * Workers are producers: each gradient is a record appended to the partition of its worker
 * (w_i → partition i mod num.partitions), batched by linger.ms / batch.size and acknowledged per
 * `acks`. A worker waits for its acknowledgement (acks=1/all) before it reads fresh parameters from
 * its PS replica and computes again; with acks=0 it does not wait. Brokers b0… hold the partition
 * replicas (partition p on b_p, b_(p+1), …); followers FETCH from the leader (long-poll, as Kafka's
 * replica fetcher), the leader tracks each follower's fetch offset, shrinks the ISR after
 * replica.lag.time.max.ms without catching up, grows it back when a follower reaches the HW, and
 * advances the high watermark to the minimum LEO over the ISR. PS replicas s0… are consumers: each
 * polls every consumerPollMs, reads records below the HW, applies them in log order and serves its
 * parameters to the workers that read from it. Versions are offsets applied.
 *
 * The controller (KRaft) is modelled as a metadata quorum every broker and client reaches
 * reliably — its own failures are not simulated — hosted for timers on the lowest live broker. It
 * fences a broker broker.session.timeout.ms after the broker's process stops (missed heartbeats),
 * removes fenced brokers from ISRs and elects leaders: the first live ISR member (clean); with none,
 * unclean.leader.election.enable picks the first live replica (its missing records are lost) or
 * leaves the partition offline. A broker that restarts re-registers at once: its old incarnation is
 * fenced (it leaves the ISR, and loses leadership to another live ISR member if there is one).
 * ISR changes (AlterPartition) and metadata updates reach brokers and clients instantly.
 * Brokers keep their logs across a crash (a process crash); a returning follower truncates by
 * leader epoch (KIP-101/279) rather than to its HW, which is the pre-0.11 rule that KIP-101 showed
 * can lose committed data.
 *
 * Simplifications, on purpose: a producer's sequence gap is accepted (no OutOfOrderSequence);
 * a PS replica keeps no checkpoint and replays the log from offset 0 after a restart.
 */

/** Kafka defaults for what the knobs do not expose. */
const FETCH_WAIT_MS = 500; // replica.fetch.wait.max.ms / fetch.max.wait.ms
const FETCH_RETRY_MS = 1000; // a fetch unanswered this long is sent again
const RETRY_BACKOFF_MS = 100; // retry.backoff.ms
const PULL_TIMEOUT_MS = 1000; // a worker's read of its PS replica
const MAX_FETCH_BYTES = 1048576; // replica.fetch.max.bytes / max.partition.fetch.bytes

export interface Rec {
  epoch: number;
  pid: string;
  seq: number;
  worker: NodeId;
  grad: Float32Array;
  basedOn: number;
}
const keyOf = (r: { pid: string; seq: number }) => `${r.pid}#${r.seq}`;

/** A broker's copy of one partition: kept across crashes. */
interface PartLog {
  log: Rec[];
  hw: number;
}
interface LeaderState {
  epoch: number;
  epochStart: number;
  followers: Map<NodeId, FollowerFetchState>;
  parked: Array<{ from: NodeId; reqId: number; consumer: boolean; offset: number }>;
  pending: Array<{ from: NodeId; reqId: number; lastOffset: number }>;
}
interface FollowState {
  leader: NodeId;
  epoch: number;
  reqId: number;
}
interface Broker {
  parts: PartLog[];
  leading: Map<number, LeaderState>;
  following: Map<number, FollowState>;
}
interface PartMeta {
  replicas: NodeId[];
  leader: NodeId | null;
  lastLeader: NodeId;
  epoch: number;
  isr: NodeId[];
  /** Highest HW any leader announced since the last unclean election (committed records). */
  committed: number;
}
interface Request {
  reqId: number;
  p: number;
  records: Rec[];
  opIds: number[];
  sentTo: NodeId | null;
  attempt: number;
}
interface Producer {
  pid: string;
  nextSeq: number;
  accum: Rec[];
  accumOps: number[];
  lingerArmed: boolean;
  inflight: Map<number, Request>;
  nextReq: number;
  /** 'ack': waiting for acknowledgements; 'pull': waiting for parameters; 'step': computing. */
  phase: 'ack' | 'pull' | 'step';
  pullId: number;
  pullOp: number;
}
interface Consumer {
  params: Float32Array;
  pos: number[];
  fetching: Array<{ reqId: number; sentAt: number } | null>;
  nextReq: number;
  caughtUp: boolean;
}

export type Payload =
  | { t: 'produce'; p: number; reqId: number; attempt: number; records: Rec[] }
  | { t: 'produce-resp'; p: number; reqId: number; attempt: number; error?: string }
  | { t: 'fetch'; p: number; reqId: number; epoch: number; offset: number; lastEpoch: number }
  | { t: 'fetch-resp'; p: number; reqId: number; offset: number; records: Rec[]; hw: number; diverging?: { epoch: number; endOffset: number } }
  | { t: 'cfetch'; p: number; reqId: number; offset: number }
  | { t: 'cfetch-resp'; p: number; reqId: number; offset: number; records: Rec[]; hw: number; error?: 'OffsetOutOfRange' | 'NotLeader'; leo?: number }
  | { t: 'pull'; reqId: number }
  | { t: 'params'; reqId: number; params: Float32Array; offset: number };

export class KafkaPsStrategy implements Strategy {
  readonly kind = 'kafka-ps';
  readonly wire = kafkaWire;
  private readonly brokers: NodeId[];
  private readonly rf: number;
  private readonly P: number;
  private readonly acks: KafkaPsConfig['acks'];
  private readonly minIsr: number;
  private readonly meta: PartMeta[] = [];
  private readonly b = new Map<NodeId, Broker>();
  private readonly prod = new Map<NodeId, Producer>();
  private readonly cons = new Map<NodeId, Consumer>();
  private readonly readFrom = new Map<NodeId, NodeId>();
  private readonly recBytes: number;
  private readonly maxRecs: number;
  // Controller state (the metadata quorum).
  private readonly live = new Set<NodeId>();
  private readonly crashNo = new Map<NodeId, number>();
  private readonly crashedAt = new Map<NodeId, number>();
  // Observer bookkeeping for metrics and invariants (not protocol knowledge).
  private readonly acked = new Map<string, number>();
  private rejected = 0;
  private unclean = 0;
  private dirty = true;
  private lostCache = 0;
  private dupCache = 0;
  private reportedLost = 0;
  private serversDirty = true;
  private conflictsCache = 0;
  private readonly pidInc = new Map<NodeId, number>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: KafkaPsConfig,
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
      this.b.set(id, { parts: this.meta.map(() => ({ log: [], hw: 0 })), leading: new Map(), following: new Map() });
      this.live.add(id);
    }
    ctx.workers.forEach((w, i) => {
      this.readFrom.set(w, cfg.readFrom?.[w] ?? ctx.servers[i % ctx.servers.length]);
      this.prod.set(w, this.freshProducer(w));
    });
    for (const s of ctx.servers) this.cons.set(s, this.freshConsumer());
  }

  // ------------------------------------------------------------------ lifecycle

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    const seen = new Set<string>();
    const add = (a: NodeId, c: NodeId) => {
      const k = a < c ? `${a}|${c}` : `${c}|${a}`;
      if (a !== c && !seen.has(k)) {
        seen.add(k);
        edges.push([a, c]);
      }
    };
    for (const w of this.ctx.workers) {
      add(w, this.readFrom.get(w)!);
      for (const r of this.meta[this.partitionOf(w)].replicas) add(w, r);
    }
    for (const m of this.meta) for (const x of m.replicas) for (const y of m.replicas) add(x, y);
    for (const s of this.ctx.servers) for (const m of this.meta) for (const r of m.replicas) add(s, r);
    return edges;
  }

  start(): void {
    for (const id of this.brokers) this.ctx.setTimer(id, this.isrCheckMs(), 'isr-check');
    for (let p = 0; p < this.P; p++) this.notifyReplicas(p);
    for (const s of this.ctx.servers) this.ctx.setTimer(s, this.cfg.consumerPollMs, 'poll');
    for (const w of this.ctx.workers) this.pull(w);
  }

  onCrash(node: NodeId): void {
    if (this.b.has(node)) {
      const br = this.b.get(node)!;
      br.leading.clear(); // pending requests and parked fetches die with the process
      br.following.clear();
      this.crashNo.set(node, (this.crashNo.get(node) ?? 0) + 1);
      this.crashedAt.set(node, this.ctx.now());
      this.scheduleFences();
      return;
    }
    if (this.cons.has(node)) {
      this.cons.set(node, this.freshConsumer()); // parameters were in memory only
      this.serversDirty = true;
      return;
    }
    if (this.prod.has(node)) this.prod.set(node, this.freshProducer(node));
  }

  onRestart(node: NodeId): void {
    if (this.b.has(node)) {
      this.ctx.setTimer(node, this.isrCheckMs(), 'isr-check');
      this.register(node);
      this.scheduleFences();
      return;
    }
    if (this.cons.has(node)) {
      this.ctx.setTimer(node, this.cfg.consumerPollMs, 'poll');
      return;
    }
    if (this.prod.has(node)) this.pull(node);
  }

  // ------------------------------------------------------------------ controller

  private isrCheckMs(): number {
    return this.cfg['replica.lag.time.max.ms'] / 2; // Kafka's ISR-shrink task period
  }

  /** The controller's timers live on the lowest live broker. */
  private scheduleFences(): void {
    const host = this.brokers.find((x) => this.ctx.isUp(x));
    if (!host) return;
    for (const x of this.brokers) {
      if (this.ctx.isUp(x) || !this.live.has(x)) continue;
      const due = (this.crashedAt.get(x) ?? 0) + this.cfg['broker.session.timeout.ms'] - this.ctx.now();
      this.ctx.setTimer(host, Math.max(0, due), 'fence', { broker: x, crash: this.crashNo.get(x) ?? 0 });
    }
  }

  private fence(x: NodeId): void {
    if (!this.live.delete(x)) return;
    this.ctx.note('brokerFenced', x, {});
    for (let p = 0; p < this.P; p++) {
      const m = this.meta[p];
      if (!m.replicas.includes(x)) continue;
      if (m.isr.includes(x)) this.setIsr(p, shrinkIsr(m.isr, [x]));
      if (m.leader === x) this.elect(p);
    }
  }

  /** A restarted broker registers again; its previous incarnation is fenced first. */
  private register(x: NodeId): void {
    if (this.live.has(x)) {
      for (let p = 0; p < this.P; p++) {
        const m = this.meta[p];
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
    for (let p = 0; p < this.P; p++) {
      const m = this.meta[p];
      if (!m.replicas.includes(x)) continue;
      if (m.leader === null) this.elect(p);
      else this.notifyReplicas(p);
    }
  }

  private setIsr(p: number, isr: NodeId[]): void {
    const m = this.meta[p];
    const shrunk = m.isr.filter((x) => !isr.includes(x));
    const grown = isr.filter((x) => !m.isr.includes(x));
    m.isr = isr;
    for (const x of shrunk) this.ctx.note('isrShrink', x, { partition: p, isr: [...isr] });
    for (const x of grown) this.ctx.note('isrExpand', x, { partition: p, isr: [...isr] });
    // A smaller ISR may let the HW advance and decides waiting acks=all requests.
    if (m.leader && this.ctx.isUp(m.leader) && this.b.get(m.leader)!.leading.has(p)) this.advanceHw(m.leader, p);
  }

  private elect(p: number): void {
    const m = this.meta[p];
    const e = electLeader(m.replicas, m.isr, (x) => this.live.has(x), this.cfg['unclean.leader.election.enable']);
    if (e.kind === 'offline') {
      m.leader = null;
      m.isr = e.isr;
      this.ctx.note('partitionOffline', undefined, { partition: p });
    } else {
      m.leader = e.leader;
      m.lastLeader = e.leader;
      m.epoch++;
      m.isr = e.isr;
      this.ctx.note('leaderElected', e.leader, { partition: p, term: m.epoch, clean: e.kind === 'clean' });
      const leo = this.b.get(e.leader)!.parts[p].log.length;
      if (e.kind === 'unclean') {
        this.unclean++;
        this.ctx.note('uncleanElection', e.leader, { partition: p, lostFrom: leo, committed: m.committed });
        m.committed = Math.min(m.committed, leo);
      } else if (leo < m.committed) {
        this.ctx.violation('leader-completeness', `partition ${p}: clean leader ${e.leader} has LEO ${leo} < committed ${m.committed}`);
      }
    }
    this.dirty = true;
    this.notifyReplicas(p);
    this.notifyClients(p);
  }

  /** LeaderAndIsr: tell the partition's live replicas their role. */
  private notifyReplicas(p: number): void {
    const m = this.meta[p];
    for (const x of m.replicas) {
      if (!this.ctx.isUp(x) || !this.live.has(x)) continue;
      const br = this.b.get(x)!;
      if (m.leader === x) {
        if (br.leading.get(p)?.epoch === m.epoch) continue;
        br.following.delete(p);
        const followers = new Map<NodeId, FollowerFetchState>();
        // Kafka resets the ISR members' caught-up time when a leader starts.
        for (const y of m.isr) if (y !== x) followers.set(y, { leo: -1, lastCaughtUpMs: this.ctx.now(), lastFetchMs: this.ctx.now(), lastFetchLeaderLeo: 0 });
        br.leading.set(p, { epoch: m.epoch, epochStart: br.parts[p].log.length, followers, parked: [], pending: [] });
        this.advanceHw(x, p);
      } else {
        br.leading.delete(p);
        const f = br.following.get(p);
        if (m.leader === null) {
          br.following.delete(p);
        } else if (!f || f.leader !== m.leader || f.epoch !== m.epoch) {
          br.following.set(p, { leader: m.leader, epoch: m.epoch, reqId: f?.reqId ?? 0 });
          this.sendFetch(x, p);
        }
      }
    }
  }

  /** Clients see the new metadata at once: producers resend to the new leader, consumers refetch. */
  private notifyClients(p: number): void {
    const leader = this.meta[p].leader;
    for (const [w, pr] of this.prod) {
      if (!this.ctx.isUp(w)) continue;
      for (const r of pr.inflight.values()) if (r.p === p && r.sentTo !== leader) this.sendRequest(w, r);
    }
    for (const [s, c] of this.cons) if (this.ctx.isUp(s)) c.fetching[p] = null;
  }

  // ------------------------------------------------------------------ broker: leader side

  private leaderOf(x: NodeId, p: number): LeaderState | undefined {
    return this.b.get(x)?.leading.get(p);
  }

  private advanceHw(x: NodeId, p: number): void {
    const L = this.leaderOf(x, p)!;
    const part = this.b.get(x)!.parts[p];
    const m = this.meta[p];
    const hw = highWatermark(part.hw, m.isr, (y) => (y === x ? part.log.length : (L.followers.get(y)?.leo ?? -1) >= 0 ? L.followers.get(y)!.leo : undefined));
    if (hw < part.hw) this.ctx.violation('hw-monotonic', `partition ${p}: HW on leader ${x} went from ${part.hw} to ${hw}`);
    if (hw > part.hw) {
      part.hw = hw;
      m.committed = Math.max(m.committed, hw);
      this.wakeParked(x, p, true);
    }
    this.resolvePending(x, p);
  }

  private resolvePending(x: NodeId, p: number): void {
    const L = this.leaderOf(x, p)!;
    const hw = this.b.get(x)!.parts[p].hw;
    const isr = this.meta[p].isr.length;
    L.pending = L.pending.filter((q) => {
      const out = pendingOutcome(q.lastOffset, hw, isr, this.minIsr);
      if (out === 'wait') return true;
      this.reply(x, q.from, { t: 'produce-resp', p, reqId: q.reqId, attempt: -1, ...(out === 'ack' ? {} : { error: out }) });
      return false;
    });
  }

  private onProduce(x: NodeId, from: NodeId, q: Extract<Payload, { t: 'produce' }>): void {
    const L = this.leaderOf(x, q.p);
    const resp = (error?: string) => {
      if (this.acks !== '0') this.reply(x, from, { t: 'produce-resp', p: q.p, reqId: q.reqId, attempt: q.attempt, ...(error ? { error } : {}) });
    };
    if (!L) return resp('NotLeaderOrFollower');
    const m = this.meta[q.p];
    const check = checkProduce(this.acks, m.isr.length, this.minIsr);
    if (!check.ok) {
      this.rejected++;
      this.ctx.note('notEnoughReplicas', x, { partition: q.p, isr: m.isr.length });
      return resp(check.error);
    }
    const part = this.b.get(x)!.parts[q.p];
    let lastOffset = -1;
    for (const r of q.records) {
      const at = this.cfg['enable.idempotence'] ? findSeq(part.log, r.pid, r.seq) : -1;
      if (at >= 0) {
        lastOffset = Math.max(lastOffset, at); // a retry of a record already in the log: acknowledged, not appended
        continue;
      }
      part.log.push({ ...r, epoch: L.epoch });
      lastOffset = part.log.length - 1;
    }
    this.dirty = true;
    this.wakeParked(x, q.p, false);
    const d = ackAfterAppend(this.acks);
    if (d === 'ack-now') resp();
    else if (d === 'wait') L.pending.push({ from, reqId: q.reqId, lastOffset });
    this.advanceHw(x, q.p);
  }

  private onReplicaFetch(x: NodeId, from: NodeId, f: Extract<Payload, { t: 'fetch' }>): void {
    const L = this.leaderOf(x, f.p);
    if (!L || f.epoch !== L.epoch) return; // the follower retries; metadata will point it right
    const part = this.b.get(x)!.parts[f.p];
    const epochs = part.log.map((r) => r.epoch);
    if (diverges(epochs, f.offset, f.lastEpoch)) {
      this.reply(x, from, { t: 'fetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: part.hw, diverging: leaderEpochAnswer(epochs, f.lastEpoch) });
      return;
    }
    const prev = L.followers.get(from) ?? { leo: -1, lastCaughtUpMs: -Infinity, lastFetchMs: -Infinity, lastFetchLeaderLeo: Infinity };
    L.followers.set(from, onFollowerFetch(prev, f.offset, part.log.length, this.ctx.now()));
    const m = this.meta[f.p];
    if (!m.isr.includes(from) && mayJoinIsr(f.offset, part.hw, L.epochStart)) this.setIsr(f.p, [...m.isr, from]);
    this.advanceHw(x, f.p);
    if (f.offset < part.log.length) this.answerFetch(x, from, f.p, f.reqId, f.offset, false);
    else this.park(x, L, { from, reqId: f.reqId, consumer: false, offset: f.offset }, f.p);
  }

  private onConsumerFetch(x: NodeId, from: NodeId, f: Extract<Payload, { t: 'cfetch' }>): void {
    const L = this.leaderOf(x, f.p);
    if (!L) return this.reply(x, from, { t: 'cfetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: 0, error: 'NotLeader' });
    const part = this.b.get(x)!.parts[f.p];
    if (f.offset > part.log.length) {
      this.reply(x, from, { t: 'cfetch-resp', p: f.p, reqId: f.reqId, offset: f.offset, records: [], hw: part.hw, error: 'OffsetOutOfRange', leo: part.log.length });
      return;
    }
    if (f.offset < part.hw) this.answerFetch(x, from, f.p, f.reqId, f.offset, true);
    else this.park(x, L, { from, reqId: f.reqId, consumer: true, offset: f.offset }, f.p);
  }

  private park(x: NodeId, L: LeaderState, q: LeaderState['parked'][number], p: number): void {
    L.parked.push(q);
    this.ctx.setTimer(x, FETCH_WAIT_MS, 'fetch-wait', { p, from: q.from, reqId: q.reqId });
  }

  /** New records wake parked follower fetches; a higher HW wakes parked consumer fetches. */
  private wakeParked(x: NodeId, p: number, consumers: boolean): void {
    const L = this.leaderOf(x, p)!;
    const part = this.b.get(x)!.parts[p];
    L.parked = L.parked.filter((q) => {
      if (q.consumer !== consumers) return true;
      const limit = consumers ? part.hw : part.log.length;
      if (q.offset >= limit) return true;
      this.answerFetch(x, q.from, p, q.reqId, q.offset, consumers);
      return false;
    });
  }

  private answerFetch(x: NodeId, to: NodeId, p: number, reqId: number, offset: number, consumer: boolean): void {
    const part = this.b.get(x)!.parts[p];
    const end = Math.min(consumer ? part.hw : part.log.length, offset + this.maxRecs);
    const records = part.log.slice(offset, end);
    this.reply(x, to, { t: consumer ? 'cfetch-resp' : 'fetch-resp', p, reqId, offset, records, hw: part.hw });
  }

  private reply(from: NodeId, to: NodeId, m: Payload): void {
    const bytes = 'records' in m ? m.records.length * this.recBytes : m.t === 'params' ? this.recBytes : 0;
    const kind = m.t === 'produce-resp' ? 'ack' : m.t === 'fetch-resp' ? 'append' : m.t === 'cfetch-resp' ? 'records' : m.t === 'params' ? 'params' : 'fetch';
    this.ctx.send(from, to, kind, m, bytes);
  }

  // ------------------------------------------------------------------ broker: follower side

  private sendFetch(x: NodeId, p: number): void {
    const f = this.b.get(x)!.following.get(p);
    if (!f) return;
    const log = this.b.get(x)!.parts[p].log;
    f.reqId++;
    const msg: Payload = { t: 'fetch', p, reqId: f.reqId, epoch: f.epoch, offset: log.length, lastEpoch: log.length ? log[log.length - 1].epoch : -1 };
    this.ctx.send(x, f.leader, 'fetch', msg, 0);
    this.ctx.setTimer(x, FETCH_RETRY_MS, 'fetch-retry', { p, reqId: f.reqId });
  }

  private onFetchResp(x: NodeId, r: Extract<Payload, { t: 'fetch-resp' }>): void {
    const br = this.b.get(x)!;
    const f = br.following.get(r.p);
    if (!f || r.reqId !== f.reqId) return;
    const part = br.parts[r.p];
    if (r.diverging) {
      const to = truncationOffset(part.log.map((e) => e.epoch), r.diverging);
      this.ctx.note('truncate', x, { partition: r.p, from: part.log.length, to });
      part.log.length = to;
      part.hw = Math.min(part.hw, to);
    } else if (r.offset === part.log.length) {
      for (const rec of r.records) part.log.push(rec);
      part.hw = Math.min(r.hw, part.log.length);
    }
    this.sendFetch(x, r.p);
  }

  // ------------------------------------------------------------------ producers (workers)

  private partitionOf(w: NodeId): number {
    return this.ctx.workers.indexOf(w) % this.P;
  }

  private freshProducer(w: NodeId): Producer {
    // A new process is a new idempotent producer: a new producer id, sequence numbers from 0.
    const inc = (this.pidInc.get(w) ?? -1) + 1;
    this.pidInc.set(w, inc);
    return { pid: `${w}.${inc}`, nextSeq: 0, accum: [], accumOps: [], lingerArmed: false, inflight: new Map(), nextReq: 0, phase: 'pull', pullId: 0, pullOp: 0 };
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const pr = this.prod.get(worker)!;
    const rec: Rec = { epoch: -1, pid: pr.pid, seq: pr.nextSeq++, worker, grad: r.grad, basedOn: r.basedOn };
    pr.accum.push(rec);
    pr.accumOps.push(this.ctx.op(worker, 'invoke', 'update'));
    if (pr.accum.length * this.recBytes >= this.cfg['batch.size']) this.flush(worker);
    else if (!pr.lingerArmed) {
      pr.lingerArmed = true;
      this.ctx.setTimer(worker, this.cfg['linger.ms'], 'linger');
    }
    if (this.acks === '0') this.pull(worker); // fire and forget
    else pr.phase = 'ack';
  }

  /** Turns the accumulator into a request when a slot is free (max.in.flight.requests.per.connection). */
  private flush(w: NodeId): void {
    const pr = this.prod.get(w)!;
    if (pr.accum.length === 0) return;
    if (this.acks !== '0' && pr.inflight.size >= this.cfg['max.in.flight.requests.per.connection']) return;
    const req: Request = { reqId: ++pr.nextReq, p: this.partitionOf(w), records: pr.accum, opIds: pr.accumOps, sentTo: null, attempt: 0 };
    pr.accum = [];
    pr.accumOps = [];
    pr.inflight.set(req.reqId, req);
    this.sendRequest(w, req);
  }

  private sendRequest(w: NodeId, req: Request): void {
    const pr = this.prod.get(w)!;
    const leader = this.meta[req.p].leader;
    req.attempt++;
    if (leader === null) {
      // Offline partition: the write is refused; the producer retries after retry.backoff.ms.
      this.rejected++;
      this.ctx.note('offlinePartition', w, { partition: req.p });
      req.sentTo = null;
      this.ctx.setTimer(w, RETRY_BACKOFF_MS, 'retry', { reqId: req.reqId, attempt: req.attempt });
      return;
    }
    req.sentTo = leader;
    const msg: Payload = { t: 'produce', p: req.p, reqId: req.reqId, attempt: req.attempt, records: req.records };
    this.ctx.send(w, leader, 'gradient', msg, req.records.length * this.recBytes);
    if (this.acks === '0') {
      pr.inflight.delete(req.reqId);
      this.acknowledge(w, req); // acks=0: the send is the acknowledgement
      return;
    }
    this.ctx.setTimer(w, this.cfg['request.timeout.ms'], 'req-timeout', { reqId: req.reqId, attempt: req.attempt });
  }

  private acknowledge(w: NodeId, req: Request): void {
    req.records.forEach((r, i) => {
      this.acked.set(keyOf(r), req.p);
      this.ctx.op(w, 'ok', 'update', req.opIds[i]);
      this.ctx.counted(w);
    });
    this.dirty = true;
  }

  private onProduceResp(w: NodeId, r: Extract<Payload, { t: 'produce-resp' }>): void {
    const pr = this.prod.get(w)!;
    const req = pr.inflight.get(r.reqId);
    if (!req) return;
    if (r.error) {
      // Errors from an attempt we already replaced are stale; the newer attempt will answer.
      if (r.attempt !== -1 && r.attempt !== req.attempt) return;
      this.ctx.note('produceError', w, { error: r.error });
      this.ctx.setTimer(w, RETRY_BACKOFF_MS, 'retry', { reqId: req.reqId, attempt: req.attempt });
      return;
    }
    pr.inflight.delete(r.reqId);
    this.acknowledge(w, req);
    this.flush(w);
    if (pr.phase === 'ack' && pr.inflight.size === 0 && pr.accum.length === 0) this.pull(w);
  }

  private pull(w: NodeId): void {
    const pr = this.prod.get(w)!;
    pr.phase = 'pull';
    pr.pullId++;
    pr.pullOp = this.ctx.op(w, 'invoke', 'read');
    this.ctx.send(w, this.readFrom.get(w)!, 'pull', { t: 'pull', reqId: pr.pullId } satisfies Payload, 0);
    this.ctx.setTimer(w, PULL_TIMEOUT_MS, 'pull-timeout', pr.pullId);
  }

  private onParams(w: NodeId, m: Extract<Payload, { t: 'params' }>): void {
    const pr = this.prod.get(w)!;
    if (pr.phase !== 'pull' || m.reqId !== pr.pullId) return;
    this.ctx.setReplica(w, m.params, m.offset, m.offset);
    this.ctx.op(w, 'ok', 'read', pr.pullOp, m.offset, m.params);
    pr.phase = 'step';
    this.ctx.startStep(w);
  }

  // ------------------------------------------------------------------ PS replicas (consumers)

  private freshConsumer(): Consumer {
    return { params: this.ctx.initialParams(), pos: this.meta.map(() => 0), fetching: this.meta.map(() => null), nextReq: 0, caughtUp: true };
  }

  private poll(s: NodeId): void {
    const c = this.cons.get(s)!;
    for (let p = 0; p < this.P; p++) {
      const f = c.fetching[p];
      if (f && this.ctx.now() - f.sentAt < FETCH_RETRY_MS) continue;
      const leader = this.meta[p].leader;
      if (leader === null) continue;
      const reqId = ++c.nextReq;
      c.fetching[p] = { reqId, sentAt: this.ctx.now() };
      this.ctx.send(s, leader, 'fetch', { t: 'cfetch', p, reqId, offset: c.pos[p] } satisfies Payload, 0);
    }
  }

  private onRecords(s: NodeId, r: Extract<Payload, { t: 'cfetch-resp' }>): void {
    const c = this.cons.get(s)!;
    if (c.fetching[r.p]?.reqId !== r.reqId) return;
    c.fetching[r.p] = null;
    if (r.error === 'OffsetOutOfRange') {
      // The log was truncated below what this replica applied (an unclean election): its
      // parameters keep updates the log no longer has. It continues from the new end.
      this.ctx.note('offsetOutOfRange', s, { partition: r.p, applied: c.pos[r.p], leo: r.leo ?? 0 });
      c.pos[r.p] = r.leo ?? 0;
      this.serversDirty = true;
      return;
    }
    if (r.error || r.offset !== c.pos[r.p]) return;
    for (const rec of r.records) {
      const tau = this.offsetOf(c) - rec.basedOn;
      axpy(c.params, -this.ctx.learningRate, rec.grad);
      c.pos[r.p]++;
      if (this.readFrom.get(rec.worker) === s) this.ctx.note('apply', s, { worker: rec.worker, seq: rec.seq, staleness: tau });
    }
    if (r.records.length) this.serversDirty = true;
    const behind = c.pos[r.p] < r.hw;
    if (!behind && !c.caughtUp) this.ctx.note('consumerCaughtUp', s, {});
    c.caughtUp = !behind;
  }

  private onPull(s: NodeId, from: NodeId, m: Extract<Payload, { t: 'pull' }>): void {
    const c = this.cons.get(s)!;
    this.reply(s, from, { t: 'params', reqId: m.reqId, params: c.params.slice(), offset: this.offsetOf(c) });
  }

  private offsetOf(c: Consumer): number {
    return c.pos.reduce((a, x) => a + x, 0);
  }

  // ------------------------------------------------------------------ dispatch

  onMessage(msg: Message): void {
    const m = msg.payload as Payload;
    const to = msg.to;
    switch (m.t) {
      case 'produce':
        return this.onProduce(to, msg.from, m);
      case 'fetch':
        return this.onReplicaFetch(to, msg.from, m);
      case 'cfetch':
        return this.onConsumerFetch(to, msg.from, m);
      case 'fetch-resp':
        return this.onFetchResp(to, m);
      case 'produce-resp':
        return this.onProduceResp(to, m);
      case 'cfetch-resp':
        return this.onRecords(to, m);
      case 'pull':
        return this.onPull(to, msg.from, m);
      case 'params':
        return this.onParams(to, m);
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    switch (tag) {
      case 'isr-check': {
        const br = this.b.get(node)!;
        for (const [p, L] of br.leading) {
          const lag = laggingFollowers(this.meta[p].isr, node, L.followers, this.ctx.now(), this.cfg['replica.lag.time.max.ms']);
          if (lag.length) this.setIsr(p, shrinkIsr(this.meta[p].isr, lag));
        }
        this.ctx.setTimer(node, this.isrCheckMs(), 'isr-check');
        return;
      }
      case 'fence': {
        const d = data as { broker: NodeId; crash: number };
        if (!this.ctx.isUp(d.broker) && (this.crashNo.get(d.broker) ?? 0) === d.crash) this.fence(d.broker);
        return;
      }
      case 'fetch-wait': {
        const d = data as { p: number; from: NodeId; reqId: number };
        const L = this.leaderOf(node, d.p);
        if (!L) return;
        const i = L.parked.findIndex((q) => q.from === d.from && q.reqId === d.reqId);
        if (i < 0) return;
        const [q] = L.parked.splice(i, 1);
        this.reply(node, q.from, { t: q.consumer ? 'cfetch-resp' : 'fetch-resp', p: d.p, reqId: q.reqId, offset: q.offset, records: [], hw: this.b.get(node)!.parts[d.p].hw });
        return;
      }
      case 'fetch-retry': {
        const d = data as { p: number; reqId: number };
        if (this.b.get(node)!.following.get(d.p)?.reqId === d.reqId) this.sendFetch(node, d.p);
        return;
      }
      case 'poll':
        this.poll(node);
        this.ctx.setTimer(node, this.cfg.consumerPollMs, 'poll');
        return;
      case 'linger': {
        const pr = this.prod.get(node)!;
        pr.lingerArmed = false;
        this.flush(node);
        return;
      }
      case 'retry':
      case 'req-timeout': {
        const d = data as { reqId: number; attempt: number };
        const req = this.prod.get(node)!.inflight.get(d.reqId);
        if (req && req.attempt === d.attempt) this.sendRequest(node, req);
        return;
      }
      case 'pull-timeout': {
        const pr = this.prod.get(node)!;
        if (pr.phase === 'pull' && pr.pullId === data) {
          // The PS replica is out of reach: train on the parameters we have (staler every step).
          this.ctx.note('pullTimeout', node, {});
          this.ctx.op(node, 'fail', 'read', pr.pullOp);
          pr.phase = 'step';
          this.ctx.startStep(node);
        }
        return;
      }
    }
  }

  // ------------------------------------------------------------------ versions, metrics, views

  authoritativeVersion(): number {
    let best = 0;
    for (const [s, c] of this.cons) if (this.ctx.isUp(s)) best = Math.max(best, this.offsetOf(c));
    return best;
  }

  nodeVersion(node: NodeId): number {
    const c = this.cons.get(node);
    if (c) return this.offsetOf(c);
    const br = this.b.get(node);
    if (br) return br.parts.reduce((a, x) => a + x.log.length, 0);
    return 0;
  }

  status(node: NodeId): string {
    const c = this.cons.get(node);
    if (c) return `offset ${this.offsetOf(c)}, lag ${this.lagOf(node)}`;
    const br = this.b.get(node);
    if (br) {
      const led = [...br.leading.keys()];
      return led.length ? `leader of ${led.map((p) => `p${p}`).join(', ')}` : 'follower';
    }
    const pr = this.prod.get(node);
    if (!pr) return '';
    if (pr.phase === 'ack') return this.meta[this.partitionOf(node)].leader === null ? 'partition offline: retrying' : 'waiting for the acknowledgement';
    if (pr.phase === 'pull') return `reading parameters from ${this.readFrom.get(node)}`;
    return 'training';
  }

  private hwOf(p: number): number {
    const m = this.meta[p];
    return this.b.get(m.leader ?? m.lastLeader)!.parts[p].hw;
  }

  private lagOf(s: NodeId): number {
    const c = this.cons.get(s)!;
    let lag = 0;
    for (let p = 0; p < this.P; p++) lag += Math.max(0, this.hwOf(p) - c.pos[p]);
    return lag;
  }

  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    let lost = 0;
    let dups = 0;
    const keys = this.meta.map((m) => {
      const set = new Set<string>();
      for (const r of this.b.get(m.leader ?? m.lastLeader)!.parts[this.meta.indexOf(m)].log) {
        const k = keyOf(r);
        if (set.has(k)) dups++;
        set.add(k);
      }
      return set;
    });
    for (const [k, p] of this.acked) if (!keys[p].has(k)) lost++;
    this.lostCache = lost;
    this.dupCache = dups;
  }

  lostUpdates(): number {
    this.refresh();
    return this.lostCache;
  }

  duplicateUpdates(): number {
    this.refresh();
    return this.dupCache;
  }

  private serverConflicts(): number {
    if (!this.serversDirty) return this.conflictsCache;
    this.serversDirty = false;
    const cs = [...this.cons.entries()].filter(([s]) => this.ctx.isUp(s)).map(([, c]) => c);
    let n = 0;
    for (let i = 0; i < cs.length; i++)
      for (let j = i + 1; j < cs.length; j++)
        if (cs[i].pos.every((x, p) => x === cs[j].pos[p]) && !equalVectors(cs[i].params, cs[j].params)) n++;
    this.conflictsCache = n;
    return n;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'consumerLag':
        if (node) return this.cons.has(node) ? this.lagOf(node) : null;
        return Math.max(0, ...[...this.cons.keys()].filter((s) => this.ctx.isUp(s)).map((s) => this.lagOf(s)));
      case 'serverConflicts':
        return this.serverConflicts();
      case 'isrSize':
        return Math.min(...this.meta.map((m) => m.isr.length));
      case 'rejectedWrites':
        return this.rejected;
      case 'uncleanElections':
        return this.unclean;
      case 'logLength':
      case 'commitIndex': {
        const br = node ? this.b.get(node) : undefined;
        if (node && !br) return null;
        const logs = br ? [br] : [...this.b.values()];
        const f = (x: Broker) => x.parts.reduce((a, q) => a + (name === 'logLength' ? q.log.length : q.hw), 0);
        return Math.max(...logs.map(f));
      }
      default:
        return undefined;
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    const out: Array<{ invariant: string; detail: string }> = [];
    if ((this.serversDirty || this.conflictsCache > 0) && this.unclean === 0 && this.P === 1) {
      const before = this.conflictsCache;
      const n = this.serverConflicts();
      if (n > before) out.push({ invariant: 'same-offset-same-params', detail: `${n} pairs of PS replicas at one offset hold different parameters` });
    }
    const lost = this.lostUpdates(); // cached; recomputed only after the logs or the acks changed
    if (lost > this.reportedLost) {
      const durable = this.acks === 'all' && this.minIsr >= 2 && !this.cfg['unclean.leader.election.enable'];
      if (durable) out.push({ invariant: 'no-acknowledged-write-lost', detail: `${lost - this.reportedLost} acknowledged records missing from the log (acks=all, min.insync.replicas=${this.minIsr}, unclean off)` });
      this.reportedLost = lost;
    }
    return out;
  }

  resolveSelector(selector: string): NodeId | null {
    return selector === '@leader' ? this.meta[0].leader : null;
  }

  detail(node: NodeId): NodeDetail | null {
    const br = this.b.get(node);
    if (br) {
      const lines: string[] = [];
      this.meta.forEach((m, p) => {
        if (!m.replicas.includes(node)) return;
        const part = br.parts[p];
        const role = m.leader === node ? 'leader' : 'follower';
        lines.push(`p${p} ${role} · LEO ${part.log.length} · HW ${part.hw}${m.leader === node ? ` · ISR {${m.isr.join(',')}} · epoch ${m.epoch}` : ''}`);
      });
      const p0 = br.parts[0];
      const from = Math.max(0, p0.log.length - 20);
      return {
        role: this.meta.some((m) => m.leader === node) ? 'leader' : 'follower',
        term: this.meta[0].epoch,
        commitIndex: p0.hw,
        log: p0.log.slice(from).map((r, i) => ({ index: from + i, term: r.epoch, committed: from + i < p0.hw, label: `${r.worker}:${r.seq}` })),
        lines,
      };
    }
    const c = this.cons.get(node);
    if (c) return { role: 'consumer', lines: [`offset ${this.offsetOf(c)}, lag ${this.lagOf(node)}`] };
    if (this.prod.has(node)) return { role: 'producer', lines: [`reads from ${this.readFrom.get(node)}`, `writes to p${this.partitionOf(node)} (acks=${this.acks})`] };
    return null;
  }
}

/** Offset of a producer's record in a log, searching from the end (retries are recent). */
function findSeq(log: readonly Rec[], pid: string, seq: number): number {
  for (let i = log.length - 1; i >= 0; i--) if (log[i].pid === pid && log[i].seq === seq) return i;
  return -1;
}
