import type { NodeId } from '../../sim/types';
import type { NodeFacts } from '../facts';
import type { StepResult } from '../strategy';
import type { ClientMsg } from './messages';

/**
 * The workers of raft-ps as the servers' code sees them: training clients (workers.ts) or manual
 * clients that update only on `submit` (manualWorkers.ts), per `clientMode`.
 */
export interface ClientSide {
  start(): void;
  onStepDone(worker: NodeId, r: StepResult): void;
  onMessage(worker: NodeId, from: NodeId, m: ClientMsg): void;
  onTimer(worker: NodeId, tag: string, data: unknown): void;
  onCrash(worker: NodeId): void;
  onRestart(worker: NodeId): void;
  /** Null for a node that is no worker. */
  facts(worker: NodeId): NodeFacts | null;
  /** `submit` (CURRICULUM §C.2): false where it means nothing (training clients). */
  submit(worker: NodeId, count: number): boolean;
  readonly manual: boolean;
}
