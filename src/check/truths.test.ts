import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../sim/types';
import { MAJORITY_WINDOW_MS, truthProblems } from './truths';

const ev = (e: Record<string, unknown>) => e as unknown as HistoryEvent;
const S3 = ['s0', 's1', 's2'];
const apply = (t: number) => ev({ t, type: 'note', node: 's0', what: 'apply', data: { worker: 'w0', seq: t, staleness: 0 } });
const prepare = (t: number, tx: number) => ev({ t, type: 'note', node: 's0', what: '2pc.prepareSent', data: { tx, participants: 3 } });
const decided = (t: number, tx: number, decision: 'commit' | 'abort') => ev({ t, type: 'note', node: 's0', what: '2pc.decided', data: { tx, decision, reason: 'all-yes' } });

describe('2pc-ps: with a participant down, nothing commits', () => {
  it('a commit of a transaction prepared while a server was down (and still is) is a problem; aborts and later crashes are not', () => {
    const h = [
      prepare(100, 1),
      ev({ t: 105, type: 'crash', node: 's2' }), // crashed after PREPARE went out: it may have voted yes
      decided(110, 1, 'commit'),
      prepare(200, 2),
      decided(500, 2, 'abort'),
      prepare(600, 3),
      decided(610, 3, 'commit'),
      ev({ t: 700, type: 'restart', node: 's2' }),
      prepare(800, 4),
      decided(810, 4, 'commit'),
    ];
    expect(truthProblems('2pc-ps', h, S3)).toEqual(['tx 3 committed at 610 ms although s2 was down from 105 ms, before its PREPARE (600 ms)']);
    expect(truthProblems('raft-ps', h, S3)).toEqual([]);
  });
});

describe('paxos-ps: while a majority lives, it keeps choosing', () => {
  it('a healthy stretch longer than the window without a choice is a problem; an unhealthy one is not', () => {
    const w = MAJORITY_WINDOW_MS;
    const ok = [apply(100), ev({ t: 200, type: 'crash', node: 's0' }), apply(100 + w - 1), apply(100 + 2 * w - 2)];
    expect(truthProblems('paxos-ps', ok, S3)).toEqual([]);
    const minority = [apply(100), ev({ t: 200, type: 'crash', node: 's0' }), ev({ t: 300, type: 'crash', node: 's1' }), ev({ t: 9000, type: 'restart', node: 's1' }), apply(9100)];
    expect(truthProblems('paxos-ps', minority, S3)).toEqual([]);
    const partitioned = [ev({ t: 100, type: 'action', action: { do: 'partition', groups: [['s0'], ['s1', 's2']] }, source: 'timeline' }), apply(5000)];
    expect(truthProblems('paxos-ps', partitioned, S3)).toEqual([]);
    const lossy = [ev({ t: 100, type: 'action', action: { do: 'link', from: 's0', to: 's1', loss: 0.3 }, source: 'timeline' }), ev({ t: 4000, type: 'action', action: { do: 'link', from: 's0', to: 's1', loss: 0 }, source: 'timeline' }), apply(4100)];
    expect(truthProblems('paxos-ps', lossy, S3)).toEqual([]);
    const stalled = [apply(100), ev({ t: 300, type: 'crash', node: 's2' }), apply(400), apply(3000)];
    expect(truthProblems('paxos-ps', stalled, S3)).toEqual([`a majority of servers was up and the network whole from 400 to 3000 ms, and nothing was chosen`]);
    const cutThenRestored = [ev({ t: 100, type: 'action', action: { do: 'cut', from: 's0', to: 's1' }, source: 'timeline' }), ev({ t: 3000, type: 'action', action: { do: 'restore', from: 's0', to: 's1' }, source: 'timeline' }), ev({ t: 6000, type: 'end' })];
    expect(truthProblems('paxos-ps', cutThenRestored, S3)).toEqual(['a majority of servers was up and the network whole from 3000 to 6000 ms, and nothing was chosen']);
  });

  it('a paused server (a GC pause) is not up: a crash beside it leaves no majority until the pause ends (the etcd check flagged seeds 30017 and 30072)', () => {
    const pause = (t: number, node: string, ms: number) => ev({ t, type: 'action', action: { do: 'pause', node, ms }, source: 'timeline' });
    // s2 paused 1700 → 3900, s0 down from 2400: one of three up, nothing to choose with.
    const h = [apply(100), apply(1000), pause(1700, 's2', 2200), apply(2300), ev({ t: 2400, type: 'crash', node: 's0' }), apply(5000), ev({ t: 5200, type: 'end' })];
    expect(truthProblems('paxos-ps', h, S3)).toEqual([]);
    // The stretch starts when the pause ends: nothing chosen for the window after it is a problem.
    const late = [apply(100), apply(1000), pause(1700, 's2', 2200), apply(2300), ev({ t: 2400, type: 'crash', node: 's0' }), ev({ t: 3900 + MAJORITY_WINDOW_MS + 100, type: 'end' })];
    expect(truthProblems('paxos-ps', late, S3)).toEqual([`a majority of servers was up and the network whole from 3900 to ${3900 + MAJORITY_WINDOW_MS + 100} ms, and nothing was chosen`]);
    // A crash ends a pause: restarted, the server is up again.
    const crashed = [pause(100, 's1', 10_000), ev({ t: 200, type: 'crash', node: 's1' }), ev({ t: 300, type: 'restart', node: 's1' }), apply(400), ev({ t: 400 + MAJORITY_WINDOW_MS + 100, type: 'end' })];
    expect(truthProblems('paxos-ps', crashed, S3)).toHaveLength(1);
  });
});
