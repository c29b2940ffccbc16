import type { NodeId } from '../../sim/types';
import { updateKey, type UpdateCommand } from '../paramMachine';
import { ReplicaBooks } from '../replicaBooks';
import type { ClientMsg } from '../rsmClient';
import type { StrategyContext } from '../strategy';
import { TwoPcChecker } from './invariants';
import type { TwoPcPsConfig } from './knobs';
import { beginTx, decide, onDecision, onDecisionRequest, onInquiry, onPrepare, onVote, onVoteTimeout, updateStatus, type Vote } from './rules';
import { recoverCoordinator, recoverParticipant, undecided, type Coordinator, type Decision, type Participant } from './state';

/** Every message of 2pc-ps: the clients' (rsmClient.ts) and the servers' two phases. */
export type Msg =
  | ClientMsg
  | { t: 'prepare'; tx: number; update: UpdateCommand }
  | { t: 'vote'; tx: number; vote: Vote }
  /** COMMIT / ABORT, from the coordinator or, answering a request, from a peer. */
  | { t: 'decision'; tx: number; decision: Decision }
  /** A prepared participant asks for the decision of `tx` (termination protocol). */
  | { t: 'ask'; tx: number };

/** A server's volatile state around its participant: the in-doubt wait and a deferred PREPARE. */
export interface ServerX {
  part: Participant;
  /** Prepared and the decision did not come in time: it asks around (observer and facts). */
  blocked: boolean;
  /** A PREPARE that waits for the decision of the transaction it is prepared on. */
  deferred: { tx: number; update: UpdateCommand; from: NodeId } | null;
  waitToken: number;
}

/**
 * The servers' side of 2pc-ps (the protocol is described on TwoPcPsStrategy): the coordinator's
 * transactions, each participant's vote and decision with the termination protocol, and recovery
 * from the stable logs. Every decision is a pure rule of rules.ts; this class does the I/O.
 */
export class TwoPcServers {
  /** Every server is a participant, the coordinator's too. */
  readonly participants: readonly NodeId[];
  readonly srv = new Map<NodeId, ServerX>();
  /** Rebuilt from its log when the coordinator's server crashes: read it afresh. */
  coord!: Coordinator;
  readonly checker = new TwoPcChecker();
  // Observer bookkeeping (metrics), never read by the protocol.
  readonly books = new ReplicaBooks();
  private uidSeq = 0;
  /** Transactions aborted (rejectedWrites). */
  aborts = 0;
  /** Per participant, the transactions it voted yes on (lostUpdates). */
  readonly preparedOn = new Map<NodeId, Set<number>>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: TwoPcPsConfig,
    readonly coordId: NodeId,
  ) {
    this.participants = ctx.servers;
    for (const id of ctx.servers) {
      this.srv.set(id, { part: recoverParticipant(id, [], ctx.initialParams(), ctx.learningRate), blocked: false, deferred: null, waitToken: 0 });
      this.preparedOn.set(id, new Set());
    }
    this.coord = recoverCoordinator([]);
  }

  /** The newest replica version on any server. */
  authoritativeVersion(): number {
    let v = 0;
    for (const x of this.srv.values()) v = Math.max(v, x.part.sm.version);
    return v;
  }

  // ================================================================ coordinator

  private onClientUpdate(from: NodeId, m: Extract<Msg, { t: 'update' }>): void {
    const st = updateStatus(this.coord, from, m.seq);
    if (st === 'pending') return; // its transaction is queued or collecting votes: answered when decided
    if (st === 'commit') return this.ackCommitted(from, m.seq);
    if (st === 'abort') return this.send(this.coordId, from, 'nack', { t: 'aborted', seq: m.seq });
    this.coord.queue.push({ worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn, uid: ++this.uidSeq });
    this.startNext();
  }

  private ackCommitted(worker: NodeId, seq: number): void {
    const version = this.srv.get(this.coordId)!.part.sm.applied.get(updateKey(worker, seq));
    if (version !== undefined) this.send(this.coordId, worker, 'ack', { t: 'ack', seq, version });
  }

  /** Begins queued transactions until one is collecting votes. */
  private startNext(): void {
    const c = this.coord;
    while (!c.current && c.queue.length > 0) {
      const update = c.queue.shift()!;
      const tx = beginTx(c, update);
      this.ctx.note('2pc.prepareSent', this.coordId, { tx, participants: this.participants.length });
      for (const p of this.participants) if (p !== this.coordId) this.send(this.coordId, p, 'prepare', { t: 'prepare', tx, update }, this.ctx.paramCount * 4);
      this.ctx.setTimer(this.coordId, this.cfg.voteTimeoutMs, 'vote-timeout', tx);
      // The coordinator's own participant votes at once (no message).
      this.participantPrepare(this.coordId, tx, update, this.coordId);
    }
  }

  private onVote(from: NodeId, tx: number, vote: Vote): void {
    const d = onVote(this.coord, from, tx, vote, this.participants);
    if (d) this.coordinatorDecides(tx, d, d === 'commit' ? 'all-yes' : 'vote-no');
  }

  /** Forces the decision to the log, applies it locally, tells the worker and every participant. */
  private coordinatorDecides(tx: number, d: Decision, reason: 'all-yes' | 'vote-no' | 'vote-timeout' | 'recovery'): void {
    const update = this.coord.current?.tx === tx ? this.coord.current.update : null;
    decide(this.coord, tx, d);
    this.checker.coordinatorDecided(tx, d, this.participants);
    this.ctx.note('2pc.decided', this.coordId, { tx, decision: d, reason });
    if (d === 'abort') this.aborts++;
    this.participantDecides(this.coordId, tx, d, this.coordId);
    for (const p of this.participants) if (p !== this.coordId) this.send(this.coordId, p, 'decision', { t: 'decision', tx, decision: d });
    if (update) {
      if (d === 'commit') this.ackCommitted(update.worker, update.seq);
      else this.send(this.coordId, update.worker, 'nack', { t: 'aborted', seq: update.seq });
    }
    this.startNext();
  }

  private onInquiry(from: NodeId, tx: number): void {
    const r = onInquiry(this.coord, tx);
    if (r.answer === null) return;
    // Presumed abort: a transaction begun before a crash and never decided is aborted, logged and
    // sent to every participant.
    if (r.presumed) return this.coordinatorDecides(tx, 'abort', 'recovery');
    if (from !== this.coordId) this.send(this.coordId, from, 'decision', { t: 'decision', tx, decision: r.answer });
  }

  // ================================================================ participants

  private participantPrepare(node: NodeId, tx: number, update: UpdateCommand, from: NodeId): void {
    const x = this.srv.get(node)!;
    const before = x.part.log.length;
    const { vote } = onPrepare(x.part, tx, update);
    if (vote === 'wait') {
      // It holds the lock for an earlier transaction: ask for that decision now, vote after it.
      x.deferred = { tx, update, from };
      this.ask(node, x.part.prepared!.tx, false);
      return;
    }
    const rec = x.part.log.length > before ? x.part.log[x.part.log.length - 1] : null;
    if (rec?.kind === 'prepare') {
      this.checker.votedYes(node, tx);
      this.preparedOn.get(node)!.add(tx);
      this.armWait(node, x);
    } else if (rec?.kind === 'abort') this.checker.abortedUnvoted(node, tx);
    if (node === this.coordId) this.onVote(node, tx, vote);
    else this.send(node, from, 'vote', { t: 'vote', tx, vote });
  }

  /**
   * After a yes vote: if the decision does not come within twice the vote timeout (the coordinator
   * may take the whole vote timeout, and the decision still has to travel), the participant is in
   * doubt. Asking earlier would only race the coordinator's own abort.
   */
  private armWait(node: NodeId, x: ServerX): void {
    this.ctx.setTimer(node, 2 * this.cfg.voteTimeoutMs, 'decision-wait', ++x.waitToken);
  }

  private onDecisionWait(node: NodeId, token: unknown): void {
    const x = this.srv.get(node)!;
    if (token !== x.waitToken || !x.part.prepared) return;
    const tx = x.part.prepared.tx;
    if (!x.blocked) this.ctx.note('2pc.inDoubt', node, { tx });
    x.blocked = true;
    this.ask(node, tx, true);
    this.armWait(node, x);
  }

  /** Asks the coordinator — and, in the termination protocol, every other participant — for a decision. */
  private ask(node: NodeId, tx: number, peers: boolean): void {
    if (node === this.coordId) return this.onInquiry(node, tx);
    this.send(node, this.coordId, 'ask', { t: 'ask', tx });
    if (peers) for (const p of this.participants) if (p !== node && p !== this.coordId) this.send(node, p, 'ask', { t: 'ask', tx });
  }

  private onAsk(node: NodeId, from: NodeId, tx: number): void {
    if (node === this.coordId) return this.onInquiry(from, tx);
    const x = this.srv.get(node)!;
    const r = onDecisionRequest(x.part, tx);
    if (r.abortedNow) this.checker.abortedUnvoted(node, tx);
    if (r.answer) this.send(node, from, 'decision', { t: 'decision', tx, decision: r.answer });
  }

  private participantDecides(node: NodeId, tx: number, d: Decision, from: NodeId): void {
    const x = this.srv.get(node)!;
    const wasBlocked = x.blocked && x.part.prepared?.tx === tx;
    const out = onDecision(x.part, tx, d);
    if (out.kind === 'known') return;
    if (out.kind === 'invalid') return this.ctx.violation('2pc-protocol', out.why);
    this.checker.participantDecided(node, tx, d);
    if (x.part.prepared === null) {
      x.blocked = false;
      x.waitToken++; // cancels the wait timer
    }
    if (wasBlocked) this.ctx.note('2pc.resolved', node, { tx, decision: d, from });
    if (out.kind === 'applied') this.applied(node, x, tx, out.update);
    const dfr = x.deferred;
    if (dfr && x.part.prepared === null) {
      x.deferred = null;
      this.participantPrepare(node, dfr.tx, dfr.update, dfr.from);
    }
  }

  private applied(node: NodeId, x: ServerX, tx: number, u: UpdateCommand): void {
    const sm = x.part.sm;
    const tau = sm.version - u.basedOn;
    const firstAnywhere = sm.version + 1 > this.authoritativeVersion();
    if (sm.apply(u, this.ctx.learningRate) === null) return;
    this.books.changed(node, updateKey(u.worker, u.seq));
    this.checker.applied(node, tx);
    if (!firstAnywhere) return;
    this.books.firstApply(this.ctx.now());
    this.ctx.note('apply', node, { worker: u.worker, seq: u.seq, staleness: tau });
  }

  // ================================================================ dispatch

  private send(from: NodeId, to: NodeId, kind: string, m: Msg, bytes = 0): void {
    this.ctx.send(from, to, kind, m, bytes);
  }

  /** A message to server `to` (the clients' replies are the workers' business). */
  onMessage(to: NodeId, from: NodeId, m: Msg): void {
    switch (m.t) {
      case 'update':
        if (to === this.coordId) this.onClientUpdate(from, m);
        return;
      case 'read':
        // The coordinator's replica holds every committed transaction (see TwoPcPsStrategy).
        if (to === this.coordId) {
          const sm = this.srv.get(to)!.part.sm;
          this.send(to, from, 'params', { t: 'params', readId: m.readId, params: sm.params.slice(), version: sm.version }, this.ctx.paramCount * 4);
        }
        return;
      case 'prepare':
        return this.participantPrepare(to, m.tx, m.update, from);
      case 'vote':
        if (to === this.coordId) this.onVote(from, m.tx, m.vote);
        return;
      case 'decision':
        return this.participantDecides(to, m.tx, m.decision, from);
      case 'ask':
        return this.onAsk(to, from, m.tx);
      default:
        return;
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (tag === 'vote-timeout' && node === this.coordId) {
      const tx = data as number;
      if (onVoteTimeout(this.coord, tx)) this.coordinatorDecides(tx, 'abort', 'vote-timeout');
    } else if (tag === 'decision-wait') this.onDecisionWait(node, data);
  }

  crashed(node: NodeId): void {
    // Only the stable logs survive.
    const x = this.srv.get(node);
    if (!x) return; // a node this strategy does not use
    x.part = recoverParticipant(node, x.part.log, this.ctx.initialParams(), this.ctx.learningRate);
    this.books.replayed(node, x.part.sm.applied.keys()); // the replayed replica
    x.blocked = false;
    x.deferred = null;
    x.waitToken++;
    if (node === this.coordId) this.coord = recoverCoordinator(this.coord.log);
  }

  restarted(node: NodeId): void {
    const x = this.srv.get(node);
    if (!x) return;
    const committed = x.part.log.filter((r) => r.kind === 'commit').map((r) => r.tx);
    this.checker.replayed(node, x.part.sm.version, committed);
    if (node === this.coordId) {
      // Recovery: a transaction begun and never decided is aborted (presumed abort); the last
      // decision is sent again, for participants that may have missed it.
      const open = undecided(this.coord);
      for (const tx of open) this.coordinatorDecides(tx, 'abort', 'recovery');
      const last = this.coord.last;
      if (last && open.length === 0) {
        for (const p of this.participants) if (p !== this.coordId) this.send(this.coordId, p, 'decision', { t: 'decision', tx: last.tx, decision: last.decision });
      }
      return;
    }
    // A participant that restarts prepared does not know the outcome: it asks at once.
    if (x.part.prepared) {
      const tx = x.part.prepared.tx;
      x.blocked = true;
      this.ctx.note('2pc.inDoubt', node, { tx });
      this.ask(node, tx, true);
      this.armWait(node, x);
    }
  }
}
