import { quantize } from '../../sim/network';
import type { Rng } from '../../sim/rng';
import type { MessageKind, NodeId } from '../../sim/types';
import type { NoteData, NoteName } from '../facts';
import { RaftChecker } from './invariants';
import {
  advanceCommit,
  becomeCandidate,
  becomeLeader,
  buildAppend,
  handleAppendEntries,
  handleAppendReply,
  handlePreVote,
  handleRequestVote,
  handleVoteReply,
  leaderAppend,
  observeTerm,
  preVoteRequest,
  type AppendEntries,
  type AppendReply,
  type RequestVote,
  type VoteReply,
} from './rules';
import { freshPersistent, freshVolatile, lastIndex, majority, termAt, type RaftCore, type RaftEntry } from './state';

/**
 * A Raft group: the servers' side of Raft (Ongaro & Ousterhout 2014, Figure 2; the thesis for
 * ReadIndex, lease reads, CheckQuorum and Pre-Vote) around the pure rules of rules.ts — election
 * timers, RequestVote, AppendEntries with one request in flight per follower, the commit rule,
 * applying in order, and linearizable reads. What the log *means* is the owner's: the hooks build
 * its entries, apply them to its state machine and answer its reads. raft-ps (a parameter server)
 * and the etcd-like coordination service both run on it, so there is one implementation of the
 * protocol and one set of invariant checks.
 */

/** What the group needs of its environment (a StrategyContext, or the coordination service's). */
export interface RaftIo {
  now(): number;
  isUp(node: NodeId): boolean;
  send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): void;
  setTimer(node: NodeId, delayMs: number, tag: string, data?: unknown): void;
  note<K extends NoteName>(what: K, node: NodeId | undefined, data: NoteData[K]): void;
  rng(stream: string): Rng;
}

export interface RaftGroupConfig {
  /** Election timeout drawn uniformly from [min, max] ms each time the timer is reset (§5.2). */
  electionTimeoutMs: readonly [number, number];
  heartbeatMs: number;
  /** Leader lease reads: answered without a heartbeat round while a majority acknowledged one recently. */
  leaseReads: boolean;
  /** A new leader appends a no-op of its term so that earlier entries commit (§8). */
  leaderNoop: boolean;
  /** A leader that has not heard from a majority for an election timeout steps down (etcd). */
  checkQuorum: boolean;
  /** Pre-Vote before each election (thesis §9.6; etcd's default since 3.5). */
  preVote?: boolean;
  /** Modelled fdatasync of new log entries: a follower answers, and a leader counts itself, only after it. */
  fsyncMs?: number;
}

/** A read waiting for its ReadIndex round (thesis §6.4) or its lease. */
export interface PendingRead {
  /** The client that asked (a worker). */
  client: NodeId;
  readId: number;
  /** null until the leader has committed an entry of its own term (thesis §6.4 step 1). */
  readIndex: number | null;
  /** Heartbeat round that must reach a majority before answering (0: none started). */
  round: number;
  /** Set when a follower asked on the client's behalf: the leader sends it the read index. */
  via?: NodeId;
}

/** Volatile server state beyond Figure 2's: timers, leader bookkeeping, the state machine. */
export interface RaftServerX<M> {
  sm: M;
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
  /** Pre-candidate: pre-votes granted for the term it probes (null: not probing). */
  preVotes: Set<NodeId> | null;
  /** Highest index on its own stable storage (only tracked when fsyncMs > 0). */
  durable: number;
}

export interface RaftServer<E extends RaftEntry, M> extends RaftCore<E> {
  x: RaftServerX<M>;
  rng: Rng;
}

export interface RaftHooks<E extends RaftEntry, M> {
  /** A fresh (empty) state machine: at start and after a crash (it is volatile; the log is re-applied). */
  machine(): M;
  /** A new leader's no-op entry (without its uid). */
  noop(term: number): Omit<E, 'uid'>;
  /** Payload bytes an entry adds to an AppendEntries. */
  entryBytes(e: E): number;
  /** Observer: `s` wrote `e` into its log. */
  stored?(s: RaftServer<E, M>, e: E): void;
  /** Observer: conflict truncation removed these entries from `s`'s log. */
  truncated?(s: RaftServer<E, M>, entries: readonly E[]): void;
  /** Observer: index `i` is committed for the first time anywhere (in order, at the committing server). */
  firstCommit?(s: RaftServer<E, M>, i: number, e: E): void;
  /** Apply a committed entry to `s`'s state machine (in index order). */
  apply(s: RaftServer<E, M>, index: number, e: E, firstAnywhere: boolean): void;
  /** A linearizable read is ready: leadership confirmed and the read index applied. */
  answerRead(s: RaftServer<E, M>, r: PendingRead): void;
  /** `s` stopped leading (its clients retry elsewhere). */
  steppedDown?(s: RaftServer<E, M>): void;
  /** `s` won an election. */
  elected?(s: RaftServer<E, M>): void;
}

/** Entries per AppendEntries, so a follower far behind catches up in bounded messages. */
const MAX_ENTRIES = 64;

export type RaftGroupMsg<E extends RaftEntry> =
  | ({ t: 'rv' } & RequestVote)
  | ({ t: 'rvr' } & VoteReply)
  | ({ t: 'pv' } & RequestVote)
  | ({ t: 'pvr' } & VoteReply)
  | ({ t: 'ae'; id: number; round: number; sentAt: number } & AppendEntries<E>)
  | ({ t: 'aer'; id: number; round: number; sentAt: number } & AppendReply);

const GROUP_TAGS = new Set(['rv', 'rvr', 'pv', 'pvr', 'ae', 'aer']);

export class RaftGroup<E extends RaftEntry, M> {
  readonly servers = new Map<NodeId, RaftServer<E, M>>();
  readonly checker = new RaftChecker();
  // Observer bookkeeping (metrics), never read by the protocol.
  private uidSeq = 0;
  readonly overwritten = new Map<NodeId, number>();

  constructor(
    private readonly io: RaftIo,
    ids: readonly NodeId[],
    private readonly cfg: RaftGroupConfig,
    private readonly hooks: RaftHooks<E, M>,
  ) {
    for (const id of ids) {
      const peers = ids.filter((p) => p !== id);
      this.servers.set(id, { id, peers, p: freshPersistent<E>(), v: freshVolatile(), x: this.freshX(), rng: io.rng(`election:${id}`) });
    }
  }

  private freshX(): RaftServerX<M> {
    return {
      sm: this.hooks.machine(),
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
      preVotes: null,
      durable: 0,
    };
  }

  get(id: NodeId): RaftServer<E, M> | undefined {
    return this.servers.get(id);
  }

  start(): void {
    for (const s of this.servers.values()) this.resetElectionTimer(s);
  }

  /**
   * Starts with `leaderId` already leading term 1, as a cluster that has been running does (the
   * coordination service's c0 is its initial leader, CURRICULUM §C.1): everyone voted for it.
   */
  bootstrap(leaderId: NodeId): void {
    const leader = this.servers.get(leaderId);
    if (!leader) throw new Error(`no server ${leaderId} to lead`);
    for (const s of this.servers.values()) {
      s.p.currentTerm = 1;
      s.p.votedFor = leaderId;
      s.v.leaderId = leaderId;
      s.x.lastHeardLeader = this.io.now();
    }
    this.start();
    this.winElection(leader);
  }

  newEntry(e: Omit<E, 'uid'>): E {
    return { ...e, uid: ++this.uidSeq } as E;
  }

  // ================================================================ elections

  private get minTimeout(): number {
    return this.cfg.electionTimeoutMs[0];
  }

  /** A fresh randomised deadline; one armed timer per server, re-armed lazily when it fires early. */
  private resetElectionTimer(s: RaftServer<E, M>): void {
    const [lo, hi] = this.cfg.electionTimeoutMs;
    s.x.deadline = quantize(this.io.now() + lo + (hi - lo) * s.rng.next());
    if (s.x.armedDue === null || s.x.armedDue > s.x.deadline) this.arm(s, s.x.deadline);
  }

  private arm(s: RaftServer<E, M>, due: number): void {
    s.x.armedDue = due;
    this.io.setTimer(s.id, Math.max(0, due - this.io.now()), 'election', ++s.x.timerToken);
  }

  private onElectionTimer(s: RaftServer<E, M>, token: unknown): void {
    if (token !== s.x.timerToken) return; // superseded by an earlier deadline
    s.x.armedDue = null;
    if (s.v.role === 'leader') return; // leaders have no election timeout; re-armed when they step down
    if (this.io.now() < s.x.deadline) return this.arm(s, s.x.deadline);
    if (this.cfg.preVote && s.peers.length > 0) return this.startPreVote(s);
    this.startElection(s);
  }

  /** Fire the election timer now (the `timeout` action); false for a leader, which has none. */
  timeout(s: RaftServer<E, M>): boolean {
    if (s.v.role === 'leader') return false;
    this.startElection(s);
    return true;
  }

  private startPreVote(s: RaftServer<E, M>): void {
    const req = preVoteRequest(s);
    s.x.preVotes = new Set([s.id]);
    this.resetElectionTimer(s);
    for (const peer of s.peers) this.io.send(s.id, peer, 'vote', { t: 'pv', ...req } satisfies RaftGroupMsg<E>, 0);
  }

  private startElection(s: RaftServer<E, M>): void {
    s.x.preVotes = null;
    const req = becomeCandidate(s);
    this.io.note('electionStarted', s.id, { term: req.term });
    this.resetElectionTimer(s);
    if (s.v.votes.size >= majority(s.peers.length + 1)) return this.winElection(s);
    for (const peer of s.peers) this.io.send(s.id, peer, 'vote', { t: 'rv', ...req } satisfies RaftGroupMsg<E>, 0);
  }

  private winElection(s: RaftServer<E, M>): void {
    const noop = this.cfg.leaderNoop ? this.newEntry(this.hooks.noop(s.p.currentTerm)) : undefined;
    becomeLeader(s, noop);
    if (noop) this.stored(s, lastIndex(s.p.log));
    this.checker.leaderElected(s.id, s.p.currentTerm, s.p.log);
    this.io.note('leaderElected', s.id, { term: s.p.currentTerm });
    const x = s.x;
    x.inflight.clear();
    x.ackedRound.clear();
    x.ackedSentAt.clear();
    x.quorumActive.clear();
    x.pendingReads = [];
    for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
    this.io.setTimer(s.id, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
    if (this.cfg.checkQuorum) this.io.setTimer(s.id, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
    this.hooks.elected?.(s);
    this.advanceAndApply(s); // a one-server cluster commits on its own
  }

  /** Called whenever a leader became a follower (higher term seen, or CheckQuorum). */
  private steppedDown(s: RaftServer<E, M>): void {
    this.io.note('leaderStepDown', s.id, { term: s.p.currentTerm });
    s.x.pendingReads = []; // clients retry elsewhere
    s.x.inflight.clear();
    this.hooks.steppedDown?.(s);
    this.resetElectionTimer(s);
  }

  /** Heard from a leader within the minimum election timeout (or leads): it refuses to help unseat it. */
  private heardLeader(s: RaftServer<E, M>): boolean {
    return s.v.role === 'leader' || this.io.now() - s.x.lastHeardLeader < this.minTimeout;
  }

  /**
   * With CheckQuorum or lease reads, a server that heard from a leader less than the minimum
   * election timeout ago ignores RequestVote (thesis §4.2.3; etcd does this with CheckQuorum).
   * Lease reads are safe only with it.
   */
  private sticky(s: RaftServer<E, M>): boolean {
    if (!(this.cfg.checkQuorum || this.cfg.leaseReads)) return false;
    return this.heardLeader(s);
  }

  private onRequestVote(s: RaftServer<E, M>, from: NodeId, req: RequestVote): void {
    if (req.term > s.p.currentTerm && this.sticky(s)) return;
    const wasLeader = s.v.role === 'leader';
    const reply = handleRequestVote(s, req);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (reply.voteGranted) this.resetElectionTimer(s);
    this.io.send(s.id, from, 'vote', { t: 'rvr', ...reply } satisfies RaftGroupMsg<E>, 0);
  }

  private onVoteReply(s: RaftServer<E, M>, from: NodeId, reply: VoteReply): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleVoteReply(s, from, reply);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (r === 'won') this.winElection(s);
  }

  private onPreVote(s: RaftServer<E, M>, from: NodeId, req: RequestVote): void {
    const reply = handlePreVote(s, req, this.heardLeader(s));
    this.io.send(s.id, from, 'vote', { t: 'pvr', ...reply } satisfies RaftGroupMsg<E>, 0);
  }

  private onPreVoteReply(s: RaftServer<E, M>, from: NodeId, reply: VoteReply): void {
    if (!reply.voteGranted) {
      if (reply.term > s.p.currentTerm) {
        const wasLeader = s.v.role === 'leader';
        observeTerm(s, reply.term);
        s.x.preVotes = null;
        if (wasLeader) this.steppedDown(s);
      }
      return;
    }
    const votes = s.x.preVotes;
    if (!votes || s.v.role === 'leader' || reply.term !== s.p.currentTerm + 1) return; // an answer to an older probe
    votes.add(from);
    if (votes.size >= majority(s.peers.length + 1)) this.startElection(s);
  }

  // ================================================================ replication

  /** Observer: `s` wrote the entry at `index` (log matching check, the owner's bookkeeping). */
  private stored(s: RaftServer<E, M>, index: number): void {
    this.checker.stored(s.id, s.p.log, index);
    this.hooks.stored?.(s, s.p.log[index - 1]);
  }

  /**
   * Sends AppendEntries from nextIndex. One entry-carrying request is in flight per follower;
   * `replicate` waits for it, a `heartbeat` goes anyway (empty while that request is young, or
   * carrying the entries again if it is older than a heartbeat interval and presumed lost).
   */
  private sendAppend(s: RaftServer<E, M>, peer: NodeId, why: 'replicate' | 'heartbeat'): void {
    const now = this.io.now();
    const inf = s.x.inflight.get(peer);
    const busy = inf !== undefined && now - inf.at < this.cfg.heartbeatMs;
    if (why === 'replicate' && busy) return;
    const ae = buildAppend(s, peer, busy ? 0 : MAX_ENTRIES);
    const id = ++s.x.aeSeq;
    if (ae.entries.length) s.x.inflight.set(peer, { id, at: now });
    let bytes = 0;
    for (const e of ae.entries) bytes += this.hooks.entryBytes(e);
    this.io.send(s.id, peer, 'append', { t: 'ae', ...ae, id, round: s.x.round, sentAt: now } satisfies RaftGroupMsg<E>, bytes);
  }

  private onAppendEntries(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftGroupMsg<E>, { t: 'ae' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleAppendEntries(s, m);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (out.fromLeader) {
      s.x.lastHeardLeader = this.io.now();
      s.x.preVotes = null;
      this.resetElectionTimer(s);
    }
    if (out.truncated.length) {
      const first = out.stored[0];
      this.overwritten.set(s.id, (this.overwritten.get(s.id) ?? 0) + out.truncated.length);
      this.hooks.truncated?.(s, out.truncated);
      this.io.note('entryOverwritten', s.id, { index: first, count: out.truncated.length });
    }
    for (const i of out.stored) this.stored(s, i);
    if (s.v.commitIndex > out.commitBefore) this.committed(s, out.commitBefore);
    const reply: RaftGroupMsg<E> = { t: 'aer', ...out.reply, id: m.id, round: m.round, sentAt: m.sentAt };
    const fsync = this.cfg.fsyncMs ?? 0;
    // New entries reach the disk before the follower says it holds them (Raft's persistence rule).
    if (fsync > 0 && out.stored.length > 0) this.io.setTimer(s.id, fsync, 'fsync', { to: from, reply, upTo: lastIndex(s.p.log) });
    else this.io.send(s.id, from, 'ack', reply, 0);
  }

  private onAppendReply(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftGroupMsg<E>, { t: 'aer' }>): void {
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

  private advanceAndApply(s: RaftServer<E, M>): void {
    const before = s.v.commitIndex;
    const after = (this.cfg.fsyncMs ?? 0) > 0 ? advanceCommit(s, s.x.durable) : advanceCommit(s);
    if (after > before) this.committed(s, before);
  }

  /** commitIndex moved up from `before`: observer checks and metrics, then apply in order. */
  private committed(s: RaftServer<E, M>, before: number): void {
    const known = this.checker.committedLength;
    this.checker.committedUpTo(s.id, s.p.log, before, s.v.commitIndex);
    if (s.v.commitIndex > known) {
      for (let i = known + 1; i <= s.v.commitIndex; i++) {
        const e = s.p.log[i - 1];
        if (e) this.hooks.firstCommit?.(s, i, e);
      }
      this.io.note('commit', s.id, { index: s.v.commitIndex });
    }
    this.applyCommitted(s);
  }

  private applyCommitted(s: RaftServer<E, M>): void {
    while (s.v.lastApplied < s.v.commitIndex) {
      const i = ++s.v.lastApplied;
      const e = s.p.log[i - 1];
      const firstAnywhere = i > this.checker.appliedLength;
      this.checker.onApply(s.id, i, e);
      this.hooks.apply(s, i, e, firstAnywhere);
    }
    this.serveReads(s);
  }

  /** A leader appends a new entry of its term, replicates it and commits what it can. */
  propose(s: RaftServer<E, M>, entry: Omit<E, 'uid'>): number {
    const index = leaderAppend(s, this.newEntry(entry));
    this.stored(s, index);
    const fsync = this.cfg.fsyncMs ?? 0;
    // The leader writes to its disk in parallel with replicating (Raft §10.2.1); it counts itself once synced.
    if (fsync > 0) this.io.setTimer(s.id, fsync, 'fsync', { upTo: index, term: s.p.currentTerm });
    for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
    this.advanceAndApply(s);
    return index;
  }

  /** Entries of the leader's current term after its commit index, newest first (for de-duplicating retries). */
  *uncommittedOfTerm(s: RaftServer<E, M>): Generator<E> {
    for (let i = lastIndex(s.p.log); i > s.v.commitIndex && s.p.log[i - 1].term === s.p.currentTerm; i--) yield s.p.log[i - 1];
  }

  // ================================================================ reads (thesis §6.4)

  /** Queues a ReadIndex / lease read at a leader and serves what it can. */
  read(s: RaftServer<E, M>, r: Omit<PendingRead, 'readIndex' | 'round'>): void {
    if (!s.x.pendingReads.some((p) => p.client === r.client && p.readId === r.readId && p.via === r.via)) {
      s.x.pendingReads.push({ ...r, readIndex: null, round: 0 });
    }
    this.serveReads(s);
  }

  /** Lease: a majority (the leader included) acknowledged heartbeats sent within the minimum election timeout. */
  private leaseValid(s: RaftServer<E, M>): boolean {
    const sent = s.peers.map((p) => s.x.ackedSentAt.get(p) ?? -Infinity).sort((a, b) => b - a);
    const need = majority(s.peers.length + 1) - 1;
    if (need === 0) return true;
    return this.io.now() < sent[need - 1] + this.minTimeout;
  }

  private roundConfirmed(s: RaftServer<E, M>, round: number): boolean {
    let n = 1;
    for (const p of s.peers) if ((s.x.ackedRound.get(p) ?? 0) >= round) n++;
    return n >= majority(s.peers.length + 1);
  }

  /** ReadIndex / lease reads (thesis §6.4): answer those whose index is applied and leadership confirmed. */
  serveReads(s: RaftServer<E, M>): void {
    if (s.v.role !== 'leader' || s.x.pendingReads.length === 0) return;
    const committedInTerm = termAt(s.p.log, s.v.commitIndex) === s.p.currentTerm;
    let newRound = 0;
    const lease = this.cfg.leaseReads && this.leaseValid(s);
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
      this.hooks.answerRead(s, r);
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

  // ================================================================ dispatch

  /** Handles a Raft message addressed to a server of the group; false if it is not one. */
  onMessage(to: NodeId, from: NodeId, payload: unknown): boolean {
    const s = this.servers.get(to);
    const m = payload as RaftGroupMsg<E>;
    if (!s || typeof m !== 'object' || m === null || !GROUP_TAGS.has(m.t)) return false;
    switch (m.t) {
      case 'rv':
        this.onRequestVote(s, from, m);
        break;
      case 'rvr':
        this.onVoteReply(s, from, m);
        break;
      case 'pv':
        this.onPreVote(s, from, m);
        break;
      case 'pvr':
        this.onPreVoteReply(s, from, m);
        break;
      case 'ae':
        this.onAppendEntries(s, from, m);
        break;
      case 'aer':
        this.onAppendReply(s, from, m);
        break;
    }
    return true;
  }

  /** Handles a timer of a server of the group; false if it is not the group's. */
  onTimer(node: NodeId, tag: string, data: unknown): boolean {
    const s = this.servers.get(node);
    if (!s) return false;
    if (tag === 'election') {
      this.onElectionTimer(s, data);
      return true;
    }
    if (tag === 'fsync') {
      this.onFsync(s, data as { to?: NodeId; reply?: RaftGroupMsg<E>; upTo: number; term?: number });
      return true;
    }
    if (tag !== 'heartbeat' && tag !== 'check-quorum') return false;
    if (s.v.role !== 'leader' || data !== s.p.currentTerm) return true; // a timer of an earlier leadership
    if (tag === 'heartbeat') {
      for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
      this.io.setTimer(node, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
    } else {
      if (s.x.quorumActive.size + 1 < majority(s.peers.length + 1)) {
        // CheckQuorum: no majority heard from for an election timeout — stop claiming leadership.
        s.v.role = 'follower';
        s.v.leaderId = null;
        this.steppedDown(s);
        return true;
      }
      s.x.quorumActive.clear();
      this.io.setTimer(node, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
    }
    return true;
  }

  private onFsync(s: RaftServer<E, M>, d: { to?: NodeId; reply?: RaftGroupMsg<E>; upTo: number; term?: number }): void {
    s.x.durable = Math.max(s.x.durable, Math.min(d.upTo, lastIndex(s.p.log)));
    if (d.to !== undefined && d.reply) this.io.send(s.id, d.to, 'ack', d.reply, 0);
    else if (s.v.role === 'leader' && d.term === s.p.currentTerm) this.advanceAndApply(s);
  }

  onCrash(node: NodeId): boolean {
    const s = this.servers.get(node);
    if (!s) return false;
    // currentTerm, votedFor and the log are on stable storage; the rest is gone.
    s.v = freshVolatile();
    s.x = this.freshX();
    s.x.durable = lastIndex(s.p.log);
    return true;
  }

  onRestart(node: NodeId): boolean {
    const s = this.servers.get(node);
    if (!s) return false;
    this.resetElectionTimer(s);
    return true;
  }

  // ================================================================ views and metrics

  /** The server that believes it leads in the highest term (and is up), or null. */
  leader(): RaftServer<E, M> | null {
    let best: RaftServer<E, M> | null = null;
    for (const s of this.servers.values()) {
      if (s.v.role === 'leader' && this.io.isUp(s.id) && (!best || s.p.currentTerm > best.p.currentTerm)) best = s;
    }
    return best;
  }

  /** leaders, term, commitIndex, logLength, overwrittenEntries; undefined for other names. */
  metric(name: string, node?: NodeId): number | null | undefined {
    const s = node ? this.servers.get(node) : undefined;
    const servers = [...this.servers.values()];
    const perServer = (f: (s: RaftServer<E, M>) => number): number | null => (node ? (s ? f(s) : null) : Math.max(0, ...servers.map(f)));
    switch (name) {
      case 'leaders': {
        const leads = (x: RaftServer<E, M>) => (x.v.role === 'leader' && this.io.isUp(x.id) ? 1 : 0);
        return node ? (s ? leads(s) : 0) : servers.reduce((a, x) => a + leads(x), 0);
      }
      case 'term':
        return perServer((x) => x.p.currentTerm);
      case 'commitIndex':
        return perServer((x) => x.v.commitIndex);
      case 'logLength':
        return perServer((x) => x.p.log.length);
      case 'overwrittenEntries': {
        if (node) return s ? (this.overwritten.get(node) ?? 0) : null;
        let n = 0;
        for (const v of this.overwritten.values()) n += v;
        return n;
      }
      default:
        return undefined;
    }
  }
}
