import type { NodeId } from '../sim/types';
import type { ContributionMsg, WorkerState } from './degradeState';
import type { CoordEvent, StrategyContext } from './strategy';

/**
 * Where `degrade`'s epochs come from (degrade.ts).
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
 */

/** Merges the contributions under the epoch granted for them (the heal's coordinator, degradeHeal.ts). */
type MergeWith = (coordinator: NodeId, s: WorkerState, cs: ContributionMsg[], epoch: number) => void;

export class EpochGrants {
  /** Epochs come from the coordination service (granted once) rather than each side's detector. */
  readonly fromService: boolean;
  private reqSeq = 0;
  private readonly epochHolders = new Map<number, string>();
  private readonly found: Array<{ invariant: string; detail: string }> = [];

  constructor(
    private readonly ctx: StrategyContext,
    private readonly mergeWith: MergeWith,
  ) {
    this.fromService = ctx.coord !== undefined;
  }

  /** Asks the service to grant `epoch` to `side` (create-if-absent of its key). */
  askEpoch(node: NodeId, s: WorkerState, epoch: number, side: string, merge?: ContributionMsg[]): void {
    const reqId = ++this.reqSeq;
    s.epochAsk = merge ? { epoch, reqId, side, merge } : { epoch, reqId, side };
    this.ctx.coord!.create(node, `/degrade/epoch/${epoch}`, side, reqId);
    this.ctx.touch(node);
  }

  /** The service's answer to a worker (`s`: its state, undefined for a node that is no worker). */
  onCoord(worker: NodeId, s: WorkerState | undefined, ev: CoordEvent): void {
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

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.found.splice(0);
  }
}
