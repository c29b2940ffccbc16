import type { Message, NodeId } from '../../sim/types';
import type { LogItem, NodeLog } from '../facts';
import { RaftChecker } from '../raft/invariants';
import type { CoordContext } from './api';
import type { CoordinationConfig } from './config';
import type { Routed } from './messages';
import { CoordServiceBase, type ReplicationFacts } from './service';
import { CoordStore } from './store';
import {
  handleSyncedAck,
  becomeLeader,
  freshZabPersistent,
  freshZabVolatile,
  handleAck,
  handleCommit,
  handleEpochReply,
  handleNewEpoch,
  handleNewLeader,
  handleNewLeaderAck,
  handleProposal,
  leaderPropose,
  lookAgain,
  quorum,
  startCandidacy,
  type EpochReply,
  type NewEpoch,
  type NewLeader,
  type Proposal,
  type Txn,
  type ZabCore,
} from './zab';

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
 */

type ZabMsg =
  | ({ z: 'newEpoch' } & NewEpoch)
  | { z: 'ackEpoch'; r: EpochReply }
  | ({ z: 'newLeader' } & NewLeader)
  /** The follower holds the leader's history up to `upTo` (1-based length). */
  | { z: 'ackLd'; epoch: number; upTo: number }
  | ({ z: 'propose' } & Proposal)
  | { z: 'ack'; epoch: number; index: number }
  | { z: 'commit'; epoch: number; upTo: number }
  /** `last`: the leader's history length, so a follower that missed the latest proposals asks to resync. */
  | { z: 'ping'; epoch: number; committed: number; last: number }
  | { z: 'pingAck'; epoch: number }
  /** FOLLOWERINFO: a server asks the leader to sync it (it joined late, or missed proposals). */
  | { z: 'info'; acceptedEpoch: number }
  | { z: 'sync'; client: NodeId; reqId: number; key: string }
  | { z: 'syncDone'; client: NodeId; reqId: number; key: string };

interface ZServer extends ZabCore {
  x: {
    store: CoordStore;
    /** Follower: when it last heard from its leader. Leader: when it last heard from each follower. */
    lastHeard: number;
    heardFrom: Map<NodeId, number>;
    /** Changes on every role change: timers of an earlier role are void. */
    roleToken: number;
    electToken: number;
    /** Leader: sync() requests waiting for their proposals to commit. */
    syncs: Array<{ from: NodeId; client: NodeId; reqId: number; key: string; upTo: number }>;
  };
}

const ZAB_KINDS: Record<ZabMsg['z'], string> = {
  newEpoch: 'vote',
  ackEpoch: 'vote',
  newLeader: 'append',
  ackLd: 'ack',
  propose: 'append',
  ack: 'ack',
  commit: 'append',
  ping: 'heartbeat',
  pingAck: 'ack',
  info: 'vote',
  sync: 'coord',
  syncDone: 'coord',
};

export class ZooKeeperService extends CoordServiceBase {
  private readonly z = new Map<NodeId, ZServer>();
  private readonly checker = new RaftChecker();
  private readonly tickMs: number;
  private readonly syncLimitMs: number;
  private uidSeq = 0;
  private readonly overwritten = new Map<NodeId, number>();
  /** After a restart: the history length it had (transactions it re-applies without answering clients again). */
  private readonly replayUpTo = new Map<NodeId, number>();

  constructor(ctx: CoordContext, cfg: CoordinationConfig) {
    super(ctx, cfg);
    this.tickMs = Math.min(2000, cfg.leaseTtlMs / 2);
    this.syncLimitMs = 5 * this.tickMs;
    for (const id of ctx.coord) {
      this.z.set(id, { id, peers: ctx.coord.filter((p) => p !== id), p: freshZabPersistent(), v: freshZabVolatile(), x: this.freshX() });
    }
  }

  private freshX(): ZServer['x'] {
    return { store: new CoordStore('zookeeper'), lastHeard: 0, heardFrom: new Map(), roleToken: 0, electToken: 0, syncs: [] };
  }

  private srv(id: NodeId): ZServer {
    return this.z.get(id)!;
  }

  private send(s: ZServer, to: NodeId, m: ZabMsg): void {
    this.ctx.send(s.id, to, ZAB_KINDS[m.z], m, 0);
  }

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
    this.checker.leaderElected(first, 1, leader.p.history);
    this.ctx.note('leaderElected', first, { term: 1 });
    this.becameLeader(first);
  }

  /** A new role: timers of the old one are void; the new one's start. */
  private roleChanged(s: ZServer): void {
    s.x.roleToken++;
    if (s.v.role === 'looking') this.armElection(s, this.tickMs, 3 * this.tickMs);
    else this.ctx.setTimer(s.id, this.tickMs / 2, 'zab-tick', s.x.roleToken);
  }

  private armElection(s: ZServer, lo: number, hi: number): void {
    const rng = this.ctx.rng(`zab:${s.id}:${++s.x.electToken}`);
    this.ctx.setTimer(s.id, lo + (hi - lo) * rng.next(), 'zab-elect', s.x.electToken);
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
    this.checker.leaderElected(s.id, nl.epoch, s.p.history);
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
    for (const i of out.stored) this.checker.stored(s.id, s.p.history, i);
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

  // ---------------------------------------------------------------- broadcast (phase 3)

  protected propose(id: NodeId, cmd: Routed): void {
    const s = this.srv(id);
    if (s.v.role !== 'leading' || !s.v.established) return; // not yet able to propose: the client retries
    const m = leaderPropose(s, cmd, ++this.uidSeq);
    this.checker.stored(s.id, s.p.history, m.index);
    for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'propose', ...m });
    // The leader logs it too, and counts itself once it is on disk.
    if (this.cfg.fsyncMs > 0) this.ctx.setTimer(s.id, this.cfg.fsyncMs, 'zab-fsync', { epoch: m.epoch, index: m.index });
    else this.onAck(s, s.id, m.epoch, m.index);
  }

  private onProposal(s: ZServer, from: NodeId, m: Proposal): void {
    const r = handleProposal(s, from, m);
    if (r === 'gap') return this.send(s, from, { z: 'info', acceptedEpoch: s.p.acceptedEpoch });
    if (r !== 'logged') return;
    this.checker.stored(s.id, s.p.history, m.index);
    this.afterSync(s, from, { z: 'ack', epoch: m.epoch, index: m.index });
  }

  /** A follower acknowledges what it logged once it is on disk (fsyncMs). */
  private afterSync(s: ZServer, to: NodeId, m: ZabMsg): void {
    if (this.cfg.fsyncMs > 0) this.ctx.setTimer(s.id, this.cfg.fsyncMs, 'zab-fsync', { to, m });
    else this.send(s, to, m);
  }

  private onAck(s: ZServer, from: NodeId, epoch: number, index: number): void {
    const before = s.v.committed;
    const after = handleAck(s, from, epoch, index);
    if (after <= before) return;
    for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'commit', epoch, upTo: after });
    this.applyCommitted(s, before);
  }

  private applyCommitted(s: ZServer, before: number): void {
    if (s.v.committed > before) this.checker.committedUpTo(s.id, s.p.history, before, s.v.committed);
    while (s.v.applied < s.v.committed) {
      const i = ++s.v.applied;
      const txn = s.p.history[i - 1];
      this.checker.onApply(s.id, i, txn);
      if (this.firstCommitAt(i)) this.ctx.note('commit', s.id, { index: i });
      this.applied(s.id, txn.cmd, txn.zxid, i <= (this.replayUpTo.get(s.id) ?? 0));
    }
    this.serveSyncs(s);
  }

  private committedSeen = 0;
  /** Observer: index i is committed for the first time anywhere (for the `commit` note). */
  private firstCommitAt(i: number): boolean {
    if (i <= this.committedSeen) return false;
    this.committedSeen = i;
    return true;
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

  // ---------------------------------------------------------------- reads

  protected read(id: NodeId, client: NodeId, reqId: number, key: string): void {
    const s = this.srv(id);
    if (this.readMode !== 'sync-then-local') return this.answerRead(id, client, reqId, key);
    if (s.v.role === 'leading' && s.v.established) {
      s.x.syncs.push({ from: id, client, reqId, key, upTo: s.p.history.length });
      return this.serveSyncs(s);
    }
    if (s.v.role === 'following' && s.v.leader !== null) this.send(s, s.v.leader, { z: 'sync', client, reqId, key });
  }

  /** sync(): once the leader's proposals up to the request have committed, the follower (after those COMMITs, FIFO) reads. */
  private serveSyncs(s: ZServer): void {
    if (s.x.syncs.length === 0) return;
    s.x.syncs = s.x.syncs.filter((q) => {
      if (s.v.committed < q.upTo) return true;
      if (q.from === s.id) this.answerRead(s.id, q.client, q.reqId, q.key);
      else this.send(s, q.from, { z: 'syncDone', client: q.client, reqId: q.reqId, key: q.key });
      return false;
    });
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
    const s = this.srv(id);
    return s.v.role === 'looking' ? null : s.v.leader;
  }

  protected storeOf(id: NodeId): CoordStore {
    return this.srv(id).x.store;
  }

  protected replicationInvariants(): Array<{ invariant: string; detail: string }> {
    return this.checker.drain().map((v) => ({ invariant: `zab-${v.invariant}`, detail: v.detail }));
  }

  protected replicationFacts(id: NodeId): ReplicationFacts {
    const s = this.srv(id);
    const role = s.v.role === 'leading' ? (s.v.established ? 'leader' : 'candidate') : s.v.role === 'following' ? 'follower' : 'looking';
    const committed = s.v.committed > 0 ? s.p.history[s.v.committed - 1].zxid : 0;
    return { role, term: s.p.currentEpoch, leader: this.leaderOf(id), commit: committed };
  }

  protected replicationMetric(name: string, node?: NodeId): number | null | undefined {
    const servers = [...this.z.values()];
    const one = node ? this.z.get(node) : undefined;
    const leads = (s: ZServer) => (s.v.role === 'leading' && s.v.established && this.ctx.isUp(s.id) ? 1 : 0);
    const per = (f: (s: ZServer) => number) => (node ? (one ? f(one) : null) : Math.max(0, ...servers.map(f)));
    switch (name) {
      case 'leaders':
        return node ? (one ? leads(one) : 0) : servers.reduce((a, s) => a + leads(s), 0);
      case 'term':
        return per((s) => s.p.currentEpoch);
      case 'commitIndex':
        return per((s) => s.v.committed);
      case 'logLength':
        return per((s) => s.p.history.length);
      case 'overwrittenEntries':
        return node ? (one ? (this.overwritten.get(node) ?? 0) : null) : [...this.overwritten.values()].reduce((a, b) => a + b, 0);
      default:
        return undefined;
    }
  }

  leader(): NodeId | null {
    let best: ZServer | null = null;
    for (const s of this.z.values()) if (s.v.role === 'leading' && s.v.established && this.ctx.isUp(s.id) && (!best || s.p.currentEpoch > best.p.currentEpoch)) best = s;
    return best?.id ?? null;
  }

  linearizableReads(): boolean {
    return false; // local reads may be stale; sync() narrows the window without a promise
  }

  logOf(node: NodeId): NodeLog<Txn> | null {
    const s = this.z.get(node);
    return s ? { base: 1, entries: s.p.history, item: logItem } : null;
  }
}

function logItem(t: Txn): LogItem {
  return 'client' in t.cmd ? { term: t.term, kind: 'record', worker: t.cmd.client } : { term: t.term, kind: 'record' };
}
