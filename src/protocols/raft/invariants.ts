import type { NodeId } from '../../sim/types';
import type { RaftEntry } from './state';

/**
 * Raft's safety properties (Figure 3), checked incrementally by an observer that sees every
 * server's state — bookkeeping outside the protocol, never consulted by it. Entries carry an
 * observer-only `uid`, so "the same entry" means the same creation, not equal fields.
 *
 * - Election safety: at most one leader per term, ever (a map term → leader).
 * - Log matching: if two logs hold an entry with the same index and term, the logs are identical
 *   up to that index. Checked on every store: (index, term) must always map to the same entry and
 *   the same predecessor; by induction the whole prefixes are equal.
 * - Leader completeness: a committed entry is in the log of every later leader (checked when a
 *   server becomes leader).
 * - State-machine safety: no two servers commit or apply different entries at one index.
 */
export interface Violation {
  invariant: string;
  detail: string;
}

export class RaftChecker {
  private readonly termLeader = new Map<number, NodeId>();
  private readonly byIndexTerm = new Map<string, { uid: number; prevUid: number }>();
  /** committed[i - 1]: uid of the entry committed at index i (by anyone). */
  private readonly committed: number[] = [];
  private readonly applied: number[] = [];
  private found: Violation[] = [];

  private report(invariant: string, detail: string): void {
    this.found.push({ invariant, detail });
  }

  /** Violations found since the last call. */
  drain(): Violation[] {
    const out = this.found;
    this.found = [];
    return out;
  }

  leaderElected(node: NodeId, term: number, log: readonly RaftEntry[]): void {
    const prior = this.termLeader.get(term);
    if (prior !== undefined && prior !== node) this.report('election-safety', `${prior} and ${node} both lead term ${term}`);
    else this.termLeader.set(term, node);
    for (let i = 1; i <= this.committed.length; i++) {
      if (log[i - 1]?.uid !== this.committed[i - 1]) {
        this.report('leader-completeness', `${node} leads term ${term} without committed entry ${i}`);
        break;
      }
    }
  }

  /** `node` wrote the entry at `index` into its log. */
  stored(node: NodeId, log: readonly RaftEntry[], index: number): void {
    const e = log[index - 1];
    const prevUid = index > 1 ? log[index - 2].uid : 0;
    const k = `${index}:${e.term}`;
    const known = this.byIndexTerm.get(k);
    if (!known) this.byIndexTerm.set(k, { uid: e.uid, prevUid });
    else if (known.uid !== e.uid || known.prevUid !== prevUid) {
      this.report('log-matching', `${node} holds a different entry or prefix at index ${index}, term ${e.term}`);
    }
  }

  /** `node`'s commitIndex moved from `from` to `to`. */
  committedUpTo(node: NodeId, log: readonly RaftEntry[], from: number, to: number): void {
    for (let i = from + 1; i <= to; i++) {
      const uid = log[i - 1]?.uid;
      if (uid === undefined) {
        this.report('state-machine-safety', `${node} commits index ${i} beyond its log`);
        return;
      }
      if (i > this.committed.length) this.committed.push(uid);
      else if (this.committed[i - 1] !== uid) this.report('state-machine-safety', `${node} commits a different entry at index ${i}`);
    }
  }

  onApply(node: NodeId, index: number, e: RaftEntry): void {
    if (index > this.applied.length) this.applied.push(e.uid);
    else if (this.applied[index - 1] !== e.uid) this.report('state-machine-safety', `${node} applies a different entry at index ${index}`);
  }

  /** Highest index any server has committed so far (the observer's view). */
  get committedLength(): number {
    return this.committed.length;
  }

  /** Highest index any server has applied so far. */
  get appliedLength(): number {
    return this.applied.length;
  }
}
