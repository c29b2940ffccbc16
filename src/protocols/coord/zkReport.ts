import type { NodeId } from '../../sim/types';
import type { LogItem } from '../facts';
import type { ReplicationFacts } from './service';
import type { Txn } from './zab';
import type { ZServer } from './zkServer';

/**
 * What the ZooKeeper service reports about its servers (zookeeper.ts): the facts panel's role,
 * epoch and commit point, the metrics, the current leader and the log view. Pure reads of the
 * servers' state; the protocol never calls them.
 */

/** The leader `s` believes in (none while it is looking). */
export function zkLeaderOf(s: ZServer): NodeId | null {
  return s.v.role === 'looking' ? null : s.v.leader;
}

export function zkFacts(s: ZServer): ReplicationFacts {
  const role = s.v.role === 'leading' ? (s.v.established ? 'leader' : 'candidate') : s.v.role === 'following' ? 'follower' : 'looking';
  const committed = s.v.committed > 0 ? s.p.history[s.v.committed - 1].zxid : 0;
  return { role, term: s.p.currentEpoch, leader: zkLeaderOf(s), commit: committed };
}

/** leaders, term, commitIndex, logLength, overwrittenEntries; undefined for other names. */
export function zkMetric(
  z: ReadonlyMap<NodeId, ZServer>,
  overwritten: ReadonlyMap<NodeId, number>,
  isUp: (id: NodeId) => boolean,
  name: string,
  node?: NodeId,
): number | null | undefined {
  const servers = [...z.values()];
  const one = node ? z.get(node) : undefined;
  const leads = (s: ZServer) => (s.v.role === 'leading' && s.v.established && isUp(s.id) ? 1 : 0);
  const per = (f: (s: ZServer) => number) => (node ? (one ? f(one) : null) : Math.max(0, ...servers.map(f)));
  switch (name) {
    case 'leaders':
      return node ? (one ? leads(one) : 0) : servers.reduce((a, s) => a + leads(s), 0);
    case 'term':
      return per((s) => s.p.currentEpoch);
    case 'commitIndex':
      return per((s) => s.v.committed);
    case 'logLength':
      return per((s) => s.p.history.length);
    case 'overwrittenEntries':
      return node ? (one ? (overwritten.get(node) ?? 0) : null) : [...overwritten.values()].reduce((a, b) => a + b, 0);
    default:
      return undefined;
  }
}

/** The established leader (and up) of the highest epoch, or null. */
export function zkLeader(z: ReadonlyMap<NodeId, ZServer>, isUp: (id: NodeId) => boolean): NodeId | null {
  let best: ZServer | null = null;
  for (const s of z.values()) if (s.v.role === 'leading' && s.v.established && isUp(s.id) && (!best || s.p.currentEpoch > best.p.currentEpoch)) best = s;
  return best?.id ?? null;
}

/** A transaction as the log view draws it. */
export function txnLogItem(t: Txn): LogItem {
  return 'client' in t.cmd ? { term: t.term, kind: 'record', worker: t.cmd.client } : { term: t.term, kind: 'record' };
}
