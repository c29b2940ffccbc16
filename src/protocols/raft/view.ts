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
  // Built once, fields added in place (a server's facts are read at every change it makes).
  const f: Extract<NodeFacts, { kind: 'raft-server' }> = {
    kind: 'raft-server',
    role: s.v.role,
    term: s.p.currentTerm,
    votedFor: s.p.votedFor,
    leader: s.v.leaderId,
    commitIndex: s.v.commitIndex,
    lastApplied: s.v.lastApplied,
    version: s.x.sm.version,
  };
  if (s.snap) {
    f.snapshot = s.snap.index;
    if (s.p.snapIndex > 0) f.compacted = s.p.snapIndex;
  }
  if (s.v.role === 'candidate') f.votes = s.v.votes.size;
  return f;
}

export function clientFacts(c: ClientState): NodeFacts {
  return { kind: 'raft-client', phase: c.phase, asking: c.guess, seq: c.seq };
}

export function logItem(e: LogEntry): LogItem {
  if (e.kind === 'noop') return { term: e.term, kind: 'noop' };
  if (e.kind === 'read') return { term: e.term, kind: 'read', worker: e.worker! };
  return { term: e.term, kind: 'update', worker: e.worker!, seq: e.seq! };
}
