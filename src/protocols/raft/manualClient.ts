import type { NodeId } from '../../sim/types';
import { followHint } from './client';

/**
 * A manual Raft client (`clientMode: "manual"`, CURRICULUM L7): a worker that updates only when
 * told to (`submit`), like RaftScope's "request" button, so Figure 8 of the Raft paper can be
 * scripted entry by entry. Guarded rules on the client's state, as in client.ts; the strategy
 * (manualWorkers.ts) sends and sets timers.
 *
 * - It keeps one gradient ready (computed on its replica), so a submit goes out at once.
 * - It offers each update to every server: followers refuse it, a leader appends it, and
 *   (worker, seq) makes it apply once however many leaders took it (thesis §6.3). A client that
 *   only knew a guess of the leader could not reach the one live leader in time when the script
 *   has just isolated it with that worker.
 * - It never gives an update up: unanswered, it offers it again every `clientRetryMs` under the same
 *   (worker, seq), so an update that was never committed lands once, later (Figure 8 (d)).
 * - Several updates may be outstanding. After an acknowledgement it reads fresh parameters from the
 *   server that acknowledged, so its next gradient is computed on them.
 */

export interface PendingUpdate {
  grad: Float32Array;
  basedOn: number;
  opId: number;
  since: number;
}

export interface ManualState {
  // Kept across a crash, so (worker, seq) stays unique.
  seq: number;
  readSeq: number;
  // Volatile.
  /** Updates offered and not yet acknowledged, by seq. */
  pending: Map<number, PendingUpdate>;
  /** Submits waiting for a gradient. */
  queued: number;
  /** A gradient computed and not submitted yet. */
  ready: { grad: Float32Array; basedOn: number } | null;
  computing: boolean;
  /** The server it reads from: the last one that acknowledged, or a redirect's hint. */
  guess: NodeId | null;
  rr: number;
  /** Identifies the read retry timer armed last. */
  token: number;
  hops: number;
  read: { readId: number; opId: number; floor: number } | null;
}

export function freshManual(durable: Pick<ManualState, 'seq' | 'readSeq'> = { seq: 0, readSeq: 0 }): ManualState {
  return { seq: durable.seq, readSeq: durable.readSeq, pending: new Map(), queued: 0, ready: null, computing: false, guess: null, rr: 0, token: 0, hops: 0, read: null };
}

/** `submit` with `count` updates: queue them. */
export function submit(c: ManualState, count: number): void {
  c.queued += count;
}

/**
 * Takes the ready gradient for the next queued submit: the update to offer (with its new seq), or
 * null when nothing is queued or no gradient is ready.
 */
export function takeSubmit(c: ManualState, now: number, opId: () => number): ({ seq: number } & PendingUpdate) | null {
  if (c.queued === 0 || !c.ready) return null;
  const u = { seq: ++c.seq, grad: c.ready.grad, basedOn: c.ready.basedOn, opId: opId(), since: now };
  c.pending.set(u.seq, { grad: u.grad, basedOn: u.basedOn, opId: u.opId, since: u.since });
  c.ready = null;
  c.queued--;
  return u;
}

/** The leader acknowledged `seq`: the operation it completes, or null (already acknowledged, or from before a crash). */
export function onManualAck(c: ManualState, seq: number, from: NodeId): { opId: number } | null {
  const u = c.pending.get(seq);
  if (!u) return null;
  c.pending.delete(seq);
  c.guess = from;
  return { opId: u.opId };
}

/** A redirect of an update: only a hint to remember (the update went to every server already). */
export function learnHint(c: ManualState, hint: NodeId | null): void {
  if (hint !== null) c.guess = hint;
}

/** Starts a read unless one is in flight: its read id, or null. */
export function beginManualRead(c: ManualState, opId: () => number, floor: number): number | null {
  if (c.read) return null;
  const readId = ++c.readSeq;
  c.read = { readId, opId: opId(), floor };
  c.hops = 0;
  return readId;
}

/** The server to read from: its guess, or the next one round-robin. */
export function readTarget(c: ManualState, servers: readonly NodeId[]): NodeId {
  if (c.guess === null) c.guess = servers[c.rr++ % servers.length];
  return c.guess;
}

/** A redirect of read `readId`: follow a new hint at once (bounded), else wait for the retry timer. */
export function onReadRedirect(c: ManualState, readId: number, hint: NodeId | null, from: NodeId, serverCount: number): 'stale' | 'follow' | 'wait' {
  if (c.read?.readId !== readId) return 'stale';
  return followHint(c, hint, from, serverCount);
}

/** The read retry timer fired: resend to the next server, or nothing (stale timer, no read). */
export function onReadRetry(c: ManualState, token: unknown, servers: readonly NodeId[]): boolean {
  if (token !== c.token || !c.read) return false;
  c.hops = 0;
  c.guess = c.guess === null ? servers[c.rr++ % servers.length] : servers[(servers.indexOf(c.guess) + 1) % servers.length];
  return true;
}

/** Parameters for read `readId` arrived: the read it completes, or null for an old one. */
export function onManualParams(c: ManualState, readId: number): { opId: number; floor: number } | null {
  if (c.read?.readId !== readId) return null;
  const { opId, floor } = c.read;
  c.read = null;
  return { opId, floor };
}

/** What the client is doing, for its facts: computing, then waiting for updates, then reading. */
export function manualPhase(c: ManualState): 'idle' | 'computing' | 'updating' | 'reading' {
  if (c.computing) return 'computing';
  if (c.pending.size > 0) return 'updating';
  if (c.read) return 'reading';
  return 'idle';
}
