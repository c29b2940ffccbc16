import type { ServerTable } from '../views/serverModel';
import { p0 } from './nodeWords';
import { setOf, tokenText } from './text';

/**
 * The servers panel's short facts per row and its log labels, in Chinese (a lazy chunk, loaded
 * with zh.json: i18n/catalog.ts). Every
 * language's table is a ServerTable: a kind of server added to the panel does not compile until
 * each says it.
 */
export const serversZh: ServerTable = {
  facts: {
    'coord-server': (f) => {
      const zk = f.service === 'zookeeper';
      const leader = f.role === 'leader' ? '' : f.leader ? `领导者 ${f.leader}` : '领导者未知';
      const lock = f.locks[0];
      // The lock's holder and token where a lock is in use; else whose leases (sessions) it keeps.
      const held = lock
        ? `锁：${lock.holder}，防护令牌 ${tokenText(lock.token)}${lock.waiting.length ? `，${lock.waiting.length} 个排队` : ''}`
        : zk
          ? `${f.leases.length} 个会话`
          : `${f.leases.length} 个租约`;
      const meta = f.meta.map((m) => `${m.key} 版本 ${m.version}`).join(' ');
      return [leader, zk ? `zxid ${tokenText(f.commit)}` : `revision ${f.revision}`, held, meta].filter((x) => x !== '').join(' · ');
    },
    'raft-server': (f, n) => {
      const leader = f.leader ? `领导者 ${f.leader}` : '领导者未知';
      const vote = f.votedFor ? `投票给 ${f.votedFor}` : '未投票';
      return f.role === 'candidate' && n.up ? `${'得票'} ${f.votes ?? 1} · ${vote}` : `${leader} · ${vote}`;
    },
    'kafka-broker': (f) => {
      const part = p0(f);
      const others = f.parts.filter((x) => x.p !== 0).map((x) => `p${x.p} ${x.role === 'leader' ? '领导者' : '跟随者'} HW ${x.hw}`);
      const head = !part ? '' : part.role === 'leader' || part.offline ? `ISR ${setOf(part.isr ?? [])} · LEO ${part.leo}` : `LEO ${part.leo}`;
      return [head, ...others].filter((x) => x !== '').join(' | ');
    },
    'paxos-server': (f, n) => {
      const leader = f.leader ? `领导者 ${f.leader}` : '领导者未知';
      return f.role === 'candidate' && n.up
        ? `承诺 ${f.promises ?? 1}/${f.need ?? '?'} · 已接受到槽位 ${f.accepted}`
        : `${leader} · ${`已接受到槽位 ${f.accepted}`}`;
    },
    '2pc-server': (f) => {
      const parts: string[] = [];
      if (f.coordinator) parts.push(f.tx !== null && f.tx !== undefined ? `事务 ${f.tx}：${f.votes ?? 0}/${f.participants ?? '?'} 赞成` : '无进行中的事务');
      if (f.prepared !== null) parts.push(f.blocked ? `事务 ${f.prepared} 不确定：阻塞` : `已准备事务 ${f.prepared}`);
      parts.push(`版本 ${f.version}`);
      return parts.join(' · ');
    },
    'kafka-consumer': (f) => {
      const state = !f.caughtUp ? '回放中' : f.lag > 0 ? '上次拉取时已追上' : '已追上';
      return `偏移量 ${f.offset} · 滞后 ${f.lag} · ${state}`;
    },
  },
  noop: '空操作',
  read: '读',
};
