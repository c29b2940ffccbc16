import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import { AllreduceStrategy } from './allreduce';
import { mergeReplicas, type Contribution } from './degradeMerge';
import { newestLiveWorkerVersion, type CoordEvent, type NodeFacts, type NoteData, type Strategy, type StrategyContext, type StepResult } from './strategy';
import type { DegradeConfig } from './degradeKnobs';

type Mode = 'strong' | 'degraded' | 'merging' | 'down';

interface Wrapped {
  epoch: number;
  inner: unknown;
}
interface ContributionMsg extends Contribution {
  epoch: number;
}
interface MergedMsg {
  epoch: number;
  params: Float32Array;
  version: number;
  /** Local steps of each worker's merged contribution (its later steps are not in the merge). */
  included: Record<NodeId, number>;
  /** On a resend: the coordinator's epoch, when it has moved past this merge since (see adopt). */
  supersededBy?: number;
}

interface WorkerState {
  mode: Mode;
  // ---- persisted (survive a crash, like Raft's currentTerm and a checkpoint file)
  epoch: number;
  /** Version the worker's current ring started from (its round 0). */
  base: number;
  /** Parameters after the last ring round or adopted merge; `fromRing`: the ring's own checkpoint holds the same. */
  ckpt: { params: Float32Array; version: number; fromRing: boolean };
  /** Mode when it crashed (restarts in it). */
  crashedIn: Mode;
  /** Coordinator: the last merge it made, written before it is sent (answers late contributors). */
  lastMerge: MergedMsg | null;
  // ---- volatile
  lastProgress: number;
  lastHeard: Map<NodeId, number>;
  side: NodeId[];
  quorum: boolean;
  grads: Array<{ grad: Float32Array; basedOn: number }>;
  /** Heard every worker continuously since (null: not). */
  stableSince: number | null;
  contributedAt: number;
  /** The worker its last contribution went to (merging). */
  coordinator: NodeId | null;
  /** Ring messages of a newer epoch that arrived before the merged parameters did. */
  early: Message[];
  /** Coordinator: contributions collected for the next merge. */
  contributions: Map<NodeId, ContributionMsg>;
  /** With a service: the epoch it asked for (side epoch, or a merge's), and the request's id. */
  epochAsk: { epoch: number; reqId: number; side: string; merge?: ContributionMsg[] } | null;
}

interface StoreState {
  epoch: number;
  writer: NodeId | null;
  version: number;
}

const RING_KINDS = new Set(['chunk', 'nack', 'state-req', 'state']);

/**
 * "Degrade": strong while healthy, eventual under a detected partition, merged on heal (TRUTHS:
 * "On a partition, 'degrade to Kafka async' and all is well" is the misconception corrected).
 *
 * Strong mode runs the ring all-reduce strategy unchanged (an AllreduceStrategy driven through a
 * translating context: its messages carry the current epoch, its versions are offset by the version
 * the ring started from).
 *
 * Failure detector: every worker heartbeats every other worker (0-byte messages) every
 * detectTimeoutMs/3. A strong worker whose ring made no progress for detectTimeoutMs switches to
 * eventual mode ("partitionDetected"): a partition looks exactly like slowness from inside, so a long
 * stall is treated the same way. Its side = the workers it heard within detectTimeoutMs. A side
 * holding a majority of the workers takes the next epoch (the fencing token); a minority side keeps
 * the old one, so its work is provisional.
 *
 * Eventual mode is local SGD (Stich 2019) at its simplest: each worker applies its own gradients.
 * Workers of one side could also average among themselves or re-form a smaller ring (elastic
 * training); they do not here, which keeps the failure detector the only membership protocol and
 * shows the worst-case drift.
 *
 * Heal: once a degraded worker has heard every worker continuously for healStableMs (hysteresis),
 * it sends its replica, side and local gradients to the coordinator (the lowest worker id it hears).
 * With every contribution in hand the coordinator merges by `merge` (degradeMerge.ts), takes the
 * next epoch and sends the merged parameters to all; each worker adopts them and rejoins a fresh
 * ring. Ring messages or merge contributions carrying an older epoch are rejected (fencedWrites).
 *
 * The merge survives lost messages and crashes: a merging worker resends its contribution every
 * detectTimeoutMs; the coordinator keeps its last merge durably and answers a contribution older
 * than it with that merge (the sender's work is already in it), so a lost `merged` message is
 * repaired by the next resend. If the coordinator has moved past that merge (the cluster split again
 * after it), it says so, and the sender contributes again at once instead of rejoining a ring of
 * the old epoch that no one else is in. A merging worker that stops hearing everyone returns to local
 * training (the merge cannot complete now) and contributes again once healed; steps it takes after a
 * contribution that did get merged are counted in lostWork when it adopts that merge.
 *
 * Crash/restart: a worker persists its epoch, the version its ring started from (`base`) and the
 * parameters after its last ring round or adopted merge (the ring's per-round checkpoint; local
 * steps are volatile). It restarts from those in the mode it crashed in: strong rejoins the ring
 * (which catches it up, or stalls and is detected), degraded/merging trains locally and contributes
 * again.
 *
 * Checkpoints: every checkpointEveryMs the lowest-id worker of each side writes its replica with its
 * epoch to a checkpoint store outside the simulated network (like object storage reachable from
 * both halves). With fencing the store rejects writes older than the newest epoch it has seen; without
 * it, the minority's stale writes replace the majority's as "latest" (split brain, staleWritesAccepted).
 *
 * Epochs and a coordination service (cluster.coord > 0): without one, each side takes its epoch
 * from its own failure detector — a majority of the workers it hears — and under one-way or
 * non-transitive cuts two sides can both count a majority and both take the same epoch, which the
 * checkpoint store then accepts from both (TRUTHS: an epoch is a fencing token only if one authority
 * grants it once). With a service, every epoch is granted once: a side asks it to create the key
 * `/degrade/epoch/<e>` holding the side's members (etcd Txn on createRevision = 0; ZooKeeper create);
 * the create succeeds for one request only, and a worker whose side is the one recorded there holds
 * the epoch. A side that cannot reach a majority of the service never gets an answer and stays
 * provisional; so does one whose key was created by another side. Merges take their epochs the same
 * way. The service's own majority, not the workers', decides.
 *
 * PA/EC: both sides keep training under a partition; without one it pays the ring's latency.
 */
export class DegradeStrategy implements Strategy {
  readonly kind = 'degrade';
  private readonly ring: AllreduceStrategy;
  private readonly w = new Map<NodeId, WorkerState>();
  private readonly n: number;
  private readonly hbMs: number;
  private readonly store: StoreState = { epoch: 0, writer: null, version: 0 };
  private lostWork = 0;
  private fenced = 0;
  private staleAccepted = 0;
  private merges = 0;
  private reqSeq = 0;
  /** Epochs come from the coordination service (granted once) rather than each side's detector. */
  private readonly fromService: boolean;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: DegradeConfig,
  ) {
    this.n = ctx.workers.length;
    this.hbMs = cfg.detectTimeoutMs / 3;
    this.fromService = ctx.coord !== undefined;
    for (const id of ctx.workers) this.w.set(id, fresh(1, ctx.initialParams()));
    this.ring = new AllreduceStrategy(this.ringContext(), { kind: 'allreduce', rtoMs: cfg.rtoMs, lrLinearScaling: cfg.lrLinearScaling });
  }

  /** The context the ring sees: epoch-tagged messages and timers, versions relative to `base`. */
  private ringContext(): StrategyContext {
    const c = this.ctx;
    return {
      ...c,
      workers: c.workers,
      servers: c.servers,
      paramCount: c.paramCount,
      learningRate: c.learningRate,
      stepMs: c.stepMs,
      send: (from, to, kind, payload, bytes) => c.send(from, to, kind, { epoch: this.st(from).epoch, inner: payload } satisfies Wrapped, bytes),
      setTimer: (node, ms, tag, data) => c.setTimer(node, ms, `ring:${tag}`, { epoch: this.st(node).epoch, inner: data } satisfies Wrapped),
      startStep: (w, key) => c.startStep(w, this.st(w).base + (key ?? 0)),
      replica: (w) => {
        const r = c.replica(w);
        const base = this.st(w).base;
        return { params: r.params, version: r.version - base, synced: r.synced - base };
      },
      setReplica: (w, params, version, synced) => {
        const s = this.st(w);
        s.lastProgress = c.now();
        // The ring sets a replica only after a round, a state transfer or a restart from its
        // checkpoint: each time its checkpoint holds exactly these parameters (mirrored here).
        s.ckpt = { params: params.slice(), version: version + s.base, fromRing: true };
        c.setReplica(w, params, version + s.base, synced + s.base);
      },
    };
  }

  private st(id: NodeId): WorkerState {
    return this.w.get(id)!;
  }

  topology(): Array<[NodeId, NodeId]> {
    return this.ring.topology();
  }

  start(): void {
    this.ring.start();
    this.ctx.workers.forEach((id, i) => {
      // Stagger heartbeats a little so the whole cluster does not tick on one instant.
      this.ctx.setTimer(id, this.hbMs * (1 + i / (2 * this.n)), 'hb');
      this.ctx.setTimer(id, this.cfg.checkpointEveryMs, 'ckpt');
    });
  }

  // ---------------------------------------------------------------- steps

  onStepDone(worker: NodeId, r: StepResult): void {
    const s = this.st(worker);
    if (s.mode === 'strong') return this.ring.onStepDone(worker, { ...r, basedOn: r.basedOn - s.base });
    if (s.mode !== 'degraded') return; // merging: the contribution is already sent
    // Local SGD: apply the worker's own gradient and go on.
    const rep = this.ctx.replica(worker);
    const params = rep.params.slice();
    axpy(params, -this.ctx.learningRate, r.grad);
    s.grads.push({ grad: r.grad, basedOn: r.basedOn });
    this.ctx.setReplica(worker, params, rep.version + 1, rep.synced, 'fresh');
    this.ctx.counted(worker);
    this.ctx.startStep(worker, rep.version + 1);
  }

  // ---------------------------------------------------------------- messages

  onMessage(msg: Message): void {
    const s = this.w.get(msg.to);
    if (!s || s.mode === 'down') return;
    if (msg.kind === 'heartbeat') {
      s.lastHeard.set(msg.from, this.ctx.now());
      return;
    }
    if (msg.kind === 'contribution') return this.onContribution(msg.to, msg.payload as ContributionMsg);
    if (msg.kind === 'merged') return this.adopt(msg.to, msg.payload as MergedMsg);
    if (!RING_KINDS.has(msg.kind)) return;
    const m = msg.payload as Wrapped;
    if (m.epoch > s.epoch) {
      s.early.push(msg); // a ring of a merge this worker has not heard of yet
      return;
    }
    if (m.epoch < s.epoch) {
      this.fence(msg.to, { what: 'ring', from: msg.from, epoch: m.epoch, current: s.epoch });
      return;
    }
    if (s.mode === 'strong') this.ring.onMessage({ ...msg, payload: m.inner });
  }

  private fence(node: NodeId, why: NoteData['fenced']): void {
    this.fenced++;
    this.ctx.note('fenced', node, why);
  }

  // ---------------------------------------------------------------- timers: detector, heal, checkpoints

  onTimer(node: NodeId, tag: string, data: unknown): void {
    const s = this.st(node);
    if (tag.startsWith('ring:')) {
      const d = data as Wrapped;
      if (s.mode === 'strong' && d.epoch === s.epoch) this.ring.onTimer(node, tag.slice(5), d.inner);
      return;
    }
    if (tag === 'hb') {
      for (const p of this.ctx.workers) if (p !== node) this.ctx.send(node, p, 'heartbeat', null, 0);
      this.detect(node, s);
      this.ctx.setTimer(node, this.hbMs, 'hb');
    } else if (tag === 'ckpt') {
      this.checkpoint(node, s);
      this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'ckpt');
    }
  }

  private reachable(node: NodeId, s: WorkerState): NodeId[] {
    const now = this.ctx.now();
    return this.ctx.workers.filter((p) => p === node || now - (s.lastHeard.get(p) ?? -Infinity) < this.cfg.detectTimeoutMs);
  }

  private detect(node: NodeId, s: WorkerState): void {
    const now = this.ctx.now();
    const reach = this.reachable(node, s);
    if (s.mode === 'strong') {
      if (now - s.lastProgress <= this.cfg.detectTimeoutMs) return;
      // No ring progress for detectTimeoutMs: switch to local training.
      s.mode = 'degraded';
      s.side = reach;
      if (this.fromService) {
        // Provisional until the service grants this side the next epoch (once, to one side).
        s.quorum = false;
        this.askEpoch(node, s, s.epoch + 1, reach.join(','));
      } else {
        s.quorum = reach.length > this.n / 2;
        if (s.quorum) s.epoch++; // only a majority can obtain the next epoch
      }
      s.grads = [];
      s.stableSince = null;
      this.ctx.note('partitionDetected', node, { side: [...reach], epoch: s.epoch });
      this.ctx.note('modeSwitch', node, { to: 'eventual', epoch: s.epoch });
      if (!this.ctx.isComputing(node)) this.ctx.startStep(node, this.ctx.replica(node).version);
      return;
    }
    const all = reach.length === this.n;
    if (s.mode === 'degraded') {
      if (!all) {
        s.stableSince = null;
        return;
      }
      s.stableSince ??= now;
      if (now - s.stableSince >= this.cfg.healStableMs) this.contribute(node, s, reach);
    } else if (s.mode === 'merging') {
      if (!all) {
        // Someone is unreachable again: the merge cannot complete now. Train locally meanwhile;
        // contribute again once everyone is heard for healStableMs.
        s.mode = 'degraded';
        s.stableSince = null;
        this.ctx.note('mergeAborted', node, { epoch: s.epoch, reachable: [...reach] });
        if (!this.ctx.isComputing(node)) this.ctx.startStep(node, this.ctx.replica(node).version);
      } else if (now - s.contributedAt > this.cfg.detectTimeoutMs) {
        this.contribute(node, s, reach); // lost, or the coordinator crashed, or its answer was lost
      }
    }
  }

  private contribute(node: NodeId, s: WorkerState, reach: NodeId[]): void {
    s.mode = 'merging';
    s.contributedAt = this.ctx.now();
    const rep = this.ctx.replica(node);
    const c: ContributionMsg = {
      worker: node,
      side: s.side.join(','),
      quorum: s.quorum,
      params: rep.params.slice(),
      version: rep.version,
      grads: s.grads.slice(),
      empty: false, // a restarted worker has its checkpoint
      epoch: s.epoch,
    };
    const coordinator = reach[0];
    s.coordinator = coordinator;
    const bytes = (1 + c.grads.length) * this.ctx.paramCount * 4;
    if (coordinator === node) this.onContribution(node, c);
    else this.ctx.send(node, coordinator, 'contribution', c, bytes);
  }

  private onContribution(coordinator: NodeId, c: ContributionMsg): void {
    const s = this.st(coordinator);
    const last = s.lastMerge;
    if (last && c.epoch < last.epoch) {
      // Made before the last merge, which therefore holds it (a merge needs every worker): the
      // sender missed the merged parameters. Resend them rather than merge its work twice.
      this.fence(c.worker, { what: 'contribution', from: c.worker, epoch: c.epoch, current: last.epoch });
      if (c.worker === coordinator) return this.adopt(coordinator, last);
      const resend: MergedMsg = s.epoch > last.epoch ? { ...last, supersededBy: s.epoch } : last;
      this.ctx.send(coordinator, c.worker, 'merged', resend, last.params.length * 4);
      return;
    }
    s.contributions.set(c.worker, c); // a resend replaces the earlier copy
    if (s.contributions.size < this.n) return;
    const cs = this.ctx.workers.map((w) => s.contributions.get(w)!);
    s.contributions = new Map();
    const epoch = Math.max(...cs.map((x) => x.epoch)) + 1;
    // With a service the merge's epoch is granted like any other (it becomes the new fencing token).
    if (this.fromService) return this.askEpoch(coordinator, s, epoch, `merge:${coordinator}`, cs);
    this.mergeWith(coordinator, s, cs, epoch);
  }

  /** With all contributions and an epoch: merge by the rule and send the result to every worker. */
  private mergeWith(coordinator: NodeId, s: WorkerState, cs: ContributionMsg[], epoch: number): void {
    const r = mergeReplicas(cs, {
      rule: this.cfg.merge,
      learningRate: this.ctx.learningRate,
      averageWeights: this.cfg.averageWeights,
      replayLr: this.cfg.replayLr,
      replayMaxStaleness: this.cfg.replayMaxStaleness,
    });
    this.lostWork += r.lostWork;
    this.merges++;
    this.ctx.note('merge', coordinator, { rule: this.cfg.merge, epoch, lostWork: r.lostWork, replayed: r.replayed });
    const included: Record<NodeId, number> = {};
    for (const x of cs) included[x.worker] = x.grads.length;
    const m: MergedMsg = { epoch, params: r.params, version: r.version, included };
    s.lastMerge = m;
    for (const w of this.ctx.workers) {
      if (w === coordinator) this.adopt(w, m);
      else this.ctx.send(coordinator, w, 'merged', m, m.params.length * 4);
    }
  }

  // ---------------------------------------------------------------- epochs from the coordination service

  /** Asks the service to grant `epoch` to `side` (create-if-absent of its key). */
  private askEpoch(node: NodeId, s: WorkerState, epoch: number, side: string, merge?: ContributionMsg[]): void {
    const reqId = ++this.reqSeq;
    s.epochAsk = merge ? { epoch, reqId, side, merge } : { epoch, reqId, side };
    this.ctx.coord!.create(node, `/degrade/epoch/${epoch}`, side, reqId);
    this.ctx.touch(node);
  }

  onCoord(worker: NodeId, ev: CoordEvent): void {
    const s = this.w.get(worker);
    const ask = s?.epochAsk;
    if (!s || !ask || (ev.t !== 'created' && ev.t !== 'exists') || ev.reqId !== ask.reqId) return;
    s.epochAsk = null;
    const holder = ev.t === 'created' ? ask.side : ev.value;
    if (ask.merge) {
      // The merge's epoch was taken (a side took it meanwhile): ask for the next one.
      if (holder !== ask.side) return this.askEpoch(worker, s, ask.epoch + 1, ask.side, ask.merge);
      return this.mergeWith(worker, s, ask.merge, ask.epoch);
    }
    const ours = holder === ask.side;
    this.ctx.note('epochGranted', worker, { epoch: ask.epoch, side: holder.split(','), ours });
    // Granted to this side (by this request or a side-mate's): authoritative. Otherwise provisional.
    if (!ours || s.mode !== 'degraded' || s.epoch >= ask.epoch) return;
    s.epoch = ask.epoch;
    s.quorum = true;
    // Observer: a token granted once is held by one side only.
    const prior = this.epochHolders.get(ask.epoch);
    if (prior === undefined) this.epochHolders.set(ask.epoch, ask.side);
    else if (prior !== ask.side) this.found.push({ invariant: 'epoch-granted-once', detail: `epoch ${ask.epoch} held by sides {${prior}} and {${ask.side}}` });
  }

  private readonly epochHolders = new Map<number, string>();
  private readonly found: Array<{ invariant: string; detail: string }> = [];

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.found.splice(0);
  }

  private adopt(node: NodeId, m: MergedMsg): void {
    const s = this.st(node);
    if (m.epoch <= s.epoch) {
      if (m.epoch < s.epoch) this.fence(node, { what: 'merged', epoch: m.epoch, current: s.epoch });
      return;
    }
    // Local steps taken after the contribution that was merged (it went back to local training).
    const late = s.grads.length - (m.included[node] ?? s.grads.length);
    if (late > 0) this.lostWork += late;
    s.epoch = m.epoch;
    s.base = m.version;
    s.ckpt = { params: m.params.slice(), version: m.version, fromRing: false };
    s.grads = [];
    s.stableSince = null;
    s.lastProgress = this.ctx.now();
    const superseded = m.supersededBy !== undefined && m.supersededBy > m.epoch;
    if (!superseded) this.ctx.note('modeSwitch', node, { to: 'strong', epoch: m.epoch });
    this.ctx.setReplica(node, m.params, m.version, m.version);
    this.ctx.counted(node);
    this.ring.onCrash(node); // a fresh ring state at round 0 (= the merged version)
    if (superseded) {
      // A merge it missed, resent by a coordinator that has moved past it: the others split again
      // after it and train locally in a newer epoch, so a ring of this epoch would hold no one but
      // this worker. Rejoining it would cost a detector timeout and a second heal hysteresis
      // (check seeds 33182 and 40280 resumed 3.1 s after the heal). Its work up to the merged
      // contribution is in these parameters and its later steps were just counted as lost, so it
      // contributes these parameters, with no local steps, to the merge in progress at once. It
      // takes no epoch (quorum false): it learned of the newer one, it was not granted it.
      s.mode = 'degraded';
      s.side = this.reachable(node, s);
      s.quorum = false;
      if (s.side.length === this.n) this.contribute(node, s, s.side);
      else if (!this.ctx.isComputing(node)) this.ctx.startStep(node, m.version);
      return;
    }
    s.mode = 'strong';
    // A local step still in flight finishes first; the ring then restarts it on the merged replica.
    this.ctx.startStep(node, m.version);
    const early = s.early;
    s.early = [];
    for (const msg of early) this.onMessage(msg);
  }

  private checkpoint(node: NodeId, s: WorkerState): void {
    if (s.mode === 'merging') return;
    const side = s.mode === 'strong' ? this.reachable(node, s) : s.side.filter((p) => this.reachable(node, s).includes(p));
    if (side[0] !== node) return; // one writer per side: its lowest id
    const version = this.ctx.replica(node).version;
    if (s.epoch < this.store.epoch) {
      if (this.cfg.fencing) {
        this.fence(node, { what: 'checkpoint', epoch: s.epoch, current: this.store.epoch });
        return;
      }
      this.staleAccepted++;
      this.ctx.note('staleWriteAccepted', node, { epoch: s.epoch, storeEpoch: this.store.epoch });
    }
    const before = { epoch: this.store.epoch, writer: this.store.writer };
    this.store.epoch = Math.max(this.store.epoch, s.epoch);
    this.store.writer = node;
    this.store.version = version;
    // The store is shared: every worker's facts show it, so a new epoch or writer touches them all.
    if (this.store.epoch !== before.epoch || this.store.writer !== before.writer) for (const w of this.ctx.workers) this.ctx.touch(w);
  }

  // ---------------------------------------------------------------- faults

  onCrash(node: NodeId): void {
    this.ring.onCrash(node);
    const old = this.st(node);
    // Volatile state (heard peers, local gradients, collected contributions) is lost.
    const s = fresh(old.epoch, old.ckpt.params);
    s.base = old.base;
    s.ckpt = old.ckpt;
    s.lastMerge = old.lastMerge;
    s.crashedIn = old.mode === 'down' ? old.crashedIn : old.mode;
    s.side = old.side;
    s.quorum = old.quorum;
    s.mode = 'down';
    this.w.set(node, s);
  }

  onRestart(node: NodeId): void {
    const s = this.st(node);
    s.lastProgress = this.ctx.now();
    this.ctx.setTimer(node, this.hbMs, 'hb');
    this.ctx.setTimer(node, this.cfg.checkpointEveryMs, 'ckpt');
    if (s.crashedIn === 'strong') {
      // Rejoin the ring where it left off. If the others moved on (degraded, merged), the ring
      // stalls and the detector takes this worker to the next merge like any other.
      s.mode = 'strong';
      if (s.ckpt.fromRing) {
        this.ring.onRestart(node); // its checkpoint is the ring's, relative to the persisted base
      } else {
        // Adopted a merge but finished no round since: the ring is at round 0 = the merged version.
        this.ctx.setReplica(node, s.ckpt.params, s.ckpt.version, s.ckpt.version);
        this.ctx.startStep(node, s.ckpt.version);
      }
      return;
    }
    // Crashed degraded or merging: its local steps are gone; it trains on from the checkpoint on
    // the side it was on, and contributes again once it hears everyone.
    s.mode = 'degraded';
    this.ctx.setReplica(node, s.ckpt.params, s.ckpt.version, s.ckpt.version);
    this.ctx.startStep(node, s.ckpt.version);
  }

  authoritativeVersion(): number {
    return newestLiveWorkerVersion(this.ctx);
  }

  nodeVersion(node: NodeId): number {
    return this.ctx.replica(node).version;
  }

  /**
   * Mode, epoch and the shared checkpoint store for every live worker; strong: its place in the
   * ring (rounds counted on from the version the ring started at); eventual: its side, whether
   * that side holds a majority, its unmerged local steps, and whether it waits out the heal
   * hysteresis; merging: also the coordinator its contribution went to. A coordinator shows how
   * many contributions it holds. Everything but the store changes only in the worker's own events
   * (the ring's too: it is driven through this worker's messages and timers); a store write
   * touches every worker (checkpoint). Where its epochs come from (its failure detector or the
   * coordination service) and an epoch request in flight: epochFacts. Null while down.
   */
  facts(node: NodeId): NodeFacts | null {
    const s = this.w.get(node);
    if (!s || s.mode === 'down' || !this.ctx.isUp(node)) return null;
    const collected = s.contributions.size > 0 ? { collected: s.contributions.size } : {};
    const store = { storeEpoch: this.store.epoch, storeWriter: this.store.writer, ...this.epochFacts(node) };
    if (s.mode === 'strong') {
      const ring = this.ring.ringFacts(node, s.base);
      return { kind: 'degrade-worker', mode: 'strong', epoch: s.epoch, ...(ring ? { ring } : {}), ...collected, ...store };
    }
    const local = { side: [...s.side], majoritySide: s.quorum, localSteps: s.grads.length };
    if (s.mode === 'merging') {
      return { kind: 'degrade-worker', mode: 'merging', epoch: s.epoch, ...local, ...(s.coordinator ? { coordinator: s.coordinator } : {}), ...collected, ...store };
    }
    return { kind: 'degrade-worker', mode: 'eventual', epoch: s.epoch, ...local, ...(s.stableSince !== null ? { stable: true } : {}), ...collected, ...store };
  }

  lostUpdates(): number {
    return 0; // nothing is acknowledged across workers in eventual mode; discarded local work is lostWork
  }
  duplicateUpdates(): number {
    return 0;
  }

  metric(name: string): number | null | undefined {
    switch (name) {
      case 'degradedWorkers':
        return this.ctx.workers.filter((w) => this.ctx.isUp(w) && (this.st(w).mode === 'degraded' || this.st(w).mode === 'merging')).length;
      case 'lostWork':
        return this.lostWork;
      case 'fencedWrites':
        return this.fenced;
      case 'staleWritesAccepted':
        return this.staleAccepted;
      default:
        return undefined;
    }
  }

  /** Where this worker's epochs come from, and an epoch request in flight (facts; see facts.ts `epochFrom`). */
  epochFacts(node: NodeId): { epochFrom: 'detector' | 'service'; epochPending?: number } {
    const ask = this.w.get(node)?.epochAsk;
    return { epochFrom: this.fromService ? 'service' : 'detector', ...(ask ? { epochPending: ask.epoch } : {}) };
  }

  /** Merges done so far (for tests and the status line). */
  mergeCount(): number {
    return this.merges;
  }
}

function fresh(epoch: number, params: Float32Array): WorkerState {
  return {
    mode: 'strong',
    epoch,
    base: 0,
    ckpt: { params, version: 0, fromRing: false },
    crashedIn: 'strong',
    lastMerge: null,
    lastProgress: 0,
    lastHeard: new Map(),
    side: [],
    quorum: true,
    grads: [],
    stableSince: null,
    contributedAt: 0,
    coordinator: null,
    early: [],
    contributions: new Map(),
    epochAsk: null,
  };
}
