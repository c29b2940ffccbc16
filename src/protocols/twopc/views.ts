import type { LogItem, NodeFacts } from '../facts';
import type { Coordinator, Participant, PartRecord } from './state';

/**
 * What 2pc-ps shows of a server — its typed facts (the app writes the words) — as pure functions of its state
 * (and, on the coordinator's server, the coordinator's), so the strategy class keeps only the I/O.
 */

export interface ServerView {
  part: Participant;
  /** Prepared and asking around: in doubt, blocked. */
  blocked: boolean;
  /** The coordinator's state, on the server that runs it. */
  coord: Coordinator | null;
  participants: number;
}

export function serverFacts(v: ServerView): NodeFacts {
  const base = { kind: '2pc-server' as const, coordinator: v.coord !== null, prepared: v.part.prepared?.tx ?? null, blocked: v.blocked, version: v.part.sm.version };
  const c = v.coord;
  if (!c) return base;
  return {
    ...base,
    tx: c.current?.tx ?? null,
    votes: c.current?.yes.size ?? 0,
    participants: v.participants,
    queued: c.queue.length,
    decided: c.last ? { ...c.last } : null,
  };
}

/** A participant's stable-log record; `term` is the transaction id. */
export function partItem(r: PartRecord): LogItem {
  return r.kind === 'prepare' ? { term: r.tx, kind: 'prepare', worker: r.update.worker, seq: r.update.seq } : { term: r.tx, kind: r.kind };
}
