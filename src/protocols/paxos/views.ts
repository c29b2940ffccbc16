import type { NodeId } from '../../sim/types';
import type { LogItem, NodeFacts } from '../facts';
import type { Accepted, PaxosCore } from './state';

/**
 * What paxos-ps shows of a server: its typed facts (the app writes the words), its log items and
 * the metrics it defines under Raft's names. Pure functions of one server's state
 * (the metric of all of them), so the strategy class keeps only the protocol's I/O.
 */

export function serverFacts(s: PaxosCore, quorum: number): NodeFacts {
  const f: NodeFacts = {
    kind: 'paxos-server',
    role: s.v.role,
    promised: s.d.promised,
    leader: s.v.leaderId,
    chosen: s.d.chosen.length,
    accepted: s.d.accepted.length,
    version: s.v.sm.version,
  };
  if (s.v.role === 'leader') return { ...f, ballot: s.v.ballot };
  if (s.v.role === 'candidate') return { ...f, ballot: s.v.ballot, promises: s.v.promises.size, need: quorum };
  return f;
}

/** One slot of the learner's chosen log. */
export function chosenItem(c: Accepted): LogItem {
  if (c.value.kind === 'noop') return { term: c.ballot, kind: 'noop' };
  return { term: c.ballot, kind: 'update', worker: c.value.update.worker, seq: c.value.update.seq };
}

/**
 * Metrics under Raft's names for the analogous state — `term`: the promised ballot, `commitIndex`:
 * the chosen prefix, `logLength`: the accepted slots — and `leaders`. Per server with `node`, else
 * the maximum (leaders: the count). undefined for names it does not define.
 */
export function serverMetric(name: string, node: NodeId | undefined, servers: readonly PaxosCore[], isUp: (n: NodeId) => boolean): number | null | undefined {
  const s = node === undefined ? undefined : servers.find((x) => x.id === node);
  const per = (f: (x: PaxosCore) => number): number | null => (node !== undefined ? (s ? f(s) : null) : Math.max(0, ...servers.map(f)));
  switch (name) {
    case 'leaders': {
      const leads = (x: PaxosCore) => (x.v.role === 'leader' && isUp(x.id) ? 1 : 0);
      return node !== undefined ? (s ? leads(s) : 0) : servers.reduce((a, x) => a + leads(x), 0);
    }
    case 'term':
      return per((x) => x.d.promised);
    case 'commitIndex':
      return per((x) => x.d.chosen.length);
    case 'logLength':
      return per((x) => x.d.accepted.length);
    default:
      return undefined;
  }
}
