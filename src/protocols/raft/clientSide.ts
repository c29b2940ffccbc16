import type { NodeId } from '../../sim/types';
import type { NodeFacts } from '../facts';
import type { StepResult, StrategyContext } from '../strategy';
import type { ClientMsg } from './messages';
import type { RaftObserver } from './observer';

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

/** An update acknowledged (committed and applied): the operation completes, the observer and the engine count it. */
export function recordAck(ctx: StrategyContext, obs: RaftObserver, worker: NodeId, seq: number, opId: number, version: number): void {
  ctx.op(worker, 'ok', 'update', opId, version);
  obs.ack(worker, seq);
  ctx.counted(worker);
}

/** Parameters read: a read older than the newest the worker had seen is noted as stale; the replica takes them. */
export function recordRead(
  ctx: StrategyContext,
  obs: RaftObserver,
  worker: NodeId,
  from: NodeId,
  m: { params: Float32Array; version: number },
  done: { opId: number; floor: number },
): void {
  if (m.version < done.floor) {
    obs.staleRead(worker);
    ctx.note('staleRead', worker, { version: m.version, newest: done.floor, server: from });
  }
  ctx.op(worker, 'ok', 'read', done.opId, m.version, m.params);
  ctx.setReplica(worker, m.params, m.version, m.version);
}
