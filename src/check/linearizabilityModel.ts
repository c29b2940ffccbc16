import type { Op } from './ops';

/**
 * The model the linearizability checker (./linearizability) works against: its options and
 * verdicts, and the sequential specification.
 *
 * Sequential specification — a *versioned register*: the parameter object counts the updates
 * applied to it and holds one parameter set per version. Its state is (version, hash), starting
 * at (0, unknown).
 *  - update, version unknown: version + 1 (the new parameters are unknown);
 *  - update producing (v, h): legal iff v = version + 1 → (v, h); or, for a collective update
 *    (all-reduce: every worker applies the same round), iff v = version and h = hash — the
 *    participant applied the very update that produced the current state;
 *  - read returning (v, h): legal iff v = version and h matches the hash (an unknown hash is
 *    learned: a version has one parameter set).
 * Pending operations (Jepsen's info, or never completed) may take effect at any point after their
 * invocation, or never; failed operations never took effect; pending reads are dropped.
 */

export type CheckMode =
  /** Reads and updates against one register (a parameter server, a Raft state machine). */
  | 'register'
  /**
   * Collective rounds (all-reduce, barriers): updates must linearize as a round counter, and a
   * read — a worker adopting a peer's replica — must match the lineage (one parameter set per
   * version); it may be older than the newest round, since a replica read is a local read, not a
   * shared-register read.
   */
  | 'rounds';

export interface CheckOptions {
  mode?: CheckMode;
  /** Give up above this many operations (after the pair patterns). Default 20000. */
  maxOps?: number;
  /** Give up after this many search states. Default 2 000 000. */
  maxStates?: number;
  /** Give up after this much wall time, in ms. Default 5000. */
  budgetMs?: number;
  /** Wall clock for the budget (tests inject one). */
  clock?: () => number;
}

export type WitnessKind = 'fork' | 'stale-read' | 'lost-update' | 'regression' | 'unplaceable';

/** A concrete pair of operations that no sequential order explains (b happened after a). */
export interface Witness {
  kind: WitnessKind;
  a: Op;
  b?: Op;
  /** lost-update: updates completed before b began. */
  count?: number;
}

export type Verdict =
  | { result: 'linearizable'; ops: number; states: number }
  | { result: 'not-linearizable'; ops: number; states: number; witness: Witness }
  | { result: 'unknown'; ops: number; states: number; reason: string };


export interface State {
  v: number;
  h: string | null;
}

export const initial: State = { v: 0, h: null };

/** The sequential specification's transition; null when the operation is illegal in `s`. */
export function step(s: State, op: Op): State | null {
  if (op.f === 'read') {
    if (op.version === undefined) return s; // a read that says nothing constrains nothing
    if (op.version !== s.v) return null;
    if (op.hash !== undefined && s.h !== null && op.hash !== s.h) return null;
    return s.h === null && op.hash !== undefined ? { v: s.v, h: op.hash } : s;
  }
  if (op.version === undefined) return { v: s.v + 1, h: null };
  if (op.version === s.v + 1) return { v: op.version, h: op.hash ?? null };
  if (op.version === s.v && op.hash !== undefined && op.hash === s.h) return s;
  return null;
}

/** Which operations a mode checks: pending reads and failed operations never matter. */
export function relevantOps(all: readonly Op[], mode: CheckMode): Op[] {
  return all.filter((o) => {
    if (o.status === 'fail') return false;
    if (o.f === 'read') return mode === 'register' && o.status === 'ok';
    return true;
  });
}
