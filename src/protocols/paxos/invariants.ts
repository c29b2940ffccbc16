import type { NodeId } from '../../sim/types';
import { updateKey } from '../paramMachine';
import type { Value } from './state';

export interface Violation {
  invariant: string;
  detail: string;
}

/**
 * Paxos's safety properties ("Paxos Made Simple" §2.1–2.2), checked incrementally by an observer
 * that sees every acceptor — bookkeeping outside the protocol, never consulted by it. "Chosen" is
 * the observer's fact: a majority of acceptors has accepted one value in one ballot at that slot.
 *
 * - At most one value is chosen per slot.
 * - Chosen values never change (P2b): once v is chosen at a slot in ballot b, every value proposed
 *   there in a higher ballot is v.
 * - One value per (slot, ballot): a proposer proposes one value in each slot of a ballot.
 * - Learners learn only chosen values (and never change what they learned).
 * - State-machine safety: no two servers apply different values at one slot.
 */
export class PaxosChecker {
  /** `${slot}:${ballot}` → the value proposed there and who accepted it. */
  private readonly votes = new Map<string, { uid: number; by: Set<NodeId> }>();
  private readonly chosen = new Map<number, { uid: number; ballot: number; value: Value }>();
  private readonly chosenKeys = new Set<string>();
  private readonly applied: number[] = [];
  private found: Violation[] = [];

  constructor(private readonly quorum: number) {}

  private report(invariant: string, detail: string): void {
    this.found.push({ invariant, detail });
  }

  drain(): Violation[] {
    const out = this.found;
    this.found = [];
    return out;
  }

  /** A proposer of `ballot` proposes `value` in `slot`. */
  proposed(slot: number, ballot: number, value: Value): void {
    const k = `${slot}:${ballot}`;
    const prior = this.votes.get(k);
    if (prior && prior.uid !== value.uid) this.report('one-value-per-ballot', `ballot ${ballot} proposes two values in slot ${slot}`);
    if (!prior) this.votes.set(k, { uid: value.uid, by: new Set() });
    const c = this.chosen.get(slot);
    if (c && ballot > c.ballot && c.uid !== value.uid) this.report('chosen-never-changes', `ballot ${ballot} proposes another value in slot ${slot}, chosen in ballot ${c.ballot}`);
  }

  /** `node` accepted `value` in `slot` at `ballot`. */
  accepted(node: NodeId, slot: number, ballot: number, value: Value): void {
    const k = `${slot}:${ballot}`;
    let v = this.votes.get(k);
    if (!v) this.votes.set(k, (v = { uid: value.uid, by: new Set() }));
    if (v.uid !== value.uid) return this.report('one-value-per-ballot', `${node} accepts a second value in slot ${slot}, ballot ${ballot}`);
    v.by.add(node);
    if (v.by.size < this.quorum) return;
    const c = this.chosen.get(slot);
    if (!c) {
      this.chosen.set(slot, { uid: value.uid, ballot, value });
      if (value.kind === 'update') this.chosenKeys.add(updateKey(value.update.worker, value.update.seq));
    } else if (c.uid !== value.uid) this.report('at-most-one-value-chosen', `slot ${slot}: a second value is chosen in ballot ${ballot} (the first in ballot ${c.ballot})`);
  }

  /** `node` learned that `slot` holds `value`. */
  learned(node: NodeId, slot: number, value: Value): void {
    const c = this.chosen.get(slot);
    if (!c) this.report('learn-only-chosen', `${node} learns slot ${slot}, where no value is chosen yet`);
    else if (c.uid !== value.uid) this.report('learn-only-chosen', `${node} learns a value at slot ${slot} that is not the chosen one`);
  }

  /** `node` applied the value of `slot` to its replica (slots are applied in order). */
  appliedSlot(node: NodeId, slot: number, value: Value): void {
    if (slot > this.applied.length + 1) return this.report('state-machine-safety', `${node} applies slot ${slot} before slot ${this.applied.length + 1}`);
    if (slot === this.applied.length + 1) this.applied.push(value.uid);
    else if (this.applied[slot - 1] !== value.uid) this.report('state-machine-safety', `${node} applies a different value at slot ${slot}`);
  }

  /** Whether an update (worker#seq) is chosen in some slot: what an acknowledgement must mean. */
  isChosen(key: string): boolean {
    return this.chosenKeys.has(key);
  }

  /** Highest slot some server has applied. */
  get appliedLength(): number {
    return this.applied.length;
  }
}
