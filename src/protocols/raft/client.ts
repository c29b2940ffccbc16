import type { NodeId } from '../../sim/types';

/**
 * A Raft client (a worker) as guarded rules: whom it asks, how it follows redirects, when it
 * retries or gives an update up. Each takes the client's state and one input, changes only that
 * state and says what to do; the strategy (workers.ts) sends and sets timers.
 */

export interface ClientState {
  // Kept across a crash (the client's own small durable counters), so (worker, seq) stays unique.
  seq: number;
  readSeq: number;
  // Volatile.
  phase: 'idle' | 'computing' | 'updating' | 'reading';
  /** The server it believes leads (null: none yet, pick the next in round-robin order). */
  guess: NodeId | null;
  rr: number;
  /** Identifies the retry timer armed last; an older one is stale. */
  token: number;
  /** Redirects followed at once for the current request (bounded by the number of servers). */
  hops: number;
  upd: { seq: number; grad: Float32Array; basedOn: number; opId: number; since: number } | null;
  /** `floor`: the newest committed version when the read began (observer bookkeeping for staleReads). */
  read: { readId: number; opId: number; floor: number } | null;
}

export function freshClient(durable: Pick<ClientState, 'seq' | 'readSeq'> = { seq: 0, readSeq: 0 }): ClientState {
  return { seq: durable.seq, readSeq: durable.readSeq, phase: 'idle', guess: null, rr: 0, token: 0, hops: 0, upd: null, read: null };
}

/** The server to send the current request to: its guess, or the next one round-robin. */
export function target(c: ClientState, servers: readonly NodeId[]): NodeId {
  if (c.guess === null) c.guess = servers[c.rr++ % servers.length];
  return c.guess;
}

/** Give up on the guess: try the server after it (or the next round-robin one). */
export function nextServer(c: ClientState, servers: readonly NodeId[]): void {
  c.guess = c.guess === null ? servers[c.rr++ % servers.length] : servers[(servers.indexOf(c.guess) + 1) % servers.length];
}

/** A new update with the next sequence number; the caller records the operation and sends. */
export function beginUpdate(c: ClientState, u: Omit<NonNullable<ClientState['upd']>, 'seq'>): number {
  const seq = ++c.seq;
  c.upd = { seq, ...u };
  c.phase = 'updating';
  c.hops = 0;
  return seq;
}

/** A new read with the next read id. */
export function beginRead(c: ClientState, opId: number, floor: number): number {
  const readId = ++c.readSeq;
  c.read = { readId, opId, floor };
  c.phase = 'reading';
  c.hops = 0;
  return readId;
}

/**
 * A server answered "not the leader" to request `id` of kind `op`. An answer to an older request is
 * ignored ('stale'). A hint naming another server is followed at once ('follow': resend to the new
 * guess), a bounded number of times per request; otherwise the client stays with that server and
 * waits for its retry timer ('wait').
 */
export function onRedirect(c: ClientState, op: 'update' | 'read', id: number, hint: NodeId | null, from: NodeId, serverCount: number): 'stale' | 'follow' | 'wait' {
  const current = op === 'update' ? c.phase === 'updating' && c.upd?.seq === id : c.phase === 'reading' && c.read?.readId === id;
  if (!current) return 'stale';
  return followHint(c, hint, from, serverCount);
}

/** A redirect's hint is followed at once, at most once per server per request; else stay with `from` and wait. */
export function followHint(c: { hops: number; guess: NodeId | null }, hint: NodeId | null, from: NodeId, serverCount: number): 'follow' | 'wait' {
  if (hint !== null && hint !== from && c.hops < serverCount) {
    c.hops++;
    c.guess = hint;
    return 'follow';
  }
  c.guess = from;
  return 'wait';
}

export type RetryDecision =
  | { do: 'stale' }
  | { do: 'none' }
  /** Client timeout: the update's outcome is unknown (it may still commit, once); read fresh parameters. */
  | { do: 'abandon'; seq: number; opId: number }
  | { do: 'resend-update' }
  | { do: 'resend-read' };

/**
 * The retry timer fired: resend the pending request to the next server, or — once an update has
 * waited `updateTimeoutMs` — abandon it.
 */
export function onRetry(c: ClientState, token: unknown, now: number, updateTimeoutMs: number, servers: readonly NodeId[]): RetryDecision {
  if (token !== c.token) return { do: 'stale' };
  c.hops = 0;
  if (c.phase === 'updating' && c.upd) {
    if (now - c.upd.since >= updateTimeoutMs) {
      const { seq, opId } = c.upd;
      c.upd = null;
      nextServer(c, servers);
      return { do: 'abandon', seq, opId };
    }
    nextServer(c, servers);
    return { do: 'resend-update' };
  }
  if (c.phase === 'reading' && c.read) {
    nextServer(c, servers);
    return { do: 'resend-read' };
  }
  return { do: 'none' };
}

/** The leader acknowledged update `seq`: the operation it completes, or null for an old one. The client will read next. */
export function onAck(c: ClientState, seq: number, from: NodeId): { opId: number } | null {
  if (c.phase !== 'updating' || !c.upd || c.upd.seq !== seq) return null;
  const { opId } = c.upd;
  c.upd = null;
  c.guess = from;
  return { opId };
}

/**
 * The server refused update `seq` as too large (never proposed, so it never takes effect): the
 * operation it fails, or null for an old one. The client reads next and tries again — as a client
 * that does not shrink its request would, to be refused again.
 */
export function onTooLarge(c: ClientState, seq: number): { opId: number } | null {
  if (c.phase !== 'updating' || !c.upd || c.upd.seq !== seq) return null;
  const { opId } = c.upd;
  c.upd = null;
  return { opId };
}

/** Parameters for read `readId` arrived: the read it completes, or null for an old one. The client computes next. */
export function onParams(c: ClientState, readId: number): { opId: number; floor: number } | null {
  if (c.phase !== 'reading' || !c.read || c.read.readId !== readId) return null;
  const { opId, floor } = c.read;
  c.read = null;
  c.phase = 'computing';
  return { opId, floor };
}
