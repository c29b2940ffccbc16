import { factor, list, num } from '../words/text';
import { S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Stale synchronous parallel (TRUTHS: a worker blocks while its clock is more than s ahead of the
 * slowest; BSP is s = 0, ASP is s = ∞). What it keeps is bounded staleness — not C — and the class
 * follows s: PC/EC at 0, PC/EL for a finite s, PA/EL at ∞.
 */
export function ssp(st: ExplainState): Sentence {
  const raw = st.cfg.kind === 'ssp' ? st.cfg.staleness : 0;
  const s = raw === 'inf' ? '∞' : String(raw);
  const pacelc = st.cap?.pacelc ?? 'PC/EL';
  const gap = num(st.metrics.maxClockGap ?? null);
  const wait = st.metrics.waitFraction;
  const waitText = typeof wait === 'number' ? `${Math.round(wait * 100)}%` : '—';
  const server = st.servers[0]?.id ?? 's0';
  const facts = (w: (typeof st.workers)[number]) => (w.facts?.kind === 'ps-worker' ? w.facts : null);
  const srv = st.servers[0]?.facts?.kind === 'ps-server' ? st.servers[0].facts : null;
  // Blocked at the bound: live, reachable, its facts say it waits for the bound, and (when the
  // server's count is known) its clock really is more than s ahead of the slowest — a worker whose
  // read is merely in flight after a heal is not "ahead".
  const ahead = (w: (typeof st.workers)[number]): boolean => {
    const f = facts(w);
    if (!srv || srv.minClock === undefined || f?.clock === undefined || raw === 'inf') return true;
    return f.clock > srv.minClock + raw;
  };
  const blocked = st.workers.filter((w) => w.up && facts(w)?.state === 'waiting' && facts(w)?.waitFor === 'bound' && !st.isolated.includes(w.id) && ahead(w)).map((w) => w.id);
  const slowest = srv?.slowest?.length ? srv.slowest : null;
  if (!st.started)
    return S(
      `Stale synchronous parallel, s = ${s}: a worker may run at most ${s} clocks ahead of the slowest one, then it waits. s = 0 is BSP (a barrier every step), s = ∞ is ASP. It keeps staleness bounded, which is not linearizability (${pacelc}). Press ▶ to start.`,
      `陈旧同步并行，s = ${s}：工作节点最多可以领先最慢的节点 ${s} 个时钟，再多就得等待。s = 0 就是 BSP（每一步一个栅栏），s = ∞ 就是 ASP。它保证的是有界陈旧，而不是线性一致（${pacelc}）。按 ▶ 开始。`,
    );
  if (st.serverDown)
    return S(
      `${server} crashed: no update is applied and no worker can read; everyone waits until it restarts from its persisted state (availability ${num(st.availability)}).`,
      `${server} 已崩溃：没有更新被应用，也没有工作节点能读取参数；大家都要等它从持久化状态重启（可用性 ${num(st.availability)}）。`,
    );
  if (raw === 'inf') {
    if (st.isolated.length > 0)
      return S(
        `With s = ∞ (ASP) nobody ever blocks on the bound: ${list(st.isolated, 'en')} cannot reach ${server} and ${st.isolated.length === 1 ? 'stops' : 'stop'}, the others keep training and the clock gap grows without limit (largest so far ${gap}). No bound, no waiting: ${pacelc}.`,
        `s = ∞（ASP）时没有人会因界限而阻塞：${list(st.isolated, 'zh')} 连不上 ${server} 而停下，其他节点继续训练，时钟差无限增长（目前最大 ${gap}）。没有界限，也就没有等待：${pacelc}。`,
      );
    return S(
      `s = ∞ is ASP: nobody waits for the slowest (wait fraction ${waitText}), and staleness has no bound (largest clock gap so far ${gap}) — eventual consistency, ${pacelc}.`,
      `s = ∞ 就是 ASP：没有人等最慢的节点（等待占比 ${waitText}），陈旧度也没有上界（目前最大时钟差 ${gap}）——最终一致性，${pacelc}。`,
    );
  }
  if (st.isolated.length > 0) {
    const others = st.workers.filter((w) => w.up && !st.isolated.includes(w.id)).map((w) => w.id);
    if (raw === 0)
      return S(
        `${list(st.isolated, 'en')} cannot reach ${server}, so ${st.isolated.length === 1 ? 'its clock stops' : 'their clocks stop'}; with s = 0 (BSP) the others finish their clock and block at the barrier (${list(blocked.length ? blocked : others, 'en')} waiting). SSP keeps the clock gap ≤ s and gives up availability once the bound is hit (PC) — bounded staleness, not linearizability.`,
        `${list(st.isolated, 'zh')} 连不上 ${server}，时钟停住了；s = 0（BSP）时，其他节点做完当前时钟就卡在屏障处阻塞（${list(blocked.length ? blocked : others, 'zh')} 在等待）。SSP 保证时钟差 ≤ s，一旦触及界限就放弃可用性（PC）——这是有界陈旧，不是线性一致。`,
      );
    if (blocked.length > 0)
      return S(
        `${list(st.isolated, 'en')} cannot reach ${server}, so ${st.isolated.length === 1 ? 'its clock stops' : 'their clocks stop'}; the others ran up to s = ${s} clocks ahead and now block at the bound (${list(blocked, 'en')} waiting). SSP keeps the clock gap ≤ s and gives up availability once the bound is hit (PC) — bounded staleness, not linearizability.`,
        `${list(st.isolated, 'zh')} 连不上 ${server}，时钟停住了；其他节点最多领先 s = ${s} 个时钟，现在卡在界限处阻塞（${list(blocked, 'zh')} 在等待）。SSP 保证时钟差 ≤ s，一旦触及界限就放弃可用性（PC）——这是有界陈旧，不是线性一致。`,
      );
    return S(
      `${list(st.isolated, 'en')} cannot reach ${server}; the others keep training until they are s = ${s} clocks ahead of ${st.isolated.length === 1 ? 'it' : 'them'} — then they will block at the bound (largest clock gap so far ${gap}).`,
      `${list(st.isolated, 'zh')} 连不上 ${server}；其他节点继续训练，直到领先它 s = ${s} 个时钟——那时就会卡在界限处阻塞（目前最大时钟差 ${gap}）。`,
    );
  }
  if (blocked.length > 0) {
    const slow = st.slow[0];
    // The server's slowest may still count a waiting worker whose clock it has not heard yet: a
    // worker is never named both ahead of the slowest and among them.
    const behind = slowest?.filter((id) => !blocked.includes(id)) ?? [];
    const whoEn = behind.length ? ` (${list(behind, 'en')} at clock ${srv!.minClock})` : slow ? ` (${slow.node}, ×${factor(slow.factor)})` : '';
    const whoZh = behind.length ? `（${list(behind, 'zh')}，时钟 ${srv!.minClock}）` : slow ? `（${slow.node}，×${factor(slow.factor)}）` : '';
    if (raw === 0)
      return S(
        `${list(blocked, 'en')} ${blocked.length === 1 ? 'has' : 'have'} finished ${blocked.length === 1 ? 'its' : 'their'} clock and ${blocked.length === 1 ? 'waits' : 'wait'} at the barrier for the slowest${whoEn}: with s = 0 no worker starts a clock before every worker has finished the last (wait fraction ${waitText}).`,
        `${list(blocked, 'zh')} 已做完这个时钟，正在屏障处等最慢的节点${whoZh}：s = 0 时，所有节点都做完上一个时钟之前，谁也不能开始下一个（等待占比 ${waitText}）。`,
      );
    // The bound is on clocks; the strip's staleness counts versions (8 workers: 25 beside "≤ 4").
    return S(
      `${list(blocked, 'en')} ${blocked.length === 1 ? 'is' : 'are'} s = ${s} clocks ahead of the slowest worker${whoEn} and ${blocked.length === 1 ? 'waits' : 'wait'} at the bound: the clock gap stays ≤ ${s}, paid for in waiting (wait fraction ${waitText}).`,
      `${list(blocked, 'zh')} 已领先最慢的节点${whoZh} s = ${s} 个时钟，正卡在界限处等待：时钟差保持 ≤ ${s}，代价是等待时间（等待占比 ${waitText}）。`,
    );
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return S(
      `${w.node} is slow (×${factor(w.factor)}): the others run ahead of it, but never by more than s = ${s} clocks (largest gap so far ${gap}); between BSP's waiting and ASP's unbounded staleness.`,
      `${w.node} 变慢了（×${factor(w.factor)}）：其他节点跑在它前面，但领先不会超过 s = ${s} 个时钟（目前最大时钟差 ${gap}）；介于 BSP 的等待和 ASP 的无界陈旧之间。`,
    );
  }
  if (raw === 0)
    return S(
      `s = 0 is BSP: every clock waits for the slowest worker (wait fraction ${waitText}), so the workers move in lockstep — ${pacelc}.`,
      `s = 0 就是 BSP：每个时钟都要等最慢的节点（等待占比 ${waitText}），工作节点锁步前进——${pacelc}。`,
    );
  return S(
    `Bounded staleness, s = ${s}: workers never wait for each other unless one gets ${s} clocks ahead of the slowest (largest gap so far ${gap}, wait fraction ${waitText}). Consistency is traded for latency, but only up to the bound — ${pacelc}.`,
    `有界陈旧，s = ${s}：除非某个节点领先最慢的节点 ${s} 个时钟，否则节点之间互不等待（目前最大时钟差 ${gap}，等待占比 ${waitText}）。用一致性换延迟，但只换到界限为止——${pacelc}。`,
  );
}
