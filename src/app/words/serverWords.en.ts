import type { ServerTable } from '../views/serverModel';
import { p0 } from './nodeWords';
import { setOf, tokenText } from './text';

/**
 * The servers panel's short facts per row and its log labels, in English (bundled, the first load). Every
 * language's table is a ServerTable: a kind of server added to the panel does not compile until
 * each says it.
 */
export const serversEn: ServerTable = {
  facts: {
    'coord-server': (f) => {
      const zk = f.service === 'zookeeper';
      const leader = f.role === 'leader' ? '' : f.leader ? `leader ${f.leader}` : 'leader unknown';
      const lock = f.locks[0];
      // The lock's holder and token where a lock is in use; else whose leases (sessions) it keeps.
      const held = lock
        ? `lock: ${lock.holder}, token ${tokenText(lock.token)}${lock.waiting.length ? `, ${lock.waiting.length} queued` : ''}`
        : zk
          ? `${f.leases.length} session${f.leases.length === 1 ? '' : 's'}`
          : `${f.leases.length} lease${f.leases.length === 1 ? '' : 's'}`;
      const meta = f.meta.map((m) => `${m.key} v${m.version}`).join(' ');
      return [leader, zk ? `zxid ${tokenText(f.commit)}` : `revision ${f.revision}`, held, meta].filter((x) => x !== '').join(' · ');
    },
    'raft-server': (f, n) => {
      const leader = f.leader ? `leader ${f.leader}` : 'leader unknown';
      const vote = f.votedFor ? `voted for ${f.votedFor}` : 'no vote';
      return f.role === 'candidate' && n.up ? `${'votes'} ${f.votes ?? 1} · ${vote}` : `${leader} · ${vote}`;
    },
    'kafka-broker': (f) => {
      const part = p0(f);
      const others = f.parts.filter((x) => x.p !== 0).map((x) => `p${x.p} ${x.role === 'leader' ? 'leader' : 'follower'} HW ${x.hw}`);
      const head = !part ? '' : part.role === 'leader' || part.offline ? `ISR ${setOf(part.isr ?? [])} · LEO ${part.leo}` : `LEO ${part.leo}`;
      return [head, ...others].filter((x) => x !== '').join(' | ');
    },
    'paxos-server': (f, n) => {
      const leader = f.leader ? `leader ${f.leader}` : 'leader unknown';
      return f.role === 'candidate' && n.up
        ? `promises ${f.promises ?? 1}/${f.need ?? '?'} · accepted to slot ${f.accepted}`
        : `${leader} · ${`accepted to slot ${f.accepted}`}`;
    },
    '2pc-server': (f) => {
      const parts: string[] = [];
      if (f.coordinator) parts.push(f.tx !== null && f.tx !== undefined ? `tx ${f.tx}: ${f.votes ?? 0}/${f.participants ?? '?'} yes` : 'no transaction open');
      if (f.prepared !== null) parts.push(f.blocked ? `in doubt on tx ${f.prepared}: blocked` : `prepared tx ${f.prepared}`);
      parts.push(`version ${f.version}`);
      return parts.join(' · ');
    },
    'kafka-consumer': (f) => {
      // Its own view, from its last fetch: cut off since, it is behind without knowing (lag > 0).
      const state = !f.caughtUp ? 'replaying' : f.lag > 0 ? 'caught up at last fetch' : 'caught up';
      return `offset ${f.offset} · lag ${f.lag} · ${state}`;
    },
  },
  noop: 'no-op',
  read: 'read',
};
