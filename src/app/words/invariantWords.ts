import type { Lang } from '../i18n/lang';

/**
 * Names of the invariants the strategies and the coordination service check (their `violation`
 * ids), in English and Chinese. A strategy's own diagnostic (`detail`) is English prose for the
 * CLI and the checker; a Chinese screen shows the invariant's name from here instead.
 */
const names: Record<string, { en: string; zh: string }> = {
  // Raft (Figure 3), also the etcd-like service's Raft and ZooKeeper's Zab (prefixed zab-)
  'election-safety': { en: 'election safety (one leader per term)', zh: '选举安全性（每个任期至多一个领导者）' },
  'log-matching': { en: 'log matching', zh: '日志匹配' },
  'leader-completeness': { en: 'leader completeness (a new leader holds every committed entry)', zh: '领导者完整性（新领导者持有所有已提交条目）' },
  'state-machine-safety': { en: 'state-machine safety (the same update at each position, everywhere)', zh: '状态机安全性（每个位置上的更新处处相同）' },
  // Paxos
  'at-most-one-value-chosen': { en: 'at most one value chosen per slot', zh: '每个槽位至多选定一个值' },
  'chosen-never-changes': { en: 'a chosen value never changes', zh: '已选定的值永不改变' },
  'learn-only-chosen': { en: 'only chosen values are learned', zh: '只学习已选定的值' },
  'one-value-per-ballot': { en: 'one value per ballot', zh: '每个提案编号只对应一个值' },
  // Two-phase commit
  'commit-needs-every-yes': { en: 'commit needs every participant’s yes', zh: '提交需要所有参与者投赞成票' },
  atomicity: { en: 'atomicity (all commit or all abort)', zh: '原子性（全部提交或全部中止）' },
  'no-unilateral-decision': { en: 'a participant that voted yes never decides alone', zh: '投过赞成票的参与者不得单方面决定' },
  '2pc-protocol': { en: 'two-phase commit protocol step', zh: '两阶段提交协议步骤' },
  // Kafka
  'hw-monotonic': { en: 'the high watermark never goes back', zh: '高水位线不回退' },
  'same-offset-same-params': { en: 'same offset, same parameters', zh: '同一位移，同一参数' },
  'no-acknowledged-write-lost': { en: 'no acknowledged write lost', zh: '已确认的写入不丢失' },
  // SSP (Ho et al. 2013)
  'ssp-clock-gap': { en: 'staleness bound (clock gap ≤ s)', zh: '陈旧度上界（时钟差 ≤ s）' },
  'ssp-clock-spread': { en: 'staleness bound (completed clocks within s + 1)', zh: '陈旧度上界（已完成时钟相差不超过 s + 1）' },
  // Coordination service, fencing, degrade
  'fencing-token-order': { en: 'fencing tokens only grow', zh: '防护令牌只增不减' },
  'fencing-overwrite': { en: 'a fenced store never takes a stale write', zh: '启用防护的存储不接受过期写入' },
  'epoch-granted-once': { en: 'each epoch granted to one side only', zh: '每个纪元只授予一方' },
};

/** The invariant's name for people; unknown ids (a new check) show as themselves. */
export function invariantName(id: string, lang: Lang): string {
  const zab = id.startsWith('zab-');
  const entry = names[zab ? id.slice(4) : id];
  const base = entry ? entry[lang] : id;
  return zab ? `ZooKeeper (Zab): ${base}` : base;
}

/** Every id with a name (for the test that each checked invariant has one). */
export const namedInvariants: readonly string[] = Object.keys(names);
