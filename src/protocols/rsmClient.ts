import type { NodeId } from '../sim/types';
import type { StepResult, StrategyContext } from './strategy';

/**
 * The workers of a replicated parameter server, as its clients (paxos-ps, 2pc-ps): compute a
 * gradient on the parameters last read → send it as an update (worker, seq, gradient) → wait for
 * the acknowledgement, sent once the update is applied, or for a definite abort (2PC) → read the
 * parameters → compute again.
 *
 * A request unanswered within `clientRetryMs` is sent again (to the next server when the client
 * looks for a leader; to the same one when the server is fixed, as a 2PC coordinator is); a
 * redirect with a leader hint is followed at once. An update not acknowledged within
 * `updateTimeoutMs` is abandoned — its outcome is unknown (Jepsen's `info`): it may still take
 * effect, once, because servers recognise (worker, seq) — and the worker reads fresh parameters.
 * A worker's sequence numbers survive its crash (small durable counters), so (worker, seq) stays
 * unique.
 */

export interface ClientConfig {
  clientRetryMs: number;
  updateTimeoutMs: number;
}

/** Messages between a worker and the servers. */
export type ClientMsg =
  | { t: 'update'; seq: number; grad: Float32Array; basedOn: number }
  | { t: 'read'; readId: number }
  /** Not the server to ask: try `hint` (null: unknown). */
  | { t: 'redirect'; op: 'update' | 'read'; id: number; hint: NodeId | null }
  /** The update is applied; `version` is the version its application produced. */
  | { t: 'ack'; seq: number; version: number }
  /** The update's transaction aborted: it never takes effect (2PC). */
  | { t: 'aborted'; seq: number }
  | { t: 'params'; readId: number; params: Float32Array; version: number };

export type ClientPhase = 'idle' | 'computing' | 'updating' | 'reading';

interface WorkerState {
  // Kept across a crash.
  seq: number;
  readSeq: number;
  aborted: number;
  // Volatile.
  phase: ClientPhase;
  guess: NodeId | null;
  rr: number;
  token: number;
  hops: number;
  upd: { seq: number; grad: Float32Array; basedOn: number; opId: number; since: number } | null;
  /** `floor`: the newest applied version anywhere when the read began (observer bookkeeping for staleReads). */
  read: { readId: number; opId: number; floor: number } | null;
}

export interface ClientView {
  phase: ClientPhase;
  asking: NodeId | null;
  seq: number;
  aborted: number;
}

export class RsmClients {
  private readonly wk = new Map<NodeId, WorkerState>();
  /** Observer bookkeeping (metrics and checks), never read by the protocol. */
  readonly acked = new Set<string>();
  private readonly stale = new Map<NodeId, number>();

  /**
   * @param fixed the one server every request goes to (a 2PC coordinator), or null to look for the
   *   leader (round robin, following redirects)
   * @param newest the newest version applied anywhere (observer, for staleReads)
   */
  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: ClientConfig,
    private readonly fixed: NodeId | null,
    private readonly newest: () => number,
  ) {
    for (const id of ctx.workers) this.wk.set(id, { seq: 0, readSeq: 0, aborted: 0, ...freshVolatile() });
  }

  has(node: NodeId): boolean {
    return this.wk.has(node);
  }

  /** Every replica starts from the same initial parameters (version 0), so workers compute at once. */
  start(): void {
    for (const w of this.ctx.workers) {
      this.wk.get(w)!.phase = 'computing';
      this.ctx.startStep(w);
    }
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const w = this.wk.get(worker)!;
    const seq = ++w.seq;
    const opId = this.ctx.op(worker, 'invoke', 'update');
    w.upd = { seq, grad: r.grad, basedOn: r.basedOn, opId, since: this.ctx.now() };
    w.phase = 'updating';
    w.hops = 0;
    this.sendUpdate(worker, w);
  }

  private target(w: WorkerState): NodeId {
    if (this.fixed !== null) return this.fixed;
    if (w.guess === null) w.guess = this.ctx.servers[w.rr++ % this.ctx.servers.length];
    return w.guess;
  }

  private nextServer(w: WorkerState): void {
    if (this.fixed !== null) return;
    const ss = this.ctx.servers;
    w.guess = w.guess === null ? ss[w.rr++ % ss.length] : ss[(ss.indexOf(w.guess) + 1) % ss.length];
  }

  private armRetry(worker: NodeId, w: WorkerState): void {
    this.ctx.setTimer(worker, this.cfg.clientRetryMs, 'retry', ++w.token);
  }

  private sendUpdate(worker: NodeId, w: WorkerState): void {
    const u = w.upd!;
    const msg: ClientMsg = { t: 'update', seq: u.seq, grad: u.grad, basedOn: u.basedOn };
    this.ctx.send(worker, this.target(w), 'gradient', msg, this.ctx.paramCount * 4);
    this.armRetry(worker, w);
  }

  private startRead(worker: NodeId, w: WorkerState): void {
    const readId = ++w.readSeq;
    w.read = { readId, opId: this.ctx.op(worker, 'invoke', 'read'), floor: this.newest() };
    w.phase = 'reading';
    w.hops = 0;
    this.sendRead(worker, w);
  }

  private sendRead(worker: NodeId, w: WorkerState): void {
    this.ctx.send(worker, this.target(w), 'pull', { t: 'read', readId: w.read!.readId } satisfies ClientMsg, 0);
    this.armRetry(worker, w);
  }

  /** The retry timer; false if the tag is not the client's. */
  onTimer(worker: NodeId, tag: string, token: unknown): boolean {
    if (tag !== 'retry') return false;
    const w = this.wk.get(worker)!;
    if (token !== w.token) return true;
    w.hops = 0;
    if (w.phase === 'updating' && w.upd) {
      if (this.ctx.now() - w.upd.since >= this.cfg.updateTimeoutMs) {
        // Client timeout: the outcome is unknown (it may still take effect, once). Train on fresh parameters.
        this.ctx.op(worker, 'info', 'update', w.upd.opId);
        this.ctx.note('updateAbandoned', worker, { seq: w.upd.seq });
        w.upd = null;
        this.nextServer(w);
        this.startRead(worker, w);
        return true;
      }
      this.nextServer(w);
      this.sendUpdate(worker, w);
    } else if (w.phase === 'reading' && w.read) {
      this.nextServer(w);
      this.sendRead(worker, w);
    }
    return true;
  }

  onMessage(worker: NodeId, from: NodeId, m: ClientMsg): void {
    const w = this.wk.get(worker)!;
    switch (m.t) {
      case 'redirect': {
        const current = m.op === 'update' ? w.phase === 'updating' && w.upd?.seq === m.id : w.phase === 'reading' && w.read?.readId === m.id;
        if (!current || this.fixed !== null) return;
        // Follow a hint at once (a bounded number of hops); without one, wait for the retry timer.
        if (m.hint !== null && m.hint !== from && w.hops < this.ctx.servers.length) {
          w.hops++;
          w.guess = m.hint;
          if (m.op === 'update') this.sendUpdate(worker, w);
          else this.sendRead(worker, w);
        } else {
          w.guess = from;
        }
        return;
      }
      case 'ack': {
        if (w.phase !== 'updating' || !w.upd || w.upd.seq !== m.seq) return;
        this.ctx.op(worker, 'ok', 'update', w.upd.opId, m.version);
        this.acked.add(`${worker}#${m.seq}`);
        this.ctx.counted(worker);
        w.upd = null;
        if (this.fixed === null) w.guess = from;
        return this.startRead(worker, w);
      }
      case 'aborted': {
        if (w.phase !== 'updating' || !w.upd || w.upd.seq !== m.seq) return;
        // A definite abort: the update never takes effect. Its gradient is dropped, not retried — a
        // fresh one on fresh parameters is worth more than a stale one.
        this.ctx.op(worker, 'fail', 'update', w.upd.opId);
        w.aborted++;
        w.upd = null;
        return this.startRead(worker, w);
      }
      case 'params': {
        if (w.phase !== 'reading' || !w.read || w.read.readId !== m.readId) return;
        if (m.version < w.read.floor) {
          this.stale.set(worker, (this.stale.get(worker) ?? 0) + 1);
          this.ctx.note('staleRead', worker, { version: m.version, newest: w.read.floor, server: from });
        }
        this.ctx.op(worker, 'ok', 'read', w.read.opId, m.version, m.params);
        this.ctx.setReplica(worker, m.params, m.version, m.version);
        w.read = null;
        w.phase = 'computing';
        this.ctx.startStep(worker);
        return;
      }
      default:
        return;
    }
  }

  onCrash(worker: NodeId): void {
    const w = this.wk.get(worker)!;
    if (w.upd) this.ctx.op(worker, 'info', 'update', w.upd.opId);
    if (w.read) this.ctx.op(worker, 'info', 'read', w.read.opId);
    this.wk.set(worker, { seq: w.seq, readSeq: w.readSeq, aborted: w.aborted, ...freshVolatile() });
  }

  /** The process lost its parameters: read before training again. */
  onRestart(worker: NodeId): void {
    this.startRead(worker, this.wk.get(worker)!);
  }

  view(worker: NodeId): ClientView {
    const w = this.wk.get(worker)!;
    return { phase: w.phase, asking: this.fixed ?? w.guess, seq: w.seq, aborted: w.aborted };
  }

  staleReads(worker?: NodeId): number | null {
    if (worker === undefined) {
      let n = 0;
      for (const v of this.stale.values()) n += v;
      return n;
    }
    return this.wk.has(worker) ? (this.stale.get(worker) ?? 0) : null;
  }
}

function freshVolatile(): Omit<WorkerState, 'seq' | 'readSeq' | 'aborted'> {
  return { phase: 'idle', guess: null, rr: 0, token: 0, hops: 0, upd: null, read: null };
}
