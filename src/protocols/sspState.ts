import type { NodeId } from '../sim/types';
import type { PushMsg, Update } from './sspWire';
import { freshWaitClock, type WaitClock } from './waiting';

/** What an `ssp` worker and its server hold (ssp.ts), and a worker's state at the start and after a restart. */

export interface WorkerState extends WaitClock {
  clock: number;
  unacked: Update[];
  cacheVersion: number;
  cacheMin: number;
  cacheParams: Float32Array | null;
  /** Blocked until a read at minClock ≥ need arrives (null: not blocked). */
  need: number | null;
  /** After a restart: no parameters and no clock until the server answers. */
  needsParams: boolean;
  timerArmed: boolean;
  /** Persisted boot counter: 0 at the start, +1 per restart. */
  incarnation: number;
}

export interface ServerState {
  params: Float32Array;
  version: number;
  applied: Map<NodeId, number>;
  /** Newest incarnation of each worker that said hello (persisted with the rest). */
  incarnation: Map<NodeId, number>;
}

export function freshWorker(now: number): WorkerState {
  return { clock: 0, unacked: [], cacheVersion: 0, cacheMin: 0, cacheParams: null, need: null, needsParams: false, timerArmed: false, incarnation: 0, ...freshWaitClock(now) };
}

/** A restarted worker's pull: it has no clock and no parameters until the answer. */
export function helloMsg(s: WorkerState): PushMsg {
  return { updates: [], need: null, inc: s.incarnation, hello: true };
}
