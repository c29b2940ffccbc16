import type { Message, NodeId } from '../sim/types';
import { quantize } from '../sim/network';
import { axpy } from '../sim/vectors';
import { RingSendArrays } from './ringSendArrays';
import { chunkBounds, recvChunk, sendChunk, type RingPhase } from './ringPlan';
import type { RingFacts } from './facts';
import { newestLiveWorkerVersion, type NodeFacts, type Strategy, type StrategyContext, type StepResult } from './strategy';
import type { AllreduceConfig } from './allreduceKnobs';

interface ChunkMsg {
  round: number;
  phase: RingPhase;
  k: number;
  chunk: number;
  data: Float32Array;
}
interface NackMsg {
  round: number;
  phase: RingPhase;
  k: number;
  /** Later chunks the asker holds already (their slots): the rest of what was sent after the one asked for is sent again too. */
  have: number[];
}
interface StateMsg {
  params: Float32Array;
  version: number;
}

interface RingWorker {
  index: number;
  round: number;
  /** Where the worker is: computing its gradient, inside a phase awaiting step k, or fetching state after a restart. */
  phase: 'compute' | RingPhase;
  k: number;
  buf: Float32Array | null;
  /**
   * The array `buf` uses, kept from round to round: what is sent is copied out of it, so nothing
   * else holds it. In a browser a fresh 100 k-float array costs about 1.5 ms to allocate, a
   * hundred times the copy into a kept one.
   */
  scratch: Float32Array | null;
  /** Where the chunks this worker sends are copied (kept for three rounds). */
  sent: RingSendArrays;
  /**
   * The parameters the last round made this worker's replica and checkpoint, and the ones before
   * them once no one holds those any more: the next round writes into that spare (see `finish`).
   */
  own: Float32Array | null;
  spare: Float32Array | null;
  /** Keyed by `slot` (round, phase, step). */
  inbox: Map<number, ChunkMsg>;
  /** Sent chunks of this round and the previous one, kept to answer NACKs. */
  outbox: Map<number, ChunkMsg>;
  /** The chunk (slot) being waited for, and since when: a NACK goes out once it is `rtoMs` late. */
  armed: number | null;
  waitSince: number;
  /**
   * The one NACK timer a worker holds, re-armed lazily when it fires early (as Raft's election
   * timer): when it is due, or null; and the token of the timer armed last. A timer per awaited
   * chunk left a stale timer behind almost every chunk (as many timer events as deliveries).
   */
  timerAt: number | null;
  timerToken: number;
  /** This round's update as a client operation (linearizability checker), or null. */
  op: number | null;
}

/**
 * Synchronous ring all-reduce (reduce-scatter then all-gather, one message per chunk).
 * Every worker applies the same reduced gradient, so replicas at one version are bit-identical:
 * C is kept. A step needs every worker's chunk, so one cut link or dead peer stops the whole
 * ring: A is given up (PC/EC). Lost chunks are recovered receiver-driven: a worker that waits
 * longer than `rtoMs` for a chunk asks its predecessor to send it again (a NACK), as a reliable
 * transport would; so the ring resumes by itself once the link is back.
 */
export class AllreduceStrategy implements Strategy {
  readonly kind = 'allreduce';
  private readonly n: number;
  private readonly bounds: Array<[number, number]>;
  private readonly w = new Map<NodeId, RingWorker>();
  /** Persistent: each worker's parameters after its last completed round (survive a crash). */
  private readonly checkpoints = new Map<NodeId, { params: Float32Array; version: number }>();

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: AllreduceConfig,
  ) {
    this.n = ctx.workers.length;
    this.bounds = chunkBounds(ctx.paramCount, this.n);
    ctx.workers.forEach((id, index) => {
      this.w.set(id, fresh(index, 0, ctx.paramCount));
      this.checkpoints.set(id, { params: ctx.initialParams(), version: 0 });
    });
  }

  topology(): Array<[NodeId, NodeId]> {
    const ws = this.ctx.workers;
    if (ws.length === 2) return [[ws[0], ws[1]]];
    return ws.map((id, i) => [id, ws[(i + 1) % ws.length]] as [NodeId, NodeId]);
  }

  start(): void {
    for (const id of this.ctx.workers) {
      this.beginRound(id, this.w.get(id)!);
      this.ctx.startStep(id, 0);
    }
  }

  /** Records the worker's round as an update operation; the apply completes it (check/). */
  private beginRound(worker: NodeId, s: RingWorker): void {
    if (s.op !== null) this.ctx.op(worker, 'info', 'update', s.op); // left for another round: outcome unknown here
    s.op = this.ctx.op(worker, 'invoke', 'update');
  }

  /**
   * A chunk's place in the schedule — round, phase, step k (0 ≤ k < N − 1) — as one number, the
   * key of the inbox and outbox (a string per chunk cost more than the rest of its handling). Only
   * this ring's own code writes these fields (all-reduce has no wire codec an attacker could use).
   */
  private slot(round: number, phase: RingPhase, k: number): number {
    return (2 * round + (phase === 'ag' ? 1 : 0)) * this.n + k;
  }
  private roundOf(slot: number): number {
    return Math.floor(slot / (2 * this.n));
  }

  private next(i: number): NodeId {
    return this.ctx.workers[(i + 1) % this.n];
  }
  private prev(i: number): NodeId {
    return this.ctx.workers[(i - 1 + this.n) % this.n];
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.w.get(worker)!;
    if (s.phase !== 'compute') return;
    if (r.basedOn !== s.round) {
      // Computed on parameters the worker has since replaced (it caught up by state transfer).
      this.ctx.startStep(worker, s.round);
      return;
    }
    if (s.scratch === null || s.scratch.length !== r.grad.length) s.scratch = new Float32Array(r.grad.length);
    s.scratch.set(r.grad);
    s.buf = s.scratch;
    if (this.n === 1) return this.finish(worker, s);
    this.enter(worker, s, 'rs');
  }

  /** Enter a phase: send step 0 and wait for step 0 from the predecessor. */
  private enter(worker: NodeId, s: RingWorker, phase: RingPhase): void {
    s.phase = phase;
    s.k = 0;
    this.sendStep(worker, s, phase, 0);
    this.pump(worker, s);
  }

  private sendStep(worker: NodeId, s: RingWorker, phase: RingPhase, k: number): void {
    const chunk = sendChunk(phase, s.index, k, this.n);
    const [a, b] = this.bounds[chunk];
    const msg: ChunkMsg = { round: s.round, phase, k, chunk, data: s.sent.copy(s.round, s.buf!, a, b) };
    s.outbox.set(this.slot(s.round, phase, k), msg);
    this.ctx.send(worker, this.next(s.index), 'chunk', msg, (b - a) * 4);
  }

  /**
   * Consume buffered chunks in order; arm a NACK timer for the one still missing. `arrived`: the
   * chunk just delivered when it is the awaited one — taken first, without a trip through the
   * inbox (a Map entry added and removed per chunk cost an allocation each).
   */
  private pump(worker: NodeId, s: RingWorker, arrived?: ChunkMsg): void {
    while (s.phase === 'rs' || s.phase === 'ag') {
      const key = this.slot(s.round, s.phase, s.k);
      let m = arrived;
      arrived = undefined;
      if (!m) {
        m = s.inbox.get(key);
        if (m) s.inbox.delete(key);
      }
      if (!m) {
        if (s.armed !== key) {
          s.armed = key;
          s.waitSince = this.ctx.now();
          // A timer still pending fires at or before this wait's deadline and re-arms for it; one
          // due now or past may have been swallowed (degrade drops a previous epoch's timers).
          if (s.timerAt === null || s.timerAt <= s.waitSince) this.armNack(worker, s, s.waitSince + this.cfg.rtoMs);
        }
        return;
      }
      const [a] = this.bounds[m.chunk];
      if (m.chunk !== recvChunk(s.phase, s.index, s.k, this.n)) throw new Error(`ring order broken at ${worker}`);
      if (s.phase === 'rs') {
        axpy(s.buf!.subarray(a, a + m.data.length), 1, m.data); // + 1·x: the same sums, unrolled
      } else {
        s.buf!.set(m.data, a);
      }
      if (s.k < this.n - 2) {
        s.k++;
        this.sendStep(worker, s, s.phase, s.k);
      } else if (s.phase === 'rs') {
        // Reduced chunk (i+1) mod N is complete here; all-gather starts by sending it on.
        this.enter(worker, s, 'ag');
        return;
      } else {
        this.finish(worker, s);
        return;
      }
    }
  }

  private finish(worker: NodeId, s: RingWorker): void {
    const rep = this.ctx.replica(worker);
    let params = s.spare;
    s.spare = null;
    if (params === null || params.length !== rep.params.length) params = new Float32Array(rep.params.length);
    params.set(rep.params);
    const scale = this.cfg.lrLinearScaling ? 1 : 1 / this.n;
    axpy(params, -this.ctx.learningRate * scale, s.buf!);
    const done = s.round;
    s.round = done + 1;
    s.phase = 'compute';
    s.buf = null;
    // Keep only this round's and the previous round's sent chunks for NACKs.
    for (const key of s.outbox.keys()) if (this.roundOf(key) < done) s.outbox.delete(key);
    // The replica and the checkpoint share this array; nothing changes it while it is either.
    this.ctx.setReplica(worker, params, s.round, s.round, 'fresh');
    this.checkpoints.set(worker, { params, version: s.round });
    // The array just replaced, if the last round made it (a state transfer or a restart sets a
    // copy): no longer the replica or the checkpoint, and the gradient that read it is in, so the
    // next round may write into it. Two arrays take turns instead of a fresh one per round.
    if (s.own !== null && rep.params === s.own) s.spare = s.own;
    s.own = params;
    if (s.op !== null) this.ctx.op(worker, 'ok', 'update', s.op, s.round, params);
    s.op = null;
    this.ctx.counted(worker);
    this.beginRound(worker, s);
    this.ctx.startStep(worker, s.round);
  }

  onMessage(msg: Message): void {
    const s = this.w.get(msg.to);
    if (!s) return;
    if (msg.kind === 'chunk') {
      const m = msg.payload as ChunkMsg;
      if (m.round < s.round) return; // late duplicate of a finished round
      if (m.round === s.round && (s.phase === 'rs' || s.phase === 'ag') && isBefore(m.phase, m.k, s.phase, s.k)) return;
      const key = this.slot(m.round, m.phase, m.k);
      if (m.round === s.round && m.phase === s.phase && m.k === s.k) {
        // The awaited chunk: as if buffered and taken at once (a stale copy under its key goes too).
        if (s.inbox.size > 0) s.inbox.delete(key);
        this.pump(msg.to, s, m);
        return;
      }
      s.inbox.set(key, m);
      if (m.round === s.round) this.pump(msg.to, s);
    } else if (msg.kind === 'nack') {
      const m = msg.payload as NackMsg;
      const asked = this.slot(m.round, m.phase, m.k);
      const out = s.outbox.get(asked);
      if (out) {
        this.ctx.note('retransmit', msg.to, { round: m.round, k: m.k });
        this.ctx.send(msg.to, msg.from, 'chunk', out, out.data.length * 4);
        // What was sent after it went the same way (a cut, or the asker's crash): sent again at
        // once, not one chunk per rtoMs — a restarted worker among 16 waited 4.3 s for its ring.
        const have = new Set(m.have);
        for (const [key, later] of s.outbox) if (key > asked && !have.has(key)) this.ctx.send(msg.to, msg.from, 'chunk', later, later.data.length * 4);
      } else if (m.round < this.ctx.replica(msg.to).version) {
        // The chunk is gone (this worker restarted since), but the round's result is not: every
        // worker that finished round r holds the same parameters, so send those instead.
        this.sendState(msg.to, msg.from);
      }
    } else if (msg.kind === 'state') {
      const m = msg.payload as StateMsg;
      // Adopt only state that is ahead: a worker stuck in a round that the others finished (its
      // missing chunks died with a crashed peer), or restarted from an older checkpoint.
      if (m.version <= s.round) return;
      s.round = m.version;
      s.sent = new RingSendArrays(this.ctx.paramCount); // a jump: the kept arrays may hold chunks a peer still needs
      s.phase = 'compute';
      s.buf = null;
      s.armed = null;
      for (const key of s.inbox.keys()) if (this.roundOf(key) < s.round) s.inbox.delete(key);
      this.ctx.setReplica(msg.to, m.params, m.version, m.version);
      this.checkpoints.set(msg.to, { params: m.params.slice(), version: m.version });
      // Adopting a peer's replica is a read of the lineage (a local read, not a register read).
      this.ctx.op(msg.to, 'ok', 'read', this.ctx.op(msg.to, 'invoke', 'read'), m.version, m.params);
      this.ctx.counted(msg.to);
      this.beginRound(msg.to, s);
      this.ctx.startStep(msg.to, s.round);
    }
  }

  /** Arms the worker's NACK timer for `due`, on the simulator's time grid: the timer fires at exactly that time, so `now < due` cannot stay true. */
  private armNack(worker: NodeId, s: RingWorker, due: number): void {
    due = quantize(due);
    s.timerAt = due;
    this.ctx.setTimer(worker, Math.max(0, due - this.ctx.now()), 'nack', ++s.timerToken);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const s = this.w.get(node)!;
    if (tag !== 'nack' || data !== s.timerToken) return; // superseded
    s.timerAt = null;
    if (s.phase !== 'rs' && s.phase !== 'ag') return; // not waiting: re-armed when a wait begins
    const now = this.ctx.now();
    const due = quantize(s.waitSince + this.cfg.rtoMs);
    if (now < due) return this.armNack(node, s, due); // armed for an earlier wait
    // A receiver-driven retransmission request, repeated every rtoMs while the chunk is missing.
    const nack: NackMsg = { round: s.round, phase: s.phase, k: s.k, have: [...s.inbox.keys()] };
    this.ctx.send(node, this.prev(s.index), 'nack', nack, 4 * nack.have.length);
    s.waitSince = now;
    this.armNack(node, s, now + this.cfg.rtoMs);
  }

  onCrash(node: NodeId): void {
    const s = this.w.get(node);
    if (s && s.op !== null) this.ctx.op(node, 'info', 'update', s.op); // crashed mid-round: outcome unknown
    if (s) this.w.set(node, fresh(s.index, 0, this.ctx.paramCount));
  }

  onRestart(node: NodeId): void {
    const s = this.w.get(node);
    const ckpt = this.checkpoints.get(node);
    if (!s || !ckpt) return;
    // Volatile state is gone; the worker resumes from its own checkpoint (written after every
    // round, as elastic training does). If the ring moved on meanwhile, a peer answers its NACK
    // with the newer parameters; if it is ahead, the peers catch up the same way. Even when every
    // worker crashed, each restarts from its checkpoint and the ring resumes.
    this.ctx.setReplica(node, ckpt.params, ckpt.version, ckpt.version);
    s.round = ckpt.version;
    s.phase = 'compute';
    this.beginRound(node, s);
    this.ctx.startStep(node, s.round);
  }

  private sendState(from: NodeId, to: NodeId): void {
    const rep = this.ctx.replica(from);
    const state: StateMsg = { params: rep.params.slice(), version: rep.version };
    this.ctx.send(from, to, 'state', state, state.params.length * 4);
  }

  authoritativeVersion(): number {
    return newestLiveWorkerVersion(this.ctx);
  }

  nodeVersion(node: NodeId): number {
    return this.ctx.replica(node).version;
  }

  facts(node: NodeId): NodeFacts | null {
    const r = this.ringFacts(node);
    return r && { kind: 'ring-worker', ...r };
  }

  /**
   * Where the worker is in the ring (null while it is down: its place died with the process).
   * Rounds count from 1, so a finished round r leaves the replica at version base + r; `base` is
   * the version the ring started from (degrade restarts its ring after each merge). Every change
   * of it happens in an event addressed to the worker itself, so no other node needs a touch.
   */
  ringFacts(node: NodeId, base = 0): RingFacts | null {
    const s = this.w.get(node);
    if (!s || !this.ctx.isUp(node)) return null;
    if (s.phase === 'compute') return { round: base + s.round + 1, phase: 'compute', k: 0, waitingFor: null };
    return { round: base + s.round + 1, phase: s.phase, k: s.k + 1, waitingFor: this.prev(s.index) };
  }

  lostUpdates(): number {
    return 0; // nothing is acknowledged before every worker holds it
  }
  duplicateUpdates(): number {
    return 0; // a round is applied once per worker by construction; duplicates of chunks are ignored above
  }
}

function fresh(index: number, round: number, paramCount: number): RingWorker {
  return { index, round, phase: 'compute', k: 0, buf: null, scratch: null, sent: new RingSendArrays(paramCount), own: null, spare: null, inbox: new Map(), outbox: new Map(), armed: null, waitSince: 0, timerAt: null, timerToken: 0, op: null };
}

function isBefore(pa: RingPhase, ka: number, pb: RingPhase, kb: number): boolean {
  if (pa !== pb) return pa === 'rs' && pb === 'ag';
  return ka < kb;
}
