import type { NodeId } from '../../sim/types';
import type { Decision } from './state';

export interface Violation {
  invariant: string;
  detail: string;
}

/**
 * Atomic commitment's safety properties (Bernstein, Hadzilacos & Goodman 1987, §7.2, AC1–AC4),
 * checked incrementally by an observer that sees every role's state — bookkeeping outside the
 * protocol, never consulted by it.
 *
 * - Atomicity (AC1): every node that decides a transaction decides the same way.
 * - Commit needs every yes (AC3): the coordinator commits only when every participant has voted
 *   yes (has forced a prepare record). So with any participant down, nothing commits.
 * - No unilateral decision after a yes (AC2 and blocking): a participant that voted yes decides
 *   only after the coordinator decided, or — abort only — after some participant aborted the
 *   transaction without having voted yes (cooperative termination).
 * - State-machine safety: every participant applies the same committed updates in the same order.
 */
export class TwoPcChecker {
  private readonly decided = new Map<number, Decision>();
  private readonly coordDecided = new Set<number>();
  private readonly yes = new Map<number, Set<NodeId>>();
  private readonly unilateral = new Set<number>();
  private readonly appliedOrder: number[] = [];
  private readonly appliedCount = new Map<NodeId, number>();
  private found: Violation[] = [];

  private report(invariant: string, detail: string): void {
    this.found.push({ invariant, detail });
  }

  drain(): Violation[] {
    const out = this.found;
    this.found = [];
    return out;
  }

  /** `node` forced a prepare record for `tx`: it voted yes. */
  votedYes(node: NodeId, tx: number): void {
    let s = this.yes.get(tx);
    if (!s) this.yes.set(tx, (s = new Set()));
    s.add(node);
  }

  /** `node` aborted `tx` without having voted yes on it (a no vote, or cooperative termination). */
  abortedUnvoted(node: NodeId, tx: number): void {
    if (this.yes.get(tx)?.has(node)) this.report('no-unilateral-decision', `${node} aborts tx ${tx} on its own after voting yes`);
    this.unilateral.add(tx);
    this.agree(node, tx, 'abort');
  }

  coordinatorDecided(tx: number, d: Decision, participants: readonly NodeId[]): void {
    if (d === 'commit') {
      const missing = participants.filter((p) => !this.yes.get(tx)?.has(p));
      if (missing.length) this.report('commit-needs-every-yes', `tx ${tx} commits without a yes vote from ${missing.join(', ')}`);
    }
    this.coordDecided.add(tx);
    this.agree('the coordinator', tx, d);
  }

  /** A participant learned the decision of `tx` (from the coordinator or a peer). */
  participantDecided(node: NodeId, tx: number, d: Decision): void {
    const allowed = this.coordDecided.has(tx) || (d === 'abort' && this.unilateral.has(tx)) || !this.yes.get(tx)?.has(node);
    if (!allowed) this.report('no-unilateral-decision', `${node} decides ${d} for tx ${tx} before the coordinator did`);
    this.agree(node, tx, d);
  }

  private agree(who: string, tx: number, d: Decision): void {
    const prior = this.decided.get(tx);
    if (prior === undefined) this.decided.set(tx, d);
    else if (prior !== d) this.report('atomicity', `${who} decides ${d} for tx ${tx}, which was decided ${prior}`);
  }

  /** `node` applied the committed update of `tx` as its n-th update (n = its applied count + 1). */
  applied(node: NodeId, tx: number): void {
    const n = (this.appliedCount.get(node) ?? 0) + 1;
    this.appliedCount.set(node, n);
    if (n > this.appliedOrder.length) this.appliedOrder.push(tx);
    else if (this.appliedOrder[n - 1] !== tx) this.report('state-machine-safety', `${node} applies tx ${tx} as update ${n}, others applied tx ${this.appliedOrder[n - 1]}`);
  }

  /** A participant's replica was rebuilt from its log: its applied count restarts from what replay applied. */
  replayed(node: NodeId, count: number, txs: readonly number[]): void {
    this.appliedCount.set(node, 0);
    for (const tx of txs) this.applied(node, tx);
    if (txs.length !== count) this.report('state-machine-safety', `${node} replays ${txs.length} commits but applies ${count}`);
  }

  decisionOf(tx: number): Decision | undefined {
    return this.decided.get(tx);
  }
}
