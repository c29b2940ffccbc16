import { factor, list, num } from '../words/text';
import { S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Synchronous parameter server (BSP, optional backup workers): lockstep rounds — every worker
 * trains on the parameters of the same closed round; PC/EC.
 */
export function psSync(st: ExplainState): Sentence {
  const b = st.cfg.kind === 'ps-sync' ? st.cfg.backupWorkers : 0;
  const server = st.servers[0]?.id ?? 's0';
  const n = st.workers.length;
  const need = n - b;
  const a = num(st.availability);
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  const backupEn = `${b} backup worker${b === 1 ? '' : 's'}`;
  if (!st.started)
    return S(
      `Synchronous parameter server (BSP): each round ${server} waits at a barrier for ${b > 0 ? `the first ${need} of ${n} gradients (${backupEn})` : `all ${n} gradients`}, applies them, and sends everyone the same parameters. Press ▶ to start.`,
      `同步参数服务器（BSP）：每一轮 ${server} 在栅栏处等待${b > 0 ? ` ${n} 个梯度中最先到达的 ${need} 个（${b} 个备份工作节点）` : `全部 ${n} 个梯度`}，应用之后把同一份参数发给所有节点。按 ▶ 开始。`,
    );
  if (st.serverDown)
    return S(
      `${server} crashed: no round can close, so every worker waits (availability ${a}); it restarts from its persisted state and nothing acknowledged is lost. Consistency kept, A lost.`,
      `${server} 已崩溃：没有一轮能结束，所有工作节点都在等待（可用性 ${a}）；它会从持久化状态重启，已确认的内容不会丢失。保住了一致，放弃了 A。`,
    );
  const missing = [...new Set([...st.isolated, ...st.crashedWorkers])];
  if (missing.length > 0) {
    if (missing.length <= b)
      return S(
        `${list(missing, 'en')} ${missing.length === 1 ? 'is' : 'are'} missing, but with ${backupEn} a round closes with the first ${need} gradients: the others keep training in lockstep on identical parameters.`,
        `${list(missing, 'zh')} 缺席了，但有 ${b} 个备份工作节点，每轮拿到最先到达的 ${need} 个梯度就能结束：其他节点继续在相同的参数上锁步训练。`,
      );
    return S(
      `The barrier needs ${need} gradients but ${list(missing, 'en')} cannot deliver ${missing.length === 1 ? 'its gradient' : 'theirs'}: the round never closes and every worker waits (availability ${a}). The synchronous PS keeps its workers in lockstep and gives up A — PC.`,
      `栅栏需要 ${need} 个梯度，但 ${list(missing, 'zh')} 送不过来：这一轮永远结束不了，所有工作节点都在等待（可用性 ${a}）。同步参数服务器让工作节点保持锁步，放弃了 A——PC。`,
    );
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    if (b > 0)
      return S(
        `${w.node} is slow (×${factor(w.factor)}), but the server closes each round with the first ${need} gradients and drops the late one: backup workers buy back most of the barrier's delay.`,
        `${w.node} 变慢了（×${factor(w.factor)}），但服务器拿到最先到达的 ${need} 个梯度就结束这一轮，丢弃迟到的梯度：备份工作节点挽回了栅栏的大部分延迟。`,
      );
    return S(
      `${w.node} is slow (×${factor(w.factor)}): every round waits for it at the barrier. With ${n} workers and a straggle probability p per step, a round is delayed with probability 1 − (1 − p)^${n} — consistency costs latency (the "EC" in ${pacelc}).`,
      `${w.node} 变慢了（×${factor(w.factor)}）：每一轮都要在栅栏处等它。${n} 个工作节点、每步掉队概率为 p 时，一轮被拖慢的概率是 1 − (1 − p)^${n}——一致性的代价是延迟（${pacelc} 中的“EC”）。`,
    );
  }
  // Under attack the barrier still does its job, and that is the point (L13): consistency is not integrity.
  if (st.attacked)
    return S(
      `The barrier still holds: every round all workers get the same parameters from ${server}, poisoned or not (no version conflicts) — consistency is not integrity.`,
      `栅栏照常工作：每一轮所有工作节点都从 ${server} 拿到相同的参数，无论是否被投毒（没有版本冲突）——一致性不等于完整性。`,
    );
  return S(
    `Healthy barrier: every round all workers get the same parameters from ${server} (lockstep, no version conflicts). Even without a partition each round waits for the slowest counted gradient — ${pacelc}.`,
    `栅栏运行正常：每一轮所有工作节点都从 ${server} 拿到相同的参数（锁步，没有版本冲突）。即使没有网络分区，每一轮也要等被计入的最慢梯度——${pacelc}。`,
  );
}
