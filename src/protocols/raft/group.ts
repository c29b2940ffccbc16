import { quantize } from '../../sim/network';
import type { NodeId } from '../../sim/types';
import { isRaftRpc, type RaftRpc } from './messages';
import { RaftReplication, type FsyncDone } from './replication';
import {
  becomeCandidate,
  becomeLeader,
  checkQuorum,
  disregardsVote,
  handlePreVote,
  handleRequestVote,
  handleVoteReply,
  leaderRecent,
  observeTerm,
  preVoteRequest,
  type RequestVote,
  type VoteReply,
} from './rules';
import { freshServerX, type RaftServer } from './server';
import { freshVolatile, lastIndex, majority, type RaftEntry } from './state';

export type { PendingRead } from './requests';
export type { RaftServer } from './server';
export type { RaftGroupConfig, RaftHooks, RaftIo } from './port';

/**
 * A Raft group: the servers' I/O of Raft (Ongaro & Ousterhout 2014, Figure 2; the thesis for
 * ReadIndex, lease reads, CheckQuorum and Pre-Vote) — election timers, RPCs, one entry-carrying
 * AppendEntries in flight per follower, commit, applying in order, modelled fsync. Every decision
 * is a pure rule: rules.ts (elections, stickiness, CheckQuorum, Pre-Vote, replication, commit) and
 * requests.ts (ReadIndex and lease reads). The log half (AppendEntries, fsync, commit, apply,
 * reads) is replication.ts; this class adds elections, dispatch, crashes and views. What the log
 * *means* is the owner's: its hooks (port.ts) build entries, apply them to its state machine and
 * answer its reads. raft-ps (a parameter server) and the etcd-like coordination service both run
 * on it: one implementation of the protocol, one set of invariant checks.
 */

export class RaftGroup<E extends RaftEntry, M> extends RaftReplication<E, M> {
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

  // ================================================================ elections

  /** A fresh randomised deadline; one armed timer per server, re-armed lazily when it fires early. */
  protected resetElectionTimer(s: RaftServer<E, M>): void {
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
    if (noop) this.stored(s, lastIndex(s.p));
    this.checker.leaderElected(s.id, s.p.currentTerm, s.p);
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

  /** Called whenever a leader became a follower: a higher term in `from`'s message, or CheckQuorum (no `from`). */
  protected steppedDown(s: RaftServer<E, M>, from?: NodeId): void {
    this.io.note('leaderStepDown', s.id, from === undefined ? { term: s.p.currentTerm } : { term: s.p.currentTerm, from });
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
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s, from);
    if (reply.voteGranted) this.resetElectionTimer(s);
    this.io.send(s.id, from, 'vote', { t: 'rvr', ...reply } satisfies RaftRpc<E>, 0);
  }

  private onVoteReply(s: RaftServer<E, M>, from: NodeId, reply: VoteReply): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleVoteReply(s, from, reply);
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s, from);
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
        if (wasLeader) this.steppedDown(s, from);
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
      case 'is':
        this.onInstallSnapshot(s, from, m);
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

  /**
   * currentTerm, votedFor, the log and the snapshot are on stable storage; the rest is gone. The
   * state machine restarts from the snapshot, whose entries are known committed and applied (§7).
   */
  onCrash(node: NodeId): boolean {
    const s = this.servers.get(node);
    if (!s) return false;
    s.v = freshVolatile();
    s.x = freshServerX(s.snap ? this.hooks.cloneMachine!(s.snap.machine) : this.hooks.machine());
    s.v.commitIndex = s.v.lastApplied = s.snap?.index ?? 0;
    s.x.durable = lastIndex(s.p);
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
        return perServer((x) => lastIndex(x.p)); // the last index: a compacted prefix still counts
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
