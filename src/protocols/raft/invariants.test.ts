import { describe, expect, it } from 'vitest';
import { RaftChecker } from './invariants';
import { wholeLog, type LogEntry, type RaftEntry } from './state';

let uid = 0;
const e = (term: number): LogEntry => ({ term, kind: 'noop', uid: ++uid });

/** The checker must catch each broken property (a checker that never fires proves nothing). */
describe('Raft invariant checker', () => {
  it('election safety: two leaders in one term', () => {
    const c = new RaftChecker();
    c.leaderElected('s0', 1, wholeLog([]));
    c.leaderElected('s0', 1, wholeLog([])); // the same leader again is fine
    c.leaderElected('s1', 2, wholeLog([]));
    expect(c.drain()).toEqual([]);
    c.leaderElected('s2', 2, wholeLog([]));
    expect(c.drain().map((v) => v.invariant)).toEqual(['election-safety']);
  });

  it('log matching: same index and term must mean the same entry and the same prefix', () => {
    const c = new RaftChecker();
    const a1 = e(1);
    const a2 = e(2);
    c.stored('s0', wholeLog([a1]), 1);
    c.stored('s0', wholeLog([a1, a2]), 2);
    c.stored('s1', wholeLog([a1, a2]), 2); // the same entries: fine
    expect(c.drain()).toEqual([]);
    c.stored('s2', wholeLog([e(1), a2]), 2); // same entry at 2, but a different predecessor
    c.stored('s3', wholeLog([a1, e(2)]), 2); // a different entry with the same index and term
    expect(c.drain().map((v) => v.invariant)).toEqual(['log-matching', 'log-matching']);
  });

  it('log matching holds at an index that saw several terms (a conflicting entry overwritten), far along the log', () => {
    const c = new RaftChecker();
    for (const index of [1, 5000]) {
      const pre: RaftEntry[] = Array.from({ length: index - 1 }, (_, k) => ({ term: 1, uid: 100_000 + k }));
      c.stored('s0', wholeLog([...pre, { term: 1, uid: 1 }]), index);
      c.stored('s1', wholeLog([...pre, { term: 2, uid: 2 }]), index);
      c.stored('s2', wholeLog([...pre, { term: 2, uid: 2 }]), index);
      c.stored('s3', wholeLog([...pre, { term: 1, uid: 1 }]), index);
      expect(c.drain()).toEqual([]);
      c.stored('s4', wholeLog([...pre, { term: 2, uid: 3 }]), index);
      c.stored('s4', wholeLog([...pre, { term: 1, uid: 4 }]), index);
      expect(c.drain().map((v) => v.invariant)).toEqual(['log-matching', 'log-matching']);
    }
  });

  it('leader completeness: a leader of a later term lacking a committed entry', () => {
    const c = new RaftChecker();
    const log = [e(1), e(1)];
    c.committedUpTo('s0', wholeLog(log), 0, 2, 1);
    c.leaderElected('s1', 2, wholeLog([log[0], log[1], e(2)]));
    expect(c.drain()).toEqual([]);
    c.leaderElected('s2', 3, wholeLog([log[0]]));
    expect(c.drain().map((v) => v.invariant)).toEqual(['leader-completeness']);
  });

  it('leader completeness is about later terms: a leader of an older term, elected late, may lack what a newer term committed (Figure 3)', () => {
    // s0's vote replies for term 2 waited in its queue while it was paused; meanwhile s2 led term
    // 10 and committed index 3. Winning term 2 afterwards is allowed; it steps down at once.
    const c = new RaftChecker();
    const log = [e(1), e(1), e(10)];
    c.committedUpTo('s2', wholeLog(log), 0, 2, 1);
    c.committedUpTo('s2', wholeLog(log), 2, 3, 10);
    c.leaderElected('s0', 2, wholeLog([log[0], log[1]]));
    expect(c.drain()).toEqual([]);
    // …but not without what term 1 committed.
    c.leaderElected('s1', 3, wholeLog([log[0]]));
    expect(c.drain().map((v) => v.invariant)).toEqual(['leader-completeness']);
  });

  it('state-machine safety: different entries committed or applied at one index', () => {
    const c = new RaftChecker();
    const x = e(1);
    const y = e(1);
    c.committedUpTo('s0', wholeLog([x]), 0, 1, 1);
    c.onApply('s0', 1, x);
    c.onApply('s1', 1, x);
    expect(c.drain()).toEqual([]);
    c.committedUpTo('s2', wholeLog([y]), 0, 1, 1);
    c.onApply('s2', 1, y);
    expect(c.drain().map((v) => v.invariant)).toEqual(['state-machine-safety', 'state-machine-safety']);
  });
});
