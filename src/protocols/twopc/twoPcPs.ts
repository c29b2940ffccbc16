import type { Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import { updateKey, type UpdateCommand } from '../paramMachine';
import { RsmClients, type ClientMsg } from '../rsmClient';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import { TwoPcChecker } from './invariants';
import { beginTx, decide, onDecision, onDecisionRequest, onInquiry, onPrepare, onVote, onVoteTimeout, updateStatus, type Vote } from './rules';
import { recoverCoordinator, recoverParticipant, undecided, type Coordinator, type Decision, type Participant, type PartRecord } from './state';
import { partItem, serverFacts, type ServerView } from './views';
import { replicatedClientWire } from '../wire';
import type { TwoPcPsConfig } from './knobs';

type Msg =
  | ClientMsg
  | { t: 'prepare'; tx: number; update: UpdateCommand }
  | { t: 'vote'; tx: number; vote: Vote }
  /** COMMIT / ABORT, from the coordinator or, answering a request, from a peer. */
  | { t: 'decision'; tx: number; decision: Decision }
  /** A prepared participant asks for the decision of `tx` (termination protocol). */
  | { t: 'ask'; tx: number };

interface ServerX {
  part: Participant;
  /** Prepared and the decision did not come in time: it asks around (observer and facts). */
  blocked: boolean;
  /** A PREPARE that waits for the decision of the transaction it is prepared on. */
  deferred: { tx: number; update: UpdateCommand; from: NodeId } | null;
  waitToken: number;
}

/**
 * A parameter server replicated by two-phase commit across the servers (Gray 1978; Bernstein,
 * Hadzilacos & Goodman 1987, ch. 7). Every server holds a replica of the parameters and is a
 * participant; the `coordinator` (s0 by default) also runs the coordinator. Each worker update is
 * one transaction: the coordinator logs `begin`, sends PREPARE (with the gradient) to every
 * participant, commits only if every participant votes yes, and aborts on a no or when
 * `voteTimeoutMs` passes without every vote. It forces the decision to its stable log before
 * sending it, so after a restart it re-sends the last decision — or, for a transaction it had begun
 * but not decided, aborts it (presumed abort). Transactions run one at a time (the parameters are
 * one object: a prepared participant holds its lock until it learns the decision).
 *
 * A participant that voted yes is prepared: it can neither commit (another may have voted no) nor
 * abort (the coordinator may have committed). If the decision does not come within 2 × voteTimeoutMs
 * it is in doubt: it asks the coordinator and the other participants at that interval (cooperative
 * termination) and blocks until one of them knows. Prepared records, votes and decisions are on
 * stable storage; a restarted participant rebuilds its replica by replaying its committed updates.
 *
 * Reads: a worker reads the parameters from the coordinator, which answers from its own replica.
 * Every transaction the coordinator decided to commit is applied there before anyone is told, so a
 * read sees every update acknowledged before it began: reads and committed updates are
 * linearizable. A coordinator that is down answers nothing, so reads wait with writes — CP, and it
 * needs every replica for writes.
 */
export class TwoPcPsStrategy implements Strategy {
  readonly kind = '2pc-ps';
  readonly wire = replicatedClientWire;
  private readonly coordId: NodeId;
  /** Every server is a participant, the coordinator's too. */
  private readonly participants: readonly NodeId[];
  private readonly srv = new Map<NodeId, ServerX>();
  private coord!: Coordinator;
  private readonly clients: RsmClients;
  private readonly checker = new TwoPcChecker();
  // Observer bookkeeping (metrics), never read by the protocol.
  private uidSeq = 0;
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  private aborts = 0;
  private readonly preparedOn = new Map<NodeId, Set<number>>();
  /** Per server, the updates that changed its replica since it last started; a second change is a duplicate. */
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: TwoPcPsConfig,
  ) {
    if (!ctx.servers.includes(cfg.coordinator)) throw new Error(`2pc-ps: coordinator "${cfg.coordinator}" is not a server (cluster has ${ctx.servers.join(', ') || 'no servers'})`);
    this.coordId = cfg.coordinator;
    this.participants = ctx.servers;
    for (const id of ctx.servers) {
      this.srv.set(id, { part: recoverParticipant(id, [], ctx.initialParams(), ctx.learningRate), blocked: false, deferred: null, waitToken: 0 });
      this.preparedOn.set(id, new Set());
      this.effective.set(id, new Set());
    }
    this.coord = recoverCoordinator([]);
    this.clients = new RsmClients(ctx, cfg, this.coordId, () => this.authoritativeVersion());
  }

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    for (const w of this.ctx.workers) edges.push([w, this.coordId]);
    const ss = this.ctx.servers;
    for (let i = 0; i < ss.length; i++) for (let j = i + 1; j < ss.length; j++) edges.push([ss[i], ss[j]]);
    return edges;
  }

  start(): void {
    this.clients.start();
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    this.clients.onStepDone(worker, r);
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
    const eff = this.effective.get(node)!;
    const key = updateKey(u.worker, u.seq);
    if (eff.has(key)) this.duplicates++;
    eff.add(key);
    this.checker.applied(node, tx);
    if (!firstAnywhere) return;
    const now = this.ctx.now();
    if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
    this.lastCommitAt = now;
    this.ctx.note('apply', node, { worker: u.worker, seq: u.seq, staleness: tau });
  }

  // ================================================================ dispatch

  private send(from: NodeId, to: NodeId, kind: string, m: Msg, bytes = 0): void {
    this.ctx.send(from, to, kind, m, bytes);
  }

  onMessage(msg: Message): void {
    const m = msg.payload as Msg;
    const to = msg.to;
    if (this.clients.has(to)) return this.clients.onMessage(to, msg.from, m as ClientMsg);
    switch (m.t) {
      case 'update':
        if (to === this.coordId) this.onClientUpdate(msg.from, m);
        return;
      case 'read':
        // The coordinator's replica holds every committed transaction (see the class comment).
        if (to === this.coordId) {
          const sm = this.srv.get(to)!.part.sm;
          this.send(to, msg.from, 'params', { t: 'params', readId: m.readId, params: sm.params.slice(), version: sm.version }, this.ctx.paramCount * 4);
        }
        return;
      case 'prepare':
        return this.participantPrepare(to, m.tx, m.update, msg.from);
      case 'vote':
        if (to === this.coordId) this.onVote(msg.from, m.tx, m.vote);
        return;
      case 'decision':
        return this.participantDecides(to, m.tx, m.decision, msg.from);
      case 'ask':
        return this.onAsk(to, msg.from, m.tx);
      default:
        return;
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.clients.has(node)) {
      this.clients.onTimer(node, tag, data);
      return;
    }
    if (tag === 'vote-timeout' && node === this.coordId) {
      const tx = data as number;
      if (onVoteTimeout(this.coord, tx)) this.coordinatorDecides(tx, 'abort', 'vote-timeout');
    } else if (tag === 'decision-wait') this.onDecisionWait(node, data);
  }

  onCrash(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onCrash(node);
    // Only the stable logs survive.
    const x = this.srv.get(node);
    if (!x) return; // a node this strategy does not use
    x.part = recoverParticipant(node, x.part.log, this.ctx.initialParams(), this.ctx.learningRate);
    this.effective.set(node, new Set(x.part.sm.applied.keys())); // the replayed replica
    x.blocked = false;
    x.deferred = null;
    x.waitToken++;
    if (node === this.coordId) this.coord = recoverCoordinator(this.coord.log);
  }

  onRestart(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onRestart(node);
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

  // ================================================================ views and metrics

  authoritativeVersion(): number {
    let v = 0;
    for (const x of this.srv.values()) v = Math.max(v, x.part.sm.version);
    return v;
  }

  nodeVersion(node: NodeId): number {
    const x = this.srv.get(node);
    return x ? x.part.sm.version : this.ctx.replica(node).version;
  }

  private view(node: NodeId, x: ServerX): ServerView {
    return { part: x.part, blocked: x.blocked, coord: node === this.coordId ? this.coord : null, participants: this.participants.length };
  }

  facts(node: NodeId): NodeFacts | null {
    if (this.clients.has(node)) {
      const v = this.clients.view(node);
      return { kind: '2pc-client', phase: v.phase, seq: v.seq, aborted: v.aborted };
    }
    const x = this.srv.get(node);
    return x ? serverFacts(this.view(node, x)) : null;
  }

  logOf(node: NodeId): NodeLog<PartRecord> | null {
    const x = this.srv.get(node);
    return x ? { base: 1, entries: x.part.log, item: partItem } : null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'inDoubt': {
        // CURRICULUM §C.4: participants (up) prepared without a decision.
        let n = 0;
        for (const [id, x] of this.srv) if (this.ctx.isUp(id) && x.part.prepared) n++;
        return node === undefined ? n : null;
      }
      case 'maxCommitGapMs':
        return this.maxGap;
      case 'staleReads':
        return this.clients.staleReads(node);
      case 'rejectedWrites':
        return node === undefined ? this.aborts : null;
      default:
        return undefined;
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.checker.drain();
  }

  /**
   * Acknowledged updates whose commit is not durable: the coordinator's log lacks the commit, or a
   * participant's log lacks the prepared update. 2PC forces both before acknowledging, so this
   * stays 0 unless the protocol broke.
   */
  lostUpdates(): number {
    let lost = 0;
    for (const key of this.clients.acked) {
      const tx = this.coord.byKey.get(key);
      if (tx === undefined || this.coord.decisions.get(tx) !== 'commit') {
        lost++;
        continue;
      }
      for (const p of this.participants) {
        if (!this.preparedOn.get(p)!.has(tx)) {
          lost++;
          break;
        }
      }
    }
    return lost;
  }

  /** Updates that changed one replica twice (a retry committed in two transactions, applied twice). */
  duplicateUpdates(): number {
    return this.duplicates;
  }

  /** For tests: a server's participant state and, on the coordinator, the coordinator's (read-only use). */
  server(node: NodeId): { readonly part: Readonly<Participant>; readonly blocked: boolean } {
    const x = this.srv.get(node)!;
    return { part: x.part, blocked: x.blocked };
  }

  coordinatorState(): Readonly<Coordinator> {
    return this.coord;
  }

  acknowledged(): ReadonlySet<string> {
    return this.clients.acked;
  }
}
