import type { Lang } from './i18n/lang';
import type { NodeView, LinkView } from '../engine/api';
import type { HistoryEvent } from '../sim/types';

/**
 * The "WHAT YOU SEE" line: one or two sentences saying, in C/A/P terms, what the run is doing
 * now. Derived from state (strategy, active faults, metrics), never scripted by time, so it
 * stays right whatever the user does. Wording agrees with TRUTHS.md: all-reduce blocks under a
 * partition (keeps C, gives up A; PC/EC), it is never "CA"; the async PS keeps A and loses C (PA/EL).
 */

export interface ExplainState {
  strategy: string;
  started: boolean;
  done: boolean;
  workers: number;
  /** The parameter server, if the strategy has one. */
  server: string | null;
  /** A ring link or a worker–server link is cut or partitioned. */
  networkFault: boolean;
  /** Workers that cannot reach the server (server strategies). */
  isolated: string[];
  crashedWorkers: string[];
  serverDown: boolean;
  slow: Array<{ node: string; factor: number }>;
  /** A heal/restore/restart ended a fault within the last few seconds of simulated time. */
  recentlyHealed: boolean;
  availability: number | null;
  staleness: number | null;
  versionConflicts: number | null;
  divergence: number | null;
}

export interface ExplainInput {
  strategy: string;
  now: number;
  done: boolean;
  nodes: readonly NodeView[];
  links: readonly LinkView[];
  /** Time of the last heal/restore/restart at or before now (see RepairTracker). */
  lastRepairAt: number | null;
  metrics: Partial<Record<string, number | null>>;
}

/** How long after a repair the "after heal" sentence stays up (simulated ms). */
export const healWindowMs = 3000;

function isRepair(e: HistoryEvent): boolean {
  return e.type === 'restart' || (e.type === 'action' && (e.action.do === 'heal' || e.action.do === 'restore' || e.action.do === 'restart'));
}

/**
 * Finds the last repair incrementally: the history is append-only, so each frame only looks at
 * the events added since the previous one (a full scan per frame would grow with the run).
 */
export class RepairTracker {
  private seen = 0;
  private last: number | null = null;
  private source: readonly HistoryEvent[] | null = null;

  lastRepairAt(events: readonly HistoryEvent[]): number | null {
    if (events !== this.source || events.length < this.seen) {
      this.source = events;
      this.seen = 0;
      this.last = null;
    }
    for (; this.seen < events.length; this.seen++) if (isRepair(events[this.seen])) this.last = events[this.seen].t;
    return this.last;
  }
}

/** Reads the explanation's facts out of the engine's views (plain data, so it is testable). */
export function deriveExplainState(input: ExplainInput): ExplainState {
  const workers = input.nodes.filter((n) => n.role === 'worker');
  const server = input.nodes.find((n) => n.role === 'server') ?? null;
  const broken = (l: LinkView) => l.cut || l.partitioned;
  const networkFault = input.links.some(broken);
  const isolated = server
    ? workers
        .filter((w) => input.links.some((l) => broken(l) && ((l.from === w.id && l.to === server.id) || (l.from === server.id && l.to === w.id))))
        .map((w) => w.id)
    : [];
  const faultNow = networkFault || workers.some((w) => !w.up) || (server !== null && !server.up);
  return {
    strategy: input.strategy,
    started: input.now > 0,
    done: input.done,
    workers: workers.length,
    server: server ? server.id : null,
    networkFault,
    isolated,
    crashedWorkers: workers.filter((w) => !w.up).map((w) => w.id),
    serverDown: server !== null && !server.up,
    slow: input.nodes.filter((n) => n.up && n.slowFactor > 1).map((n) => ({ node: n.id, factor: n.slowFactor })),
    recentlyHealed: !faultNow && input.lastRepairAt !== null && input.now - input.lastRepairAt <= healWindowMs,
    availability: input.metrics.availability ?? null,
    staleness: input.metrics.staleness ?? null,
    versionConflicts: input.metrics.versionConflicts ?? null,
    divergence: input.metrics.divergence ?? null,
  };
}

function list(ids: string[], lang: Lang): string {
  return ids.join(lang === 'zh' ? '、' : ', ');
}

function num(v: number | null): string {
  if (v === null) return '—';
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(2);
}

function factor(f: number): string {
  return Number.isInteger(f) ? String(f) : f.toFixed(1);
}

type Sentence = { en: string; zh: string };

function allreduce(st: ExplainState): Sentence {
  const a = num(st.availability);
  if (!st.started)
    return {
      en: "Ring all-reduce: each step, every worker's gradient travels around the ring (reduce-scatter, then all-gather), so all replicas hold the same version after every step. Press ▶ to start.",
      zh: '环形全归约：每一步，各工作节点的梯度沿环传递（先归约-散射，再全收集），所以每一步之后所有副本都持有同一版本。按 ▶ 开始。',
    };
  if (st.networkFault) {
    const aEn = st.availability === 0 ? 'availability 0' : `availability ${a}, falling to 0`;
    const aZh = st.availability === 0 ? '可用性为 0' : `可用性 ${a}，正降向 0`;
    return {
      en: `The ring is cut: every worker waits at the barrier. All-reduce keeps C (no version conflicts) and gives up A (${aEn}) — it is not "CA".`,
      zh: `环被切断：所有工作节点都停在栅栏处等待。全归约保住了 C（没有版本冲突），放弃了 A（${aZh}）——它并不是“CA”。`,
    };
  }
  if (st.crashedWorkers.length > 0) {
    const n = list(st.crashedWorkers, 'en');
    return {
      en: `${n} crashed: the ring has a gap, so every live worker waits for its chunk. C kept (no version conflicts), A lost (availability ${a}) until ${n} restarts.`,
      zh: `${list(st.crashedWorkers, 'zh')} 已崩溃：环上出现缺口，所有存活的工作节点都在等它的数据块。保住了 C（没有版本冲突），在它重启之前放弃了 A（可用性 ${a}）。`,
    };
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return {
      en: `${w.node} is slow (×${factor(w.factor)}): the barrier waits for the slowest worker, so everyone steps at its pace. Even without a partition, consistency costs latency — the "EC" in PC/EC.`,
      zh: `${w.node} 变慢了（×${factor(w.factor)}）：栅栏要等最慢的节点，所以所有节点都按它的节奏前进。即使没有分区，一致性也要用延迟来换——这就是 PC/EC 中的“EC”。`,
    };
  }
  if (st.recentlyHealed)
    return {
      en: 'Healed: the ring simply resumes from the version every worker already shares — there is nothing to reconcile.',
      zh: '已恢复：环直接从所有节点共同持有的版本继续，没有任何需要“对账”的东西。',
    };
  return {
    en: `Healthy ring: after every step all ${st.workers} workers hold the same version (no version conflicts): C. Even without a partition it pays for that by waiting at the barrier for the slowest worker (PACELC: PC/EC).`,
    zh: `环路正常：每一步之后 ${st.workers} 个工作节点都持有同一版本（没有版本冲突），这就是 C。即使没有分区，它也要为此付出代价：每一步都在栅栏处等待最慢的节点（PACELC 中为 PC/EC）。`,
  };
}

function psAsync(st: ExplainState): Sentence {
  const a = num(st.availability);
  const stale = num(st.staleness);
  const server = st.server ?? 's0';
  const waiting = st.availability !== null && st.availability < 0.5;
  if (!st.started)
    return {
      en: `Asynchronous parameter server: each worker pushes its gradient to ${server} and pulls the newest parameters, never waiting for the others. Press ▶ to start.`,
      zh: `异步参数服务器：每个工作节点把梯度推送给 ${server}，再拉取最新参数，从不等待其他节点。按 ▶ 开始。`,
    };
  if (st.serverDown) {
    if (waiting)
      return {
        en: `${server} crashed: the workers wait for it to come back (availability ${a}). Nobody computes on stale parameters now, but nobody trains either.`,
        zh: `${server} 已崩溃：工作节点在等它恢复（可用性 ${a}）。此刻没有人基于陈旧参数计算，但也没有人在训练。`,
      };
    return {
      en: `${server} crashed: the workers keep taking local steps (availability ${a}), but no update reaches a shared copy: staleness and divergence grow — A kept, C lost.`,
      zh: `${server} 已崩溃：工作节点继续做本地训练步（可用性 ${a}），但没有任何更新能汇入共享副本：陈旧度和副本分歧不断增大——保住了 A，放弃了 C。`,
    };
  }
  if (st.isolated.length > 0)
    return {
      en: `Both sides keep training (availability ${a}) but ${list(st.isolated, 'en')} no longer see the server's updates: staleness and divergence grow — A kept, C lost.`,
      zh: `两边都在继续训练（可用性 ${a}），但 ${list(st.isolated, 'zh')} 已看不到服务器的更新：陈旧度和副本分歧不断增大——保住了 A，放弃了 C。`,
    };
  if (st.crashedWorkers.length > 0)
    return {
      en: `${list(st.crashedWorkers, 'en')} crashed: the other workers keep training without waiting (availability counts live workers only). After a restart it pulls the newest parameters from ${server}.`,
      zh: `${list(st.crashedWorkers, 'zh')} 已崩溃：其他工作节点不等它，继续训练（可用性只统计存活节点）。重启后它会从 ${server} 拉取最新参数。`,
    };
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return {
      en: `${w.node} is slow (×${factor(w.factor)}): nobody waits for it, but its gradients are computed on old parameters and arrive stale (staleness ${stale}). Asynchrony trades C for speed: PA/EL.`,
      zh: `${w.node} 变慢了（×${factor(w.factor)}）：没有人等它，但它的梯度基于旧参数算出，到达时已经陈旧（陈旧度 ${stale}）。异步用 C 换取速度：PA/EL。`,
    };
  }
  if (st.recentlyHealed)
    return {
      en: 'Healed: the cut-off workers push gradients computed on old parameters and pull the newest ones; divergence collapses, but those updates were applied stale.',
      zh: '已恢复：被隔开的工作节点把基于旧参数算出的梯度推上去，再拉取最新参数；分歧很快消失，但这些更新是以陈旧状态被应用的。',
    };
  if (st.networkFault)
    return {
      en: `The fault separates workers only; each still reaches ${server}, so training goes on as before (availability ${a}).`,
      zh: `这次故障只隔开了工作节点之间的链路；每个节点仍能连到 ${server}，训练照常进行（可用性 ${a}）。`,
    };
  return {
    en: `Healthy: nobody waits (availability ${a}), but each worker computes on parameters a few updates old (staleness ${stale}), so replicas always differ a little — eventual consistency, PA/EL.`,
    zh: `运行正常：没有人等待（可用性 ${a}），但每个工作节点都基于落后几次更新的参数计算（陈旧度 ${stale}），副本之间始终略有差异——最终一致性，PA/EL。`,
  };
}

/** Strategies without a tailored text get an honest reading of the metrics. */
function generic(st: ExplainState): Sentence {
  const facts = `availability ${num(st.availability)}, staleness ${num(st.staleness)}, versionConflicts ${num(st.versionConflicts)}`;
  const factsZh = `可用性 ${num(st.availability)}，陈旧度 ${num(st.staleness)}，versionConflicts ${num(st.versionConflicts)}`;
  const fault = st.networkFault || st.crashedWorkers.length > 0 || st.serverDown;
  if (!fault) return { en: `${st.strategy}: ${facts}.`, zh: `${st.strategy}：${factsZh}。` };
  if (st.availability === 0)
    return {
      en: `${st.strategy} under a fault: it blocks rather than diverge (${facts}) — C over A.`,
      zh: `${st.strategy} 遇到故障：它宁可阻塞也不产生分歧（${factsZh}）——选择 C 而放弃 A。`,
    };
  return {
    en: `${st.strategy} under a fault: it keeps training (${facts}); watch staleness and divergence to see what C costs.`,
    zh: `${st.strategy} 遇到故障：它继续训练（${factsZh}）；留意陈旧度和副本分歧，看看放弃了多少 C。`,
  };
}

export function explain(st: ExplainState, lang: Lang): string {
  const sentence = st.strategy === 'allreduce' ? allreduce(st) : st.strategy === 'ps-async' ? psAsync(st) : generic(st);
  const text = sentence[lang];
  if (!st.done) return text;
  return lang === 'zh' ? `运行结束。${text}` : `Run finished. ${text}`;
}
