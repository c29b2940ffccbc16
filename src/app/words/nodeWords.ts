import type { NodeState } from '../../engine/index/runState';
import type { StrategyConfig } from '../../protocols';
import type { NodeFacts } from '../../protocols/facts';
import type { Lang } from '../i18n/lang';
import { list, majority, setOf, tokenText } from './text';

/**
 * A node's typed facts (protocols/facts.ts) in words, for the topology's tooltips, the node panel
 * and the servers panel — in English and Chinese, never parsed back. Every function takes the
 * node's state at the cursor time, so a scrubbed screen reads like the live one did.
 */

/** The run-wide context some facts need to be read (ring length, majority size, knobs). */
export interface WordsContext {
  workers: number;
  /** Consensus servers (Raft) — the majority is counted over these. */
  servers: number;
  cfg: StrategyConfig;
  /** The coordination service beside the strategy (cluster.coord nodes c0…), if any. */
  coord?: 'etcd' | 'zookeeper';
}

/** The stable `data-role` hook of a node (CONTRACTS §5), at the cursor time. */
export type DataRole = 'leader' | 'follower' | 'candidate' | 'crashed' | 'paused' | 'worker' | 'server' | 'broker' | 'consumer' | 'coord';

/**
 * Raft servers and Paxos proposers: their role. Kafka brokers: their role for topic partition 0
 * (the partition the servers panel draws and `@leader` names), `broker` when they hold no replica
 * of it. Kafka's PS replicas: `consumer`. Everything else (2PC servers included: the coordinator
 * is named in the panel; coordination-service servers: `coord`, their role is in the panel and
 * the ring): its cluster role. Down: `crashed`; frozen by a `pause`: `paused`.
 */
export function roleOf(n: NodeState): DataRole {
  if (!n.up) return 'crashed';
  if (n.paused) return 'paused';
  const f = n.facts;
  if (f?.kind === 'raft-server' || f?.kind === 'paxos-server') return f.role;
  if (f?.kind === 'kafka-broker') return p0(f)?.role ?? 'broker';
  if (f?.kind === 'kafka-consumer') return 'consumer';
  return n.role;
}

/** Raft: the server's current term; Kafka: the leader epoch of topic partition 0 it knows; Paxos: the ballot it promised. */
export function termOf(n: NodeState): number | null {
  const f = n.facts;
  if (f?.kind === 'raft-server') return f.term;
  if (f?.kind === 'kafka-broker') return p0(f)?.epoch ?? null;
  if (f?.kind === 'paxos-server') return f.promised;
  if (f?.kind === 'coord-server') return f.term;
  return null;
}

/**
 * The consensus role drawn on a server glyph (the leader's crown, a candidate's dashed ring),
 * whatever its data-role hook says: coordination servers are `coord` there, but lead or follow too.
 * ZooKeeper's LOOKING (electing) and an elected leader still synchronising count as candidates.
 */
export function consensusRoleOf(n: NodeState): 'leader' | 'follower' | 'candidate' | null {
  if (!n.up) return null;
  const f = n.facts;
  if (f?.kind === 'coord-server') return f.role === 'looking' ? 'candidate' : f.role;
  const r = roleOf(n);
  return r === 'leader' || r === 'follower' || r === 'candidate' ? r : null;
}

/** What termOf counts, in words: term (Raft, etcd), epoch (Kafka, ZooKeeper's Zab), ballot (Paxos). */
export function termWord(n: NodeState, lang: Lang): string {
  const k = n.facts?.kind;
  if (k === 'kafka-broker' || (n.facts?.kind === 'coord-server' && n.facts.service === 'zookeeper')) return w(lang, 'epoch', '纪元');
  if (k === 'paxos-server') return w(lang, 'ballot', '提案编号');
  return w(lang, 'term', '任期');
}

/**
 * The version a node holds at t: a worker's replica; a server's state from its facts (a PS
 * server's or Raft state machine's version, a Kafka PS replica's applied offset, a broker's log
 * length). A node without facts at t (a crashed PS server) falls back to the engine's sample.
 */
export function versionOf(n: NodeState, sampled?: number | null): number {
  if (n.role === 'worker') return n.version;
  const f = n.facts;
  if (f?.kind === 'ps-server' || f?.kind === 'raft-server' || f?.kind === 'paxos-server' || f?.kind === '2pc-server') return f.version;
  if (f?.kind === 'kafka-consumer') return f.offset;
  if (f?.kind === 'kafka-broker') return f.parts.reduce((a, p) => a + p.leo, 0);
  // A coordination server holds no parameters: its store's revision (ZooKeeper: last applied zxid).
  if (f?.kind === 'coord-server') return f.revision;
  return sampled ?? n.version;
}

type BrokerFacts = Extract<NodeFacts, { kind: 'kafka-broker' }>;
type Part = BrokerFacts['parts'][number];

export function p0(f: BrokerFacts): Part | undefined {
  return f.parts.find((x) => x.p === 0);
}

function w(lang: Lang, en: string, zh: string): string {
  return lang === 'zh' ? zh : en;
}

/** One line per fact worth saying, most important first. Empty when the node has no facts. */
export function nodeLines(n: NodeState, ctx: WordsContext, lang: Lang): string[] {
  const lines = factLines(n, ctx, lang);
  return n.paused ? [pausedLine(n.paused.since, lang), ...lines] : lines;
}

/** A paused process handles nothing (CURRICULUM §C.2 `pause`): it cannot notice what happened meanwhile. */
function pausedLine(since: number, lang: Lang): string {
  const at = (since / 1000).toFixed(2);
  return w(lang, `paused since ${at} s (a GC pause): it handles nothing, and what reaches it waits in its queue`, `自 ${at} 秒起暂停（GC 停顿）：它什么也不处理，发给它的消息在队列里等待`);
}

function factLines(n: NodeState, ctx: WordsContext, lang: Lang): string[] {
  const f = n.facts;
  if (!f) return [];
  switch (f.kind) {
    case 'ring-worker':
      return [ringLine(f, ctx, lang)];
    case 'ps-server':
      return psServerLines(f, lang);
    case 'ps-worker':
      return f.lock ? lockWorkerLines(f, f.lock, n.paused !== undefined, ctx, lang) : [psWorkerLine(f, lang)];
    case 'coord-server':
      return coordServerLines(f, lang);
    case 'raft-server':
      return raftServerLines(f, ctx, lang);
    case 'raft-client':
      return [raftClientLine(f, ctx, lang)];
    case 'kafka-broker':
      return f.parts.map((p) => partLine(p, lang));
    case 'kafka-consumer':
      return [consumerLine(f, lang)];
    case 'kafka-producer':
      return [producerLine(f, lang)];
    case 'degrade-worker':
      return degradeLines(f, ctx, lang);
    case 'paxos-server':
      return paxosServerLines(f, lang);
    case 'paxos-client':
      return [rsmClientLine(f.phase, f.seq, f.asking, lang)];
    case '2pc-server':
      return twoPcServerLines(f, lang);
    case '2pc-client': {
      const aborted = f.aborted > 0 ? w(lang, ` · ${f.aborted} of its updates aborted so far`, ` · 已有 ${f.aborted} 个更新被中止`) : '';
      return [rsmClientLine(f.phase, f.seq, null, lang) + aborted];
    }
  }
}

type CoordFacts = Extract<NodeFacts, { kind: 'coord-server' }>;
type PsWorkerFacts = Extract<NodeFacts, { kind: 'ps-worker' }>;
type LockFacts = NonNullable<PsWorkerFacts['lock']>;

/** The lock of ps-async's recipe (psAsyncRmw.ts) as the service stores it. */
const LOCK_KEY = '/locks/params';

/** A coordination-service server: role, what it committed and applied, leases or sessions, locks, metadata. */
function coordServerLines(f: CoordFacts, lang: Lang): string[] {
  const zk = f.service === 'zookeeper';
  const out: string[] = [];
  const name = zk ? 'ZooKeeper' : 'etcd';
  if (zk) {
    if (f.role === 'leader') out.push(w(lang, `${name} leader of epoch ${f.term} (Zab)`, `${name} 纪元 ${f.term} 的领导者（Zab）`));
    else if (f.role === 'candidate') out.push(w(lang, `${name}: elected for epoch ${f.term}, synchronising its followers before it serves`, `${name}：当选纪元 ${f.term} 的领导者，先同步跟随者，之后才提供服务`));
    else if (f.role === 'looking') out.push(w(lang, `${name}: looking for a leader (epoch ${f.term})`, `${name}：正在寻找领导者（纪元 ${f.term}）`));
    else out.push(f.leader ? w(lang, `${name} follower in epoch ${f.term}; leader ${f.leader}`, `${name} 纪元 ${f.term} 的跟随者；领导者 ${f.leader}`) : w(lang, `${name} follower in epoch ${f.term}; leader unknown`, `${name} 纪元 ${f.term} 的跟随者；领导者未知`));
    out.push(w(lang, `committed up to zxid ${tokenText(f.commit)}; applied up to ${tokenText(f.revision)}; answers reads from its own copy`, `已提交到 zxid ${tokenText(f.commit)}；已应用到 ${tokenText(f.revision)}；读请求由它自己的副本应答`));
  } else {
    if (f.role === 'leader') out.push(w(lang, `${name} leader in term ${f.term} (Raft)`, `${name} 任期 ${f.term} 的领导者（Raft）`));
    else if (f.role === 'candidate' || f.role === 'looking') out.push(w(lang, `${name} candidate in term ${f.term}`, `${name} 任期 ${f.term} 的候选者`));
    else out.push(f.leader ? w(lang, `${name} follower in term ${f.term}; leader ${f.leader}`, `${name} 任期 ${f.term} 的跟随者；领导者 ${f.leader}`) : w(lang, `${name} follower in term ${f.term}; leader unknown`, `${name} 任期 ${f.term} 的跟随者；领导者未知`));
    out.push(w(lang, `commit index ${f.commit}; store at revision ${f.revision}`, `提交索引 ${f.commit}；存储的 revision 为 ${f.revision}`));
  }
  const owners = f.leases.map((l) => l.owner);
  out.push(
    owners.length === 0
      ? zk
        ? w(lang, 'no open session', '没有打开的会话')
        : w(lang, 'no live lease', '没有有效的租约')
      : zk
        ? w(lang, `sessions of ${list(owners, 'en')}`, `${list(owners, 'zh')} 的会话`)
        : w(lang, `leases of ${list(owners, 'en')}`, `${list(owners, 'zh')} 的租约`),
  );
  for (const l of f.locks) {
    const key = l.name.startsWith('/') ? l.name : `/locks/${l.name}`;
    const queue = l.waiting.length ? w(lang, `; queued: ${list(l.waiting, 'en')}`, `；排队：${list(l.waiting, 'zh')}`) : '';
    out.push(
      zk
        ? w(lang, `lock ${key}: ${l.holder} holds it (oldest ephemeral sequential node; fencing token zxid ${tokenText(l.token)})${queue}`, `锁 ${key}：由 ${l.holder} 持有（最早的临时顺序节点；防护令牌 zxid ${tokenText(l.token)}）${queue}`)
        : w(lang, `lock ${key}: ${l.holder} holds it (oldest key under a lease; fencing token = its create revision ${l.token})${queue}`, `锁 ${key}：由 ${l.holder} 持有（租约下最早的键；防护令牌即其创建时的 revision ${l.token}）${queue}`),
    );
  }
  if (f.meta.length) out.push(w(lang, `metadata: ${f.meta.map((m) => `${m.key} v${m.version}`).join(', ')}`, `元数据：${f.meta.map((m) => `${m.key} 版本 ${m.version}`).join('，')}`));
  return out;
}

/**
 * A ps-async worker in the lock recipe (writeLock "lease"): where it is in lock → read → compute →
 * write → release, and its lock as it believes it. A paused holder still believes it holds the lock.
 */
function lockWorkerLines(f: PsWorkerFacts, lock: LockFacts, paused: boolean, ctx: WordsContext, lang: Lang): string[] {
  const tok = lock.token !== undefined ? tokenText(lock.token) : '?';
  const set = ctx.cfg.kind === 'ps-async' && ctx.cfg.writeMode === 'set';
  const out: string[] = [];
  if (f.phase === 'lock' || lock.state !== 'held') {
    out.push(lock.state === 'waiting' ? w(lang, `waiting for the lock ${LOCK_KEY}: queued behind its holder`, `等待锁 ${LOCK_KEY}：排在持有者之后`) : w(lang, `asking for the lock ${LOCK_KEY}`, `正在申请锁 ${LOCK_KEY}`));
  } else {
    const step =
      f.phase === 'read'
        ? w(lang, 'reading the parameters', '正在读取参数')
        : f.phase === 'write'
          ? set
            ? w(lang, 'writing the whole parameter vector back', '正在把整个参数向量写回')
            : w(lang, 'writing its gradient', '正在写入梯度')
          : w(lang, 'computing its update on what it read', '正在基于读到的参数计算更新');
    out.push(
      paused
        ? w(lang, `believes it holds the lock (fencing token ${tok}) while ${step} — paused, it cannot know whether its lease has expired`, `以为自己仍持有锁（防护令牌 ${tok}），${step}——它被暂停了，无从得知租约是否已过期`)
        : w(lang, `holds the lock (fencing token ${tok}): ${step}`, `持有锁（防护令牌 ${tok}）：${step}`),
    );
  }
  const lease = ctx.coord === 'zookeeper' ? w(lang, 'session', '会话') : w(lang, 'lease', '租约');
  out.push(
    lock.session === 'ok'
      ? w(lang, `${lease} on ${lock.server}, kept alive by its heartbeats`, `${lease}在 ${lock.server} 上，靠心跳维持`)
      : lock.session === 'connecting'
        ? w(lang, `opening a ${lease} on ${lock.server}`, `正在 ${lock.server} 上建立${lease}`)
        : w(lang, `no ${lease} yet`, `还没有${lease}`),
  );
  return out;
}

function paxosServerLines(f: Extract<NodeFacts, { kind: 'paxos-server' }>, lang: Lang): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(w(lang, `leader (distinguished proposer) with ballot ${f.ballot ?? f.promised}: phase 1 done, it proposes every update`, `领导者（特定提议者），提案编号 ${f.ballot ?? f.promised}：第一阶段已完成，由它提议每次更新`));
  else if (f.role === 'candidate') out.push(w(lang, `candidate with ballot ${f.ballot ?? '?'}: ${f.promises ?? 1} of the ${f.need ?? '?'} promises it needs (phase 1)`, `候选者，提案编号 ${f.ballot ?? '?'}：已得 ${f.promises ?? 1} 个承诺，需要 ${f.need ?? '?'} 个（第一阶段）`));
  else out.push(f.leader ? w(lang, `follower; leader ${f.leader}`, `跟随者；领导者 ${f.leader}`) : w(lang, 'follower; leader unknown', '跟随者；领导者未知'));
  out.push(w(lang, `acceptor: promised ballot ${f.promised}, accepted values up to slot ${f.accepted}`, `接受者：承诺的提案编号 ${f.promised}，已接受到第 ${f.accepted} 个槽位`));
  out.push(w(lang, `learner: ${f.chosen} slots known chosen, applied (version ${f.version})`, `学习者：已知 ${f.chosen} 个槽位被选定并已应用（版本 ${f.version}）`));
  return out;
}

function twoPcServerLines(f: Extract<NodeFacts, { kind: '2pc-server' }>, lang: Lang): string[] {
  const out: string[] = [];
  if (f.coordinator) {
    out.push(
      f.tx !== null && f.tx !== undefined
        ? w(lang, `coordinator: transaction ${f.tx} collecting votes, ${f.votes ?? 0} of ${f.participants ?? '?'} yes (every participant must vote yes)`, `协调者：事务 ${f.tx} 正在收集投票，${f.participants ?? '?'} 票中已有 ${f.votes ?? 0} 票赞成（必须全体赞成）`)
        : w(lang, 'coordinator: no transaction open', '协调者：没有进行中的事务'),
    );
    if (f.queued) out.push(w(lang, `${f.queued} updates queued for the next transactions`, `${f.queued} 个更新排队等待后续事务`));
    if (f.decided) out.push(f.decided.decision === 'commit' ? w(lang, `last decision in its log: transaction ${f.decided.tx} committed`, `日志中最新的决定：事务 ${f.decided.tx} 提交`) : w(lang, `last decision in its log: transaction ${f.decided.tx} aborted`, `日志中最新的决定：事务 ${f.decided.tx} 中止`));
  }
  if (f.prepared !== null)
    out.push(
      f.blocked
        ? w(lang, `participant: voted yes on transaction ${f.prepared} and is in doubt — it can neither commit nor abort on its own, so it blocks and asks the others`, `参与者：对事务 ${f.prepared} 投了赞成票，处于不确定状态——它不能自行提交或中止，只能阻塞并询问其他节点`)
        : w(lang, `participant: voted yes on transaction ${f.prepared}, waiting for the decision`, `参与者：对事务 ${f.prepared} 投了赞成票，等待决定`),
    );
  else out.push(w(lang, `participant: no transaction prepared (version ${f.version})`, `参与者：没有已准备的事务（版本 ${f.version}）`));
  return out;
}

/** A client of a replicated state machine (Paxos, 2PC): what it waits for. */
function rsmClientLine(phase: 'idle' | 'computing' | 'updating' | 'reading', seq: number, asking: string | null, lang: Lang): string {
  const to = asking ? w(lang, ` (asking ${asking})`, `（发往 ${asking}）`) : '';
  switch (phase) {
    case 'idle':
      return w(lang, 'idle', '空闲');
    case 'computing':
      return w(lang, 'computing a gradient', '正在计算梯度');
    case 'updating':
      return w(lang, `waiting for its update #${seq} to be applied${to}`, `等待更新 #${seq} 被应用${to}`);
    case 'reading':
      return w(lang, `reading the parameters${to}`, `读取参数${to}`);
  }
}

function ringLine(f: { round: number; phase: 'compute' | 'rs' | 'ag'; k: number; waitingFor: string | null }, ctx: WordsContext, lang: Lang): string {
  if (f.phase === 'compute') return w(lang, `computing its gradient for round ${f.round}`, `正在计算第 ${f.round} 轮的梯度`);
  const steps = Math.max(1, ctx.workers - 1);
  const from = f.waitingFor ?? '?';
  if (f.phase === 'rs') return w(lang, `round ${f.round}, reduce-scatter ${f.k}/${steps}: waiting for a chunk from ${from}`, `第 ${f.round} 轮，归约-散射 ${f.k}/${steps}：等待 ${from} 的数据块`);
  return w(lang, `round ${f.round}, all-gather ${f.k}/${steps}: waiting for a chunk from ${from}`, `第 ${f.round} 轮，全收集 ${f.k}/${steps}：等待 ${from} 的数据块`);
}

function psServerLines(f: Extract<NodeFacts, { kind: 'ps-server' }>, lang: Lang): string[] {
  const out = [w(lang, `parameters at version ${f.version}`, `参数版本 ${f.version}`)];
  if (f.quorum !== undefined) {
    out.push(w(lang, `round ${f.version + 1}: ${f.received ?? 0} of the ${f.quorum} gradients that close it`, `第 ${f.version + 1} 轮：已收到 ${f.received ?? 0} 个梯度，需要 ${f.quorum} 个才能结束`));
  }
  if (f.minClock !== undefined) {
    const s = f.staleness === null || f.staleness === undefined ? '∞' : String(f.staleness);
    const who = f.slowest && f.slowest.length > 0 ? ` (${f.slowest.join(lang === 'zh' ? '、' : ', ')})` : '';
    out.push(w(lang, `slowest clock ${f.minClock}${who}; bound s = ${s}`, `最慢时钟 ${f.minClock}${who.replace(' (', '（').replace(')', '）')}；界限 s = ${s}`));
  }
  return out;
}

function psWorkerLine(f: Extract<NodeFacts, { kind: 'ps-worker' }>, lang: Lang): string {
  const unacked = f.unacked ?? 0;
  const clock = f.clock !== undefined ? w(lang, `clock ${f.clock}: `, `时钟 ${f.clock}：`) : '';
  switch (f.state) {
    case 'pulling':
      return w(lang, 'restarted: pulling the parameters before it may compute', '已重启：先拉取参数，然后才能计算');
    case 'unreachable':
      return w(lang, `server unreachable: training on its local copy, ${unacked} ${unacked === 1 ? 'update' : 'updates'} not acknowledged`, `连不上服务器：在本地副本上训练，${unacked} 个更新尚未被确认`);
    case 'waiting':
      if (f.waitFor === 'barrier') return w(lang, `waiting at the barrier for round ${f.round ?? '?'} to close`, `在栅栏处等待第 ${f.round ?? '?'} 轮结束`);
      if (f.waitFor === 'bound') {
        const need = f.needClock ?? '?';
        const seen = f.seenMinClock !== undefined ? w(lang, `; its last read saw slowest clock ${f.seenMinClock}`, `；它上次读到的最慢时钟是 ${f.seenMinClock}`) : '';
        return clock + w(lang, `blocked until the slowest worker reaches clock ${need} (the staleness bound)`, `阻塞，直到最慢的节点到达时钟 ${need}（陈旧度界限）`) + seen;
      }
      return clock + w(lang, 'waiting for parameters from the server', '等待服务器发来参数');
    case 'training': {
      if (f.round !== undefined) return w(lang, `computing round ${f.round}`, `正在计算第 ${f.round} 轮`);
      const pending = unacked > 0 ? w(lang, `, ${unacked} ${unacked === 1 ? 'update' : 'updates'} awaiting acknowledgement`, `，${unacked} 个更新等待确认`) : '';
      return clock + w(lang, 'computing', '正在计算') + pending;
    }
  }
}

function raftServerLines(f: Extract<NodeFacts, { kind: 'raft-server' }>, ctx: WordsContext, lang: Lang): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(w(lang, `leader in term ${f.term}`, `任期 ${f.term} 的领导者`));
  else if (f.role === 'candidate') out.push(w(lang, `candidate in term ${f.term}: ${f.votes ?? 1} of the ${majority(ctx.servers)} votes it needs`, `任期 ${f.term} 的候选者：已得 ${f.votes ?? 1} 票，需要 ${majority(ctx.servers)} 票`));
  else out.push(f.leader ? w(lang, `follower in term ${f.term}; leader ${f.leader}`, `任期 ${f.term} 的跟随者；领导者 ${f.leader}`) : w(lang, `follower in term ${f.term}; leader unknown`, `任期 ${f.term} 的跟随者；领导者未知`));
  out.push(f.votedFor ? w(lang, `voted for ${f.votedFor} in term ${f.term}`, `任期 ${f.term} 投票给 ${f.votedFor}`) : w(lang, `has not voted in term ${f.term}`, `任期 ${f.term} 尚未投票`));
  out.push(w(lang, `commit index ${f.commitIndex}; applied ${f.lastApplied} entries (version ${f.version})`, `提交索引 ${f.commitIndex}；已应用 ${f.lastApplied} 个条目（版本 ${f.version}）`));
  return out;
}

function raftClientLine(f: Extract<NodeFacts, { kind: 'raft-client' }>, ctx: WordsContext, lang: Lang): string {
  const asking = f.asking ?? '?';
  switch (f.phase) {
    case 'idle':
      return w(lang, 'idle', '空闲');
    case 'computing':
      return w(lang, 'computing a gradient', '正在计算梯度');
    case 'updating':
      // A manual client offers each update to every server and may wait for several.
      if (f.pending !== undefined) return w(lang, `waiting for ${f.pending === 1 ? 'an update' : `${f.pending} updates`} to commit (newest #${f.seq}, offered to every server)`, `等待 ${f.pending} 个更新提交（最新 #${f.seq}，已发往所有服务器）`);
      return w(lang, `waiting for its update #${f.seq} to commit (asking ${asking})`, `等待更新 #${f.seq} 提交（发往 ${asking}）`);
    case 'reading': {
      const mode = ctx.cfg.kind === 'raft-ps' ? ctx.cfg.readMode : 'readIndex';
      return w(lang, `reading the parameters (readMode ${mode}, asking ${asking})`, `读取参数（readMode ${mode}，发往 ${asking}）`);
    }
  }
}

function partLine(p: Part, lang: Lang): string {
  const head = w(lang, `topic partition ${p.p}`, `主题分区 ${p.p}`);
  const offsets = `LEO ${p.leo} · HW ${p.hw}`;
  if (p.offline) return w(lang, `${head}: offline — no in-sync replica is alive (ISR ${setOf(p.isr ?? [])}) · ${offsets}`, `${head}：已下线——没有存活的同步副本（ISR ${setOf(p.isr ?? [])}）· ${offsets}`);
  if (p.role === 'leader') return w(lang, `${head}: leader, epoch ${p.epoch}, ISR ${setOf(p.isr ?? [])} · ${offsets}`, `${head}：领导者，纪元 ${p.epoch}，ISR ${setOf(p.isr ?? [])} · ${offsets}`);
  if (p.leader) return w(lang, `${head}: follower of ${p.leader}, epoch ${p.epoch} · ${offsets}`, `${head}：跟随 ${p.leader}，纪元 ${p.epoch} · ${offsets}`);
  return w(lang, `${head}: follower (no leader known), epoch ${p.epoch} · ${offsets}`, `${head}：跟随者（不知道领导者），纪元 ${p.epoch} · ${offsets}`);
}

function consumerLine(f: Extract<NodeFacts, { kind: 'kafka-consumer' }>, lang: Lang): string {
  const state = f.caughtUp ? w(lang, 'caught up', '已追上') : w(lang, 'replaying the log', '正在回放日志');
  return w(lang, `applied offset ${f.offset}, consumer lag ${f.lag} (${state})`, `已应用偏移量 ${f.offset}，消费滞后 ${f.lag}（${state}）`);
}

function producerLine(f: Extract<NodeFacts, { kind: 'kafka-producer' }>, lang: Lang): string {
  const part = w(lang, `writes to topic partition ${f.partition}, reads from ${f.readsFrom}`, `写入主题分区 ${f.partition}，从 ${f.readsFrom} 读取参数`);
  if (f.phase === 'ack') return w(lang, `waiting for acknowledgements (${f.unacked} unacknowledged) · ${part}`, `等待确认（${f.unacked} 条未确认）· ${part}`);
  if (f.phase === 'pull') return w(lang, `pulling parameters from ${f.readsFrom} · ${part}`, `从 ${f.readsFrom} 拉取参数 · ${part}`);
  return w(lang, `computing a gradient · ${part}`, `正在计算梯度 · ${part}`);
}

function degradeLines(f: Extract<NodeFacts, { kind: 'degrade-worker' }>, ctx: WordsContext, lang: Lang): string[] {
  const out: string[] = [];
  if (f.mode === 'strong') {
    out.push(w(lang, `strong mode, epoch ${f.epoch}`, `强一致模式，纪元号 ${f.epoch}`));
    if (f.ring) out.push(ringLine(f.ring, ctx, lang));
  } else {
    const side = f.side ? setOf(f.side) : '?';
    const steps = f.localSteps ?? 0;
    if (f.mode === 'eventual') {
      const stepsEn = `${steps} local ${steps === 1 ? 'step' : 'steps'} not merged yet`;
      if (f.epochFrom === 'service') {
        // With a service, the side is authoritative once the service granted it an epoch (majoritySide), whatever its size.
        out.push(
          f.majoritySide
            ? w(lang, `eventual mode, epoch ${f.epoch} (granted by the service): local SGD on side ${side}, ${stepsEn}`, `最终一致模式，纪元号 ${f.epoch}（协调服务发放）：在 ${side} 一侧做本地 SGD，${steps} 个本地训练步尚未合并`)
            : w(lang, `eventual mode, epoch ${f.epoch} (no newer epoch granted): local SGD on side ${side}, provisional, ${stepsEn}`, `最终一致模式，纪元号 ${f.epoch}（没有拿到更新的纪元号）：在 ${side} 一侧做本地 SGD，成果只是临时的，${steps} 个本地训练步尚未合并`),
        );
      } else {
        const which = f.majoritySide ? w(lang, 'majority', '多数派') : w(lang, 'minority', '少数派');
        out.push(w(lang, `eventual mode, epoch ${f.epoch}: local SGD on the ${which} side ${side}, ${stepsEn}`, `最终一致模式，纪元号 ${f.epoch}：在${which}一侧 ${side} 做本地 SGD，${steps} 个本地训练步尚未合并`));
      }
      if (f.stable) out.push(w(lang, 'hears every worker again: waiting out healStableMs before it contributes to the merge', '重新能连到所有节点：先等过 healStableMs，再交出成果参与合并'));
    } else {
      const rule = mergeRuleName(ctx.cfg.kind === 'degrade' ? ctx.cfg.merge : 'average', lang);
      const to = f.coordinator ? w(lang, ` to ${f.coordinator}`, `给 ${f.coordinator}`) : '';
      out.push(w(lang, `merging (rule: ${rule}), epoch ${f.epoch}: ${steps} local ${steps === 1 ? 'step' : 'steps'} sent${to} for the merge`, `正在合并（规则：${rule}），纪元号 ${f.epoch}：${steps} 个本地训练步已交${to}参与合并`));
    }
  }
  if (f.epochPending !== undefined)
    out.push(w(lang, `asked the coordination service for epoch ${f.epochPending}; until it answers, this side's work is provisional`, `已向协调服务申请纪元号 ${f.epochPending}；在它答复之前，这一侧的成果只是临时的`));
  if (f.epochFrom && f.mode !== 'strong')
    out.push(
      f.epochFrom === 'service'
        ? w(lang, 'epochs come from the coordination service, which grants each one once, to one side', '纪元号由协调服务发放：每个纪元号只发一次，只发给一侧')
        : w(lang, "epochs come from each side's own failure detector: no single authority grants them", '纪元号取自各侧自己的故障检测器：没有统一的权威来发放'),
    );
  if (f.collected) out.push(w(lang, `merge coordinator: holds ${f.collected} ${f.collected === 1 ? 'contribution' : 'contributions'}`, `合并协调者：已收到 ${f.collected} 份成果`));
  out.push(
    f.storeWriter
      ? w(lang, `checkpoint store: epoch ${f.storeEpoch}, latest checkpoint written by ${f.storeWriter}`, `检查点存储：纪元号 ${f.storeEpoch}，最新检查点由 ${f.storeWriter} 写入`)
      : w(lang, `checkpoint store: epoch ${f.storeEpoch}, no checkpoint yet`, `检查点存储：纪元号 ${f.storeEpoch}，尚无检查点`),
  );
  return out;
}

/** A degrade merge rule's name in the reader's language (the knob value stays in the knob). */
export function mergeRuleName(rule: 'discard' | 'average' | 'replay', lang: Lang): string {
  const names = { discard: ['discard', '丢弃'], average: ['average', '平均'], replay: ['replay', '回放'] } as const;
  return names[rule][lang === 'zh' ? 1 : 0];
}
