import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import type { CoordEvent } from './coord/api';
import type { NodeFacts } from './facts';
import type { PsAsyncConfig } from './psAsyncKnobs';
import { ParamStore, type StoreState } from './psStore';
import type { Strategy, StrategyContext, StepResult } from './strategy';
import type { WireCodec } from './wire';

/**
 * ps-async with read-modify-write writers (CURRICULUM L11; answer B's recipe): a worker
 *   1. takes the lock from the coordination service (writeLock "lease"; skipped with "none"),
 *   2. reads the parameters from the server,
 *   3. computes one gradient on them,
 *   4. writes back — the whole vector (writeMode "set") or the gradient ("add"),
 *   5. releases the lock, and starts over.
 *
 * The lock is a lease: a holder that stops renewing it (a crash, a GC pause, a cut) loses it after
 * the TTL, and the next waiter gets it — with a larger fencing token. The holder is not told while
 * it is frozen, and the recipe does not look again before writing, so a paused holder's late write
 * reaches the server. Without fencing the server accepts it; in set mode it overwrites every update
 * written since its read (lost updates). With `fencing`, reads and writes carry the token and the
 * server refuses any older than the newest it has seen (psStore.ts).
 *
 * Without a lock, set-mode writers overwrite one another whenever their read-compute-write cycles
 * overlap: every update written between a worker's read and its write is lost.
 */

const LOCK = 'params';

type WorkerMsg =
  | { t: 'read'; id: number; token?: number }
  | { t: 'write'; seq: number; token?: number; set?: Float32Array; grad?: Float32Array; basedOn: number; basedOnNode: number; updates: string[] };
type ServerMsg =
  | { t: 'params'; id: number; params: Float32Array; version: number; node: number }
  | { t: 'ack'; seq: number; version: number }
  | { t: 'fenced'; id?: number; seq?: number; newest: number };

type Write = Extract<WorkerMsg, { t: 'write' }>;
type Params = Extract<ServerMsg, { t: 'params' }>;

/**
 * What the security layer protects of the read-modify-write path: a write (seq; basedOn, the
 * lineage node it read and the lock's fencing token in the header; the whole vector or the
 * gradient) and the parameters a read is answered with (version; read id, lineage node). The
 * token is part of what a tag covers, so an attacker cannot renew a stale write's token; a
 * replayed write keeps its old token, which a fencing server refuses. Read requests, acks and
 * "fenced" answers carry no body (TLS covers them, as every record).
 */
export const psRmwWire: WireCodec = {
  read(kind, payload, from, to) {
    const m = payload as WorkerMsg | ServerMsg;
    if ((kind === 'gradient' || kind === 'params') && m.t === 'write') {
      const values = m.set ?? m.grad;
      if (!values) return null;
      return { worker: from, step: m.seq, labels: m.token === undefined ? [m.basedOn, m.basedOnNode] : [m.basedOn, m.basedOnNode, m.token], vectors: [values] };
    }
    if (kind === 'params' && m.t === 'params') return { worker: to, step: m.version, labels: [m.id, m.node], vectors: [m.params] };
    return null;
  },
  write(_kind, payload, body) {
    const m = payload as WorkerMsg | ServerMsg;
    if (m.t === 'write') {
      const { token: _old, set, ...rest } = m;
      const [basedOn = 0, basedOnNode = 0, token] = body.labels;
      const values = set ? { set: body.vectors[0] } : { grad: body.vectors[0] };
      return { ...rest, ...values, seq: body.step, basedOn, basedOnNode, ...(token === undefined ? {} : { token }) } satisfies Write;
    }
    return { ...(m as Params), version: body.step, id: body.labels[0] ?? 0, node: body.labels[1] ?? 0, params: body.vectors[0] } satisfies Params;
  },
};

type Phase = 'lock' | 'read' | 'compute' | 'write' | 'down';

interface WorkerState {
  phase: Phase;
  /** The token of the grant it believes it holds (undefined: no lock in use, or none yet). */
  token?: number;
  // Kept across a crash (small durable counters): ids stay unique.
  seq: number;
  readSeq: number;
  // Volatile.
  read: { id: number; opId: number } | null;
  /** The lineage node and version it read. */
  node: number;
  version: number;
  write: { msg: Extract<WorkerMsg, { t: 'write' }>; opId: number } | null;
  retry: number;
}

export class PsRmwStrategy implements Strategy {
  readonly kind = 'ps-async';
  readonly wire = psRmwWire;
  private readonly server: NodeId;
  private readonly store: ParamStore;
  private checkpoint: StoreState;
  private readonly w = new Map<NodeId, WorkerState>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: PsAsyncConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('ps-async needs a server (cluster.servers ≥ 1)');
    if (cfg.writeLock === 'lease' && !ctx.coord) throw new Error('strategy.writeLock: "lease" needs a coordination service (cluster.coord ≥ 1)');
    this.server = ctx.servers[0];
    this.store = new ParamStore(ctx.initialParams(), cfg.fencing);
    this.checkpoint = this.store.snapshot();
    for (const id of ctx.workers) this.w.set(id, fresh(0, 0));
  }

  private get locked(): boolean {
    return this.cfg.writeLock === 'lease';
  }

  topology(): Array<[NodeId, NodeId]> {
    return this.ctx.workers.map((w) => [w, this.server] as [NodeId, NodeId]);
  }

  start(): void {
    for (const id of this.ctx.workers) this.begin(id);
    if (this.cfg.checkpointEveryMs > 0) this.ctx.setTimer(this.server, this.cfg.checkpointEveryMs, 'checkpoint');
  }

  // ---------------------------------------------------------------- the recipe, worker side

  /** Step 1: ask for the lock (or, without one, read at once). */
  private begin(worker: NodeId): void {
    const s = this.w.get(worker)!;
    s.token = undefined;
    if (!this.locked) return this.startRead(worker, s);
    s.phase = 'lock';
    this.ctx.coord!.lock(worker, LOCK);
  }

  onCoord(worker: NodeId, ev: CoordEvent): void {
    const s = this.w.get(worker);
    if (!s) return;
    if (ev.t === 'lockAcquired' && ev.lock === LOCK && s.phase === 'lock') {
      s.token = ev.token;
      this.startRead(worker, s);
    } else if (ev.t === 'sessionLost' && s.phase === 'lock') {
      // Still queuing: the queue entry died with the session; join again under the new one.
      this.ctx.coord!.lock(worker, LOCK);
    }
    // Holding (reading, computing, writing): the recipe does not look at its lock again — the mistake this lesson shows.
  }

  /** Step 2: read the parameters (with the token, so a fencing server learns it). */
  private startRead(worker: NodeId, s: WorkerState): void {
    s.phase = 'read';
    s.read = { id: ++s.readSeq, opId: this.ctx.op(worker, 'invoke', 'read') };
    this.sendRead(worker, s);
  }

  private sendRead(worker: NodeId, s: WorkerState): void {
    const msg: WorkerMsg = s.token === undefined ? { t: 'read', id: s.read!.id } : { t: 'read', id: s.read!.id, token: s.token };
    this.ctx.send(worker, this.server, 'pull', msg, 0);
    this.ctx.setTimer(worker, this.cfg.pushTimeoutMs, 'retry', ++s.retry);
  }

  /** Step 3 happens in the engine (one gradient on what it read); step 4: write back. */
  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.w.get(worker)!;
    if (s.phase !== 'compute') return;
    const rep = this.ctx.replica(worker);
    const params = rep.params.slice();
    axpy(params, -this.ctx.learningRate, r.grad);
    this.ctx.setReplica(worker, params, s.version + 1, s.version, 'fresh');
    this.ctx.counted(worker);
    const seq = ++s.seq;
    const base = { t: 'write' as const, seq, basedOn: s.version, basedOnNode: s.node, updates: [`${worker}#${seq}`], ...(s.token === undefined ? {} : { token: s.token }) };
    const msg: Extract<WorkerMsg, { t: 'write' }> = this.cfg.writeMode === 'set' ? { ...base, set: params } : { ...base, grad: r.grad };
    s.write = { msg, opId: this.ctx.op(worker, 'invoke', 'update') };
    s.phase = 'write';
    this.sendWrite(worker, s);
  }

  private sendWrite(worker: NodeId, s: WorkerState): void {
    const msg = s.write!.msg;
    this.ctx.send(worker, this.server, msg.set ? 'params' : 'gradient', msg, this.ctx.paramCount * 4);
    this.ctx.setTimer(worker, this.cfg.pushTimeoutMs, 'retry', ++s.retry);
  }

  /** Step 5: release, and queue again (behind whoever waits). */
  private finish(worker: NodeId, s: WorkerState): void {
    s.write = null;
    if (this.locked) this.ctx.coord!.unlock(worker, LOCK);
    this.begin(worker);
  }

  private onWorkerMessage(worker: NodeId, m: ServerMsg): void {
    const s = this.w.get(worker);
    if (!s) return;
    if (m.t === 'params') {
      if (s.phase !== 'read' || s.read?.id !== m.id) return;
      this.ctx.op(worker, 'ok', 'read', s.read.opId, m.version, m.params);
      s.read = null;
      s.node = m.node;
      s.version = m.version;
      this.ctx.setReplica(worker, m.params, m.version, m.version);
      this.ctx.note('paramsRead', worker, s.token === undefined ? { version: m.version } : { version: m.version, token: s.token });
      s.phase = 'compute';
      this.ctx.startStep(worker);
      return;
    }
    if (m.t === 'ack') {
      if (s.phase !== 'write' || s.write?.msg.seq !== m.seq) return;
      this.ctx.op(worker, 'ok', 'update', s.write.opId, m.version);
      this.store.acknowledged(s.write.msg.updates); // observer: for lostUpdates
      return this.finish(worker, s);
    }
    // Fenced: its token is older than one the server has seen — it lost the lock while it worked.
    if (m.seq !== undefined && s.phase === 'write' && s.write?.msg.seq === m.seq) {
      this.ctx.op(worker, 'fail', 'update', s.write.opId);
      return this.finish(worker, s);
    }
    if (m.id !== undefined && s.phase === 'read' && s.read?.id === m.id) {
      this.ctx.op(worker, 'fail', 'read', s.read.opId);
      s.read = null;
      if (this.locked) this.ctx.coord!.unlock(worker, LOCK);
      this.begin(worker);
    }
  }

  // ---------------------------------------------------------------- the server

  private onServer(msg: Message): void {
    const m = msg.payload as WorkerMsg;
    const from = msg.from;
    if (m.t === 'read') {
      const r = this.store.read(m.token);
      if (!r.ok) {
        this.ctx.note('fenced', this.server, { what: 'read', from, token: m.token!, newest: r.newest });
        return this.reply(from, { t: 'fenced', id: m.id, newest: r.newest });
      }
      const st = this.store.s;
      return this.reply(from, { t: 'params', id: m.id, params: st.params.slice(), version: st.version, node: st.head });
    }
    const before = this.store.s.version;
    const out = this.store.write({ worker: from, seq: m.seq, set: m.set, grad: m.grad, lr: this.ctx.learningRate, basedOnNode: m.basedOnNode, token: m.token, updates: m.updates });
    if (out.t === 'fenced') {
      this.ctx.note('fenced', this.server, { what: 'write', from, token: m.token!, newest: out.newest });
      return this.reply(from, { t: 'fenced', seq: m.seq, newest: out.newest });
    }
    if (out.t === 'applied') {
      this.ctx.note('apply', this.server, { worker: from, seq: m.seq, staleness: before - m.basedOn });
      if (out.stale) this.ctx.note('staleWriteAccepted', this.server, { from, token: m.token!, newest: this.store.s.newestToken });
    }
    this.reply(from, { t: 'ack', seq: m.seq, version: out.version });
  }

  private reply(to: NodeId, m: ServerMsg): void {
    this.ctx.send(this.server, to, m.t === 'params' ? 'params' : m.t === 'ack' ? 'ack' : 'nack', m, m.t === 'params' ? m.params.length * 4 : 0);
  }

  onMessage(msg: Message): void {
    if (msg.to === this.server) return this.onServer(msg);
    this.onWorkerMessage(msg.to, msg.payload as ServerMsg);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (tag === 'checkpoint') {
      this.checkpoint = this.store.snapshot();
      this.ctx.note('checkpoint', node, { version: this.store.s.version });
      this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'checkpoint');
      return;
    }
    const s = this.w.get(node);
    if (tag !== 'retry' || !s || data !== s.retry) return;
    // No answer: the request or its reply was lost, or the server is away. Ask again (writes are applied once).
    if (s.phase === 'read' && s.read) this.sendRead(node, s);
    else if (s.phase === 'write' && s.write) this.sendWrite(node, s);
  }

  onCrash(node: NodeId): void {
    if (node === this.server) {
      this.store.restore(this.checkpoint); // what came after the last checkpoint is lost
      return;
    }
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use (a cluster may have more: switching from Raft keeps five)
    if (s.read) this.ctx.op(node, 'info', 'read', s.read.opId);
    if (s.write) this.ctx.op(node, 'info', 'update', s.write.opId);
    // The process and its lock's session are gone (the lease expires at the service after its TTL).
    this.w.set(node, { ...fresh(s.seq, s.readSeq), phase: 'down' });
  }

  onRestart(node: NodeId): void {
    if (node === this.server) {
      if (this.cfg.checkpointEveryMs > 0) this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'checkpoint');
      return;
    }
    if (!this.w.has(node)) return; // a server this strategy does not use
    this.begin(node);
  }

  // ---------------------------------------------------------------- views and metrics

  authoritativeVersion(): number {
    return this.store.s.version;
  }

  nodeVersion(node: NodeId): number {
    return node === this.server ? this.store.s.version : this.ctx.replica(node).version;
  }

  facts(node: NodeId): NodeFacts | null {
    if (!this.ctx.isUp(node)) return null;
    if (node === this.server) return { kind: 'ps-server', version: this.store.s.version };
    const s = this.w.get(node);
    if (!s || s.phase === 'down') return null;
    const c = this.ctx.coord?.facts(node);
    const lock = c ? { lock: { state: s.phase === 'lock' ? (c.lock?.state === 'waiting' ? ('waiting' as const) : ('none' as const)) : ('held' as const), ...(s.token !== undefined ? { token: s.token } : {}), server: c.server, session: c.session } } : {};
    if (s.phase === 'lock') return { kind: 'ps-worker', state: 'waiting', waitFor: 'lock', phase: 'lock', ...lock };
    if (s.phase === 'read' || s.phase === 'write') return { kind: 'ps-worker', state: 'waiting', waitFor: 'params', phase: s.phase, ...lock };
    return { kind: 'ps-worker', state: 'training', phase: 'compute', ...lock };
  }

  metric(name: string): number | null | undefined {
    switch (name) {
      case 'fencedWrites':
        return this.store.fenced;
      case 'staleWritesAccepted':
        return this.store.staleAccepted;
      case 'lastFencedToken':
        return this.store.lastFencedToken;
      default:
        return undefined;
    }
  }

  lostUpdates(): number {
    return this.store.lost();
  }

  private reportedOverwrites = 0;
  /** With fencing, no accepted write may replace updates written after its read (restores aside). */
  checkInvariants(): Array<{ invariant: string; detail: string }> {
    if (!this.cfg.fencing || this.store.overwrites === this.reportedOverwrites) return [];
    this.reportedOverwrites = this.store.overwrites;
    return [{ invariant: 'fencing-overwrite', detail: `an accepted write replaced updates written after its read (version ${this.store.s.version})` }];
  }

  duplicateUpdates(): number {
    return 0; // (worker, seq) pairs are applied once
  }
}

function fresh(seq: number, readSeq: number): WorkerState {
  return { phase: 'lock', seq, readSeq, read: null, node: 0, version: 0, write: null, retry: 0 };
}
