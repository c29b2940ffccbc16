import type { NodeId } from '../../sim/types';
import { ParamMachine, updateKey, type UpdateCommand } from '../paramMachine';

/**
 * Two-phase commit state (Gray 1978; Bernstein, Hadzilacos & Goodman 1987, ch. 7), split the way
 * a crash splits it: each role's **stable log** survives, everything else is rebuilt from it by
 * `recoverParticipant` / `recoverCoordinator`. The parameter replica is rebuilt too, by replaying
 * the committed updates of the participant's log in order (a database's redo).
 */

export type Decision = 'commit' | 'abort';

/** A participant's stable-log record. Immutable: the engine follows the log by identity. */
export type PartRecord =
  | { readonly kind: 'prepare'; readonly tx: number; readonly update: UpdateCommand }
  | { readonly kind: 'commit' | 'abort'; readonly tx: number };

export interface Participant {
  readonly id: NodeId;
  /** Stable storage. */
  log: PartRecord[];
  // ---- derived from the log
  decisions: Map<number, Decision>;
  /** The transaction it voted yes on whose decision it does not know (at most one: the coordinator runs one at a time). */
  prepared: { tx: number; update: UpdateCommand } | null;
  /** Highest transaction it has any record of. */
  maxTx: number;
  sm: ParamMachine;
}

/** The coordinator's stable-log record: `begin` is written before PREPARE goes out, a decision before it is sent. */
export type CoordRecord =
  | { readonly kind: 'begin'; readonly tx: number; readonly worker: NodeId; readonly seq: number }
  | { readonly kind: 'commit' | 'abort'; readonly tx: number };

export interface Coordinator {
  /** Stable storage. */
  log: CoordRecord[];
  // ---- derived from the log
  /** Highest transaction begun (ids are never reused, across restarts too). */
  txSeq: number;
  decisions: Map<number, Decision>;
  /** The newest decision in the log. */
  last: { tx: number; decision: Decision } | null;
  /** worker#seq → the transaction that carried it. */
  byKey: Map<string, number>;
  // ---- volatile
  /** The transaction collecting votes: who voted yes so far. */
  current: { tx: number; update: UpdateCommand; yes: Set<NodeId> } | null;
  /** Updates waiting for their transaction (one transaction at a time: the parameters are one object). */
  queue: UpdateCommand[];
}

/** Rebuilds a participant's volatile state from its stable log (after a crash, or at creation). */
export function recoverParticipant(id: NodeId, log: PartRecord[], initial: Float32Array, lr: number): Participant {
  const p: Participant = { id, log, decisions: new Map(), prepared: null, maxTx: 0, sm: new ParamMachine(initial) };
  const updates = new Map<number, UpdateCommand>();
  for (const r of log) {
    p.maxTx = Math.max(p.maxTx, r.tx);
    if (r.kind === 'prepare') {
      updates.set(r.tx, r.update);
      continue;
    }
    p.decisions.set(r.tx, r.kind);
    const u = updates.get(r.tx);
    if (r.kind === 'commit' && u) p.sm.apply(u, lr);
  }
  for (const [tx, update] of updates) if (!p.decisions.has(tx)) p.prepared = { tx, update };
  return p;
}

export function recoverCoordinator(log: CoordRecord[]): Coordinator {
  const c: Coordinator = { log, txSeq: 0, decisions: new Map(), last: null, byKey: new Map(), current: null, queue: [] };
  for (const r of log) {
    if (r.kind === 'begin') {
      c.txSeq = Math.max(c.txSeq, r.tx);
      c.byKey.set(updateKey(r.worker, r.seq), r.tx);
    } else {
      c.decisions.set(r.tx, r.kind);
      c.last = { tx: r.tx, decision: r.kind };
    }
  }
  return c;
}

/** Transactions begun and never decided: after a restart, presumed aborted. */
export function undecided(c: Coordinator): number[] {
  const out: number[] = [];
  for (const r of c.log) if (r.kind === 'begin' && !c.decisions.has(r.tx)) out.push(r.tx);
  return out;
}
