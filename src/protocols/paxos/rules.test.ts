import { describe, expect, it } from 'vitest';
import { becomeLeader, learn, learnFromCommitPoint, nextBallot, onAccept, onAcceptedReply, onHeartbeat, onPrepare, onPromise, recoverSlots, startPhase1 } from './rules';
import { freshDurable, freshVolatile, GAP, proposerOf, type PaxosCore, type PromiseReply, type Value } from './state';

const SERVERS = ['s0', 's1', 's2', 's3', 's4'];
let uid = 0;
const noop = (): Value => ({ kind: 'noop', uid: ++uid });
const update = (worker = 'w0', seq = 1): Value => ({ kind: 'update', update: { worker, seq, grad: new Float32Array([1]), basedOn: 0, uid: ++uid }, uid: ++uid });

function core(id = 's0', n = 5): PaxosCore {
  const d = freshDurable();
  return { id, servers: SERVERS.slice(0, n), d, v: freshVolatile(d, new Float32Array([0]), 1) };
}

describe('ballots', () => {
  it.each([
    [0, 5, 0, 5],
    [0, 5, 2, 2],
    [7, 5, 2, 12],
    [7, 5, 3, 8],
    [9, 5, 4, 14],
    [10, 3, 1, 13],
  ])('the smallest ballot above %i for server %i of %i… is %i', (floor, n, index, b) => {
    expect(nextBallot(floor, n, index)).toBe(b);
    expect(proposerOf(b, SERVERS.slice(0, n))).toBe(SERVERS[index]);
  });

  it('a candidate picks a ballot above its promise, its last ballot and refusals it saw, and stores it first', () => {
    const s = core('s1');
    s.d.promised = 7;
    s.v.maxSeen = 13;
    const req = startPhase1(s);
    expect(req).toEqual({ ballot: 16, fromSlot: 1 });
    expect(s.d.lastBallot).toBe(16);
    expect(s.v.role).toBe('candidate');
  });
});

describe('acceptor (P1a: never accept below a promise)', () => {
  it.each([
    ['prepare above the promise: promise', 3, { t: 'prepare', ballot: 8 }, true, 8],
    ['prepare equal to the promise (retransmission): promise again', 8, { t: 'prepare', ballot: 8 }, true, 8],
    ['prepare below the promise: refuse, naming it', 8, { t: 'prepare', ballot: 6 }, false, 8],
    ['accept at the promise: accept', 8, { t: 'accept', ballot: 8 }, true, 8],
    ['accept above the promise: accept, and promise it', 8, { t: 'accept', ballot: 9 }, true, 9],
    ['accept below the promise: refuse', 8, { t: 'accept', ballot: 7 }, false, 8],
    ['heartbeat below the promise: refuse', 8, { t: 'hb', ballot: 7 }, false, 8],
  ] as const)('%s', (_name, promised, req, ok, after) => {
    const s = core('s1');
    s.d.promised = promised;
    const r = req.t === 'prepare' ? onPrepare(s, { ballot: req.ballot, fromSlot: 1 }).ok : req.t === 'accept' ? onAccept(s, { ballot: req.ballot, slot: 1, value: noop() }).ok : onHeartbeat(s, req.ballot);
    expect(r).toBe(ok);
    expect(s.d.promised).toBe(after);
    if (req.t === 'accept') expect(s.d.accepted.length).toBe(ok ? 1 : 0);
  });

  it('a promise reports every value accepted from fromSlot on, with its ballot', () => {
    const s = core('s1');
    const [a, b] = [update('w0', 1), update('w1', 1)];
    onAccept(s, { ballot: 5, slot: 1, value: a });
    onAccept(s, { ballot: 5, slot: 3, value: b });
    expect(s.d.accepted[1]).toBe(GAP);
    expect(onPrepare(s, { ballot: 6, fromSlot: 2 })).toEqual({ ballot: 6, ok: true, promised: 6, accepted: [{ slot: 3, ballot: 5, value: b }] });
  });

  it('re-accepting the same value in the same ballot keeps the stored object (the log does not churn)', () => {
    const s = core('s1');
    const v = noop();
    onAccept(s, { ballot: 5, slot: 1, value: v });
    const stored = s.d.accepted[0];
    onAccept(s, { ballot: 5, slot: 1, value: v });
    expect(s.d.accepted[0]).toBe(stored);
    onAccept(s, { ballot: 6, slot: 1, value: v });
    expect(s.d.accepted[0]).not.toBe(stored);
    expect(s.d.accepted[0].ballot).toBe(6);
  });
});

describe('proposer: phase 1', () => {
  const promise = (ballot: number, accepted: PromiseReply['accepted'] = [], ok = true, promised = ballot): PromiseReply => ({ ballot, ok, promised, accepted });

  it('wins with promises from a majority (itself included), loses on a refusal', () => {
    const s = core('s0');
    const { ballot } = startPhase1(s);
    expect(onPromise(s, 's0', promise(ballot))).toBe('none');
    expect(onPromise(s, 's1', promise(ballot))).toBe('none');
    expect(onPromise(s, 's1', promise(ballot))).toBe('none'); // the same acceptor twice counts once
    expect(onPromise(s, 's2', promise(ballot - 1))).toBe('none'); // a reply for another ballot
    expect(onPromise(s, 's2', promise(ballot))).toBe('won');
    const t = core('s0');
    const b2 = startPhase1(t).ballot;
    expect(onPromise(t, 's3', promise(b2, [], false, 23))).toBe('lost');
    expect(t.v.role).toBe('follower');
    expect(startPhase1(t).ballot).toBe(25);
  });

  it('recovers, per slot, the value of the highest ballot among the promises (P2c), and leaves gaps for no-ops', () => {
    const [x, y, z] = [update('w0', 1), update('w1', 1), update('w2', 1)];
    const slots = recoverSlots(
      [
        promise(20, [
          { slot: 4, ballot: 11, value: x },
          { slot: 6, ballot: 11, value: z },
        ]),
        promise(20, [{ slot: 4, ballot: 16, value: y }]),
        promise(20, []),
      ],
      3,
    );
    expect(slots).toEqual([
      { slot: 3, value: null },
      { slot: 4, value: y },
      { slot: 5, value: null },
      { slot: 6, value: z },
    ]);
    expect(recoverSlots([promise(20)], 3)).toEqual([]);
  });

  it('a new leader puts new values after every recovered slot and after what it knows chosen', () => {
    const s = core('s0');
    s.d.chosen.push({ ballot: 5, value: noop() }, { ballot: 5, value: noop() });
    becomeLeader(s, 6);
    expect(s.v.nextSlot).toBe(7);
    becomeLeader(s, 0);
    expect(s.v.nextSlot).toBe(3);
  });
});

describe('proposer: phase 2', () => {
  it('a value is chosen once a majority accepted it in the leader’s ballot; a refusal of a higher ballot makes it step down', () => {
    const s = core('s0');
    const { ballot } = startPhase1(s);
    s.v.role = 'leader';
    s.v.pending.set(1, { value: noop(), acks: new Set(), sentAt: 0 });
    const ok = (from: string, b = ballot) => onAcceptedReply(s, from, { ballot: b, slot: 1, ok: true, promised: b });
    expect(ok('s0')).toBe('none');
    expect(ok('s1')).toBe('none');
    expect(ok('s2', ballot + 5)).toBe('none'); // another ballot's reply
    expect(ok('s2')).toBe('chosen');
    expect(onAcceptedReply(s, 's3', { ballot, slot: 1, ok: false, promised: ballot - 1 })).toBe('none');
    expect(onAcceptedReply(s, 's3', { ballot, slot: 1, ok: false, promised: ballot + 1 })).toBe('stepdown');
  });
});

describe('learner', () => {
  it('applies chosen slots in order, holding back those learned early', () => {
    const s = core('s1');
    const [a, b, c] = [noop(), noop(), noop()].map((value) => ({ ballot: 5, value }));
    expect(learn(s, 2, b)).toEqual([]);
    expect(learn(s, 3, c)).toEqual([]);
    expect(learn(s, 1, a)).toEqual([a, b, c]);
    expect(learn(s, 2, b)).toEqual([]);
    expect(s.d.chosen).toEqual([a, b, c]);
  });

  it('from a leader’s commit point: knows the slots it accepted in that ballot, and asks for the first it did not', () => {
    const s = core('s1');
    const [a, b, c] = [noop(), noop(), noop()];
    onAccept(s, { ballot: 10, slot: 1, value: a });
    onAccept(s, { ballot: 7, slot: 2, value: b }); // an older ballot: maybe not the value chosen there
    onAccept(s, { ballot: 10, slot: 3, value: c });
    expect(learnFromCommitPoint(s, 3, 10)).toEqual({ learned: [{ slot: 1, entry: { ballot: 10, value: a } }], missing: 2 });
    expect(learnFromCommitPoint(s, 1, 10)).toEqual({ learned: [{ slot: 1, entry: { ballot: 10, value: a } }], missing: null });
    expect(learnFromCommitPoint(s, 5, 7)).toEqual({ learned: [], missing: 1 });
  });
});
