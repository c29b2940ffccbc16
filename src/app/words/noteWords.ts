import type { Note, NoteData, NoteName } from '../../protocols/facts';
import type { Lang } from '../i18n/lang';
import { kindName } from '../views/strings';
import { mergeRuleName } from './nodeWords';
import { list, mib, setOf, tokenText } from './text';

/**
 * The strategies' typed notes (CURRICULUM §C.6) in words: timeline labels and tooltips. One entry
 * per note name, so a note added to facts.ts does not compile until it can be said in both
 * languages. `who` is the node the note is about ('' for cluster-wide notes).
 */

/**
 * Whose election notes these are: Paxos reuses Raft's notes with a ballot for the term, ZooKeeper's
 * Zab with an epoch (its leader's epoch) — the words follow the protocol.
 */
type Voice = 'raft' | 'paxos' | 'zab';
type Say<K extends NoteName> = (d: NoteData[K], who: string, lang: Lang, voice: Voice, coord: Coord | undefined) => string;
type Coord = 'etcd' | 'zookeeper';

function w(lang: Lang, en: string, zh: string): string {
  return lang === 'zh' ? zh : en;
}

const say: { [K in NoteName]: Say<K> } = {
  electionStarted: (d, who, l, v) =>
    v === 'paxos'
      ? w(l, `${who} starts phase 1 with ballot ${d.term}`, `${who} 以提案编号 ${d.term} 开始第一阶段`)
      : v === 'zab'
        ? w(l, `${who} is looking for a leader and proposes epoch ${d.term}`, `${who} 正在寻找领导者，提议纪元 ${d.term}`)
        : w(l, `${who} starts an election for term ${d.term}`, `${who} 发起任期 ${d.term} 的选举`),
  leaderElected: (d, who, l, v) =>
    v === 'paxos'
      ? w(l, `${who} leads with ballot ${d.term}: a majority promised`, `${who} 以提案编号 ${d.term} 成为领导者：多数派已承诺`)
      : v === 'zab'
        ? w(l, `${who} leads epoch ${d.term}: a majority of the ensemble follows it`, `${who} 成为纪元 ${d.term} 的领导者：集群中的多数派跟随它`)
        : d.partition !== undefined
          ? d.clean === false
            ? w(l, `${who} leads topic partition ${d.partition} (epoch ${d.term}) — an unclean election`, `${who} 成为主题分区 ${d.partition} 的领导者（纪元 ${d.term}）——unclean 选举`)
            : w(l, `${who} leads topic partition ${d.partition} (epoch ${d.term})`, `${who} 成为主题分区 ${d.partition} 的领导者（纪元 ${d.term}）`)
          : w(l, `${who} elected leader for term ${d.term}`, `${who} 当选任期 ${d.term} 的领导者`),
  leaderStepDown: (d, who, l, v) =>
    v === 'paxos' ? w(l, `${who} steps down (ballot ${d.term})`, `${who} 退位（提案编号 ${d.term}）`) : v === 'zab' ? w(l, `${who} stops leading (epoch ${d.term})`, `${who} 不再担任领导者（纪元 ${d.term}）`) : w(l, `${who} steps down (term ${d.term})`, `${who} 退位（任期 ${d.term}）`),
  commit: (d, who, l, v) =>
    v === 'paxos'
      ? w(l, `${who} learns slots up to ${d.index} chosen`, `${who} 得知第 ${d.index} 个槽位及之前都已选定`)
      : v === 'zab'
        ? w(l, `${who} commits transactions up to number ${d.index}`, `${who} 提交到第 ${d.index} 个事务`)
        : w(l, `${who} commits up to index ${d.index}`, `${who} 提交到索引 ${d.index}`),
  entryOverwritten: (d, who, l) => w(l, `${who}: ${d.count} uncommitted ${d.count === 1 ? 'entry' : 'entries'} from index ${d.index} overwritten`, `${who}：从索引 ${d.index} 起 ${d.count} 个未提交的条目被覆盖`),
  updateAbandoned: (d, who, l) => w(l, `${who} abandons update #${d.seq}`, `${who} 放弃更新 #${d.seq}`),
  staleRead: (d, who, l) =>
    d.key !== undefined
      ? w(l, `${who} read ${d.key} at version ${d.version} from ${d.server}, but version ${d.newest} was committed before the read began: a stale read`, `${who} 从 ${d.server} 读到 ${d.key} 的版本 ${d.version}，而版本 ${d.newest} 在这次读开始之前就已提交：陈旧读`)
      : w(l, `${who} read version ${d.version} from ${d.server}, but ${d.newest} was already committed: a stale read`, `${who} 从 ${d.server} 读到版本 ${d.version}，而版本 ${d.newest} 早已提交：陈旧读`),
  timeoutIgnored: (_d, who, l) => w(l, `${who} leads: its election timer is not running`, `${who} 是领导者：它的选举计时器没有运行`),
  apply: (d, who, l) => w(l, `${who} applies ${d.worker}'s update #${d.seq} (staleness ${d.staleness})`, `${who} 应用 ${d.worker} 的更新 #${d.seq}（陈旧度 ${d.staleness}）`),
  checkpoint: (d, who, l) => w(l, `${who} checkpoints version ${d.version}`, `${who} 保存版本 ${d.version} 的检查点`),
  pushTimeout: (d, who, l) => w(l, `${who}: no acknowledgement from the server (${d.unacked} pending) — training locally`, `${who}：收不到服务器的确认（${d.unacked} 个待确认）——改为本地训练`),
  pullTimeout: (_d, who, l) => w(l, `${who}: no parameters from the server in time`, `${who}：未能及时从服务器拿到参数`),
  barrierBlocked: (d, who, l) => w(l, `${who} waits at the barrier of round ${d.round}`, `${who} 在第 ${d.round} 轮的栅栏处等待`),
  lateGradient: (d, who, l) => w(l, `${who} drops ${d.worker}'s late gradient for round ${d.round}`, `${who} 丢弃 ${d.worker} 第 ${d.round} 轮迟到的梯度`),
  retransmit: (d, who, l) => w(l, `${who} retransmits (round ${d.round})`, `${who} 重传（第 ${d.round} 轮）`),
  sspBlocked: (d, who, l) => w(l, `${who} blocks at clock ${d.clock} until the slowest reaches ${d.need}`, `${who} 在时钟 ${d.clock} 阻塞，直到最慢的节点到达 ${d.need}`),
  brokerFenced: (_d, who, l) => w(l, `${who} fenced: the controller stopped hearing it`, `${who} 被隔离：控制器收不到它的心跳`),
  isrShrink: (d, who, l) => w(l, `${who} leaves the ISR of topic partition ${d.partition}: ISR ${setOf(d.isr)}`, `${who} 退出主题分区 ${d.partition} 的 ISR：ISR ${setOf(d.isr)}`),
  isrExpand: (d, who, l) => w(l, `${who} rejoins the ISR of topic partition ${d.partition}: ISR ${setOf(d.isr)}`, `${who} 重新加入主题分区 ${d.partition} 的 ISR：ISR ${setOf(d.isr)}`),
  partitionOffline: (d, _who, l) => w(l, `topic partition ${d.partition} offline: no in-sync replica alive`, `主题分区 ${d.partition} 下线：没有存活的同步副本`),
  uncleanElection: (d, who, l) => w(l, `unclean election: ${who} leads topic partition ${d.partition} without the records from offset ${d.lostFrom} (HW was ${d.committed})`, `unclean 选举：${who} 成为主题分区 ${d.partition} 的领导者，缺少偏移量 ${d.lostFrom} 之后的记录（高水位原为 ${d.committed}）`),
  notEnoughReplicas: (d, who, l) => w(l, `${who} refuses a write: ISR of topic partition ${d.partition} has ${d.isr}, fewer than min.insync.replicas`, `${who} 拒绝写入：主题分区 ${d.partition} 的 ISR 只有 ${d.isr} 个副本，少于 min.insync.replicas`),
  truncate: (d, who, l) => w(l, `${who} truncates topic partition ${d.partition} from offset ${d.from} to ${d.to}`, `${who} 把主题分区 ${d.partition} 从偏移量 ${d.from} 截断到 ${d.to}`),
  offlinePartition: (d, who, l) => w(l, `${who}: topic partition ${d.partition} is offline`, `${who}：主题分区 ${d.partition} 已下线`),
  produceError: (_d, who, l) => w(l, `${who}: a write failed and will be retried`, `${who}：一次写入失败，将重试`),
  offsetOutOfRange: (d, who, l) => w(l, `${who}: applied offset ${d.applied} is past the log end ${d.leo} of topic partition ${d.partition}`, `${who}：已应用的偏移量 ${d.applied} 超出主题分区 ${d.partition} 的日志末尾 ${d.leo}`),
  consumerCaughtUp: (_d, who, l) => w(l, `${who} caught up with the log`, `${who} 追上了日志`),
  partitionDetected: (d, who, l) => w(l, `${who} detects a network partition; its side ${setOf(d.side)}`, `${who} 检测到网络分区；它所在的一侧为 ${setOf(d.side)}`),
  modeSwitch: (d, who, l) => (d.to === 'eventual' ? w(l, `${who} switches to eventual mode (epoch ${d.epoch})`, `${who} 切换到最终一致模式（纪元号 ${d.epoch}）`) : w(l, `${who} returns to strong mode (epoch ${d.epoch})`, `${who} 回到强一致模式（纪元号 ${d.epoch}）`)),
  merge: (d, who, l) => {
    const rule = mergeRuleName(d.rule, l);
    const lost = d.lostWork > 0 ? w(l, `, ${d.lostWork} local steps discarded`, `，丢弃了 ${d.lostWork} 个本地训练步`) : '';
    const replayed = d.replayed > 0 ? w(l, `, ${d.replayed} gradients replayed`, `，回放了 ${d.replayed} 个梯度`) : '';
    return w(l, `${who} merges the sides (${rule}, epoch ${d.epoch}${lost}${replayed})`, `${who} 合并两侧（${rule}，纪元号 ${d.epoch}${lost}${replayed}）`);
  },
  mergeAborted: (d, who, l) => w(l, `${who} aborts the merge of epoch ${d.epoch}: only ${list(d.reachable, 'en')} reachable`, `${who} 放弃纪元号 ${d.epoch} 的合并：只能连到 ${list(d.reachable, 'zh')}`),
  fenced: (d, who, l) => {
    if ('token' in d) {
      const op = d.what === 'write' ? ['write', '写入'] : ['read', '读取'];
      return w(
        l,
        `${who} refuses ${d.from}'s ${op[0]}: its fencing token ${tokenText(d.token)} is older than ${tokenText(d.newest)}, which it has already seen — ${d.from} lost the lock while it worked`,
        `${who} 拒绝了 ${d.from} 的${op[1]}：它的防护令牌 ${tokenText(d.token)} 旧于已见过的 ${tokenText(d.newest)}——${d.from} 在干活期间已失去了锁`,
      );
    }
    const what = { ring: ['a ring message', '一条环消息'], contribution: ['a merge contribution', '一份合并成果'], merged: ['a merged model', '一个合并后的模型'], checkpoint: ['a checkpoint write', '一次检查点写入'] }[d.what];
    const from = d.from ? w(l, ` from ${d.from}`, `（来自 ${d.from}）`) : '';
    return w(l, `${who} refuses ${what[0]}${from} carrying epoch ${d.epoch} (current ${d.current})`, `${who} 拒绝${what[1]}${from}：纪元号 ${d.epoch} 旧于当前的 ${d.current}`);
  },
  staleWriteAccepted: (d, who, l) =>
    'token' in d
      ? w(
          l,
          `${who} accepts ${d.from}'s write made under fencing token ${tokenText(d.token)}, although it has already seen ${tokenText(d.newest)}: it does not check tokens, so two lock holders wrote`,
          `${who} 接受了 ${d.from} 在防护令牌 ${tokenText(d.token)} 下做出的写入，尽管它已见过 ${tokenText(d.newest)}：它不检查令牌，于是两个持锁者都写入了`,
        )
      : w(l, `the store accepts ${who}'s checkpoint of epoch ${d.epoch} although it holds epoch ${d.storeEpoch}: split brain`, `存储接受了 ${who} 纪元号 ${d.epoch} 的检查点，尽管它已有纪元号 ${d.storeEpoch}：脑裂`),
  epochGranted: (d, who, l) =>
    d.ours
      ? w(l, `the coordination service grants epoch ${d.epoch} to ${who}'s side ${setOf(d.side)}`, `协调服务把纪元号 ${d.epoch} 发给 ${who} 所在的一侧 ${setOf(d.side)}`)
      : w(l, `${who} asked for epoch ${d.epoch}, but the service had already granted it to ${setOf(d.side)}: ${who}'s side keeps its old epoch`, `${who} 申请纪元号 ${d.epoch}，但协调服务已把它发给了 ${setOf(d.side)}：${who} 这一侧保留旧的纪元号`),
  paramsRead: (d, who, l) =>
    d.token !== undefined
      ? w(l, `${who} reads the parameters (version ${d.version}) under its lock, fencing token ${tokenText(d.token)}`, `${who} 持锁读取参数（版本 ${d.version}），防护令牌 ${tokenText(d.token)}`)
      : w(l, `${who} reads the parameters (version ${d.version})`, `${who} 读取参数（版本 ${d.version}）`),
  requestTooLarge: (d, who, l) => w(l, `${who} refuses ${d.from}'s request of ${mib(d.bytes)}: "request is too large" (limit ${mib(d.limit)})`, `${who} 拒绝了 ${d.from} 的 ${mib(d.bytes)} 请求：“request is too large”（上限 ${mib(d.limit)}）`),
  lockAcquired: (d, who, l) => w(l, `${who} takes the lock ${lockKey(d.lock)}, fencing token ${tokenText(d.token)}`, `${who} 拿到锁 ${lockKey(d.lock)}，防护令牌 ${tokenText(d.token)}`),
  lockReleased: (d, who, l) => w(l, `${who} releases the lock ${lockKey(d.lock)} (token ${tokenText(d.token)})`, `${who} 释放锁 ${lockKey(d.lock)}（防护令牌 ${tokenText(d.token)}）`),
  leaseExpired: (d, who, l, _v, coord) =>
    coord === 'zookeeper'
      ? w(l, `leader ${d.server} closes ${who}'s session: no heartbeat within its timeout, so its ephemeral nodes (a lock it held or queued for) are deleted`, `领导者 ${d.server} 关闭 ${who} 的会话：超时时间内没有收到心跳，它的临时节点（包括它持有或排队的锁）随之删除`)
      : w(l, `leader ${d.server} expires ${who}'s lease: no keep-alive within its TTL, so the keys attached to it (a lock it held or queued for) are deleted`, `领导者 ${d.server} 让 ${who} 的租约过期：在有效期内没有收到续约，绑定在它上面的键（包括它持有或排队的锁）随之删除`),
  sessionLost: (_d, who, l, _v, coord) =>
    coord === 'zookeeper' ? w(l, `${who} learns that its session expired and opens a new one`, `${who} 得知自己的会话已过期，重新建立一个`) : w(l, `${who} learns that its lease is gone and asks for a new one`, `${who} 得知自己的租约已失效，重新申请一个`),
  metaWritten: (d, who, l) => w(l, `${who} commits ${d.key} = "${d.value}" (version ${d.version})`, `${who} 提交 ${d.key} = “${d.value}”（版本 ${d.version}）`),
  metaRead: (d, who, l) =>
    d.stale
      ? w(l, `${who} reads ${d.key} from ${d.server}: version ${d.version}, stale`, `${who} 从 ${d.server} 读取 ${d.key}：版本 ${d.version}，已陈旧`)
      : w(l, `${who} reads ${d.key} from ${d.server}: version ${d.version}`, `${who} 从 ${d.server} 读取 ${d.key}：版本 ${d.version}`),
  coordFailover: (d, who, l) => w(l, `${who}: ${d.from} does not answer, so it moves its session to ${d.to}`, `${who}：${d.from} 没有应答，于是把会话转到 ${d.to}`),
  '2pc.prepareSent': (d, who, l) => w(l, `${who} sends PREPARE for transaction ${d.tx} to all ${d.participants} participants`, `${who} 向全部 ${d.participants} 个参与者发送事务 ${d.tx} 的 PREPARE`),
  '2pc.inDoubt': (d, who, l) => w(l, `${who} is in doubt about transaction ${d.tx}: it voted yes and blocks until it learns the decision`, `${who} 对事务 ${d.tx} 处于不确定状态：它已投赞成票，在得知决定之前只能阻塞`),
  '2pc.decided': (d, who, l) => {
    const why = { 'all-yes': ['every vote was yes', '全体赞成'], 'vote-no': ['a vote was no', '有一票反对'], 'vote-timeout': ['a vote did not come in time', '有一票没有按时到达'], recovery: ['it had not decided before its crash (presumed abort)', '崩溃前尚未决定（推定中止）'] }[d.reason];
    return d.decision === 'commit'
      ? w(l, `${who} decides to commit transaction ${d.tx}: ${why[0]}`, `${who} 决定提交事务 ${d.tx}：${why[1]}`)
      : w(l, `${who} decides to abort transaction ${d.tx}: ${why[0]}`, `${who} 决定中止事务 ${d.tx}：${why[1]}`);
  },
  '2pc.resolved': (d, who, l) =>
    d.decision === 'commit'
      ? w(l, `${who} learns from ${d.from} that transaction ${d.tx} committed`, `${who} 从 ${d.from} 得知事务 ${d.tx} 已提交`)
      : w(l, `${who} learns from ${d.from} that transaction ${d.tx} aborted`, `${who} 从 ${d.from} 得知事务 ${d.tx} 已中止`),
  'paxos.recovered': (d, who, l) => w(l, `${who} (ballot ${d.ballot}) re-proposes ${d.recovered} values accepted before from slot ${d.from}, and fills ${d.noops} gaps with no-ops`, `${who}（提案编号 ${d.ballot}）从第 ${d.from} 个槽位起重新提议 ${d.recovered} 个之前已被接受的值，并用空操作填补 ${d.noops} 个空位`),
  tamperAccepted: (d, who, l) => {
    const chk = checkName(d.check, l);
    return w(l, `${who} applied a ${kindWord(d.kind, l)} message from ${d.from} that a man-in-the-middle altered (${attackName(d.attack, l)}); its check (${chk}) did not catch it`, `${who} 应用了来自 ${d.from} 的一条被中间人篡改（${attackName(d.attack, l)}）的${kindWord(d.kind, l)}消息；它的校验（${chk}）没有发现`);
  },
  tamperRejected: (d, who, l) => w(l, `${who} refused a ${kindWord(d.kind, l)} message from ${d.from} altered in transit (${attackName(d.attack, l)}): its ${checkName(d.check, l)} check failed`, `${who} 拒绝了来自 ${d.from} 的一条在途中被篡改（${attackName(d.attack, l)}）的${kindWord(d.kind, l)}消息：${checkName(d.check, l)} 校验未通过`),
  replayAccepted: (d, who, l) => w(l, `${who} applied a replayed ${kindWord(d.kind, l)} message from ${d.from} a second time`, `${who} 再次应用了来自 ${d.from} 的一条被重放的${kindWord(d.kind, l)}消息`),
  replayRejected: (d, who, l) => w(l, `${who} refused a replayed ${kindWord(d.kind, l)} message from ${d.from} (${checkName(d.check, l)})`, `${who} 拒绝了来自 ${d.from} 的一条被重放的${kindWord(d.kind, l)}消息（${checkName(d.check, l)}）`),
  byzantineOutlierDropped: (d, who, l) => w(l, `round ${d.round}: the ${ruleName(d.rule, l)} aggregation left out ${who}'s gradient`, `第 ${d.round} 轮：${ruleName(d.rule, l)}聚合没有采用 ${who} 的梯度`),
  transient: (d, who, l) => w(l, `${who}: step ${d.step} is ${d.slowdown}× slower (a transient straggler)`, `${who}：第 ${d.step} 步慢了 ${d.slowdown} 倍（偶发掉队）`),
  targetReached: (d, _who, l) => w(l, `target loss reached after ${d.steps} steps`, `经过 ${d.steps} 步达到目标损失`),
  actionSkipped: (d, _who, l) => w(l, `action skipped: ${d.selector} matched no node`, `操作被跳过：${d.selector} 没有匹配到节点`),
  actionIgnored: (d, who, l) =>
    d.reason === 'no-coordination-service'
      ? w(l, 'no coordination service runs here: there is no metadata to write', '这里没有运行协调服务：没有可写的元数据')
      : d.reason === 'no-leader'
        ? w(l, 'the coordination service has no leader now: the metadata write is not taken', '协调服务此刻没有领导者：这次元数据写入不被受理')
        : w(l, `${who} has no election timer: the action means nothing here`, `${who} 没有选举计时器：这个操作在这里没有意义`),
  resumed: (d, who, l) =>
    w(l, `${who} resumes after a ${(d.pausedMs / 1000).toFixed(1)} s pause and handles the ${d.queued} ${d.queued === 1 ? 'event' : 'events'} that waited meanwhile`, `${who} 在暂停 ${(d.pausedMs / 1000).toFixed(1)} 秒后恢复，处理期间积压的 ${d.queued} 个事件`),
};

/** The key a lock lives under (psAsyncRmw's lock "params" is /locks/params in the service). */
function lockKey(name: string): string {
  return name.startsWith('/') ? name : `/locks/${name}`;
}

function checkName(c: 'none' | 'sha256' | 'hmac' | 'tls' | 'sequence', lang: Lang): string {
  const names = { none: ['no check', '无校验'], sha256: ['SHA-256', 'SHA-256'], hmac: ['HMAC', 'HMAC'], tls: ['TLS', 'TLS'], sequence: ['sequence number', '序号'] } as const;
  return names[c][lang === 'zh' ? 1 : 0];
}

function attackName(a: string, lang: Lang): string {
  const names: Record<string, [string, string]> = { flip: ['sign flip', '符号翻转'], scale: ['scaled', '放大'], noise: ['noise', '加噪声'], replay: ['replay', '重放'] };
  return names[a]?.[lang === 'zh' ? 1 : 0] ?? a;
}

function ruleName(r: string, lang: Lang): string {
  const names: Record<string, [string, string]> = { mean: ['mean', '均值'], median: ['coordinate-wise median', '逐坐标中位数'], 'trimmed-mean': ['trimmed-mean', '截尾均值'], krum: ['Krum', 'Krum '], 'multi-krum': ['Multi-Krum', 'Multi-Krum '] };
  return names[r]?.[lang === 'zh' ? 1 : 0] ?? r;
}

/** A message kind as the legend names it (the engine's name is kept where the legend has none). */
function kindWord(kind: string, lang: Lang): string {
  return kindName(kind, lang);
}

/** The run a note comes from: its strategy (Paxos words its election notes in ballots) and coordination service. */
export interface NoteRun {
  strategy: { kind: string };
  coordination?: { service: 'etcd' | 'zookeeper' };
}

/**
 * A note in words. A note of a coordination server (c0…; CURRICULUM §C.1) speaks its service's
 * protocol (ZooKeeper: Zab epochs; etcd: Raft terms); any other speaks the strategy's.
 */
export function noteText(n: Note | { what: NoteName; node?: string; data: unknown }, lang: Lang, run?: NoteRun): string {
  const f = say[n.what] as Say<NoteName>;
  const coordNode = n.node !== undefined && /^c\d+$/.test(n.node) && run?.coordination !== undefined;
  const voice: Voice = coordNode ? (run!.coordination!.service === 'zookeeper' ? 'zab' : 'raft') : run?.strategy.kind === 'paxos-ps' ? 'paxos' : 'raft';
  return f(n.data as never, n.node ?? '', lang, voice, run?.coordination?.service);
}

/**
 * Notes worth a mark on the version timeline: the turning points a teacher scrubs to. Frequent
 * per-update notes (apply, commit, sspBlocked …) would bury them.
 */
export const timelineNotes: ReadonlySet<NoteName> = new Set<NoteName>([
  'electionStarted',
  'leaderElected',
  'leaderStepDown',
  'entryOverwritten',
  'staleRead',
  'isrShrink',
  'isrExpand',
  'partitionOffline',
  'uncleanElection',
  'consumerCaughtUp',
  'partitionDetected',
  'modeSwitch',
  'merge',
  'mergeAborted',
  'staleWriteAccepted',
  'fenced',
  'epochGranted',
  'requestTooLarge',
  'lockAcquired',
  'leaseExpired',
  'sessionLost',
  'metaWritten',
  'resumed',
  '2pc.inDoubt',
  '2pc.resolved',
  'paxos.recovered',
  'targetReached',
]);
