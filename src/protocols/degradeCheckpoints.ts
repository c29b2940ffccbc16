import type { NodeId } from '../sim/types';
import type { NoteData, StrategyContext } from './strategy';

/**
 * `degrade`'s checkpoint store (degrade.ts "Checkpoints"): one store outside the simulated network,
 * like object storage reachable from both halves of a partition, where each side's writer puts its
 * replica tagged with its epoch. With fencing it rejects a write older than the newest epoch it has
 * seen; without, the stale write becomes "latest" (split brain, staleWritesAccepted).
 */

interface StoreState {
  epoch: number;
  writer: NodeId | null;
  version: number;
}

export class CheckpointStore {
  private readonly store: StoreState = { epoch: 0, writer: null, version: 0 };
  /** Writes of an epoch older than the store's, accepted because fencing is off. */
  staleAccepted = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly fencing: boolean,
    private readonly fence: (node: NodeId, why: NoteData['fenced']) => void,
  ) {}

  /** `node` writes its replica (at `version`) under its `epoch`. */
  write(node: NodeId, epoch: number, version: number): void {
    if (epoch < this.store.epoch) {
      if (this.fencing) {
        this.fence(node, { what: 'checkpoint', epoch, current: this.store.epoch });
        return;
      }
      this.staleAccepted++;
      this.ctx.note('staleWriteAccepted', node, { epoch, storeEpoch: this.store.epoch });
    }
    const before = { epoch: this.store.epoch, writer: this.store.writer };
    this.store.epoch = Math.max(this.store.epoch, epoch);
    this.store.writer = node;
    this.store.version = version;
    // The store is shared: every worker's facts show it, so a new epoch or writer touches them all.
    if (this.store.epoch !== before.epoch || this.store.writer !== before.writer) for (const w of this.ctx.workers) this.ctx.touch(w);
  }

  /** What every worker's facts show of the store: its newest epoch and its last writer. */
  facts(): { storeEpoch: number; storeWriter: NodeId | null } {
    return { storeEpoch: this.store.epoch, storeWriter: this.store.writer };
  }
}
