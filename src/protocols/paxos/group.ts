import { quantize } from '../../sim/network';
import type { NodeId } from '../../sim/types';
import { updateKey } from '../paramMachine';
import { ReplicaBooks } from '../replicaBooks';
import type { ClientMsg } from '../rsmClient';
import type { StrategyContext } from '../strategy';
import { PaxosChecker } from './invariants';
import type { PaxosPsConfig } from './knobs';
import { PaxosLearner } from './learner';
import {
  becomeLeader,
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
import { BATCH, freshX, type Msg, type Send, type Server } from './server';
import { freshDurable, freshVolatile, majority, proposerOf, type PromiseReply, type Value } from './state';

/**
 * The servers' side of paxos-ps (the protocol is described on PaxosPsStrategy): election timers,
 * phase 1, phase 2, heartbeats with ReadIndex reads, and the clients' updates at the leader. The
 * learners are learner.ts; every decision is a pure rule of rules.ts, and this class does the I/O.
 */
export class PaxosGroup {
  readonly srv = new Map<NodeId, Server>();
  readonly checker: PaxosChecker;
  readonly quorum: number;
  readonly books = new ReplicaBooks();
  private readonly learner: PaxosLearner;
  // Value identities (uid) for the observer; never read by the protocol.
  private uidSeq = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: PaxosPsConfig,
  ) {
    this.quorum = majority(ctx.servers.length);
    this.checker = new PaxosChecker(this.quorum);
    for (const id of ctx.servers) {
      const d = freshDurable();
      this.srv.set(id, { id, servers: ctx.servers, d, v: freshVolatile(d, ctx.initialParams(), ctx.learningRate), x: freshX(), rng: ctx.rng(`election:${id}`) });
    }
    this.learner = new PaxosLearner(ctx, this.checker, this.books, this.send);
  }

  start(): void {
    for (const s of this.srv.values()) this.resetElectionTimer(s);
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
      if (wasProposing && req.ballot > s.v.ballot) this.stepDown(s, from, req.ballot);
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

  /** `from`'s message showed the higher ballot `seen`. */
  private stepDown(s: Server, from: NodeId, seen: number): void {
    const was = s.v.role;
    const ballot = s.v.ballot;
    stepDown(s);
    s.x.pendingKeys.clear();
    s.x.reads = []; // clients retry elsewhere
    if (was === 'leader') this.ctx.note('leaderStepDown', s.id, { term: ballot, from, seen });
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
    if (wasProposing && ballot > s.v.ballot) this.stepDown(s, leader, ballot);
    if (s.v.role !== 'follower') return; // its own messages
    s.v.leaderId = leader;
    this.resetElectionTimer(s);
    const { learned, missing } = learnFromCommitPoint(s, chosen, ballot);
    for (const { slot, entry } of learned) this.learner.learned(s, slot, entry);
    if (missing !== null && this.ctx.now() - s.x.lastCatchup >= this.cfg.heartbeatMs) {
      s.x.lastCatchup = this.ctx.now();
      this.send(s.id, leader, 'state-req', { t: 'catchup', from: missing });
    }
  }

  private onAcceptedMsg(s: Server, from: NodeId, reply: AcceptedReply): void {
    const r = onAcceptedReply(s, from, reply);
    if (r === 'stepdown') return this.stepDown(s, from, reply.promised);
    if (r !== 'chosen') return;
    const p = s.v.pending.get(reply.slot)!;
    s.v.pending.delete(reply.slot);
    if (p.value.kind === 'update') s.x.pendingKeys.delete(updateKey(p.value.update.worker, p.value.update.seq));
    this.learner.learned(s, reply.slot, { ballot: s.v.ballot, value: p.value });
    this.serveReads(s);
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
      if (s.v.role === 'leader' && m.promised > s.v.ballot) this.stepDown(s, from, m.promised);
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

  private readonly send: Send = (from, to, kind, m, bytes = 0) => {
    this.ctx.send(from, to, kind, m, bytes);
  };

  /** A message to server `to` (the clients' replies are the workers' business). */
  onMessage(to: NodeId, from: NodeId, m: Msg): void {
    const s = this.srv.get(to)!;
    switch (m.t) {
      case 'p1a':
        return this.onPrepareMsg(s, from, m);
      case 'p1b':
        return this.onPromiseReply(s, from, m);
      case 'p2a':
        return this.onAcceptMsg(s, from, m);
      case 'p2b':
        return this.onAcceptedMsg(s, from, m);
      case 'hb':
        return this.onHeartbeatMsg(s, from, m);
      case 'hbr':
        return this.onHeartbeatReply(s, from, m);
      case 'catchup':
        return this.learner.onCatchup(s, from, m.from);
      case 'chosen':
        return this.learner.onChosen(s, m);
      case 'update':
        return this.onClientUpdate(s, from, m);
      case 'read':
        return this.onClientRead(s, from, m.readId);
      default:
        return;
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const s = this.srv.get(node)!;
    if (tag === 'election') this.onElectionTimer(s, data);
    else if (tag === 'heartbeat') this.onHeartbeatTimer(s, data);
  }

  crashed(node: NodeId): void {
    // The promise, the accepted values, the highest ballot tried and the chosen values are on
    // stable storage; the rest is gone. The replica is rebuilt by replaying the chosen values.
    const s = this.srv.get(node);
    if (!s) return; // a node this strategy does not use
    s.v = freshVolatile(s.d, this.ctx.initialParams(), this.ctx.learningRate);
    s.x = freshX();
    this.books.replayed(node, s.v.sm.applied.keys()); // the replayed replica
  }

  restarted(node: NodeId): void {
    const s = this.srv.get(node);
    if (s) this.resetElectionTimer(s);
  }

  /** The scenario action `timeout` at `node`; false when `node` is not a server. */
  timeout(node: NodeId): boolean {
    const s = this.srv.get(node);
    if (!s) return false;
    // Like raft-ps: the server's election timer fires now. A leader has none.
    if (s.v.role === 'leader') this.ctx.note('timeoutIgnored', s.id, { reason: 'leader' });
    else this.startPhase1(s);
    return true;
  }
}
