import type { Lang } from './i18n/lang';
import type { NodeView, LinkView } from '../engine/api';
import type { HistoryEvent } from '../sim/types';
import { strategyInfo } from '../protocols';

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
  /** Server/broker state from the strategy's `detail()` (Raft servers, Kafka brokers). */
  servers: ServerFact[];
  /** Workers' strategy roles (degrade: strong/eventual) and status lines. */
  workerFacts: Array<{ id: string; up: boolean; role: string | null; status: string }>;
  /** The partition now in force, every node placed in a group; null when none. */
  partition: string[][] | null;
  /** Notes seen within `recentMs` before now, by name (the newest of each). */
  recent: Record<string, RecentNote>;
  /** When each node last crashed (simulated ms). */
  crashedAt: Record<string, number>;
  /** Every metric the run reports now, strategy-defined ones included. */
  metrics: Partial<Record<string, number | null>>;
  /** The strategy's knobs (acks, staleness s, merge rule …). */
  config: Record<string, unknown>;
  firstViolation: { invariant: string; detail: string } | null;
  stepMs: number;
}

export interface ServerFact {
  id: string;
  kind: 'server' | 'broker';
  up: boolean;
  role: string | null;
  term: number | null;
  commitIndex: number | null;
  lines: string[];
}

export interface RecentNote {
  t: number;
  node?: string;
  data?: object;
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
  /** The strategy's knobs. */
  config?: Record<string, unknown>;
  /** Complete partition groups at now (historyIndex.partitionAt + completeGroups); null: none. */
  partition?: string[][] | null;
  /** From a HistoryTracker: the newest note of each name, crash times, the first violation. */
  history?: HistorySummary;
  stepMs?: number;
}

/** How long a note counts as "just happened" for the sentence (simulated ms). */
export const recentMs = 2500;

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

export interface HistorySummary {
  notes: Record<string, RecentNote>;
  crashedAt: Record<string, number>;
  firstViolation: { invariant: string; detail: string } | null;
}

/**
 * The history facts the sentence needs — newest note of each name, last crash of each node, the
 * first violation — kept incrementally like RepairTracker (O(new events) per frame).
 */
export class HistoryTracker {
  private seen = 0;
  private source: readonly HistoryEvent[] | null = null;
  private sum: HistorySummary = { notes: {}, crashedAt: {}, firstViolation: null };

  summary(events: readonly HistoryEvent[]): HistorySummary {
    if (events !== this.source || events.length < this.seen) {
      this.source = events;
      this.seen = 0;
      this.sum = { notes: {}, crashedAt: {}, firstViolation: null };
    }
    for (; this.seen < events.length; this.seen++) {
      const e = events[this.seen];
      if (e.type === 'note') this.sum.notes[e.what] = { t: e.t, ...(e.node ? { node: e.node } : {}), ...(e.data ? { data: e.data } : {}) };
      else if (e.type === 'crash') this.sum.crashedAt[e.node] = e.t;
      else if (e.type === 'violation' && !this.sum.firstViolation) this.sum.firstViolation = { invariant: e.invariant, detail: e.detail };
    }
    return this.sum;
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
    servers: input.nodes
      .filter((n) => n.role !== 'worker')
      .map((n) => ({
        id: n.id,
        kind: n.role === 'broker' ? ('broker' as const) : ('server' as const),
        up: n.up,
        role: n.detail?.role ?? null,
        term: n.detail?.term ?? null,
        commitIndex: n.detail?.commitIndex ?? null,
        lines: n.detail?.lines ?? [],
      })),
    workerFacts: workers.map((w) => ({ id: w.id, up: w.up, role: w.detail?.role ?? null, status: w.status })),
    partition: input.partition ?? null,
    recent: Object.fromEntries(Object.entries(input.history?.notes ?? {}).filter(([, n]) => n.t <= input.now && input.now - n.t <= recentMs)),
    crashedAt: input.history?.crashedAt ?? {},
    metrics: input.metrics,
    config: input.config ?? {},
    firstViolation: input.history?.firstViolation ?? null,
    stepMs: input.stepMs ?? 200,
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


// ---------------------------------------------------------------------------------------------
// Helpers shared by the strategy sentences.

function majority(n: number): number {
  return Math.floor(n / 2) + 1;
}

function metric(st: ExplainState, name: string): number | null {
  const v = st.metrics[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function setText(ids: string[]): string {
  return `{${ids.join(', ')}}`;
}

/** The partition group holding `id` (groups are complete: every node is in one). */
function groupOf(st: ExplainState, id: string): string[] | null {
  return st.partition?.find((g) => g.includes(id)) ?? null;
}

function recentlyNoted(st: ExplainState, what: string): RecentNote | null {
  return st.recent[what] ?? null;
}

/** "ISR {b0,b1}" out of a Kafka broker's detail lines. */
export function isrFromLines(lines: readonly string[]): string[] | null {
  for (const l of lines) {
    const m = /ISR \{([^}]*)\}/.exec(l);
    if (m) return m[1] ? m[1].split(',').map((x) => x.trim()) : [];
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Raft-replicated parameter server: majority quorum, leader, terms (TRUTHS: Raft is majority-based;
// a minority side never commits; unavailability after a leader crash ≈ election timeout + a round).

function raft(st: ExplainState): Sentence {
  const servers = st.servers.filter((x) => x.kind === 'server');
  const n = servers.length;
  const need = majority(n);
  const live = servers.filter((x) => x.up);
  const leaders = live.filter((x) => x.role === 'leader');
  const newest = leaders.slice().sort((a, b) => (b.term ?? 0) - (a.term ?? 0))[0] ?? null;
  const candidates = live.filter((x) => x.role === 'candidate');
  const crashed = servers.filter((x) => !x.up).map((x) => x.id);
  const eto = Array.isArray(st.config.electionTimeoutMs) ? (st.config.electionTimeoutMs as number[]) : [150, 300];
  const etoText = `${eto[0]}–${eto[1]} ms`;
  const lead = (x: ServerFact) => `${x.id} (term ${x.term ?? '?'})`;
  const leadZh = (x: ServerFact) => `${x.id}（任期 ${x.term ?? '?'}）`;
  if (!st.started)
    return {
      en: `Raft-replicated parameter server: ${n} servers elect a leader; every update is an entry in the leader's log and commits once a majority (${need} of ${n}) stores it. 2f + 1 = ${n} servers tolerate f = ${n - need} crash${n - need === 1 ? '' : 'es'}. Press ▶ to start.`,
      zh: `Raft 复制的参数服务器：${n} 台服务器选出一个领导者；每次更新都是领导者日志中的一个条目，多数派（${n} 台中的 ${need} 台）存下后才提交。2f + 1 = ${n} 台服务器可以容忍 f = ${n - need} 台崩溃。按 ▶ 开始。`,
    };

  // A partition that splits the servers: only a side with a majority can commit.
  if (st.partition) {
    const sides = st.partition.map((g) => ({ g, servers: live.filter((x) => g.includes(x.id)) })).filter((x) => x.g.some((id) => servers.some((sv) => sv.id === id)));
    if (sides.length > 1 || st.partition.some((g) => !g.some((id) => servers.some((sv) => sv.id === id)))) {
      const major = sides.find((x) => x.servers.length >= need) ?? null;
      const minorityWorkers = st.workerFacts.filter((w) => !major || !major.g.includes(w.id)).map((w) => w.id);
      const minorityServers = servers.filter((x) => !major || !major.g.includes(x.id)).map((x) => x.id);
      const staleLeader = leaders.find((x) => major && !major.g.includes(x.id)) ?? null;
      if (!major)
        return {
          en: `Partition: no side holds a majority of the ${n} servers (${need} needed), so nothing commits anywhere and every worker's update waits. Raft keeps C and gives up A until the partition heals.`,
          zh: `网络分区：没有任何一侧拥有 ${n} 台服务器中的多数派（需要 ${need} 台），所以哪里都无法提交，每个工作节点的更新都在等待。Raft 保住了 C，在分区恢复之前放弃了 A。`,
        };
      const majorLeader = major.servers.find((x) => x.role === 'leader') ?? null;
      const mIds = setText(major.servers.map((x) => x.id));
      const minW = minorityWorkers.length ? list(minorityWorkers, 'en') : null;
      const stale = staleLeader
        ? { en: ` ${staleLeader.id} still believes it leads (term ${staleLeader.term ?? '?'}) but can never commit: no majority answers it.`, zh: `${staleLeader.id} 仍以为自己是领导者（任期 ${staleLeader.term ?? '?'}），但它永远提交不了：没有多数派回应它。` }
        : { en: '', zh: '' };
      const majorEn = majorLeader ? `keeps committing under leader ${lead(majorLeader)}` : 'is electing a new leader; it will commit again once one wins';
      const majorZh = majorLeader ? `在领导者 ${leadZh(majorLeader)} 之下继续提交` : '正在选举新的领导者，选出后即可继续提交';
      return {
        en: `Partition: ${mIds} ${major.servers.length === 1 ? 'is' : 'are'} a majority (${major.servers.length} of ${n}) and ${majorEn}. ${list(minorityServers, 'en')} on the minority side never ${minorityServers.length === 1 ? 'commits' : 'commit'}${minW ? `, so ${minW} there ${minorityWorkers.length === 1 ? 'waits' : 'wait'}` : ''} — C kept everywhere, A lost on the minority side.${stale.en}`,
        zh: `网络分区：${mIds} 是多数派（${n} 台中的 ${major.servers.length} 台），${majorZh}。少数派一侧的 ${list(minorityServers, 'zh')} 永远无法提交${minorityWorkers.length ? `，那一侧的 ${list(minorityWorkers, 'zh')} 只能等待` : ''}——各处都保住了 C，少数派一侧放弃了 A。${stale.zh}`,
      };
    }
  }

  if (live.length < need)
    return {
      en: `Only ${live.length} of ${n} servers are up — fewer than a majority (${need}): no leader can be elected and nothing commits. Raft gives up A rather than C.`,
      zh: `${n} 台服务器中只有 ${live.length} 台在运行，不足多数派（${need} 台）：选不出领导者，什么都无法提交。Raft 宁可放弃 A，也不放弃 C。`,
    };

  if (!newest) {
    if (candidates.length > 0) {
      const c = candidates[0];
      return {
        en: `Election in progress: ${c.id} is a candidate for term ${c.term ?? '?'} and asks the others for votes (it needs ${need} of ${n}). Until a leader wins, no update commits and the workers wait — C kept, A paused.`,
        zh: `选举进行中：${c.id} 以任期 ${c.term ?? '?'} 成为候选者，正在向其他服务器拉票（需要 ${n} 台中的 ${need} 票）。在领导者产生之前没有更新能提交，工作节点只能等待——保住 C，A 暂时中断。`,
      };
    }
    const gone = crashed.length ? crashed : null;
    return {
      en: `No leader${gone ? `: ${list(gone, 'en')} crashed` : ''}. The followers wait for their randomised election timeout (${etoText} without a heartbeat); the first to expire becomes a candidate. Meanwhile nothing commits — C kept, A paused.`,
      zh: `没有领导者${gone ? `：${list(gone, 'zh')} 已崩溃` : ''}。跟随者等待各自的随机选举超时（${etoText} 没收到心跳）；最先超时的成为候选者。在此期间什么都无法提交——保住 C，A 暂时中断。`,
    };
  }

  const elected = recentlyNoted(st, 'leaderElected');
  if (elected && elected.node === newest.id && (newest.term ?? 1) > 1) {
    const gap = metric(st, 'maxCommitGapMs');
    const gapEn = gap !== null ? ` (longest gap between commits: ${Math.round(gap)} ms)` : '';
    const gapZh = gap !== null ? `（两次提交之间最长间隔 ${Math.round(gap)} ms）` : '';
    return {
      en: `${newest.id} won the election for term ${newest.term} with a majority of votes and appended a no-op of its term; commits resume. The pause was about one election timeout plus one round${gapEn} — not seconds.`,
      zh: `${newest.id} 以多数票赢得任期 ${newest.term} 的选举，并追加了一条本任期的空操作（no-op）条目；提交随即恢复。中断时间大约是一个选举超时加一轮通信${gapZh}，而不是几秒。`,
    };
  }
  if (crashed.length > 0)
    return {
      en: `${list(crashed, 'en')} crashed, but ${live.length} of ${n} servers are still a majority: leader ${lead(newest)} keeps committing. 2f + 1 = ${n} servers tolerate f = ${n - need}; a restarted server keeps its term, vote and log and catches up as a follower.`,
      zh: `${list(crashed, 'zh')} 已崩溃，但 ${n} 台中的 ${live.length} 台仍是多数派：领导者 ${leadZh(newest)} 继续提交。2f + 1 = ${n} 台服务器可以容忍 f = ${n - need} 台故障；重启的服务器保留任期、投票和日志，以跟随者身份追上进度。`,
    };
  if (st.recentlyHealed) {
    const over = metric(st, 'overwrittenEntries');
    return {
      en: `Healed: servers that were cut off see the higher term ${newest.term ?? ''}, step down to follower, and any entries they never committed are overwritten by the leader's log${over ? ` (overwritten entries ${over})` : ''}. Committed entries are never lost.`,
      zh: `已恢复：被隔开的服务器看到更高的任期 ${newest.term ?? ''}，退回跟随者，它们从未提交的条目被领导者的日志覆盖${over ? `（被覆盖的条目 ${over}）` : ''}。已提交的条目永远不会丢失。`,
    };
  }
  const split = leaders.length > 1;
  return {
    en: `Leader ${lead(newest)} appends every update to its log and replicates it; an entry commits once a majority (${need} of ${n}) stores it, so all workers see one linearizable history: C.${split ? ` (${leaders.length} servers believe they lead, in different terms; only the newest can commit.)` : ''} Even with no fault each update pays a replication round trip — PC/EC.`,
    zh: `领导者 ${leadZh(newest)} 把每次更新追加到自己的日志并复制出去；多数派（${n} 台中的 ${need} 台）存下后条目才提交，因此所有工作节点看到的是同一个线性一致的历史：C。${split ? `（有 ${leaders.length} 台服务器以为自己是领导者，任期不同；只有任期最新的能提交。）` : ''}即使没有故障，每次更新也要付出一轮复制的往返——PC/EC。`,
  };
}

// ---------------------------------------------------------------------------------------------
// Kafka-fed parameter server (TRUTHS: the log is totally ordered; acks=all + min.insync.replicas ≥ 2
// refuses writes rather than lose them; acks=1 with a leader crash loses the unreplicated tail;
// unclean election loses committed data; the eventual consistency comes from stale reads).

function kafka(st: ExplainState): Sentence {
  const brokers = st.servers.filter((x) => x.kind === 'broker');
  const acks = String(st.config.acks ?? 'all');
  const minIsr = typeof st.config['min.insync.replicas'] === 'number' ? (st.config['min.insync.replicas'] as number) : 1;
  const unclean = st.config['unclean.leader.election.enable'] === true;
  const leader = brokers.find((b) => b.up && b.role === 'leader') ?? null;
  const downLeader = brokers.find((b) => !b.up && b.role === 'leader') ?? null;
  const isr = leader ? (isrFromLines(leader.lines) ?? []) : [];
  const lag = metric(st, 'consumerLag');
  const lost = st.metrics.lostUpdates ?? 0;
  const rejected = metric(st, 'rejectedWrites') ?? 0;
  const stale = num(st.staleness);
  const acksEn = acks === 'all' ? `acks=all: acknowledged once every in-sync replica has it` : acks === '1' ? `acks=1: acknowledged as soon as the leader has it` : `acks=0: never acknowledged`;
  const acksZh = acks === 'all' ? `acks=all：所有同步副本都写入后才确认` : acks === '1' ? `acks=1：领导者写入即确认` : `acks=0：从不确认`;
  if (!st.started)
    return {
      en: `Kafka-fed parameter server: workers append their gradients to a replicated partition log on ${brokers.length} broker${brokers.length === 1 ? '' : 's'} (${acksEn}); PS replicas consume the log in order, each at its own offset, and workers read parameters from one of them. Press ▶ to start.`,
      zh: `Kafka 驱动的参数服务器：工作节点把梯度追加到 ${brokers.length} 个 broker 上复制的分区日志（${acksZh}）；参数服务器副本按顺序消费日志，各自维护偏移量，工作节点从其中一个副本读取参数。按 ▶ 开始。`,
    };

  const uncleanNote = recentlyNoted(st, 'uncleanElection');
  if (uncleanNote)
    return {
      en: `Unclean leader election: ${uncleanNote.node ?? 'a broker'}, which was not in the ISR, became leader and the records it never copied — committed ones included — are gone (lost updates ${num(lost)}). unclean.leader.election.enable buys availability with durability.`,
      zh: `unclean 领导者选举：不在 ISR 中的 ${uncleanNote.node ?? '某个 broker'} 当选领导者，它没复制到的记录——包括已提交的——都丢了（丢失的更新 ${num(lost)}）。unclean.leader.election.enable 是用持久性换可用性。`,
    };

  if (!leader) {
    const who = downLeader?.id ?? brokers.find((b) => !b.up)?.id ?? null;
    // Offline when no in-sync replica survives to take over (the down leader's ISR is the last known one).
    const lastIsr = downLeader ? isrFromLines(downLeader.lines) : null;
    const heir = lastIsr ? brokers.some((b) => b.up && lastIsr.includes(b.id)) : brokers.some((b) => b.up);
    const offline = recentlyNoted(st, 'partitionOffline') !== null || !heir;
    if (offline && !unclean)
      return {
        en: `The partition is offline: ${who ? `leader ${who} is down and ` : ''}no in-sync replica is alive to take over. With unclean.leader.election.enable=false Kafka waits rather than elect a replica that lacks committed records; producers retry and nothing is written — C over A.`,
        zh: `分区已下线：${who ? `领导者 ${who} 已宕机，且` : ''}没有存活的同步副本可以接替。unclean.leader.election.enable=false 时，Kafka 宁可等待，也不让缺少已提交记录的副本当选；生产者不断重试，什么都写不进去——选择 C 而放弃 A。`,
      };
    return {
      en: `Leader ${who ?? '?'} is down: the controller fences it once broker.session.timeout.ms passes without a heartbeat, then elects an in-sync replica. Until then producers wait and retry.`,
      zh: `领导者 ${who ?? '?'} 已宕机：控制器在 broker.session.timeout.ms 内收不到它的心跳后将其隔离，再从同步副本中选出新领导者。在此之前生产者只能等待并重试。`,
    };
  }

  const refusing = recentlyNoted(st, 'notEnoughReplicas');
  if (refusing && acks === 'all')
    return {
      en: `The ISR shrank to ${setText(isr)}, fewer than min.insync.replicas=${minIsr}: leader ${leader.id} refuses writes (NotEnoughReplicas, rejected writes ${num(rejected)}) rather than acknowledge records that one crash could lose. Here Kafka chooses C over A — a totally ordered log is not what would make this path "AP".`,
      zh: `ISR 缩小为 ${setText(isr)}，少于 min.insync.replicas=${minIsr}：领导者 ${leader.id} 拒绝写入（NotEnoughReplicas，被拒绝的写入 ${num(rejected)}），而不是确认一条一次崩溃就可能丢失的记录。此时 Kafka 选择 C 而放弃 A——全序日志并不是让这条路径成为“AP”的原因。`,
    };

  const downBrokers = brokers.filter((b) => !b.up);
  if (downBrokers.length > 0) {
    const elected = recentlyNoted(st, 'leaderElected') ?? st.recent.leaderElected;
    const old = downBrokers.find((b) => elected && elected.t >= (st.crashedAt[b.id] ?? Infinity)) ?? null;
    if (old) {
      if (acks === 'all')
        return {
          en: `Leader ${old.id} crashed; ${leader.id}, an in-sync replica, took over. With acks=all every acknowledged record was already on it, so nothing acknowledged is lost (lost updates ${num(lost)}); writes paused only for the election.`,
          zh: `领导者 ${old.id} 崩溃；同步副本 ${leader.id} 接任。acks=all 时每条已确认的记录都已在它那里，所以已确认的更新一条都没丢（丢失的更新 ${num(lost)}）；写入只在选举期间暂停。`,
        };
      return {
        en: `Leader ${old.id} crashed with acks=${acks}: records it had acknowledged before the followers copied them are gone — ${leader.id} leads without them (lost updates ${num(lost)}). acks=${acks} trades durability for latency; the log stays totally ordered, it is just shorter.`,
        zh: `领导者 ${old.id} 在 acks=${acks} 下崩溃：它已确认、但跟随者还没复制的记录都丢了——${leader.id} 在没有这些记录的情况下继续担任领导者（丢失的更新 ${num(lost)}）。acks=${acks} 是用持久性换延迟；日志依旧全序，只是变短了。`,
      };
    }
    const ids = list(downBrokers.map((b) => b.id), 'en');
    return {
      en: `${ids} crashed and ${downBrokers.length === 1 ? 'drops' : 'drop'} out of the ISR, now ${setText(isr)}. Leader ${leader.id} keeps accepting writes while the ISR has at least min.insync.replicas=${minIsr}.`,
      zh: `${list(downBrokers.map((b) => b.id), 'zh')} 崩溃，退出 ISR，ISR 现在是 ${setText(isr)}。只要 ISR 不少于 min.insync.replicas=${minIsr}，领导者 ${leader.id} 就继续接受写入。`,
    };
  }

  if (st.partition) {
    const side = groupOf(st, leader.id) ?? [];
    const cutServers = st.servers.filter((x) => x.kind === 'server' && !side.includes(x.id)).map((x) => x.id);
    const cutWorkers = st.workerFacts.filter((w) => !side.includes(w.id)).map((w) => w.id);
    const parts: Sentence[] = [];
    if (cutWorkers.length)
      parts.push({
        en: `${list(cutWorkers, 'en')} cannot reach leader ${leader.id}: ${cutWorkers.length === 1 ? 'its' : 'their'} appends fail and are retried`,
        zh: `${list(cutWorkers, 'zh')} 连不上领导者 ${leader.id}：追加失败，只能重试`,
      });
    if (cutServers.length)
      parts.push({
        en: `${list(cutServers, 'en')} cannot fetch: ${cutServers.length === 1 ? 'its' : 'their'} offset stops while the log grows (consumer lag ${num(lag)}), so workers reading from ${cutServers.length === 1 ? 'it' : 'them'} train on stale parameters`,
        zh: `${list(cutServers, 'zh')} 拉取不到日志：偏移量停住而日志在增长（消费滞后 ${num(lag)}），从它读参数的工作节点在陈旧参数上训练`,
      });
    if (parts.length)
      return {
        en: `Partition: ${parts.map((x) => x.en).join('; ')}. The log itself stays one total order on the leader's side.`,
        zh: `网络分区：${parts.map((x) => x.zh).join('；')}。日志本身在领导者一侧仍保持单一的全序。`,
      };
  }

  if (st.recentlyHealed)
    return {
      en: `Healed: lagging replicas fetch what they missed, in log order, and catch up (consumer lag ${num(lag)}); nothing is merged — there is one log.`,
      zh: `已恢复：落后的副本按日志顺序拉取错过的记录并追上进度（消费滞后 ${num(lag)}）；不需要任何合并——日志只有一份。`,
    };

  return {
    en: `Workers append gradients to ${leader.id}'s partition log (${acksEn}, ISR ${setText(isr)}); PS replicas apply it in log order at their own offsets (consumer lag ${num(lag)}). The log is totally ordered: the eventual consistency comes from workers reading parameters from a replica that is behind (staleness ${stale}) — PA/EL in this configuration.`,
    zh: `工作节点把梯度追加到 ${leader.id} 的分区日志（${acksZh}，ISR ${setText(isr)}）；参数服务器副本按日志顺序、各自按偏移量应用（消费滞后 ${num(lag)}）。日志是全序的：最终一致性来自工作节点从落后的副本读取参数（陈旧度 ${stale}）——这一配置下是 PA/EL。`,
  };
}

// ---------------------------------------------------------------------------------------------
// Stale synchronous parallel (TRUTHS: a worker blocks while its clock is more than s ahead of the
// slowest; BSP is s = 0, ASP is s = ∞).

function ssp(st: ExplainState): Sentence {
  const sRaw = st.config.staleness;
  const s = sRaw === 'inf' ? '∞' : String(sRaw ?? 3);
  const gap = num(metric(st, 'maxClockGap'));
  const wait = metric(st, 'waitFraction');
  const waitText = wait === null ? '—' : `${Math.round(wait * 100)}%`;
  const blockedNote = recentlyNoted(st, 'sspBlocked');
  // Blocked at the bound = live, reachable and waiting (a cut-off worker waits too, but for the network).
  const blocked = st.workerFacts.filter((w) => w.up && /blocked/.test(w.status) && !st.isolated.includes(w.id)).map((w) => w.id);
  const server = st.server ?? 's0';
  if (!st.started)
    return {
      en: `Stale synchronous parallel, s = ${s}: a worker may run at most ${s} clocks ahead of the slowest one, then it waits. s = 0 is BSP (a barrier every step), s = ∞ is ASP. Press ▶ to start.`,
      zh: `陈旧同步并行，s = ${s}：工作节点最多可以领先最慢的节点 ${s} 个时钟，再多就得等待。s = 0 就是 BSP（每一步一个栅栏），s = ∞ 就是 ASP。按 ▶ 开始。`,
    };
  if (st.serverDown)
    return {
      en: `${server} crashed: no update is applied and no worker can read; everyone waits until it restarts from its persisted state (availability ${num(st.availability)}).`,
      zh: `${server} 已崩溃：没有更新被应用，也没有工作节点能读取参数；大家都要等它从持久化状态重启（可用性 ${num(st.availability)}）。`,
    };
  if (st.isolated.length > 0) {
    const others = st.workerFacts.filter((w) => w.up && !st.isolated.includes(w.id)).map((w) => w.id);
    if (blocked.length > 0 || s === '0')
      return {
        en: `${list(st.isolated, 'en')} cannot reach ${server}, so ${st.isolated.length === 1 ? 'its clock stops' : 'their clocks stop'}; the others ran up to s = ${s} clocks ahead and now block at the bound (${list(blocked.length ? blocked : others, 'en')} waiting). SSP keeps staleness ≤ s and gives up availability once the bound is hit (PC).`,
        zh: `${list(st.isolated, 'zh')} 连不上 ${server}，时钟停住了；其他节点最多领先 s = ${s} 个时钟，现在卡在界限处阻塞（${list(blocked.length ? blocked : others, 'zh')} 在等待）。SSP 保证陈旧度 ≤ s，一旦触及界限就放弃可用性（PC）。`,
      };
    return {
      en: `${list(st.isolated, 'en')} cannot reach ${server}; the others keep training until they are s = ${s} clocks ahead of ${st.isolated.length === 1 ? 'it' : 'them'} — then they will block at the bound (largest clock gap so far ${gap}).`,
      zh: `${list(st.isolated, 'zh')} 连不上 ${server}；其他节点继续训练，直到领先它 s = ${s} 个时钟——那时就会卡在界限处阻塞（目前最大时钟差 ${gap}）。`,
    };
  }
  if (blocked.length > 0 || blockedNote) {
    const who = blocked.length ? blocked : blockedNote?.node ? [blockedNote.node] : [];
    const slow = st.slow[0];
    return {
      en: `${list(who, 'en')} ${who.length === 1 ? 'is' : 'are'} s = ${s} clocks ahead of the slowest worker${slow ? ` (${slow.node}, ×${factor(slow.factor)})` : ''} and ${who.length === 1 ? 'waits' : 'wait'} at the bound: staleness stays ≤ ${s}, paid for in waiting (wait fraction ${waitText}).`,
      zh: `${list(who, 'zh')} 已领先最慢的节点${slow ? `（${slow.node}，×${factor(slow.factor)}）` : ''} s = ${s} 个时钟，正卡在界限处等待：陈旧度保持 ≤ ${s}，代价是等待时间（等待占比 ${waitText}）。`,
    };
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return {
      en: `${w.node} is slow (×${factor(w.factor)}): the others run ahead of it, but never by more than s = ${s} clocks (largest gap so far ${gap}); between BSP's waiting and ASP's unbounded staleness.`,
      zh: `${w.node} 变慢了（×${factor(w.factor)}）：其他节点跑在它前面，但领先不会超过 s = ${s} 个时钟（目前最大时钟差 ${gap}）；介于 BSP 的等待和 ASP 的无界陈旧之间。`,
    };
  }
  return {
    en: `Bounded staleness, s = ${s}: workers never wait for each other unless one gets ${s} clocks ahead of the slowest (largest gap so far ${gap}, wait fraction ${waitText}). Consistency is traded for latency, but only up to the bound.`,
    zh: `有界陈旧，s = ${s}：除非某个节点领先最慢的节点 ${s} 个时钟，否则节点之间互不等待（目前最大时钟差 ${gap}，等待占比 ${waitText}）。用一致性换延迟，但只换到界限为止。`,
  };
}

// ---------------------------------------------------------------------------------------------
// Synchronous parameter server (BSP with optional backup workers).

function psSync(st: ExplainState): Sentence {
  const b = typeof st.config.backupWorkers === 'number' ? (st.config.backupWorkers as number) : 0;
  const server = st.server ?? 's0';
  const need = st.workers - b;
  const a = num(st.availability);
  if (!st.started)
    return {
      en: `Synchronous parameter server (BSP): each round ${server} waits for ${b > 0 ? `the first ${need} of ${st.workers} gradients (${b} backup worker${b === 1 ? '' : 's'})` : `all ${st.workers} gradients`} at a barrier, applies them, and sends everyone the same parameters. Press ▶ to start.`,
      zh: `同步参数服务器（BSP）：每一轮 ${server} 在栅栏处等待${b > 0 ? ` ${st.workers} 个梯度中的前 ${need} 个（${b} 个备份工作节点）` : `全部 ${st.workers} 个梯度`}，应用之后把同一份参数发给所有节点。按 ▶ 开始。`,
    };
  if (st.serverDown)
    return {
      en: `${server} crashed: no round can close, so every worker waits (availability ${a}); it restarts from its persisted state and nothing acknowledged is lost. C kept, A lost.`,
      zh: `${server} 已崩溃：没有一轮能结束，所有工作节点都在等待（可用性 ${a}）；它会从持久化状态重启，已确认的内容不会丢失。保住了 C，放弃了 A。`,
    };
  const missing = [...new Set([...st.isolated, ...st.crashedWorkers])];
  if (missing.length > 0) {
    if (missing.length <= b)
      return {
        en: `${list(missing, 'en')} ${missing.length === 1 ? 'is' : 'are'} missing, but with ${b} backup worker${b === 1 ? '' : 's'} a round closes with the first ${need} gradients: the others keep training on identical parameters.`,
        zh: `${list(missing, 'zh')} 缺席了，但有 ${b} 个备份工作节点，每轮拿到前 ${need} 个梯度就能结束：其他节点继续在相同的参数上训练。`,
      };
    return {
      en: `The barrier needs ${need} gradients but ${list(missing, 'en')} cannot deliver ${missing.length === 1 ? 'its' : 'theirs'}: the round never closes and every worker waits (availability ${a}). The synchronous PS keeps C and gives up A — PC.`,
      zh: `栅栏需要 ${need} 个梯度，但 ${list(missing, 'zh')} 送不过来：这一轮永远结束不了，所有工作节点都在等待（可用性 ${a}）。同步参数服务器保住了 C，放弃了 A——PC。`,
    };
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    if (b > 0)
      return {
        en: `${w.node} is slow (×${factor(w.factor)}), but the server closes each round with the first ${need} gradients and drops the straggler's late one: backup workers buy back most of the barrier's delay.`,
        zh: `${w.node} 变慢了（×${factor(w.factor)}），但服务器拿到前 ${need} 个梯度就结束这一轮，丢弃掉队节点迟到的梯度：备份工作节点挽回了栅栏的大部分延迟。`,
      };
    return {
      en: `${w.node} is slow (×${factor(w.factor)}): every round waits for it at the barrier. With ${st.workers} workers and a straggle probability p per step, a round is delayed with probability 1 − (1 − p)^${st.workers} — consistency costs latency (EC).`,
      zh: `${w.node} 变慢了（×${factor(w.factor)}）：每一轮都要在栅栏处等它。${st.workers} 个工作节点、每步掉队概率为 p 时，一轮被拖慢的概率是 1 − (1 − p)^${st.workers}——一致性的代价是延迟（EC）。`,
    };
  }
  return {
    en: `Healthy barrier: every round all workers get the same parameters from ${server} (no version conflicts): C. Even without a partition each round waits for the slowest gradient — PC/EC.`,
    zh: `栅栏运行正常：每一轮所有工作节点都从 ${server} 拿到相同的参数（没有版本冲突）：C。即使没有分区，每一轮也要等最慢的那个梯度——PC/EC。`,
  };
}

// ---------------------------------------------------------------------------------------------
// Degrade on partition, merge on heal (TRUTHS: the minority side can only train locally; on heal a
// merge rule with a visible cost; split brain is prevented only by fencing).

const mergeText: Record<string, Sentence> = {
  discard: { en: "discard: the minority side's local steps are thrown away (lost work {lost})", zh: '丢弃：少数派一侧的本地训练步被扔掉（丢失的工作 {lost}）' },
  average: { en: 'average: the sides\' models are averaged, so divergence drops to 0 with a small loss bump', zh: '平均：两侧的模型取平均，副本分歧降为 0，损失会小幅跳动' },
  replay: { en: "replay: the minority's gradients are replayed on the merged model{lr}", zh: '回放：少数派的梯度在合并后的模型上重放{lr}' },
};

function degrade(st: ExplainState): Sentence {
  const rule = String(st.config.merge ?? 'average');
  const fencing = st.config.fencing !== false;
  const degraded = metric(st, 'degradedWorkers') ?? 0;
  const fenced = metric(st, 'fencedWrites') ?? 0;
  const staleAccepted = metric(st, 'staleWritesAccepted') ?? 0;
  const lost = num(metric(st, 'lostWork'));
  const eventual = st.workerFacts.filter((w) => w.up && w.role === 'eventual');
  const merging = st.workerFacts.filter((w) => w.up && /merging/.test(w.status)).map((w) => w.id);
  const lrEn = st.config.replayLr === 'inverse' ? ' with learning rate scaled by 1/staleness' : ' at the full learning rate (watch the loss spike)';
  const lrZh = st.config.replayLr === 'inverse' ? '，学习率按 1/陈旧度 缩小' : '，使用完整学习率（留意损失的尖峰）';
  const ruleText = (lang: Lang) => (mergeText[rule] ?? mergeText.average)[lang].replace('{lost}', lost).replace('{lr}', lang === 'en' ? lrEn : lrZh);
  if (!st.started)
    return {
      en: `Degrade: strong (ring all-reduce, identical replicas) while healthy; when a worker detects a partition it switches to eventual mode and trains locally; on heal the sides merge by rule "${rule}". Press ▶ to start.`,
      zh: `降级策略：正常时为强一致（环形全归约，副本完全相同）；工作节点检测到分区后切换到最终一致模式，在本地训练；恢复后两侧按“${rule}”规则合并。按 ▶ 开始。`,
    };
  if (staleAccepted > 0 && !fencing)
    return {
      en: `Split brain: fencing is off, so a checkpoint write carrying an old epoch was accepted (stale writes accepted ${staleAccepted}) and overwrote newer state. An epoch only protects the store if the store checks it.`,
      zh: `脑裂：防护令牌（fencing token）检查被关闭，一次带着旧纪元号的检查点写入被接受（被接受的陈旧写入 ${staleAccepted}），覆盖了更新的状态。纪元号只有在存储端检查时才能起保护作用。`,
    };
  if (merging.length > 0 || (recentlyNoted(st, 'merge') && degraded === 0 && !st.partition))
    return {
      en: `Healed: the sides ${merging.length ? 'are merging' : 'merged'} — ${ruleText('en')}. Then the ring resumes in strong mode. Every merge rule has a visible cost.`,
      zh: `已恢复：两侧${merging.length ? '正在合并' : '已经合并'}——${ruleText('zh')}。之后环路以强一致模式继续。每种合并规则都有看得见的代价。`,
    };
  if (degraded > 0 || eventual.length > 0) {
    const sides = st.partition ?? [];
    const workerIds = st.workerFacts.map((w) => w.id);
    const bySide = sides.map((g) => g.filter((id) => workerIds.includes(id))).filter((g) => g.length > 0);
    const major = bySide.find((g) => g.length > st.workers / 2) ?? null;
    const fenceEn = fenced > 0 ? ` Writes carrying an old epoch were fenced (fenced writes ${fenced}).` : '';
    const fenceZh = fenced > 0 ? `带着旧纪元号的写入被防护令牌拦下（被拦截的写入 ${fenced}）。` : '';
    const epochEn = major
      ? ` Only the majority side ${setText(major)} may advance the epoch and write the checkpoint; the minority's writes carry the old epoch.`
      : ' Neither side is a majority, so neither may advance the epoch.';
    const epochZh = major ? `只有多数派一侧 ${setText(major)} 可以推进纪元号并写检查点；少数派的写入带着旧的纪元号。` : '哪一侧都不是多数派，所以谁都不能推进纪元号。';
    return {
      en: `Degraded: ${degraded} worker${degraded === 1 ? '' : 's'} switched to eventual mode and train locally (local SGD) — A kept, C lost (divergence ${num(st.divergence)}).${epochEn}${fenceEn}`,
      zh: `已降级：${degraded} 个工作节点切换到最终一致模式，在本地训练（本地 SGD）——保住了 A，放弃了 C（副本分歧 ${num(st.divergence)}）。${epochZh}${fenceZh}`,
    };
  }
  if (st.networkFault || st.partition)
    return {
      en: `The ring is cut: in strong mode every worker waits, until the failure detector (detectTimeoutMs ${num(typeof st.config.detectTimeoutMs === 'number' ? (st.config.detectTimeoutMs as number) : null)} ms without progress) decides this is a partition, not slowness — from inside, the two look the same.`,
      zh: `环被切断：强一致模式下所有工作节点都在等待，直到故障检测器（detectTimeoutMs ${num(typeof st.config.detectTimeoutMs === 'number' ? (st.config.detectTimeoutMs as number) : null)} ms 没有进展）判定这是分区而不是变慢——从内部看，两者一模一样。`,
    };
  if (st.recentlyHealed)
    return {
      en: 'Healed: the ring is whole again and every worker is back in strong mode on one merged model.',
      zh: '已恢复：环路重新完整，所有工作节点都在同一个合并后的模型上回到了强一致模式。',
    };
  return {
    en: `Strong mode: a ring all-reduce keeps all ${st.workers} replicas identical (C). On a detected partition it would rather keep training (A) and pay later, in a merge — PA/EC.`,
    zh: `强一致模式：环形全归约让 ${st.workers} 个副本完全相同（C）。一旦检测到分区，它宁可继续训练（A），把代价留到之后的合并——PA/EC。`,
  };
}

/** Strategies without a tailored text get an honest reading of the metrics. */
function generic(st: ExplainState): Sentence {
  const info = strategyInfo(st.strategy);
  const name = info ? info.name : { en: st.strategy, zh: st.strategy };
  const facts = `availability ${num(st.availability)}, staleness ${num(st.staleness)}, versionConflicts ${num(st.versionConflicts)}`;
  const factsZh = `可用性 ${num(st.availability)}，陈旧度 ${num(st.staleness)}，versionConflicts ${num(st.versionConflicts)}`;
  const fault = st.networkFault || st.crashedWorkers.length > 0 || st.serverDown;
  if (!fault) return { en: `${name.en}: ${facts}.`, zh: `${name.zh}：${factsZh}。` };
  if (st.availability === 0)
    return {
      en: `${name.en} under a fault: it blocks rather than diverge (${facts}) — C over A.`,
      zh: `${name.zh} 遇到故障：它宁可阻塞也不产生分歧（${factsZh}）——选择 C 而放弃 A。`,
    };
  return {
    en: `${name.en} under a fault: it keeps training (${facts}); watch staleness and divergence to see what C costs.`,
    zh: `${name.zh} 遇到故障：它继续训练（${factsZh}）；留意陈旧度和副本分歧，看看放弃了多少 C。`,
  };
}

const sentences: Record<string, (st: ExplainState) => Sentence> = {
  allreduce,
  'ps-async': psAsync,
  'raft-ps': raft,
  'kafka-ps': kafka,
  ssp,
  'ps-sync': psSync,
  degrade,
};

export function explain(st: ExplainState, lang: Lang): string {
  const sentence = (sentences[st.strategy] ?? generic)(st);
  let text = sentence[lang];
  // A broken invariant outranks any story about trade-offs: it is a bug, and the line says so first.
  const violations = st.metrics.violations ?? 0;
  if (violations > 0) {
    const what = st.firstViolation ? `${st.firstViolation.invariant}: ${st.firstViolation.detail}` : '';
    text =
      lang === 'zh'
        ? `⚠ 不变量被破坏（${violations} 次${what ? `，首次：${what}` : ''}）——这是缺陷，不是取舍。${text}`
        : `⚠ Invariant broken (${violations}${what ? `; first: ${what}` : ''}) — a bug, not a trade-off. ${text}`;
  }
  if (!st.done) return text;
  return lang === 'zh' ? `运行结束。${text}` : `Run finished. ${text}`;
}
