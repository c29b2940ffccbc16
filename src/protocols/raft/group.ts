import { quantize } from '../../sim/network';
import type { NodeId } from '../../sim/types';
import { RaftChecker } from './invariants';
import type { RaftGroupConfig, RaftHooks, RaftIo } from './port';
import { isRaftRpc, type RaftRpc } from './messages';
import { followerAnswered, queueRead, serveReads } from './requests';
import {
  advanceCommit,
  becomeCandidate,
  becomeLeader,
  buildAppend,
  checkQuorum,
  disregardsVote,
  handleAppendEntries,
  handleAppendReply,
  handlePreVote,
  handleRequestVote,
  handleVoteReply,
  leaderAppend,
  leaderRecent,
  observeTerm,
  preVoteRequest,
  type RequestVote,
  type VoteReply,
} from './rules';
import { freshServerX, type RaftServer } from './server';
import { freshPersistent, freshVolatile, lastIndex, majority, type RaftEntry } from './state';

export type { PendingRead } from './requests';
export type { RaftServer } from './server';
export type { RaftGroupConfig, RaftHooks, RaftIo } from './port';

/**
 * A Raft group: the servers' I/O of Raft (Ongaro & Ousterhout 2014, Figure 2; the thesis for
 * ReadIndex, lease reads, CheckQuorum and Pre-Vote) — election timers, RPCs, one entry-carrying
 * AppendEntries in flight per follower, commit, applying in order, modelled fsync. Every decision
 * is a pure rule: rules.ts (elections, stickiness, CheckQuorum, Pre-Vote, replication, commit) and
 * requests.ts (ReadIndex and lease reads). What the log *means* is the owner's: its hooks
 * (port.ts) build entries, apply them to its state machine and answer its reads. raft-ps (a
 * parameter server) and the etcd-like coordination service both run on it: one implementation of
 * the protocol, one set of invariant checks.
 */

/** Entries per AppendEntries, so a follower far behind catches up in bounded messages. */
const MAX_ENTRIES = 64;

/** The `fsync` timer's data: a follower's held answer, or a leader's own write of up to `upTo`. */
type FsyncDone<E extends RaftEntry> = { upTo: number } & ({ to: NodeId; reply: RaftRpc<E> } | { term: number });

export class RaftGroup<E extends RaftEntry, M> {
  readonly servers = new Map<NodeId, RaftServer<E, M>>();
  readonly checker = new RaftChecker();
  // Observer bookkeeping (identities for the checks, metrics), never read by the protocol.
  private uidSeq = 0;
  private readonly overwritten = new Map<NodeId, number>();

  constructor(
    private readonly io: RaftIo,
    ids: readonly NodeId[],
    private readonly cfg: RaftGroupConfig,
    private readonly hooks: RaftHooks<E, M>,
  ) {
    for (const id of ids) {
      const peers = ids.filter((p) => p !== id);
      this.servers.set(id, { id, peers, p: freshPersistent<E>(), v: freshVolatile(), x: freshServerX(hooks.machine()), rng: io.rng(`election:${id}`) });
    }
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

  private newEntry(e: Omit<E, 'uid'>): E {
    return { ...e, uid: ++this.uidSeq } as E;
  }

  // ================================================================ elections

  private get minTimeout(): number {
    return this.cfg.electionTimeoutMs[0];
  }

  private get fsyncMs(): number {
    return this.cfg.fsyncMs ?? 0;
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
    for (const peer of s.peers) this.io.send(s.id, peer, 'vote', { t: 'pv', ...req } satisfies RaftRpc<E>, 0);
  }

  private startElection(s: RaftServer<E, M>): void {
    s.x.preVotes = null;
    const req = becomeCandidate(s);
    this.io.note('electionStarted', s.id, { term: req.term });
    this.resetElectionTimer(s);
    if (s.v.votes.size >= majority(s.peers.length + 1)) return this.winElection(s);
    for (const peer of s.peers) this.io.send(s.id, peer, 'vote', { t: 'rv', ...req } satisfies RaftRpc<E>, 0);
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

  /** Leader stickiness is on with CheckQuorum, and with lease reads (which are safe only with it). */
  private get stickyVotes(): boolean {
    return this.cfg.checkQuorum || this.cfg.leaseReads;
  }

  private onRequestVote(s: RaftServer<E, M>, from: NodeId, req: RequestVote): void {
    if (this.stickyVotes && disregardsVote(s, req, this.io.now() - s.x.lastHeardLeader, this.minTimeout)) return;
    const wasLeader = s.v.role === 'leader';
    const reply = handleRequestVote(s, req);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (reply.voteGranted) this.resetElectionTimer(s);
    this.io.send(s.id, from, 'vote', { t: 'rvr', ...reply } satisfies RaftRpc<E>, 0);
  }

  private onVoteReply(s: RaftServer<E, M>, from: NodeId, reply: VoteReply): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleVoteReply(s, from, reply);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (r === 'won') this.winElection(s);
  }

  private onPreVote(s: RaftServer<E, M>, from: NodeId, req: RequestVote): void {
    const reply = handlePreVote(s, req, leaderRecent(s, this.io.now() - s.x.lastHeardLeader, this.minTimeout));
    this.io.send(s.id, from, 'vote', { t: 'pvr', ...reply } satisfies RaftRpc<E>, 0);
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

  private onCheckQuorum(s: RaftServer<E, M>): void {
    if (checkQuorum(s, s.x.quorumActive) === 'stepdown') return this.steppedDown(s);
    this.io.setTimer(s.id, this.cfg.electionTimeoutMs[1], 'check-quorum', s.p.currentTerm);
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
    this.io.send(s.id, peer, 'append', { t: 'ae', ...ae, id, round: s.x.round, sentAt: now } satisfies RaftRpc<E>, bytes);
  }

  private replicate(s: RaftServer<E, M>): void {
    for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
  }

  private heartbeat(s: RaftServer<E, M>): void {
    for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
  }

  private onAppendEntries(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftRpc<E>, { t: 'ae' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleAppendEntries(s, m);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s);
    if (out.fromLeader) {
      s.x.lastHeardLeader = this.io.now();
      s.x.preVotes = null;
      this.resetElectionTimer(s);
    }
    if (out.truncated.length) {
      this.overwritten.set(s.id, (this.overwritten.get(s.id) ?? 0) + out.truncated.length);
      this.hooks.truncated?.(s, out.truncated);
      this.io.note('entryOverwritten', s.id, { index: out.stored[0], count: out.truncated.length });
    }
    for (const i of out.stored) this.stored(s, i);
    if (s.v.commitIndex > out.commitBefore) this.committed(s, out.commitBefore);
    const reply: RaftRpc<E> = { t: 'aer', ...out.reply, id: m.id, round: m.round, sentAt: m.sentAt };
    // New entries reach the disk before the follower says it holds them (Raft's persistence rule).
    if (this.fsyncMs > 0 && out.stored.length > 0) this.io.setTimer(s.id, this.fsyncMs, 'fsync', { to: from, reply, upTo: lastIndex(s.p.log) } satisfies FsyncDone<E>);
    else this.io.send(s.id, from, 'ack', reply, 0);
  }

  private onAppendReply(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftRpc<E>, { t: 'aer' }>): void {
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

  private onFsync(s: RaftServer<E, M>, d: FsyncDone<E>): void {
    s.x.durable = Math.max(s.x.durable, Math.min(d.upTo, lastIndex(s.p.log)));
    if ('to' in d) this.io.send(s.id, d.to, 'ack', d.reply, 0);
    else if (s.v.role === 'leader' && d.term === s.p.currentTerm) this.advanceAndApply(s);
  }

  private advanceAndApply(s: RaftServer<E, M>): void {
    const before = s.v.commitIndex;
    // With fsync modelled the leader counts itself only up to what its disk holds.
    const after = this.fsyncMs > 0 ? advanceCommit(s, s.x.durable) : advanceCommit(s);
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
    // The leader writes to its disk in parallel with replicating (thesis §10.2.1); it counts itself once synced.
    if (this.fsyncMs > 0) this.io.setTimer(s.id, this.fsyncMs, 'fsync', { upTo: index, term: s.p.currentTerm } satisfies FsyncDone<E>);
    this.replicate(s);
    this.advanceAndApply(s);
    return index;
  }

  // ================================================================ reads (thesis §6.4)

  /** Queues a ReadIndex / lease read at a leader (`via`: the member that forwarded it) and serves what it can. */
  read(s: RaftServer<E, M>, worker: NodeId, readId: number, via?: NodeId): void {
    queueRead(s.x, worker, readId, via);
    this.serveReads(s);
  }

  /** Answers the ReadIndex / lease reads that may be answered now; starts a heartbeat round if they need one. */
  serveReads(s: RaftServer<E, M>): void {
    const r = serveReads(s, s.x, { lease: this.cfg.leaseReads, now: this.io.now(), minElectionTimeoutMs: this.minTimeout });
    for (const q of r.answer) this.hooks.answerRead(s, q);
    if (r.heartbeat) this.heartbeat(s);
  }

  // ================================================================ dispatch

  /** Handles a Raft RPC addressed to a server of the group; false if it is not one. */
  onMessage(to: NodeId, from: NodeId, payload: unknown): boolean {
    const s = this.servers.get(to);
    if (!s || !isRaftRpc<E>(payload)) return false;
    const m = payload;
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
    switch (tag) {
      case 'election':
        this.onElectionTimer(s, data);
        return true;
      case 'fsync':
        this.onFsync(s, data as FsyncDone<E>);
        return true;
      case 'heartbeat':
      case 'check-quorum':
        if (s.v.role !== 'leader' || data !== s.p.currentTerm) return true; // a timer of an earlier leadership
        if (tag === 'check-quorum') {
          this.onCheckQuorum(s);
        } else {
          this.heartbeat(s);
          this.io.setTimer(node, this.cfg.heartbeatMs, 'heartbeat', s.p.currentTerm);
        }
        return true;
      default:
        return false;
    }
  }

  /** currentTerm, votedFor and the log are on stable storage; the rest is gone. */
  onCrash(node: NodeId): boolean {
    const s = this.servers.get(node);
    if (!s) return false;
    s.v = freshVolatile();
    s.x = freshServerX(this.hooks.machine());
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
