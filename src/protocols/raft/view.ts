import type { LogItem, NodeFacts } from '../facts';
import type { NodeDetail } from '../strategy';
import type { ClientState } from './client';
import type { ReadMode } from './knobs';
import type { Server } from './server';
import { entryLabel, majority, type LogEntry } from './state';

/**
 * What raft-ps shows of a node: typed facts (facts.ts) and, until the app reads only facts, the
 * status line and detail card. Every field is the node's own state, changed only by events
 * addressed to it, so the engine's own touches keep the history complete.
 */

/**
 * A crashed server keeps currentTerm, votedFor and its log; its volatile state reads as a fresh
 * follower's (commit index 0, version 0), which is what it restarts with.
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
  return s.v.role === 'candidate' ? { ...base, votes: s.v.votes.size } : base;
}

export function clientFacts(c: ClientState): NodeFacts {
  return { kind: 'raft-client', phase: c.phase, asking: c.guess, seq: c.seq };
}

export function logItem(e: LogEntry): LogItem {
  if (e.kind === 'noop') return { term: e.term, kind: 'noop' };
  if (e.kind === 'read') return { term: e.term, kind: 'read', worker: e.worker! };
  return { term: e.term, kind: 'update', worker: e.worker!, seq: e.seq! };
}

export function serverStatus(s: Server): string {
  const t = s.p.currentTerm;
  if (s.v.role === 'leader') return `leader, term ${t}`;
  if (s.v.role === 'candidate') return `candidate, term ${t}: ${s.v.votes.size}/${majority(s.peers.length + 1)} votes`;
  return `follower, term ${t}${s.v.leaderId ? `, leader ${s.v.leaderId}` : ''}`;
}

export function clientStatus(c: ClientState, readMode: ReadMode): string {
  if (c.phase === 'updating' && c.upd) return `waiting for commit of #${c.upd.seq} (asking ${c.guess ?? '?'})`;
  if (c.phase === 'reading') return `reading parameters (${readMode}, asking ${c.guess ?? '?'})`;
  if (c.phase === 'computing') return 'computing a gradient';
  return 'idle';
}

export function serverDetail(s: Server, up: boolean): NodeDetail {
  const log = s.p.log;
  const from = Math.max(1, log.length - 11);
  const window = [];
  for (let i = from; i <= log.length; i++) {
    const e = log[i - 1];
    window.push({ index: i, term: e.term, committed: i <= s.v.commitIndex, label: entryLabel(e) });
  }
  return {
    role: up ? s.v.role : 'crashed',
    term: s.p.currentTerm,
    commitIndex: s.v.commitIndex,
    log: window,
    lines: [`votedFor ${s.p.votedFor ?? '—'}`, `leader ${s.v.leaderId ?? '?'}`, `applied ${s.v.lastApplied}, version ${s.x.sm.version}`],
  };
}

export function clientDetail(c: ClientState): NodeDetail {
  return { role: 'client', lines: [`leader ${c.guess ?? '?'}`, `seq ${c.seq}`] };
}
