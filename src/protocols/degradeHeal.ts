import type { Message, NodeId } from '../sim/types';
import type { EpochGrants } from './degradeEpochs';
import type { DegradeConfig } from './degradeKnobs';
import { mergeReplicas } from './degradeMerge';
import type { ContributionMsg, MergedMsg, WorkerState } from './degradeState';
import type { NoteData, StrategyContext } from './strategy';

/**
 * `degrade`'s heal (degrade.ts): a healed worker contributes its replica, side and local gradients
 * to the coordinator; with every contribution in hand the coordinator merges them by the rule
 * (degradeMerge.ts) under the next epoch and sends the result to all; each worker adopts it.
 *
 * The merge survives lost messages and crashes: a merging worker resends its contribution every
 * detectTimeoutMs; the coordinator keeps its last merge durably and answers a contribution older
 * than it with that merge (the sender's work is already in it), so a lost `merged` message is
 * repaired by the next resend. If the coordinator has moved past that merge (the cluster split again
 * after it), it says so, and the sender contributes again at once instead of rejoining a ring of
 * the old epoch that no one else is in. A merging worker that stops hearing everyone returns to local
 * training (the merge cannot complete now) and contributes again once healed; steps it takes after a
 * contribution that did get merged are counted in lostWork when it adopts that merge.
 */

/** What the heal needs of the strategy it belongs to. */
export interface HealHost {
  st(id: NodeId): WorkerState;
  /** The workers `node` heard within detectTimeoutMs (itself included). */
  reachable(node: NodeId, s: WorkerState): NodeId[];
  fence(node: NodeId, why: NoteData['fenced']): void;
  /** A fresh ring state for `node` at round 0 (the ring's crash handling). */
  resetRing(node: NodeId): void;
  /** Handles a message as if it arrived now (ring messages held until the merge was adopted). */
  deliver(msg: Message): void;
}

export class Heal {
  /** Local steps discarded by merges, or taken after a contribution that got merged. */
  lostWork = 0;
  merges = 0;
  private readonly n: number;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly cfg: DegradeConfig,
    private readonly epochs: EpochGrants,
    private readonly host: HealHost,
  ) {
    this.n = ctx.workers.length;
  }

  contribute(node: NodeId, s: WorkerState, reach: NodeId[]): void {
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

  onContribution(coordinator: NodeId, c: ContributionMsg): void {
    const s = this.host.st(coordinator);
    const last = s.lastMerge;
    if (last && c.epoch < last.epoch) {
      // Made before the last merge, which therefore holds it (a merge needs every worker): the
      // sender missed the merged parameters. Resend them rather than merge its work twice.
      this.host.fence(c.worker, { what: 'contribution', from: c.worker, epoch: c.epoch, current: last.epoch });
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
    if (this.epochs.fromService) return this.epochs.askEpoch(coordinator, s, epoch, `merge:${coordinator}`, cs);
    this.mergeWith(coordinator, s, cs, epoch);
  }

  /** With all contributions and an epoch: merge by the rule and send the result to every worker. */
  mergeWith(coordinator: NodeId, s: WorkerState, cs: ContributionMsg[], epoch: number): void {
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

  adopt(node: NodeId, m: MergedMsg): void {
    const s = this.host.st(node);
    if (m.epoch <= s.epoch) {
      if (m.epoch < s.epoch) this.host.fence(node, { what: 'merged', epoch: m.epoch, current: s.epoch });
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
    this.host.resetRing(node); // a fresh ring state at round 0 (= the merged version)
    if (superseded) {
      // A merge it missed, resent by a coordinator that has moved past it: the others split again
      // after it and train locally in a newer epoch, so a ring of this epoch would hold no one but
      // this worker. Rejoining it would cost a detector timeout and a second heal hysteresis
      // (check seeds 33182 and 40280 resumed 3.1 s after the heal). Its work up to the merged
      // contribution is in these parameters and its later steps were just counted as lost, so it
      // contributes these parameters, with no local steps, to the merge in progress at once. It
      // takes no epoch (quorum false): it learned of the newer one, it was not granted it.
      s.mode = 'degraded';
      s.side = this.host.reachable(node, s);
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
    for (const msg of early) this.host.deliver(msg);
  }
}
