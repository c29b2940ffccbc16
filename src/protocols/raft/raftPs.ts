import { z } from 'zod';
import type { Action, Message, NodeId } from '../../sim/types';
import type { NodeDetail, StepResult, Strategy, StrategyContext } from '../strategy';
import { RaftGroup, type RaftServer } from './group';
import { entryLabel, majority, ParamMachine, updateKey, type LogEntry, type RaftCore } from './state';

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
 * Workers are the clients: read the parameters → compute a gradient → send the update to the
 * server believed to lead (followers redirect with a leader hint; unknown leader → next server,
 * retry every `clientRetryMs`) → wait for the leader's acknowledgement after commit → read. An
 * update not acknowledged within `updateTimeoutMs` is abandoned (its outcome is unknown: it may
 * still commit, exactly once) and the worker reads fresh parameters and computes a new gradient —
 * the client timeout every real client has. Updates carry (worker, seq) and the state machine
 * applies each pair at most once (§8 client sessions), so retries are never applied twice.
 *
 * Reads (`readMode`): "readIndex" (default; thesis §6.4: the leader records commitIndex, confirms
 * it still leads with a heartbeat round to a majority, then answers once applied ≥ readIndex),
 * "log" (the read is a log entry, answered when applied), "lease" (the leader answers without the
 * round while a majority acknowledged a heartbeat sent less than the minimum election timeout ago;
 * safe only with bounded clock drift — this simulation has none — and only because followers then
 * refuse to vote within that time of hearing from a leader, thesis §4.2.3), "local" (whichever
 * server the worker asks answers from its own state machine: stale reads).
 */
export const raftPsKnobs = z
  .object({
    kind: z.literal('raft-ps'),
    /** Election timeout drawn uniformly from [min, max] ms each time the timer is reset (§5.2; the paper uses 150–300). */
    electionTimeoutMs: z
      .tuple([z.number().positive(), z.number().positive()])
      .refine(([lo, hi]) => lo <= hi, 'the minimum must not exceed the maximum')
      .default([150, 300]),
    heartbeatMs: z.number().positive().default(50),
    readMode: z.enum(['readIndex', 'log', 'lease', 'local']).default('readIndex'),
    /**
     * A new leader appends a no-op of its term so that earlier entries commit (§8). Without it,
     * nothing of an earlier term commits — and no ReadIndex read is answered — until a client's
     * entry of the new term commits.
     */
    leaderNoop: z.boolean().default(true),
    /** etcd's CheckQuorum: a leader that has not heard from a majority for an election timeout steps down. */
    checkQuorum: z.boolean().default(false),
    clientRetryMs: z.number().positive().default(100),
    /** A worker abandons an update not acknowledged within this time and reads fresh parameters. */
    updateTimeoutMs: z.number().positive().default(1000),
    /** Scale each gradient's learning rate by 1/max(1, τ), τ its staleness at apply (Zhang et al. 2016). */
    lrStaleness: z.enum(['none', 'inverse']).default('none'),
    /**
     * Modelled fdatasync of new log entries (ms): a follower acknowledges, and the leader counts
     * itself, only once they are on disk — etcd's commit latency is a round trip plus an fsync.
     */
    fsyncMs: z.number().nonnegative().default(0),
    /**
     * Largest client request a server accepts, in bytes (etcd's --max-request-bytes, 1.5 MiB by
     * default). A larger update is refused with "request is too large" (rejectedWrites). None by default.
     */
    maxRequestBytes: z.number().int().positive().optional(),
  })
  .strict();
export type RaftPsConfig = z.infer<typeof raftPsKnobs>;

type ClientMsg =
  | { t: 'update'; seq: number; grad: Float32Array; basedOn: number }
  | { t: 'read'; readId: number }
  | { t: 'redirect'; op: 'update' | 'read'; id: number; hint: NodeId | null }
  | { t: 'ack'; seq: number; version: number }
  | { t: 'params'; readId: number; params: Float32Array; version: number }
  /** etcd's "request is too large": the update exceeded maxRequestBytes and was not proposed. */
  | { t: 'tooLarge'; seq: number; bytes: number; limit: number };

type Server = RaftServer<LogEntry, ParamMachine>;

interface WorkerX {
  // Kept across a crash (the client's own small durable counters), so (worker, seq) stays unique.
  seq: number;
  readSeq: number;
  // Volatile.
  phase: 'idle' | 'computing' | 'updating' | 'reading';
  guess: NodeId | null;
  rr: number;
  token: number;
  hops: number;
  upd: { seq: number; grad: Float32Array; basedOn: number; opId: number; since: number } | null;
  /** `floor`: the newest committed version when the read began (observer bookkeeping for staleReads). */
  read: { readId: number; opId: number; floor: number } | null;
}

export class RaftPsStrategy implements Strategy {
  readonly kind = 'raft-ps';
  /** The servers' side of Raft (elections, replication, commit, ReadIndex): group.ts. */
  private readonly raft: RaftGroup<LogEntry, ParamMachine>;
  private readonly srv: ReadonlyMap<NodeId, Server>;
  private readonly wk = new Map<NodeId, WorkerX>();
  // Observer bookkeeping (metrics), never read by the protocol.
  private staleReads = new Map<NodeId, number>();
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  private rejected = 0;
  private readonly acked = new Set<string>();
  private readonly logKeys = new Map<NodeId, Map<string, number>>();
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('raft-ps needs servers (cluster.servers ≥ 3)');
    this.raft = new RaftGroup<LogEntry, ParamMachine>(
      ctx,
      ctx.servers,
      {
        electionTimeoutMs: cfg.electionTimeoutMs,
        heartbeatMs: cfg.heartbeatMs,
        leaseReads: cfg.readMode === 'lease',
        leaderNoop: cfg.leaderNoop,
        checkQuorum: cfg.checkQuorum,
        fsyncMs: cfg.fsyncMs,
      },
      {
        machine: () => new ParamMachine(ctx.initialParams()),
        noop: (term) => ({ term, kind: 'noop' }),
        entryBytes: (e) => (e.kind === 'update' ? ctx.paramCount * 4 : 0),
        stored: (s, e) => {
          if (e.kind === 'update') bump(this.logKeys.get(s.id)!, updateKey(e.worker!, e.seq!), 1);
        },
        truncated: (s, entries) => {
          const keys = this.logKeys.get(s.id)!;
          for (const e of entries) if (e.kind === 'update') bump(keys, updateKey(e.worker!, e.seq!), -1);
        },
        firstCommit: (_s, _i, e) => {
          if (e.kind !== 'update') return;
          const now = ctx.now();
          if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
          this.lastCommitAt = now;
        },
        apply: (s, _i, e, firstAnywhere) => this.applyEntry(s, e, firstAnywhere),
        answerRead: (s, r) => this.replyParams(s, r.client, r.readId),
      },
    );
    this.srv = this.raft.servers;
    for (const id of ctx.servers) {
      this.logKeys.set(id, new Map());
      this.effective.set(id, new Set());
    }
    for (const id of ctx.workers) this.wk.set(id, { seq: 0, readSeq: 0, ...freshWorkerVolatile() });
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
    // Every replica starts from the same initial parameters (version 0), so workers compute at once.
    for (const w of this.ctx.workers) {
      this.wk.get(w)!.phase = 'computing';
      this.ctx.startStep(w);
    }
  }

  // ================================================================ servers: the state machine

  private applyEntry(s: Server, e: LogEntry, firstAnywhere: boolean): void {
    const sm = s.x.sm;
    if (e.kind === 'update') {
      const before = sm.version;
      const tau = before - e.basedOn!;
      const lr = this.cfg.lrStaleness === 'inverse' ? this.ctx.learningRate / Math.max(1, tau) : this.ctx.learningRate;
      const v = sm.apply(e, lr);
      const key = updateKey(e.worker!, e.seq!);
      if (v !== null) {
        const eff = this.effective.get(s.id)!;
        if (eff.has(key)) this.duplicates++; // observer: the same update changed this state machine twice
        eff.add(key);
        if (firstAnywhere) this.ctx.note('apply', s.id, { worker: e.worker!, seq: e.seq!, staleness: tau });
      }
      if (s.v.role === 'leader') {
        const msg: ClientMsg = { t: 'ack', seq: e.seq!, version: v ?? sm.applied.get(key)! };
        this.ctx.send(s.id, e.worker!, 'ack', msg, 0);
      }
    } else if (e.kind === 'read' && s.v.role === 'leader') {
      this.replyParams(s, e.worker!, e.readId!);
    }
  }

  // ================================================================ servers: clients

  private onUpdate(s: Server, msg: Message, m: Extract<ClientMsg, { t: 'update' }>): void {
    const from = msg.from;
    const limit = this.cfg.maxRequestBytes;
    if (limit !== undefined && msg.bytes > limit) {
      // etcd checks the size before proposing: "etcdserver: request is too large". Nothing is proposed.
      this.rejected++;
      this.ctx.note('requestTooLarge', s.id, { from, bytes: msg.bytes, limit });
      this.ctx.send(s.id, from, 'nack', { t: 'tooLarge', seq: m.seq, bytes: msg.bytes, limit } satisfies ClientMsg, 0);
      return;
    }
    if (s.v.role !== 'leader') {
      this.ctx.send(s.id, from, 'nack', { t: 'redirect', op: 'update', id: m.seq, hint: s.v.leaderId } satisfies ClientMsg, 0);
      return;
    }
    const key = updateKey(from, m.seq);
    const done = s.x.sm.applied.get(key);
    if (done !== undefined) {
      this.ctx.send(s.id, from, 'ack', { t: 'ack', seq: m.seq, version: done } satisfies ClientMsg, 0);
      return;
    }
    // A retry of an entry this leader already appended in its own term: acknowledged when applied.
    // A copy from an older term is appended again (thesis §6.3): the old one may commit only with
    // a newer entry after it, and the state machine skips whichever copy comes second.
    for (const e of this.raft.uncommittedOfTerm(s)) if (e.kind === 'update' && e.worker === from && e.seq === m.seq) return;
    this.raft.propose(s, { term: s.p.currentTerm, kind: 'update', worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn });
  }

  private onRead(s: Server, from: NodeId, readId: number): void {
    if (this.cfg.readMode === 'local') return this.replyParams(s, from, readId);
    if (s.v.role !== 'leader') {
      this.ctx.send(s.id, from, 'nack', { t: 'redirect', op: 'read', id: readId, hint: s.v.leaderId } satisfies ClientMsg, 0);
      return;
    }
    if (this.cfg.readMode === 'log') {
      for (const e of this.raft.uncommittedOfTerm(s)) if (e.kind === 'read' && e.worker === from && e.readId === readId) return;
      this.raft.propose(s, { term: s.p.currentTerm, kind: 'read', worker: from, readId });
      return;
    }
    this.raft.read(s, { client: from, readId });
  }

  private replyParams(s: Server, worker: NodeId, readId: number): void {
    const sm = s.x.sm;
    const msg: ClientMsg = { t: 'params', readId, params: sm.params.slice(), version: sm.version };
    this.ctx.send(s.id, worker, 'params', msg, this.ctx.paramCount * 4);
  }

  // ================================================================ workers (clients)

  onStepDone(worker: NodeId, r: StepResult): void {
    const w = this.wk.get(worker)!;
    const seq = ++w.seq;
    const opId = this.ctx.op(worker, 'invoke', 'update');
    w.upd = { seq, grad: r.grad, basedOn: r.basedOn, opId, since: this.ctx.now() };
    w.phase = 'updating';
    w.hops = 0;
    this.sendUpdate(worker, w);
  }

  private target(w: WorkerX): NodeId {
    if (w.guess === null) w.guess = this.ctx.servers[w.rr++ % this.ctx.servers.length];
    return w.guess;
  }

  private nextServer(w: WorkerX): void {
    const ss = this.ctx.servers;
    w.guess = w.guess === null ? ss[w.rr++ % ss.length] : ss[(ss.indexOf(w.guess) + 1) % ss.length];
  }

  private armRetry(worker: NodeId, w: WorkerX): void {
    this.ctx.setTimer(worker, this.cfg.clientRetryMs, 'retry', ++w.token);
  }

  private sendUpdate(worker: NodeId, w: WorkerX): void {
    const u = w.upd!;
    const msg: ClientMsg = { t: 'update', seq: u.seq, grad: u.grad, basedOn: u.basedOn };
    this.ctx.send(worker, this.target(w), 'gradient', msg, this.ctx.paramCount * 4);
    this.armRetry(worker, w);
  }

  private startRead(worker: NodeId, w: WorkerX): void {
    const readId = ++w.readSeq;
    w.read = { readId, opId: this.ctx.op(worker, 'invoke', 'read'), floor: this.authoritativeVersion() };
    w.phase = 'reading';
    w.hops = 0;
    this.sendRead(worker, w);
  }

  private sendRead(worker: NodeId, w: WorkerX): void {
    this.ctx.send(worker, this.target(w), 'pull', { t: 'read', readId: w.read!.readId } satisfies ClientMsg, 0);
    this.armRetry(worker, w);
  }

  private onWorkerRetry(worker: NodeId, token: unknown): void {
    const w = this.wk.get(worker)!;
    if (token !== w.token) return;
    w.hops = 0;
    if (w.phase === 'updating' && w.upd) {
      if (this.ctx.now() - w.upd.since >= this.cfg.updateTimeoutMs) {
        // Client timeout: the outcome is unknown (it may still commit, once). Train on fresh parameters.
        this.ctx.op(worker, 'info', 'update', w.upd.opId);
        this.ctx.note('updateAbandoned', worker, { seq: w.upd.seq });
        w.upd = null;
        this.nextServer(w);
        return this.startRead(worker, w);
      }
      this.nextServer(w);
      return this.sendUpdate(worker, w);
    }
    if (w.phase === 'reading' && w.read) {
      this.nextServer(w);
      this.sendRead(worker, w);
    }
  }

  private onWorkerMessage(worker: NodeId, from: NodeId, m: ClientMsg): void {
    const w = this.wk.get(worker)!;
    switch (m.t) {
      case 'redirect': {
        const current = m.op === 'update' ? w.phase === 'updating' && w.upd?.seq === m.id : w.phase === 'reading' && w.read?.readId === m.id;
        if (!current) return;
        // Follow a hint at once (a bounded number of hops); without one, wait for the retry timer.
        if (m.hint !== null && m.hint !== from && w.hops < this.ctx.servers.length) {
          w.hops++;
          w.guess = m.hint;
          if (m.op === 'update') this.sendUpdate(worker, w);
          else this.sendRead(worker, w);
        } else {
          w.guess = from;
        }
        return;
      }
      case 'tooLarge': {
        if (w.phase !== 'updating' || !w.upd || w.upd.seq !== m.seq) return;
        // Refused before it was proposed: it never takes effect. Read and try again, as a client
        // that does not shrink its request would — and be refused again.
        this.ctx.op(worker, 'fail', 'update', w.upd.opId);
        w.upd = null;
        return this.startRead(worker, w);
      }
      case 'ack': {
        if (w.phase !== 'updating' || !w.upd || w.upd.seq !== m.seq) return;
        this.ctx.op(worker, 'ok', 'update', w.upd.opId, m.version);
        this.acked.add(updateKey(worker, m.seq));
        this.ctx.counted(worker);
        w.upd = null;
        w.guess = from;
        return this.startRead(worker, w);
      }
      case 'params': {
        if (w.phase !== 'reading' || !w.read || w.read.readId !== m.readId) return;
        if (m.version < w.read.floor) {
          this.staleReads.set(worker, (this.staleReads.get(worker) ?? 0) + 1);
          this.ctx.note('staleRead', worker, { version: m.version, newest: w.read.floor, server: from });
        }
        this.ctx.op(worker, 'ok', 'read', w.read.opId, m.version, m.params);
        this.ctx.setReplica(worker, m.params, m.version, m.version);
        w.read = null;
        w.phase = 'computing';
        this.ctx.startStep(worker);
        return;
      }
      default:
        return;
    }
  }

  // ================================================================ dispatch

  onMessage(msg: Message): void {
    if (this.raft.onMessage(msg.to, msg.from, msg.payload)) return;
    const m = msg.payload as ClientMsg;
    const s = this.srv.get(msg.to);
    if (!s) return this.onWorkerMessage(msg.to, msg.from, m);
    if (m.t === 'update') return this.onUpdate(s, msg, m);
    if (m.t === 'read') return this.onRead(s, msg.from, m.readId);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.raft.onTimer(node, tag, data)) return;
    if (!this.srv.has(node) && tag === 'retry') this.onWorkerRetry(node, data);
  }

  onCrash(node: NodeId): void {
    if (this.raft.onCrash(node)) {
      this.effective.set(node, new Set());
      return;
    }
    const w = this.wk.get(node)!;
    if (w.upd) this.ctx.op(node, 'info', 'update', w.upd.opId);
    if (w.read) this.ctx.op(node, 'info', 'read', w.read.opId);
    this.wk.set(node, { seq: w.seq, readSeq: w.readSeq, ...freshWorkerVolatile() });
  }

  onRestart(node: NodeId): void {
    if (this.raft.onRestart(node)) return;
    // The process lost its parameters: read before training again.
    this.startRead(node, this.wk.get(node)!);
  }

  onAction(a: Action): boolean {
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

  status(node: NodeId): string {
    const s = this.srv.get(node);
    if (s) {
      const t = s.p.currentTerm;
      if (s.v.role === 'leader') return `leader, term ${t}`;
      if (s.v.role === 'candidate') return `candidate, term ${t}: ${s.v.votes.size}/${majority(s.peers.length + 1)} votes`;
      return `follower, term ${t}${s.v.leaderId ? `, leader ${s.v.leaderId}` : ''}`;
    }
    const w = this.wk.get(node);
    if (!w) return '';
    if (w.phase === 'updating' && w.upd) return `waiting for commit of #${w.upd.seq} (asking ${w.guess ?? '?'})`;
    if (w.phase === 'reading') return `reading parameters (${this.cfg.readMode}, asking ${w.guess ?? '?'})`;
    if (w.phase === 'computing') return 'computing a gradient';
    return 'idle';
  }

  detail(node: NodeId): NodeDetail | null {
    const s = this.srv.get(node);
    if (!s) {
      const w = this.wk.get(node);
      return w ? { role: 'client', lines: [`leader ${w.guess ?? '?'}`, `seq ${w.seq}`] } : null;
    }
    const log = s.p.log;
    const from = Math.max(1, log.length - 11);
    const window = [];
    for (let i = from; i <= log.length; i++) {
      const e = log[i - 1];
      window.push({ index: i, term: e.term, committed: i <= s.v.commitIndex, label: entryLabel(e) });
    }
    return {
      role: this.ctx.isUp(node) ? s.v.role : 'crashed',
      term: s.p.currentTerm,
      commitIndex: s.v.commitIndex,
      log: window,
      lines: [`votedFor ${s.p.votedFor ?? '—'}`, `leader ${s.v.leaderId ?? '?'}`, `applied ${s.v.lastApplied}, version ${s.x.sm.version}`],
    };
  }

  resolveSelector(selector: string): NodeId | null {
    if (selector !== '@leader') return null;
    return this.raft.leader()?.id ?? null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'maxCommitGapMs':
        return this.maxGap;
      case 'staleReads':
        return node ? (this.wk.has(node) ? (this.staleReads.get(node) ?? 0) : null) : sum(this.staleReads.values());
      case 'rejectedWrites':
        return this.cfg.maxRequestBytes === undefined ? undefined : this.rejected;
      default:
        return this.raft.metric(name, node);
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.raft.checker.drain();
  }

  /**
   * Acknowledged updates no longer stored on a majority of the servers' logs. A committed entry
   * sits on a majority and Raft never removes it from there, so this stays 0 unless safety broke.
   */
  lostUpdates(): number {
    const need = majority(this.srv.size);
    let lost = 0;
    for (const key of this.acked) {
      let n = 0;
      for (const keys of this.logKeys.values()) if ((keys.get(key) ?? 0) > 0) n++;
      if (n < need) lost++;
    }
    return lost;
  }

  duplicateUpdates(): number {
    return this.duplicates;
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
    return this.acked;
  }
}

function freshWorkerVolatile(): Omit<WorkerX, 'seq' | 'readSeq'> {
  return { phase: 'idle', guess: null, rr: 0, token: 0, hops: 0, upd: null, read: null };
}

function bump(m: Map<string, number>, key: string, d: number): void {
  const n = (m.get(key) ?? 0) + d;
  if (n > 0) m.set(key, n);
  else m.delete(key);
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}
