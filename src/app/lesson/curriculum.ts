import type { Text } from '../i18n/lang';

/**
 * The curriculum's map (CURRICULUM §1): the fourteen lessons in order, with their class time and
 * prerequisites, and the suggested paths through them. The lesson index lists these rows; a
 * lesson's own file (its `lesson` metadata) overrides the title, time and prerequisites once it
 * ships, and a lesson not shipped yet is listed as coming.
 */

export interface CatalogLesson {
  number: number;
  id: string;
  title: Text;
  minutes: number;
  /** Lesson ids. */
  prerequisites: string[];
}

const L = (number: number, id: string, en: string, zh: string, minutes: number, prerequisites: string[]): CatalogLesson => ({ number, id, title: { en, zh }, minutes, prerequisites });

export const catalog: readonly CatalogLesson[] = [
  L(1, 'cap-partition-choice', 'CAP in training: a partition forces a choice', '训练中的 CAP：分区迫使你在 C 与 A 之间取舍', 5, []),
  L(2, 'pacelc-barrier-stragglers', 'Else, latency: what consistency costs when nothing is broken', '没有分区时的代价：延迟与一致性（PACELC）', 6, ['cap-partition-choice']),
  L(3, 'ring-allreduce-cost', 'Inside ring all-reduce: cheap on bytes, and one cut stops everyone', '环形全归约内部：字节最省，断一条链路却全员停摆', 6, ['cap-partition-choice']),
  L(4, 'async-ps-staleness', 'Asynchronous PS: never waits, always a little behind', '异步参数服务器：从不等待，却总慢半拍', 6, ['cap-partition-choice', 'pacelc-barrier-stragglers']),
  L(5, 'ssp-bounded-staleness', 'Stale Synchronous Parallel: a dial between BSP and ASP', 'SSP 有界陈旧：BSP 与 ASP 之间的调节旋钮', 6, ['async-ps-staleness']),
  L(6, 'raft-ps-majority', 'A Raft-replicated PS: majorities, elections, and reads that lie', 'Raft 复制的参数服务器：多数派、选举与陈旧读', 7, ['cap-partition-choice']),
  L(7, 'raft-figure-8', "Raft's Figure 8: stored on a majority is not committed", 'Raft 图 8：存到多数派不等于已提交', 6, ['raft-ps-majority']),
  L(8, 'paxos-vs-2pc', 'Majority vs everyone: Paxos and Raft against two-phase commit', '多数派 vs 全体：Paxos/Raft 与两阶段提交', 6, ['raft-ps-majority']),
  L(9, 'kafka-log-lag', 'A Kafka-fed PS: the log is ordered; its readers lag', 'Kafka 驱动的参数服务器：日志有序，读者滞后', 6, ['async-ps-staleness']),
  L(10, 'kafka-acks-isr', 'Kafka durability: acks, in-sync replicas, and the writes you lose', 'Kafka 的持久性：acks、同步副本集合与丢失的写入', 8, ['kafka-log-lag']),
  L(11, 'coordination-fencing', 'etcd and ZooKeeper: leases, fencing tokens and metadata, not parameters', 'etcd 与 ZooKeeper：管租约、防护令牌和元数据，不管参数', 8, ['raft-ps-majority']),
  L(12, 'degrade-merge-fencing', 'Degrade on partition, merge on heal, and fence the losing side', '分区时降级、恢复后合并，并对落败一侧加以防护', 8, ['cap-partition-choice', 'async-ps-staleness', 'coordination-fencing']),
  L(13, 'secure-updates-byzantine', 'Securing updates: hash vs HMAC, replays, and the insider', '保护参数更新：哈希与 HMAC、重放攻击与内鬼', 8, ['cap-partition-choice', 'pacelc-barrier-stragglers']),
  L(14, 'interview-consistency-answer', 'The interview question, answered from what you saw', '面试题复盘：用你亲眼看到的现象作答', 10, [
    'cap-partition-choice',
    'pacelc-barrier-stragglers',
    'async-ps-staleness',
    'raft-ps-majority',
    'paxos-vs-2pc',
    'kafka-log-lag',
    'coordination-fencing',
    'degrade-merge-fencing',
    'secure-updates-byzantine',
  ]),
];

export interface LecturePath {
  id: string;
  title: Text;
  /** About how long, in minutes (CURRICULUM's estimate). */
  minutes: number;
  /** Lesson numbers, in order. */
  lessons: number[];
  /** For a class (a lecture) or for one learner alone. */
  audience: 'class' | 'alone';
}

export const paths: readonly LecturePath[] = [
  { id: 'lecture-1', title: { en: 'Lecture 1 · CAP and PACELC for training', zh: '第 1 讲 · 训练中的 CAP 与 PACELC' }, minutes: 30, lessons: [1, 2, 3, 4, 5], audience: 'class' },
  { id: 'lecture-2', title: { en: 'Lecture 2 · Consensus under the parameter server', zh: '第 2 讲 · 参数服务器之下的共识' }, minutes: 30, lessons: [6, 7, 8, 11], audience: 'class' },
  { id: 'lecture-3', title: { en: 'Lecture 3 · Systems in practice', zh: '第 3 讲 · 工程实践中的系统' }, minutes: 40, lessons: [9, 10, 12, 13, 14], audience: 'class' },
  { id: 'sprint', title: { en: 'Interview sprint, alone', zh: '面试冲刺（自学）' }, minutes: 70, lessons: [1, 2, 4, 6, 8, 9, 11, 12, 13, 14], audience: 'alone' },
];

export function lessonByNumber(n: number): CatalogLesson | undefined {
  return catalog.find((l) => l.number === n);
}
