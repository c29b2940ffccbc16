import { describe, expect, it } from 'vitest';
import type { UpdateCommand } from '../paramMachine';
import { beginTx, decide, onDecision, onDecisionRequest, onInquiry, onPrepare, onVote, onVoteTimeout, updateStatus } from './rules';
import { recoverCoordinator, recoverParticipant, undecided, type PartRecord } from './state';

let uid = 0;
const upd = (worker = 'w0', seq = 1, g = 1): UpdateCommand => ({ worker, seq, grad: new Float32Array([g, g]), basedOn: 0, uid: ++uid });
const part = (log: PartRecord[] = []) => recoverParticipant('s1', log, new Float32Array([0, 0]), 1);
const kinds = (log: readonly PartRecord[]) => log.map((r) => `${r.kind} ${r.tx}`);

describe('participant: PREPARE', () => {
  it.each([
    ['a fresh transaction: forces a prepare record, votes yes', [], 3, 'yes', ['prepare 3'], 3],
    ['already prepared on it (a duplicate): yes again, nothing new logged', ['prepare 3'], 3, 'yes', ['prepare 3'], 3],
    ['already committed: yes (what it said)', ['prepare 3', 'commit 3'], 3, 'yes', ['prepare 3', 'commit 3'], null],
    ['already aborted: no', ['abort 3'], 3, 'no', ['abort 3'], null],
    ['prepared on an earlier transaction: waits for that decision', ['prepare 3'], 4, 'wait', ['prepare 3'], 3],
    ['an older transaction it never saw: the coordinator moved on without its vote, so abort', ['prepare 5', 'commit 5'], 4, 'no', ['prepare 5', 'commit 5', 'abort 4'], null],
  ] as const)('%s', (_name, logSpec, tx, vote, after, prepared) => {
    const log: PartRecord[] = logSpec.map((s) => {
      const [kind, n] = s.split(' ');
      return kind === 'prepare' ? { kind, tx: Number(n), update: upd('w0', Number(n)) } : { kind: kind as 'commit' | 'abort', tx: Number(n) };
    });
    const p = part(log);
    expect(onPrepare(p, tx, upd('w1', tx))).toEqual({ vote });
    expect(kinds(p.log)).toEqual(after);
    expect(p.prepared?.tx ?? null).toBe(prepared);
  });
});

describe('participant: decisions', () => {
  it('commit applies the prepared update exactly once and releases the lock', () => {
    const p = part();
    onPrepare(p, 1, upd('w0', 1, 2));
    expect(onDecision(p, 1, 'commit')).toMatchObject({ kind: 'applied' });
    expect(p.sm.version).toBe(0); // the strategy applies what the rule returns; the rule only decides
    expect(p.prepared).toBeNull();
    expect(onDecision(p, 1, 'commit')).toEqual({ kind: 'known' });
    expect(kinds(p.log)).toEqual(['prepare 1', 'commit 1']);
  });

  it('abort discards the prepared update', () => {
    const p = part();
    onPrepare(p, 1, upd());
    expect(onDecision(p, 1, 'abort')).toEqual({ kind: 'aborted' });
    expect(p.prepared).toBeNull();
    expect(onPrepare(p, 1, upd())).toEqual({ vote: 'no' });
  });

  it.each([
    ['commit of a transaction it never voted yes on', [], 2, 'commit', 'never voted yes'],
    ['a decision that contradicts its log', ['abort 2'], 2, 'commit', 'logged as abort'],
  ] as const)('refuses %s', (_name, logSpec, tx, d, why) => {
    const p = part(logSpec.map((s) => ({ kind: 'abort' as const, tx: Number(s.split(' ')[1]) })));
    const before = kinds(p.log);
    const out = onDecision(p, tx, d);
    expect(out.kind).toBe('invalid');
    expect(out.kind === 'invalid' && out.why).toContain(why);
    expect(kinds(p.log)).toEqual(before);
  });
});

describe('participant: cooperative termination (a peer asks for the decision)', () => {
  it('answers what it knows; is uncertain itself when prepared; aborts what it has not voted on', () => {
    const p = part();
    onPrepare(p, 1, upd());
    onDecision(p, 1, 'commit');
    expect(onDecisionRequest(p, 1)).toEqual({ answer: 'commit', abortedNow: false });
    onPrepare(p, 2, upd('w0', 2));
    expect(onDecisionRequest(p, 2)).toEqual({ answer: null, abortedNow: false });
    // Never voted on 3 (its PREPARE may still be on the way): it aborts, so the coordinator cannot commit 3.
    expect(onDecisionRequest(p, 3)).toEqual({ answer: 'abort', abortedNow: true });
    expect(onPrepare(p, 3, upd('w0', 3))).toEqual({ vote: 'no' });
  });
});

describe('participant recovery from its log', () => {
  it('replays committed updates in order, keeps the prepared one in doubt, drops aborted ones', () => {
    const log: PartRecord[] = [
      { kind: 'prepare', tx: 1, update: upd('w0', 1, 1) },
      { kind: 'commit', tx: 1 },
      { kind: 'prepare', tx: 2, update: upd('w1', 1, 10) },
      { kind: 'abort', tx: 2 },
      { kind: 'prepare', tx: 3, update: upd('w0', 2, 2) },
      { kind: 'commit', tx: 3 },
      { kind: 'prepare', tx: 4, update: upd('w1', 2, 5) },
    ];
    const p = part(log);
    expect(p.sm.version).toBe(2);
    expect([...p.sm.params]).toEqual([-3, -3]);
    expect(p.prepared?.tx).toBe(4);
    expect(p.maxTx).toBe(4);
    expect(p.decisions).toEqual(new Map([[1, 'commit'], [2, 'abort'], [3, 'commit']]));
  });
});

describe('coordinator', () => {
  const ps = ['s0', 's1', 's2'];

  it('commits only with a yes from every participant', () => {
    const c = recoverCoordinator([]);
    const tx = beginTx(c, upd());
    expect(c.log).toEqual([{ kind: 'begin', tx: 1, worker: 'w0', seq: 1 }]);
    expect(onVote(c, 's0', tx, 'yes', ps)).toBeNull();
    expect(onVote(c, 's1', tx, 'yes', ps)).toBeNull();
    expect(onVote(c, 's1', tx, 'yes', ps)).toBeNull(); // a duplicate vote counts once
    expect(onVote(c, 's2', tx, 'yes', ps)).toBe('commit');
  });

  it.each([
    ['a no vote aborts at once', (c: ReturnType<typeof recoverCoordinator>, tx: number) => onVote(c, 's1', tx, 'no', ps), 'abort'],
    ['the vote timeout aborts a transaction still collecting votes', (c: ReturnType<typeof recoverCoordinator>, tx: number) => (onVote(c, 's0', tx, 'yes', ps), onVoteTimeout(c, tx)), 'abort'],
    ['a late vote for another transaction is ignored', (c: ReturnType<typeof recoverCoordinator>, tx: number) => onVote(c, 's1', tx + 1, 'no', ps), null],
  ] as const)('%s', (_name, act, d) => {
    const c = recoverCoordinator([]);
    expect(act(c, beginTx(c, upd()))).toBe(d);
  });

  it('the decision is logged before anyone is told; after a restart, a begun and undecided transaction is presumed aborted', () => {
    const c = recoverCoordinator([]);
    const t1 = beginTx(c, upd('w0', 1));
    decide(c, t1, 'commit');
    const t2 = beginTx(c, upd('w1', 1));
    expect(onInquiry(c, t2)).toEqual({ answer: null, presumed: false }); // still collecting votes
    expect(onVoteTimeout(c, t1)).toBeNull();
    // Crash: only the log survives.
    const r = recoverCoordinator(c.log);
    expect(r.current).toBeNull();
    expect(r.txSeq).toBe(2);
    expect(r.last).toEqual({ tx: 1, decision: 'commit' });
    expect(undecided(r)).toEqual([t2]);
    expect(onInquiry(r, t1)).toEqual({ answer: 'commit', presumed: false });
    expect(onInquiry(r, t2)).toEqual({ answer: 'abort', presumed: true });
    expect(onInquiry(r, 9)).toEqual({ answer: null, presumed: false }); // never begun
    expect(beginTx(r, upd('w2', 1))).toBe(3); // ids are never reused
  });

  it('a worker’s resent update maps to its transaction: new, pending, or decided', () => {
    const c = recoverCoordinator([]);
    expect(updateStatus(c, 'w0', 1)).toBe('new');
    c.queue.push(upd('w0', 1));
    expect(updateStatus(c, 'w0', 1)).toBe('pending');
    const tx = beginTx(c, c.queue.shift()!);
    expect(updateStatus(c, 'w0', 1)).toBe('pending');
    decide(c, tx, 'abort');
    expect(updateStatus(recoverCoordinator(c.log), 'w0', 1)).toBe('abort');
  });
});
