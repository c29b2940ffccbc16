import type { NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';

/** An update as a replicated state machine's command: worker, sequence number, gradient. */
export interface UpdateCommand {
  readonly worker: NodeId;
  readonly seq: number;
  readonly grad: Float32Array;
  /** Version of the parameters the gradient was computed on. */
  readonly basedOn: number;
  /** Observer-only identity for the invariant checks; the protocols never read it. */
  readonly uid: number;
}

export function updateKey(worker: NodeId, seq: number): string {
  return `${worker}#${seq}`;
}

/**
 * The replicated state machine of paxos-ps and 2pc-ps: the parameter vector. Applying an update is
 * one SGD step; the version is the number of distinct updates applied. A (worker, seq) pair applied
 * before is skipped, so an update proposed twice (a client's retry) changes the parameters once.
 */
export class ParamMachine {
  version = 0;
  /** (worker, seq) → the version its application produced. */
  readonly applied = new Map<string, number>();
  skipped = 0;

  constructor(public params: Float32Array) {}

  /** Applies an update with learning rate `lr`; returns the version it produced, or null for a duplicate. */
  apply(u: UpdateCommand, lr: number): number | null {
    const key = updateKey(u.worker, u.seq);
    if (this.applied.has(key)) {
      this.skipped++;
      return null;
    }
    axpy(this.params, -lr, u.grad);
    this.version++;
    this.applied.set(key, this.version);
    return this.version;
  }
}
