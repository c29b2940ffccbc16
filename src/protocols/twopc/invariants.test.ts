import { describe, expect, it } from 'vitest';
import { TwoPcChecker } from './invariants';

const ps = ['s0', 's1', 's2'];
const names = (c: TwoPcChecker) => c.drain().map((v) => v.invariant);

describe('2PC invariants (the observer catches each broken property)', () => {
  it('a correct commit and a correct abort pass', () => {
    const c = new TwoPcChecker();
    for (const p of ps) c.votedYes(p, 1);
    c.coordinatorDecided(1, 'commit', ps);
    for (const p of ps) c.participantDecided(p, 1, 'commit');
    c.votedYes('s0', 2);
    c.abortedUnvoted('s1', 2); // voted no
    c.coordinatorDecided(2, 'abort', ps);
    c.participantDecided('s0', 2, 'abort');
    for (const p of ps) c.applied(p, 1);
    expect(names(c)).toEqual([]);
  });

  it('commit without every yes', () => {
    const c = new TwoPcChecker();
    c.votedYes('s0', 1);
    c.votedYes('s1', 1);
    c.coordinatorDecided(1, 'commit', ps);
    expect(c.drain()).toEqual([{ invariant: 'commit-needs-every-yes', detail: 'tx 1 commits without a yes vote from s2' }]);
  });

  it('two different decisions for one transaction (atomicity)', () => {
    const c = new TwoPcChecker();
    for (const p of ps) c.votedYes(p, 1);
    c.coordinatorDecided(1, 'commit', ps);
    c.participantDecided('s1', 1, 'abort');
    expect(names(c)).toEqual(['atomicity']);
  });

  it('a prepared participant that decides before the coordinator', () => {
    const c = new TwoPcChecker();
    c.votedYes('s1', 1);
    c.participantDecided('s1', 1, 'commit');
    c.votedYes('s2', 2);
    c.abortedUnvoted('s2', 2);
    expect(names(c)).toEqual(['no-unilateral-decision', 'no-unilateral-decision']);
  });

  it('cooperative termination: a prepared participant may abort once a peer aborted without voting', () => {
    const c = new TwoPcChecker();
    c.votedYes('s1', 1);
    c.abortedUnvoted('s2', 1);
    c.participantDecided('s1', 1, 'abort');
    expect(names(c)).toEqual([]);
  });

  it('replicas applying commits in different orders', () => {
    const c = new TwoPcChecker();
    c.applied('s0', 1);
    c.applied('s0', 2);
    c.applied('s1', 2);
    expect(names(c)).toEqual(['state-machine-safety']);
    c.replayed('s2', 1, [1, 2]);
    expect(names(c)).toEqual(['state-machine-safety']);
  });
});
