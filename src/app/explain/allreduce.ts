import { factor, list, num } from '../words/text';
import { S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Ring all-reduce (TRUTHS: it blocks under a partition — keeps its replicas consistent and gives
 * up A; PC/EC, never "CA"). Its consistency is lockstep: every replica passes through the same
 * versions, one round at a time; a replica may lag while a round's result reaches it.
 */
export function allreduce(st: ExplainState): Sentence {
  const a = num(st.availability);
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  if (!st.started)
    return S(
      `Ring all-reduce: each round, every worker's gradient travels around the ring (reduce-scatter, then all-gather), and a round ends with all replicas at the same version — lockstep. Press ▶ to start.`,
      `环形全归约：每一轮，各工作节点的梯度沿环传递（先归约-散射，再全收集），一轮结束时所有副本处于同一版本——锁步前进。按 ▶ 开始。`,
    );
  if (st.networkFault) {
    const aEn = st.availability === 0 ? 'availability 0' : `availability ${a}, falling to 0`;
    const aZh = st.availability === 0 ? '可用性为 0' : `可用性 ${a}，正降向 0`;
    return S(
      `The ring is cut: every worker waits for a chunk that cannot arrive. All-reduce keeps its replicas consistent (lockstep, no version conflicts) and gives up A (${aEn}) — it is ${pacelc}, not "CA".`,
      `环被切断：所有工作节点都在等一个到不了的数据块。全归约保住了副本的一致（锁步，没有版本冲突），放弃了 A（${aZh}）——它是 ${pacelc}，而不是“CA”。`,
    );
  }
  if (st.crashedWorkers.length > 0) {
    const en = list(st.crashedWorkers, 'en');
    const zh = list(st.crashedWorkers, 'zh');
    return S(
      `${en} crashed: the ring has a gap, so every live worker waits for its chunk. Consistency kept (no version conflicts), A lost (availability ${a}) until ${en} restarts.`,
      `${zh} 已崩溃：环上出现缺口，所有存活的工作节点都在等它的数据块。保住了一致（没有版本冲突），在它重启之前放弃了 A（可用性 ${a}）。`,
    );
  }
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return S(
      `${w.node} is slow (×${factor(w.factor)}): every round waits for the slowest worker, so everyone steps at its pace. Even without a partition, consistency costs latency — the "EC" in ${pacelc}.`,
      `${w.node} 变慢了（×${factor(w.factor)}）：每一轮都要等最慢的节点，所以所有节点都按它的节奏前进。即使没有网络分区，一致性也要用延迟来换——这就是 ${pacelc} 中的“EC”。`,
    );
  }
  if (st.recentlyHealed)
    return S(
      'Healed: the ring simply resumes from the version every worker already shares — there is nothing to reconcile.',
      '已恢复：环直接从所有节点共同持有的版本继续，没有任何需要“对账”的东西。',
    );
  const healthy = st.attacked ? S('The ring still runs in lockstep', '环仍在锁步运行') : S('Healthy ring', '环路正常');
  return S(
    `${healthy.en}: all ${st.workers.length} workers step through the same versions, one round at a time (lockstep, no version conflicts); a worker may briefly lag while a round's result reaches it. Even without a partition it pays for this by waiting for the slowest worker every round (PACELC: ${pacelc}).`,
    `${healthy.zh}：${st.workers.length} 个工作节点逐轮经过同一串版本（锁步，没有版本冲突）；某一轮的结果送达之前，个别节点会短暂落后。即使没有网络分区，它也要为此付出代价：每一轮都等最慢的节点（PACELC 中为 ${pacelc}）。`,
  );
}
