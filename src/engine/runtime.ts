import { quantize } from '../sim/network';
import type { Rng } from '../sim/rng';
import type { Action, Message, NodeId, NodeRole } from '../sim/types';
import type { Evaluation, GradientResult } from '../train/types';

/**
 * The engine's runtime records, shared by its parts (eventLoop.ts: the event loop; core.ts: the
 * state and the primitives; ports.ts: what strategies see; faultInjection.ts: actions; readModel.ts:
 * views and metrics).
 */

/** A timeline entry's `on` (CURRICULUM §C.1): the event that fires it. */
export type Trigger = { event: string; node?: NodeId; after?: number };

export type Ev =
  | { k: 'action'; action: Action; source: 'timeline' | 'user'; on?: Trigger }
  /** `arrived`: it reached a paused node earlier and waited in its queue (the network has no say any more). */
  | { k: 'deliver'; msg: Message; arrived?: true }
  | { k: 'lost'; msg: Message }
  /** `startedAt`/`due`: the modelled computation, which a pause of the node stretches. */
  | { k: 'stepDone'; node: NodeId; step: number; basedOn: number; inc: number; pending: Promise<GradientResult>; transient: boolean; startedAt: number; due: number }
  | { k: 'timer'; node: NodeId; tag: string; data: unknown; inc: number }
  | { k: 'resume'; node: NodeId; inc: number }
  /** A forced timer or submit that reached a paused process: handled when it resumes (its `inc` then). */
  | { k: 'forced'; action: Extract<Action, { do: 'timeout' | 'submit' }>; inc: number }
  | { k: 'sample' }
  | { k: 'expect'; index: number }
  | { k: 'end' };

/** A timeline action fired by an event runs right after that event, before others due at the same time. */
export const PRIO_TRIGGERED = -1;
/** Probes run after every ordinary event at their time, so they see the settled state. */
export const PRIO_SAMPLE = 1;
export const PRIO_EXPECT = 2;
export const PRIO_END = 3;
/**
 * A user's action applies after everything else due at its time: when the user acted, the live
 * run had processed every event up to that instant, so a replay of the exported run (where it is a
 * timeline entry marked "by": "user") must order it the same way to reproduce the schedule.
 */
export const PRIO_USER = 4;

export interface NodeRt {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  failed?: string;
  /** Bumped on crash and restart: timers and steps of an earlier incarnation are void. */
  inc: number;
  slowFactor: number;
  straggler: number;
  steps: number;
  computing: boolean;
  replica: ReplicaRt;
  /** Times of steps that count for availability (ascending). */
  counted: number[];
  eval?: Evaluation;
  bytesSent: number;
  computeRng: Rng;
  /** Its own stream, so scenarios without compute.transient keep their schedules. */
  transientRng: Rng;
  /** A `pause` in force: until when, and the events that reached the frozen process meanwhile. */
  paused: { from: number; until: number; held: Ev[] } | null;
  /** Every pause of this incarnation (a computation in progress is stretched by those it overlaps). */
  pauses: Array<{ from: number; until: number }>;
}

export interface ReplicaRt {
  params: Float32Array;
  version: number;
  synced: number;
  /**
   * Holds exactly the state the authoritative lineage had at `version` (synced, no local steps
   * on top, same parameters as the first replica seen at that version). Two such replicas only
   * lag one another: the divergence metrics do not count them (metrics.ts).
   */
  onLineage: boolean;
  /** fingerprint(params), kept with them: versions are compared and logged by it. */
  hash: string;
}

/**
 * When a computation that started at `startedAt` and needed until `due` really ends, given the
 * pauses of its process: a frozen process computes nothing, so the work left when a pause begins
 * resumes when it ends.
 */
export function stretched(startedAt: number, due: number, pauses: ReadonlyArray<{ from: number; until: number }>): number {
  let t = startedAt;
  let remaining = due - startedAt;
  for (const p of [...pauses].sort((a, b) => a.from - b.from)) {
    if (p.until <= t) continue;
    if (p.from >= t + remaining) break; // done before this pause
    remaining -= Math.max(0, p.from - t);
    t = p.until;
  }
  return quantize(t + remaining);
}
