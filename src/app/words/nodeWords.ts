import type { NodeState } from '../../engine/index/runState';
import type { StrategyConfig } from '../../protocols';
import type { NodeFacts } from '../../protocols/facts';
import type { Lang } from '../i18n/lang';
import { majority, setOf } from './text';

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
}

/** The stable `data-role` hook of a node (CONTRACTS §5), at the cursor time. */
export type DataRole = 'leader' | 'follower' | 'candidate' | 'crashed' | 'paused' | 'worker' | 'server' | 'broker' | 'consumer' | 'coord';

/**
 * Raft servers: their role. Kafka brokers: their role for topic partition 0 (the partition the
 * servers panel draws and `@leader` names), `broker` when they hold no replica of it. Kafka's PS
 * replicas: `consumer`. Everything else: its cluster role. Down: `crashed`.
 */
export function roleOf(n: NodeState): DataRole {
  if (!n.up) return 'crashed';
  const f = n.facts;
  if (f?.kind === 'raft-server') return f.role;
  if (f?.kind === 'kafka-broker') return p0(f)?.role ?? 'broker';
  if (f?.kind === 'kafka-consumer') return 'consumer';
  return n.role;
}

/** Raft: the server's current term; Kafka: the leader epoch of topic partition 0 it knows. */
export function termOf(n: NodeState): number | null {
  const f = n.facts;
  if (f?.kind === 'raft-server') return f.term;
  if (f?.kind === 'kafka-broker') return p0(f)?.epoch ?? null;
  return null;
}

/**
 * The version a node holds at t: a worker's replica; a server's state from its facts (a PS
 * server's or Raft state machine's version, a Kafka PS replica's applied offset, a broker's log
 * length). A node without facts at t (a crashed PS server) falls back to the engine's sample.
 */
export function versionOf(n: NodeState, sampled?: number | null): number {
  if (n.role === 'worker') return n.version;
  const f = n.facts;
  if (f?.kind === 'ps-server' || f?.kind === 'raft-server') return f.version;
  if (f?.kind === 'kafka-consumer') return f.offset;
  if (f?.kind === 'kafka-broker') return f.parts.reduce((a, p) => a + p.leo, 0);
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
  const f = n.facts;
  if (!f) return [];
  switch (f.kind) {
    case 'ring-worker':
      return [ringLine(f, ctx, lang)];
    case 'ps-server':
      return psServerLines(f, lang);
    case 'ps-worker':
      return [psWorkerLine(f, lang)];
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
    const which = f.majoritySide ? w(lang, 'majority', '多数派') : w(lang, 'minority', '少数派');
    const steps = f.localSteps ?? 0;
    if (f.mode === 'eventual') {
      out.push(w(lang, `eventual mode, epoch ${f.epoch}: local SGD on the ${which} side ${side}, ${steps} local ${steps === 1 ? 'step' : 'steps'} not merged yet`, `最终一致模式，纪元号 ${f.epoch}：在${which}一侧 ${side} 做本地 SGD，${steps} 个本地训练步尚未合并`));
      if (f.stable) out.push(w(lang, 'hears every worker again: waiting out healStableMs before it contributes to the merge', '重新能连到所有节点：先等过 healStableMs，再交出成果参与合并'));
    } else {
      const rule = mergeRuleName(ctx.cfg.kind === 'degrade' ? ctx.cfg.merge : 'average', lang);
      const to = f.coordinator ? w(lang, ` to ${f.coordinator}`, `给 ${f.coordinator}`) : '';
      out.push(w(lang, `merging (rule: ${rule}), epoch ${f.epoch}: ${steps} local ${steps === 1 ? 'step' : 'steps'} sent${to} for the merge`, `正在合并（规则：${rule}），纪元号 ${f.epoch}：${steps} 个本地训练步已交${to}参与合并`));
    }
  }
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
