import { z } from 'zod';
import { quantize } from '../../sim/network';
import type { Rng } from '../../sim/rng';
import type { Action, Message, NodeId } from '../../sim/types';
import type { NodeDetail, StepResult, Strategy, StrategyContext } from '../strategy';
import { RaftChecker } from './invariants';
import { raftWire } from './wire';
import {
  advanceCommit,
  becomeCandidate,
  becomeLeader,
  buildAppend,
  handleAppendEntries,
  handleAppendReply,
  handleRequestVote,
  handleVoteReply,
  leaderAppend,
  type AppendEntries,
  type AppendReply,
  type RequestVote,
  type VoteReply,
} from './rules';
import {
  entryLabel,
  freshPersistent,
  freshVolatile,
  lastIndex,
  majority,
  ParamMachine,
  termAt,
  updateKey,
  type LogEntry,
  type RaftCore,
} from './state';

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
  })
  .strict();
export type RaftPsConfig = z.infer<typeof raftPsKnobs>;

/** Entries per AppendEntries, so a follower far behind catches up in bounded messages. */
const MAX_ENTRIES = 64;

export type RaftMsg =
  | ({ t: 'rv' } & RequestVote)
  | ({ t: 'rvr' } & VoteReply)
  | ({ t: 'ae'; id: number; round: number; sentAt: number } & AppendEntries)
  | ({ t: 'aer'; id: number; round: number; sentAt: number } & AppendReply)
  | { t: 'update'; seq: number; grad: Float32Array; basedOn: number }
  | { t: 'read'; readId: number }
  | { t: 'redirect'; op: 'update' | 'read'; id: number; hint: NodeId | null }
  | { t: 'ack'; seq: number; version: number }
  | { t: 'params'; readId: number; params: Float32Array; version: number };

interface PendingRead {
  worker: NodeId;
  readId: number;
  /** null until the leader has committed an entry of its own term (thesis §6.4 step 1). */
  readIndex: number | null;
  /** Heartbeat round that must reach a majority before answering (0: none started). */
  round: number;
}

/** Volatile server state beyond Figure 2's: timers, leader bookkeeping, the state machine. */
interface ServerX {
  sm: ParamMachine;
  deadline: number;
  timerToken: number;
  armedDue: number | null;
  lastHeardLeader: number;
  aeSeq: number;
  /** Leader: the entry-carrying AppendEntries in flight to each follower. */
  inflight: Map<NodeId, { id: number; at: number }>;
  round: number;
  ackedRound: Map<NodeId, number>;
  ackedSentAt: Map<NodeId, number>;
  quorumActive: Set<NodeId>;
  pendingReads: PendingRead[];
}

interface Server extends RaftCore {
  x: ServerX;
  rng: Rng;
}

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
  readonly wire = raftWire;
  private readonly srv = new Map<NodeId, Server>();
  private readonly wk = new Map<NodeId, WorkerX>();
  private readonly checker = new RaftChecker();
  // Observer bookkeeping (metrics), never read by the protocol.
  private uidSeq = 0;
  private overwritten = new Map<NodeId, number>();
  private staleReads = new Map<NodeId, number>();
  private lastCommitAt: number | null = null;
  private maxGap = 0;
  private readonly acked = new Set<string>();
  private readonly logKeys = new Map<NodeId, Map<string, number>>();
  private readonly effective = new Map<NodeId, Set<string>>();
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: RaftPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('raft-ps needs servers (cluster.servers ≥ 3)');
    for (const id of ctx.servers) {
      const peers = ctx.servers.filter((p) => p !== id);
      this.srv.set(id, { id, peers, p: freshPersistent(), v: freshVolatile(), x: this.freshX(), rng: ctx.rng(`election:${id}`) });
      this.logKeys.set(id, new Map());
      this.effective.set(id, new Set());
    }
    for (const id of ctx.workers) this.wk.set(id, { seq: 0, readSeq: 0, ...freshWorkerVolatile() });
  }

  private freshX(): ServerX {
    return {
      sm: new ParamMachine(this.ctx.initialParams()),
      deadline: 0,
      timerToken: 0,
      armedDue: null,
      lastHeardLeader: -Infinity,
      aeSeq: 0,
      inflight: new Map(),
      round: 0,
      ackedRound: new Map(),
      ackedSentAt: new Map(),
      quorumActive: new Set(),
      pendingReads: [],
    };
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
    // Every replica starts from the same initial parameters (version 0), so workers compute at once.
    for (const w of this.ctx.workers) {
      this.wk.get(w)!.phase = 'computing';
      this.ctx.startStep(w);
    }
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
    this.checker.leaderElected(s.id, s.p.currentTerm, s.p.log);
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

  /**
   * With CheckQuorum or lease reads, a server that heard from a leader less than the minimum
   * election timeout ago ignores RequestVote (thesis §4.2.3; etcd does this with CheckQuorum).
   * Lease reads are safe only with it.
   */
  private sticky(s: Server): boolean {
    if (!(this.cfg.checkQuorum || this.cfg.readMode === 'lease')) return false;
    return s.v.role === 'leader' || this.ctx.now() - s.x.lastHeardLeader < this.minTimeout;
  }

  private onRequestVote(s: Server, from: NodeId, req: RequestVote): void {
    if (req.term > s.p.currentTerm && this.sticky(s)) return;
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

  // ================================================================ servers: replication

  private newEntry(e: Omit<LogEntry, 'uid'>): LogEntry {
    return { ...e, uid: ++this.uidSeq };
  }

  /** Observer: `s` wrote the entry at `index` (log matching check, key counts for lostUpdates). */
  private stored(s: Server, index: number): void {
    this.checker.stored(s.id, s.p.log, index);
    const e = s.p.log[index - 1];
    if (e.kind === 'update') bump(this.logKeys.get(s.id)!, updateKey(e.worker!, e.seq!), 1);
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

  private onAppendEntries(s: Server, from: NodeId, m: Extract<RaftMsg, { t: 'ae' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleAppendEntries(s, m);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (out.fromLeader) {
      s.x.lastHeardLeader = this.ctx.now();
      this.resetElectionTimer(s);
    }
    if (out.truncated.length) {
      const first = out.stored[0];
      this.overwritten.set(s.id, (this.overwritten.get(s.id) ?? 0) + out.truncated.length);
      const keys = this.logKeys.get(s.id)!;
      for (const e of out.truncated) if (e.kind === 'update') bump(keys, updateKey(e.worker!, e.seq!), -1);
      this.ctx.note('entryOverwritten', s.id, { index: first, count: out.truncated.length });
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
    x.ackedRound.set(from, Math.max(x.ackedRound.get(from) ?? 0, m.round));
    x.ackedSentAt.set(from, Math.max(x.ackedSentAt.get(from) ?? -Infinity, m.sentAt));
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
    const known = this.checker.committedLength;
    this.checker.committedUpTo(s.id, s.p.log, before, s.v.commitIndex);
    if (s.v.commitIndex > known) {
      const now = this.ctx.now();
      for (let i = known + 1; i <= s.v.commitIndex; i++) {
        if (s.p.log[i - 1]?.kind !== 'update') continue;
        if (this.lastCommitAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastCommitAt);
        this.lastCommitAt = now;
      }
      this.ctx.note('commit', s.id, { index: s.v.commitIndex });
    }
    this.applyCommitted(s);
  }

  private applyCommitted(s: Server): void {
    const sm = s.x.sm;
    while (s.v.lastApplied < s.v.commitIndex) {
      const i = ++s.v.lastApplied;
      const e = s.p.log[i - 1];
      const firstAnywhere = i > this.checker.appliedLength;
      this.checker.onApply(s.id, i, e);
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
          const msg: RaftMsg = { t: 'ack', seq: e.seq!, version: v ?? sm.applied.get(key)! };
          this.ctx.send(s.id, e.worker!, 'ack', msg, 0);
        }
      } else if (e.kind === 'read' && s.v.role === 'leader') {
        this.replyParams(s, e.worker!, e.readId!);
      }
    }
    this.serveReads(s);
  }

  // ================================================================ servers: clients

  private onUpdate(s: Server, from: NodeId, m: Extract<RaftMsg, { t: 'update' }>): void {
    if (s.v.role !== 'leader') {
      this.ctx.send(s.id, from, 'nack', { t: 'redirect', op: 'update', id: m.seq, hint: s.v.leaderId } satisfies RaftMsg, 0);
      return;
    }
    const key = updateKey(from, m.seq);
    const done = s.x.sm.applied.get(key);
    if (done !== undefined) {
      this.ctx.send(s.id, from, 'ack', { t: 'ack', seq: m.seq, version: done } satisfies RaftMsg, 0);
      return;
    }
    // A retry of an entry this leader already appended in its own term: acknowledged when applied.
    // A copy from an older term is appended again (thesis §6.3): the old one may commit only with
    // a newer entry after it, and the state machine skips whichever copy comes second.
    for (let i = lastIndex(s.p.log); i > s.v.commitIndex && s.p.log[i - 1].term === s.p.currentTerm; i--) {
      const e = s.p.log[i - 1];
      if (e.kind === 'update' && e.worker === from && e.seq === m.seq) return;
    }
    const entry = this.newEntry({ term: s.p.currentTerm, kind: 'update', worker: from, seq: m.seq, grad: m.grad, basedOn: m.basedOn });
    this.stored(s, leaderAppend(s, entry));
    for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
    this.advanceAndApply(s);
  }

  private onRead(s: Server, from: NodeId, readId: number): void {
    if (this.cfg.readMode === 'local') return this.replyParams(s, from, readId);
    if (s.v.role !== 'leader') {
      this.ctx.send(s.id, from, 'nack', { t: 'redirect', op: 'read', id: readId, hint: s.v.leaderId } satisfies RaftMsg, 0);
      return;
    }
    if (this.cfg.readMode === 'log') {
      for (let i = lastIndex(s.p.log); i > s.v.commitIndex && s.p.log[i - 1].term === s.p.currentTerm; i--) {
        const e = s.p.log[i - 1];
        if (e.kind === 'read' && e.worker === from && e.readId === readId) return;
      }
      this.stored(s, leaderAppend(s, this.newEntry({ term: s.p.currentTerm, kind: 'read', worker: from, readId })));
      for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
      this.advanceAndApply(s);
      return;
    }
    if (!s.x.pendingReads.some((r) => r.worker === from && r.readId === readId)) {
      s.x.pendingReads.push({ worker: from, readId, readIndex: null, round: 0 });
    }
    this.serveReads(s);
  }

  /** Lease: a majority (the leader included) acknowledged heartbeats sent within the minimum election timeout. */
  private leaseValid(s: Server): boolean {
    const sent = s.peers.map((p) => s.x.ackedSentAt.get(p) ?? -Infinity).sort((a, b) => b - a);
    const need = majority(s.peers.length + 1) - 1;
    if (need === 0) return true;
    return this.ctx.now() < sent[need - 1] + this.minTimeout;
  }

  private roundConfirmed(s: Server, round: number): boolean {
    let n = 1;
    for (const p of s.peers) if ((s.x.ackedRound.get(p) ?? 0) >= round) n++;
    return n >= majority(s.peers.length + 1);
  }

  /** ReadIndex / lease reads (thesis §6.4): answer those whose index is applied and leadership confirmed. */
  private serveReads(s: Server): void {
    if (s.v.role !== 'leader' || s.x.pendingReads.length === 0) return;
    const committedInTerm = termAt(s.p.log, s.v.commitIndex) === s.p.currentTerm;
    let newRound = 0;
    const lease = this.cfg.readMode === 'lease' && this.leaseValid(s);
    s.x.pendingReads = s.x.pendingReads.filter((r) => {
      if (r.readIndex === null) {
        if (!committedInTerm) return true; // wait for an entry of this term to commit first
        r.readIndex = s.v.commitIndex;
        if (!lease) {
          if (!newRound) newRound = ++s.x.round;
          r.round = newRound;
        }
      }
      const confirmed = lease || (r.round > 0 && this.roundConfirmed(s, r.round));
      if (!confirmed || s.v.lastApplied < r.readIndex) return true;
      this.replyParams(s, r.worker, r.readId);
      return false;
    });
    // A lease that expired while reads waited: fall back to a heartbeat round for them.
    for (const r of s.x.pendingReads) {
      if (r.readIndex !== null && r.round === 0 && !lease) {
        if (!newRound) newRound = ++s.x.round;
        r.round = newRound;
      }
    }
    if (newRound) for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
  }

  private replyParams(s: Server, worker: NodeId, readId: number): void {
    const sm = s.x.sm;
    const msg: RaftMsg = { t: 'params', readId, params: sm.params.slice(), version: sm.version };
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
    const msg: RaftMsg = { t: 'update', seq: u.seq, grad: u.grad, basedOn: u.basedOn };
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
    this.ctx.send(worker, this.target(w), 'pull', { t: 'read', readId: w.read!.readId } satisfies RaftMsg, 0);
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

  private onWorkerMessage(worker: NodeId, from: NodeId, m: RaftMsg): void {
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
    const m = msg.payload as RaftMsg;
    const s = this.srv.get(msg.to);
    if (!s) return this.onWorkerMessage(msg.to, msg.from, m);
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
    if (!s) {
      if (tag === 'retry') this.onWorkerRetry(node, data);
      return;
    }
    if (tag === 'election') return this.onElectionTimer(s, data);
    if (s.v.role !== 'leader' || data !== s.p.currentTerm) return; // a timer of an earlier leadership
    if (tag === 'heartbeat') {
      for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
      this.ctx.setTimer(node, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
    } else if (tag === 'check-quorum') {
      if (s.x.quorumActive.size + 1 < majority(s.peers.length + 1)) {
        // CheckQuorum: no majority heard from for an election timeout — stop claiming leadership.
        s.v.role = 'follower';
        s.v.leaderId = null;
        return this.steppedDown(s);
      }
      s.x.quorumActive.clear();
      this.ctx.setTimer(node, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
    }
  }

  onCrash(node: NodeId): void {
    const s = this.srv.get(node);
    if (s) {
      // currentTerm, votedFor and the log are on stable storage; the rest is gone.
      s.v = freshVolatile();
      s.x = this.freshX();
      this.effective.set(node, new Set());
      return;
    }
    const w = this.wk.get(node)!;
    if (w.upd) this.ctx.op(node, 'info', 'update', w.upd.opId);
    if (w.read) this.ctx.op(node, 'info', 'read', w.read.opId);
    this.wk.set(node, { seq: w.seq, readSeq: w.readSeq, ...freshWorkerVolatile() });
  }

  onRestart(node: NodeId): void {
    const s = this.srv.get(node);
    if (s) return this.resetElectionTimer(s);
    // The process lost its parameters: read before training again.
    this.startRead(node, this.wk.get(node)!);
  }

  onAction(a: Action): boolean {
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
        return this.maxGap;
      case 'overwrittenEntries':
        return node ? (s ? (this.overwritten.get(node) ?? 0) : null) : sum(this.overwritten.values());
      case 'staleReads':
        return node ? (this.wk.has(node) ? (this.staleReads.get(node) ?? 0) : null) : sum(this.staleReads.values());
      default:
        return undefined;
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.checker.drain();
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
