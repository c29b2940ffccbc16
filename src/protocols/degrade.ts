import type { Message, NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';
import { AllreduceStrategy } from './allreduce';
import { CheckpointStore } from './degradeCheckpoints';
import { EpochGrants } from './degradeEpochs';
import { Heal } from './degradeHeal';
import type { DegradeConfig } from './degradeKnobs';
import { RING_KINDS, ringContext, type Wrapped } from './degradeRing';
import { freshWorker, type ContributionMsg, type MergedMsg, type WorkerState } from './degradeState';
import { newestLiveWorkerVersion, type CoordEvent, type NodeFacts, type NoteData, type Strategy, type StrategyContext, type StepResult } from './strategy';

/**
 * "Degrade": strong while healthy, eventual under a detected partition, merged on heal (TRUTHS:
 * "On a partition, 'degrade to Kafka async' and all is well" is the misconception corrected).
 *
 * Strong mode runs the ring all-reduce strategy unchanged (an AllreduceStrategy driven through a
 * translating context: its messages carry the current epoch, its versions are offset by the version
 * the ring started from; degradeRing.ts).
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
 * The contributions, the merge and its adoption: degradeHeal.ts.
 *
 * The merge survives lost messages and crashes (resends, a durable last merge): degradeHeal.ts.
 *
 * Crash/restart: a worker persists its epoch, the version its ring started from (`base`) and the
 * parameters after its last ring round or adopted merge (the ring's per-round checkpoint; local
 * steps are volatile). It restarts from those in the mode it crashed in: strong rejoins the ring
 * (which catches it up, or stalls and is detected), degraded/merging trains locally and contributes
 * again.
 *
 * Checkpoints: every checkpointEveryMs the lowest-id worker of each side writes its replica with its
 * epoch to a checkpoint store outside the simulated network (like object storage reachable from
 * both halves; degradeCheckpoints.ts). With fencing the store rejects writes older than the newest
 * epoch it has seen; without it, the minority's stale writes replace the majority's as "latest"
 * (split brain, staleWritesAccepted).
 *
 * Epochs from a coordination service (cluster.coord > 0), granted once to one side rather than
 * taken by each side's detector: degradeEpochs.ts.
 *
 * PA/EC: both sides keep training under a partition; without one it pays the ring's latency.
 */
export class DegradeStrategy implements Strategy {
  readonly kind = 'degrade';
  private readonly ring: AllreduceStrategy;
  private readonly w = new Map<NodeId, WorkerState>();
  private readonly n: number;
  private readonly hbMs: number;
  private readonly store: CheckpointStore;
  private readonly epochs: EpochGrants;
  private readonly heal: Heal;
  private fenced = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: DegradeConfig,
  ) {
    this.n = ctx.workers.length;
    this.hbMs = cfg.detectTimeoutMs / 3;
    for (const id of ctx.workers) this.w.set(id, freshWorker(1, ctx.initialParams()));
    this.ring = new AllreduceStrategy(ringContext(ctx, (id) => this.st(id)), { kind: 'allreduce', rtoMs: cfg.rtoMs, lrLinearScaling: cfg.lrLinearScaling });
    const fence = (node: NodeId, why: NoteData['fenced']) => this.fence(node, why);
    this.store = new CheckpointStore(ctx, cfg.fencing, fence);
    this.epochs = new EpochGrants(ctx, (coordinator, s, cs, epoch) => this.heal.mergeWith(coordinator, s, cs, epoch));
    this.heal = new Heal(ctx, cfg, this.epochs, {
      st: (id) => this.st(id),
      reachable: (node, s) => this.reachable(node, s),
      fence,
      resetRing: (node) => this.ring.onCrash(node),
      deliver: (msg) => this.onMessage(msg),
    });
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
    if (msg.kind === 'contribution') return this.heal.onContribution(msg.to, msg.payload as ContributionMsg);
    if (msg.kind === 'merged') return this.heal.adopt(msg.to, msg.payload as MergedMsg);
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
      if (this.epochs.fromService) {
        // Provisional until the service grants this side the next epoch (once, to one side).
        s.quorum = false;
        this.epochs.askEpoch(node, s, s.epoch + 1, reach.join(','));
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
      if (now - s.stableSince >= this.cfg.healStableMs) this.heal.contribute(node, s, reach);
    } else if (s.mode === 'merging') {
      if (!all) {
        // Someone is unreachable again: the merge cannot complete now. Train locally meanwhile;
        // contribute again once everyone is heard for healStableMs.
        s.mode = 'degraded';
        s.stableSince = null;
        this.ctx.note('mergeAborted', node, { epoch: s.epoch, reachable: [...reach] });
        if (!this.ctx.isComputing(node)) this.ctx.startStep(node, this.ctx.replica(node).version);
      } else if (now - s.contributedAt > this.cfg.detectTimeoutMs) {
        this.heal.contribute(node, s, reach); // lost, or the coordinator crashed, or its answer was lost
      }
    }
  }

  private checkpoint(node: NodeId, s: WorkerState): void {
    if (s.mode === 'merging') return;
    const side = s.mode === 'strong' ? this.reachable(node, s) : s.side.filter((p) => this.reachable(node, s).includes(p));
    if (side[0] !== node) return; // one writer per side: its lowest id
    this.store.write(node, s.epoch, this.ctx.replica(node).version);
  }

  // ---------------------------------------------------------------- epochs from the coordination service

  onCoord(worker: NodeId, ev: CoordEvent): void {
    this.epochs.onCoord(worker, this.w.get(worker), ev);
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.epochs.checkInvariants();
  }

  // ---------------------------------------------------------------- faults

  onCrash(node: NodeId): void {
    if (!this.w.has(node)) return; // a server: the ring is the workers'
    this.ring.onCrash(node);
    const old = this.st(node);
    // Volatile state (heard peers, local gradients, collected contributions) is lost.
    const s = freshWorker(old.epoch, old.ckpt.params);
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
    if (!this.w.has(node)) return; // a server: the ring is the workers'
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
    const store = { ...this.store.facts(), ...this.epochFacts(node) };
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
        return this.heal.lostWork;
      case 'fencedWrites':
        return this.fenced;
      case 'staleWritesAccepted':
        return this.store.staleAccepted;
      default:
        return undefined;
    }
  }

  /** Where this worker's epochs come from, and an epoch request in flight (facts; see facts.ts `epochFrom`). */
  epochFacts(node: NodeId): { epochFrom: 'detector' | 'service'; epochPending?: number } {
    const ask = this.w.get(node)?.epochAsk;
    return { epochFrom: this.epochs.fromService ? 'service' : 'detector', ...(ask ? { epochPending: ask.epoch } : {}) };
  }

  /** Merges done so far (for tests and the status line). */
  mergeCount(): number {
    return this.heal.merges;
  }
}
