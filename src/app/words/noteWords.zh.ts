import type { CheckKind, NoteTable } from './noteWords';
import { kindName } from '../views/strings';
import { list, lockKey, mergeRuleName, mib, setOf, tokenText } from './text';

/**
 * The strategies' typed notes in Chinese (a lazy chunk, loaded with zh.json: i18n/catalog.ts). Its type is noteWords.ts's
 * NoteTable, as every language's is: a note added to facts.ts does not compile until each says it.
 */

export const notesZh: NoteTable = {
  electionStarted: (d, who, v) =>
    v === 'paxos'
      ? `${who} 以提案编号 ${d.term} 开始第一阶段`
      : v === 'zab'
        ? `${who} 正在寻找领导者，提议纪元 ${d.term}`
        : `${who} 发起任期 ${d.term} 的选举`,
  leaderElected: (d, who, v) =>
    v === 'paxos'
      ? `${who} 以提案编号 ${d.term} 成为领导者：多数派已承诺`
      : v === 'zab'
        ? `${who} 成为纪元 ${d.term} 的领导者：集群中的多数派跟随它`
        : d.partition !== undefined
          ? d.clean === false
            ? `${who} 成为主题分区 ${d.partition} 的领导者（纪元 ${d.term}）——unclean 选举`
            : `${who} 成为主题分区 ${d.partition} 的领导者（纪元 ${d.term}）`
          : `${who} 当选任期 ${d.term} 的领导者`,
  leaderStepDown: (d, who, v) =>
    v === 'paxos'
      ? d.from
        ? `${who} 退位（提案编号 ${d.term}）：${d.from} 的消息里有更高的提案编号`
        : `${who} 退位（提案编号 ${d.term}）`
      : v === 'zab'
        ? `${who} 不再担任领导者（纪元 ${d.term}）`
        : d.from
          ? `${who} 退位：${d.from} 的消息带来了任期 ${d.term}`
          : `${who} 退位（任期 ${d.term}）`,
  commit: (d, who, v) =>
    v === 'paxos'
      ? `${who} 得知第 ${d.index} 个槽位及之前都已选定`
      : v === 'zab'
        ? `${who} 提交到第 ${d.index} 个事务`
        : `${who} 提交到索引 ${d.index}`,
  entryOverwritten: (d, who) => `${who}：从索引 ${d.index} 起 ${d.count} 个未提交的条目被覆盖`,
  snapshotTaken: (d, who) => `${who} 在索引 ${d.index} 处为状态机做快照，并丢弃此前的日志`,
  snapshotInstalled: (d, who) => `${who} 安装了 ${d.from} 截至索引 ${d.index} 的快照：它缺少的条目已被压缩`,
  updateAbandoned: (d, who) => `${who} 放弃更新 #${d.seq}`,
  staleRead: (d, who) =>
    d.key !== undefined
      ? `${who} 从 ${d.server} 读到 ${d.key} 的版本 ${d.version}，而版本 ${d.newest} 在这次读开始之前就已提交：陈旧读`
      : `${who} 从 ${d.server} 读到版本 ${d.version}，而版本 ${d.newest} 早已提交：陈旧读`,
  timeoutIgnored: (_d, who) => `${who} 是领导者：它的选举计时器没有运行`,
  apply: (d, who) =>
    d.staleness < 0
      ? `${who} 应用 ${d.worker} 的更新 #${d.seq}：它基于日志被截短、${who} 的偏移量回退之前读到的参数计算`
      : `${who} 应用 ${d.worker} 的更新 #${d.seq}（陈旧度 ${d.staleness}）`,
  checkpoint: (d, who) => `${who} 保存版本 ${d.version} 的检查点`,
  pushTimeout: (d, who) => `${who}：收不到服务器的确认（${d.unacked} 个待确认）——改为本地训练`,
  pullTimeout: (_d, who) => `${who}：未能及时从服务器拿到参数`,
  barrierBlocked: (d, who) => `${who} 在第 ${d.round} 轮的栅栏处等待`,
  lateGradient: (d, who) => `${who} 丢弃 ${d.worker} 第 ${d.round} 轮迟到的梯度`,
  retransmit: (d, who) => `${who} 重传（第 ${d.round} 轮）`,
  sspBlocked: (d, who) => `${who} 在时钟 ${d.clock} 阻塞，直到最慢的节点到达 ${d.need}`,
  brokerFenced: (_d, who) => `${who} 被隔离：控制器收不到它的心跳`,
  isrShrink: (d, who) => `${who} 退出主题分区 ${d.partition} 的 ISR：ISR ${setOf(d.isr)}`,
  isrExpand: (d, who) => `${who} 重新加入主题分区 ${d.partition} 的 ISR：ISR ${setOf(d.isr)}`,
  partitionOffline: (d, _who) => `主题分区 ${d.partition} 下线：没有存活的同步副本`,
  uncleanElection: (d, who) => `unclean 选举：${who} 成为主题分区 ${d.partition} 的领导者，缺少偏移量 ${d.lostFrom} 之后的记录（高水位原为 ${d.committed}）`,
  notEnoughReplicas: (d, who) => `${who} 拒绝写入：主题分区 ${d.partition} 的 ISR 只有 ${d.isr} 个副本，少于 min.insync.replicas`,
  truncate: (d, who) => `${who} 把主题分区 ${d.partition} 从偏移量 ${d.from} 截断到 ${d.to}`,
  offlinePartition: (d, who) => `${who}：主题分区 ${d.partition} 已下线`,
  produceError: (_d, who) => `${who}：一次写入失败，将重试`,
  offsetOutOfRange: (d, who) => `${who}：已应用的偏移量 ${d.applied} 超出主题分区 ${d.partition} 的日志末尾 ${d.leo}`,
  consumerCaughtUp: (_d, who) => `${who} 追上了日志`,
  partitionDetected: (d, who) => `${who} 检测到网络分区；它所在的一侧为 ${setOf(d.side)}`,
  modeSwitch: (d, who) => (d.to === 'eventual' ? `${who} 切换到最终一致模式（纪元号 ${d.epoch}）` : `${who} 回到强一致模式（纪元号 ${d.epoch}）`),
  merge: (d, who) => {
    const rule = mergeRuleName(d.rule, 'zh');
    const lost = d.lostWork > 0 ? `，丢弃了 ${d.lostWork} 个本地训练步` : '';
    const replayed = d.replayed > 0 ? `，回放了 ${d.replayed} 个梯度` : '';
    return `${who} 合并两侧（${rule}，纪元号 ${d.epoch}${lost}${replayed}）`;
  },
  mergeAborted: (d, who) => `${who} 放弃纪元号 ${d.epoch} 的合并：只能连到 ${list(d.reachable, 'zh')}`,
  fenced: (d, who) => {
    if ('token' in d) {
      const op = d.what === 'write' ? '写入' : '读取';
      return `${who} 拒绝了 ${d.from} 的${op}：它的防护令牌 ${tokenText(d.token)} 旧于已见过的 ${tokenText(d.newest)}——${d.from} 在干活期间已失去了锁`;
    }
    const what = { ring: '一条环消息', contribution: '一份合并成果', merged: '一个合并后的模型', checkpoint: '一次检查点写入' }[d.what];
    const from = d.from ? `（来自 ${d.from}）` : '';
    return `${who} 拒绝${what}${from}：纪元号 ${d.epoch} 旧于当前的 ${d.current}`;
  },
  staleWriteAccepted: (d, who) =>
    'token' in d
      ? `${who} 接受了 ${d.from} 在防护令牌 ${tokenText(d.token)} 下做出的写入，尽管它已见过 ${tokenText(d.newest)}：它不检查令牌，于是两个持锁者都写入了`
      : `存储接受了 ${who} 纪元号 ${d.epoch} 的检查点，尽管它已有纪元号 ${d.storeEpoch}：脑裂`,
  epochGranted: (d, who) =>
    d.ours
      ? `协调服务把纪元号 ${d.epoch} 发给 ${who} 所在的一侧 ${setOf(d.side)}`
      : `${who} 申请纪元号 ${d.epoch}，但协调服务已把它发给了 ${setOf(d.side)}：${who} 这一侧保留旧的纪元号`,
  paramsRead: (d, who) =>
    d.token !== undefined
      ? `${who} 持锁读取参数（版本 ${d.version}），防护令牌 ${tokenText(d.token)}`
      : `${who} 读取参数（版本 ${d.version}）`,
  requestTooLarge: (d, who) => `${who} 拒绝了 ${d.from} 的 ${mib(d.bytes)} 请求：“request is too large”（上限 ${mib(d.limit)}）`,
  lockAcquired: (d, who) => `${who} 拿到锁 ${lockKey(d.lock)}，防护令牌 ${tokenText(d.token)}`,
  lockReleased: (d, who) => `${who} 释放锁 ${lockKey(d.lock)}（防护令牌 ${tokenText(d.token)}）`,
  leaseExpired: (d, who, _v, coord) =>
    coord === 'zookeeper'
      ? `领导者 ${d.server} 关闭 ${who} 的会话：超时时间内没有收到心跳，它的临时节点（包括它持有或排队的锁）随之删除`
      : `领导者 ${d.server} 让 ${who} 的租约过期：在有效期内没有收到续约，绑定在它上面的键（包括它持有或排队的锁）随之删除`,
  sessionLost: (_d, who, _v, coord) =>
    coord === 'zookeeper' ? `${who} 得知自己的会话已过期，重新建立一个` : `${who} 得知自己的租约已失效，重新申请一个`,
  metaWritten: (d, who) => `${who} 提交 ${d.key} = “${d.value}”（版本 ${d.version}）`,
  metaRead: (d, who) =>
    d.stale
      ? `${who} 从 ${d.server} 读取 ${d.key}：版本 ${d.version}，已陈旧`
      : `${who} 从 ${d.server} 读取 ${d.key}：版本 ${d.version}`,
  coordFailover: (d, who) => `${who}：${d.from} 没有应答，于是把会话转到 ${d.to}`,
  '2pc.prepareSent': (d, who) => `${who} 向全部 ${d.participants} 个参与者发送事务 ${d.tx} 的 PREPARE`,
  '2pc.inDoubt': (d, who) => `${who} 对事务 ${d.tx} 处于不确定状态：它已投赞成票，在得知决定之前只能阻塞`,
  '2pc.decided': (d, who) => {
    const why = { 'all-yes': '全体赞成', 'vote-no': '有一票反对', 'vote-timeout': '有一票没有按时到达', recovery: '崩溃前尚未决定（推定中止）' }[d.reason];
    return d.decision === 'commit'
      ? `${who} 决定提交事务 ${d.tx}：${why}`
      : `${who} 决定中止事务 ${d.tx}：${why}`;
  },
  '2pc.resolved': (d, who) =>
    d.decision === 'commit'
      ? `${who} 从 ${d.from} 得知事务 ${d.tx} 已提交`
      : `${who} 从 ${d.from} 得知事务 ${d.tx} 已中止`,
  'paxos.recovered': (d, who) => `${who}（提案编号 ${d.ballot}）从第 ${d.from} 个槽位起重新提议 ${d.recovered} 个之前已被接受的值${d.noops ? `，并用空操作填补 ${d.noops} 个空位` : ''}`,
  tamperAccepted: (d, who) => {
    const chk = checkName(d.check);
    return `${who} 应用了来自 ${d.from} 的一条被中间人篡改（${attackName(d.attack)}）的${kindName(d.kind, 'zh')}消息；它的校验（${chk}）没有发现`;
  },
  tamperRejected: (d, who) => `${who} 拒绝了来自 ${d.from} 的一条在途中被篡改（${attackName(d.attack)}）的${kindName(d.kind, 'zh')}消息：${checkName(d.check)} 校验未通过`,
  replayAccepted: (d, who) => `${who} 再次应用了来自 ${d.from} 的一条被重放的${kindName(d.kind, 'zh')}消息`,
  replayRejected: (d, who) => `${who} 拒绝了来自 ${d.from} 的一条被重放的${kindName(d.kind, 'zh')}消息（${checkName(d.check)}）`,
  byzantineOutlierDropped: (d, who) => `第 ${d.round} 轮：${ruleName(d.rule)}聚合没有采用 ${who} 的梯度`,
  transient: (d, who) => `${who}：第 ${d.step} 步慢了 ${d.slowdown} 倍（偶发掉队）`,
  targetReached: (d, _who) => `经过 ${d.steps} 步达到目标损失`,
  actionSkipped: (d, _who) => `操作被跳过：${d.selector} 没有匹配到节点`,
  actionIgnored: (d, who) =>
    d.reason === 'no-coordination-service'
      ? '这里没有运行协调服务：没有可写的元数据'
      : d.reason === 'no-leader'
        ? '协调服务此刻没有领导者：这次元数据写入不被受理'
        : `${who} 没有选举计时器：这个操作在这里没有意义`,
  resumed: (d, who) =>
    `${who} 在暂停 ${(d.pausedMs / 1000).toFixed(1)} 秒后恢复，处理期间积压的 ${d.queued} 个事件`,
};

function checkName(c: CheckKind): string {
  return { none: '无校验', sha256: 'SHA-256', hmac: 'HMAC', tls: 'TLS', sequence: '序号' }[c];
}

function attackName(a: string): string {
  const names: Record<string, string> = { flip: '符号翻转', scale: '放大', noise: '加噪声', replay: '重放' };
  return names[a] ?? a;
}

/** The rule's name runs into the next word (…聚合): Krum and Multi-Krum carry the space a Latin name needs there. */
function ruleName(r: string): string {
  const names: Record<string, string> = { mean: '均值', median: '逐坐标中位数', 'trimmed-mean': '截尾均值', krum: 'Krum ', 'multi-krum': 'Multi-Krum ' };
  return names[r] ?? r;
}
