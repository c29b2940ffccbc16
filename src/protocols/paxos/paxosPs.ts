import { quantize } from '../../sim/network';
import type { Rng } from '../../sim/rng';
import type { Action, Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import { updateKey } from '../paramMachine';
import { RsmClients, type ClientMsg } from '../rsmClient';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import { PaxosChecker } from './invariants';
import { replicatedClientWire } from '../wire';
import { UnconfirmedAcks } from '../unconfirmedAcks';
import {
  becomeLeader,
  learn,
  learnFromCommitPoint,
  onAccept,
  onAcceptedReply,
  onHeartbeat,
  onPrepare,
  onPromise,
  recoverSlots,
  startPhase1,
  stepDown,
  type AcceptedReply,
  type Prepare,
} from './rules';
import { freshDurable, freshVolatile, majority, proposerOf, type Accepted, type PaxosCore, type PromiseReply, type Value } from './state';
import { chosenItem, serverFacts, serverMetric } from './views';
import type { PaxosPsConfig } from './knobs';

/** Slots per message when a learner catches up, and accepts re-sent per heartbeat. */
const BATCH = 64;

type Msg =
  | ClientMsg
  | ({ t: 'p1a' } & Prepare)
  | ({ t: 'p1b' } & PromiseReply)
  /** Phase 2a, carrying the leader's chosen prefix (`chosen`) so followers learn without extra messages. */
  | { t: 'p2a'; ballot: number; slot: number; value: Value; chosen: number }
  | ({ t: 'p2b' } & AcceptedReply)
  /** Leadership, the chosen prefix, and (`round`) a read confirmation round. */
  | { t: 'hb'; ballot: number; chosen: number; round: number }
  | { t: 'hbr'; ballot: number; ok: boolean; promised: number; round: number }
  /** A learner asks the leader for the chosen values from slot `from` on. */
  | { t: 'catchup'; from: number }
  | { t: 'chosen'; from: number; entries: Accepted[] };

interface PendingRead {
  worker: NodeId;
  readId: number;
  /** The highest slot assigned when the read arrived. */
  readIndex: number;
  round: number;
}

/** Volatile bookkeeping beyond the protocol state: timers, read rounds, catch-up pacing. */
interface ServerX {
  deadline: number;
  timerToken: number;
  armedDue: number | null;
  round: number;
  ackedRound: Map<NodeId, number>;
  reads: PendingRead[];
  /** Pending updates by worker#seq → slot, so a client's retry is not proposed twice. */
  pendingKeys: Map<string, number>;
  lastCatchup: number;
}

interface Server extends PaxosCore {
  x: ServerX;
  rng: Rng;
}

/**
 * A parameter server replicated with Multi-Paxos and a distinguished proposer (Lamport, "Paxos
 * Made Simple", 2001, §3). The replicated state machine is the parameter vector; slot i of the
 * sequence holds one command — a worker's update, or a no-op — and applying an update is one SGD
 * step.
 *
 * Every server is acceptor, learner and proposer. A server that hears no leader for a randomised
 * election timeout (seeded, like raft-ps) becomes a candidate: it takes a ballot above every one it
 * knows and runs phase 1 once, for all slots from the first it does not know chosen (prepare →
 * promise). With promises from a majority it leads: for each slot some promise reports it
 * re-proposes the value accepted in the highest ballot, fills the gaps with no-ops, and then
 * proposes each new update in the next slot (phase 2: accept → accepted). A value is chosen when a
 * majority accepted it in one ballot; the leader learns that from the replies and announces the
 * chosen prefix on its next accept or heartbeat — a follower that accepted a slot in the leader's
 * ballot then knows its value, and asks the leader for the chosen values it lacks. Learners apply
 * chosen slots in order. A refusal naming a higher ballot makes a proposer step down.
 *
 * Workers are clients as in raft-ps (rsmClient.ts). Reads are linearizable the ReadIndex way: the
 * leader notes the highest slot it has assigned, confirms with a heartbeat round that a majority
 * still follows its ballot (so no later ballot can have chosen anything), and answers once every
 * slot up to the noted one is chosen and applied.
 */
export class PaxosPsStrategy implements Strategy {
  readonly kind = 'paxos-ps';
  readonly wire = replicatedClientWire;
  private readonly srv = new Map<NodeId, Server>();
  private readonly clients: RsmClients;
  private readonly checker: PaxosChecker;
  private readonly quorum: number;
  // Observer bookkeeping (metrics), never read by the protocol.
  private uidSeq = 0;
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  private commitNoted = 0;
  /** Per server, the updates that changed its replica since it last started; a second change is a duplicate. */
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: PaxosPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('paxos-ps needs servers (cluster.servers ≥ 3)');
    this.quorum = majority(ctx.servers.length);
    this.checker = new PaxosChecker(this.quorum);
    for (const id of ctx.servers) {
      const d = freshDurable();
      this.srv.set(id, { id, servers: ctx.servers, d, v: freshVolatile(d, ctx.initialParams(), ctx.learningRate), x: freshX(), rng: ctx.rng(`election:${id}`) });
    }
    this.clients = new RsmClients(ctx, cfg, null, () => this.authoritativeVersion());
  }

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    for (const w of this.ctx.workers) for (const s of this.ctx.servers) edges.push([w, s]);
    const ss = this.ctx.servers;
    for (let i = 0; i < ss.length; i++) for (let j = i + 1; j < ss.length; j++) edges.push([ss[i], ss[j]]);
    return edges;
  }

  start(): void {
    for (const s of this.srv.values()) this.resetElectionTimer(s);
    this.clients.start();
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    this.clients.onStepDone(worker, r);
  }

  private peers(s: Server): NodeId[] {
    return this.ctx.servers.filter((p) => p !== s.id);
  }

  // ================================================================ election timer (as raft-ps)

  private resetElectionTimer(s: Server): void {
    const [lo, hi] = this.cfg.electionTimeoutMs;
    s.x.deadline = quantize(this.ctx.now() + lo + (hi - lo) * s.rng.next());
    if (s.x.armedDue === null || s.x.armedDue > s.x.deadline) this.arm(s, s.x.deadline);
  }

  private arm(s: Server, due: number): void {
    s.x.armedDue = due;
    this.ctx.setTimer(s.id, Math.max(0, due - this.ctx.now()), 'election', ++s.x.timerToken);
  }

  private onElectionTimer(s: Server, token: unknown): void {
    if (token !== s.x.timerToken) return;
    s.x.armedDue = null;
    if (s.v.role === 'leader') return; // a leader has no election timeout; re-armed when it steps down
    if (this.ctx.now() < s.x.deadline) return this.arm(s, s.x.deadline);
    this.startPhase1(s);
  }

  // ================================================================ phase 1

  private startPhase1(s: Server): void {
    const req = startPhase1(s);
    s.x.pendingKeys.clear();
    s.x.reads = [];
    this.ctx.note('electionStarted', s.id, { term: req.ballot });
    this.resetElectionTimer(s);
    // Its own acceptor first: the promise is on stable storage before anything is sent.
    this.onPromiseReply(s, s.id, onPrepare(s, req));
    if (s.v.role === 'candidate') for (const p of this.peers(s)) this.send(s.id, p, 'prepare', { t: 'p1a', ...req });
  }

  private onPrepareMsg(s: Server, from: NodeId, req: Prepare): void {
    const wasProposing = s.v.role !== 'follower';
    const reply = onPrepare(s, req);
    if (reply.ok) {
      if (wasProposing && req.ballot > s.v.ballot) this.stepDown(s);
      if (proposerOf(req.ballot, this.ctx.servers) !== s.v.leaderId) s.v.leaderId = null;
      this.resetElectionTimer(s); // give the candidate its chance, as a Raft vote does
    }
    let bytes = 0;
    for (const a of reply.accepted) if (a.value.kind === 'update') bytes += this.ctx.paramCount * 4;
    this.send(s.id, from, 'promise', { t: 'p1b', ...reply }, bytes);
  }

  private onPromiseReply(s: Server, from: NodeId, reply: PromiseReply): void {
    const r = onPromise(s, from, reply);
    if (r === 'lost') this.resetElectionTimer(s);
    if (r === 'won') this.winPhase1(s);
  }

  /** Phase 1 done: re-propose every recovered value, fill gaps with no-ops, then lead. */
  private winPhase1(s: Server): void {
    const from = s.v.fromSlot;
    const slots = recoverSlots(s.v.promises.values(), from);
    const last = slots.length ? slots[slots.length - 1].slot : from - 1;
    becomeLeader(s, last);
    let noops = 0;
    this.ctx.note('leaderElected', s.id, { term: s.v.ballot });
    for (const { slot, value } of slots) {
      if (value === null) noops++;
      this.propose(s, slot, value ?? { kind: 'noop', uid: ++this.uidSeq });
    }
    this.ctx.note('paxos.recovered', s.id, { ballot: s.v.ballot, from, recovered: slots.length - noops, noops });
    s.x.ackedRound.clear();
    this.heartbeat(s);
    this.ctx.setTimer(s.id, this.cfg.heartbeatMs, 'heartbeat', s.v.ballot);
  }

  private stepDown(s: Server): void {
    const was = s.v.role;
    const ballot = s.v.ballot;
    stepDown(s);
    s.x.pendingKeys.clear();
    s.x.reads = []; // clients retry elsewhere
    if (was === 'leader') this.ctx.note('leaderStepDown', s.id, { term: ballot });
    this.resetElectionTimer(s);
  }

  // ================================================================ phase 2

  private propose(s: Server, slot: number, value: Value): void {
    if (s.v.role !== 'leader') return;
    s.v.pending.set(slot, { value, acks: new Set(), sentAt: this.ctx.now() });
    if (value.kind === 'update') s.x.pendingKeys.set(updateKey(value.update.worker, value.update.seq), slot);
    this.checker.proposed(slot, s.v.ballot, value);
    const req = { ballot: s.v.ballot, slot, value };
    this.onAcceptedMsg(s, s.id, this.acceptLocally(s, req)); // its own acceptor
    if (s.v.role !== 'leader') return;
    for (const p of this.peers(s)) this.sendAccept(s, p, slot, value);
  }

  private sendAccept(s: Server, to: NodeId, slot: number, value: Value): void {
    const bytes = value.kind === 'update' ? this.ctx.paramCount * 4 : 0;
    this.send(s.id, to, 'accept', { t: 'p2a', ballot: s.v.ballot, slot, value, chosen: s.d.chosen.length }, bytes);
  }

  /** Acceptor side of phase 2 (observer bookkeeping included). */
  private acceptLocally(s: Server, req: { ballot: number; slot: number; value: Value }): AcceptedReply {
    const reply = onAccept(s, req);
    if (reply.ok) this.checker.accepted(s.id, req.slot, req.ballot, req.value);
    return reply;
  }

  private onAcceptMsg(s: Server, from: NodeId, m: Extract<Msg, { t: 'p2a' }>): void {
    const wasProposing = s.v.role !== 'follower';
    const reply = this.acceptLocally(s, m);
    this.send(s.id, from, 'accepted', { t: 'p2b', ...reply });
    if (reply.ok) this.followLeader(s, from, m.ballot, wasProposing, m.chosen);
  }

  /** A message of a leader's ballot this server accepts: follow it, reset the timer, learn what it says is chosen. */
  private followLeader(s: Server, leader: NodeId, ballot: number, wasProposing: boolean, chosen: number): void {
    if (wasProposing && ballot > s.v.ballot) this.stepDown(s);
    if (s.v.role !== 'follower') return; // its own messages
    s.v.leaderId = leader;
    this.resetElectionTimer(s);
    const { learned, missing } = learnFromCommitPoint(s, chosen, ballot);
    for (const { slot, entry } of learned) this.learned(s, slot, entry);
    if (missing !== null && this.ctx.now() - s.x.lastCatchup >= this.cfg.heartbeatMs) {
      s.x.lastCatchup = this.ctx.now();
      this.send(s.id, leader, 'state-req', { t: 'catchup', from: missing });
    }
  }

  private onAcceptedMsg(s: Server, from: NodeId, reply: AcceptedReply): void {
    const r = onAcceptedReply(s, from, reply);
    if (r === 'stepdown') return this.stepDown(s);
    if (r !== 'chosen') return;
    const p = s.v.pending.get(reply.slot)!;
    s.v.pending.delete(reply.slot);
    if (p.value.kind === 'update') s.x.pendingKeys.delete(updateKey(p.value.update.worker, p.value.update.seq));
    this.learned(s, reply.slot, { ballot: s.v.ballot, value: p.value });
    this.serveReads(s);
  }

  // ================================================================ learners

  /** `slot` is known chosen at `s`: apply whatever now extends the prefix. */
  private learned(s: Server, slot: number, entry: Accepted): void {
    this.checker.learned(s.id, slot, entry.value);
    if (slot <= s.d.chosen.length) return;
    const first = s.d.chosen.length + 1;
    const run = learn(s, slot, entry);
    run.forEach((c, i) => this.apply(s, first + i, c.value));
    if (run.length && s.d.chosen.length > this.commitNoted) {
      this.commitNoted = s.d.chosen.length;
      this.ctx.note('commit', s.id, { index: s.d.chosen.length });
    }
  }

  private apply(s: Server, slot: number, v: Value): void {
    const firstAnywhere = slot > this.checker.appliedLength;
    this.checker.appliedSlot(s.id, slot, v);
    if (v.kind !== 'update') return;
    const sm = s.v.sm;
    const u = v.update;
    const tau = sm.version - u.basedOn;
    const version = sm.apply(u, this.ctx.learningRate);
    if (version !== null) {
      const eff = this.effective.get(s.id) ?? new Set<string>();
      const key = updateKey(u.worker, u.seq);
      if (eff.has(key)) this.duplicates++;
      this.effective.set(s.id, eff.add(key));
    }
    if (version !== null && firstAnywhere) {
      const now = this.ctx.now();
      if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
      this.lastCommitAt = now;
      this.ctx.note('apply', s.id, { worker: u.worker, seq: u.seq, staleness: tau });
    }
    if (s.v.role === 'leader') this.send(s.id, u.worker, 'ack', { t: 'ack', seq: u.seq, version: version ?? sm.applied.get(updateKey(u.worker, u.seq))! });
  }

  private onCatchup(s: Server, from: NodeId, start: number): void {
    if (s.v.role !== 'leader' || start > s.d.chosen.length) return;
    const entries = s.d.chosen.slice(start - 1, start - 1 + BATCH);
    let bytes = 0;
    for (const c of entries) if (c.value.kind === 'update') bytes += this.ctx.paramCount * 4;
    this.send(s.id, from, 'state', { t: 'chosen', from: start, entries }, bytes);
  }

  private onChosen(s: Server, m: Extract<Msg, { t: 'chosen' }>): void {
    m.entries.forEach((c, i) => this.learned(s, m.from + i, c));
  }

  // ================================================================ heartbeats and reads

  private heartbeat(s: Server): void {
    for (const p of this.peers(s)) this.send(s.id, p, 'heartbeat', { t: 'hb', ballot: s.v.ballot, chosen: s.d.chosen.length, round: s.x.round });
  }

  private onHeartbeatTimer(s: Server, ballot: unknown): void {
    if (s.v.role !== 'leader' || ballot !== s.v.ballot) return; // a timer of an earlier leadership
    this.heartbeat(s);
    // Accepts that a majority has not answered (lost, or the acceptor was down) are sent again.
    const now = this.ctx.now();
    let sent = 0;
    for (const [slot, p] of s.v.pending) {
      if (sent >= BATCH) break;
      if (now - p.sentAt < this.cfg.heartbeatMs) continue;
      p.sentAt = now;
      sent++;
      for (const peer of this.peers(s)) if (!p.acks.has(peer)) this.sendAccept(s, peer, slot, p.value);
    }
    this.ctx.setTimer(s.id, this.cfg.heartbeatMs, 'heartbeat', s.v.ballot);
  }

  private onHeartbeatMsg(s: Server, from: NodeId, m: Extract<Msg, { t: 'hb' }>): void {
    const wasProposing = s.v.role !== 'follower';
    const ok = onHeartbeat(s, m.ballot);
    this.send(s.id, from, 'ack', { t: 'hbr', ballot: m.ballot, ok, promised: s.d.promised, round: m.round });
    if (ok) this.followLeader(s, from, m.ballot, wasProposing, m.chosen);
  }

  private onHeartbeatReply(s: Server, from: NodeId, m: Extract<Msg, { t: 'hbr' }>): void {
    if (!m.ok) {
      s.v.maxSeen = Math.max(s.v.maxSeen, m.promised);
      if (s.v.role === 'leader' && m.promised > s.v.ballot) this.stepDown(s);
      return;
    }
    if (s.v.role !== 'leader' || m.ballot !== s.v.ballot) return;
    s.x.ackedRound.set(from, Math.max(s.x.ackedRound.get(from) ?? 0, m.round));
    this.serveReads(s);
  }

  private onClientRead(s: Server, from: NodeId, readId: number): void {
    if (s.v.role !== 'leader') {
      this.send(s.id, from, 'nack', { t: 'redirect', op: 'read', id: readId, hint: s.v.leaderId });
      return;
    }
    if (s.x.reads.some((r) => r.worker === from && r.readId === readId)) return;
    const round = ++s.x.round;
    s.x.reads.push({ worker: from, readId, readIndex: s.v.nextSlot - 1, round });
    this.heartbeat(s);
    this.serveReads(s);
  }

  /** Answers reads whose confirmation round a majority acknowledged and whose slots are all applied. */
  private serveReads(s: Server): void {
    if (s.v.role !== 'leader' || s.x.reads.length === 0) return;
    s.x.reads = s.x.reads.filter((r) => {
      let n = 1;
      for (const p of this.peers(s)) if ((s.x.ackedRound.get(p) ?? 0) >= r.round) n++;
      if (n < this.quorum || s.d.chosen.length < r.readIndex) return true;
      const sm = s.v.sm;
      this.send(s.id, r.worker, 'params', { t: 'params', readId: r.readId, params: sm.params.slice(), version: sm.version }, this.ctx.paramCount * 4);
      return false;
    });
  }

  // ================================================================ clients' updates

  private onClientUpdate(s: Server, from: NodeId, m: Extract<ClientMsg, { t: 'update' }>): void {
    if (s.v.role !== 'leader') {
      this.send(s.id, from, 'nack', { t: 'redirect', op: 'update', id: m.seq, hint: s.v.leaderId });
      return;
    }
    const key = updateKey(from, m.seq);
    const done = s.v.sm.applied.get(key);
    if (done !== undefined) return this.send(s.id, from, 'ack', { t: 'ack', seq: m.seq, version: done });
    if (s.x.pendingKeys.has(key)) return; // a retry of a proposal in flight: acknowledged when applied
    const value: Value = { kind: 'update', update: { worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn, uid: ++this.uidSeq }, uid: ++this.uidSeq };
    this.propose(s, s.v.nextSlot++, value);
  }

  // ================================================================ dispatch

  private send(from: NodeId, to: NodeId, kind: string, m: Msg, bytes = 0): void {
    this.ctx.send(from, to, kind, m, bytes);
  }

  onMessage(msg: Message): void {
    const m = msg.payload as Msg;
    if (this.clients.has(msg.to)) return this.clients.onMessage(msg.to, msg.from, m as ClientMsg);
    const s = this.srv.get(msg.to)!;
    switch (m.t) {
      case 'p1a':
        return this.onPrepareMsg(s, msg.from, m);
      case 'p1b':
        return this.onPromiseReply(s, msg.from, m);
      case 'p2a':
        return this.onAcceptMsg(s, msg.from, m);
      case 'p2b':
        return this.onAcceptedMsg(s, msg.from, m);
      case 'hb':
        return this.onHeartbeatMsg(s, msg.from, m);
      case 'hbr':
        return this.onHeartbeatReply(s, msg.from, m);
      case 'catchup':
        return this.onCatchup(s, msg.from, m.from);
      case 'chosen':
        return this.onChosen(s, m);
      case 'update':
        return this.onClientUpdate(s, msg.from, m);
      case 'read':
        return this.onClientRead(s, msg.from, m.readId);
      default:
        return;
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.clients.has(node)) {
      this.clients.onTimer(node, tag, data);
      return;
    }
    const s = this.srv.get(node)!;
    if (tag === 'election') this.onElectionTimer(s, data);
    else if (tag === 'heartbeat') this.onHeartbeatTimer(s, data);
  }

  onCrash(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onCrash(node);
    // The promise, the accepted values, the highest ballot tried and the chosen values are on
    // stable storage; the rest is gone. The replica is rebuilt by replaying the chosen values.
    const s = this.srv.get(node);
    if (!s) return; // a node this strategy does not use
    s.v = freshVolatile(s.d, this.ctx.initialParams(), this.ctx.learningRate);
    s.x = freshX();
    this.effective.set(node, new Set(s.v.sm.applied.keys())); // the replayed replica
  }

  onRestart(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onRestart(node);
    const s = this.srv.get(node);
    if (s) this.resetElectionTimer(s);
  }

  onAction(a: Action): boolean {
    if (a.do !== 'timeout') return false;
    const s = this.srv.get(a.node);
    if (!s) return false;
    // Like raft-ps: the server's election timer fires now. A leader has none.
    if (s.v.role === 'leader') this.ctx.note('timeoutIgnored', s.id, { reason: 'leader' });
    else this.startPhase1(s);
    return true;
  }

  // ================================================================ views and metrics

  authoritativeVersion(): number {
    let v = 0;
    for (const s of this.srv.values()) v = Math.max(v, s.v.sm.version);
    return v;
  }

  nodeVersion(node: NodeId): number {
    const s = this.srv.get(node);
    return s ? s.v.sm.version : this.ctx.replica(node).version;
  }

  facts(node: NodeId): NodeFacts | null {
    if (this.clients.has(node)) {
      const v = this.clients.view(node);
      return { kind: 'paxos-client', phase: v.phase, asking: v.asking, seq: v.seq };
    }
    const s = this.srv.get(node);
    return s ? serverFacts(s, this.quorum) : null;
  }

  /**
   * The learner's chosen values (append-only, as a Raft log's committed prefix). An acceptor's
   * accepted slots are not a log in that sense — a later ballot replaces a value in the middle — so
   * they appear as the facts' `accepted` and the messages, not here.
   */
  logOf(node: NodeId): NodeLog<Accepted> | null {
    const s = this.srv.get(node);
    return s ? { base: 1, entries: s.d.chosen, item: chosenItem } : null;
  }

  resolveSelector(selector: string): NodeId | null {
    if (selector !== '@leader') return null;
    let best: Server | null = null;
    for (const s of this.srv.values()) {
      if (s.v.role === 'leader' && this.ctx.isUp(s.id) && (!best || s.v.ballot > best.v.ballot)) best = s;
    }
    return best?.id ?? null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    if (name === 'maxCommitGapMs') return this.maxGap;
    if (name === 'staleReads') return this.clients.staleReads(node);
    return serverMetric(name, node, [...this.srv.values()], (n) => this.ctx.isUp(n));
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.checker.drain();
  }

  /** Acknowledged updates not chosen in any slot (an acknowledgement must mean chosen; chosen is forever). */
  lostUpdates(): number {
    // Only the acknowledgements since the last count and those not yet chosen are looked at.
    this.unchosen ??= new UnconfirmedAcks(this.clients.acked, (k) => this.checker.isChosen(k));
    return this.unchosen.count();
  }
  private unchosen: UnconfirmedAcks | null = null;

  /** Updates that changed one replica twice (a retry chosen in two slots and applied twice). */
  duplicateUpdates(): number {
    return this.duplicates;
  }

  /** For tests: a server's Paxos state (read-only use). */
  server(node: NodeId): Readonly<PaxosCore> {
    return this.srv.get(node)!;
  }

  acknowledged(): ReadonlySet<string> {
    return this.clients.acked;
  }
}

function freshX(): ServerX {
  return { deadline: 0, timerToken: 0, armedDue: null, round: 0, ackedRound: new Map(), reads: [], pendingKeys: new Map(), lastCatchup: -Infinity };
}
