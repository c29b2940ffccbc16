import { quantize } from '../../sim/network';
import type { Action, ActionKind, Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import type { RaftPsConfig } from './knobs';
import type { ClientMsg, RaftMsg } from './messages';
import { RaftObserver } from './observer';
import { admitRead, admitUpdate, followerAnswered, serveReads } from './requests';
import { replicatedClientWire } from '../wire';
import {
  advanceCommit,
  becomeCandidate,
  becomeLeader,
  buildAppend,
  checkQuorum,
  disregardsVote,
  handleAppendEntries,
  handleAppendReply,
  handleRequestVote,
  handleVoteReply,
  leaderAppend,
  type RequestVote,
  type VoteReply,
} from './rules';
import { freshServerX, type Server } from './server';
import { freshPersistent, freshVolatile, lastIndex, majority, updateKey, type LogEntry, type RaftCore } from './state';
import type { ClientSide } from './clientSide';
import { ManualClients } from './manualWorkers';
import { logItem, serverFacts } from './view';
import { RaftClients } from './workers';

export { raftPsKnobs, type RaftPsConfig } from './knobs';

/**
 * A parameter server replicated with Raft (Ongaro & Ousterhout, USENIX ATC 2014). The replicated
 * state machine is the parameter vector; each log entry is one worker update (gradient, worker,
 * seq, basedOn); applying it is one SGD step, and the version is the number of updates applied.
 *
 * Servers s0…s{n−1} run Raft as in Figure 2: randomised election timeouts, RequestVote with the
 * up-to-date restriction, AppendEntries with prevLogIndex/prevLogTerm and conflict truncation,
 * nextIndex back-off, commit by majority for current-term entries only, and (§8) a no-op appended
 * by each new leader so that earlier entries commit. currentTerm, votedFor and the log survive a
 * crash; everything else (commit index, state machine, leader state) is rebuilt.
 *
 * Workers are the clients (workers.ts). Updates carry (worker, seq) and the state machine applies
 * each pair at most once (§8 client sessions), so retries are never applied twice. Read modes are
 * described with the knobs (knobs.ts).
 *
 * This class is the servers' I/O: timers, messages, notes. The decisions are pure rules:
 * rules.ts (elections, replication, stickiness, CheckQuorum), requests.ts (client sessions,
 * ReadIndex and lease reads), client.ts (redirects, retries); observer.ts keeps the books and
 * view.ts says what a node shows.
 */

/** Entries per AppendEntries, so a follower far behind catches up in bounded messages. */
const MAX_ENTRIES = 64;

export class RaftPsStrategy implements Strategy {
  readonly kind = 'raft-ps';
  readonly wire = replicatedClientWire;
  private readonly srv = new Map<NodeId, Server>();
  private readonly obs: RaftObserver;
  private readonly clients: ClientSide;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('raft-ps needs servers (cluster.servers ≥ 3)');
    this.obs = new RaftObserver(ctx.servers);
    for (const id of ctx.servers) {
      const peers = ctx.servers.filter((p) => p !== id);
      this.srv.set(id, { id, peers, p: freshPersistent(), v: freshVolatile(), x: freshServerX(ctx.initialParams()), rng: ctx.rng(`election:${id}`) });
    }
    const newest = () => this.authoritativeVersion();
    this.clients = cfg.clientMode === 'manual' ? new ManualClients(ctx, cfg, this.obs, newest) : new RaftClients(ctx, cfg, this.obs, newest);
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

  // ================================================================ servers: elections

  private get minTimeout(): number {
    return this.cfg.electionTimeoutMs[0];
  }

  /** A fresh randomised deadline; one armed timer per server, re-armed lazily when it fires early. */
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
    if (token !== s.x.timerToken) return; // superseded by an earlier deadline
    s.x.armedDue = null;
    if (s.v.role === 'leader') return; // leaders have no election timeout; re-armed when they step down
    if (this.ctx.now() < s.x.deadline) return this.arm(s, s.x.deadline);
    this.startElection(s);
  }

  private startElection(s: Server): void {
    const req = becomeCandidate(s);
    this.ctx.note('electionStarted', s.id, { term: req.term });
    this.resetElectionTimer(s);
    if (s.v.votes.size >= majority(s.peers.length + 1)) return this.winElection(s);
    for (const peer of s.peers) this.ctx.send(s.id, peer, 'vote', { t: 'rv', ...req } satisfies RaftMsg, 0);
  }

  private winElection(s: Server): void {
    const noop = this.cfg.leaderNoop ? this.newEntry({ term: s.p.currentTerm, kind: 'noop' }) : undefined;
    becomeLeader(s, noop);
    if (noop) this.stored(s, lastIndex(s.p.log));
    this.obs.checker.leaderElected(s.id, s.p.currentTerm, s.p.log);
    this.ctx.note('leaderElected', s.id, { term: s.p.currentTerm });
    const x = s.x;
    x.inflight.clear();
    x.ackedRound.clear();
    x.ackedSentAt.clear();
    x.quorumActive.clear();
    x.pendingReads = [];
    for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
    this.ctx.setTimer(s.id, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
    if (this.cfg.checkQuorum) this.ctx.setTimer(s.id, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
    this.advanceAndApply(s); // a one-server cluster commits on its own
  }

  /** Called whenever a leader became a follower (higher term seen, or CheckQuorum). */
  private steppedDown(s: Server): void {
    this.ctx.note('leaderStepDown', s.id, { term: s.p.currentTerm });
    s.x.pendingReads = []; // clients retry elsewhere
    s.x.inflight.clear();
    this.resetElectionTimer(s);
  }

  /** Leader stickiness is on with CheckQuorum, and with lease reads (which are safe only with it). */
  private get stickyVotes(): boolean {
    return this.cfg.checkQuorum || this.cfg.readMode === 'lease';
  }

  private onRequestVote(s: Server, from: NodeId, req: RequestVote): void {
    if (this.stickyVotes && disregardsVote(s, req, this.ctx.now() - s.x.lastHeardLeader, this.minTimeout)) return;
    const wasLeader = s.v.role === 'leader';
    const reply = handleRequestVote(s, req);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (reply.voteGranted) this.resetElectionTimer(s);
    this.ctx.send(s.id, from, 'vote', { t: 'rvr', ...reply } satisfies RaftMsg, 0);
  }

  private onVoteReply(s: Server, from: NodeId, reply: VoteReply): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleVoteReply(s, from, reply);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (r === 'won') this.winElection(s);
  }

  private onCheckQuorum(s: Server): void {
    if (checkQuorum(s, s.x.quorumActive) === 'stepdown') return this.steppedDown(s);
    this.ctx.setTimer(s.id, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
  }

  // ================================================================ servers: replication

  private newEntry(e: Omit<LogEntry, 'uid'>): LogEntry {
    return { ...e, uid: this.obs.nextUid() };
  }

  private stored(s: Server, index: number): void {
    this.obs.stored(s.id, s.p.log, index);
  }

  /**
   * Sends AppendEntries from nextIndex. One entry-carrying request is in flight per follower;
   * `replicate` waits for it, a `heartbeat` goes anyway (empty while that request is young, or
   * carrying the entries again if it is older than a heartbeat interval and presumed lost).
   */
  private sendAppend(s: Server, peer: NodeId, why: 'replicate' | 'heartbeat'): void {
    const now = this.ctx.now();
    const inf = s.x.inflight.get(peer);
    const busy = inf !== undefined && now - inf.at < this.cfg.heartbeatMs;
    if (why === 'replicate' && busy) return;
    const ae = buildAppend(s, peer, busy ? 0 : MAX_ENTRIES);
    const id = ++s.x.aeSeq;
    if (ae.entries.length) s.x.inflight.set(peer, { id, at: now });
    let bytes = 0;
    for (const e of ae.entries) if (e.kind === 'update') bytes += this.ctx.paramCount * 4;
    this.ctx.send(s.id, peer, 'append', { t: 'ae', ...ae, id, round: s.x.round, sentAt: now } satisfies RaftMsg, bytes);
  }

  private replicate(s: Server): void {
    for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
  }

  private onAppendEntries(s: Server, from: NodeId, m: Extract<RaftMsg, { t: 'ae' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleAppendEntries(s, m);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (out.fromLeader) {
      s.x.lastHeardLeader = this.ctx.now();
      this.resetElectionTimer(s);
    }
    if (out.truncated.length) {
      this.obs.truncated(s.id, out.truncated);
      this.ctx.note('entryOverwritten', s.id, { index: out.stored[0], count: out.truncated.length });
    }
    for (const i of out.stored) this.stored(s, i);
    if (s.v.commitIndex > out.commitBefore) this.committed(s, out.commitBefore);
    const reply: RaftMsg = { t: 'aer', ...out.reply, id: m.id, round: m.round, sentAt: m.sentAt };
    this.ctx.send(s.id, from, 'ack', reply, 0);
  }

  private onAppendReply(s: Server, from: NodeId, m: Extract<RaftMsg, { t: 'aer' }>): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleAppendReply(s, from, m);
    if (wasLeader && s.v.role !== 'leader') return this.steppedDown(s);
    if (s.v.role !== 'leader' || m.term !== s.p.currentTerm) return;
    const x = s.x;
    const inf = x.inflight.get(from);
    if (inf && m.id >= inf.id) x.inflight.delete(from);
    // Any answer in this term means the follower still recognises this leader.
    followerAnswered(x, from, m.round, m.sentAt);
    x.quorumActive.add(from);
    if (r === 'progress') this.advanceAndApply(s);
    if ((s.v.nextIndex.get(from) ?? 0) <= lastIndex(s.p.log)) this.sendAppend(s, from, 'replicate');
    this.serveReads(s);
  }

  private advanceAndApply(s: Server): void {
    const before = s.v.commitIndex;
    if (advanceCommit(s) > before) this.committed(s, before);
  }

  /** commitIndex moved up from `before`: observer checks and metrics, then apply in order. */
  private committed(s: Server, before: number): void {
    if (this.obs.committed(s.id, s.p.log, before, s.v.commitIndex, this.ctx.now())) this.ctx.note('commit', s.id, { index: s.v.commitIndex });
    this.applyCommitted(s);
  }

  private applyCommitted(s: Server): void {
    const sm = s.x.sm;
    while (s.v.lastApplied < s.v.commitIndex) {
      const i = ++s.v.lastApplied;
      const e = s.p.log[i - 1];
      const firstAnywhere = this.obs.applying(s.id, i, e);
      if (e.kind === 'update') {
        const before = sm.version;
        const tau = before - e.basedOn!;
        const lr = this.cfg.lrStaleness === 'inverse' ? this.ctx.learningRate / Math.max(1, tau) : this.ctx.learningRate;
        const v = sm.apply(e, lr);
        const key = updateKey(e.worker!, e.seq!);
        if (v !== null) {
          this.obs.effectiveUpdate(s.id, key);
          if (firstAnywhere) this.ctx.note('apply', s.id, { worker: e.worker!, seq: e.seq!, staleness: tau });
        }
        if (s.v.role === 'leader') {
          const msg: RaftMsg = { t: 'ack', seq: e.seq!, version: v ?? sm.applied.get(key)! };
          this.ctx.send(s.id, e.worker!, 'ack', msg, 0);
        }
      } else if (e.kind === 'read' && s.v.role === 'leader') {
        this.replyParams(s, e.worker!, e.readId!);
      }
    }
    this.serveReads(s);
  }

  // ================================================================ servers: client requests

  private redirect(s: Server, to: NodeId, op: 'update' | 'read', id: number, hint: NodeId | null): void {
    this.ctx.send(s.id, to, 'nack', { t: 'redirect', op, id, hint } satisfies RaftMsg, 0);
  }

  private onUpdate(s: Server, from: NodeId, m: Extract<RaftMsg, { t: 'update' }>): void {
    const d = admitUpdate(s, s.x.sm.applied, from, m.seq);
    switch (d.do) {
      case 'redirect':
        return this.redirect(s, from, 'update', m.seq, d.hint);
      case 'ack':
        return this.ctx.send(s.id, from, 'ack', { t: 'ack', seq: m.seq, version: d.version } satisfies RaftMsg, 0);
      case 'wait':
        return;
      case 'append': {
        const entry = this.newEntry({ term: s.p.currentTerm, kind: 'update', worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn });
        this.stored(s, leaderAppend(s, entry));
        this.replicate(s);
        return this.advanceAndApply(s);
      }
    }
  }

  private onRead(s: Server, from: NodeId, readId: number): void {
    const d = admitRead(s, s.x, this.cfg.readMode, from, readId);
    switch (d.do) {
      case 'answer':
        return this.replyParams(s, from, readId);
      case 'redirect':
        return this.redirect(s, from, 'read', readId, d.hint);
      case 'wait':
        return;
      case 'append':
        this.stored(s, leaderAppend(s, this.newEntry({ term: s.p.currentTerm, kind: 'read', worker: from, readId })));
        this.replicate(s);
        return this.advanceAndApply(s);
      case 'serve':
        return this.serveReads(s);
    }
  }

  /** Answers the ReadIndex / lease reads that may be answered now; starts a heartbeat round if they need one. */
  private serveReads(s: Server): void {
    const r = serveReads(s, s.x, { mode: this.cfg.readMode, now: this.ctx.now(), minElectionTimeoutMs: this.minTimeout });
    for (const q of r.answer) this.replyParams(s, q.worker, q.readId);
    if (r.heartbeat) for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
  }

  private replyParams(s: Server, worker: NodeId, readId: number): void {
    const sm = s.x.sm;
    const msg: RaftMsg = { t: 'params', readId, params: sm.params.slice(), version: sm.version };
    this.ctx.send(s.id, worker, 'params', msg, this.ctx.paramCount * 4);
  }

  // ================================================================ dispatch

  onStepDone(worker: NodeId, r: StepResult): void {
    this.clients.onStepDone(worker, r);
  }

  onMessage(msg: Message): void {
    const m = msg.payload as RaftMsg;
    const s = this.srv.get(msg.to);
    if (!s) return this.clients.onMessage(msg.to, msg.from, m as ClientMsg);
    switch (m.t) {
      case 'rv':
        return this.onRequestVote(s, msg.from, m);
      case 'rvr':
        return this.onVoteReply(s, msg.from, m);
      case 'ae':
        return this.onAppendEntries(s, msg.from, m);
      case 'aer':
        return this.onAppendReply(s, msg.from, m);
      case 'update':
        return this.onUpdate(s, msg.from, m);
      case 'read':
        return this.onRead(s, msg.from, m.readId);
      default:
        return;
    }
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const s = this.srv.get(node);
    if (!s) return this.clients.onTimer(node, tag, data);
    if (tag === 'election') return this.onElectionTimer(s, data);
    if (s.v.role !== 'leader' || data !== s.p.currentTerm) return; // a timer of an earlier leadership
    if (tag === 'heartbeat') {
      for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
      this.ctx.setTimer(node, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
    } else if (tag === 'check-quorum') {
      this.onCheckQuorum(s);
    }
  }

  onCrash(node: NodeId): void {
    const s = this.srv.get(node);
    if (!s) return this.clients.onCrash(node);
    // currentTerm, votedFor and the log are on stable storage; the rest is gone.
    s.v = freshVolatile();
    s.x = freshServerX(this.ctx.initialParams());
    this.obs.serverCrashed(node);
  }

  onRestart(node: NodeId): void {
    const s = this.srv.get(node);
    if (s) return this.resetElectionTimer(s);
    this.clients.onRestart(node);
  }

  acceptsAction(kind: ActionKind, node: NodeId): boolean {
    if (kind === 'submit') return this.clients.manual && this.ctx.workers.includes(node);
    return kind === 'timeout' && this.srv.has(node);
  }

  onAction(a: Action): boolean {
    if (a.do === 'submit') return this.clients.submit(a.node, a.count ?? 1);
    if (a.do !== 'timeout') return false;
    const s = this.srv.get(a.node);
    if (!s) return false;
    // Like RaftScope's "timeout": the server's election timer fires now. A leader has none.
    if (s.v.role === 'leader') this.ctx.note('timeoutIgnored', s.id, { reason: 'leader' });
    else this.startElection(s);
    return true;
  }

  // ================================================================ views and metrics

  authoritativeVersion(): number {
    let v = 0;
    for (const s of this.srv.values()) v = Math.max(v, s.x.sm.version);
    return v;
  }

  nodeVersion(node: NodeId): number {
    const s = this.srv.get(node);
    return s ? s.x.sm.version : this.ctx.replica(node).version;
  }

  facts(node: NodeId): NodeFacts | null {
    const s = this.srv.get(node);
    if (s) return serverFacts(s);
    return this.clients.facts(node);
  }

  /** The server's log, base 1. Entries are immutable and only pushed or spliced off the tail (rules.ts). */
  logOf(node: NodeId): NodeLog<LogEntry> | null {
    const s = this.srv.get(node);
    return s ? { base: 1, entries: s.p.log, item: logItem } : null;
  }

  resolveSelector(selector: string): NodeId | null {
    if (selector !== '@leader') return null;
    let best: Server | null = null;
    for (const s of this.srv.values()) {
      if (s.v.role === 'leader' && this.ctx.isUp(s.id) && (!best || s.p.currentTerm > best.p.currentTerm)) best = s;
    }
    return best?.id ?? null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    const s = node ? this.srv.get(node) : undefined;
    const servers = [...this.srv.values()];
    const perServer = (f: (s: Server) => number): number | null => (node ? (s ? f(s) : null) : Math.max(0, ...servers.map(f)));
    switch (name) {
      case 'leaders': {
        const leads = (x: Server) => (x.v.role === 'leader' && this.ctx.isUp(x.id) ? 1 : 0);
        return node ? (s ? leads(s) : 0) : servers.reduce((a, x) => a + leads(x), 0);
      }
      case 'term':
        return perServer((x) => x.p.currentTerm);
      case 'commitIndex':
        return perServer((x) => x.v.commitIndex);
      case 'logLength':
        return perServer((x) => x.p.log.length);
      case 'maxCommitGapMs':
        return this.obs.maxCommitGapMs;
      case 'overwrittenEntries':
        return node ? (s ? this.obs.overwrittenOn(node) : null) : this.obs.overwrittenOn();
      case 'staleReads':
        return node ? (this.ctx.workers.includes(node) ? this.obs.staleReadsOf(node) : null) : this.obs.staleReadsOf();
      default:
        return undefined;
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.obs.checker.drain();
  }

  lostUpdates(): number {
    return this.obs.lostUpdates();
  }

  duplicateUpdates(): number {
    return this.obs.duplicateUpdates();
  }

  /** Retries and duplicated entries the state machines recognised and skipped (all servers). */
  duplicatesSkipped(): number {
    let n = 0;
    for (const s of this.srv.values()) n += s.x.sm.skipped;
    return n;
  }

  /** For tests and the checker: a server's Raft state (read-only use). */
  server(node: NodeId): Readonly<RaftCore> & { readonly version: number; readonly params: Float32Array; readonly applied: ReadonlyMap<string, number> } {
    const s = this.srv.get(node)!;
    return { id: s.id, peers: s.peers, p: s.p, v: s.v, version: s.x.sm.version, params: s.x.sm.params, applied: s.x.sm.applied };
  }

  /** Updates acknowledged to workers so far (keys "w#seq"). */
  acknowledged(): ReadonlySet<string> {
    return this.obs.acked;
  }
}
