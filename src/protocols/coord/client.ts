import type { NodeId } from '../../sim/types';
import type { ClientFacts, CoordClient, CoordContext } from './api';
import { CLIENT_TIMER } from './api';
import type { CoordinationConfig } from './config';
import { bytesOfOp, type ClientMsg, type ClientOp, type Reply, type ServerMsg } from './messages';

/**
 * The client library inside each worker process: an etcd clientv3 with its lease and keep-alive,
 * or a ZooKeeper handle with its session and pings. It talks to one server at a time (the one the
 * scenario binds its session to); when that server stops answering pings for two thirds of the
 * lease TTL it moves to the next one, and resends what was pending (requests carry ids, so the
 * state machine applies each once).
 *
 * The lock recipe is the standard one (etcd concurrency.Mutex; ZooKeeper's lock recipe): join the
 * queue with a key bound to the lease, wait until it is the oldest, then hold it until unlock or
 * until the lease ends. The client learns that the lease ended only from its server (a ping's
 * answer) — a paused process learns nothing until it runs again, and its application, which asked
 * for the lock long ago, never asks again: it goes on believing it holds it.
 */

interface ClientState {
  readonly id: NodeId;
  /** Kept across a crash (small durable counters), so request and lease ids stay unique. */
  reqSeq: number;
  leaseSeq: number;
  // Volatile.
  server: NodeId;
  lease: number;
  session: 'none' | 'connecting' | 'ok';
  lastHeard: number;
  pending: Map<number, { op: ClientOp; since: number }>;
  lock: { name: string; state: 'asking' | 'waiting' | 'held'; token?: number } | null;
  /** create() calls waiting for the session, with the application's request ids. */
  queued: Array<{ op: ClientOp; appId: number }>;
  /** Observer bookkeeping of the metadata read in flight: the newest committed version when it began. */
  read: { reqId: number; opId: number; floor: number; key: string } | null;
  /** App request ids of create() calls, by client request id. */
  appIds: Map<number, number>;
}

export interface ClientHooks {
  /** The newest version of `key` committed anywhere (observer: the floor of a stale-read check). */
  committedVersion(key: string): number;
  /** A metadata read came back (the service counts stale ones). */
  metaRead(worker: NodeId, server: NodeId, key: string, r: Extract<Reply, { t: 'value' }>, floor: number, opId: number): void;
}

export class CoordClients implements CoordClient {
  readonly service: CoordinationConfig['service'];
  private readonly c = new Map<NodeId, ClientState>();
  private readonly pingMs: number;
  private readonly failoverMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly ctx: CoordContext,
    private readonly cfg: CoordinationConfig,
    private readonly hooks: ClientHooks,
  ) {
    this.service = cfg.service;
    // ZooKeeper pings at a third of the session timeout and gives a server two thirds before it
    // moves on; etcd's keep-alive also runs at a third of the TTL.
    this.pingMs = cfg.leaseTtlMs / 3;
    this.failoverMs = (2 * cfg.leaseTtlMs) / 3;
    this.retryMs = Math.max(2000, 2 * cfg.leaseTtlMs);
    ctx.workers.forEach((w, i) => this.c.set(w, fresh(w, this.initialServer(w, i), 0, 0)));
  }

  private initialServer(w: NodeId, i: number): NodeId {
    return this.cfg.sessions[w] ?? this.ctx.coord[i % this.ctx.coord.length];
  }

  start(): void {
    for (const s of this.c.values()) this.connect(s);
    if (this.cfg.readMeta) {
      const every = this.cfg.readMeta.everyMs;
      this.ctx.workers.forEach((w, i) => this.ctx.setTimer(w, every * (1 + i / (4 * this.ctx.workers.length)), `${CLIENT_TIMER}meta`));
    }
  }

  private st(w: NodeId): ClientState {
    return this.c.get(w)!;
  }

  // ---------------------------------------------------------------- the session

  /** Opens a new lease / session on the current server. */
  private connect(s: ClientState): void {
    s.lease = (this.ctx.workers.indexOf(s.id) + 1) * 100_000 + ++s.leaseSeq;
    s.session = 'connecting';
    s.lastHeard = this.ctx.now();
    this.request(s, { t: 'open', lease: s.lease, ttlMs: this.cfg.leaseTtlMs });
    this.ctx.setTimer(s.id, this.pingMs, `${CLIENT_TIMER}ping`, s.lease);
    this.ctx.touch(s.id);
  }

  private request(s: ClientState, op: ClientOp): number {
    const reqId = ++s.reqSeq;
    s.pending.set(reqId, { op, since: this.ctx.now() });
    this.transmit(s, reqId, op);
    return reqId;
  }

  private transmit(s: ClientState, reqId: number, op: ClientOp): void {
    this.ctx.send(s.id, s.server, 'coord', { c: 'req', reqId, op } satisfies ClientMsg, bytesOfOp(op));
    this.ctx.setTimer(s.id, this.retryMs, `${CLIENT_TIMER}retry`, reqId);
  }

  private onPingTimer(s: ClientState, lease: unknown): void {
    if (lease !== s.lease || s.session === 'none') return;
    if (this.ctx.now() - s.lastHeard >= this.failoverMs) this.failover(s);
    else this.watch(s);
    this.ctx.send(s.id, s.server, 'coord', { c: 'ping', lease: s.lease } satisfies ClientMsg, 0);
    this.ctx.setTimer(s.id, this.pingMs, `${CLIENT_TIMER}ping`, s.lease);
  }

  /**
   * Its place in a lock's queue is watched by the server it talks to. The watch is (re)registered
   * with every keep-alive while it waits — after a failover with the new server, as ZooKeeper
   * clients re-send their watches on reconnect — always for its current key, so a grant lost on the
   * way is sent again and an old watch never replaces the current one. Not a request: nothing to retry.
   */
  private watch(s: ClientState): void {
    if (s.lock?.state !== 'waiting' || s.lock.token === undefined || s.session !== 'ok') return;
    this.ctx.send(s.id, s.server, 'coord', { c: 'req', reqId: 0, op: { t: 'watch', lease: s.lease, name: s.lock.name, token: s.lock.token } } satisfies ClientMsg, 0);
  }

  /** Its server has been silent too long: the next one in the list, and everything pending again. */
  private failover(s: ClientState): void {
    const ids = this.ctx.coord;
    const next = ids[(ids.indexOf(s.server) + 1) % ids.length];
    if (next === s.server) return;
    this.ctx.note('coordFailover', s.id, { from: s.server, to: next });
    s.server = next;
    s.lastHeard = this.ctx.now();
    for (const [reqId, p] of s.pending) this.transmit(s, reqId, p.op);
    this.watch(s);
    this.ctx.touch(s.id);
  }

  /** The lease ended (the server said so): locks are gone; the application is told; a new session opens. */
  private lost(s: ClientState): void {
    this.ctx.note('sessionLost', s.id, { lease: s.lease });
    s.lock = null;
    for (const [reqId, p] of s.pending) if (p.op.t === 'lock' || p.op.t === 'unlock' || p.op.t === 'open') s.pending.delete(reqId);
    this.connect(s);
    // The application decides what to do (ask for the lock again, or — the naive recipe — carry on).
    this.ctx.toApp(s.id, { t: 'sessionLost' });
  }

  // ---------------------------------------------------------------- the API strategies call

  lock(worker: NodeId, name: string): void {
    const s = this.st(worker);
    if (s.lock?.name === name) return;
    s.lock = { name, state: 'asking' };
    if (s.session === 'ok') this.request(s, { t: 'lock', lease: s.lease, name });
    this.ctx.touch(worker);
  }

  unlock(worker: NodeId, name: string): void {
    const s = this.st(worker);
    if (s.lock?.name !== name) return;
    const token = s.lock.token;
    s.lock = null;
    this.dropPending(s, 'lock', name); // a request still unanswered would create a key nobody wants
    if (s.session === 'ok') this.request(s, token === undefined ? { t: 'unlock', lease: s.lease, name } : { t: 'unlock', lease: s.lease, name, token });
    this.ctx.touch(worker);
  }

  /** Deletes a key of this session it does not want (only that key: the unlock names its token). */
  private release(s: ClientState, name: string, token: number): void {
    if (s.session === 'ok') this.request(s, { t: 'unlock', lease: s.lease, name, token });
  }

  private dropPending(s: ClientState, t: 'lock', name: string): void {
    for (const [reqId, p] of s.pending) if (p.op.t === t && p.op.name === name) s.pending.delete(reqId);
  }

  create(worker: NodeId, key: string, value: string, appId: number): void {
    const s = this.st(worker);
    const op: ClientOp = { t: 'create', key, value };
    if (s.session !== 'ok') {
      s.queued.push({ op, appId });
      return;
    }
    s.appIds.set(this.request(s, op), appId);
  }

  facts(worker: NodeId): ClientFacts | null {
    const s = this.c.get(worker);
    if (!s || !this.ctx.isUp(worker)) return null;
    const f: ClientFacts = { server: s.server, session: s.session, lease: s.session === 'none' ? 0 : s.lease };
    if (s.lock) f.lock = s.lock.state === 'held' && s.lock.token !== undefined ? { name: s.lock.name, state: 'held', token: s.lock.token } : { name: s.lock.name, state: 'waiting' };
    return f;
  }

  // ---------------------------------------------------------------- messages and timers

  onMessage(worker: NodeId, from: NodeId, m: ServerMsg): void {
    const s = this.c.get(worker);
    if (!s || s.session === 'none') return;
    if (from === s.server) s.lastHeard = this.ctx.now();
    switch (m.c) {
      case 'pong':
        if (m.lease === s.lease && m.alive === 'no' && s.session === 'ok') this.lost(s);
        return;
      case 'granted':
        if (m.lease !== s.lease) return;
        // A key it no longer wants (a late or retried request created it): release it, or it would
        // hold the lock for nobody until the lease ends (Curator deletes such orphans too).
        if (s.lock?.name !== m.name || (s.lock.token !== undefined && s.lock.token !== m.token)) return this.release(s, m.name, m.token);
        if (s.lock.state === 'held') return;
        s.lock = { name: m.name, state: 'held', token: m.token };
        this.dropPending(s, 'lock', m.name);
        this.ctx.note('lockAcquired', worker, { lock: m.name, token: m.token });
        this.ctx.toApp(worker, { t: 'lockAcquired', lock: m.name, token: m.token });
        return;
      case 'res':
        return this.onReply(s, from, m.reqId, m.r);
    }
  }

  private onReply(s: ClientState, from: NodeId, reqId: number, r: Reply): void {
    const p = s.pending.get(reqId);
    if (!p) return; // a duplicate, or an answer to an abandoned request
    s.pending.delete(reqId);
    const op = p.op;
    if (r.t === 'noLease') {
      if (op.t !== 'open' && 'lease' in op && op.lease === s.lease && s.session === 'ok') this.lost(s);
      return;
    }
    switch (op.t) {
      case 'open':
        if (op.lease !== s.lease) return;
        s.session = 'ok';
        if (s.lock?.state === 'asking') this.request(s, { t: 'lock', lease: s.lease, name: s.lock.name });
        for (const q of s.queued) s.appIds.set(this.request(s, q.op), q.appId);
        s.queued = [];
        return;
      case 'lock':
        if (r.t !== 'queued' || op.lease !== s.lease) return;
        if (s.lock?.name === op.name && s.lock.state === 'asking') s.lock = { name: op.name, state: 'waiting', token: r.token };
        else if (s.lock?.token !== r.token) this.release(s, op.name, r.token); // an orphan of an earlier request
        return;
      case 'create': {
        const appId = s.appIds.get(reqId);
        s.appIds.delete(reqId);
        if (appId === undefined) return;
        if (r.t === 'created') this.ctx.toApp(s.id, { t: 'created', reqId: appId, key: op.key, token: r.token });
        else if (r.t === 'exists') this.ctx.toApp(s.id, { t: 'exists', reqId: appId, key: op.key, value: r.value });
        return;
      }
      case 'get':
        if (r.t === 'value' && s.read?.reqId === reqId) {
          this.hooks.metaRead(s.id, from, op.key, r, s.read.floor, s.read.opId);
          s.read = null;
        }
        return;
      default:
        return;
    }
  }

  onTimer(worker: NodeId, tag: string, data: unknown): void {
    const s = this.c.get(worker);
    if (!s) return;
    const t = tag.slice(CLIENT_TIMER.length);
    if (t === 'ping') return this.onPingTimer(s, data);
    if (t === 'retry') {
      const p = s.pending.get(data as number);
      if (p && s.session !== 'none') this.transmit(s, data as number, p.op); // lost on the way: ask again (applied once)
      return;
    }
    if (t === 'meta' && this.cfg.readMeta) {
      this.ctx.setTimer(worker, this.cfg.readMeta.everyMs, `${CLIENT_TIMER}meta`);
      // One read at a time. A ZooKeeper read needs an established session; an etcd read needs no lease.
      if (s.read || (this.service === 'zookeeper' ? s.session !== 'ok' : s.session === 'none')) return;
      const key = this.cfg.readMeta.key;
      const opId = this.ctx.op(worker, 'invoke', 'read', key);
      const reqId = this.request(s, { t: 'get', key });
      s.read = { reqId, opId, floor: this.hooks.committedVersion(key), key };
    }
  }

  onCrash(worker: NodeId): void {
    const s = this.c.get(worker);
    if (!s) return;
    if (s.read) this.ctx.op(worker, 'info', 'read', s.read.key, s.read.opId);
    // The process and its handle are gone; the lease lives on at the servers until it expires.
    this.c.set(worker, fresh(worker, s.server, s.reqSeq, s.leaseSeq));
  }

  onRestart(worker: NodeId): void {
    const s = this.c.get(worker);
    if (s) this.connect(s);
  }
}

function fresh(id: NodeId, server: NodeId, reqSeq: number, leaseSeq: number): ClientState {
  return { id, reqSeq, leaseSeq, server, lease: 0, session: 'none', lastHeard: 0, pending: new Map(), lock: null, queued: [], read: null, appIds: new Map() };
}
