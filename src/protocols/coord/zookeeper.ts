import type { Message, NodeId } from '../../sim/types';
import type { NodeLog } from '../facts';
import type { ReplicationFacts } from './service';
import { CoordStore } from './store';
import {
  handleSyncedAck,
  becomeLeader,
  freshZabVolatile,
  handleCommit,
  handleEpochReply,
  handleNewEpoch,
  handleNewLeader,
  handleNewLeaderAck,
  lookAgain,
  quorum,
  startCandidacy,
  type EpochReply,
  type NewEpoch,
  type NewLeader,
  type Txn,
} from './zab';
import { ZabBroadcast } from './zkBroadcast';
import { txnLogItem, zkFacts, zkLeader, zkLeaderOf, zkMetric } from './zkReport';
import type { ZabMsg, ZServer } from './zkServer';
import { wholeLog } from '../raft/state';

/**
 * A ZooKeeper-like service: Zab (zab.ts) replicating a data tree with sessions, ephemeral and
 * sequential znodes. Writes go to the leader (a follower forwards them); each server applies
 * committed transactions in zxid order. Reads are served by the session's own server from its own
 * tree — ZooKeeper's writes are linearizable, its reads are not: a server a commit has not reached
 * yet answers with the old value. `sync()` first ("sync-then-local") asks the leader to flush what
 * it has proposed to this server before the read; that narrows the window, but ZooKeeper does not
 * promise it makes reads linearizable.
 *
 * Timing follows ZooKeeper's knobs: a tick of half the session timeout (the smallest session
 * timeout ZooKeeper allows is 2 ticks), pings every half tick, and syncLimit = 5 ticks: a follower
 * that hears nothing from its leader that long looks for a new one, and a leader that hears from no
 * quorum that long stops leading. c0 starts as the leader of epoch 1.
 *
 * This class is the elections (phases 1 and 2), the ticks and the dispatch; broadcast (phase 3),
 * the role timers and sync() reads are zkBroadcast.ts, the messages and server state zkServer.ts,
 * facts and metrics zkReport.ts.
 */

export class ZooKeeperService extends ZabBroadcast {
  // ---------------------------------------------------------------- start: c0 leads epoch 1

  protected startReplication(): void {
    const now = this.ctx.now();
    const first = this.ctx.coord[0];
    for (const s of this.z.values()) {
      s.p.acceptedEpoch = 1;
      s.p.currentEpoch = 1;
      s.x.lastHeard = now;
      if (s.id === first) {
        s.v = { ...freshZabVolatile(), role: 'leading', leader: s.id, established: true, ldAcks: new Set(this.ctx.coord) };
        for (const p of s.peers) s.x.heardFrom.set(p, now);
      } else {
        s.v = { ...freshZabVolatile(), role: 'following', leader: first, synced: true };
      }
      this.roleChanged(s);
    }
    const leader = this.srv(first);
    this.checker.leaderElected(first, 1, wholeLog(leader.p.history));
    this.ctx.note('leaderElected', first, { term: 1 });
    this.becameLeader(first);
  }

  // ---------------------------------------------------------------- elections (phases 1 and 2)

  private onElectTimer(s: ZServer, token: unknown): void {
    if (token !== s.x.electToken) return;
    if (s.v.role === 'following' || (s.v.role === 'leading' && s.v.established)) return;
    // Still looking, or a candidacy that did not reach a quorum: try a newer epoch.
    const m = startCandidacy(s);
    this.ctx.note('electionStarted', s.id, { term: m.epoch });
    s.x.roleToken++;
    this.armElection(s, 2 * this.tickMs, 4 * this.tickMs);
    if (s.v.epochAcks.size >= quorum(s.peers.length + 1)) return this.phase2(s);
    for (const p of s.peers) this.send(s, p, { z: 'newEpoch', ...m });
  }

  /** Busy: it follows or leads a live leader and will not help elect another. */
  private busy(s: ZServer): boolean {
    if (s.v.role === 'leading') return s.v.established;
    return s.v.role === 'following' && s.v.synced && this.ctx.now() - s.x.lastHeard < this.syncLimitMs;
  }

  private onNewEpoch(s: ZServer, from: NodeId, m: NewEpoch): void {
    const wasLeading = s.v.role === 'leading' && s.v.established;
    const r = handleNewEpoch(s, from, m, this.busy(s));
    if (r.ok) {
      if (wasLeading) this.ctx.note('leaderStepDown', s.id, { term: s.p.currentEpoch });
      s.x.lastHeard = this.ctx.now();
      this.roleChanged(s);
    }
    this.send(s, from, { z: 'ackEpoch', r });
  }

  private onAckEpoch(s: ZServer, from: NodeId, r: EpochReply): void {
    const out = handleEpochReply(s, from, r);
    if (out === 'quorum') return this.phase2(s);
    // Refused because the sender follows a live leader: join that leader instead.
    if (!r.ok && r.leader !== null && r.leader !== s.id && !(s.v.role === 'leading' && s.v.established) && s.v.role !== 'following') {
      this.send(s, r.leader, { z: 'info', acceptedEpoch: s.p.acceptedEpoch });
    }
  }

  /** A quorum promised the epoch: the leader of it, for good; its history goes out (NEWLEADER). */
  private phase2(s: ZServer): void {
    const nl = becomeLeader(s);
    this.checker.leaderElected(s.id, nl.epoch, wholeLog(s.p.history));
    s.x.heardFrom = new Map();
    for (const p of s.peers) {
      s.x.heardFrom.set(p, this.ctx.now());
      this.send(s, p, { z: 'newLeader', ...nl });
    }
    this.roleChanged(s);
    if (s.v.ldAcks.size >= quorum(s.peers.length + 1)) this.established(s);
  }

  private onNewLeader(s: ZServer, from: NodeId, m: NewLeader): void {
    if (s.v.role === 'leading' && s.v.established && m.epoch <= s.p.currentEpoch) return;
    const wasLeading = s.v.role === 'leading';
    const appliedBefore = s.v.applied;
    const out = handleNewLeader(s, from, m);
    if (!out.ok) return;
    if (wasLeading) this.ctx.note('leaderStepDown', s.id, { term: s.p.currentEpoch });
    if (s.v.applied < appliedBefore) this.rebuild(s);
    if (out.truncated.length) {
      this.overwritten.set(s.id, (this.overwritten.get(s.id) ?? 0) + out.truncated.length);
      this.ctx.note('entryOverwritten', s.id, { index: out.stored[0] ?? s.p.history.length + 1, count: out.truncated.length });
    }
    for (const i of out.stored) this.checker.stored(s.id, wholeLog(s.p.history), i);
    s.x.lastHeard = this.ctx.now();
    this.roleChanged(s);
    this.applyCommitted(s, 0);
    this.afterSync(s, from, { z: 'ackLd', epoch: m.epoch, upTo: s.p.history.length });
  }

  private onAckLd(s: ZServer, from: NodeId, epoch: number, upTo: number): void {
    const r = handleNewLeaderAck(s, from, epoch);
    s.x.heardFrom.set(from, this.ctx.now());
    if (r === 'established') return this.established(s);
    if (!s.v.established || epoch !== s.p.currentEpoch) return;
    // A follower that (re)joined the established leader: its copy acknowledges every proposal it
    // holds (which may complete a commit), and it learns the commit point.
    const before = s.v.committed;
    const after = handleSyncedAck(s, from, epoch, upTo);
    if (after > before) {
      for (const p of s.v.ldAcks) if (p !== s.id && p !== from) this.send(s, p, { z: 'commit', epoch, upTo: after });
      this.applyCommitted(s, before);
    }
    this.send(s, from, { z: 'commit', epoch, upTo: s.v.committed });
  }

  private established(s: ZServer): void {
    s.v.established = true;
    s.v.committed = s.p.history.length;
    this.ctx.note('leaderElected', s.id, { term: s.p.currentEpoch });
    this.applyCommitted(s, 0);
    for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'commit', epoch: s.p.currentEpoch, upTo: s.v.committed });
    this.becameLeader(s.id);
  }

  /** Its applied state no longer matches its history (a truncated applied prefix): re-apply from scratch. */
  private rebuild(s: ZServer): void {
    s.x.store = new CoordStore('zookeeper');
    s.v.applied = 0;
  }

  // ---------------------------------------------------------------- ticks: pings, failure detection

  private onTick(s: ZServer, token: unknown): void {
    if (token !== s.x.roleToken) return;
    const now = this.ctx.now();
    if (s.v.role === 'leading' && s.v.established) {
      let live = 1;
      for (const p of s.peers) if (now - (s.x.heardFrom.get(p) ?? -Infinity) < this.syncLimitMs) live++;
      if (live < quorum(s.peers.length + 1)) {
        // ZooKeeper's leader shuts down when it no longer hears from a quorum within syncLimit.
        this.ctx.note('leaderStepDown', s.id, { term: s.p.currentEpoch });
        lookAgain(s);
        return this.roleChanged(s);
      }
      for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'ping', epoch: s.p.currentEpoch, committed: s.v.committed, last: s.p.history.length });
    } else if (s.v.role === 'following' && now - s.x.lastHeard >= this.syncLimitMs) {
      lookAgain(s);
      return this.roleChanged(s);
    }
    this.ctx.setTimer(s.id, this.tickMs / 2, 'zab-tick', token);
  }

  private onPing(s: ZServer, from: NodeId, m: { epoch: number; committed: number; last: number }): void {
    if (s.v.role === 'following' && s.v.leader === from && m.epoch === s.p.currentEpoch) {
      // Proposals lost on the way (a cut, a partition): the leader holds more than it does — resync.
      if (m.last > s.p.history.length || !s.v.synced) return this.send(s, from, { z: 'info', acceptedEpoch: s.p.acceptedEpoch });
      handleCommit(s, from, m.epoch, m.committed);
      this.applyCommitted(s, s.v.applied);
      return this.send(s, from, { z: 'pingAck', epoch: m.epoch });
    }
    // A live leader it does not follow (it was away, or it is looking): ask to be synced.
    if (!(s.v.role === 'leading' && s.v.established) && m.epoch >= s.p.acceptedEpoch) this.send(s, from, { z: 'info', acceptedEpoch: s.p.acceptedEpoch });
  }

  private onInfo(s: ZServer, from: NodeId): void {
    if (s.v.role !== 'leading' || !s.v.established) return;
    s.v.ldAcks.delete(from); // it re-joins through NEWLEADER
    this.send(s, from, { z: 'newLeader', epoch: s.p.currentEpoch, history: s.p.history.slice(), committed: s.v.committed });
  }

  // ---------------------------------------------------------------- dispatch

  protected onReplicationMessage(msg: Message): boolean {
    const s = this.z.get(msg.to);
    const m = msg.payload as ZabMsg;
    if (!s || !this.z.has(msg.from)) return false;
    const now = this.ctx.now();
    if (s.v.role === 'leading') s.x.heardFrom.set(msg.from, now);
    if (typeof m !== 'object' || m === null || !('z' in m)) return false;
    // A follower's leader is alive while it leads: its pings, proposals and commits of the current
    // epoch (a restarted leader's NEWEPOCH is not a sign of the old leadership).
    const leading = m.z === 'ping' || m.z === 'propose' || m.z === 'commit' || m.z === 'newLeader';
    if (leading && s.v.role === 'following' && s.v.leader === msg.from && m.epoch >= s.p.currentEpoch) s.x.lastHeard = now;
    switch (m.z) {
      case 'newEpoch':
        this.onNewEpoch(s, msg.from, m);
        break;
      case 'ackEpoch':
        this.onAckEpoch(s, msg.from, m.r);
        break;
      case 'newLeader':
        this.onNewLeader(s, msg.from, m);
        break;
      case 'ackLd':
        this.onAckLd(s, msg.from, m.epoch, m.upTo);
        break;
      case 'propose':
        this.onProposal(s, msg.from, m);
        break;
      case 'ack':
        this.onAck(s, msg.from, m.epoch, m.index);
        break;
      case 'commit':
        handleCommit(s, msg.from, m.epoch, m.upTo);
        this.applyCommitted(s, s.v.applied);
        break;
      case 'ping':
        this.onPing(s, msg.from, m);
        break;
      case 'pingAck':
        break;
      case 'info':
        this.onInfo(s, msg.from);
        break;
      case 'sync':
        if (s.v.role === 'leading' && s.v.established) {
          s.x.syncs.push({ from: msg.from, client: m.client, reqId: m.reqId, key: m.key, upTo: s.p.history.length });
          this.serveSyncs(s);
        }
        break;
      case 'syncDone':
        this.answerRead(s.id, m.client, m.reqId, m.key);
        break;
    }
    return true;
  }

  protected onReplicationTimer(node: NodeId, tag: string, data: unknown): boolean {
    const s = this.z.get(node);
    if (!s) return false;
    if (tag === 'zab-elect') this.onElectTimer(s, data);
    else if (tag === 'zab-tick') this.onTick(s, data);
    else if (tag === 'zab-fsync') {
      const d = data as { to?: NodeId; m?: ZabMsg; epoch?: number; index?: number };
      if (d.to !== undefined && d.m) this.send(s, d.to, d.m);
      else if (d.epoch !== undefined && d.index !== undefined) this.onAck(s, s.id, d.epoch, d.index);
    } else return false;
    return true;
  }

  protected crashReplication(node: NodeId): void {
    const s = this.srv(node);
    // The transaction log and the epochs are on disk; the tree is rebuilt from the log once it knows what committed.
    s.v = freshZabVolatile();
    s.x = this.freshX();
  }

  protected restartReplication(node: NodeId): void {
    const s = this.srv(node);
    this.replayUpTo.set(node, s.p.history.length);
    s.x.lastHeard = this.ctx.now();
    this.roleChanged(s);
  }

  protected isLeader(id: NodeId): boolean {
    const s = this.srv(id);
    return s.v.role === 'leading' && s.v.established;
  }

  /** ZooKeeper serves clients only while it is part of a quorum: leading, or following a leader it synced with. */
  protected serving(id: NodeId): boolean {
    const s = this.srv(id);
    return this.isLeader(id) || (s.v.role === 'following' && s.v.synced);
  }

  protected leaderOf(id: NodeId): NodeId | null {
    return zkLeaderOf(this.srv(id));
  }

  protected storeOf(id: NodeId): CoordStore {
    return this.srv(id).x.store;
  }

  protected replicationInvariants(): Array<{ invariant: string; detail: string }> {
    return this.checker.drain().map((v) => ({ invariant: `zab-${v.invariant}`, detail: v.detail }));
  }

  protected replicationFacts(id: NodeId): ReplicationFacts {
    return zkFacts(this.srv(id));
  }

  protected replicationMetric(name: string, node?: NodeId): number | null | undefined {
    return zkMetric(this.z, this.overwritten, (id) => this.ctx.isUp(id), name, node);
  }

  leader(): NodeId | null {
    return zkLeader(this.z, (id) => this.ctx.isUp(id));
  }

  linearizableReads(): boolean {
    return false; // local reads may be stale; sync() narrows the window without a promise
  }

  logOf(node: NodeId): NodeLog<Txn> | null {
    const s = this.z.get(node);
    return s ? { base: 1, entries: s.p.history, item: txnLogItem } : null;
  }
}
