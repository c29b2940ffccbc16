import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import type { SspConfig } from './sspKnobs';
import { freshWorker, helloMsg, type ServerState, type WorkerState } from './sspState';
import { sspWire, type AckMsg, type ParamsMsg, type PushMsg, type Update } from './sspWire';
import type { NodeFacts, Strategy, StrategyContext, StepResult } from './strategy';
import { crashedWaitClock, startWaiting, stopWaiting, waitFraction } from './waiting';

/**
 * Stale Synchronous Parallel on a parameter server (Ho et al., NIPS 2013).
 *
 * Clocks. clock(w) = iterations w has completed (each ends with a push of its update, tagged
 * with the iteration's clock c = 0, 1, …). The server applies updates as they arrive and keeps,
 * per worker, how many of its clocks it has applied; minClock = the minimum over all workers
 * (crashed and cut-off ones included: the paper's bound is over all P workers, with no notion of
 * leaving, so SSP waits for them as BSP does). The invariants take a live worker's clock as its
 * own and a crashed one's as the server's count of it, the clock it will resume at.
 *
 * The rule. A worker may compute iteration c = clock(w) only on parameters that include every
 * update from clocks < c − s, i.e. read at minClock ≥ c − s. The same condition bounds the
 * spread: a computing worker is at most s clocks ahead of the slowest, so
 *   - maxClockGap (c of a worker starting an iteration − slowest live clock) ≤ s, and
 *   - the spread of completed clocks is ≤ s + 1 at all times (a blocked worker has ticked once
 *     more): both are checked as invariants.
 * s = 0 is BSP (every iteration waits for everyone's previous one), s = "inf" is ASP.
 *
 * Reads. The worker keeps a cache (server parameters plus the minClock they were read at) and
 * applies its own updates to it at once (read-my-writes). Each push also asks for a read; the
 * server answers at once when minClock ≥ the worker's need, otherwise it acknowledges the push and
 * answers when minClock gets there. If the cache already satisfies the bound, the worker does not
 * wait for the answer.
 *
 * Delivery: updates carry (worker, clock); the server applies them in clock order and skips
 * duplicates; unacknowledged updates are resent every `rtoMs`. The server persists its state with
 * every applied update, so a server crash loses only pending reads (which the workers repeat).
 *
 * Restarts. A restarted worker has lost its clock; the server's count of its applied clocks is
 * where it resumes (its completed-but-unapplied clocks died with it). It must take that count from
 * the answer to its own restart pull, never from a reply addressed to its previous incarnation that
 * was still in flight: such a reply carries an older count, and a worker resuming below the clocks
 * the server already applied breaks the bound for everyone (seeds 20437, 20807, 30814 of
 * `npm run check`: the others had legitimately run s clocks past the server's count, and the
 * restarted worker went back below it). Ho et al. define the bound over every worker's clock; a
 * crashed worker's clock is what the server holds of it, so the bound and its invariant stay as
 * they are, and the protocol is what was wrong. Each worker therefore keeps a boot counter
 * (`incarnation`, on its disk): the restart pull carries it and only the reply echoing it ends the
 * restart. The server also fences updates of an earlier incarnation that arrive after a later one
 * said hello (Kafka fences a zombie producer by its epoch the same way); on these FIFO links that
 * cannot happen, since an old update was sent before the pull, but the rule should not rest on it.
 */
export class SspStrategy implements Strategy {
  readonly kind = 'ssp';
  readonly wire = sspWire;
  private readonly s: number;
  private readonly server: NodeId;
  private srv: ServerState;
  /** Deferred reads (volatile). */
  private pending = new Map<NodeId, number>();
  private readonly w = new Map<NodeId, WorkerState>();
  private maxGap = 0;
  private spreadViolated = false;
  private duplicates = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: SspConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('ssp needs a server (cluster.servers ≥ 1)');
    this.server = ctx.servers[0];
    this.s = cfg.staleness === 'inf' ? Infinity : cfg.staleness;
    this.srv = { params: ctx.initialParams(), version: 0, applied: new Map(ctx.workers.map((w) => [w, 0])), incarnation: new Map() };
    for (const id of ctx.workers) this.w.set(id, freshWorker(0));
  }

  topology(): Array<[NodeId, NodeId]> {
    return this.ctx.workers.map((w) => [w, this.server] as [NodeId, NodeId]);
  }

  start(): void {
    const init = this.ctx.initialParams();
    for (const id of this.ctx.workers) {
      const s = this.w.get(id)!;
      s.cacheParams = init.slice();
      this.begin(id, s);
    }
  }

  // ---------------------------------------------------------------- worker

  private minClock(): number {
    let m = Infinity;
    for (const v of this.srv.applied.values()) m = Math.min(m, v);
    return m;
  }

  /** Observer view of every worker's clock: its own, or for a crashed one the server's count. */
  private clockOf(id: NodeId): number {
    const s = this.w.get(id)!;
    return this.ctx.isUp(id) && !s.needsParams ? s.clock : (this.srv.applied.get(id) ?? 0);
  }

  /** Starts iteration clock(w); bookkeeping for maxClockGap and the bound (an observer's view). */
  private begin(worker: NodeId, s: WorkerState): void {
    let minAll = Infinity;
    let minLive = Infinity;
    for (const id of this.ctx.workers) {
      const c = this.clockOf(id);
      minAll = Math.min(minAll, c);
      if (this.ctx.isUp(id)) minLive = Math.min(minLive, c);
    }
    this.maxGap = Math.max(this.maxGap, s.clock - minLive);
    if (s.clock - minAll > this.s) this.ctx.violation('ssp-clock-gap', `${worker} starts clock ${s.clock} while the slowest worker is at ${minAll} (s = ${this.s})`);
    this.ctx.startStep(worker);
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.w.get(worker)!;
    if (s.needsParams) return;
    const u: Update = { clock: s.clock, grad: r.grad, basedOn: r.basedOn };
    s.clock++;
    s.unacked.push(u);
    this.ctx.counted(worker);
    const need = s.clock - this.s; // −∞ for ASP
    // Every push asks for a read (−1: any minClock will do), so the cache is refreshed each clock.
    const msg: PushMsg = { updates: [u], need: Number.isFinite(need) ? need : -1, inc: s.incarnation };
    this.ctx.send(worker, this.server, 'gradient', msg, this.ctx.paramCount * 4);
    this.arm(worker, s);
    if (s.cacheMin >= need) {
      // The cache is fresh enough: apply our own update to it and go on without waiting.
      this.refreshReplica(worker, s);
      this.begin(worker, s);
    } else {
      s.need = need;
      startWaiting(s, this.ctx.now());
      this.ctx.note('sspBlocked', worker, { clock: s.clock, need });
    }
  }

  /** Replica = cached server parameters + this worker's updates the cache does not include yet. */
  private refreshReplica(worker: NodeId, s: WorkerState): void {
    const params = s.cacheParams!.slice();
    for (const u of s.unacked) axpy(params, -this.ctx.learningRate, u.grad);
    this.ctx.setReplica(worker, params, s.cacheVersion + s.unacked.length, s.cacheVersion, 'fresh');
  }

  private arm(worker: NodeId, s: WorkerState): void {
    if (s.timerArmed) return;
    s.timerArmed = true;
    this.ctx.setTimer(worker, this.cfg.rtoMs, 'rto');
  }

  onMessage(msg: Message): void {
    if (msg.to === this.server) return this.onServer(msg);
    const s = this.w.get(msg.to);
    if (!s) return;
    if (msg.kind === 'ack') return this.onAcked(s, (msg.payload as AckMsg).acked);
    if (msg.kind !== 'params') return;
    const m = msg.payload as ParamsMsg;
    if (s.needsParams) {
      // Restarted: only the answer to this incarnation's hello says where its clock stands (see
      // "Restarts" above); a reply sent to the previous incarnation carries an older count.
      if (m.hello !== s.incarnation) return;
      s.needsParams = false;
      s.clock = m.acked;
      s.unacked = [];
    }
    this.onAcked(s, m.acked);
    if (m.version < s.cacheVersion) return; // older than what the cache holds
    // Under BSP (s = 0) a worker never trains on a read that lacks its own update.
    if (this.s === 0 && s.unacked.length > 0) return;
    s.cacheParams = m.params;
    s.cacheVersion = m.version;
    s.cacheMin = m.minClock;
    this.refreshReplica(msg.to, s);
    const waitingFor = s.need ?? (this.ctx.isComputing(msg.to) ? null : s.clock - this.s);
    if (waitingFor === null) return;
    if (m.minClock >= waitingFor) {
      s.need = null;
      stopWaiting(s, this.ctx.now());
      this.begin(msg.to, s);
    } else if (s.need === null) {
      // Idle after a restart, but too far ahead of the slowest: wait like any blocked worker.
      s.need = waitingFor;
      startWaiting(s, this.ctx.now());
      this.arm(msg.to, s);
    }
  }

  private onAcked(s: WorkerState, acked: number): void {
    s.unacked = s.unacked.filter((u) => u.clock >= acked);
  }

  onTimer(node: NodeId, tag: string): void {
    const s = this.w.get(node);
    if (tag !== 'rto' || !s) return;
    s.timerArmed = false;
    if (s.unacked.length === 0 && s.need === null && !s.needsParams) return;
    // Resend what the server has not acknowledged, and repeat the read if still blocked.
    const msg: PushMsg = s.needsParams ? helloMsg(s) : { updates: s.unacked.slice(), need: s.need, inc: s.incarnation };
    this.ctx.send(node, this.server, msg.updates.length ? 'gradient' : 'pull', msg, msg.updates.length * this.ctx.paramCount * 4);
    this.arm(node, s);
  }

  // ---------------------------------------------------------------- server

  private onServer(msg: Message): void {
    const worker = msg.from;
    const m = msg.payload as PushMsg;
    const known = this.srv.incarnation.get(worker) ?? 0;
    if (m.inc < known) return; // a zombie: an earlier incarnation's message (see "Restarts")
    if (m.inc > known) this.srv.incarnation.set(worker, m.inc);
    if (m.hello) return this.sendParams(worker, m.inc);
    const before = this.minClock();
    let applied = this.srv.applied.get(worker) ?? 0;
    for (const u of m.updates) {
      if (u.clock < applied) {
        this.duplicates++;
        continue;
      }
      if (u.clock > applied) break; // a gap: an earlier update was lost; the worker resends it
      const tau = this.srv.version - u.basedOn;
      const lr = this.cfg.lrStaleness === 'inverse' ? this.ctx.learningRate / Math.max(1, tau) : this.ctx.learningRate;
      axpy(this.srv.params, -lr, u.grad);
      this.srv.version++;
      applied = u.clock + 1;
      this.ctx.note('apply', this.server, { worker, seq: u.clock, staleness: tau });
    }
    this.srv.applied.set(worker, applied);
    const min = this.minClock();
    if (m.need !== null && m.need !== undefined) {
      if (min >= m.need) this.sendParams(worker);
      else {
        this.pending.set(worker, m.need);
        this.ctx.send(this.server, worker, 'ack', { acked: applied } satisfies AckMsg, 0);
      }
    } else if (m.updates.length) {
      this.ctx.send(this.server, worker, 'ack', { acked: applied } satisfies AckMsg, 0);
    }
    if (min > before) {
      for (const [w, need] of [...this.pending]) {
        if (min >= need) {
          this.pending.delete(w);
          this.sendParams(w);
        }
      }
    }
  }

  private sendParams(worker: NodeId, hello?: number): void {
    const acked = this.srv.applied.get(worker) ?? 0;
    const base = { params: this.srv.params.slice(), version: this.srv.version, minClock: this.minClock(), acked };
    const msg: ParamsMsg = hello === undefined ? base : { ...base, hello };
    this.ctx.send(this.server, worker, 'params', msg, msg.params.length * 4);
  }

  // ---------------------------------------------------------------- faults

  onCrash(node: NodeId): void {
    if (node === this.server) {
      this.pending = new Map(); // deferred reads were volatile; the blocked workers repeat them
      return;
    }
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use (a cluster may have more: switching from Raft keeps five)
    this.w.set(node, { ...freshWorker(this.ctx.now()), ...crashedWaitClock(s, this.ctx.now()), incarnation: s.incarnation });
  }

  onRestart(node: NodeId): void {
    if (node === this.server) return;
    const s = this.w.get(node);
    if (!s) return; // a server this strategy does not use
    s.liveSince = this.ctx.now();
    s.needsParams = true;
    s.incarnation++;
    this.ctx.send(node, this.server, 'pull', helloMsg(s), 0);
    this.arm(node, s);
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    if (!Number.isFinite(this.s) || this.spreadViolated) return [];
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of this.ctx.workers) {
      const c = this.clockOf(id);
      lo = Math.min(lo, c);
      hi = Math.max(hi, c);
    }
    if (hi - lo <= this.s + 1) return [];
    this.spreadViolated = true; // report the first breach, not every event after it
    return [{ invariant: 'ssp-clock-spread', detail: `completed clocks spread ${lo}…${hi} exceeds s + 1 = ${this.s + 1}` }];
  }

  authoritativeVersion(): number {
    return this.srv.version;
  }

  nodeVersion(node: NodeId): number {
    return node === this.server ? this.srv.version : this.ctx.replica(node).version;
  }

  /**
   * Server: its version, the slowest clock it counts, who is at it, and s. Worker: its clock and
   * what blocks it: a read at minClock ≥ needClock (seenMinClock: the newest min clock it has
   * read). The server's counts reach a worker only in a reply, an event of the worker's own, so
   * no node changes another's facts. Null while down.
   */
  facts(node: NodeId): NodeFacts | null {
    if (!this.ctx.isUp(node)) return null;
    if (node === this.server) {
      const minClock = this.minClock();
      const slowest = this.ctx.workers.filter((w) => this.srv.applied.get(w) === minClock);
      return { kind: 'ps-server', version: this.srv.version, minClock, staleness: Number.isFinite(this.s) ? this.s : null, slowest };
    }
    const s = this.w.get(node);
    if (!s) return null;
    if (s.needsParams) return { kind: 'ps-worker', state: 'pulling' };
    const own = { clock: s.clock, unacked: s.unacked.length, seenMinClock: s.cacheMin };
    if (s.need !== null) return { kind: 'ps-worker', state: 'waiting', waitFor: 'bound', needClock: s.need, ...own };
    return { kind: 'ps-worker', state: 'training', ...own };
  }

  lostUpdates(): number {
    return 0; // the server persists every applied update before acknowledging it
  }
  duplicateUpdates(): number {
    return 0; // (worker, clock) duplicates are skipped
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    if (name === 'maxClockGap') return this.maxGap;
    if (name === 'waitFraction') return waitFraction(this.ctx, (id) => this.w.get(id), node);
    return undefined;
  }

  /** Duplicates the server recognised and skipped. */
  duplicatesSkipped(): number {
    return this.duplicates;
  }
}
