import { describe, expect, it } from 'vitest';
import { beginRead, beginUpdate, freshClient, nextServer, onAck, onParams, onRedirect, onRetry, onTooLarge, target, type ClientState } from './client';

const S = ['s0', 's1', 's2'];
const grad = new Float32Array(1);

function updating(since = 0, guess: string | null = 's0'): ClientState {
  const c = freshClient({ seq: 4, readSeq: 2 });
  c.guess = guess;
  beginUpdate(c, { grad, basedOn: 3, opId: 11, since });
  return c;
}
function reading(guess: string | null = 's0'): ClientState {
  const c = freshClient({ seq: 4, readSeq: 2 });
  c.guess = guess;
  beginRead(c, 12, 9);
  return c;
}

describe('whom a Raft client asks', () => {
  it('without a guess: round-robin; with one: that server, then the next after it', () => {
    const c = freshClient();
    expect(target(c, S)).toBe('s0');
    expect(target(c, S)).toBe('s0'); // a guess sticks until given up
    nextServer(c, S);
    expect(target(c, S)).toBe('s1');
    c.guess = 's2';
    nextServer(c, S);
    expect(c.guess).toBe('s0'); // wraps around
    c.guess = null;
    nextServer(c, S);
    expect(c.guess).toBe('s1'); // round-robin continues where it was
  });

  it('numbers updates and reads from its durable counters', () => {
    const c = freshClient({ seq: 4, readSeq: 2 });
    expect(beginUpdate(c, { grad, basedOn: 0, opId: 1, since: 0 })).toBe(5);
    expect(c).toMatchObject({ phase: 'updating', seq: 5, hops: 0 });
    expect(beginRead(c, 2, 0)).toBe(3);
    expect(c).toMatchObject({ phase: 'reading', readSeq: 3, read: { readId: 3, opId: 2, floor: 0 } });
  });
});

describe('redirects', () => {
  it.each([
    // request kind, id answered, hint, from → decision, guess after
    ['update', 5, 's2', 's0', 'follow', 's2', 'a hint to another server is followed at once'],
    ['update', 5, null, 's0', 'wait', 's0', 'no hint: stay and wait for the retry timer'],
    ['update', 5, 's0', 's0', 'wait', 's0', 'a server naming itself is no hint'],
    ['update', 4, 's2', 's0', 'stale', 's0', 'an answer to an older update'],
    ['read', 5, 's2', 's0', 'stale', 's0', 'an answer about a read while updating'],
  ] as const)('%s #%i, hint %s from %s → %s (guess %s): %s', (op, id, hint, from, decision, guess, _why) => {
    const c = updating();
    expect(onRedirect(c, op, id, hint, from, S.length)).toBe(decision);
    expect(c.guess).toBe(guess);
  });

  it('follows at most one hint per server for one request, then waits for the timer', () => {
    const c = updating();
    const hops = ['s1', 's2', 's0'].map((h, i) => onRedirect(c, 'update', 5, h, S[i], S.length));
    expect(hops).toEqual(['follow', 'follow', 'follow']);
    expect(onRedirect(c, 'update', 5, 's1', 's0', S.length)).toBe('wait');
    expect(c.guess).toBe('s0');
  });

  it('applies to reads by read id', () => {
    const c = reading();
    expect(onRedirect(c, 'read', 3, 's1', 's0', S.length)).toBe('follow');
    expect(onRedirect(c, 'read', 2, 's2', 's1', S.length)).toBe('stale');
  });
});

describe('the retry timer', () => {
  it.each([
    ['a stale timer does nothing', () => updating(0), 99, 500, { do: 'stale' }, 's0'],
    ['an update not acknowledged yet goes to the next server', () => updating(0), 0, 500, { do: 'resend-update' }, 's1'],
    ['an update past updateTimeoutMs is abandoned; the client reads next, elsewhere', () => updating(0), 0, 1000, { do: 'abandon', seq: 5, opId: 11 }, 's1'],
    ['a read goes to the next server', () => reading(), 0, 5000, { do: 'resend-read' }, 's1'],
    ['nothing pending', () => freshClient(), 0, 0, { do: 'none' }, null],
  ] as const)('%s', (_name, make, token, now, decision, guess) => {
    const c = make();
    c.hops = 2;
    expect(onRetry(c, token, now, 1000, S)).toEqual(decision);
    expect(c.guess).toBe(guess);
    if (decision.do !== 'stale') expect(c.hops).toBe(0);
    if (decision.do === 'abandon') expect(c.upd).toBeNull();
  });
});

describe('answers', () => {
  it('an acknowledgement completes the current update only, and names the leader', () => {
    const c = updating(0, 's2');
    expect(onAck(c, 4, 's1')).toBeNull();
    expect(onAck(c, 5, 's1')).toEqual({ opId: 11 });
    expect(c).toMatchObject({ upd: null, guess: 's1' });
    expect(onAck(c, 5, 's1')).toBeNull(); // a duplicated acknowledgement
  });

  it('parameters complete the current read only; the client computes next', () => {
    const c = reading();
    expect(onParams(c, 2)).toBeNull();
    expect(onParams(c, 3)).toEqual({ opId: 12, floor: 9 });
    expect(c).toMatchObject({ read: null, phase: 'computing' });
    expect(onParams(c, 3)).toBeNull();
  });
});

describe('an update refused as too large', () => {
  it('fails the current update (it was never proposed) and leaves the client to read next; an old refusal is ignored', () => {
    const c = updating();
    const seq = c.upd!.seq;
    expect(onTooLarge(c, seq + 1)).toBeNull();
    expect(c.upd).not.toBeNull();
    expect(onTooLarge(c, seq)).toEqual({ opId: 11 });
    expect(c.upd).toBeNull();
    expect(onTooLarge(c, seq)).toBeNull(); // a duplicate of the refusal
  });
});
