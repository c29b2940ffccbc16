import type { NodeId } from '../../sim/types';
import { RaftChecker } from '../raft/invariants';
import type { CoordContext } from './api';
import type { CoordinationConfig } from './config';
import type { Routed } from './messages';
import { CoordServiceBase } from './service';
import { CoordStore } from './store';
import { freshZabPersistent, freshZabVolatile, handleAck, handleProposal, leaderPropose, type Proposal } from './zab';
import { ZAB_KINDS, type ZabMsg, type ZServer } from './zkServer';
import { wholeLog } from '../raft/state';

/**
 * The ZooKeeper servers and Zab's broadcast (phase 3), under the elections and failure detection
 * of zookeeper.ts: the leader proposes, followers log and acknowledge after fsync, a quorum's
 * acknowledgements commit, every server applies committed transactions in zxid order. Also the
 * shared role timers and the sync() read path. Decisions are zab.ts's pure rules.
 */

export abstract class ZabBroadcast extends CoordServiceBase {
  protected readonly z = new Map<NodeId, ZServer>();
  protected readonly checker = new RaftChecker();
  protected readonly tickMs: number;
  protected readonly syncLimitMs: number;
  private uidSeq = 0;
  protected readonly overwritten = new Map<NodeId, number>();
  /** After a restart: the history length it had (transactions it re-applies without answering clients again). */
  protected readonly replayUpTo = new Map<NodeId, number>();

  constructor(ctx: CoordContext, cfg: CoordinationConfig) {
    super(ctx, cfg);
    this.tickMs = Math.min(2000, cfg.leaseTtlMs / 2);
    this.syncLimitMs = 5 * this.tickMs;
    for (const id of ctx.coord) {
      this.z.set(id, { id, peers: ctx.coord.filter((p) => p !== id), p: freshZabPersistent(), v: freshZabVolatile(), x: this.freshX() });
    }
  }

  protected freshX(): ZServer['x'] {
    return { store: new CoordStore('zookeeper'), lastHeard: 0, heardFrom: new Map(), roleToken: 0, electToken: 0, syncs: [] };
  }

  protected srv(id: NodeId): ZServer {
    return this.z.get(id)!;
  }

  protected send(s: ZServer, to: NodeId, m: ZabMsg): void {
    this.ctx.send(s.id, to, ZAB_KINDS[m.z], m, 0);
  }

  // ---------------------------------------------------------------- role timers

  /** A new role: timers of the old one are void; the new one's start. */
  protected roleChanged(s: ZServer): void {
    s.x.roleToken++;
    if (s.v.role === 'looking') this.armElection(s, this.tickMs, 3 * this.tickMs);
    else this.ctx.setTimer(s.id, this.tickMs / 2, 'zab-tick', s.x.roleToken);
  }

  protected armElection(s: ZServer, lo: number, hi: number): void {
    const rng = this.ctx.rng(`zab:${s.id}:${++s.x.electToken}`);
    this.ctx.setTimer(s.id, lo + (hi - lo) * rng.next(), 'zab-elect', s.x.electToken);
  }

  // ---------------------------------------------------------------- broadcast (phase 3)

  protected propose(id: NodeId, cmd: Routed): void {
    const s = this.srv(id);
    if (s.v.role !== 'leading' || !s.v.established) return; // not yet able to propose: the client retries
    const m = leaderPropose(s, cmd, ++this.uidSeq);
    this.checker.stored(s.id, wholeLog(s.p.history), m.index);
    for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'propose', ...m });
    // The leader logs it too, and counts itself once it is on disk.
    if (this.cfg.fsyncMs > 0) this.ctx.setTimer(s.id, this.cfg.fsyncMs, 'zab-fsync', { epoch: m.epoch, index: m.index });
    else this.onAck(s, s.id, m.epoch, m.index);
  }

  protected onProposal(s: ZServer, from: NodeId, m: Proposal): void {
    const r = handleProposal(s, from, m);
    if (r === 'gap') return this.send(s, from, { z: 'info', acceptedEpoch: s.p.acceptedEpoch });
    if (r !== 'logged') return;
    this.checker.stored(s.id, wholeLog(s.p.history), m.index);
    this.afterSync(s, from, { z: 'ack', epoch: m.epoch, index: m.index });
  }

  /** A follower acknowledges what it logged once it is on disk (fsyncMs). */
  protected afterSync(s: ZServer, to: NodeId, m: ZabMsg): void {
    if (this.cfg.fsyncMs > 0) this.ctx.setTimer(s.id, this.cfg.fsyncMs, 'zab-fsync', { to, m });
    else this.send(s, to, m);
  }

  protected onAck(s: ZServer, from: NodeId, epoch: number, index: number): void {
    const before = s.v.committed;
    const after = handleAck(s, from, epoch, index);
    if (after <= before) return;
    for (const p of s.v.ldAcks) if (p !== s.id) this.send(s, p, { z: 'commit', epoch, upTo: after });
    this.applyCommitted(s, before);
  }

  protected applyCommitted(s: ZServer, before: number): void {
    if (s.v.committed > before) this.checker.committedUpTo(s.id, wholeLog(s.p.history), before, s.v.committed, s.p.currentEpoch);
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
  protected serveSyncs(s: ZServer): void {
    if (s.x.syncs.length === 0) return;
    s.x.syncs = s.x.syncs.filter((q) => {
      if (s.v.committed < q.upTo) return true;
      if (q.from === s.id) this.answerRead(s.id, q.client, q.reqId, q.key);
      else this.send(s, q.from, { z: 'syncDone', client: q.client, reqId: q.reqId, key: q.key });
      return false;
    });
  }
}
