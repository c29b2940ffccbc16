import type { Message, NodeId } from '../../sim/types';
import type { CoordServerFacts, NodeFacts, NodeLog } from '../facts';
import type { CoordContext, CoordServiceRuntime } from './api';
import { CLIENT_TIMER } from './api';
import { CoordClients } from './client';
import type { CoordinationConfig, ReadMode } from './config';
import { readModeOf } from './readMode';
import type { ClientMsg, PeerMsg, ReadResult, Reply, Routed, ServerMsg } from './messages';
import { LOCK_PREFIX, type Cmd, type CmdResult, type CoordStore } from './store';

/**
 * What both coordination services do the same way, above their replication protocol: serve the
 * clients (requests, pings, lock grants), track leases/sessions at the leader and expire them,
 * forward writes to the leader, and keep the observer's books (committed metadata versions for the
 * stale-read check, the order of lock tokens, operations for the linearizability check). The etcd
 * and ZooKeeper subclasses supply replication (Raft, Zab) and their read paths.
 */

export interface ReplicationFacts {
  role: CoordServerFacts['role'];
  term: number;
  leader: NodeId | null;
  commit: number;
}

/** Per-server state the service layer keeps (volatile: a crash loses it). */
interface ServerSide {
  /** Clients waiting here for a lock (by lease): granted when their key (by token) is the oldest under the lock. */
  waiters: Map<number, { client: NodeId; name: string; token: number }>;
  /** Leader: when each lease was last touched (a ping here, or a follower's report). */
  touched: Map<number, number>;
  /** Leader: leases it has proposed to close. */
  closing: Set<number>;
  /** Leadership token of the running expiry timer (ignore timers of an earlier leadership). */
  leading: number;
}

export abstract class CoordServiceBase implements CoordServiceRuntime {
  readonly client: CoordClients;
  readonly service: CoordinationConfig['service'];
  protected readonly reads: ReadMode;
  private readonly side = new Map<NodeId, ServerSide>();
  private readonly leaseTickMs: number;
  // Observer bookkeeping (metrics, invariants, checker operations); the protocol never reads it.
  private readonly committedMeta = new Map<string, number>();
  private readonly staleReads = new Map<NodeId, number>();
  private readonly holderToken = new Map<string, number>();
  private appliedAnywhere = 0;
  private readonly found: Array<{ invariant: string; detail: string }> = [];
  private leaderships = 0;

  constructor(
    protected readonly ctx: CoordContext,
    protected readonly cfg: CoordinationConfig,
  ) {
    this.service = cfg.service;
    this.reads = readModeOf(cfg);
    this.leaseTickMs = Math.min(100, cfg.leaseTtlMs / 4);
    for (const id of ctx.coord) this.side.set(id, freshSide());
    this.client = new CoordClients(ctx, cfg, {
      committedVersion: (key) => this.committedMeta.get(key) ?? 0,
      metaRead: (worker, server, key, r, floor, opId) => this.onMetaRead(worker, server, key, r, floor, opId),
    });
  }

  // ---------------------------------------------------------------- what the replication layer supplies

  protected abstract isLeader(s: NodeId): boolean;
  /**
   * Whether `s` serves clients now. A server out of its quorum does not (ZooKeeper closes client
   * connections while it looks for a leader): its clients hear no pings and move to another server.
   */
  protected abstract serving(s: NodeId): boolean;
  /** Whom `s` believes leads (null: nobody known). */
  protected abstract leaderOf(s: NodeId): NodeId | null;
  /** `s` leads: append the command to the log and replicate it. */
  protected abstract propose(s: NodeId, cmd: Routed): void;
  /** Serve a read of `key` at `s` for `client` per the read mode; answer with `answerRead`. */
  protected abstract read(s: NodeId, client: NodeId, reqId: number, key: string): void;
  protected abstract storeOf(s: NodeId): CoordStore;
  protected abstract replicationFacts(s: NodeId): ReplicationFacts;
  protected abstract startReplication(): void;
  /** A message between servers of the replication protocol; false if it is not one. */
  protected abstract onReplicationMessage(msg: Message): boolean;
  protected abstract onReplicationTimer(node: NodeId, tag: string, data: unknown): boolean;
  protected abstract crashReplication(node: NodeId): void;
  protected abstract restartReplication(node: NodeId): void;
  protected abstract replicationInvariants(): Array<{ invariant: string; detail: string }>;
  abstract leader(): NodeId | null;
  abstract logOf(node: NodeId): NodeLog | null;
  abstract linearizableReads(): boolean;
  /** Replication metrics (leaders, term, commitIndex …). */
  protected abstract replicationMetric(name: string, node?: NodeId): number | null | undefined;

  // ---------------------------------------------------------------- lifecycle

  start(): void {
    this.startReplication();
    this.client.start();
  }

  onMessage(msg: Message): void {
    const toCoord = this.side.has(msg.to);
    if (!toCoord) return this.client.onMessage(msg.to, msg.from, msg.payload as ServerMsg);
    if (this.onReplicationMessage(msg)) return;
    const m = msg.payload as ClientMsg | PeerMsg;
    if (this.side.has(msg.from)) return this.onPeer(msg.to, msg.from, m as PeerMsg);
    return this.onClient(msg.to, msg.from, m as ClientMsg, msg.bytes);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (tag.startsWith(CLIENT_TIMER)) return this.client.onTimer(node, tag, data);
    if (this.onReplicationTimer(node, tag, data)) return;
    if (tag === 'leases') return this.onLeaseTimer(node, data);
    if (tag === 'putMeta') return this.onPutMeta(node, data as { key: string; value: string; opId: number });
  }

  onCrash(node: NodeId): void {
    if (!this.side.has(node)) return this.client.onCrash(node);
    this.side.set(node, freshSide());
    this.crashReplication(node);
  }

  onRestart(node: NodeId): void {
    if (!this.side.has(node)) return this.client.onRestart(node);
    this.restartReplication(node);
  }

  // ---------------------------------------------------------------- clients at a server

  private onClient(s: NodeId, from: NodeId, m: ClientMsg, bytes: number): void {
    // Out of its quorum a server answers nothing (ZooKeeper drops its client connections): its clients move on.
    if (!this.serving(s)) return;
    if (m.c === 'ping') return this.onClientPing(s, from, m.lease);
    const op = m.op;
    if (bytes > this.cfg.maxRequestBytes) {
      this.ctx.note('requestTooLarge', s, { from, bytes, limit: this.cfg.maxRequestBytes });
      return this.answer(s, from, m.reqId, { t: 'tooLarge', bytes, limit: this.cfg.maxRequestBytes });
    }
    if (op.t === 'get') return this.read(s, from, m.reqId, op.key);
    if (op.t === 'watch') {
      this.side.get(s)!.waiters.set(op.lease, { client: from, name: op.name, token: op.token });
      return this.grantWaiters(s);
    }
    const cmd: Routed = { ...toCmd(op, from, m.reqId), via: s, reqId: m.reqId };
    this.submit(s, cmd);
  }

  /** A write goes to the leader: proposed here if this server leads, else forwarded (dropped if no leader is known: the client retries). */
  private submit(s: NodeId, cmd: Routed): void {
    if (this.isLeader(s)) return this.propose(s, cmd);
    const leader = this.leaderOf(s);
    if (leader !== null && leader !== s) this.ctx.send(s, leader, 'coord', { c: 'fwd', cmd } satisfies PeerMsg, 0);
  }

  private onClientPing(s: NodeId, from: NodeId, lease: number): void {
    const store = this.storeOf(s);
    const alive = store.leases.has(lease) ? 'yes' : store.closed.has(lease) ? 'no' : 'unknown';
    this.ctx.send(s, from, 'coord', { c: 'pong', lease, alive } satisfies ServerMsg, 0);
    if (alive === 'no') return;
    if (this.isLeader(s)) this.side.get(s)!.touched.set(lease, this.ctx.now());
    else {
      const leader = this.leaderOf(s);
      if (leader !== null && leader !== s) this.ctx.send(s, leader, 'coord', { c: 'touch', lease } satisfies PeerMsg, 0);
    }
  }

  private onPeer(s: NodeId, _from: NodeId, m: PeerMsg): void {
    if (m.c === 'fwd') {
      if (this.isLeader(s)) this.propose(s, m.cmd);
      return;
    }
    if (m.c === 'touch' && this.isLeader(s)) this.side.get(s)!.touched.set(m.lease, this.ctx.now());
  }

  protected answer(s: NodeId, client: NodeId, reqId: number, r: Reply): void {
    this.ctx.send(s, client, 'coord', { c: 'res', reqId, r } satisfies ServerMsg, r.t === 'value' && r.value ? r.key.length + r.value.length : 0);
  }

  /** A read at `s` is ready: answer from its applied state. */
  protected answerRead(s: NodeId, client: NodeId, reqId: number, key: string): void {
    const rec = this.storeOf(s).keys.get(key);
    const r: ReadResult = { t: 'value', key, value: rec?.value ?? null, version: rec?.version ?? 0, modId: rec?.modId ?? 0 };
    this.answer(s, client, reqId, r);
  }

  // ---------------------------------------------------------------- the leader's lease / session tracker

  /** `s` became leader: every lease counts as touched now (etcd's Promote; ZooKeeper re-touches sessions), and the expiry check starts. */
  protected becameLeader(s: NodeId): void {
    const side = this.side.get(s)!;
    const now = this.ctx.now();
    side.touched = new Map();
    for (const lease of this.storeOf(s).leases.keys()) side.touched.set(lease, now);
    side.closing = new Set();
    side.leading = ++this.leaderships;
    this.ctx.setTimer(s, this.leaseTickMs, 'leases', side.leading);
  }

  private onLeaseTimer(s: NodeId, token: unknown): void {
    const side = this.side.get(s)!;
    if (token !== side.leading || !this.isLeader(s)) return;
    const now = this.ctx.now();
    const store = this.storeOf(s);
    for (const [lease, rec] of store.leases) {
      if (side.closing.has(lease)) continue;
      const last = side.touched.get(lease);
      if (last === undefined) {
        side.touched.set(lease, now); // opened after this leader took over
        continue;
      }
      if (now - last <= rec.ttlMs) continue;
      side.closing.add(lease);
      this.ctx.note('leaseExpired', rec.client, { lease, server: s });
      this.propose(s, { op: 'close', lease });
    }
    this.ctx.setTimer(s, this.leaseTickMs, 'leases', token);
  }

  // ---------------------------------------------------------------- putMeta (the trainer writes through the leader)

  putMeta(key: string, value: string): boolean {
    const leader = this.leader();
    if (leader === null) return false;
    const opId = this.ctx.op('putMeta', 'invoke', 'update', key);
    // A 0 ms timer on the leader: a paused leader takes the request when it resumes.
    this.ctx.setTimer(leader, 0, 'putMeta', { key, value, opId });
    return true;
  }

  private onPutMeta(s: NodeId, d: { key: string; value: string; opId: number }): void {
    if (this.isLeader(s)) this.propose(s, { op: 'put', key: d.key, value: d.value, opId: d.opId });
    else this.ctx.op('putMeta', 'fail', 'update', d.key, d.opId); // it lost leadership meanwhile: refused
  }

  // ---------------------------------------------------------------- applying committed commands

  /**
   * The replication layer applied a committed command at `s` (`firstAnywhere`: no server applied
   * this log position before, i.e. it has just committed). Answers the client whose request came
   * through `s`, grants locks to clients waiting here, and keeps the observer's books. `replay`:
   * a restarted server re-applying entries it had logged before its crash.
   */
  protected applied(s: NodeId, cmd: Routed, zxid?: number, replay = false): void {
    const store = this.storeOf(s);
    const { result, deleted } = store.apply(cmd, zxid);
    const firstAnywhere = store.applied > this.appliedAnywhere;
    if (firstAnywhere) {
      this.appliedAnywhere = store.applied;
      this.observeCommit(s, cmd, result, store);
    }
    // A restarted server re-applies its log: the answers for those entries went out (or were lost)
    // in its previous life; its clients have moved on or retry.
    if (!replay && cmd.via === s && 'client' in cmd && cmd.reqId !== undefined) {
      this.answer(s, cmd.client, cmd.reqId, result);
      if (cmd.op === 'lock' && result.t === 'queued') this.side.get(s)!.waiters.set(cmd.lease, { client: cmd.client, name: cmd.name, token: result.token });
    }
    if (cmd.op === 'close') this.side.get(s)!.touched.delete(cmd.lease);
    if (deleted.length > 0 || cmd.op === 'lock') this.grantWaiters(s);
  }

  /** A waiting client whose key is now the oldest under its lock holds the lock (the watch on its predecessor fired). */
  private grantWaiters(s: NodeId): void {
    const side = this.side.get(s)!;
    const store = this.storeOf(s);
    for (const [lease, w] of side.waiters) {
      const queue = store.lockQueue(w.name);
      if (!queue.some((e) => e.token === w.token)) {
        // Gone (released, or its lease ended) — or not applied here yet (a lagging server keeps waiting).
        if (store.closed.has(lease) || w.token <= store.rev) side.waiters.delete(lease);
        continue;
      }
      const head = queue[0];
      if (head.token !== w.token) continue;
      side.waiters.delete(lease);
      this.ctx.send(s, w.client, 'coord', { c: 'granted', name: w.name, lease, token: head.token } satisfies ServerMsg, 0);
    }
  }

  /** Observer, at the commit of each log position: metadata versions, the lock-token order, checker operations. */
  private observeCommit(s: NodeId, cmd: Routed, result: CmdResult, store: CoordStore): void {
    if (cmd.op === 'put' && result.t === 'put') {
      this.committedMeta.set(cmd.key, result.version);
      this.ctx.op('putMeta', 'ok', 'update', cmd.key, cmd.opId, result.version);
      this.ctx.note('metaWritten', s, { key: cmd.key, version: result.version, value: cmd.value });
    }
    // Fencing tokens: each lock's successive holders carry strictly increasing tokens.
    for (const name of store.lockNames()) {
      const head = store.lockQueue(name)[0];
      const last = this.holderToken.get(name);
      if (!head || head.token === last) continue;
      if (last !== undefined && head.token < last) this.found.push({ invariant: 'fencing-token-order', detail: `lock ${name}: holder token ${head.token} after ${last}` });
      this.holderToken.set(name, head.token);
    }
  }

  private onMetaRead(worker: NodeId, server: NodeId, key: string, r: ReadResult, floor: number, opId: number): void {
    const stale = r.version < floor;
    if (stale) {
      this.staleReads.set(worker, (this.staleReads.get(worker) ?? 0) + 1);
      this.ctx.note('staleRead', worker, { version: r.version, newest: floor, server, key });
    }
    this.ctx.note('metaRead', worker, { key, version: r.version, value: r.value, server, stale });
    this.ctx.op(worker, 'ok', 'read', key, opId, r.version);
  }

  // ---------------------------------------------------------------- views, metrics, invariants

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    const cs = this.ctx.coord;
    this.ctx.workers.forEach((w, i) => edges.push([w, this.cfg.sessions[w] ?? cs[i % cs.length]]));
    for (let i = 0; i < cs.length; i++) for (let j = i + 1; j < cs.length; j++) edges.push([cs[i], cs[j]]);
    return edges;
  }

  facts(node: NodeId): NodeFacts | null {
    if (!this.side.has(node)) return null;
    const store = this.storeOf(node);
    const locks: CoordServerFacts['locks'] = [];
    for (const name of store.lockNames()) {
      const q = store.lockQueue(name);
      if (q.length) locks.push({ name, holder: q[0].client, token: q[0].token, waiting: q.slice(1).map((e) => e.client) });
    }
    const meta: CoordServerFacts['meta'] = [];
    for (const [key, rec] of store.keys) if (!key.startsWith(LOCK_PREFIX)) meta.push({ key, version: rec.version });
    return {
      kind: 'coord-server',
      service: this.service,
      ...this.replicationFacts(node),
      revision: store.rev,
      leases: [...store.leases].map(([id, l]) => ({ id, owner: l.client })),
      locks,
      meta: meta.sort((a, b) => (a.key < b.key ? -1 : 1)),
    };
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    if (name === 'staleReads') {
      if (!node) return sum(this.staleReads.values());
      return this.ctx.workers.includes(node) ? (this.staleReads.get(node) ?? 0) : null;
    }
    if (node !== undefined && !this.side.has(node)) return undefined;
    return this.replicationMetric(name, node);
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    const out = [...this.found, ...this.replicationInvariants()];
    this.found.length = 0;
    return out;
  }

  /** The read mode in force (the subclasses' read paths branch on it). */
  protected get readMode(): ReadMode {
    return this.reads;
  }
}

function freshSide(): ServerSide {
  return { waiters: new Map(), touched: new Map(), closing: new Set(), leading: 0 };
}

function toCmd(op: Extract<ClientMsg, { c: 'req' }>['op'], client: NodeId, reqId: number): Cmd {
  switch (op.t) {
    case 'open':
      return { op: 'open', client, lease: op.lease, ttlMs: op.ttlMs };
    case 'lock':
      return { op: 'lock', client, reqId, lease: op.lease, name: op.name };
    case 'unlock':
      return op.token === undefined ? { op: 'unlock', client, reqId, lease: op.lease, name: op.name } : { op: 'unlock', client, reqId, lease: op.lease, name: op.name, token: op.token };
    case 'create':
      return { op: 'create', client, reqId, key: op.key, value: op.value };
    case 'get':
    case 'watch':
      throw new Error(`"${op.t}" is not a command`); // reads and watches never enter the log
  }
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}
