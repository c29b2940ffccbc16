import type { Action, ActionKind, Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import { RaftGroup } from './group';
import type { RaftPsConfig } from './knobs';
import type { ClientMsg, ClientRequest, RaftMsg } from './messages';
import { RaftObserver } from './observer';
import { admitRead, admitUpdate } from './requests';
import type { SeqTable } from './seqTable';
import type { Server } from './server';
import { ParamMachine, type LogEntry, type RaftCore } from './state';
import { replicatedClientWire } from '../wire';
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
 * crash; everything else (commit index, state machine, leader state) is rebuilt. With `fsyncMs`
 * new entries count only once on disk; with `maxRequestBytes` a larger update is refused, as etcd
 * refuses it.
 *
 * Workers are the clients (workers.ts). Updates carry (worker, seq) and the state machine applies
 * each pair at most once (§8 client sessions), so retries are never applied twice. Read modes are
 * described with the knobs (knobs.ts).
 *
 * The servers' side of Raft is the shared RaftGroup (group.ts), which the etcd-like coordination
 * service runs on too; this class gives it the parameter server's meaning — entries, the state
 * machine, client requests. The decisions are pure rules: rules.ts (elections, replication,
 * stickiness, CheckQuorum, Pre-Vote), requests.ts (client sessions, ReadIndex and lease reads),
 * client.ts (redirects, retries); observer.ts keeps the books and view.ts says what a node shows.
 */
export class RaftPsStrategy implements Strategy {
  readonly kind = 'raft-ps';
  readonly wire = replicatedClientWire;
  private readonly raft: RaftGroup<LogEntry, ParamMachine>;
  private readonly srv: ReadonlyMap<NodeId, Server>;
  private readonly obs: RaftObserver;
  private readonly clients: ClientSide;
  /** Updates refused as too large (an observer's count: rejectedWrites). */
  private rejected = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('raft-ps needs servers (cluster.servers ≥ 3)');
    const obs = (this.obs = new RaftObserver(ctx.servers));
    this.raft = new RaftGroup<LogEntry, ParamMachine>(
      ctx,
      ctx.servers,
      {
        electionTimeoutMs: cfg.electionTimeoutMs,
        heartbeatMs: cfg.heartbeatMs,
        leaseReads: cfg.readMode === 'lease',
        leaderNoop: cfg.leaderNoop,
        checkQuorum: cfg.checkQuorum,
        preVote: cfg.preVote,
        fsyncMs: cfg.fsyncMs,
        snapshotEvery: cfg.snapshotEvery,
      },
      {
        machine: () => new ParamMachine(ctx.initialParams()),
        cloneMachine: (m) => m.clone(),
        // The parameters and the client-session table (an Int32 per update applied).
        snapshotBytes: (m) => ctx.paramCount * 4 + m.applied.size * 4,
        noop: (term) => ({ term, kind: 'noop' }),
        entryBytes: (e) => (e.kind === 'update' ? ctx.paramCount * 4 : 0),
        stored: (s, e) => obs.stored(s.id, e),
        truncated: (s, removed) => obs.truncated(s.id, removed),
        firstCommit: (_s, _i, e) => obs.firstCommit(e, ctx.now()),
        apply: (s, _i, e, firstAnywhere) => this.applyEntry(s, e, firstAnywhere),
        answerRead: (s, r) => this.replyParams(s, r.worker, r.readId),
      },
    );
    this.srv = this.raft.servers;
    const newest = () => this.authoritativeVersion();
    this.clients = cfg.clientMode === 'manual' ? new ManualClients(ctx, cfg, obs, newest) : new RaftClients(ctx, cfg, obs, newest);
  }

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    for (const w of this.ctx.workers) for (const s of this.ctx.servers) edges.push([w, s]);
    const ss = this.ctx.servers;
    for (let i = 0; i < ss.length; i++) for (let j = i + 1; j < ss.length; j++) edges.push([ss[i], ss[j]]);
    return edges;
  }

  start(): void {
    this.raft.start();
    this.clients.start();
  }

  // ================================================================ servers: the state machine

  private applyEntry(s: Server, e: LogEntry, firstAnywhere: boolean): void {
    const sm = s.x.sm;
    if (e.kind === 'update') {
      const before = sm.version;
      const tau = before - e.basedOn!;
      const lr = this.cfg.lrStaleness === 'inverse' ? this.ctx.learningRate / Math.max(1, tau) : this.ctx.learningRate;
      const v = sm.apply(e, lr);
      if (v !== null) {
        this.obs.effectiveUpdate(s.id, e.worker!, e.seq!);
        if (firstAnywhere) this.ctx.note('apply', s.id, { worker: e.worker!, seq: e.seq!, staleness: tau });
      }
      if (s.v.role === 'leader') {
        const msg: RaftMsg = { t: 'ack', seq: e.seq!, version: v ?? sm.applied.get(e.worker!, e.seq!) };
        this.ctx.send(s.id, e.worker!, 'ack', msg, 0);
      }
    } else if (e.kind === 'read' && s.v.role === 'leader') {
      this.replyParams(s, e.worker!, e.readId!);
    }
  }

  // ================================================================ servers: client requests

  private redirect(s: Server, to: NodeId, op: 'update' | 'read', id: number, hint: NodeId | null): void {
    this.ctx.send(s.id, to, 'nack', { t: 'redirect', op, id, hint } satisfies RaftMsg, 0);
  }

  private onUpdate(s: Server, msg: Message, m: Extract<ClientRequest, { t: 'update' }>): void {
    const from = msg.from;
    const limit = this.cfg.maxRequestBytes;
    const d = admitUpdate(s, s.x.sm.applied, from, m.seq, { bytes: msg.bytes, limit });
    switch (d.do) {
      case 'tooLarge':
        // etcd checks the size before proposing: "etcdserver: request is too large". Nothing is proposed.
        this.rejected++;
        this.ctx.note('requestTooLarge', s.id, { from, bytes: msg.bytes, limit: limit! });
        return this.ctx.send(s.id, from, 'nack', { t: 'tooLarge', seq: m.seq, bytes: msg.bytes, limit: limit! } satisfies RaftMsg, 0);
      case 'redirect':
        return this.redirect(s, from, 'update', m.seq, d.hint);
      case 'ack':
        return this.ctx.send(s.id, from, 'ack', { t: 'ack', seq: m.seq, version: d.version } satisfies RaftMsg, 0);
      case 'wait':
        return;
      case 'append':
        this.raft.propose(s, { term: s.p.currentTerm, kind: 'update', worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn });
        return;
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
        this.raft.propose(s, { term: s.p.currentTerm, kind: 'read', worker: from, readId });
        return;
      case 'serve':
        return this.raft.serveReads(s);
    }
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
    if (this.raft.onMessage(msg.to, msg.from, msg.payload)) return;
    const s = this.srv.get(msg.to);
    if (!s) return this.clients.onMessage(msg.to, msg.from, msg.payload as ClientMsg);
    const m = msg.payload as ClientRequest;
    if (m.t === 'update') return this.onUpdate(s, msg, m);
    if (m.t === 'read') return this.onRead(s, msg.from, m.readId);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.raft.onTimer(node, tag, data)) return;
    if (!this.srv.has(node)) this.clients.onTimer(node, tag, data);
  }

  onCrash(node: NodeId): void {
    if (this.raft.onCrash(node)) return this.obs.serverCrashed(node);
    if (this.ctx.workers.includes(node)) this.clients.onCrash(node); // not a broker the cluster may also have
  }

  onRestart(node: NodeId): void {
    if (this.raft.onRestart(node)) return;
    if (this.ctx.workers.includes(node)) this.clients.onRestart(node);
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
    if (!this.raft.timeout(s)) this.ctx.note('timeoutIgnored', s.id, { reason: 'leader' });
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

  /**
   * The server's log after its snapshot (base snapIndex + 1). Entries are immutable, pushed or spliced
   * off the tail (rules.ts); compaction drops a prefix and raises the base.
   */
  logOf(node: NodeId): NodeLog<LogEntry> | null {
    const s = this.srv.get(node);
    return s ? { base: s.p.snapIndex + 1, entries: s.p.log, item: logItem } : null;
  }

  resolveSelector(selector: string): NodeId | null {
    if (selector !== '@leader') return null;
    return this.raft.leader()?.id ?? null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'maxCommitGapMs':
        return this.obs.maxCommitGapMs;
      case 'staleReads':
        return node ? (this.ctx.workers.includes(node) ? this.obs.staleReadsOf(node) : null) : this.obs.staleReadsOf();
      case 'rejectedWrites':
        return this.cfg.maxRequestBytes === undefined ? undefined : this.rejected;
      default:
        // leaders, term, commitIndex, logLength, overwrittenEntries
        return this.raft.metric(name, node);
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.raft.checker.drain();
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
  server(node: NodeId): Readonly<RaftCore> & { readonly version: number; readonly params: Float32Array; readonly applied: Pick<SeqTable, 'get' | 'has' | 'size' | 'entries'> } {
    const s = this.srv.get(node)!;
    return { id: s.id, peers: s.peers, p: s.p, v: s.v, version: s.x.sm.version, params: s.x.sm.params, applied: s.x.sm.applied };
  }

  /** Updates acknowledged to workers so far (keys "w#seq"). */
  acknowledged(): ReadonlySet<string> {
    return this.obs.ackedKeys();
  }
}
