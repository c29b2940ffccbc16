import type { Message, NodeId } from '../../sim/types';
import type { LogItem, NodeLog } from '../facts';
import { RaftGroup, type PendingRead, type RaftServer } from '../raft/group';
import { lastIndex, type RaftEntry } from '../raft/state';
import type { CoordContext } from './api';
import type { CoordinationConfig } from './config';
import type { Routed } from './messages';
import { CoordServiceBase, type ReplicationFacts } from './service';
import { CoordStore } from './store';

/**
 * An etcd-like service: a Raft group (the shared RaftGroup, with etcd's defaults: 100 ms
 * heartbeats, a 1000–2000 ms randomised election timeout, CheckQuorum and Pre-Vote on, a no-op
 * per new leader) replicating a flat key space with one global revision, leases with TTLs and
 * keep-alives, and the concurrency.Mutex lock: a lease-bound key whose create revision orders the
 * waiters and fences the holder.
 *
 * Writes are proposed at the leader (a member forwards them) and answered by the member the client
 * talks to once it has applied them. Reads are linearizable by default: the member asks the leader
 * for a read index (ReadIndex, thesis §6.4; the leader confirms its leadership with a heartbeat
 * round), waits until it has applied that index, then answers from its own store. Serializable
 * reads answer from the member's store at once — fast, and possibly stale.
 */

interface CmdEntry extends RaftEntry {
  readonly kind: 'noop' | 'cmd';
  readonly cmd?: Routed;
}

type Server = RaftServer<CmdEntry, CoordStore>;

/** ReadIndex forwarding between members (etcd's MsgReadIndex / MsgReadIndexResp). */
type ReadIndexMsg = { c: 'ri'; client: NodeId; reqId: number } | { c: 'rir'; client: NodeId; reqId: number; index: number };

interface MemberReads {
  /** Reads this member serves once it has applied `index` (null: waiting for the leader's index). */
  waiting: Array<{ client: NodeId; reqId: number; key: string; index: number | null }>;
}

/** etcd's defaults (--heartbeat-interval 100, --election-timeout 1000; raft randomises in [T, 2T)). */
const HEARTBEAT_MS = 100;
const ELECTION_MS: [number, number] = [1000, 2000];

export class EtcdService extends CoordServiceBase {
  private readonly raft: RaftGroup<CmdEntry, CoordStore>;
  private readonly mr = new Map<NodeId, MemberReads>();
  /** After a restart: the log length it had (entries it re-applies, without answering clients again). */
  private readonly replayUpTo = new Map<NodeId, number>();

  constructor(ctx: CoordContext, cfg: CoordinationConfig) {
    super(ctx, cfg);
    this.raft = new RaftGroup<CmdEntry, CoordStore>(
      ctx,
      ctx.coord,
      { electionTimeoutMs: ELECTION_MS, heartbeatMs: HEARTBEAT_MS, leaseReads: false, leaderNoop: true, checkQuorum: true, preVote: true, fsyncMs: cfg.fsyncMs },
      {
        machine: () => new CoordStore('etcd'),
        noop: (term) => ({ term, kind: 'noop' }),
        entryBytes: (e) => (e.cmd && e.cmd.op === 'create' ? e.cmd.key.length + e.cmd.value.length : e.cmd && e.cmd.op === 'put' ? e.cmd.key.length + e.cmd.value.length : 0),
        apply: (s, i, e) => {
          if (e.kind === 'cmd' && e.cmd) this.applied(s.id, e.cmd, undefined, i <= (this.replayUpTo.get(s.id) ?? 0));
          this.serveWaiting(s);
        },
        answerRead: (s, r) => this.readIndexReady(s, r),
        elected: (s) => this.becameLeader(s.id),
      },
    );
    for (const id of ctx.coord) this.mr.set(id, { waiting: [] });
  }

  protected startReplication(): void {
    this.raft.bootstrap(this.ctx.coord[0]);
  }

  protected isLeader(s: NodeId): boolean {
    return this.raft.get(s)!.v.role === 'leader';
  }

  /**
   * An etcd member keeps its clients' connections whatever its Raft state: a request to a member cut
   * off from its leader waits (and a linearizable read waits for the leader's read index) rather
   * than failing over; clients move only when the member stops answering at all.
   */
  protected serving(_s: NodeId): boolean {
    return true;
  }

  protected leaderOf(s: NodeId): NodeId | null {
    return this.raft.get(s)!.v.leaderId;
  }

  protected propose(s: NodeId, cmd: Routed): void {
    const srv = this.raft.get(s)!;
    this.raft.propose(srv, { term: srv.p.currentTerm, kind: 'cmd', cmd });
  }

  protected storeOf(s: NodeId): CoordStore {
    return this.raft.get(s)!.x.sm;
  }

  // ---------------------------------------------------------------- reads

  protected read(s: NodeId, client: NodeId, reqId: number, key: string): void {
    if (this.readMode === 'serializable') return this.answerRead(s, client, reqId, key);
    const srv = this.raft.get(s)!;
    const waiting = this.mr.get(s)!.waiting;
    if (!waiting.some((w) => w.client === client && w.reqId === reqId)) waiting.push({ client, reqId, key, index: null });
    if (srv.v.role === 'leader') return this.raft.read(srv, client, reqId);
    const leader = srv.v.leaderId;
    if (leader !== null && leader !== s) this.ctx.send(s, leader, 'coord', { c: 'ri', client, reqId } satisfies ReadIndexMsg, 0);
  }

  /** The leader confirmed a read index: its own read waits for its apply; a member's gets the index. */
  private readIndexReady(s: Server, r: PendingRead): void {
    if (r.via !== undefined) {
      this.ctx.send(s.id, r.via, 'coord', { c: 'rir', client: r.worker, reqId: r.readId, index: r.readIndex! } satisfies ReadIndexMsg, 0);
      return;
    }
    this.setIndex(s, r.worker, r.readId, r.readIndex!);
  }

  private setIndex(s: Server, client: NodeId, reqId: number, index: number): void {
    const w = this.mr.get(s.id)!.waiting.find((x) => x.client === client && x.reqId === reqId);
    if (w) w.index = index;
    this.serveWaiting(s);
  }

  private serveWaiting(s: Server): void {
    const m = this.mr.get(s.id)!;
    if (m.waiting.length === 0) return;
    m.waiting = m.waiting.filter((w) => {
      if (w.index === null || s.v.lastApplied < w.index) return true;
      this.answerRead(s.id, w.client, w.reqId, w.key);
      return false;
    });
  }

  // ---------------------------------------------------------------- replication plumbing

  protected onReplicationMessage(msg: Message): boolean {
    if (this.raft.onMessage(msg.to, msg.from, msg.payload)) return true;
    const m = msg.payload as ReadIndexMsg;
    const s = this.raft.get(msg.to)!;
    if (m.c === 'ri') {
      if (s.v.role === 'leader') this.raft.read(s, m.client, m.reqId, msg.from);
      return true;
    }
    if (m.c === 'rir') {
      this.setIndex(s, m.client, m.reqId, m.index);
      return true;
    }
    return false;
  }

  protected onReplicationTimer(node: NodeId, tag: string, data: unknown): boolean {
    return this.raft.onTimer(node, tag, data);
  }

  protected crashReplication(node: NodeId): void {
    this.raft.onCrash(node);
    this.mr.set(node, { waiting: [] });
  }

  protected restartReplication(node: NodeId): void {
    this.replayUpTo.set(node, lastIndex(this.raft.get(node)!.p));
    this.raft.onRestart(node);
  }

  protected replicationInvariants(): Array<{ invariant: string; detail: string }> {
    return this.raft.checker.drain();
  }

  protected replicationFacts(s: NodeId): ReplicationFacts {
    const srv = this.raft.get(s)!;
    return { role: srv.v.role, term: srv.p.currentTerm, leader: srv.v.leaderId, commit: srv.v.commitIndex };
  }

  protected replicationMetric(name: string, node?: NodeId): number | null | undefined {
    return this.raft.metric(name, node);
  }

  leader(): NodeId | null {
    return this.raft.leader()?.id ?? null;
  }

  linearizableReads(): boolean {
    return this.readMode === 'linearizable';
  }

  logOf(node: NodeId): NodeLog<CmdEntry> | null {
    const s = this.raft.get(node);
    return s ? { base: s.p.snapIndex + 1, entries: s.p.log, item: logItem } : null;
  }
}

function logItem(e: CmdEntry): LogItem {
  if (e.kind === 'noop' || !e.cmd) return { term: e.term, kind: 'noop' };
  return 'client' in e.cmd ? { term: e.term, kind: 'record', worker: e.cmd.client } : { term: e.term, kind: 'record' };
}
