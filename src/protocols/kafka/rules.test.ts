import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ackAfterAppend,
  checkProduce,
  diverges,
  electLeader,
  endOffsetForEpoch,
  epochCacheOf,
  highWatermark,
  laggingFollowers,
  leaderEpochAnswer,
  mayJoinIsr,
  onFollowerFetch,
  pendingOutcome,
  shrinkIsr,
  truncationOffset,
  type FollowerFetchState,
} from './rules';

const fresh: FollowerFetchState = { leo: -1, lastCaughtUpMs: 0, lastFetchMs: 0, lastFetchLeaderLeo: 0 };

describe('high watermark', () => {
  it('is the minimum LEO over the ISR, the leader included', () => {
    const leo: Record<string, number> = { b0: 10, b1: 7, b2: 3 };
    expect(highWatermark(0, ['b0', 'b1', 'b2'], (b) => leo[b])).toBe(3);
    expect(highWatermark(0, ['b0', 'b1'], (b) => leo[b])).toBe(7); // b2 left the ISR: the HW jumps
    expect(highWatermark(0, ['b0'], (b) => leo[b])).toBe(10);
  });
  it('never moves back on a leader, and waits for followers it has not heard from', () => {
    expect(highWatermark(8, ['b0', 'b1'], (b) => ({ b0: 10, b1: 5 })[b])).toBe(8);
    expect(highWatermark(4, ['b0', 'b1'], (b) => (b === 'b0' ? 10 : undefined))).toBe(4);
  });
  it('property: never above any ISR member, never below the previous value', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100), { minLength: 1, maxLength: 5 }), fc.nat(100), (leos, cur) => {
        const isr = leos.map((_, i) => `b${i}`);
        const hw = highWatermark(cur, isr, (b) => leos[Number(b.slice(1))]);
        expect(hw).toBeGreaterThanOrEqual(cur);
        if (hw > cur) expect(hw).toBe(Math.min(...leos));
      }),
    );
  });
});

describe('ISR maintenance (replica.lag.time.max.ms)', () => {
  it('a follower asking for the leader end is caught up now', () => {
    const s = onFollowerFetch(fresh, 10, 10, 500);
    expect(s.lastCaughtUpMs).toBe(500);
  });
  it('a follower reaching what the leader had at its previous fetch was caught up then', () => {
    let s = onFollowerFetch(fresh, 5, 8, 100); // behind
    s = onFollowerFetch(s, 8, 12, 200); // reached 8 (the leader's end at t=100), leader moved on
    expect(s.lastCaughtUpMs).toBe(100);
  });
  it('a follower that stops fetching leaves the ISR after the lag time; the leader never does', () => {
    const f = new Map([
      ['b1', { ...fresh, lastCaughtUpMs: 1000 }],
      ['b2', { ...fresh, lastCaughtUpMs: 2900 }],
    ]);
    expect(laggingFollowers(['b0', 'b1', 'b2'], 'b0', f, 3000, 1000)).toEqual(['b1']);
    expect(laggingFollowers(['b0', 'b1', 'b2'], 'b0', f, 2000, 1000)).toEqual([]);
  });
  it('a follower rejoins once it reaches the HW and the start of the leader epoch', () => {
    expect(mayJoinIsr(10, 10, 4)).toBe(true);
    expect(mayJoinIsr(9, 10, 4)).toBe(false);
    expect(mayJoinIsr(10, 3, 12)).toBe(false);
  });
  it('the ISR is never shrunk to empty', () => {
    expect(shrinkIsr(['b0', 'b1'], ['b1'])).toEqual(['b0']);
    expect(shrinkIsr(['b0'], ['b0'])).toEqual(['b0']);
  });
});

describe('acks decision table', () => {
  it.each([
    ['0', 1, 2, true, 'no-response'],
    ['1', 1, 2, true, 'ack-now'],
    ['all', 3, 2, true, 'wait'],
    ['all', 2, 2, true, 'wait'],
    ['all', 1, 2, false, null],
    ['all', 1, 1, true, 'wait'],
  ] as const)('acks=%s, ISR %i, min.insync.replicas %i', (acks, isr, min, accepted, after) => {
    const c = checkProduce(acks, isr, min);
    expect(c.ok).toBe(accepted);
    if (!c.ok) expect(c.error).toBe('NotEnoughReplicas');
    if (after) expect(ackAfterAppend(acks)).toBe(after);
  });
  it('a waiting acks=all request is answered once the HW passes it: ack, or NotEnoughReplicasAfterAppend if the ISR shrank', () => {
    expect(pendingOutcome(5, 5, 3, 2)).toBe('wait');
    expect(pendingOutcome(5, 6, 3, 2)).toBe('ack');
    expect(pendingOutcome(5, 6, 1, 2)).toBe('NotEnoughReplicasAfterAppend');
  });
});

describe('leader election', () => {
  const replicas = ['b0', 'b1', 'b2'];
  it('clean: the first live ISR member in assignment order', () => {
    expect(electLeader(replicas, ['b0', 'b2'], (b) => b !== 'b0', false)).toEqual({ kind: 'clean', leader: 'b2', isr: ['b2'] });
  });
  it('no live ISR member, unclean disabled: offline, the ISR keeps its last member', () => {
    expect(electLeader(replicas, ['b0'], (b) => b !== 'b0', false)).toEqual({ kind: 'offline', isr: ['b0'] });
  });
  it('no live ISR member, unclean enabled: an out-of-sync replica leads and the ISR restarts with it', () => {
    expect(electLeader(replicas, ['b0'], (b) => b !== 'b0', true)).toEqual({ kind: 'unclean', leader: 'b1', isr: ['b1'] });
  });
  it('nothing alive: offline even with unclean enabled', () => {
    expect(electLeader(replicas, ['b0'], () => false, true).kind).toBe('offline');
  });
});

describe('leader-epoch truncation (KIP-101, KIP-279)', () => {
  const c = epochCacheOf;

  it('the epoch cache holds one run per epoch', () => {
    expect(c([0, 0, 1, 1, 3])).toEqual({
      runs: [
        { epoch: 0, start: 0 },
        { epoch: 1, start: 2 },
        { epoch: 3, start: 4 },
      ],
      leo: 5,
    });
    expect(c([])).toEqual({ runs: [], leo: 0 });
  });
  it('end offset of an epoch is where the next epoch starts', () => {
    expect(endOffsetForEpoch(c([0, 0, 1, 1, 3]), 0)).toBe(2);
    expect(endOffsetForEpoch(c([0, 0, 1, 1, 3]), 1)).toBe(4);
    expect(endOffsetForEpoch(c([0, 0, 1, 1, 3]), 2)).toBe(4);
    expect(endOffsetForEpoch(c([0, 0, 1, 1, 3]), 3)).toBe(5);
  });
  it('an old leader with an unreplicated tail truncates it (acks=1 loss)', () => {
    const leader = [0, 0, 0, 1, 1]; // b1 took over at offset 3 in epoch 1
    const oldLeader = [0, 0, 0, 0, 0, 0]; // b0 had appended 3 more records in epoch 0
    expect(diverges(c(leader), oldLeader.length, 0)).toBe(true);
    expect(truncationOffset(c(oldLeader), leaderEpochAnswer(c(leader), 0))).toBe(3);
  });
  it('a follower whose log is a prefix does not truncate', () => {
    expect(diverges(c([0, 0, 1, 1]), 3, 1)).toBe(false);
    expect(diverges(c([0, 0, 1, 1]), 0, -1)).toBe(false);
  });
  it('a follower with records of an epoch the leader never had truncates to its own end of the common epoch', () => {
    const leader = [0, 0, 2, 2, 2];
    const follower = [0, 0, 1, 1];
    const a = leaderEpochAnswer(c(leader), 1);
    expect(a).toEqual({ epoch: 0, endOffset: 2 });
    expect(truncationOffset(c(follower), a)).toBe(2);
  });
  it('property: the cache answers exactly as a scan of every record’s epoch would, for any epoch sequence', () => {
    // The per-record definitions (what the rules computed before the cache), as the oracle.
    const endScan = (epochs: number[], epoch: number) => {
      for (let i = 0; i < epochs.length; i++) if (epochs[i] > epoch) return i;
      return epochs.length;
    };
    const answerScan = (epochs: number[], last: number) => {
      let epoch = -1;
      for (const e of epochs) if (e <= last && e > epoch) epoch = e;
      return { epoch, endOffset: endScan(epochs, epoch) };
    };
    fc.assert(
      fc.property(fc.array(fc.nat(4), { maxLength: 12 }), fc.array(fc.nat(4), { maxLength: 12 }), fc.integer({ min: -1, max: 5 }), (leader, follower, e) => {
        expect(endOffsetForEpoch(c(leader), e)).toBe(endScan(leader, e));
        const a = leaderEpochAnswer(c(leader), e);
        expect(a).toEqual(answerScan(leader, e));
        expect(truncationOffset(c(follower), a)).toBe(Math.min(a.endOffset, endScan(follower, a.epoch), follower.length));
      }),
    );
  });
  it('property: after truncation and refetch, the follower log is a prefix of the leader log', () => {
    // Logs as epoch sequences that share a prefix and then diverge with higher epochs on the leader.
    fc.assert(
      fc.property(fc.array(fc.nat(2), { maxLength: 6 }), fc.nat(4), fc.nat(4), (prefixSteps, fTail, lTail) => {
        const prefix: number[] = [];
        let e = 0;
        for (const s of prefixSteps) prefix.push((e += s));
        const last = prefix.length ? prefix[prefix.length - 1] : 0;
        const follower = [...prefix, ...Array(fTail).fill(last + 1)];
        const leader = [...prefix, ...Array(lTail).fill(last + 2)];
        let f = follower;
        for (let i = 0; i < 5 && diverges(c(leader), f.length, f.length ? f[f.length - 1] : -1); i++) {
          f = f.slice(0, truncationOffset(c(f), leaderEpochAnswer(c(leader), f[f.length - 1])));
        }
        expect(leader.slice(0, f.length)).toEqual(f);
        expect(f.length).toBeGreaterThanOrEqual(prefix.length);
      }),
    );
  });
});
