import type { NodeId } from '../../sim/types';
import type { UpdateCommand } from '../paramMachine';
import type { Coordinator, Decision, Participant } from './state';

/**
 * Two-phase commit as guarded transitions: each function takes one role's state and one input,
 * changes only that state (appending to its stable log first where the protocol forces a write),
 * and returns what the role must send or do. No clock, no network: twoPcPs.ts owns timers and
 * messages, the tests drive these directly.
 *
 * Phase 1: the coordinator logs `begin`, sends PREPARE; a participant that can commit forces a
 * `prepare` record (with the update) to its log and votes yes — from then on it may not decide on
 * its own. Phase 2: the coordinator decides commit iff every participant voted yes, abort on a no
 * or when its vote timeout fires; it forces the decision to its log, then sends it. A prepared
 * participant whose decision does not come asks the coordinator and the other participants
 * (cooperative termination, Bernstein et al. §7.4): a peer that knows the decision tells it, a peer
 * that has not voted may abort and says so, and when every peer it reaches is prepared too it
 * blocks until the coordinator answers.
 */

export type Vote = 'yes' | 'no';

// ================================================================ participant

/**
 * PREPARE(tx) at a participant. `wait`: it is prepared on an earlier transaction whose decision it
 * does not know yet (it holds the lock on the parameters); it must learn that decision first.
 */
export function onPrepare(p: Participant, tx: number, update: UpdateCommand): { vote: Vote | 'wait' } {
  const known = p.decisions.get(tx);
  if (known) return { vote: known === 'commit' ? 'yes' : 'no' }; // a duplicate: say again what it said
  if (p.prepared?.tx === tx) return { vote: 'yes' };
  if (p.prepared && tx > p.prepared.tx) return { vote: 'wait' };
  if (tx < p.maxTx) {
    // The coordinator runs one transaction at a time and has moved past this one without our vote,
    // so it cannot have committed it: abort (always safe before voting yes).
    record(p, { kind: 'abort', tx });
    return { vote: 'no' };
  }
  record(p, { kind: 'prepare', tx, update });
  p.prepared = { tx, update };
  return { vote: 'yes' };
}

export type DecideOutcome =
  | { kind: 'applied'; update: UpdateCommand }
  | { kind: 'aborted' }
  | { kind: 'known' }
  /** A decision that contradicts this participant's log: a protocol bug the caller reports. */
  | { kind: 'invalid'; why: string };

/** COMMIT / ABORT for `tx` (from the coordinator or, in the termination protocol, a peer). */
export function onDecision(p: Participant, tx: number, d: Decision): DecideOutcome {
  const known = p.decisions.get(tx);
  if (known === d) return { kind: 'known' };
  if (known) return { kind: 'invalid', why: `${p.id} told ${d} for tx ${tx}, which it logged as ${known}` };
  if (d === 'commit' && p.prepared?.tx !== tx) return { kind: 'invalid', why: `${p.id} told to commit tx ${tx} it never voted yes on` };
  const update = p.prepared?.tx === tx ? p.prepared.update : null;
  record(p, { kind: d, tx });
  if (p.prepared?.tx === tx) p.prepared = null;
  return d === 'commit' && update ? { kind: 'applied', update } : { kind: 'aborted' };
}

/**
 * A peer asks a participant for the decision of `tx` (cooperative termination). It answers what
 * it knows; one that has not voted yes on `tx` aborts it now (it never will vote yes, so the
 * coordinator cannot commit it) and answers abort; one prepared on `tx` is uncertain itself.
 */
export function onDecisionRequest(p: Participant, tx: number): { answer: Decision | null; abortedNow: boolean } {
  const known = p.decisions.get(tx);
  if (known) return { answer: known, abortedNow: false };
  if (p.prepared?.tx === tx) return { answer: null, abortedNow: false };
  record(p, { kind: 'abort', tx });
  return { answer: 'abort', abortedNow: true };
}

function record(p: Participant, r: Participant['log'][number]): void {
  p.log.push(r);
  p.maxTx = Math.max(p.maxTx, r.tx);
  if (r.kind !== 'prepare') p.decisions.set(r.tx, r.kind);
}

// ================================================================ coordinator

/** Starts the next transaction: logs `begin` (so a restart knows it existed), then PREPARE goes to everyone. */
export function beginTx(c: Coordinator, update: UpdateCommand): number {
  const tx = ++c.txSeq;
  c.log.push({ kind: 'begin', tx, worker: update.worker, seq: update.seq });
  c.byKey.set(`${update.worker}#${update.seq}`, tx);
  c.current = { tx, update, yes: new Set() };
  return tx;
}

/** A vote at the coordinator: a decision once it has a no, or a yes from every participant. */
export function onVote(c: Coordinator, from: NodeId, tx: number, vote: Vote, participants: readonly NodeId[]): Decision | null {
  if (c.current?.tx !== tx) return null; // a late vote for a decided transaction
  if (vote === 'no') return 'abort';
  c.current.yes.add(from);
  return participants.every((p) => c.current!.yes.has(p)) ? 'commit' : null;
}

/** The vote timeout: a transaction still collecting votes aborts (a missing vote is not a yes). */
export function onVoteTimeout(c: Coordinator, tx: number): Decision | null {
  return c.current?.tx === tx ? 'abort' : null;
}

/** Forces the decision to the stable log (before anyone is told); the transaction is over. */
export function decide(c: Coordinator, tx: number, d: Decision): void {
  c.log.push({ kind: d, tx });
  c.decisions.set(tx, d);
  c.last = { tx, decision: d };
  if (c.current?.tx === tx) c.current = null;
}

/**
 * A participant asks the coordinator about `tx`. A logged decision is the answer; the transaction
 * collecting votes has none yet; one begun before a crash and never decided is aborted (presumed
 * abort: `presumed` tells the caller to log it).
 */
export function onInquiry(c: Coordinator, tx: number): { answer: Decision | null; presumed: boolean } {
  const d = c.decisions.get(tx);
  if (d) return { answer: d, presumed: false };
  if (c.current?.tx === tx || tx > c.txSeq) return { answer: null, presumed: false };
  return { answer: 'abort', presumed: true };
}

/** What a worker's (re)sent update means to the coordinator now. */
export function updateStatus(c: Coordinator, worker: NodeId, seq: number): 'new' | 'pending' | Decision {
  const key = `${worker}#${seq}`;
  const tx = c.byKey.get(key);
  if (tx !== undefined) return c.decisions.get(tx) ?? 'pending';
  return c.queue.some((u) => u.worker === worker && u.seq === seq) ? 'pending' : 'new';
}
