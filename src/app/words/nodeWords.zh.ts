import type { NodeFacts } from '../../protocols/facts';
import type { CoordFacts, LockFacts, NodeSentences, Part, PsWorkerFacts, WordsContext } from './nodeWords';
import { list, lockKey, majority, mergeRuleName, setOf, tokenText } from './text';

/**
 * A node's typed facts in Chinese (a lazy chunk, loaded with zh.json: i18n/catalog.ts). nodeWords.ts builds the
 * language's NodeTable from these sentences (the last line: a NodeSentences, so a kind of node
 * facts added to facts.ts does not compile until each language says it).
 */

/** Appended to a 2PC client's line: how many of its updates were aborted so far. */
const abortedSoFar = (n: number): string => ` · 已有 ${n} 个更新被中止`;

/** A paused process handles nothing (CURRICULUM §C.2 `pause`). `at`: seconds. */
const paused = (at: string): string => `自 ${at} 秒起暂停（GC 停顿）：它什么也不处理，发给它的消息在队列里等待`;

const termWord: Record<'term' | 'epoch' | 'ballot', string> = { term: '任期', epoch: '纪元', ballot: '提案编号' };

/** The lock of ps-async's recipe (psAsyncRmw.ts) as the service stores it. */
const LOCK_KEY = lockKey('params');

/** A coordination-service server: role, what it committed and applied, leases or sessions, locks, metadata. */
function coordServerLines(f: CoordFacts): string[] {
  const zk = f.service === 'zookeeper';
  const out: string[] = [];
  const name = zk ? 'ZooKeeper' : 'etcd';
  if (zk) {
    if (f.role === 'leader') out.push(`${name} 纪元 ${f.term} 的领导者（Zab）`);
    else if (f.role === 'candidate') out.push(`${name}：当选纪元 ${f.term} 的领导者，先同步跟随者，之后才提供服务`);
    else if (f.role === 'looking') out.push(`${name}：正在寻找领导者（纪元 ${f.term}）`);
    else out.push(f.leader ? `${name} 纪元 ${f.term} 的跟随者；领导者 ${f.leader}` : `${name} 纪元 ${f.term} 的跟随者；领导者未知`);
    out.push(`已提交到 zxid ${tokenText(f.commit)}；已应用到 ${tokenText(f.revision)}；读请求由它自己的副本应答`);
  } else {
    if (f.role === 'leader') out.push(`${name} 任期 ${f.term} 的领导者（Raft）`);
    else if (f.role === 'candidate' || f.role === 'looking') out.push(`${name} 任期 ${f.term} 的候选者`);
    else out.push(f.leader ? `${name} 任期 ${f.term} 的跟随者；领导者 ${f.leader}` : `${name} 任期 ${f.term} 的跟随者；领导者未知`);
    out.push(`提交索引 ${f.commit}；存储的 revision 为 ${f.revision}`);
  }
  const owners = f.leases.map((l) => l.owner);
  out.push(
    owners.length === 0
      ? zk
        ? '没有打开的会话'
        : '没有有效的租约'
      : zk
        ? `${list(owners, 'zh')} 的会话`
        : `${list(owners, 'zh')} 的租约`,
  );
  for (const l of f.locks) {
    const key = l.name.startsWith('/') ? l.name : `/locks/${l.name}`;
    const queue = l.waiting.length ? `；排队：${list(l.waiting, 'zh')}` : '';
    out.push(
      zk
        ? `锁 ${key}：由 ${l.holder} 持有（最早的临时顺序节点；防护令牌 zxid ${tokenText(l.token)}）${queue}`
        : `锁 ${key}：由 ${l.holder} 持有（租约下最早的键；防护令牌即其创建时的 revision ${l.token}）${queue}`,
    );
  }
  if (f.meta.length) out.push(`元数据：${f.meta.map((m) => `${m.key} 版本 ${m.version}`).join('，')}`);
  return out;
}

/**
 * A ps-async worker in the lock recipe (writeLock "lease"): where it is in lock → read → compute →
 * write → release, and its lock as it believes it. A paused holder still believes it holds the lock.
 */
function lockWorkerLines(f: PsWorkerFacts, lock: LockFacts, paused: boolean, ctx: WordsContext): string[] {
  const tok = lock.token !== undefined ? tokenText(lock.token) : '?';
  const set = ctx.cfg.kind === 'ps-async' && ctx.cfg.writeMode === 'set';
  const out: string[] = [];
  if (f.phase === 'lock' || lock.state !== 'held') {
    out.push(lock.state === 'waiting' ? `等待锁 ${LOCK_KEY}：排在持有者之后` : `正在申请锁 ${LOCK_KEY}`);
  } else {
    const step =
      f.phase === 'read'
        ? '正在读取参数'
        : f.phase === 'write'
          ? set
            ? '正在把整个参数向量写回'
            : '正在写入梯度'
          : '正在基于读到的参数计算更新';
    out.push(
      paused
        ? `以为自己仍持有锁（防护令牌 ${tok}），${step}——它被暂停了，无从得知租约是否已过期`
        : `持有锁（防护令牌 ${tok}）：${step}`,
    );
  }
  const lease = ctx.coord === 'zookeeper' ? '会话' : '租约';
  out.push(
    lock.session === 'ok'
      ? `${lease}在 ${lock.server} 上，靠心跳维持`
      : lock.session === 'connecting'
        ? `正在 ${lock.server} 上建立${lease}`
        : `还没有${lease}`,
  );
  return out;
}

function paxosServerLines(f: Extract<NodeFacts, { kind: 'paxos-server' }>): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(`领导者（特定提议者），提案编号 ${f.ballot ?? f.promised}：第一阶段已完成，由它提议每次更新`);
  else if (f.role === 'candidate') out.push(`候选者，提案编号 ${f.ballot ?? '?'}：已得 ${f.promises ?? 1} 个承诺，需要 ${f.need ?? '?'} 个（第一阶段）`);
  else out.push(f.leader ? `跟随者；领导者 ${f.leader}` : '跟随者；领导者未知');
  out.push(`接受者：承诺的提案编号 ${f.promised}，已接受到第 ${f.accepted} 个槽位`);
  out.push(`学习者：已知 ${f.chosen} 个槽位被选定并已应用（版本 ${f.version}）`);
  return out;
}

function twoPcServerLines(f: Extract<NodeFacts, { kind: '2pc-server' }>): string[] {
  const out: string[] = [];
  if (f.coordinator) {
    out.push(
      f.tx !== null && f.tx !== undefined
        ? `协调者：事务 ${f.tx} 正在收集投票，${f.participants ?? '?'} 票中已有 ${f.votes ?? 0} 票赞成（必须全体赞成）`
        : '协调者：没有进行中的事务',
    );
    if (f.queued) out.push(`${f.queued} 个更新排队等待后续事务`);
    if (f.decided) out.push(f.decided.decision === 'commit' ? `日志中最新的决定：事务 ${f.decided.tx} 提交` : `日志中最新的决定：事务 ${f.decided.tx} 中止`);
  }
  if (f.prepared !== null)
    out.push(
      f.blocked
        ? `参与者：对事务 ${f.prepared} 投了赞成票，处于不确定状态——它不能自行提交或中止，只能阻塞并询问其他节点`
        : `参与者：对事务 ${f.prepared} 投了赞成票，等待决定`,
    );
  else out.push(`参与者：没有已准备的事务（版本 ${f.version}）`);
  return out;
}

/** A client of a replicated state machine (Paxos, 2PC): what it waits for. */
function rsmClientLine(phase: 'idle' | 'computing' | 'updating' | 'reading', seq: number, asking: string | null): string {
  const to = asking ? `（发往 ${asking}）` : '';
  switch (phase) {
    case 'idle':
      return '空闲';
    case 'computing':
      return '正在计算梯度';
    case 'updating':
      return `等待更新 #${seq} 被应用${to}`;
    case 'reading':
      return `读取参数${to}`;
  }
}

function ringLine(f: { round: number; phase: 'compute' | 'rs' | 'ag'; k: number; waitingFor: string | null }, ctx: WordsContext): string {
  if (f.phase === 'compute') return `正在计算第 ${f.round} 轮的梯度`;
  const steps = Math.max(1, ctx.workers - 1);
  const from = f.waitingFor ?? '?';
  if (f.phase === 'rs') return `第 ${f.round} 轮，归约-散射 ${f.k}/${steps}：等待 ${from} 的数据块`;
  return `第 ${f.round} 轮，全收集 ${f.k}/${steps}：等待 ${from} 的数据块`;
}

function psServerLines(f: Extract<NodeFacts, { kind: 'ps-server' }>): string[] {
  const out = [`参数版本 ${f.version}`];
  if (f.quorum !== undefined) {
    out.push(`第 ${f.version + 1} 轮：已收到 ${f.received ?? 0} 个梯度，需要 ${f.quorum} 个才能结束`);
  }
  if (f.minClock !== undefined) {
    const s = f.staleness === null || f.staleness === undefined ? '∞' : String(f.staleness);
    const who = f.slowest && f.slowest.length > 0 ? ` (${f.slowest.join('、')})` : '';
    out.push(`最慢时钟 ${f.minClock}${who.replace(' (', '（').replace(')', '）')}；界限 s = ${s}`);
  }
  return out;
}

function psWorkerLine(f: Extract<NodeFacts, { kind: 'ps-worker' }>): string {
  const unacked = f.unacked ?? 0;
  const clock = f.clock !== undefined ? `时钟 ${f.clock}：` : '';
  switch (f.state) {
    case 'pulling':
      return '已重启：先拉取参数，然后才能计算';
    case 'unreachable':
      return `连不上服务器：在本地副本上训练，${unacked} 个更新尚未被确认`;
    case 'waiting':
      if (f.waitFor === 'barrier') return `在栅栏处等待第 ${f.round ?? '?'} 轮结束`;
      if (f.waitFor === 'bound') {
        const need = f.needClock ?? '?';
        const seen = f.seenMinClock !== undefined ? `；它上次读到的最慢时钟是 ${f.seenMinClock}` : '';
        return clock + `阻塞，直到最慢的节点到达时钟 ${need}（陈旧度界限）` + seen;
      }
      return clock + '等待服务器发来参数';
    case 'training': {
      if (f.round !== undefined) return `正在计算第 ${f.round} 轮`;
      const pending = unacked > 0 ? `，${unacked} 个更新等待确认` : '';
      return clock + '正在计算' + pending;
    }
  }
}

function raftServerLines(f: Extract<NodeFacts, { kind: 'raft-server' }>, ctx: WordsContext): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(`任期 ${f.term} 的领导者`);
  else if (f.role === 'candidate') out.push(`任期 ${f.term} 的候选者：已得 ${f.votes ?? 1} 票，需要 ${majority(ctx.servers)} 票`);
  else out.push(f.leader ? `任期 ${f.term} 的跟随者；领导者 ${f.leader}` : `任期 ${f.term} 的跟随者；领导者未知`);
  out.push(f.votedFor ? `任期 ${f.term} 投票给 ${f.votedFor}` : `任期 ${f.term} 尚未投票`);
  out.push(`提交索引 ${f.commitIndex}；已应用 ${f.lastApplied} 个条目（版本 ${f.version}）`);
  if (f.snapshot) out.push(f.compacted ? `快照截至索引 ${f.snapshot}；日志从索引 ${f.compacted + 1} 开始（更早的方块为淡色）` : `快照截至索引 ${f.snapshot}`);
  return out;
}

function raftClientLine(f: Extract<NodeFacts, { kind: 'raft-client' }>, ctx: WordsContext): string {
  const asking = f.asking ?? '?';
  switch (f.phase) {
    case 'idle':
      return '空闲';
    case 'computing':
      return '正在计算梯度';
    case 'updating':
      // A manual client offers each update to every server and may wait for several.
      if (f.pending !== undefined) return `等待 ${f.pending} 个更新提交（最新 #${f.seq}，已发往所有服务器）`;
      return `等待更新 #${f.seq} 提交（发往 ${asking}）`;
    case 'reading': {
      const mode = ctx.cfg.kind === 'raft-ps' ? ctx.cfg.readMode : 'readIndex';
      return `读取参数（readMode ${mode}，发往 ${asking}）`;
    }
  }
}

function partLine(p: Part): string {
  const head = `主题分区 ${p.p}`;
  const offsets = `LEO ${p.leo} · HW ${p.hw}`;
  if (p.offline) return `${head}：已下线——没有存活的同步副本（ISR ${setOf(p.isr ?? [])}）· ${offsets}`;
  if (p.role === 'leader') return `${head}：领导者，纪元 ${p.epoch}，ISR ${setOf(p.isr ?? [])} · ${offsets}`;
  if (p.leader) return `${head}：跟随 ${p.leader}，纪元 ${p.epoch} · ${offsets}`;
  return `${head}：跟随者（不知道领导者），纪元 ${p.epoch} · ${offsets}`;
}

function consumerLine(f: Extract<NodeFacts, { kind: 'kafka-consumer' }>): string {
  const state = !f.caughtUp ? '正在回放日志' : f.lag > 0 ? '上次拉取时已追上' : '已追上';
  return `已应用偏移量 ${f.offset}，消费滞后 ${f.lag}（${state}）`;
}

function producerLine(f: Extract<NodeFacts, { kind: 'kafka-producer' }>): string {
  const part = `写入主题分区 ${f.partition}，从 ${f.readsFrom} 读取参数`;
  if (f.phase === 'ack') return `等待确认（${f.unacked} 条未确认）· ${part}`;
  if (f.phase === 'pull') return `从 ${f.readsFrom} 拉取参数 · ${part}`;
  return `正在计算梯度 · ${part}`;
}

function degradeLines(f: Extract<NodeFacts, { kind: 'degrade-worker' }>, ctx: WordsContext): string[] {
  const out: string[] = [];
  if (f.mode === 'strong') {
    out.push(`强一致模式，纪元号 ${f.epoch}`);
    if (f.ring) out.push(ringLine(f.ring, ctx));
  } else {
    const side = f.side ? setOf(f.side) : '?';
    const steps = f.localSteps ?? 0;
    if (f.mode === 'eventual') {
      if (f.epochFrom === 'service') {
        // With a service, the side is authoritative once the service granted it an epoch (majoritySide), whatever its size.
        out.push(
          f.majoritySide
            ? `最终一致模式，纪元号 ${f.epoch}（协调服务发放）：在 ${side} 一侧做本地 SGD，${steps} 个本地训练步尚未合并`
            : `最终一致模式，纪元号 ${f.epoch}（没有拿到更新的纪元号）：在 ${side} 一侧做本地 SGD，成果只是临时的，${steps} 个本地训练步尚未合并`,
        );
      } else {
        const which = f.majoritySide ? '多数派' : '少数派';
        out.push(`最终一致模式，纪元号 ${f.epoch}：在${which}一侧 ${side} 做本地 SGD，${steps} 个本地训练步尚未合并`);
      }
      if (f.stable) out.push('重新能连到所有节点：先等过 healStableMs，再交出成果参与合并');
    } else {
      const rule = mergeRuleName(ctx.cfg.kind === 'degrade' ? ctx.cfg.merge : 'average', 'zh');
      const to = f.coordinator ? `给 ${f.coordinator}` : '';
      out.push(`正在合并（规则：${rule}），纪元号 ${f.epoch}：${steps} 个本地训练步已交${to}参与合并`);
    }
  }
  if (f.epochPending !== undefined)
    out.push(`已向协调服务申请纪元号 ${f.epochPending}；在它答复之前，这一侧的成果只是临时的`);
  if (f.epochFrom && f.mode !== 'strong')
    out.push(
      f.epochFrom === 'service'
        ? '纪元号由协调服务发放：每个纪元号只发一次，只发给一侧'
        : '纪元号取自各侧自己的故障检测器：没有统一的权威来发放',
    );
  if (f.collected) out.push(`合并协调者：已收到 ${f.collected} 份成果`);
  out.push(
    f.storeWriter
      ? `检查点存储：纪元号 ${f.storeEpoch}，最新检查点由 ${f.storeWriter} 写入`
      : `检查点存储：纪元号 ${f.storeEpoch}，尚无检查点`,
  );
  return out;
}

/** Explicit, not `import * as`: a namespace object split the page's string catalog into a chunk of its own (+0.8 KiB gzip). */
export const sentencesZh: NodeSentences = { ringLine, psServerLines, psWorkerLine, lockWorkerLines, coordServerLines, raftServerLines, raftClientLine, partLine, consumerLine, producerLine, degradeLines, paxosServerLines, twoPcServerLines, rsmClientLine, abortedSoFar, paused, termWord };
