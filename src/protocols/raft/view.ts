import type { LogItem, NodeFacts } from '../facts';
import type { ClientState } from './client';
import type { Server } from './server';
import type { LogEntry } from './state';

/**
 * What raft-ps shows of a node: typed facts (facts.ts), which the app turns into words. Every
 * field is the node's own state, changed only by events
 * addressed to it, so the engine's own touches keep the history complete.
 */

/**
 * A crashed server keeps currentTerm, votedFor, its log and its snapshot; its volatile state reads
 * as what it restarts with: a follower at its snapshot (commit index and version of the snapshot,
 * 0 without one).
 */
export function serverFacts(s: Server): NodeFacts {
  const base = {
    kind: 'raft-server' as const,
    role: s.v.role,
    term: s.p.currentTerm,
    votedFor: s.p.votedFor,
    leader: s.v.leaderId,
    commitIndex: s.v.commitIndex,
    lastApplied: s.v.lastApplied,
    version: s.x.sm.version,
  };
  const snap = s.snap ? (s.p.snapIndex > 0 ? { ...base, snapshot: s.snap.index, compacted: s.p.snapIndex } : { ...base, snapshot: s.snap.index }) : base;
  return s.v.role === 'candidate' ? { ...snap, votes: s.v.votes.size } : snap;
}

export function clientFacts(c: ClientState): NodeFacts {
  return { kind: 'raft-client', phase: c.phase, asking: c.guess, seq: c.seq };
}

export function logItem(e: LogEntry): LogItem {
  if (e.kind === 'noop') return { term: e.term, kind: 'noop' };
  if (e.kind === 'read') return { term: e.term, kind: 'read', worker: e.worker! };
  return { term: e.term, kind: 'update', worker: e.worker!, seq: e.seq! };
}
