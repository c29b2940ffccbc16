import type { NodeId } from '../../sim/types';
import { entryAt, type LogState, type RaftEntry } from './state';

/**
 * Raft's safety properties (Figure 3), checked incrementally by an observer that sees every
 * server's state — bookkeeping outside the protocol, never consulted by it. Entries carry an
 * observer-only `uid`, so "the same entry" means the same creation, not equal fields.
 *
 * - Election safety: at most one leader per term, ever (a map term → leader).
 * - Log matching: if two logs hold an entry with the same index and term, the logs are identical
 *   up to that index. Checked on every store: (index, term) must always map to the same entry and
 *   the same predecessor; by induction the whole prefixes are equal.
 * - Leader completeness: an entry committed in term T is in the log of every leader of a term
 *   above T (checked when a server becomes leader). Not of a leader of an older term: a candidate
 *   whose vote replies waited in a paused process's queue can win its old term after a newer
 *   leader has committed more, which Raft allows (it steps down at the first newer message).
 * - State-machine safety: no two servers commit or apply different entries at one index.
 *
 * A compacted prefix (§7) holds committed entries only, applied in order and checked as they
 * were: the checks take the entries before a log's snapIndex as the committed ones.
 */
export interface Violation {
  invariant: string;
  detail: string;
}

export class RaftChecker {
  private readonly termLeader = new Map<number, NodeId>();
  /** The first entry stored at each (index, term): its uid and its predecessor's. */
  private readonly byIndexTerm = new FirstAtIndex();
  /** committed[i - 1]: uid of the entry committed at index i (by anyone). */
  private readonly committed: number[] = [];
  /** commitTerm[i - 1]: the term in which index i was first committed (its committer's current term). */
  private readonly commitTerm: number[] = [];
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

  leaderElected(node: NodeId, term: number, log: LogState): void {
    const prior = this.termLeader.get(term);
    if (prior !== undefined && prior !== node) this.report('election-safety', `${prior} and ${node} both lead term ${term}`);
    else this.termLeader.set(term, node);
    for (let i = log.snapIndex + 1; i <= this.committed.length; i++) {
      if (this.commitTerm[i - 1] < term && entryAt(log, i)?.uid !== this.committed[i - 1]) {
        this.report('leader-completeness', `${node} leads term ${term} without committed entry ${i}`);
        break;
      }
    }
  }

  /** `node` wrote the entry at `index` into its log. */
  stored(node: NodeId, log: LogState, index: number): void {
    const e = entryAt(log, index)!;
    // The entry before the first after a snapshot is the committed one at snapIndex.
    const prevUid = index <= 1 ? 0 : index - 1 === log.snapIndex ? this.committed[index - 2] : entryAt(log, index - 1)!.uid;
    const known = this.byIndexTerm.get(index, e.term);
    if (!known) this.byIndexTerm.set(index, e.term, e.uid, prevUid);
    else if (known.uid !== e.uid || known.prevUid !== prevUid) {
      this.report('log-matching', `${node} holds a different entry or prefix at index ${index}, term ${e.term}`);
    }
  }

  /** `node`'s commitIndex moved from `from` to `to`, in its current term `term`. */
  committedUpTo(node: NodeId, log: LogState, from: number, to: number, term: number): void {
    for (let i = from + 1; i <= to; i++) {
      const uid = entryAt(log, i)?.uid;
      if (uid === undefined) {
        this.report('state-machine-safety', `${node} commits index ${i} beyond its log`);
        return;
      }
      if (i > this.committed.length) {
        this.committed.push(uid);
        this.commitTerm.push(term);
      }
      else if (this.committed[i - 1] !== uid) this.report('state-machine-safety', `${node} commits a different entry at index ${i}`);
    }
  }

  onApply(node: NodeId, index: number, e: RaftEntry): void {
    if (index > this.applied.length) this.applied.push(e.uid);
    else if (this.applied[index - 1] !== e.uid) this.report('state-machine-safety', `${node} applies a different entry at index ${index}`);
  }

  /** The uid of the entry committed at `index`, if any server has committed it yet. */
  committedUid(index: number): number | undefined {
    return index >= 1 ? this.committed[index - 1] : undefined;
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

/**
 * (index, term) → the first entry stored there, as three float columns indexed by log index (issue
 * 9: a string key and an object per entry grew a long run's heap). An index almost always sees one
 * term; a second term at an index (a conflicting entry a later leader overwrote) goes to a map.
 */
class FirstAtIndex {
  private term = new Float64Array(1024).fill(NaN);
  private uid = new Float64Array(1024);
  private prev = new Float64Array(1024);
  private readonly other = new Map<string, { uid: number; prevUid: number }>();

  get(index: number, term: number): { uid: number; prevUid: number } | undefined {
    if (!this.dense(index)) return this.other.get(`${index}:${term}`);
    if (index < this.term.length && this.term[index] === term) return { uid: this.uid[index], prevUid: this.prev[index] };
    return this.other.get(`${index}:${term}`);
  }

  /** Records the first entry at (index, term); the caller checked that none is known. */
  set(index: number, term: number, uid: number, prevUid: number): void {
    if (this.dense(index)) {
      if (index >= this.term.length) this.grow(index + 1);
      if (Number.isNaN(this.term[index])) {
        this.term[index] = term;
        this.uid[index] = uid;
        this.prev[index] = prevUid;
        return;
      }
    }
    this.other.set(`${index}:${term}`, { uid, prevUid });
  }

  private dense(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < 1 << 26;
  }

  private grow(n: number): void {
    let size = this.term.length * 2;
    while (size < n) size *= 2;
    const term = new Float64Array(size).fill(NaN);
    term.set(this.term);
    const uid = new Float64Array(size);
    uid.set(this.uid);
    const prev = new Float64Array(size);
    prev.set(this.prev);
    this.term = term;
    this.uid = uid;
    this.prev = prev;
  }
}
